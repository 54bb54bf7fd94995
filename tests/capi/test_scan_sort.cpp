// ct_cumsum(_), ct_cumprod(_), ct_sort, ct_argsort, ct_topk and the ct_clamp family through the
// header: values against PyTorch 2.13 (e.g. python -c "import torch;
// print(torch.tensor([3., float('nan'), 1.]).sort(descending=True))"), result dtypes, a new
// storage every time, in place with one version bump, errors with their statuses.
#include <cmath>
#include <cstdint>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class ScanSort : public CtTest {};

// t is a new tensor (own storage) of the given sizes, dtype and values; released here.
void expect_new(ct_tensor* t, const ct_tensor* src, const std::vector<int64_t>& sizes, ct_dtype d,
                const std::vector<double>& want) {
  ASSERT_NE(t, nullptr) << last_error_str();
  EXPECT_TRUE(sizes_are(t, sizes));
  EXPECT_EQ(ct_tensor_dtype(t), d);
  EXPECT_EQ(ct_shares_storage(t, src), 0);
  EXPECT_TRUE(is_not_view(t));
  const std::vector<double> got = values(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_EQ(got[i], want[i]) << i;
  }
  ct_tensor_release(t);
}

TEST_F(ScanSort, CumsumCumprodAlongDims) {
  ct_tensor* x = make_iota_f32({2, 3});  // [[0,1,2],[3,4,5]]
  expect_new(ct_cumsum(x, 1, -1), x, {2, 3}, CT_FLOAT32, {0, 1, 3, 3, 7, 12});
  expect_new(ct_cumsum(x, -2, -1), x, {2, 3}, CT_FLOAT32, {0, 1, 2, 3, 5, 7});
  expect_new(ct_cumprod(x, 0, CT_FLOAT64), x, {2, 3}, CT_FLOAT64, {0, 1, 2, 0, 4, 10});
  ct_tensor* xt = ct_t(x);  // [[0,3],[1,4],[2,5]]
  expect_new(ct_cumsum(xt, 0, -1), x, {3, 2}, CT_FLOAT32, {0, 3, 1, 7, 3, 12});
  ct_tensor_release(xt);
  ct_tensor* i = make_from(std::vector<int8_t>{100, 100, -3}, {3}, CT_INT8);
  expect_new(ct_cumsum(i, 0, -1), i, {3}, CT_INT64, {100, 200, 197});  // ints promote to int64
  expect_new(ct_cumprod(i, 0, -1), i, {3}, CT_INT64, {100, 10000, -30000});
  ct_tensor_release(i);
  ct_tensor_release(x);
}

TEST_F(ScanSort, ScanInPlaceKeepsStorageAndBumpsVersion) {
  ct_tensor* x = make_iota_f32({4});
  void* data = ct_tensor_data(x);
  const int64_t v = ct_tensor_version(x);
  ASSERT_EQ(ct_cumsum_(x, 0, -1), CT_OK) << last_error_str();
  EXPECT_EQ(ct_tensor_data(x), data);
  EXPECT_EQ(ct_tensor_version(x), v + 1);
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 3, 6}));
  EXPECT_TRUE(expect_error(ct_cumprod_(x, 0, CT_FLOAT64), "should match"));
  ct_tensor_release(x);
}

