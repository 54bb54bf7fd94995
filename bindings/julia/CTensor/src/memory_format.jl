# Memory formats (PyTorch's contiguous_format, channels_last, channels_last_3d, preserve_format)
# as Symbols, and the functions that take one as a `memory_format` keyword.  A format names the
# dim order a NEW tensor is laid out in; it is read off strides, never stored in a tensor.
# Dims are in C order here as everywhere in this package: channels_last is for (N, C, H, W).

const MEMORY_FORMATS = (:contiguous_format, :channels_last, :channels_last_3d, :preserve_format)

function _cformat(fmt::Symbol, op::AbstractString)
    i = findfirst(==(fmt), MEMORY_FORMATS)
    i === nothing && _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "$op: unknown memory format :$fmt (expected one of $(join(map(f -> ":$f", MEMORY_FORMATS), ", ")))")
    return Cint(i - 1)  # ct_memory_format's numbers
end

# The keyword forms of is_contiguous, contiguous_or_self, clone, to_eltype_or_self and
# Tensor{T}(undef, ...) (defined with their plain forms) call these.
_is_contiguous_format(t::Tensor, fmt::Symbol) =
    check_bool(L.ct_is_contiguous_format(t, _cformat(fmt, "is_contiguous")))
_contiguous_format(t::Tensor{T,N}, fmt::Symbol) where {T,N} =
    own_handle(() -> L.ct_contiguous_format(t, _cformat(fmt, "contiguous_or_self")))::Tensor{T,N}
_clone_format(t::Tensor{T,N}, fmt::Symbol) where {T,N} =
    own_handle(() -> L.ct_clone_format(t, _cformat(fmt, "clone")))::Tensor{T,N}
function _to_format(t::Tensor{T,N}, ::Type{S}, fmt::Symbol, copy::Bool) where {T,N,S}
    dt = dtype(S)
    f = _cformat(fmt, "to_eltype_or_self")
    return own_handle(() -> L.ct_to_format(t, dt, f, copy ? Cint(1) : Cint(0)))::Tensor{S,N}
end
function _empty_format(::Type{T}, dims::Dims{N}, fmt::Symbol) where {T,N}
    dt = dtype(T)
    f = _cformat(fmt, "Tensor")
    return own_handle(() -> L.ct_empty_format(N, _csizes(dims), dt, f))::Tensor{T,N}
end

"""
    suggest_memory_format(t) -> Symbol          (torch: t.suggest_memory_format())

`:channels_last` / `:channels_last_3d` when `t`'s strides order its dims as that format does
(gaps allowed), else `:contiguous_format`.
"""
function suggest_memory_format(t::Tensor)
    f = L.ct_suggest_memory_format(t)
    f < 0 && throw(last_error())
    return MEMORY_FORMATS[f + 1]
end

"""
    tensor_empty_strided(T, dims, strides) -> Tensor{T}          (torch: torch.empty_strided(dims, strides))

A new uninitialized tensor with exactly these strides (in elements, C order); its storage
holds the bytes they reach.
"""
function tensor_empty_strided(::Type{T}, dims::Tuple{Vararg{Integer}}, strides::Tuple{Vararg{Integer}}) where {T}
    length(dims) == length(strides) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "dimensionality of sizes ($(length(dims))) must match dimensionality of strides ($(length(strides)))")
    dt = dtype(T)
    return own_handle(() -> L.ct_empty_strided(length(dims), _csizes(dims), _csizes(strides), dt))::Tensor{T,length(dims)}
end

"""
    tensor_empty_like(t; eltype=eltype(t), memory_format=:preserve_format)
    tensor_zeros_like(t; ...), tensor_ones_like(t; ...), tensor_full_like(t, value; ...)

torch's empty_like / zeros_like / ones_like / full_like: a new tensor of `t`'s size laid out by
the preserve rule (`t`'s own strides when `t` is dense, e.g. a permuted tensor stays permuted)
or as `memory_format` says.
"""
function tensor_empty_like(t::Tensor{T,N}; eltype::Type = T, memory_format::Symbol = :preserve_format) where {T,N}
    dt = dtype(eltype)
    fmt = _cformat(memory_format, "tensor_empty_like")
    return own_handle(() -> L.ct_empty_like(t, dt, fmt))::Tensor{eltype,N}
end
function tensor_zeros_like(t::Tensor{T,N}; eltype::Type = T, memory_format::Symbol = :preserve_format) where {T,N}
    dt = dtype(eltype)
    fmt = _cformat(memory_format, "tensor_zeros_like")
    return own_handle(() -> L.ct_zeros_like(t, dt, fmt))::Tensor{eltype,N}
end
function tensor_ones_like(t::Tensor{T,N}; eltype::Type = T, memory_format::Symbol = :preserve_format) where {T,N}
    dt = dtype(eltype)
    fmt = _cformat(memory_format, "tensor_ones_like")
    return own_handle(() -> L.ct_ones_like(t, dt, fmt))::Tensor{eltype,N}
end
function tensor_full_like(t::Tensor{T,N}, value::Real; eltype::Type = T,
                          memory_format::Symbol = :preserve_format) where {T,N}
    dt = dtype(eltype)
    fmt = _cformat(memory_format, "tensor_full_like")
    v = Float64(value)
    return own_handle(() -> L.ct_full_like(t, v, dt, fmt))::Tensor{eltype,N}
end
