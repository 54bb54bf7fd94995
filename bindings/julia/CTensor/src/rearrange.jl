# Copies that rearrange elements (always a NEW storage, never a view): repeat, tile, flip,
# fliplr, flipud, roll.  The names end in _copy, as index_select_copy: Base.repeat and
# Base.circshift already exist with their own argument conventions (Base.repeat's `inner`/
# `outer`, circshift's shift tuple over all dims), and these functions neither extend nor
# imitate them; `flip`/`tile`/`roll` are left free for other packages.  Dimensions are 1-based.

"""
    repeat_copy(t, counts...) -> Tensor          (torch: t.repeat(counts))

A COPY of `t` tiled `counts[i]` times along dimension `i`.  `length(counts) >= ndims(t)`;
`t` gets leading size-1 dimensions when there are more counts.  Throws `CTensorError`
(CT_ERR_SHAPE) for fewer counts than dimensions or a negative count, CT_ERR_SHAPE or
CT_ERR_OUT_OF_MEMORY for a result too large.
"""
repeat_copy(t::Tensor{T}, counts::Integer...) where {T} =
    own_handle(() -> L.ct_repeat(t, Cint(length(counts)), _shape(counts)))::Tensor{T,length(counts)}

"""
    tile_copy(t, counts...) -> Tensor          (torch: t.tile(counts))

As `repeat_copy`, but fewer counts than dimensions are padded with leading 1s.
"""
tile_copy(t::Tensor{T,N}, counts::Integer...) where {T,N} =
    own_handle(() -> L.ct_tile(t, Cint(length(counts)), _shape(counts)))::Tensor{T,max(N, length(counts))}

"""
    flip_copy(t, dims...) -> Tensor          (torch: t.flip(dims .- 1))

A COPY of `t` reversed along each of `dims` (1-based, no repeats: a repeated dimension
throws CT_ERR_SHAPE, as torch).  No dims: a plain copy.
"""
function flip_copy(t::Tensor{T,N}, dims::Integer...) where {T,N}
    cd = Int64[_cdim(t, d, "flip_copy") for d in dims]
    return own_handle(() -> L.ct_flip(t, Cint(length(cd)), cd))::Tensor{T,N}
end

"""
    fliplr_copy(t) -> Tensor          (torch: t.fliplr(), dimension 2 reversed; ndims >= 2)
    flipud_copy(t) -> Tensor          (torch: t.flipud(), dimension 1 reversed; ndims >= 1)
"""
fliplr_copy(t::Tensor{T,N}) where {T,N} = own_handle(() -> L.ct_fliplr(t))::Tensor{T,N}
flipud_copy(t::Tensor{T,N}) where {T,N} = own_handle(() -> L.ct_flipud(t))::Tensor{T,N}

"""
    roll_copy(t, shift) -> Tensor                    (torch: t.roll(shift))
    roll_copy(t, shifts, dims) -> Tensor             (torch: t.roll(shifts, dims .- 1))

A COPY of `t` with elements moved `shifts[k]` places along `dims[k]` (1-based), wrapping
around; with one shift and no dims, over the row-major flattened tensor.
"""
function roll_copy(t::Tensor{T,N}, shift::Integer) where {T,N}
    return own_handle(() -> L.ct_roll(t, Cint(1), Int64[shift], Cint(0), C_NULL))::Tensor{T,N}
end
function roll_copy(t::Tensor{T,N}, shifts::Union{Tuple,AbstractVector},
                   dims::Union{Tuple,AbstractVector}) where {T,N}
    s = Int64[x for x in shifts]
    cd = Int64[_cdim(t, d, "roll_copy") for d in dims]
    return own_handle(() -> L.ct_roll(t, Cint(length(s)), s, Cint(length(cd)), cd))::Tensor{T,N}
end
