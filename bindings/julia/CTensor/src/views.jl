# Views, views-when-possible and copies.  The name says which:
#   *_view                  always a view (same storage), or a CTensorError
#   alias                   same storage and version counter, but not a view (torch .detach())
#   *_view_or_copy, contiguous_or_self, to_eltype_or_self
#                           a view (or t itself) when the strides allow, else a copy
#   clone, index_select_copy  always a copy (new storage)
#   copy_into!              writes into an existing tensor
# Dimensions and indices are 1-based, as everywhere in Julia; they become 0-based here.

function _cdim(t::Tensor{T,N}, d::Integer, op::AbstractString, hi::Int = N) where {T,N}
    1 <= d <= hi || _julia_error(L.CT_ERR_INDEX,
        "$op: dimension $d is out of range (expected to be in range of [1, $hi])")
    return Cint(d - 1)
end

function _cindex(t::Tensor, d::Integer, i::Integer, op::AbstractString)
    n = size(t, d)
    1 <= i <= n || _julia_error(L.CT_ERR_INDEX,
        "$op: index $i is out of bounds for dimension $d with size $n")
    return Int64(i - 1)
end

_shape(dims) = Int64[Int64(d) for d in dims]

# ---- Always views ---------------------------------------------------------------------------

"""
    reshape_view(t, dims...) -> Tensor          (torch: t.view(dims))

A VIEW of `t` with shape `dims` in ctensor's row-major element order; one entry may be -1
(inferred).  Fails with `CT_ERR_NOT_VIEWABLE` and PyTorch's message ("view size is not
compatible with input tensor's size and stride ...") when `t`'s strides forbid a view: use
`reshape_view_or_copy` then.  (Julia's own `reshape(t, ...)` is column-major and unrelated.)
"""
function reshape_view(t::Tensor{T}, dims::Integer...) where {T}
    return own_handle(L.ct_view(t, length(dims), _shape(dims)))::Tensor{T,length(dims)}
end
reshape_view(t::Tensor, dims::Tuple{Vararg{Integer}}) = reshape_view(t, dims...)

"""
    transpose_view(t, d1 = 1, d2 = 2) -> Tensor          (torch: t.transpose(d1-1, d2-1))

A VIEW with dimensions `d1` and `d2` swapped (their sizes and strides).  Writes through it
change `t`.
"""
transpose_view(t::Tensor{T,N}, d1::Integer = 1, d2::Integer = 2) where {T,N} =
    own_handle(L.ct_transpose(t, _cdim(t, d1, "transpose_view"), _cdim(t, d2, "transpose_view")))::Tensor{T,N}

"""
    t_view(t) -> Tensor          (torch: t.t())

A VIEW of a matrix with its two dimensions swapped; a 0-D or 1-D `t` unchanged (still a
view).  `CTensorError(CT_ERR_SHAPE)` for more than 2 dimensions.  Its autograd node is
TBackward0 (transpose_view's is TransposeBackward0).
"""
t_view(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_t(t))::Tensor{T,N}

"""
    permute_view(t, perm...) -> Tensor          (torch: t.permute(perm .- 1))

A VIEW whose dimension `k` is `t`'s dimension `perm[k]`.
"""
function permute_view(t::Tensor{T,N}, perm::Integer...) where {T,N}
    length(perm) == N || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "permute_view: got $(length(perm)) dimensions for a tensor with $N")
    dims = Cint[_cdim(t, p, "permute_view") for p in perm]
    return own_handle(L.ct_permute(t, N, dims))::Tensor{T,N}
end
permute_view(t::Tensor, perm::Tuple{Vararg{Integer}}) = permute_view(t, perm...)

