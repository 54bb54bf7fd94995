// Complex autograd through the header (Note [Complex autograd] in src/core/autograd/meta.cpp):
// the gradient of |z|^2 = (z * conj(z)).real summed is 2z, as torch computes it; a real leaf
// of a complex op takes a real gradient; backward from a complex scalar needs a grad.
#include <complex>

#include "test_helpers.h"

namespace {

using c64 = std::complex<float>;

class ComplexAutograd : public ctt::CtTest {};

c64 element(ct_tensor* t, int64_t i) {
  ct_tensor* e = ct_select(t, 0, i);
  double re = 0, im = 0;
  EXPECT_EQ(ct_item_complex(e, &re, &im), CT_OK) << ct_last_error();
  ct_tensor_release(e);
  return c64(float(re), float(im));
}

TEST_F(ComplexAutograd, AbsSquaredGivesTwiceZ) {
  const c64 v[3] = {{1, 2}, {3, -1}, {-0.5f, 0.25f}};
  const int64_t n = 3;
  CT_MAKE(z, ct_from_data(v, 1, &n, CT_COMPLEX64));
  CT_ASSERT_OK(ct_set_requires_grad(z, 1));
  CT_MAKE(zc, ct_conj(z));
  EXPECT_EQ(ct_tensor_is_conj(zc), 1);
  CT_MAKE(p, ct_mul(z, zc));
  CT_MAKE(re, ct_real(p));
  CT_MAKE(loss, ct_sum(re, 0, nullptr, 0));
  EXPECT_EQ(ct_tensor_dtype(loss), CT_FLOAT32);
  CT_ASSERT_OK(ct_backward(loss, nullptr, 0));
  CT_MAKE(g, ct_grad(z));
  EXPECT_EQ(ct_tensor_dtype(g), CT_COMPLEX64);
  EXPECT_EQ(ct_tensor_is_conj(g), 0);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(element(g, i), 2.0f * v[i]) << i;
}

TEST_F(ComplexAutograd, RealLeafTakesTheRealPart) {
  const float v[2] = {1.5f, -2.0f};
  const int64_t n = 2;
  CT_MAKE(x, ct_from_data(v, 1, &n, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_mul_complex_scalar(x, 2, 3));  // x * (2+3j): d|y|^2/dx = 2 * 13 * x
  CT_MAKE(a, ct_abs(y));
  CT_MAKE(a2, ct_mul(a, a));
  CT_MAKE(loss, ct_sum(a2, 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(loss, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  EXPECT_EQ(ct_tensor_dtype(g), CT_FLOAT32);
  for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(element(g, i).real(), 26.0f * v[i], 1e-4) << i;
}

TEST_F(ComplexAutograd, ComplexScalarNeedsAGrad) {
  const c64 v[2] = {{1, 2}, {3, -1}};
  const int64_t n = 2;
  CT_MAKE(z, ct_from_data(v, 1, &n, CT_COMPLEX64));
  CT_ASSERT_OK(ct_set_requires_grad(z, 1));
  CT_MAKE(s, ct_sum(z, 0, nullptr, 0));
  CT_EXPECT_FAIL(ct_backward(s, nullptr, 1), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "grad can be implicitly created only for real scalar outputs but got torch.complex64");
  const c64 one = {1, 0};
  CT_MAKE(g1, ct_from_data(&one, 0, nullptr, CT_COMPLEX64));
  CT_ASSERT_OK(ct_backward(s, g1, 0));
  CT_MAKE(g, ct_grad(z));
  EXPECT_EQ(element(g, 1), c64(1, 0));
}

TEST_F(ComplexAutograd, FillComplexRecordsFillBackward2) {
  const int64_t n = 2;
  CT_MAKE(z, ct_zeros(1, &n, CT_COMPLEX64));
  CT_ASSERT_OK(ct_set_requires_grad(z, 1));
  CT_MAKE(w, ct_mul_scalar(z, 1.0));
  CT_ASSERT_OK(ct_fill_complex_(w, 2, -1));
  EXPECT_EQ(element(w, 1), c64(2, -1));
  EXPECT_STREQ(ct_grad_fn_name(w), "FillBackward2");
  CT_MAKE(r, ct_zeros(1, &n, CT_FLOAT32));
  CT_EXPECT_FAIL(ct_fill_complex_(r, 1, 2), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "value cannot be converted to type float without overflow");
  CT_ASSERT_OK(ct_fill_complex_(r, 1.5, 0));
  EXPECT_EQ(element(r, 0), c64(1.5f, 0));
}

}  // namespace