TEST_F(ScanSort, ScanErrors) {
  ct_tensor* x = make_iota_f32({2, 3});
  EXPECT_EQ(ct_cumsum(x, 2, -1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  EXPECT_EQ(ct_cumsum(x, 0, CT_BOOL), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "not implemented for 'Bool'"));
  EXPECT_EQ(ct_cumsum(x, 0, 42), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE));
  EXPECT_EQ(ct_cumsum(nullptr, 0, -1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_NE(ct_cumprod_(nullptr, 0, -1), CT_OK);
  ct_tensor_release(x);
}

TEST_F(ScanSort, SortNanLargestAndStable) {
  const double nan = std::nan("");
  ct_tensor* x = make_from(std::vector<float>{3.f, float(nan), 1.f, 3.f, -1.f}, {5}, CT_FLOAT32);
  ct_tensor* idx = nullptr;
  expect_new(ct_sort(x, 0, 0, 1, &idx), x, {5}, CT_FLOAT32, {-1, 1, 3, 3, nan});
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(values(idx), (std::vector<double>{4, 2, 0, 3, 1}));
  ct_tensor_release(idx);
  expect_new(ct_sort(x, -1, 1, 1, &idx), x, {5}, CT_FLOAT32, {nan, 3, 3, 1, -1});
  EXPECT_EQ(values(idx), (std::vector<double>{1, 0, 3, 2, 4}));  // stable when descending too
  ct_tensor_release(idx);
  expect_new(ct_argsort(x, 0, 0, 1), x, {5}, CT_INT64, {4, 2, 0, 3, 1});
  expect_new(ct_sort(x, 0, 0, 0, nullptr), x, {5}, CT_FLOAT32, {-1, 1, 3, 3, nan});  // indices optional
  idx = nullptr;
  EXPECT_EQ(ct_sort(x, 1, 0, 0, &idx), nullptr);
  EXPECT_EQ(idx, nullptr);  // untouched on failure
  EXPECT_TRUE(expect_error(CT_ERR_INDEX, "Dimension out of range"));
  ct_tensor_release(x);
}

TEST_F(ScanSort, TopkValuesIndicesAndRange) {
  ct_tensor* x = make_from(std::vector<double>{5, 1, 4, 2, 3, 0}, {2, 3}, CT_FLOAT64);
  ct_tensor* idx = nullptr;
  expect_new(ct_topk(x, 2, 1, 1, 1, &idx), x, {2, 2}, CT_FLOAT64, {5, 4, 3, 2});
  EXPECT_EQ(values(idx), (std::vector<double>{0, 2, 1, 0}));
  ct_tensor_release(idx);
  expect_new(ct_topk(x, 1, 0, 0, 1, &idx), x, {1, 3}, CT_FLOAT64, {2, 1, 0});
  ct_tensor_release(idx);
  expect_new(ct_topk(x, 0, 1, 1, 1, nullptr), x, {2, 0}, CT_FLOAT64, {});
  EXPECT_EQ(ct_topk(x, 4, 1, 1, 1, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "selected index k out of range"));
  EXPECT_EQ(ct_topk(x, -1, 1, 1, 1, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "selected index k out of range"));
  ct_tensor_release(x);
}

TEST_F(ScanSort, ClampScalarsDtypesAndInPlace) {
  ct_tensor* x = make_from(std::vector<int32_t>{-3, 0, 2, 7}, {4}, CT_INT32);
  expect_new(ct_clamp(x, 1, 0, 1, 4, 1), x, {4}, CT_INT32, {0, 0, 2, 4});
  expect_new(ct_clamp(x, 1, 0.5, 0, 0, 0), x, {4}, CT_FLOAT32, {0.5, 0.5, 2, 7});  // a float bound promotes
  expect_new(ct_clamp(x, 1, 5, 1, 1, 1), x, {4}, CT_INT32, {1, 1, 1, 1});  // min > max: max wins
  expect_new(ct_clamp_min(x, 1, 1), x, {4}, CT_INT32, {1, 1, 2, 7});
  expect_new(ct_clamp_max(x, 1, 1), x, {4}, CT_INT32, {-3, 0, 1, 1});
  EXPECT_EQ(ct_clamp(x, 0, 0, 0, 0, 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "At least one of 'min' or 'max' must not be None"));
  EXPECT_EQ(ct_clamp(x, 1, 0.5, 0, 0, 1), nullptr);  // integral flag with a fraction
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  EXPECT_TRUE(expect_error(ct_clamp_(x, 1, 0.5, 0, 0, 0), "can't be cast to the desired output type int"));
  const int64_t v = ct_tensor_version(x);
  ASSERT_EQ(ct_clamp_(x, 1, 0, 1, 3, 1), CT_OK) << last_error_str();
  EXPECT_EQ(ct_tensor_version(x), v + 1);
  EXPECT_EQ(values(x), (std::vector<double>{0, 0, 2, 3}));
  ct_tensor* u = make_from(std::vector<uint8_t>{1, 2}, {2}, CT_UINT8);
  EXPECT_EQ(ct_clamp(u, 1, 0, 1, 300, 1), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "value cannot be converted to type uint8_t without overflow"));
  ct_tensor_release(u);
  ct_tensor* l = make_from(std::vector<int64_t>{1, 2}, {2}, CT_INT64);
  EXPECT_EQ(ct_clamp(l, 1, 9223372036854775808.0, 0, 0, 1), nullptr);  // 2^63: past int64
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "value cannot be converted to type int64_t without overflow"));
  ct_tensor_release(l);
  ct_tensor* b = make_from(std::vector<uint8_t>{1, 0}, {2}, CT_BOOL);
  EXPECT_EQ(ct_topk(b, 1, 0, 1, 1, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "topk does not support bool dtypes on CPU"));
  ct_tensor_release(b);
  ct_tensor_release(x);
}

TEST_F(ScanSort, ClampTensorBoundsBroadcastAndNan) {
  const double nan = std::nan("");
  ct_tensor* x = make_from(std::vector<float>{-1.f, 0.5f, float(nan), 9.f}, {2, 2}, CT_FLOAT32);
  ct_tensor* lo = make_from(std::vector<double>{0, 1}, {2}, CT_FLOAT64);
  expect_new(ct_clamp_tensor(x, lo, nullptr), x, {2, 2}, CT_FLOAT64, {0, 1, nan, 9});
  ct_tensor* hi = make_from(std::vector<float>{2.f}, {1, 1, 1}, CT_FLOAT32);
  expect_new(ct_clamp_tensor(x, nullptr, hi), x, {1, 2, 2}, CT_FLOAT32, {-1, 0.5, nan, 2});
  expect_new(ct_clamp_max_tensor(x, hi), x, {1, 2, 2}, CT_FLOAT32, {-1, 0.5, nan, 2});
  EXPECT_EQ(ct_clamp_tensor(x, nullptr, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "must not be None"));
  EXPECT_TRUE(expect_error(ct_clamp_tensor_(x, nullptr, hi), "doesn't match the broadcast shape"));
  ct_tensor* xi = make_from(std::vector<int32_t>{-1, 5}, {2}, CT_INT32);
  EXPECT_TRUE(expect_error(ct_clamp_min_tensor_(xi, lo), "result type Double can't be cast to the desired output type Int"));
  ct_tensor_release(xi);
  ct_tensor* bad = make_from(std::vector<float>{0.f, 0.f, 0.f}, {3}, CT_FLOAT32);
  EXPECT_EQ(ct_clamp_tensor(x, bad, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE));
  EXPECT_EQ(ct_clamp_min_tensor(x, nullptr), nullptr);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT));
  for (ct_tensor* t : {x, lo, hi, bad}) ct_tensor_release(t);
}

}  // namespace
