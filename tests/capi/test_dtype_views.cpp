// ct_view_dtype, ct_matrix_transpose, ct_numpy_T and the copies of views (ct_*_copy) through
// the header: every dtype pair, NULL and hostile arguments, sharing and version counters.
#include <array>
#include <climits>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

class DtypeViews : public ctt::CtTest {};

const ct_dtype kAll[] = {CT_BOOL,    CT_UINT8,    CT_INT8,    CT_INT16,  CT_INT32,
                         CT_INT64,   CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64};

// Byte span [first, last] the elements of t reach, relative to its storage's start.
std::pair<int64_t, int64_t> byte_span(const ct_tensor* t) {
  const int64_t item = ct_dtype_itemsize(ct_tensor_dtype(t));
  int64_t hi = ct_tensor_offset(t) * item;
  for (int d = 0; d < ct_tensor_ndim(t); ++d) hi += (ct_tensor_size(t, d) - 1) * ct_tensor_stride(t, d) * item;
  return {ct_tensor_offset(t) * item, hi + item - 1};
}

TEST_F(DtypeViews, EveryPairKeepsTheBytesAndTheCounter) {
  const int64_t sizes[] = {3, 4, 8};
  for (ct_dtype from : kAll) {
    CT_MAKE(x, ct_zeros(3, sizes, from));
    for (ct_dtype to : kAll) {
      SCOPED_TRACE(std::string(ct_dtype_name(from)) + " -> " + ct_dtype_name(to));
      CT_MAKE(v, ct_view_dtype(x, to));
      EXPECT_EQ(ct_tensor_dtype(v), to);
      EXPECT_EQ(ct_shares_storage(v, x), 1);
      EXPECT_TRUE(ctt::is_not_view(v));  // torch: no _base, _is_view() False
      EXPECT_EQ(ct_tensor_data(v), ct_tensor_data(x));
      EXPECT_EQ(byte_span(v), byte_span(x));
      const int64_t fi = ct_dtype_itemsize(from), ti = ct_dtype_itemsize(to);
      EXPECT_TRUE(ctt::sizes_are(v, {3, 4, 8 * fi / ti}));
      EXPECT_TRUE(ctt::strides_are(v, {32 * fi / ti, 8 * fi / ti, 1}));
      const int64_t v0 = ct_tensor_version(x);
      CT_ASSERT_OK(ct_fill_(v, 1));
      EXPECT_EQ(ct_tensor_version(x), v0 + 1);  // one counter
      EXPECT_EQ(ct_tensor_version(v), v0 + 1);
      CT_ASSERT_OK(ct_zero_(x));
    }
  }
}

TEST_F(DtypeViews, ValuesAreTheBits) {
  const float vals[] = {1.0f, -2.0f};
  const int64_t n = 2;
  CT_MAKE(x, ct_from_data(vals, 1, &n, CT_FLOAT32));
  CT_MAKE(i, ct_view_dtype(x, CT_INT32));
  const int32_t* p = static_cast<const int32_t*>(ct_tensor_data(i));
  EXPECT_EQ(uint32_t(p[0]), 0x3f800000u);
  EXPECT_EQ(uint32_t(p[1]), 0xc0000000u);
  CT_MAKE(h, ct_view_dtype(x, CT_FLOAT16));
  EXPECT_TRUE(ctt::sizes_are(h, {4}));
  CT_MAKE(b, ct_view_dtype(x, CT_BOOL));  // any non-zero byte reads true
  EXPECT_TRUE(ctt::sizes_are(b, {8}));
  double item = -1;
  CT_MAKE(b3, ct_select(b, 0, 3));
  CT_ASSERT_OK(ct_item(b3, &item));
  EXPECT_EQ(item, 1.0);
  CT_MAKE(b0, ct_select(b, 0, 0));
  CT_ASSERT_OK(ct_item(b0, &item));
  EXPECT_EQ(item, 0.0);
}

