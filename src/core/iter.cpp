#include "iter.h"

#include "overlap.h"
#include "shape.h"

namespace ct {
namespace {
// Equal dims, by a plain loop: std::equal on int64 becomes a memcmp call, which costs more
// than comparing the two or three dims of a small tensor (perf).
inline bool same_dims(IntList a, IntList b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}
}  // namespace

ElementwiseIter::ElementwiseIter(std::span<const Tensor* const> operands) {
  nops_ = int(operands.size());
  CT_CHECK(nops_ >= 1 && nops_ <= kMaxOperands, Internal, "ElementwiseIter: " << nops_ << " operands");
  const Tensor& out = *operands[0];
  const int n = out.ndim();
  numel_ = out.numel();
  bool flat = true;  // every operand contiguous with the output's shape: one flat row
  for (int k = 0; k < nops_; ++k) {
    const Tensor& t = *operands[size_t(k)];
    CT_CHECK(t.ndim() <= n, Internal, "ElementwiseIter: operand has more dims than the output");
    base_[size_t(k)] = t.raw_data();
    flat = flat && t.is_contiguous() && same_dims(t.sizes(), out.sizes());
  }
  if (numel_ == 0) return;
  // exact, but paid only by a large output that is not dense (a dense one cannot overlap)
  out_overlaps_ = numel_ > 32768 && !flat && !is_non_overlapping_and_dense(out.sizes(), out.strides()) &&
                  has_internal_overlap(out);
  if (flat) {
    if (numel_ > 1) {
      ndim_ = 1;
      shape_[0] = numel_;
      for (int k = 0; k < nops_; ++k) strides_[size_t(k)] = operands[size_t(k)]->itemsize();
    }
    return;  // numel 1: ndim_ 0, a single element
  }
  // Element strides of every operand over the output's shape (0 where broadcast).
  std::array<std::array<int64_t, kMaxDims>, kMaxOperands> el;
  std::array<IntList, kMaxOperands> views;
  for (int k = 0; k < nops_; ++k) {
    const Tensor& t = *operands[size_t(k)];
    const int lead = n - t.ndim();
    std::fill_n(el[size_t(k)].begin(), lead, int64_t(0));
    for (int d = 0; d < t.ndim(); ++d) {
      CT_CHECK(t.size(d) == out.size(lead + d) || t.size(d) == 1, Internal, "ElementwiseIter: shapes do not broadcast");
      el[size_t(k)][size_t(lead + d)] = t.size(d) == 1 ? 0 : t.stride(d);
    }
    views[size_t(k)] = IntList(el[size_t(k)].data(), size_t(n));
  }
  std::array<int, kMaxDims> perm;
  layout_permutation_into(out.sizes(), std::span<const IntList>(views.data(), size_t(nops_)), perm.data());
  // Permute (innermost first), dropping size-1 dims, then merge dims that line up.
  for (int j = 0; j < n; ++j) {
    const int d = perm[size_t(j)];
    if (out.size(d) == 1) continue;
    const int64_t size = out.size(d);
    if (ndim_ > 0) {
      bool mergeable = true;
      for (int k = 0; k < nops_ && mergeable; ++k) {
        const int64_t inner_stride = strides_[size_t((ndim_ - 1) * nops_ + k)];
        const int64_t bytes = el[size_t(k)][size_t(d)] * operands[size_t(k)]->itemsize();
        mergeable = bytes == inner_stride * shape_[size_t(ndim_ - 1)];
      }
      if (mergeable) {
        shape_[size_t(ndim_ - 1)] *= size;
        continue;
      }
    }
    shape_[size_t(ndim_)] = size;
    for (int k = 0; k < nops_; ++k) {
      strides_[size_t(ndim_ * nops_ + k)] = el[size_t(k)][size_t(d)] * operands[size_t(k)]->itemsize();
    }
    ++ndim_;
  }
}

}  // namespace ct
