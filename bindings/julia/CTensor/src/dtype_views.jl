# view(dtype), the rank-aware transposes T and mT, and the copies of views (torch's *_copy).
#
# Why `view_dtype` and not a method of `Base.reinterpret`: Julia's `reinterpret(S, A)` on an
# array changes the FIRST dimension when the element sizes differ (Julia arrays are
# column-major), and accepts any contiguous layout.  torch's `t.view(dtype)` changes the LAST
# dimension (which must have stride 1) and follows torch's divisibility rules and messages;
# ctensor's tensors are indexed in torch's dimension order.  The same name with the other
# rule would silently give other shapes for the same call.

"""
    view_dtype(t, S) -> Tensor{S}          (torch: t.view(dtype))

`t`'s bytes read as element type `S` (one of ctensor's ten), on `t`'s storage.  Shares `t`'s
version counter but is NOT a view (`is_view` false, `base` nothing) and never requires grad,
as in torch.  Equal element sizes keep the geometry; otherwise the LAST dimension (stride 1
required) changes length by the size ratio, with torch's divisibility rules and messages
(`CTensorError(CT_ERR_SHAPE)`: "self.size(-1) must be divisible by 2 to view Float as Double
(different element sizes), but got 3", ...; a 0-dimensional `t` only with equal sizes).
Not `Base.reinterpret`: see the comment at the top of this file.
"""
view_dtype(t::Tensor{T,N}, ::Type{S}) where {T,N,S} =
    own_handle(L.ct_view_dtype(t, dtype(S)))::Tensor{S,N}

"""
    view_dtype_copy(t, S) -> Tensor{S}          (torch: torch.view_copy(t, dtype))

`view_dtype(t, S)`'s elements in a new contiguous storage.
"""
view_dtype_copy(t::Tensor{T,N}, ::Type{S}) where {T,N,S} =
    own_handle(() -> L.ct_view_dtype_copy(t, dtype(S)))::Tensor{S,N}

const _MT_0D_WARNING = "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases."
const _T_0D_WARNING = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
const _T_ND_WARNING = "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is " *
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of " *
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."

"""
    matrix_transpose_view(t) -> Tensor          (torch: t.mT)

A VIEW with the last two dimensions swapped (TransposeBackward0), for `t` with at least 2
dimensions; a 0-dimensional `t` is returned itself (torch warns that this is deprecated, and
so does this function, once per session).  `CTensorError(CT_ERR_SHAPE)` for 1 dimension:
"tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
"""
function matrix_transpose_view(t::Tensor{T,N}) where {T,N}
    N == 0 && @warn _MT_0D_WARNING maxlog = 1
    return own_handle(L.ct_matrix_transpose(t))::Tensor{T,N}
end

"""
    reverse_dims_view(t) -> Tensor          (torch: t.T)

A VIEW with every dimension reversed (PermuteBackward0).  As torch, it warns (once per
session) when `t` does not have 2 dimensions: that use of `T` is deprecated in torch.
"""
function reverse_dims_view(t::Tensor{T,N}) where {T,N}
    if N == 0
        @warn _T_0D_WARNING maxlog = 1
    elseif N != 2
        @warn _T_ND_WARNING maxlog = 1
    end
    return own_handle(L.ct_numpy_T(t))::Tensor{T,N}
end

# ---- Copies of views: the view's elements in a new contiguous storage, not a view, with
# torch's autograd node "<view node>_copy".  Arguments as the *_view function of the same stem.

"""
    reshape_copy(t, dims...) -> Tensor          (torch: torch.view_copy(t, dims))

`reshape_view(t, dims...)`'s elements in a new storage; never fails on strides (torch's
view_copy reshapes then).  Node ViewBackward0_copy.
"""
reshape_copy(t::Tensor{T}, dims::Integer...) where {T} =
    own_handle(() -> L.ct_view_copy(t, length(dims), _shape(dims)))::Tensor{T,length(dims)}

"""
    transpose_copy(t, d1 = 1, d2 = 2) -> Tensor          (torch: torch.transpose_copy)

`transpose_view`'s elements in a new storage (TransposeBackward0_copy).
"""
transpose_copy(t::Tensor{T,N}, d1::Integer = 1, d2::Integer = 2) where {T,N} =
    own_handle(() -> L.ct_transpose_copy(t, _cdim(t, d1, "transpose_copy"), _cdim(t, d2, "transpose_copy")))::Tensor{T,N}