TEST_F(DtypeViews, TorchRulesAndMessages) {
  const int64_t s23[] = {2, 3}, s10[] = {10}, s0d[] = {1};
  CT_MAKE(m, ct_zeros(2, s23, CT_FLOAT32));
  CT_EXPECT_NULL(ct_view_dtype(m, CT_FLOAT64), CT_ERR_SHAPE,
                 "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3");
  CT_MAKE(v, ct_zeros(1, s10, CT_FLOAT32));
  CT_MAKE(sl, ct_slice(v, 0, 1, 5, 1));
  CT_EXPECT_NULL(ct_view_dtype(sl, CT_FLOAT64), CT_ERR_SHAPE,
                 "self.storage_offset() must be divisible by 2 to view Float as Double (different element sizes), "
                 "but got 1");
  CT_MAKE(mt, ct_t(m));
  CT_EXPECT_NULL(ct_view_dtype(mt, CT_INT16), CT_ERR_SHAPE,
                 "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3");
  const int64_t sz[] = {2, 2}, st[] = {3, 1};
  CT_MAKE(as, ct_as_strided(v, 2, sz, st, 0));
  CT_EXPECT_NULL(ct_view_dtype(as, CT_FLOAT64), CT_ERR_SHAPE,
                 "self.stride(0) must be divisible by 2 to view Float as Double (different element sizes), but got 3");
  CT_MAKE(s, ct_zeros(0, s0d, CT_FLOAT32));
  CT_EXPECT_NULL(ct_view_dtype(s, CT_INT16), CT_ERR_SHAPE,
                 "self.dim() cannot be 0 to view Float as Short (different element sizes)");
  CT_MAKE(same, ct_view_dtype(s, CT_INT32));  // equal sizes: 0-dim is fine
  EXPECT_EQ(ct_tensor_ndim(same), 0);
  CT_MAKE(b, ct_zeros(2, s23, CT_BOOL));
  CT_EXPECT_NULL(ct_view_dtype(b, CT_INT64), CT_ERR_SHAPE, "to view Bool as Long");
  CT_MAKE(bf, ct_zeros(2, s23, CT_BFLOAT16));
  CT_EXPECT_NULL(ct_view_dtype(bf, CT_FLOAT32), CT_ERR_SHAPE, "to view BFloat16 as Float");
}

TEST_F(DtypeViews, NullBadDtypeAndHostileGeometry) {
  CT_EXPECT_NULL(ct_view_dtype(nullptr, CT_INT32), CT_ERR_INVALID_ARGUMENT, "ct_view_dtype");
  const int64_t n = 4;
  CT_MAKE(x, ct_zeros(1, &n, CT_FLOAT64));
  CT_EXPECT_NULL(ct_view_dtype(x, (ct_dtype)42), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_view_dtype(x, (ct_dtype)-1), CT_ERR_DTYPE, "");
  // Only empty tensors may carry geometry whose scaling overflows (ct_as_strided refuses a
  // stride or offset that overflows once multiplied by the item size otherwise).
  const int64_t zsz[] = {0, INT64_MAX / 2}, zst[] = {1, 1};
  CT_MAKE(h, ct_as_strided(x, 2, zsz, zst, 0));
  CT_EXPECT_NULL(ct_view_dtype(h, CT_UINT8), CT_ERR_INVALID_ARGUMENT, "overflows int64");
  // an empty tensor with a huge offset
  const int64_t esz[] = {0};
  const int64_t est[] = {1};
  CT_MAKE(e, ct_as_strided(x, 1, esz, est, INT64_MAX / 2));
  CT_EXPECT_NULL(ct_view_dtype(e, CT_BOOL), CT_ERR_INVALID_ARGUMENT, "overflows int64");
  CT_MAKE(up, ct_view_dtype(e, CT_FLOAT64));  // same size: untouched
  EXPECT_EQ(ct_tensor_offset(up), INT64_MAX / 2);
}

