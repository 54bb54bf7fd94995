// Autograd through the public header: gradients of every differentiable op checked against
// central finite differences in float64, torch 1.13's grad_fn names, error messages and repr
// suffixes, in-place rules (CopySlices, version checks), no_grad, detach, and that graphs
// leave no tensors behind (the CtTest fixture compares ct_live_tensors() before and after).
//
// Expected strings were produced with Debian's /usr/bin/python3 and torch 1.13; the torch
// expression is written next to each.
#include <array>
#include <functional>
#include <random>

#include "test_helpers.h"

// A ct_status call that must fail with exactly `status` and a message containing substr.
#define CT_EXPECT_STATUS(expr, status, substr) CT_EXPECT_FAIL(expr, status, status, substr)

namespace {

using ctt::TensorRef;
using In = std::vector<ct_tensor*>;
using Fn = std::function<ct_tensor*(const In&)>;

struct Shape {
  std::vector<int64_t> sizes;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

enum class Init { Normal, Positive, WithZeros };

ct_tensor* make_input(const Shape& s, Init init, std::mt19937& rng) {
  std::normal_distribution<double> nd;
  std::vector<double> v(size_t(s.numel()));
  for (double& x : v) {
    x = nd(rng);
    if (init == Init::Positive) x = std::abs(x) + 0.5;
    if (std::abs(x) < 0.05) x += 0.2;  // keep away from kinks (abs, relu)
  }
  if (init == Init::WithZeros && v.size() >= 3) {
    v[0] = 0;  // one zero in some groups, two in others
    v[v.size() - 1] = 0;
    v[v.size() / 2] = 0;
  }
  ct_tensor* t = ct_from_data(v.data(), int(s.sizes.size()), s.sizes.data(), CT_FLOAT64);
  EXPECT_EQ(ct_set_requires_grad(t, 1), CT_OK) << ctt::last_error_str();
  return t;
}

// sum(f(inputs) * w) with fixed random weights w, so every output element gets its own
// gradient.  Returns the loss as a double (under no_grad) or the loss tensor.
ct_tensor* weighted_loss(const Fn& f, const In& in, std::vector<double>& w, std::mt19937& rng) {
  TensorRef y(f(in));
  if (!y.get()) {
    ADD_FAILURE() << "f failed: " << ctt::last_error_str();
    return nullptr;
  }
  const int64_t n = ct_tensor_numel(y);
  if (w.empty()) {
    std::normal_distribution<double> nd;
    w.resize(size_t(n));
    for (double& x : w) x = nd(rng);
  }
  TensorRef wt(ct_from_data(w.data(), ct_tensor_ndim(y), ct_tensor_sizes(y), CT_FLOAT64));
  TensorRef prod(ct_mul(y, wt));
  return ct_sum(prod, 0, nullptr, 0);
}

double loss_value(const Fn& f, const In& in, std::vector<double>& w, std::mt19937& rng) {
  const int prev = ct_set_grad_enabled(0);
  TensorRef l(weighted_loss(f, in, w, rng));
  ct_set_grad_enabled(prev);
  double v = NAN;
  if (l.get()) ct_item(l, &v);
  return v;
}

// Checks every input's analytic gradient against central differences.
void gradcheck(const Fn& f, const std::vector<Shape>& shapes, Init init = Init::Normal, double tol = 1e-6) {
  std::mt19937 rng(1234);
  std::vector<TensorRef> inputs;
  In in;
  for (const Shape& s : shapes) {
    inputs.emplace_back(make_input(s, init, rng));
    in.push_back(inputs.back().get());
  }
  std::vector<double> w;
  {
    TensorRef loss(weighted_loss(f, in, w, rng));
    ASSERT_NE(loss.get(), nullptr) << ctt::last_error_str();
    ASSERT_EQ(ct_backward(loss, nullptr, 0), CT_OK) << ctt::last_error_str();
  }
  const double h = 1e-6;
  for (size_t i = 0; i < in.size(); ++i) {
    TensorRef g(ct_grad(in[i]));
    ASSERT_NE(g.get(), nullptr) << "input " << i << " got no grad";
    EXPECT_TRUE(ctt::sizes_are(g, shapes[i].sizes));
    EXPECT_EQ(ct_tensor_dtype(g), CT_FLOAT64);
    const std::vector<double> analytic = ctt::values(g);
    double* data = static_cast<double*>(ct_tensor_data(in[i]));
    for (int64_t j = 0; j < shapes[i].numel(); ++j) {
      const double x0 = data[j];
      data[j] = x0 + h;
      const double up = loss_value(f, in, w, rng);
      data[j] = x0 - h;
      const double down = loss_value(f, in, w, rng);
      data[j] = x0;
      const double numeric = (up - down) / (2 * h);
      EXPECT_NEAR(analytic[size_t(j)], numeric, tol * (1 + std::abs(numeric)))
          << "input " << i << " element " << j;
    }
  }
}

std::string grad_fn(const ct_tensor* t) {
  const char* n = ct_grad_fn_name(t);
  return n ? n : "None";
}

ct_tensor* sum_all(const ct_tensor* t) { return ct_sum(t, 0, nullptr, 0); }

class Autograd : public ctt::CtTest {};

// ---- gradients: elementwise ------------------------------------------------------------

TEST_F(Autograd, BinaryBroadcasting) {
  for (auto op : {&ct_add, &ct_sub, &ct_mul, &ct_div}) {
    gradcheck([op](const In& x) { return op(x[0], x[1]); }, {{{2, 3}}, {{3}}}, Init::Positive);
    gradcheck([op](const In& x) { return op(x[0], x[1]); }, {{{2, 1, 3}}, {{4, 1}}}, Init::Positive);
    gradcheck([op](const In& x) { return op(x[0], x[1]); }, {{{}}, {{2, 2}}}, Init::Positive);
  }
}

TEST_F(Autograd, ScalarForms) {
  for (auto op : {&ct_add_scalar, &ct_sub_scalar, &ct_mul_scalar, &ct_div_scalar, &ct_rsub_scalar, &ct_rdiv_scalar})
    gradcheck([op](const In& x) { return op(x[0], 2.5); }, {{{2, 3}}}, Init::Positive);
}

TEST_F(Autograd, InplaceBinary) {
  for (auto op : {&ct_add_, &ct_sub_, &ct_mul_, &ct_div_}) {
    gradcheck(
        [op](const In& x) {
          ct_tensor* y = ct_mul_scalar(x[0], 1.5);
          EXPECT_EQ(op(y, x[1]), CT_OK) << ctt::last_error_str();
          return y;
        },
        {{{2, 3}}, {{3}}}, Init::Positive);
  }
  for (auto op : {&ct_add_scalar_, &ct_sub_scalar_, &ct_mul_scalar_, &ct_div_scalar_}) {
    gradcheck(
        [op](const In& x) {
          ct_tensor* y = ct_mul_scalar(x[0], 0.5);  // (exp's saved result would be refused)
          EXPECT_EQ(op(y, 3.0), CT_OK);
          return y;
        },
        {{{4}}});
  }
}

TEST_F(Autograd, Unary) {
  using U = ct_tensor* (*)(const ct_tensor*);
  using UI = ct_status (*)(ct_tensor*);
  const std::vector<std::pair<U, UI>> ops = {{&ct_neg, &ct_neg_},   {&ct_abs, &ct_abs_},       {&ct_exp, &ct_exp_},
                                             {&ct_log, &ct_log_},   {&ct_sqrt, &ct_sqrt_},     {&ct_sin, &ct_sin_},
                                             {&ct_cos, &ct_cos_},   {&ct_tanh, &ct_tanh_},     {&ct_sigmoid, &ct_sigmoid_},
                                             {&ct_relu, &ct_relu_}};
  for (auto [op, op_] : ops) {
    const bool pos = op == &ct_log || op == &ct_sqrt;
    gradcheck([op](const In& x) { return op(x[0]); }, {{{2, 3}}}, pos ? Init::Positive : Init::Normal);
    gradcheck(
        [op_](const In& x) {
          ct_tensor* y = ct_mul_scalar(x[0], 1.0);
          EXPECT_EQ(op_(y), CT_OK) << ctt::last_error_str();
          return y;
        },
        {{{2, 3}}}, pos ? Init::Positive : Init::Normal);
  }
  // abs and relu on exact zeros: torch's subgradient 0 (sgn(0) = 0, relu'(0) = 0).
  double z[2] = {0.0, -1.0};
  const int64_t n = 2;
  CT_MAKE(x, ct_from_data(z, 1, &n, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(a, ct_abs(x));
  CT_MAKE(r, ct_relu(x));
  CT_MAKE(s, ct_add(a, r));
  CT_MAKE(l, sum_all(s));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{0.0, -1.0}));
}

TEST_F(Autograd, FillZeroAndWhere) {
  gradcheck(
      [](const In& x) {
        ct_tensor* y = ct_mul_scalar(x[0], 2.0);
        TensorRef v(ct_slice(y, 1, 1, 3, 1));
        EXPECT_EQ(ct_fill_(v, 7.0), CT_OK) << ctt::last_error_str();
        return y;
      },
      {{{2, 4}}});
  gradcheck(
      [](const In& x) {
        TensorRef e(ct_exp(x[0]));
        ct_tensor* y = ct_mul_scalar(e, 1.0);
        TensorRef v(ct_select(y, 0, 1));
        EXPECT_EQ(ct_zero_(v), CT_OK);
        return y;
      },
      {{{3, 2}}});
  gradcheck(
      [](const In& x) {
        TensorRef c(ct_gt_scalar(x[0], 0.0));
        TensorRef a(ct_where(c, x[0], x[1]));
        return ct_where(c, x[2], a);
      },
      {{{2, 3}}, {{3}}, {{2, 1}}});
}

// ---- gradients: reductions -------------------------------------------------------------

TEST_F(Autograd, Reductions) {
  using R = ct_tensor* (*)(const ct_tensor*, int, const int*, int);
  for (R op : {&ct_sum, &ct_mean, &ct_prod, &ct_amax, &ct_amin}) {
    const Init init = op == &ct_prod ? Init::WithZeros : Init::Normal;
    gradcheck([op](const In& x) { return op(x[0], 0, nullptr, 0); }, {{{2, 3}}}, init);
    for (int keep : {0, 1}) {
      const int d1[] = {1};
      const int d2[] = {0, -1};
      gradcheck([=](const In& x) { return op(x[0], 1, d1, keep); }, {{{2, 3, 4}}}, init);
      gradcheck([=](const In& x) { return op(x[0], 2, d2, keep); }, {{{2, 3, 4}}}, init);
    }
  }
}

TEST_F(Autograd, ProdWithZeros) {
  // torch: a = torch.tensor([[0., 2., 3.], [0., 0., 5.], [1., 2., 3.]], requires_grad=True)
  //        a.prod(1).sum().backward(); a.grad == [[6, 0, 0], [0, 0, 0], [6, 3, 2]]
  const std::vector<double> v = {0, 2, 3, 0, 0, 5, 1, 2, 3};
  CT_MAKE(a, ctt::make_from(v, {3, 3}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  const int d[] = {1};
  CT_MAKE(p, ct_prod(a, 1, d, 0));
  CT_MAKE(l, sum_all(p));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g, ct_grad(a));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{6, 0, 0, 0, 0, 0, 6, 3, 2}));
}

TEST_F(Autograd, AmaxTiesShareEvenly) {
  // torch: a = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
  //        a.amax(1).sum().backward() -> [[0, .5, .5], [.5, .5, 0]];  a.amin() -> [[0,0,0],[0,0,1]]
  const std::vector<float> v = {1, 3, 3, 2, 2, 0};
  CT_MAKE(a, ctt::make_from(v, {2, 3}, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  const int d[] = {1};
  CT_MAKE(m, ct_amax(a, 1, d, 0));
  EXPECT_EQ(grad_fn(m), "AmaxBackward0");
  CT_MAKE(l, sum_all(m));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g, ct_grad(a));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{0, .5, .5, .5, .5, 0}));
  CT_ASSERT_OK(ct_set_grad(a, nullptr));
  CT_MAKE(mn, ct_amin(a, 0, nullptr, 0));
  EXPECT_EQ(grad_fn(mn), "AminBackward0");
  CT_ASSERT_OK(ct_backward(mn, nullptr, 0));
  CT_MAKE(g2, ct_grad(a));
  EXPECT_EQ(ctt::values(g2), (std::vector<double>{0, 0, 0, 0, 0, 1}));
}

