# Autograd callbacks written in Julia: tensor hooks (torch's Tensor.register_hook) and custom
# ops with a Julia backward (torch's autograd.Function), over the header's
# ct_tensor_register_hook and ct_custom_op_apply.
#
# How a Julia function reaches C: one @cfunction trampoline per callback kind, made in
# __init__, and a `user_data` that names a Julia object holding the function.  The object is
# rooted from registration until the library calls `release`, when no node or tensor can call
# it again; so the GC never frees what C may still call, and nothing stays rooted after the
# graph is gone.  `release` runs wherever the last reference to the graph is dropped (a
# finalizer, another thread, another language), so it may not allocate or lock: the rooting
# is foreign.jl's (a key in _ROOTS, user_data a malloc'ed [next, key] node that release
# pushes onto the lock-free _RELEASED stack, unrooted by the next drain_foreign_roots!).
#
# Threads: the library calls a hook or backward on the thread that runs `backward!`, which
# here is the Julia thread calling it.  An exception in the callback is caught and handed to
# the library as an error (ct_set_error); `backward!` then throws it as a CTensorError with
# the exception's message.  A graph run with ct_backward from a thread Julia does not know
# must not reach a Julia callback.

mutable struct _Callback
    f::Any
end

# Roots cb and returns the user_data that names it.
function _root(cb::_Callback)
    drain_foreign_roots!()
    node, _ = _root!(cb)
    return Ptr{Cvoid}(node)
end

# The callback user_data names (called by the library on the Julia thread running backward!).
_callback(ud::Ptr{Cvoid}) = lock(() -> _ROOTS[UInt64(unsafe_load(Ptr{UInt}(ud), 2))], _ROOTS_LOCK)::_Callback

# The library's release(user_data): no allocation, no lock (see above).
_release_callback(ud::Ptr{Cvoid})::Cvoid = _foreign_deleter(C_NULL, ud)

"""
    live_callbacks() -> Int

Julia hooks and custom-op backwards the library can still call (rooted until their graph or
tensor is gone and a drain ran): 0 again once every graph using them is freed and collected.
"""
function live_callbacks()
    drain_foreign_roots!()
    return lock(() -> count(v -> v isa _Callback, values(_ROOTS)), _ROOTS_LOCK)
end

# A borrowed handle the library lends to a callback, as a Tensor of its own reference.
_borrowed(p::Ptr{L.ct_tensor}) = own_handle(L.ct_tensor_retain(p))

# Stores a callback's result r in slot i of an out-array the library gave it: a new reference
# (the library takes it) for a Tensor, nothing for `nothing`; anything else is an error naming
# `what`.
function _store_reference!(slots::Ptr{Ptr{L.ct_tensor}}, i::Integer, r, what)
    r === nothing && return nothing
    r isa Tensor || _julia_error(L.CT_ERR_INVALID_ARGUMENT, "$what is a $(typeof(r)), not a Tensor or nothing")
    unsafe_store!(slots, L.ct_tensor_retain(handle(r)), i)
    return nothing
end

# The status and message the library reports for an exception thrown by a callback.
function _report(e)::Cint
    status = e isa CTensorError ? e.status : Int(L.CT_ERR_INVALID_ARGUMENT)
    msg = e isa CTensorError ? e.message : sprint(showerror, e)
    L.ct_set_error(Cint(status), msg)
    return Cint(status)
end

# ---- Tensor hooks ----------------------------------------------------------------------------

"""
    HookHandle

What `register_hook` returns (torch's RemovableHandle): `remove!(h)` unregisters the hook,
`hook_id(h)` is its process-unique number.  Dropping the handle keeps the hook registered.
"""
mutable struct HookHandle
    ptr::Ptr{L.ct_hook_handle}
    function HookHandle(p::Ptr{L.ct_hook_handle})
        h = new(p)
        finalizer(h -> (L.ct_hook_handle_release(h.ptr); h.ptr = C_NULL), h)
        return h
    end
end

