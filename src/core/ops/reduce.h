// Reductions: sum, mean, prod, amax, amin over a set of dims, and argmax/argmin.
//
// Semantics are PyTorch 2.13's (result dtypes, error order and messages); see reduce.cpp's
// Note [Reduction engine] for how the work is laid out, and why results do not depend on
// the number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/tensor.h"

namespace ct {

// dims: the dimensions to reduce (negative counts from the end); empty reduces every dim.
// keepdim keeps reduced dims as size 1.  Results are new contiguous tensors.
//   sum, prod: bool and integer inputs give int64; floating inputs keep their dtype
//              (float16/bfloat16 accumulate in float32 and round once).
//   mean:      floating inputs only (DType error otherwise); sum rounded to the dtype, then
//              divided by the count, as torch.
//   amax/amin: keep the dtype; NaN propagates; an empty reduction is an error.
Ref<Tensor> sum(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> mean(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> prod(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> amax(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> amin(const Tensor& t, std::span<const int64_t> dims, bool keepdim);

// Index (int64) of the first maximum / minimum along dim; NaN counts as larger (argmax) and
// smaller (argmin) than every number, as in torch.  dim nullopt: over the flattened tensor
// (0-dim result; every dim kept as size 1 with keepdim).
Ref<Tensor> argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim);
Ref<Tensor> argmin(const Tensor& t, std::optional<int64_t> dim, bool keepdim);

// torch's t.max() / t.min() (max false): amax/amin over every dim, with torch's name in the
// error for an empty t.
Ref<Tensor> max_all(const Tensor& t, bool max);
// torch's t.max(dim, keepdim) / t.min(dim, keepdim): the values (amax/amin along dim) and the
// int64 index of the first maximum / minimum (a NaN counts as both, as in torch); bool
// inputs are allowed (argmax is not).  Errors name max/min.
struct ValuesIndices {
  Ref<Tensor> values, indices;
};
ValuesIndices max_dim(const Tensor& t, int64_t dim, bool keepdim, bool max);

}  // namespace ct
