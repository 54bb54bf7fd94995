// The graph nodes the autograd machinery itself creates (AccumulateGrad, the
// AsStridedBackward0 of a regenerated view, CopySlices), and the float64 geometry helpers
// that view backward functions share: a gradient is scattered into the memory positions
// (storage offsets) a view reaches, then gathered back through the input's positions.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>

#include "meta.h"

namespace ct::autograd {

std::shared_ptr<Node> make_accumulate_grad(const Tensor& leaf);
// Under create_graph, when g requires grad: r (= f(g), f a fixed linear map, the gradient a
// node `name` computed) converted to r_meta and given the history of f's adjoint (a node
// named adj_name, whose own gradient is f again).  r unchanged otherwise.
using LinearFn = std::function<Ref<Tensor>(const Tensor&)>;
Ref<Tensor> with_linear_history(Ref<Tensor> r, const InputMeta& r_meta, const Tensor& g, const char* name,
                                const char* adj_name, LinearFn f, LinearFn adj);
// grad_fn of a view whose base was modified in place: from base's geometry to view's.
std::shared_ptr<Node> make_as_strided_backward(const Tensor& base, const Tensor& view,
                                               const char* name = "AsStridedBackward0");
// as_strided(input, sizes, strides, offset) as a user op.
std::shared_ptr<Node> make_as_strided_backward(const Tensor& input, IntList sizes, IntList strides, int64_t offset);
// The same backward under another torch name: the in-place view ops (t_ records TBackward1,
// as_strided_ AsStridedBackward1, ...), whose result is input's memory seen through new geometry.
std::shared_ptr<Node> make_strided_backward(const char* name, const Tensor& input, IntList sizes, IntList strides,
                                            int64_t offset);
// torch's NotImplemented node for `op` (named kNotImplementedNode): one edge per input (an
// input that takes no gradient gets an empty edge); backward through it fails with torch's
// "derivative for <op> is not implemented".
std::shared_ptr<Node> make_not_implemented(const char* op, std::initializer_list<const Tensor*> inputs);
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
// Complex tensors in these helpers (Note [Complex autograd] in meta.cpp): a complex element
// is two doubles (real, imaginary), so in double units its geometry is its own with every
// stride and the offset doubled and a last dim of size 2, stride 1 (view_as_real's).  The
// real/imag views of a complex base are already in those units.
Geometry lanes(const Geometry& g, bool complex);
// t as contiguous doubles: complex -> [..., 2] (t's values as read, bits applied).
Ref<Tensor> as_f64_lanes(const Tensor& t, bool complex);
// The inverse for a contiguous float64 [..., 2] of a complex gradient: complex128 [...].
Ref<Tensor> from_lanes(Ref<Tensor> t, bool complex);
// g with the math bits `bits` applied to its values (a new tensor unless bits is 0): the
// gradient between a tensor and a view of it whose conj/neg bits differ.
Ref<Tensor> apply_bits(Ref<Tensor> g, uint8_t bits);
inline double* f64(const Tensor& t) { return reinterpret_cast<double*>(t.raw_data()); }

}  // namespace ct::autograd