"""
    slice_view(t, d, r::AbstractRange) -> Tensor          (torch: t[..., a:b:s, ...])
    slice_view(t, d, :)

A VIEW of the indices `r` (1-based, step >= 1) along dimension `d`:
`slice_view(t, 2, 2:3)` is Python's `t[:, 1:3]`.  Writes through it change `t`.
"""
function slice_view(t::Tensor{T,N}, d::Integer, r::AbstractRange{<:Integer}) where {T,N}
    cd, start, stop, s = _slice_args(t, d, r, "slice_view")
    return own_handle(L.ct_slice(t, cd, start, stop, s))::Tensor{T,N}
end

# ct_slice's (dim, start, stop, step), 0-based and end-exclusive, for the 1-based range r along
# dimension d (step >= 1, in bounds; an empty range becomes an empty slice where it starts).
function _slice_args(t::Tensor, d::Integer, r::AbstractRange{<:Integer}, op::AbstractString)
    cd = _cdim(t, d, op)
    s = step(r)
    s >= 1 || _julia_error(L.CT_ERR_INVALID_ARGUMENT, "$op: step must be positive, got $s")
    if isempty(r)
        start = stop = Int64(clamp(first(r) - 1, 0, size(t, d)))
    else
        (first(r) >= 1 && last(r) <= size(t, d)) || _julia_error(L.CT_ERR_INDEX,
            "$op: range $r is out of bounds for dimension $d with size $(size(t, d))")
        start, stop = Int64(first(r) - 1), Int64(last(r))
    end
    return cd, start, stop, Int64(s)
end
slice_view(t::Tensor, d::Integer, ::Colon) = slice_view(t, d, 1:size(t, d))

"""
    narrow_view(t, d, start, len) -> Tensor          (torch: t.narrow(d-1, start-1, len))

A VIEW of `len` indices from `start` (1-based) along dimension `d`.  `start` may be
`size(t, d) + 1` with `len == 0` (an empty view at the end, as C and torch allow).
"""
function narrow_view(t::Tensor{T,N}, d::Integer, start::Integer, len::Integer) where {T,N}
    cd = _cdim(t, d, "narrow_view")
    n = size(t, d)
    # start in 1:n+1; the library checks that start + len - 1 <= n (torch's message).
    1 <= start <= n + 1 || _julia_error(L.CT_ERR_INDEX,
        "narrow_view: start $start is out of range for dimension $d with size $n " *
        "(expected to be in range of [1, $(n + 1)])")
    return own_handle(L.ct_narrow(t, cd, Int64(start - 1), Int64(len)))::Tensor{T,N}
end

"""
    select_view(t, d, i) -> Tensor          (torch: t.select(d-1, i-1), t[..., i-1, ...])

A VIEW of index `i` (1-based) of dimension `d`, which the result no longer has.
"""
function select_view(t::Tensor{T,N}, d::Integer, i::Integer) where {T,N}
    cd = _cdim(t, d, "select_view")
    return own_handle(L.ct_select(t, cd, _cindex(t, d, i, "select_view")))::Tensor{T,N - 1}
end

"""
    expand_view(t, dims...) -> Tensor          (torch: t.expand(dims))

A VIEW broadcasting `t` to `dims` (new dimensions are leading; -1 keeps a size), with
stride 0 on expanded dimensions: several indices reach one element
(`has_internal_overlap` is true and in-place writes into it are refused).
"""
expand_view(t::Tensor{T}, dims::Integer...) where {T} =
    own_handle(L.ct_expand(t, length(dims), _shape(dims)))::Tensor{T,length(dims)}

"""
    squeeze_view(t) -> Tensor
    squeeze_view(t, d) -> Tensor          (torch: t.squeeze(), t.squeeze(d-1))
    squeeze_view(t, dims::Tuple) -> Tensor          (torch: t.squeeze(dims .- 1))

A VIEW without the dimensions of size 1 (or without dimension `d` / those of `dims` whose
size is 1; the others kept).
"""
squeeze_view(t::Tensor) = own_handle(L.ct_squeeze_all(t))
squeeze_view(t::Tensor, d::Integer) = own_handle(L.ct_squeeze(t, _cdim(t, d, "squeeze_view")))
squeeze_view(t::Tensor, dims::Tuple{Vararg{Integer}}) =
    own_handle(L.ct_squeeze_dims(t, length(dims), Cint[_cdim(t, d, "squeeze_view") for d in dims]))

