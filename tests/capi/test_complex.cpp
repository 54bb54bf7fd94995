// Complex tensors through the header: the two dtypes, conversions to and from them, fills,
// printing, ct_item_complex, and the views between a complex tensor and its parts
// (ct_view_as_real, ct_view_as_complex, ct_real, ct_imag) with torch 2.13's geometry and errors.
#include <complex>
#include <string>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;
using c64 = std::complex<float>;

class Complex : public ctt::CtTest {};

TEST_F(Complex, DtypesNamesAndSizes) {
  EXPECT_STREQ(ct_dtype_name(CT_COMPLEX64), "complex64");
  EXPECT_STREQ(ct_dtype_name(CT_COMPLEX128), "complex128");
  EXPECT_EQ(ct_dtype_itemsize(CT_COMPLEX64), 8);
  EXPECT_EQ(ct_dtype_itemsize(CT_COMPLEX128), 16);
  CT_EXPECT_FAIL(ct_dtype_name(ct_dtype(12)), nullptr, CT_ERR_DTYPE, "invalid dtype 12");
}

TEST_F(Complex, FromDataPrintsAsTorch) {
  const c64 v[3] = {{1, 2}, {3, -1}, {0, 5}};
  const int64_t n = 3;
  CT_MAKE(x, ct_from_data(v, 1, &n, CT_COMPLEX64));
  EXPECT_EQ(ctt::repr(x), "tensor([1.+2.j, 3.-1.j, 0.+5.j])");
  CT_MAKE(y, ct_to(x, CT_COMPLEX128));
  EXPECT_EQ(ctt::repr(y), "tensor([1.+2.j, 3.-1.j, 0.+5.j], dtype=ctensor.complex128)");
  CT_MAKE(r, ct_to(x, CT_FLOAT32));  // the real parts, as torch's cast
  EXPECT_EQ(ctt::repr(r), "tensor([1., 3., 0.])");
  CT_MAKE(b, ct_to(x, CT_BOOL));
  EXPECT_EQ(ctt::repr(b), "tensor([True, True, True])");
  CT_MAKE(f, ct_full(1, &n, 2.5, CT_COMPLEX64));
  EXPECT_EQ(ctt::repr(f), "tensor([2.5000+0.j, 2.5000+0.j, 2.5000+0.j])");
}

