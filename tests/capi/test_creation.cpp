// Creation: empty/zeros/ones/full/arange/from_data/from_blob for every dtype, and their errors.
// Expected values were checked against PyTorch 1.13 (commands in the comments).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <thread>
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

constexpr ct_dtype kAllDtypes[] = {CT_BOOL,    CT_UINT8,    CT_INT8,    CT_INT16,   CT_INT32,
                                   CT_INT64,   CT_FLOAT16,  CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64};

struct DtypeInfo {
  ct_dtype d;
  const char* name;
  int64_t itemsize;
};
// torch: {str(d): torch.empty(0, dtype=d).element_size() for d in [...]}
constexpr DtypeInfo kInfo[] = {
    {CT_BOOL, "bool", 1},         {CT_UINT8, "uint8", 1},       {CT_INT8, "int8", 1},
    {CT_INT16, "int16", 2},       {CT_INT32, "int32", 4},       {CT_INT64, "int64", 8},
    {CT_FLOAT16, "float16", 2},   {CT_BFLOAT16, "bfloat16", 2}, {CT_FLOAT32, "float32", 4},
    {CT_FLOAT64, "float64", 8},
};

const ct_dtype kBadDtype = static_cast<ct_dtype>(42);

class Creation : public CtTest {};
class CreationDtype : public CtTest, public ::testing::WithParamInterface<ct_dtype> {};

std::string dtype_param_name(const ::testing::TestParamInfo<ct_dtype>& info) {
  const char* n = ct_dtype_name(info.param);
  return n ? n : "invalid";
}

}  // namespace

// ---- process-wide queries ----------------------------------------------------------------

TEST_F(Creation, DtypeNamesAndItemsizes) {
  for (const DtypeInfo& i : kInfo) {
    ASSERT_NE(ct_dtype_name(i.d), nullptr) << int(i.d);
    EXPECT_STREQ(ct_dtype_name(i.d), i.name);
    EXPECT_EQ(ct_dtype_itemsize(i.d), i.itemsize) << i.name;
  }
  // The enum numbers are ABI.
  EXPECT_EQ(int(CT_BOOL), 0);
  EXPECT_EQ(int(CT_FLOAT64), 9);
  EXPECT_EQ(int(CT_COMPLEX64), 10);
  EXPECT_EQ(int(CT_COMPLEX128), 11);
  EXPECT_EQ(int(CT_ERR_INTERNAL), 9);
}

TEST_F(Creation, InvalidDtypeQueries) {
  CT_EXPECT_FAIL(ct_dtype_name(kBadDtype), static_cast<const char*>(nullptr), CT_ERR_DTYPE, "");
  CT_EXPECT_FAIL(ct_dtype_itemsize(kBadDtype), int64_t(-1), CT_ERR_DTYPE, "");
  CT_EXPECT_FAIL(ct_dtype_itemsize(static_cast<ct_dtype>(-1)), int64_t(-1), CT_ERR_DTYPE, "");
  CT_EXPECT_FAIL(ct_dtype_name(static_cast<ct_dtype>(12)), static_cast<const char*>(nullptr), CT_ERR_DTYPE, "");
}

TEST_F(Creation, StatusNamesAndVersion) {
  EXPECT_STREQ(ct_status_name(CT_OK), "CT_OK");
  EXPECT_STREQ(ct_status_name(CT_ERR_INVALID_ARGUMENT), "CT_ERR_INVALID_ARGUMENT");
  EXPECT_STREQ(ct_status_name(CT_ERR_NOT_VIEWABLE), "CT_ERR_NOT_VIEWABLE");
  EXPECT_STREQ(ct_status_name(CT_ERR_INTERNAL), "CT_ERR_INTERNAL");
  EXPECT_STREQ(ct_status_name(static_cast<ct_status>(77)), "CT_UNKNOWN_STATUS");
  EXPECT_STREQ(ct_version(), CT_VERSION_STRING);
  EXPECT_TRUE(CT_VERSION_CHECK(0, 1, 0));
}