"""
    unsqueeze_view(t, d) -> Tensor          (torch: t.unsqueeze(d-1))

A VIEW with a new dimension of size 1 at position `d` (in `1:ndims(t)+1`).
"""
unsqueeze_view(t::Tensor{T,N}, d::Integer) where {T,N} =
    own_handle(L.ct_unsqueeze(t, _cdim(t, d, "unsqueeze_view", N + 1)))::Tensor{T,N + 1}

"""
    diagonal_view(t; offset = 0, dims = (1, 2)) -> Tensor          (torch: t.diagonal(...))

A VIEW of the diagonal of dimensions `dims` (offset > 0: above the main diagonal), as the
last dimension of the result.
"""
function diagonal_view(t::Tensor{T,N}; offset::Integer = 0, dims::NTuple{2,Integer} = (1, 2)) where {T,N}
    d1 = _cdim(t, dims[1], "diagonal_view")
    d2 = _cdim(t, dims[2], "diagonal_view")
    return own_handle(L.ct_diagonal(t, Int64(offset), d1, d2))::Tensor{T,N - 1}
end

"""
    unfold_view(t, d, size, step) -> Tensor          (torch: t.unfold(d-1, size, step))

A VIEW of every window of `size` elements along dimension `d`, `step` apart, as a new last
dimension.  Windows overlap when `step < size`.
"""
unfold_view(t::Tensor{T,N}, d::Integer, size::Integer, step::Integer) where {T,N} =
    own_handle(L.ct_unfold(t, _cdim(t, d, "unfold_view"), Int64(size), Int64(step)))::Tensor{T,N + 1}

"""
    as_strided_view(t, dims, strides, storage_offset = storage_offset(t)) -> Tensor

A VIEW with any sizes, non-negative strides (in elements) and ABSOLUTE storage offset (in
elements, 0-based, as `storage_offset`), bounds-checked against the storage
(`CT_ERR_INDEX`).  (torch: `t.as_strided(dims, strides, storage_offset)`.)
"""
function as_strided_view(t::Tensor{T}, dims::Tuple{Vararg{Integer}}, strides::Tuple{Vararg{Integer}},
                         offset::Integer = storage_offset(t)) where {T}
    length(dims) == length(strides) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "as_strided_view: $(length(dims)) sizes but $(length(strides)) strides")
    h = L.ct_as_strided(t, length(dims), _shape(dims), _shape(strides), Int64(offset))
    return own_handle(h)::Tensor{T,length(dims)}
end

# ---- Multi-output views ---------------------------------------------------------------------

# The views a multi-output call makes, owned: asks how many (out == NULL), then fills an array
# of that many handles.  f(out, cap) is the LibCTensor call.
function _multi_views(f, ::Type{T}, ::Val{M}) where {T,M}
    n = f(Ptr{_TensorHandle}(C_NULL), Int64(0))
    n < 0 && throw(last_error())
    out = fill(_TensorHandle(C_NULL), Int(n))
    m = f(out, Int64(n))
    m < 0 && throw(last_error())
    return Tensor{T,M}[own_handle(out[i])::Tensor{T,M} for i in 1:m]
end

"""
    unbind_views(t, d) -> Vector{Tensor}          (torch: t.unbind(d-1))

One VIEW per index along dimension `d` (each as `select_view(t, d, i)`), one dimension
fewer.  Autograd: each records UnbindBackward0, and none of them (nor a view of one) may be
written in place while autograd is involved (torch's "Output 0 of Unbind is a view
and is being modified inplace. This view is the output of a function that returns multiple
views. ..."); with grad mode off or nothing requiring grad they may.
"""
unbind_views(t::Tensor{T,N}, d::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_unbind(t, _cdim(t, d, "unbind_views"), o, c), T, Val(N - 1))

