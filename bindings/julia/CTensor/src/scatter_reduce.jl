# scatter_reduce (ct_scatter_reduce / ct_scatter_reduce_, include/ctensor.h), with the
# conventions of index_ops.jl: 1-based dimension and index values checked here and passed to
# C 0-based; scatter_reduce_copy returns a NEW tensor, scatter_reduce! writes into `t`.

const _SCATTER_REDUCTIONS = (:sum, :prod, :mean, :amax, :amin)

_scatter_reduce_arg(reduce::Symbol) = reduce in _SCATTER_REDUCTIONS ? String(reduce) :
    _julia_error(L.CT_ERR_INVALID_ARGUMENT, "reduce must be one of :sum, :prod, :mean, :amax, :amin, got :$reduce")

"""
    scatter_reduce_copy(t, d, index, src, reduce; include_self = true) -> Tensor
        (torch: t.scatter_reduce(d-1, index .- 1, src, "reduce", include_self=...))
    scatter_reduce!(t, d, index, src, reduce; include_self = true) -> t

`t` (a copy, or `t` itself) with `t[p with p[d] = index[p]]` combined with `src[p]` for every
position `p` of `index` by `reduce`: `:sum`, `:prod`, `:mean`, `:amax` or `:amin`.  With
`include_self = false` a written position starts from the reduction's identity instead of its
value in `t`.  `:mean` floors for integer element types.
"""
function scatter_reduce_copy(t::Tensor{T,N}, d::Integer, index::AbstractArray{<:Integer}, src::Tensor,
                             reduce::Symbol; include_self::Bool = true) where {T,N}
    cd, r = _cdim(t, d, "scatter_reduce_copy"), _scatter_reduce_arg(reduce)
    return _with_index(index, size(t, d), "scatter_reduce_copy", "dimension $d") do idx
        own_handle(() -> L.ct_scatter_reduce(t, cd, idx, src, r, Cint(include_self)))::Tensor{T,N}
    end
end
function scatter_reduce!(t::Tensor, d::Integer, index::AbstractArray{<:Integer}, src::Tensor, reduce::Symbol;
                         include_self::Bool = true)
    cd, r = _cdim(t, d, "scatter_reduce!"), _scatter_reduce_arg(reduce)
    _with_index(idx -> _status(() -> L.ct_scatter_reduce_(t, cd, idx, src, r, Cint(include_self))), index,
                size(t, d), "scatter_reduce!", "dimension $d")
    return t
end
