// ct_autograd_grad and ct_autograd_backward from C: gradients captured at non-leaf inputs with
// no grad touched, higher-order gradients with create_graph (x^3: 3x^2, 6x, 6, torch's values),
// refusal of a node without a differentiable formula, torch's errors, and no leaks (CtTest).
#include <array>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

class AutogradGrad : public ctt::CtTest {};

ct_tensor* leaf(std::vector<double> v) {
  const int64_t n = int64_t(v.size());
  ct_tensor* t = ct_from_data(v.data(), 1, &n, CT_FLOAT64);
  EXPECT_EQ(ct_set_requires_grad(t, 1), CT_OK);
  return t;
}

ct_tensor* total(const ct_tensor* t) { return ct_sum(t, 0, nullptr, 0); }

// d/dx of sum(y), one input, as ct_autograd_grad returns it (new reference or NULL).
ct_tensor* grad1(const ct_tensor* y, const ct_tensor* x, int create_graph) {
  TensorRef s(total(y));
  const ct_tensor* outs[1] = {s.get()};
  const ct_tensor* ins[1] = {x};
  ct_tensor* r[1] = {nullptr};
  // retain_graph as torch's default: the graph create_graph records goes through the first one
  EXPECT_EQ(ct_autograd_grad(outs, 1, nullptr, ins, 1, create_graph, create_graph, 0, r), CT_OK)
      << ctt::last_error_str();
  return r[0];
}

TEST_F(AutogradGrad, HigherOrderCube) {
  TensorRef x(leaf({1.0, 2.0, 3.0}));
  TensorRef x2(ct_mul(x, x));
  TensorRef y(ct_mul(x2, x));
  TensorRef g1(grad1(y, x, 1));
  EXPECT_EQ(ctt::values(g1), (std::vector<double>{3, 12, 27}));
  EXPECT_STREQ(ct_grad_fn_name(g1), "AddBackward0");  // torch's
  TensorRef g2(grad1(g1, x, 1));
  EXPECT_EQ(ctt::values(g2), (std::vector<double>{6, 12, 18}));
  TensorRef g3(grad1(g2, x, 0));
  EXPECT_EQ(ctt::values(g3), (std::vector<double>{6, 6, 6}));
  EXPECT_EQ(ct_requires_grad(g3), 0);
  EXPECT_EQ(ct_grad(x), nullptr);  // no .grad touched
}