"""
    split_views(t, d, len::Integer) -> Vector{Tensor}          (torch: t.split(len, d-1))
    split_views(t, d, lens::AbstractVector{<:Integer})         (torch: t.split(lens, d-1))

VIEWS of consecutive pieces along dimension `d`: of `len` elements each (the last one
shorter if `len` does not divide the size; SplitBackward0), or of the lengths `lens`, which
must sum to the size (SplitWithSizesBackward0).  In-place writes as for `unbind_views`.
"""
split_views(t::Tensor{T,N}, d::Integer, len::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_split(t, Int64(len), _cdim(t, d, "split_views"), o, c), T, Val(N))
function split_views(t::Tensor{T,N}, d::Integer, lens::AbstractVector{<:Integer}) where {T,N}
    cd = _cdim(t, d, "split_views")
    l = Int64[Int64(x) for x in lens]
    return _multi_views((o, c) -> L.ct_split_with_sizes(t, length(l), l, cd, o, c), T, Val(N))
end

"""
    chunk_views(t, d, n) -> Vector{Tensor}          (torch: t.chunk(n, d-1))

At most `n` VIEWS along dimension `d`, each `cld(size(t, d), n)` long (the last one shorter);
`n` empty views if the dimension is empty.  In-place writes as for `unbind_views`.
"""
chunk_views(t::Tensor{T,N}, d::Integer, n::Integer) where {T,N} =
    _multi_views((o, c) -> L.ct_chunk(t, Int64(n), _cdim(t, d, "chunk_views"), o, c), T, Val(N))

"""
    alias(t) -> Tensor          (torch: t.detach())

Same storage, metadata and version counter as `t`, but NOT a view: `is_view` is false and
`base` is `nothing`.  Writes through either are seen through the other.
"""
alias(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_alias(t))::Tensor{T,N}

"""
    alias_view(t) -> Tensor          (torch: t[...], aten::alias)

A VIEW of `t` with the same sizes, strides and offset (`is_view` true, `base` the root);
unlike `alias` it stays in the autograd graph (AliasBackward0).
"""
alias_view(t::Tensor{T,N}) where {T,N} = own_handle(L.ct_alias_view(t))::Tensor{T,N}

# ---- View when possible, copy otherwise ----------------------------------------------------

"""
    reshape_view_or_copy(t, dims...) -> Tensor          (torch: t.reshape(dims))

`reshape_view(t, dims...)` when the strides allow a view, else a contiguous COPY; one entry
may be -1.  Which one it was: `shares_storage(t, result)`, or ask first with
`reshape_is_view`.
"""
function reshape_view_or_copy(t::Tensor{T}, dims::Integer...) where {T}
    shape = _shape(dims)
    return own_handle(() -> L.ct_reshape(t, length(dims), shape))::Tensor{T,length(dims)}
end
reshape_view_or_copy(t::Tensor, dims::Tuple{Vararg{Integer}}) = reshape_view_or_copy(t, dims...)

"""
    reshape_is_view(t, dims...) -> Bool

Whether `reshape_view_or_copy(t, dims...)` would return a view (`ct_reshape_is_view`).
"""
reshape_is_view(t::Tensor, dims::Integer...) = check_bool(L.ct_reshape_is_view(t, length(dims), _shape(dims)))

"""
    flatten_view_or_copy(t, first_dim = 1, last_dim = ndims(t)) -> Tensor          (torch: t.flatten(...))

Dimensions `first_dim:last_dim` merged into one, as `reshape_view_or_copy`: a view when the
strides allow, else a copy.  `first_dim == last_dim` gives `t` itself (the same C tensor); a
0-dimensional `t` gives a 1-element 1-D view.
"""
function flatten_view_or_copy(t::Tensor{T,N}, first_dim::Integer = 1, last_dim::Integer = N) where {T,N}
    N == 0 && return own_handle(() -> L.ct_flatten(t, 0, -1))::Tensor{T,1}
    d1 = _cdim(t, first_dim, "flatten_view_or_copy")
    d2 = _cdim(t, last_dim, "flatten_view_or_copy")
    return own_handle(() -> L.ct_flatten(t, d1, d2))::Tensor{T,N - (last_dim - first_dim)}
