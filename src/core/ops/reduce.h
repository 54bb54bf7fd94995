// Reductions: sum, mean, prod, amax, amin over a set of dims, and argmax/argmin.
//
// Semantics are PyTorch 2.13's (result dtypes, error order and messages); see reduce.cpp's
// Note [Reduction engine] for how the work is laid out, and why results do not depend on
// the number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/tensor.h"

namespace ct {

// Which dims of a tensor a reduction reduces: a fixed-capacity list of flags on the stack (a
// std::vector<bool> was a heap allocation per reduction, several per training step).
class DimMask {
 public:
  DimMask(size_t n, bool value) : n_(n) { std::fill_n(v_, n, value); }
  bool operator[](size_t i) const { return v_[i]; }
  bool& operator[](size_t i) { return v_[i]; }
  size_t size() const { return n_; }
  void resize(size_t n) { n_ = n; }  // shrinking only: dim_mask's 0-dim case

 private:
  size_t n_;
  bool v_[kMaxDims];
};

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

// var / std over dims (empty: every dim) with torch's correction (1: Bessel's, 0: the
// population value; any real number): sum((x - mean)^2) / max(0, N - correction), N the
// count of reduced elements, and its square root for std.  Welford's algorithm in double
// (torch's CPU kernel), so ill-conditioned data (1e4 + small noise in float32) keep their
// digits; the result has t's dtype (rounded once).  Floating t only: DType error with torch's
// "std and var only support floating point and complex dtypes" (`name` var_mean / std_mean
// gives torch's "var_mean only support ...").  No degrees of freedom left (N - correction
// <= 0) gives nan (0/0) or inf, as torch; an empty reduction gives nan.  Complex t: the
// variances of the real and imaginary parts added (a real result), as torch's std_var_out.
Ref<Tensor> var(const Tensor& t, std::span<const int64_t> dims, double correction, bool keepdim, bool take_sqrt,
                const char* name = nullptr);
// The mask of reduced dims as torch's make_dim_mask (empty dims: every dim), with torch's
// plain messages ("Dimension out of range ...", "dim 0 appears multiple times in the list of
// dims"); exposed for the backward formulas.
DimMask reduced_dims_mask(const Tensor& t, std::span<const int64_t> dims);

// torch.linalg.vector_norm(t, ord, dims, keepdim): ord 0 counts the non-zero elements, 1 sums
// |x|, 2 is sqrt(sum x^2), +inf / -inf the largest / smallest |x|, any other p
// (sum |x|^p)^(1/p).  Accumulates in acc_t<T> (float for float16/bfloat16, as torch), pairwise.
// dtype (optional): t is converted to it first; it must be floating and t must convert to it
// without narrowing.  Errors as torch's "linalg.vector_norm: ..." (floating input; an empty
// reduction for ord < 0 or inf, which has no identity).
Ref<Tensor> vector_norm(const Tensor& t, double ord, std::span<const int64_t> dims, bool keepdim,
                        std::optional<DType> dtype);

}  // namespace ct
