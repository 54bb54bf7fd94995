// Scans, sorting and clamping along a dim: cumsum, cumprod, sort, topk, clamp (torch 2.13).
// Every result is a new tensor on a new storage; the in-place forms write self through
// copy_into (one version bump).  The autograd wrappers are in autograd/functions.h.
#pragma once

#include <cstdint>
#include <optional>

#include "core/ops/reduce.h"  // ValuesIndices
#include "core/tensor.h"

namespace ct {

// torch.cumsum / torch.cumprod(t, dim, dtype=): t is first converted to dtype when given,
// else bool and integer inputs to int64 (floating inputs keep theirs).  Sums accumulate as
// torch's CPU kernel does: double for float32/float64, float for float16/bfloat16, 64-bit
// wrapping integers otherwise.  A 0-dim t scans over its one element (dim 0 or -1).
// A bool result dtype is refused as torch ("cumsum_out_cpu" not implemented for 'Bool').
Ref<Tensor> cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype);
Ref<Tensor> cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype);
// The in-place forms (torch's cumsum_ / cumprod_): dtype, when given, must equal self's.
void cumsum_(const Tensor& self, int64_t dim, std::optional<DType> dtype);
void cumprod_(const Tensor& self, int64_t dim, std::optional<DType> dtype);

// torch.sort(t, dim, descending, stable): values and int64 indices laid out like t (torch's
// empty_like).  NaN sorts as the largest value.  The sort is always stable (torch's CPU kernel
// is too), so `stable` only documents the caller's intent.
ValuesIndices sort(const Tensor& t, int64_t dim, bool descending, bool stable);
// torch.topk(t, k, dim, largest, sorted): the k largest (smallest) along dim, contiguous,
// in order (also when sorted is false: torch leaves that order unspecified).  Ties keep the
// lower index first.  0 <= k <= size(dim), else InvalidArgument "selected index k out of range";
// bool t: DType "topk does not support bool dtypes on CPU" (torch's CPU kernel has none).
ValuesIndices topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted);

// One bound of clamp: a tensor, a scalar (integral: a Python int, which does not promote an
// integer tensor to floating), or absent.
struct ClampBound {
  const Tensor* tensor = nullptr;
  bool has_scalar = false;
  double scalar = 0;
  bool integral = false;
  bool present() const { return tensor != nullptr || has_scalar; }
  static ClampBound none() { return {}; }
  static ClampBound of(const Tensor& t) { return {&t, false, 0, false}; }
  static ClampBound of(double v, bool integral) { return {nullptr, true, v, integral}; }
};
// torch.clamp(t, min, max) (`op` names it in messages: "clamp", "clamp_min", ...): min(max(t,
// lo), hi) elementwise, so hi wins where lo > hi; NaN in t or a bound gives NaN.  Result dtype:
// torch's result_type over t and the bounds; shape: their broadcast.  A scalar bound must fit
// the result dtype ("value cannot be converted to type int8_t without overflow").  Both
// bounds absent: "torch.clamp: At least one of 'min' or 'max' must not be None".
Ref<Tensor> clamp(const Tensor& t, const ClampBound& lo, const ClampBound& hi, const char* op);
// In place: the result dtype must cast to self's and the broadcast shape must be self's.
void clamp_(const Tensor& self, const ClampBound& lo, const ClampBound& hi, const char* op);

// Backward helpers (float64 results, C order).
// Zeros of in_sizes with g[..., j, ...] added at index indices[..., j, ...] along dim (the
// gradient of sort/topk/kthvalue-like selections).
Ref<Tensor> scatter_along_dim(const Tensor& g, const Tensor& indices, int64_t dim, IntList in_sizes);
// The gradient of cumprod(x, dim) for the output gradient g, exact where x has zeros:
// grad_i = prod_{k<i} x_k * sum_{j>=i} g_j prod_{i<k<=j} x_k (no division).
Ref<Tensor> cumprod_backward(const Tensor& g, const Tensor& x, int64_t dim);

}  // namespace ct
