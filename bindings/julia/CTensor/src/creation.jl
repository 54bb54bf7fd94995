# Creating tensors: new storage, contiguous (row-major), storage offset 0.

_csizes(dims) = Int64[Int64(d) for d in dims]

"""
    Tensor{T}(undef, dims...)
    Tensor{T}(undef, dims::Dims)

A new uninitialized contiguous tensor (`ct_empty`).
"""
Tensor{T}(::UndefInitializer, dims::Dims{N}) where {T,N} =
    own_handle(L.ct_empty(N, _csizes(dims), dtype(T)))::Tensor{T,N}
Tensor{T}(::UndefInitializer, dims::Integer...) where {T} = Tensor{T}(undef, map(Int, dims))
Tensor{T,N}(::UndefInitializer, dims::Dims{N}) where {T,N} = Tensor{T}(undef, dims)

"""
    tensor_zeros(T, dims...)

A new contiguous tensor of zeros (`ct_zeros`).
"""
tensor_zeros(::Type{T}, dims::Integer...) where {T} =
    own_handle(L.ct_zeros(length(dims), _csizes(dims), dtype(T)))::Tensor{T,length(dims)}

"""
    tensor_ones(T, dims...)

A new contiguous tensor of ones (`ct_ones`).
"""
tensor_ones(::Type{T}, dims::Integer...) where {T} =
    own_handle(L.ct_ones(length(dims), _csizes(dims), dtype(T)))::Tensor{T,length(dims)}

"""
    tensor_full(T, value, dims...)

A new contiguous tensor with every element `value` converted to `T` as `ct_copy_` converts
(`ct_full`).
"""
tensor_full(::Type{T}, value::Real, dims::Integer...) where {T} =
    own_handle(L.ct_full(length(dims), _csizes(dims), Float64(value), dtype(T)))::Tensor{T,length(dims)}

"""
    tensor_arange(T, stop)
    tensor_arange(T, start, stop, step = 1)

1-D tensor `start, start + step, ...` while `< stop` (`> stop` for a negative step), as
`torch.arange` (`ct_arange`): `stop` is excluded, values are not indices.
`tensor_arange(Float32, 12)` holds 0, 1, ..., 11.
"""
tensor_arange(::Type{T}, stop::Real) where {T} = tensor_arange(T, 0, stop, 1)
tensor_arange(::Type{T}, start::Real, stop::Real, step::Real = 1) where {T} =
    own_handle(L.ct_arange(Float64(start), Float64(stop), Float64(step), dtype(T)))::Tensor{T,1}

"""
    Tensor(A::AbstractArray)
    Tensor{T}(A::AbstractArray)

A COPY of `A` in a new contiguous (row-major) tensor with the same size and the same
indexing: `Tensor(A)[i, j] == A[i, j]`.  `Tensor{T}` converts the elements to `T` first.
To share `A`'s memory instead, use `wrap_array(A)`.  From a `Tensor`, it is `clone(A)`
(or `to_eltype_or_self` for another element type): a copy with `clone`'s layout.
"""
Tensor(A::AbstractArray{T}) where {T} = Tensor{T}(A)
Tensor(t::Tensor) = clone(t)
Tensor{T}(t::Tensor{T}) where {T} = clone(t)
Tensor{T}(t::Tensor) where {T} = to_eltype_or_self(t, T)  # a new storage: the dtypes differ
function Tensor{T}(A::AbstractArray) where {T}
    N = ndims(A)
    # Row-major order of A is the memory order of its dimension-reversed column-major copy.
    buf = N == 0 ? T[convert(T, A[])] : Array{T}(permutedims(A, ntuple(k -> N + 1 - k, N)))
    h = GC.@preserve buf L.ct_from_data(buf, N, _csizes(size(A)), dtype(T))
    return own_handle(h)
end
