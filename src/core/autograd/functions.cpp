// The recording wrappers of functions.h and the backward formulas of every op.
//
// One node type serves every op (FnNode): torch's name, the inputs' edges, the saved
// tensors, and a function from the output's gradient to the inputs' gradients.  Gradients
// may come back broadcast or in a promoted dtype: the engine (fix_grad) reduces them to
// each input's sizes and converts them to its dtype, as torch's validate_outputs does.
#include "functions.h"

#include <cmath>
#include <functional>
#include <numeric>
#include <string_view>
#include <unordered_set>

#include "core/complex_views.h"
#include "core/copy.h"
#include "core/overlap.h"
#include "core/math_bits.h"
#include "core/memory_format.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/gather_scatter.h"
#include "core/mask_ops.h"
#include "core/ops/elementwise.h"
#include "core/ops/matmul.h"
#include "core/ops/reduce.h"
#include "core/repeat_flip_roll.h"
#include "core/scan_sort.h"
#include "core/shape.h"
#include "core/small_blocks.h"
#include "core/views.h"
#include "meta.h"
#include "nodes.h"

namespace ct::ag {

using namespace ct::autograd;

namespace {

// Whether a node's formula is written with recording ops only, reading saved tensors through
// use() (Note [Higher-order gradients] in meta.h): every formula of a node of that name.
bool differentiable_formula(const char* name) {
  static const std::unordered_set<std::string_view> ok = {
      "AddBackward0", "SubBackward0", "RsubBackward1", "MulBackward0", "DivBackward0", "NegBackward0",
      "AbsBackward0", "ExpBackward0", "LogBackward0", "SqrtBackward0", "SinBackward0", "CosBackward0",
      "TanhBackward0", "SigmoidBackward0", "ReluBackward0", "ReciprocalBackward0", "SgnBackward0",
      "SignBackward0", "AngleBackward0", "WhereBackward0", "FillBackward2", "FillBackward3", "ZeroBackward0",
      "CopyBackwards", "CatBackward0", "StackBackward0", "SumBackward0", "SumBackward1", "MeanBackward0",
      "MeanBackward1", "DotBackward0", "MvBackward0", "SqueezeBackward4", "MmBackward0", "UnsafeViewBackward0",
      "VdotBackward0", "ViewBackward0", "TransposeBackward0", "TBackward0", "PermuteBackward0",
      "CloneBackward0", "ToCopyBackward0", "PowBackward0", "PowBackward1", "PowBackward2",
      "ConjPhysicalBackward0", "ConjPhysicalBackward1", "NegViewBackward0", "ConjBackward0",
      "ViewAsRealBackward0", "ViewAsComplexBackward0", "MaximumBackward0", "MinimumBackward0", "AmaxBackward0",
      "AminBackward0", "MaxBackward1", "MinBackward1", "VarBackward0", "StdBackward0", "VarMeanBackward0",
      "StdMeanBackward0", "LinalgVectorNormBackward0", "FlipBackward0", "RollBackward0", "RepeatBackward0",
      "CumsumBackward0", "ClampBackward0", "ClampBackward1", "ClampMinBackward0", "ClampMinBackward1",
      "ClampMaxBackward0", "ClampMaxBackward1"};
  return ok.count(name) > 0;
}

class FnNode final : public Node {
 public:
  using Fn = std::function<Grads(const Tensor& grad, FnNode& self)>;
  FnNode(const char* name, Fn fn) : name_(name), fn_(std::move(fn)) {}
  const char* name() const override { return name_; }
  Grads apply(const Tensor& g) override {
    // the tensors with identity that use() made under create_graph live only while it runs
    struct Drop {
      FnNode& n;
      ~Drop() {
        for (const SavedTensor& s : n.saved) s.drop_live();
      }
    } drop{*this};
    return fn_(g, *this);
  }
  // Asked only under create_graph, so the name is looked up then, not per node made.
  bool differentiable() const override { return hograd_ || differentiable_formula(name_); }
  // set by the nodes whose formula is differentiable under another name's
  bool hograd_ = false;
  bool keeps_bits() const override { return keeps_bits_; }
  bool keeps_bits_ = false;  // the formula reads g's bits itself (ConjBackward0)
  void release_saved() override {
    for (SavedTensor& s : saved) s.reset();
    released = true;
  }
  // Saved tensor i, checked (freed, version).
  const Tensor& use(size_t i) { return saved[i].unpack(*this); }
  void alias_saved_inputs() override {
    for (SavedTensor& s : saved) s.alias_input();
  }
  // Saves inputs (saved[0], ...; a nullptr keeps its slot empty), then the output this node
  // makes, if given (messages name this node for it), for backward.
  void save(std::initializer_list<const Tensor*> inputs, const Tensor* output = nullptr) {
    saved.reserve(saved.size() + inputs.size() + (output ? 1 : 0));
    for (const Tensor* t : inputs) {
      saved.emplace_back();
      if (t) saved.back().save(*t);
    }
    if (output) {
      saved.emplace_back();
      saved.back().save(*output, this);
    }
    has_saved = true;
  }
  bool wants(size_t i) const { return i < next.size() && next[i].valid(); }

  std::vector<SavedTensor, small_blocks::Allocator<SavedTensor>> saved;  // as next and inputs

 private:
  const char* name_;
  Fn fn_;
};

std::shared_ptr<FnNode> node(const char* name, std::initializer_list<const Tensor*> inputs, FnNode::Fn fn) {
  auto n = std::allocate_shared<FnNode>(small_blocks::Allocator<FnNode>(), name, std::move(fn));
  n->next.reserve(inputs.size());
  n->inputs.reserve(inputs.size());
  for (const Tensor* t : inputs) n->add_input(*t);
  return n;
}

// Short forms of the core ops used by backward formulas.
// They are the recording ops (Note [Higher-order gradients] in meta.h): with grad mode off, as
// in a first-order backward, those compute exactly what the core ops do and record nothing.
Ref<Tensor> mul(const Tensor& a, const Tensor& b) { return ag::binary(BinaryOp::Mul, Operand::of(a), Operand::of(b)); }
Ref<Tensor> mul(const Tensor& a, double s) { return ag::binary(BinaryOp::Mul, Operand::of(a), Operand::of(s)); }
Ref<Tensor> div(const Tensor& a, const Tensor& b) { return ag::binary(BinaryOp::Div, Operand::of(a), Operand::of(b)); }
Ref<Tensor> div(const Tensor& a, double s) { return ag::binary(BinaryOp::Div, Operand::of(a), Operand::of(s)); }
Ref<Tensor> sub(double s, const Tensor& a) { return ag::binary(BinaryOp::Sub, Operand::of(s), Operand::of(a)); }
Ref<Tensor> neg(const Tensor& a) { return ag::unary(UnaryOp::Neg, a); }
// Views in formulas: the recording view under create_graph, else the core view (a recording
// view made with grad mode off would carry a no-grad creation meta the core one has not).
bool cg() { return create_graph_active(); }
Ref<Tensor> v_reshape(const Tensor& t, IntList s) { return cg() ? ag::reshape(t, s) : ct::reshape(t, s); }
// t itself when it already has shape s, else v_reshape: a formula's reshape to the shape it
// already has (matmul's of 2-D operands, torch's MmBackward0 has none) makes no new tensor.
Ref<Tensor> v_reshape_to(Ref<Tensor> t, IntList s) {
  const IntList have = t->sizes();
  bool same = have.size() == s.size();
  for (size_t i = 0; same && i < s.size(); ++i) same = have[i] == s[i];
  return same ? t : v_reshape(*t, s);
}
Ref<Tensor> v_expand(const Tensor& t, IntList s) { return cg() ? ag::expand(t, s) : ct::expand(t, s); }
Ref<Tensor> v_contiguous(const Tensor& t) { return cg() ? ag::contiguous(t) : ct::contiguous(t); }
Ref<Tensor> v_transpose(const Tensor& t, int64_t a, int64_t b) {
  return cg() ? ag::transpose(t, a, b) : ct::transpose(t, a, b);
}
Ref<Tensor> zero_like(const Tensor& a) { return full({}, 0.0, a.dtype(), "backward"); }
Ref<Tensor> zeros_like(const Tensor& a) { return full(a.sizes(), 0.0, a.dtype(), "backward"); }
Ref<Tensor> retained(const Tensor& t) { return Ref<Tensor>::retain(const_cast<Tensor*>(&t)); }

bool any_needs(std::initializer_list<const Tensor*> ts) {
  bool any = false;
  for (const Tensor* t : ts) any |= (t && needs_grad(*t));
  return any;
}

// ---- views: backward replays the view on zeros of the input's shape and adds the
// gradient through it (overlapping views, such as expand or unfold, accumulate).
using Replay = std::function<Ref<Tensor>(const Tensor&)>;

// The name torch gives the gradient of a view's input under create_graph (the node its
// backward formula records), and so the adjoint's: torch's formula for the view of name.
const char* view_grad_name(const char* name) {
  static const std::pair<const char*, const char*> table[] = {
      {"ViewBackward0", "ViewBackward0"},           {"ExpandBackward0", "SumBackward1"},
      {"SelectBackward0", "SelectBackwardBackward0"}, {"SliceBackward0", "SliceBackwardBackward0"},
      {"DiagonalBackward0", "DiagonalBackwardBackward0"}, {"UnfoldBackward0", "UnfoldBackwardBackward0"},
      {"SqueezeBackward0", "UnsqueezeBackward0"},   {"SqueezeBackward1", "UnsqueezeBackward0"},
      {"SqueezeBackward2", "UnsqueezeBackward0"},   {"UnsqueezeBackward0", "SqueezeBackward1"},
      {"UnbindBackward0", "StackBackward0"},        {"SplitBackward0", "CatBackward0"},
      {"SplitWithSizesBackward0", "CatBackward0"},  {"AliasBackward0", "AliasBackward0"}};
  for (const auto& [v, g] : table)
    if (std::string_view(v) == name) return g;
  return "ViewBackwardBackward0";
}

// V^T g for the view V: g scattered into zeros of the input's shape through the view.  A view
// reaching each input element at most once (slice, select, permute, unsqueeze...) takes a copy,
// as torch's formulas (slice_scatter, squeeze, view): an added -0 would become +0.  One that
// reaches an element more than once (expand, overlapping unfold) adds, as torch sums.
Ref<Tensor> view_adjoint(const Tensor& g, const Shape& in_sizes, const Replay& replay, bool cx) {
  Ref<Tensor> z = full(in_sizes, 0.0, cx ? DType::Complex128 : DType::Float64, "backward");
  Ref<Tensor> v = replay(*z);
  if (!has_internal_overlap(*v)) {
    ct::copy_into(*v, g, "backward");
    return z;
  }
  Ref<Tensor> g64 = as_f64_lanes(g, cx);
  scatter_add(f64(*z), lanes(Geometry::of(*v), cx), 0, f64(*g64));
  return z;
}

std::shared_ptr<Node> view_node(const char* name, const Tensor& input, Replay replay) {
  Shape in_sizes(input.sizes().begin(), input.sizes().end());
  const bool cx = is_complex(input.dtype());  // complex: two doubles per element (lanes)
  auto n = node(name, {&input}, [in_sizes, replay, cx, name](const Tensor& g, FnNode& self) -> Grads {
    Ref<Tensor> z = view_adjoint(g, in_sizes, replay, cx);
    if (!cg()) return {z};
    // Under create_graph: the gradient's derivative is the view itself, replayed (copied).
    LinearFn f = [in_sizes, replay, cx](const Tensor& x) { return view_adjoint(x, in_sizes, replay, cx); };
    LinearFn v = [replay](const Tensor& h) { return copy_to_new(*replay(h), h.dtype()); };
    return {with_linear_history(z, self.inputs[0], g, name, view_grad_name(name), f, v)};
  });
  n->hograd_ = true;
  return n;
}

// The gradient r = f(g) of an op linear in its input x, whose backward f is the adjoint of the
// op itself (fwd): under create_graph its history is fwd's, named adj_name (Note [Higher-order
// gradients] in meta.h); the same r otherwise.
Ref<Tensor> linear_grad(Ref<Tensor> r, FnNode& self, const Tensor& g, const char* adj_name, LinearFn f, LinearFn fwd) {
  if (!cg()) return r;
  return with_linear_history(std::move(r), self.inputs[0], g, self.name(), adj_name, std::move(f), std::move(fwd));
}

// The conjugate of a complex tensor's values (a new tensor, no bits); t itself otherwise.
// Complex formulas conjugate the local derivative (Note [Complex autograd] in meta.cpp).
Ref<Tensor> cj(const Tensor& t) { return is_complex(t.dtype()) ? ag::conj_physical(t) : retained(t); }

template <class ViewFn>
Ref<Tensor> record_view(const char* name, const Tensor& t, ViewFn&& f) {
  Ref<Tensor> r = f(t);
  set_view_history(t, *r, [&] { return view_node(name, t, Replay(f)); });
  return r;
}

// A gradient of a reduction's output, shaped with the reduced dims kept as size 1.
Ref<Tensor> keepdim_grad(const Tensor& g, IntList kept) { return v_reshape(*v_contiguous(g), kept); }

// What a reduction's backward needs of its input, inline (a node captures it: no allocation
// for up to 4 dims).
struct ReduceInfo {
  InputSizes in_sizes, kept;  // kept: reduced dims as 1
  uint64_t reduced = 0;       // bit d: dim d is reduced (kMaxDims is 64)
  int64_t count = 1;          // elements per reduced group
  bool is_reduced(size_t d) const { return (reduced >> d) & 1; }
};
static_assert(kMaxDims <= 64, "ReduceInfo::reduced holds one bit per dim");

ReduceInfo reduce_info(const Tensor& t, std::span<const int64_t> dims) {
  ReduceInfo r;
  r.in_sizes = InputSizes(t.sizes());
  const int64_t nd = t.ndim();
  if (dims.empty()) r.reduced = nd == 64 ? ~uint64_t(0) : (uint64_t(1) << nd) - 1;
  for (int64_t d : dims) {
    const int64_t w = nd == 0 ? 0 : (d < 0 ? d + nd : d);
    if (w >= 0 && w < nd) r.reduced |= uint64_t(1) << w;
  }
  DimBuf kept(t.sizes());
  for (int64_t d = 0; d < nd; ++d)
    if (r.is_reduced(size_t(d))) {
      kept[size_t(d)] = 1;
      r.count *= t.size(int(d));
    }
  r.kept = InputSizes(IntList(kept));
  return r;
}

// The product of the other elements of each element's reduced group (exact with zeros), in
// float64, or complex128 for a complex x.
template <class T>
Ref<Tensor> prod_of_others_as(const Tensor& x, const ReduceInfo& ri, DType d) {
  const int64_t nd = x.ndim();
  std::vector<int> perm;
  for (int64_t k = 0; k < nd; ++k)
    if (!ri.is_reduced(size_t(k))) perm.push_back(int(k));
  for (int64_t k = 0; k < nd; ++k)
    if (ri.is_reduced(size_t(k))) perm.push_back(int(k));
  Ref<Tensor> xp = copy_to_new(*ct::permute(x, perm), d);  // contiguous in the permuted order
  Shape psizes(xp->sizes().begin(), xp->sizes().end());
  Ref<Tensor> out = Tensor::empty(psizes, d, "backward");
  const int64_t k = ri.count, m = k ? x.numel() / k : 0;
  const T* in = reinterpret_cast<const T*>(xp->raw_data());
  T* o = reinterpret_cast<T*>(out->raw_data());
  for (int64_t row = 0; row < m; ++row) {
    const T* a = in + row * k;
    T* b = o + row * k;
    T p = 1;
    for (int64_t j = 0; j < k; ++j) {
      b[j] = p;
      p *= a[j];
    }
    p = 1;
    for (int64_t j = k - 1; j >= 0; --j) {
      b[j] *= p;
      p *= a[j];
    }
  }
  std::vector<int> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int(i);
  return ct::permute(*out, inv);
}

Ref<Tensor> prod_of_others(const Tensor& x, const ReduceInfo& ri) {
  if (is_complex(x.dtype())) return prod_of_others_as<std::complex<double>>(x, ri, DType::Complex128);
  return prod_of_others_as<double>(x, ri, DType::Float64);
}

}  // namespace

// ---- elementwise -------------------------------------------------------------------

namespace {
// The node of `x op y` for tensors x and y, or of `x op s` for a tensor x and a scalar s
// (y == nullptr): torch's names and formulas.  With a tensor y, Mul and Div read x and y from
// saved[0] and saved[1], which the caller saves; with a scalar they keep it (has_saved: a
// second backward fails as torch's, whose node saves the scalar).
//
// square: x * x of one tensor, out of place.  Its two gradients are the same g * x.conj(),
// which the engine would then add: computed once and doubled in place instead, two passes
// over it where there were three and one result less.  Doubling a real is exact, so t * 2 is
// t + t bit for bit (an overflow is inf both ways); a complex t * 2 is a complex product
// (inf parts, signed zeros differ), so complex tensors, and create_graph, keep torch's way.
std::shared_ptr<FnNode> binary_node(BinaryOp op, const Tensor& x, const Tensor* y, Operand sc, bool square = false) {
  // a complex scalar's conjugate, as an operand (a real one stays a double: same dtypes)
  const Operand s = sc.is_complex ? Operand::of(std::complex<double>(sc.scalar, -sc.imag)) : Operand::of(sc.scalar);
  if (y) {
    switch (op) {
      case BinaryOp::Add:
        return node("AddBackward0", {&x, y}, [](const Tensor& g, FnNode&) -> Grads { return {retained(g), retained(g)}; });
      case BinaryOp::Sub:
        return node("SubBackward0", {&x, y},
                    [](const Tensor& g, FnNode& n) -> Grads { return {retained(g), n.wants(1) ? neg(g) : Ref<Tensor>()}; });
      case BinaryOp::Mul:
        return node("MulBackward0", {&x, y}, [square](const Tensor& g, FnNode& n) -> Grads {
          Grads out(2);
          if (square && n.wants(0) && n.wants(1) && !cg() && !is_complex(g.dtype()) && !is_complex(n.use(1).dtype())) {
            out[0] = mul(g, *cj(n.use(1)));
            ct::binary_(BinaryOp::Mul, *out[0], Operand::of(2.0));
            return out;
          }
          if (n.wants(0)) out[0] = mul(g, *cj(n.use(1)));
          if (n.wants(1)) out[1] = mul(g, *cj(n.use(0)));
          return out;
        });
      case BinaryOp::Div:
        return node("DivBackward0", {&x, y}, [](const Tensor& g, FnNode& n) -> Grads {
          Grads out(2);
          const Tensor& d = n.use(1);
          if (n.wants(0)) out[0] = div(g, *cj(d));
          if (n.wants(1)) {
            const Tensor& x = n.use(0);
            if (is_complex(x.dtype()) || is_complex(d.dtype())) {  // -grad * ((x / d) / d).conj()
              out[1] = neg(*mul(g, *cj(*div(*div(x, d), d))));
            } else {
              out[1] = neg(*div(*mul(g, x), *mul(d, d)));
            }
          }
          return out;
        });
    }
  }
  std::shared_ptr<FnNode> n;
  switch (op) {
    case BinaryOp::Add:
      return node("AddBackward0", {&x}, [](const Tensor& g, FnNode&) -> Grads { return {retained(g)}; });
    case BinaryOp::Sub:
      return node("SubBackward0", {&x}, [](const Tensor& g, FnNode&) -> Grads { return {retained(g)}; });
    case BinaryOp::Mul:
      n = node("MulBackward0", {&x}, [s](const Tensor& g, FnNode&) -> Grads {
        return {ag::binary(BinaryOp::Mul, Operand::of(g), s)};
      });
      break;
    case BinaryOp::Div:
      n = node("DivBackward0", {&x}, [s](const Tensor& g, FnNode&) -> Grads {
        return {ag::binary(BinaryOp::Div, Operand::of(g), s)};
      });
      break;
  }
  n->has_saved = true;
  return n;
}

bool reads_operands(BinaryOp op) { return op == BinaryOp::Mul || op == BinaryOp::Div; }
}  // namespace

Ref<Tensor> binary(BinaryOp op, Operand a, Operand b) {
  Ref<Tensor> r = ct::binary(op, a, b);
  if (__builtin_expect(any_needs({a.tensor, b.tensor}), 0)) {
    const Tensor* ta = a.tensor;
    const Tensor* tb = b.tensor;
    std::shared_ptr<FnNode> n;
    if (ta) {
      n = binary_node(op, *ta, tb, b, ta == tb);
      if (tb && reads_operands(op)) n->save({ta, tb});
    } else if (op == BinaryOp::Sub) {  // scalar op tensor: s - x, s / x and the commutative ones
      n = node("RsubBackward1", {tb}, [](const Tensor& g, FnNode&) -> Grads { return {neg(g)}; });
    } else if (op == BinaryOp::Div) {  // torch: reciprocal then mul
      const Operand s = a;
      n = node("MulBackward0", {tb}, [s](const Tensor& g, FnNode& self) -> Grads {
        const Tensor& x = self.use(0);
        if (s.is_complex || is_complex(x.dtype()))  // -grad * (s / x^2).conj()
          return {neg(*mul(g, *cj(*ag::binary(BinaryOp::Div, s, Operand::of(*mul(x, x))))))};
        return {neg(*div(*mul(g, s.scalar), *mul(x, x)))};
      });
      n->save({tb});
    } else {
      n = binary_node(op, *tb, nullptr, a);
    }
    set_history(*r, std::move(n));
  }
  return r;
}

void binary_(BinaryOp op, const Tensor& self, Operand other) {
  const Tensor* to = other.tensor;
  if (__builtin_expect(!any_needs({&self, to}), 1)) return ct::binary_(op, self, other);
  check_inplace(self);
  std::shared_ptr<FnNode> n = binary_node(op, self, to, other);
  if (to && reads_operands(op)) {
    // Saved before the write, as torch does: when other is self (or shares its memory), the
    // write moves its version and backward refuses instead of using the new values.  self's
    // old values only when other's gradient needs them.
    // (a recorded clone: under create_graph the old values keep their history, Note
    // [Higher-order gradients] in meta.h; a first-order backward never goes through it)
    Ref<Tensor> original = requires_grad(*to) ? ag::clone(self) : Ref<Tensor>();
    n->save({original.get(), to});
  }
  ct::binary_(op, self, other);
  rebase_history(self, std::move(n));
}

namespace {
// torch's AddBackward0 / SubBackward0 with alpha: other's gradient is grad * alpha (-grad *
// alpha for sub), self's is grad.
std::shared_ptr<FnNode> scaled_node(BinaryOp op, const Tensor& x, const Tensor& y, double alpha) {
  const double s = op == BinaryOp::Sub ? -alpha : alpha;
  return node(op == BinaryOp::Sub ? "SubBackward0" : "AddBackward0", {&x, &y}, [s](const Tensor& g, FnNode& n) -> Grads {
    return {retained(g), n.wants(1) ? mul(g, s) : Ref<Tensor>()};
  });
}
}  // namespace

Ref<Tensor> add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha) {
  if (alpha == 1) return ag::binary(op, Operand::of(a), Operand::of(b));
  Ref<Tensor> r = ct::add_scaled(op, a, b, alpha);
  if (__builtin_expect(any_needs({&a, &b}), 0)) set_history(*r, scaled_node(op, a, b, alpha));
  return r;
}

