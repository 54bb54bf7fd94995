// ct_scatter_reduce / ct_scatter_reduce_ and ct_index (with ct_index_put's NULL entries):
// values against PyTorch 2.13 (e.g. python -c "import torch; x=torch.arange(6.).view(2,3);
// print(x.scatter_reduce(1, torch.tensor([[0,0,2],[1,0,0]]), torch.tensor([[10.,20,30],
// [40,50,60]]), 'sum'))"), a new storage for every copy, a version bump in place, errors.
#include <cstdint>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class ScatterReduceIndex : public CtTest {};

TEST_F(ScatterReduceIndex, ScatterReduceValues) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  ct_tensor* i = longs({0, 0, 2, 1, 0, 0}, {2, 3});
  ct_tensor* s = make_from(std::vector<float>{10, 20, 30, 40, 50, 60}, {2, 3}, CT_FLOAT32);
  expect_copy(ct_scatter_reduce(x, 1, i, s, "sum", 1), x, {2, 3}, {30, 1, 32, 113, 44, 5});
  expect_copy(ct_scatter_reduce(x, 1, i, s, "sum", 0), x, {2, 3}, {30, 1, 30, 110, 40, 5});
  expect_copy(ct_scatter_reduce(x, -1, i, s, "prod", 0), x, {2, 3}, {200, 1, 30, 3000, 40, 5});
  expect_copy(ct_scatter_reduce(x, 1, i, s, "amax", 0), x, {2, 3}, {20, 1, 30, 60, 40, 5});
  expect_copy(ct_scatter_reduce(x, 1, i, s, "amin", 1), x, {2, 3}, {0, 1, 2, 3, 4, 5});
  expect_copy(ct_scatter_reduce(x, 1, i, s, "mean", 0), x, {2, 3}, {15, 1, 30, 55, 40, 5});
  // integer mean floors: (-7 + 0) / 2 -> -4
  ct_tensor* xi = longs({-7, 2}, {2});
  ct_tensor* i0 = longs({0}, {1});
  ct_tensor* z = longs({0}, {1});
  expect_copy(ct_scatter_reduce(xi, 0, i0, z, "mean", 1), xi, {2}, {-4, 2});
  const int64_t v0 = ct_tensor_version(x);
  ASSERT_EQ(ct_scatter_reduce_(x, 1, i, s, "sum", 1), CT_OK);
  EXPECT_EQ(values(x), (std::vector<double>{30, 1, 32, 113, 44, 5}));
  EXPECT_EQ(ct_tensor_version(x), v0 + 1);
  for (ct_tensor* t : {x, i, s, xi, i0, z}) ct_tensor_release(t);
}

TEST_F(ScatterReduceIndex, ScatterReduceErrors) {
  ct_tensor* x = make_iota_f32({2, 3});
  ct_tensor* i = longs({0, 0, 2, 1, 0, 0}, {2, 3});
  ct_tensor* s = make_from(std::vector<float>{10, 20, 30, 40, 50, 60}, {2, 3}, CT_FLOAT32);
  EXPECT_EQ(ct_scatter_reduce(x, 1, i, s, "foo", 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "reduce argument must be either sum, prod, mean, amax or amin, got foo"));
  EXPECT_EQ(ct_scatter_reduce(x, 1, i, s, nullptr, 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  ct_tensor* far = longs({0, 0, 5, 1, 0, 0}, {2, 3});
  const int64_t v0 = ct_tensor_version(x);
  EXPECT_EQ(ct_scatter_reduce_(x, 1, far, s, "sum", 1), CT_ERR_INDEX);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "index 5 is out of bounds for dimension 1 with size 3"));
  EXPECT_EQ(ct_tensor_version(x), v0);  // a failing call leaves self unchanged
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  ct_tensor* d = make_from(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, CT_FLOAT64);
  EXPECT_EQ(ct_scatter_reduce(x, 1, i, d, "sum", 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "scatter(): Expected self.dtype to be equal to src.dtype"));
  ct_tensor* b = make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL);
  ct_tensor* i0 = longs({0}, {1});
  EXPECT_EQ(ct_scatter_reduce(b, 0, i0, b, "mean", 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE));
  EXPECT_EQ(ct_scatter_reduce(nullptr, 1, i, s, "sum", 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_scatter_reduce_(x, 1, i, x, "sum", 1), CT_ERR_OVERLAP);  // src is self
  for (ct_tensor* t : {x, i, s, far, d, b, i0}) ct_tensor_release(t);
}

TEST_F(ScatterReduceIndex, IndexWithWholeDims) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  ct_tensor* i = longs({2, 0}, {2});
  const ct_tensor* cols[2] = {nullptr, i};
  expect_copy(ct_index(x, 2, cols), x, {2, 2}, {2, 0, 5, 3});
  const ct_tensor* rows[1] = {i};
  EXPECT_EQ(ct_index(x, 1, rows), nullptr);  // row 2 of 2
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "index 2 is out of bounds for dimension 0 with size 2"));
  ct_tensor* seven = make_from(std::vector<float>{7}, {}, CT_FLOAT32);
  expect_copy(ct_index_put(x, 2, cols, seven, 0), x, {2, 3}, {7, 1, 7, 7, 4, 7});
  ct_tensor* two = make_from(std::vector<float>{1, 2}, {2}, CT_FLOAT32);
  expect_copy(ct_index_put(x, 2, cols, two, 1), x, {2, 3}, {2, 1, 3, 5, 4, 6});
  ct_tensor* three = make_from(std::vector<float>{1, 2, 3}, {3}, CT_FLOAT32);
  EXPECT_EQ(ct_index_put(x, 2, cols, three, 0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE,
                           "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 2]"));
  // non-adjacent indexed dims: their broadcast dims go first
  ct_tensor* y = make_iota_f32({2, 3, 4});
  ct_tensor* a = longs({1, 0}, {2});
  ct_tensor* c = longs({3, 0}, {2});
  const ct_tensor* apart[3] = {a, nullptr, c};
  expect_copy(ct_index(y, 3, apart), y, {2, 3}, {15, 19, 23, 0, 4, 8});
  const ct_tensor* none[1] = {nullptr};
  expect_copy(ct_index(x, 1, none), x, {2, 3}, {0, 1, 2, 3, 4, 5});
  for (ct_tensor* t : {x, i, seven, two, three, y, a, c}) ct_tensor_release(t);
}

}  // namespace