TEST_F(AutogradGrad, CreateGraphWithoutRetainFreesTheFirstGraph) {
  // torch's: the second derivative goes back through x * x's node, whose saved tensors are gone
  TensorRef x(leaf({1.0, 2.0, 3.0}));
  TensorRef x2(ct_mul(x, x));
  TensorRef y(ct_mul(x2, x));
  TensorRef s(total(y));
  const ct_tensor* outs[1] = {s.get()};
  const ct_tensor* ins[1] = {x.get()};
  ct_tensor* r[1] = {nullptr};
  ASSERT_EQ(ct_autograd_grad(outs, 1, nullptr, ins, 1, 0, 1, 0, r), CT_OK) << ctt::last_error_str();
  TensorRef g1(r[0]);
  TensorRef s1(total(g1));
  const ct_tensor* outs1[1] = {s1.get()};
  CT_EXPECT_FAIL(ct_autograd_grad(outs1, 1, nullptr, ins, 1, 0, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "Trying to backward through the graph a second time");
}

TEST_F(AutogradGrad, NonLeafInputAndGradOutputs) {
  TensorRef x(leaf({1.0, 2.0}));
  TensorRef h(ct_exp(x));
  TensorRef y(ct_mul(h, x));
  const double gv[2] = {1.0, 0.5};
  const int64_t two = 2;
  TensorRef go(ct_from_data(gv, 1, &two, CT_FLOAT64));
  const ct_tensor* outs[1] = {y.get()};
  const ct_tensor* grads[1] = {go.get()};
  const ct_tensor* ins[2] = {h.get(), x.get()};
  ct_tensor* r[2] = {nullptr, nullptr};
  ASSERT_EQ(ct_autograd_grad(outs, 1, grads, ins, 2, 1, 0, 0, r), CT_OK) << ctt::last_error_str();
  TensorRef gh(r[0]), gx(r[1]);
  EXPECT_EQ(ctt::values(gh), (std::vector<double>{1.0, 1.0}));  // grad * x
  const std::vector<double> hv = ctt::values(h);
  EXPECT_EQ(ctt::values(gx), (std::vector<double>{1.0 * (hv[0] * 1.0 + hv[0]), 0.5 * (hv[1] * 2.0 + hv[1])}));
  EXPECT_EQ(ct_grad(x), nullptr);
}

TEST_F(AutogradGrad, BackwardInputsAndCreateGraph) {
  TensorRef x(leaf({1.0, 2.0}));
  TensorRef w(leaf({3.0, -1.0}));
  TensorRef xw(ct_mul(x, w));
  TensorRef y(ct_mul(xw, x));
  TensorRef s(total(y));
  const ct_tensor* outs[1] = {s.get()};
  const ct_tensor* ins[1] = {x.get()};
  ASSERT_EQ(ct_autograd_backward(outs, 1, nullptr, ins, 1, 1, 1), CT_OK) << ctt::last_error_str();
  EXPECT_EQ(ct_grad(w), nullptr);  // only inputs accumulate
  TensorRef gx(ct_grad(x));
  EXPECT_EQ(ctt::values(gx), (std::vector<double>{6.0, -4.0}));  // 2 x w
  EXPECT_STREQ(ct_grad_fn_name(gx), "CopyBackwards");  // torch's type name
  TensorRef gw(grad1(gx, w, 0));  // d/dw sum(2 x w) = 2 x
  EXPECT_EQ(ctt::values(gw), (std::vector<double>{2.0, 4.0}));
  EXPECT_EQ(ct_set_grad(x, nullptr), CT_OK);  // breaks the cycle x -> grad -> graph -> x
}

TEST_F(AutogradGrad, RefusesNodeWithoutDifferentiableFormula) {
  // prod's derivative with a zero in its input is the product of the others, computed
  // without a differentiable form
  TensorRef x(leaf({1.5, 0.0, 3.0}));
  TensorRef p(ct_prod(x, 0, nullptr, 0));
  TensorRef g(grad1(p, x, 1));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{0.0, 4.5, 0.0}));
  EXPECT_EQ(ct_requires_grad(g), 1);
  TensorRef s(total(g));
  const ct_tensor* outs[1] = {s.get()};
  const ct_tensor* ins[1] = {x.get()};
  ct_tensor* r[1] = {nullptr};
  CT_EXPECT_FAIL(ct_autograd_grad(outs, 1, nullptr, ins, 1, 0, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "derivative for ProdBackward0 is not implemented");
  EXPECT_EQ(r[0], nullptr);
}