void add_scaled_(BinaryOp op, const Tensor& self, const Tensor& other, double alpha) {
  if (alpha == 1) return ag::binary_(op, self, Operand::of(other));
  if (__builtin_expect(!any_needs({&self, &other}), 1)) return ct::add_scaled_(op, self, other, alpha);
  check_inplace(self);
  std::shared_ptr<FnNode> n = scaled_node(op, self, other, alpha);
  ct::add_scaled_(op, self, other, alpha);
  rebase_history(self, std::move(n));
}

namespace {
const char* unary_name(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "NegBackward0";
    case UnaryOp::Abs: return "AbsBackward0";
    case UnaryOp::Exp: return "ExpBackward0";
    case UnaryOp::Log: return "LogBackward0";
    case UnaryOp::Sqrt: return "SqrtBackward0";
    case UnaryOp::Sin: return "SinBackward0";
    case UnaryOp::Cos: return "CosBackward0";
    case UnaryOp::Tanh: return "TanhBackward0";
    case UnaryOp::Sigmoid: return "SigmoidBackward0";
    case UnaryOp::Relu: return "ReluBackward0";
    case UnaryOp::Reciprocal: return "ReciprocalBackward0";
    case UnaryOp::Sgn: return "SgnBackward0";
    case UnaryOp::Sign: return "SignBackward0";
    case UnaryOp::Angle: return "AngleBackward0";
  }
  return "?";
}
// Whether backward uses the result (true) or the input (false); neg uses neither.
bool unary_saves_result(UnaryOp op) {
  return op == UnaryOp::Exp || op == UnaryOp::Sqrt || op == UnaryOp::Tanh || op == UnaryOp::Sigmoid ||
         op == UnaryOp::Relu || op == UnaryOp::Reciprocal;
}

// where(x == 0, 0, t)
Ref<Tensor> zero_at_zero(const Tensor& x, const Tensor& t) {
  Ref<Tensor> zero = ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(0.0));
  return ag::where(*zero, *zero_like(t), t);
}

std::shared_ptr<FnNode> unary_node(UnaryOp op, const Tensor& input) {
  return node(unary_name(op), {&input}, [op](const Tensor& g, FnNode& s) -> Grads {
    if (op == UnaryOp::Neg) return {neg(g)};
    if (op == UnaryOp::Sign) return {zeros_like(g)};
    const Tensor& v = s.use(0);  // input or result, as unary_saves_result says
    if (is_complex(v.dtype())) {  // grad * conj(f'(x)); abs: grad * sgn(x)
      Ref<Tensor> d;
      switch (op) {
        case UnaryOp::Abs: {
          Ref<Tensor> q = div(v, *ag::to_dtype(*ag::unary(UnaryOp::Abs, v), v.dtype()));
          Ref<Tensor> zero = ct::compare(CompareOp::Eq, Operand::of(v), Operand::of(0.0));
          return {mul(g, *ag::where(*zero, *zero_like(*q), *q))};
        }
        case UnaryOp::Exp: d = retained(v); break;
        case UnaryOp::Log: return {div(g, *cj(v))};
        case UnaryOp::Sqrt: return {div(g, *cj(*mul(v, 2.0)))};
        case UnaryOp::Sin: d = ag::unary(UnaryOp::Cos, v); break;
        case UnaryOp::Cos: d = neg(*ag::unary(UnaryOp::Sin, v)); break;
        case UnaryOp::Tanh: d = sub(1.0, *mul(v, v)); break;
        case UnaryOp::Sigmoid: d = mul(v, *sub(1.0, v)); break;
        case UnaryOp::Reciprocal: d = neg(*mul(v, v)); break;
        case UnaryOp::Sgn: {  // torch's sgn_backward: (g - s^2 conj(g)) / (2 |z|), 0 at z = 0
          Ref<Tensor> sg = ag::unary(UnaryOp::Sgn, v);
          Ref<Tensor> num = ag::binary(BinaryOp::Sub, Operand::of(g), Operand::of(*mul(*mul(*sg, *sg), *cj(g))));
          Ref<Tensor> den = ag::to_dtype(*mul(*ag::unary(UnaryOp::Abs, v), 2.0), v.dtype());
          return {zero_at_zero(v, *div(*num, *den))};
        }
        case UnaryOp::Angle: {  // torch's angle_backward: g * z / |z|^2 * i, 0 at z = 0
          Ref<Tensor> a = ag::unary(UnaryOp::Abs, v);
          Ref<Tensor> q = div(v, *ag::to_dtype(*mul(*a, *a), v.dtype()));
          Ref<Tensor> qi = ag::binary(BinaryOp::Mul, Operand::of(*q), Operand::of(std::complex<double>(0, 1)));
          return {zero_at_zero(v, *mul(g, *qi))};
        }
        default: CT_FAIL(InvalidArgument, unary_name(op) << ": no complex formula");
      }
      return {mul(g, *cj(*d))};
    }
    switch (op) {
      case UnaryOp::Abs: {
        Ref<Tensor> pos = ct::compare(CompareOp::Gt, Operand::of(v), Operand::of(0.0));
        Ref<Tensor> negm = ct::compare(CompareOp::Lt, Operand::of(v), Operand::of(0.0));
        Ref<Tensor> z = zero_like(g);
        return {ag::where(*pos, g, *ag::where(*negm, *neg(g), *z))};
      }
      case UnaryOp::Exp: return {mul(g, v)};
      case UnaryOp::Log: return {div(g, v)};
      case UnaryOp::Sqrt: return {div(g, *mul(v, 2.0))};
      case UnaryOp::Sin: return {mul(g, *ag::unary(UnaryOp::Cos, v))};
      case UnaryOp::Cos: return {neg(*mul(g, *ag::unary(UnaryOp::Sin, v)))};
      case UnaryOp::Tanh: return {mul(g, *sub(1.0, *mul(v, v)))};
      case UnaryOp::Sigmoid: return {mul(g, *mul(v, *sub(1.0, v)))};
      case UnaryOp::Relu: {
        // torch's threshold_backward(grad, result, 0): result <= 0 ? 0 : grad, so a NaN
        // result (relu of NaN) passes its gradient on, where a `result > 0` mask would not;
        // one pass, or under create_graph the same through recorded ops
        if (!cg() && g.dtype() == v.dtype()) return {ct::threshold_backward(g, v)};
        Ref<Tensor> off = ct::compare(CompareOp::Le, Operand::of(v), Operand::of(0.0));
        return {ag::where(*off, *zero_like(g), g)};
      }
      case UnaryOp::Reciprocal: return {neg(*mul(g, *mul(v, v)))};
      case UnaryOp::Sgn:
      case UnaryOp::Angle: return {zeros_like(v)};  // piecewise constant
      default: return {Ref<Tensor>()};
    }
  });
}
}  // namespace

