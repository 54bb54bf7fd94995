// The conjugate and negative bits through the header (ctensor.h, "The conjugate and negative
// bits"): ct_conj is a view that reads conjugated, ct_imag of it a neg view, copies resolve,
// writes through a conj view store conjugates, in-place ops write back through the bits with
// one version bump, and the refusals (view_dtype, view_as_real, DLPack).
#include <complex>
#include <cstring>
#include <string>

#include "ctensor_dlpack.h"
#include "test_helpers.h"

namespace {

using c64 = std::complex<float>;

class ConjBits : public ctt::CtTest {};

ct_tensor* make_c64(const std::vector<c64>& v) {
  const int64_t n = int64_t(v.size());
  return ct_from_data(v.data(), 1, &n, CT_COMPLEX64);
}

c64 stored(const ct_tensor* t, int64_t i) {  // the bytes, whatever the bits say
  c64 v;
  std::memcpy(&v, static_cast<const char*>(ct_tensor_data(t)) + i * ct_tensor_stride(t, 0) * 8, sizeof v);
  return v;
}

TEST_F(ConjBits, ConjIsAViewReadingConjugates) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  EXPECT_EQ(ct_tensor_is_conj(c), 1);
  EXPECT_EQ(ct_tensor_is_conj(x), 0);
  EXPECT_EQ(ct_tensor_is_neg(c), 0);
  EXPECT_EQ(ct_tensor_data(c), ct_tensor_data(x));  // nothing copied
  EXPECT_EQ(ct_tensor_is_view(c), 1);
  CT_MAKE(b, ct_tensor_base(c));
  EXPECT_EQ(b.get(), x.get());
  EXPECT_EQ(ctt::repr(c), "tensor([1.-2.j, 3.+4.j])");
  EXPECT_EQ(stored(c, 0), c64(1, 2));
  double re = 0, im = 0;
  CT_MAKE(c1, ct_select(c, 0, 1));
  EXPECT_EQ(ct_tensor_is_conj(c1), 1);  // views keep the bit
  CT_ASSERT_OK(ct_item_complex(c1, &re, &im));
  EXPECT_EQ(re, 3.0);
  EXPECT_EQ(im, 4.0);
  CT_MAKE(cc, ct_conj(c));  // toggles back: a view of the root, no bit
  EXPECT_EQ(ct_tensor_is_conj(cc), 0);
  EXPECT_NE(cc.get(), x.get());
}

TEST_F(ConjBits, RealTensorsComeBackThemselves) {
  const int64_t n = 3;
  CT_MAKE(r, ct_ones(1, &n, CT_FLOAT32));
  CT_MAKE(c, ct_conj(r));
  EXPECT_EQ(c.get(), r.get());
  CT_MAKE(p, ct_conj_physical(r));
  EXPECT_EQ(p.get(), r.get());
  CT_MAKE(q, ct_resolve_conj(r));
  EXPECT_EQ(q.get(), r.get());
  const int64_t v0 = ct_tensor_version(r);
  CT_ASSERT_OK(ct_conj_physical_(r));  // a no-op that still counts as a write, as torch
  EXPECT_EQ(ct_tensor_version(r), v0 + 1);
  CT_MAKE(i, ct_ones(1, &n, CT_INT64));
  CT_EXPECT_FAIL(ct_neg_view(i), nullptr, CT_ERR_DTYPE, "int64");
}

TEST_F(ConjBits, ImagOfConjIsANegView) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  CT_MAKE(im, ct_imag(c));
  EXPECT_EQ(ct_tensor_is_neg(im), 1);
  EXPECT_EQ(ct_tensor_is_conj(im), 0);
  EXPECT_EQ(ctt::repr(im), "tensor([-2.,  4.])");
  CT_MAKE(re, ct_real(c));
  EXPECT_EQ(ct_tensor_is_neg(re), 0);
  EXPECT_EQ(ctt::repr(re), "tensor([1., 3.])");
  CT_MAKE(r, ct_resolve_neg(im));
  EXPECT_EQ(ct_tensor_is_neg(r), 0);
  EXPECT_EQ(ct_tensor_is_view(r), 0);
  EXPECT_EQ(ctt::values(r), (std::vector<double>{-2, 4}));
}