// ---- max / min: full reduction, along a dim, elementwise -----------------------------------

TEST_F(Autograd, MaxMinGradients) {
  for (bool max : {true, false}) {
    SCOPED_TRACE(max ? "max" : "min");
    gradcheck([max](const In& x) { return max ? ct_max_all(x[0]) : ct_min_all(x[0]); }, {{{2, 3}}});
    for (int keep : {0, 1})
      for (int dim : {0, 1, -1})
        gradcheck([=](const In& x) { return max ? ct_max_dim(x[0], dim, keep, nullptr) : ct_min_dim(x[0], dim, keep, nullptr); },
                  {{{2, 3, 4}}});
    gradcheck([max](const In& x) { return max ? ct_maximum(x[0], x[1]) : ct_minimum(x[0], x[1]); },
              {{{2, 3}}, {{3}}});  // broadcast: b's gradient is summed over the rows
    gradcheck([max](const In& x) { return max ? ct_max_dim(x[0], 0, 0, nullptr) : ct_min_dim(x[0], -1, 1, nullptr); },
              {{{}}});  // 0-dim
  }
}

TEST_F(Autograd, MaxMinTiesAndNaN) {
  // torch: a = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
  const std::vector<float> v = {1, 3, 3, 2, 2, 0};
  CT_MAKE(a, ctt::make_from(v, {2, 3}, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  // a.max().backward() -> [[0, .5, .5], [0, 0, 0]]: split among the tied maxima
  CT_MAKE(m, ct_max_all(a));
  EXPECT_EQ(grad_fn(m), "MaxBackward1");
  EXPECT_EQ(ctt::repr(m), "tensor(3., grad_fn=<MaxBackward1>)");
  CT_ASSERT_OK(ct_backward(m, nullptr, 0));
  CT_MAKE(g, ct_grad(a));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{0, .5, .5, 0, 0, 0}));
  CT_ASSERT_OK(ct_set_grad(a, nullptr));
  // v, i = a.min(0, keepdim=True): v [[1, 2, 0]], i [[0, 1, 1]]; v.sum().backward() -> the
  // returned index only, even at the tie in column 1: [[1, 0, 0], [0, 1, 1]]
  ct_tensor* idx = nullptr;
  CT_MAKE(mv, ct_min_dim(a, 0, 1, &idx));
  ctt::TensorRef i(idx);
  ASSERT_NE(i.get(), nullptr);
  EXPECT_EQ(grad_fn(mv), "MinBackward0");
  EXPECT_TRUE(ctt::sizes_are(mv, {1, 3}));
  EXPECT_TRUE(ctt::sizes_are(i, {1, 3}));
  EXPECT_EQ(ct_tensor_dtype(i), CT_INT64);
  EXPECT_EQ(ct_requires_grad(i), 0);
  EXPECT_EQ(ctt::values(mv), (std::vector<double>{1, 2, 0}));
  EXPECT_EQ(ctt::values(i), (std::vector<double>{0, 1, 1}));
  CT_MAKE(l, sum_all(mv));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g2, ct_grad(a));
  EXPECT_EQ(ctt::values(g2), (std::vector<double>{1, 0, 0, 0, 1, 1}));
  // torch: n = torch.tensor([1., nan, 3., nan], requires_grad=True); n.max() is nan and its
  // gradient is split among the NaNs: [0, .5, 0, .5];  n.max(0) gives index 1, gradient [0, 1, 0, 0]
  const std::vector<double> nv = {1, NAN, 3, NAN};
  CT_MAKE(n, ctt::make_from(nv, {4}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(n, 1));
  CT_MAKE(nm, ct_max_all(n));
  CT_ASSERT_OK(ct_backward(nm, nullptr, 0));
  CT_MAKE(ng, ct_grad(n));
  EXPECT_EQ(ctt::values(ng), (std::vector<double>{0, .5, 0, .5}));
  CT_ASSERT_OK(ct_set_grad(n, nullptr));
  ct_tensor* nidx = nullptr;
  CT_MAKE(nd, ct_max_dim(n, 0, 0, &nidx));
  ctt::TensorRef ni(nidx);
  EXPECT_EQ(ctt::values(ni), std::vector<double>{1});
  CT_ASSERT_OK(ct_backward(nd, nullptr, 0));
  CT_MAKE(ng2, ct_grad(n));
  EXPECT_EQ(ctt::values(ng2), (std::vector<double>{0, 1, 0, 0}));
}

TEST_F(Autograd, MaximumMinimum) {
  // torch: a = tensor([1., 2., nan, 4.]), b = tensor([1., 3., 1., nan]) (both requiring grad)
  //   torch.max(a, b) -> [1, 3, nan, nan], MaximumBackward0; (r * [1, 2, 3, 4]).sum().backward():
  //   a.grad [.5, 0, 3, 4], b.grad [.5, 2, 3, 4]   (ties halve; NaN gives both all of it)
  //   torch.min(a, b) -> [1, 2, nan, nan], MinimumBackward0: a.grad [.5, 2, 3, 4], b.grad [.5, 0, 3, 4]
  const std::vector<double> av = {1, 2, NAN, 4}, bv = {1, 3, 1, NAN}, wv = {1, 2, 3, 4};
  CT_MAKE(w, ctt::make_from(wv, {4}, CT_FLOAT64));
  for (bool max : {true, false}) {
    SCOPED_TRACE(max ? "maximum" : "minimum");
    CT_MAKE(a, ctt::make_from(av, {4}, CT_FLOAT64));
    CT_MAKE(b, ctt::make_from(bv, {4}, CT_FLOAT64));
    CT_ASSERT_OK(ct_set_requires_grad(a, 1));
    CT_ASSERT_OK(ct_set_requires_grad(b, 1));
    CT_MAKE(r, max ? ct_maximum(a, b) : ct_minimum(a, b));
    EXPECT_EQ(grad_fn(r), max ? "MaximumBackward0" : "MinimumBackward0");
    const std::vector<double> rv = ctt::values(r);
    EXPECT_EQ(rv[0], 1);
    EXPECT_EQ(rv[1], max ? 3 : 2);
    EXPECT_TRUE(std::isnan(rv[2]) && std::isnan(rv[3]));
    CT_MAKE(rw, ct_mul(r, w));
    CT_MAKE(l, sum_all(rw));
    CT_ASSERT_OK(ct_backward(l, nullptr, 0));
    CT_MAKE(ga, ct_grad(a));
    CT_MAKE(gb, ct_grad(b));
    EXPECT_EQ(ctt::values(ga), (std::vector<double>{.5, max ? 0.0 : 2.0, 3, 4}));
    EXPECT_EQ(ctt::values(gb), (std::vector<double>{.5, max ? 2.0 : 0.0, 3, 4}));
  }
  // Promotion: torch.max(int32 tensor, float64 0-dim tensor).dtype == float64
  CT_MAKE(i32, ctt::ones({2}, CT_INT32));
  CT_MAKE(f64, ct_full(0, nullptr, 0.5, CT_FLOAT64));
  CT_MAKE(p, ct_maximum(i32, f64));
  EXPECT_EQ(ct_tensor_dtype(p), CT_FLOAT64);
  EXPECT_EQ(ctt::values(p), (std::vector<double>{1, 1}));
}

