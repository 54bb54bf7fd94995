// AccumulateGrad, AsStridedBackward0 (as_strided and regenerated views), CopySlices, and
// the float64 scatter/gather helpers of view backward functions.
#include "nodes.h"

#include <algorithm>

#include "core/complex_views.h"
#include "core/copy.h"
#include "core/math_bits.h"
#include "core/shape.h"
#include "core/small_blocks.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/ops/elementwise.h"
#include "core/views.h"
#include "functions.h"

namespace ct::autograd {

Geometry Geometry::of(const Tensor& t) {
  return {Shape(t.sizes().begin(), t.sizes().end()), Shape(t.strides().begin(), t.strides().end()), t.offset()};
}

int64_t Geometry::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

int64_t Geometry::lo() const {
  int64_t p = offset;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (strides[d] < 0 && sizes[d] > 0) p += (sizes[d] - 1) * strides[d];
  return p;
}

int64_t Geometry::hi() const {
  int64_t p = offset;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (strides[d] > 0 && sizes[d] > 0) p += (sizes[d] - 1) * strides[d];
  return p;
}

namespace {
// Calls f(i, pos) for every element, i its C-order index and pos its storage position.
template <class F>
void for_each_position(const Geometry& g, F&& f) {
  const int64_t n = g.numel();
  if (n == 0) return;
  const size_t nd = g.sizes.size();
  std::vector<int64_t> idx(nd, 0);
  int64_t pos = g.offset;
  for (int64_t i = 0; i < n; ++i) {
    f(i, pos);
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < g.sizes[d]) {
        pos += g.strides[d];
        break;
      }
      pos -= (g.sizes[d] - 1) * g.strides[d];
      idx[d] = 0;
    }
  }
}
}  // namespace

void scatter_add(double* buf, const Geometry& g, int64_t lo, const double* src) {
  for_each_position(g, [&](int64_t i, int64_t pos) { buf[pos - lo] += src[i]; });
}

void scatter_set(double* buf, const Geometry& g, int64_t lo, const double* src) {
  for_each_position(g, [&](int64_t i, int64_t pos) { buf[pos - lo] = src[i]; });
}

Ref<Tensor> gather(const double* buf, const Geometry& g, int64_t lo) {
  Ref<Tensor> out = Tensor::empty(g.sizes, DType::Float64, "backward");
  double* o = f64(*out);
  for_each_position(g, [&](int64_t i, int64_t pos) { o[i] = buf[pos - lo]; });
  return out;
}

Ref<Tensor> as_f64(const Tensor& t) { return copy_to_new(t, DType::Float64); }

Geometry lanes(const Geometry& g, bool complex) {
  if (!complex) return g;
  Geometry r = g;
  // A dim of size 1 is never stepped, nor is any dim of an empty tensor (nor its offset
  // used): those strides may be hostile (as_strided takes them, as torch), so they become 0
  // rather than doubled.  The others fit doubled: make checks stride * itemsize.
  bool empty = false;
  for (int64_t s : r.sizes) empty = empty || s == 0;
  for (size_t i = 0; i < r.strides.size(); ++i) r.strides[i] = empty || r.sizes[i] <= 1 ? 0 : r.strides[i] * 2;
  r.offset = empty ? 0 : r.offset * 2;
  r.sizes.push_back(2);
  r.strides.push_back(1);
  return r;
}

Ref<Tensor> as_f64_lanes(const Tensor& t, bool complex) {
  if (!complex) return as_f64(t);
  Ref<Tensor> c = copy_to_new(t, DType::Complex128);  // bits applied, none left
  return copy_to_new(*view_as_real(*c), DType::Float64);
}

Ref<Tensor> from_lanes(Ref<Tensor> t, bool complex) {
  if (!complex) return t;
  return copy_to_new(*view_as_complex(*t), DType::Complex128);
}

Ref<Tensor> apply_bits(Ref<Tensor> g, uint8_t bits) {
  if (bits & Tensor::kConjBit) g = conj_physical(*g);
  if (bits & Tensor::kNegBit) g = unary(UnaryOp::Neg, *g);
  return g;
}

