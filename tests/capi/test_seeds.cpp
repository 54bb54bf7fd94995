// The questions users ask about views and copies, answered as tests through the C API.
// Each answer is PyTorch 1.13's (the torch command is in the comment).
#include <cstdint>
#include <limits>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();

class Seeds : public CtTest {
 protected:
  void SetUp() override {
    CtTest::SetUp();
    // x = torch.arange(12.).view(3, 4)
    TensorRef flat(ct_arange(0, 12, 1, CT_FLOAT32));
    ASSERT_NE(flat.get(), nullptr) << last_error_str();
    x_.reset(ctt::view(flat, {3, 4}));
    ASSERT_NE(x_.get(), nullptr) << last_error_str();
    flat.reset();
    ct_tensor* b = ct_tensor_base(x_);
    ASSERT_NE(b, nullptr);
    root_ = b;  // x is a view of the arange tensor, which stays alive as its base
    ct_tensor_release(b);
  }
  void TearDown() override {
    x_.reset();
    CtTest::TearDown();
  }
  TensorRef x_;
  const ct_tensor* root_ = nullptr;
};

}  // namespace

// "If I slice a tensor and write into the slice, does the original change?"  Yes.
//   x = torch.arange(12.).view(3, 4); v = x[:, 1:3]; v.copy_(torch.full((3, 2), -1.))
//   x -> [[0,-1,-1,3],[4,-1,-1,7],[8,-1,-1,11]]; v.storage_offset() == 1; x._version == 1
TEST_F(Seeds, SlicingThenWritingThroughTheViewChangesTheOriginal) {
  CT_MAKE(v, ct_slice(x_, 1, 1, 3, 1));
  EXPECT_TRUE(geometry_is(v, {3, 2}, {4, 1}, 1));
  EXPECT_EQ(ct_shares_storage(v, x_), 1);
  EXPECT_EQ(byte_delta(v, x_), 1 * 4);
  EXPECT_EQ(ct_tensor_is_view(v), 1);
  CT_MAKE(minus, ctt::full({3, 2}, -1.0));
  CT_ASSERT_OK(ct_copy_(v, minus));
  EXPECT_EQ(values(x_), (std::vector<double>{0, -1, -1, 3, 4, -1, -1, 7, 8, -1, -1, 11}));
  EXPECT_EQ(ct_tensor_version(x_), 1);
  EXPECT_EQ(ct_tensor_version(v), 1);
  // A raw write through the view's data pointer lands in x too.
  static_cast<float*>(ct_tensor_data(v))[0] = 100.0f;  // v[0][0] is x[0][1]
  EXPECT_EQ(values(x_)[1], 100.0);
}

// "Does transpose copy?"  No: same storage, swapped strides.
//   x.t().stride() == (1, 4); x.t().data_ptr() == x.data_ptr(); x.t().is_contiguous() False
TEST_F(Seeds, TransposeSharesMemory) {
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  EXPECT_TRUE(geometry_is(t, {4, 3}, {1, 4}, 0));
  EXPECT_EQ(ct_tensor_data(t), ct_tensor_data(x_));
  EXPECT_EQ(ct_shares_storage(t, x_), 1);
  EXPECT_EQ(ct_tensor_storage_id(t), ct_tensor_storage_id(x_));
  EXPECT_EQ(ct_tensor_is_contiguous(t), 0);
  EXPECT_EQ(ct_tensor_is_contiguous(x_), 1);
  EXPECT_TRUE(is_view_of(t, root_));  // base is the root (arange), not x
  CT_MAKE(row, ct_select(t, 0, 2));     // t[2] is x[:, 2]
  CT_MAKE(nine, ctt::full({3}, 9.0));
  CT_ASSERT_OK(ct_copy_(row, nine));
  EXPECT_EQ(values(x_), (std::vector<double>{0, 1, 9, 3, 4, 5, 9, 7, 8, 9, 9, 11}));
}

