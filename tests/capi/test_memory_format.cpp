// Memory formats through the header: ct_memory_format, the layout queries, the factories and
// copies that take a format, and the layouts of elementwise and reduction results (values
// from torch 2.13, see tests/python/test_memory_format.py for the differential version).
#include <gtest/gtest.h>

#include <vector>

#include "test_helpers.h"

using ctt::expect_error;
using ctt::TensorRef;

namespace {

std::vector<int64_t> strides_of(const ct_tensor* t) {
  const int n = ct_tensor_ndim(t);
  return std::vector<int64_t>(ct_tensor_strides(t), ct_tensor_strides(t) + n);
}

TensorRef make(std::vector<int64_t> sizes, ct_dtype dt = CT_FLOAT32) {
  return TensorRef(ct_zeros(int(sizes.size()), sizes.data(), dt));
}

TensorRef permuted(const ct_tensor* t, std::vector<int> dims) {
  return TensorRef(ct_permute(t, int(dims.size()), dims.data()));
}

using S = std::vector<int64_t>;

}  // namespace

TEST(MemoryFormat, NamesAndBadValues) {
  EXPECT_STREQ(ct_memory_format_name(CT_CONTIGUOUS_FORMAT), "contiguous_format");
  EXPECT_STREQ(ct_memory_format_name(CT_CHANNELS_LAST), "channels_last");
  EXPECT_STREQ(ct_memory_format_name(CT_CHANNELS_LAST_3D), "channels_last_3d");
  EXPECT_STREQ(ct_memory_format_name(CT_PRESERVE_FORMAT), "preserve_format");
  EXPECT_EQ(ct_memory_format_name(static_cast<ct_memory_format>(4)), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "invalid memory format 4"));
  TensorRef x = make({2, 3, 4, 5});
  EXPECT_EQ(ct_is_contiguous_format(x, static_cast<ct_memory_format>(-1)), -1);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "invalid memory format -1"));
  EXPECT_EQ(ct_clone_format(nullptr, CT_CHANNELS_LAST), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_suggest_memory_format(nullptr), -1);
}

TEST(MemoryFormat, ChannelsLastStridesAndRankErrors) {
  TensorRef x = make({2, 3, 4, 5});
  TensorRef cl(ct_contiguous_format(x, CT_CHANNELS_LAST));
  ASSERT_TRUE(cl.get()) << ctt::last_error_str();
  EXPECT_EQ(strides_of(cl), (S{60, 1, 15, 3}));
  EXPECT_EQ(ct_is_contiguous_format(cl, CT_CHANNELS_LAST), 1);
  EXPECT_EQ(ct_is_contiguous_format(cl, CT_CONTIGUOUS_FORMAT), 0);
  EXPECT_EQ(ct_tensor_is_contiguous(cl), 0);
  EXPECT_EQ(ct_suggest_memory_format(cl), CT_CHANNELS_LAST);
  EXPECT_EQ(ct_suggest_memory_format(x), CT_CONTIGUOUS_FORMAT);
  // already in the format: the tensor itself
  TensorRef again(ct_contiguous_format(cl, CT_CHANNELS_LAST));
  EXPECT_EQ(again.get(), cl.get());
  TensorRef back(ct_contiguous_format(cl, CT_CONTIGUOUS_FORMAT));
  EXPECT_EQ(strides_of(back), (S{60, 20, 5, 1}));

  TensorRef x3 = make({2, 3, 4});
  EXPECT_EQ(ct_contiguous_format(x3, CT_CHANNELS_LAST), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "required rank 4 tensor to use channels_last format"));
  EXPECT_EQ(ct_clone_format(x, CT_CHANNELS_LAST_3D), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "required rank 5 tensor to use channels_last_3d format"));
  EXPECT_EQ(ct_is_contiguous_format(x3, CT_CHANNELS_LAST), 0);  // a query, not an error

  TensorRef x5 = make({2, 3, 4, 5, 6});
  TensorRef cl3(ct_clone_format(x5, CT_CHANNELS_LAST_3D));
  EXPECT_EQ(strides_of(cl3), (S{360, 1, 90, 18, 3}));
  EXPECT_EQ(ct_suggest_memory_format(cl3), CT_CHANNELS_LAST_3D);
}

