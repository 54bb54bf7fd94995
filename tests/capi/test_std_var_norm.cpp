// ct_var, ct_std, ct_var_mean, ct_std_mean and ct_vector_norm through the C header only:
// values (hand-computed), dtypes and shapes, ill-conditioned data, the no-degrees-of-freedom
// results, argument checks (NULL handles, bad ndim, NULL dims, bad dims, integer dtypes) with
// PyTorch's messages, autograd node names and gradients, and ownership (no leaks).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::CtTest;
using ctt::TensorRef;

class StdVarNorm : public CtTest {};

// 1 2 3 / 4 5 6 as float32 (2, 3).
ct_tensor* small() {
  TensorRef f(ctt::make_iota_f32({2, 3}));
  TensorRef one(ctt::full({2, 3}, 1.0));
  return ct_add(f, one);
}

TEST_F(StdVarNorm, VarStdValuesShapesAndCorrection) {
  CT_MAKE(t, small());
  {
    CT_MAKE(v, ct_var(t, 0, nullptr, 1.0, 0));  // mean 3.5, sum of squares 17.5, / 5
    EXPECT_TRUE(ctt::sizes_are(v, {}));
    EXPECT_EQ(ct_tensor_dtype(v), CT_FLOAT32);
    EXPECT_NEAR(ctt::values(v)[0], 3.5, 1e-6);
  }
  {
    CT_MAKE(v, ct_var(t, 0, nullptr, 0.0, 0));
    EXPECT_NEAR(ctt::values(v)[0], 17.5 / 6, 1e-6);
  }
  {
    const int d[] = {-1};
    CT_MAKE(s, ct_std(t, 1, d, 1.0, 1));  // each row: 1 2 3 -> std 1
    EXPECT_TRUE(ctt::sizes_are(s, {2, 1}));
    EXPECT_EQ(ctt::values(s), (std::vector<double>{1.0, 1.0}));
  }
  {
    const int d[] = {0};
    CT_MAKE(v, ct_var(t, 1, d, 0.5, 0));  // columns: (a, a+3): m2 = 4.5, / 1.5 = 3
    EXPECT_TRUE(ctt::sizes_are(v, {3}));
    for (double x : ctt::values(v)) EXPECT_NEAR(x, 3.0, 1e-6);
  }
}

TEST_F(StdVarNorm, VarMeanAndStdMeanReturnBoth) {
  CT_MAKE(t, small());
  const int d[] = {1};
  ct_tensor* m = nullptr;
  CT_MAKE(v, ct_var_mean(t, 1, d, 1.0, 0, &m));
  TensorRef mean(m);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(ctt::values(v), (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(ctt::values(mean), (std::vector<double>{2.0, 5.0}));
  CT_MAKE(s, ct_std_mean(t, 1, d, 1.0, 0, nullptr));  // the mean may be left out
  EXPECT_EQ(ctt::values(s), (std::vector<double>{1.0, 1.0}));
}

TEST_F(StdVarNorm, IllConditionedFloat32KeepsItsDigits) {
  // 1e4 + 0.01 * k: float32 stores these to about 1e-3; the variance of the stored values
  // computed in double is exact to float32 rounding; a naive sum of squares in float32 loses it all.
  std::vector<float> x(1000);
  double mean = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = 1e4f + 0.01f * float(i % 7);
    mean += x[i];
  }
  mean /= double(x.size());
  double m2 = 0;
  for (float xi : x) m2 += (xi - mean) * (xi - mean);
  CT_MAKE(t, ctt::make_from(x, {1000}, CT_FLOAT32));
  CT_MAKE(v, ct_var(t, 0, nullptr, 1.0, 0));
  EXPECT_NEAR(ctt::values(v)[0], m2 / 999, 1e-6 * (m2 / 999));
}

TEST_F(StdVarNorm, NoDegreesOfFreedomGiveNanOrInf) {
  CT_MAKE(one, ctt::full({1}, 5.0));
  CT_MAKE(v, ct_var(one, 0, nullptr, 1.0, 0));
  EXPECT_TRUE(std::isnan(ctt::values(v)[0]));
  CT_MAKE(two, ctt::make_from(std::vector<float>{1, 2}, {2}, CT_FLOAT32));
  CT_MAKE(w, ct_var(two, 0, nullptr, 2.0, 0));
  EXPECT_TRUE(std::isinf(ctt::values(w)[0]));
  CT_MAKE(e, ctt::empty({0, 3}));
  const int d[] = {0};
  CT_MAKE(r, ct_std(e, 1, d, 1.0, 0));
  EXPECT_TRUE(ctt::sizes_are(r, {3}));
  for (double x : ctt::values(r)) EXPECT_TRUE(std::isnan(x));
}

TEST_F(StdVarNorm, HalfTypesKeepTheirDType) {
  for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16, CT_FLOAT64}) {
    CT_MAKE(f, small());
    CT_MAKE(t, ct_to(f, d));
    CT_MAKE(s, ct_std(t, 0, nullptr, 1.0, 0));
    EXPECT_EQ(ct_tensor_dtype(s), d);
    EXPECT_NEAR(ctt::values(s)[0], std::sqrt(3.5), 1e-2);
    CT_MAKE(n, ct_vector_norm(t, 2.0, 0, nullptr, 0, -1));
    EXPECT_EQ(ct_tensor_dtype(n), d);
    EXPECT_NEAR(ctt::values(n)[0], std::sqrt(91.0), 0.1);
  }
}

