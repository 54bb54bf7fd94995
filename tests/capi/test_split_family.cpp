// The split family and the other composite views (ctensor.h, "The split family and other
// composite views"), through the header only.  Expected values are torch 2.13's (the Python
// tests compare with torch itself; these pin the C contract: geometry, sharing, outputs
// protocol, NULL handles, hostile sizes and dims).
#include <climits>
#include <functional>

#include "test_helpers.h"

using ctt::TensorRef;

namespace {

using Call = std::function<int64_t(ct_tensor**, int64_t)>;

// The outputs of a multi-output call, each owned.
std::vector<TensorRef> outs(const Call& call) {
  ct_clear_error();
  const int64_t n = call(nullptr, 0);
  std::vector<TensorRef> res;
  EXPECT_GE(n, 0) << ctt::last_error_str();
  if (n < 0) return res;
  std::vector<ct_tensor*> out(size_t(n) + 1, nullptr);
  EXPECT_EQ(call(out.data(), n), n) << ctt::last_error_str();
  for (int64_t i = 0; i < n; ++i) res.emplace_back(out[size_t(i)]);
  EXPECT_EQ(out[size_t(n)], nullptr);
  return res;
}

// A call that must fail with status and message, writing nothing to out.
void expect_outputs_fail(const Call& call, ct_status status, const char* msg) {
  ct_tensor* sentinel = reinterpret_cast<ct_tensor*>(uintptr_t(0x1));
  ct_tensor* out[4] = {sentinel, sentinel, sentinel, sentinel};
  ct_clear_error();
  EXPECT_EQ(call(nullptr, 0), -1);
  EXPECT_TRUE(ctt::expect_error(status, msg));
  ct_clear_error();
  EXPECT_EQ(call(out, 4), -1);
  EXPECT_TRUE(ctt::expect_error(status, msg));
  for (ct_tensor* o : out) EXPECT_EQ(o, sentinel);
}

std::vector<int64_t> lengths_along(const std::vector<TensorRef>& v, int dim) {
  std::vector<int64_t> r;
  for (const TensorRef& t : v) r.push_back(ct_tensor_size(t, dim));
  return r;
}

class SplitFamily : public ctt::CtTest {
 protected:
  void SetUp() override {
    ctt::CtTest::SetUp();
    const int64_t s[3] = {2, 3, 4};
    x_.reset(ct_arange(0, 24, 1, CT_FLOAT32));
    x_.reset(ct_view(TensorRef(x_.take()), 3, s));
    ASSERT_NE(x_.get(), nullptr);
    x_.reset(ct_clone(TensorRef(x_.take())));  // its own root
    ASSERT_NE(x_.get(), nullptr);
  }
  void TearDown() override {
    x_.reset();
    ctt::CtTest::TearDown();
  }
  TensorRef x_;  // arange(24).view(2, 3, 4).clone(): not a view
};

TEST_F(SplitFamily, TensorSplitSectionsGeometry) {
  // torch: [(p.shape, p.stride(), p.storage_offset()) for p in x.tensor_split(3, 2)]
  //   -> (2,3,2) off 0, (2,3,1) off 2, (2,3,1) off 3; strides (12, 4, 1)
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, 3, 2, o, c); });
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(ctt::geometry_is(v[0], {2, 3, 2}, {12, 4, 1}, 0));
  EXPECT_TRUE(ctt::geometry_is(v[1], {2, 3, 1}, {12, 4, 1}, 2));
  EXPECT_TRUE(ctt::geometry_is(v[2], {2, 3, 1}, {12, 4, 1}, 3));
  for (auto& p : v) EXPECT_TRUE(ctt::is_view_of(p, x_));
  // More sections than elements: empty pieces at the end.  torch: x.tensor_split(5, 1) -> 1,1,1,0,0
  auto e = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, 5, -2, o, c); });
  EXPECT_EQ(lengths_along(e, 1), (std::vector<int64_t>{1, 1, 1, 0, 0}));
}

