// pow, floor_divide, remainder, fmod through the public header: values and dtypes torch 2.13
// printed (python -c "import torch; print(torch.tensor([-7]) // 2)" and the like), torch's
// refusals, and NULL / bad arguments.  The operand-kind and dtype sweep is differential in
// tests/python/test_pow_floor_norm.py.
#include <cmath>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class BinaryMath : public CtTest {};

template <class T>
ct_tensor* vec(std::vector<T> v, ct_dtype d) {
  return make_from(v, {int64_t(v.size())}, d);
}

TEST_F(BinaryMath, IntegerFloorDivideAndRemainderFollowTheDivisorsSign) {
  CT_MAKE(a, vec<int64_t>({-7, 7, -7, 7}, CT_INT64));
  CT_MAKE(b, vec<int64_t>({2, -2, -2, 2}, CT_INT64));
  CT_MAKE(q, ct_floor_divide(a, b));
  CT_MAKE(r, ct_remainder(a, b));
  CT_MAKE(f, ct_fmod(a, b));
  EXPECT_EQ(values(q), (std::vector<double>{-4, -4, 3, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{1, -1, -1, 1}));
  EXPECT_EQ(values(f), (std::vector<double>{-1, 1, -1, 1}));
  EXPECT_EQ(ct_tensor_dtype(q), CT_INT64);
}

TEST_F(BinaryMath, IntegerDivisionByZeroIsTorchsZeroDivisionError) {
  CT_MAKE(a, vec<int32_t>({1, 2}, CT_INT32));
  CT_MAKE(z, vec<int32_t>({1, 0}, CT_INT32));
  CT_EXPECT_NULL(ct_floor_divide(a, z), CT_ERR_INVALID_ARGUMENT, "ZeroDivisionError");
  CT_EXPECT_NULL(ct_remainder(a, z), CT_ERR_INVALID_ARGUMENT, "ZeroDivisionError");
  CT_EXPECT_NULL(ct_fmod(a, z), CT_ERR_INVALID_ARGUMENT, "ZeroDivisionError");
  const int64_t version = ct_tensor_version(a);
  CT_EXPECT_FAIL(ct_floor_divide_(a, z), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ZeroDivisionError");
  EXPECT_EQ(values(a), (std::vector<double>{1, 2}));  // checked before any write
  EXPECT_EQ(ct_tensor_version(a), version);
  // floats: inf and nan, as torch
  CT_MAKE(f, vec<float>({1.0f, -1.0f}, CT_FLOAT32));
  CT_MAKE(q, ct_floor_divide_scalar(f, 0.0));
  EXPECT_EQ(values(q), (std::vector<double>{INFINITY, -INFINITY}));
}

TEST_F(BinaryMath, FloorDivideOfMinByMinusOneWraps) {
  CT_MAKE(a, vec<int8_t>({-128}, CT_INT8));
  CT_MAKE(m1, vec<int8_t>({-1}, CT_INT8));
  CT_MAKE(q, ct_floor_divide(a, m1));
  CT_MAKE(r, ct_remainder(a, m1));
  EXPECT_EQ(values(q), (std::vector<double>{-128}));
  EXPECT_EQ(values(r), (std::vector<double>{0}));
}

TEST_F(BinaryMath, FloatFloorDivideIsTorchsNotTheTrueQuotientFloored) {
  CT_MAKE(a, vec<double>({5.0}, CT_FLOAT64));
  CT_MAKE(q, ct_floor_divide_scalar(a, 0.1));  // torch (and Python): 49.0
  EXPECT_EQ(values(q), (std::vector<double>{49.0}));
  CT_MAKE(r, ct_rremainder_scalar(a, -7.5));   // -7.5 % 5 == 2.5
  EXPECT_EQ(values(r), (std::vector<double>{2.5}));
  CT_MAKE(rq, ct_rfloor_divide_scalar(a, -7.5));  // -7.5 // 5 == -2
  EXPECT_EQ(values(rq), (std::vector<double>{-2.0}));
}

TEST_F(BinaryMath, PowDtypesAndEdgeValues) {
  CT_MAKE(i, vec<int32_t>({2, -3, 0}, CT_INT32));
  CT_MAKE(sq, ct_pow_int(i, 2));
  EXPECT_EQ(ct_tensor_dtype(sq), CT_INT32);
  EXPECT_EQ(values(sq), (std::vector<double>{4, 9, 0}));
  CT_MAKE(fl, ct_pow_scalar(i, 0.5));  // an int tensor with a Python float: float32
  EXPECT_EQ(ct_tensor_dtype(fl), CT_FLOAT32);
  EXPECT_TRUE(std::isnan(values(fl)[1]));
  CT_MAKE(r, ct_rpow_scalar(i, 2.0));
  EXPECT_EQ(ct_tensor_dtype(r), CT_FLOAT32);
  EXPECT_EQ(values(r), (std::vector<double>{4.0, 0.125, 1.0}));
  CT_MAKE(b, vec<uint8_t>({1, 0}, CT_BOOL));
  CT_MAKE(bp, ct_pow_int(b, 2));
  EXPECT_EQ(ct_tensor_dtype(bp), CT_INT64);
  CT_MAKE(i8, vec<int8_t>({3}, CT_INT8));
  CT_MAKE(w, ct_pow_int(i8, 10));  // wraps: -87
  EXPECT_EQ(values(w), (std::vector<double>{-87}));
  CT_MAKE(z, vec<float>({0.0f}, CT_FLOAT32));
  CT_MAKE(zz, ct_pow(z, z));
  EXPECT_EQ(values(zz), (std::vector<double>{1.0}));
  CT_MAKE(e, vec<int64_t>({1, -1, 2}, CT_INT64));
  CT_MAKE(m, vec<int64_t>({-3, -3, -1}, CT_INT64));
  CT_MAKE(neg, ct_pow(e, m));  // tensor ** tensor: no refusal, 0 except for +-1
  EXPECT_EQ(values(neg), (std::vector<double>{1, -1, 0}));
}

TEST_F(BinaryMath, RefusalsAsTorch) {
  CT_MAKE(i, vec<int32_t>({2}, CT_INT32));
  CT_MAKE(i8, vec<int8_t>({2}, CT_INT8));
  CT_MAKE(b, vec<uint8_t>({1}, CT_BOOL));
  CT_EXPECT_NULL(ct_pow_int(i, -1), CT_ERR_INVALID_ARGUMENT, "Integers to negative integer powers are not allowed.");
  CT_EXPECT_NULL(ct_pow_int(i8, 200), CT_ERR_INVALID_ARGUMENT, "value cannot be converted to type int8_t without overflow");
  CT_EXPECT_NULL(ct_pow(b, b), CT_ERR_DTYPE, "\"pow\" not implemented for 'Bool'");
  CT_EXPECT_NULL(ct_floor_divide(b, b), CT_ERR_DTYPE, "\"div_floor_cpu\" not implemented for 'Bool'");
  CT_EXPECT_NULL(ct_remainder(b, b), CT_ERR_DTYPE, "\"remainder_cpu\" not implemented for 'Bool'");
  CT_EXPECT_NULL(ct_fmod(b, b), CT_ERR_DTYPE, "\"fmod_cpu\" not implemented for 'Bool'");
  CT_EXPECT_FAIL(ct_pow_scalar_(i, 2.5), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type Float can't be cast to the desired output type Int");
  CT_EXPECT_FAIL(ct_pow_int_(i, -2), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Integers to negative integer powers are not allowed.");
  CT_MAKE(v3, vec<int32_t>({1, 2, 3}, CT_INT32));
  CT_MAKE(v2, vec<int32_t>({1, 2}, CT_INT32));
  CT_EXPECT_NULL(ct_remainder(v3, v2), CT_ERR_SHAPE, "The size of tensor a (3) must match the size of tensor b (2)");
  CT_EXPECT_FAIL(ct_fmod_(i, v3), CT_ERR_SHAPE, CT_ERR_SHAPE, "output with shape [1] doesn't match the broadcast shape [3]");
}

TEST_F(BinaryMath, InPlaceWritesSelfAndBumpsItsVersion) {
  CT_MAKE(a, vec<float>({-7.5f, 7.5f}, CT_FLOAT32));
  const int64_t v = ct_tensor_version(a);
  CT_ASSERT_OK(ct_remainder_scalar_(a, 2.0));
  EXPECT_EQ(values(a), (std::vector<double>{0.5, 1.5}));
  CT_ASSERT_OK(ct_pow_int_(a, 2));
  EXPECT_EQ(values(a), (std::vector<double>{0.25, 2.25}));
  CT_ASSERT_OK(ct_fmod_scalar_(a, 2.0));
  CT_ASSERT_OK(ct_floor_divide_scalar_(a, 1.0));
  EXPECT_EQ(values(a), (std::vector<double>{0.0, 0.0}));
  CT_MAKE(e, vec<float>({3.0f, 3.0f}, CT_FLOAT32));
  CT_ASSERT_OK(ct_pow_(a, e));
  CT_ASSERT_OK(ct_pow_scalar_(a, 1.5));
  EXPECT_EQ(ct_tensor_version(a), v + 6);
}

TEST_F(BinaryMath, NullHandlesAreRefused) {
  CT_MAKE(a, vec<float>({1.0f}, CT_FLOAT32));
  CT_EXPECT_NULL(ct_pow(nullptr, a), CT_ERR_INVALID_ARGUMENT, "ct_pow: a is NULL");
  CT_EXPECT_NULL(ct_pow(a, nullptr), CT_ERR_INVALID_ARGUMENT, "ct_pow: b is NULL");
  CT_EXPECT_NULL(ct_pow_scalar(nullptr, 2.0), CT_ERR_INVALID_ARGUMENT, "ct_pow_scalar: tensor is NULL");
  CT_EXPECT_NULL(ct_pow_int(nullptr, 2), CT_ERR_INVALID_ARGUMENT, "ct_pow_int: tensor is NULL");
  CT_EXPECT_NULL(ct_rpow_scalar(nullptr, 2.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_NULL(ct_floor_divide(a, nullptr), CT_ERR_INVALID_ARGUMENT, "ct_floor_divide: b is NULL");
  CT_EXPECT_NULL(ct_floor_divide_scalar(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_NULL(ct_rfloor_divide_scalar(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_NULL(ct_remainder(nullptr, a), CT_ERR_INVALID_ARGUMENT, "ct_remainder: a is NULL");
  CT_EXPECT_NULL(ct_remainder_scalar(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_NULL(ct_rremainder_scalar(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_NULL(ct_fmod(nullptr, a), CT_ERR_INVALID_ARGUMENT, "ct_fmod: a is NULL");
  CT_EXPECT_NULL(ct_fmod_scalar(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_pow_(nullptr, a), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_pow_: self is NULL");
  CT_EXPECT_FAIL(ct_pow_(a, nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_pow_: other is NULL");
  CT_EXPECT_FAIL(ct_pow_scalar_(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_pow_int_(nullptr, 1), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_floor_divide_(nullptr, a), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_floor_divide_scalar_(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_remainder_(a, nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_remainder_scalar_(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_fmod_(nullptr, a), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
  CT_EXPECT_FAIL(ct_fmod_scalar_(nullptr, 1.0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "is NULL");
}

TEST_F(BinaryMath, AutogradNodesAndFloorDivideRefusal) {
  CT_MAKE(x, vec<double>({3.0, 4.0}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(y, ct_pow_int(x, 2));
  CT_MAKE(s, ct_sum(y, 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(s, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  EXPECT_EQ(values(g), (std::vector<double>{6.0, 8.0}));
  CT_MAKE(q, ct_floor_divide_scalar(x, 2.0));
  EXPECT_EQ(ct_requires_grad(q), 1);
  CT_MAKE(qs, ct_sum(q, 0, nullptr, 0));
  CT_EXPECT_FAIL(ct_backward(qs, nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "derivative for aten::floor_divide is not implemented");
}

}  // namespace

namespace {

class LinspaceEye : public ctt::CtTest {};

TEST_F(LinspaceEye, ValuesAsTorch) {
  // torch.linspace(0, 10, 5, dtype=torch.int64) -> [0, 2, 5, 7, 10] (steps in double, truncated)
  CT_MAKE(a, ct_linspace(0, 10, 5, CT_INT64));
  EXPECT_EQ(ctt::values(a), (std::vector<double>{0, 2, 5, 7, 10}));
  // torch.linspace(3, -2.5, 7)[3] -> 0.25000006 (a fused multiply-add in torch's kernel)
  CT_MAKE(f, ct_linspace(3, -2.5, 7, CT_FLOAT32));
  EXPECT_EQ(ctt::values(f)[3], double(0.2500000596046448f));
  CT_MAKE(one, ct_linspace(3, 1, 1, CT_FLOAT32));
  EXPECT_EQ(ctt::values(one), (std::vector<double>{3}));
  CT_MAKE(none, ct_linspace(3, 1, 0, CT_FLOAT64));
  EXPECT_TRUE(ctt::sizes_are(none, {0}));
  CT_MAKE(b1, ct_linspace(1, 0, 1, CT_BOOL));  // torch fills one step without its kernel
  EXPECT_EQ(ctt::values(b1), (std::vector<double>{1}));
  CT_MAKE(e, ct_eye(2, 3, CT_INT32));
  EXPECT_TRUE(ctt::geometry_is(e, {2, 3}, {3, 1}, 0));
  EXPECT_EQ(ctt::values(e), (std::vector<double>{1, 0, 0, 0, 1, 0}));
  CT_MAKE(e0, ct_eye(0, 3, CT_BOOL));
  EXPECT_TRUE(ctt::sizes_are(e0, {0, 3}));
}

TEST_F(LinspaceEye, BadArguments) {
  CT_EXPECT_NULL(ct_linspace(0, 1, -1, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "number of steps must be non-negative");
  CT_EXPECT_NULL(ct_linspace(0, 1, 2, CT_BOOL), CT_ERR_DTYPE, "\"linspace_cpu\" not implemented for 'Bool'");
  CT_EXPECT_NULL(ct_linspace(0, INFINITY, 3, CT_INT32), CT_ERR_INVALID_ARGUMENT, "must be finite");
  CT_EXPECT_NULL(ct_linspace(0, 1, 3, (ct_dtype)42), CT_ERR_DTYPE, "ct_linspace: invalid dtype 42");
  CT_EXPECT_NULL(ct_eye(-1, 2, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "n must be greater or equal to 0, got -1");
  CT_EXPECT_NULL(ct_eye(2, -1, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "m must be greater or equal to 0, got -1");
  CT_EXPECT_NULL(ct_eye(2, 2, (ct_dtype)-3), CT_ERR_DTYPE, "ct_eye: invalid dtype -3");
  CT_EXPECT_NULL_IN(ct_eye(INT64_MAX, INT64_MAX, CT_FLOAT32), "", CT_ERR_INVALID_ARGUMENT, CT_ERR_OUT_OF_MEMORY,
                    CT_ERR_SHAPE);
}

}  // namespace
