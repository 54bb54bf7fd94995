// ct_masked_select, ct_masked_fill(_), ct_masked_fill_tensor(_), ct_masked_scatter(_),
// ct_nonzero, ct_argwhere, ct_rot90, ct_repeat_interleave(_tensor, _repeats): values and
// geometry against PyTorch 2.13 (e.g. python -c "import torch; x = torch.arange(6.).view(2,3);
// print(x.rot90(1, (0, 1)).stride())"), a new storage every time, in-place version bumps,
// NULL and hostile arguments.
#include <cstdint>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class MaskOps : public CtTest {};

ct_tensor* bools(std::vector<uint8_t> v, std::vector<int64_t> sizes) { return make_from(v, sizes, CT_BOOL); }

// The int-repeats repeat_interleave: as torch's, a view (flatten) of a clone it made itself,
// so a new storage that t does not share, with a base.
void expect_fresh_view(ct_tensor* t, const ct_tensor* src, const std::vector<int64_t>& sizes,
                       const std::vector<int64_t>& strides, const std::vector<double>& want) {
  ASSERT_NE(t, nullptr) << last_error_str();
  EXPECT_TRUE(sizes_are(t, sizes));
  EXPECT_TRUE(strides_are(t, strides));
  EXPECT_EQ(ct_shares_storage(t, src), 0);
  ct_tensor* b = ct_tensor_base(t);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(ct_shares_storage(b, src), 0);
  EXPECT_EQ(ct_shares_storage(b, t), 1);
  ct_tensor_release(b);
  EXPECT_EQ(values(t), want);
  ct_tensor_release(t);
}

TEST_F(MaskOps, MaskedSelectBroadcasts) {
  ct_tensor* x = make_iota_f32({2, 3});
  ct_tensor* m = bools({1, 0, 1}, {3});
  expect_copy(ct_masked_select(x, m), x, {4}, {1}, {0, 2, 3, 5});
  ct_tensor* m3 = bools({1, 0}, {2, 1, 1});  // a new leading dim: the broadcast shape is (2, 2, 3)
  expect_copy(ct_masked_select(x, m3), x, {6}, {1}, {0, 1, 2, 3, 4, 5});
  ct_tensor* u8 = make_from(std::vector<uint8_t>{1, 0, 1}, {3}, CT_UINT8);
  EXPECT_EQ(ct_masked_select(x, u8), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "masked_select: expected BoolTensor for mask"));
  ct_tensor* m4 = bools({1, 0, 1, 1}, {4});
  EXPECT_EQ(ct_masked_select(x, m4), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "The size of tensor a (4) must match the size of tensor b (3)"));
  EXPECT_EQ(ct_masked_select(nullptr, m), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_masked_select(x, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  for (ct_tensor* t : {x, m, m3, u8, m4}) ct_tensor_release(t);
}

TEST_F(MaskOps, MaskedFillInPlaceAndCopy) {
  ct_tensor* x = make_iota_f32({2, 3});
  ct_tensor* m = bools({0, 1, 1}, {3});
  expect_copy(ct_masked_fill(x, m, -1.0), x, {2, 3}, {3, 1}, {0, -1, -1, 3, -1, -1});
  const int64_t v0 = ct_tensor_version(x);
  void* data = ct_tensor_data(x);
  ASSERT_EQ(ct_masked_fill_(x, m, 7.0), CT_OK) << last_error_str();
  EXPECT_EQ(ct_tensor_version(x), v0 + 1);
  EXPECT_EQ(ct_tensor_data(x), data);
  EXPECT_EQ(values(x), (std::vector<double>{0, 7, 7, 3, 7, 7}));
  const int64_t one = 1;
  ct_tensor* v = ct_full(0, &one, 2.5, CT_FLOAT64);
  ASSERT_EQ(ct_masked_fill_tensor_(x, m, v), CT_OK) << last_error_str();
  EXPECT_EQ(values(x), (std::vector<double>{0, 2.5, 2.5, 3, 2.5, 2.5}));
  expect_copy(ct_masked_fill_tensor(x, m, v), x, {2, 3}, {3, 1}, {0, 2.5, 2.5, 3, 2.5, 2.5});
  // Errors: a 1-d value, a non-bool mask, a mask that does not broadcast to self, overflow.
  ct_tensor* v1 = ones({2});
  EXPECT_EQ(ct_masked_fill_tensor_(x, m, v1), CT_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "only supports a 0-dimensional value tensor"));
  ct_tensor* i64 = make_from(std::vector<int64_t>{1, 0, 1}, {3}, CT_INT64);
  EXPECT_EQ(ct_masked_fill_(x, i64, 1.0), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "but got mask with dtype long int"));
  ct_tensor* big = bools({1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1}, {2, 2, 3});
  EXPECT_EQ(ct_masked_fill_(x, big, 1.0), CT_ERR_SHAPE);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]"));
  ct_tensor* u8 = zeros({3}, CT_UINT8);
  EXPECT_EQ(ct_masked_fill_(u8, m, -1.0), CT_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "value cannot be converted to type uint8_t without overflow"));
  EXPECT_EQ(ct_tensor_version(u8), 0);
  EXPECT_EQ(ct_masked_fill_(nullptr, m, 1.0), CT_ERR_INVALID_ARGUMENT);
  for (ct_tensor* t : {x, m, v, v1, i64, big, u8}) ct_tensor_release(t);
}