TEST_F(Creation, LastErrorIsKeptBySuccessfulCallsAndCleared) {
  ct_clear_error();
  EXPECT_EQ(ct_last_status(), CT_OK);
  EXPECT_STREQ(ct_last_error(), "");
  CT_EXPECT_NULL(zeros({-1}), CT_ERR_SHAPE, "");
  const std::string msg = ct_last_error();
  CT_MAKE(ok, zeros({2}));  // success does not clear
  EXPECT_EQ(ct_last_status(), CT_ERR_SHAPE);
  EXPECT_EQ(std::string(ct_last_error()), msg);
  ct_clear_error();
  EXPECT_EQ(ct_last_status(), CT_OK);
  EXPECT_STREQ(ct_last_error(), "");
}

TEST_F(Creation, LastErrorIsPerThread) {
  ct_clear_error();
  std::string other_msg;
  ct_status other_status = CT_OK;
  std::thread th([&] {
    ct_tensor* r = zeros({-2});
    ct_tensor_release(r);
    other_status = ct_last_status();
    other_msg = ct_last_error();
  });
  th.join();
  EXPECT_EQ(other_status, CT_ERR_SHAPE);
  EXPECT_NE(other_msg, "");
  EXPECT_EQ(ct_last_status(), CT_OK) << "another thread's failure is not this thread's";
  EXPECT_STREQ(ct_last_error(), "");
}

// ---- every dtype ------------------------------------------------------------------------

TEST_P(CreationDtype, EmptyLayout) {
  const ct_dtype d = GetParam();
  const int64_t item = ct_dtype_itemsize(d);
  CT_MAKE(t, ctt::empty({2, 3}, d));
  EXPECT_EQ(ct_tensor_dtype(t), d);
  EXPECT_TRUE(geometry_is(t, {2, 3}, {3, 1}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(t), 1);
  EXPECT_TRUE(is_not_view(t));
  EXPECT_EQ(ct_tensor_version(t), 0);
  EXPECT_EQ(ct_tensor_refcount(t), 1);
  ASSERT_NE(ct_tensor_data(t), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ct_tensor_data(t)) % 64, 0u) << "ct_empty must be 64-byte aligned";
  StorageRef s(ct_tensor_storage(t));
  ASSERT_NE(s.get(), nullptr) << last_error_str();
  EXPECT_EQ(ct_storage_nbytes(s), 6 * item);
  EXPECT_EQ(ct_storage_data(s), ct_tensor_data(t));
  EXPECT_EQ(ct_storage_id(s), ct_tensor_storage_id(t));
  EXPECT_NE(ct_storage_id(s), 0u);
}

TEST_P(CreationDtype, ZerosAreAllZeroBytes) {
  const ct_dtype d = GetParam();
  const int64_t item = ct_dtype_itemsize(d);
  CT_MAKE(t, ctt::zeros({3, 5}, d));
  EXPECT_TRUE(geometry_is(t, {3, 5}, {5, 1}, 0));
  EXPECT_EQ(ct_tensor_dtype(t), d);
  const unsigned char* p = static_cast<const unsigned char*>(ct_tensor_data(t));
  ASSERT_NE(p, nullptr);
  for (int64_t i = 0; i < 15 * item; ++i) ASSERT_EQ(p[i], 0) << "byte " << i;
}

TEST_P(CreationDtype, OnesHaveTheDtypesOne) {
  const ct_dtype d = GetParam();
  CT_MAKE(t, ctt::ones({4}, d));
  EXPECT_TRUE(geometry_is(t, {4}, {1}, 0));
  for (double v : values(t)) EXPECT_EQ(v, 1.0);
  const unsigned char* p = static_cast<const unsigned char*>(ct_tensor_data(t));
  // torch.ones(1, dtype=torch.float16).view(torch.int16) -> 0x3c00; bfloat16 -> 0x3f80
  if (d == CT_FLOAT16) { uint16_t b; std::memcpy(&b, p, 2); EXPECT_EQ(b, 0x3c00); }
  if (d == CT_BFLOAT16) { uint16_t b; std::memcpy(&b, p, 2); EXPECT_EQ(b, 0x3f80); }
  if (d == CT_BOOL) {
    EXPECT_EQ(p[0], 1);
  }
}

TEST_P(CreationDtype, FullConvertsTheValue) {
  const ct_dtype d = GetParam();
  CT_MAKE(t, ctt::full({2, 2}, 2.5, d));
  EXPECT_TRUE(geometry_is(t, {2, 2}, {2, 1}, 0));
  // torch.full((2,2), 2.5, dtype=d): bool True, integers 2 (truncation), floats 2.5
  double want = 2.5;
  if (d == CT_BOOL) want = 1.0;
  else if (d <= CT_INT64) want = 2.0;
  for (double v : values(t)) EXPECT_EQ(v, want);
}