TEST_F(StdVarNorm, ArgumentErrors) {
  const int d0[] = {0}, dbad[] = {2}, drep[] = {0, -2};
  CT_EXPECT_NULL(ct_var(nullptr, 0, nullptr, 1.0, 0), CT_ERR_INVALID_ARGUMENT, "ct_var");
  CT_EXPECT_NULL(ct_std_mean(nullptr, 0, nullptr, 1.0, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "ct_std_mean");
  CT_EXPECT_NULL(ct_vector_norm(nullptr, 2.0, 0, nullptr, 0, -1), CT_ERR_INVALID_ARGUMENT, "ct_vector_norm");
  CT_MAKE(t, small());
  CT_EXPECT_NULL(ct_std(t, 1, nullptr, 1.0, 0), CT_ERR_INVALID_ARGUMENT, "dims is NULL");
  CT_EXPECT_NULL(ct_std(t, -1, d0, 1.0, 0), CT_ERR_INVALID_ARGUMENT, "ndim must be in");
  CT_EXPECT_NULL(ct_std(t, 1, dbad, 1.0, 0), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_var(t, 2, drep, 1.0, 0), CT_ERR_INVALID_ARGUMENT,
                 "dim 0 appears multiple times in the list of dims");
  CT_EXPECT_NULL(ct_vector_norm(t, 2.0, 1, dbad, 0, -1), CT_ERR_INDEX, "Dimension out of range");
  CT_EXPECT_NULL(ct_vector_norm(t, 2.0, 1, d0, 0, 42), CT_ERR_DTYPE, "");
  ct_tensor* m = nullptr;
  CT_EXPECT_NULL(ct_var_mean(t, 1, dbad, 1.0, 0, &m), CT_ERR_INDEX, "Dimension out of range");
  EXPECT_EQ(m, nullptr);  // written only on success
}

TEST_F(StdVarNorm, IntegerDTypesAreRefused) {
  for (ct_dtype d : {CT_BOOL, CT_UINT8, CT_INT32, CT_INT64}) {
    CT_MAKE(f, small());
    CT_MAKE(t, ct_to(f, d));
    CT_EXPECT_NULL(ct_var(t, 0, nullptr, 1.0, 0), CT_ERR_DTYPE,
                   "std and var only support floating point and complex dtypes");
    CT_EXPECT_NULL(ct_std(t, 0, nullptr, 1.0, 0), CT_ERR_DTYPE,
                   "std and var only support floating point and complex dtypes");
    CT_EXPECT_NULL(ct_std_mean(t, 0, nullptr, 1.0, 0, nullptr), CT_ERR_DTYPE,
                   "std_mean only support floating point and complex dtypes");
    CT_EXPECT_NULL(ct_var_mean(t, 0, nullptr, 1.0, 0, nullptr), CT_ERR_DTYPE,
                   "var_mean only support floating point and complex dtypes");
    CT_EXPECT_NULL(ct_vector_norm(t, 2.0, 0, nullptr, 0, -1), CT_ERR_DTYPE,
                   "linalg.vector_norm: Expected a floating point or complex tensor as input. Got");
  }
  CT_MAKE(t, small());
  CT_EXPECT_NULL(ct_vector_norm(t, 2.0, 0, nullptr, 0, CT_INT64), CT_ERR_DTYPE,
                 "linalg.vector_norm: dtype should be floating point or complex, but got Long");
  CT_EXPECT_NULL(ct_vector_norm(t, 2.0, 0, nullptr, 0, CT_FLOAT16), CT_ERR_DTYPE,
                 "linalg.vector_norm: the dtype of the input (Float) should be convertible without narrowing to "
                 "the specified dtype (Half)");
}

TEST_F(StdVarNorm, NormOrders) {
  CT_MAKE(t, ctt::make_from(std::vector<float>{3, -4, 0, 1}, {4}, CT_FLOAT32));
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    double ord, want;
  } cases[] = {{2, std::sqrt(26.0)}, {1, 8}, {0, 3}, {inf, 4}, {-inf, 0}, {3, std::cbrt(27.0 + 64 + 1)}, {-1, 0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.ord);
    CT_MAKE(n, ct_vector_norm(t, c.ord, 0, nullptr, 0, -1));
    EXPECT_NEAR(ctt::values(n)[0], c.want, 1e-5);
  }
  CT_MAKE(n64, ct_vector_norm(t, 2.0, 0, nullptr, 1, CT_FLOAT64));
  EXPECT_EQ(ct_tensor_dtype(n64), CT_FLOAT64);
  EXPECT_TRUE(ctt::sizes_are(n64, {1}));
  CT_MAKE(e, ctt::empty({0, 3}));
  CT_EXPECT_NULL(ct_vector_norm(e, inf, 0, nullptr, 0, -1), CT_ERR_INVALID_ARGUMENT,
                 "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not "
                 "have an identity");
  const int d0[] = {0}, d1[] = {1};
  CT_EXPECT_NULL(ct_vector_norm(e, -1.0, 1, d0, 0, -1), CT_ERR_INVALID_ARGUMENT,
                 "cannot compute the -1 norm on the dimension 0because this dimension is empty");
  CT_MAKE(ok, ct_vector_norm(e, inf, 1, d1, 0, -1));
  EXPECT_TRUE(ctt::sizes_are(ok, {0}));
  CT_MAKE(zero, ct_vector_norm(e, 2.0, 0, nullptr, 0, -1));
  EXPECT_EQ(ctt::values(zero)[0], 0.0);
}

