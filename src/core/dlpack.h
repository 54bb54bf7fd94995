// DLPack import and export, zero-copy in both directions.
//
// Note [DLPack ownership]
// Import: the new tensor's storage wraps the producer's memory, from data + byte_offset to
// the last element the sizes and strides reach (storage offset 0), and calls the producer's
// deleter(m) exactly once when the storage dies, on whatever thread releases it last.  Any
// failure leaves m untouched and its deleter uncalled: ownership stays with the caller
// (ctensor.h's contract, stricter than the DLPack text, which lets a consumer call the
// deleter of a versioned tensor whose major version it refuses).
// Export: the returned struct owns one reference to the tensor (and so to its storage), and
// copies of its sizes and strides; its deleter drops both and frees the struct.  data is
// the address of element [0, ..., 0] and byte_offset is 0, because PyTorch 1.x ignores
// byte_offset when it imports (checked with torch 1.13) and NumPy accepts either.
//
// The DLPack structs are an external ABI, declared in include/ctensor_dlpack.h; the core
// only forward-declares them here.
#pragma once

#include "tensor.h"

struct DLManagedTensor;
struct DLManagedTensorVersioned;

namespace ct {

// Takes ownership of m on success (Note [DLPack ownership]).  Throws InvalidArgument (NULL
// m or data, bad ndim, non-CPU device, negative strides, misaligned data, a layout past the
// end of the address space), DType (lanes != 1, a code/bits pair that is not one of the ten
// dtypes) or Shape (negative size, element count or extent overflowing int64).
Ref<Tensor> from_dlpack(DLManagedTensor* m);
// The same; also throws InvalidArgument for a major version other than 1.  The storage is
// read-only if m->flags has DLPACK_FLAG_BITMASK_READ_ONLY.
Ref<Tensor> from_dlpack_versioned(DLManagedTensorVersioned* m);

// A new managed tensor sharing t's memory and keeping t alive until its deleter runs.
// Throws ReadOnly for a read-only storage: the legacy struct cannot carry the flag, so the
// consumer would be free to write (NumPy refuses such exports for the same reason).
DLManagedTensor* to_dlpack(const Tensor& t);
// The same with version {1, minor} and DLPACK_FLAG_BITMASK_READ_ONLY when t's storage is
// read-only.
DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& t);

}  // namespace ct