TEST_P(CreationDtype, FromDataCopies) {
  const ct_dtype d = GetParam();
  const int64_t item = ct_dtype_itemsize(d);
  std::vector<unsigned char> src(size_t(6 * item));
  for (size_t i = 0; i < src.size(); ++i) src[i] = (d == CT_BOOL) ? (i % 2) : static_cast<unsigned char>(i * 7 + 1);
  const int64_t sizes[] = {3, 2};
  CT_MAKE(t, ct_from_data(src.data(), 2, sizes, d));
  EXPECT_TRUE(geometry_is(t, {3, 2}, {2, 1}, 0));
  EXPECT_EQ(ct_tensor_dtype(t), d);
  EXPECT_TRUE(is_not_view(t));
  ASSERT_NE(ct_tensor_data(t), nullptr);
  EXPECT_NE(ct_tensor_data(t), static_cast<void*>(src.data())) << "ct_from_data must copy";
  EXPECT_EQ(std::memcmp(ct_tensor_data(t), src.data(), src.size()), 0);
  const std::vector<unsigned char> before(src);
  std::memset(src.data(), 0, src.size());  // the tensor does not see later changes
  EXPECT_EQ(std::memcmp(ct_tensor_data(t), before.data(), before.size()), 0);
}

TEST_P(CreationDtype, ZeroDimAndZeroSize) {
  const ct_dtype d = GetParam();
  CT_MAKE(s, ct_full(0, nullptr, 1.0, d));
  EXPECT_EQ(ct_tensor_ndim(s), 0);
  EXPECT_EQ(ct_tensor_numel(s), 1);
  EXPECT_NE(ct_tensor_sizes(s), nullptr);  // never NULL for a valid tensor, even 0-dim
  EXPECT_NE(ct_tensor_strides(s), nullptr);
  EXPECT_EQ(ct_tensor_is_contiguous(s), 1);
  EXPECT_EQ(ct_tensor_offset(s), 0);
  ASSERT_NE(ct_tensor_data(s), nullptr);
  EXPECT_EQ(values(s), std::vector<double>{1.0});

  // torch.empty(2, 0, 3).stride() == (3, 3, 1); is_contiguous() True
  CT_MAKE(z, ctt::zeros({2, 0, 3}, d));
  EXPECT_TRUE(geometry_is(z, {2, 0, 3}, {3, 3, 1}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(z), 1);
  EXPECT_EQ(ct_tensor_data(z), nullptr);  // no elements: NULL data
  StorageRef st(ct_tensor_storage(z));
  ASSERT_NE(st.get(), nullptr);
  EXPECT_EQ(ct_storage_nbytes(st), 0);
}

TEST_P(CreationDtype, EveryCreationGetsANewStorage) {
  const ct_dtype d = GetParam();
  std::set<uint64_t> ids;
  const int64_t n = 3;
  std::vector<unsigned char> buf(64, 0);
  std::vector<TensorRef> ts;
  ts.emplace_back(ctt::empty({3}, d));
  ts.emplace_back(ctt::zeros({3}, d));
  ts.emplace_back(ctt::ones({3}, d));
  ts.emplace_back(ctt::full({3}, 1.0, d));
  ts.emplace_back(ct_from_data(buf.data(), 1, &n, d));
  ts.emplace_back(ct_from_blob(buf.data(), 1, &n, nullptr, d, nullptr, nullptr));
  ts.emplace_back(ct_from_blob(buf.data(), 1, &n, nullptr, d, nullptr, nullptr));
  if (d != CT_BOOL) ts.emplace_back(ct_arange(0, 3, 1, d));
  for (auto& t : ts) {
    ASSERT_NE(t.get(), nullptr) << last_error_str();
    EXPECT_EQ(ct_tensor_offset(t), 0);
    EXPECT_EQ(ct_tensor_is_contiguous(t), 1);
    EXPECT_EQ(ct_tensor_dtype(t), d);
    EXPECT_EQ(ct_tensor_is_view(t), 0);
    ids.insert(ct_tensor_storage_id(t));
  }
  EXPECT_EQ(ids.size(), ts.size()) << "storage ids must be distinct";
  EXPECT_EQ(ids.count(0), 0u);
  // Ids are never reused, even after the storage dies.
  const uint64_t old = ct_tensor_storage_id(ts[0]);
  ts[0].reset();
  CT_MAKE(again, ctt::empty({3}, d));
  EXPECT_NE(ct_tensor_storage_id(again), old);
  EXPECT_EQ(ids.count(ct_tensor_storage_id(again)), 0u);
}

TEST_P(CreationDtype, InvalidArgumentsFailWithoutLeaking) {
  const ct_dtype d = GetParam();
  const int64_t neg[] = {2, -1};
  // torch.empty(2, -1): "Trying to create tensor with negative dimension -1: [2, -1]"
  CT_EXPECT_NULL(ct_empty(2, neg, d), CT_ERR_SHAPE, "negative dimension -1");
  CT_EXPECT_NULL(ct_zeros(2, neg, d), CT_ERR_SHAPE, "negative dimension -1");
  CT_EXPECT_NULL(ct_ones(2, neg, d), CT_ERR_SHAPE, "negative dimension -1");
  CT_EXPECT_NULL(ct_full(2, neg, 1.0, d), CT_ERR_SHAPE, "negative dimension -1");
  CT_EXPECT_NULL(ct_empty(2, nullptr, d), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_zeros(1, nullptr, d), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_ones(3, nullptr, d), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_full(1, nullptr, 0.0, d), CT_ERR_INVALID_ARGUMENT, "");
  const int64_t one[] = {1};
  CT_EXPECT_NULL(ct_empty(-1, one, d), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_zeros(-1, one, d), CT_ERR_INVALID_ARGUMENT, "");
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, CreationDtype, ::testing::ValuesIn(kAllDtypes), dtype_param_name);

// ---- values of particular conversions -----------------------------------------------------

TEST_F(Creation, FullHalfAndBFloat16Bits) {
  // hex(torch.full((1,), v, dtype=torch.float16).view(torch.int16).item() & 0xffff)
  struct Case { double v; uint16_t f16, bf16; };
  const Case cases[] = {{0.1, 0x2e66, 0x3dcd}, {2.5, 0x4100, 0x4020}, {-2.0, 0xc000, 0xc000},
                        {-7.9, 0xc7e6, 0xc0fd}, {65504.0, 0x7bff, 0x4780}};
  for (const Case& c : cases) {
    CT_MAKE(h, ctt::full({1}, c.v, CT_FLOAT16));
    CT_MAKE(b, ctt::full({1}, c.v, CT_BFLOAT16));
    uint16_t hb, bb;
    std::memcpy(&hb, ct_tensor_data(h), 2);
    std::memcpy(&bb, ct_tensor_data(b), 2);
    EXPECT_EQ(hb, c.f16) << "float16 of " << c.v;
    EXPECT_EQ(bb, c.bf16) << "bfloat16 of " << c.v;
  }
}

TEST_F(Creation, FullTruncatesTowardZeroAndBoolIsNonZero) {
  // torch.full((2,), -7.9, dtype=torch.int64) -> [-7, -7]; dtype=torch.int8, -3.5 -> -3;
  // torch.full((2,), 0., dtype=torch.bool) -> False; 255. to uint8 -> 255
  CT_MAKE(a, ctt::full({2}, -7.9, CT_INT64));
  EXPECT_EQ(values(a), (std::vector<double>{-7, -7}));
  CT_MAKE(b, ctt::full({2}, 7.9, CT_INT32));
  EXPECT_EQ(values(b), (std::vector<double>{7, 7}));
  CT_MAKE(c, ctt::full({1}, -3.5, CT_INT8));
  EXPECT_EQ(values(c), (std::vector<double>{-3}));
  CT_MAKE(e, ctt::full({1}, 255.0, CT_UINT8));
  EXPECT_EQ(values(e), (std::vector<double>{255}));
  CT_MAKE(f, ctt::full({2}, 0.0, CT_BOOL));
  EXPECT_EQ(values(f), (std::vector<double>{0, 0}));
  CT_MAKE(g, ctt::full({2}, 0.25, CT_BOOL));
  EXPECT_EQ(values(g), (std::vector<double>{1, 1}));
  CT_MAKE(h, ctt::full({1}, 0.1, CT_FLOAT64));
  EXPECT_EQ(values(h)[0], 0.1);
  CT_MAKE(k, ctt::full({1}, 0.1, CT_FLOAT32));
  EXPECT_EQ(values(k)[0], double(0.1f));
}

// ---- arange -------------------------------------------------------------------------------

TEST_F(Creation, ArangeCountsAsTorch) {
  // torch.arange(start, end, step, dtype=torch.float64).numel() / .tolist()
  struct Case { double start, end, step; int64_t n; };
  const Case cases[] = {
      {0, 1, 0.3, 4},       {10, 0, -3, 4},        {0, 1, 0.1, 10},     {1, 2.5, 0.5, 3},
      {1, 1.3, 0.1, 4},     // (1.3 - 1) / 0.1 = 3.0000000000000004: four elements, as torch
      {0, 0.3, 0.1, 3},     {-1, -1.3, -0.1, 4},   {0, -1, -0.3, 4},    {3, 3, 1, 0},
      {5, 0, -1, 5},        {0, 10, 3, 4},         {-1, 1, 0.25, 8},    {1, 0, -0.25, 4},
      {0, 1, 1.0 / 3.0, 3}, {0, 5, 1, 5},
  };
  for (const Case& c : cases) {
    for (ct_dtype d : {CT_FLOAT64, CT_FLOAT32}) {
      TensorRef t(ct_arange(c.start, c.end, c.step, d));
      ASSERT_NE(t.get(), nullptr) << "arange(" << c.start << ", " << c.end << ", " << c.step << "): "
                                  << last_error_str();
      EXPECT_EQ(ct_tensor_dtype(t), d);
      EXPECT_TRUE(geometry_is(t, {c.n}, {1}, 0))
          << "arange(" << c.start << ", " << c.end << ", " << c.step << ") " << ct_dtype_name(d);
      EXPECT_EQ(ct_tensor_is_contiguous(t), 1);
      const auto v = values(t);
      for (int64_t i = 0; i < int64_t(v.size()); ++i) {
        const double want = c.start + double(i) * c.step;
        if (d == CT_FLOAT64) EXPECT_DOUBLE_EQ(v[size_t(i)], want) << i;
        else EXPECT_FLOAT_EQ(float(v[size_t(i)]), float(want)) << i;
      }
    }
  }
}

TEST_F(Creation, ArangeIntegerAndHalfDtypes) {
  // torch.arange(0, 10, 3, dtype=torch.int32) -> [0, 3, 6, 9]
  CT_MAKE(a, ct_arange(0, 10, 3, CT_INT32));
  EXPECT_EQ(values(a), (std::vector<double>{0, 3, 6, 9}));
  // torch.arange(10, 0, -3, dtype=torch.int64) -> [10, 7, 4, 1]
  CT_MAKE(b, ct_arange(10, 0, -3, CT_INT64));
  EXPECT_EQ(values(b), (std::vector<double>{10, 7, 4, 1}));
  // torch.arange(-3, 3, 2, dtype=torch.int8) -> [-3, -1, 1]
  CT_MAKE(c, ct_arange(-3, 3, 2, CT_INT8));
  EXPECT_EQ(values(c), (std::vector<double>{-3, -1, 1}));
  CT_MAKE(u, ct_arange(0, 4, 1, CT_UINT8));
  EXPECT_EQ(values(u), (std::vector<double>{0, 1, 2, 3}));
  CT_MAKE(s, ct_arange(0, 4, 1, CT_INT16));
  EXPECT_EQ(values(s), (std::vector<double>{0, 1, 2, 3}));
  CT_MAKE(h, ct_arange(0, 3, 1, CT_FLOAT16));
  EXPECT_EQ(values(h), (std::vector<double>{0, 1, 2}));
  CT_MAKE(bf, ct_arange(0, 3, 1, CT_BFLOAT16));
  EXPECT_EQ(values(bf), (std::vector<double>{0, 1, 2}));
}

TEST_F(Creation, ArangeErrors) {
  // torch.arange(0, 1, 0): "step must be nonzero"
  CT_EXPECT_NULL(ct_arange(0, 1, 0, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "step must be nonzero");
  // torch.arange(0, -1, 0.5): "upper bound and lower bound inconsistent with step sign"
  CT_EXPECT_NULL(ct_arange(0, -1, 0.5, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT,
                 "upper bound and lower bound inconsistent with step sign");
  CT_EXPECT_NULL(ct_arange(0, 5, -1, CT_INT64), CT_ERR_INVALID_ARGUMENT, "inconsistent with step sign");
  // torch.arange(0, float('inf'), 1): "unsupported range: 0 -> inf"
  CT_EXPECT_NULL(ct_arange(0, INFINITY, 1, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_arange(NAN, 1, 1, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_arange(0, 1, NAN, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_arange(0, 3, 1, kBadDtype), CT_ERR_DTYPE, "");
}

// ---- errors -------------------------------------------------------------------------------

TEST_F(Creation, InvalidDtype) {
  const int64_t s[] = {2};
  float buf[2] = {0, 0};
  CT_EXPECT_NULL(ct_empty(1, s, kBadDtype), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_zeros(1, s, kBadDtype), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_ones(1, s, kBadDtype), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_full(1, s, 1.0, kBadDtype), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_from_data(buf, 1, s, kBadDtype), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_empty(1, s, static_cast<ct_dtype>(-1)), CT_ERR_DTYPE, "");
}

TEST_F(Creation, TooManyDims) {
  std::vector<int64_t> ones64(CT_MAX_DIMS, 1), ones65(CT_MAX_DIMS + 1, 1);
  CT_MAKE(ok, ct_zeros(CT_MAX_DIMS, ones64.data(), CT_FLOAT32));  // exactly CT_MAX_DIMS is allowed
  EXPECT_EQ(ct_tensor_ndim(ok), CT_MAX_DIMS);
  EXPECT_EQ(ct_tensor_numel(ok), 1);
  EXPECT_EQ(ct_tensor_size(ok, CT_MAX_DIMS - 1), 1);
  // The header requires 0 <= ndim <= CT_MAX_DIMS: a bad argument value.
  CT_EXPECT_NULL(ct_empty(CT_MAX_DIMS + 1, ones65.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_zeros(CT_MAX_DIMS + 1, ones65.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_from_data(ones65.data(), CT_MAX_DIMS + 1, ones65.data(), CT_INT64), CT_ERR_INVALID_ARGUMENT, "");
}

TEST_F(Creation, ElementCountOverflow) {
  // torch.empty(2**62, 4): "Storage size calculation overflowed with sizes=[4611686018427387904, 4]"
  const int64_t big4[] = {int64_t(1) << 62, 4};
  const int64_t big2[] = {int64_t(1) << 62, 2};
  const int64_t huge[] = {INT64_MAX, 2};
  CT_EXPECT_NULL(ct_empty(2, big4, CT_UINT8), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_zeros(2, big2, CT_UINT8), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_ones(2, huge, CT_BOOL), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_full(2, big4, 1.0, CT_FLOAT64), CT_ERR_SHAPE, "");
  // A zero anywhere: no elements, no overflow.  torch.empty(2**63-1, 0).stride() == (1, 1)
  const int64_t zero[] = {INT64_MAX, 0};
  CT_MAKE(z, ct_empty(2, zero, CT_FLOAT32));
  EXPECT_TRUE(geometry_is(z, {INT64_MAX, 0}, {1, 1}, 0));
}

TEST_F(Creation, ByteCountOverflowAndHugeAllocations) {
  // 2^62 float32 elements fit in int64, their bytes do not.
  const int64_t s62[] = {int64_t(1) << 62};
  CT_EXPECT_NULL(ct_empty(1, s62, CT_FLOAT32), CT_ERR_OUT_OF_MEMORY, "");
  CT_EXPECT_NULL(ct_zeros(1, s62, CT_INT64), CT_ERR_OUT_OF_MEMORY, "");
  // 2^60 bytes: representable, but no allocator can provide them.
  const int64_t s60[] = {int64_t(1) << 60};
  CT_EXPECT_NULL(ct_empty(1, s60, CT_UINT8), CT_ERR_OUT_OF_MEMORY, "");
  CT_EXPECT_NULL(ct_zeros(1, s60, CT_UINT8), CT_ERR_OUT_OF_MEMORY, "");
}

TEST_F(Creation, FromDataNullData) {
  const int64_t s[] = {2, 3};
  CT_EXPECT_NULL(ct_from_data(nullptr, 2, s, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  const int64_t z[] = {2, 0};
  CT_MAKE(t, ct_from_data(nullptr, 2, z, CT_FLOAT32));  // allowed when numel == 0
  EXPECT_TRUE(geometry_is(t, {2, 0}, {1, 1}, 0));
  CT_EXPECT_NULL(ct_from_data(nullptr, 2, nullptr, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- from_blob -----------------------------------------------------------------------------

namespace {
struct DeleterLog {
  int calls = 0;
  void* data = nullptr;
  void* ctx = nullptr;
};
void count_deleter(void* data, void* ctx) {
  DeleterLog* log = static_cast<DeleterLog*>(ctx);
  log->calls++;
  log->data = data;
  log->ctx = ctx;
}
}  // namespace

TEST_F(Creation, FromBlobWrapsWithoutCopy) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  const int64_t s[] = {2, 3};
  CT_MAKE(t, ct_from_blob(buf, 2, s, nullptr, CT_FLOAT32, nullptr, nullptr));
  EXPECT_EQ(ct_tensor_data(t), static_cast<void*>(buf));
  EXPECT_TRUE(geometry_is(t, {2, 3}, {3, 1}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(t), 1);
  EXPECT_TRUE(is_not_view(t));
  StorageRef st(ct_tensor_storage(t));
  EXPECT_EQ(ct_storage_nbytes(st), 24);
  EXPECT_EQ(ct_storage_data(st), static_cast<void*>(buf));
  buf[4] = 40;  // writes to the foreign memory are seen
  EXPECT_EQ(values(t), (std::vector<double>{0, 1, 2, 3, 40, 5}));
}

TEST_F(Creation, FromBlobWithStrides) {
  // A column-major 2x3 block: element [i][j] at i + 2j.
  float buf[6] = {0, 1, 2, 3, 4, 5};
  const int64_t s[] = {2, 3}, st[] = {1, 2};
  CT_MAKE(t, ct_from_blob(buf, 2, s, st, CT_FLOAT32, nullptr, nullptr));
  EXPECT_TRUE(geometry_is(t, {2, 3}, {1, 2}, 0));
  EXPECT_EQ(ct_tensor_is_contiguous(t), 0);
  EXPECT_EQ(values(t), (std::vector<double>{0, 2, 4, 1, 3, 5}));
  // Padded rows: sizes {2, 3}, strides {4, 1}: the extent is 4 + 2 + 1 = 7 elements.
  float pad[8] = {};
  const int64_t st2[] = {4, 1};
  CT_MAKE(p, ct_from_blob(pad, 2, s, st2, CT_FLOAT32, nullptr, nullptr));
  StorageRef ps(ct_tensor_storage(p));
  EXPECT_EQ(ct_storage_nbytes(ps), 7 * 4);
  EXPECT_EQ(ct_tensor_is_contiguous(p), 0);
  // Stride 0 (a broadcast blob) is allowed: strides must be >= 0.
  const int64_t st3[] = {0, 1};
  CT_MAKE(b, ct_from_blob(buf, 2, s, st3, CT_FLOAT32, nullptr, nullptr));
  EXPECT_EQ(values(b), (std::vector<double>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(ct_has_internal_overlap(b), 1);
}

TEST_F(Creation, FromBlobDeleterRunsOnceAfterTheLastView) {
  DeleterLog log;
  std::vector<double> mem(12, 1.0);
  const int64_t s[] = {3, 4};
  ct_tensor* t = ct_from_blob(mem.data(), 2, s, nullptr, CT_FLOAT64, count_deleter, &log);
  ASSERT_NE(t, nullptr) << last_error_str();
  ct_tensor* v = ct_transpose(t, 0, 1);
  ASSERT_NE(v, nullptr) << last_error_str();
  ct_tensor* w = ct_select(v, 0, 1);
  ASSERT_NE(w, nullptr) << last_error_str();
  ct_tensor_release(t);
  EXPECT_EQ(log.calls, 0) << "views keep the storage alive";
  ct_tensor_release(v);
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(values(w), (std::vector<double>{1, 1, 1}));
  ct_tensor_release(w);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.data, static_cast<void*>(mem.data()));
  EXPECT_EQ(log.ctx, static_cast<void*>(&log));
}

TEST_F(Creation, FromBlobStorageHandleKeepsItAlive) {
  DeleterLog log;
  int32_t mem[4] = {1, 2, 3, 4};
  const int64_t s[] = {4};
  const int64_t storages = ct_live_storages();
  ct_tensor* t = ct_from_blob(mem, 1, s, nullptr, CT_INT32, count_deleter, &log);
  ASSERT_NE(t, nullptr) << last_error_str();
  EXPECT_EQ(ct_live_storages(), storages + 1);
  ct_storage* st = ct_tensor_storage(t);
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(ct_storage_refcount(st), 2);  // the tensor and this handle
  ct_tensor_release(t);
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(ct_storage_refcount(st), 1);
  EXPECT_EQ(ct_storage_data(st), static_cast<void*>(mem));
  ct_storage_release(st);
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(ct_live_storages(), storages);
}

TEST_F(Creation, FromBlobCloneDoesNotKeepTheBlob) {
  DeleterLog log;
  float mem[3] = {1, 2, 3};
  const int64_t s[] = {3};
  ct_tensor* t = ct_from_blob(mem, 1, s, nullptr, CT_FLOAT32, count_deleter, &log);
  ASSERT_NE(t, nullptr) << last_error_str();
  ct_tensor* c = ct_clone(t);
  ASSERT_NE(c, nullptr) << last_error_str();
  ct_tensor_release(t);
  EXPECT_EQ(log.calls, 1) << "a clone has its own storage";
  EXPECT_EQ(values(c), (std::vector<double>{1, 2, 3}));
  ct_tensor_release(c);
  EXPECT_EQ(log.calls, 1);
}

TEST_F(Creation, FromBlobDeleterNotCalledOnFailure) {
  DeleterLog log;
  float mem[8] = {};
  const int64_t s[] = {2, 3}, neg[] = {2, -3}, negst[] = {3, -1};
  std::vector<int64_t> many(CT_MAX_DIMS + 1, 1);
  CT_EXPECT_NULL(ct_from_blob(mem, 2, s, nullptr, kBadDtype, count_deleter, &log), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_from_blob(mem, 2, neg, nullptr, CT_FLOAT32, count_deleter, &log), CT_ERR_SHAPE,
                 "negative dimension -3");
  CT_EXPECT_NULL(ct_from_blob(mem, 2, nullptr, nullptr, CT_FLOAT32, count_deleter, &log),
                 CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_from_blob(mem, -1, s, nullptr, CT_FLOAT32, count_deleter, &log),
                 CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_from_blob(mem, CT_MAX_DIMS + 1, many.data(), nullptr, CT_FLOAT32, count_deleter, &log),
                 CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_from_blob(nullptr, 2, s, nullptr, CT_FLOAT32, count_deleter, &log),
                 CT_ERR_INVALID_ARGUMENT, "");
  // Negative strides: the header requires strides >= 0; the status class is not pinned.
  CT_EXPECT_NULL_IN(ct_from_blob(mem, 2, s, negst, CT_FLOAT32, count_deleter, &log), "",
                    CT_ERR_INVALID_ARGUMENT, CT_ERR_SHAPE);
  EXPECT_EQ(log.calls, 0) << "the deleter must not run when ct_from_blob fails";
}

TEST_F(Creation, FromBlobZeroDimAndEmpty) {
  DeleterLog log;
  double one = 7.0;
  ct_tensor* s = ct_from_blob(&one, 0, nullptr, nullptr, CT_FLOAT64, count_deleter, &log);
  ASSERT_NE(s, nullptr) << last_error_str();
  EXPECT_EQ(ct_tensor_ndim(s), 0);
  EXPECT_EQ(values(s), std::vector<double>{7.0});
  ct_tensor_release(s);
  EXPECT_EQ(log.calls, 1);
  const int64_t z[] = {0, 4};
  ct_tensor* e = ct_from_blob(&one, 2, z, nullptr, CT_FLOAT64, count_deleter, &log);
  ASSERT_NE(e, nullptr) << last_error_str();
  EXPECT_EQ(ct_tensor_numel(e), 0);
  EXPECT_EQ(ct_tensor_data(e), nullptr);
  ct_tensor_release(e);
  EXPECT_EQ(log.calls, 2);
}
