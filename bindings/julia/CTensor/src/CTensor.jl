"""
    CTensor

Julia interface to ctensor, a tensor library with PyTorch's memory semantics behind a C ABI
(`include/ctensor.h`).  `CTensor.LibCTensor` is the raw layer, one `ccall` wrapper per
header function, generated from the header.  This module is the Julia layer over it:
`Tensor{T,N} <: AbstractArray{T,N}` owning one handle, views and copies under names that say
which they are, memory introspection, zero-copy exchange with Julia arrays, `CTensorError`
for every failure, and autograd (`requires_grad!`, `backward!`, `grad`, `no_grad`).  The
library is `ENV["CTENSOR_LIB"]` (made absolute when the package loads) if set, else
`libctensor` on the library search path.  See README.md.

Generic names are not exported, to clash with no other package: `using CTensor: clone,
base, version, storage, grad`; nor is `BFloat16` (BFloat16s.jl exports its own on Julia
1.10): `using CTensor: BFloat16`.  `detach(t)` is a method of `Base.detach`.
"""
module CTensor

import Serialization

include("LibCTensor.jl")
const L = LibCTensor

include("bfloat16.jl")
include("errors.jl")
include("dtypes.jl")
include("tensor.jl")
include("creation.jl")
include("views.jl")
include("view_family.jl")
include("rearrange.jl")
include("index_ops.jl")
include("scatter_reduce.jl")
include("memory.jl")
include("foreign.jl")
include("explain.jl")
include("autograd.jl")
include("autograd_callbacks.jl")
include("identity.jl")
include("dtype_views.jl")
include("math.jl")
include("memory_format.jl")
include("mask_ops.jl")
include("scan_sort.jl")
include("checkpoint.jl")
include("complex.jl")

# Every exported name is checked (bindings/julia/check/julia_check.py) against the names
# Base, Core and the standard libraries export, and against a list of names too generic to
# export (those below are public but not exported).

# Types and errors
export view_as_real, view_as_complex, real_view, imag_view
export conj_view, neg_view, is_conj, is_neg, resolve_conj, resolve_neg, conj_physical, conj_physical!, adjoint_view
export Tensor, Storage, CTensorError
# Creation
export tensor_zeros, tensor_ones, tensor_full, tensor_arange, wrap_array
# Always views / alias
export reshape_view, transpose_view, t_view, permute_view, slice_view, narrow_view, select_view,
       expand_view, squeeze_view, unsqueeze_view, diagonal_view, unfold_view,
       as_strided_view, alias, alias_view, unbind_views, split_views, chunk_views
# The split family and the other composite views (view_family.jl)
export tensor_split_views, hsplit_views, vsplit_views, dsplit_views, unsafe_split_shared,
       unsafe_chunk_shared, unflatten_view, movedim_view, swapdims_view, expand_as_view, view_as_view,
       reshape_as_view_or_copy, broadcast_to_view, broadcast_views, broadcast_dims, atleast_1d_view,
       atleast_2d_view, atleast_3d_view
# View when possible, copy otherwise
export reshape_view_or_copy, reshape_is_view, flatten_view_or_copy, contiguous_or_self,
       to_eltype_or_self
# Copies and writes
export index_select_copy, copy_into!
# Rearranging copies (rearrange.jl)
export repeat_copy, tile_copy, flip_copy, fliplr_copy, flipud_copy, roll_copy
# Indexed copies and writes (index_ops.jl)
export gather_copy, scatter_copy, scatter!, scatter_add_copy, scatter_add!, index_add_copy, index_add!,
       index_copy_copy, index_copy!, index_fill_copy, index_fill!, take_copy, put_copy, put_flat!,
       index_put_copy, index_put!
export scatter_reduce_copy, scatter_reduce!
# Masked copies, nonzero, rot90, repeat_interleave (mask_ops.jl)
export masked_select_copy, masked_fill!, masked_fill_copy, masked_scatter!, masked_scatter_copy, nonzero_copy,
       rot90_copy, repeat_interleave_copy, repeat_interleave_indices
# Scans, sorting, clamping (scan_sort.jl)
export tensor_cumsum, tensor_cumprod, tensor_cumsum!, tensor_cumprod!, tensor_sort, tensor_argsort, tensor_topk,
       tensor_clamp, tensor_clamp!
# Memory introspection
export load_safetensors, save_safetensors, safetensors_metadata, storage_from_file, load_torch, save_torch
export storage_id, storage_offset, shares_storage, may_overlap, overlaps,
       has_internal_overlap, is_contiguous, is_column_major, is_view, data_address,
       refcount, same_tensor, live_tensors, live_storages, torch_repr
# dtype views, T / mT, copies of views
export view_dtype, view_dtype_copy, matrix_transpose_view, reverse_dims_view, reshape_copy,
       transpose_copy, permute_copy, narrow_copy, select_copy, expand_copy, alias_copy, detach_copy,
       t_copy, slice_copy, squeeze_copy, unsqueeze_copy, diagonal_copy, unfold_copy, as_strided_copy,
       unbind_copy, split_copy
# Explanations
export explain
# Autograd
export requires_grad, requires_grad!, isleaf, grad!, backward!, retain_grad!, retains_grad,
       grad_fn_name, is_grad_enabled, set_grad_enabled!, no_grad, enable_grad,
       inference_mode, is_inference_mode_enabled, is_inference
export register_hook, remove!, hook_id, HookHandle, custom_op, saved_output, live_callbacks, autograd_grad
# Identity: .data, version counters, in-place metadata ops (resize! is a method of Base's)
export tensor_data, same_version_counter, detach!, set_data!, is_set_to, resize_as!,
       as_strided!, t!, swapdims!, squeeze!, unsqueeze!
# Memory formats (keyword memory_format= on is_contiguous, contiguous_or_self, clone,
# to_eltype_or_self, Tensor{T}(undef, ...))
export suggest_memory_format, tensor_empty_strided, tensor_empty_like, tensor_zeros_like,
       tensor_ones_like, tensor_full_like

# Elementwise ^, fld, mod, rem are methods of Base's (math.jl); spread reductions and norms
export tensor_var, tensor_std, tensor_var_mean, tensor_std_mean, tensor_norm

# Public, not exported (Julia 1.11+ records that; `public` does not parse on 1.10).
@static if VERSION >= v"1.11.0-DEV.469"
    eval(Expr(:public, :clone, :base, :version, :storage, :grad, :BFloat16, :LibCTensor, :own_handle,
              :handle, :dtype, :eltype_of, :dtype_name, :ELTYPES, :last_error, :clear_error,
              :status_name, :nbytes, :is_read_only, :drain_foreign_roots!, :foreign_roots,
              :version_string, :set!, :num_threads, :set_num_threads!, :TensorStyle, :OOM_RETRIES))
end

function __init__()
    _DELETER[] = @cfunction(_foreign_deleter, Cvoid, (Ptr{Cvoid}, Ptr{Cvoid}))
    _init_callbacks()
    return nothing
end

end # module CTensor