"""
    permute_copy(t, perm...) -> Tensor          (torch: torch.permute_copy)

`permute_view`'s elements in a new storage (PermuteBackward0_copy).
"""
function permute_copy(t::Tensor{T,N}, perm::Integer...) where {T,N}
    length(perm) == N || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "permute_copy: got $(length(perm)) dimensions for a tensor with $N")
    dims = Cint[_cdim(t, p, "permute_copy") for p in perm]
    return own_handle(() -> L.ct_permute_copy(t, N, dims))::Tensor{T,N}
end

"""
    narrow_copy(t, d, start, len) -> Tensor          (torch: t.narrow_copy(d-1, start-1, len))

`narrow_view`'s elements in a new storage (NarrowCopyBackward0).
"""
function narrow_copy(t::Tensor{T,N}, d::Integer, start::Integer, len::Integer) where {T,N}
    n = size(t, d)
    1 <= start <= n + 1 || _julia_error(L.CT_ERR_INDEX,
        "narrow_copy: start $start is out of range for dimension $d with size $n " *
        "(expected to be in range of [1, $(n + 1)])")
    return own_handle(() -> L.ct_narrow_copy(t, _cdim(t, d, "narrow_copy"), Int64(start - 1), Int64(len)))::Tensor{T,N}
end

"""
    select_copy(t, d, i) -> Tensor          (torch: torch.select_copy(t, d-1, i-1))

`select_view`'s elements in a new storage (SelectBackward0_copy).
"""
select_copy(t::Tensor{T,N}, d::Integer, i::Integer) where {T,N} =
    own_handle(() -> L.ct_select_copy(t, _cdim(t, d, "select_copy"), _cindex(t, d, i, "select_copy")))::Tensor{T,N - 1}

"""
    expand_copy(t, dims...) -> Tensor          (torch: torch.expand_copy)

`expand_view`'s elements in a new, dense storage (ExpandBackward0_copy).
"""
expand_copy(t::Tensor{T}, dims::Integer...) where {T} =
    own_handle(() -> L.ct_expand_copy(t, length(dims), _shape(dims)))::Tensor{T,length(dims)}

"""
    alias_copy(t) -> Tensor          (torch: torch.alias_copy)

A copy of `t` in a new storage (AliasBackward0_copy).
"""
alias_copy(t::Tensor{T,N}) where {T,N} = own_handle(() -> L.ct_alias_copy(t))::Tensor{T,N}

"""
    detach_copy(t) -> Tensor          (torch: torch.detach_copy)

A copy of `t` in a new storage that, unlike `alias` (detach), stays in the graph as torch's
does: node NotImplemented, so backward through it fails.
"""
detach_copy(t::Tensor{T,N}) where {T,N} = own_handle(() -> L.ct_detach_copy(t))::Tensor{T,N}

"""
    t_copy(t) -> Tensor          (torch: torch.t_copy)

`t_view`'s elements in a new storage (TBackward0_copy).
"""
t_copy(t::Tensor{T,N}) where {T,N} = own_handle(() -> L.ct_t_copy(t))::Tensor{T,N}

"""
    slice_copy(t, d, r::AbstractRange) -> Tensor          (torch: torch.slice_copy(t, d-1, a, b, s))

`slice_view(t, d, r)`'s elements in a new storage (SliceBackward0_copy); `r` as there
(1-based, step >= 1).
"""
function slice_copy(t::Tensor{T,N}, d::Integer, r::AbstractRange{<:Integer}) where {T,N}
    cd, start, stop, s = _slice_args(t, d, r, "slice_copy")
    return own_handle(() -> L.ct_slice_copy(t, cd, start, stop, s))::Tensor{T,N}
end

