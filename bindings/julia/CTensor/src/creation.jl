# Creating tensors: new storage, contiguous (row-major), storage offset 0.  Every creation
# may allocate, so each goes through own_handle(f), which retries once after a garbage
# collection when the library runs out of memory.

_csizes(dims) = Int64[Int64(d) for d in dims]

"""
    Tensor{T}(undef, dims...)
    Tensor{T}(undef, dims::Dims)
    Tensor{T,N}(undef, dims...)
    Tensor{T,N}(undef, dims::Dims{N})

A new uninitialized contiguous tensor (`ct_empty`); with `memory_format=:channels_last`
(4 dims) or `:channels_last_3d` (5 dims) laid out so (`ct_empty_format`, torch's
`torch.empty(..., memory_format=...)`).
"""
function Tensor{T}(::UndefInitializer, dims::Dims{N}; memory_format::Symbol = :contiguous_format) where {T,N}
    dt = dtype(T)
    memory_format === :contiguous_format || return _empty_format(T, dims, memory_format)
    return own_handle(() -> L.ct_empty(N, _csizes(dims), dt))::Tensor{T,N}
end
Tensor{T}(::UndefInitializer, dims::Integer...; memory_format::Symbol = :contiguous_format) where {T} =
    Tensor{T}(undef, map(Int, dims); memory_format = memory_format)
Tensor{T,N}(::UndefInitializer, dims::Dims{N}) where {T,N} = Tensor{T}(undef, dims)
Tensor{T,N}(::UndefInitializer, dims::Vararg{Integer,N}) where {T,N} = Tensor{T}(undef, map(Int, dims))

"""
    tensor_zeros(T, dims...)
    tensor_zeros(T, dims::Tuple)

A new contiguous tensor of zeros (`ct_zeros`).
"""
function tensor_zeros(::Type{T}, dims::Integer...) where {T}
    dt = dtype(T)
    return own_handle(() -> L.ct_zeros(length(dims), _csizes(dims), dt))::Tensor{T,length(dims)}
end
tensor_zeros(::Type{T}, dims::Tuple{Vararg{Integer}}) where {T} = tensor_zeros(T, dims...)

"""
    tensor_ones(T, dims...)
    tensor_ones(T, dims::Tuple)

A new contiguous tensor of ones (`ct_ones`).
"""
function tensor_ones(::Type{T}, dims::Integer...) where {T}
    dt = dtype(T)
    return own_handle(() -> L.ct_ones(length(dims), _csizes(dims), dt))::Tensor{T,length(dims)}
end
tensor_ones(::Type{T}, dims::Tuple{Vararg{Integer}}) where {T} = tensor_ones(T, dims...)

"""
    tensor_full(T, value, dims...)
    tensor_full(T, value, dims::Tuple)

A new contiguous tensor with every element `value` converted to `T` as `ct_copy_` converts
(`ct_full`).
"""
function tensor_full(::Type{T}, value::Real, dims::Integer...) where {T}
    dt = dtype(T)
    v = Float64(value)
    return own_handle(() -> L.ct_full(length(dims), _csizes(dims), v, dt))::Tensor{T,length(dims)}
end
tensor_full(::Type{T}, value::Real, dims::Tuple{Vararg{Integer}}) where {T} = tensor_full(T, value, dims...)

"""
    tensor_arange(T, stop)
    tensor_arange(T, start, stop, step = 1)

1-D tensor `start, start + step, ...` while `< stop` (`> stop` for a negative step), as
`torch.arange` (`ct_arange`): `stop` is excluded, values are not indices.
`tensor_arange(Float32, 12)` holds 0, 1, ..., 11.
"""
tensor_arange(::Type{T}, stop::Real) where {T} = tensor_arange(T, 0, stop, 1)
function tensor_arange(::Type{T}, start::Real, stop::Real, step::Real = 1) where {T}
    dt = dtype(T)
    a, b, c = Float64(start), Float64(stop), Float64(step)
    return own_handle(() -> L.ct_arange(a, b, c, dt))::Tensor{T,1}
end

"""
    Tensor(A::AbstractArray)
    Tensor{T}(A::AbstractArray)
    Tensor{T,N}(A::AbstractArray)

A COPY of `A` in a new contiguous (row-major) tensor with the same size and the same
indexing: `Tensor(A)[i, j] == A[i, j]`, made in one pass over `A` (each element converted to
`T` by Julia's `convert`).  To share `A`'s memory instead, use `wrap_array(A)`.  From a
`Tensor`, it is `clone(A)` (or `to_eltype_or_self` for another element type): a copy with
`clone`'s layout.
"""
Tensor(A::AbstractArray{T}) where {T} = Tensor{T}(A)
Tensor(t::Tensor) = clone(t)
Tensor{T}(t::Tensor{T}) where {T} = clone(t)
Tensor{T}(t::Tensor) where {T} = to_eltype_or_self(t, T)  # a new storage: the dtypes differ
function Tensor{T}(A::AbstractArray) where {T}
    Base.require_one_based_indexing(A)
    t = Tensor{T}(undef, size(A))
    _init_fresh!(t, A)
    return t
end
Tensor{T,N}(A::AbstractArray{<:Any,N}) where {T,N} = Tensor{T}(A)::Tensor{T,N}

# Fills t, just made by ct_empty and seen by nobody else (no view, no graph, no version to
# count yet), with A's values: the one place a tensor's memory is written directly.
function _init_fresh!(t::Tensor{T,N}, A::AbstractArray) where {T,N}
    GC.@preserve t for I in CartesianIndices(A)
        unsafe_store!(_elptr(t, Tuple(I)::NTuple{N,Int}), convert(T, A[I]))
    end
    return t
end
