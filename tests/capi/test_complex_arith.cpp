// Complex arithmetic through the header: + - * / between complex tensors and with complex
// scalars (ct_*_complex_scalar), their promotion, in-place refusals, neg/abs, eq/ne,
// sum/mean/prod, ct_matmul and ct_vdot, and torch 2.13's refusals of the ops it does not
// define for complex.  Expected values were computed with torch 2.13.
#include <complex>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

class ComplexArith : public ctt::CtTest {};

template <class T>
std::vector<T> values(const ct_tensor* t) {
  TensorRef c(ct_contiguous(t));
  const T* p = static_cast<const T*>(ct_tensor_data(c.get()));
  return std::vector<T>(p, p + ct_tensor_numel(t));
}

ct_tensor* vec64(std::initializer_list<c64> v) {
  const int64_t n = int64_t(v.size());
  return ct_from_data(std::data(v), 1, &n, CT_COMPLEX64);
}

TEST_F(ComplexArith, TensorTensorOps) {
  CT_MAKE(a, vec64({{1, 2}, {3, -1}, {0, 5}}));
  CT_MAKE(b, vec64({{1, 1}, {2, 0}, {0, -1}}));
  CT_MAKE(s, ct_add(a, b));
  EXPECT_EQ(values<c64>(s), (std::vector<c64>{{2, 3}, {5, -1}, {0, 4}}));
  CT_MAKE(d, ct_sub(a, b));
  EXPECT_EQ(values<c64>(d), (std::vector<c64>{{0, 1}, {1, -1}, {0, 6}}));
  CT_MAKE(m, ct_mul(a, b));
  EXPECT_EQ(values<c64>(m), (std::vector<c64>{{-1, 3}, {6, -2}, {5, 0}}));
  CT_MAKE(q, ct_div(a, b));
  EXPECT_EQ(values<c64>(q), (std::vector<c64>{{1.5f, 0.5f}, {1.5f, -0.5f}, {-5, 0}}));
  EXPECT_EQ(ct_tensor_dtype(q), CT_COMPLEX64);
  EXPECT_EQ(ct_shares_storage(q, a), 0);
  // float32 with complex64 -> complex64; float64 with complex64 -> complex128
  const int64_t n = 3;
  CT_MAKE(f32, ct_ones(1, &n, CT_FLOAT32));
  CT_MAKE(f64, ct_ones(1, &n, CT_FLOAT64));
  CT_MAKE(r1, ct_mul(f32, a));
  EXPECT_EQ(ct_tensor_dtype(r1), CT_COMPLEX64);
  CT_MAKE(r2, ct_mul(f64, a));
  EXPECT_EQ(ct_tensor_dtype(r2), CT_COMPLEX128);
  EXPECT_EQ(values<c128>(r2)[0], c128(1, 2));
}

TEST_F(ComplexArith, ComplexScalarsPromoteAsPythonComplex) {
  const int64_t n = 2;
  CT_MAKE(i32, ct_ones(1, &n, CT_INT32));
  CT_MAKE(r, ct_mul_complex_scalar(i32, 0, 1));
  EXPECT_EQ(ct_tensor_dtype(r), CT_COMPLEX64);  // the default complex dtype
  EXPECT_EQ(values<c64>(r)[1], c64(0, 1));
  CT_MAKE(f64, ct_ones(1, &n, CT_FLOAT64));
  CT_MAKE(r2, ct_add_complex_scalar(f64, 0.5, 0.25));
  EXPECT_EQ(ct_tensor_dtype(r2), CT_COMPLEX128);
  EXPECT_EQ(values<c128>(r2)[0], c128(1.5, 0.25));
  CT_MAKE(z, vec64({{1, 2}, {3, -1}}));
  CT_MAKE(r3, ct_div_complex_scalar(z, 1, 1));
  EXPECT_EQ(values<c64>(r3), (std::vector<c64>{{1.5f, 0.5f}, {1, -2}}));
  CT_MAKE(r4, ct_rsub_complex_scalar(z, 0, 1));  // 1j - z
  EXPECT_EQ(values<c64>(r4), (std::vector<c64>{{-1, -1}, {-3, 2}}));
  CT_MAKE(r5, ct_rdiv_complex_scalar(z, 0, 5));  // 5j / z = z.reciprocal() * 5j
  EXPECT_EQ(ct_tensor_dtype(r5), CT_COMPLEX64);
  EXPECT_NEAR(values<c64>(r5)[0].real(), 2.0f, 1e-6);
  EXPECT_NEAR(values<c64>(r5)[0].imag(), 1.0f, 1e-6);
  CT_MAKE(r6, ct_sub_complex_scalar(z, 1, 1));
  EXPECT_EQ(values<c64>(r6), (std::vector<c64>{{0, 1}, {2, -2}}));
  CT_MAKE(h, ct_ones(1, &n, CT_FLOAT16));
  CT_EXPECT_NULL(ct_mul_complex_scalar(h, 0, 1), CT_ERR_DTYPE, "complex32");
}