TEST(MemoryFormat, PreserveOnlyWhenACopyIsNeeded) {
  TensorRef x = make({2, 3});
  TensorRef same(ct_contiguous_format(x, CT_PRESERVE_FORMAT));
  EXPECT_EQ(same.get(), x.get());
  TensorRef t(ct_transpose(x, 0, 1));
  EXPECT_EQ(ct_contiguous_format(t, CT_PRESERVE_FORMAT), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "preserve memory format is unsupported by the contiguous operator"));
  int64_t sz[2] = {2, 3};
  EXPECT_EQ(ct_empty_format(2, sz, CT_FLOAT32, CT_PRESERVE_FORMAT), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "unsupported memory format Preserve"));
}

TEST(MemoryFormat, AmbiguousSizeOneDims) {
  // (N, C, 1, 1): both contiguous and channels-last; suggest says contiguous (torch's N111 rule)
  TensorRef x = make({2, 3, 1, 1});
  EXPECT_EQ(ct_is_contiguous_format(x, CT_CONTIGUOUS_FORMAT), 1);
  EXPECT_EQ(ct_is_contiguous_format(x, CT_CHANNELS_LAST), 1);
  TensorRef cl(ct_clone_format(x, CT_CHANNELS_LAST));
  EXPECT_EQ(strides_of(cl), (S{3, 1, 3, 3}));
  EXPECT_EQ(ct_suggest_memory_format(cl), CT_CHANNELS_LAST);
  // preserve keeps the exact strides
  TensorRef kept(ct_empty_like(cl, CT_FLOAT32, CT_PRESERVE_FORMAT));
  EXPECT_EQ(strides_of(kept), (S{3, 1, 3, 3}));
  // a zero-size channel: raw sizes in the channels-last strides
  int64_t sz[4] = {2, 0, 4, 5};
  TensorRef e(ct_empty_format(4, sz, CT_FLOAT32, CT_CHANNELS_LAST));
  EXPECT_EQ(strides_of(e), (S{0, 1, 0, 0}));
}

