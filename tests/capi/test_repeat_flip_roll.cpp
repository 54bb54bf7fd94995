// ct_repeat, ct_tile, ct_flip, ct_fliplr, ct_flipud, ct_roll: values and geometry against
// PyTorch 2.13 (e.g. python -c "import torch; print(torch.arange(6.).view(2,3).roll(1,1))"),
// a new storage every time, NULL and hostile arguments.
#include <cstdint>
#include <limits>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class RepeatFlipRoll : public CtTest {};

TEST_F(RepeatFlipRoll, RepeatPadsAndTiles) {
  ct_tensor* x = make_iota_f32({2, 2});  // [[0,1],[2,3]]
  const int64_t r1[2] = {1, 2};
  expect_copy(ct_repeat(x, 2, r1), x, {2, 4}, {0, 1, 0, 1, 2, 3, 2, 3});
  const int64_t r2[3] = {2, 1, 1};
  expect_copy(ct_repeat(x, 3, r2), x, {2, 2, 2}, {0, 1, 2, 3, 0, 1, 2, 3});
  const int64_t ones[2] = {1, 1};
  expect_copy(ct_repeat(x, 2, ones), x, {2, 2}, {0, 1, 2, 3});
  const int64_t t1[1] = {2};
  expect_copy(ct_tile(x, 1, t1), x, {2, 4}, {0, 1, 0, 1, 2, 3, 2, 3});
  // A transposed input: the copy reads through the strides.
  ct_tensor* xt = ct_t(x);
  expect_copy(ct_repeat(xt, 2, r1), x, {2, 4}, {0, 2, 0, 2, 1, 3, 1, 3});
  ct_tensor_release(xt);
  ct_tensor_release(x);
}

TEST_F(RepeatFlipRoll, RepeatErrors) {
  ct_tensor* x = make_iota_f32({2, 3});
  const int64_t one[1] = {2};
  EXPECT_EQ(ct_repeat(x, 1, one), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "Number of dimensions of repeat dims can not be smaller"));
  const int64_t neg[2] = {-1, 2};
  EXPECT_EQ(ct_repeat(x, 2, neg), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "negative dimension -2"));
  EXPECT_EQ(ct_repeat(nullptr, 2, neg), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_repeat(x, 2, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "repeats is NULL"));
  EXPECT_EQ(ct_repeat(x, -1, one), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  // Sizes whose product overflows int64, or a single size that does.
  const int64_t huge[2] = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_EQ(ct_repeat(x, 2, huge), nullptr);
  EXPECT_TRUE(expect_error_in({CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT, CT_ERR_OUT_OF_MEMORY}));
  const int64_t max[2] = {1, std::numeric_limits<int64_t>::max()};
  EXPECT_EQ(ct_repeat(x, 2, max), nullptr);
  EXPECT_TRUE(expect_error_in({CT_ERR_SHAPE, CT_ERR_INVALID_ARGUMENT, CT_ERR_OUT_OF_MEMORY}));
  // Representable but far too large to allocate.
  const int64_t big[2] = {int64_t(1) << 30, int64_t(1) << 29};
  EXPECT_EQ(ct_repeat(x, 2, big), nullptr);
  EXPECT_TRUE(expect_error_in({CT_ERR_OUT_OF_MEMORY, CT_ERR_SHAPE}));
  // A zero repeat gives an empty result even next to a huge one.
  const int64_t zero[2] = {0, std::numeric_limits<int64_t>::max() / 3};
  ct_tensor* e = ct_repeat(x, 2, zero);
  ASSERT_NE(e, nullptr) << last_error_str();
  EXPECT_EQ(ct_tensor_numel(e), 0);
  ct_tensor_release(e);
  ct_tensor_release(x);
}

