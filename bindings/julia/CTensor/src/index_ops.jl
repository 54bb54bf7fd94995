# Indexed copies (ct_gather ... ct_index_put_, include/ctensor.h): gather, scatter,
# scatter_add, index_add, index_copy, index_fill, take, put, index_put.  The names ending in
# _copy return a NEW tensor on a new storage; the ones ending in ! write into their first
# argument (bumping its version) and return it.  Dimensions and indices are 1-based, as
# everywhere in Julia: they are checked here (a CTensorError with CT_ERR_INDEX naming the
# 1-based value) and passed to C 0-based.  Index arrays are any Julia arrays of integers
# (indexed as Julia indexes them); masks for index_put are arrays of Bool.

# A 0-based Int64 tensor of `index` (1-based), every value checked against 1:n.
function _cindex_tensor(index::AbstractArray{<:Integer}, n::Integer, op::AbstractString, what::AbstractString)
    for i in index
        1 <= i <= n || _julia_error(L.CT_ERR_INDEX, "$op: index $i is out of bounds for $what with size $n")
    end
    return Tensor{Int64}(map(i -> Int64(i) - 1, index))
end

# Runs f(idx) with idx a 0-based Int64 tensor of `index`, closing it afterwards.
function _with_index(f, index, n, op, what)
    idx = _cindex_tensor(index, n, op, what)
    try
        return f(idx)
    finally
        close(idx)
    end
end

_reduce_arg(reduce::Nothing) = C_NULL
_reduce_arg(reduce::Symbol) = reduce in (:add, :multiply) ? String(reduce) :
    _julia_error(L.CT_ERR_INVALID_ARGUMENT, "reduce must be :add or :multiply, got :$reduce")

"""
    gather_copy(t, d, index) -> Tensor          (torch: t.gather(d-1, index .- 1))

A COPY with `index`'s size: element `p` is `t[p with p[d] replaced by index[p]]`.
`index` has `t`'s number of dimensions and no larger size than `t` apart from dimension `d`.
"""
function gather_copy(t::Tensor{T,N}, d::Integer, index::AbstractArray{<:Integer}) where {T,N}
    cd = _cdim(t, d, "gather_copy")
    return _with_index(index, size(t, d), "gather_copy", "dimension $d") do idx
        own_handle(() -> L.ct_gather(t, cd, idx))::Tensor{T,ndims(index)}
    end
end

"""
    scatter_copy(t, d, index, src::Tensor; reduce = nothing) -> Tensor
    scatter_copy(t, d, index, value::Real; reduce = nothing) -> Tensor
    scatter!(t, d, index, src_or_value; reduce = nothing) -> t          (torch: t.scatter_(d-1, index .- 1, ...))

`t` (a copy, or `t` itself for `scatter!`) with `t[p with p[d] = index[p]] = src[p]` (or the
value) for every position `p` of `index`; `reduce = :add` / `:multiply` combines with the
element there instead.  Duplicate positions: the last (row-major order of `index`) wins.
"""
function scatter_copy(t::Tensor{T,N}, d::Integer, index::AbstractArray{<:Integer}, src::Tensor;
                      reduce::Union{Nothing,Symbol} = nothing) where {T,N}
    cd, r = _cdim(t, d, "scatter_copy"), _reduce_arg(reduce)
    return _with_index(index, size(t, d), "scatter_copy", "dimension $d") do idx
        own_handle(() -> L.ct_scatter(t, cd, idx, src, r))::Tensor{T,N}
    end
end
function scatter_copy(t::Tensor{T,N}, d::Integer, index::AbstractArray{<:Integer}, value::Real;
                      reduce::Union{Nothing,Symbol} = nothing) where {T,N}
    cd, r, v = _cdim(t, d, "scatter_copy"), _reduce_arg(reduce), Float64(value)
    return _with_index(index, size(t, d), "scatter_copy", "dimension $d") do idx
        own_handle(() -> L.ct_scatter_value(t, cd, idx, v, r))::Tensor{T,N}
    end
end
function scatter!(t::Tensor, d::Integer, index::AbstractArray{<:Integer}, src::Tensor;
                  reduce::Union{Nothing,Symbol} = nothing)
    cd, r = _cdim(t, d, "scatter!"), _reduce_arg(reduce)
    _with_index(idx -> _status(() -> L.ct_scatter_(t, cd, idx, src, r)), index, size(t, d), "scatter!", "dimension $d")
    return t
