// View operations: geometry (sizes, strides, storage offset), identity (is_view, base, storage),
// sharing, versions, contiguity, and every error path.  Every expected geometry was printed by
// PyTorch 1.13, e.g.
//   /usr/bin/python3 -c "import torch; x=torch.arange(12.).view(3,4).clone(); v=x.diagonal(-1);
//                        print(v.shape, v.stride(), v.storage_offset(), v._base is x)"
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

// v is a view of root with this geometry, its data pointer is root's storage start plus
// offset elements, and its contiguity flag is `contiguous`.
::testing::AssertionResult view_ok(const ct_tensor* v, const ct_tensor* root, const std::vector<int64_t>& sizes,
                                   const std::vector<int64_t>& strides, int64_t offset, int contiguous) {
  if (v == nullptr) return ::testing::AssertionFailure() << "NULL view: " << last_error_str();
  auto r = geometry_is(v, sizes, strides, offset);
  if (!r) return r;
  r = is_view_of(v, root);
  if (!r) return r;
  if (ct_tensor_is_contiguous(v) != contiguous)
    return ::testing::AssertionFailure() << "is_contiguous " << ct_tensor_is_contiguous(v) << ", expected "
                                         << contiguous;
  if (ct_tensor_dtype(v) != ct_tensor_dtype(root)) return ::testing::AssertionFailure() << "dtype changed";
  if (ct_tensor_numel(v) > 0) {
    StorageRef s(ct_tensor_storage(root));
    const char* start = static_cast<const char*>(ct_storage_data(s));
    const int64_t item = ct_dtype_itemsize(ct_tensor_dtype(v));
    const char* want = start + offset * item;
    if (ct_tensor_data(v) != want)
      return ::testing::AssertionFailure() << "data pointer is storage + "
                                           << (static_cast<const char*>(ct_tensor_data(v)) - start)
                                           << " bytes, expected + " << offset * item;
  } else if (ct_tensor_data(v) != nullptr) {
    return ::testing::AssertionFailure() << "a view with no elements must have NULL data";
  }
  return ::testing::AssertionSuccess();
}

constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();

class Views : public CtTest {
 protected:
  void SetUp() override {
    CtTest::SetUp();
    x_.reset(make_iota_f32({3, 4}));  // tensor([[0,1,2,3],[4,5,6,7],[8,9,10,11]])
    y_.reset(make_iota_f32({2, 3, 4}));
    a_.reset(make_iota_f32({10}));
    ASSERT_NE(x_.get(), nullptr) << last_error_str();
    ASSERT_NE(y_.get(), nullptr) << last_error_str();
    ASSERT_NE(a_.get(), nullptr) << last_error_str();
  }
  void TearDown() override {
    x_.reset();
    y_.reset();
    a_.reset();
    CtTest::TearDown();
  }
  TensorRef x_, y_, a_;
};

}  // namespace

// ---- view ----------------------------------------------------------------------------------

TEST_F(Views, ViewShapes) {
  CT_MAKE(v1, ctt::view(x_, {-1, 6}));
  EXPECT_TRUE(view_ok(v1, x_, {2, 6}, {6, 1}, 0, 1));
  CT_MAKE(v2, ctt::view(x_, {12}));
  EXPECT_TRUE(view_ok(v2, x_, {12}, {1}, 0, 1));
  CT_MAKE(v3, ctt::view(x_, {2, -1, 3}));
  EXPECT_TRUE(view_ok(v3, x_, {2, 2, 3}, {6, 3, 1}, 0, 1));
  EXPECT_EQ(values(v3), iota(12));
  CT_MAKE(v4, ctt::view(x_, {3, 4}));  // same shape: still a new view, not the same handle
  EXPECT_NE(v4.get(), x_.get());
  EXPECT_TRUE(view_ok(v4, x_, {3, 4}, {4, 1}, 0, 1));
}

TEST_F(Views, ViewOfNonContiguousWhereStridesAllow) {
  CT_MAKE(t, ct_transpose(x_, 0, 1));  // (4, 3), strides (1, 4)
  // x.t().view(4, 3, 1).stride() == (1, 4, 4); x.t().view(2, 2, 3).stride() == (2, 1, 4)
  CT_MAKE(v1, ctt::view(t, {4, 3, 1}));
  EXPECT_TRUE(view_ok(v1, x_, {4, 3, 1}, {1, 4, 4}, 0, 0));
  CT_MAKE(v2, ctt::view(t, {2, 2, 3}));
  EXPECT_TRUE(view_ok(v2, x_, {2, 2, 3}, {2, 1, 4}, 0, 0));
  // b.expand(2, 3).view(2, 1, 3).stride() == (0, 3, 1)
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));
  CT_MAKE(v3, ctt::view(e, {2, 1, 3}));
  EXPECT_TRUE(view_ok(v3, b, {2, 1, 3}, {0, 3, 1}, 0, 0));
}

TEST_F(Views, ViewToAndFromZeroDim) {
  CT_MAKE(one, make_iota_f32({1}));
  CT_MAKE(s, ct_view(one, 0, nullptr));  // torch.tensor([3.]).view(()) -> shape ()
  EXPECT_EQ(ct_tensor_ndim(s), 0);
  EXPECT_EQ(ct_tensor_numel(s), 1);
  EXPECT_TRUE(is_view_of(s, one));
  CT_MAKE(back, ctt::view(s, {1, 1}));  // torch.tensor(5.).view(1, 1).stride() == (1, 1)
  EXPECT_TRUE(view_ok(back, one, {1, 1}, {1, 1}, 0, 1));
  CT_MAKE(flat, ctt::view(s, {-1}));
  EXPECT_TRUE(view_ok(flat, one, {1}, {1}, 0, 1));
}

TEST_F(Views, ViewOfEmpty) {
  CT_MAKE(e, ctt::zeros({0, 3}));
  CT_MAKE(v, ctt::view(e, {-1}));  // torch.empty(0, 3).view(-1).shape == (0,)
  EXPECT_TRUE(sizes_are(v, {0}));
  EXPECT_TRUE(is_view_of(v, e));
  // torch: "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified
  // dimension size -1 can be any value and is ambiguous"
  CT_EXPECT_NULL_IN(ctt::view(e, {-1, 0}), "", CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT);
}