Ref<Tensor> unary(UnaryOp op, const Tensor& a) {
  Ref<Tensor> r = ct::unary(op, a);
  if (__builtin_expect(needs_grad(a), 0)) {
    std::shared_ptr<FnNode> n = unary_node(op, a);
    if (op != UnaryOp::Neg && op != UnaryOp::Sign) {  // their gradients need no values
      if (unary_saves_result(op)) {
        n->save({}, r.get());
      } else {
        n->save({&a});
      }
    }
    set_history(*r, std::move(n));
  }
  return r;
}

void unary_(UnaryOp op, const Tensor& self) {
  if (__builtin_expect(!needs_grad(self), 1)) return ct::unary_(op, self);
  check_inplace(self);
  std::shared_ptr<FnNode> n = unary_node(op, self);
  Ref<Tensor> original;
  const bool saves = op != UnaryOp::Neg && op != UnaryOp::Sign;  // their gradients need no values
  if (saves && !unary_saves_result(op)) {
    original = ag::clone(self);  // recorded: see binary_
  }
  ct::unary_(op, self);
  if (saves) {
    if (original) {
      n->save({original.get()});
    } else {
      n->save({}, &self);
    }
  }
  rebase_history(self, std::move(n));
}

Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  Ref<Tensor> r = ct::where(cond, a, b);
  if (__builtin_expect(any_needs({&a, &b}), 0)) {
    auto n = node("WhereBackward0", {&a, &b}, [](const Tensor& g, FnNode& s) -> Grads {
      const Tensor& c = s.use(0);
      Grads out(2);
      Ref<Tensor> z = zero_like(g);
      if (s.wants(0)) out[0] = ag::where(c, g, *z);
      if (s.wants(1)) out[1] = ag::where(c, *z, g);
      return out;
    });
    n->save({&cond});
    set_history(*r, std::move(n));
  }
  return r;
}

namespace {
// fill_ and zero_: self's old values get no gradient; a 0-dim value tensor (fill_(Tensor))
// gets the sum of the gradient.
void record_overwrite(const char* name, const Tensor& self, const Tensor* value, const std::function<void()>& write) {
  if (__builtin_expect(!any_needs({&self, value}), 1)) return write();
  check_inplace(self);
  std::shared_ptr<FnNode> n;
  if (value) {
    n = node(name, {&self, value}, [](const Tensor& g, FnNode& s) -> Grads {
      return {s.wants(0) ? zeros_like(g) : Ref<Tensor>(), ag::sum(g, {}, false)};
    });
  } else {
    n = node(name, {&self}, [](const Tensor& g, FnNode&) -> Grads { return {zeros_like(g)}; });
  }
  write();
  rebase_history(self, std::move(n));
}
}  // namespace

void fill_(const Tensor& self, double value) {
  record_overwrite("FillBackward2", self, nullptr, [&] { ct::fill_(self, value); });
}
void fill_(const Tensor& self, const Tensor& value) {
  // torch 2.13: a cast copy of the value into every element (no range check, unlike a
  // number; an expanded self is refused, as by copy_)
  record_overwrite("FillBackward3", self, &value, [&] {
    CT_CHECK(value.ndim() == 0, InvalidArgument,
             "fill_ only supports 0-dimension value tensor but got tensor with " << value.ndim() << " dimensions.");
    ct::copy_into(self, value, "fill_");
  });
}
void fill_complex_(const Tensor& self, std::complex<double> value) {
  if (!is_complex(self.dtype())) {  // torch's checked_convert of the scalar
    CT_CHECK(value.imag() == 0 || self.dtype() == DType::Bool, InvalidArgument,
             "value cannot be converted to type " << cpp_type_name(self.dtype()) << " without overflow");
    return ag::fill_(self, self.dtype() == DType::Bool ? double(value != std::complex<double>(0)) : value.real());
  }
  record_overwrite("FillBackward2", self, nullptr, [&] {
    Ref<Tensor> v = full({}, 0.0, DType::Complex128, "fill_");
    *reinterpret_cast<std::complex<double>*>(v->raw_data()) = value;
    ct::copy_into(self, *v, "fill_");
  });
}
void zero_(const Tensor& self) {
  record_overwrite("ZeroBackward0", self, nullptr, [&] { ct::fill_(self, 0.0); });
}

void copy_into(const Tensor& dst, const Tensor& src, const char* op) {
  if (__builtin_expect(!any_needs({&dst, &src}), 1)) return ct::copy_into(dst, src, op);
  check_inplace(dst);
  auto n = node("CopyBackwards", {&dst, &src}, [](const Tensor& g, FnNode& s) -> Grads {
    return {s.wants(0) ? zeros_like(g) : Ref<Tensor>(), retained(g)};
  });
  ct::copy_into(dst, src, op);
  rebase_history(dst, std::move(n));
}

Ref<Tensor> cat(std::span<const Tensor* const> tensors, int64_t dim) {
  Ref<Tensor> r = ct::cat(tensors, dim);
  bool any = false;
  for (const Tensor* t : tensors) any |= needs_grad(*t);
  if (__builtin_expect(any, 0)) {
    const int64_t d = r->ndim() ? (dim < 0 ? dim + r->ndim() : dim) : 0;
    // A legacy empty 1-D input (shape [0], skipped by cat) takes an empty gradient of its
    // own shape, as torch's cat_tensors_backward gives it; length -1 marks it.
    std::vector<int64_t> lengths;
    for (const Tensor* t : tensors) lengths.push_back(t->ndim() == 1 && t->size(0) == 0 && r->ndim() != 1 ? -1 : t->size(int(d)));
    auto n = std::make_shared<FnNode>("CatBackward0", [d, lengths](const Tensor& g, FnNode& s) -> Grads {
      Grads out(lengths.size());
      int64_t at = 0;
      for (size_t i = 0; i < lengths.size(); ++i) {
        if (lengths[i] < 0) {
          const int64_t zero = 0;
          if (s.wants(i)) out[i] = Tensor::empty(IntList(&zero, 1), g.dtype(), "backward");
          continue;
        }
        if (s.wants(i)) out[i] = cg() ? ag::narrow(g, d, at, lengths[i]) : ct::narrow(g, d, at, lengths[i]);
        at += lengths[i];
      }
      return out;
    });
    for (const Tensor* t : tensors) n->add_input(*t);
    set_history(*r, std::move(n));
  }
  return r;
}

Ref<Tensor> stack(std::span<const Tensor* const> tensors, int64_t dim) {
  Ref<Tensor> r = ct::stack(tensors, dim);
  bool any = false;
  for (const Tensor* t : tensors) any |= needs_grad(*t);
  if (__builtin_expect(any, 0)) {
    const int64_t d = dim < 0 ? dim + r->ndim() : dim;
    const size_t count = tensors.size();
    auto n = std::make_shared<FnNode>("StackBackward0", [d, count](const Tensor& g, FnNode& s) -> Grads {
      Grads out(count);
      for (size_t i = 0; i < count; ++i)
        if (s.wants(i)) out[i] = cg() ? ag::select(g, d, int64_t(i)) : ct::select(g, d, int64_t(i));
      return out;
    });
    for (const Tensor* t : tensors) n->add_input(*t);
    set_history(*r, std::move(n));
  }
  return r;
}

// ---- reductions --------------------------------------------------------------------

Ref<Tensor> sum(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  Ref<Tensor> r = ct::sum(t, dims, keepdim);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    set_history(*r, node(dims.empty() ? "SumBackward0" : "SumBackward1", {&t}, [ri](const Tensor& g, FnNode&) -> Grads {
                  return {v_expand(*keepdim_grad(g, ri.kept), ri.in_sizes)};
                }));
  }
  return r;
}

Ref<Tensor> mean(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  Ref<Tensor> r = ct::mean(t, dims, keepdim);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    set_history(*r, node(dims.empty() ? "MeanBackward0" : "MeanBackward1", {&t}, [ri](const Tensor& g, FnNode&) -> Grads {
                  return {v_expand(*div(*keepdim_grad(g, ri.kept), double(ri.count)), ri.in_sizes)};
                }));
  }
  return r;
}

Ref<Tensor> prod(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  Ref<Tensor> r = ct::prod(t, dims, keepdim);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    auto n = node(dims.empty() ? "ProdBackward0" : "ProdBackward1", {&t}, [ri](const Tensor& g, FnNode& s) -> Grads {
      if (cg()) {  // Note [Higher-order gradients] in meta.h
        const Tensor& x = s.use(0);
        Ref<Tensor> zeros = ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(0.0));
        if (ct::item(*ct::sum(*zeros, {}, false)) == 0) {  // torch's prod_backward: grad * (result / x).conj()
          Ref<Tensor> rk = v_expand(*keepdim_grad(s.use(1), ri.kept), ri.in_sizes);
          return {mul(*v_expand(*keepdim_grad(g, ri.kept), ri.in_sizes), *cj(*div(*rk, x)))};
        }
        // a zero in x: the product of the others, whose own derivative is refused
        Grads out{mul(*cj(*prod_of_others(x, ri)), *v_expand(*keepdim_grad(g, ri.kept), ri.in_sizes))};
        refuse_higher_order(s, {retained(g)}, out);
        return out;
      }
      Ref<Tensor> others = prod_of_others(s.use(0), ri);  // conjugated for a complex input
      return {mul(*cj(*others), *ct::expand(*keepdim_grad(g, ri.kept), ri.in_sizes))};
    });
    n->hograd_ = true;  // its formula refuses by itself where it has no differentiable form
    n->save({&t}, r.get());
    set_history(*r, std::move(n));
  }
  return r;
}

namespace {
Ref<Tensor> extreme(bool max, const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  Ref<Tensor> r = max ? ct::amax(t, dims, keepdim) : ct::amin(t, dims, keepdim);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    std::vector<int64_t> rdims;
    for (size_t d = 0; d < ri.in_sizes.size(); ++d)
      if (ri.is_reduced(d)) rdims.push_back(int64_t(d));
    auto n = node(max ? "AmaxBackward0" : "AminBackward0", {&t}, [ri, rdims](const Tensor& g, FnNode& s) -> Grads {
      const Tensor& x = s.use(0);
      Ref<Tensor> res = ct::expand(*keepdim_grad(s.use(1), ri.kept), ri.in_sizes);
      Ref<Tensor> mask = ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(*res));
      Ref<Tensor> count = ct::sum(*mask, rdims, true);  // ties share the gradient evenly
      Ref<Tensor> share = div(*keepdim_grad(g, ri.kept), *ag::to_dtype(*count, g.dtype()));
      return {ag::where(*mask, *v_expand(*share, ri.in_sizes), *zero_like(g))};
    });
    n->save({&t}, r.get());
    set_history(*r, std::move(n));
  }
  return r;
}
}  // namespace

Ref<Tensor> amax(const Tensor& t, std::span<const int64_t> dims, bool keepdim) { return extreme(true, t, dims, keepdim); }
Ref<Tensor> amin(const Tensor& t, std::span<const int64_t> dims, bool keepdim) { return extreme(false, t, dims, keepdim); }

// max() / min(): torch's evenly_distribute_backward: the gradient is split evenly among the
// elements equal to the result, or among the NaNs when the result is NaN.
Ref<Tensor> max_all(const Tensor& t, bool max) {
  Ref<Tensor> r = ct::max_all(t, max);
  if (__builtin_expect(needs_grad(t), 0)) {
    auto n = node(max ? "MaxBackward1" : "MinBackward1", {&t}, [](const Tensor& g, FnNode& s) -> Grads {
      const Tensor& x = s.use(0);
      const Tensor& res = s.use(1);
      const bool nan = std::isnan(ct::item(res));
      Ref<Tensor> mask = nan ? ct::compare(CompareOp::Ne, Operand::of(x), Operand::of(x))
                             : ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(res));
      Ref<Tensor> count = ct::sum(*mask, {}, false);
      Ref<Tensor> share = div(g, *ag::to_dtype(*count, g.dtype()));
      return {ag::where(*mask, *share, *zero_like(g))};
    });
    n->save({&t}, r.get());
    set_history(*r, std::move(n));
  }
  return r;
}