TEST_F(ComplexArith, InPlace) {
  CT_MAKE(z, vec64({{1, 2}, {3, -1}}));
  const int64_t v0 = ct_tensor_version(z);
  CT_ASSERT_OK(ct_mul_complex_scalar_(z, 0, 1));
  EXPECT_EQ(values<c64>(z), (std::vector<c64>{{-2, 1}, {1, 3}}));
  CT_ASSERT_OK(ct_add_complex_scalar_(z, 2, 0));
  CT_ASSERT_OK(ct_sub_complex_scalar_(z, 0, 1));
  CT_ASSERT_OK(ct_div_complex_scalar_(z, 2, 0));
  EXPECT_EQ(values<c64>(z), (std::vector<c64>{{0, 0}, {1.5f, 1}}));
  EXPECT_EQ(ct_tensor_version(z), v0 + 4);
  CT_ASSERT_OK(ct_mul_scalar_(z, 2.0));  // a real scalar keeps complex64
  EXPECT_EQ(ct_tensor_dtype(z), CT_COMPLEX64);
  const int64_t n = 2;
  CT_MAKE(f, ct_ones(1, &n, CT_FLOAT32));
  CT_EXPECT_FAIL(ct_mul_complex_scalar_(f, 0, 1), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type ComplexFloat can't be cast to the desired output type Float");
  CT_EXPECT_FAIL(ct_add_(f, z), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type ComplexFloat can't be cast to the desired output type Float");
  CT_MAKE(i, ct_ones(1, &n, CT_INT64));
  CT_EXPECT_FAIL(ct_mul_complex_scalar_(i, 0, 1), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type ComplexFloat can't be cast to the desired output type Long");
}

TEST_F(ComplexArith, NegAbsCompare) {
  CT_MAKE(z, vec64({{3, 4}, {0, -1}, {-5, 12}}));
  CT_MAKE(n, ct_neg(z));
  EXPECT_EQ(values<c64>(n), (std::vector<c64>{{-3, -4}, {0, 1}, {5, -12}}));
  CT_MAKE(a, ct_abs(z));
  EXPECT_EQ(ct_tensor_dtype(a), CT_FLOAT32);
  EXPECT_EQ(values<float>(a), (std::vector<float>{5, 1, 13}));
  CT_EXPECT_FAIL(ct_abs_(z), CT_ERR_DTYPE, CT_ERR_DTYPE, "In-place abs is not supported for complex tensors.");
  CT_MAKE(e, ct_eq_complex_scalar(z, 0, -1));
  EXPECT_EQ(values<bool>(e), (std::vector<bool>{false, true, false}));
  CT_MAKE(ne, ct_ne_complex_scalar(z, 0, -1));
  EXPECT_EQ(values<bool>(ne), (std::vector<bool>{true, false, true}));
  CT_MAKE(ee, ct_eq(z, z));
  EXPECT_EQ(values<bool>(ee), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(ct_equal(z, z), 1);
  EXPECT_EQ(ct_equal(z, n), 0);
  EXPECT_EQ(ct_allclose(z, z, 1e-5, 1e-8), 1);
  CT_EXPECT_NULL(ct_lt(z, z), CT_ERR_DTYPE, "\"lt_cpu\" not implemented for 'ComplexFloat'");
  CT_EXPECT_NULL(ct_ge_scalar(z, 1.0), CT_ERR_DTYPE, "\"ge_cpu\" not implemented for 'ComplexFloat'");
  CT_EXPECT_NULL(ct_maximum(z, z), CT_ERR_DTYPE, "maximum not implemented for complex tensors.");
}

TEST_F(ComplexArith, Reductions) {
  CT_MAKE(z, vec64({{1, 2}, {3, -1}, {0.5f, 0.25f}}));
  CT_MAKE(s, ct_sum(z, 0, nullptr, 0));
  EXPECT_EQ(values<c64>(s)[0], c64(4.5f, 1.25f));
  CT_MAKE(m, ct_mean(z, 0, nullptr, 0));
  EXPECT_EQ(ct_tensor_dtype(m), CT_COMPLEX64);
  EXPECT_EQ(values<c64>(m)[0], c64(1.5f, 0x1.aaaaacp-2f));  // torch: each part times 1/3 (0.41666669)
  CT_MAKE(p, ct_prod(z, 0, nullptr, 0));
  EXPECT_EQ(values<c64>(p)[0], c64(1.25f, 3.75f));  // (5+5j)(0.5+0.25j)
  const int dim = 0;
  CT_MAKE(sk, ct_sum(z, 1, &dim, 1));
  EXPECT_EQ(ct_tensor_ndim(sk), 1);
  CT_EXPECT_NULL(ct_amax(z, 0, nullptr, 0), CT_ERR_DTYPE, "\"max_values_cpu\" not implemented for 'ComplexFloat'");
  CT_EXPECT_NULL(ct_argmax(z, 0, 0), CT_ERR_DTYPE, "argmax(): does not support complex input");
}

TEST_F(ComplexArith, MatmulAndVdot) {
  // [[1+1j, 2], [0, 1j]] @ [[1, 1j], [1j, 1]]
  const c128 A[4] = {{1, 1}, {2, 0}, {0, 0}, {0, 1}};
  const c128 B[4] = {{1, 0}, {0, 1}, {0, 1}, {1, 0}};
  const int64_t s2[2] = {2, 2};
  CT_MAKE(a, ct_from_data(A, 2, s2, CT_COMPLEX128));
  CT_MAKE(b, ct_from_data(B, 2, s2, CT_COMPLEX128));
  CT_MAKE(c, ct_matmul(a, b));
  EXPECT_EQ(values<c128>(c), (std::vector<c128>{{1, 3}, {1, 1}, {-1, 0}, {0, 1}}));
  CT_MAKE(at, ct_transpose(a, 0, 1));
  CT_MAKE(ct_, ct_matmul(at, b));  // a transposed operand, read in place by BLAS
  EXPECT_EQ(values<c128>(ct_), (std::vector<c128>{{1, 1}, {-1, 1}, {1, 0}, {0, 3}}));
  CT_MAKE(x, vec64({{1, 2}, {3, -1}}));
  CT_MAKE(d, ct_matmul(x, x));  // dot: unconjugated
  EXPECT_EQ(values<c64>(d)[0], c64(5, -2));
  CT_MAKE(vd, ct_vdot(x, x));  // vdot: the first argument conjugated
  EXPECT_EQ(values<c64>(vd)[0], c64(15, 0));
  const int64_t n = 2;
  CT_MAKE(f, ct_ones(1, &n, CT_FLOAT32));
  CT_EXPECT_NULL(ct_vdot(x, f), CT_ERR_DTYPE, "vdot : expected both vectors to have same dtype, but found ComplexFloat and Float");
  CT_EXPECT_NULL(ct_vdot(a, x), CT_ERR_SHAPE, "1D tensors expected, but got 2D and 1D tensors");
  CT_EXPECT_NULL(ct_matmul(x, f), CT_ERR_DTYPE, "expected both vectors to have same dtype");
}

}  // namespace
