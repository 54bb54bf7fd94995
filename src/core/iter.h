// Elementwise iteration: one output and any number of inputs over a broadcast shape.
//
// Note [Elementwise iteration]
// Every operand is presented with the output's shape (inputs broadcast with stride 0).  Dims
// are ordered innermost-first by layout_permutation (so the inner loop runs along the
// fastest-moving memory), then adjacent dims whose strides line up in every operand are
// merged, so a contiguous tensor of any shape is one flat loop.  The kernel sees rows:
// loop(ptrs, strides, n) with byte strides of the innermost dim; it may specialise on
// unit strides (vectorised) and on stride 0 (a broadcast scalar).  Large iterations are
// split into contiguous index ranges across threads; the split depends only on the sizes
// and the thread count, and each element is computed by exactly one thread.
//
// The iterator holds its geometry in fixed arrays (no heap allocation), and operands that are
// all contiguous with the output's shape skip the dim ordering altogether (one flat row), so
// the fixed cost of an op on a small tensor stays small.
#pragma once

#include <algorithm>
#include <array>

#include "parallel.h"
#include "tensor.h"

namespace ct {

class ElementwiseIter {
 public:
  static constexpr int kMaxOperands = 4;

  // operands[0] is the output (its shape is the iteration shape); the inputs must
  // broadcast to it.  Pointers are borrowed for the iterator's lifetime.
  explicit ElementwiseIter(std::span<const Tensor* const> operands);

  int64_t numel() const { return numel_; }
  int noperands() const { return nops_; }

  // Runs loop(char** ptrs, const int64_t* strides, int64_t n) over every row, in parallel
  // above `grain` elements; on one thread, row after row, when the output's elements share
  // memory (an unfold or as_strided view written in place, which torch allows), so that each
  // location is written in the iteration order and never by two threads at once.
  template <class Loop>
  void for_each(Loop&& loop, int64_t grain = 32768) const {
    if (out_overlaps_) grain = INT64_MAX;
    parallel_for(numel_, grain, [&](int64_t begin, int64_t end) { run_range(begin, end, loop); });
  }

 private:
  template <class Loop>
  void run_range(int64_t begin, int64_t end, Loop& loop) const;

  int nops_ = 0;
  int ndim_ = 0;  // after coalescing, innermost first
  int64_t numel_ = 0;
  bool out_overlaps_ = false;  // decided only where it matters: above the default grain
  std::array<int64_t, kMaxDims> shape_;                      // [ndim_]
  std::array<int64_t, kMaxDims * kMaxOperands> strides_;     // [ndim_ * nops_], bytes
  std::array<char*, kMaxOperands> base_{};
};

template <class Loop>
void ElementwiseIter::run_range(int64_t begin, int64_t end, Loop& loop) const {
  if (begin >= end) return;
  char* ptrs[kMaxOperands];
  if (ndim_ == 0) {  // a single element
    for (int k = 0; k < nops_; ++k) ptrs[k] = base_[size_t(k)];
    int64_t zero[kMaxOperands] = {};
    loop(ptrs, zero, int64_t(1));
    return;
  }
  auto stride = [&](int d, int k) { return strides_[size_t(d * nops_ + k)]; };
  // Multi-index and operand pointers of `begin`; then rows until `end`, moving the pointers
  // like an odometer (no per-row recomputation from the index).
  std::array<int64_t, kMaxDims> idx;
  int64_t rem = begin;
  for (int d = 0; d < ndim_; ++d) {
    idx[size_t(d)] = rem % shape_[size_t(d)];
    rem /= shape_[size_t(d)];
  }
  for (int k = 0; k < nops_; ++k) {
    char* p = base_[size_t(k)];
    for (int d = 0; d < ndim_; ++d) p += idx[size_t(d)] * stride(d, k);
    ptrs[k] = p;
  }
  int64_t inner[kMaxOperands];
  for (int k = 0; k < nops_; ++k) inner[k] = stride(0, k);
  int64_t pos = begin;
  for (;;) {
    const int64_t n = std::min(shape_[0] - idx[0], end - pos);
    loop(ptrs, inner, n);
    pos += n;
    if (pos >= end) return;
    // The row is finished: back to its start, then carry into the outer dims.
    for (int k = 0; k < nops_; ++k) ptrs[k] -= idx[0] * inner[k];
    idx[0] = 0;
    for (int d = 1; d < ndim_; ++d) {
      for (int k = 0; k < nops_; ++k) ptrs[k] += stride(d, k);
      if (++idx[size_t(d)] < shape_[size_t(d)]) break;
      for (int k = 0; k < nops_; ++k) ptrs[k] -= idx[size_t(d)] * stride(d, k);
      idx[size_t(d)] = 0;
    }
  }
}

}  // namespace ct