TEST_F(DtypeViews, AutogradDropsGrad) {
  const int64_t n = 4;
  CT_MAKE(x, ct_ones(1, &n, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  for (ct_dtype to : kAll) {
    CT_MAKE(v, ct_view_dtype(x, to));
    EXPECT_EQ(ct_requires_grad(v), 0);
    EXPECT_EQ(ct_grad_fn_name(v), nullptr);
    CT_MAKE(c, ct_view_dtype_copy(x, to));
    EXPECT_EQ(ct_requires_grad(c), 0);
    EXPECT_TRUE(ctt::is_not_view(c));
    EXPECT_EQ(ct_shares_storage(c, x), 0);
  }
}

TEST_F(DtypeViews, MatrixTransposeAndNumpyT) {
  const int64_t s0[] = {1}, s1[] = {3}, s3[] = {2, 3, 4};
  CT_MAKE(z, ct_zeros(0, s0, CT_FLOAT32));
  CT_MAKE(zm, ct_matrix_transpose(z));
  EXPECT_EQ(zm.get(), z.get());  // torch returns self
  CT_MAKE(v, ct_zeros(1, s1, CT_FLOAT32));
  CT_EXPECT_NULL(ct_matrix_transpose(v), CT_ERR_SHAPE,
                 "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
  CT_MAKE(b, ct_zeros(3, s3, CT_FLOAT32));
  CT_MAKE(bm, ct_matrix_transpose(b));
  EXPECT_TRUE(ctt::geometry_is(bm, {2, 4, 3}, {12, 1, 4}, 0));
  EXPECT_TRUE(ctt::is_view_of(bm, b));
  CT_MAKE(bt, ct_numpy_T(b));
  EXPECT_TRUE(ctt::geometry_is(bt, {4, 3, 2}, {1, 4, 12}, 0));
  EXPECT_TRUE(ctt::is_view_of(bt, b));
  CT_MAKE(zt, ct_numpy_T(z));
  EXPECT_NE(zt.get(), z.get());
  EXPECT_TRUE(ctt::is_view_of(zt, z));
  CT_ASSERT_OK(ct_set_requires_grad(b, 1));
  CT_MAKE(g1, ct_numpy_T(b));
  EXPECT_STREQ(ct_grad_fn_name(g1), "PermuteBackward0");
  CT_MAKE(g2, ct_matrix_transpose(b));
  EXPECT_STREQ(ct_grad_fn_name(g2), "TransposeBackward0");
  CT_EXPECT_NULL(ct_matrix_transpose(nullptr), CT_ERR_INVALID_ARGUMENT, "ct_matrix_transpose");
  CT_EXPECT_NULL(ct_numpy_T(nullptr), CT_ERR_INVALID_ARGUMENT, "ct_numpy_T");
}

// ---- copies of views -------------------------------------------------------------------

class ViewCopies : public ctt::CtTest {};

// x: a permuted [4, 2, 3] float32 view of arange(24) that requires grad through its root.
TEST_F(ViewCopies, ResultsAreNewContiguousStoragesWithTorchNodes) {
  const int64_t s[] = {2, 3, 4};
  CT_MAKE(flat, ct_arange(0, 24, 1, CT_FLOAT32));
  CT_MAKE(root, ct_view(flat, 3, s));
  CT_MAKE(leaf, ct_clone(root));
  CT_ASSERT_OK(ct_set_requires_grad(leaf, 1));
  const int perm[] = {2, 0, 1};
  CT_MAKE(x, ct_permute(leaf, 3, perm));
  const int64_t vs[] = {6, 4}, es[] = {5, 4, 2, 3}, ass[] = {3, 2}, ast[] = {1, 4};
  struct Case {
    const char* node;
    ct_tensor* r;
  } cases[] = {
      {"ViewBackward0_copy", ct_view_copy(x, 2, vs)},
      {"PermuteBackward0_copy", ct_permute_copy(x, 3, perm)},
      {"TransposeBackward0_copy", ct_transpose_copy(x, 0, 2)},
      {"DiagonalBackward0_copy", ct_diagonal_copy(x, 0, 1, 2)},
      {"ExpandBackward0_copy", ct_expand_copy(x, 4, es)},
      {"NarrowCopyBackward0", ct_narrow_copy(x, 1, 0, 1)},
      {"SelectBackward0_copy", ct_select_copy(x, 0, 1)},
      {"SliceBackward0_copy", ct_slice_copy(x, 0, 0, 4, 2)},
      {"SqueezeBackward0_copy", ct_squeeze_all_copy(x)},
      {"SqueezeBackward1_copy", ct_squeeze_copy(x, 0)},
      {"SqueezeBackward2_copy", ct_squeeze_dims_copy(x, 2, perm)},
      {"UnsqueezeBackward0_copy", ct_unsqueeze_copy(x, 1)},
      {"UnfoldBackward0_copy", ct_unfold_copy(x, 2, 2, 1)},
      {"AliasBackward0_copy", ct_alias_copy(x)},
      {"AsStridedBackward0_copy", ct_as_strided_copy(x, 2, ass, ast, 1)},
      {"torch::autograd::NotImplemented", ct_detach_copy(x)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.node);
    TensorRef r(c.r);
    ASSERT_NE(r.get(), nullptr) << ctt::last_error_str();
    EXPECT_TRUE(ctt::is_not_view(r));
    EXPECT_EQ(ct_shares_storage(r, leaf), 0);
    EXPECT_EQ(ct_tensor_is_contiguous(r), 1);
    EXPECT_EQ(ct_tensor_offset(r), 0);
    EXPECT_EQ(ct_tensor_version(r), 0);
    EXPECT_STREQ(ct_grad_fn_name(r), c.node);
  }
  const int size_one_dims[] = {0, 2};
  CT_MAKE(ones, ct_ones(4, std::array<int64_t, 4>{1, 3, 1, 2}.data(), CT_FLOAT32));
  CT_MAKE(sq, ct_squeeze_dims(ones, 2, size_one_dims));  // the view: listed size-1 dims go
  EXPECT_TRUE(ctt::geometry_is(sq, {3, 2}, {2, 1}, 0));
  EXPECT_EQ(ct_tensor_is_view(sq), 1);
  const int twice[] = {1, -3};
  EXPECT_EQ(ct_squeeze_dims(ones, 2, twice), nullptr);
  EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(ct_last_error(), "dim 1 appears multiple times in the list of dims");
  EXPECT_EQ(ct_squeeze_dims(ones, -1, size_one_dims), nullptr);
  EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
  CT_MAKE(mat, ct_select(x, 0, 0));
  CT_MAKE(tc, ct_t_copy(mat));
  EXPECT_STREQ(ct_grad_fn_name(tc), "TBackward0_copy");
  EXPECT_TRUE(ctt::geometry_is(tc, {3, 2}, {2, 1}, 0));
}

TEST_F(ViewCopies, ValuesAreTheViews) {
  const int64_t s[] = {3, 4};
  CT_MAKE(flat, ct_arange(0, 12, 1, CT_INT64));
  CT_MAKE(x, ct_view(flat, 2, s));
  CT_MAKE(xt, ct_t(x));
  CT_MAKE(view, ct_diagonal(xt, 1, 0, 1));
  CT_MAKE(copy, ct_diagonal_copy(xt, 1, 0, 1));
  EXPECT_EQ(ct_equal(view, copy), 1);
  // view_copy of a non-viewable geometry reshapes (torch never fails on strides there)
  const int64_t flat12[] = {12};
  CT_EXPECT_NULL(ct_view(xt, 1, flat12), CT_ERR_NOT_VIEWABLE, "");
  CT_MAKE(vc, ct_view_copy(xt, 1, flat12));
  CT_MAKE(rs, ct_reshape(xt, 1, flat12));
  EXPECT_EQ(ct_equal(vc, rs), 1);
  CT_ASSERT_OK(ct_fill_(copy, 0));  // new memory: x untouched
  EXPECT_EQ(ct_equal(view, copy), 0);
  EXPECT_EQ(ct_tensor_version(x), 0);
}

TEST_F(ViewCopies, MultiOutput) {
  const int64_t s[] = {4, 3};
  CT_MAKE(flat, ct_arange(0, 12, 1, CT_FLOAT64));
  CT_MAKE(x, ct_view(flat, 2, s));
  EXPECT_EQ(ct_unbind_copy(x, 0, nullptr, 0), 4);
  ct_tensor* out[4] = {};
  CT_EXPECT_FAIL(ct_unbind_copy(x, 0, out, 3), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "do not fit");
  EXPECT_EQ(out[0], nullptr);
  ASSERT_EQ(ct_unbind_copy(x, 1, out, 4), 3);
  for (int i = 0; i < 3; ++i) {
    TensorRef r(out[i]);
    EXPECT_TRUE(ctt::geometry_is(r, {4}, {1}, 0));
    EXPECT_EQ(ct_shares_storage(r, x), 0);
  }
  ASSERT_EQ(ct_split_copy(x, 3, 0, out, 4), 2);
  TensorRef a(out[0]), b(out[1]);
  EXPECT_TRUE(ctt::sizes_are(b, {1, 3}));
  const int64_t lens[] = {1, 0, 3};
  ASSERT_EQ(ct_split_with_sizes_copy(x, 3, lens, 0, out, 4), 3);
  TensorRef c0(out[0]), c1(out[1]), c2(out[2]);
  EXPECT_TRUE(ctt::sizes_are(c1, {0, 3}));
  const int64_t bad[] = {1, 2};
  CT_EXPECT_FAIL(ct_split_with_sizes_copy(x, 2, bad, 0, out, 4), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_split_with_sizes_copy(x, 2, nullptr, 0, out, 4), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_FAIL(ct_split_with_sizes_copy(x, -1, lens, 0, out, 4), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_unbind_copy(nullptr, 0, out, 4), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(ViewCopies, GradientsOfSplitWithSizesOutliveTheCall) {
  const int64_t n = 5;
  CT_MAKE(x, ct_ones(1, &n, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  ct_tensor* out[2] = {};
  {
    const int64_t lens[] = {2, 3};  // gone before backward runs
    ASSERT_EQ(ct_split_with_sizes_copy(x, 2, lens, 0, out, 2), 2);
  }
  TensorRef a(out[0]), b(out[1]);
  EXPECT_STREQ(ct_grad_fn_name(b), "SplitWithSizesBackward0_copy");
  CT_MAKE(sb, ct_sum(b, 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(sb, nullptr, 0));
  CT_MAKE(g, ct_grad(x));
  const double* gv = static_cast<const double*>(ct_tensor_data(g));
  EXPECT_EQ(gv[0], 0.0);
  EXPECT_EQ(gv[1], 0.0);
  EXPECT_EQ(gv[2], 1.0);
  EXPECT_EQ(gv[4], 1.0);
}

TEST_F(ViewCopies, ErrorsAreTheViewsOrTorchsOwn) {
  const int64_t s[] = {2, 3};
  CT_MAKE(x, ct_zeros(2, s, CT_FLOAT32));
  CT_EXPECT_NULL(ct_narrow_copy(x, 0, 0, -1), CT_ERR_SHAPE, "start (0) + length (-1) exceeds dimension size (2).");
  CT_EXPECT_NULL(ct_narrow_copy(x, 2, 0, 1), CT_ERR_SHAPE, "Expected dim < static_cast<int64_t>(self_sizes.size())");
  CT_EXPECT_NULL(ct_narrow_copy(x, 0, -3, 1), CT_ERR_INDEX, "start out of range");
  CT_EXPECT_NULL(ct_narrow_copy(x, INT_MIN, 0, 1), CT_ERR_INDEX, "Dimension out of range");
  CT_EXPECT_NULL(ct_select_copy(x, 0, INT64_MAX), CT_ERR_INDEX, "out of range");
  CT_EXPECT_NULL(ct_slice_copy(x, 0, 0, 1, 0), CT_ERR_INVALID_ARGUMENT, "step");
  const int64_t big[] = {INT64_MAX, INT64_MAX};
  CT_EXPECT_NULL_IN(ct_expand_copy(x, 2, big), "", CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT, CT_ERR_OUT_OF_MEMORY);
  const int64_t four[] = {4};
  CT_EXPECT_NULL(ct_view_copy(x, 1, four), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_view_copy(x, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_view_copy(x, -1, four), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_permute_copy(x, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  const int64_t sz[] = {3, 3}, st[] = {1, 1};
  CT_EXPECT_NULL(ct_as_strided_copy(x, 2, sz, st, 5), CT_ERR_INDEX, "");
  CT_EXPECT_NULL(ct_view_dtype_copy(x, CT_FLOAT64), CT_ERR_SHAPE, "divisible by 2");
  for (auto f : {ct_t_copy, ct_alias_copy, ct_detach_copy, ct_squeeze_all_copy}) {
    CT_EXPECT_NULL(f(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  }
}

}  // namespace
