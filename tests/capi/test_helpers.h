// Helpers for the C API tests: everything here goes through the public header only.
//
//   CT_MAKE(x, ct_zeros(...));          RAII handle `x`; fails the test (printing
//                                       ct_last_error()) if the call returned NULL.
//   CT_ASSERT_OK(ct_copy_(a, b));       a ct_status call that must return CT_OK.
//   CT_EXPECT_NULL(expr, status, "substring");   a handle call that must fail exactly so.
//   CT_EXPECT_NULL_IN(expr, "substring", S1, S2) the header leaves the status open to S1/S2.
//   CT_EXPECT_FAIL(expr, sentinel, status, "substring")   a query or ct_status call.
//   EXPECT_TRUE(ctt::expect_error(status, "substring"));   checks the last error.
//   EXPECT_TRUE(ctt::sizes_are(t, {3, 4}));  ctt::strides_are, ctt::geometry_is (+ offset).
//   ctt::CtTest                          fixture: live tensors/storages back to baseline.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ctensor.h"

namespace ctt {

inline std::string last_error_str() {
  std::ostringstream os;
  os << ct_status_name(ct_last_status()) << ": \"" << ct_last_error() << "\"";
  return os.str();
}

// One owned reference to a tensor, released on destruction.
class TensorRef {
 public:
  TensorRef() = default;
  explicit TensorRef(ct_tensor* p) : p_(p) {}
  TensorRef(const TensorRef&) = delete;
  TensorRef& operator=(const TensorRef&) = delete;
  TensorRef(TensorRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  TensorRef& operator=(TensorRef&& o) noexcept {
    if (this != &o) {
      ct_tensor_release(p_);
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  ~TensorRef() { ct_tensor_release(p_); }

  ct_tensor* get() const { return p_; }
  operator ct_tensor*() const { return p_; }  // NOLINT: handy in C calls
  // Drops the reference now (the handle becomes NULL).
  void reset(ct_tensor* p = nullptr) {
    ct_tensor_release(p_);
    p_ = p;
  }
  ct_tensor* take() { return std::exchange(p_, nullptr); }

 private:
  ct_tensor* p_ = nullptr;
};

// One owned reference to a storage.
class StorageRef {
 public:
  StorageRef() = default;
  explicit StorageRef(ct_storage* p) : p_(p) {}
  StorageRef(const StorageRef&) = delete;
  StorageRef& operator=(const StorageRef&) = delete;
  StorageRef(StorageRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  ~StorageRef() { ct_storage_release(p_); }
  ct_storage* get() const { return p_; }
  operator ct_storage*() const { return p_; }  // NOLINT
  void reset(ct_storage* p = nullptr) {
    ct_storage_release(p_);
    p_ = p;
  }

 private:
  ct_storage* p_ = nullptr;
};

// ---- the last error -----------------------------------------------------------------------

// The last failure on this thread has exactly `status` and its message contains `substring`.
inline ::testing::AssertionResult expect_error(ct_status status, const char* substring = "") {
  const ct_status got = ct_last_status();
  const char* msg = ct_last_error();
  if (msg == nullptr) return ::testing::AssertionFailure() << "ct_last_error() returned NULL";
  if (got != status) {
    return ::testing::AssertionFailure()
           << "expected status " << ct_status_name(status) << ", got " << ct_status_name(got)
           << " with message \"" << msg << "\"";
  }
  if (std::strstr(msg, substring) == nullptr) {
    return ::testing::AssertionFailure() << "status " << ct_status_name(got) << " as expected, but message \""
                                         << msg << "\" does not contain \"" << substring << "\"";
  }
  if (msg[0] == '\0') return ::testing::AssertionFailure() << "empty error message for " << ct_status_name(got);
  return ::testing::AssertionSuccess();
}

// For failures whose status the header leaves open between a few classes.
inline ::testing::AssertionResult expect_error_in(std::initializer_list<ct_status> allowed,
                                                  const char* substring = "") {
  const ct_status got = ct_last_status();
  for (ct_status s : allowed) {
    if (s == got) return expect_error(s, substring);
  }
  std::ostringstream os;
  for (ct_status s : allowed) os << ct_status_name(s) << " ";
  return ::testing::AssertionFailure() << "expected one of { " << os.str() << "}, got "
                                       << ct_status_name(got) << " with message \"" << ct_last_error() << "\"";
}

// ---- shapes -------------------------------------------------------------------------------

inline std::string list_str(const int64_t* p, int n) {
  std::ostringstream os;
  os << '[';
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << p[i];
  os << ']';
  return os.str();
}
inline std::string list_str(const std::vector<int64_t>& v) { return list_str(v.data(), int(v.size())); }

inline ::testing::AssertionResult sizes_are(const ct_tensor* t, const std::vector<int64_t>& want) {
  const int nd = ct_tensor_ndim(t);
  if (nd != int(want.size()))
    return ::testing::AssertionFailure() << "ndim " << nd << ", expected " << want.size() << " (sizes "
                                         << list_str(want) << ")";
  const int64_t* s = ct_tensor_sizes(t);
  if (s == nullptr) return ::testing::AssertionFailure() << "ct_tensor_sizes returned NULL";
  for (int i = 0; i < nd; ++i) {
    if (s[i] != want[i] || ct_tensor_size(t, i) != want[i] || ct_tensor_size(t, i - nd) != want[i])
      return ::testing::AssertionFailure() << "sizes " << list_str(s, nd) << ", expected " << list_str(want)
                                           << " (ct_tensor_size(" << i << ") = " << ct_tensor_size(t, i) << ")";
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult strides_are(const ct_tensor* t, const std::vector<int64_t>& want) {
  const int nd = ct_tensor_ndim(t);
  if (nd != int(want.size()))
    return ::testing::AssertionFailure() << "ndim " << nd << ", expected " << want.size() << " (strides "
                                         << list_str(want) << ")";
  const int64_t* s = ct_tensor_strides(t);
  if (s == nullptr) return ::testing::AssertionFailure() << "ct_tensor_strides returned NULL";
  for (int i = 0; i < nd; ++i) {
    if (s[i] != want[i] || ct_tensor_stride(t, i) != want[i] || ct_tensor_stride(t, i - nd) != want[i])
      return ::testing::AssertionFailure() << "strides " << list_str(s, nd) << ", expected "
                                           << list_str(want);
  }
  return ::testing::AssertionSuccess();
}

// Sizes, strides and storage offset at once.
inline ::testing::AssertionResult geometry_is(const ct_tensor* t, const std::vector<int64_t>& sizes,
                                              const std::vector<int64_t>& strides, int64_t offset) {
  if (t == nullptr) return ::testing::AssertionFailure() << "NULL tensor";
  auto r = sizes_are(t, sizes);
  if (!r) return r;
  r = strides_are(t, strides);
  if (!r) return r;
  if (ct_tensor_offset(t) != offset)
    return ::testing::AssertionFailure() << "storage offset " << ct_tensor_offset(t) << ", expected " << offset;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  if (ct_tensor_numel(t) != n)
    return ::testing::AssertionFailure() << "numel " << ct_tensor_numel(t) << ", expected " << n;
  return ::testing::AssertionSuccess();
}

// ---- views and identity -------------------------------------------------------------------

// t is a view whose base is exactly `root` (same handle pointer, same storage id).
inline ::testing::AssertionResult is_view_of(const ct_tensor* t, const ct_tensor* root) {
  if (ct_tensor_is_view(t) != 1) return ::testing::AssertionFailure() << "ct_tensor_is_view = " << ct_tensor_is_view(t);
  ct_tensor* b = ct_tensor_base(t);
  TensorRef hold(b);
  if (b != root) return ::testing::AssertionFailure() << "base " << b << " is not the root " << root;
  if (ct_tensor_storage_id(t) != ct_tensor_storage_id(root) || ct_tensor_storage_id(t) == 0)
    return ::testing::AssertionFailure() << "storage id " << ct_tensor_storage_id(t) << " differs from root's "
                                         << ct_tensor_storage_id(root);
  if (ct_shares_storage(t, root) != 1) return ::testing::AssertionFailure() << "ct_shares_storage != 1";
  return ::testing::AssertionSuccess();
}

// t is not a view: is_view 0 and base NULL (without an error).
inline ::testing::AssertionResult is_not_view(const ct_tensor* t) {
  if (ct_tensor_is_view(t) != 0) return ::testing::AssertionFailure() << "ct_tensor_is_view = " << ct_tensor_is_view(t);
  ct_clear_error();
  ct_tensor* b = ct_tensor_base(t);
  if (b != nullptr) {
    ct_tensor_release(b);
    return ::testing::AssertionFailure() << "ct_tensor_base is not NULL";
  }
  if (ct_last_status() != CT_OK)
    return ::testing::AssertionFailure() << "ct_tensor_base of a non-view set an error: " << last_error_str();
  return ::testing::AssertionSuccess();
}

// Byte distance between the data pointers of two tensors.
inline std::ptrdiff_t byte_delta(const ct_tensor* a, const ct_tensor* b) {
  return static_cast<const char*>(ct_tensor_data(a)) - static_cast<const char*>(ct_tensor_data(b));
}

// ---- values -------------------------------------------------------------------------------

inline float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(float(man), -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = std::ldexp(float(man | 0x400), int(exp) - 25);
  return sign ? -v : v;
}
inline float bf16_to_float(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Element at raw address p of dtype d, as double.
inline double load_as_double(const void* p, ct_dtype d) {
  switch (d) {
    case CT_BOOL: { uint8_t v; std::memcpy(&v, p, 1); return v ? 1.0 : 0.0; }
    case CT_UINT8: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    case CT_INT8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case CT_INT16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case CT_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case CT_INT64: { int64_t v; std::memcpy(&v, p, 8); return double(v); }
    case CT_FLOAT16: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case CT_BFLOAT16: { uint16_t v; std::memcpy(&v, p, 2); return bf16_to_float(v); }
    case CT_FLOAT32: { float v; std::memcpy(&v, p, 4); return v; }
    case CT_FLOAT64: { double v; std::memcpy(&v, p, 8); return v; }
  }
  return NAN;
}

// Address of element idx (C order index vector), via data pointer and strides.
inline char* element_ptr(const ct_tensor* t, const std::vector<int64_t>& idx) {
  char* p = static_cast<char*>(ct_tensor_data(t));
  const int64_t item = ct_dtype_itemsize(ct_tensor_dtype(t));
  for (size_t i = 0; i < idx.size(); ++i) p += idx[i] * ct_tensor_stride(t, int(i)) * item;
  return p;
}

// Every element in C order, as double, read through the data pointer and the strides.
inline std::vector<double> values(const ct_tensor* t) {
  std::vector<double> out;
  const int nd = ct_tensor_ndim(t);
  const int64_t n = ct_tensor_numel(t);
  if (nd < 0 || n <= 0) return out;
  const int64_t* sz = ct_tensor_sizes(t);
  const int64_t* st = ct_tensor_strides(t);
  const ct_dtype d = ct_tensor_dtype(t);
  const int64_t item = ct_dtype_itemsize(d);
  const char* base = static_cast<const char*>(ct_tensor_data(t));
  std::vector<int64_t> idx(size_t(nd), 0);
  out.reserve(size_t(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (int i = 0; i < nd; ++i) off += idx[size_t(i)] * st[i];
    out.push_back(load_as_double(base + off * item, d));
    for (int i = nd - 1; i >= 0; --i) {
      if (++idx[size_t(i)] < sz[i]) break;
      idx[size_t(i)] = 0;
    }
  }
  return out;
}

inline std::vector<double> iota(int64_t n, double start = 0.0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = start + double(i);
  return v;
}

// A float32 tensor holding 0, 1, ..., numel-1 in the given shape, made with ct_from_data only
// (no view op), so that view tests do not depend on what they test.
inline ct_tensor* make_iota_f32(std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> data(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) data[size_t(i)] = float(i);
  return ct_from_data(data.data(), int(sizes.size()), sizes.data(), CT_FLOAT32);
}
template <class T>
inline ct_tensor* make_from(const std::vector<T>& data, std::vector<int64_t> sizes, ct_dtype dtype) {
  return ct_from_data(data.data(), int(sizes.size()), sizes.data(), dtype);
}

// An int64 tensor of the given values and sizes (the index arguments of the indexed ops).
inline ct_tensor* longs(const std::vector<int64_t>& v, std::vector<int64_t> sizes) {
  return make_from(v, sizes, CT_INT64);
}

// Takes t (a new reference, released here): a result of `sizes` holding `want` in C order,
// on a storage of its own (never src's), not a view: what every copying op returns.
inline void expect_copy(ct_tensor* t, const ct_tensor* src, const std::vector<int64_t>& sizes,
                        const std::vector<double>& want) {
  ASSERT_NE(t, nullptr) << last_error_str();
  EXPECT_TRUE(sizes_are(t, sizes));
  EXPECT_EQ(ct_shares_storage(t, src), 0);
  EXPECT_TRUE(is_not_view(t));
  EXPECT_EQ(values(t), want);
  ct_tensor_release(t);
}
// The same, checking the strides too.
inline void expect_copy(ct_tensor* t, const ct_tensor* src, const std::vector<int64_t>& sizes,
                        const std::vector<int64_t>& strides, const std::vector<double>& want) {
  if (t) {
    EXPECT_TRUE(strides_are(t, strides));
  }
  expect_copy(t, src, sizes, want);
}

// Shorthands taking brace lists (usable inside the macros: the call's parentheses protect
// the commas).
using I64 = std::initializer_list<int64_t>;
inline ct_tensor* empty(I64 s, ct_dtype d = CT_FLOAT32) { return ct_empty(int(s.size()), s.begin(), d); }
inline ct_tensor* zeros(I64 s, ct_dtype d = CT_FLOAT32) { return ct_zeros(int(s.size()), s.begin(), d); }
inline ct_tensor* ones(I64 s, ct_dtype d = CT_FLOAT32) { return ct_ones(int(s.size()), s.begin(), d); }
inline ct_tensor* full(I64 s, double v, ct_dtype d = CT_FLOAT32) { return ct_full(int(s.size()), s.begin(), v, d); }
inline ct_tensor* view(const ct_tensor* t, I64 s) { return ct_view(t, int(s.size()), s.begin()); }
inline ct_tensor* reshape(const ct_tensor* t, I64 s) { return ct_reshape(t, int(s.size()), s.begin()); }
inline int reshape_is_view(const ct_tensor* t, I64 s) { return ct_reshape_is_view(t, int(s.size()), s.begin()); }
inline ct_tensor* expand(const ct_tensor* t, I64 s) { return ct_expand(t, int(s.size()), s.begin()); }
inline ct_tensor* permute(const ct_tensor* t, std::initializer_list<int> d) {
  return ct_permute(t, int(d.size()), d.begin());
}
inline ct_tensor* as_strided(const ct_tensor* t, I64 sizes, I64 strides, int64_t offset) {
  EXPECT_EQ(sizes.size(), strides.size());
  return ct_as_strided(t, int(sizes.size()), sizes.begin(), strides.begin(), offset);
}
// A 1-D int64 (or int32) index tensor.
inline ct_tensor* index64(std::vector<int64_t> v) {
  const int64_t n = int64_t(v.size());
  return ct_from_data(v.data(), 1, &n, CT_INT64);
}
inline ct_tensor* index32(std::vector<int32_t> v) {
  const int64_t n = int64_t(v.size());
  return ct_from_data(v.data(), 1, &n, CT_INT32);
}

inline std::string repr(const ct_tensor* t) {
  const int64_t n = ct_tensor_to_string(t, nullptr, 0);
  if (n < 0) return "<ct_tensor_to_string failed: " + last_error_str() + ">";
  std::string s(size_t(n) + 1, '\0');
  ct_tensor_to_string(t, s.data(), n + 1);
  s.resize(size_t(n));
  return s;
}

// ---- fixture ------------------------------------------------------------------------------

// Every test starts with a clear error and must leave exactly as many live tensors and
// storages as it found: views, copies, bases, storage handles all released.
class CtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ct_clear_error();
    tensors0_ = ct_live_tensors();
    storages0_ = ct_live_storages();
  }
  void TearDown() override {
    EXPECT_EQ(ct_live_tensors(), tensors0_) << "tensors leaked (or over-released) by this test";
    EXPECT_EQ(ct_live_storages(), storages0_) << "storages leaked (or over-released) by this test";
  }
  int64_t tensors0_ = 0;
  int64_t storages0_ = 0;
};

}  // namespace ctt

// A new RAII handle `var` from a call that must succeed.
#define CT_MAKE(var, expr)                                                                  \
  ::ctt::TensorRef var(expr);                                                               \
  ASSERT_NE(var.get(), nullptr) << #expr << " failed: " << ::ctt::last_error_str()

// A ct_status call that must return CT_OK.
#define CT_ASSERT_OK(expr)                                                                  \
  do {                                                                                      \
    const ct_status ct_st_ = (expr);                                                        \
    ASSERT_EQ(ct_st_, CT_OK) << #expr << " returned " << ct_status_name(ct_st_) << ": "     \
                             << ::ctt::last_error_str();                                    \
  } while (0)

// A handle-returning call that must fail with exactly `status` and a message containing
// `substr`.  The last error is cleared first so the check sees this call's error.
#define CT_EXPECT_NULL(expr, status, substr)                                                \
  do {                                                                                      \
    ct_clear_error();                                                                       \
    ct_tensor* ct_r_ = (expr);                                                              \
    EXPECT_EQ(ct_r_, nullptr) << #expr << " unexpectedly succeeded";                        \
    ct_tensor_release(ct_r_);                                                               \
    EXPECT_TRUE(::ctt::expect_error(status, substr)) << "  from " << #expr;                 \
  } while (0)

// The same for failures where the header admits a few statuses (listed last).
#define CT_EXPECT_NULL_IN(expr, substr, ...)                                                \
  do {                                                                                      \
    ct_clear_error();                                                                       \
    ct_tensor* ct_r_ = (expr);                                                              \
    EXPECT_EQ(ct_r_, nullptr) << #expr << " unexpectedly succeeded";                        \
    ct_tensor_release(ct_r_);                                                               \
    EXPECT_TRUE(::ctt::expect_error_in({__VA_ARGS__}, substr)) << "  from " << #expr;       \
  } while (0)

// Any call returning `sentinel` on failure (queries, ct_status calls).
#define CT_EXPECT_FAIL(expr, sentinel, status, substr)                                      \
  do {                                                                                      \
    ct_clear_error();                                                                       \
    auto ct_v_ = (expr);                                                                    \
    EXPECT_EQ(ct_v_, (sentinel)) << #expr;                                                  \
    EXPECT_TRUE(::ctt::expect_error(status, substr)) << "  from " << #expr;                 \
  } while (0)