TEST_F(AutogradGrad, Errors) {
  TensorRef x(leaf({1.0, 2.0}));
  TensorRef c(ct_ones(1, std::array<int64_t, 1>{2}.data(), CT_FLOAT64));
  TensorRef y(ct_mul_scalar(x, 2.0));
  TensorRef s(total(y));
  const ct_tensor* outs[1] = {s.get()};
  ct_tensor* r[2] = {nullptr, nullptr};
  const ct_tensor* no_grad_in[2] = {x.get(), c.get()};
  CT_EXPECT_FAIL(ct_autograd_grad(outs, 1, nullptr, no_grad_in, 2, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "One of the differentiated Tensors does not require grad");
  TensorRef u(leaf({0.0}));
  const ct_tensor* unused_in[2] = {x.get(), u.get()};
  CT_EXPECT_FAIL(ct_autograd_grad(outs, 1, nullptr, unused_in, 2, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT,
                 "The differentiated Tensor at index 1 appears to not have been used in the graph. Set "
                 "allow_unused=True if this is the desired behavior.");
  ASSERT_EQ(ct_autograd_grad(outs, 1, nullptr, unused_in, 2, 1, 0, 1, r), CT_OK);
  TensorRef r0(r[0]);
  EXPECT_EQ(r[1], nullptr);
  const ct_tensor* vec_out[1] = {y.get()};
  CT_EXPECT_FAIL(ct_autograd_grad(vec_out, 1, nullptr, unused_in, 1, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "grad can be implicitly created only for scalar outputs");
  CT_EXPECT_FAIL(ct_autograd_grad(outs, 1, nullptr, unused_in, 0, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "`inputs` argument to `grad()` cannot be empty.");
  const ct_tensor* plain_out[1] = {c.get()};
  CT_EXPECT_FAIL(ct_autograd_grad(plain_out, 1, nullptr, unused_in, 1, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "element 0 of tensors does not require grad and does not have a grad_fn");
  CT_EXPECT_FAIL(ct_autograd_grad(nullptr, 1, nullptr, unused_in, 1, 1, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "ct_autograd_grad: outputs is NULL");
  CT_EXPECT_FAIL(ct_autograd_grad(outs, 1, nullptr, unused_in, 1, 1, 0, 0, nullptr), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "ct_autograd_grad: results is NULL");
}

TEST_F(AutogradGrad, BackwardAndGradArgumentErrors) {
  TensorRef x(leaf({1.0, 2.0}));
  TensorRef y(ct_mul_scalar(x, 2.0));
  TensorRef s(total(y));
  TensorRef wrong(ct_ones(1, std::array<int64_t, 1>{3}.data(), CT_FLOAT64));
  const ct_tensor* roots[1] = {s.get()};
  const ct_tensor* vec_roots[1] = {y.get()};
  const ct_tensor* null_entry[1] = {nullptr};
  const ct_tensor* bad_grads[1] = {wrong.get()};
  const ct_tensor* ins[1] = {x.get()};
  ct_tensor* r[1] = {nullptr};
  CT_EXPECT_FAIL(ct_autograd_backward(null_entry, 1, nullptr, nullptr, 0, 0, 0), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "ct_autograd_backward: tensors[0] is NULL");
  CT_EXPECT_FAIL(ct_autograd_backward(roots, 1, nullptr, null_entry, 1, 0, 0), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "ct_autograd_backward: inputs[0] is NULL");
  CT_EXPECT_FAIL(ct_autograd_backward(roots, -1, nullptr, nullptr, 0, 0, 0), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "ct_autograd_backward: tensors count must be >= 0, got -1");
  CT_EXPECT_FAIL(ct_autograd_backward(vec_roots, 1, bad_grads, nullptr, 0, 0, 0), CT_ERR_SHAPE, CT_ERR_SHAPE,
                 "Mismatch in shape: grad_output[0] has a shape of ctensor.Size([3]) and output[0] has a shape of "
                 "ctensor.Size([2]).");
  // no outputs: torch's grad((), inputs), every input unused
  CT_EXPECT_FAIL(ct_autograd_grad(nullptr, 0, nullptr, ins, 1, 0, 0, 0, r), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "The differentiated Tensor at index 0 appears to not have been used");
  EXPECT_EQ(r[0], nullptr);
  r[0] = x;  // overwritten
  CT_ASSERT_OK(ct_autograd_grad(nullptr, 0, nullptr, ins, 1, 0, 0, 1, r));
  EXPECT_EQ(r[0], nullptr);
  CT_ASSERT_OK(ct_autograd_backward(nullptr, 0, nullptr, nullptr, 0, 0, 0));  // torch: nothing to do
  CT_ASSERT_OK(ct_autograd_backward(roots, 1, nullptr, ins, 1, 0, 0));  // the failures above left the graph intact
  TensorRef g(ct_grad(x));
  EXPECT_EQ(ctt::values(g), (std::vector<double>{2.0, 2.0}));
}

}  // namespace
