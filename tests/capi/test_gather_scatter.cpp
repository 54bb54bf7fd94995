// ct_gather, ct_scatter*, ct_index_add/copy/fill*, ct_take, ct_put*, ct_index_put*: values
// against PyTorch 2.13 (e.g. python -c "import torch; x=torch.arange(6.).view(2,3);
// print(x.gather(1, torch.tensor([[2,0],[1,1]])))"), a new storage for every copy, the same
// storage and a version bump for the in-place forms, errors, NULL and hostile arguments.
#include <cstdint>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class GatherScatter : public CtTest {};

TEST_F(GatherScatter, GatherValuesAndErrors) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  ct_tensor* i = longs({2, 0, 1, 1}, {2, 2});
  expect_copy(ct_gather(x, 1, i), x, {2, 2}, {2, 0, 4, 4});
  expect_copy(ct_gather(x, -1, i), x, {2, 2}, {2, 0, 4, 4});
  ct_tensor* i32 = make_from(std::vector<int32_t>{1, 0, 0}, {1, 3}, CT_INT32);
  expect_copy(ct_gather(x, 0, i32), x, {1, 3}, {3, 1, 2});
  ct_tensor* xt = ct_t(x);  // [[0,3],[1,4],[2,5]]
  ct_tensor* j = longs({1, 0}, {1, 2});
  expect_copy(ct_gather(xt, 1, j), x, {1, 2}, {3, 0});
  ct_tensor* bad = longs({3}, {1, 1});
  EXPECT_EQ(ct_gather(x, 1, bad), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "index 3 is out of bounds for dimension 1 with size 3"));
  EXPECT_EQ(ct_gather(x, 2, i), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  ct_tensor* f = make_iota_f32({1, 1});
  EXPECT_EQ(ct_gather(x, 1, f), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "gather(): Expected dtype int32/int64 for index"));
  EXPECT_EQ(ct_gather(nullptr, 0, i), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_gather(x, 0, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  for (ct_tensor* t : {x, i, i32, xt, j, bad, f}) ct_tensor_release(t);
}

TEST_F(GatherScatter, ScatterFormsAndInPlace) {
  ct_tensor* x = make_iota_f32({2, 3});
  ct_tensor* i = longs({2, 2, 0}, {1, 3});
  ct_tensor* src = make_from(std::vector<float>{10, 20, 30}, {1, 3}, CT_FLOAT32);
  expect_copy(ct_scatter(x, 1, i, src, nullptr), x, {2, 3}, {30, 1, 20, 3, 4, 5});
  expect_copy(ct_scatter(x, 1, i, src, "add"), x, {2, 3}, {30, 1, 32, 3, 4, 5});
  expect_copy(ct_scatter(x, 1, i, src, "multiply"), x, {2, 3}, {0, 1, 400, 3, 4, 5});
  expect_copy(ct_scatter_value(x, 1, i, -1.0, nullptr), x, {2, 3}, {-1, 1, -1, 3, 4, 5});
  expect_copy(ct_scatter_add(x, 1, i, src), x, {2, 3}, {30, 1, 32, 3, 4, 5});
  EXPECT_EQ(ct_scatter(x, 1, i, src, "mean"), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "reduce argument must be either add or multiply."));
  const int64_t v0 = ct_tensor_version(x);
  ASSERT_EQ(ct_scatter_add_(x, 1, i, src), CT_OK) << last_error_str();
  EXPECT_EQ(values(x), (std::vector<double>{30, 1, 32, 3, 4, 5}));
  EXPECT_EQ(ct_tensor_version(x), v0 + 1);
  ct_tensor* i0 = longs({1, 1, 0}, {1, 3});
  ASSERT_EQ(ct_scatter_value_(x, 0, i0, 7.0, "multiply"), CT_OK) << last_error_str();
  EXPECT_EQ(values(x), (std::vector<double>{30, 1, 224, 21, 28, 5}));
  // A failing index leaves self unchanged and its version too.
  ct_tensor* bad = longs({0, 9, 0}, {1, 3});
  EXPECT_EQ(ct_scatter_(x, 1, bad, src, nullptr), CT_ERR_INDEX);
  EXPECT_EQ(values(x), (std::vector<double>{30, 1, 224, 21, 28, 5}));
  EXPECT_EQ(ct_tensor_version(x), v0 + 2);
  for (ct_tensor* t : {x, i, i0, src, bad}) ct_tensor_release(t);
}

TEST_F(GatherScatter, InPlaceRefusesSharedMemory) {
  ct_tensor* x = make_iota_f32({1, 3});
  const int64_t big[2] = {4, 3};
  ct_tensor* e = ct_expand(x, 2, big);
  ct_tensor* i = longs({0}, {1, 1});
  EXPECT_EQ(ct_scatter_value_(e, 0, i, 1.0, nullptr), CT_ERR_OVERLAP);
  ct_tensor* y = make_iota_f32({5});
  ct_tensor* part = ct_narrow(y, 0, 1, 2);
  ct_tensor* k = longs({0, 1}, {2});
  EXPECT_EQ(ct_index_add_(y, 0, k, part, 1.0), CT_ERR_OVERLAP);
  EXPECT_TRUE(expect_error(CT_ERR_OVERLAP, "some elements of the input tensor and the written-to tensor"));
  EXPECT_EQ(ct_put_(y, k, part, 0), CT_ERR_OVERLAP);
  for (ct_tensor* t : {x, e, i, y, part, k}) ct_tensor_release(t);
}