// max(dim) / min(dim): torch's value_selecting_reduction_backward: the gradient goes to the
// returned index only (one element per reduced row, even at ties).
ValuesIndices max_dim(const Tensor& t, int64_t dim, bool keepdim, bool max) {
  ValuesIndices r = ct::max_dim(t, dim, keepdim, max);
  if (__builtin_expect(needs_grad(t), 0)) {
    const int64_t nd = t.ndim(), d = nd == 0 ? 0 : wrap_dim(dim, int(nd));
    Shape in_sizes(t.sizes().begin(), t.sizes().end());
    auto n = node(max ? "MaxBackward0" : "MinBackward0", {&t}, [in_sizes, d](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> idx = ct::contiguous(s.use(0));
      Ref<Tensor> g64 = as_f64(g);  // C order of the output: the rows, in order
      if (in_sizes.empty()) return {g64};
      // Rows of the input laid out with dim d last, so row r's element i is at r * k + i.
      std::vector<int> perm;
      for (int64_t i = 0; i < int64_t(in_sizes.size()); ++i)
        if (i != d) perm.push_back(int(i));
      perm.push_back(int(d));
      Shape psizes;
      for (int p : perm) psizes.push_back(in_sizes[size_t(p)]);
      Ref<Tensor> z = zeros_f64(psizes);
      const int64_t k = in_sizes[size_t(d)], rows = idx->numel();
      const int64_t* iv = reinterpret_cast<const int64_t*>(idx->raw_data());
      for (int64_t row = 0; row < rows; ++row) f64(*z)[row * k + iv[row]] = f64(*g64)[row];
      std::vector<int> inv(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int(i);
      return {ct::permute(*z, inv)};
    });
    n->save({r.indices.get()});  // not differentiable: torch's message names no node for it
    set_history(*r.values, std::move(n));
  }
  return r;
}

// ---- pow, remainder, fmod, floor_divide: one recorder for the four (names and formulas
// from torch's derivatives.yaml: pow_backward, pow_backward_self, pow_backward_exponent;
// remainder and fmod pass the gradient to self and give other -grad * self.div(other,
// rounding_mode "floor" / "trunc")).  Operands are saved as given; a scalar has no slot.
namespace {
const char* math_node_name(MathOp op, bool a_tensor, bool b_tensor) {
  switch (op) {
    case MathOp::Pow: return !b_tensor ? "PowBackward0" : (a_tensor ? "PowBackward1" : "PowBackward2");
    case MathOp::Remainder: return b_tensor ? "RemainderBackward1" : "RemainderBackward0";
    case MathOp::Fmod: return b_tensor ? "FmodBackward1" : "FmodBackward0";
    case MathOp::FloorDivide: return kNotImplementedNode;
  }
  return "?";
}

Ref<Tensor> math(MathOp op, const Tensor& a, const Tensor& b) {
  return ct::math_binary(op, Operand::of(a), Operand::of(b));
}
Ref<Tensor> compare_scalar(CompareOp op, const Tensor& a, double s) {
  return ct::compare(op, Operand::of(a), Operand::of(s));
}

// y == 0 for a real y; for a complex y, imag(y) == 0 and real(y) >= 0 (torch's condition for
// a zero base's exponent gradient).
Ref<Tensor> real_nonnegative(const Tensor& y) {
  if (!is_complex(y.dtype())) return compare_scalar(CompareOp::Ge, y, 0.0);
  return mul(*compare_scalar(CompareOp::Eq, *ct::imag_view(y), 0.0),
             *compare_scalar(CompareOp::Ge, *ct::real_view(y), 0.0));
}

// The node for a op b; a or b is null for a scalar operand (sa / sb its value, complex for
// a Python complex).  Saves the tensors the formulas read (slot 0: a_values, slot 1: b);
// a_values is a unless an in-place op writes a (then a copy of a's old values).  pow's
// formulas are torch's pow_backward*: the local derivatives conjugated for complex values.
std::shared_ptr<FnNode> math_node(MathOp op, const Tensor* a, const Tensor* a_values, const Tensor* b,
                                  std::complex<double> sa, std::complex<double> sb) {
  auto n = std::make_shared<FnNode>(math_node_name(op, a, b), [op, a_t = a != nullptr, b_t = b != nullptr, sa, sb](
                                                                  const Tensor& g, FnNode& s) -> Grads {
    if (op == MathOp::FloorDivide) CT_FAIL(InvalidArgument, "derivative for aten::floor_divide is not implemented");
    if (op != MathOp::Pow) {
      if (!b_t) return {retained(g)};
      Grads out(2);
      if (s.wants(0)) out[0] = retained(g);
      if (s.wants(1)) {  // other's gradient: -grad * self.div(other, floor / trunc)
        const Tensor& x = s.use(0);
        const Tensor& y = s.use(1);
        Ref<Tensor> q;
        if (op == MathOp::Remainder) {
          q = math(MathOp::FloorDivide, x, y);
        } else {
          const OperandType types[2] = {{x.dtype(), OperandKind::Dimensioned}, {y.dtype(), OperandKind::Dimensioned}};
          const DType d = result_type(types);
          q = ct::div_trunc(*ct::to_dtype(x, d), *ct::to_dtype(y, d));
        }
        out[1] = neg(*mul(g, *q));
      }
      return out;
    }
    // a Python float stays a float operand (the complex form would promote a real tensor)
    auto scalar = [](std::complex<double> v) { return v.imag() == 0 ? Operand::of(v.real()) : Operand::of(v); };
    auto times = [&](const Tensor& t, std::complex<double> v) {
      return ag::binary(BinaryOp::Mul, Operand::of(t), scalar(v));
    };
    if (!b_t) {  // x ** e: e == 0 gives zeros, else grad * conj(e * x ** (e - 1))
      if (sb == 0.0) return {zeros_like(g)};
      const Tensor& x = s.use(0);
      return {mul(g, *cj(*times(*ag::math_binary(MathOp::Pow, Operand::of(x), scalar(sb - 1.0)), sb)))};
    }
    const Tensor& y = s.use(1);
    Ref<Tensor> z = zero_like(g);
    if (!a_t) {  // s ** y: grad * conj(result * log(s)), zero where s == 0 and y is real >= 0
      // log of a negative s is complex when y is (torch takes the base as complex then)
      const bool complex_log = is_complex(y.dtype()) || sa.imag() != 0;
      Ref<Tensor> r = ag::math_binary(MathOp::Pow, scalar(sa), Operand::of(y));
      Ref<Tensor> gr = complex_log ? times(*r, std::log(sa)) : mul(*r, std::log(sa.real()));
      if (sa == 0.0) gr = ag::where(*real_nonnegative(y), *z, *gr);
      return {mul(g, *cj(*gr))};
    }
    const Tensor& x = s.use(0);
    Grads out(2);
    if (s.wants(0)) {  // where(y == 0, 0, grad * conj(y * x ** (y - 1)))
      Ref<Tensor> ym1 = ag::binary(BinaryOp::Sub, Operand::of(y), Operand::of(1.0));
      Ref<Tensor> d = mul(g, *cj(*mul(y, *ag::math_binary(MathOp::Pow, Operand::of(x), Operand::of(*ym1)))));
      out[0] = ag::where(*compare_scalar(CompareOp::Eq, y, 0.0), *z, *d);
    }
    if (s.wants(1)) {  // grad * where((x == 0) & (y real >= 0), 0, conj(result * log(x)))
      Ref<Tensor> cond = mul(*compare_scalar(CompareOp::Eq, x, 0.0), *real_nonnegative(y));
      const OperandType types[2] = {{x.dtype(), OperandKind::Dimensioned}, {y.dtype(), OperandKind::Dimensioned}};
      Ref<Tensor> xp = ag::to_dtype(x, result_type(types));  // torch's self.to(promoted dtype)
      Ref<Tensor> d = mul(*ag::math_binary(MathOp::Pow, Operand::of(x), Operand::of(y)), *ag::unary(UnaryOp::Log, *xp));
      out[1] = mul(g, *ag::where(*cond, *z, *cj(*d)));
    }
    return out;
  });
  if (a) n->add_input(*a);
  if (b) n->add_input(*b);
  if (op == MathOp::Pow || (b && op != MathOp::FloorDivide)) n->save({a_values, b});
  return n;
}
}  // namespace

Ref<Tensor> math_binary(MathOp op, Operand a, Operand b) {
  Ref<Tensor> r = ct::math_binary(op, a, b);
  if (__builtin_expect(any_needs({a.tensor, b.tensor}), 0)) {
    set_history(*r, math_node(op, a.tensor, a.tensor, b.tensor, {a.scalar, a.imag}, {b.scalar, b.imag}));
  }
  return r;
}

void math_binary_(MathOp op, const Tensor& self, Operand other) {
  const Tensor* to = other.tensor;
  if (__builtin_expect(!any_needs({&self, to}), 1)) return ct::math_binary_(op, self, other);
  check_inplace(self);
  // The formulas read self's values from before the write: a copy of them.
  Ref<Tensor> original = ag::clone(self);  // recorded: see binary_
  std::shared_ptr<FnNode> n = math_node(op, &self, original.get(), to, 0.0, {other.scalar, other.imag});
  ct::math_binary_(op, self, other);
  rebase_history(self, std::move(n));
}

Ref<Tensor> pow_int(const Tensor& a, int64_t exponent) {
  if (is_floating(a.dtype()) || is_complex(a.dtype())) return ag::math_binary(MathOp::Pow, Operand::of(a), Operand::of(double(exponent)));
  return ct::pow_int(a, exponent);  // integer and bool tensors never require grad
}

void pow_int_(const Tensor& self, int64_t exponent) {
  if (is_floating(self.dtype()) || is_complex(self.dtype())) return ag::math_binary_(MathOp::Pow, self, Operand::of(double(exponent)));
  ct::pow_int_(self, exponent);
}

// torch.maximum / minimum: where the operands are equal each takes half the gradient; a NaN
// compares false both ways, so both operands take all of it (torch's formula).
Ref<Tensor> maximum(const Tensor& a, const Tensor& b, bool max) {
  Ref<Tensor> r = ct::maximum(a, b, max);
  if (__builtin_expect(any_needs({&a, &b}), 0)) {
    auto n = node(max ? "MaximumBackward0" : "MinimumBackward0", {&a, &b}, [max](const Tensor& g, FnNode& s) -> Grads {
      const Tensor& x = s.use(0);
      const Tensor& y = s.use(1);
      Ref<Tensor> eq = ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(y));
      Ref<Tensor> base = ag::where(*eq, *div(g, 2.0), g);
      Ref<Tensor> z = zero_like(g);
      Ref<Tensor> lt = ct::compare(CompareOp::Lt, Operand::of(x), Operand::of(y));
      Ref<Tensor> gt = ct::compare(CompareOp::Gt, Operand::of(x), Operand::of(y));
      Grads out(2);
      // Each operand takes nothing where it lost (torch: masked_fill_ of the strict comparison).
      if (s.wants(0)) out[0] = ag::where(max ? *lt : *gt, *z, *base);
      if (s.wants(1)) out[1] = ag::where(max ? *gt : *lt, *z, *base);
      return out;
    });
    n->save({&a, &b});
    set_history(*r, std::move(n));
  }
  return r;
}

// ---- matmul --------------------------------------------------------------------------

namespace {
// The name of the grad_fn torch.matmul's result gets in 2.13, by the operands' ranks
// (1-D @ 2-D is mm(unsqueeze(0)).squeeze_(0): SqueezeBackward4; torch 1.13 said SqueezeBackward3).
const char* matmul_name(int da, int db) {
  if (da == 1 && db == 1) return "DotBackward0";
  if (da == 2 && db == 1) return "MvBackward0";
  if (da == 1 && db == 2) return "SqueezeBackward4";
  if (da == 2 && db == 2) return "MmBackward0";
  if (da == 2 && db >= 3) return "CloneBackward0";  // folded, then transposed back
  return "UnsafeViewBackward0";
}
}  // namespace

Ref<Tensor> matmul(const Tensor& a, const Tensor& b) {
  Ref<Tensor> r = ct::matmul(a, b);
  if (__builtin_expect(any_needs({&a, &b}), 0)) {
    auto n = node(matmul_name(a.ndim(), b.ndim()), {&a, &b}, [](const Tensor& g, FnNode& s) -> Grads {
      const Tensor& x = s.use(0);
      const Tensor& y = s.use(1);
      Ref<Tensor> x2 = x.ndim() == 1 ? (cg() ? ag::unsqueeze(x, 0) : ct::unsqueeze(x, 0)) : retained(x);
      Ref<Tensor> y2 = y.ndim() == 1 ? (cg() ? ag::unsqueeze(y, 1) : ct::unsqueeze(y, 1)) : retained(y);
      // The gradient in the shape of matmul(x2, y2): batch dims broadcast, then (n, m).
      DimBuf out;
      broadcast_shapes_into(x2->sizes().first(x2->sizes().size() - 2), y2->sizes().first(y2->sizes().size() - 2),
                            "matmul", out);
      out.push_back(x2->size(x2->ndim() - 2));
      out.push_back(y2->size(y2->ndim() - 1));
      Ref<Tensor> g2 = v_reshape_to(v_contiguous(g), out);
      Grads res(2);
      if (s.wants(0)) {
        Ref<Tensor> gx = ag::matmul(*g2, *cj(*v_transpose(*y2, -1, -2)));  // grad @ y^H
        res[0] = v_reshape_to(fix_grad(gx, {x2->sizes(), gx->dtype()}), x.sizes());
      }
      if (s.wants(1)) {
        Ref<Tensor> gy = ag::matmul(*cj(*v_transpose(*x2, -1, -2)), *g2);  // x^H @ grad
        res[1] = v_reshape_to(fix_grad(gy, {y2->sizes(), gy->dtype()}), y.sizes());
      }
      return res;
    });
    n->save({&a, &b});
    set_history(*r, std::move(n));
  }
  return r;
}

// torch.vdot of complex vectors, sum(conj(a) * b): VdotBackward0 (a: grad.conj() * b,
// b: grad * a).
Ref<Tensor> vdot(const Tensor& a, const Tensor& b) {
  Ref<Tensor> r = ct::vdot(a, b);
  if (__builtin_expect(any_needs({&a, &b}), 0)) {
    auto n = node("VdotBackward0", {&a, &b}, [](const Tensor& g, FnNode& s) -> Grads {
      Grads out(2);
      if (s.wants(0)) out[0] = mul(*cj(g), s.use(1));
      if (s.wants(1)) out[1] = mul(g, s.use(0));
      return out;
    });
    n->save({&a, &b});
    set_history(*r, std::move(n));
  }
  return r;
}

// ---- views -----------------------------------------------------------------------------

// view, permute and expand copy their argument list into the replay only when recording,
// so that the common case allocates nothing beyond the core op.
Ref<Tensor> view(const Tensor& t, IntList shape) {
  Ref<Tensor> r = ct::view(t, shape);
  set_view_history(t, *r, [&] {
    Shape s(shape.begin(), shape.end());
    return view_node("ViewBackward0", t, [s](const Tensor& x) { return ct::view(x, s); });
  });
  return r;
}
namespace {
// transpose, t and permute: the gradient is the inverse permutation of the output's, a view
// of it as torch's (so its strides and math bits are those torch's AccumulateGrad sees).
template <class Back>
void record_permutation(const char* name, const Tensor& t, const Tensor& r, Back back) {
  set_view_history(t, r, [&] {
    auto n = node(name, {&t}, [back](const Tensor& g, FnNode&) -> Grads { return {back(g)}; });
    n->keeps_bits_ = true;
    return n;
  });
}
}  // namespace

