# Tensor identity: `.data`, version counters, detach!, and the in-place metadata ops
# (include/ctensor.h, "Tensor identity and in-place metadata ops").
#
# A Julia `Tensor{T,N}` caches its geometry and data address (tensor.jl), so a mutating
# function here refreshes the object it was given, and:
#   - keeps T and N (a different element type or rank is a different Julia type): squeeze!
#     and unsqueeze! return the tensor as a new object and close the one passed in;
#   - refuses to change the storage (set!, set_data!, resize!, resize_as!) while another
#     reference to the same C tensor exists (views whose base it is, a second `Tensor` for the
#     same handle): their cached addresses would dangle; and refuses a resize! that grows a
#     storage another tensor also uses, since the memory moves.

"""
    tensor_data(t) -> Tensor          (torch: t.data)

A tensor on `t`'s memory (same storage and layout, not a view, no graph) with its OWN
version counter: writes through it do not move `version(t)` (unlike `detach(t)`, which
shares `t`'s counter).
"""
tensor_data(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_data(t))::Tensor{T,N}

"""
    same_version_counter(a, b) -> Bool

True if `a` and `b` share one version counter: a tensor, its views and `detach` do;
`tensor_data`, `wrap_array` and new tensors have their own.
"""
same_version_counter(a::Tensor, b::Tensor) = check_bool(L.ct_same_version_counter(a, b))

# Re-reads the geometry and addresses of t's C tensor into the Julia object.
function _refresh!(t::Tensor{T,N}) where {T,N}
    h = handle(t)
    sz = L.ct_tensor_sizes(h)
    st = L.ct_tensor_strides(h)
    t.dims = ntuple(k -> Int(unsafe_load(sz, k)), Val(N))
    t.strides = ntuple(k -> Int(unsafe_load(st, k)), Val(N))
    t.offset = Int(L.ct_tensor_offset(h))
    s = L.ct_tensor_storage(h)
    t.storage_id = L.ct_storage_id(s)
    t.storage_data = L.ct_storage_data(s)
    t.read_only = L.ct_storage_is_read_only(s) == 1
    L.ct_storage_release(s)
    t.data = Ptr{T}(L.ct_tensor_data(h))
    return t
end

function _sole_reference(t::Tensor, op::AbstractString)
    isclosed(t) && _julia_error(L.CT_ERR_INVALID_ARGUMENT, "$op: the tensor is closed")
    refcount(t) == 1 || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "$op: another reference to this tensor exists (a view whose base it is, or another Tensor " *
        "for the same handle); Julia tensors cache their memory address, so its storage may not change")
    return nothing
end

# Growing a storage moves its memory: only when no other tensor or handle uses it.
function _may_grow(t::Tensor, op::AbstractString)
    s = storage(t)
    try
        L.ct_storage_refcount(s) == 2 || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
            "$op: the storage is shared with other tensors; growing it would move their memory")
    finally
        close(s)
    end
    return nothing
end

"""
    detach!(t) -> t          (torch: t.detach_())

Removes `t` from the graph: no grad_fn, `requires_grad` false; the version does not move.
A view is refused ("Can't detach views in-place. Use detach() instead. ...").
"""
function detach!(t::Tensor)
    check_status(L.ct_detach_(t))
    return t
end

"""
    set_data!(t, y) -> t          (torch: t.data = y)

`t` looks at `y`'s memory (storage, layout); it keeps its identity, graph and version
counter (no bump).  Same element type and rank.
"""
function set_data!(t::Tensor{T,N}, y::Tensor{T,N}) where {T,N}
    _sole_reference(t, "set_data!")
    check_status(L.ct_set_data(t, y))
    return _refresh!(t)
end

"""
    set!(t, src::Tensor) -> t          (torch: t.set_(src))
    set!(t::Tensor{T,1}) -> t          (torch: t.set_(): empty)
    set!(t::Tensor{T,1}, s::Storage)   (torch: t.set_(storage): all of it, 1-D)
    set!(t, s::Storage, offset, dims, strides = nothing)

`t` looks at other memory and keeps its own version counter, which moves by one.  A storage
too small for `dims` grows when it is resizable (not shared: see the file's note).
`offset` is in elements, 0-based as in C; strides in elements (`nothing`: contiguous).
"""
function set!(t::Tensor{T,N}, src::Tensor{T,N}) where {T,N}
    t === src || _sole_reference(t, "set!")
    check_status(L.ct_set_(t, src))
    return _refresh!(t)
end
function set!(t::Tensor{T,1}) where {T}
    _sole_reference(t, "set!")
    check_status(L.ct_set_empty_(t))
    return _refresh!(t)
end
function set!(t::Tensor{T,1}, s::Storage) where {T}
    _sole_reference(t, "set!")
    check_status(L.ct_set_storage_(t, s))
    return _refresh!(t)
