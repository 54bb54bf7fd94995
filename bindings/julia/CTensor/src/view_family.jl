# The split family and the other composite views of the header ("The split family and other
# composite views").  Dimensions are 1-based here, 0-based in C.  Cut positions of
# tensor_split_views and the *split_views are positions BETWEEN elements, counted as the
# number of elements before the cut, the same number in both languages: cut 2 falls after the
# second element (Julia 1:2 | 3:end, torch index 2), so they are passed unchanged.

"""
    tensor_split_views(t, d, sections::Integer) -> Vector{Tensor}   (torch: t.tensor_split(sections, d-1))
    tensor_split_views(t, d, cuts::AbstractVector{<:Integer})         (torch: t.tensor_split(cuts, d-1))

VIEWS of `t` along dimension `d`: `sections` pieces (the first `size % sections` one element
longer, so pieces may be empty), or the pieces between the cut positions `cuts` (a cut `k`
falls after `k` elements: `[2, 5]` gives elements 1:2, 3:5 and 6:end; Python slice rules,
so negative cuts count from the end and cuts are clamped).  Each piece is an ordinary view
(SliceBackward0) and may be written in place.
"""
tensor_split_views(t::Tensor{T,N}, d::Integer, sections::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_tensor_split(t, Int64(sections), _cdim(t, d, "tensor_split_views"), o, c),
                 T, Val(N))
function tensor_split_views(t::Tensor{T,N}, d::Integer, cuts::AbstractVector{<:Integer}) where {T,N}
    cd = _cdim(t, d, "tensor_split_views")
    l = Int64[Int64(x) for x in cuts]
    return _multi_views((o, c) -> L.ct_tensor_split_indices(t, length(l), l, cd, o, c), T, Val(N))
end

"""
    hsplit_views(t, sections_or_cuts) -> Vector{Tensor}   (torch: torch.hsplit)
    vsplit_views(t, sections_or_cuts)                     (torch: torch.vsplit)
    dsplit_views(t, sections_or_cuts)                     (torch: torch.dsplit)

`tensor_split_views` along dimension 2 (1 for a vector), 1 and 3.  `t` needs at least 1, 2
and 3 dimensions; an integer number of sections must divide the dimension's size (torch's
messages otherwise).
"""
hsplit_views(t::Tensor{T,N}, s::Integer) where {T,N} = _multi_views((o, c) -> L.ct_hsplit(t, Int64(s), o, c), T, Val(N))
vsplit_views(t::Tensor{T,N}, s::Integer) where {T,N} = _multi_views((o, c) -> L.ct_vsplit(t, Int64(s), o, c), T, Val(N))
dsplit_views(t::Tensor{T,N}, s::Integer) where {T,N} = _multi_views((o, c) -> L.ct_dsplit(t, Int64(s), o, c), T, Val(N))
function hsplit_views(t::Tensor{T,N}, cuts::AbstractVector{<:Integer}) where {T,N}
    l = Int64[Int64(x) for x in cuts]
    return _multi_views((o, c) -> L.ct_hsplit_indices(t, length(l), l, o, c), T, Val(N))
end
function vsplit_views(t::Tensor{T,N}, cuts::AbstractVector{<:Integer}) where {T,N}
    l = Int64[Int64(x) for x in cuts]
    return _multi_views((o, c) -> L.ct_vsplit_indices(t, length(l), l, o, c), T, Val(N))
end
function dsplit_views(t::Tensor{T,N}, cuts::AbstractVector{<:Integer}) where {T,N}
    l = Int64[Int64(x) for x in cuts]
    return _multi_views((o, c) -> L.ct_dsplit_indices(t, length(l), l, o, c), T, Val(N))
end

"""
    unsafe_split_shared(t, d, len::Integer) -> Vector{Tensor}          (torch: t.unsafe_split(len, d-1))
    unsafe_split_shared(t, d, lens::AbstractVector{<:Integer})         (torch: t.unsafe_split_with_sizes)
    unsafe_chunk_shared(t, d, n) -> Vector{Tensor}                     (torch: t.unsafe_chunk(n, d-1))

The pieces of `split_views` / `chunk_views`, SHARING `t`'s memory, but NOT views: `is_view`
is false, `base` is `nothing`, and each has its own version counter starting at 0, so writes
through them do not move `t`'s version.  Autograd: UnsafeSplitBackward0 /
UnsafeSplitWithSizesBackward0, and in-place writes to them are allowed (torch's "unsafe").
"""
unsafe_split_shared(t::Tensor{T,N}, d::Integer, len::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_unsafe_split(t, Int64(len), _cdim(t, d, "unsafe_split_shared"), o, c), T, Val(N))
function unsafe_split_shared(t::Tensor{T,N}, d::Integer, lens::AbstractVector{<:Integer}) where {T,N}
    cd = _cdim(t, d, "unsafe_split_shared")
    l = Int64[Int64(x) for x in lens]
    return _multi_views((o, c) -> L.ct_unsafe_split_with_sizes(t, length(l), l, cd, o, c), T, Val(N))
end
unsafe_chunk_shared(t::Tensor{T,N}, d::Integer, n::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_unsafe_chunk(t, Int64(n), _cdim(t, d, "unsafe_chunk_shared"), o, c), T, Val(N))