end
function scatter!(t::Tensor, d::Integer, index::AbstractArray{<:Integer}, value::Real;
                  reduce::Union{Nothing,Symbol} = nothing)
    cd, r, v = _cdim(t, d, "scatter!"), _reduce_arg(reduce), Float64(value)
    _with_index(idx -> _status(() -> L.ct_scatter_value_(t, cd, idx, v, r)), index, size(t, d), "scatter!",
                "dimension $d")
    return t
end

"""
    scatter_add_copy(t, d, index, src) -> Tensor          (torch: t.scatter_add(d-1, index .- 1, src))
    scatter_add!(t, d, index, src) -> t

As `scatter_copy` / `scatter!` with `+=`: duplicate positions add up.
"""
function scatter_add_copy(t::Tensor{T,N}, d::Integer, index::AbstractArray{<:Integer}, src::Tensor) where {T,N}
    cd = _cdim(t, d, "scatter_add_copy")
    return _with_index(index, size(t, d), "scatter_add_copy", "dimension $d") do idx
        own_handle(() -> L.ct_scatter_add(t, cd, idx, src))::Tensor{T,N}
    end
end
function scatter_add!(t::Tensor, d::Integer, index::AbstractArray{<:Integer}, src::Tensor)
    cd = _cdim(t, d, "scatter_add!")
    _with_index(idx -> _status(() -> L.ct_scatter_add_(t, cd, idx, src)), index, size(t, d), "scatter_add!",
                "dimension $d")
    return t
end

"""
    index_add_copy(t, d, indices, source; alpha = 1) -> Tensor     (torch: t.index_add(d-1, indices .- 1, source, alpha=alpha))
    index_add!(t, d, indices, source; alpha = 1) -> t
    index_copy_copy(t, d, indices, source) -> Tensor               (torch: t.index_copy(d-1, indices .- 1, source))
    index_copy!(t, d, indices, source) -> t
    index_fill_copy(t, d, indices, value) -> Tensor                (torch: t.index_fill(d-1, indices .- 1, value))
    index_fill!(t, d, indices, value) -> t

Whole slices of `t` along dimension `d`, one per element of the vector `indices`: `alpha`
times `source`'s matching slice added (duplicates add up), `source`'s slice copied in, or set
to `value` (a number, or a 0-dimensional `Tensor` converted as `copy_into!` converts).
"""
function index_add_copy(t::Tensor{T,N}, d::Integer, indices::AbstractVector{<:Integer}, source::Tensor;
                        alpha::Real = 1) where {T,N}
    cd = _cdim(t, d, "index_add_copy")
    return _with_index(indices, size(t, d), "index_add_copy", "dimension $d") do idx
        own_handle(() -> L.ct_index_add(t, cd, idx, source, Float64(alpha)))::Tensor{T,N}
    end
end
function index_add!(t::Tensor, d::Integer, indices::AbstractVector{<:Integer}, source::Tensor; alpha::Real = 1)
    cd = _cdim(t, d, "index_add!")
    _with_index(idx -> _status(() -> L.ct_index_add_(t, cd, idx, source, Float64(alpha))), indices, size(t, d),
                "index_add!", "dimension $d")
    return t
end
function index_copy_copy(t::Tensor{T,N}, d::Integer, indices::AbstractVector{<:Integer}, source::Tensor) where {T,N}
    cd = _cdim(t, d, "index_copy_copy")
    return _with_index(indices, size(t, d), "index_copy_copy", "dimension $d") do idx
        own_handle(() -> L.ct_index_copy(t, cd, idx, source))::Tensor{T,N}
    end
end
function index_copy!(t::Tensor, d::Integer, indices::AbstractVector{<:Integer}, source::Tensor)
    cd = _cdim(t, d, "index_copy!")
    _with_index(idx -> _status(() -> L.ct_index_copy_(t, cd, idx, source)), indices, size(t, d), "index_copy!",
                "dimension $d")
    return t
end
function index_fill_copy(t::Tensor{T,N}, d::Integer, indices::AbstractVector{<:Integer}, value) where {T,N}
    cd = _cdim(t, d, "index_fill_copy")
    return _with_index(indices, size(t, d), "index_fill_copy", "dimension $d") do idx
        value isa Tensor ? own_handle(() -> L.ct_index_fill_tensor(t, cd, idx, value))::Tensor{T,N} :
                           own_handle(() -> L.ct_index_fill(t, cd, idx, Float64(value)))::Tensor{T,N}
    end