TEST_F(GatherScatter, IndexAddCopyFill) {
  ct_tensor* x = make_iota_f32({3, 2});  // [[0,1],[2,3],[4,5]]
  ct_tensor* i = longs({2, 0, 2}, {3});
  ct_tensor* s = make_from(std::vector<float>{1, 1, 2, 2, 3, 3}, {3, 2}, CT_FLOAT32);
  expect_copy(ct_index_add(x, 0, i, s, 2.0), x, {3, 2}, {4, 5, 2, 3, 12, 13});
  ct_tensor* u = longs({2, 0}, {2});
  ct_tensor* s2 = make_from(std::vector<float>{7, 8, 9, 10}, {2, 2}, CT_FLOAT32);
  expect_copy(ct_index_copy(x, 0, u, s2), x, {3, 2}, {9, 10, 2, 3, 7, 8});
  ct_tensor* neg = longs({-1}, {1});
  expect_copy(ct_index_fill(x, 1, neg, 9.0), x, {3, 2}, {0, 9, 2, 9, 4, 9});
  ct_tensor* v = make_from(std::vector<double>{2.5}, {}, CT_FLOAT64);
  expect_copy(ct_index_fill_tensor(x, 0, u, v), x, {3, 2}, {2.5, 2.5, 2, 3, 2.5, 2.5});
  EXPECT_EQ(ct_index_copy(x, 0, neg, s2), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "index_copy_(): Number of indices (1) should be equal to source.size(dim) (2)"));
  const int64_t v0 = ct_tensor_version(x);
  ASSERT_EQ(ct_index_fill_(x, 0, u, 0.0), CT_OK);
  ASSERT_EQ(ct_index_copy_(x, 0, u, s2), CT_OK);
  ASSERT_EQ(ct_index_add_(x, 1, neg, s, 1.0), CT_ERR_SHAPE);
  EXPECT_EQ(values(x), (std::vector<double>{9, 10, 2, 3, 7, 8}));
  EXPECT_EQ(ct_tensor_version(x), v0 + 2);
  for (ct_tensor* t : {x, i, s, u, s2, neg, v}) ct_tensor_release(t);
}

TEST_F(GatherScatter, TakePutIndexPut) {
  ct_tensor* x = make_iota_f32({2, 3});
  ct_tensor* xt = ct_t(x);  // C order of xt: 0 3 1 4 2 5
  ct_tensor* i = longs({1, -1, 1}, {3});
  expect_copy(ct_take(xt, i), x, {3}, {3, 5, 3});
  ct_tensor* s = make_from(std::vector<float>{10, 20, 30}, {3}, CT_FLOAT32);
  expect_copy(ct_put(x, i, s, 1), x, {2, 3}, {0, 41, 2, 3, 4, 25});
  expect_copy(ct_put(x, i, s, 0), x, {2, 3}, {0, 30, 2, 3, 4, 20});
  EXPECT_EQ(ct_take(x, s), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "take(): Expected a long tensor for index, but got Float"));
  ct_tensor* far = longs({6}, {1});
  EXPECT_EQ(ct_take(x, far), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "out of range: tried to access index 6 on a tensor of 6 elements."));
  // index_put with a row index and a mask
  ct_tensor* rows = longs({1, 1}, {2});
  const ct_tensor* one[1] = {rows};
  ct_tensor* val = make_from(std::vector<float>{1, 2, 3}, {3}, CT_FLOAT32);
  expect_copy(ct_index_put(x, 1, one, val, 1), x, {2, 3}, {0, 1, 2, 5, 8, 11});
  expect_copy(ct_index_put(x, 1, one, val, 0), x, {2, 3}, {0, 1, 2, 1, 2, 3});
  ct_tensor* mask = make_from(std::vector<uint8_t>{1, 0, 1, 0, 0, 1}, {2, 3}, CT_BOOL);
  const ct_tensor* m1[1] = {mask};
  ct_tensor* nine = make_from(std::vector<float>{9}, {}, CT_FLOAT32);
  expect_copy(ct_index_put(x, 1, m1, nine, 0), x, {2, 3}, {9, 1, 9, 3, 4, 9});
  EXPECT_EQ(ct_index_put(x, 1, nullptr, nine, 0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_index_put(x, -1, m1, nine, 0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  const ct_tensor* three[3] = {rows, rows, rows};
  EXPECT_EQ(ct_index_put(x, 3, three, nine, 0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "too many indices for tensor of dimension 2 (got 3)"));
  const int64_t v0 = ct_tensor_version(x);
  ASSERT_EQ(ct_index_put_(x, 1, one, val, 1), CT_OK);
  ASSERT_EQ(ct_put_(x, i, s, 0), CT_OK);
  EXPECT_EQ(values(x), (std::vector<double>{0, 30, 2, 5, 8, 20}));
  EXPECT_EQ(ct_tensor_version(x), v0 + 2);
  for (ct_tensor* t : {x, xt, i, s, far, rows, val, mask, nine}) ct_tensor_release(t);
}

TEST_F(GatherScatter, EmptyAndZeroDim) {
  ct_tensor* e = empty({0, 3});
  ct_tensor* ei = empty({0, 3}, CT_INT64);
  expect_copy(ct_gather(e, 0, ei), e, {0, 3}, {});
  ct_tensor* s = make_from(std::vector<float>{4}, {}, CT_FLOAT32);
  ct_tensor* z = make_from(std::vector<int64_t>{0}, {}, CT_INT64);
  expect_copy(ct_gather(s, 0, z), s, {}, {4});
  expect_copy(ct_scatter_value(s, 0, z, 1.0, nullptr), s, {}, {1});
  expect_copy(ct_index_fill(s, 0, z, 2.0), s, {}, {2});
  expect_copy(ct_take(s, z), s, {}, {4});
  for (ct_tensor* t : {e, ei, s, z}) ct_tensor_release(t);
}

}  // namespace
