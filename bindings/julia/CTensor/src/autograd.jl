# Autograd: the header's "Autograd" section.  The graph is recorded by the library itself:
# every ct_* op records its node when grad mode is on and an input requires grad, so this
# file only exposes the flags, the gradients, backward and grad mode.  Names follow torch's
# (t.requires_grad_, t.is_leaf, t.grad, t.backward(), t.detach(), torch.no_grad()), with
# Julia's `!` for functions that change their argument.

"""
    requires_grad(t) -> Bool          (torch: t.requires_grad)

True if gradients flow to or through `t`: a leaf marked with `requires_grad!`, a result of
an op recorded from such a tensor (it has a `grad_fn_name`), or a view of one.
"""
requires_grad(t::Tensor) = check_bool(L.ct_requires_grad(t))

"""
    requires_grad!(t, flag = true) -> t          (torch: t.requires_grad_(flag))

Marks the leaf `t` as requiring grad (or not) and returns it.  Only floating-point tensors
may require grad (`CTensorError(CT_ERR_DTYPE)`, "only Tensors of floating point dtype can
require gradients"); clearing the flag of a non-leaf fails with torch's message.
"""
function requires_grad!(t::Tensor, flag::Bool = true)
    check_status(L.ct_set_requires_grad(t, flag ? Cint(1) : Cint(0)))
    return t
end

"""
    isleaf(t) -> Bool          (torch: t.is_leaf)

True if `t` has no `grad_fn` (every tensor that does not require grad is a leaf).
"""
isleaf(t::Tensor) = check_bool(L.ct_is_leaf(t))

"""
    grad(t) -> Union{Tensor, Nothing}          (torch: t.grad)

The gradient accumulated into the leaf `t` by `backward!`, same size and element type as
`t`, or `nothing` (never ran backward, a non-leaf, cleared).  Later `backward!` calls add
into this same tensor in place, so a `grad(t)` taken before sees them.  Not exported (a
generic name): `using CTensor: grad`.
"""
function grad(t::Tensor{T,N}) where {T,N}
    clear_error()
    h = L.ct_grad(t)
    if h == C_NULL
        L.ct_last_status() == 0 || throw(last_error())
        return nothing
    end
    return own_handle(h)::Tensor{T,N}
end

"""
    grad!(t, g::Union{Tensor, Nothing}) -> t          (torch: t.grad = g)

Sets the gradient of `t` to `g` (which later `backward!` calls add into), or clears it with
`nothing`.  `g` must have `t`'s size and element type (torch's "attempting to assign a
gradient of size ... / with dtype ...").
"""
function grad!(t::Tensor, g::Union{Tensor,Nothing})
    if g === nothing
        check_status(L.ct_set_grad(t, C_NULL))
    else
        check_status(L.ct_set_grad(t, g))
    end
    return t
end

"""
    backward!(t, gradient = nothing; retain_graph = create_graph, create_graph = false, inputs = nothing)
                                        (torch: t.backward(gradient, retain_graph, create_graph, inputs))

Runs the graph from `t` and adds d`t`/d`leaf` (times `gradient`, which has `t`'s size; it
may be omitted for a one-element `t`) into `grad(leaf)` of every leaf that requires grad, or
only of the tensors in `inputs` (a non-leaf among them keeps its gradient, as after
`retain_grad!`).  With `create_graph` the gradients have a graph of their own, so they can
be differentiated again (higher-order gradients; a leaf's `grad` then holds the leaf alive
until it is cleared, torch's reference cycle).  Without `retain_graph` the graph's saved
tensors are freed, and a second `backward!` through them fails with torch's "Trying to
backward through the graph a second time".  A saved tensor written in place since it was
saved fails with torch's "one of the variables needed for gradient computation has been
modified by an inplace operation".  Returns `nothing`.
"""
function backward!(t::Tensor, gradient::Union{Tensor,Nothing} = nothing; create_graph::Bool = false,
                   retain_graph::Bool = create_graph, inputs = nothing)
    r = retain_graph ? Cint(1) : Cint(0)
    if inputs === nothing && !create_graph
        if gradient === nothing
            check_status(L.ct_backward(t, C_NULL, r))
        else
            check_status(L.ct_backward(t, gradient, r))
        end
        return nothing
    end
    for x in (t, gradient, (inputs isa Tensor ? (inputs,) : something(inputs, ()))...)
        x isa Tensor && isclosed(x) && _julia_error(L.CT_ERR_INVALID_ARGUMENT, "backward!: a tensor was closed")
    end
    ins = inputs === nothing ? () : inputs isa Tensor ? (inputs,) : Tuple(inputs)
    roots = Ptr{L.ct_tensor}[handle(t)]
    grads = Ptr{L.ct_tensor}[gradient === nothing ? C_NULL : handle(gradient)]
    in_handles = Ptr{L.ct_tensor}[handle(x) for x in ins]
    GC.@preserve t gradient ins begin
        check_status(L.ct_autograd_backward(roots, 1, grads, in_handles, length(in_handles), r,
                                            create_graph ? Cint(1) : Cint(0)))
    end
    return nothing