Ref<Tensor> transpose(const Tensor& t, int64_t d0, int64_t d1) {
  Ref<Tensor> r = ct::transpose(t, d0, d1);
  record_permutation("TransposeBackward0", t, *r, [d0, d1](const Tensor& g) { return v_transpose(g, d0, d1); });
  return r;
}
Ref<Tensor> t(const Tensor& self) {
  Ref<Tensor> r = ct::t(self);
  record_permutation("TBackward0", self, *r, [](const Tensor& g) { return cg() ? ag::t(g) : ct::t(g); });
  return r;
}
Ref<Tensor> permute(const Tensor& t, std::span<const int> dims) {
  Ref<Tensor> r = ct::permute(t, dims);
  if (__builtin_expect(!has_autograd(t), 1)) {
    set_view_history(t, *r, [] { return std::shared_ptr<Node>(); });
    return r;
  }
  const int nd = int(t.ndim());
  std::vector<int> inv(size_t(nd), 0);
  for (int i = 0; i < nd; ++i) inv[size_t(dims[size_t(i)] < 0 ? dims[size_t(i)] + nd : dims[size_t(i)])] = i;
  record_permutation("PermuteBackward0", t, *r,
                     [inv](const Tensor& g) { return cg() ? ag::permute(g, inv) : ct::permute(g, inv); });
  return r;
}
// Reversing the dims is its own inverse, so the backward reverses them again.
Ref<Tensor> numpy_T(const Tensor& t) {
  Ref<Tensor> r = ct::reverse_dims(t);
  record_permutation("PermuteBackward0", t, *r,
                     [](const Tensor& g) { return cg() ? ag::numpy_T(g) : ct::reverse_dims(g); });
  return r;
}
Ref<Tensor> slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  return record_view("SliceBackward0", t,
                     [=](const Tensor& x) { return ct::slice(x, dim, start, stop, step); });
}
Ref<Tensor> slice_dims(const Tensor& t, IntList starts, IntList stops, IntList steps) {
  if (starts.empty()) return ag::alias_view(t);
  if (__builtin_expect(has_autograd(t), 0)) {  // torch's nodes: one SliceBackward0 per dim
    Ref<Tensor> r = ag::slice(t, 0, starts[0], stops[0], steps[0]);
    for (size_t d = 1; d < starts.size(); ++d) r = ag::slice(*r, int64_t(d), starts[d], stops[d], steps[d]);
    return r;
  }
  Ref<Tensor> r = ct::slice_dims(t, starts, stops, steps);
  set_view_history(t, *r, [] { return std::shared_ptr<Node>(); });
  return r;
}
Ref<Tensor> narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  return record_view("SliceBackward0", t, [=](const Tensor& x) { return ct::narrow(x, dim, start, length); });
}
Ref<Tensor> select(const Tensor& t, int64_t dim, int64_t index) {
  return record_view("SelectBackward0", t, [=](const Tensor& x) { return ct::select(x, dim, index); });
}
Ref<Tensor> expand(const Tensor& t, IntList sizes) {
  Ref<Tensor> r = ct::expand(t, sizes);
  set_view_history(t, *r, [&] {
    Shape s(sizes.begin(), sizes.end());
    return view_node("ExpandBackward0", t, [s](const Tensor& x) { return ct::expand(x, s); });
  });
  return r;
}
Ref<Tensor> squeeze(const Tensor& t, int64_t dim) {
  return record_view("SqueezeBackward1", t, [=](const Tensor& x) { return ct::squeeze(x, dim); });
}
Ref<Tensor> squeeze_all(const Tensor& t) {
  return record_view("SqueezeBackward0", t, [](const Tensor& x) { return ct::squeeze_all(x); });
}
Ref<Tensor> squeeze_dims(const Tensor& t, std::span<const int> dims) {
  // The node replays the view in backward: it keeps its own copy of the dims.
  return record_view("SqueezeBackward2", t, [list = std::vector<int>(dims.begin(), dims.end())](const Tensor& x) {
    return ct::squeeze_dims(x, list);
  });
}
Ref<Tensor> unsqueeze(const Tensor& t, int64_t dim) {
  return record_view("UnsqueezeBackward0", t, [=](const Tensor& x) { return ct::unsqueeze(x, dim); });
}
Ref<Tensor> diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  return record_view("DiagonalBackward0", t, [=](const Tensor& x) { return ct::diagonal(x, offset, dim1, dim2); });
}
Ref<Tensor> unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step) {
  return record_view("UnfoldBackward0", t, [=](const Tensor& x) { return ct::unfold(x, dim, size, step); });
}
Ref<Tensor> alias_view(const Tensor& t) {
  return record_view("AliasBackward0", t, [](const Tensor& x) { return ct::alias_view(x); });
}
Ref<Tensor> as_strided(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset) {
  Ref<Tensor> r = ct::as_strided(t, sizes, strides, storage_offset);
  set_view_history(t, *r, [&] { return make_as_strided_backward(t, sizes, strides, storage_offset); });
  return r;
}

// Note [Multi-output views]
// torch's unbind and split record one node with one output per view.  The engine here runs
// single-output nodes, so each output gets its own node of torch's name, which adds its own
// piece of the gradient (select / narrow replayed on zeros of the input's shape): the
// input's gradient is the same sum.  What makes the outputs multi-output views is their
// view meta (CreationMeta::MultiOutputNode and their output number): an in-place write to
// one of them, or to a view of one, is refused with torch's message (check_view_rebase).
// Unlike other views they get that meta even when t has no autograd state: torch also
// refuses `unbind(plain)[0].add_(x)` for an x that requires grad, and the outputs must
// remember how they were made for that.
namespace {
template <class ReplayAt>
std::vector<Ref<Tensor>> record_multi(const char* name, const Tensor& t, std::vector<Ref<Tensor>> outs,
                                      ReplayAt&& replay_at) {
  const bool recording = has_autograd(t);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (recording)
      set_view_history(t, *outs[i], [&] { return view_node(name, t, replay_at(i)); }, CreationMeta::MultiOutputNode,
                       int64_t(i));
    else
      set_view_meta(t, *outs[i], nullptr, CreationMeta::MultiOutputNode, int64_t(i));
  }
  return outs;
}

// The pieces of split / split_with_sizes / chunk: each replays its narrow, found from the
// lengths of the pieces before it.
std::vector<Ref<Tensor>> record_split(const char* name, const Tensor& t, int64_t dim, std::vector<Ref<Tensor>> outs) {
  const int64_t d = wrap_dim(dim, t.ndim());
  std::vector<int64_t> starts;
  int64_t at = 0;
  for (const Ref<Tensor>& o : outs) {
    starts.push_back(at);
    at += o->size(int(d));
  }
  return record_multi(name, t, std::move(outs), [&](size_t i) -> Replay {
    const int64_t start = starts[i], length = (i + 1 < starts.size() ? starts[i + 1] : at) - start;
    return [=](const Tensor& x) { return ct::narrow(x, d, start, length); };
  });
}
}  // namespace

std::vector<Ref<Tensor>> unbind(const Tensor& t, int64_t dim) {
  std::vector<Ref<Tensor>> outs = ct::unbind(t, dim);
  const int64_t d = wrap_dim(dim, t.ndim());
  return record_multi("UnbindBackward0", t, std::move(outs), [d](size_t i) -> Replay {
    return [d, i](const Tensor& x) { return ct::select(x, d, int64_t(i)); };
  });
}
std::vector<Ref<Tensor>> split(const Tensor& t, int64_t split_size, int64_t dim) {
  return record_split("SplitBackward0", t, dim, ct::split(t, split_size, dim));
}
std::vector<Ref<Tensor>> split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim) {
  return record_split("SplitWithSizesBackward0", t, dim, ct::split_with_sizes(t, split_sizes, dim));
}
std::vector<Ref<Tensor>> chunk(const Tensor& t, int64_t chunks, int64_t dim) {
  int64_t split_size = 0;
  const bool with_sizes = ct::chunk_is_split_with_sizes(t, chunks, dim, split_size);
  return record_split(with_sizes ? "SplitWithSizesBackward0" : "SplitBackward0", t, dim, ct::chunk(t, chunks, dim));
}

// torch's unsafe_split / unsafe_split_with_sizes / unsafe_chunk: the pieces of split on t's
// storage, but NOT views: no base, a fresh version counter at 0 each (torch resets it), so
// autograd's checks for in-place writes to multi-output views do not apply.  Each records
// torch's node (UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0) as a plain output.
namespace {
std::vector<Ref<Tensor>> record_unsafe_split(const char* name, const Tensor& t, int64_t dim,
                                             std::vector<Ref<Tensor>> pieces) {
  const int64_t d = wrap_dim(dim, t.ndim());
  const bool recording = needs_grad(t);
  std::vector<Ref<Tensor>> outs;
  outs.reserve(pieces.size());
  int64_t at = 0;
  for (const Ref<Tensor>& p : pieces) {
    Ref<Tensor> o = ct::data_of(*p);
    const int64_t start = at, length = p->size(int(d));
    if (recording)
      set_history(*o, view_node(name, t, [=](const Tensor& x) { return ct::narrow(x, d, start, length); }));
    at += length;
    outs.push_back(std::move(o));
  }
  return outs;
}
}  // namespace

std::vector<Ref<Tensor>> unsafe_split(const Tensor& t, int64_t split_size, int64_t dim) {
  return record_unsafe_split("UnsafeSplitBackward0", t, dim, ct::split(t, split_size, dim));
}
std::vector<Ref<Tensor>> unsafe_split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim) {
  return record_unsafe_split("UnsafeSplitWithSizesBackward0", t, dim, ct::split_with_sizes(t, split_sizes, dim));
}
std::vector<Ref<Tensor>> unsafe_chunk(const Tensor& t, int64_t chunks, int64_t dim) {
  int64_t split_size = 0;
  const bool with_sizes = ct::chunk_is_split_with_sizes(t, chunks, dim, split_size);
  return record_unsafe_split(with_sizes ? "UnsafeSplitWithSizesBackward0" : "UnsafeSplitBackward0", t, dim,
                             ct::chunk(t, chunks, dim));
}

namespace {
// reshape/flatten: ViewBackward0 when the result is a view, UnsafeViewBackward0 when it
// copied (torch 2.x's view and _unsafe_view; torch 1.13 said ReshapeAliasBackward0 for the view).
Ref<Tensor> record_reshape(const Tensor& t, Ref<Tensor> r) {
  if (r.get() == &t) return r;
  if (__builtin_expect(!has_autograd(t), 1)) {  // no node to make: only a no_grad creation mode
    set_view_history(t, *r, [] { return std::shared_ptr<Node>(); });
    return r;
  }
  Shape in_sizes(t.sizes().begin(), t.sizes().end());
  const bool is_view = r->base() != nullptr && r->storage() == t.storage();
  set_view_history(t, *r, [&] {
    return node(is_view ? "ViewBackward0" : "UnsafeViewBackward0", {&t},
                [in_sizes](const Tensor& g, FnNode&) -> Grads { return {v_reshape(*v_contiguous(g), in_sizes)}; });
  });
  return r;
}
}  // namespace

Ref<Tensor> reshape(const Tensor& t, IntList shape) { return record_reshape(t, ct::reshape(t, shape)); }
Ref<Tensor> flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
  return record_reshape(t, ct::flatten(t, start_dim, end_dim));
}

// ---- copies ----------------------------------------------------------------------------

namespace {
Ref<Tensor> record_copy(const char* name, const Tensor& t, Ref<Tensor> r) {
  if (__builtin_expect(!needs_grad(t), 1) || r.get() == &t) return r;
  set_history(*r, node(name, {&t}, [](const Tensor& g, FnNode&) -> Grads { return {retained(g)}; }));
  return r;
}
}  // namespace

Ref<Tensor> clone(const Tensor& t) { return record_copy("CloneBackward0", t, ct::clone(t)); }
Ref<Tensor> contiguous(const Tensor& t) { return record_copy("CloneBackward0", t, ct::contiguous(t)); }
Ref<Tensor> to_dtype(const Tensor& t, DType dtype) { return record_copy("ToCopyBackward0", t, ct::to_dtype(t, dtype)); }
// Memory formats: torch's clone(memory_format=) is CloneBackward0, contiguous(memory_format=)
// goes through clone (so CloneBackward0 too), to(memory_format=) through _to_copy.
Ref<Tensor> clone_format(const Tensor& t, MemoryFormat f) {
  return record_copy("CloneBackward0", t, ct::clone_format(t, f));
}
Ref<Tensor> contiguous_format(const Tensor& t, MemoryFormat f) {
  return record_copy("CloneBackward0", t, ct::contiguous_format(t, f));
}
Ref<Tensor> to_format(const Tensor& t, DType dtype, MemoryFormat f, bool copy) {
  return record_copy("ToCopyBackward0", t, ct::to_format(t, dtype, f, copy));
}

namespace {
// index_select's backward: g added into zeros of the input's sizes at the indices.
Ref<Tensor> index_select_adjoint(const Tensor& g, const Tensor& index, int64_t d, const Shape& in_sizes) {
  const bool cx = is_complex(g.dtype());  // complex: two doubles per element (lanes)
  Ref<Tensor> idx = ct::to_dtype(*ct::contiguous(index), DType::Int64);
  idx = ct::contiguous(*idx);
  const int64_t* iv = reinterpret_cast<const int64_t*>(idx->raw_data());
  Ref<Tensor> z = full(in_sizes, 0.0, cx ? DType::Complex128 : DType::Float64, "backward");
  Ref<Tensor> g64 = as_f64_lanes(g, cx);
  if (in_sizes.empty()) {  // 0-dim input: every index is 0
    const int64_t w = cx ? 2 : 1;
    for (int64_t j = 0; j < idx->numel(); ++j)
      for (int64_t k = 0; k < w; ++k) f64(*z)[k] += f64(*g64)[j * w + k];
    return z;
  }
  Ref<Tensor> gv = from_lanes(g64, cx);  // g as contiguous float64 / complex128
  for (int64_t j = 0; j < idx->numel(); ++j) {
    Ref<Tensor> dst = ct::select(*z, d, iv[j]);
    Ref<Tensor> src = as_f64_lanes(*ct::select(*gv, d, j), cx);
    scatter_add(f64(*z), lanes(Geometry::of(*dst), cx), 0, f64(*src));
  }
  return z;
}
}  // namespace