Ref<Tensor> zeros_f64(IntList sizes) { return full(sizes, 0.0, DType::Float64, "backward"); }

namespace {

// torch's obeys_layout_contract (grad_layout_contract.h): whether AccumulateGrad may keep
// grad itself as the leaf's .grad.
bool obeys_layout_contract(const Tensor& g, const Tensor& leaf) {
  if (!is_non_overlapping_and_dense(leaf.sizes(), leaf.strides())) return g.is_contiguous();
  if (g.ndim() != leaf.ndim()) return false;
  for (int d = 0; d < g.ndim(); ++d) {
    if (g.size(d) != 1 ? g.stride(d) != leaf.stride(d) : g.stride(d) == 0) return false;
  }
  return true;
}

// torch's clone_obey_contract: a copy of g (bits resolved, in the leaf's dtype) with the
// leaf's strides when the leaf is non-overlapping and dense, else contiguous.
Ref<Tensor> copy_obeying_contract(const Tensor& g, const Tensor& leaf) {
  if (!is_non_overlapping_and_dense(leaf.sizes(), leaf.strides())) return copy_to_new(g, leaf.dtype());
  Ref<Tensor> out = Tensor::empty_strided(leaf.sizes(), leaf.strides(), leaf.dtype(), "backward");
  copy_elements(*out, g);
  return out;
}

// t's stored values: a view of t with its math bits cleared.
Ref<Tensor> without_bits(const Tensor& t) {
  Ref<Tensor> r = Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  if (t.is_conj()) r = conj_view(*r);
  if (t.is_neg()) r = neg_view(*r);
  return r;
}

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(const Tensor& leaf) : leaf_(Ref<Tensor>::retain(const_cast<Tensor*>(&leaf))) {
    seq = UINT64_MAX;
  }
  const char* name() const override { return "torch::autograd::AccumulateGrad"; }
  bool keeps_bits() const override { return true; }
  bool differentiable() const override { return true; }
  const Tensor* variable() const override { return leaf_.get(); }
  std::shared_ptr<HookList> leaf_hooks() const override {
    return leaf_->autograd() ? leaf_->autograd()->hooks : nullptr;
  }
  Grads apply(const Tensor& g) override {
    AutogradMeta& m = meta_of(*leaf_);
    if (create_graph_active()) {
      // torch's rules with grad mode on: a first grad is a copy with the leaf's layout made by
      // recorded ops (new_empty_strided + copy_: CopyBackwards), a later one grad + new_grad
      // out of place, so .grad keeps its graph
      Ref<Tensor> gv = resolve_bits(Ref<Tensor>::retain(const_cast<Tensor*>(&g)));
      if (!m.grad) {
        Ref<Tensor> fresh = is_non_overlapping_and_dense(leaf_->sizes(), leaf_->strides())
                                ? Tensor::empty_strided(leaf_->sizes(), leaf_->strides(), leaf_->dtype(), "backward")
                                : Tensor::empty(leaf_->sizes(), leaf_->dtype(), "backward");
        ag::copy_into(*fresh, *gv);
        m.grad = std::move(fresh);
      } else {
        m.grad = ag::binary(BinaryOp::Add, Operand::of(*resolve_bits(m.grad)), Operand::of(*gv));
      }
      return {};
    }
    if (!m.grad) {
      // Note [Stealing the gradient]: torch keeps the incoming gradient itself as .grad
      // (new_grad.detach(): same storage, same version counter, math bits and all) when
      // nobody else holds it and it obeys the layout contract; otherwise .grad is a copy in
      // the leaf's layout (clone_obey_contract), which resolves the bits.  `g` is the
      // engine's buffer, so a refcount of 1 is torch's use_count <= num_expected_refs: a
      // gradient a hook kept, or the user's own tensor passed to backward, is copied.  A
      // stolen gradient may be a view of a larger buffer (cat's backward narrows the
      // user's gradient), and then shares that buffer, as in torch.
      if (g.refcount() == 1 && g.dtype() == leaf_->dtype() && obeys_layout_contract(g, *leaf_)) {
        // torch's detach() makes a new tensor object that is no view and has no autograd
        // state.  When g is already such a tensor and nobody else holds it, that new object
        // could not be told from g itself, so g is kept and no object is made (a small
        // training step stored six gradients a step this way).
        const bool plain = !g.is_view() && !g.autograd() && !g.is_inference();
        m.grad = plain ? Ref<Tensor>::retain(const_cast<Tensor*>(&g)) : alias(g);
      } else {
        m.grad = copy_obeying_contract(g, *leaf_);
      }
    } else {
      // in place, as torch's `grad += new_grad`: a grad with bits keeps them
      const uint8_t bits = m.grad->math_bits();
      Ref<Tensor> add = g.math_bits() ? resolve_math_bits(g) : Ref<Tensor>::retain(const_cast<Tensor*>(&g));
      if (bits) add = apply_bits(add, bits);
      binary_(BinaryOp::Add, *without_bits(*m.grad), Operand::of(*add));
    }
    return {};
  }