end

"""
    autograd_grad(outputs, inputs; grad_outputs = nothing, retain_graph = create_graph,
                  create_graph = false, allow_unused = false) -> Vector
                                        (torch: torch.autograd.grad(outputs, inputs, ...))

The gradients of `outputs` (a `Tensor` or several) with respect to each of `inputs` (leaves
or not), one entry per input: a new `Tensor` of the input's size and element type, or
`nothing` for an input the outputs do not depend on (with `allow_unused`; else torch's "One
of the differentiated Tensors appears to not have been used in the graph").  `grad_outputs`
gives each output's gradient (`nothing` for a one-element output: 1).  No `grad` is
touched, and only the part of the graph leading to `inputs` runs.  With `create_graph` the
results have a graph of their own (differentiate them again for second derivatives).
"""
function autograd_grad(outputs, inputs; grad_outputs = nothing, create_graph::Bool = false,
                       retain_graph::Bool = create_graph, allow_unused::Bool = false)
    outs = outputs isa Tensor ? (outputs,) : Tuple(outputs)
    ins = inputs isa Tensor ? (inputs,) : Tuple(inputs)
    gouts = grad_outputs === nothing ? ntuple(_ -> nothing, length(outs)) :
            grad_outputs isa Tensor ? (grad_outputs,) : Tuple(grad_outputs)
    length(gouts) == length(outs) ||
        _julia_error(L.CT_ERR_INVALID_ARGUMENT,
                     "autograd_grad: $(length(gouts)) grad_outputs for $(length(outs)) outputs")
    for x in (outs..., ins..., gouts...)
        x isa Tensor && isclosed(x) && _julia_error(L.CT_ERR_INVALID_ARGUMENT, "autograd_grad: a tensor was closed")
    end
    out_handles = Ptr{L.ct_tensor}[handle(x) for x in outs]
    grad_handles = Ptr{L.ct_tensor}[g === nothing ? C_NULL : handle(g) for g in gouts]
    in_handles = Ptr{L.ct_tensor}[handle(x) for x in ins]
    results = fill(Ptr{L.ct_tensor}(C_NULL), length(ins))
    GC.@preserve outs gouts ins begin
        check_status(L.ct_autograd_grad(out_handles, length(out_handles), grad_handles, in_handles,
                                        length(in_handles), retain_graph ? Cint(1) : Cint(0),
                                        create_graph ? Cint(1) : Cint(0), allow_unused ? Cint(1) : Cint(0),
                                        results))
    end
    return Union{Tensor,Nothing}[p == C_NULL ? nothing : own_handle(p) for p in results]
end
    return nothing
end

"""
    retain_grad!(t) -> t          (torch: t.retain_grad())

Makes the non-leaf `t` keep the gradient that reaches it in `backward!`, as `grad(t)` (each
backward gives it a new tensor, summed with the previous one); an in-place op on `t` keeps
the registration.  Nothing to do for a leaf.  Fails for a `t` that does not require grad
(torch's "can't retain_grad on Tensor that has requires_grad=False").
"""
function retain_grad!(t::Tensor)
    check_status(L.ct_retain_grad(t))
    return t
end