TEST_F(Views, ViewErrors) {
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  // torch: x.t().view(12)
  CT_EXPECT_NULL(ctt::view(t, {12}), CT_ERR_NOT_VIEWABLE,
                 "view size is not compatible with input tensor's size and stride (at least one dimension "
                 "spans across two contiguous subspaces). Use .reshape(...) instead.");
  CT_EXPECT_NULL(ctt::view(t, {-1}), CT_ERR_NOT_VIEWABLE, "view size is not compatible with input tensor's size and stride");
  CT_EXPECT_NULL(ctt::view(t, {3, 4}), CT_ERR_NOT_VIEWABLE, "view size is not compatible");
  // torch: x.view(5) -> "shape '[5]' is invalid for input of size 12"
  CT_EXPECT_NULL(ctt::view(x_, {5}), CT_ERR_SHAPE, "shape '[5]' is invalid for input of size 12");
  CT_EXPECT_NULL(ctt::view(x_, {-1, 5}), CT_ERR_SHAPE, "shape '[-1, 5]' is invalid for input of size 12");
  CT_EXPECT_NULL(ctt::view(x_, {2, 2, 2}), CT_ERR_SHAPE, "shape '[2, 2, 2]' is invalid for input of size 12");
  // A wrong element count is a shape error even when the strides would forbid a view.
  CT_EXPECT_NULL(ctt::view(t, {5}), CT_ERR_SHAPE, "shape '[5]' is invalid for input of size 12");
  // torch: "only one dimension can be inferred", "invalid shape dimension -2"
  CT_EXPECT_NULL_IN(ctt::view(x_, {-1, -1}), "only one dimension can be inferred", CT_ERR_SHAPE,
                    CT_ERR_INVALID_ARGUMENT);
  CT_EXPECT_NULL_IN(ctt::view(x_, {-2, 6}), "invalid shape dimension -2 at index 0 of shape [-2, 6]", CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT);
  CT_EXPECT_NULL(ct_view(x_, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_view(x_, -1, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  std::vector<int64_t> many(CT_MAX_DIMS + 1, 1);
  many[0] = 12;
  CT_EXPECT_NULL(ct_view(x_, CT_MAX_DIMS + 1, many.data()), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- transpose / permute ------------------------------------------------------------------

TEST_F(Views, Transpose) {
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  EXPECT_TRUE(view_ok(t, x_, {4, 3}, {1, 4}, 0, 0));
  EXPECT_EQ(values(t), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  CT_MAKE(t2, ct_transpose(x_, -1, -2));
  EXPECT_TRUE(view_ok(t2, x_, {4, 3}, {1, 4}, 0, 0));
  // x.transpose(0, 0): a view (torch returns self.alias(), whose _base is x)
  CT_MAKE(same, ct_transpose(x_, 0, 0));
  EXPECT_NE(same.get(), x_.get());
  EXPECT_TRUE(view_ok(same, x_, {3, 4}, {4, 1}, 0, 1));
  // x.t().t(): base is the root, not the intermediate transpose
  CT_MAKE(tt, ct_transpose(t, 1, 0));
  EXPECT_TRUE(view_ok(tt, x_, {3, 4}, {4, 1}, 0, 1));
  // y.transpose(0, 2)
  CT_MAKE(y02, ct_transpose(y_, 0, 2));
  EXPECT_TRUE(view_ok(y02, y_, {4, 3, 2}, {1, 4, 12}, 0, 0));
}

TEST_F(Views, TransposeZeroDim) {
  CT_MAKE(s, ct_full(0, nullptr, 5.0, CT_FLOAT32));
  // torch.tensor(5.).transpose(0, -1).shape == (); its _base is the tensor
  CT_MAKE(t, ct_transpose(s, 0, -1));
  EXPECT_EQ(ct_tensor_ndim(t), 0);
  EXPECT_TRUE(is_view_of(t, s));
  CT_EXPECT_NULL(ct_transpose(s, 0, 1), CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST_F(Views, TransposeErrors) {
  // torch: x.transpose(0, 2)
  CT_EXPECT_NULL(ct_transpose(x_, 0, 2), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_transpose(x_, -3, 0), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  CT_EXPECT_NULL(ct_transpose(y_, 1, 3), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

// torch.t: 2-D transposes, 0-D and 1-D come back unchanged (still views), > 2-D fails.
TEST_F(Views, T) {
  CT_MAKE(t, ct_t(x_));
  EXPECT_TRUE(view_ok(t, x_, {4, 3}, {1, 4}, 0, 0));
  EXPECT_EQ(values(t), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // x.t().t(): base is the root, not the intermediate transpose
  CT_MAKE(tt, ct_t(t));
  EXPECT_TRUE(view_ok(tt, x_, {3, 4}, {4, 1}, 0, 1));
  // a write through the view is seen by x, with the one version counter
  const int64_t v0 = ct_tensor_version(x_);
  CT_ASSERT_OK(ct_fill_(t, 7.0));
  EXPECT_EQ(ct_tensor_version(x_), v0 + 1);
  EXPECT_EQ(ct_tensor_version(t), v0 + 1);
  EXPECT_EQ(values(x_), std::vector<double>(12, 7.0));
  // a narrowed (offset, non-contiguous) matrix: x[:, 1:3].t()
  CT_MAKE(n, ct_narrow(x_, 1, 1, 2));
  CT_MAKE(nt, ct_t(n));
  EXPECT_TRUE(view_ok(nt, x_, {2, 3}, {1, 4}, 1, 0));
}

TEST_F(Views, TOfZeroDimAndOneDim) {
  // torch.arange(10.).t(): same geometry, a view whose _base is the tensor
  CT_MAKE(t, ct_t(a_));
  EXPECT_NE(t.get(), a_.get());
  EXPECT_TRUE(view_ok(t, a_, {10}, {1}, 0, 1));
  CT_MAKE(s, ct_full(0, nullptr, 5.0, CT_FLOAT32));
  CT_MAKE(st, ct_t(s));
  EXPECT_NE(st.get(), s.get());
  EXPECT_EQ(ct_tensor_ndim(st), 0);
  EXPECT_TRUE(is_view_of(st, s));
  EXPECT_EQ(values(st), std::vector<double>{5.0});
}

TEST_F(Views, TErrors) {
  // torch: torch.ones(2, 3, 4).t()
  CT_EXPECT_NULL(ct_t(y_), CT_ERR_SHAPE, "t() expects a tensor with <= 2 dimensions, but self is 3D");
  CT_EXPECT_NULL(ct_t(nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(Views, TRecordsTBackward0) {
  CT_MAKE(w, ct_ones(2, std::vector<int64_t>{2, 3}.data(), CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(w, 1));
  CT_MAKE(t, ct_t(w));
  EXPECT_STREQ(ct_grad_fn_name(t), "TBackward0");
  CT_MAKE(tr, ct_transpose(w, 0, 1));
  EXPECT_STREQ(ct_grad_fn_name(tr), "TransposeBackward0");
}

TEST_F(Views, Permute) {
  // y.permute(2, 0, 1): (4, 2, 3), strides (1, 12, 4)
  CT_MAKE(p, ctt::permute(y_, {2, 0, 1}));
  EXPECT_TRUE(view_ok(p, y_, {4, 2, 3}, {1, 12, 4}, 0, 0));
  CT_MAKE(n, ctt::permute(y_, {-1, 0, -2}));
  EXPECT_TRUE(view_ok(n, y_, {4, 2, 3}, {1, 12, 4}, 0, 0));
  CT_MAKE(id, ctt::permute(y_, {0, 1, 2}));
  EXPECT_TRUE(view_ok(id, y_, {2, 3, 4}, {12, 4, 1}, 0, 1));
  CT_MAKE(pp, ctt::permute(p, {1, 2, 0}));  // back to y's layout; base is y
  EXPECT_TRUE(view_ok(pp, y_, {2, 3, 4}, {12, 4, 1}, 0, 1));
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  CT_MAKE(ps, ct_permute(s, 0, nullptr));  // torch.tensor(1.).permute(()) is a 0-dim view
  EXPECT_EQ(ct_tensor_ndim(ps), 0);
  EXPECT_TRUE(is_view_of(ps, s));
}

TEST_F(Views, PermuteErrors) {
  // torch: "number of dimensions in the tensor input does not match the length of the desired
  // ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3"
  CT_EXPECT_NULL(ctt::permute(x_, {0, 1, 2}), CT_ERR_SHAPE, "is not equal to len(dims) = 3");
  CT_EXPECT_NULL(ctt::permute(x_, {0}), CT_ERR_SHAPE, "is not equal to len(dims) = 1");
  // torch: "permute(): duplicate dims are not allowed."
  CT_EXPECT_NULL(ctt::permute(x_, {0, 0}), CT_ERR_INVALID_ARGUMENT, "permute(): duplicate dims are not allowed.");
  CT_EXPECT_NULL(ctt::permute(x_, {1, -1}), CT_ERR_INVALID_ARGUMENT, "permute(): duplicate dims are not allowed.");
  CT_EXPECT_NULL(ctt::permute(x_, {0, 2}), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_permute(x_, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- slice / narrow / select ---------------------------------------------------------------

TEST_F(Views, SliceFollowsPythonRules) {
  // a = torch.arange(10.); v = a[start:stop:step]; (v.shape, v.stride(), v.storage_offset())
  struct Case { int64_t start, stop, step, size, stride, offset; int contiguous; };
  const Case cases[] = {
      {0, kEnd, 2, 5, 2, 0, 0},     {1, kEnd, 3, 3, 3, 1, 0},   {-3, kEnd, 1, 3, 1, 7, 1},
      {2, -2, 1, 6, 1, 2, 1},       {-100, 100, 1, 10, 1, 0, 1}, {7, 3, 1, 0, 1, 7, 1},
      {20, kEnd, 1, 0, 1, 10, 1},   {-2, -5, 1, 0, 1, 8, 1},    {3, 8, 2, 3, 2, 3, 0},
      {0, -1, 4, 3, 4, 0, 0},       {12, 15, 1, 0, 1, 10, 1},   {-20, 2, 1, 2, 1, 0, 1},
      {std::numeric_limits<int64_t>::min(), kEnd, 1, 10, 1, 0, 1},
      {9, kEnd, 5, 1, 5, 9, 1},
  };
  for (const Case& c : cases) {
    TensorRef v(ct_slice(a_, 0, c.start, c.stop, c.step));
    EXPECT_TRUE(view_ok(v, a_, {c.size}, {c.stride}, c.offset, c.contiguous))
        << "a[" << c.start << ":" << c.stop << ":" << c.step << "]";
  }
  CT_MAKE(odd, ct_slice(a_, -1, 1, kEnd, 2));
  EXPECT_EQ(values(odd), (std::vector<double>{1, 3, 5, 7, 9}));
}

TEST_F(Views, Slice2D) {
  CT_MAKE(c, ct_slice(x_, 1, 1, 3, 1));  // x[:, 1:3]
  EXPECT_TRUE(view_ok(c, x_, {3, 2}, {4, 1}, 1, 0));
  EXPECT_EQ(values(c), (std::vector<double>{1, 2, 5, 6, 9, 10}));
  CT_MAKE(r, ct_slice(x_, 0, 1, kEnd, 1));  // x[1:]
  CT_MAKE(rs, ct_slice(r, 1, 0, kEnd, 2));  // x[1:, ::2]: base is x, offset accumulates
  EXPECT_TRUE(view_ok(rs, x_, {2, 2}, {4, 2}, 4, 0));
  EXPECT_EQ(values(rs), (std::vector<double>{4, 6, 8, 10}));
  CT_MAKE(row, ct_slice(x_, 0, 0, 1, 1));  // x[0:1, :]: contiguous
  EXPECT_TRUE(view_ok(row, x_, {1, 4}, {4, 1}, 0, 1));
  CT_MAKE(col, ct_slice(x_, -1, 0, 1, 1));  // x[:, 0:1]: sizes (3, 1) strides (4, 1), not contiguous
  EXPECT_TRUE(view_ok(col, x_, {3, 1}, {4, 1}, 0, 0));
}

TEST_F(Views, SliceErrors) {
  // The header restricts step to >= 1 (Python: "slice step cannot be zero").
  CT_EXPECT_NULL(ct_slice(a_, 0, 0, kEnd, 0), CT_ERR_INVALID_ARGUMENT, "step");
  CT_EXPECT_NULL(ct_slice(a_, 0, 0, kEnd, -1), CT_ERR_INVALID_ARGUMENT, "step");
  CT_EXPECT_NULL(ct_slice(x_, 2, 0, 1, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_slice(x_, -3, 0, 1, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}

TEST_F(Views, SlicesAreChainedSlicesInOneView) {
  // ct_slices(t, n, ...) == n ct_slice calls dim after dim: same geometry, contiguity, values;
  // the view's base is the root, whatever t is (y[a:b, c:d, e:f] of torch).
  struct Case { std::vector<int64_t> starts, stops, steps; };
  const Case cases[] = {
      {{1}, {2}, {1}},           {{0, 1}, {kEnd, 3}, {1, 1}},          {{-1, -2}, {kEnd, kEnd}, {1, 1}},
      {{0, 0, 1}, {2, 3, 3}, {1, 2, 1}}, {{1, 5, 0}, {0, 9, kEnd}, {1, 1, 3}}, {{0, 0, 0}, {kEnd, kEnd, kEnd}, {1, 1, 1}},
      {{-100, 1}, {100, 2}, {1, 1}}, {{0, 0, 0}, {2, 3, 4}, {2, 2, 2}},   {{1, 0, 2}, {1, 3, 4}, {1, 1, 1}},
  };
  CT_MAKE(tr, ct_transpose(y_, 0, 2));  // (4, 3, 2), not contiguous
  for (const ct_tensor* t : {static_cast<const ct_tensor*>(y_), static_cast<const ct_tensor*>(tr)}) {
    for (const Case& c : cases) {
      const int n = int(c.starts.size());
      CT_MAKE(fused, ct_slices(t, n, c.starts.data(), c.stops.data(), c.steps.data()));
      TensorRef chained(ct_tensor_retain(const_cast<ct_tensor*>(t)));
      for (int d = 0; d < n; ++d) chained.reset(ct_slice(chained, d, c.starts[size_t(d)], c.stops[size_t(d)], c.steps[size_t(d)]));
      ASSERT_NE(chained.get(), nullptr) << last_error_str();
      std::vector<int64_t> sizes(ct_tensor_sizes(chained), ct_tensor_sizes(chained) + ct_tensor_ndim(chained));
      std::vector<int64_t> strides(ct_tensor_strides(chained), ct_tensor_strides(chained) + ct_tensor_ndim(chained));
      EXPECT_TRUE(view_ok(fused, y_, sizes, strides, ct_tensor_offset(chained), ct_tensor_is_contiguous(chained)))
          << "case of " << n << " dims, first start " << c.starts[0];
      EXPECT_EQ(ct_tensor_numel(fused), ct_tensor_numel(chained));
      EXPECT_EQ(values(fused), values(chained));
    }
  }
  const int64_t one = 1, three = 3;
  CT_MAKE(v, ct_slices(x_, 1, &one, &three, &one));  // x[1:3]: shares x's version counter
  const int64_t v0 = ct_tensor_version(x_);
  CT_ASSERT_OK(ct_fill_(v, 5.0));
  EXPECT_EQ(ct_tensor_version(x_), v0 + 1);
  EXPECT_EQ(values(x_)[4], 5.0);
  CT_MAKE(al, ct_slices(x_, 0, nullptr, nullptr, nullptr));  // n == 0: ct_alias_view
  EXPECT_TRUE(view_ok(al, x_, {3, 4}, {4, 1}, 0, 1));
}

TEST_F(Views, SlicesErrorsAreThoseOfTheFirstFailingSlice) {
  const int64_t zero[3] = {0, 0, 0}, ends[3] = {kEnd, kEnd, kEnd}, ones[3] = {1, 1, 1}, bad[3] = {1, 0, 1};
  CT_EXPECT_NULL(ct_slices(x_, 3, zero, ends, ones), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_slices(y_, 3, zero, ends, bad), CT_ERR_INVALID_ARGUMENT, "slice step must be positive, got 0");
  const int64_t bad0[3] = {0, 1, 1};  // the step of dim 0 fails before the dim past the last
  CT_EXPECT_NULL(ct_slices(a_, 3, zero, ends, bad0), CT_ERR_INVALID_ARGUMENT, "slice step must be positive, got 0");
  CT_MAKE(s, ct_full(0, nullptr, 2.0, CT_FLOAT32));
  CT_EXPECT_NULL(ct_slices(s, 1, zero, ends, ones), CT_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
  CT_EXPECT_NULL(ct_slices(x_, -1, zero, ends, ones), CT_ERR_INVALID_ARGUMENT, "ct_slices");
  CT_EXPECT_NULL(ct_slices(x_, 1, zero, nullptr, ones), CT_ERR_INVALID_ARGUMENT, "stops is NULL");
  CT_EXPECT_NULL(ct_slices(nullptr, 1, zero, ends, ones), CT_ERR_INVALID_ARGUMENT, "ct_slices");
}

TEST_F(Views, SlicesRecordOneSliceBackward0PerDim) {
  CT_MAKE(w, ct_ones(2, std::vector<int64_t>{3, 4}.data(), CT_FLOAT32));
  CT_ASSERT_OK(ct_set_requires_grad(w, 1));
  const int64_t starts[2] = {1, 1}, stops[2] = {3, 3}, steps[2] = {1, 2};
  CT_MAKE(v, ct_slices(w, 2, starts, stops, steps));
  EXPECT_STREQ(ct_grad_fn_name(v), "SliceBackward0");
  EXPECT_TRUE(view_ok(v, w, {2, 1}, {4, 2}, 5, 0));
  CT_MAKE(total, ct_sum(v, 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(total, nullptr, 0));
  CT_MAKE(g, ct_grad(w));
  EXPECT_EQ(values(g), (std::vector<double>{0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}));
}

TEST_F(Views, Narrow) {
  CT_MAKE(n1, ct_narrow(x_, 1, -2, 2));  // x.narrow(1, -2, 2)
  EXPECT_TRUE(view_ok(n1, x_, {3, 2}, {4, 1}, 2, 0));
  EXPECT_EQ(values(n1), (std::vector<double>{2, 3, 6, 7, 10, 11}));
  CT_MAKE(n2, ct_narrow(x_, 0, 1, 2));
  EXPECT_TRUE(view_ok(n2, x_, {2, 4}, {4, 1}, 4, 1));
  CT_MAKE(n3, ct_narrow(x_, 0, 3, 0));  // x.narrow(0, 3, 0): empty, offset 12
  EXPECT_TRUE(view_ok(n3, x_, {0, 4}, {4, 1}, 12, 1));
  CT_MAKE(n4, ct_narrow(x_, -1, 4, 0));  // x.narrow(1, 4, 0)
  EXPECT_TRUE(view_ok(n4, x_, {3, 0}, {4, 1}, 4, 1));
  CT_MAKE(n5, ct_narrow(n2, 1, 1, 2));  // x.narrow(0,1,2).narrow(1,1,2): offset 5, base x
  EXPECT_TRUE(view_ok(n5, x_, {2, 2}, {4, 1}, 5, 0));
}

TEST_F(Views, NarrowErrors) {
  // torch: x.narrow(1, 3, 2) -> "start (3) + length (2) exceeds dimension size (4)."
  CT_EXPECT_NULL(ct_narrow(x_, 1, 3, 2), CT_ERR_SHAPE, "start (3) + length (2) exceeds dimension size (4).");
  // torch: x.narrow(1, 5, 0) -> IndexError (start out of range)
  CT_EXPECT_NULL(ct_narrow(x_, 1, 5, 0), CT_ERR_INDEX, "");
  CT_EXPECT_NULL(ct_narrow(x_, 1, -5, 1), CT_ERR_INDEX, "");
  CT_EXPECT_NULL(ct_narrow(x_, 1, 0, -1), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_narrow(x_, 2, 0, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST_F(Views, Select) {
  CT_MAKE(s1, ct_select(x_, 0, -1));  // x.select(0, -1): the last row, offset 8
  EXPECT_TRUE(view_ok(s1, x_, {4}, {1}, 8, 1));
  EXPECT_EQ(values(s1), (std::vector<double>{8, 9, 10, 11}));
  CT_MAKE(s2, ct_select(x_, 1, 2));
  EXPECT_TRUE(view_ok(s2, x_, {3}, {4}, 2, 0));
  EXPECT_EQ(values(s2), (std::vector<double>{2, 6, 10}));
  CT_MAKE(s3, ct_select(x_, -1, -4));
  EXPECT_TRUE(view_ok(s3, x_, {3}, {4}, 0, 0));
  CT_MAKE(r, ct_slice(x_, 0, 1, kEnd, 1));
  CT_MAKE(s4, ct_select(r, 1, 1));  // x[1:].select(1, 1): offset 5, base x
  EXPECT_TRUE(view_ok(s4, x_, {2}, {4}, 5, 0));
  CT_MAKE(s5, ct_select(s1, 0, 2));  // down to 0-dim
  EXPECT_EQ(ct_tensor_ndim(s5), 0);
  EXPECT_EQ(ct_tensor_offset(s5), 10);
  EXPECT_TRUE(is_view_of(s5, x_));
  EXPECT_EQ(values(s5), std::vector<double>{10});
}

TEST_F(Views, SelectErrors) {
  // torch: IndexError: select(): index 5 out of range for tensor of size [3, 4] at dimension 0
  CT_EXPECT_NULL(ct_select(x_, 0, 5), CT_ERR_INDEX, "select(): index 5 out of range for tensor of size [3, 4] at dimension 0");
  CT_EXPECT_NULL(ct_select(x_, 0, 3), CT_ERR_INDEX, "index 3 out of range");
  CT_EXPECT_NULL(ct_select(x_, 0, -4), CT_ERR_INDEX,
                 "select(): index -4 out of range for tensor of size [3, 4] at dimension 0");
  CT_EXPECT_NULL(ct_select(x_, 1, 4), CT_ERR_INDEX, "at dimension 1");
  CT_EXPECT_NULL(ct_select(x_, 2, 0), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  // torch: "select() cannot be applied to a 0-dim tensor."
  CT_EXPECT_NULL_IN(ct_select(s, 0, 0), "", CT_ERR_INDEX, CT_ERR_INVALID_ARGUMENT, CT_ERR_SHAPE);
}

// ---- multi-output views: unbind, split, split_with_sizes, chunk -----------------------------

namespace {
// The n outputs of a multi-output view call, each owned.  `call(out, cap)` is the C call.
template <class Call>
std::vector<TensorRef> outputs(Call&& call) {
  ct_clear_error();
  const int64_t n = call(nullptr, 0);  // asks how many
  std::vector<TensorRef> res;
  EXPECT_GE(n, 0) << last_error_str();
  if (n < 0) return res;
  std::vector<ct_tensor*> out(size_t(n) + 1, nullptr);
  EXPECT_EQ(call(out.data(), n), n) << last_error_str();
  for (int64_t i = 0; i < n; ++i) res.emplace_back(out[size_t(i)]);
  EXPECT_EQ(out[size_t(n)], nullptr);  // nothing written past n
  return res;
}
}  // namespace

TEST_F(Views, Unbind) {
  // torch: [(o.shape, o.stride(), o.storage_offset()) for o in x.unbind(1)]
  auto cols = outputs([&](ct_tensor** o, int64_t cap) { return ct_unbind(x_, 1, o, cap); });
  ASSERT_EQ(cols.size(), 4u);
  for (int64_t i = 0; i < 4; ++i) EXPECT_TRUE(view_ok(cols[size_t(i)], x_, {3}, {4}, i, 0)) << i;
  EXPECT_EQ(values(cols[2]), (std::vector<double>{2, 6, 10}));
  auto rows = outputs([&](ct_tensor** o, int64_t cap) { return ct_unbind(x_, -2, o, cap); });
  ASSERT_EQ(rows.size(), 3u);
  for (int64_t i = 0; i < 3; ++i) EXPECT_TRUE(view_ok(rows[size_t(i)], x_, {4}, {1}, 4 * i, 1)) << i;
  // Of a view: the base is the root.  torch: y[1].unbind(1) -> shapes (2,), strides (4,), offsets 12 + i
  CT_MAKE(y1, ct_select(y_, 0, 1));
  auto parts = outputs([&](ct_tensor** o, int64_t cap) { return ct_unbind(y1, 1, o, cap); });
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_TRUE(view_ok(parts[3], y_, {3}, {4}, 15, 0));
  // An empty dim gives no outputs.  torch: torch.ones(2, 0).unbind(1) == ()
  CT_MAKE(e, empty({2, 0}));
  EXPECT_EQ(ct_unbind(e, 1, nullptr, 0), 0);
  EXPECT_EQ(outputs([&](ct_tensor** o, int64_t cap) { return ct_unbind(e, 1, o, cap); }).size(), 0u);
}

TEST_F(Views, SplitAndChunk) {
  // torch: x.split(3, 1) -> (3, 3) at offset 0 and (3, 1) at offset 3, strides (4, 1)
  auto s = outputs([&](ct_tensor** o, int64_t cap) { return ct_split(x_, 3, 1, o, cap); });
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(view_ok(s[0], x_, {3, 3}, {4, 1}, 0, 0));
  EXPECT_TRUE(view_ok(s[1], x_, {3, 1}, {4, 1}, 3, 0));
  EXPECT_EQ(values(s[1]), (std::vector<double>{3, 7, 11}));
  // split_size past the end: one piece, all of x.  torch: x.split(10, 0)
  auto whole = outputs([&](ct_tensor** o, int64_t cap) { return ct_split(x_, 10, 0, o, cap); });
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_TRUE(view_ok(whole[0], x_, {3, 4}, {4, 1}, 0, 1));
  // 0 on an empty dim: one empty piece.  torch: torch.ones(2, 0).split(0, 1)
  CT_MAKE(e, empty({2, 0}));
  auto ez = outputs([&](ct_tensor** o, int64_t cap) { return ct_split(e, 0, 1, o, cap); });
  ASSERT_EQ(ez.size(), 1u);
  EXPECT_TRUE(sizes_are(ez[0], {2, 0}));
  // torch: y.split([1, 0, 3], -1): offsets 0, 1, 1
  const int64_t lens[] = {1, 0, 3};
  auto w = outputs([&](ct_tensor** o, int64_t cap) { return ct_split_with_sizes(y_, 3, lens, -1, o, cap); });
  ASSERT_EQ(w.size(), 3u);
  EXPECT_TRUE(view_ok(w[0], y_, {2, 3, 1}, {12, 4, 1}, 0, 0));
  EXPECT_TRUE(view_ok(w[1], y_, {2, 3, 0}, {12, 4, 1}, 1, 1));
  EXPECT_TRUE(view_ok(w[2], y_, {2, 3, 3}, {12, 4, 1}, 1, 0));
  // No sizes on an empty dim: no pieces.  torch: torch.ones(2, 0).split([], 1) == ()
  EXPECT_EQ(ct_split_with_sizes(e, 0, nullptr, 1, nullptr, 0), 0);
  // torch: a.chunk(3) of 10 elements: pieces of 4, 4, 2; a.chunk(6): 5 pieces of 2; a.chunk(20): 10 of 1
  auto c3 = outputs([&](ct_tensor** o, int64_t cap) { return ct_chunk(a_, 3, 0, o, cap); });
  ASSERT_EQ(c3.size(), 3u);
  EXPECT_TRUE(view_ok(c3[2], a_, {2}, {1}, 8, 1));
  EXPECT_EQ(ct_chunk(a_, 6, 0, nullptr, 0), 5);
  EXPECT_EQ(ct_chunk(a_, 20, 0, nullptr, 0), 10);
  // An empty dim gives `chunks` empty pieces.  torch: torch.ones(2, 0).chunk(3, 1)
  auto ec = outputs([&](ct_tensor** o, int64_t cap) { return ct_chunk(e, 3, 1, o, cap); });
  ASSERT_EQ(ec.size(), 3u);
  for (auto& p : ec) EXPECT_TRUE(sizes_are(p, {2, 0}));
}

TEST_F(Views, MultiOutputViewsShareStorageAndVersion) {
  auto rows = outputs([&](ct_tensor** o, int64_t cap) { return ct_unbind(x_, 0, o, cap); });
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(ct_shares_storage(rows[0], rows[2]), 1);
  EXPECT_EQ(ct_tensor_is_view(rows[1]), 1);
  const int64_t v0 = ct_tensor_version(x_);
  // Nothing requires grad: in-place writes are allowed, seen through x, and move the version.
  CT_ASSERT_OK(ct_fill_(rows[1], -1.0));
  EXPECT_EQ(values(x_)[5], -1.0);
  EXPECT_EQ(ct_tensor_version(rows[0]), v0 + 1);
  EXPECT_EQ(ct_tensor_version(x_), v0 + 1);
  // Releasing x leaves the outputs valid: they hold the storage.
  x_.reset();
  EXPECT_EQ(values(rows[2]), (std::vector<double>{8, 9, 10, 11}));
}

TEST_F(Views, MultiOutputViewErrors) {
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  ct_tensor* out[8] = {};
  // torch: torch.ones(()).unbind(0) -> IndexError "Dimension specified as 0 but tensor has no dimensions"
  CT_EXPECT_FAIL(ct_unbind(s, 0, out, 8), -1, CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
  CT_EXPECT_FAIL(ct_unbind(x_, 2, out, 8), -1, CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  // torch: x.split(-1, 1), x.split(0, 1), torch.ones(()).split(1)
  CT_EXPECT_FAIL(ct_split(x_, -1, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "split expects split_size be non-negative, but got split_size=-1");
  CT_EXPECT_FAIL(ct_split(x_, 0, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "split_size can only be 0 if dimension size is 0, but got dimension size of 4");
  CT_EXPECT_FAIL(ct_split(s, 1, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "split expects at least a 1-dimensional tensor");
  CT_EXPECT_FAIL(ct_split(x_, 1, 5, out, 8), -1, CT_ERR_INDEX, "Dimension out of range");
  // torch: x.split([1, 2], 1), x.split([5, -1], 1)
  const int64_t short_[] = {1, 2}, neg[] = {5, -1}, huge[] = {INT64_MAX, INT64_MAX, 2};
  CT_EXPECT_FAIL(ct_split_with_sizes(x_, 2, short_, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension 1), "
                 "but got split_sizes=[1, 2]");
  CT_EXPECT_FAIL(ct_split_with_sizes(x_, 2, neg, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[5, -1]");
  CT_EXPECT_FAIL(ct_split_with_sizes(x_, 3, huge, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "split_with_sizes expects split_sizes to sum exactly to 4");  // the sum overflows int64
  CT_EXPECT_FAIL(ct_split_with_sizes(x_, 2, nullptr, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "split_sizes is NULL");
  CT_EXPECT_FAIL(ct_split_with_sizes(x_, -1, short_, 1, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "n must be >= 0");
  // torch: x.chunk(0), torch.ones(()).chunk(1)
  CT_EXPECT_FAIL(ct_chunk(x_, 0, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "chunk expects `chunks` to be greater than 0, got: 0");
  CT_EXPECT_FAIL(ct_chunk(s, 1, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "chunk expects at least a 1-dimensional tensor");
  // An output array too small: an error, and nothing written.
  CT_EXPECT_FAIL(ct_unbind(x_, 1, out, 3), -1, CT_ERR_INVALID_ARGUMENT, "ct_unbind: 4 outputs do not fit in cap 3");
  CT_EXPECT_FAIL(ct_split(x_, 1, 1, out, -1), -1, CT_ERR_INVALID_ARGUMENT, "do not fit in cap -1");
  for (ct_tensor* o : out) EXPECT_EQ(o, nullptr);
  // NULL handles.
  CT_EXPECT_FAIL(ct_unbind(nullptr, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "ct_unbind");
  CT_EXPECT_FAIL(ct_split(nullptr, 1, 0, nullptr, 0), -1, CT_ERR_INVALID_ARGUMENT, "ct_split");
  CT_EXPECT_FAIL(ct_split_with_sizes(nullptr, 0, nullptr, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_chunk(nullptr, 1, 0, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "ct_chunk");
  for (ct_tensor* o : out) EXPECT_EQ(o, nullptr);
}

// Counting makes no views, and a cap too small fails before any (found by the fuzzer: an
// empty tensor's dims may be huge, and counting used to build every view first).
TEST_F(Views, MultiOutputCountsWithoutMakingViews) {
  const int64_t huge[] = {int64_t(1) << 40, 0};
  CT_MAKE(e, ct_empty(2, huge, CT_FLOAT32));
  const int64_t live = ct_live_tensors();
  EXPECT_EQ(ct_unbind(e, 0, nullptr, 0), int64_t(1) << 40);
  EXPECT_EQ(ct_split(e, 1, 0, nullptr, 0), int64_t(1) << 40);
  EXPECT_EQ(ct_chunk(e, int64_t(1) << 40, 1, nullptr, 0), int64_t(1) << 40);  // empty dim: that many pieces
  ct_tensor* out[4] = {};
  CT_EXPECT_FAIL(ct_unbind(e, 0, out, 4), -1, CT_ERR_INVALID_ARGUMENT, "1099511627776 outputs do not fit in cap 4");
  CT_EXPECT_FAIL(ct_chunk(e, INT64_MAX, 1, out, 4), -1, CT_ERR_INVALID_ARGUMENT, "do not fit in cap 4");
  for (ct_tensor* o : out) EXPECT_EQ(o, nullptr);
  EXPECT_EQ(ct_live_tensors(), live);
  // unbind along the empty dim: no views at all.
  EXPECT_EQ(ct_unbind(e, 1, out, 0), 0);
}

// ---- expand --------------------------------------------------------------------------------

TEST_F(Views, Expand) {
  CT_MAKE(b, make_iota_f32({3}));
  CT_MAKE(e, ctt::expand(b, {2, 3}));  // torch.arange(3.).expand(2, 3).stride() == (0, 1)
  EXPECT_TRUE(view_ok(e, b, {2, 3}, {0, 1}, 0, 0));
  EXPECT_EQ(values(e), (std::vector<double>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(ct_has_internal_overlap(e), 1);
  EXPECT_EQ(ct_has_internal_overlap(b), 0);
  CT_MAKE(r, ctt::view(b, {1, 3}));
  CT_MAKE(e2, ctt::expand(r, {4, -1, 3}));  // b.view(1,3).expand(4,-1,3): (4,1,3), (0,3,1)
  EXPECT_TRUE(view_ok(e2, b, {4, 1, 3}, {0, 3, 1}, 0, 0));
  CT_MAKE(e3, ctt::expand(r, {2, 2, -1}));  // (2, 2, 3), (0, 0, 1)
  EXPECT_TRUE(view_ok(e3, b, {2, 2, 3}, {0, 0, 1}, 0, 0));
  CT_MAKE(c, ctt::zeros({1, 3}));
  CT_MAKE(e4, ctt::expand(c, {1, 3}));  // a size-1 dim kept at 1 keeps its stride: (3, 1)
  EXPECT_TRUE(view_ok(e4, c, {1, 3}, {3, 1}, 0, 1));
  CT_MAKE(e5, ctt::expand(c, {0, 3}));  // (0, 3), strides (0, 1), contiguous (no elements)
  EXPECT_TRUE(view_ok(e5, c, {0, 3}, {0, 1}, 0, 1));
  CT_MAKE(col, ctt::view(b, {3, 1}));
  CT_MAKE(e6, ctt::expand(col, {3, 4}));  // (3, 4), strides (1, 0)
  EXPECT_TRUE(view_ok(e6, b, {3, 4}, {1, 0}, 0, 0));
  EXPECT_EQ(values(e6), (std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
  CT_MAKE(s, ct_full(0, nullptr, 4.0, CT_FLOAT32));
  CT_MAKE(e7, ctt::expand(s, {2, 2}));  // 0-dim to (2, 2): strides (0, 0)
  EXPECT_TRUE(view_ok(e7, s, {2, 2}, {0, 0}, 0, 0));
  EXPECT_EQ(values(e7), (std::vector<double>{4, 4, 4, 4}));
}

TEST_F(Views, ExpandErrors) {
  CT_MAKE(b, make_iota_f32({3}));
  // torch.arange(3.).expand(2, 5)
  CT_EXPECT_NULL(ctt::expand(b, {2, 5}), CT_ERR_SHAPE,
                 "The expanded size of the tensor (5) must match the existing size (3) at non-singleton "
                 "dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3]");
  // x.expand(4): "the number of sizes provided (1) must be greater or equal to the number of
  // dimensions in the tensor (2)"
  CT_EXPECT_NULL_IN(ctt::expand(x_, {4}),
                    "the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)",
                    CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT);
  // torch.arange(3.).expand(-1, 3)
  CT_EXPECT_NULL_IN(ctt::expand(b, {-1, 3}),
                    "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
                    CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT);
  CT_EXPECT_NULL(ct_expand(b, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- squeeze / unsqueeze -------------------------------------------------------------------

TEST_F(Views, Squeeze) {
  CT_MAKE(c, ctt::zeros({1, 3}));
  CT_MAKE(s0, ct_squeeze(c, 0));
  EXPECT_TRUE(view_ok(s0, c, {3}, {1}, 0, 1));
  CT_MAKE(s1, ct_squeeze(c, 1));  // size 3: same shape, still a view
  EXPECT_NE(s1.get(), c.get());
  EXPECT_TRUE(view_ok(s1, c, {1, 3}, {3, 1}, 0, 1));
  CT_MAKE(d, ctt::zeros({1, 3, 1, 2}));
  CT_MAKE(all, ct_squeeze_all(d));  // (3, 2), (2, 1)
  EXPECT_TRUE(view_ok(all, d, {3, 2}, {2, 1}, 0, 1));
  CT_MAKE(sm2, ct_squeeze(d, -2));  // (1, 3, 2), (6, 2, 1)
  EXPECT_TRUE(view_ok(sm2, d, {1, 3, 2}, {6, 2, 1}, 0, 1));
  CT_MAKE(none, ct_squeeze_all(x_));  // nothing to remove: a view of the same shape
  EXPECT_TRUE(view_ok(none, x_, {3, 4}, {4, 1}, 0, 1));
  CT_MAKE(col, ct_slice(x_, 1, 1, 2, 1));  // x[:, 1:2]: (3, 1), strides (4, 1), offset 1
  CT_MAKE(sq, ct_squeeze(col, 1));
  EXPECT_TRUE(view_ok(sq, x_, {3}, {4}, 1, 0));
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  CT_MAKE(ss, ct_squeeze(s, 0));  // torch.tensor(5.).squeeze(0): shape (), _base is it
  EXPECT_EQ(ct_tensor_ndim(ss), 0);
  EXPECT_TRUE(is_view_of(ss, s));
  CT_MAKE(sa, ct_squeeze_all(s));
  EXPECT_EQ(ct_tensor_ndim(sa), 0);
  EXPECT_TRUE(is_view_of(sa, s));
  CT_MAKE(ones, ctt::zeros({1, 1, 1}));
  CT_MAKE(so, ct_squeeze_all(ones));
  EXPECT_EQ(ct_tensor_ndim(so), 0);
  EXPECT_EQ(ct_tensor_numel(so), 1);
}

TEST_F(Views, SqueezeErrors) {
  CT_EXPECT_NULL(ct_squeeze(x_, 2), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CT_EXPECT_NULL(ct_squeeze(x_, -3), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}

TEST_F(Views, Unsqueeze) {
  CT_MAKE(u0, ct_unsqueeze(x_, 0));
  EXPECT_TRUE(view_ok(u0, x_, {1, 3, 4}, {12, 4, 1}, 0, 1));
  CT_MAKE(u1, ct_unsqueeze(x_, 1));
  EXPECT_TRUE(view_ok(u1, x_, {3, 1, 4}, {4, 4, 1}, 0, 1));
  CT_MAKE(u2, ct_unsqueeze(x_, 2));
  EXPECT_TRUE(view_ok(u2, x_, {3, 4, 1}, {4, 1, 1}, 0, 1));
  CT_MAKE(um1, ct_unsqueeze(x_, -1));
  EXPECT_TRUE(view_ok(um1, x_, {3, 4, 1}, {4, 1, 1}, 0, 1));
  CT_MAKE(um3, ct_unsqueeze(x_, -3));
  EXPECT_TRUE(view_ok(um3, x_, {1, 3, 4}, {12, 4, 1}, 0, 1));
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  CT_MAKE(t1, ct_unsqueeze(t, 1));  // x.t().unsqueeze(1).stride() == (1, 12, 4)
  EXPECT_TRUE(view_ok(t1, x_, {4, 1, 3}, {1, 12, 4}, 0, 0));
  CT_MAKE(t2, ct_unsqueeze(t, 2));  // (1, 4, 1)
  EXPECT_TRUE(view_ok(t2, x_, {4, 3, 1}, {1, 4, 1}, 0, 0));
  CT_MAKE(ev, ct_slice(x_, 1, 0, kEnd, 2));
  CT_MAKE(e2, ct_unsqueeze(ev, 2));  // x[:, ::2].unsqueeze(2).stride() == (4, 2, 1)
  EXPECT_TRUE(view_ok(e2, x_, {3, 2, 1}, {4, 2, 1}, 0, 0));
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  CT_MAKE(s0, ct_unsqueeze(s, 0));  // torch.tensor(5.).unsqueeze(0).stride() == (1,)
  EXPECT_TRUE(view_ok(s0, s, {1}, {1}, 0, 1));
  CT_MAKE(sm1, ct_unsqueeze(s, -1));
  EXPECT_TRUE(view_ok(sm1, s, {1}, {1}, 0, 1));
}

TEST_F(Views, UnsqueezeErrors) {
  CT_EXPECT_NULL(ct_unsqueeze(x_, 3), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  CT_EXPECT_NULL(ct_unsqueeze(x_, -4), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  CT_MAKE(s, ct_full(0, nullptr, 1.0, CT_FLOAT32));
  CT_EXPECT_NULL(ct_unsqueeze(s, 2), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
}

// ---- diagonal / unfold / as_strided --------------------------------------------------------

TEST_F(Views, Diagonal) {
  // x.diagonal(offset): (shape, stride, storage_offset)
  struct Case { int64_t off; int64_t size, offset; int contiguous; };
  const Case cases[] = {{0, 3, 0, 0},  {1, 3, 1, 0},  {2, 2, 2, 0}, {-1, 2, 4, 0},
                        {-2, 1, 8, 1}, {3, 1, 3, 1},  {4, 0, 0, 1}, {5, 0, 0, 1}, {-5, 0, 0, 1}};
  for (const Case& c : cases) {
    TensorRef d(ct_diagonal(x_, c.off, 0, 1));
    EXPECT_TRUE(view_ok(d, x_, {c.size}, {5}, c.offset, c.contiguous)) << "x.diagonal(" << c.off << ")";
  }
  CT_MAKE(d1, ct_diagonal(x_, 1, 0, 1));
  EXPECT_EQ(values(d1), (std::vector<double>{1, 6, 11}));
  CT_MAKE(dm1, ct_diagonal(x_, -1, 0, 1));
  EXPECT_EQ(values(dm1), (std::vector<double>{4, 9}));
  CT_MAKE(swap, ct_diagonal(x_, 0, 1, 0));  // x.diagonal(0, 1, 0)
  EXPECT_TRUE(view_ok(swap, x_, {3}, {5}, 0, 0));
  CT_MAKE(neg, ct_diagonal(x_, 0, -2, -1));
  EXPECT_TRUE(view_ok(neg, x_, {3}, {5}, 0, 0));
  // y (2, 3, 4): y.diagonal(1, 0, 2) -> (3, 2), (4, 13), 1; y.diagonal(0, -1, -2) -> (2, 3), (12, 5), 0
  CT_MAKE(y1, ct_diagonal(y_, 1, 0, 2));
  EXPECT_TRUE(view_ok(y1, y_, {3, 2}, {4, 13}, 1, 0));
  CT_MAKE(y2, ct_diagonal(y_, 0, -1, -2));
  EXPECT_TRUE(view_ok(y2, y_, {2, 3}, {12, 5}, 0, 0));
}

TEST_F(Views, DiagonalErrors) {
  // torch: "diagonal dimensions cannot be identical 0, 0"
  CT_EXPECT_NULL_IN(ct_diagonal(x_, 0, 0, 0), "diagonal dimensions cannot be identical 0, 0",
                    CT_ERR_INVALID_ARGUMENT, CT_ERR_INDEX, CT_ERR_SHAPE);
  CT_EXPECT_NULL(ct_diagonal(x_, 0, 0, 2), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  // torch.arange(4.).diagonal(): IndexError "Dimension out of range (expected to be in range of
  // [-1, 0], but got 1)" (dim2 = 1 is wrapped against ndim 1)
  CT_MAKE(v, make_iota_f32({4}));
  CT_EXPECT_NULL(ct_diagonal(v, 0, 0, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST_F(Views, Unfold) {
  CT_MAKE(e, make_iota_f32({8}));
  CT_MAKE(u1, ct_unfold(e, 0, 3, 2));  // torch.arange(8.).unfold(0, 3, 2): (3, 3), (2, 1)
  EXPECT_TRUE(view_ok(u1, e, {3, 3}, {2, 1}, 0, 0));
  EXPECT_EQ(values(u1), (std::vector<double>{0, 1, 2, 2, 3, 4, 4, 5, 6}));
  EXPECT_EQ(ct_has_internal_overlap(u1), 1);
  CT_MAKE(u2, ct_unfold(e, 0, 3, 1));  // (6, 3), (1, 1)
  EXPECT_TRUE(view_ok(u2, e, {6, 3}, {1, 1}, 0, 0));
  CT_MAKE(u3, ct_unfold(e, 0, 8, 1));  // (1, 8), (1, 1): contiguous
  EXPECT_TRUE(view_ok(u3, e, {1, 8}, {1, 1}, 0, 1));
  CT_MAKE(u4, ct_unfold(e, 0, 2, 2));  // (4, 2), (2, 1): windows tile exactly
  EXPECT_TRUE(view_ok(u4, e, {4, 2}, {2, 1}, 0, 1));
  EXPECT_EQ(ct_has_internal_overlap(u4), 0);
  CT_MAKE(x1, ct_unfold(x_, 1, 2, 1));  // x.unfold(1, 2, 1): (3, 3, 2), (4, 1, 1)
  EXPECT_TRUE(view_ok(x1, x_, {3, 3, 2}, {4, 1, 1}, 0, 0));
  CT_MAKE(x2, ct_unfold(x_, 0, 2, 2));  // x.unfold(0, 2, 2): (1, 4, 2), (8, 1, 4)
  EXPECT_TRUE(view_ok(x2, x_, {1, 4, 2}, {8, 1, 4}, 0, 0));
  CT_MAKE(x3, ct_unfold(x_, -1, 3, 2));  // x.unfold(-1, 3, 2): (3, 1, 3), (4, 2, 1)
  EXPECT_TRUE(view_ok(x3, x_, {3, 1, 3}, {4, 2, 1}, 0, 0));
}

TEST_F(Views, UnfoldErrors) {
  // torch: x.unfold(0, 5, 1) -> "maximum size for tensor at dimension 0 is 3 but size is 5"
  CT_EXPECT_NULL(ct_unfold(x_, 0, 5, 1), CT_ERR_SHAPE, "maximum size for tensor at dimension 0 is 3 but size is 5");
  CT_EXPECT_NULL(ct_unfold(x_, 0, -1, 1), CT_ERR_INVALID_ARGUMENT, "size is -1 but must be >= 0");
  // torch: x.unfold(0, 2, 0) -> "step is 0 but must be > 0"
  CT_EXPECT_NULL(ct_unfold(x_, 0, 2, 0), CT_ERR_INVALID_ARGUMENT, "step is 0 but must be > 0");
  CT_EXPECT_NULL(ct_unfold(x_, 2, 2, 1), CT_ERR_INDEX,
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST_F(Views, AsStrided) {
  CT_MAKE(s1, ctt::as_strided(x_, {2, 2}, {1, 4}, 1));  // x.as_strided((2,2),(1,4),1)
  EXPECT_TRUE(view_ok(s1, x_, {2, 2}, {1, 4}, 1, 0));
  EXPECT_EQ(values(s1), (std::vector<double>{1, 5, 2, 6}));
  // The offset is absolute, not relative to the input's: x[1:].as_strided((3,), (0,), 11)
  CT_MAKE(r, ct_slice(x_, 0, 1, kEnd, 1));
  CT_MAKE(s2, ctt::as_strided(r, {3}, {0}, 11));
  EXPECT_TRUE(view_ok(s2, x_, {3}, {0}, 11, 0));
  EXPECT_EQ(values(s2), (std::vector<double>{11, 11, 11}));
  EXPECT_EQ(ct_has_internal_overlap(s2), 1);
  CT_MAKE(s3, ctt::as_strided(r, {2}, {1}, 0));
  EXPECT_TRUE(view_ok(s3, x_, {2}, {1}, 0, 1));
  CT_MAKE(s4, ctt::as_strided(x_, {12}, {1}, 0));
  EXPECT_TRUE(view_ok(s4, x_, {12}, {1}, 0, 1));
  CT_MAKE(s5, ctt::as_strided(x_, {0}, {1}, 12));  // empty at the very end: allowed
  EXPECT_TRUE(view_ok(s5, x_, {0}, {1}, 12, 1));
  CT_MAKE(s6, ct_as_strided(x_, 0, nullptr, nullptr, 5));  // 0-dim
  EXPECT_EQ(ct_tensor_ndim(s6), 0);
  EXPECT_EQ(values(s6), std::vector<double>{5});
  EXPECT_TRUE(is_view_of(s6, x_));
}

TEST_F(Views, AsStridedErrors) {
  // torch: x.as_strided((3,3),(3,1),4) -> "... requiring a storage size of 52 are out of bounds
  // for storage of size 48"
  CT_EXPECT_NULL(ctt::as_strided(x_, {3, 3}, {3, 1}, 4), CT_ERR_INDEX, "out of bounds for storage of size 48");
  CT_EXPECT_NULL(ctt::as_strided(x_, {1}, {1}, 12), CT_ERR_INDEX, "");
  CT_EXPECT_NULL(ctt::as_strided(x_, {13}, {1}, 0), CT_ERR_INDEX, "");
  CT_EXPECT_NULL(ctt::as_strided(x_, {2}, {11}, 1), CT_ERR_INDEX, "");
  // Negative strides / offset are refused ("as_strided: Negative strides are not supported").
  CT_EXPECT_NULL_IN(ctt::as_strided(x_, {3, 3}, {3, -1}, 2), "", CT_ERR_INVALID_ARGUMENT, CT_ERR_INDEX);
  CT_EXPECT_NULL_IN(ctt::as_strided(x_, {2}, {1}, -1), "", CT_ERR_INVALID_ARGUMENT, CT_ERR_INDEX);
  CT_EXPECT_NULL_IN(ctt::as_strided(x_, {-1}, {1}, 0), "", CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT);
  const int64_t s[] = {2};
  CT_EXPECT_NULL(ct_as_strided(x_, 1, s, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_as_strided(x_, 1, nullptr, s, 0), CT_ERR_INVALID_ARGUMENT, "");
  // Huge strides must not overflow into "in bounds" (torch: "Storage size calculation overflowed").
  CT_EXPECT_NULL_IN(ctt::as_strided(x_, {3}, {std::numeric_limits<int64_t>::max() / 2}, 0), "", CT_ERR_INDEX,
                    CT_ERR_SHAPE);
  CT_EXPECT_NULL_IN(ctt::as_strided(x_, {3}, {std::numeric_limits<int64_t>::max()}, 0), "", CT_ERR_INDEX,
                    CT_ERR_SHAPE);
}

// ---- alias ---------------------------------------------------------------------------------

TEST_F(Views, AliasIsDetach) {
  const int64_t rc = ct_tensor_refcount(x_);
  CT_MAKE(al, ct_alias(x_));
  EXPECT_NE(al.get(), x_.get());
  // torch: x.detach()._is_view() False, _base None, same storage and version counter
  EXPECT_TRUE(geometry_is(al, {3, 4}, {4, 1}, 0));
  EXPECT_TRUE(is_not_view(al));
  EXPECT_EQ(ct_shares_storage(al, x_), 1);
  EXPECT_EQ(ct_tensor_storage_id(al), ct_tensor_storage_id(x_));
  EXPECT_EQ(ct_tensor_data(al), ct_tensor_data(x_));
  EXPECT_EQ(ct_tensor_refcount(x_), rc) << "an alias does not hold x as a base";
  EXPECT_EQ(ct_tensor_is_contiguous(al), 1);
  // Same version counter: a write through the alias is seen by x.
  const int64_t v0 = ct_tensor_version(x_);
  CT_MAKE(src, ctt::ones({3, 4}));
  CT_ASSERT_OK(ct_copy_(al, src));
  EXPECT_EQ(ct_tensor_version(x_), v0 + 1);
  EXPECT_EQ(ct_tensor_version(al), v0 + 1);
  EXPECT_EQ(values(x_), std::vector<double>(12, 1.0));
}

TEST_F(Views, AliasViewIsAViewOfTheSameGeometry) {
  // torch's aten::alias (x[...]): unlike ct_alias (detach) it is a view, base the root.
  CT_MAKE(a, ct_alias_view(x_));
  EXPECT_TRUE(view_ok(a, x_, {3, 4}, {4, 1}, 0, 1));
  CT_MAKE(t, ct_transpose(x_, 0, 1));
  CT_MAKE(n, ct_narrow(t, 0, 1, 2));
  CT_MAKE(an, ct_alias_view(n));  // x.t()[1:3][...]: strides (1, 4), offset 1, base x
  EXPECT_TRUE(view_ok(an, x_, {2, 3}, {1, 4}, 1, 0));
  const int64_t v0 = ct_tensor_version(x_);
  CT_ASSERT_OK(ct_fill_(an, 7.0));
  EXPECT_EQ(ct_tensor_version(x_), v0 + 1);
  EXPECT_EQ(values(x_)[1], 7.0);
  CT_MAKE(s, ct_full(0, nullptr, 2.0, CT_FLOAT64));
  CT_MAKE(as, ct_alias_view(s));  // a 0-dim tensor too: torch's s[()]
  EXPECT_TRUE(view_ok(as, s, {}, {}, 0, 1));
  CT_EXPECT_NULL(ct_alias_view(nullptr), CT_ERR_INVALID_ARGUMENT, "ct_alias_view");
}

TEST_F(Views, AliasOfViewAndViewOfAlias) {
  CT_MAKE(r, ct_slice(x_, 0, 1, kEnd, 1));
  CT_MAKE(al, ct_alias(r));  // x[1:].detach(): keeps the geometry, not a view
  EXPECT_TRUE(geometry_is(al, {2, 4}, {4, 1}, 4));
  EXPECT_TRUE(is_not_view(al));
  EXPECT_EQ(ct_shares_storage(al, x_), 1);
  EXPECT_EQ(ct_tensor_data(al), ct_tensor_data(r));
  // A view of an alias has the alias as base (torch: al[0]._base is al).
  CT_MAKE(v, ct_select(al, 0, 0));
  EXPECT_TRUE(is_view_of(v, al));
  EXPECT_EQ(ct_tensor_offset(v), 4);
}

// ---- base identity, refcounts, versions ----------------------------------------------------

TEST_F(Views, BaseOfAViewOfAViewIsTheRoot) {
  const int64_t live = ct_live_tensors();
  const int64_t storages = ct_live_storages();
  ct_tensor* v1 = ctt::view(x_, {4, 3});
  ASSERT_NE(v1, nullptr) << last_error_str();
  ct_tensor* v2 = ct_slice(v1, 0, 1, kEnd, 1);
  ASSERT_NE(v2, nullptr) << last_error_str();
  ct_tensor* v3 = ct_transpose(v2, 0, 1);  // torch: x.view(4,3)[1:].t()._base is x
  ASSERT_NE(v3, nullptr) << last_error_str();
  EXPECT_TRUE(view_ok(v3, x_, {3, 3}, {1, 3}, 3, 0));
  EXPECT_TRUE(is_view_of(v1, x_));
  EXPECT_TRUE(is_view_of(v2, x_));
  EXPECT_EQ(ct_live_tensors(), live + 3);
  EXPECT_EQ(ct_live_storages(), storages) << "views make no storage";
  // Each view holds the root, not the intermediate view.
  EXPECT_EQ(ct_tensor_refcount(x_), 4);
  EXPECT_EQ(ct_tensor_refcount(v1), 1);
  EXPECT_EQ(ct_tensor_refcount(v2), 1);
  ct_tensor_release(v1);
  ct_tensor_release(v2);
  EXPECT_EQ(ct_tensor_refcount(x_), 2);
  EXPECT_EQ(ct_live_tensors(), live + 1);
  // Releasing our handle on the root keeps it alive as v3's base.
  ct_tensor* root = x_.take();
  ct_tensor_release(root);
  EXPECT_EQ(ct_live_tensors(), live + 1) << "the root stays alive as the base of v3";
  ct_tensor* b = ct_tensor_base(v3);
  EXPECT_EQ(b, root);
  EXPECT_EQ(ct_tensor_refcount(b), 2);  // v3's hold and ours
  EXPECT_EQ(values(b), iota(12));
  ct_tensor_release(b);
  EXPECT_EQ(values(v3), (std::vector<double>{3, 6, 9, 4, 7, 10, 5, 8, 11}));
  ct_tensor_release(v3);
  EXPECT_EQ(ct_live_tensors(), live - 1);
  EXPECT_EQ(ct_live_storages(), storages - 1);
}

TEST_F(Views, BaseIsANewReference) {
  CT_MAKE(v, ct_transpose(x_, 0, 1));
  EXPECT_EQ(ct_tensor_refcount(x_), 2);
  ct_tensor* b1 = ct_tensor_base(v);
  ct_tensor* b2 = ct_tensor_base(v);
  EXPECT_EQ(b1, x_.get());
  EXPECT_EQ(b2, x_.get());
  EXPECT_EQ(ct_tensor_refcount(x_), 4);
  ct_tensor_release(b1);
  ct_tensor_release(b2);
  EXPECT_EQ(ct_tensor_refcount(x_), 2);
  // A base of the base: the root is not a view.
  EXPECT_TRUE(is_not_view(x_));
}

TEST_F(Views, EveryViewOpSharesTheRootsStorage) {
  CT_MAKE(b, make_iota_f32({3}));
  std::vector<TensorRef> vs;
  vs.emplace_back(ctt::view(x_, {12}));
  vs.emplace_back(ct_transpose(x_, 0, 1));
  vs.emplace_back(ctt::permute(x_, {1, 0}));
  vs.emplace_back(ct_slice(x_, 1, 0, 2, 1));
  vs.emplace_back(ct_narrow(x_, 0, 1, 1));
  vs.emplace_back(ct_select(x_, 0, 1));
  vs.emplace_back(ctt::expand(x_, {2, 3, 4}));
  vs.emplace_back(ct_squeeze(x_, 0));
  vs.emplace_back(ct_squeeze_all(x_));
  vs.emplace_back(ct_unsqueeze(x_, 0));
  vs.emplace_back(ct_diagonal(x_, 0, 0, 1));
  vs.emplace_back(ct_unfold(x_, 1, 2, 2));
  vs.emplace_back(ctt::as_strided(x_, {2}, {1}, 0));
  const int64_t live_storages = ct_live_storages();
  for (size_t i = 0; i < vs.size(); ++i) {
    ASSERT_NE(vs[i].get(), nullptr) << "view op #" << i << ": " << last_error_str();
    EXPECT_TRUE(is_view_of(vs[i], x_)) << "view op #" << i;
    EXPECT_EQ(ct_may_overlap(vs[i], x_), 1) << "view op #" << i;
    EXPECT_EQ(ct_overlaps(vs[i], x_), 1) << "view op #" << i;
  }
  EXPECT_EQ(ct_tensor_refcount(x_), int64_t(1 + vs.size()));
  EXPECT_EQ(ct_live_storages(), live_storages);
  StorageRef st(ct_tensor_storage(x_));
  EXPECT_EQ(ct_storage_refcount(st), int64_t(1 + vs.size() + 1)) << "every tensor on it plus this handle";
}

TEST_F(Views, WritesThroughAViewAreSeenEverywhereAndBumpTheVersion) {
  CT_MAKE(row, ct_select(x_, 0, 1));
  CT_MAKE(col, ct_select(x_, 1, 2));
  CT_MAKE(al, ct_alias(x_));
  EXPECT_EQ(ct_tensor_version(x_), 0);
  CT_MAKE(src, ctt::full({4}, -1.0));
  CT_ASSERT_OK(ct_copy_(row, src));  // x[1] = -1
  EXPECT_EQ(values(x_), (std::vector<double>{0, 1, 2, 3, -1, -1, -1, -1, 8, 9, 10, 11}));
  EXPECT_EQ(values(col), (std::vector<double>{2, -1, 10}));
  for (const ct_tensor* t : {x_.get(), row.get(), col.get(), al.get()}) EXPECT_EQ(ct_tensor_version(t), 1);
  CT_MAKE(later, ct_transpose(x_, 0, 1));  // a new view sees the current version
  EXPECT_EQ(ct_tensor_version(later), 1);
  CT_MAKE(src2, ctt::full({3}, 7.0));
  CT_ASSERT_OK(ct_copy_(col, src2));
  EXPECT_EQ(ct_tensor_version(x_), 2);
  EXPECT_EQ(ct_tensor_version(row), 2);
  EXPECT_EQ(ct_tensor_version(src2), 0) << "the source is not written";
  EXPECT_EQ(values(row), (std::vector<double>{-1, -1, 7, -1}));
  // A raw write through a view's data pointer is seen by the root (no version bump).
  static_cast<float*>(ct_tensor_data(row))[0] = 42.0f;
  EXPECT_EQ(values(x_)[4], 42.0);
  EXPECT_EQ(ct_tensor_version(x_), 2);
}

TEST_F(Views, DataPointerArithmetic) {
  CT_MAKE(d, make_from(std::vector<double>(24, 0.0), {2, 3, 4}, CT_FLOAT64));
  CT_MAKE(s, ct_select(d, 1, 2));       // offset 8
  CT_MAKE(n, ct_narrow(s, 1, 1, 2));    // offset 9
  CT_MAKE(q, ct_select(d, 0, 1));       // offset 12
  EXPECT_EQ(byte_delta(s, d), 8 * 8);
  EXPECT_EQ(byte_delta(n, d), 9 * 8);
  EXPECT_EQ(byte_delta(q, d), 12 * 8);
  EXPECT_EQ(ct_tensor_offset(n), 9);
  CT_MAKE(i16, make_from(std::vector<int16_t>(10, 0), {10}, CT_INT16));
  CT_MAKE(w, ct_slice(i16, 0, 3, kEnd, 3));
  EXPECT_EQ(byte_delta(w, i16), 3 * 2);
  EXPECT_EQ(ct_tensor_dtype(w), CT_INT16);
}

TEST_F(Views, ViewsFromSeveralThreadsAtOnce) {
  // Retaining, releasing and taking views of one tensor from several threads is safe.
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      for (int i = 0; i < 2000; ++i) {
        ct_tensor* t = ct_transpose(x_, 0, 1);
        ct_tensor* s = ct_select(t, 0, i % 4);
        ct_tensor* r = ct_tensor_retain(s);
        if (t == nullptr || s == nullptr || ct_tensor_offset(s) != i % 4 || ct_tensor_stride(s, 0) != 4) bad[k]++;
        ct_tensor_release(r);
        ct_tensor_release(s);
        ct_tensor_release(t);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int k = 0; k < 4; ++k) EXPECT_EQ(bad[k], 0) << "thread " << k;
  EXPECT_EQ(ct_tensor_refcount(x_), 1);
}

// ---- NULL handles --------------------------------------------------------------------------

TEST_F(Views, NullHandlesNeverCrash) {
  const int64_t s[] = {1};
  const int p[] = {0};
  CT_EXPECT_NULL(ct_view(nullptr, 1, s), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_transpose(nullptr, 0, 1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_permute(nullptr, 1, p), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_slice(nullptr, 0, 0, 1, 1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_narrow(nullptr, 0, 0, 1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_select(nullptr, 0, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_expand(nullptr, 1, s), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_squeeze(nullptr, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_squeeze_all(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_unsqueeze(nullptr, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_diagonal(nullptr, 0, 0, 1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_unfold(nullptr, 0, 1, 1), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_as_strided(nullptr, 1, s, s, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_alias(nullptr), CT_ERR_INVALID_ARGUMENT, "");
  ct_tensor_release(nullptr);  // a no-op
  EXPECT_EQ(ct_tensor_retain(nullptr), nullptr);
}