TEST_F(RepeatFlipRoll, Flip) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  const int64_t d0[1] = {0}, dm1[1] = {-1}, both[2] = {0, 1}, dup[2] = {0, -2}, bad[1] = {2};
  expect_copy(ct_flip(x, 1, d0), x, {2, 3}, {3, 4, 5, 0, 1, 2});
  expect_copy(ct_flip(x, 1, dm1), x, {2, 3}, {2, 1, 0, 5, 4, 3});
  expect_copy(ct_flip(x, 2, both), x, {2, 3}, {5, 4, 3, 2, 1, 0});
  expect_copy(ct_flip(x, 0, nullptr), x, {2, 3}, {0, 1, 2, 3, 4, 5});
  expect_copy(ct_fliplr(x), x, {2, 3}, {2, 1, 0, 5, 4, 3});
  expect_copy(ct_flipud(x), x, {2, 3}, {3, 4, 5, 0, 1, 2});
  EXPECT_EQ(ct_flip(x, 2, dup), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "dim 0 appears multiple times in the list of dims"));
  EXPECT_EQ(ct_flip(x, 1, bad), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  ct_tensor* v = make_iota_f32({3});
  EXPECT_EQ(ct_fliplr(v), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "Input must be >= 2-d."));
  ct_tensor* s = ct_select(v, 0, 1);
  EXPECT_EQ(ct_flipud(s), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "Input must be >= 1-d."));
  EXPECT_EQ(ct_flip(nullptr, 1, d0), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  // A transposed input keeps its layout, as clone().
  ct_tensor* xt = ct_t(x);
  ct_tensor* f = ct_flip(xt, 1, d0);
  ASSERT_NE(f, nullptr) << last_error_str();
  EXPECT_TRUE(strides_are(f, {1, 3}));
  EXPECT_EQ(values(f), (std::vector<double>{2, 5, 1, 4, 0, 3}));
  ct_tensor_release(f);
  ct_tensor_release(xt);
  ct_tensor_release(s);
  ct_tensor_release(v);
  ct_tensor_release(x);
}

TEST_F(RepeatFlipRoll, Roll) {
  ct_tensor* x = make_iota_f32({2, 3});
  const int64_t s1[1] = {1}, d1[1] = {1}, s2[2] = {1, -1}, d2[2] = {0, 1};
  expect_copy(ct_roll(x, 1, s1, 1, d1), x, {2, 3}, {2, 0, 1, 5, 3, 4});
  expect_copy(ct_roll(x, 1, s1, 0, nullptr), x, {2, 3}, {5, 0, 1, 2, 3, 4});
  expect_copy(ct_roll(x, 2, s2, 2, d2), x, {2, 3}, {4, 5, 3, 1, 2, 0});
  const int64_t big[1] = {std::numeric_limits<int64_t>::min()}, zero[1] = {0};
  // INT64_MIN mod 3 == 1 (as Python): shift by 1.
  expect_copy(ct_roll(x, 1, big, 1, d1), x, {2, 3}, {2, 0, 1, 5, 3, 4});
  expect_copy(ct_roll(x, 1, zero, 1, d1), x, {2, 3}, {0, 1, 2, 3, 4, 5});
  EXPECT_EQ(ct_roll(x, 2, s2, 1, d1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "shifts and dimensions must align. shifts: 2, dims:1"));
  EXPECT_EQ(ct_roll(x, 0, nullptr, 0, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "`shifts` required"));
  const int64_t d9[1] = {9};
  EXPECT_EQ(ct_roll(x, 1, s1, 1, d9), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  EXPECT_EQ(ct_roll(x, 1, nullptr, 1, d1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "shifts is NULL"));
  ct_tensor_release(x);
}

TEST_F(RepeatFlipRoll, EmptyInputs) {
  ct_tensor* x = zeros({0, 3});
  const int64_t r[2] = {2, 2}, d[1] = {0}, s[1] = {5};
  expect_copy(ct_repeat(x, 2, r), x, {0, 6}, {});
  expect_copy(ct_flip(x, 1, d), x, {0, 3}, {});
  expect_copy(ct_roll(x, 1, s, 1, d), x, {0, 3}, {});
  expect_copy(ct_roll(x, 1, s, 0, nullptr), x, {0, 3}, {});
  ct_tensor_release(x);
}

}  // namespace