TEST_F(Autograd, MaxMinErrors) {
  CT_MAKE(e, ctt::ones({3, 0}));
  CT_MAKE(x, ctt::ones({3, 4}));
  CT_MAKE(b, ctt::ones({3}));
  // torch: torch.ones(3, 0).max() / .min(-1)
  CT_EXPECT_NULL(ct_max_all(e), CT_ERR_SHAPE,
                 "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                 "with the 'dim' argument.");
  CT_EXPECT_NULL(ct_min_all(e), CT_ERR_SHAPE, "min(): Expected reduction dim to be specified");
  ct_tensor* idx = nullptr;
  CT_EXPECT_NULL(ct_min_dim(e, -1, 0, &idx), CT_ERR_INDEX, "min(): Expected reduction dim 1 to have non-zero size.");
  CT_EXPECT_NULL(ct_max_dim(x, 2, 0, &idx), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(idx, nullptr);  // written only on success
  // torch: torch.ones(3, 0).max(0) is fine: empty values and indices
  CT_MAKE(ev, ct_max_dim(e, 0, 0, &idx));
  ctt::TensorRef ei(idx);
  EXPECT_TRUE(ctt::sizes_are(ev, {0}));
  EXPECT_TRUE(ctt::sizes_are(ei, {0}));
  CT_EXPECT_NULL(ct_maximum(x, b), CT_ERR_SHAPE,
                 "maximum: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1");
  CT_EXPECT_NULL(ct_max_all(nullptr), CT_ERR_INVALID_ARGUMENT, "ct_max_all");
  CT_EXPECT_NULL(ct_min_dim(nullptr, 0, 0, &idx), CT_ERR_INVALID_ARGUMENT, "ct_min_dim");
  CT_EXPECT_NULL(ct_minimum(x, nullptr), CT_ERR_INVALID_ARGUMENT, "ct_minimum");
}

// ---- gradients: matmul -----------------------------------------------------------------

TEST_F(Autograd, MatmulEveryCase) {
  struct Case {
    Shape a, b;
    const char* name;  // torch 1.13: type((a @ b).grad_fn).__name__
  };
  const std::vector<Case> cases = {
      {{{3}}, {{3}}, "DotBackward0"},
      {{{2, 3}}, {{3}}, "MvBackward0"},
      {{{3}}, {{3, 4}}, "SqueezeBackward4"},
      {{{2, 3}}, {{3, 4}}, "MmBackward0"},
      {{{5, 2, 3}}, {{3, 4}}, "UnsafeViewBackward0"},
      {{{5, 2, 3}}, {{3}}, "UnsafeViewBackward0"},
      {{{2, 3}}, {{5, 3, 4}}, "CloneBackward0"},
      {{{3}}, {{5, 3, 4}}, "UnsafeViewBackward0"},
      {{{5, 2, 3}}, {{5, 3, 4}}, "UnsafeViewBackward0"},
      {{{2, 1, 2, 3}}, {{1, 3, 3, 4}}, "UnsafeViewBackward0"},
      {{{2, 2, 3, 3}}, {{3, 3}}, "UnsafeViewBackward0"},
      {{{3, 3}}, {{2, 2, 3, 3}}, "CloneBackward0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    gradcheck([](const In& x) { return ct_matmul(x[0], x[1]); }, {c.a, c.b});
    CT_MAKE(a, ct_ones(int(c.a.sizes.size()), c.a.sizes.data(), CT_FLOAT64));
    CT_MAKE(b, ct_ones(int(c.b.sizes.size()), c.b.sizes.data(), CT_FLOAT64));
    CT_ASSERT_OK(ct_set_requires_grad(b, 1));
    CT_MAKE(r, ct_matmul(a, b));
    EXPECT_EQ(grad_fn(r), c.name);
  }
}

// ---- gradients: views and copies ---------------------------------------------------------

TEST_F(Autograd, ViewOps) {
  const std::vector<std::pair<const char*, Fn>> views = {
      {"ViewBackward0", [](const In& x) { return ctt::view(x[0], {3, 4}); }},
      {"ViewBackward0", [](const In& x) { return ctt::reshape(x[0], {4, 3}); }},
      {"UnsafeViewBackward0",
       [](const In& x) {
         TensorRef t(ct_transpose(x[0], 0, 1));
         return ctt::reshape(t, {-1});
       }},
      {"ViewBackward0", [](const In& x) { return ct_flatten(x[0], 0, 1); }},
      {"TransposeBackward0", [](const In& x) { return ct_transpose(x[0], 0, 1); }},
      {"PermuteBackward0", [](const In& x) { return ctt::permute(x[0], {1, 0}); }},
      {"SliceBackward0", [](const In& x) { return ct_slice(x[0], 1, 1, 100, 2); }},
      {"SliceBackward0", [](const In& x) { return ct_narrow(x[0], 0, 1, 1); }},
      {"SelectBackward0", [](const In& x) { return ct_select(x[0], 1, -1); }},
      {"ExpandBackward0",
       [](const In& x) {
         TensorRef u(ct_unsqueeze(x[0], 0));
         return ctt::expand(u, {3, 2, 6});
       }},
      {"SqueezeBackward1",
       [](const In& x) {
         TensorRef u(ct_unsqueeze(x[0], 1));
         return ct_squeeze(u, 1);
       }},
      {"SqueezeBackward0",
       [](const In& x) {
         TensorRef u(ct_unsqueeze(x[0], 2));
         return ct_squeeze_all(u);
       }},
      {"UnsqueezeBackward0", [](const In& x) { return ct_unsqueeze(x[0], -1); }},
      {"DiagonalBackward0", [](const In& x) { return ct_diagonal(x[0], 1, 0, 1); }},
      {"UnfoldBackward0", [](const In& x) { return ct_unfold(x[0], 1, 3, 1); }},  // overlapping windows
      {"AsStridedBackward0", [](const In& x) { return ctt::as_strided(x[0], {3, 3}, {1, 2}, 1); }},  // overlap
      {"AliasBackward0", [](const In& x) { return ct_alias_view(x[0]); }},
      {"AliasBackward0",
       [](const In& x) {
         TensorRef t(ct_transpose(x[0], 0, 1));
         return ct_alias_view(t);
       }},
      {"CloneBackward0", [](const In& x) { return ct_clone(x[0]); }},
      {"CloneBackward0",
       [](const In& x) {
         TensorRef t(ct_transpose(x[0], 0, 1));
         return ct_contiguous(t);
       }},
      {"IndexSelectBackward0",
       [](const In& x) {
         TensorRef i(ctt::index64({2, 0, 2, 5}));
         return ct_index_select(x[0], 1, i);
       }},
  };
  for (const auto& [name, f] : views) {
    SCOPED_TRACE(name);
    gradcheck(f, {{{2, 6}}});
    CT_MAKE(x, ctt::ones({2, 6}, CT_FLOAT64));
    CT_ASSERT_OK(ct_set_requires_grad(x, 1));
    CT_MAKE(y, f({x.get()}));
    EXPECT_EQ(grad_fn(y), name);
  }
}

// ---- multi-output views (unbind, split, split_with_sizes, chunk) -------------------------

namespace {
// All outputs of a multi-output view call; `call(out, cap)` is the C call.
template <class Call>
std::vector<TensorRef> all_outputs(Call&& call) {
  std::vector<ct_tensor*> out(64, nullptr);
  const int64_t n = call(out.data(), int64_t(out.size()));
  EXPECT_GE(n, 0) << ctt::last_error_str();
  std::vector<TensorRef> res;
  for (int64_t i = 0; i < n; ++i) res.emplace_back(out[size_t(i)]);
  return res;
}

// Every output weighted by its position (1, 2, ...), concatenated, so each output's gradient
// path is checked separately by the finite differences.
template <class Call>
ct_tensor* weighted_cat(Call&& call) {
  std::vector<TensorRef> outs = all_outputs(call);
  std::vector<TensorRef> parts;
  std::vector<const ct_tensor*> flat;
  for (size_t i = 0; i < outs.size(); ++i) {
    TensorRef f(ct_flatten(outs[i], 0, -1));
    if (ct_tensor_ndim(outs[i]) == 0) f.reset(ctt::reshape(outs[i], {1}));
    parts.emplace_back(ct_mul_scalar(f, double(i + 1)));
    flat.push_back(parts.back().get());
  }
  return ct_cat(int(flat.size()), flat.data(), 0);
}
}  // namespace

TEST_F(Autograd, MultiOutputViews) {
  const std::vector<std::pair<const char*, Fn>> ops = {
      {"UnbindBackward0",
       [](const In& x) { return weighted_cat([&](ct_tensor** o, int64_t c) { return ct_unbind(x[0], 1, o, c); }); }},
      {"UnbindBackward0",
       [](const In& x) { return weighted_cat([&](ct_tensor** o, int64_t c) { return ct_unbind(x[0], 0, o, c); }); }},
      {"SplitBackward0",
       [](const In& x) { return weighted_cat([&](ct_tensor** o, int64_t c) { return ct_split(x[0], 4, -1, o, c); }); }},
      {"SplitWithSizesBackward0",
       [](const In& x) {
         const int64_t lens[] = {2, 0, 1, 3};
         return weighted_cat([&](ct_tensor** o, int64_t c) { return ct_split_with_sizes(x[0], 4, lens, 1, o, c); });
       }},
      {"SplitBackward0",
       [](const In& x) { return weighted_cat([&](ct_tensor** o, int64_t c) { return ct_chunk(x[0], 4, 1, o, c); }); }},
  };
  for (const auto& [name, f] : ops) {
    SCOPED_TRACE(name);
    gradcheck(f, {{{2, 6}}});
  }
  // Names: every output records torch's node.  torch: [o.grad_fn.name() for o in y.chunk(4, 1)]
  CT_MAKE(x, ctt::ones({2, 6}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  for (auto& o : all_outputs([&](ct_tensor** o, int64_t c) { return ct_chunk(x, 4, 1, o, c); })) {
    EXPECT_EQ(grad_fn(o), "SplitBackward0");
    EXPECT_EQ(ct_requires_grad(o), 1);
    EXPECT_EQ(ct_is_leaf(o), 0);
  }
  // torch: torch.ones(2, 0, requires_grad=True).chunk(3, 1) records SplitWithSizesBackward0
  CT_MAKE(e, ctt::ones({2, 0}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(e, 1));
  auto pieces = all_outputs([&](ct_tensor** o, int64_t c) { return ct_chunk(e, 3, 1, o, c); });
  ASSERT_EQ(pieces.size(), 3u);
  for (auto& o : pieces) EXPECT_EQ(grad_fn(o), "SplitWithSizesBackward0");
  // Under no_grad nothing is recorded.
  ct_set_grad_enabled(0);
  for (auto& o : all_outputs([&](ct_tensor** o, int64_t c) { return ct_unbind(x, 0, o, c); }))
    EXPECT_EQ(grad_fn(o), "None");
  ct_set_grad_enabled(1);
}

TEST_F(Autograd, MultiOutputViewsRefuseInPlaceWrites) {
  const char* kMulti =
      " This view is the output of a function that returns multiple views. Such functions do not allow the output "
      "views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  CT_MAKE(a, ctt::ones({2, 3}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(y, ct_mul_scalar(a, 1.0));
  auto rows = all_outputs([&](ct_tensor** o, int64_t c) { return ct_unbind(y, 0, o, c); });
  ASSERT_EQ(rows.size(), 2u);
  const int64_t v0 = ct_tensor_version(y);
  // torch: y.unbind(0)[1].mul_(2)
  CT_EXPECT_STATUS(ct_mul_scalar_(rows[1], 2.0), CT_ERR_INVALID_ARGUMENT,
                   (std::string("Output 1 of Unbind is a view and is being modified inplace.") + kMulti).c_str());
  EXPECT_EQ(ct_tensor_version(y), v0);  // refused before writing
  EXPECT_EQ(grad_fn(y), "MulBackward0");
  // torch: y.unbind(0)[0][1:].zero_(): a view of an output is refused too, named by its own node
  CT_MAKE(tail, ct_slice(rows[0], 0, 1, 3, 1));
  CT_EXPECT_STATUS(ct_zero_(tail), CT_ERR_INVALID_ARGUMENT,
                   (std::string("Output 0 of Slice is a view and is being modified inplace.") + kMulti).c_str());
  // torch: y.split([1, 2], 1)[1].copy_(b)
  CT_MAKE(b, ctt::ones({2, 2}, CT_FLOAT64));
  const int64_t lens[] = {1, 2};
  auto cols = all_outputs([&](ct_tensor** o, int64_t c) { return ct_split_with_sizes(y, 2, lens, 1, o, c); });
  CT_EXPECT_STATUS(ct_copy_(cols[1], b), CT_ERR_INVALID_ARGUMENT, "Output 1 of SplitWithSizes is a view");
  // Of a leaf: the multi-output message comes before the leaf one.  torch: a.unbind(0)[0].add_(1)
  auto leaf_rows = all_outputs([&](ct_tensor** o, int64_t c) { return ct_unbind(a, 0, o, c); });
  CT_EXPECT_STATUS(ct_add_scalar_(leaf_rows[0], 1.0), CT_ERR_INVALID_ARGUMENT, "Output 0 of Unbind is a view");
  // Of a plain tensor, written with a value that requires grad: refused, with no node to name.
  // torch: n = torch.ones(2, 3); n.unbind(0)[0].add_(b) for b requiring grad
  CT_MAKE(n, ctt::ones({2, 3}, CT_FLOAT64));
  CT_MAKE(g, ctt::ones({3}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(g, 1));
  auto plain = all_outputs([&](ct_tensor** o, int64_t c) { return ct_unbind(n, 0, o, c); });
  CT_EXPECT_STATUS(ct_add_(plain[0], g), CT_ERR_INVALID_ARGUMENT,
                   (std::string("A view was created in no_grad mode and is being modified inplace with grad mode "
                                "enabled.") + kMulti).c_str());
  // Allowed: nothing requires grad, or grad mode off (as torch).
  CT_ASSERT_OK(ct_add_scalar_(plain[1], 1.0));
  ct_set_grad_enabled(0);
  CT_ASSERT_OK(ct_mul_scalar_(rows[0], 3.0));
  ct_set_grad_enabled(1);
  // That write moved y's version: the outputs' graph is now stale, and asking for it fails.
  // torch: with no_grad: o[0].mul_(3); then o[0].grad_fn
  ct_clear_error();
  EXPECT_EQ(ct_grad_fn_name(rows[1]), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT,
                                (std::string("Output 1 of Unbind is a view and its base or another view of "
                                             "its base has been modified inplace.") + kMulti).c_str()));
  // y itself is fine: its graph holds the no_grad write as data only.
  CT_MAKE(l, sum_all(y));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(ga, ct_grad(a));
  EXPECT_EQ(ctt::values(ga), std::vector<double>(6, 1.0));
}

TEST_F(Autograd, MultiOutputViewsCreatedInNoGradMode) {
  // torch: y = a * 1; with no_grad: o = y.unbind(0); o[0].add_(1) -> the no_grad message
  CT_MAKE(a, ctt::ones({2, 3}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(y, ct_mul_scalar(a, 1.0));
  ct_set_grad_enabled(0);
  auto rows = all_outputs([&](ct_tensor** o, int64_t c) { return ct_unbind(y, 0, o, c); });
  ct_set_grad_enabled(1);
  CT_EXPECT_STATUS(ct_add_scalar_(rows[0], 1.0), CT_ERR_INVALID_ARGUMENT,
                   "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given "
                   "that this use case is ambiguous and error-prone, it is forbidden.");
}

TEST_F(Autograd, ViewsOfPlainTensorsCreatedInNoGradMode) {
  // torch gives every view of a floating tensor a creation mode, autograd or not.
  // torch: n = torch.ones(2, 3); with no_grad: v = n[1]; v.mul_(g) for g requiring grad
  const char* kNoGrad = "A view was created in no_grad mode and is being modified inplace with grad mode enabled.";
  CT_MAKE(n, ctt::ones({2, 3}, CT_FLOAT32));
  CT_MAKE(g, ctt::ones({3}, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(g, 1));
  ct_set_grad_enabled(0);
  CT_MAKE(v, ct_select(n, 0, 1));
  CT_MAKE(r, ct_reshape(n, 1, std::array<int64_t, 1>{6}.data()));
  ct_set_grad_enabled(1);
  CT_ASSERT_OK(ct_add_scalar_(v, 1.0));  // nothing records a graph: allowed
  const int64_t v0 = ct_tensor_version(n);
  CT_EXPECT_STATUS(ct_mul_(v, g), CT_ERR_INVALID_ARGUMENT, kNoGrad);
  EXPECT_EQ(ct_tensor_version(n), v0);  // refused before writing
  // A view of the view, taken with grad mode on, inherits the mode (torch: r[:3].copy_(g)).
  CT_MAKE(head, ct_slice(r, 0, 0, 3, 1));
  CT_EXPECT_STATUS(ct_copy_(head, g), CT_ERR_INVALID_ARGUMENT, kNoGrad);
  // The base written with a graph: the view is refused when next used (torch: n.mul_(g); v.grad_fn).
  CT_ASSERT_OK(ct_mul_(n, g));
  EXPECT_EQ(grad_fn(n), "MulBackward0");
  ct_clear_error();
  EXPECT_EQ(ct_grad_fn_name(v), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT,
                                "A view was created in no_grad mode and its base or another view of its base has "
                                "been modified inplace with grad mode enabled."));
  // Integer views take no part (torch: only differentiable dtypes carry the mode).
  CT_MAKE(i, ctt::ones({2, 3}, CT_INT64));
  ct_set_grad_enabled(0);
  CT_MAKE(iv, ct_select(i, 0, 0));
  ct_set_grad_enabled(1);
  EXPECT_EQ(grad_fn(iv), "None");
  CT_ASSERT_OK(ct_zero_(iv));
}

TEST_F(Autograd, ViewsOfOverlappingViews) {
  // A view of an expanded tensor takes its gradient by index, not by memory.
  gradcheck(
      [](const In& x) {
        TensorRef e(ctt::expand(x[0], {3, 4}));
        TensorRef s(ct_select(e, 0, 1));
        TensorRef t(ct_transpose(e, 0, 1));
        TensorRef u(ct_unfold(t, 0, 2, 1));
        TensorRef su(sum_all(u));
        return ct_add(s, su);
      },
      {{{4}}});
}

TEST_F(Autograd, ContiguousAndToAndFlattenReturnSelf) {
  CT_MAKE(x, ctt::ones({2, 3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(c, ct_contiguous(x));
  EXPECT_EQ(c.get(), x.get());  // torch: x.contiguous() is x, no node
  CT_MAKE(t, ct_to(x, CT_FLOAT32));
  EXPECT_EQ(t.get(), x.get());
  CT_MAKE(f, ct_flatten(x, 1, 1));
  EXPECT_EQ(f.get(), x.get());
  EXPECT_EQ(grad_fn(c), "None");
}

TEST_F(Autograd, ToCopyGradTakesInputDtype) {
  // torch: x = torch.ones(3, requires_grad=True); y = x.to(torch.float64) -> ToCopyBackward0;
  //        (y * 2).sum().backward(); x.grad.dtype == torch.float32
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_to(x, CT_FLOAT64));
  EXPECT_EQ(grad_fn(y), "ToCopyBackward0");
  CT_MAKE(z, ct_mul_scalar(y, 2.0));
  CT_MAKE(l, sum_all(z));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  EXPECT_EQ(ct_tensor_dtype(g), CT_FLOAT32);
  EXPECT_EQ(ctt::values(g), (std::vector<double>{2, 2, 2}));
}

TEST_F(Autograd, PromotionGivesInputDtype) {
  // torch: a = torch.tensor([1., 2.], requires_grad=True); b = a.new_tensor([3., 4.]).double()
  //        (a * b).sum().backward(); a.grad.dtype == torch.float32, values [3, 4]
  const std::vector<double> bv = {3, 4};
  CT_MAKE(a, ctt::ones({2}));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(b, ctt::make_from(bv, {2}, CT_FLOAT64));
  CT_MAKE(p, ct_mul(a, b));
  EXPECT_EQ(ct_tensor_dtype(p), CT_FLOAT64);
  CT_MAKE(l, sum_all(p));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g, ct_grad(a));
  EXPECT_EQ(ct_tensor_dtype(g), CT_FLOAT32);
  EXPECT_EQ(ctt::values(g), (std::vector<double>{3, 4}));
}

TEST_F(Autograd, CatStack) {
  gradcheck(
      [](const In& x) {
        const ct_tensor* ts[] = {x[0], x[1], x[0]};
        return ct_cat(3, ts, 1);
      },
      {{{2, 3}}, {{2, 1}}});
  gradcheck(
      [](const In& x) {
        const ct_tensor* ts[] = {x[0], x[1]};
        return ct_stack(2, ts, -1);
      },
      {{{2, 3}}, {{2, 3}}});
  CT_MAKE(a, ctt::ones({2}));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  const ct_tensor* ts[] = {a.get(), a.get()};
  CT_MAKE(c, ct_cat(2, ts, 0));
  CT_MAKE(s, ct_stack(2, ts, 0));
  EXPECT_EQ(grad_fn(c), "CatBackward0");
  EXPECT_EQ(grad_fn(s), "StackBackward0");
}

TEST_F(Autograd, CatBackwardWithLegacyEmptyInput) {
  // torch: e = torch.zeros(0, requires_grad=True); a = torch.ones(3, 4, requires_grad=True)
  //        (torch.cat([a, e, a]) * 2).sum().backward() -> e.grad.shape (0,), a.grad all 4
  const int64_t zero = 0;
  CT_MAKE(e, ct_zeros(1, &zero, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(e, 1));
  CT_MAKE(a, ctt::ones({3, 4}));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  const ct_tensor* ts[] = {a.get(), e.get(), a.get()};
  CT_MAKE(c, ct_cat(3, ts, 0));
  EXPECT_TRUE(ctt::sizes_are(c, {6, 4}));
  CT_MAKE(c2, ct_mul_scalar(c, 2.0));
  CT_MAKE(l, sum_all(c2));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(ge, ct_grad(e));
  EXPECT_TRUE(ctt::sizes_are(ge, {0}));
  CT_MAKE(ga, ct_grad(a));
  EXPECT_EQ(ctt::values(ga), std::vector<double>(12, 4.0));
}

// ---- in-place writes through views: CopySlices -------------------------------------------

TEST_F(Autograd, CopyIntoSliceOfPlainTensor) {
  // torch: b = torch.zeros(3, 4); b[1] = y  (y requires grad) -> b.grad_fn is CopySlices,
  //        b.requires_grad, b[1] (a new view) has SelectBackward0
  gradcheck(
      [](const In& x) {
        ct_tensor* b = ctt::zeros({3, 4}, CT_FLOAT64);
        TensorRef row(ct_select(b, 0, 1));
        EXPECT_EQ(ct_copy_(row, x[0]), CT_OK) << ctt::last_error_str();
        TensorRef col(ct_select(b, 1, 2));
        EXPECT_EQ(ct_copy_(col, x[1]), CT_OK) << ctt::last_error_str();  // broadcast, overwrites part of row 1
        return b;
      },
      {{{4}}, {{1}}});
  CT_MAKE(y, ctt::ones({4}));
  CT_ASSERT_OK(ct_set_requires_grad(y, 1));
  CT_MAKE(b, ctt::zeros({3, 4}));
  CT_MAKE(row, ct_select(b, 0, 1));
  CT_ASSERT_OK(ct_copy_(row, y));
  EXPECT_EQ(grad_fn(b), "CopySlices");
  EXPECT_EQ(grad_fn(row), "AsStridedBackward0");
  EXPECT_EQ(ct_requires_grad(b), 1);
  EXPECT_EQ(ct_is_leaf(b), 0);
  CT_MAKE(row2, ct_select(b, 0, 1));
  EXPECT_EQ(grad_fn(row2), "SelectBackward0");
}

TEST_F(Autograd, ViewTakenBeforeTheBaseJoinedTheGraph) {
  // torch: b = torch.zeros(2, 3); a = b[:, 0:2]; b[1] = x; a.grad_fn -> AsStridedBackward0
  gradcheck(
      [](const In& x) {
        TensorRef b(ctt::zeros({2, 3}, CT_FLOAT64));
        TensorRef a(ct_slice(b, 1, 0, 2, 1));  // no autograd state anywhere yet
        TensorRef row(ct_select(b, 0, 1));
        EXPECT_EQ(ct_copy_(row, x[0]), CT_OK);
        if (ct_is_grad_enabled()) {  // (not in the finite-difference evaluations)
          EXPECT_EQ(grad_fn(a), "AsStridedBackward0");
          EXPECT_EQ(ct_requires_grad(a), 1);
        }
        return ct_mul(a, a);
      },
      {{{3}}});
}

TEST_F(Autograd, InplaceOnViewOfNonLeaf) {
  // torch: y = a * 1; v = y[0]; v.mul_(c) -> y: CopySlices, v: AsStridedBackward0
  gradcheck(
      [](const In& x) {
        ct_tensor* y = ct_mul_scalar(x[0], 1.0);
        TensorRef v(ct_select(y, 0, 0));
        EXPECT_EQ(ct_mul_(v, x[1]), CT_OK) << ctt::last_error_str();
        TensorRef w(ct_slice(y, 1, 1, 3, 1));
        EXPECT_EQ(ct_exp_(w), CT_OK);
        return y;
      },
      {{{2, 3}}, {{3}}});
  CT_MAKE(a, ctt::ones({2, 3}));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(y, ct_mul_scalar(a, 1.0));
  CT_MAKE(v, ct_select(y, 0, 0));
  CT_MAKE(other, ct_select(y, 0, 1));  // an older view: regenerated lazily
  EXPECT_EQ(grad_fn(v), "SelectBackward0");
  CT_ASSERT_OK(ct_mul_scalar_(v, 2.0));
  EXPECT_EQ(grad_fn(y), "CopySlices");
  EXPECT_EQ(grad_fn(v), "AsStridedBackward0");
  EXPECT_EQ(grad_fn(other), "AsStridedBackward0");
  // torch: y = a * 1; v = y[0]; y.add_(1) -> v.grad_fn is AsStridedBackward0
  CT_MAKE(y2, ct_mul_scalar(a, 1.0));
  CT_MAKE(v2, ct_select(y2, 0, 0));
  CT_ASSERT_OK(ct_add_scalar_(y2, 1.0));
  EXPECT_EQ(grad_fn(y2), "AddBackward0");
  EXPECT_EQ(grad_fn(v2), "AsStridedBackward0");
}

TEST_F(Autograd, InplaceNames) {
  // torch 2.13: type(y.grad_fn).__name__ after y = x * 1 and each in-place op
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(o, ctt::ones({3}));
  auto fresh = [&] { return ct_mul_scalar(x, 1.0); };
  struct C {
    std::function<ct_status(ct_tensor*)> op;
    const char* name;
  };
  const std::vector<C> cases = {
      {[&](ct_tensor* y) { return ct_copy_(y, o); }, "CopyBackwards"},
      {[](ct_tensor* y) { return ct_fill_(y, 2.0); }, "FillBackward2"},
      {[&](ct_tensor* y) {
         TensorRef v(ct_full(0, nullptr, 2.0, CT_FLOAT64));
         return ct_fill_tensor_(y, v);
       },
       "FillBackward3"},
      {[](ct_tensor* y) { return ct_zero_(y); }, "ZeroBackward0"},
      {[&](ct_tensor* y) { return ct_add_(y, o); }, "AddBackward0"},
      {[&](ct_tensor* y) { return ct_sub_(y, o); }, "SubBackward0"},
      {[&](ct_tensor* y) { return ct_mul_(y, o); }, "MulBackward0"},
      {[&](ct_tensor* y) { return ct_div_(y, o); }, "DivBackward0"},
      {[](ct_tensor* y) { return ct_sigmoid_(y); }, "SigmoidBackward0"},
  };
  for (const C& c : cases) {
    TensorRef y(fresh());
    EXPECT_EQ(c.op(y), CT_OK);
    EXPECT_EQ(grad_fn(y), c.name);
  }
  CT_MAKE(r1, ct_rsub_scalar(x, 1.0));
  EXPECT_EQ(grad_fn(r1), "RsubBackward1");  // 1 - x
  CT_MAKE(r2, ct_rdiv_scalar(x, 2.0));
  EXPECT_EQ(grad_fn(r2), "MulBackward0");  // 2 / x
}

TEST_F(Autograd, FillFromTensor) {
  // torch: s = torch.tensor(2., requires_grad=True); y = torch.zeros(3); y.fill_(s)
  //        -> FillBackward3, y.requires_grad; (y * [1, 2, 3]).sum().backward() -> s.grad 6
  CT_MAKE(s, ctt::full({}, 2.0));
  CT_ASSERT_OK(ct_set_requires_grad(s, 1));
  CT_MAKE(y, ctt::full({3}, 0.0));
  CT_ASSERT_OK(ct_fill_tensor_(y, s));
  EXPECT_EQ(grad_fn(y), "FillBackward3");
  EXPECT_EQ(ctt::values(y), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(ct_tensor_version(y), 1);
  const double w[] = {1, 2, 3};
  const int64_t n3 = 3;
  CT_MAKE(wt, ct_from_data(w, 1, &n3, CT_FLOAT64));
  CT_MAKE(p, ct_mul(y, wt));
  CT_MAKE(l, sum_all(p));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(gs, ct_grad(s));
  EXPECT_EQ(ctt::values(gs), (std::vector<double>{6}));
  // torch 2.13: the value is cast as copy_ casts, not range-checked as a number:
  // torch.zeros(2, dtype=torch.uint8).fill_(torch.tensor(300)) -> [44, 44]
  CT_MAKE(u, ctt::zeros({2}, CT_UINT8));
  const int64_t big = 300;
  CT_MAKE(v300, ct_from_data(&big, 0, nullptr, CT_INT64));
  CT_ASSERT_OK(ct_fill_tensor_(u, v300));
  EXPECT_EQ(ctt::values(u), (std::vector<double>{44, 44}));
  // torch: y.fill_(torch.ones(2)); torch.zeros(3).expand(2, 3).fill_(torch.tensor(2.))
  CT_MAKE(o2, ctt::ones({2}));
  CT_EXPECT_STATUS(ct_fill_tensor_(y, o2), CT_ERR_INVALID_ARGUMENT,
                   "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  CT_MAKE(z, ctt::zeros({3}));
  const int64_t shape[] = {2, 3};
  CT_MAKE(e, ct_expand(z, 2, shape));
  CT_EXPECT_STATUS(ct_fill_tensor_(e, s), CT_ERR_OVERLAP, "more than one element of the written-to tensor");
  // torch: a leaf that requires grad is refused
  CT_EXPECT_STATUS(ct_fill_tensor_(s, s), CT_ERR_INVALID_ARGUMENT,
                   "a leaf Variable that requires grad is being used in an in-place operation.");
  CT_EXPECT_STATUS(ct_fill_tensor_(nullptr, s), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_STATUS(ct_fill_tensor_(y, nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- accumulation, retain_graph, no_grad, detach --------------------------------------------

TEST_F(Autograd, AccumulatesOverTwoBackwardsWithRetainGraph) {
  CT_MAKE(x, ctt::full({3}, 2.0));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul(x, x));
  CT_MAKE(l, sum_all(y));
  CT_ASSERT_OK(ct_backward(l, nullptr, 1));
  CT_MAKE(g1, ct_grad(x));
  EXPECT_EQ(ctt::values(g1), (std::vector<double>{4, 4, 4}));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g2, ct_grad(x));
  EXPECT_EQ(ctt::values(g2), (std::vector<double>{8, 8, 8}));
  EXPECT_EQ(ctt::values(g1), (std::vector<double>{8, 8, 8}));  // accumulated in place, as torch
  // torch: y = (x * x).sum(); y.backward(); y.backward()
  CT_EXPECT_STATUS(ct_backward(l, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "Trying to backward through the graph a second time (or directly access saved tensors after they "
                 "have already been freed). Saved intermediate values of the graph are freed when you call "
                 ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                 "graph a second time or if you need to access saved tensors after calling backward.");
  // set_grad / clear
  CT_ASSERT_OK(ct_set_grad(x, nullptr));
  ct_clear_error();
  EXPECT_EQ(ct_grad(x), nullptr);
  EXPECT_EQ(ct_last_status(), CT_OK);
  CT_MAKE(mine, ctt::full({3}, 10.0));
  CT_ASSERT_OK(ct_set_grad(x, mine));
  CT_MAKE(y2, ct_mul_scalar(x, 3.0));
  CT_MAKE(l2, sum_all(y2));
  CT_ASSERT_OK(ct_backward(l2, nullptr, 0));
  EXPECT_EQ(ctt::values(mine), (std::vector<double>{13, 13, 13}));
}

// Note [Retained grad and CopySlices]: the registration moves to CopySlices (torch 2.13; 1.13
// left it on the base's previous node, and y.grad was [0, 1, 1] below).
TEST_F(Autograd, RetainGradAfterCopySlices) {
  // torch: a = torch.ones(3, requires_grad=True); y = a * 2; y.retain_grad(); y[0] = 5
  //        y.sum().backward() -> y.grad [1, 1, 1], a.grad [0, 2, 2]
  CT_MAKE(a, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(y, ct_mul_scalar(a, 2.0));
  CT_ASSERT_OK(ct_retain_grad(y));
  {
    CT_MAKE(v, ct_select(y, 0, 0));
    CT_ASSERT_OK(ct_fill_(v, 5.0));
  }
  EXPECT_EQ(grad_fn(y), "CopySlices");
  EXPECT_EQ(ct_retains_grad(y), 1);
  CT_MAKE(l, sum_all(y));
  CT_ASSERT_OK(ct_backward(l, nullptr, 1));
  CT_MAKE(gy, ct_grad(y));
  EXPECT_EQ(ctt::values(gy), (std::vector<double>{1, 1, 1}));
  CT_MAKE(ga, ct_grad(a));
  EXPECT_EQ(ctt::values(ga), (std::vector<double>{0, 2, 2}));
  // torch: then y.mul_(3) moves the registration to MulBackward0: (y * 1).sum().backward()
  //        -> y.grad [1, 1, 1] (a new tensor; the old grad is not added to)
  CT_ASSERT_OK(ct_set_grad(y, nullptr));
  CT_ASSERT_OK(ct_mul_scalar_(y, 3.0));
  CT_MAKE(y1, ct_mul_scalar(y, 1.0));
  CT_MAKE(l2, sum_all(y1));
  CT_ASSERT_OK(ct_backward(l2, nullptr, 0));
  CT_MAKE(gy2, ct_grad(y));
  EXPECT_EQ(ctt::values(gy2), (std::vector<double>{1, 1, 1}));
}

TEST_F(Autograd, RetainGrad) {
  // torch: x = torch.ones(3, requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y).sum()
  //        z.backward(retain_graph=True) -> y.grad [4, 4, 4]; z.backward() -> [8, 8, 8]
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul_scalar(x, 2.0));
  EXPECT_EQ(ct_retains_grad(y), 0);
  CT_ASSERT_OK(ct_retain_grad(y));
  EXPECT_EQ(ct_retains_grad(y), 1);
  CT_MAKE(yy, ct_mul(y, y));
  CT_MAKE(z, sum_all(yy));
  CT_ASSERT_OK(ct_backward(z, nullptr, 1));
  CT_MAKE(g1, ct_grad(y));
  EXPECT_EQ(ctt::values(g1), (std::vector<double>{4, 4, 4}));
  CT_ASSERT_OK(ct_backward(z, nullptr, 0));
  CT_MAKE(g2, ct_grad(y));
  EXPECT_EQ(ctt::values(g2), (std::vector<double>{8, 8, 8}));
  // torch: y2 = x * 3; y2.retain_grad(); y2.add_(1); (y2 * 1).sum().backward() -> y2.grad [1, 1, 1]
  CT_MAKE(y2, ct_mul_scalar(x, 3.0));
  CT_ASSERT_OK(ct_retain_grad(y2));
  CT_ASSERT_OK(ct_add_scalar_(y2, 1.0));
  EXPECT_EQ(ct_retains_grad(y2), 1);
  CT_MAKE(y3, ct_mul_scalar(y2, 1.0));
  CT_MAKE(l, sum_all(y3));
  CT_ASSERT_OK(ct_backward(l, nullptr, 0));
  CT_MAKE(g3, ct_grad(y2));
  EXPECT_EQ(ctt::values(g3), (std::vector<double>{1, 1, 1}));
  CT_ASSERT_OK(ct_retain_grad(x));  // a leaf: nothing to do
  EXPECT_EQ(ct_retains_grad(x), 0);
  // torch: torch.ones(2).retain_grad()
  CT_MAKE(p, ctt::ones({2}));
  CT_EXPECT_STATUS(ct_retain_grad(p), CT_ERR_INVALID_ARGUMENT,
                   "can't retain_grad on Tensor that has requires_grad=False");
  // The retaining tensor may die before its graph runs.
  CT_MAKE(w, ct_mul_scalar(x, 5.0));
  CT_ASSERT_OK(ct_retain_grad(w));
  CT_MAKE(wl, sum_all(w));
  w.reset();
  CT_ASSERT_OK(ct_backward(wl, nullptr, 0));
}

TEST_F(Autograd, ExplicitGradient) {
  CT_MAKE(x, ctt::ones({2}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul_scalar(x, 3.0));
  const std::vector<double> gv = {1, 2};
  CT_MAKE(g, ctt::make_from(gv, {2}, CT_FLOAT64));  // converted to y's dtype, as torch
  CT_ASSERT_OK(ct_backward(y, g, 0));
  CT_MAKE(xg, ct_grad(x));
  EXPECT_EQ(ctt::values(xg), (std::vector<double>{3, 6}));
  EXPECT_EQ(ct_tensor_dtype(xg), CT_FLOAT32);
}

TEST_F(Autograd, NoGradMode) {
  EXPECT_EQ(ct_is_grad_enabled(), 1);
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  EXPECT_EQ(ct_set_grad_enabled(0), 1);
  EXPECT_EQ(ct_is_grad_enabled(), 0);
  CT_MAKE(y, ct_mul_scalar(x, 2.0));
  EXPECT_EQ(ct_requires_grad(y), 0);
  EXPECT_EQ(grad_fn(y), "None");
  CT_ASSERT_OK(ct_add_scalar_(x, 1.0));  // torch allows in-place on a leaf under no_grad
  // torch: with no_grad: v = x[0:2] -> v.requires_grad is True, grad_fn None
  CT_MAKE(v, ct_slice(x, 0, 0, 2, 1));
  EXPECT_EQ(ct_requires_grad(v), 1);
  EXPECT_EQ(grad_fn(v), "None");
  EXPECT_EQ(ct_set_grad_enabled(1), 0);
  EXPECT_EQ(ctt::repr(v), "tensor([2., 2.], requires_grad=True)");
  // torch: with no_grad: v = x[0:2]; then v.mul_(2)
  CT_EXPECT_STATUS(ct_mul_scalar_(v, 2.0), CT_ERR_INVALID_ARGUMENT,
                 "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given "
                 "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
                 "moving both the view and the inplace either both inside the no_grad block (if you don't want the "
                 "inplace to be tracked) or both outside (if you want the inplace to be tracked).");
  // torch: y = x * 2; with no_grad: v = y[0:2]; y.add_(1); v.grad_fn
  CT_MAKE(y2, ct_mul_scalar(x, 2.0));
  ct_set_grad_enabled(0);
  CT_MAKE(v2, ct_slice(y2, 0, 0, 2, 1));
  ct_set_grad_enabled(1);
  CT_ASSERT_OK(ct_add_scalar_(y2, 1.0));
  ct_clear_error();
  EXPECT_EQ(ct_grad_fn_name(v2), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT,
                                "A view was created in no_grad mode and its base or another view of its base has "
                                "been modified inplace with grad mode enabled."));
  // A view of a view made in no_grad mode inherits its creation (torch's propagate_creation_meta):
  // y3 = x * 2; with no_grad: v3 = y3[0:2]; w3 = v3[1:]; w3.mul_(2) is refused, named by w3's node
  // (torch 2.13; 1.13 stopped at an internal assert building the message)
  CT_MAKE(y3, ct_mul_scalar(x, 2.0));
  ct_set_grad_enabled(0);
  CT_MAKE(v3, ct_slice(y3, 0, 0, 2, 1));
  ct_set_grad_enabled(1);
  CT_MAKE(w3, ct_slice(v3, 0, 1, 2, 1));
  EXPECT_EQ(grad_fn(w3), "SliceBackward0");
  CT_EXPECT_STATUS(ct_mul_scalar_(w3, 2.0), CT_ERR_INVALID_ARGUMENT,
                   "Output 0 of Slice is a view of a view which was created in no_grad mode and is being modified "
                   "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
                   "forbidden.");
}

TEST_F(Autograd, DetachVersusClone) {
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(c, ct_clone(x));
  EXPECT_EQ(grad_fn(c), "CloneBackward0");
  EXPECT_EQ(ct_shares_storage(c, x), 0);
  CT_MAKE(d, ct_detach(x));
  EXPECT_EQ(grad_fn(d), "None");
  EXPECT_EQ(ct_requires_grad(d), 0);
  EXPECT_EQ(ct_is_leaf(d), 1);
  EXPECT_EQ(ct_shares_storage(d, x), 1);
  EXPECT_EQ(ct_tensor_is_view(d), 0);
  CT_MAKE(a, ct_alias(x));
  EXPECT_EQ(ct_requires_grad(a), 0);
  // Writing through the detached tensor bumps the shared version: a saved x notices.
  CT_MAKE(y, ct_mul(x, x));
  CT_ASSERT_OK(ct_add_scalar_(d, 1.0));
  CT_MAKE(l, sum_all(y));
  CT_EXPECT_STATUS(ct_backward(l, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "one of the variables needed for gradient computation has been modified by an inplace operation: "
                 "[ctensor.FloatTensor [3]] is at version 1; expected version 0 instead.");
}

// ---- errors: exact torch 2.13 messages ----------------------------------------------------

TEST_F(Autograd, SavedTensorVersionErrors) {
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  // torch: y = x.exp(); y.add_(1); y.sum().backward()
  CT_MAKE(y, ct_exp(x));
  CT_ASSERT_OK(ct_add_scalar_(y, 1.0));
  CT_MAKE(l, sum_all(y));
  CT_EXPECT_STATUS(ct_backward(l, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "one of the variables needed for gradient computation has been modified by an inplace operation: "
                 "[ctensor.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected version 0 "
                 "instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
                 "with torch.autograd.set_detect_anomaly(True, check_nan=False).");
  // torch: a = torch.ones(2, 3, dtype=torch.float64, requires_grad=True); y = a * 1; z = y * y;
  //        y.add_(1); z.sum().backward(): the message names y's grad_fn when backward runs
  //        (Note [Saved tensor names])
  CT_MAKE(a, ctt::ones({2, 3}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(a, 1));
  CT_MAKE(y2, ct_mul_scalar(a, 1.0));
  CT_MAKE(z, ct_mul(y2, y2));
  CT_ASSERT_OK(ct_add_scalar_(y2, 1.0));
  CT_MAKE(l2, sum_all(z));
  CT_EXPECT_STATUS(ct_backward(l2, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "[ctensor.DoubleTensor [2, 3]], which is output 0 of Add, is at version 1; expected version "
                 "0 instead.");
}

TEST_F(Autograd, InplaceWithItselfIsRefusedAtBackward) {
  // torch: x = torch.ones(3, requires_grad=True); y = x * 1; y.mul_(y); y.sum().backward()
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul_scalar(x, 1.0));
  CT_ASSERT_OK(ct_mul_(y, y));
  CT_MAKE(l, sum_all(y));
  CT_EXPECT_STATUS(ct_backward(l, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                   "one of the variables needed for gradient computation has been modified by an inplace "
                   "operation: [ctensor.FloatTensor [3]], which is output 0 of Mul, is at version 1; "
                   "expected version 0 instead. Hint: enable anomaly detection to find the operation that failed "
                   "to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).");
}

TEST_F(Autograd, BackwardErrors) {
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul_scalar(x, 2.0));
  // torch: (x * 2).backward()
  CT_EXPECT_STATUS(ct_backward(y, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "grad can be implicitly created only for scalar outputs");
  // torch: torch.ones(3).sum().backward()
  CT_MAKE(p, ctt::ones({3}));
  CT_MAKE(ps, sum_all(p));
  CT_EXPECT_STATUS(ct_backward(ps, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 "element 0 of tensors does not require grad and does not have a grad_fn");
  // torch: (x * 2).backward(torch.ones(2))  (torch.Size -> ctensor.Size)
  CT_MAKE(g2, ctt::ones({2}));
  CT_EXPECT_STATUS(ct_backward(y, g2, 0), CT_ERR_SHAPE,
                 "Mismatch in shape: grad_output[0] has a shape of ctensor.Size([2]) and output[0] has a shape of "
                 "ctensor.Size([3]).");
  CT_EXPECT_STATUS(ct_backward(nullptr, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "ct_backward");
}

TEST_F(Autograd, InplaceErrors) {
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(o, ctt::ones({3}));
  const int64_t v0 = ct_tensor_version(x);
  // torch: x.add_(1) / x.copy_(torch.ones(3))
  CT_EXPECT_STATUS(ct_add_scalar_(x, 1.0), CT_ERR_INVALID_ARGUMENT,
                 "a leaf Variable that requires grad is being used in an in-place operation.");
  CT_EXPECT_STATUS(ct_copy_(x, o), CT_ERR_INVALID_ARGUMENT,
                 "a leaf Variable that requires grad is being used in an in-place operation.");
  CT_EXPECT_STATUS(ct_exp_(x), CT_ERR_INVALID_ARGUMENT,
                 "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(ct_tensor_version(x), v0);  // refused before writing
  // torch: x[0].add_(1)
  CT_MAKE(v, ct_select(x, 0, 0));
  CT_EXPECT_STATUS(ct_add_scalar_(v, 1.0), CT_ERR_INVALID_ARGUMENT,
                 "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  CT_EXPECT_STATUS(ct_fill_(v, 1.0), CT_ERR_INVALID_ARGUMENT,
                 "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  // A write into a plain tensor from one requiring grad is fine: o gets a history.
  CT_ASSERT_OK(ct_mul_(o, x));
  EXPECT_EQ(grad_fn(o), "MulBackward0");
  // Versions still move for in-place ops that record.
  EXPECT_EQ(ct_tensor_version(o), 1);
}

TEST_F(Autograd, RequiresGradErrors) {
  // torch: torch.ones(3, dtype=torch.int64).requires_grad_()
  CT_MAKE(i, ctt::ones({3}, CT_INT64));
  CT_EXPECT_STATUS(ct_set_requires_grad(i, 1), CT_ERR_DTYPE,
                 "only Tensors of floating point dtype can require gradients");
  CT_ASSERT_OK(ct_set_requires_grad(i, 0));
  EXPECT_EQ(ct_requires_grad(i), 0);
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  EXPECT_EQ(ct_requires_grad(x), 1);
  EXPECT_EQ(ct_is_leaf(x), 1);
  CT_MAKE(y, ct_mul_scalar(x, 2.0));
  EXPECT_EQ(ct_is_leaf(y), 0);
  // torch: (x * 2).requires_grad_(False)
  CT_EXPECT_STATUS(ct_set_requires_grad(y, 0), CT_ERR_INVALID_ARGUMENT,
                 "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                 "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  CT_ASSERT_OK(ct_set_requires_grad(y, 1));  // torch: a no-op
  // torch: x.grad = torch.ones(3, dtype=torch.float64) / x.grad = torch.ones(2)
  CT_MAKE(gd, ctt::ones({3}, CT_FLOAT64));
  CT_EXPECT_STATUS(ct_set_grad(x, gd), CT_ERR_DTYPE,
                   "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'. The "
                   "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype).");
  CT_MAKE(gs, ctt::ones({2}));
  CT_EXPECT_STATUS(ct_set_grad(x, gs), CT_ERR_SHAPE,
                   "attempting to assign a gradient of size '[2]' to a tensor of size '[3]'. Please ensure that the "
                   "gradient and the tensor are the same size");
  // torch: x.grad = x (a reference cycle: found by the fuzzer as a leaked tensor)
  const int64_t live = ct_live_tensors(), refs = ct_tensor_refcount(x);
  CT_EXPECT_STATUS(ct_set_grad(x, x), CT_ERR_INVALID_ARGUMENT, "can't assign Variable as its own grad");
  EXPECT_EQ(ct_tensor_refcount(x), refs);
  EXPECT_EQ(ct_live_tensors(), live);
  EXPECT_EQ(ct_requires_grad(nullptr), -1);
  EXPECT_EQ(ct_is_leaf(nullptr), -1);
  EXPECT_EQ(ct_grad_fn_name(nullptr), nullptr);
  EXPECT_EQ(ct_grad(nullptr), nullptr);
  EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
  CT_ASSERT_OK(ct_set_requires_grad(x, 0));
  EXPECT_EQ(ct_requires_grad(x), 0);
}

// ---- printing ------------------------------------------------------------------------------

TEST_F(Autograd, ReprSuffixes) {
  // torch: repr(torch.ones(2, requires_grad=True)) etc.
  CT_MAKE(x, ctt::ones({2}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  EXPECT_EQ(ctt::repr(x), "tensor([1., 1.], requires_grad=True)");
  CT_MAKE(y, ct_mul_scalar(x, 2.0));
  EXPECT_EQ(ctt::repr(y), "tensor([2., 2.], grad_fn=<MulBackward0>)");
  CT_MAKE(d, ctt::ones({2}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(d, 1));
  EXPECT_EQ(ctt::repr(d), "tensor([1., 1.], dtype=ctensor.float64, requires_grad=True)");
  CT_MAKE(d2, ct_mul_scalar(d, 2.0));
  EXPECT_EQ(ctt::repr(d2), "tensor([2., 2.], dtype=ctensor.float64, grad_fn=<MulBackward0>)");
  CT_MAKE(e, ctt::ones({0}));
  CT_ASSERT_OK(ct_set_requires_grad(e, 1));
  EXPECT_EQ(ctt::repr(e), "tensor([], requires_grad=True)");
  CT_MAKE(e2, ctt::ones({0, 2}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(e2, 1));
  CT_MAKE(e3, ct_mul_scalar(e2, 2.0));
  EXPECT_EQ(ctt::repr(e3), "tensor([], size=(0, 2), dtype=ctensor.float64, grad_fn=<MulBackward0>)");
  CT_MAKE(h, ctt::ones({2}, CT_FLOAT16));
  CT_ASSERT_OK(ct_set_requires_grad(h, 1));
  CT_MAKE(hs, sum_all(h));
  EXPECT_EQ(ctt::repr(hs), "tensor(2., dtype=ctensor.float16, grad_fn=<SumBackward0>)");
  CT_MAKE(s0, ct_mul(y, x));
  CT_MAKE(sel, ct_select(s0, 0, 0));
  EXPECT_EQ(ctt::repr(sel), "tensor(2., grad_fn=<SelectBackward0>)");
  CT_MAKE(dd, ct_detach(y));
  EXPECT_EQ(ctt::repr(dd), "tensor([2., 2.])");
  // torch: repr(torch.arange(100., requires_grad=True) * 2): suffix on its own line
  CT_MAKE(r, ct_arange(0, 100, 1, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(r, 1));
  CT_MAKE(r2, ct_mul_scalar(r, 2.0));
  const std::string s = ctt::repr(r2);
  const std::string tail = "\n        192., 194., 196., 198.], grad_fn=<MulBackward0>)";
  ASSERT_GT(s.size(), tail.size());
  EXPECT_EQ(s.substr(s.size() - tail.size()), tail);
}

// ---- lifetime ------------------------------------------------------------------------------

TEST_F(Autograd, GraphsAreFreed) {
  const int64_t t0 = ct_live_tensors();
  {
    CT_MAKE(x, ctt::ones({4, 4}));
    CT_ASSERT_OK(ct_set_requires_grad(x, 1));
    CT_MAKE(y, ct_mul_scalar(x, 3.0));
    CT_MAKE(v, ct_select(y, 0, 1));
    CT_MAKE(z, ct_mul_scalar(v, 2.0));
    CT_ASSERT_OK(ct_mul_(v, z));  // CopySlices on y
    CT_MAKE(t, ct_transpose(y, 0, 1));
    CT_MAKE(m, ct_matmul(t, y));
    CT_MAKE(l, sum_all(m));
    CT_ASSERT_OK(ct_backward(l, nullptr, 1));
    CT_MAKE(g, ct_grad(x));
    EXPECT_GT(ct_live_tensors(), t0);
  }
  EXPECT_EQ(ct_live_tensors(), t0);
  // A graph that is never run is freed as well, and a leaf outlives its graph.
  CT_MAKE(x, ctt::ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  const int64_t t1 = ct_live_tensors();
  {
    CT_MAKE(y, ct_sigmoid(x));
    CT_MAKE(z, ct_prod(y, 0, nullptr, 0));
  }
  EXPECT_EQ(ct_live_tensors(), t1);
  EXPECT_EQ(ct_tensor_refcount(x), 1);
}

TEST_F(Autograd, LongChainsAreFreedWithoutRecursion) {
  // A graph 100000 nodes deep: backward and destruction must not recurse per node.
  CT_MAKE(x, ctt::ones({1}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  TensorRef y(ct_mul_scalar(x, 1.0));
  for (int i = 0; i < 100000; ++i) y = TensorRef(ct_add_scalar(y, 1.0));
  ASSERT_NE(y.get(), nullptr);
  CT_ASSERT_OK(ct_backward(y, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{1.0}));
  y.reset();
}

}  // namespace