TEST(MemoryFormat, EmptyLikeKeepsPermutation) {
  // the bug of issue 18: torch gives (1, 12, 4)
  TensorRef x = make({2, 3, 4});
  TensorRef p = permuted(x, {2, 0, 1});
  TensorRef e(ct_empty_like(p, CT_FLOAT32, CT_PRESERVE_FORMAT));
  EXPECT_EQ(strides_of(e), (S{1, 12, 4}));
  TensorRef z(ct_zeros_like(p, CT_INT64, CT_PRESERVE_FORMAT));
  EXPECT_EQ(strides_of(z), (S{1, 12, 4}));
  EXPECT_EQ(ct_tensor_dtype(z), CT_INT64);
  TensorRef c(ct_ones_like(p, CT_FLOAT32, CT_CONTIGUOUS_FORMAT));
  EXPECT_EQ(strides_of(c), (S{6, 3, 1}));
  double v = 0;
  TensorRef f(ct_full_like(p, 2.5, CT_FLOAT64, CT_PRESERVE_FORMAT));
  TensorRef one(ct_select(f, 0, 3));
  TensorRef one2(ct_select(one, 0, 1));
  TensorRef one3(ct_select(one2, 0, 2));
  ASSERT_EQ(ct_item(one3, &v), CT_OK);
  EXPECT_EQ(v, 2.5);
  EXPECT_EQ(ct_full_like(p, 300, CT_UINT8, CT_PRESERVE_FORMAT), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  // not dense (stepped): dense strides in the order of the input's
  TensorRef base = make({2, 5, 4, 3});
  TensorRef q = permuted(base, {0, 3, 2, 1});
  TensorRef s(ct_slice(q, 2, 0, INT64_MAX, 2));
  EXPECT_EQ(strides_of(s), (S{60, 1, 6, 12}));
  TensorRef es(ct_empty_like(s, CT_FLOAT32, CT_PRESERVE_FORMAT));
  EXPECT_EQ(strides_of(es), (S{30, 1, 3, 6}));
  TensorRef cs(ct_clone_format(s, CT_PRESERVE_FORMAT));
  EXPECT_EQ(strides_of(cs), (S{30, 1, 3, 6}));
}

TEST(MemoryFormat, ToFormatAliasRule) {
  TensorRef x = make({3, 4});
  TensorRef t(ct_transpose(x, 0, 1));
  // a transposed 2-d tensor suggests contiguous: to(contiguous_format) returns it as is
  TensorRef same(ct_to_format(t, CT_FLOAT32, CT_CONTIGUOUS_FORMAT, 0));
  EXPECT_EQ(same.get(), t.get());
  TensorRef copy(ct_to_format(t, CT_FLOAT32, CT_PRESERVE_FORMAT, 1));
  EXPECT_NE(copy.get(), t.get());
  EXPECT_EQ(strides_of(copy), (S{1, 4}));
  TensorRef x4 = make({2, 3, 4, 5});
  TensorRef cl(ct_to_format(x4, CT_FLOAT64, CT_CHANNELS_LAST, 0));
  EXPECT_EQ(strides_of(cl), (S{60, 1, 15, 3}));
  EXPECT_EQ(ct_tensor_dtype(cl), CT_FLOAT64);
  EXPECT_EQ(ct_to_format(make({2, 3}), CT_FLOAT32, CT_CHANNELS_LAST, 0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "required rank 4 tensor"));
}

TEST(MemoryFormat, EmptyStrided) {
  int64_t sz[2] = {2, 3}, st[2] = {1, 2};
  TensorRef a(ct_empty_strided(2, sz, st, CT_FLOAT32));
  EXPECT_EQ(strides_of(a), (S{1, 2}));
  int64_t zero[2] = {0, 0};
  TensorRef b(ct_empty_strided(2, sz, zero, CT_FLOAT32));
  ct_storage* s = ct_tensor_storage(b);
  EXPECT_EQ(ct_storage_nbytes(s), 4);
  ct_storage_release(s);
  int64_t neg[2] = {-1, 1};
  EXPECT_EQ(ct_empty_strided(2, sz, neg, CT_FLOAT32), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT,
                           "Storage size calculation overflowed with sizes=[2, 3] and strides=[-1, 1]"));
  int64_t one[2] = {1, 3};
  TensorRef c(ct_empty_strided(2, one, neg, CT_FLOAT32));  // torch replaces the unused -1
  EXPECT_EQ(strides_of(c), (S{3, 1}));
  int64_t negsz[2] = {2, -3};
  EXPECT_EQ(ct_empty_strided(2, negsz, st, CT_FLOAT32), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "Trying to create tensor with negative dimension -3: [2, -3]"));
  EXPECT_EQ(ct_empty_strided(2, sz, nullptr, CT_FLOAT32), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
}