Ref<Tensor> index_select(const Tensor& t, int64_t dim, const Tensor& index) {
  Ref<Tensor> r = ct::index_select(t, dim, index);
  if (__builtin_expect(needs_grad(t), 0)) {
    const int64_t d = t.ndim() == 0 ? 0 : (dim < 0 ? dim + t.ndim() : dim);
    Shape in_sizes(t.sizes().begin(), t.sizes().end());
    auto n = node("IndexSelectBackward0", {&t}, [d, in_sizes](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> index = retained(s.use(0));
      LinearFn f = [d, in_sizes, index](const Tensor& x) { return index_select_adjoint(x, *index, d, in_sizes); };
      LinearFn fwd = [d, index](const Tensor& h) { return ct::index_select(h, d, *index); };
      return {linear_grad(f(g), s, g, "IndexAddBackward0", f, fwd)};
    });
    n->hograd_ = true;
    n->save({&index});
    set_history(*r, std::move(n));
  }
  return r;
}

// Note [Copies of views]
// torch generates, for each view op, a *_copy op whose kernel is the view followed by
// clone(memory_format=contiguous) (torchgen's gen_functionalization_type), and whose
// derivative is the view's, recorded as "<node>_copy" (e.g. PermuteBackward0_copy).  The
// result is no view: new storage, own version counter, no base.
Ref<Tensor> copy_of_view(const char* name, const Tensor& t, const std::function<Ref<Tensor>(const Tensor&)>& view) {
  Ref<Tensor> v = view(t);
  Ref<Tensor> r = copy_to_new(*v, v->dtype());
  if (__builtin_expect(needs_grad(t), 0)) set_history(*r, view_node(name, t, Replay(view)));
  return r;
}

Ref<Tensor> as_strided_copy(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset) {
  Ref<Tensor> r = copy_to_new(*ct::as_strided(t, sizes, strides, storage_offset), t.dtype());
  if (__builtin_expect(needs_grad(t), 0))
    set_history(*r, make_strided_backward("AsStridedBackward0_copy", t, sizes, strides, storage_offset));
  return r;
}

Ref<Tensor> detach_copy(const Tensor& t) {
  Ref<Tensor> r = copy_to_new(t, t.dtype());
  if (__builtin_expect(needs_grad(t), 0)) set_history(*r, make_not_implemented("aten::detach_copy", {&t}));
  return r;
}

// ---- complex views and math bits ------------------------------------------------------------

namespace {
// A view op whose backward is `back` applied to the gradient.
template <class ViewFn, class Back>
Ref<Tensor> record_unary_view(const char* name, const Tensor& t, ViewFn&& f, Back back) {
  Ref<Tensor> r = f(t);
  if (r.get() == &t) return r;
  set_view_history(t, *r, [&] {
    return node(name, {&t}, [back](const Tensor& g, FnNode&) -> Grads { return {back(g)}; });
  });
  return r;
}
}  // namespace

Ref<Tensor> conj(const Tensor& t) {
  // grad.conj(), lazily as torch's: the bit toggles through chains of conj (a conj of a conj
  // gives no bit) and a leaf's AccumulateGrad may keep it (Note [Complex autograd])
  Ref<Tensor> r = ct::conj_view(t);
  if (r.get() == &t) return r;
  set_view_history(t, *r, [&] {
    auto n = node("ConjBackward0", {&t}, [](const Tensor& g, FnNode&) -> Grads {
      return {cg() ? ag::conj(g) : ct::conj_view(g)};
    });
    n->keeps_bits_ = true;
    return n;
  });
  return r;
}
Ref<Tensor> neg_view(const Tensor& t) {
  return record_unary_view("NegViewBackward0", t, ct::neg_view, [](const Tensor& g) { return neg(g); });
}
Ref<Tensor> view_as_real(const Tensor& t) {
  // the gradient, float (..., 2), read as complex
  // (under create_graph torch's formula, recorded: view_as_complex(grad.contiguous()))
  return record_unary_view("ViewAsRealBackward0", t, ct::view_as_real, [](const Tensor& g) {
    return cg() ? ag::view_as_complex(*ag::contiguous(g)) : from_lanes(as_f64(g), true);
  });
}
Ref<Tensor> view_as_complex(const Tensor& t) {
  return record_unary_view("ViewAsComplexBackward0", t, ct::view_as_complex, [](const Tensor& g) {
    return cg() ? ag::view_as_real(*ag::resolve_conj(g)) : as_f64_lanes(g, true);
  });
}
Ref<Tensor> conj_physical(const Tensor& t) {
  Ref<Tensor> r = ct::conj_physical(t);
  if (r.get() != &t && __builtin_expect(needs_grad(t), 0))
    set_history(*r, node("ConjPhysicalBackward0", {&t}, [](const Tensor& g, FnNode&) -> Grads { return {cj(g)}; }));
  return r;
}
void conj_physical_(const Tensor& self) {
  if (__builtin_expect(!needs_grad(self), 1) || !is_complex(self.dtype())) return ct::conj_physical_(self);
  check_inplace(self);
  auto n = node("ConjPhysicalBackward1", {&self}, [](const Tensor& g, FnNode&) -> Grads { return {cj(g)}; });
  ct::conj_physical_(self);
  rebase_history(self, std::move(n));
}
Ref<Tensor> resolve_conj(const Tensor& t) {
  return t.is_conj() ? record_copy("CloneBackward0", t, ct::resolve_conj(t)) : retained(t);
}
Ref<Tensor> resolve_neg(const Tensor& t) {
  return t.is_neg() ? record_copy("CloneBackward0", t, ct::resolve_neg(t)) : retained(t);
}
Ref<Tensor> real(const Tensor& t) {
  if (!is_complex(t.dtype())) return ct::real_view(t);  // t itself
  Ref<Tensor> pairs = t.is_conj() ? ag::view_as_real(*ag::conj(t)) : ag::view_as_real(t);
  return ag::select(*pairs, -1, 0);
}
Ref<Tensor> imag(const Tensor& t) {
  if (!is_complex(t.dtype())) return ct::imag_view(t);  // torch's refusal
  Ref<Tensor> pairs = t.is_conj() ? ag::neg_view(*ag::view_as_real(*ag::conj(t))) : ag::view_as_real(t);
  return ag::select(*pairs, -1, 1);
}

// ---- std / var and vector norms -------------------------------------------------------------

namespace {

// The reduced dims as a list (every dim when dims is empty), for ct::mean / ct::sum.
std::vector<int64_t> reduced_list(const ReduceInfo& ri) {
  std::vector<int64_t> r;
  for (size_t d = 0; d < ri.in_sizes.size(); ++d)
    if (ri.is_reduced(d)) r.push_back(int64_t(d));
  return r;
}

// torch's var_backward: (2 / (N - correction)) * grad * (x - x.mean(dims, keepdim=True)),
// grad shaped with the reduced dims kept.  N - correction = 0 gives inf (and nan), as torch.
Ref<Tensor> var_backward(const Tensor& gk, const Tensor& x, const ReduceInfo& ri, double correction) {
  const std::vector<int64_t> rd = reduced_list(ri);
  Ref<Tensor> centred = ag::binary(BinaryOp::Sub, Operand::of(x), Operand::of(*ag::mean(x, rd, true)));
  return mul(*mul(gk, 2.0 / (double(ri.count) - correction)), *centred);
}

// torch's std_backward: var_backward of grad / (2 std), 0 where std is 0.
Ref<Tensor> std_backward(const Tensor& gk, const Tensor& x, const Tensor& std_k, const ReduceInfo& ri,
                         double correction) {
  Ref<Tensor> gvar = div(gk, *mul(std_k, 2.0));
  Ref<Tensor> zero = ct::compare(CompareOp::Eq, Operand::of(std_k), Operand::of(0.0));
  return var_backward(*ag::where(*zero, *zero_like(*gvar), *gvar), x, ri, correction);
}

Ref<Tensor> var_node_grad(const Tensor& g, FnNode& s, const ReduceInfo& ri, double correction, bool take_sqrt) {
  Ref<Tensor> gk = keepdim_grad(g, ri.kept);
  if (!take_sqrt) return var_backward(*gk, s.use(0), ri, correction);
  return std_backward(*gk, s.use(0), *keepdim_grad(s.use(1), ri.kept), ri, correction);
}

// sgn(x): -1, 0 or 1 (nan for nan), in x's dtype.
Ref<Tensor> sgn(const Tensor& x) {
  Ref<Tensor> q = div(x, *ag::unary(UnaryOp::Abs, x));
  Ref<Tensor> zero = ct::compare(CompareOp::Eq, Operand::of(x), Operand::of(0.0));
  return ag::where(*zero, *zero_like(*q), *q);
}

Ref<Tensor> pow_scalar(const Tensor& x, double e) {
  return ag::math_binary(MathOp::Pow, Operand::of(x), Operand::of(e));
}

// where(mask, 0, t)
Ref<Tensor> zero_where(const Tensor& mask, const Tensor& t) { return ag::where(mask, *zero_like(t), t); }

// torch's norm_backward (FunctionsManual.cpp) for the gradient gk and the norm nk, both
// shaped with the reduced dims kept.
Ref<Tensor> norm_backward(const Tensor& gk, const Tensor& x, const Tensor& nk, double p, const ReduceInfo& ri) {
  auto eq0 = [](const Tensor& t) { return ct::compare(CompareOp::Eq, Operand::of(t), Operand::of(0.0)); };
  if (p == 0.0) return Ref<Tensor>();  // no gradient at all (x.grad stays None), as torch
  if (p == 1.0) return mul(*sgn(x), gk);
  if (p == 2.0) return mul(gk, *zero_where(*eq0(nk), *div(x, nk)));
  Ref<Tensor> ax = ag::unary(UnaryOp::Abs, x);
  if (std::isinf(p)) {
    // the gradient shared evenly among the elements equal to the norm, or that are nan
    Ref<Tensor> hit = ct::compare(CompareOp::Eq, Operand::of(*ax), Operand::of(nk));
    Ref<Tensor> nan = ct::compare(CompareOp::Ne, Operand::of(*ax), Operand::of(*ax));
    Ref<Tensor> mask = ag::where(*nan, *nan, *hit);
    Ref<Tensor> count = ag::to_dtype(*ag::sum(*mask, reduced_list(ri), true), gk.dtype());
    return mul(*sgn(x), *mul(*div(gk, *count), *ag::to_dtype(*mask, gk.dtype())));
  }
  if (p < 1.0) {
    Ref<Tensor> scaled = zero_where(*eq0(x), *mul(*sgn(x), *pow_scalar(*ax, p - 1.0)));
    return mul(*mul(*scaled, gk), *pow_scalar(nk, 1.0 - p));
  }
  Ref<Tensor> scaled = p < 2.0 ? mul(*sgn(x), *pow_scalar(*ax, p - 1.0)) : mul(x, *pow_scalar(*ax, p - 2.0));
  Ref<Tensor> scale = zero_where(*eq0(nk), *div(gk, *pow_scalar(nk, p - 1.0)));
  return mul(*scaled, *scale);
}

}  // namespace

Ref<Tensor> var(const Tensor& t, std::span<const int64_t> dims, double correction, bool keepdim, bool take_sqrt) {
  Ref<Tensor> r = ct::var(t, dims, correction, keepdim, take_sqrt);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    auto n = node(take_sqrt ? "StdBackward0" : "VarBackward0", {&t},
                  [ri, correction, take_sqrt](const Tensor& g, FnNode& s) -> Grads {
                    return {var_node_grad(g, s, ri, correction, take_sqrt)};
                  });
    n->save({&t}, take_sqrt ? r.get() : nullptr);
    set_history(*r, std::move(n));
  }
  return r;
}

// ---- repeat, flip, roll ------------------------------------------------------------------

namespace {
// repeat's gradient: g viewed with each repeated dim split into (reps[i], size_i), summed
// over the repeat parts; leading padded dims are summed away.
Ref<Tensor> repeat_backward(const Tensor& g, const Shape& in_sizes, const Shape& reps) {
  const size_t pad = reps.size() - in_sizes.size();
  Shape split;
  std::vector<int64_t> rdims;
  for (size_t i = 0; i < reps.size(); ++i) {
    const int64_t s = i < pad ? 1 : in_sizes[i - pad];
    if (i < pad || reps[i] != 1) rdims.push_back(int64_t(split.size())), split.push_back(reps[i]);
    if (i >= pad) split.push_back(s);
  }
  if (rdims.empty()) return retained(g);
  Ref<Tensor> r = ag::sum(*v_reshape(*v_contiguous(g), split), rdims, false);
  return v_reshape(*r, in_sizes);
}

Ref<Tensor> record_repeat(const Tensor& t, IntList reps, Ref<Tensor> r) {
  if (__builtin_expect(!needs_grad(t), 1)) return r;
  Shape in_sizes(t.sizes().begin(), t.sizes().end());
  Shape padded_reps(reps.begin(), reps.end());
  if (padded_reps.size() < in_sizes.size()) padded_reps.insert(padded_reps.begin(), in_sizes.size() - reps.size(), 1);
  set_history(*r, node("RepeatBackward0", {&t}, [in_sizes, padded_reps](const Tensor& g, FnNode&) -> Grads {
                return {repeat_backward(g, in_sizes, padded_reps)};
              }));
  return r;
}
}  // namespace

Ref<Tensor> repeat(const Tensor& t, IntList reps) { return record_repeat(t, reps, ct::repeat(t, reps)); }
Ref<Tensor> tile(const Tensor& t, IntList reps) { return record_repeat(t, reps, ct::tile(t, reps)); }

Ref<Tensor> flip(const Tensor& t, IntList dims) {
  Ref<Tensor> r = ct::flip(t, dims);
  if (__builtin_expect(needs_grad(t), 0)) {
    Shape d(dims.begin(), dims.end());
    set_history(*r, node("FlipBackward0", {&t},
                         [d](const Tensor& g, FnNode&) -> Grads { return {ag::flip(g, d)}; }));
  }
  return r;
}

