#include "iter.h"

#include "shape.h"

namespace ct {

ElementwiseIter::ElementwiseIter(std::span<const Tensor* const> operands) {
  nops_ = int(operands.size());
  CT_CHECK(nops_ >= 1 && nops_ <= kMaxOperands, Internal, "ElementwiseIter: " << nops_ << " operands");
  const Tensor& out = *operands[0];
  const int n = out.ndim();
  numel_ = out.numel();
  // Element strides of every operand over the output's shape (0 where broadcast).
  std::vector<Shape> el_strides(size_t(nops_), Shape(size_t(n), 0));
  for (int k = 0; k < nops_; ++k) {
    const Tensor& t = *operands[size_t(k)];
    const int lead = n - t.ndim();
    CT_CHECK(lead >= 0, Internal, "ElementwiseIter: operand has more dims than the output");
    for (int d = 0; d < t.ndim(); ++d) {
      CT_CHECK(t.size(d) == out.size(lead + d) || t.size(d) == 1, Internal, "ElementwiseIter: shapes do not broadcast");
      el_strides[size_t(k)][size_t(lead + d)] = t.size(d) == 1 ? 0 : t.stride(d);
    }
    base_[size_t(k)] = t.raw_data();
  }
  if (numel_ == 0) return;
  std::vector<IntList> views;
  for (const Shape& s : el_strides) views.emplace_back(s);
  const std::vector<int> perm = layout_permutation(out.sizes(), views);
  // Permute (innermost first), dropping size-1 dims, then merge dims that line up.
  for (int d : perm) {
    if (out.size(d) == 1) continue;
    const int64_t size = out.size(d);
    if (ndim_ > 0) {
      bool mergeable = true;
      for (int k = 0; k < nops_ && mergeable; ++k) {
        const int64_t inner_stride = strides_[size_t((ndim_ - 1) * nops_ + k)];
        const int64_t bytes = el_strides[size_t(k)][size_t(d)] * operands[size_t(k)]->itemsize();
        mergeable = bytes == inner_stride * shape_[size_t(ndim_ - 1)];
      }
      if (mergeable) {
        shape_[size_t(ndim_ - 1)] *= size;
        continue;
      }
    }
    shape_.push_back(size);
    for (int k = 0; k < nops_; ++k) {
      strides_.push_back(el_strides[size_t(k)][size_t(d)] * operands[size_t(k)]->itemsize());
    }
    ++ndim_;
  }
}

}  // namespace ct
