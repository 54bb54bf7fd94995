"""
    CTensor

Julia interface to ctensor, a tensor library with PyTorch's memory semantics behind a C ABI
(`include/ctensor.h`).  `CTensor.LibCTensor` is the raw layer, one `ccall` wrapper per
header function, generated from the header.  This module is the Julia layer over it:
`Tensor{T,N} <: AbstractArray{T,N}` owning one handle, views and copies under names that say
which they are, memory introspection, zero-copy exchange with Julia arrays, and
`CTensorError` for every failure, and autograd (`requires_grad!`, `backward!`, `grad`,
`no_grad`).  The library is `ENV["CTENSOR_LIB"]` if set when the
package loads, else `libctensor` on the library search path.  See README.md.
"""
module CTensor

include("LibCTensor.jl")
const L = LibCTensor

include("bfloat16.jl")
include("errors.jl")
include("dtypes.jl")
include("tensor.jl")
include("creation.jl")
include("views.jl")
include("memory.jl")
include("foreign.jl")
include("explain.jl")
include("autograd.jl")

# Types and errors
export Tensor, Storage, BFloat16, CTensorError
# Creation
export tensor_zeros, tensor_ones, tensor_full, tensor_arange, wrap_array
# Always views / alias
export reshape_view, transpose_view, t_view, permute_view, slice_view, narrow_view, select_view,
       expand_view, squeeze_view, unsqueeze_view, diagonal_view, unfold_view,
       as_strided_view, alias, alias_view, unbind_views, split_views, chunk_views
# View when possible, copy otherwise
export reshape_view_or_copy, reshape_is_view, flatten_view_or_copy, contiguous_or_self,
       to_eltype_or_self
# Copies and writes
export clone, index_select_copy, copy_into!
# Memory introspection
export storage, storage_id, storage_offset, shares_storage, may_overlap, overlaps,
       has_internal_overlap, is_contiguous, is_column_major, is_view, base, version,
       refcount, same_tensor, live_tensors, live_storages, torch_repr
# Explanations
export explain
# Autograd
export requires_grad, requires_grad!, isleaf, grad, grad!, backward!, retain_grad!, retains_grad,
       detach, grad_fn_name,
       is_grad_enabled, set_grad_enabled!, no_grad, enable_grad

function __init__()
    _DELETER[] = @cfunction(_foreign_deleter, Cvoid, (Ptr{Cvoid}, Ptr{Cvoid}))
    return nothing
end

end # module CTensor