TEST_F(ConjBits, CopiesResolveAndWritesStoreConjugates) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  CT_MAKE(k, ct_clone(c));
  EXPECT_EQ(ct_tensor_is_conj(k), 0);
  EXPECT_EQ(stored(k, 0), c64(1, -2));
  CT_MAKE(p, ct_conj_physical(x));
  EXPECT_EQ(stored(p, 1), c64(3, 4));
  CT_MAKE(src, make_c64({{5, 6}, {7, 8}}));
  const int64_t v0 = ct_tensor_version(x);
  CT_ASSERT_OK(ct_copy_(c, src));  // through the conj view: the base stores conjugates
  EXPECT_EQ(stored(x, 0), c64(5, -6));
  EXPECT_EQ(stored(x, 1), c64(7, -8));
  EXPECT_EQ(ct_tensor_version(x), v0 + 1);
  CT_ASSERT_OK(ct_copy_(x, c));  // overlapping, bits differ: x becomes its own conjugate
  EXPECT_EQ(stored(x, 0), c64(5, 6));
}

TEST_F(ConjBits, InPlaceOpsWriteBackThroughTheBits) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  CT_MAKE(im, ct_imag(c));
  const int64_t v0 = ct_tensor_version(x);
  CT_ASSERT_OK(ct_fill_(im, 1.0));  // the imag read as 1 is stored as -1
  EXPECT_EQ(stored(x, 0), c64(1, -1));
  EXPECT_EQ(stored(x, 1), c64(3, -1));
  EXPECT_EQ(ct_tensor_version(x), v0 + 1);  // one bump, as torch's write-back copy_
  EXPECT_EQ(ct_tensor_is_neg(im), 1);
  CT_ASSERT_OK(ct_mul_scalar_(im, 3.0));
  EXPECT_EQ(stored(x, 0), c64(1, -3));
  CT_ASSERT_OK(ct_conj_physical_(c));  // conj of the values read through c: x's bytes conjugated
  EXPECT_EQ(stored(x, 0), c64(1, 3));
}

TEST_F(ConjBits, ReadersSeeResolvedValues) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  CT_MAKE(im, ct_imag(c));
  CT_MAKE(s, ct_sum(im, 0, nullptr, 0));
  double v = 0;
  CT_ASSERT_OK(ct_item(s, &v));
  EXPECT_EQ(v, 2.0);  // -2 + 4
  CT_MAKE(m, ct_mul_scalar(im, 2.0));
  EXPECT_EQ(ct_tensor_is_neg(m), 0);
  EXPECT_EQ(ctt::values(m), (std::vector<double>{-4, 8}));
  const int64_t dim0 = 0;
  CT_MAKE(f, ct_flip(c, 1, &dim0));
  EXPECT_EQ(ct_tensor_is_conj(f), 0);
  EXPECT_EQ(stored(f, 0), c64(3, 4));
}

TEST_F(ConjBits, Refusals) {
  CT_MAKE(x, make_c64({{1, 2}, {3, -4}}));
  CT_MAKE(c, ct_conj(x));
  CT_MAKE(im, ct_imag(c));
  CT_EXPECT_FAIL(ct_view_dtype(c, CT_COMPLEX64), nullptr, CT_ERR_INVALID_ARGUMENT, "conjugate view tensors");
  CT_EXPECT_FAIL(ct_view_dtype(im, CT_INT32), nullptr, CT_ERR_INVALID_ARGUMENT, "negative bit set");
  CT_EXPECT_FAIL(ct_view_as_real(c), nullptr, CT_ERR_INVALID_ARGUMENT, "unresolved conjugated tensors");
  CT_EXPECT_FAIL(ct_to_dlpack(c), nullptr, CT_ERR_INVALID_ARGUMENT, "conjugate bit set");
  DLManagedTensor* m = ct_to_dlpack(im);  // the neg bit is exported as stored, as torch
  ASSERT_NE(m, nullptr);
  m->deleter(m);
  const int64_t n = 3;
  CT_MAKE(v, ct_ones(1, &n, CT_COMPLEX64));
  CT_EXPECT_FAIL(ct_adjoint(v), nullptr, CT_ERR_SHAPE, "Got 1-D tensor.");
}

TEST_F(ConjBits, AdjointIsTheConjugateTranspose) {
  const int64_t sizes[2] = {2, 3};
  CT_MAKE(x, ct_zeros(2, sizes, CT_COMPLEX64));
  CT_MAKE(a, ct_adjoint(x));
  EXPECT_EQ(ct_tensor_is_conj(a), 1);
  EXPECT_TRUE(ctt::geometry_is(a, {3, 2}, {1, 3}, 0));
  CT_MAKE(r, ct_zeros(2, sizes, CT_FLOAT32));
  CT_MAKE(ar, ct_adjoint(r));
  EXPECT_EQ(ct_tensor_is_conj(ar), 0);
  EXPECT_TRUE(ctt::geometry_is(ar, {3, 2}, {1, 3}, 0));
}

}  // namespace
