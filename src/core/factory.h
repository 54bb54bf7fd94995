// Creating tensors: new storage, contiguous, offset 0.
#pragma once

#include "tensor.h"

namespace ct {

Ref<Tensor> full(IntList sizes, double value, DType dtype, const char* op = "full");
Ref<Tensor> arange(double start, double end, double step, DType dtype);
// Copies numel * itemsize bytes (bool bytes are normalized to 0/1).
Ref<Tensor> from_data(const void* data, IntList sizes, DType dtype);
// Wraps foreign memory; strides empty means contiguous.  Validates the geometry.
Ref<Tensor> from_blob(void* data, IntList sizes, IntList strides, DType dtype, Storage::Deleter deleter,
                      void* ctx);
// Writes value into every element of a tensor without internal overlap (no checks, no version bump).
void fill_elements(const Tensor& t, double value);

// ct_index_select: the entries of t at `index` along dim, in a new contiguous tensor.
Ref<Tensor> index_select(const Tensor& t, int64_t dim, const Tensor& index);

}  // namespace ct