end
function index_fill!(t::Tensor, d::Integer, indices::AbstractVector{<:Integer}, value)
    cd = _cdim(t, d, "index_fill!")
    _with_index(indices, size(t, d), "index_fill!", "dimension $d") do idx
        value isa Tensor ? _status(() -> L.ct_index_fill_tensor_(t, cd, idx, value)) :
                           _status(() -> L.ct_index_fill_(t, cd, idx, Float64(value)))
    end
    return t
end

"""
    take_copy(t, indices) -> Tensor          (torch: t.take(indices .- 1))
    put_copy(t, indices, source; accumulate = false) -> Tensor          (torch: t.put(indices .- 1, source))
    put_flat!(t, indices, source; accumulate = false) -> t              (torch: t.put_(...))

`t` read or written as if flattened in ROW-MAJOR order (torch's order, not Julia's
column-major `vec`): `take_copy` has `indices`' size; `put_copy` / `put_flat!` write
`source`'s elements (row-major) at `indices` (added with `accumulate`; duplicates add up).
"""
function take_copy(t::Tensor{T}, indices::AbstractArray{<:Integer}) where {T}
    return _with_index(indices, length(t), "take_copy", "a tensor of $(length(t)) elements") do idx
        own_handle(() -> L.ct_take(t, idx))::Tensor{T,ndims(indices)}
    end
end
function put_copy(t::Tensor{T,N}, indices::AbstractArray{<:Integer}, source::Tensor; accumulate::Bool = false) where {T,N}
    return _with_index(indices, length(t), "put_copy", "a tensor of $(length(t)) elements") do idx
        own_handle(() -> L.ct_put(t, idx, source, Cint(accumulate)))::Tensor{T,N}
    end
end
function put_flat!(t::Tensor, indices::AbstractArray{<:Integer}, source::Tensor; accumulate::Bool = false)
    _with_index(idx -> _status(() -> L.ct_put_(t, idx, source, Cint(accumulate))), indices, length(t), "put_flat!",
                "a tensor of $(length(t)) elements")
    return t
end

# index_put's index tensors: Bool arrays become bool masks, integer arrays 0-based Int64
# tensors checked against the size of the dimension they index.
function _index_put_tensors(t::Tensor, indices, op)
    out = Tensor[]
    d = 1
    try
        for ix in indices
            if eltype(ix) == Bool
                push!(out, Tensor{Bool}(ix))
                d += ndims(ix)
            else
                d <= ndims(t) || _julia_error(L.CT_ERR_INDEX,
                    "$op: too many indices for tensor of dimension $(ndims(t)) (got $d)")
                push!(out, _cindex_tensor(ix, size(t, d), op, "dimension $d"))
                d += 1
            end
        end
    catch
        foreach(close, out)
        rethrow()
    end
    return out
end

"""
    index_put_copy(t, indices, values; accumulate = false) -> Tensor     (torch: t.index_put(indices, values))
    index_put!(t, indices, values; accumulate = false) -> t              (torch: t.index_put_(...))

`t[indices...] = values` with torch's advanced indexing: `indices` is a tuple (or vector) of
integer arrays (1-based) and Bool masks indexing `t`'s leading dimensions; they broadcast
together, and `values` (a Tensor of `t`'s element type) broadcasts to the indexed region.
`accumulate = true` adds instead (duplicates add up).
"""
function index_put_copy(t::Tensor{T,N}, indices, values::Tensor; accumulate::Bool = false) where {T,N}
    ts = _index_put_tensors(t, indices, "index_put_copy")
    try
        return own_handle(() -> L.ct_index_put(t, Cint(length(ts)), ts, values, Cint(accumulate)))::Tensor{T,N}
    finally
        foreach(close, ts)
    end
end
function index_put!(t::Tensor, indices, values::Tensor; accumulate::Bool = false)
    ts = _index_put_tensors(t, indices, "index_put!")
    try
        _status(() -> L.ct_index_put_(t, Cint(length(ts)), ts, values, Cint(accumulate)))
    finally
        foreach(close, ts)
    end
    return t
end