function _hook_trampoline(ud::Ptr{Cvoid}, g::Ptr{L.ct_tensor}, replacement::Ptr{Ptr{L.ct_tensor}})::Cint
    try
        cb = _callback(ud)
        _store_reference!(replacement, 1, cb.f(_borrowed(g)), "a hook's result")
        return Cint(0)
    catch e
        return _report(e)
    end
end

"""
    register_hook(f, t) -> HookHandle          (torch: t.register_hook(f))
    register_hook(t) do g ... end

Calls `f(g)` during `backward!` with the gradient `g` computed for `t`: for a non-leaf when
it is complete (before `t`'s node runs), for a leaf before it is added into `grad(t)`.
Returning a `Tensor` (of `g`'s size and element type) replaces the gradient; returning
`nothing` keeps it.  Several hooks of `t` run in registration order; `retain_grad!` stores
the gradient after them.  `g` is the library's: read it, do not write it in place.  An
exception thrown by `f` stops `backward!`, which throws it as a `CTensorError` with its
message.  `t` must require grad (torch's "cannot register a hook on a tensor that doesn't
require gradient").  The hook lives as long as `t` or the graph nodes that can call it, or
until `remove!`.  `f` must not hold `t`'s graph alive through a global: a closure over `t`
itself is fine.
"""
function register_hook(f, t::Tensor)
    cb = _Callback(f)
    ud = _root(cb)
    out = Ref{Ptr{L.ct_hook_handle}}(C_NULL)
    # On failure the library has already called release (it does at once).
    check_status(L.ct_tensor_register_hook(t, HOOK_TRAMPOLINE[], ud, RELEASE_TRAMPOLINE[], out))
    return HookHandle(out[])
end

"""
    remove!(h::HookHandle) -> nothing          (torch: handle.remove())

Unregisters the hook: it is not called again.  Removing twice does nothing.
"""
function remove!(h::HookHandle)
    h.ptr == C_NULL && return nothing
    check_status(L.ct_hook_remove(h.ptr))
    return nothing
end

"""
    hook_id(h::HookHandle) -> Int          (torch: handle.id)

The hook's process-unique number.
"""
hook_id(h::HookHandle) = Int(check_nonneg(L.ct_hook_id(h.ptr)))

# ---- Custom ops ------------------------------------------------------------------------------

function _backward_trampoline(ud::Ptr{Cvoid}, n_out::Cint, grads::Ptr{Ptr{L.ct_tensor}}, n_in::Cint,
                              grad_inputs::Ptr{Ptr{L.ct_tensor}})::Cint
    try
        gs = ntuple(i -> (p = unsafe_load(grads, i); p == C_NULL ? nothing : _borrowed(p)), Int(n_out))
        r = _callback(ud).f(gs...)
        rs = r isa Tuple ? r : (r,)
        length(rs) == n_in || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
                                           "custom op backward returned $(length(rs)) gradients, expected $n_in")
        for (i, gi) in enumerate(rs)
            _store_reference!(grad_inputs, i, gi, "custom op backward: gradient $i")
        end
        return Cint(0)
    catch e
        return _report(e)
    end
end