TEST_F(StdVarNorm, AutogradNamesAndGradients) {
  CT_MAKE(t, ctt::make_from(std::vector<double>{1, 2, 4, 0}, {4}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(t, 1));
  {
    CT_MAKE(v, ct_var(t, 0, nullptr, 1.0, 0));
    EXPECT_STREQ(ct_grad_fn_name(v), "VarBackward0");
    CT_ASSERT_OK(ct_backward(v, nullptr, 0));
    CT_MAKE(g, ct_grad(t));  // 2 / 3 * (x - 7/4)
    const std::vector<double> want{2.0 / 3 * -0.75, 2.0 / 3 * 0.25, 2.0 / 3 * 2.25, 2.0 / 3 * -1.75};
    const std::vector<double> got = ctt::values(g);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-12);
  }
  {
    CT_MAKE(s, ct_std(t, 0, nullptr, 1.0, 0));
    EXPECT_STREQ(ct_grad_fn_name(s), "StdBackward0");
    ct_tensor* m = nullptr;
    CT_MAKE(sd, ct_std_mean(t, 0, nullptr, 1.0, 0, &m));
    TensorRef mean(m);
    EXPECT_STREQ(ct_grad_fn_name(sd), "StdMeanBackward0");
    EXPECT_STREQ(ct_grad_fn_name(mean), "StdMeanBackward0");
    CT_MAKE(vm, ct_var_mean(t, 0, nullptr, 1.0, 0, nullptr));
    EXPECT_STREQ(ct_grad_fn_name(vm), "VarMeanBackward0");
    CT_MAKE(n, ct_vector_norm(t, 2.0, 0, nullptr, 0, -1));
    EXPECT_STREQ(ct_grad_fn_name(n), "LinalgVectorNormBackward0");
  }
  {
    // the subgradient at zero: 0, where torch defines it so
    CT_MAKE(z, ctt::zeros({3}, CT_FLOAT64));
    CT_ASSERT_OK(ct_set_requires_grad(z, 1));
    CT_MAKE(n, ct_vector_norm(z, 2.0, 0, nullptr, 0, -1));
    CT_ASSERT_OK(ct_backward(n, nullptr, 0));
    CT_MAKE(g, ct_grad(z));
    EXPECT_EQ(ctt::values(g), (std::vector<double>{0, 0, 0}));
  }
}

}  // namespace
