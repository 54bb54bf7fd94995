// View-or-copy (reshape, flatten, contiguous), copies (clone, index_select, to, copy_),
// introspection on bad handles, memory relations, printing and storage queries.
// Expected behaviour checked against PyTorch 1.13, e.g.
//   /usr/bin/python3 -c "import torch; x=torch.arange(12.).view(3,4).clone();
//                        r=x.t().reshape(12); print(r._base, r.stride())"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();

// t is a copy: a new storage, offset 0, not a view, no error from base, and (unless the
// layout is checked separately, as for ct_clone) contiguous.
::testing::AssertionResult is_fresh_copy_of(const ct_tensor* t, const ct_tensor* src, bool contiguous = true) {
  if (t == nullptr) return ::testing::AssertionFailure() << "NULL: " << last_error_str();
  auto r = is_not_view(t);
  if (!r) return r;
  if (ct_shares_storage(t, src) != 0) return ::testing::AssertionFailure() << "shares storage with the source";
  if (ct_tensor_storage_id(t) == ct_tensor_storage_id(src))
    return ::testing::AssertionFailure() << "same storage id as the source";
  if (ct_tensor_numel(t) > 0 && ct_may_overlap(t, src) != 0)
    return ::testing::AssertionFailure() << "memory overlaps the source";
  if (contiguous && ct_tensor_is_contiguous(t) != 1) return ::testing::AssertionFailure() << "not contiguous";
  if (ct_tensor_offset(t) != 0) return ::testing::AssertionFailure() << "offset " << ct_tensor_offset(t);
  if (ct_tensor_version(t) != 0) return ::testing::AssertionFailure() << "version " << ct_tensor_version(t);
  if (ct_tensor_refcount(t) != 1) return ::testing::AssertionFailure() << "refcount " << ct_tensor_refcount(t);
  return ::testing::AssertionSuccess();
}

class Reshape : public CtTest {
 protected:
  void SetUp() override {
    CtTest::SetUp();
    x_.reset(make_iota_f32({3, 4}));
    ASSERT_NE(x_.get(), nullptr) << last_error_str();
    t_.reset(ct_transpose(x_, 0, 1));  // (4, 3), strides (1, 4)
    ASSERT_NE(t_.get(), nullptr) << last_error_str();
  }
  void TearDown() override {
    t_.reset();
    x_.reset();
    CtTest::TearDown();
  }
  TensorRef x_, t_;
};
using Copies = Reshape;
using Relations = Reshape;
using Introspection = Reshape;
using Printing = CtTest;
using Storages = CtTest;

const std::vector<double> kTransposed = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};

}  // namespace

// ---- reshape -------------------------------------------------------------------------------

TEST_F(Reshape, ContiguousReshapeIsAViewKeepingTheDataPointer) {
  EXPECT_EQ(reshape_is_view(x_, {4, 3}), 1);
  CT_MAKE(r, ctt::reshape(x_, {4, 3}));
  EXPECT_TRUE(geometry_is(r, {4, 3}, {3, 1}, 0));
  EXPECT_TRUE(is_view_of(r, x_));
  EXPECT_EQ(ct_tensor_data(r), ct_tensor_data(x_));
  CT_MAKE(r2, ctt::reshape(x_, {2, -1}));
  EXPECT_TRUE(geometry_is(r2, {2, 6}, {6, 1}, 0));
  EXPECT_TRUE(is_view_of(r2, x_));
  // torch: x.reshape(3, 4) is a view of x but not x itself
  CT_MAKE(same, ctt::reshape(x_, {3, 4}));
  EXPECT_NE(same.get(), x_.get());
  EXPECT_TRUE(is_view_of(same, x_));
  EXPECT_EQ(reshape_is_view(x_, {3, 4}), 1);
}

