// AccumulateGrad, AsStridedBackward0 (as_strided and regenerated views), CopySlices, and
// the float64 scatter/gather helpers of view backward functions.
#include "nodes.h"

#include <algorithm>

#include "core/copy.h"
#include "core/factory.h"
#include "core/ops/elementwise.h"

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

Ref<Tensor> zeros_f64(IntList sizes) { return full(sizes, 0.0, DType::Float64, "backward"); }

namespace {

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(const Tensor& leaf) : leaf_(Ref<Tensor>::retain(const_cast<Tensor*>(&leaf))) {
    seq = UINT64_MAX;
  }
  const char* name() const override { return "torch::autograd::AccumulateGrad"; }
  std::vector<Ref<Tensor>> apply(const Tensor& g) override {
    AutogradMeta& m = meta_of(*leaf_);
    if (!m.grad) {
      m.grad = copy_to_new(g, leaf_->dtype());
    } else {
      binary_(BinaryOp::Add, *m.grad, Operand::of(g));
    }
    return {};
  }

 private:
  Ref<Tensor> leaf_;
};

// Scatters the output's gradient into the positions the output reaches, then gathers
// through the input's positions; a position the input reaches several times shares its
// gradient evenly among them (torch's as_strided_backward).
Ref<Tensor> strided_backward(const Tensor& grad, const Geometry& in, const Geometry& out) {
  if (in.numel() == 0) return zeros_f64(in.sizes);
  const int64_t lo = std::min(in.lo(), out.numel() ? out.lo() : in.lo());
  const int64_t hi = std::max(in.hi(), out.numel() ? out.hi() : in.hi());
  Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{hi - lo + 1});
  Ref<Tensor> g = as_f64(grad);
  scatter_add(f64(*buf), out, lo, f64(*g));
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

class AsStridedBackward0 final : public Node {
 public:
  AsStridedBackward0(const Tensor& input, Geometry out, const char* name = "AsStridedBackward0")
      : in_(Geometry::of(input)), out_(std::move(out)), name_(name) {
    add_input(input);
  }
  const char* name() const override { return name_; }
  std::vector<Ref<Tensor>> apply(const Tensor& g) override { return {strided_backward(g, in_, out_)}; }

 private:
  Geometry in_, out_;
  const char* name_;
};

class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
      : base_(Geometry::of(base)), view_(Geometry::of(view)), view_dtype_(view.dtype()), fn_(std::move(fn)) {
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
  std::vector<Ref<Tensor>> apply(const Tensor& grad) override {
    const int64_t lo = std::min(base_.lo(), view_.lo());
    const int64_t hi = std::max(base_.hi(), view_.hi());
    Ref<Tensor> buf = zeros_f64(std::vector<int64_t>{std::max<int64_t>(hi - lo + 1, 0)});
    Ref<Tensor> g = as_f64(grad);
    scatter_set(f64(*buf), base_, lo, f64(*g));
    Ref<Tensor> slice = to_dtype(*gather(f64(*buf), view_, lo), view_dtype_);
    std::vector<Ref<Tensor>> res = fn_->apply(*slice);
    Ref<Tensor> r0 = res.empty() || !res[0] ? zeros_f64(view_.sizes) : as_f64(*fix_grad(res[0], fn_->inputs[0]));
    scatter_set(f64(*buf), view_, lo, f64(*r0));
    std::vector<Ref<Tensor>> out;
    out.push_back(gather(f64(*buf), base_, lo));
    for (size_t i = 1; i < res.size(); ++i) out.push_back(std::move(res[i]));
    out.resize(next.size());
    return out;
  }

 private:
  Geometry base_, view_;
  DType view_dtype_;
  std::shared_ptr<Node> fn_;
};

}  // namespace

std::shared_ptr<Node> make_accumulate_grad(const Tensor& leaf) { return std::make_shared<AccumulateGrad>(leaf); }

std::shared_ptr<Node> make_as_strided_backward(const Tensor& base, const Tensor& view) {
  return std::make_shared<AsStridedBackward0>(base, Geometry::of(view));
}

std::shared_ptr<Node> make_as_strided_backward(const Tensor& input, IntList sizes, IntList strides, int64_t offset,
                                               const char* name) {
  return std::make_shared<AsStridedBackward0>(
      input, Geometry{Shape(sizes.begin(), sizes.end()), Shape(strides.begin(), strides.end()), offset}, name);
}

std::shared_ptr<Node> make_copy_slices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn) {
  return std::make_shared<CopySlices>(base, view, std::move(fn));
}

}  // namespace ct::autograd