TEST_F(MaskOps, MaskedScatterReadsSourceInOrder) {
  ct_tensor* x = zeros({2, 3});
  ct_tensor* m = bools({1, 0, 1}, {3});
  ct_tensor* src = make_iota_f32({2, 4});
  expect_copy(ct_masked_scatter(x, m, src), x, {2, 3}, {3, 1}, {0, 0, 1, 2, 0, 3});
  ASSERT_EQ(ct_masked_scatter_(x, m, src), CT_OK) << last_error_str();
  EXPECT_EQ(ct_tensor_version(x), 1);
  EXPECT_EQ(values(x), (std::vector<double>{0, 0, 1, 2, 0, 3}));
  ct_tensor* small = ones({3});
  EXPECT_EQ(ct_masked_scatter_(x, m, small), CT_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "Number of elements of source < number of ones in mask"));
  ct_tensor* f64 = ones({8}, CT_FLOAT64);
  EXPECT_EQ(ct_masked_scatter_(x, m, f64), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "expected self and source to have same dtypes but gotFloat and Double"));
  ct_tensor* row = zeros({3});
  ct_tensor* e = expand(row, {2, 3});
  EXPECT_EQ(ct_masked_scatter_(e, m, src), CT_ERR_OVERLAP);
  EXPECT_EQ(ct_tensor_version(e), 0);
  for (ct_tensor* t : {x, m, src, small, f64, row, e}) ct_tensor_release(t);
}

TEST_F(MaskOps, NonzeroIsColumnMajor) {
  ct_tensor* x = make_from(std::vector<float>{0, 1, 0, 2, 0, 3}, {2, 3}, CT_FLOAT32);
  // rows (0,1), (1,0), (1,2); values() reads in C order
  expect_copy(ct_nonzero(x), x, {3, 2}, {1, 3}, {0, 1, 1, 0, 1, 2});
  ct_tensor* nz = ct_argwhere(x);
  ASSERT_NE(nz, nullptr);
  EXPECT_EQ(values(nz), (std::vector<double>{0, 1, 1, 0, 1, 2}));
  EXPECT_EQ(ct_tensor_dtype(nz), CT_INT64);
  ct_tensor_release(nz);
  ct_tensor* z = zeros({0, 3});
  expect_copy(ct_nonzero(z), z, {0, 2}, {1, 0}, {});
  const int64_t none = 0;
  ct_tensor* s = ct_full(0, &none, 5.0, CT_FLOAT32);
  expect_copy(ct_nonzero(s), s, {1, 0}, {1, 1}, {});
  for (ct_tensor* t : {x, z, s}) ct_tensor_release(t);
}