 private:
  Ref<Tensor> leaf_;
};

// The gradient a fixed linear map of the incoming one (Note [Higher-order gradients]): its
// derivative is the map's adjoint, and the adjoint's the map again.
class AdjointNode final : public Node {
 public:
  AdjointNode(const char* name, const char* adj_name, LinearFn f, LinearFn adj)
      : name_(name), adj_name_(adj_name), f_(std::move(f)), adj_(std::move(adj)) {}
  const char* name() const override { return name_; }
  bool differentiable() const override { return true; }
  Grads apply(const Tensor& h) override {
    return {with_linear_history(f_(h), inputs[0], h, name_, adj_name_, f_, adj_)};
  }

 private:
  const char* name_;
  const char* adj_name_;
  LinearFn f_, adj_;
};

std::shared_ptr<Node> make_adjoint_node(const char* name, const char* adj_name, LinearFn f, LinearFn adj) {
  return std::make_shared<AdjointNode>(name, adj_name, std::move(f), std::move(adj));
}

// Scatters the output's gradient into the positions the output reaches, then gathers
// through the input's positions; a position the input reaches several times shares its
// gradient evenly among them (torch's as_strided_backward).
// in / out are in double units (lanes()); the result is float64 in in's sizes.
Ref<Tensor> strided_backward(const Tensor& g64, const Geometry& in, const Geometry& out) {
  if (in.numel() == 0) return zeros_f64(in.sizes);
  const int64_t lo = std::min(in.lo(), out.numel() ? out.lo() : in.lo());
  const int64_t hi = std::max(in.hi(), out.numel() ? out.hi() : in.hi());
  Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{hi - lo + 1});
  scatter_add(f64(*buf), out, lo, f64(g64));
  Ref<Tensor> result = gather(f64(*buf), in, lo);
  // Input positions reached more than once.
  Ref<Tensor> count = zeros_f64(std::vector<int64_t>{hi - lo + 1});
  Ref<Tensor> ones = full(in.sizes, 1.0, DType::Float64, "backward");
  scatter_add(f64(*count), in, lo, f64(*ones));
  Ref<Tensor> c = gather(f64(*count), in, lo);
  double* r = f64(*result);
  const double* cc = f64(*c);
  for (int64_t i = 0, n = in.numel(); i < n; ++i)
    if (cc[i] > 1) r[i] /= cc[i];
  return result;
}

