// ct_explain through the public header: the snprintf contract, the facts it states, errors.
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::CtTest;

std::string explain(const ct_tensor* a, const ct_tensor* b) {
  const int64_t n = ct_explain(a, b, nullptr, 0);
  if (n < 0) return "<error: " + ctt::last_error_str() + ">";
  std::string s(size_t(n) + 1, '\0');
  EXPECT_EQ(ct_explain(a, b, s.data(), n + 1), n);
  s.resize(size_t(n));
  return s;
}

bool has(const std::string& text, const std::string& line) { return text.find(line) != std::string::npos; }

class Explain : public CtTest {};

TEST_F(Explain, OneTensor) {
  CT_MAKE(x, ctt::make_iota_f32({3, 4}));
  const std::string s = explain(x, nullptr);
  EXPECT_TRUE(has(s, "a: tensor of shape [3, 4], dtype float32, 12 elements\n")) << s;
  EXPECT_TRUE(has(s, "  storage: id " + std::to_string(ct_tensor_storage_id(x)) +
                         ", 48 bytes (12 elements of 4 bytes), memory owned by ctensor\n")) << s;
  EXPECT_TRUE(has(s, "  storage offset: 0 elements (0 bytes)\n")) << s;
  EXPECT_TRUE(has(s, "  version: 0 (in-place writes through this tensor, its views and detach())\n")) << s;
  EXPECT_TRUE(has(s, "  tensor refcount: 1 ")) << s;
  EXPECT_TRUE(has(s, "  distinct memory locations: 12; internal overlap: no\n")) << s;
  EXPECT_FALSE(has(s, "a and b:")) << s;
}

TEST_F(Explain, TransposedViewAndItsBase) {
  CT_MAKE(x, ctt::make_iota_f32({3, 4}));
  CT_MAKE(t, ct_transpose(x, 0, 1));
  CT_ASSERT_OK(ct_fill_(t, 1.0));
  const std::string s = explain(x, t);
  EXPECT_TRUE(has(s, "b: tensor of shape [4, 3], dtype float32, 12 elements\n")) << s;
  EXPECT_TRUE(has(s, "  strides: [1, 4] elements\n")) << s;
  EXPECT_TRUE(has(s, "  contiguous: no\n")) << s;
  EXPECT_TRUE(has(s, "  version: 1 (in-place writes through this tensor, its views and detach())\n")) << s;
  EXPECT_TRUE(has(s, "  storage refcount: 2 ")) << s;
  EXPECT_TRUE(has(s, "  tensor refcount: 2 ")) << s;  // x: its handle and t's base reference
  EXPECT_TRUE(has(s, "  view: yes; base: tensor of shape [3, 4], dtype float32, on the same storage\n")) << s;
  EXPECT_TRUE(has(s, "  same tensor object: no\n")) << s;
  EXPECT_TRUE(has(s, "  a is b's base: yes; b is a's base: no; same base: no\n")) << s;
  EXPECT_TRUE(has(s, "  elements overlap (exact): yes\n")) << s;
  EXPECT_TRUE(has(s, "  shared elements: 12 of a's 12 distinct, 12 of b's 12 distinct\n")) << s;
  EXPECT_TRUE(has(s, "  same memory locations: yes\n")) << s;
}

TEST_F(Explain, InterleavedSlicesShareStorageButNoElement) {
  CT_MAKE(x, ctt::make_iota_f32({10}));
  CT_MAKE(even, ct_slice(x, 0, 0, 10, 2));
  CT_MAKE(odd, ct_slice(x, 0, 1, 10, 2));
  const std::string s = explain(even, odd);
  EXPECT_TRUE(has(s, "  same storage: yes")) << s;
  EXPECT_TRUE(has(s, "; same base: yes\n")) << s;
  EXPECT_TRUE(has(s, "  elements overlap (exact): no\n")) << s;
  EXPECT_TRUE(has(s, "  shared elements: 0 of a's 5 distinct, 0 of b's 5 distinct\n")) << s;
  EXPECT_EQ(ct_may_overlap(even, odd), 1);  // the extents do meet: only the exact answer says no
}