end
function set!(t::Tensor{T,N}, s::Storage, offset::Integer, dims::Dims{N},
              strides::Union{Nothing,Dims{N}} = nothing) where {T,N}
    _sole_reference(t, "set!")
    st = strides === nothing ? Int64[] : _shape(strides)
    check_status(L.ct_set_storage_strided_(t, s, Int64(offset), Cint(N), _shape(dims),
                                           strides === nothing ? Cint(-1) : Cint(N), st))
    return _refresh!(t)
end

"""
    is_set_to(t, other) -> Bool          (torch: t.is_set_to(other))

True if both look at the same storage with the same offset, sizes and strides.
"""
is_set_to(t::Tensor, other::Tensor) = check_bool(L.ct_is_set_to(t, other))

"""
    resize!(t::Tensor{T,N}, dims::Vararg{Integer,N}; memory_format = nothing) -> t
                                                   (torch: t.resize_(dims, memory_format=...))

New sizes with contiguous strides (or those of `memory_format`: `:contiguous_format`,
`:channels_last` for 4 dims, `:channels_last_3d` for 5) from the same offset; the storage grows
(uninitialized) when it must, and only if no other tensor uses it.  Equal sizes change
nothing unless a format is given (then restrided to it).  Refused for a tensor that requires
grad.
"""
function Base.resize!(t::Tensor{T,N}, dims::Vararg{Integer,N};
                      memory_format::Union{Nothing,Symbol} = nothing) where {T,N}
    _sole_reference(t, "resize!")
    s = storage(t)
    have = try
        nbytes(s)
    finally
        close(s)
    end
    n = prod(Int.(dims); init = 1)
    n > 0 && (t.offset + n) * sizeof(T) > have && _may_grow(t, "resize!")
    if memory_format === nothing
        check_status(L.ct_resize_(t, Cint(N), _shape(dims)))
    else
        check_status(L.ct_resize_format_(t, Cint(N), _shape(dims), _cformat(memory_format, "resize!")))
    end
    return _refresh!(t)
end

"""
    resize_as!(t, other) -> t          (torch: t.resize_as_(other))
"""
resize_as!(t::Tensor{T,N}, other::Tensor{S,N}) where {T,S,N} = resize!(t, size(other)...)

"""
    as_strided!(t, dims, strides, offset = storage_offset(t)) -> t          (torch: t.as_strided_)

`t` takes any geometry inside its storage (never grows it).  One version bump.
"""
function as_strided!(t::Tensor{T,N}, dims::Dims{N}, strides::Dims{N},
                     offset::Integer = storage_offset(t)) where {T,N}
    check_status(L.ct_as_strided_(t, Cint(N), _shape(dims), Cint(N), _shape(strides), Int64(offset)))
    return _refresh!(t)
end

"""
    t!(t) -> t          (torch: t.t_())
    swapdims!(t, d1, d2) -> t          (torch: t.transpose_ / swapdims_ / swapaxes_)

In place: `t` takes the geometry of `t_view(t)` / `transpose_view(t, d1, d2)`; one bump.
"""
function t!(t::Tensor{T,N}) where {T,N}
    check_status(L.ct_t_(t))
    return _refresh!(t)
end
function swapdims!(t::Tensor{T,N}, d1::Integer, d2::Integer) where {T,N}
    check_status(L.ct_transpose_(t, _cdim(t, d1, "swapdims!"), _cdim(t, d2, "swapdims!")))
    return _refresh!(t)
end

# Rank-changing ops: the C tensor changes in place; Julia needs an object of the new type.
function _retyped(t::Tensor{T,N}) where {T,N}
    h = L.ct_tensor_retain(handle(t))
    close(t)
    return own_handle(h)
end

"""
    squeeze!(t) -> Tensor          (torch: t.squeeze_())
    squeeze!(t, d) -> Tensor       (torch: t.squeeze_(d))
    unsqueeze!(t, d) -> Tensor     (torch: t.unsqueeze_(d))

In place on the C tensor (one bump, even when nothing is squeezed).  The rank is part of the
Julia type, so the result is a new `Tensor` object for the same C tensor and `t` is closed:
write `t = unsqueeze!(t, 1)`.
"""
function squeeze!(t::Tensor)
    check_status(L.ct_squeeze_(t))
    return _retyped(t)
end
function squeeze!(t::Tensor, d::Integer)
    check_status(L.ct_squeeze_dim_(t, _cdim(t, d, "squeeze!")))
    return _retyped(t)
end
function unsqueeze!(t::Tensor{T,N}, d::Integer) where {T,N}
    check_status(L.ct_unsqueeze_(t, _cdim(t, d, "unsqueeze!", N + 1)))
    return _retyped(t)
end
