// ct_add_alpha / ct_sub_alpha and their in-place forms through the public header: one fused
// multiply-add per float element (torch's fmadd, rounded once), wrapping integers, alpha's
// checks with torch's messages, the version bump, and the autograd node.  The value cases are
// chosen so that a product rounded before the sum gives a different float.
#include <cmath>
#include <cstdint>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

// a + alpha * b with one rounding, for a, b and alpha as float32 (what torch's kernel does).
float fused(float a, float b, float alpha) { return std::fmaf(alpha, b, a); }

ct_tensor* floats(const std::vector<float>& v) { return make_from(v, {int64_t(v.size())}, CT_FLOAT32); }

TEST(AddAlpha, FloatIsOneFusedMultiplyAdd) {
  // b * alpha = 1 + 2^-11 + 2^-24 exactly: rounded first it loses the 2^-24
  const float b = 1.0f + 0x1p-12f, alpha = 1.0f + 0x1p-12f, a = -1.0f;
  ASSERT_NE(fused(a, b, alpha), a + b * alpha) << "the case must tell the two roundings apart";
  CT_MAKE(ta, floats({a, a, 2.0f}));
  CT_MAKE(tb, floats({b, -b, 0.5f}));
  CT_MAKE(r, ct_add_alpha(ta, tb, alpha));
  EXPECT_EQ(values(r), (std::vector<double>{fused(a, b, alpha), fused(a, -b, alpha), fused(2.0f, 0.5f, alpha)}));
  CT_MAKE(s, ct_sub_alpha(ta, tb, alpha));  // a - alpha * b is a + (-alpha) * b
  EXPECT_EQ(values(s), (std::vector<double>{fused(a, b, -alpha), fused(a, -b, -alpha), fused(2.0f, 0.5f, -alpha)}));
  EXPECT_EQ(ct_tensor_dtype(r), CT_FLOAT32);
  EXPECT_FALSE(ct_shares_storage(r, ta));
}

TEST(AddAlpha, InPlaceWritesSelfAndBumpsItsVersion) {
  const float b = 1.0f + 0x1p-12f, alpha = 1.0f + 0x1p-12f;
  CT_MAKE(self, floats({-1.0f, 3.0f}));
  CT_MAKE(other, floats({b, b}));
  const int64_t v0 = ct_tensor_version(self);
  CT_ASSERT_OK(ct_sub_alpha_(self, other, -alpha));  // the SGD update: p -= lr * g as p += -lr * g
  EXPECT_EQ(values(self), (std::vector<double>{fused(-1.0f, b, alpha), fused(3.0f, b, alpha)}));
  EXPECT_EQ(ct_tensor_version(self), v0 + 1);
  CT_MAKE(row, floats({1.0f, 2.0f, 3.0f}));
  CT_MAKE(m, zeros({2, 3}));
  CT_ASSERT_OK(ct_add_alpha_(m, row, 2.0));  // broadcast other
  EXPECT_EQ(values(m), (std::vector<double>{2, 4, 6, 2, 4, 6}));
}

TEST(AddAlpha, StridedAndFloat64) {
  CT_MAKE(a, ct_arange(0, 8, 1, CT_FLOAT64));
  CT_MAKE(a2, view(a, {4, 2}));
  CT_MAKE(at, ct_transpose(a2, 0, 1));  // [2, 4], strides (1, 2)
  CT_MAKE(b, full({2, 4}, 0.1, CT_FLOAT64));
  CT_MAKE(r, ct_add_alpha(at, b, 0.3));
  const std::vector<double> got = values(r);
  const std::vector<double> src = {0, 2, 4, 6, 1, 3, 5, 7};
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], std::fma(0.3, 0.1, src[i])) << i;
}

TEST(AddAlpha, IntegersWrapAndBoolsOr) {
  CT_MAKE(a, make_from(std::vector<int8_t>{1, 2}, {2}, CT_INT8));
  CT_MAKE(b, make_from(std::vector<int8_t>{100, 2}, {2}, CT_INT8));
  CT_MAKE(r, ct_add_alpha(a, b, 3));  // 301 wraps to 45, as torch
  EXPECT_EQ(values(r), (std::vector<double>{45, 8}));
  CT_MAKE(t, make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL));
  CT_MAKE(u, make_from(std::vector<uint8_t>{1, 1}, {2}, CT_BOOL));
  CT_MAKE(o, ct_add_alpha(t, u, 0));  // t | (alpha & u)
  EXPECT_EQ(values(o), (std::vector<double>{1, 0}));
}

TEST(AddAlpha, BadAlphaAndArgumentsAreRefused) {
  CT_MAKE(i, make_from(std::vector<int32_t>{1, 2}, {2}, CT_INT32));
  CT_EXPECT_NULL(ct_add_alpha(i, i, 0.5), CT_ERR_INVALID_ARGUMENT,
                 "For integral input tensors, argument alpha must not be a floating point number.");
  CT_MAKE(c, make_from(std::vector<int8_t>{1, 2}, {2}, CT_INT8));
  CT_EXPECT_NULL(ct_sub_alpha(c, c, 300), CT_ERR_INVALID_ARGUMENT,
                 "value cannot be converted to type int8_t without overflow");
  CT_MAKE(h, full({2}, 1.0, CT_FLOAT16));
  CT_EXPECT_NULL(ct_add_alpha(h, h, 1e6), CT_ERR_INVALID_ARGUMENT,
                 "value cannot be converted to type c10::Half without overflow");
  CT_MAKE(bools, make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL));
  CT_EXPECT_NULL(ct_sub_alpha(bools, bools, 2), CT_ERR_DTYPE, "Subtraction, the `-` operator, with two bool tensors");
  CT_MAKE(f, ones({2}));
  CT_EXPECT_FAIL(ct_add_alpha_(i, f, 2), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type Float can't be cast to the desired output type Int");
  CT_MAKE(e, expand(f, {3, 2}));
  CT_EXPECT_FAIL(ct_add_alpha_(e, f, 2), CT_ERR_OVERLAP, CT_ERR_OVERLAP, "more than one element");
  CT_MAKE(wide, ones({3, 2}));
  CT_EXPECT_FAIL(ct_add_alpha_(f, wide, 2), CT_ERR_SHAPE, CT_ERR_SHAPE, "doesn't match the broadcast shape");
  CT_EXPECT_NULL(ct_add_alpha(nullptr, f, 2), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_add_alpha(f, nullptr, 2), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_sub_alpha_(nullptr, f, 2), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  EXPECT_EQ(ct_tensor_version(f), 0);
}

TEST(AddAlpha, AutogradScalesTheSecondGradient) {
  CT_MAKE(x, floats({1, 2, 3}));
  CT_MAKE(y, floats({4, 5, 6}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_ASSERT_OK(ct_set_requires_grad(y, 1));
  CT_MAKE(z, ct_sub_alpha(x, y, 0.5));
  EXPECT_STREQ(ct_grad_fn_name(z), "SubBackward0");
  CT_MAKE(loss, ct_sum(z, 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(loss, nullptr, 0));
  CT_MAKE(gx, ct_grad(x));
  CT_MAKE(gy, ct_grad(y));
  EXPECT_EQ(values(gx), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(values(gy), (std::vector<double>{-0.5, -0.5, -0.5}));
  CT_MAKE(w, ct_add_alpha(x, y, 3));
  EXPECT_STREQ(ct_grad_fn_name(w), "AddBackward0");
}

}  // namespace