std::pair<Ref<Tensor>, Ref<Tensor>> var_mean(const Tensor& t, std::span<const int64_t> dims, double correction,
                                             bool keepdim, bool take_sqrt) {
  const char* name = take_sqrt ? "std_mean" : "var_mean";
  Ref<Tensor> v = ct::var(t, dims, correction, keepdim, take_sqrt, name);
  Ref<Tensor> m = ct::mean(t, dims, keepdim);
  if (__builtin_expect(needs_grad(t), 0)) {
    const char* node_name = take_sqrt ? "StdMeanBackward0" : "VarMeanBackward0";
    ReduceInfo ri = reduce_info(t, dims);
    auto nv = node(node_name, {&t}, [ri, correction, take_sqrt](const Tensor& g, FnNode& s) -> Grads {
      return {var_node_grad(g, s, ri, correction, take_sqrt)};
    });
    nv->save({&t}, take_sqrt ? v.get() : nullptr);
    set_history(*v, std::move(nv));
    set_history(*m, node(node_name, {&t}, [ri](const Tensor& g, FnNode&) -> Grads {
                  return {v_expand(*div(*keepdim_grad(g, ri.kept), double(ri.count)), ri.in_sizes)};
                }));
  }
  return {std::move(v), std::move(m)};
}

Ref<Tensor> vector_norm(const Tensor& t, double ord, std::span<const int64_t> dims, bool keepdim,
                        std::optional<DType> dtype) {
  Ref<Tensor> r = ct::vector_norm(t, ord, dims, keepdim, dtype);
  if (__builtin_expect(needs_grad(t), 0)) {
    ReduceInfo ri = reduce_info(t, dims);
    auto n = node("LinalgVectorNormBackward0", {&t}, [ri, ord](const Tensor& g, FnNode& s) -> Grads {
      return {norm_backward(*keepdim_grad(g, ri.kept), s.use(0), *keepdim_grad(s.use(1), ri.kept), ord, ri)};
    });
    n->save({&t}, r.get());
    set_history(*r, std::move(n));
  }
  return r;
}

Ref<Tensor> roll(const Tensor& t, IntList shifts, IntList dims) {
  Ref<Tensor> r = ct::roll(t, shifts, dims);
  if (__builtin_expect(needs_grad(t), 0)) {
    // The gradient rolls back: shifts reduced modulo the rolled size first, so negating
    // one never overflows (INT64_MIN).
    Shape back, d(dims.begin(), dims.end());
    for (size_t k = 0; k < shifts.size(); ++k) {
      const int64_t n = dims.empty() ? t.numel() : t.size(wrap_dim(dims[k], t.ndim()));
      back.push_back(n == 0 ? 0 : n - ((shifts[k] % n) + n) % n);
    }
    set_history(*r, node("RollBackward0", {&t},
                         [back, d](const Tensor& g, FnNode&) -> Grads { return {ag::roll(g, back, d)}; }));
  }
  return r;
}

// ---- gather / scatter / index_* / take / put / index_put (core/gather_scatter.h) ----------
// Each op records torch 2.13's node; backward uses the same core ops on the gradient
// (torch's derivatives.yaml formulas).  The in-place forms rebase self's history; their
// formulas for self never need self's old values.

namespace {

// A gradient for an input of `sizes` read from a gradient picked along the op's index
// (index_select / take / gather results): reshaped when the counts agree but the ranks differ
// (a 0-dim source or value), otherwise as is (the engine reduces broadcast gradients).
Ref<Tensor> shaped_like(Ref<Tensor> g, const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  if (g->numel() == n && size_t(g->ndim()) != sizes.size()) return ct::reshape(*ct::contiguous(*g), sizes);
  return g;
}

Shape sizes_of(const Tensor* t) { return t ? Shape(t->sizes().begin(), t->sizes().end()) : Shape(); }

// Records n on the result (out-of-place) or rebases self's history (in-place, after write()).
Ref<Tensor> finish(const Tensor& self, bool inplace, bool record, const std::function<std::shared_ptr<FnNode>()>& make,
                   const std::function<Ref<Tensor>()>& run) {
  if (!record) return run();
  if (inplace) check_inplace(self);
  std::shared_ptr<FnNode> n = make();
  Ref<Tensor> r = run();
  if (inplace) rebase_history(self, std::move(n));
  else set_history(*r, std::move(n));
  return r;
}

}  // namespace

Ref<Tensor> gather(const Tensor& self, int64_t dim, const Tensor& index) {
  Ref<Tensor> r = ct::gather(self, dim, index);
  if (__builtin_expect(needs_grad(self), 0)) {
    const int64_t d = wrap_dim(dim, self.ndim());
    const Shape in_sizes = sizes_of(&self);
    auto n = node("GatherBackward0", {&self}, [d, in_sizes](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> index = retained(s.use(0));
      LinearFn f = [d, in_sizes, index](const Tensor& x) {
        Ref<Tensor> z = full(in_sizes, 0.0, x.dtype(), "backward");
        ct::scatter_(*z, d, *index, &x, 0.0, ScatterReduce::Add, "scatter_add");
        return z;
      };
      LinearFn fwd = [d, index](const Tensor& h) { return ct::gather(h, d, *index); };
      return {linear_grad(f(g), s, g, "ScatterAddBackward0", f, fwd)};
    });
    n->hograd_ = true;
    n->save({&index});
    set_history(*r, std::move(n));
  }
  return r;
}

Ref<Tensor> scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
                    ScatterReduce reduce, bool is_add, bool inplace) {
  const char* op = is_add ? "scatter_add" : "scatter";
  const ScatterReduce how = is_add ? ScatterReduce::Add : reduce;
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::scatter(self, dim, index, src, value, how, op);
    ct::scatter_(self, dim, index, src, value, how, op);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, src}), 1)) return run();
  const int64_t d = wrap_dim(dim, self.ndim());
  auto make = [&]() -> std::shared_ptr<FnNode> {
    std::shared_ptr<FnNode> n;
    if (is_add) {
      n = node("ScatterAddBackward0", {&self, src}, [d](const Tensor& g, FnNode& s) -> Grads {
        return {s.wants(0) ? retained(g) : Ref<Tensor>(), s.wants(1) ? ct::gather(g, d, s.use(0)) : Ref<Tensor>()};
      });
    } else if (src) {
      n = node("ScatterBackward0", {&self, src}, [d](const Tensor& g, FnNode& s) -> Grads {
        return {s.wants(0) ? ct::scatter(g, d, s.use(0), nullptr, 0.0, ScatterReduce::None, "scatter") : Ref<Tensor>(),
                s.wants(1) ? ct::gather(g, d, s.use(0)) : Ref<Tensor>()};
      });
    } else {
      n = node("ScatterBackward1", {&self}, [d](const Tensor& g, FnNode& s) -> Grads {
        return {ct::scatter(g, d, s.use(0), nullptr, 0.0, ScatterReduce::None, "scatter")};
      });
    }
    n->save({&index});
    return n;
  };
  if (!is_add && reduce != ScatterReduce::None) {  // torch 2.13 has no derivative: NotImplemented
    if (inplace) check_inplace(self);
    auto n = src ? make_not_implemented("aten::scatter.reduce", {&self, src})
                 : make_not_implemented("aten::scatter.value_reduce", {&self});
    Ref<Tensor> r = run();
    if (inplace) rebase_history(self, std::move(n));
    else set_history(*r, std::move(n));
    return r;
  }
  return finish(self, inplace, true, make, run);
}

namespace {
Ref<Tensor> mul_t(const Tensor& a, const Tensor& b) { return ct::binary(BinaryOp::Mul, Operand::of(a), Operand::of(b)); }
Ref<Tensor> div_t(const Tensor& a, const Tensor& b) { return ct::binary(BinaryOp::Div, Operand::of(a), Operand::of(b)); }
Ref<Tensor> eq_t(const Tensor& a, const Tensor& b) { return ct::compare(CompareOp::Eq, Operand::of(a), Operand::of(b)); }
Ref<Tensor> eq_n(const Tensor& a, double b) { return ct::compare(CompareOp::Eq, Operand::of(a), Operand::of(b)); }
Ref<Tensor> scatter_add_t(const Tensor& self, int64_t d, const Tensor& index, const Tensor& src) {
  return ct::scatter(self, d, index, &src, 0.0, ScatterReduce::Add, "scatter_add");
}

// torch 2.13's scatter_reduce_backward (FunctionsManual.cpp) for self and src, from the
// saved index, self (its value before an in-place call) and src; the result is recomputed.
Grads scatter_reduce_grads(const Tensor& g, int64_t d, const Tensor& index, const Tensor& self, const Tensor& src,
                           ScatterReduceOp op, bool include_self) {
  Ref<Tensor> gself, gsrc;
  const Shape self_sizes = sizes_of(&self);
  if (op == ScatterReduceOp::Sum) {
    gself = retained(g);
    gsrc = ct::gather(g, d, index);
  } else if (op == ScatterReduceOp::Mean) {
    Ref<Tensor> n = full(self_sizes, include_self ? 1.0 : 0.0, g.dtype(), "backward");
    n = scatter_add_t(*n, d, index, *full(sizes_of(&src), 1.0, g.dtype(), "backward"));
    ct::masked_fill_(*n, *eq_n(*n, 0.0), 1.0);
    gself = div_t(g, *n);
    gsrc = ct::gather(*gself, d, index);
  } else if (op == ScatterReduceOp::Prod) {
    // zeros in self or src get their exclusive product, as torch computes it
    const Ref<Tensor> result = ct::scatter_reduce(self, d, index, src, op, include_self);
    const Ref<Tensor> masked_self = ct::masked_fill(self, *eq_n(self, 0.0), 1.0);
    const Ref<Tensor> masked_self_result = ct::scatter_reduce(*masked_self, d, index, src, op, include_self);
    gself = div_t(*mul_t(g, *masked_self_result), *masked_self);
    const Ref<Tensor> src_zero = eq_n(src, 0.0);
    const Ref<Tensor> zeros = full(self_sizes, 0.0, self.dtype(), "backward");
    const Ref<Tensor> src_num_zeros =
        ct::gather(*scatter_add_t(*zeros, d, index, *ct::to_dtype(*src_zero, self.dtype())), d, index);
    const Ref<Tensor> single = ct::binary(BinaryOp::Mul, Operand::of(*src_zero), Operand::of(*eq_n(*src_num_zeros, 1.0)));
    const Ref<Tensor> src_single_zero = ct::to_dtype(*single, DType::Bool);
    const Ref<Tensor> masked_src = ct::masked_fill(src, *src_single_zero, 1.0);
    const Ref<Tensor> masked_src_result = ct::scatter_reduce(self, d, index, *masked_src, op, include_self);
    gsrc = ct::where(*src_single_zero, *ct::gather(*mul_t(g, *masked_src_result), d, index),
                     *div_t(*ct::gather(*mul_t(g, *result), d, index), *ct::masked_fill(src, *src_zero, 1.0)));
  } else {  // amax / amin: the gradient is shared evenly by the elements equal to the result
    const Ref<Tensor> result = ct::scatter_reduce(self, d, index, src, op, include_self);
    const Ref<Tensor> value = ct::gather(*result, d, index);
    const Ref<Tensor> self_is = eq_t(self, *result), src_is = eq_t(src, *value);
    const Ref<Tensor> n = scatter_add_t(*ct::to_dtype(*self_is, self.dtype()), d, index, *ct::to_dtype(*src_is, self.dtype()));
    const Ref<Tensor> shared = div_t(g, *n);
    gself = mul_t(*self_is, *shared);
    gsrc = mul_t(*src_is, *ct::gather(*shared, d, index));
  }
  if (!include_self) gself = ct::scatter(*gself, d, index, nullptr, 0.0, ScatterReduce::None, "scatter");
  return {gself, gsrc};
}
}  // namespace

Ref<Tensor> scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const char* reduce,
                           bool include_self, bool inplace) {
  const ScatterReduceOp op = scatter_reduce_op(reduce);
  const bool legacy_name = reduce[1] != 'm' && (op == ScatterReduceOp::Amax || op == ScatterReduceOp::Amin);
  const std::string name = reduce;
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::scatter_reduce(self, dim, index, src, op, include_self);
    ct::scatter_reduce_(self, dim, index, src, op, include_self);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, &src}), 1)) return run();
  const int64_t d = wrap_dim(dim, self.ndim());
  // backward reads self's values before the call (a copy when the call overwrites them)
  const Ref<Tensor> original = inplace ? ct::clone(self) : retained(self);
  return finish(self, inplace, true, [&] {
    auto n = node("ScatterReduceBackward0", {&self, &src}, [d, op, include_self, legacy_name, name](const Tensor& g, FnNode& s) -> Grads {
      CT_CHECK(!legacy_name, InvalidArgument,
               "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got " << name << ".");
      Grads r = scatter_reduce_grads(g, d, s.use(0), s.use(1), s.use(2), op, include_self);
      if (!s.wants(0)) r[0] = Ref<Tensor>();
      if (!s.wants(1)) r[1] = Ref<Tensor>();
      return r;
    });
    n->save({&index, original.get(), &src});
    return n;
  }, run);
}

Ref<Tensor> index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha,
                      bool inplace) {
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::index_add(self, dim, index, source, alpha);
    ct::index_add_(self, dim, index, source, alpha);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, &source}), 1)) return run();
  const int64_t d = wrap_dim(dim, self.ndim());
  const Shape src_sizes = sizes_of(&source);
  return finish(self, inplace, true, [&] {
    auto n = node("IndexAddBackward0", {&self, &source}, [d, alpha, src_sizes](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> gs;
      if (s.wants(1)) {
        gs = ct::index_select(g, d, s.use(0));
        if (alpha != 1.0) gs = mul(*gs, alpha);
        gs = shaped_like(gs, src_sizes);
      }
      return {s.wants(0) ? retained(g) : Ref<Tensor>(), gs};
    });
    n->save({&index});
    return n;
  }, run);
}

Ref<Tensor> index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, bool inplace) {
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::index_copy(self, dim, index, source);
    ct::index_copy_(self, dim, index, source);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, &source}), 1)) return run();
  const int64_t d = wrap_dim(dim, self.ndim());
  const Shape src_sizes = sizes_of(&source);
  return finish(self, inplace, true, [&] {
    auto n = node("IndexCopyBackward0", {&self, &source}, [d, src_sizes](const Tensor& g, FnNode& s) -> Grads {
      return {s.wants(0) ? ct::index_fill(g, d, s.use(0), nullptr, 0.0) : Ref<Tensor>(),
              s.wants(1) ? shaped_like(ct::index_select(g, d, s.use(0)), src_sizes) : Ref<Tensor>()};
    });
    n->save({&index});
    return n;
  }, run);
}