"""
    custom_op(forward, backward, name, inputs...; materialize_grads = true,
              non_differentiable = (), dirty = (), differentiable_backward = false)
                                                            (torch: a torch.autograd.Function)

An op of your own inside a graph.  `forward(inputs...)` runs with grad mode off and returns
a `Tensor` or a tuple of them (computed with the library's ops or written from Julia).  When
grad mode is on and an input requires grad, each differentiable output gets one node named
`name * "Backward"` as `grad_fn_name` (torch names a Python Function's so), and `backward!`
calls `backward(grads...)`, one gradient per output (`nothing` for an output no gradient
reached when `materialize_grads` is false, zeros otherwise), which returns one gradient per
input (a `Tensor`, or `nothing`; a single input may return the tensor itself).  A gradient
must be expandable to its input's size (it is summed to it and converted to its element
type, as torch does); an exception thrown by `backward` makes `backward!` throw it as a
`CTensorError` with its message.  Output numbers (1-based) in `non_differentiable` get no
graph (torch's `ctx.mark_non_differentiable`); those in `dirty` must be inputs that forward
wrote in place (torch's `ctx.mark_dirty`).  To use an output in `backward`, capture
`detach(output)`, never the output itself (that would make a reference cycle through the
node, which is then never freed), and read it there through `saved_output`; capturing inputs
is fine.  With `differentiable_backward`
(torch's default for a Python Function), `backward` runs with grad mode on under
`create_graph` and the gradients keep the history of the library ops it computed them with,
so `autograd_grad` can differentiate them again; without it (torch's `once_differentiable`)
a second derivative through the op fails with "derivative for <name>Backward is not
implemented".  Set it only when `backward` computes with library ops from its gradients and
the captured inputs (not from `detach`ed outputs or Julia arrays).  Returns what `forward` did.
"""
function custom_op(forward, backward, name::AbstractString, inputs::Tensor...; materialize_grads::Bool = true,
                   non_differentiable = (), dirty = (), differentiable_backward::Bool = false)
    outs = no_grad(() -> forward(inputs...))
    single = outs isa Tensor
    ts = single ? (outs,) : Tuple(outs)
    all(o -> o isa Tensor, ts) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
                                               "custom_op $name: forward must return a Tensor or a tuple of Tensors")
    n = length(ts)
    flags = zeros(Cint, n)
    for (set, bit) in ((non_differentiable, L.CT_CUSTOM_NON_DIFFERENTIABLE), (dirty, L.CT_CUSTOM_DIRTY))
        for k in set
            1 <= k <= n || _julia_error(L.CT_ERR_INVALID_ARGUMENT, "custom_op $name: output $k of $n")
            flags[k] |= Cint(bit)
        end
    end
    differentiable_backward && (flags .|= Cint(L.CT_CUSTOM_DIFFERENTIABLE_BACKWARD))
    cb = _Callback(backward)
    ud = _root(cb)
    in_handles = Ptr{L.ct_tensor}[handle(t) for t in inputs]
    out_handles = Ptr{L.ct_tensor}[handle(t) for t in ts]
    GC.@preserve inputs ts begin
        # On failure, and when nothing is recorded, the library calls release at once.
        check_status(L.ct_custom_op_apply(name, Cint(length(inputs)), in_handles, Cint(n), out_handles, flags,
                                          materialize_grads ? Cint(1) : Cint(0), BACKWARD_TRAMPOLINE[], ud,
                                          RELEASE_TRAMPOLINE[]))
    end
    return outs
end

"""
    saved_output(saved, k)      (torch: an output read back from ctx.saved_tensors)

Inside the `backward` of a `custom_op` with `differentiable_backward`, output `k` (1-based)
of the op, given `saved = detach(output)` captured in forward: under `create_graph` an alias
of `saved` whose `grad_fn_name` is the op's node, so that a second derivative flows through
the op again (torch's SavedVariable); anywhere else `saved` itself (a new handle).
"""
saved_output(saved::Tensor{T,N}, k::Integer) where {T,N} =
    own_handle(L.ct_custom_op_saved_output(saved, Cint(k - 1)))::Tensor{T,N}

# @cfunction pointers are made at load time (they cannot live in a precompiled image).
const HOOK_TRAMPOLINE = Ref{Ptr{Cvoid}}(C_NULL)
const BACKWARD_TRAMPOLINE = Ref{Ptr{Cvoid}}(C_NULL)
const RELEASE_TRAMPOLINE = Ref{Ptr{Cvoid}}(C_NULL)

function _init_callbacks()
    HOOK_TRAMPOLINE[] = @cfunction(_hook_trampoline, Cint, (Ptr{Cvoid}, Ptr{L.ct_tensor}, Ptr{Ptr{L.ct_tensor}}))
    BACKWARD_TRAMPOLINE[] = @cfunction(_backward_trampoline, Cint,
                                       (Ptr{Cvoid}, Cint, Ptr{Ptr{L.ct_tensor}}, Cint, Ptr{Ptr{L.ct_tensor}}))
    RELEASE_TRAMPOLINE[] = @cfunction(_release_callback, Cvoid, (Ptr{Cvoid},))
    return nothing
end
