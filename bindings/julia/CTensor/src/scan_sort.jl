# Scans, sorting and clamping along a dimension (torch.cumsum, cumprod, sort, argsort, topk,
# clamp).  Every result is a NEW tensor on a new storage; the `!` forms write `t` in place
# (same storage, one version bump) and return it.  Dimensions are 1-based.  Indices returned
# by tensor_sort / tensor_argsort / tensor_topk are torch's 0-based positions (Int64): add 1
# to index a Julia array with them.  Names carry the tensor_ prefix (as tensor_var): Base's
# cumsum/sort/clamp have their own conventions and are neither extended nor imitated.

_dtype_code(::Nothing) = Cint(-1)
_dtype_code(::Type{S}) where {S} = Cint(dtype(S))

"""
    tensor_cumsum(t, dim; dtype = nothing) -> Tensor          (torch: t.cumsum(dim - 1, dtype=dtype))

Running sums along `dim`.  Bool and integer tensors give Int64 (as torch); `dtype` (an
element type) converts `t` first.  CT_ERR_INDEX for a bad dim, CT_ERR_DTYPE for `dtype = Bool`.
"""
tensor_cumsum(t::Tensor{T,N}, dim::Integer; dtype = nothing) where {T,N} =
    own_handle(() -> L.ct_cumsum(t, _cdim(t, dim, "tensor_cumsum", max(N, 1)), _dtype_code(dtype)))::Tensor{<:Any,N}

"""
    tensor_cumprod(t, dim; dtype = nothing) -> Tensor          (torch: t.cumprod(dim - 1))

Running products along `dim`, as tensor_cumsum.  Its gradient is exact where `t` has zeros.
"""
tensor_cumprod(t::Tensor{T,N}, dim::Integer; dtype = nothing) where {T,N} =
    own_handle(() -> L.ct_cumprod(t, _cdim(t, dim, "tensor_cumprod", max(N, 1)), _dtype_code(dtype)))::Tensor{<:Any,N}

"""
    tensor_cumsum!(t, dim) -> t / tensor_cumprod!(t, dim) -> t          (torch: t.cumsum_(dim - 1))

In place: integer tensors accumulate in 64 bits and wrap into their element type.
"""
function tensor_cumsum!(t::Tensor{T,N}, dim::Integer) where {T,N}
    check_status(L.ct_cumsum_(t, _cdim(t, dim, "tensor_cumsum!", max(N, 1)), Cint(-1)))
    return t
end
function tensor_cumprod!(t::Tensor{T,N}, dim::Integer) where {T,N}
    check_status(L.ct_cumprod_(t, _cdim(t, dim, "tensor_cumprod!", max(N, 1)), Cint(-1)))
    return t
end

"""
    tensor_sort(t; dim = ndims(t), rev = false) -> (values, indices)   (torch: t.sort(dim - 1, rev, stable=True))

Sorted copy along `dim` and the 0-based Int64 positions the values came from; NaN sorts as the
largest value; stable (equal elements keep their order, also with `rev = true`).  Both results
are laid out like `t`.
"""
function tensor_sort(t::Tensor{T,N}; dim::Integer = max(N, 1), rev::Bool = false) where {T,N}
    cd = _cdim(t, dim, "tensor_sort", max(N, 1))
    idx = Ref{Ptr{L.ct_tensor}}(C_NULL)
    v = own_handle(() -> L.ct_sort(t, cd, Cint(rev), Cint(1), idx))::Tensor{T,N}
    return (v, own_handle(idx[])::Tensor{Int64,N})
end

"""
    tensor_argsort(t; dim = ndims(t), rev = false) -> Tensor{Int64}      (torch: t.argsort(dim - 1, rev, stable=True))
"""
tensor_argsort(t::Tensor{T,N}; dim::Integer = max(N, 1), rev::Bool = false) where {T,N} =
    own_handle(() -> L.ct_argsort(t, _cdim(t, dim, "tensor_argsort", max(N, 1)), Cint(rev), Cint(1)))::Tensor{Int64,N}

"""
    tensor_topk(t, k; dim = ndims(t), largest = true) -> (values, indices)   (torch: t.topk(k, dim - 1, largest))

The `k` largest (smallest) values along `dim`, in order, and their 0-based positions.  Throws
CTensorError (CT_ERR_INVALID_ARGUMENT, "selected index k out of range") unless 0 <= k <= size.
"""
function tensor_topk(t::Tensor{T,N}, k::Integer; dim::Integer = max(N, 1), largest::Bool = true) where {T,N}
    cd = _cdim(t, dim, "tensor_topk", max(N, 1))
    idx = Ref{Ptr{L.ct_tensor}}(C_NULL)
    v = own_handle(() -> L.ct_topk(t, Int64(k), cd, Cint(largest), Cint(1), idx))::Tensor{T,N}
    return (v, own_handle(idx[])::Tensor{Int64,N})
end

_bound(::Nothing) = (Cint(0), 0.0)
_bound(x::Real) = (Cint(1), Float64(x))
_integral(lo, hi) = Cint((lo === nothing || lo isa Integer) && (hi === nothing || hi isa Integer))

"""
    tensor_clamp(t; min = nothing, max = nothing) -> Tensor        (torch: t.clamp(min, max))

Each element limited to [min, max] (`max` wins where min > max; NaN stays NaN).  Bounds are
numbers or tensors (broadcast with `t`).  Integer bounds keep an integer `t`'s element type,
float bounds give Float32 (torch's promotion).  At least one bound (CT_ERR_INVALID_ARGUMENT).
"""
function tensor_clamp(t::Tensor; min = nothing, max = nothing)
    if min isa Tensor || max isa Tensor
        lo = min === nothing ? C_NULL : min
        hi = max === nothing ? C_NULL : max
        return own_handle(() -> L.ct_clamp_tensor(t, lo, hi))
    end
    (hl, l), (hh, h) = _bound(min), _bound(max)
    return own_handle(() -> L.ct_clamp(t, hl, l, hh, h, _integral(min, max)))
end

"""
    tensor_clamp!(t; min = nothing, max = nothing) -> t            (torch: t.clamp_(min, max))

In place; the result element type must convert to `t`'s (CT_ERR_DTYPE otherwise).
"""
function tensor_clamp!(t::Tensor; min = nothing, max = nothing)
    if min isa Tensor || max isa Tensor
        check_status(L.ct_clamp_tensor_(t, min === nothing ? C_NULL : min, max === nothing ? C_NULL : max))
    else
        (hl, l), (hh, h) = _bound(min), _bound(max)
        check_status(L.ct_clamp_(t, hl, l, hh, h, _integral(min, max)))
    end
    return t
end