Ref<Tensor> index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number,
                       bool inplace) {
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::index_fill(self, dim, index, value, number);
    ct::index_fill_(self, dim, index, value, number);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, value}), 1)) return run();
  const int64_t d = wrap_dim(dim, self.ndim());
  return finish(self, inplace, true, [&] {
    std::shared_ptr<FnNode> n;
    if (value) {
      n = node("IndexFillBackward1", {&self, value}, [d](const Tensor& g, FnNode& s) -> Grads {
        return {s.wants(0) ? ct::index_fill(g, d, s.use(0), nullptr, 0.0) : Ref<Tensor>(),
                s.wants(1) ? ct::sum(*ct::index_select(g, d, s.use(0)), {}, false) : Ref<Tensor>()};
      });
    } else {
      n = node("IndexFillBackward0", {&self}, [d](const Tensor& g, FnNode& s) -> Grads {
        return {ct::index_fill(g, d, s.use(0), nullptr, 0.0)};
      });
    }
    n->save({&index});
    return n;
  }, run);
}

Ref<Tensor> take(const Tensor& self, const Tensor& index) {
  Ref<Tensor> r = ct::take(self, index);
  if (__builtin_expect(needs_grad(self), 0)) {
    const Shape in_sizes = sizes_of(&self);
    auto n = node("TakeBackward0", {&self}, [in_sizes](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> z = full(in_sizes, 0.0, g.dtype(), "backward");
      ct::put_(*z, s.use(0), g, true);
      return {z};
    });
    n->save({&index});
    set_history(*r, std::move(n));
  }
  return r;
}

Ref<Tensor> put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate, bool inplace) {
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::put(self, index, source, accumulate);
    ct::put_(self, index, source, accumulate);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, &source}), 1)) return run();
  const Shape src_sizes = sizes_of(&source);
  return finish(self, inplace, true, [&] {
    auto n = node("PutBackward0", {&self, &source}, [accumulate, src_sizes](const Tensor& g, FnNode& s) -> Grads {
      Ref<Tensor> gself;
      if (s.wants(0)) {
        gself = accumulate ? retained(g) : ct::put(g, s.use(0), *full(src_sizes, 0.0, g.dtype(), "backward"), false);
      }
      return {gself, s.wants(1) ? shaped_like(ct::take(g, s.use(0)), src_sizes) : Ref<Tensor>()};
    });
    n->save({&index});
    return n;
  }, run);
}

namespace {
// An index list with holes (nullptr: a whole dim) saved on a node: the defined tensors in
// s.saved, which positions they fill in `defined`.
std::vector<bool> save_index_list(FnNode& n, std::span<const Tensor* const> indices) {
  std::vector<bool> defined;
  for (const Tensor* t : indices) {
    defined.push_back(t != nullptr);
    if (!t) continue;
    n.saved.emplace_back();
    n.saved.back().save(*t);
  }
  n.has_saved = true;
  return defined;
}

// The saved index list back, holes included; `keep` owns the tensors.
std::vector<const Tensor*> use_index_list(FnNode& s, const std::vector<bool>& defined, std::vector<Ref<Tensor>>& keep) {
  std::vector<const Tensor*> ix;
  size_t k = 0;
  for (bool d : defined) {
    if (!d) {
      ix.push_back(nullptr);
      continue;
    }
    keep.push_back(retained(s.use(k++)));
    ix.push_back(keep.back().get());
  }
  return ix;
}
}  // namespace

Ref<Tensor> index_put(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values,
                      bool accumulate, bool inplace) {
  auto run = [&]() -> Ref<Tensor> {
    if (!inplace) return ct::index_put(self, indices, values, accumulate);
    ct::index_put_(self, indices, values, accumulate);
    return retained(self);
  };
  if (__builtin_expect(!any_needs({&self, &values}), 1)) return run();
  return finish(self, inplace, true, [&] {
    auto defined = std::make_shared<std::vector<bool>>();
    auto n = node("IndexPutBackward0", {&self, &values}, [accumulate, defined](const Tensor& g, FnNode& s) -> Grads {
      std::vector<Ref<Tensor>> keep;
      const std::vector<const Tensor*> ix = use_index_list(s, *defined, keep);
      Ref<Tensor> gself;
      if (s.wants(0)) {
        gself = accumulate ? retained(g) : ct::index_put(g, ix, *full({}, 0.0, g.dtype(), "backward"), false);
      }
      return {gself, s.wants(1) ? ct::index_get(g, ix) : Ref<Tensor>()};
    });
    *defined = save_index_list(*n, indices);
    return n;
  }, run);
}

Ref<Tensor> index(const Tensor& self, std::span<const Tensor* const> indices) {
  Ref<Tensor> r = ct::index_get(self, indices);
  if (__builtin_expect(needs_grad(self), 0)) {
    const Shape in_sizes = sizes_of(&self);
    auto defined = std::make_shared<std::vector<bool>>();
    // torch's index_backward: zeros of self's sizes with the gradient accumulated at the indices.
    auto n = node("IndexBackward0", {&self}, [in_sizes, defined](const Tensor& g, FnNode& s) -> Grads {
      auto keep = std::make_shared<std::vector<Ref<Tensor>>>();
      auto ix = std::make_shared<std::vector<const Tensor*>>(use_index_list(s, *defined, *keep));
      LinearFn f = [in_sizes, keep, ix](const Tensor& x) {
        Ref<Tensor> z = full(in_sizes, 0.0, x.dtype(), "backward");
        ct::index_put_(*z, *ix, x, true);
        return z;
      };
      LinearFn fwd = [keep, ix](const Tensor& h) { return ct::index_get(h, *ix); };
      return {linear_grad(f(g), s, g, "IndexPutImplBackward0", f, fwd)};
    });
    n->hograd_ = true;
    *defined = save_index_list(*n, indices);
    set_history(*r, std::move(n));
  }
  return r;
}

}  // namespace ct::ag

// ---- scans, sort, topk, clamp ----------------------------------------------------------------

namespace ct::ag {
namespace {

// cumsum's gradient: the reversed cumulative sum of g along dim.
Ref<Tensor> cumsum_backward(const Tensor& g, int64_t dim) {
  if (g.ndim() == 0) return retained(g);
  const int64_t d[1] = {dim};
  return ag::flip(*ag::cumsum(*ag::flip(g, IntList(d, 1)), dim, std::nullopt), IntList(d, 1));
}

std::shared_ptr<FnNode> scan_node(bool product, const Tensor& input, int64_t dim) {
  if (!product) {
    return node("CumsumBackward0", {&input},
                [dim](const Tensor& g, FnNode&) -> Grads { return {cumsum_backward(g, dim)}; });
  }
  return node("CumprodBackward0", {&input},
              [dim](const Tensor& g, FnNode& s) -> Grads { return {ct::cumprod_backward(g, s.use(0), dim)}; });
}

Ref<Tensor> record_scan(bool product, const Tensor& t, int64_t dim, Ref<Tensor> r) {
  if (__builtin_expect(needs_grad(t), 0)) {
    std::shared_ptr<FnNode> n = scan_node(product, t, dim);
    if (product) n->save({&t});
    set_history(*r, std::move(n));
  }
  return r;
}

void scan_inplace(bool product, const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  auto run = [&] { product ? ct::cumprod_(self, dim, dtype) : ct::cumsum_(self, dim, dtype); };
  if (__builtin_expect(!needs_grad(self), 1)) return run();
  check_inplace(self);
  std::shared_ptr<FnNode> n = scan_node(product, self, dim);
  Ref<Tensor> original = product ? ct::clone(self) : Ref<Tensor>();
  run();
  if (product) n->save({original.get()});
  rebase_history(self, std::move(n));
}

// The selection's gradient: g scattered to the selected positions (sort, topk).
Ref<Tensor> record_selection(const char* name, const Tensor& t, int64_t dim, ValuesIndices r) {
  if (__builtin_expect(needs_grad(t), 0)) {
    Shape in_sizes(t.sizes().begin(), t.sizes().end());
    auto n = node(name, {&t}, [in_sizes, dim](const Tensor& g, FnNode& s) -> Grads {
      return {ct::scatter_along_dim(g, s.use(0), dim, in_sizes)};
    });
    n->save({r.indices.get()});
    set_history(*r.values, std::move(n));
  }
  return std::move(r.values);
}

const char* clamp_node_name(const char* op, bool tensor_bounds) {
  const std::string o(op);  // the in-place forms (clamp_min_, ...) record the same nodes
  if (o.rfind("clamp_min", 0) == 0) return tensor_bounds ? "ClampMinBackward1" : "ClampMinBackward0";
  if (o.rfind("clamp_max", 0) == 0) return tensor_bounds ? "ClampMaxBackward1" : "ClampMaxBackward0";
  return tensor_bounds ? "ClampBackward0" : "ClampBackward1";
}

Ref<Tensor> cmp(CompareOp op, const Tensor& a, const Tensor& b) {
  return ct::compare(op, Operand::of(a), Operand::of(b));
}

// torch's clamp_backward and clamp_backward_min_max: self takes g where lo <= x <= hi; a
// tensor lo takes g where x < lo (and lo < hi when both are given), a tensor hi where x > hi
// (or hi < lo).  Bounds are saved as tensors of the result dtype (scalars as 0-dim).
Grads clamp_grads(const Tensor& g, FnNode& s, bool has_lo, bool has_hi, bool lo_is_input, bool hi_is_input) {
  const Tensor& x = s.use(0);
  Ref<Tensor> lo = has_lo ? retained(s.use(1)) : Ref<Tensor>();
  Ref<Tensor> hi = has_hi ? retained(s.use(2)) : Ref<Tensor>();
  Ref<Tensor> z = zero_like(g);
  Grads out(1 + size_t(lo_is_input) + size_t(hi_is_input));
  if (s.wants(0)) {
    Ref<Tensor> gx = retained(g);
    if (has_lo) gx = ag::where(*cmp(CompareOp::Ge, x, *lo), *gx, *z);
    if (has_hi) gx = ag::where(*cmp(CompareOp::Le, x, *hi), *gx, *z);
    out[0] = gx;
  }
  size_t slot = 1;
  if (lo_is_input) {
    if (s.wants(slot)) {
      Ref<Tensor> gl = ag::where(*cmp(CompareOp::Lt, x, *lo), g, *z);
      if (has_hi) gl = ag::where(*cmp(CompareOp::Lt, *lo, *hi), *gl, *z);
      out[slot] = gl;
    }
    ++slot;
  }
  if (hi_is_input && s.wants(slot)) {
    Ref<Tensor> above = cmp(CompareOp::Gt, x, *hi);
    if (has_lo) above = ag::where(*cmp(CompareOp::Lt, *hi, *lo), *full({}, 1.0, DType::Bool), *above);
    out[slot] = ag::where(*above, g, *z);
  }
  return out;
}

Ref<Tensor> saved_bound(const ClampBound& b, DType d) {
  if (b.tensor) return Ref<Tensor>::retain(const_cast<Tensor*>(b.tensor));
  Ref<Tensor> s = full({}, 0.0, d, "clamp");
  fill_elements(*s, b.scalar);
  return s;
}

// The clamp node for inputs (x, and the tensor bounds), saving x_values (x before an
// in-place write) and the bounds.
std::shared_ptr<FnNode> clamp_node(const Tensor& x, const Tensor& x_values, const ClampBound& lo,
                                   const ClampBound& hi, const char* op, DType d) {
  const bool tensors = lo.tensor || hi.tensor;
  const bool has_lo = lo.present(), has_hi = hi.present();
  const bool lo_in = lo.tensor != nullptr, hi_in = hi.tensor != nullptr;
  auto n = std::make_shared<FnNode>(clamp_node_name(op, tensors), [=](const Tensor& g, FnNode& s) -> Grads {
    return clamp_grads(g, s, has_lo, has_hi, lo_in, hi_in);
  });
  n->add_input(x);
  if (lo_in) n->add_input(*lo.tensor);
  if (hi_in) n->add_input(*hi.tensor);
  const Ref<Tensor> l = has_lo ? saved_bound(lo, d) : Ref<Tensor>();
  const Ref<Tensor> h = has_hi ? saved_bound(hi, d) : Ref<Tensor>();
  n->save({&x_values, l.get(), h.get()});
  return n;
}

}  // namespace

Ref<Tensor> cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  return record_scan(false, t, dim, ct::cumsum(t, dim, dtype));
}
Ref<Tensor> cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  return record_scan(true, t, dim, ct::cumprod(t, dim, dtype));
}
void cumsum_(const Tensor& self, int64_t dim, std::optional<DType> dtype) { scan_inplace(false, self, dim, dtype); }
void cumprod_(const Tensor& self, int64_t dim, std::optional<DType> dtype) { scan_inplace(true, self, dim, dtype); }

ValuesIndices sort(const Tensor& t, int64_t dim, bool descending, bool stable) {
  ValuesIndices r = ct::sort(t, dim, descending, stable);
  Ref<Tensor> idx = r.indices;
  Ref<Tensor> v = record_selection("SortBackward0", t, dim, std::move(r));
  return {std::move(v), std::move(idx)};
}

ValuesIndices topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted) {
  ValuesIndices r = ct::topk(t, k, dim, largest, sorted);
  Ref<Tensor> idx = r.indices;
  Ref<Tensor> v = record_selection("TopkBackward0", t, dim, std::move(r));
  return {std::move(v), std::move(idx)};
}

Ref<Tensor> clamp(const Tensor& t, const ClampBound& lo, const ClampBound& hi, const char* op) {
  Ref<Tensor> r = ct::clamp(t, lo, hi, op);
  if (__builtin_expect(any_needs({&t, lo.tensor, hi.tensor}), 0)) set_history(*r, clamp_node(t, t, lo, hi, op, r->dtype()));
  return r;
}

void clamp_(const Tensor& self, const ClampBound& lo, const ClampBound& hi, const char* op) {
  if (__builtin_expect(!any_needs({&self, lo.tensor, hi.tensor}), 1)) return ct::clamp_(self, lo, hi, op);
  check_inplace(self);
  Ref<Tensor> original = ct::clone(self);
  ct::clamp_(self, lo, hi, op);
  rebase_history(self, clamp_node(self, *original, lo, hi, op, self.dtype()));
}

}  // namespace ct::ag