TEST_F(Explain, CopyHasItsOwnStorage) {
  CT_MAKE(x, ctt::make_iota_f32({2, 3}));
  CT_MAKE(c, ct_clone(x));
  const std::string s = explain(x, c);
  EXPECT_TRUE(has(s, "  same storage: no (ids " + std::to_string(ct_tensor_storage_id(x)) + " and " +
                         std::to_string(ct_tensor_storage_id(c)) + ")\n")) << s;
  EXPECT_TRUE(has(s, "  elements overlap (exact): no\n")) << s;
  EXPECT_TRUE(has(s, "  shared elements: 0 of a's 6 distinct, 0 of b's 6 distinct\n")) << s;
}

TEST_F(Explain, ExpandHasFewerLocationsThanElements) {
  CT_MAKE(v, ctt::make_iota_f32({3}));
  CT_MAKE(e, ct_expand(v, 2, (const int64_t[]){4, 3}));
  const std::string s = explain(e, v);
  EXPECT_TRUE(has(s, "a: tensor of shape [4, 3], dtype float32, 12 elements\n")) << s;
  EXPECT_TRUE(has(s, "  distinct memory locations: 3; internal overlap: yes\n")) << s;
  EXPECT_TRUE(has(s, "  shared elements: 3 of a's 3 distinct, 3 of b's 3 distinct\n")) << s;
}

TEST_F(Explain, ForeignMemoryComparedByAddress) {
  std::vector<float> buf(8, 0.f);
  CT_MAKE(a, ct_from_blob(buf.data(), 1, (const int64_t[]){8}, nullptr, CT_FLOAT32, nullptr, nullptr));
  CT_MAKE(b, ct_from_blob(buf.data() + 6, 1, (const int64_t[]){2}, nullptr, CT_FLOAT32, nullptr, nullptr));
  const std::string s = explain(a, b);
  EXPECT_TRUE(has(s, "foreign memory")) << s;
  EXPECT_TRUE(has(s, "  same storage: no")) << s;
  EXPECT_TRUE(has(s, "  shared elements: 2 of a's 8 distinct, 2 of b's 2 distinct\n")) << s;
}

TEST_F(Explain, SnprintfContract) {
  CT_MAKE(x, ctt::make_iota_f32({4}));
  const int64_t n = ct_explain(x, nullptr, nullptr, 0);
  ASSERT_GT(n, 100);
  std::string whole = explain(x, nullptr);
  ASSERT_EQ(int64_t(whole.size()), n);
  char small[11];
  std::memset(small, 'Z', sizeof small);
  EXPECT_EQ(ct_explain(x, nullptr, small, 10), n);  // truncated, NUL-terminated, same length
  EXPECT_EQ(std::string(small), whole.substr(0, 9));
  EXPECT_EQ(small[10], 'Z');  // nothing written past cap
  char one[1] = {'Z'};
  EXPECT_EQ(ct_explain(x, nullptr, one, 1), n);
  EXPECT_EQ(one[0], '\0');
}

TEST_F(Explain, Errors) {
  CT_MAKE(x, ctt::make_iota_f32({4}));
  char buf[16];
  CT_EXPECT_FAIL(ct_explain(nullptr, nullptr, buf, 16), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "ct_explain");
  CT_EXPECT_FAIL(ct_explain(nullptr, x, buf, 16), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "ct_explain");
  CT_EXPECT_FAIL(ct_explain(x, nullptr, buf, -1), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "negative capacity -1");
  CT_EXPECT_FAIL(ct_explain(x, nullptr, nullptr, 8), int64_t(-1), CT_ERR_INVALID_ARGUMENT, "buf is NULL but cap is 8");
}

}  // namespace