TEST_F(MaskOps, Rot90Geometry) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  const int64_t d[2] = {0, 1};
  expect_copy(ct_rot90(x, 1, 2, d), x, {3, 2}, {1, 3}, {2, 5, 1, 4, 0, 3});
  expect_copy(ct_rot90(x, 2, 2, d), x, {2, 3}, {3, 1}, {5, 4, 3, 2, 1, 0});
  expect_copy(ct_rot90(x, -1, 2, d), x, {3, 2}, {1, 3}, {3, 0, 4, 1, 5, 2});
  expect_copy(ct_rot90(x, 4, 2, d), x, {2, 3}, {3, 1}, {0, 1, 2, 3, 4, 5});
  expect_copy(ct_rot90(x, INT64_MIN, 2, d), x, {2, 3}, {3, 1}, {0, 1, 2, 3, 4, 5});
  const int64_t same[2] = {0, -2}, out[2] = {0, 5};
  EXPECT_EQ(ct_rot90(x, 1, 2, same), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2"));
  EXPECT_EQ(ct_rot90(x, 1, 2, out), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  EXPECT_EQ(ct_rot90(x, 1, 1, d), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "expected total rotation dims == 2, but got dims = 1"));
  EXPECT_EQ(ct_rot90(x, 1, 2, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_EQ(ct_rot90(x, 1, -1, d), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  ct_tensor_release(x);
}

TEST_F(MaskOps, RepeatInterleaveForms) {
  ct_tensor* x = make_iota_f32({2, 2});  // [[0,1],[2,3]]
  const int64_t d1 = 1, d0 = 0, six = 6, five = 5;
  expect_fresh_view(ct_repeat_interleave(x, 2, nullptr, nullptr), x, {8}, {1}, {0, 0, 1, 1, 2, 2, 3, 3});
  expect_fresh_view(ct_repeat_interleave(x, 2, &d1, nullptr), x, {2, 4}, {4, 1}, {0, 0, 1, 1, 2, 2, 3, 3});
  ct_tensor* xt = ct_t(x);
  expect_fresh_view(ct_repeat_interleave(xt, 1, &d0, nullptr), x, {2, 2}, {2, 1}, {0, 2, 1, 3});
  EXPECT_EQ(ct_repeat_interleave(x, 2, &d0, &five), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "repeat_interleave: Invalid output_size, expected 4 but got 5"));
  EXPECT_EQ(ct_repeat_interleave(x, -1, &d0, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "Repeats must be non-negative"));
  ct_tensor* counts = index64({1, 2});
  expect_copy(ct_repeat_interleave_tensor(x, counts, &d0, nullptr), x, {3, 2}, {2, 1}, {0, 1, 2, 3, 2, 3});
  ct_tensor* idx = ct_repeat_interleave_repeats(counts, nullptr);
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(values(idx), (std::vector<double>{0, 1, 1}));
  ct_tensor_release(idx);
  ct_tensor* c32 = index32({2, 0, 1});
  idx = ct_repeat_interleave_repeats(c32, nullptr);
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(ct_tensor_dtype(idx), CT_INT32);
  EXPECT_EQ(values(idx), (std::vector<double>{0, 0, 2}));
  ct_tensor_release(idx);
  EXPECT_EQ(ct_repeat_interleave_repeats(counts, &six), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "allocated size does not match required size"));
  ct_tensor* neg = index64({1, -1});
  EXPECT_EQ(ct_repeat_interleave_repeats(neg, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "repeats can not be negative"));
  EXPECT_EQ(ct_repeat_interleave_repeats(x, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "\"repeat_interleave_cpu\" not implemented for 'Float'"));
  EXPECT_EQ(ct_repeat_interleave_tensor(x, c32, &d1, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT,
                           "repeats must have the same size as input along dim, but got repeats.size(0) = 3 and "
                           "input.size(1) = 2"));
  for (ct_tensor* t : {x, xt, counts, c32, neg}) ct_tensor_release(t);
}

}  // namespace
