// Pure functions on sizes and strides: no tensors, no storage, no allocation of elements.
// Every geometric rule of the library lives here exactly once.
#pragma once

#include <cstdint>
#include <optional>

#include "tensor.h"

namespace ct {

// Wraps a possibly negative dim into [0, ndim).  A 0-dim tensor accepts dims -1 and 0 when
// scalar_ok (PyTorch's rule for most ops).  Throws Index with PyTorch's message.
int wrap_dim_slow(int64_t dim, int ndim, bool scalar_ok);  // 0-dim tensors and the error
inline int wrap_dim(int64_t dim, int ndim, bool scalar_ok = true) {
  // Inline for the dims that need no message: every view op wraps one or two per call.
  if (__builtin_expect(uint64_t(dim) < uint64_t(ndim), 1)) return int(dim);
  if (dim < 0 && dim >= -int64_t(ndim)) return int(dim + ndim);
  return wrap_dim_slow(dim, ndim, scalar_ok);
}

// Wraps i into [0, n) for n >= 1, in int64: PyTorch's maybe_wrap_dim, which narrow also uses
// for its start (on a dim that may hold more than 2^31 elements).  Throws Index with the same
// "Dimension out of range" message as wrap_dim.
int64_t wrap_index(int64_t i, int64_t n);

// Product of sizes; throws Shape for a negative size or an int64 overflow.
int64_t checked_numel(IntList sizes, const char* op);

// numel * itemsize, throwing OutOfMemory on overflow.
int64_t checked_nbytes(int64_t numel, int64_t itemsize, const char* op);

// C-order strides for sizes (size-0 and size-1 dims get the stride they would have with size 1).
Shape contiguous_strides(IntList sizes);
// The same on the stack (no allocation: for the paths that make a tensor per op).
DimBuf contiguous_strides_buf(IntList sizes);

// Dims ordered from innermost (fastest in memory) to outermost, by PyTorch's rule for
// laying out a new tensor like existing ones (TensorIterator's reorder_dimensions): the
// first operand whose strides order two dims strictly decides; stride-0 (broadcast) dims
// are ambiguous and keep the C order; equal strides put the smaller size inside.
// `operand_strides` holds, per operand, strides over `sizes` (0 on broadcast dims).
std::vector<int> layout_permutation(IntList sizes, std::span<const IntList> operand_strides);
// The same into perm[0, sizes.size()) (no allocation: the per-op paths of elementwise ops).
void layout_permutation_into(IntList sizes, std::span<const IntList> operand_strides, int* perm);

// Strides of a new dense tensor whose layout follows the permutation of (sizes, strides):
// PyTorch's infer_dense_strides, behind clone/empty_like/to with preserve_format.
Shape dense_strides_like(IntList sizes, IntList strides);

// PyTorch's is_non_overlapping_and_dense: the elements fill exactly numel slots in some
// dim order (any permutation of a contiguous tensor qualifies).
bool is_non_overlapping_and_dense(IntList sizes, IntList strides);

// PyTorch's contiguity: every dim of size > 1 has the C-order stride; no elements: contiguous.
bool compute_contiguous(IntList sizes, IntList strides);

// Resolves one -1 in `shape` so that its product is numel; throws Shape with PyTorch's
// messages ("shape '[2, 5]' is invalid for input of size 12").
Shape infer_size(IntList shape, int64_t numel, const char* op);

// Strides that present a tensor of (sizes, strides) with new_sizes without moving data, if
// any exist (PyTorch's computeStride); nullopt when the old dims that merge are not
// contiguous with each other.
std::optional<Shape> view_strides(IntList sizes, IntList strides, IntList new_sizes);

// The same two, into stack buffers (no allocation), for view and reshape; shape and new_sizes
// have at most kMaxDims + 1 entries.  view_strides_into returns false where view_strides
// returns nullopt.
void infer_size_into(IntList shape, int64_t numel, const char* op, DimBuf& out);
bool view_strides_into(IntList sizes, IntList strides, IntList new_sizes, DimBuf& out);

// The broadcast shape of a and b (NumPy/PyTorch rules); throws Shape naming op.
Shape broadcast_shapes(IntList a, IntList b, const char* op);
// The same into a stack buffer (no allocation; a and b have at most kMaxDims dims).
void broadcast_shapes_into(IntList a, IntList b, const char* op, DimBuf& out);

// Smallest and largest element offset (in elements, relative to the storage start) that
// (sizes, strides, offset) reaches.  Requires numel > 0.  Throws Shape on int64 overflow.
struct Extent {
  int64_t lo;
  int64_t hi;  // inclusive
};
Extent element_extent(IntList sizes, IntList strides, int64_t offset, const char* op);

// Throws Index (PyTorch's wording) unless every element of (sizes, strides, offset) of
// itemsize bytes lies within a storage of storage_nbytes.  Strides must be >= 0.
void check_in_bounds(IntList sizes, IntList strides, int64_t offset, int64_t itemsize,
                     int64_t storage_nbytes, const char* op);

// Validates an (ndim, array) pair coming from C: ndim in [0, kMaxDims], array non-NULL
// when ndim > 0.  Throws InvalidArgument naming op and what.
void check_dims_array(int ndim, const void* array, const char* op, const char* what);

}  // namespace ct
