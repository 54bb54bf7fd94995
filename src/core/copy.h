// The strided copy engine: one implementation behind clone, contiguous, reshape-by-copy,
// copy_ and to.  It coalesces dims, uses memcpy for contiguous runs, a cache-blocked kernel
// for transposed layouts, converts dtypes, splits large copies across threads, and is
// correct when source and destination overlap.
#pragma once

#include "tensor.h"

namespace ct {

// Writes src into dst, broadcasting src to dst's shape and converting dtype.  Checks:
// broadcastable (Shape), dst without internal overlap (Overlap), dst writable (ReadOnly).
// Bumps dst's storage version.  op names the caller in messages ("copy_").
void copy_into(const Tensor& dst, const Tensor& src, const char* op = "copy_");

// The engine alone: writes src (broadcast to dst's shape, converted) into dst without the
// checks of copy_into and without bumping the version.  Only for tensors the library has
// just created and nobody else can see yet (clone with a memory format, rot90, masked ops).
// Bool bytes other than 0/1 are written as 1, as torch's copy kernel does.
void copy_elements(const Tensor& dst, const Tensor& src);
// The same, moving bool bytes as they are: torch's cat and roll on contiguous inputs
// (a memcpy there) keep a bool byte of 2 as 2.
void move_elements(const Tensor& dst, const Tensor& src);

// A contiguous copy of t on a new storage, with dtype `dtype`.
Ref<Tensor> copy_to_new(const Tensor& t, DType dtype);

// ct_clone / ct_contiguous / ct_to semantics.  clone and to keep t's layout as PyTorch's
// preserve_format does (see ct_clone in ctensor.h); contiguous gives C order.
Ref<Tensor> clone(const Tensor& t);
Ref<Tensor> contiguous(const Tensor& t);  // t itself (retained) when already contiguous
Ref<Tensor> to_dtype(const Tensor& t, DType dtype);  // t itself when dtype matches
// The same for an operand an op only reads while it runs: t itself borrowed (no reference
// taken) when dtype matches, else the converted copy, owned.
inline MaybeOwned<Tensor> to_dtype_borrowed(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return MaybeOwned<Tensor>::borrowed(t);
  return MaybeOwned<Tensor>::owned(to_dtype(t, dtype));
}
// out, a copy of src made by clone/contiguous/to: torch makes these for an inference src
// outside inference mode with a copy_ into a normal result, which bumps it (version 1).
Ref<Tensor> copied_from(const Tensor& src, Ref<Tensor> out);

// Threads used by large copies (and later by compute): n <= 0 restores the default.
void set_num_threads(int n);
int get_num_threads();

}  // namespace ct