TEST_F(Reshape, TransposedReshapeCopies) {
  // torch: x.t().reshape(12)._base is None; stride (1,); values in the transposed order
  EXPECT_EQ(reshape_is_view(t_, {12}), 0);
  const int64_t storages = ct_live_storages();
  CT_MAKE(r, ctt::reshape(t_, {12}));
  EXPECT_TRUE(geometry_is(r, {12}, {1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(r, x_));
  EXPECT_NE(ct_tensor_data(r), ct_tensor_data(x_));
  EXPECT_EQ(values(r), kTransposed);
  EXPECT_EQ(ct_live_storages(), storages + 1);
  // x.t().reshape(4, 3): same shape as t, so a view (strides (1, 4)) whose base is x
  EXPECT_EQ(reshape_is_view(t_, {4, 3}), 1);
  CT_MAKE(v, ctt::reshape(t_, {4, 3}));
  EXPECT_TRUE(geometry_is(v, {4, 3}, {1, 4}, 0));
  EXPECT_TRUE(is_view_of(v, x_));
  EXPECT_EQ(reshape_is_view(t_, {4, 3, 1}), 1);
  EXPECT_EQ(reshape_is_view(t_, {2, 6}), 0);
  EXPECT_EQ(reshape_is_view(t_, {3, 4}), 0);
}

TEST_F(Reshape, ReshapeOfSlicesAndExpands) {
  CT_MAKE(rows, ct_slice(x_, 0, 0, 2, 1));  // x[0:2].reshape(8): a view
  EXPECT_EQ(reshape_is_view(rows, {8}), 1);
  CT_MAKE(r1, ctt::reshape(rows, {8}));
  EXPECT_TRUE(geometry_is(r1, {8}, {1}, 0));
  EXPECT_TRUE(is_view_of(r1, x_));
  CT_MAKE(cols, ct_slice(x_, 1, 0, 2, 1));  // x[:, 0:2]
  EXPECT_EQ(reshape_is_view(cols, {6}), 0);
  CT_MAKE(r2, ctt::reshape(cols, {6}));  // copy
  EXPECT_TRUE(is_fresh_copy_of(r2, x_));
  EXPECT_EQ(values(r2), (std::vector<double>{0, 1, 4, 5, 8, 9}));
  EXPECT_EQ(reshape_is_view(cols, {3, 1, 2}), 1);
  CT_MAKE(r3, ctt::reshape(cols, {3, 1, 2}));  // x[:, 0:2].reshape(3, 1, 2): strides (4, 2, 1)
  EXPECT_TRUE(geometry_is(r3, {3, 1, 2}, {4, 2, 1}, 0));
  EXPECT_TRUE(is_view_of(r3, x_));
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));
  EXPECT_EQ(reshape_is_view(e, {6}), 0);
  CT_MAKE(r4, ctt::reshape(e, {6}));  // b.expand(2, 3).reshape(6): a copy
  EXPECT_TRUE(is_fresh_copy_of(r4, b));
  EXPECT_EQ(values(r4), (std::vector<double>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(reshape_is_view(e, {2, 1, 3}), 1);
  CT_MAKE(r5, ctt::reshape(e, {2, 1, 3}));  // a view, strides (0, 3, 1)
  EXPECT_TRUE(geometry_is(r5, {2, 1, 3}, {0, 3, 1}, 0));
  EXPECT_TRUE(is_view_of(r5, b));
}

TEST_F(Reshape, ReshapeZeroDim) {
  CT_MAKE(s, ct_full(0, nullptr, 3.0, CT_FLOAT32));
  CT_MAKE(r, ctt::reshape(s, {1, 1}));
  EXPECT_TRUE(geometry_is(r, {1, 1}, {1, 1}, 0));
  EXPECT_TRUE(is_view_of(r, s));
  CT_MAKE(one, make_iota_f32({1}));
  CT_MAKE(r0, ct_reshape(one, 0, nullptr));
  EXPECT_EQ(ct_tensor_ndim(r0), 0);
  EXPECT_TRUE(is_view_of(r0, one));
}

TEST_F(Reshape, ReshapeErrors) {
  CT_EXPECT_NULL(ctt::reshape(x_, {5}), CT_ERR_SHAPE, "shape '[5]' is invalid for input of size 12");
  CT_EXPECT_NULL(ctt::reshape(t_, {5}), CT_ERR_SHAPE, "shape '[5]' is invalid for input of size 12");
  CT_EXPECT_NULL(ctt::reshape(x_, {-1, 5}), CT_ERR_SHAPE, "shape '[-1, 5]' is invalid for input of size 12");
  CT_EXPECT_FAIL(reshape_is_view(x_, {5}), -1, CT_ERR_SHAPE, "shape '[5]' is invalid for input of size 12");
  CT_EXPECT_FAIL(reshape_is_view(t_, {7}), -1, CT_ERR_SHAPE, "shape '[7]' is invalid for input of size 12");
  CT_EXPECT_FAIL(ct_reshape_is_view(nullptr, 0, nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_reshape(x_, 1, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_reshape(nullptr, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- flatten -------------------------------------------------------------------------------

TEST_F(Reshape, Flatten) {
  CT_MAKE(f, ct_flatten(x_, 0, -1));
  EXPECT_TRUE(geometry_is(f, {12}, {1}, 0));
  EXPECT_TRUE(is_view_of(f, x_));
  EXPECT_EQ(ct_tensor_data(f), ct_tensor_data(x_));
  // start == end: t itself, retained (torch: x.flatten(1, 1) is x)
  const int64_t rc = ct_tensor_refcount(x_);
  ct_tensor* same = ct_flatten(x_, 1, 1);
  EXPECT_EQ(same, x_.get());
  EXPECT_EQ(ct_tensor_refcount(x_), rc + 1);
  ct_tensor_release(same);
  ct_tensor* same2 = ct_flatten(x_, -1, -1);
  EXPECT_EQ(same2, x_.get());
  ct_tensor_release(same2);
  ct_tensor* same3 = ct_flatten(t_, 0, 0);  // even for a non-contiguous tensor
  EXPECT_EQ(same3, t_.get());
  ct_tensor_release(same3);
  EXPECT_EQ(ct_tensor_refcount(x_), rc);
  // x.t().flatten(): a copy
  CT_MAKE(ft, ct_flatten(t_, 0, 1));
  EXPECT_TRUE(geometry_is(ft, {12}, {1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(ft, x_));
  EXPECT_EQ(values(ft), kTransposed);
}

TEST_F(Reshape, FlattenPartialDims) {
  CT_MAKE(y, make_iota_f32({2, 3, 4}));
  CT_MAKE(f12, ct_flatten(y, 1, 2));  // y.flatten(1, 2): view (2, 12), (12, 1)
  EXPECT_TRUE(geometry_is(f12, {2, 12}, {12, 1}, 0));
  EXPECT_TRUE(is_view_of(f12, y));
  CT_MAKE(yt, ct_transpose(y, 0, 1));  // (3, 2, 4), strides (4, 12, 1)
  CT_MAKE(a, ct_flatten(yt, 1, 2));    // a copy (3, 8), (8, 1)
  EXPECT_TRUE(geometry_is(a, {3, 8}, {8, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(a, y));
  CT_MAKE(b, ct_flatten(yt, 0, 1));  // a copy (6, 4), (4, 1)
  EXPECT_TRUE(geometry_is(b, {6, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(b, y));
  EXPECT_EQ(values(b), (std::vector<double>{0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7,
                                            16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST_F(Reshape, FlattenZeroDim) {
  CT_MAKE(s, ct_full(0, nullptr, 5.0, CT_FLOAT32));
  // torch.tensor(5.).flatten(0, 0): shape (1,), _base is the tensor (not the tensor itself)
  for (auto [a, b] : {std::pair{0, 0}, std::pair{0, -1}, std::pair{-1, -1}}) {
    TensorRef f(ct_flatten(s, a, b));
    ASSERT_NE(f.get(), nullptr) << last_error_str();
    EXPECT_NE(f.get(), s.get());
    EXPECT_TRUE(geometry_is(f, {1}, {1}, 0));
    EXPECT_TRUE(is_view_of(f, s));
  }
}

TEST_F(Reshape, FlattenErrors) {
  // torch: "flatten() has invalid args: start_dim cannot come after end_dim"
  CT_EXPECT_NULL_IN(ct_flatten(x_, 1, 0), "start_dim cannot come after end_dim", CT_ERR_INVALID_ARGUMENT,
                    CT_ERR_INDEX, CT_ERR_SHAPE);
  CT_EXPECT_NULL(ct_flatten(x_, 0, 2), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_flatten(x_, -3, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  CT_EXPECT_NULL(ct_flatten(nullptr, 0, 0), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- contiguous ----------------------------------------------------------------------------

TEST_F(Reshape, ContiguousOfContiguousIsTheSameHandle) {
  EXPECT_EQ(ct_tensor_refcount(x_), 2);  // our handle + t_'s base
  ct_tensor* c = ct_contiguous(x_);
  EXPECT_EQ(c, x_.get());
  EXPECT_EQ(ct_tensor_refcount(x_), 3);
  ct_tensor_release(c);
  EXPECT_EQ(ct_tensor_refcount(x_), 2);
  CT_MAKE(row, ct_slice(x_, 0, 0, 1, 1));  // x[0:1, :] is contiguous: returned as is
  ct_tensor* c2 = ct_contiguous(row);
  EXPECT_EQ(c2, row.get());
  EXPECT_EQ(ct_tensor_refcount(row), 2);
  ct_tensor_release(c2);
  CT_MAKE(e, ctt::zeros({0, 3}));
  CT_MAKE(ee, ctt::expand(e, {2, 0, 3}));  // no elements: contiguous
  ct_tensor* c3 = ct_contiguous(ee);
  EXPECT_EQ(c3, ee.get());
  ct_tensor_release(c3);
}

TEST_F(Reshape, ContiguousOfNonContiguousCopies) {
  CT_MAKE(c, ct_contiguous(t_));  // torch: x.t().contiguous(): (4, 3), (3, 1), _base None
  EXPECT_TRUE(geometry_is(c, {4, 3}, {3, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(c, x_));
  EXPECT_EQ(values(c), kTransposed);
  CT_MAKE(col, ct_slice(x_, 1, 0, 1, 1));  // x[:, 0:1]: (3, 1), (4, 1): not contiguous
  CT_MAKE(cc, ct_contiguous(col));         // -> strides (1, 1)
  EXPECT_TRUE(geometry_is(cc, {3, 1}, {1, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(cc, x_));
  EXPECT_EQ(values(cc), (std::vector<double>{0, 4, 8}));
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));
  CT_MAKE(ec, ct_contiguous(e));
  EXPECT_TRUE(geometry_is(ec, {2, 3}, {3, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(ec, b));
  EXPECT_EQ(ct_has_internal_overlap(ec), 0);
  CT_EXPECT_NULL(ct_contiguous(nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- clone ---------------------------------------------------------------------------------

TEST_F(Copies, CloneIsANewStorage) {
  const int64_t rc = ct_tensor_refcount(x_);
  CT_MAKE(c, ct_clone(x_));
  EXPECT_TRUE(geometry_is(c, {3, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(c, x_));
  EXPECT_EQ(values(c), iota(12));
  EXPECT_EQ(ct_tensor_refcount(x_), rc);
  StorageRef s(ct_tensor_storage(c));
  EXPECT_EQ(ct_storage_nbytes(s), 48);
  // Writes to one are not seen by the other.
  static_cast<float*>(ct_tensor_data(c))[0] = 100.0f;
  EXPECT_EQ(values(x_)[0], 0.0);
  CT_MAKE(ones, ctt::ones({3, 4}));
  CT_ASSERT_OK(ct_copy_(x_, ones));
  EXPECT_EQ(ct_tensor_version(c), 0);
  EXPECT_EQ(values(c)[1], 1.0);
}

TEST_F(Copies, CloneOfATransposeStaysTransposed) {
  // torch (preserve_format): x.t().clone().stride() == (1, 4), is_contiguous() False
  CT_MAKE(ct, ct_clone(t_));
  EXPECT_TRUE(geometry_is(ct, {4, 3}, {1, 4}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(ct), 0);
  EXPECT_TRUE(is_fresh_copy_of(ct, x_, /*contiguous=*/false));
  EXPECT_EQ(values(ct), kTransposed);
  StorageRef s(ct_tensor_storage(ct));
  EXPECT_EQ(ct_storage_nbytes(s), 48);
  // ct_contiguous is the way to C order.
  CT_MAKE(cc, ct_contiguous(ct));
  EXPECT_TRUE(geometry_is(cc, {4, 3}, {3, 1}, 0));
}

TEST_F(Copies, CloneLayoutFollowsTorchPreserveFormat) {
  // /usr/bin/python3 -c "import torch; x=torch.arange(12.).view(3,4); print(x[:,1:3].clone().stride())"
  CT_MAKE(y, make_iota_f32({2, 3, 4}));
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e8, make_iota_f32({8}));
  struct Case {
    const char* what;
    TensorRef src;
    std::vector<int64_t> strides;
  };
  std::vector<Case> cases;
  cases.push_back({"x[:, 1:3] -> (2, 1)", TensorRef(ct_slice(x_, 1, 1, 3, 1)), {2, 1}});
  cases.push_back({"x[:, ::2] -> (2, 1)", TensorRef(ct_slice(x_, 1, 0, kEnd, 2)), {2, 1}});
  cases.push_back({"x.t()[:, ::2] -> (1, 4)", TensorRef(ct_slice(t_, 1, 0, kEnd, 2)), {1, 4}});
  cases.push_back({"x[:, 0:1] -> (1, 1)", TensorRef(ct_slice(x_, 1, 0, 1, 1)), {1, 1}});
  cases.push_back({"x.t()[:, 0:1] -> (1, 4)", TensorRef(ct_slice(t_, 1, 0, 1, 1)), {1, 4}});
  cases.push_back({"x.diagonal() -> (1,)", TensorRef(ct_diagonal(x_, 0, 0, 1)), {1}});
  cases.push_back({"arange(3.).expand(2, 3) -> (3, 1)", TensorRef(ctt::expand(b, {2, 3})), {3, 1}});
  {
    TensorRef col(ctt::view(b, {3, 1}));
    cases.push_back({"arange(3.).view(3, 1).expand(3, 4) -> (4, 1)", TensorRef(ctt::expand(col, {3, 4})), {4, 1}});
  }
  cases.push_back({"arange(8.).unfold(0, 3, 1) -> (3, 1)", TensorRef(ct_unfold(e8, 0, 3, 1)), {3, 1}});
  {
    TensorRef p(ctt::permute(y, {2, 0, 1}));
    cases.push_back({"y.permute(2, 0, 1)[:, :, ::2] -> (1, 8, 4)", TensorRef(ct_slice(p, 2, 0, kEnd, 2)), {1, 8, 4}});
  }
  for (Case& c : cases) {
    ASSERT_NE(c.src.get(), nullptr) << c.what << ": " << last_error_str();
    TensorRef cl(ct_clone(c.src));
    ASSERT_NE(cl.get(), nullptr) << c.what << ": " << last_error_str();
    EXPECT_TRUE(strides_are(cl, c.strides)) << c.what;
    EXPECT_TRUE(sizes_are(cl, std::vector<int64_t>(ct_tensor_sizes(c.src), ct_tensor_sizes(c.src) + ct_tensor_ndim(c.src))))
        << c.what;
    EXPECT_TRUE(is_fresh_copy_of(cl, c.src, /*contiguous=*/false)) << c.what;
    EXPECT_EQ(ct_has_internal_overlap(cl), 0) << c.what;
    EXPECT_EQ(values(cl), values(c.src)) << c.what;
    StorageRef st(ct_tensor_storage(cl));
    EXPECT_EQ(ct_storage_nbytes(st), ct_tensor_numel(c.src) * 4) << c.what << ": a clone is dense";
  }
}

TEST_F(Copies, CloneOfEdgeShapes) {
  CT_MAKE(s, ct_full(0, nullptr, 2.5, CT_FLOAT64));
  CT_MAKE(cs, ct_clone(s));
  EXPECT_EQ(ct_tensor_ndim(cs), 0);
  EXPECT_EQ(values(cs), std::vector<double>{2.5});
  EXPECT_TRUE(is_fresh_copy_of(cs, s));
  CT_MAKE(z, ctt::zeros({0, 3}));
  CT_MAKE(cz, ct_clone(z));
  EXPECT_TRUE(geometry_is(cz, {0, 3}, {3, 1}, 0));
  EXPECT_TRUE(is_not_view(cz));
  EXPECT_NE(ct_tensor_storage_id(cz), ct_tensor_storage_id(z));
  CT_EXPECT_NULL(ct_clone(nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(Copies, ClonePreservesEveryDtype) {
  for (ct_dtype d : {CT_BOOL, CT_UINT8, CT_INT8, CT_INT16, CT_INT32, CT_INT64, CT_FLOAT16, CT_BFLOAT16,
                     CT_FLOAT32, CT_FLOAT64}) {
    TensorRef a(ct_arange(0, 6, 1, d == CT_BOOL ? CT_UINT8 : d));
    ASSERT_NE(a.get(), nullptr) << last_error_str();
    TensorRef src(d == CT_BOOL ? ct_to(a, CT_BOOL) : ct_tensor_retain(a));
    ASSERT_NE(src.get(), nullptr) << last_error_str();
    TensorRef v(ctt::view(src, {2, 3}));
    TensorRef tr(ct_transpose(v, 0, 1));
    TensorRef c(ct_clone(tr));
    ASSERT_NE(c.get(), nullptr) << ct_dtype_name(d) << ": " << last_error_str();
    EXPECT_EQ(ct_tensor_dtype(c), d);
    EXPECT_TRUE(geometry_is(c, {3, 2}, {1, 3}, 0)) << ct_dtype_name(d);  // the transposed layout
    EXPECT_EQ(ct_shares_storage(c, src), 0);
    std::vector<double> want = {0, 3, 1, 4, 2, 5};
    if (d == CT_BOOL) want = {0, 1, 1, 1, 1, 1};
    EXPECT_EQ(values(c), want) << ct_dtype_name(d);
  }
}

// ---- index_select --------------------------------------------------------------------------

TEST_F(Copies, IndexSelectCopies) {
  CT_MAKE(idx, index64({2, 0, 2}));
  CT_MAKE(r, ct_index_select(x_, 0, idx));  // x.index_select(0, tensor([2, 0, 2]))
  EXPECT_TRUE(geometry_is(r, {3, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(r, x_));
  EXPECT_EQ(values(r), (std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}));
  // Writes to the result do not reach x.
  CT_MAKE(neg, ctt::full({3, 4}, -1.0));
  CT_ASSERT_OK(ct_copy_(r, neg));
  EXPECT_EQ(values(x_), iota(12));
  EXPECT_EQ(ct_tensor_version(x_), 0);
  EXPECT_EQ(ct_tensor_version(r), 1);
}

TEST_F(Copies, IndexSelectInt32AlongDim1) {
  CT_MAKE(idx, index32({3, 0}));
  CT_MAKE(r, ct_index_select(x_, 1, idx));
  EXPECT_TRUE(geometry_is(r, {3, 2}, {2, 1}, 0));
  EXPECT_TRUE(is_fresh_copy_of(r, x_));
  EXPECT_EQ(values(r), (std::vector<double>{3, 0, 7, 4, 11, 8}));
  CT_MAKE(r2, ct_index_select(x_, -1, idx));
  EXPECT_EQ(values(r2), (std::vector<double>{3, 0, 7, 4, 11, 8}));
}

TEST_F(Copies, IndexSelectRefusesNegativeIndicesAsTorch) {
  // torch.arange(12.).view(3, 4).index_select(0, torch.tensor([-1]))
  //   -> IndexError: index out of range in self
  CT_MAKE(idx, index64({-1, 0}));
  EXPECT_EQ(ct_index_select(x_, 0, idx), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INDEX, "index out of range in self"));
  CT_MAKE(idx32, index32({-4}));
  EXPECT_EQ(ct_index_select(x_, 1, idx32), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INDEX, "index out of range in self"));
}

TEST_F(Copies, IndexSelectOfNonContiguousAndScalarAndEmptyIndex) {
  CT_MAKE(idx, index64({1, 3}));
  CT_MAKE(r, ct_index_select(t_, 0, idx));  // torch.index_select(x.t(), 0, tensor([1, 3]))
  EXPECT_TRUE(geometry_is(r, {2, 3}, {3, 1}, 0));
  EXPECT_EQ(values(r), (std::vector<double>{1, 5, 9, 3, 7, 11}));
  int64_t one = 1;
  CT_MAKE(s, ct_from_data(&one, 0, nullptr, CT_INT64));  // 0-D index keeps the dim: (1, 4)
  CT_MAKE(r0, ct_index_select(x_, 0, s));
  EXPECT_TRUE(geometry_is(r0, {1, 4}, {4, 1}, 0));
  EXPECT_EQ(values(r0), (std::vector<double>{4, 5, 6, 7}));
  CT_MAKE(none, index64({}));
  CT_MAKE(re, ct_index_select(x_, 0, none));  // (0, 4)
  EXPECT_TRUE(sizes_are(re, {0, 4}));
  EXPECT_TRUE(is_not_view(re));
}

TEST_F(Copies, IndexSelectErrors) {
  CT_MAKE(i3, index64({3}));
  CT_EXPECT_NULL(ct_index_select(x_, 0, i3), CT_ERR_INDEX, "index out of range in self");
  CT_MAKE(i4, index32({0, 4}));
  CT_EXPECT_NULL(ct_index_select(x_, 1, i4), CT_ERR_INDEX, "index out of range in self");
  CT_MAKE(im, index64({-4}));
  CT_EXPECT_NULL(ct_index_select(x_, 0, im), CT_ERR_INDEX, "index out of range in self");
  // torch: "index_select(): Expected dtype int32 or int64 for index"
  CT_MAKE(fi, ctt::zeros({1}, CT_FLOAT32));
  CT_EXPECT_NULL(ct_index_select(x_, 0, fi), CT_ERR_DTYPE, "Expected dtype int32 or int64 for index");
  CT_MAKE(i16, ctt::zeros({1}, CT_INT16));
  CT_EXPECT_NULL(ct_index_select(x_, 0, i16), CT_ERR_DTYPE, "int32 or int64");
  // torch: "index_select(): Index is supposed to be a vector"
  CT_MAKE(i2d, ctt::zeros({1, 1}, CT_INT64));
  CT_EXPECT_NULL_IN(ct_index_select(x_, 0, i2d), "Index is supposed to be a vector", CT_ERR_SHAPE, CT_ERR_INDEX,
                    CT_ERR_INVALID_ARGUMENT);
  CT_MAKE(i0, index64({0}));
  CT_EXPECT_NULL(ct_index_select(x_, 2, i0), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_index_select(x_, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_index_select(nullptr, 0, i0), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- to ------------------------------------------------------------------------------------

TEST_F(Copies, ToSameDtypeIsTheSameHandle) {
  const int64_t rc = ct_tensor_refcount(x_);
  ct_tensor* same = ct_to(x_, CT_FLOAT32);  // torch: x.to(torch.float32) is x
  EXPECT_EQ(same, x_.get());
  EXPECT_EQ(ct_tensor_refcount(x_), rc + 1);
  ct_tensor_release(same);
  ct_tensor* same_t = ct_to(t_, CT_FLOAT32);
  EXPECT_EQ(same_t, t_.get());
  ct_tensor_release(same_t);
}

TEST_F(Copies, ToConverts) {
  CT_MAKE(f, make_from(std::vector<float>{-2.7f, -0.5f, 0.0f, 0.5f, 2.7f}, {5}, CT_FLOAT32));
  // torch.tensor([-2.7, -0.5, 0., 0.5, 2.7]).to(torch.int32) -> [-2, 0, 0, 0, 2]
  CT_MAKE(i, ct_to(f, CT_INT32));
  EXPECT_EQ(ct_tensor_dtype(i), CT_INT32);
  EXPECT_TRUE(is_fresh_copy_of(i, f));
  EXPECT_EQ(values(i), (std::vector<double>{-2, 0, 0, 0, 2}));
  CT_MAKE(l, ct_to(f, CT_INT64));
  EXPECT_EQ(values(l), (std::vector<double>{-2, 0, 0, 0, 2}));
  CT_MAKE(b, ct_to(f, CT_BOOL));  // -> [True, True, False, True, True]
  EXPECT_EQ(values(b), (std::vector<double>{1, 1, 0, 1, 1}));
  CT_MAKE(d, ct_to(f, CT_FLOAT64));
  EXPECT_EQ(values(d)[0], double(-2.7f));
  CT_MAKE(bb, make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL));
  CT_MAKE(bf, ct_to(bb, CT_FLOAT32));  // tensor([True, False]).float() -> [1., 0.]
  EXPECT_EQ(values(bf), (std::vector<double>{1, 0}));
  CT_MAKE(il, make_from(std::vector<int64_t>{3, 0, -1}, {3}, CT_INT64));
  CT_MAKE(ib, ct_to(il, CT_BOOL));  // -> [True, False, True]
  EXPECT_EQ(values(ib), (std::vector<double>{1, 0, 1}));
  // torch.tensor([0.1], dtype=torch.float64).half() -> 0x2e66; -7.9 .bfloat16() -> 0xc0fd
  CT_MAKE(dd, make_from(std::vector<double>{0.1, -7.9}, {2}, CT_FLOAT64));
  CT_MAKE(h, ct_to(dd, CT_FLOAT16));
  CT_MAKE(bh, ct_to(dd, CT_BFLOAT16));
  uint16_t hb[2], bhb[2];
  std::memcpy(hb, ct_tensor_data(h), 4);
  std::memcpy(bhb, ct_tensor_data(bh), 4);
  EXPECT_EQ(hb[0], 0x2e66);
  EXPECT_EQ(bhb[1], 0xc0fd);
  // Laid out as ct_clone: x.t().to(torch.float64).stride() == (1, 4)
  CT_MAKE(tt, ct_to(t_, CT_INT16));
  EXPECT_TRUE(geometry_is(tt, {4, 3}, {1, 4}, 0));
  EXPECT_EQ(values(tt), kTransposed);
  EXPECT_EQ(ct_shares_storage(tt, x_), 0);
  EXPECT_TRUE(is_not_view(tt));
}

TEST_F(Copies, ToWrapsAndSaturatesAsTorch) {
  // torch.tensor([-2.7, -0.5, 0., 0.5, 2.7]).to(torch.uint8) -> [254, 0, 0, 0, 2]
  CT_MAKE(f, make_from(std::vector<float>{-2.7f, -0.5f, 0.0f, 0.5f, 2.7f}, {5}, CT_FLOAT32));
  CT_MAKE(u, ct_to(f, CT_UINT8));
  EXPECT_EQ(values(u), (std::vector<double>{254, 0, 0, 0, 2}));
  // torch.tensor([300., -129.]).to(torch.int8) -> [44, 127]
  CT_MAKE(g, make_from(std::vector<float>{300.0f, -129.0f}, {2}, CT_FLOAT32));
  CT_MAKE(i8, ct_to(g, CT_INT8));
  EXPECT_EQ(values(i8), (std::vector<double>{44, 127}));
  // torch.tensor([nan, 1e20, -1e20, 3e9]).to(torch.int64) -> [INT64_MIN, INT64_MIN, INT64_MIN, 3000000000]
  CT_MAKE(h, make_from(std::vector<float>{NAN, 1e20f, -1e20f, 3e9f}, {4}, CT_FLOAT32));
  CT_MAKE(i64, ct_to(h, CT_INT64));
  const int64_t* p = static_cast<const int64_t*>(ct_tensor_data(i64));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(p[1], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(p[2], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(p[3], int64_t(3000000000));
}

TEST_F(Copies, ToInt32OfNanAndOutOfRangeIsInt32MinAsTorch) {
  // torch.tensor([nan, 1e20, 3e9, 300.]).to(torch.int32) -> [-2147483648, -2147483648, -2147483648, 300]
  // (x86 converts straight to 32 bits).  The header's wording ("INT64_MIN before narrowing")
  // would give [0, 0, -1294967296, 300] instead: this test keeps torch's answer.
  CT_MAKE(h, make_from(std::vector<double>{NAN, 1e20, 3e9, 300.0}, {4}, CT_FLOAT64));
  CT_MAKE(i32, ct_to(h, CT_INT32));
  EXPECT_EQ(values(i32), (std::vector<double>{-2147483648.0, -2147483648.0, -2147483648.0, 300}));
}

TEST_F(Copies, ToErrors) {
  CT_EXPECT_NULL(ct_to(x_, static_cast<ct_dtype>(42)), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_to(nullptr, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- copy_ ---------------------------------------------------------------------------------

TEST_F(Copies, CopyBroadcastsAndBumpsTheVersion) {
  CT_MAKE(d, ctt::zeros({2, 3}));
  CT_MAKE(row, make_from(std::vector<float>{1, 2, 3}, {3}, CT_FLOAT32));
  const uint64_t id = ct_tensor_storage_id(d);
  void* data = ct_tensor_data(d);
  CT_ASSERT_OK(ct_copy_(d, row));
  EXPECT_EQ(values(d), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(ct_tensor_version(d), 1);
  EXPECT_EQ(ct_tensor_version(row), 0);
  EXPECT_EQ(ct_tensor_storage_id(d), id) << "copy_ writes in place";
  EXPECT_EQ(ct_tensor_data(d), data);
  CT_MAKE(seven, ct_full(0, nullptr, 7.0, CT_FLOAT32));
  CT_ASSERT_OK(ct_copy_(d, seven));
  EXPECT_EQ(values(d), std::vector<double>(6, 7.0));
  EXPECT_EQ(ct_tensor_version(d), 2);
  CT_MAKE(colv, make_from(std::vector<float>{5, 6}, {2, 1}, CT_FLOAT32));
  CT_ASSERT_OK(ct_copy_(d, colv));
  EXPECT_EQ(values(d), (std::vector<double>{5, 5, 5, 6, 6, 6}));
}

TEST_F(Copies, CopyConvertsDtype) {
  CT_MAKE(d, ctt::zeros({2, 3}, CT_INT32));
  CT_MAKE(src, make_from(std::vector<double>{1.9, -1.9}, {2, 1}, CT_FLOAT64));
  CT_ASSERT_OK(ct_copy_(d, src));  // torch: [[1, 1, 1], [-1, -1, -1]]
  EXPECT_EQ(values(d), (std::vector<double>{1, 1, 1, -1, -1, -1}));
  CT_MAKE(h, ctt::zeros({3}, CT_FLOAT16));
  CT_MAKE(i, make_from(std::vector<int64_t>{1, -2, 2048}, {3}, CT_INT64));
  CT_ASSERT_OK(ct_copy_(h, i));
  EXPECT_EQ(values(h), (std::vector<double>{1, -2, 2048}));
  CT_MAKE(b, ctt::zeros({3}, CT_BOOL));
  CT_ASSERT_OK(ct_copy_(b, i));
  EXPECT_EQ(values(b), (std::vector<double>{1, 1, 1}));
}

TEST_F(Copies, CopyIntoNonContiguousDestination) {
  CT_MAKE(d, ctt::zeros({2, 3}));
  CT_MAKE(dt, ct_transpose(d, 0, 1));
  CT_MAKE(src, make_iota_f32({3, 2}));
  CT_ASSERT_OK(ct_copy_(dt, src));  // torch: d.t().copy_(arange(6.).view(3, 2)) -> [[0,2,4],[1,3,5]]
  EXPECT_EQ(values(d), (std::vector<double>{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(ct_tensor_version(d), 1);
  // A size-1 dim with stride 0 is not internal overlap: copy_ accepts it.
  CT_MAKE(z, ctt::zeros({3}));
  CT_MAKE(s0, ctt::as_strided(z, {1, 3}, {0, 1}, 0));
  CT_MAKE(ones, ctt::ones({1, 3}));
  CT_ASSERT_OK(ct_copy_(s0, ones));
  EXPECT_EQ(values(z), std::vector<double>(3, 1.0));
}

TEST_F(Copies, CopyBetweenOverlappingTensorsIsCorrect) {
  // The header promises a correct result when src and dst overlap (numpy semantics).  Note:
  // PyTorch 1.13 refuses these ("unsupported operation: some elements of the input tensor and
  // the written-to tensor refer to a single memory location").
  CT_MAKE(a, make_iota_f32({10}));
  CT_MAKE(dst, ct_slice(a, 0, 1, kEnd, 1));
  CT_MAKE(src, ct_slice(a, 0, 0, 9, 1));
  CT_ASSERT_OK(ct_copy_(dst, src));  // a[1:] = a[:-1]
  EXPECT_EQ(values(a), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
  CT_MAKE(b, make_iota_f32({10}));
  CT_MAKE(dst2, ct_slice(b, 0, 0, 9, 1));
  CT_MAKE(src2, ct_slice(b, 0, 1, kEnd, 1));
  CT_ASSERT_OK(ct_copy_(dst2, src2));  // b[:-1] = b[1:]
  EXPECT_EQ(values(b), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 9}));
  CT_MAKE(z, make_iota_f32({3, 3}));
  CT_MAKE(zt, ct_transpose(z, 0, 1));
  CT_ASSERT_OK(ct_copy_(z, zt));  // z[...] = z.T
  EXPECT_EQ(values(z), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  CT_ASSERT_OK(ct_copy_(z, z));  // self copy: unchanged
  EXPECT_EQ(values(z), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
}

TEST_F(Copies, CopyErrors) {
  // torch: torch.arange(3.).expand(2, 3).copy_(torch.zeros(3))
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));
  CT_MAKE(z, ctt::zeros({3}));
  CT_EXPECT_FAIL(ct_copy_(e, z), CT_ERR_OVERLAP, CT_ERR_OVERLAP,
                 "unsupported operation: more than one element of the written-to tensor refers to a single "
                 "memory location. Please clone() the tensor before performing the operation.");
  EXPECT_EQ(ct_tensor_version(b), 0) << "a refused write does not bump the version";
  EXPECT_EQ(values(b), (std::vector<double>{0, 1, 2}));
  // an unfold window (overlapping, but no stride 0) is written as torch writes it, in
  // TensorIterator's order: torch.arange(8.).unfold(0, 3, 1).copy_(torch.arange(18.).reshape(6, 3))
  // leaves [0, 3, 6, 9, 12, 15, 16, 17] (each location keeps the last element written to it)
  CT_MAKE(u, make_iota_f32({8}));
  CT_MAKE(win, ct_unfold(u, 0, 3, 1));
  CT_MAKE(flat, make_iota_f32({18}));
  const int64_t six_by_three[2] = {6, 3};
  CT_MAKE(src, ct_reshape(flat, 2, six_by_three));
  CT_ASSERT_OK(ct_copy_(win, src));
  EXPECT_EQ(values(u), (std::vector<double>{0, 3, 6, 9, 12, 15, 16, 17}));
  // torch: zeros(3,4).copy_(ones(4,4)) -> "The size of tensor a (3) must match the size of
  // tensor b (4) at non-singleton dimension 0"
  CT_MAKE(o44, ctt::ones({4, 4}));
  CT_EXPECT_FAIL(ct_copy_(x_, o44), CT_ERR_SHAPE, CT_ERR_SHAPE, "");
  CT_MAKE(o3, ctt::ones({3}));
  CT_EXPECT_FAIL(ct_copy_(x_, o3), CT_ERR_SHAPE, CT_ERR_SHAPE, "");
  // torch: zeros(3).copy_(ones(1, 3)) -> "output with shape [3] doesn't match the broadcast shape [1, 3]"
  CT_MAKE(o13, ctt::ones({1, 3}));
  CT_EXPECT_FAIL(ct_copy_(z, o13), CT_ERR_SHAPE, CT_ERR_SHAPE, "");
  EXPECT_EQ(ct_tensor_version(x_), 0);
  EXPECT_EQ(ct_tensor_version(z), 0);
  CT_EXPECT_FAIL(ct_copy_(nullptr, z), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_copy_(z, nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(Copies, CopyOfEmpty) {
  CT_MAKE(a, ctt::zeros({0}));
  CT_MAKE(b, ctt::ones({0}));
  CT_ASSERT_OK(ct_copy_(a, b));
  CT_MAKE(c, ctt::zeros({2, 0}));
  CT_MAKE(d, ctt::ones({3}));
  CT_EXPECT_FAIL(ct_copy_(c, d), CT_ERR_SHAPE, CT_ERR_SHAPE, "");
}

// ---- introspection ---------------------------------------------------------------------------

TEST_F(Introspection, NullHandleSentinels) {
  CT_EXPECT_FAIL(ct_tensor_ndim(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_size(nullptr, 0), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_stride(nullptr, 0), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_sizes(nullptr), static_cast<const int64_t*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_strides(nullptr), static_cast<const int64_t*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_offset(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_numel(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(int(ct_tensor_dtype(nullptr)), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_is_contiguous(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_data(nullptr), static_cast<void*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_is_view(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_base(nullptr), static_cast<ct_tensor*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_version(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_refcount(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_storage(nullptr), static_cast<ct_storage*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_tensor_storage_id(nullptr), uint64_t(0), CT_ERR_INVALID_ARGUMENT, "");
  char buf[8];
  CT_EXPECT_FAIL(ct_tensor_to_string(nullptr, buf, 8), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_id(nullptr), uint64_t(0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_data(nullptr), static_cast<void*>(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_nbytes(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_refcount(nullptr), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_storage_is_read_only(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_shares_storage(nullptr, x_), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_shares_storage(x_, nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_may_overlap(nullptr, x_), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_overlaps(x_, nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_has_internal_overlap(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "");
  EXPECT_EQ(ct_storage_retain(nullptr), nullptr);
  ct_storage_release(nullptr);  // no-op
}

TEST_F(Introspection, DimOutOfRangeQueries) {
  EXPECT_EQ(ct_tensor_size(x_, -1), 4);
  EXPECT_EQ(ct_tensor_size(x_, -2), 3);
  EXPECT_EQ(ct_tensor_stride(t_, -1), 4);
  CT_EXPECT_FAIL(ct_tensor_size(x_, 2), int64_t(-1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_FAIL(ct_tensor_stride(x_, -3), int64_t(-1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}

TEST_F(Introspection, BaseOfANonViewIsNullWithoutError) {
  ct_clear_error();
  EXPECT_EQ(ct_tensor_base(x_), nullptr);
  EXPECT_EQ(ct_last_status(), CT_OK);
  EXPECT_STREQ(ct_last_error(), "");
  EXPECT_EQ(ct_tensor_is_view(x_), 0);
  EXPECT_EQ(ct_tensor_is_view(t_), 1);
}

TEST_F(Introspection, RetainAndRelease) {
  const int64_t live = ct_live_tensors();
  ct_tensor* again = ct_tensor_retain(x_);
  EXPECT_EQ(again, x_.get());
  EXPECT_EQ(ct_tensor_refcount(x_), 3);  // ours, this one, t_'s base
  EXPECT_EQ(ct_live_tensors(), live) << "retain makes no new tensor";
  ct_tensor_release(again);
  EXPECT_EQ(ct_tensor_refcount(x_), 2);
  EXPECT_EQ(ct_tensor_refcount(t_), 1);
}

// ---- memory relations ------------------------------------------------------------------------

TEST_F(Relations, SameTensorAndViews) {
  EXPECT_EQ(ct_shares_storage(x_, x_), 1);
  EXPECT_EQ(ct_may_overlap(x_, x_), 1);
  EXPECT_EQ(ct_overlaps(x_, x_), 1);
  EXPECT_EQ(ct_overlaps(x_, t_), 1);
  // numpy: a[:, ::2] and a[:, 1::2]: may_share_memory True, shares_memory False
  CT_MAKE(ev, ct_slice(x_, 1, 0, kEnd, 2));
  CT_MAKE(od, ct_slice(x_, 1, 1, kEnd, 2));
  EXPECT_EQ(ct_shares_storage(ev, od), 1);
  EXPECT_EQ(ct_may_overlap(ev, od), 1);
  EXPECT_EQ(ct_overlaps(ev, od), 0);
  // a[0] and a[2]: disjoint byte ranges
  CT_MAKE(r0, ct_select(x_, 0, 0));
  CT_MAKE(r2, ct_select(x_, 0, 2));
  EXPECT_EQ(ct_shares_storage(r0, r2), 1);
  EXPECT_EQ(ct_may_overlap(r0, r2), 0);
  EXPECT_EQ(ct_overlaps(r0, r2), 0);
  CT_MAKE(c1, ct_select(x_, 1, 1));
  EXPECT_EQ(ct_overlaps(r2, c1), 1);  // element [2][1]
  CT_MAKE(cl, ct_clone(x_));
  EXPECT_EQ(ct_shares_storage(cl, x_), 0);
  EXPECT_EQ(ct_may_overlap(cl, x_), 0);
  EXPECT_EQ(ct_overlaps(cl, x_), 0);
  CT_MAKE(empty, ct_narrow(x_, 0, 1, 0));  // no elements: overlaps nothing
  EXPECT_EQ(ct_shares_storage(empty, x_), 1);
  EXPECT_EQ(ct_may_overlap(empty, x_), 0);
  EXPECT_EQ(ct_overlaps(empty, x_), 0);
}

TEST_F(Relations, ForeignMemoryAcrossStorages) {
  alignas(8) unsigned char buf[32] = {};
  const int64_t n4[] = {4};
  CT_MAKE(a, ct_from_blob(buf, 1, n4, nullptr, CT_INT32, nullptr, nullptr));
  CT_MAKE(b, ct_from_blob(buf, 1, n4, nullptr, CT_INT32, nullptr, nullptr));
  EXPECT_EQ(ct_shares_storage(a, b), 0) << "two wraps are two storages";
  EXPECT_EQ(ct_may_overlap(a, b), 1);
  EXPECT_EQ(ct_overlaps(a, b), 1);
  CT_MAKE(c, ct_from_blob(buf + 16, 1, n4, nullptr, CT_INT32, nullptr, nullptr));
  EXPECT_EQ(ct_may_overlap(a, c), 0);
  EXPECT_EQ(ct_overlaps(a, c), 0);
  // Byte granularity: bytes 1, 5, 9, 13 lie inside a's int32 elements.
  const int64_t st4[] = {4};
  CT_MAKE(u, ct_from_blob(buf + 1, 1, n4, st4, CT_UINT8, nullptr, nullptr));
  EXPECT_EQ(ct_may_overlap(a, u), 1);
  EXPECT_EQ(ct_overlaps(a, u), 1);
  // Every other int32 of buf vs the int32s in between: interleaved, disjoint.
  const int64_t n2[] = {2}, st2[] = {2};
  CT_MAKE(even, ct_from_blob(buf, 1, n2, st2, CT_INT32, nullptr, nullptr));
  CT_MAKE(odd, ct_from_blob(buf + 4, 1, n2, st2, CT_INT32, nullptr, nullptr));
  EXPECT_EQ(ct_may_overlap(even, odd), 1);
  EXPECT_EQ(ct_overlaps(even, odd), 0);
}

TEST_F(Relations, InternalOverlap) {
  EXPECT_EQ(ct_has_internal_overlap(x_), 0);
  EXPECT_EQ(ct_has_internal_overlap(t_), 0);
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));
  EXPECT_EQ(ct_has_internal_overlap(e), 1);
  CT_MAKE(diag, ctt::as_strided(x_, {2, 2}, {1, 1}, 0));  // [0][1] and [1][0] are one element
  EXPECT_EQ(ct_has_internal_overlap(diag), 1);
  CT_MAKE(one, ctt::as_strided(x_, {1, 3}, {0, 1}, 0));  // stride 0 on a size-1 dim: no overlap
  EXPECT_EQ(ct_has_internal_overlap(one), 0);
  CT_MAKE(gap, ctt::as_strided(x_, {2, 2}, {1, 2}, 0));  // 0,2,1,3: distinct
  EXPECT_EQ(ct_has_internal_overlap(gap), 0);
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  EXPECT_EQ(ct_has_internal_overlap(s), 0);
}

// ---- printing --------------------------------------------------------------------------------

TEST_F(Printing, BasicRepr) {
  // repr(torch.arange(4.).view(2, 2)) etc., with "ctensor." for "torch."
  CT_MAKE(m, make_iota_f32({2, 2}));
  EXPECT_EQ(repr(m), "tensor([[0., 1.],\n        [2., 3.]])");
  CT_MAKE(v, make_from(std::vector<float>{1, 2}, {2}, CT_FLOAT32));
  EXPECT_EQ(repr(v), "tensor([1., 2.])");
  CT_MAKE(i, ct_arange(0, 3, 1, CT_INT64));
  EXPECT_EQ(repr(i), "tensor([0, 1, 2])");
  CT_MAKE(i32, ct_arange(0, 3, 1, CT_INT32));
  EXPECT_EQ(repr(i32), "tensor([0, 1, 2], dtype=ctensor.int32)");
  CT_MAKE(u8, ct_arange(0, 3, 1, CT_UINT8));
  EXPECT_EQ(repr(u8), "tensor([0, 1, 2], dtype=ctensor.uint8)");
  CT_MAKE(f64, ct_arange(0, 3, 1, CT_FLOAT64));
  EXPECT_EQ(repr(f64), "tensor([0., 1., 2.], dtype=ctensor.float64)");
  CT_MAKE(b, make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL));
  EXPECT_EQ(repr(b), "tensor([ True, False])");
  CT_MAKE(s, ct_full(0, nullptr, 3.0, CT_FLOAT32));
  EXPECT_EQ(repr(s), "tensor(3.)");
  CT_MAKE(si, ct_full(0, nullptr, 3.0, CT_INT64));
  EXPECT_EQ(repr(si), "tensor(3)");
  CT_MAKE(frac, make_from(std::vector<float>{0.5f, -1.25f}, {2}, CT_FLOAT32));
  EXPECT_EQ(repr(frac), "tensor([ 0.5000, -1.2500])");
}

TEST_F(Printing, EmptyAndNonContiguous) {
  CT_MAKE(e, ctt::zeros({0}));
  EXPECT_EQ(repr(e), "tensor([])");
  CT_MAKE(e2, ctt::zeros({0, 3}));
  EXPECT_EQ(repr(e2), "tensor([], size=(0, 3))");
  CT_MAKE(ei, ctt::zeros({0}, CT_INT64));
  EXPECT_EQ(repr(ei), "tensor([], dtype=ctensor.int64)");
  // repr(torch.arange(6).view(2, 3).t())
  CT_MAKE(a, ct_arange(0, 6, 1, CT_INT64));
  CT_MAKE(a23, ctt::view(a, {2, 3}));
  CT_MAKE(at, ct_transpose(a23, 0, 1));
  EXPECT_EQ(repr(at), "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])");
}

TEST_F(Printing, SnprintfRules) {
  CT_MAKE(m, make_iota_f32({2, 2}));
  const std::string full = "tensor([[0., 1.],\n        [2., 3.]])";
  EXPECT_EQ(ct_tensor_to_string(m, nullptr, 0), int64_t(full.size()));
  char buf[64];
  std::memset(buf, 'X', sizeof buf);
  EXPECT_EQ(ct_tensor_to_string(m, buf, 5), int64_t(full.size()));
  EXPECT_STREQ(buf, "tens");  // cap - 1 characters and a NUL
  EXPECT_EQ(buf[5], 'X') << "nothing written past cap";
  std::memset(buf, 'X', sizeof buf);
  EXPECT_EQ(ct_tensor_to_string(m, buf, 1), int64_t(full.size()));
  EXPECT_EQ(buf[0], '\0');
  EXPECT_EQ(buf[1], 'X');
  std::memset(buf, 'X', sizeof buf);
  EXPECT_EQ(ct_tensor_to_string(m, buf, int64_t(full.size())), int64_t(full.size()));
  EXPECT_EQ(std::string(buf), full.substr(0, full.size() - 1));
  EXPECT_EQ(ct_tensor_to_string(m, buf, int64_t(full.size() + 1)), int64_t(full.size()));
  EXPECT_EQ(std::string(buf), full);
  EXPECT_EQ(ct_tensor_to_string(m, buf, sizeof buf), int64_t(full.size()));
  EXPECT_EQ(std::string(buf), full);
  CT_EXPECT_FAIL(ct_tensor_to_string(m, nullptr, 10), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- storages --------------------------------------------------------------------------------

TEST_F(Storages, QueriesAndRefcounts) {
  const int64_t storages = ct_live_storages();
  ct_tensor* x = make_iota_f32({3, 4});
  ASSERT_NE(x, nullptr) << last_error_str();
  EXPECT_EQ(ct_live_storages(), storages + 1);
  ct_storage* s = ct_tensor_storage(x);
  ASSERT_NE(s, nullptr) << last_error_str();
  EXPECT_EQ(ct_storage_id(s), ct_tensor_storage_id(x));
  EXPECT_EQ(ct_storage_nbytes(s), 48);
  EXPECT_EQ(ct_storage_data(s), ct_tensor_data(x));
  EXPECT_EQ(ct_storage_is_read_only(s), 0);
  EXPECT_EQ(ct_storage_refcount(s), 2);  // x and this handle
  ct_storage* s2 = ct_storage_retain(s);
  EXPECT_EQ(s2, s);
  EXPECT_EQ(ct_storage_refcount(s), 3);
  ct_storage* s3 = ct_tensor_storage(x);  // the same storage object
  EXPECT_EQ(ct_storage_id(s3), ct_storage_id(s));
  EXPECT_EQ(ct_storage_refcount(s), 4);
  ct_storage_release(s3);
  ct_storage_release(s2);
  ct_tensor* v = ct_select(x, 0, 1);  // a view: one more tensor on the storage
  ASSERT_NE(v, nullptr) << last_error_str();
  EXPECT_EQ(ct_storage_refcount(s), 3);
  ct_tensor* c = ct_clone(v);  // a copy: a different storage
  ASSERT_NE(c, nullptr) << last_error_str();
  EXPECT_EQ(ct_storage_refcount(s), 3);
  EXPECT_EQ(ct_live_storages(), storages + 2);
  StorageRef cs(ct_tensor_storage(c));
  EXPECT_NE(ct_storage_id(cs), ct_storage_id(s));
  EXPECT_EQ(ct_storage_nbytes(cs), 16);
  ct_tensor_release(c);
  cs.reset();
  EXPECT_EQ(ct_live_storages(), storages + 1);
  ct_tensor_release(v);
  ct_tensor_release(x);
  // The storage handle alone keeps the bytes alive.
  EXPECT_EQ(ct_live_storages(), storages + 1);
  EXPECT_EQ(ct_storage_refcount(s), 1);
  EXPECT_EQ(ct_storage_nbytes(s), 48);
  float f;
  std::memcpy(&f, static_cast<char*>(ct_storage_data(s)) + 4 * 5, 4);
  EXPECT_EQ(f, 5.0f);
  ct_storage_release(s);
  EXPECT_EQ(ct_live_storages(), storages);
}

TEST_F(Storages, EmptyStorage) {
  CT_MAKE(e, ctt::zeros({0, 5}, CT_FLOAT64));
  StorageRef s(ct_tensor_storage(e));
  ASSERT_NE(s.get(), nullptr);
  EXPECT_EQ(ct_storage_nbytes(s), 0);
  EXPECT_EQ(ct_storage_data(s), nullptr);
  EXPECT_NE(ct_storage_id(s), 0u);
}

TEST_F(Storages, LiveCountersTrackTensorsAndStorages) {
  const int64_t t0 = ct_live_tensors(), s0 = ct_live_storages();
  {
    CT_MAKE(a, ctt::zeros({4}));
    CT_MAKE(v, ct_unsqueeze(a, 0));
    CT_MAKE(al, ct_alias(a));
    CT_MAKE(c, ct_clone(a));
    EXPECT_EQ(ct_live_tensors(), t0 + 4);
    EXPECT_EQ(ct_live_storages(), s0 + 2);
  }
  EXPECT_EQ(ct_live_tensors(), t0);
  EXPECT_EQ(ct_live_storages(), s0);
}