// "Does index_select return a view?"  No: a copy; writes do not propagate.
//   r = x.index_select(0, torch.tensor([0, 2])); r._base is None; r.fill_(0) leaves x alone
TEST_F(Seeds, IndexSelectCopies) {
  CT_MAKE(idx, index64({0, 2}));
  CT_MAKE(r, ct_index_select(x_, 0, idx));
  EXPECT_TRUE(geometry_is(r, {2, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_not_view(r));
  EXPECT_EQ(ct_shares_storage(r, x_), 0);
  EXPECT_EQ(ct_may_overlap(r, x_), 0);
  EXPECT_EQ(values(r), (std::vector<double>{0, 1, 2, 3, 8, 9, 10, 11}));
  CT_MAKE(z, ctt::zeros({2, 4}));
  CT_ASSERT_OK(ct_copy_(r, z));
  EXPECT_EQ(values(x_), iota(12));
  EXPECT_EQ(ct_tensor_version(x_), 0);
}

// "Does reshape copy?"  Not for a contiguous tensor: the data pointer is kept.
//   r = x.reshape(2, 6); r.data_ptr() == x.data_ptr(); r._base is x._base (the root)
TEST_F(Seeds, ReshapeOfContiguousKeepsTheDataPointer) {
  EXPECT_EQ(reshape_is_view(x_, {2, 6}), 1);
  CT_MAKE(r, ctt::reshape(x_, {2, 6}));
  EXPECT_EQ(ct_tensor_data(r), ct_tensor_data(x_));
  EXPECT_TRUE(geometry_is(r, {2, 6}, {6, 1}, 0));
  EXPECT_TRUE(is_view_of(r, root_));
  CT_MAKE(f, ct_flatten(x_, 0, -1));
  EXPECT_EQ(ct_tensor_data(f), ct_tensor_data(x_));
}

// "clone() or detach()?"  detach (ct_alias) shares storage and version but is not a view;
// clone shares nothing.
//   a = x.detach(): a.data_ptr() == x.data_ptr(), a._base is None, a._is_view() False,
//   a.add_(1) bumps x._version; c = x.clone(): new storage, c._version == 0 after x changes
TEST_F(Seeds, CloneVersusAlias) {
  CT_MAKE(a, ct_alias(x_));
  CT_MAKE(c, ct_clone(x_));
  EXPECT_EQ(ct_tensor_is_view(a), 0);
  EXPECT_TRUE(is_not_view(a));
  EXPECT_EQ(ct_shares_storage(a, x_), 1);
  EXPECT_EQ(ct_tensor_data(a), ct_tensor_data(x_));
  EXPECT_TRUE(geometry_is(a, {3, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_not_view(c));
  EXPECT_EQ(ct_shares_storage(c, x_), 0);
  EXPECT_NE(ct_tensor_data(c), ct_tensor_data(x_));
  EXPECT_EQ(ct_may_overlap(c, x_), 0);
  EXPECT_EQ(values(c), iota(12));
  CT_MAKE(ones, ctt::ones({3, 4}));
  CT_ASSERT_OK(ct_copy_(a, ones));  // through the alias
  EXPECT_EQ(ct_tensor_version(x_), 1);
  EXPECT_EQ(ct_tensor_version(a), 1);
  EXPECT_EQ(ct_tensor_version(c), 0);
  EXPECT_EQ(values(x_), std::vector<double>(12, 1.0));
  EXPECT_EQ(values(c), iota(12));
}

// "Why does view() fail after transpose?"  The strides forbid it; reshape copies instead.
//   x.t().view(12) -> RuntimeError: view size is not compatible with input tensor's size and
//   stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
//   x.t().reshape(12)._base is None; values [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
TEST_F(Seeds, ViewOfTransposedFailsAndReshapeCopies) {
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  CT_EXPECT_NULL(ctt::view(t, {12}), CT_ERR_NOT_VIEWABLE,
                 "view size is not compatible with input tensor's size and stride (at least one dimension "
                 "spans across two contiguous subspaces). Use .reshape(...) instead.");
  EXPECT_EQ(reshape_is_view(t, {12}), 0);
  CT_MAKE(r, ctt::reshape(t, {12}));
  EXPECT_TRUE(geometry_is(r, {12}, {1}, 0));
  EXPECT_TRUE(is_not_view(r));
  EXPECT_EQ(ct_shares_storage(r, x_), 0);
  EXPECT_EQ(values(r), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // contiguous() then view() works, on the copy.
  CT_MAKE(c, ct_contiguous(t));
  CT_MAKE(cv, ctt::view(c, {12}));
  EXPECT_TRUE(is_view_of(cv, c));
  EXPECT_EQ(values(cv), values(r));
}

// "Can I write into an expanded tensor?"  No: its elements share memory.
//   torch.arange(3.).expand(2, 3).copy_(...) -> "unsupported operation: more than one element
//   of the written-to tensor refers to a single memory location."
TEST_F(Seeds, ExpandSharesMemoryAndRefusesWrites) {
  CT_MAKE(row, ct_select(x_, 0, 0));
  CT_MAKE(e, ctt::expand(row, {5, 4}));
  EXPECT_TRUE(geometry_is(e, {5, 4}, {0, 1}, 0));
  EXPECT_EQ(ct_shares_storage(e, x_), 1);
  EXPECT_EQ(ct_has_internal_overlap(e), 1);
  CT_MAKE(z, ctt::zeros({5, 4}));
  CT_EXPECT_FAIL(ct_copy_(e, z), CT_ERR_OVERLAP, CT_ERR_OVERLAP,
                 "more than one element of the written-to tensor refers to a single memory location");
  EXPECT_EQ(values(x_), iota(12));
}

// "Is x[1:] a copy?"  No, and its storage offset moves, not its data.
//   x[1:].storage_offset() == 4; x[1:]._base is x._base; x[:, ::2].stride() == (4, 2)
TEST_F(Seeds, SlicesMoveTheOffsetNotTheData) {
  CT_MAKE(s, ct_slice(x_, 0, 1, kEnd, 1));
  EXPECT_TRUE(geometry_is(s, {2, 4}, {4, 1}, 4));
  EXPECT_EQ(ct_tensor_is_contiguous(s), 1);
  CT_MAKE(ev, ct_slice(x_, 1, 0, kEnd, 2));
  EXPECT_TRUE(geometry_is(ev, {3, 2}, {4, 2}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(ev), 0);
  EXPECT_TRUE(is_view_of(s, root_));
  EXPECT_TRUE(is_view_of(ev, root_));
  StorageRef st(ct_tensor_storage(s));
  EXPECT_EQ(ct_storage_nbytes(st), 48) << "a slice still holds the whole storage";
}