TEST_F(SplitFamily, TensorSplitIndices) {
  // torch: x.tensor_split([3, 1, -1, 10], 2) -> lengths 3, 0, 2, 1, 0
  const int64_t idx[4] = {3, 1, -1, 10};
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split_indices(x_, 4, idx, 2, o, c); });
  EXPECT_EQ(lengths_along(v, 2), (std::vector<int64_t>{3, 0, 2, 1, 0}));
  EXPECT_EQ(ct_tensor_offset(v[2]), 1);
  // No indices: one piece, all of t; indices may be NULL then.
  auto one = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split_indices(x_, 0, nullptr, 0, o, c); });
  ASSERT_EQ(one.size(), 1u);
  EXPECT_TRUE(ctt::geometry_is(one[0], {2, 3, 4}, {12, 4, 1}, 0));
  // Hostile indices clamp instead of overflowing.
  const int64_t wild[3] = {INT64_MIN, INT64_MAX, INT64_MIN};
  auto w = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split_indices(x_, 3, wild, 1, o, c); });
  EXPECT_EQ(lengths_along(w, 1), (std::vector<int64_t>{0, 3, 0, 3}));
}

TEST_F(SplitFamily, TensorSplitTensorSpec) {
  const int64_t sz[1] = {1};
  CT_MAKE(cut, ct_full(1, sz, 2, CT_INT64));
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, cut, 2, o, c); });
  EXPECT_EQ(lengths_along(v, 2), (std::vector<int64_t>{2, 2}));
  CT_MAKE(sec, ct_full(0, nullptr, 3, CT_INT64));
  auto s = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, sec, 1, o, c); });
  EXPECT_EQ(lengths_along(s, 1), (std::vector<int64_t>{1, 1, 1}));
  CT_MAKE(bad_dtype, ct_full(1, sz, 2, CT_INT32));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, bad_dtype, 2, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "to have dtype of long, but got Int");
  const int64_t sz2[2] = {1, 1};
  CT_MAKE(bad_rank, ct_full(2, sz2, 2, CT_INT64));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, bad_rank, 2, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "but got a tensor with 2 dims");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, nullptr, 2, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
  CT_MAKE(zero, ct_full(0, nullptr, 0, CT_INT64));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_tensor(x_, zero, 2, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "number of sections must be larger than 0, got 0");
}

TEST_F(SplitFamily, TensorSplitErrors) {
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(nullptr, 2, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, 0, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "number of sections must be larger than 0, got 0");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, INT64_MIN, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "must be larger than 0");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, 2, 3, o, c); }, CT_ERR_INDEX,
                      "Dimension out of range");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(x_, 2, INT_MIN, o, c); }, CT_ERR_INDEX,
                      "Dimension out of range");
  CT_MAKE(s, ct_full(0, nullptr, 1, CT_FLOAT32));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split(s, 2, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "tensor_split expected at least a 1-dimensional tensor");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_indices(x_, -1, nullptr, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "n must be >= 0");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_tensor_split_indices(x_, 2, nullptr, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "indices is NULL");
  // cap too small: fails, writes nothing; a huge count is only counted, never made
  ct_tensor* out[2] = {nullptr, nullptr};
  EXPECT_EQ(ct_tensor_split(x_, 3, 0, out, 2), -1);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT, "3 outputs do not fit in cap 2"));
  EXPECT_EQ(out[0], nullptr);
  EXPECT_EQ(ct_tensor_split(x_, INT64_MAX, 0, nullptr, 0), INT64_MAX);
  EXPECT_EQ(ct_tensor_split(x_, INT64_MAX, 0, out, 2), -1);
}

