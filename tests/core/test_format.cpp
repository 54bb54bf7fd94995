// ct::repr against PyTorch 2.13's repr.  The cases come from tests/tools/gen_format_cases.py,
// which ran torch and recorded each tensor (its storage's elements and its view geometry)
// with the text torch printed for it; here each tensor is rebuilt and printed.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/tensor.h"

namespace {

struct FormatCase {
  const char* name;
  const char* recipe;  // how the tensor was made in torch, when not obvious
  ct::DType dtype;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset;
  int64_t storage_numel;
  const char* values;  // storage elements, separated by spaces
  const char* expected;
};

const FormatCase kCases[] = {
#include "format_cases.inc"
};

// Writes the i-th element of a `dtype` storage from its text.
void store(char* data, ct::DType dtype, int64_t i, const std::string& tok) {
  const char* s = tok.c_str();
  auto put = [&](auto v) { std::memcpy(data + i * int64_t(sizeof v), &v, sizeof v); };
  switch (dtype) {
    case ct::DType::Bool: put(uint8_t(std::strtol(s, nullptr, 10) != 0)); break;
    case ct::DType::UInt8: put(uint8_t(std::strtoul(s, nullptr, 10))); break;
    case ct::DType::Int8: put(int8_t(std::strtol(s, nullptr, 10))); break;
    case ct::DType::Int16: put(int16_t(std::strtol(s, nullptr, 10))); break;
    case ct::DType::Int32: put(int32_t(std::strtol(s, nullptr, 10))); break;
    case ct::DType::Int64: put(int64_t(std::strtoll(s, nullptr, 10))); break;
    case ct::DType::Float16: put(ct::Half(std::strtof(s, nullptr))); break;
    case ct::DType::BFloat16: put(ct::BFloat16(std::strtof(s, nullptr))); break;
    case ct::DType::Float32: put(std::strtof(s, nullptr)); break;
    case ct::DType::Float64: put(std::strtod(s, nullptr)); break;
  }
}

// The tensor a case describes: a contiguous storage filled from the values, viewed with the
// case's sizes, strides and offset.
ct::Ref<ct::Tensor> build(const FormatCase& c) {
  const std::vector<int64_t> storage_shape{c.storage_numel};
  ct::Ref<ct::Tensor> base = ct::Tensor::empty(storage_shape, c.dtype, "test");
  char* data = base->raw_data();
  int64_t n = 0;
  for (const char* p = c.values; *p;) {
    while (*p == ' ') ++p;
    if (!*p) break;
    const char* q = p;
    while (*q && *q != ' ') ++q;
    store(data, c.dtype, n++, std::string(p, q));
    p = q;
  }
  EXPECT_EQ(n, c.storage_numel) << c.name << ": wrong number of values";
  return ct::Tensor::make(base->storage(), c.dtype, c.sizes, c.strides, c.offset, base.get());
}

class TorchRepr : public ::testing::TestWithParam<size_t> {};

TEST_P(TorchRepr, MatchesTorch) {
  const FormatCase& c = kCases[GetParam()];
  ct::Ref<ct::Tensor> t = build(c);
  EXPECT_EQ(ct::repr(*t), std::string(c.expected)) << c.name << " " << c.recipe;
}

std::string case_name(const ::testing::TestParamInfo<size_t>& info) {
  std::string s = kCases[info.param].name;
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Format, TorchRepr, ::testing::Range<size_t>(0, std::size(kCases)), case_name);

TEST(Format, HasEnoughCases) { EXPECT_GE(std::size(kCases), size_t(150)); }

// --- cases torch cannot record in the generated file -----------------------------------

ct::Ref<ct::Tensor> vector_f32(const std::vector<float>& v) {
  const std::vector<int64_t> shape{int64_t(v.size())};
  ct::Ref<ct::Tensor> t = ct::Tensor::empty(shape, ct::DType::Float32, "test");
  std::memcpy(t->data(), v.data(), v.size() * sizeof(float));
  return t;
}

TEST(Format, NegativeNanPrintsAsNan) {
  // torch (through Python's float formatting) never prints a sign on NaN.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ct::repr(*vector_f32({-nan, 1.5f})), "tensor([   nan, 1.5000])");
  EXPECT_EQ(ct::repr(*vector_f32({-nan, 1.0f})), "tensor([nan, 1.])");
  EXPECT_EQ(ct::repr(*vector_f32({-nan, 1e-7f})), "tensor([       nan, 1.0000e-07])");
}

TEST(Format, ZeroDimWithOffset) {
  ct::Ref<ct::Tensor> base = vector_f32({1.0f, 2.5f, 3.0f});
  const std::vector<int64_t> none;
  ct::Ref<ct::Tensor> s = ct::Tensor::make(base->storage(), ct::DType::Float32, none, none, 1, base.get());
  EXPECT_EQ(ct::repr(*s), "tensor(2.5000)");
}

TEST(Format, BoolBytesOtherThanOneAreTrue) {
  const std::vector<int64_t> shape{2};
  ct::Ref<ct::Tensor> t = ct::Tensor::empty(shape, ct::DType::Bool, "test");
  t->data()[0] = 2;
  t->data()[1] = 0;
  EXPECT_EQ(ct::repr(*t), "tensor([ True, False])");
}

TEST(Format, LargeSummarizedTensorIsQuick) {
  // Only the shown corners are read: a 4000 x 4000 tensor prints like a 6 x 6 one.
  const std::vector<int64_t> shape{4000, 4000};
  ct::Ref<ct::Tensor> t = ct::Tensor::empty(shape, ct::DType::Int32, "test");
  auto* d = reinterpret_cast<int32_t*>(t->data());
  for (int64_t i = 0; i < 4000 * 4000; ++i) d[i] = int32_t(i % 7);
  const std::string s = ct::repr(*t);
  EXPECT_EQ(s,
            "tensor([[0, 1, 2,  ..., 0, 1, 2],\n"
            "        [3, 4, 5,  ..., 3, 4, 5],\n"
            "        [6, 0, 1,  ..., 6, 0, 1],\n"
            "        ...,\n"
            "        [0, 1, 2,  ..., 0, 1, 2],\n"
            "        [3, 4, 5,  ..., 3, 4, 5],\n"
            "        [6, 0, 1,  ..., 6, 0, 1]], dtype=ctensor.int32)");
}

}  // namespace