// The backward of an op that only changes which memory positions a tensor reaches (as_strided,
// a regenerated view, an in-place view op such as t_): the gradient is scattered through the
// output's positions and gathered through the input's.  `name` is the op's torch node name.
class StridedBackward final : public Node {
 public:
  // out_complex / out_bits: the output's dtype kind and math bits (a view of a complex base
  // may be real, and may carry bits the base has not).
  StridedBackward(const char* name, const Tensor& input, Geometry out, bool out_complex, uint8_t out_bits)
      : name_(name),
        in_complex_(is_complex(input.dtype())),
        out_complex_(out_complex),
        bits_(uint8_t(out_bits ^ input.math_bits())),
        in_(lanes(Geometry::of(input), in_complex_)),
        out_(lanes(out, out_complex)) {
    add_input(input);
  }
  const char* name() const override { return name_; }
  // linear in g unless conj bits differ (conjugation is not complex-linear)
  bool differentiable() const override { return (bits_ & Tensor::kConjBit) == 0; }
  Grads apply(const Tensor& g) override {
    Ref<Tensor> r = map(g);
    if (!create_graph_active()) return {r};
    // adjoint of M = D^-1 G_in S_out (D: how often an input position is reached): G_out S_in D^-1
    auto self = std::static_pointer_cast<StridedBackward>(shared_from_this());
    LinearFn f = [self](const Tensor& x) { return self->map(x); };
    LinearFn adj = [self](const Tensor& h) { return self->adjoint(h); };
    return {with_linear_history(r, inputs[0], g, name_, "AsStridedBackwardBackward0", f, adj)};
  }
  Ref<Tensor> map(const Tensor& g) const {
    Ref<Tensor> g64 = as_f64_lanes(*apply_bits(Ref<Tensor>::retain(const_cast<Tensor*>(&g)), bits_), out_complex_);
    return from_lanes(strided_backward(*g64, in_, out_), in_complex_);
  }
  Ref<Tensor> adjoint(const Tensor& h) const {
    Ref<Tensor> h64 = as_f64_lanes(h, in_complex_);
    Ref<Tensor> out;
    if (in_.numel() == 0 || out_.numel() == 0) {
      out = zeros_f64(out_.sizes);
    } else {
      const int64_t lo = std::min(in_.lo(), out_.lo()), hi = std::max(in_.hi(), out_.hi());
      Ref<Tensor> count = zeros_f64(std::vector<int64_t>{hi - lo + 1});
      Ref<Tensor> ones = full(in_.sizes, 1.0, DType::Float64, "backward");
      scatter_add(f64(*count), in_, lo, f64(*ones));
      Ref<Tensor> c = gather(f64(*count), in_, lo);
      double* hv = f64(*h64);
      for (int64_t i = 0, n = in_.numel(); i < n; ++i)
        if (f64(*c)[i] > 1) hv[i] /= f64(*c)[i];
      Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{hi - lo + 1});
      scatter_add(f64(*buf), in_, lo, hv);
      out = gather(f64(*buf), out_, lo);
    }
    return apply_bits(from_lanes(out, out_complex_), bits_);
  }

 private:
  const char* name_;
  bool in_complex_, out_complex_;
  uint8_t bits_;
  Geometry in_, out_;
};

// torch's NotImplemented node: recorded for ops without a derivative formula (set_,
// floor_divide); the graph builds, backward through it refuses.
class NotImplementedBackward final : public Node {
 public:
  explicit NotImplementedBackward(const char* op) : op_(op) {}
  const char* name() const override { return kNotImplementedNode; }
  Grads apply(const Tensor&) override {
    CT_FAIL(InvalidArgument, "derivative for " << op_ << " is not implemented");
  }

 private:
  const char* op_;
};

