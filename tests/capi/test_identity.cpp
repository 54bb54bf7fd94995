// Tensor identity through the header: version counters per tensor family (ct_alias, ct_data,
// views, ct_set_), ct_set_data, ct_detach_, resizability, and the in-place metadata ops with
// NULL handles and hostile sizes.  The CtTest fixture checks that nothing leaks.
#include <cstdlib>
#include <vector>

#include "ctensor_dlpack.h"
#include "test_helpers.h"

using namespace ctt;

namespace {
class Identity : public CtTest {};

int64_t version(const TensorRef& t) { return ct_tensor_version(t.get()); }

ct_status resize(ct_tensor* t, std::initializer_list<int64_t> s) { return ct_resize_(t, int(s.size()), s.begin()); }
}  // namespace

TEST_F(Identity, FamiliesShareACounterDataHasItsOwn) {
  CT_MAKE(x, zeros({4, 3}));
  CT_MAKE(v, ct_select(x.get(), 0, 1));
  CT_MAKE(a, ct_alias(x.get()));
  CT_MAKE(d, ct_data(x.get()));
  CT_MAKE(dv, ct_transpose(d.get(), 0, 1));
  EXPECT_EQ(ct_same_version_counter(x.get(), v.get()), 1);
  EXPECT_EQ(ct_same_version_counter(x.get(), a.get()), 1);
  EXPECT_EQ(ct_same_version_counter(x.get(), d.get()), 0);
  EXPECT_EQ(ct_same_version_counter(d.get(), dv.get()), 1);
  EXPECT_EQ(ct_shares_storage(x.get(), d.get()), 1);
  EXPECT_TRUE(is_not_view(d.get()));
  CT_ASSERT_OK(ct_add_scalar_(v.get(), 1));
  EXPECT_EQ(version(x), 1);
  EXPECT_EQ(version(a), 1);
  EXPECT_EQ(version(d), 0);
  CT_ASSERT_OK(ct_fill_(dv.get(), 2));
  EXPECT_EQ(version(x), 1);
  EXPECT_EQ(version(d), 1);
  EXPECT_EQ(values(x.get())[0], 2.0);  // same memory, separate counters
  CT_MAKE(d2, ct_data(x.get()));
  EXPECT_EQ(version(d2), 0);
}