TEST_F(SplitFamily, DirectionalSplits) {
  auto h = outs([&](ct_tensor** o, int64_t c) { return ct_hsplit(x_, 3, o, c); });
  EXPECT_EQ(lengths_along(h, 1), (std::vector<int64_t>{1, 1, 1}));
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_vsplit(x_, 2, o, c); });
  EXPECT_EQ(lengths_along(v, 0), (std::vector<int64_t>{1, 1}));
  auto d = outs([&](ct_tensor** o, int64_t c) { return ct_dsplit(x_, 2, o, c); });
  EXPECT_EQ(lengths_along(d, 2), (std::vector<int64_t>{2, 2}));
  const int64_t cuts[2] = {1, 3};
  auto di = outs([&](ct_tensor** o, int64_t c) { return ct_dsplit_indices(x_, 2, cuts, o, c); });
  EXPECT_EQ(lengths_along(di, 2), (std::vector<int64_t>{1, 2, 1}));
  // A 1-D t: hsplit splits dim 0.
  CT_MAKE(v1, ct_arange(0, 6, 1, CT_INT64));
  auto h1 = outs([&](ct_tensor** o, int64_t c) { return ct_hsplit_indices(v1, 1, cuts, o, c); });
  EXPECT_EQ(lengths_along(h1, 0), (std::vector<int64_t>{1, 5}));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_hsplit(x_, 2, o, c); }, CT_ERR_INVALID_ARGUMENT,
                      "torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not "
                      "divisible by the split_size 2!");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_hsplit(x_, 0, o, c); }, CT_ERR_INVALID_ARGUMENT,
                      "is not divisible by the split_size 0!");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_hsplit(x_, -3, o, c); }, CT_ERR_INVALID_ARGUMENT,
                      "number of sections must be larger than 0, got -3");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_vsplit(v1, 2, o, c); }, CT_ERR_INVALID_ARGUMENT,
                      "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_dsplit_indices(v1, 2, cuts, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "torch.dsplit requires a tensor with at least 3 dimension");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_vsplit(nullptr, 2, o, c); }, CT_ERR_INVALID_ARGUMENT,
                      "");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_hsplit(x_, INT64_MIN, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, UnsafeSplitsShareMemoryButAreNotViews) {
  CT_ASSERT_OK(ct_add_scalar_(x_, 0));  // x version 1
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_unsafe_split(x_, 2, 2, o, c); });
  ASSERT_EQ(v.size(), 2u);
  for (auto& p : v) {
    EXPECT_TRUE(ctt::is_not_view(p));
    EXPECT_EQ(ct_shares_storage(p, x_), 1);
    EXPECT_EQ(ct_tensor_version(p), 0);  // a fresh counter, as torch
    EXPECT_EQ(ct_same_version_counter(p, x_), 0);
  }
  EXPECT_TRUE(ctt::geometry_is(v[1], {2, 3, 2}, {12, 4, 1}, 2));
  CT_ASSERT_OK(ct_fill_(v[1], 7));  // writes x's memory, not x's version
  EXPECT_EQ(ct_tensor_version(x_), 1);
  EXPECT_EQ(ct_tensor_version(v[1]), 1);
  double e = 0;
  CT_MAKE(x03, ct_select(x_, 2, 3));
  CT_MAKE(x003, ct_select(x03, 0, 0));
  CT_MAKE(one, ct_select(x003, 0, 0));
  CT_ASSERT_OK(ct_item(one, &e));
  EXPECT_EQ(e, 7);
  const int64_t sizes[2] = {1, 2};
  auto w = outs([&](ct_tensor** o, int64_t c) { return ct_unsafe_split_with_sizes(x_, 2, sizes, 1, o, c); });
  EXPECT_EQ(lengths_along(w, 1), (std::vector<int64_t>{1, 2}));
  for (auto& p : w) EXPECT_TRUE(ctt::is_not_view(p));
  auto k = outs([&](ct_tensor** o, int64_t c) { return ct_unsafe_chunk(x_, 3, 2, o, c); });
  EXPECT_EQ(lengths_along(k, 2), (std::vector<int64_t>{2, 2}));
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_unsafe_split(x_, -1, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "split expects split_size be non-negative");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_unsafe_chunk(x_, 0, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "chunk expects `chunks` to be greater than 0, got: 0");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_unsafe_split_with_sizes(x_, 2, sizes, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's size at dimension 0), but got split_sizes=[1, 2]");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_unsafe_split_with_sizes(x_, 1, nullptr, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "split_sizes is NULL");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_unsafe_chunk(nullptr, 1, 0, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, Unflatten) {
  const int64_t s[2] = {2, -1};
  CT_MAKE(u, ct_unflatten(x_, -1, 2, s));
  EXPECT_TRUE(ctt::geometry_is(u, {2, 3, 2, 2}, {12, 4, 2, 1}, 0));
  EXPECT_TRUE(ctt::is_view_of(u, x_));
  const int64_t bad[2] = {2, 2};
  CT_EXPECT_NULL(ct_unflatten(x_, 1, 2, bad), CT_ERR_INVALID_ARGUMENT,
                 "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor");
  CT_EXPECT_NULL(ct_unflatten(x_, 1, 0, nullptr), CT_ERR_INVALID_ARGUMENT, "unflatten: sizes must be non-empty");
  const int64_t two_inferred[2] = {-1, -1};
  CT_EXPECT_NULL(ct_unflatten(x_, 1, 2, two_inferred), CT_ERR_INVALID_ARGUMENT,
                 "unflatten got an unexpected error:\nonly one dimension can be inferred");
  CT_EXPECT_NULL(ct_unflatten(x_, 3, 2, s), CT_ERR_INDEX, "Dimension out of range");
  CT_EXPECT_NULL(ct_unflatten(nullptr, 0, 2, s), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_unflatten(x_, 0, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_unflatten(x_, 0, -5, s), CT_ERR_INVALID_ARGUMENT, "");
  const int64_t huge[2] = {INT64_MAX, 2};
  CT_EXPECT_NULL(ct_unflatten(x_, 0, 2, huge), CT_ERR_INVALID_ARGUMENT, "don't multiply up");
  CT_MAKE(sc, ct_full(0, nullptr, 1, CT_FLOAT32));
  const int64_t one[1] = {1};
  CT_EXPECT_NULL(ct_unflatten(sc, 0, 1, one), CT_ERR_INVALID_ARGUMENT,
                 "unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions");
  // Strides that forbid a view: torch's view error.  torch: x.transpose(0, 2).unflatten(1, (1, 3)) views
  CT_MAKE(tt, ct_transpose(x_, 1, 2));
  CT_MAKE(f, ct_flatten(tt, 1, 2));  // a copy: contiguous, so unflatten of it views
  const int64_t back[2] = {4, 3};
  CT_MAKE(g, ct_unflatten(f, 1, 2, back));
  EXPECT_TRUE(ctt::sizes_are(g, {2, 4, 3}));
}

TEST_F(SplitFamily, Movedim) {
  const int src[2] = {0, 1}, dst[2] = {2, 0};
  CT_MAKE(m, ct_movedim(x_, 2, src, dst));
  // torch: x.movedim((0, 1), (2, 0)) -> shape (3, 4, 2), strides (4, 1, 12)
  EXPECT_TRUE(ctt::geometry_is(m, {3, 4, 2}, {4, 1, 12}, 0));
  EXPECT_TRUE(ctt::is_view_of(m, x_));
  CT_MAKE(a, ct_moveaxis(x_, 2, src, dst));
  EXPECT_TRUE(ctt::geometry_is(a, {3, 4, 2}, {4, 1, 12}, 0));
  const int rep[2] = {0, -3};
  CT_EXPECT_NULL(ct_movedim(x_, 2, rep, dst), CT_ERR_INVALID_ARGUMENT, "movedim: repeated dim in `source` ([0, -3])");
  CT_EXPECT_NULL(ct_movedim(x_, 2, src, rep), CT_ERR_INVALID_ARGUMENT,
                 "movedim: repeated dim in `destination` ([0, -3])");
  const int out_of_range[1] = {INT_MIN};
  CT_EXPECT_NULL(ct_movedim(x_, 1, out_of_range, dst), CT_ERR_INDEX, "Dimension out of range");
  CT_EXPECT_NULL(ct_movedim(x_, 1, nullptr, dst), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_movedim(x_, 65, src, dst), CT_ERR_INVALID_ARGUMENT, "");
  CT_MAKE(none, ct_movedim(x_, 0, nullptr, nullptr));
  EXPECT_TRUE(ctt::geometry_is(none, {2, 3, 4}, {12, 4, 1}, 0));
  CT_MAKE(sc, ct_full(0, nullptr, 1, CT_FLOAT32));
  const int zero[1] = {0}, minus1[1] = {-1};
  CT_MAKE(ms, ct_movedim(sc, 1, zero, minus1));
  EXPECT_TRUE(ctt::is_view_of(ms, sc));
}

TEST_F(SplitFamily, SwapsAndAs) {
  CT_MAKE(s, ct_swapaxes(x_, 0, 2));
  EXPECT_TRUE(ctt::geometry_is(s, {4, 3, 2}, {1, 4, 12}, 0));
  CT_MAKE(d, ct_swapdims(x_, -1, 1));
  EXPECT_TRUE(ctt::geometry_is(d, {2, 4, 3}, {12, 1, 4}, 0));
  CT_EXPECT_NULL(ct_swapaxes(x_, 0, 3), CT_ERR_INDEX, "Dimension out of range");
  CT_MAKE(c, ct_clone(x_));
  CT_ASSERT_OK(ct_swapaxes_(c, 0, 2));
  EXPECT_TRUE(ctt::geometry_is(c, {4, 3, 2}, {1, 4, 12}, 0));
  CT_ASSERT_OK(ct_swapdims_(c, 0, 2));
  EXPECT_TRUE(ctt::geometry_is(c, {2, 3, 4}, {12, 4, 1}, 0));
  EXPECT_EQ(ct_swapdims_(nullptr, 0, 1), CT_ERR_INVALID_ARGUMENT);

  const int64_t s1[3] = {2, 1, 4};
  CT_MAKE(small, ct_zeros(3, s1, CT_FLOAT32));
  CT_MAKE(e, ct_expand_as(small, x_));
  EXPECT_TRUE(ctt::geometry_is(e, {2, 3, 4}, {4, 0, 1}, 0));
  CT_EXPECT_NULL(ct_expand_as(x_, small), CT_ERR_SHAPE, "must match the existing size (3)");
  CT_EXPECT_NULL(ct_expand_as(x_, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  const int64_t flat[2] = {6, 4};
  CT_MAKE(shape_of, ct_empty(2, flat, CT_INT8));
  CT_MAKE(va, ct_view_as(x_, shape_of));
  EXPECT_TRUE(ctt::geometry_is(va, {6, 4}, {4, 1}, 0));
  CT_EXPECT_NULL(ct_view_as(s, shape_of), CT_ERR_NOT_VIEWABLE, "view size is not compatible");
  CT_MAKE(ra, ct_reshape_as(s, shape_of));  // a copy
  EXPECT_TRUE(ctt::is_not_view(ra));
  CT_MAKE(rv, ct_reshape_as(x_, shape_of));  // a view
  EXPECT_TRUE(ctt::is_view_of(rv, x_));
  CT_EXPECT_NULL(ct_view_as(nullptr, shape_of), CT_ERR_INVALID_ARGUMENT, "");

  const int64_t b[4] = {5, 2, 3, 4};
  CT_MAKE(bt, ct_broadcast_to(x_, 4, b));
  EXPECT_TRUE(ctt::geometry_is(bt, {5, 2, 3, 4}, {0, 12, 4, 1}, 0));
  CT_EXPECT_NULL(ct_broadcast_to(x_, 2, b), CT_ERR_SHAPE, "must be greater or equal to the number of dimensions");
  CT_EXPECT_NULL(ct_broadcast_to(x_, 4, nullptr), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_broadcast_to(x_, 65, b), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, BroadcastTensors) {
  const int64_t s1[1] = {4};
  CT_MAKE(row, ct_zeros(1, s1, CT_FLOAT64));
  const ct_tensor* ts[2] = {x_, row};
  auto v = outs([&](ct_tensor** o, int64_t c) { return ct_broadcast_tensors(2, ts, o, c); });
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].get(), x_.get());  // already of the common shape: x itself
  EXPECT_TRUE(ctt::geometry_is(v[1], {2, 3, 4}, {0, 0, 1}, 0));
  EXPECT_TRUE(ctt::is_view_of(v[1], row));
  EXPECT_EQ(ct_broadcast_tensors(0, nullptr, nullptr, 0), 0);
  const int64_t s3[1] = {3};
  CT_MAKE(bad, ct_zeros(1, s3, CT_FLOAT32));
  const ct_tensor* mismatch[2] = {x_, bad};
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_broadcast_tensors(2, mismatch, o, c); }, CT_ERR_SHAPE,
                      "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 2");
  const ct_tensor* with_null[2] = {x_, nullptr};
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_broadcast_tensors(2, with_null, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_broadcast_tensors(2, nullptr, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
  expect_outputs_fail([&](ct_tensor** o, int64_t c) { return ct_broadcast_tensors(-1, ts, o, c); },
                      CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, BroadcastShapes) {
  const int64_t a[2] = {2, 1}, b[3] = {3, 1, 4}, c[1] = {4};
  const int64_t* shapes[3] = {a, b, c};
  const int nd[3] = {2, 3, 1};
  int64_t out[8] = {0};
  ASSERT_EQ(ct_broadcast_shapes(3, nd, shapes, out, 8), 3) << ctt::last_error_str();
  EXPECT_EQ(std::vector<int64_t>(out, out + 3), (std::vector<int64_t>{3, 2, 4}));
  EXPECT_EQ(ct_broadcast_shapes(3, nd, shapes, nullptr, 0), 3);
  CT_EXPECT_FAIL(ct_broadcast_shapes(3, nd, shapes, out, 2), -1, CT_ERR_INVALID_ARGUMENT, "do not fit in cap 2");
  EXPECT_EQ(ct_broadcast_shapes(0, nullptr, nullptr, nullptr, 0), 0);
  const int64_t e[2] = {2, 3}, d[1] = {4};
  const int64_t* bad[2] = {e, d};
  const int nb[2] = {2, 1};
  CT_EXPECT_FAIL(ct_broadcast_shapes(2, nb, bad, out, 8), -1, CT_ERR_SHAPE,
                 "Attempting to broadcast a dimension of length 4 at -1! Mismatching argument at index 1 had (4,); "
                 "but expected shape should be broadcastable to [2, 3]");
  const int64_t neg[1] = {-1};
  const int64_t* negs[1] = {neg};
  const int n1[1] = {1};
  CT_EXPECT_FAIL(ct_broadcast_shapes(1, n1, negs, out, 8), -1, CT_ERR_INVALID_ARGUMENT,
                 "Attempting to broadcast a dimension with negative length!");
  const int nbad[1] = {65};
  CT_EXPECT_FAIL(ct_broadcast_shapes(1, nbad, negs, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_broadcast_shapes(1, nullptr, negs, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_broadcast_shapes(-1, n1, negs, out, 8), -1, CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, Atleast) {
  CT_MAKE(same, ct_atleast_3d(x_));
  EXPECT_EQ(same.get(), x_.get());
  CT_MAKE(sc, ct_full(0, nullptr, 1, CT_FLOAT32));
  CT_MAKE(a1, ct_atleast_1d(sc));
  EXPECT_TRUE(ctt::geometry_is(a1, {1}, {1}, 0));
  EXPECT_TRUE(ctt::is_view_of(a1, sc));
  CT_MAKE(a3, ct_atleast_3d(sc));
  EXPECT_TRUE(ctt::sizes_are(a3, {1, 1, 1}));
  CT_MAKE(v, ct_arange(0, 5, 1, CT_FLOAT32));
  CT_MAKE(v2, ct_atleast_2d(v));
  EXPECT_TRUE(ctt::geometry_is(v2, {1, 5}, {5, 1}, 0));
  CT_MAKE(v3, ct_atleast_3d(v));
  EXPECT_TRUE(ctt::geometry_is(v3, {1, 5, 1}, {5, 1, 1}, 0));
  EXPECT_TRUE(ctt::is_view_of(v3, v));
  CT_MAKE(m, ct_select(x_, 0, 1));
  CT_MAKE(m3, ct_atleast_3d(m));
  EXPECT_TRUE(ctt::geometry_is(m3, {3, 4, 1}, {4, 1, 1}, 12));
  EXPECT_TRUE(ctt::is_view_of(m3, x_));
  CT_EXPECT_NULL(ct_atleast_2d(nullptr), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(SplitFamily, AutogradNodes) {
  CT_MAKE(w, ct_clone(x_));
  CT_ASSERT_OK(ct_set_requires_grad(w, 1));
  auto pieces = outs([&](ct_tensor** o, int64_t c) { return ct_tensor_split(w, 2, 2, o, c); });
  EXPECT_STREQ(ct_grad_fn_name(pieces[0]), "SliceBackward0");
  auto unsafe = outs([&](ct_tensor** o, int64_t c) { return ct_unsafe_chunk(w, 2, 2, o, c); });
  EXPECT_STREQ(ct_grad_fn_name(unsafe[1]), "UnsafeSplitBackward0");
  CT_ASSERT_OK(ct_mul_scalar_(unsafe[1], 2));  // allowed: not a multi-output view
  const int64_t sz[2] = {1, 1};
  auto unsafe_sizes = outs([&](ct_tensor** o, int64_t c) { return ct_unsafe_split_with_sizes(w, 2, sz, 0, o, c); });
  EXPECT_STREQ(ct_grad_fn_name(unsafe_sizes[0]), "UnsafeSplitWithSizesBackward0");
  const int64_t us[2] = {2, 2};
  CT_MAKE(u, ct_unflatten(w, 2, 2, us));
  EXPECT_STREQ(ct_grad_fn_name(u), "ViewBackward0");
  const int src[1] = {0}, dst[1] = {2};
  CT_MAKE(m, ct_movedim(w, 1, src, dst));
  EXPECT_STREQ(ct_grad_fn_name(m), "PermuteBackward0");
  CT_MAKE(s, ct_swapaxes(w, 0, 1));
  EXPECT_STREQ(ct_grad_fn_name(s), "TransposeBackward0");
  const int64_t b[4] = {2, 2, 3, 4};
  CT_MAKE(bt, ct_broadcast_to(w, 4, b));
  EXPECT_STREQ(ct_grad_fn_name(bt), "ExpandBackward0");
  CT_MAKE(w0, ct_select(w, 0, 0));
  CT_MAKE(w00, ct_select(w0, 0, 0));
  CT_MAKE(a, ct_atleast_3d(w00));
  EXPECT_STREQ(ct_grad_fn_name(a), "UnsqueezeBackward0");
  // Gradient of a sum over unsafe pieces: ones where they were (the first element doubled
  // by the in-place mul above does not change the graph's input gradient of the other piece).
  CT_MAKE(sum, ct_sum(unsafe_sizes[1], 0, nullptr, 0));
  CT_ASSERT_OK(ct_backward(sum, nullptr, 0));
  CT_MAKE(g, ct_grad(w));
  CT_MAKE(g1, ct_select(g, 0, 1));
  CT_MAKE(total, ct_sum(g1, 0, nullptr, 0));
  double tv = 0;
  CT_ASSERT_OK(ct_item(total, &tv));
  EXPECT_EQ(tv, 12);
  CT_MAKE(g0, ct_select(g, 0, 0));
  CT_MAKE(total0, ct_sum(g0, 0, nullptr, 0));
  CT_ASSERT_OK(ct_item(total0, &tv));
  EXPECT_EQ(tv, 0);
}

}  // namespace
