# Masked copies, nonzero, rot90, repeat_interleave (torch 2.13; include/ctensor.h "Masked
# copies").  Every function returning a tensor returns a COPY on a new storage; the `!` forms
# write `t` in place (same storage, version bumped once) and return it.  Dimensions are
# 1-based; the index tensors of nonzero_copy / repeat_interleave_indices hold torch's 0-based
# indices (they are tensors meant for other tensor ops, as in torch, not Julia indices).

_opt(x::Nothing) = C_NULL
_opt(x::Integer) = Ref{Int64}(Int64(x))

"""
    masked_select_copy(t, mask) -> Tensor{T,1}          (torch: t.masked_select(mask))

A COPY: the elements of `t` where the Bool tensor `mask` is true, `t` and `mask` broadcast
together, in row-major order.  CT_ERR_DTYPE for a non-Bool mask, CT_ERR_SHAPE if they do not
broadcast.
"""
masked_select_copy(t::Tensor{T}, mask::Tensor) where {T} = own_handle(() -> L.ct_masked_select(t, mask))::Tensor{T,1}

"""
    masked_fill!(t, mask, value) -> t          (torch: t.masked_fill_(mask, value))
    masked_fill_copy(t, mask, value) -> Tensor (torch: t.masked_fill(mask, value))

`value` (a number, or a 0-dim tensor) where the Bool `mask` (broadcast to `t`) is true.  The
copy broadcasts `t` with `mask`.  CT_ERR_INVALID_ARGUMENT for a value that does not fit `T`
(torch's overflow rule) or a value tensor that is not 0-dim.
"""
function masked_fill!(t::Tensor, mask::Tensor, value::Real)
    _status(() -> L.ct_masked_fill_(t, mask, Float64(value)))
    return t
end
function masked_fill!(t::Tensor, mask::Tensor, value::Tensor)
    _status(() -> L.ct_masked_fill_tensor_(t, mask, value))
    return t
end
masked_fill_copy(t::Tensor{T}, mask::Tensor, value::Real) where {T} =
    own_handle(() -> L.ct_masked_fill(t, mask, Float64(value)))::Tensor{T}
masked_fill_copy(t::Tensor{T}, mask::Tensor, value::Tensor) where {T} =
    own_handle(() -> L.ct_masked_fill_tensor(t, mask, value))::Tensor{T}

"""
    masked_scatter!(t, mask, source) -> t          (torch: t.masked_scatter_(mask, source))
    masked_scatter_copy(t, mask, source) -> Tensor (torch: t.masked_scatter(mask, source))

Where the Bool `mask` is true, `t` takes the next element of `source` (same element type,
read in row-major order).  CT_ERR_INVALID_ARGUMENT if `source` has fewer elements than `mask`
has true entries; CT_ERR_OVERLAP for an expanded `t`.
"""
function masked_scatter!(t::Tensor{T}, mask::Tensor, source::Tensor{T}) where {T}
    _status(() -> L.ct_masked_scatter_(t, mask, source))
    return t
end
masked_scatter_copy(t::Tensor{T}, mask::Tensor, source::Tensor{T}) where {T} =
    own_handle(() -> L.ct_masked_scatter(t, mask, source))::Tensor{T}

"""
    nonzero_copy(t) -> Tensor{Int64,2}          (torch: t.nonzero(), t.argwhere())

A NEW (count, ndims) Int64 tensor: row i holds the 0-based indices (torch's) of the i-th
non-zero element of `t` in row-major order, laid out column-major as torch lays it out.
"""
nonzero_copy(t::Tensor) = own_handle(() -> L.ct_nonzero(t))::Tensor{Int64,2}

"""
    rot90_copy(t, k = 1, dims = (1, 2)) -> Tensor          (torch: t.rot90(k, dims .- 1))

A COPY of `t` rotated `k` quarter turns from dimension dims[1] towards dims[2] (1-based);
odd `k` gives a result with those dimensions swapped in its sizes and strides.
"""
function rot90_copy(t::Tensor{T,N}, k::Integer = 1, dims = (1, 2)) where {T,N}
    cd = Int64[_cdim(t, d, "rot90_copy") for d in dims]
    return own_handle(() -> L.ct_rot90(t, Int64(k), Cint(length(cd)), cd))::Tensor{T,N}
end

"""
    repeat_interleave_copy(t, repeats; dim = nothing, output_size = nothing) -> Tensor
                                   (torch: t.repeat_interleave(repeats, dim - 1, output_size=...))

A COPY with each element of `t` repeated `repeats` times (an integer, or an Int64/Int32
tensor of counts: one count, or one per index along `dim`) along dimension `dim` (1-based), or
along the row-major flattened `t` when `dim` is nothing.
"""
function repeat_interleave_copy(t::Tensor{T}, repeats::Integer; dim::Union{Nothing,Integer} = nothing,
                                output_size::Union{Nothing,Integer} = nothing) where {T}
    d = dim === nothing ? nothing : Int64(_cdim(t, dim, "repeat_interleave_copy"))
    return own_handle(() -> L.ct_repeat_interleave(t, Int64(repeats), _opt(d), _opt(output_size)))::Tensor{T}
end
function repeat_interleave_copy(t::Tensor{T}, repeats::Tensor; dim::Union{Nothing,Integer} = nothing,
                                output_size::Union{Nothing,Integer} = nothing) where {T}
    d = dim === nothing ? nothing : Int64(_cdim(t, dim, "repeat_interleave_copy"))
    return own_handle(() -> L.ct_repeat_interleave_tensor(t, repeats, _opt(d), _opt(output_size)))::Tensor{T}
end

"""
    repeat_interleave_indices(counts; output_size = nothing) -> Tensor   (torch: torch.repeat_interleave(counts))

A NEW 1-D tensor of `counts`' element type (Int64 or Int32): the 0-based index i repeated
counts[i + 1] times.
"""
repeat_interleave_indices(counts::Tensor{T,1}; output_size::Union{Nothing,Integer} = nothing) where {T} =
    own_handle(() -> L.ct_repeat_interleave_repeats(counts, _opt(output_size)))::Tensor{T,1}