"""
    retains_grad(t) -> Bool          (torch: t.retains_grad)

True if `retain_grad!` was called on the non-leaf `t`.
"""
retains_grad(t::Tensor) = check_bool(L.ct_retains_grad(t))

"""
    detach(t::Tensor) -> Tensor          (torch: t.detach())

A tensor on `t`'s memory (same storage, layout and version counter, not a view) with no
graph: it does not require grad, and writes through it are not seen by autograd.  The same
as `alias(t)`.  A method of `Base.detach` (whose other methods detach commands).
"""
Base.detach(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_detach(t))::Tensor{T,N}

"""
    grad_fn_name(t) -> Union{String, Nothing}          (torch: type(t.grad_fn).__name__)

The name of the node that made `t`, as torch prints it (`"MulBackward0"`, `"CopySlices"`,
...), or `nothing` for a leaf.
"""
function grad_fn_name(t::Tensor)
    clear_error()
    p = L.ct_grad_fn_name(t)
    if p == C_NULL
        L.ct_last_status() == 0 || throw(last_error())
        return nothing
    end
    return unsafe_string(p)
end

"""
    is_grad_enabled() -> Bool          (torch.is_grad_enabled())

Grad mode of the calling OS thread (on unless turned off).
"""
is_grad_enabled() = L.ct_is_grad_enabled() == 1

"""
    set_grad_enabled!(flag::Bool) -> Bool          (torch.set_grad_enabled(flag))

Turns grad mode on or off for the calling OS thread and returns the previous mode.
"""
set_grad_enabled!(flag::Bool) = L.ct_set_grad_enabled(flag ? Cint(1) : Cint(0)) == 1

function _with_grad_mode(f, flag::Bool)
    prev = set_grad_enabled!(flag)
    try
        return f()
    finally
        set_grad_enabled!(prev)
    end
end

"""
    no_grad(f)          (torch: with torch.no_grad(): ...)
    no_grad() do ... end

Calls `f()` with grad mode off (results of ops inside record no graph and do not require
grad) and restores the previous mode afterwards, also when `f` throws; returns `f()`.
Grad mode belongs to the OS thread: a task that yields inside `f` may resume on another
thread (Julia 1.7+ task migration), so keep `f` free of yields (I/O, locks, `wait`) or run it
in a sticky task.
"""
no_grad(f) = _with_grad_mode(f, false)

"""
    enable_grad(f)          (torch: with torch.enable_grad(): ...)
    enable_grad() do ... end

Calls `f()` with grad mode on (inside `no_grad`), restoring the previous mode afterwards.
"""
enable_grad(f) = _with_grad_mode(f, true)

"""
    is_inference_mode_enabled() -> Bool          (torch.is_inference_mode_enabled())

Inference mode of the calling OS thread (off unless turned on).
"""
is_inference_mode_enabled() = L.ct_is_inference_mode_enabled() == 1

"""
    inference_mode(f, mode::Bool = true)          (torch: with torch.inference_mode(mode): ...)
    inference_mode() do ... end
    inference_mode(false) do ... end

Calls `f()` in inference mode (`mode` true: grad mode off too) or out of it (`mode` false:
inference mode off and grad mode ON, as torch's), and restores both modes afterwards, also
when `f` throws; returns `f()`.  Tensors created inside are inference tensors
(`is_inference`): `version` throws for them ("Inference tensors do not track version
counter."), their views are not views (`is_view` false), and outside the block they may not be
written in place, set to require grad, or saved by an op that records a graph (torch's
messages, `CTensorError(CT_ERR_INVALID_ARGUMENT)`).  The mode belongs to the OS thread: keep
`f` free of yields, as for `no_grad`.
"""
function inference_mode(f, mode::Bool = true)
    prev = L.ct_set_inference_mode(mode ? Cint(1) : Cint(0))
    try
        return f()
    finally
        check_status(L.ct_restore_inference_mode(prev))
    end
end

"""
    is_inference(t) -> Bool          (torch: t.is_inference())

True if `t` was created in inference mode, or is a view, `detach` or `tensor_data` of such a
tensor.
"""
is_inference(t::Tensor) = check_bool(L.ct_tensor_is_inference(t))