"""
    unflatten_view(t, d, dims...) -> Tensor          (torch: t.unflatten(d-1, dims))

A VIEW with dimension `d` replaced by the dimensions `dims` (one may be -1, inferred), whose
product must be `size(t, d)`.
"""
function unflatten_view(t::Tensor{T,N}, d::Integer, dims::Integer...) where {T,N}
    cd = _cdim(t, d, "unflatten_view")
    return own_handle(L.ct_unflatten(t, cd, length(dims), _shape(dims)))::Tensor{T,N - 1 + length(dims)}
end
unflatten_view(t::Tensor, d::Integer, dims::Tuple{Vararg{Integer}}) = unflatten_view(t, d, dims...)

"""
    movedim_view(t, src, dst) -> Tensor          (torch: t.movedim(src .- 1, dst .- 1))

A VIEW with dimension `src` (an integer or a tuple of them) moved to position `dst`, the
other dimensions keeping their order (PermuteBackward0).
"""
movedim_view(t::Tensor, src::Integer, dst::Integer) = movedim_view(t, (src,), (dst,))
function movedim_view(t::Tensor{T,N}, src::Tuple{Vararg{Integer}}, dst::Tuple{Vararg{Integer}}) where {T,N}
    length(src) == length(dst) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "movedim_view: $(length(src)) source dimensions but $(length(dst)) destinations")
    s = Cint[_cdim(t, x, "movedim_view") for x in src]
    e = Cint[_cdim(t, x, "movedim_view") for x in dst]
    return own_handle(L.ct_movedim(t, length(s), s, e))::Tensor{T,N}
end

"""
    swapdims_view(t, d1, d2) -> Tensor          (torch: t.swapdims(d1-1, d2-1), t.swapaxes)

`transpose_view` under torch's other name: a VIEW with dimensions `d1` and `d2` swapped.
"""
swapdims_view(t::Tensor{T,N}, d1::Integer, d2::Integer) where {T,N} =
    own_handle(L.ct_swapdims(t, _cdim(t, d1, "swapdims_view"), _cdim(t, d2, "swapdims_view")))::Tensor{T,N}

"""
    expand_as_view(t, other) -> Tensor          (torch: t.expand_as(other))
    view_as_view(t, other)                      (torch: t.view_as(other))
    reshape_as_view_or_copy(t, other)           (torch: t.reshape_as(other))

`expand_view`, `reshape_view` and `reshape_view_or_copy` to `other`'s dimensions.
"""
expand_as_view(t::Tensor{T}, other::Tensor{<:Any,M}) where {T,M} = own_handle(L.ct_expand_as(t, other))::Tensor{T,M}
view_as_view(t::Tensor{T}, other::Tensor{<:Any,M}) where {T,M} = own_handle(L.ct_view_as(t, other))::Tensor{T,M}
reshape_as_view_or_copy(t::Tensor{T}, other::Tensor{<:Any,M}) where {T,M} =
    own_handle(L.ct_reshape_as(t, other))::Tensor{T,M}

"""
    broadcast_to_view(t, dims...) -> Tensor          (torch: t.broadcast_to(dims))

`expand_view`: a VIEW of `t` broadcast to `dims` (stride 0 on broadcast dimensions).
"""
broadcast_to_view(t::Tensor{T}, dims::Integer...) where {T} =
    own_handle(L.ct_broadcast_to(t, length(dims), _shape(dims)))::Tensor{T,length(dims)}

"""
    broadcast_views(ts...) -> Vector{Tensor}          (torch: torch.broadcast_tensors(*ts))

The tensors broadcast to their common shape: one that already has it comes back as itself
(the same C tensor), the others as expanded VIEWS.
"""
function broadcast_views(ts::Tensor...)
    hs = _TensorHandle[handle(t) for t in ts]
    f = (o, c) -> GC.@preserve ts L.ct_broadcast_tensors(length(hs), hs, o, c)
    n = f(Ptr{_TensorHandle}(C_NULL), Int64(0))
    n < 0 && throw(last_error())
    out = fill(_TensorHandle(C_NULL), Int(n))
    m = f(out, Int64(n))
    m < 0 && throw(last_error())
    return Tensor[own_handle(out[i]) for i in 1:m]
end

"""
    broadcast_dims(shapes...) -> Tuple          (torch: torch.broadcast_shapes(*shapes))

The dimensions the given shapes (tuples of integers) broadcast to, by torch's rules and
messages.
"""
function broadcast_dims(shapes::Tuple{Vararg{Integer}}...)
    vs = [Int64[Int64(x) for x in s] for s in shapes]
    ndims_ = Cint[length(v) for v in vs]
    ptrs = Ptr{Int64}[pointer(v) for v in vs]
    out = zeros(Int64, 64)
    r = GC.@preserve vs L.ct_broadcast_shapes(length(vs), ndims_, ptrs, out, Cint(64))
    r < 0 && throw(last_error())
    return Tuple(out[1:r])
end

"""
    atleast_1d_view(t), atleast_2d_view(t), atleast_3d_view(t) -> Tensor   (torch: torch.atleast_1d, ...)

`t` itself when it has enough dimensions, else a VIEW with dimensions of size 1 added (a
scalar becomes (1,), (1, 1), (1, 1, 1); a vector of n (1, n) / (1, n, 1); a matrix m x n
(m, n, 1)).
"""
atleast_1d_view(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_atleast_1d(t))::Tensor{T,max(N, 1)}
atleast_2d_view(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_atleast_2d(t))::Tensor{T,max(N, 2)}
atleast_3d_view(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_atleast_3d(t))::Tensor{T,max(N, 3)}