class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
      : base_complex_(is_complex(base.dtype())),
        view_complex_(is_complex(view.dtype())),
        bits_(uint8_t(base.math_bits() ^ view.math_bits())),
        base_(lanes(Geometry::of(base), base_complex_)),
        view_(lanes(Geometry::of(view), view_complex_)),
        view_dtype_(view.dtype()),
        fn_(std::move(fn)) {
    add_input(base);
    for (size_t i = 1; i < fn_->next.size(); ++i) {
      next.push_back(fn_->next[i]);
      inputs.push_back(fn_->inputs[i]);
    }
    has_saved = fn_->has_saved;
  }
  ~CopySlices() override { release_later(std::move(fn_)); }
  const char* name() const override { return "CopySlices"; }
  void release_saved() override {
    fn_->release_saved();
    released = true;
  }
  // The written view's grad_fn: its positions of the base's gradient (Note [Higher-order
  // gradients] in meta.h).
  std::shared_ptr<Node> view_grad_fn() override {
    auto self = std::static_pointer_cast<CopySlices>(shared_from_this());
    LinearFn pt = [self](const Tensor& x) { return self->positions(x, false, 1); };
    LinearFn p = [self](const Tensor& x) { return self->positions(x, true, 0); };
    auto n = make_adjoint_node("AsStridedBackward0", "AsStridedBackwardBackward0", pt, p);
    n->next.push_back(Edge{self, 0});
    n->inputs.push_back(inputs[0]);
    return n;
  }
  // The write's formula must be differentiable, and the view's conj bit the base's.
  bool differentiable() const override { return fn_->differentiable() && (bits_ & Tensor::kConjBit) == 0; }
  Grads apply(const Tensor& grad) override {
    if (create_graph_active()) return apply_differentiable(grad);
    const int64_t lo = std::min(base_.lo(), view_.lo());
    const int64_t hi = std::max(base_.hi(), view_.hi());
    Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{std::max<int64_t>(hi - lo + 1, 0)});
    Ref<Tensor> g = as_f64_lanes(grad, base_complex_);
    scatter_set(f64(*buf), base_, lo, f64(*g));
    // the view's gradient: its positions of the base's, through the bits the view adds
    Ref<Tensor> slice = apply_bits(from_lanes(gather(f64(*buf), view_, lo), view_complex_), bits_);
    Grads res = fn_->apply(*to_dtype(*slice, view_dtype_));
    Ref<Tensor> r0 = res.empty() || !res[0]
                         ? zeros_f64(view_.sizes)
                         : as_f64_lanes(*apply_bits(fix_grad(res[0], fn_->inputs[0]), bits_), view_complex_);
    scatter_set(f64(*buf), view_, lo, f64(*r0));
    Grads out;
    out.push_back(from_lanes(gather(f64(*buf), base_, lo), base_complex_));
    for (size_t i = 1; i < res.size(); ++i) out.push_back(std::move(res[i]));
    out.resize(next.size());
    return out;
  }

 private:
  // The same gradients from differentiable pieces (Note [Higher-order gradients]):
  // base's = Q(g) + P^T(r0), where P takes the view's positions of a base-shaped gradient
  // (P^T puts a view-shaped one there, zeros elsewhere), Q zeroes the view's positions, and
  // r0 is the write's gradient for its destination from P(g).  P, P^T and Q are fixed
  // linear maps (with_linear_history); Q is its own adjoint.
  Ref<Tensor> positions(const Tensor& x, bool from_base, int mode) const {
    // mode 0: P (base -> view), 1: P^T (view -> base), 2: Q (base -> base)
    const int64_t lo = std::min(base_.lo(), view_.lo());
    const int64_t hi = std::max(base_.hi(), view_.hi());
    Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{std::max<int64_t>(hi - lo + 1, 0)});
    const bool xc = from_base ? base_complex_ : view_complex_;
    Ref<Tensor> x64 = as_f64_lanes(*apply_bits(Ref<Tensor>::retain(const_cast<Tensor*>(&x)), mode == 1 ? bits_ : 0), xc);
    if (mode == 1) {
      scatter_add(f64(*buf), view_, lo, f64(*x64));
      return from_lanes(gather(f64(*buf), base_, lo), base_complex_);
    }
    scatter_set(f64(*buf), base_, lo, f64(*x64));
    if (mode == 0) return apply_bits(from_lanes(gather(f64(*buf), view_, lo), view_complex_), bits_);
    Ref<Tensor> z = zeros_f64(view_.sizes);
    scatter_set(f64(*buf), view_, lo, f64(*z));
    return from_lanes(gather(f64(*buf), base_, lo), base_complex_);
  }
  Grads apply_differentiable(const Tensor& grad) {
    auto self = std::static_pointer_cast<CopySlices>(shared_from_this());
    LinearFn p = [self](const Tensor& x) { return self->positions(x, true, 0); };
    LinearFn pt = [self](const Tensor& x) { return self->positions(x, false, 1); };
    LinearFn q = [self](const Tensor& x) { return self->positions(x, true, 2); };
    const InputMeta view_meta{view_.sizes, view_dtype_}, base_meta = inputs[0];
    InputMeta vm = view_meta;
    if (view_complex_) vm.sizes.pop_back();  // lanes: the view's own sizes
    Ref<Tensor> slice = with_linear_history(p(grad), vm, grad, "CopySlices", "CopySlices", p, pt);
    slice = ag::to_dtype(*slice, view_dtype_);
    Grads res = fn_->apply(*slice);
    Ref<Tensor> kept = with_linear_history(q(grad), base_meta, grad, "CopySlices", "CopySlices", q, q);
    kept = fix_grad(kept, base_meta);
    Grads out;
    if (res.empty() || !res[0]) {
      out.push_back(kept);
    } else {
      Ref<Tensor> r0 = fix_grad(res[0], fn_->inputs[0]);
      Ref<Tensor> put = with_linear_history(pt(*r0), base_meta, *r0, "CopySlices", "CopySlices", pt, p);
      out.push_back(ag::binary(BinaryOp::Add, Operand::of(*kept), Operand::of(*fix_grad(put, base_meta))));
    }
    for (size_t i = 1; i < res.size(); ++i) out.push_back(std::move(res[i]));
    out.resize(next.size());
    return out;
  }

  bool base_complex_, view_complex_;
  uint8_t bits_;  // the math bits view has and base has not, or the reverse
  Geometry base_, view_;
  DType view_dtype_;
  std::shared_ptr<Node> fn_;
};

}  // namespace