TEST_F(Complex, ItemComplexAndItemRefusal) {
  const c64 v = {1.5f, -2.0f};
  CT_MAKE(x, ct_from_data(&v, 0, nullptr, CT_COMPLEX64));
  double re = 0, im = 0;
  CT_ASSERT_OK(ct_item_complex(x, &re, &im));
  EXPECT_EQ(re, 1.5);
  EXPECT_EQ(im, -2.0);
  double d = 0;
  CT_EXPECT_FAIL(ct_item(x, &d), CT_ERR_DTYPE, CT_ERR_DTYPE, "ct_item_complex reads both");
  CT_EXPECT_FAIL(ct_item_complex(x, nullptr, &im), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_MAKE(one, ct_ones(0, nullptr, CT_INT64));
  CT_ASSERT_OK(ct_item_complex(one, &re, &im));
  EXPECT_EQ(re, 1.0);
  EXPECT_EQ(im, 0.0);
}

TEST_F(Complex, PartViewsShareStorageAndCounter) {
  const int64_t sizes[2] = {3, 4};
  CT_MAKE(z, ct_zeros(2, sizes, CT_COMPLEX128));
  CT_MAKE(zt, ct_transpose(z, 0, 1));
  CT_MAKE(r, ct_view_as_real(zt));
  EXPECT_EQ(ct_tensor_dtype(r), CT_FLOAT64);
  EXPECT_TRUE(ctt::geometry_is(r, {4, 3, 2}, {2, 8, 1}, 0));
  EXPECT_TRUE(ctt::is_view_of(r, z));
  CT_MAKE(im, ct_imag(zt));
  EXPECT_TRUE(ctt::geometry_is(im, {4, 3}, {2, 8}, 1));
  CT_MAKE(re, ct_real(zt));
  EXPECT_TRUE(ctt::geometry_is(re, {4, 3}, {2, 8}, 0));
  const int64_t v0 = ct_tensor_version(z);
  CT_ASSERT_OK(ct_fill_(im, 7.0));  // writes the imaginary parts of z
  EXPECT_EQ(ct_tensor_version(z), v0 + 1);
  const auto* data = static_cast<const std::complex<double>*>(ct_tensor_data(z));
  EXPECT_EQ(data[5], std::complex<double>(0, 7));
  CT_MAKE(back, ct_view_as_complex(r));
  EXPECT_EQ(ct_tensor_dtype(back), CT_COMPLEX128);
  EXPECT_TRUE(ctt::geometry_is(back, {4, 3}, {1, 4}, 0));
  EXPECT_TRUE(ctt::is_view_of(back, z));
}

TEST_F(Complex, RealOfARealTensorIsItself) {
  const int64_t n = 3;
  CT_MAKE(x, ct_ones(1, &n, CT_FLOAT32));
  CT_MAKE(r, ct_real(x));
  EXPECT_EQ(r.get(), x.get());
  CT_EXPECT_NULL(ct_imag(x), CT_ERR_DTYPE, "imag is not implemented for tensors with non-complex dtypes.");
  CT_EXPECT_NULL(ct_view_as_real(x), CT_ERR_DTYPE, "view_as_real is only supported for complex tensors");
}

TEST_F(Complex, ViewAsComplexChecksInTorchsOrder) {
  const int64_t s32[2] = {3, 2}, s33[2] = {3, 3}, s7 = 7;
  CT_MAKE(i64, ct_zeros(2, s32, CT_INT64));
  CT_EXPECT_NULL(ct_view_as_complex(i64), CT_ERR_DTYPE,
                 "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar "
                 "type: Long");
  CT_MAKE(h, ct_zeros(2, s32, CT_FLOAT16));
  CT_EXPECT_NULL(ct_view_as_complex(h), CT_ERR_DTYPE, "complex32");
  CT_MAKE(s, ct_zeros(0, nullptr, CT_FLOAT32));
  CT_EXPECT_NULL(ct_view_as_complex(s), CT_ERR_SHAPE, "Input tensor must have one or more dimensions");
  CT_MAKE(m, ct_zeros(2, s33, CT_FLOAT32));
  CT_EXPECT_NULL(ct_view_as_complex(m), CT_ERR_SHAPE, "Tensor must have a last dimension of size 2");
  CT_MAKE(m2, ct_slice(m, 1, 0, 2, 1));
  CT_EXPECT_NULL(ct_view_as_complex(m2), CT_ERR_SHAPE,
                 "Tensor must have a stride divisible by 2 for all but last dimension");
  CT_MAKE(v, ct_zeros(1, &s7, CT_FLOAT32));
  CT_MAKE(v1, ct_slice(v, 0, 1, 7, 1));
  const int64_t s32b[2] = {3, 2};
  CT_MAKE(v2, ct_view(v1, 2, s32b));
  CT_EXPECT_NULL(ct_view_as_complex(v2), CT_ERR_SHAPE, "Tensor must have a storage_offset divisible by 2");
  CT_MAKE(t, ct_transpose(m, 0, 1));
  CT_MAKE(t2, ct_slice(t, 1, 0, 2, 1));
  CT_EXPECT_NULL(ct_view_as_complex(t2), CT_ERR_SHAPE, "Tensor must have a last dimension with stride 1");
  CT_MAKE(g, ct_zeros(2, s32, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(g, 1));
  CT_MAKE(gc, ct_view_as_complex(g));  // recorded: test_complex_autograd.cpp
  EXPECT_EQ(ct_requires_grad(gc), 1);
}

TEST_F(Complex, OpsWithoutComplexKernelsAreRefusedClearly) {  // arithmetic: test_complex_arith.cpp
  const int64_t n = 2;
  CT_MAKE(z, ct_ones(1, &n, CT_COMPLEX64));
  CT_EXPECT_NULL(ct_sort(z, 0, 0, 0, nullptr), CT_ERR_DTYPE, "Sort does not support complex dtypes on CPU");
  CT_EXPECT_NULL(ct_lt(z, z), CT_ERR_DTYPE, "ComplexFloat");
  CT_EXPECT_NULL(ct_amax(z, 0, nullptr, 0), CT_ERR_DTYPE, "ComplexFloat");
  CT_ASSERT_OK(ct_set_requires_grad(z, 1));  // complex autograd: test_complex_autograd.cpp
}

TEST_F(Complex, PowAndIsclose) {  // values against torch: test_complex_pow.py, test_isclose.py
  const float v[4] = {1, 1, 4, 0};  // 1+1i, 4+0i
  const int64_t n = 2;
  CT_MAKE(z, ct_from_data(v, 1, &n, CT_COMPLEX64));
  CT_MAKE(sq, ct_pow_scalar(z, 2.0));  // z * z
  EXPECT_EQ(ctt::repr(sq), "tensor([ 0.+2.j, 16.+0.j])");
  CT_MAKE(root, ct_pow_complex_scalar(z, 0.5, 0.0));  // torch's sqrt shortcut
  EXPECT_EQ(ctt::repr(root), "tensor([1.0987+0.4551j, 2.0000+0.0000j])");
  CT_MAKE(r, ct_rpow_complex_scalar(z, 0.0, 0.0));  // 0 ** z
  EXPECT_EQ(ctt::repr(r), "tensor([0.-0.j, 0.-0.j])");  // as torch prints it
  CT_MAKE(x, ct_full(1, &n, 1.0, CT_FLOAT32));
  CT_EXPECT_FAIL(ct_pow_complex_scalar_(x, 0.0, 1.0), CT_ERR_DTYPE, CT_ERR_DTYPE,
                 "result type ComplexFloat can't be cast to the desired output type Float");
  CT_MAKE(close, ct_isclose(sq, sq, 1e-5, 1e-8, 0));
  EXPECT_EQ(ctt::repr(close), "tensor([True, True])");
  CT_EXPECT_NULL(ct_isclose(sq, x, 1e-5, 1e-8, 0), CT_ERR_DTYPE, "ComplexFloat did not match Float");
  CT_EXPECT_NULL(ct_isclose(x, x, -1, 0, 0), CT_ERR_INVALID_ARGUMENT, "rtol must be greater than or equal to zero");
}

}  // namespace