TEST(MemoryFormat, ElementwiseAndReductionLayouts) {
  TensorRef x = make({2, 3, 4, 5});
  TensorRef cl(ct_contiguous_format(x, CT_CHANNELS_LAST));
  TensorRef a(ct_add(cl, x));  // the first input decides
  EXPECT_EQ(strides_of(a), (S{60, 1, 15, 3}));
  TensorRef b(ct_add(x, cl));
  EXPECT_EQ(strides_of(b), (S{60, 20, 5, 1}));
  int64_t bs[3] = {3, 1, 1};
  TensorRef bias(ct_zeros(3, bs, CT_FLOAT32));
  TensorRef c(ct_add(bias, cl));  // a broadcast operand does not decide
  EXPECT_EQ(strides_of(c), (S{60, 1, 15, 3}));
  TensorRef d(ct_exp(cl));
  EXPECT_EQ(strides_of(d), (S{60, 1, 15, 3}));
  TensorRef e(ct_mul_scalar(cl, 2));
  EXPECT_EQ(strides_of(e), (S{60, 1, 15, 3}));
  int dims[2] = {2, 3};
  TensorRef r(ct_sum(cl, 2, dims, 1));  // reductions: contiguous
  EXPECT_EQ(strides_of(r), (S{3, 1, 1, 1}));
  int dim1 = 1;
  TensorRef r1(ct_amax(cl, 1, &dim1, 1));
  EXPECT_EQ(strides_of(r1), (S{20, 20, 5, 1}));
}

TEST(MemoryFormat, CatAndStackKeepTheCommonFormat) {
  TensorRef x = make({2, 3, 4, 5});
  TensorRef cl(ct_contiguous_format(x, CT_CHANNELS_LAST));
  const ct_tensor* both_cl[2] = {cl, cl};
  const ct_tensor* mixed[2] = {cl, x};
  TensorRef c0(ct_cat(2, both_cl, 0));
  EXPECT_EQ(strides_of(c0), (S{60, 1, 15, 3}));
  TensorRef c1(ct_cat(2, both_cl, 1));
  EXPECT_EQ(strides_of(c1), (S{120, 1, 30, 6}));
  TensorRef m(ct_cat(2, mixed, 0));  // formats differ: contiguous
  EXPECT_EQ(strides_of(m), (S{60, 20, 5, 1}));
  TensorRef s0(ct_stack(2, both_cl, 0));  // cat then a split dim: (120, 60, 1, 15, 3)
  EXPECT_EQ(strides_of(s0), (S{120, 60, 1, 15, 3}));
  EXPECT_EQ(ct_tensor_is_view(s0), 0);
  TensorRef s2(ct_stack(2, both_cl, 2));
  EXPECT_EQ(strides_of(s2), (S{120, 1, 60, 15, 3}));
  TensorRef s4(ct_stack(2, both_cl, 4));  // the new last dim: cat of unsqueezed inputs
  EXPECT_EQ(strides_of(s4), (S{120, 40, 10, 2, 1}));
}

TEST(MemoryFormat, ExplainNamesTheFormat) {
  TensorRef x = make({2, 3, 4, 5});
  TensorRef cl(ct_contiguous_format(x, CT_CHANNELS_LAST));
  char buf[4096];
  ASSERT_GT(ct_explain(cl, nullptr, buf, sizeof buf), 0);
  EXPECT_NE(std::string(buf).find("memory format: channels_last; suggested for new tensors like it: channels_last"),
            std::string::npos) << buf;
  ASSERT_GT(ct_explain(x, nullptr, buf, sizeof buf), 0);
  EXPECT_NE(std::string(buf).find("memory format: contiguous_format;"), std::string::npos) << buf;
}

TEST(MemoryFormat, AutogradNodes) {
  TensorRef x = make({2, 3, 4, 5});
  ASSERT_EQ(ct_set_requires_grad(x, 1), CT_OK);
  TensorRef c(ct_clone_format(x, CT_CHANNELS_LAST));
  EXPECT_STREQ(ct_grad_fn_name(c), "CloneBackward0");
  TensorRef k(ct_contiguous_format(x, CT_CHANNELS_LAST));
  EXPECT_STREQ(ct_grad_fn_name(k), "CloneBackward0");
  TensorRef t(ct_to_format(x, CT_FLOAT32, CT_CHANNELS_LAST, 0));
  EXPECT_STREQ(ct_grad_fn_name(t), "ToCopyBackward0");
  TensorRef e(ct_empty_like(x, CT_FLOAT32, CT_CHANNELS_LAST));
  EXPECT_EQ(ct_requires_grad(e), 0);
}