Ref<Tensor> with_linear_history(Ref<Tensor> r, const InputMeta& r_meta, const Tensor& g, const char* name,
                                const char* adj_name, LinearFn f, LinearFn adj) {
  if (!create_graph_active() || !requires_grad(g)) return r;
  r = fix_grad(std::move(r), r_meta);
  if (r.get() == &g || r->autograd()) r = alias(*r);  // a fresh tensor takes the history
  auto n = std::make_shared<AdjointNode>(adj_name, name, std::move(adj), std::move(f));
  n->add_input(g);
  meta_of(*r).grad_fn = std::move(n);
  return r;
}

// From the block cache, as FnNode: a training step makes one per leaf per step (the graph
// holds it, the leaf only a weak pointer, as torch's grad_accumulator_).
std::shared_ptr<Node> make_accumulate_grad(const Tensor& leaf) {
  return std::allocate_shared<AccumulateGrad>(small_blocks::Allocator<AccumulateGrad>(), leaf);
}

std::shared_ptr<Node> make_as_strided_backward(const Tensor& base, const Tensor& view, const char* name) {
  return std::make_shared<StridedBackward>(name, base, Geometry::of(view), is_complex(view.dtype()),
                                           view.math_bits());
}

std::shared_ptr<Node> make_as_strided_backward(const Tensor& input, IntList sizes, IntList strides, int64_t offset) {
  return make_strided_backward("AsStridedBackward0", input, sizes, strides, offset);
}

std::shared_ptr<Node> make_strided_backward(const char* name, const Tensor& input, IntList sizes, IntList strides,
                                            int64_t offset) {
  return std::make_shared<StridedBackward>(
      name, input, Geometry{Shape(sizes.begin(), sizes.end()), Shape(strides.begin(), strides.end()), offset},
      is_complex(input.dtype()), input.math_bits());
}

std::shared_ptr<Node> make_not_implemented(const char* op, std::initializer_list<const Tensor*> inputs) {
  auto n = std::make_shared<NotImplementedBackward>(op);
  for (const Tensor* t : inputs) n->add_input(*t);
  return n;
}

std::shared_ptr<Node> make_copy_slices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn) {
  Node* write = fn.get();
  auto cs = std::make_shared<CopySlices>(base, view, std::move(fn));
  write->copy_slices = cs;
  return cs;
}

}  // namespace ct::autograd