end

"""
    contiguous_or_self(t; memory_format=:contiguous_format) -> Tensor          (torch: t.contiguous(memory_format=...))

`t` itself (the same C tensor, `handle` equal) when `t` is contiguous (row-major), else a
contiguous COPY.  With `memory_format` (see memory_format.jl): `t` itself when it is laid out
so, else a COPY laid out so (`:preserve_format` is refused when a copy is needed).
"""
contiguous_or_self(t::Tensor{T,N}; memory_format::Symbol = :contiguous_format) where {T,N} =
    memory_format === :contiguous_format ? own_handle(() -> L.ct_contiguous(t))::Tensor{T,N} :
    _contiguous_format(t, memory_format)

"""
    to_eltype_or_self(t, S; memory_format=:preserve_format, copy=false) -> Tensor{S}          (torch: t.to(dtype, memory_format=..., copy=...))

`t` converted to element type `S` in a new storage (float to integer truncates toward zero,
x != 0 to Bool), or `t` itself when its element type is already `S`, `copy` is false and
`memory_format` is `:preserve_format` or `suggest_memory_format(t)`.  The copy is laid out as
`memory_format` says (`:preserve_format`: as `clone`).
"""
function to_eltype_or_self(t::Tensor{T,N}, ::Type{S}; memory_format::Symbol = :preserve_format,
                           copy::Bool = false) where {T,N,S}
    dt = dtype(S)
    (memory_format === :preserve_format && !copy) || return _to_format(t, S, memory_format, copy)
    return own_handle(() -> L.ct_to(t, dt))::Tensor{S,N}
end

# ---- Copies ---------------------------------------------------------------------------------

"""
    clone(t) -> Tensor          (torch: t.clone())

A COPY of `t` in a new storage, laid out as PyTorch's `clone()` (preserve_format): with
`t`'s own strides when `t` is dense (a transpose's clone is still transposed), else densely
in the order of `t`'s strides.  `contiguous_or_self` gives C order.  Also what `copy(t)`
returns.  Not exported (a generic name): `using CTensor: clone`.  With `memory_format`
(`:contiguous_format`, `:channels_last`, `:channels_last_3d`): laid out so.
"""
clone(t::Tensor{T,N}; memory_format::Symbol = :preserve_format) where {T,N} =
    memory_format === :preserve_format ? own_handle(() -> L.ct_clone(t))::Tensor{T,N} :
    _clone_format(t, memory_format)

"""
    index_select_copy(t, d, indices) -> Tensor          (torch: t.index_select(d-1, idx .- 1))

A COPY of the entries of `t` at positions `indices` (1-based) along dimension `d`.
"""
function index_select_copy(t::Tensor{T,N}, d::Integer, indices::AbstractVector{<:Integer}) where {T,N}
    cd = _cdim(t, d, "index_select_copy")
    n = size(t, d)
    for i in indices
        1 <= i <= n || _julia_error(L.CT_ERR_INDEX,
            "index_select_copy: index $i is out of bounds for dimension $d with size $n")
    end
    idx = Tensor{Int64}(Int64[i - 1 for i in indices])
    try
        return own_handle(() -> L.ct_index_select(t, cd, idx))::Tensor{T,N}
    finally
        close(idx)
    end
end

"""
    copy_into!(dst, src) -> dst          (torch: dst.copy_(src))

Writes `src` into `dst`'s elements, broadcasting `src` to `dst`'s shape and converting the
element type as C and torch do (`ct_copy_`: float to integer truncates, narrowing integers
wrap; `copyto!` converts by Julia's rules instead); correct when they overlap.  Bumps
`dst`'s version.
"""
function copy_into!(dst::Tensor, src::Tensor)
    _status(() -> L.ct_copy_(dst, src))
    return dst
end