"""
    squeeze_copy(t) -> Tensor
    squeeze_copy(t, d) -> Tensor          (torch: torch.squeeze_copy(t), torch.squeeze_copy(t, d-1))
    squeeze_copy(t, dims::Tuple) -> Tensor

`squeeze_view`'s elements in a new storage (SqueezeBackward0_copy, SqueezeBackward1_copy,
SqueezeBackward2_copy).
"""
squeeze_copy(t::Tensor) = own_handle(() -> L.ct_squeeze_all_copy(t))
squeeze_copy(t::Tensor, d::Integer) = own_handle(() -> L.ct_squeeze_copy(t, _cdim(t, d, "squeeze_copy")))
squeeze_copy(t::Tensor, dims::Tuple{Vararg{Integer}}) =
    own_handle(() -> L.ct_squeeze_dims_copy(t, length(dims), Cint[_cdim(t, d, "squeeze_copy") for d in dims]))

"""
    unsqueeze_copy(t, d) -> Tensor          (torch: torch.unsqueeze_copy(t, d-1))

`unsqueeze_view`'s elements in a new storage (UnsqueezeBackward0_copy).
"""
unsqueeze_copy(t::Tensor{T,N}, d::Integer) where {T,N} =
    own_handle(() -> L.ct_unsqueeze_copy(t, _cdim(t, d, "unsqueeze_copy", N + 1)))::Tensor{T,N + 1}

"""
    diagonal_copy(t; offset = 0, dims = (1, 2)) -> Tensor          (torch: torch.diagonal_copy)

`diagonal_view`'s elements in a new storage (DiagonalBackward0_copy).
"""
function diagonal_copy(t::Tensor{T,N}; offset::Integer = 0, dims::NTuple{2,Integer} = (1, 2)) where {T,N}
    d1 = _cdim(t, dims[1], "diagonal_copy")
    d2 = _cdim(t, dims[2], "diagonal_copy")
    return own_handle(() -> L.ct_diagonal_copy(t, Int64(offset), d1, d2))::Tensor{T,N - 1}
end

"""
    unfold_copy(t, d, size, step) -> Tensor          (torch: torch.unfold_copy(t, d-1, size, step))

`unfold_view`'s windows in a new storage, one copy per window element even where windows
overlap (UnfoldBackward0_copy).
"""
unfold_copy(t::Tensor{T,N}, d::Integer, size::Integer, step::Integer) where {T,N} =
    own_handle(() -> L.ct_unfold_copy(t, _cdim(t, d, "unfold_copy"), Int64(size), Int64(step)))::Tensor{T,N + 1}

"""
    as_strided_copy(t, dims, strides, storage_offset = storage_offset(t)) -> Tensor

`as_strided_view`'s elements in a new contiguous storage (AsStridedBackward0_copy).
(torch: `torch.as_strided_copy(t, dims, strides, storage_offset)`.)
"""
function as_strided_copy(t::Tensor{T}, dims::Tuple{Vararg{Integer}}, strides::Tuple{Vararg{Integer}},
                         offset::Integer = storage_offset(t)) where {T}
    length(dims) == length(strides) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "as_strided_copy: $(length(dims)) sizes but $(length(strides)) strides")
    return own_handle(() -> L.ct_as_strided_copy(t, length(dims), _shape(dims), _shape(strides),
                                                 Int64(offset)))::Tensor{T,length(dims)}
end

"""
    unbind_copy(t, d) -> Vector{Tensor}          (torch: torch.unbind_copy(t, d-1))
    split_copy(t, d, len::Integer) -> Vector{Tensor}          (torch: torch.split_copy(t, len, d-1))
    split_copy(t, d, lens::AbstractVector{<:Integer})         (torch: torch.split_with_sizes_copy)

The pieces of `unbind_views` / `split_views`, each in a new storage: ordinary tensors that
may be written in place.  Each records its own node (UnbindBackward0_copy, SplitBackward0_copy,
SplitWithSizesBackward0_copy); torch records one node for all of them.
"""
unbind_copy(t::Tensor{T,N}, d::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_unbind_copy(t, _cdim(t, d, "unbind_copy"), o, c), T, Val(N - 1))
split_copy(t::Tensor{T,N}, d::Integer, len::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_split_copy(t, Int64(len), _cdim(t, d, "split_copy"), o, c), T, Val(N))
function split_copy(t::Tensor{T,N}, d::Integer, lens::AbstractVector{<:Integer}) where {T,N}
    cd = _cdim(t, d, "split_copy")
    l = Int64[Int64(x) for x in lens]
    return _multi_views((o, c) -> L.ct_split_with_sizes_copy(t, length(l), l, cd, o, c), T, Val(N))
end
