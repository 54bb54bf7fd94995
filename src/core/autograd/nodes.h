// The graph nodes the autograd machinery itself creates (AccumulateGrad, the
// AsStridedBackward0 of a regenerated view, CopySlices), and the float64 geometry helpers
// that view backward functions share: a gradient is scattered into the memory positions
// (storage offsets) a view reaches, then gathered back through the input's positions.
#pragma once

#include <memory>

#include "meta.h"

namespace ct::autograd {

std::shared_ptr<Node> make_accumulate_grad(const Tensor& leaf);
// grad_fn of a view whose base was modified in place: from base's geometry to view's.
std::shared_ptr<Node> make_as_strided_backward(const Tensor& base, const Tensor& view);
// as_strided(input, sizes, strides, offset) as a user op (name: as_strided_copy's node is
// "AsStridedBackward0_copy").
std::shared_ptr<Node> make_as_strided_backward(const Tensor& input, IntList sizes, IntList strides, int64_t offset,
                                               const char* name = "AsStridedBackward0");
// The base's new grad_fn after the in-place op `fn` wrote through `view`.
std::shared_ptr<Node> make_copy_slices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);

// Sizes, strides (elements) and storage offset of a tensor, kept after it is gone.
struct Geometry {
  Shape sizes, strides;
  int64_t offset = 0;
  static Geometry of(const Tensor& t);
  int64_t numel() const;
  int64_t lo() const;  // smallest position reached (strides are >= 0)
  int64_t hi() const;  // largest
};

// buf[pos - lo] += src[i] for the i-th element (C order) of g and its position pos.
void scatter_add(double* buf, const Geometry& g, int64_t lo, const double* src);
void scatter_set(double* buf, const Geometry& g, int64_t lo, const double* src);
// A new contiguous float64 tensor of g's sizes with buf[pos - lo] at each position.
Ref<Tensor> gather(const double* buf, const Geometry& g, int64_t lo);
// t as a new contiguous float64 tensor.
Ref<Tensor> as_f64(const Tensor& t);
Ref<Tensor> zeros_f64(IntList sizes);
inline double* f64(const Tensor& t) { return reinterpret_cast<double*>(t.raw_data()); }

}  // namespace ct::autograd