TEST_F(Identity, SetKeepsItsOwnCounterSetDataDoesNotBump) {
  CT_MAKE(x, zeros({3}));
  CT_MAKE(y, make_iota_f32({4}));
  CT_ASSERT_OK(ct_set_(x.get(), y.get()));
  EXPECT_EQ(version(x), 1);
  EXPECT_EQ(version(y), 0);
  EXPECT_EQ(ct_is_set_to(x.get(), y.get()), 1);
  CT_ASSERT_OK(ct_add_scalar_(x.get(), 1));
  EXPECT_EQ(version(x), 2);
  EXPECT_EQ(version(y), 0);
  CT_ASSERT_OK(ct_set_(x.get(), x.get()));  // itself: a bump all the same
  EXPECT_EQ(version(x), 3);
  CT_MAKE(z, zeros({2}, CT_INT64));
  CT_ASSERT_OK(ct_set_data(x.get(), z.get()));
  EXPECT_EQ(version(x), 3);
  EXPECT_EQ(ct_tensor_dtype(x.get()), CT_INT64);
  EXPECT_EQ(ct_is_set_to(x.get(), z.get()), 1);
  CT_MAKE(f, zeros({2}, CT_FLOAT64));
  CT_EXPECT_FAIL(ct_set_(x.get(), f.get()), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Could not set tensor of type double to a tensor of type long int");
}

TEST_F(Identity, ViewsTakenBeforeNeverChange) {
  CT_MAKE(x, make_iota_f32({2, 3}));
  CT_MAKE(v, ct_select(x.get(), 0, 1));
  CT_ASSERT_OK(ct_t_(x.get()));
  EXPECT_TRUE(geometry_is(x.get(), {3, 2}, {1, 3}, 0));
  EXPECT_TRUE(geometry_is(v.get(), {3}, {1}, 3));
  CT_ASSERT_OK(ct_unsqueeze_(x.get(), 0));
  CT_ASSERT_OK(ct_squeeze_dim_(x.get(), 0));
  CT_ASSERT_OK(ct_transpose_(x.get(), 0, -1));
  CT_ASSERT_OK(ct_squeeze_(x.get()));  // nothing to squeeze: still a bump
  EXPECT_EQ(version(x), 5);
  EXPECT_TRUE(geometry_is(x.get(), {2, 3}, {3, 1}, 0));
  EXPECT_EQ(version(v), 5);
  CT_MAKE(big, make_iota_f32({1, 2, 1, 3, 1, 2}));  // more dims than fit inline
  CT_ASSERT_OK(ct_unsqueeze_(big.get(), 6));
  CT_ASSERT_OK(ct_squeeze_(big.get()));
  EXPECT_TRUE(geometry_is(big.get(), {2, 3, 2}, {6, 2, 1}, 0));
}

TEST_F(Identity, ResizeGrowsTheStorageForEverySharer) {
  CT_MAKE(x, make_iota_f32({6}));
  CT_MAKE(v, ct_slice(x.get(), 0, 2, 6, 1));
  CT_ASSERT_OK(resize(x.get(), {6}));
  EXPECT_EQ(version(x), 0);  // same sizes: nothing
  CT_ASSERT_OK(resize(x.get(), {2, 3}));
  EXPECT_EQ(version(x), 1);
  CT_ASSERT_OK(resize(x.get(), {1000}));
  EXPECT_EQ(version(x), 2);
  ct_storage* s = ct_tensor_storage(x.get());
  EXPECT_GE(ct_storage_nbytes(s), 4000);
  ct_storage_release(s);
  EXPECT_EQ(values(v.get()), (std::vector<double>{2, 3, 4, 5}));  // the moved bytes
  EXPECT_EQ(ct_tensor_data(v.get()), static_cast<char*>(ct_tensor_data(x.get())) + 8);
  CT_MAKE(t, zeros({3, 2}));
  CT_ASSERT_OK(ct_resize_as_(x.get(), t.get()));
  EXPECT_TRUE(geometry_is(x.get(), {3, 2}, {2, 1}, 0));
}

TEST_F(Identity, HostileSizesFailCleanly) {
  CT_MAKE(x, zeros({3}));
  CT_EXPECT_FAIL(resize(x.get(), {int64_t(1) << 62}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Storage size calculation overflowed");
  ct_clear_error();
  EXPECT_NE(resize(x.get(), {int64_t(1) << 40}), CT_OK);  // 4 TiB: out of memory
  EXPECT_TRUE(expect_error_in({CT_ERR_OUT_OF_MEMORY, CT_ERR_INVALID_ARGUMENT}, ""));
  CT_EXPECT_FAIL(resize(x.get(), {int64_t(1) << 31, int64_t(1) << 31, 4}), CT_ERR_SHAPE, CT_ERR_SHAPE,
                 "overflows int64");
  CT_EXPECT_FAIL(resize(x.get(), {-1}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "negative dimension");
  EXPECT_TRUE(geometry_is(x.get(), {3}, {1}, 0));  // unchanged by every failure
  EXPECT_EQ(version(x), 0);
  const int64_t sz[2] = {2, 2}, st1[1] = {1}, neg[2] = {-1, 1};
  CT_EXPECT_FAIL(ct_as_strided_(x.get(), 2, sz, 1, st1, 0), CT_ERR_SHAPE, CT_ERR_SHAPE,
                 "mismatch in length of strides and shape");
  CT_EXPECT_FAIL(ct_as_strided_(x.get(), 2, sz, 2, neg, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Negative strides");
  const int64_t st2[2] = {2, 1};
  CT_EXPECT_FAIL(ct_as_strided_(x.get(), 2, sz, 2, st2, 0), CT_ERR_INDEX, CT_ERR_INDEX,
                 "requiring a storage size of 16 are out of bounds for storage of size 12");
  CT_EXPECT_FAIL(ct_as_strided_(x.get(), 2, sz, 2, st2, -1), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "invalid storage offset -1");
  CT_EXPECT_FAIL(ct_resize_(x.get(), CT_MAX_DIMS + 1, sz), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_resize_(x.get(), -1, sz), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_resize_(x.get(), 2, nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  ct_storage* s = ct_tensor_storage(x.get());
  const int64_t huge = int64_t(1) << 62;
  CT_EXPECT_FAIL(ct_set_storage_strided_(x.get(), s, 0, 1, &huge, -1, nullptr), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "overflowed");
  CT_EXPECT_FAIL(ct_set_storage_strided_(x.get(), s, 0, 1, &huge, 2, st2), CT_ERR_SHAPE, CT_ERR_SHAPE,
                 "unequal size length (1) and stride length (2)");
  CT_EXPECT_FAIL(ct_set_storage_strided_(x.get(), s, INT64_MAX, 1, sz, -1, nullptr), CT_ERR_SHAPE, CT_ERR_SHAPE,
                 "beyond the int64 range");
  ct_storage_release(s);
  EXPECT_TRUE(geometry_is(x.get(), {3}, {1}, 0));
}

TEST_F(Identity, NullHandles) {
  CT_MAKE(x, zeros({3}));
  const int64_t one = 1;
  CT_EXPECT_NULL(ct_data(nullptr), CT_ERR_INVALID_ARGUMENT, "ct_data");
  CT_EXPECT_FAIL(ct_set_data(nullptr, x.get()), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_set_data");
  CT_EXPECT_FAIL(ct_set_data(x.get(), nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "new_data");
  CT_EXPECT_FAIL(ct_detach_(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_detach_");
  CT_EXPECT_FAIL(ct_same_version_counter(x.get(), nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_is_resizable(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_disable_resize(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_set_(nullptr, x.get()), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_set_");
  CT_EXPECT_FAIL(ct_set_(x.get(), nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "source");
  CT_EXPECT_FAIL(ct_set_storage_(x.get(), nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_set_storage_strided_(x.get(), nullptr, 0, 1, &one, -1, nullptr), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_set_empty_(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_is_set_to(nullptr, x.get()), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_resize_(nullptr, 1, &one), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_resize_as_(x.get(), nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_as_strided_(nullptr, 1, &one, 1, &one, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "");
  CT_EXPECT_FAIL(ct_t_(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_transpose_(nullptr, 0, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_squeeze_(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_squeeze_dim_(nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_unsqueeze_(nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(Identity, ForeignExportedAndNumPyStoragesRefuseToGrow) {
  std::vector<float> mem(4, 1.0f);
  const int64_t four = 4;
  CT_MAKE(b, ct_from_blob(mem.data(), 1, &four, nullptr, CT_FLOAT32, nullptr, nullptr));
  ct_storage* s = ct_tensor_storage(b.get());
  EXPECT_EQ(ct_storage_is_resizable(s), 0);
  ct_storage_release(s);
  CT_EXPECT_FAIL(resize(b.get(), {8}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Trying to resize storage that is not resizable");
  CT_ASSERT_OK(resize(b.get(), {2}));  // no growth: fine
  CT_ASSERT_OK(resize(b.get(), {0}));
  EXPECT_EQ(version(b), 2);

  CT_MAKE(x, zeros({3}));
  DLManagedTensorVersioned* m = ct_to_dlpack_versioned(x.get());
  ASSERT_NE(m, nullptr);
  CT_EXPECT_FAIL(resize(x.get(), {100}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "DLPack export");
  m->deleter(m);
  CT_ASSERT_OK(resize(x.get(), {100}));

  s = ct_tensor_storage(x.get());
  CT_ASSERT_OK(ct_storage_disable_resize(s));
  EXPECT_EQ(ct_storage_is_resizable(s), 0);
  ct_storage_release(s);
  CT_EXPECT_FAIL(resize(x.get(), {1000}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "NumPy");
}

TEST_F(Identity, SetStorageOverloads) {
  CT_MAKE(src, zeros({6}));
  ct_storage* s = ct_tensor_storage(src.get());
  CT_MAKE(x, zeros({1}, CT_FLOAT64));
  CT_ASSERT_OK(ct_set_storage_(x.get(), s));  // 24 bytes as float64: 3 elements
  EXPECT_TRUE(geometry_is(x.get(), {3}, {1}, 0));
  const int64_t sz[2] = {2, 2}, st[2] = {1, 2};
  CT_MAKE(y, zeros({1}));
  CT_ASSERT_OK(ct_set_storage_strided_(y.get(), s, 1, 2, sz, 2, st));
  EXPECT_TRUE(geometry_is(y.get(), {2, 2}, {1, 2}, 1));
  CT_ASSERT_OK(ct_set_storage_strided_(y.get(), s, 4, 2, sz, -1, nullptr));  // grows to 8 floats
  EXPECT_EQ(ct_storage_nbytes(s), 32);
  EXPECT_EQ(ct_tensor_version(y.get()), 2);
  EXPECT_EQ(ct_tensor_version(src.get()), 0);
  ct_storage_release(s);
  CT_ASSERT_OK(ct_set_empty_(y.get()));
  EXPECT_TRUE(geometry_is(y.get(), {0}, {1}, 0));
  EXPECT_EQ(ct_shares_storage(y.get(), src.get()), 0);
}

TEST_F(Identity, AutogradRules) {
  CT_MAKE(w, ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(w.get(), 1));
  CT_EXPECT_FAIL(resize(w.get(), {4}), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "cannot resize variables that require grad");
  CT_EXPECT_FAIL(ct_t_(w.get()), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "a leaf Variable that requires grad is being used in an in-place operation.");
  CT_MAKE(v, ct_slice(w.get(), 0, 1, 3, 1));
  CT_EXPECT_FAIL(ct_detach_(v.get()), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Can't detach views in-place. Use detach() instead.");
  CT_MAKE(y, ct_mul_scalar(w.get(), 2));
  CT_ASSERT_OK(ct_detach_(y.get()));
  EXPECT_EQ(ct_requires_grad(y.get()), 0);
  EXPECT_EQ(ct_grad_fn_name(y.get()), nullptr);
  const int prev = ct_set_grad_enabled(0);
  CT_ASSERT_OK(ct_t_(w.get()));
  ct_set_grad_enabled(prev);
  EXPECT_EQ(ct_tensor_version(w.get()), 1);
}

// A non-leaf requiring grad records torch's node for each in-place metadata op; the gradient
// goes back through the geometry before the op; set_ records NotImplemented and backward fails.
TEST_F(Identity, MetadataOpsOnNonLeavesRecordTorchsNodes) {
  CT_MAKE(w, ct_arange(0, 6, 1, CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(w.get(), 1));
  const int64_t shape[] = {2, 3};
  CT_MAKE(y0, ct_mul_scalar(w.get(), 2));
  CT_MAKE(y, ct_view(y0.get(), 2, shape));
  CT_ASSERT_OK(ct_t_(y.get()));
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "TBackward1");
  EXPECT_STREQ(ct_grad_fn_name(y0.get()), "MulBackward0");  // the base keeps its history
  CT_ASSERT_OK(ct_transpose_(y.get(), 0, 1));
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "TransposeBackward1");
  CT_ASSERT_OK(ct_unsqueeze_(y.get(), 0));
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "UnsqueezeBackward1");
  CT_ASSERT_OK(ct_squeeze_dim_(y.get(), 0));
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "SqueezeBackward4");
  CT_ASSERT_OK(ct_squeeze_(y.get()));
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "SqueezeBackward3");
  const int64_t sz[] = {2}, st[] = {2};
  CT_ASSERT_OK(ct_as_strided_(y.get(), 1, sz, 1, st, 1));  // elements 1 and 3 of w
  EXPECT_STREQ(ct_grad_fn_name(y.get()), "AsStridedBackward1");
  CT_MAKE(s, ct_sum(y.get(), 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(s.get(), nullptr, 0));
  CT_MAKE(g, ct_grad(w.get()));
  const float* gd = static_cast<const float*>(ct_tensor_data(g.get()));
  const float want[] = {0, 2, 0, 2, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(gd[i], want[i]) << i;

  CT_MAKE(z, ct_mul_scalar(w.get(), 3));
  CT_MAKE(src, ones({2}));
  CT_ASSERT_OK(ct_set_(z.get(), src.get()));
  EXPECT_STREQ(ct_grad_fn_name(z.get()), "torch::autograd::NotImplemented");
  CT_MAKE(zs, ct_sum(z.get(), 0, nullptr, 0));
  CT_EXPECT_FAIL(ct_backward(zs.get(), nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "derivative for set_ is not implemented");
}

TEST_F(Identity, ResizeWithAMemoryFormat) {
  CT_MAKE(x, zeros({2, 3, 4, 5}));
  const int64_t same[] = {2, 3, 4, 5}, grown[] = {1, 3, 4, 6};
  CT_ASSERT_OK(ct_resize_format_(x.get(), 4, same, CT_CHANNELS_LAST));  // restrided, no bump
  EXPECT_TRUE(geometry_is(x.get(), {2, 3, 4, 5}, {60, 1, 15, 3}, 0));
  EXPECT_EQ(version(x), 0);
  CT_ASSERT_OK(ct_resize_format_(x.get(), 4, grown, CT_CHANNELS_LAST));
  EXPECT_TRUE(geometry_is(x.get(), {1, 3, 4, 6}, {72, 1, 18, 3}, 0));
  EXPECT_EQ(version(x), 1);
  // refused before anything changes: preserve, a wrong rank, an unknown value
  CT_EXPECT_FAIL(ct_resize_format_(x.get(), 4, same, CT_PRESERVE_FORMAT), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "Unsupported memory formatPreserve");
  const int64_t flat[] = {100};
  CT_EXPECT_FAIL(ct_resize_format_(x.get(), 1, flat, CT_CHANNELS_LAST), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "required rank 4 tensor to use channels_last format");
  CT_EXPECT_FAIL(ct_resize_format_(x.get(), 4, same, static_cast<ct_memory_format>(7)), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "");
  EXPECT_TRUE(geometry_is(x.get(), {1, 3, 4, 6}, {72, 1, 18, 3}, 0));
  EXPECT_EQ(version(x), 1);
  CT_EXPECT_FAIL(ct_resize_format_(nullptr, 4, same, CT_CHANNELS_LAST), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "");
  // An expanded tensor restrided to its own sizes needs more storage: it grows.
  CT_MAKE(one, zeros({1}));
  CT_MAKE(e, ct_expand(one.get(), 4, same));
  CT_MAKE(d, ct_data(e.get()));  // not a view: may be restrided
  CT_ASSERT_OK(ct_resize_format_(d.get(), 4, same, CT_CONTIGUOUS_FORMAT));
  EXPECT_TRUE(geometry_is(d.get(), {2, 3, 4, 5}, {60, 20, 5, 1}, 0));
  ct_storage* s = ct_tensor_storage(d.get());
  EXPECT_GE(ct_storage_nbytes(s), 120 * 4);
  ct_storage_release(s);
}
