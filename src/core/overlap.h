// Memory relations between tensors, in bytes of the address space (so two storages that
// wrap the same foreign memory are compared correctly).
#pragma once

#include "tensor.h"

namespace ct {

// torch's messages (aten/src/ATen/MemoryOverlap.cpp) for a written-to tensor whose elements
// share memory, and for an input sharing memory with the written-to tensor.
inline constexpr const char* kInternalOverlapMessage =
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
    "Please clone() the tensor before performing the operation.";
inline constexpr const char* kPartialOverlapMessage =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
    "location. Please clone() the tensor before performing the operation.";

// The byte ranges [first element, last element + itemsize) of a and b intersect.
bool may_overlap(const Tensor& a, const Tensor& b);

inline constexpr int64_t kDefaultOverlapWork = int64_t(1) << 20;

// Exact: some byte belongs to an element of a and to an element of b.  Returns 1, 0, or
// -2 when the search needed more than max_work steps (the answer is then unknown).
int overlaps(const Tensor& a, const Tensor& b, int64_t max_work = kDefaultOverlapWork);

// Two different index tuples of t reach overlapping bytes (e.g. stride 0 after expand).
bool has_internal_overlap(const Tensor& t);

// torch's has_internal_overlap answering Yes, the written-to tensors it refuses: a dim of
// size > 1 with stride 0.  Any other overlapping layout (unfold, as_strided) is TooHard to
// torch, which writes it anyway, each index tuple in TensorIterator's order; so does
// ctensor, on one thread (has_internal_overlap above).
bool torch_internal_overlap(const Tensor& t);

}  // namespace ct
