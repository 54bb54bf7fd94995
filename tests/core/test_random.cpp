// Random tensors (src/core/ops/random): the Philox4x32-10 known answers, reproducibility,
// independence from the thread count, distributions (mean, variance, range), and argument
// checks and result dtypes against PyTorch 2.13 (generated table at the end:
// tests/tools/gen_reduce_cases.py).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/copy.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/ops/random.h"
#include "core/tensor.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Shape;
using ct::Tensor;

std::vector<char> bytes_of(const Tensor& t) {
  std::vector<char> b(size_t(t.numel() * t.itemsize()));
  if (!b.empty()) std::memcpy(b.data(), t.data(), b.size());
  return b;
}

std::vector<double> doubles_of(const Tensor& t) {
  std::vector<double> out(size_t(t.numel()));
  CT_DISPATCH_ALL(t.dtype(), [&] {
    const scalar_t* p = reinterpret_cast<const scalar_t*>(t.data());
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<scalar_t, ct::Half> || std::is_same_v<scalar_t, ct::BFloat16>) {
        out[size_t(i)] = float(p[i]);
      } else {
        out[size_t(i)] = double(p[i]);
      }
    }
  });
  return out;
}

struct Moments {
  double mean, var, lo, hi;
};
Moments moments(const std::vector<double>& v) {
  double s = 0, s2 = 0, lo = INFINITY, hi = -INFINITY;
  for (double x : v) {
    s += x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  const double m = s / double(v.size());
  for (double x : v) s2 += (x - m) * (x - m);
  return {m, s2 / double(v.size()), lo, hi};
}

class Random : public ::testing::Test {
 protected:
  void TearDown() override { ct::set_num_threads(0); }
};

TEST_F(Random, PhiloxKnownAnswers) {
  // Random123's kat_vectors for philox4x32 10 (counter words, key words -> output).
  struct Kat {
    uint32_t ctr[4];
    uint32_t key[2];
    uint32_t out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    uint32_t out[4];
    ct::philox4x32_10(k.ctr, uint64_t(k.key[0]) | (uint64_t(k.key[1]) << 32), out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], k.out[i]) << "word " << i;
  }
}

TEST_F(Random, SameSeedSameValuesAndCallsAdvance) {
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16}) {
    ct::manual_seed(42);
    const auto a1 = bytes_of(*ct::rand(Shape{1000}, dt));
    const auto a2 = bytes_of(*ct::rand(Shape{1000}, dt));
    const auto n1 = bytes_of(*ct::randn(Shape{10, 10}, dt));
    ct::manual_seed(42);
    EXPECT_EQ(bytes_of(*ct::rand(Shape{1000}, dt)), a1);
    EXPECT_EQ(bytes_of(*ct::rand(Shape{1000}, dt)), a2);
    EXPECT_EQ(bytes_of(*ct::randn(Shape{10, 10}, dt)), n1);
    EXPECT_NE(a1, a2) << "two successive calls gave the same values";
    ct::manual_seed(43);
    EXPECT_NE(bytes_of(*ct::rand(Shape{1000}, dt)), a1) << "another seed gave the same values";
  }
  ct::manual_seed(7);
  const auto i1 = bytes_of(*ct::randint(-5, 17, Shape{300}, DType::Int32));
  const auto i2 = bytes_of(*ct::randint(-5, 17, Shape{300}, DType::Int32));
  EXPECT_NE(i1, i2);
  ct::manual_seed(7);
  EXPECT_EQ(bytes_of(*ct::randint(-5, 17, Shape{300}, DType::Int32)), i1);
}

TEST_F(Random, EmptyTensorsDoNotAdvanceTheStream) {
  ct::manual_seed(9);
  const auto a = bytes_of(*ct::rand(Shape{50}, DType::Float32));
  ct::manual_seed(9);
  EXPECT_EQ(ct::rand(Shape{0, 4}, DType::Float32)->numel(), 0);
  EXPECT_EQ(bytes_of(*ct::rand(Shape{50}, DType::Float32)), a);
}

TEST_F(Random, ThreadCountDoesNotChangeValues) {
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    std::vector<char> first_u, first_n, first_i;
    for (int threads : {1, 2, 3, 4}) {
      ct::set_num_threads(threads);
      ct::manual_seed(1234);
      const auto u = bytes_of(*ct::rand(Shape{300001}, dt));
      const auto n = bytes_of(*ct::randn(Shape{1000, 301}, dt));
      const auto i = bytes_of(*ct::randint(-1000, 1000, Shape{200003}, dt));
      if (threads == 1) {
        first_u = u, first_n = n, first_i = i;
      } else {
        EXPECT_EQ(u, first_u) << ct::dtype_name(dt) << " rand with " << threads << " threads";
        EXPECT_EQ(n, first_n) << ct::dtype_name(dt) << " randn with " << threads << " threads";
        EXPECT_EQ(i, first_i) << ct::dtype_name(dt) << " randint with " << threads << " threads";
      }
    }
  }
}

TEST_F(Random, UniformMomentsAndRange) {
  ct::manual_seed(0);
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16}) {
    Ref<Tensor> t = ct::rand(Shape{1000, 1000}, dt);
    EXPECT_EQ(t->dtype(), dt);
    EXPECT_TRUE(t->is_contiguous());
    const Moments m = moments(doubles_of(*t));
    // bfloat16 quantises to multiples of 2^-8: the mean of k/256 for k < 256 is 0.5 - 2^-9.
    const double q = dt == DType::BFloat16 ? 1.0 / 256 : dt == DType::Float16 ? 1.0 / 2048 : 0;
    EXPECT_NEAR(m.mean, 0.5 - q / 2, 0.002) << ct::dtype_name(dt);
    EXPECT_NEAR(m.var, 1.0 / 12 - q * q / 12, 0.002) << ct::dtype_name(dt);
    EXPECT_GE(m.lo, 0.0);
    EXPECT_LT(m.hi, 1.0);
    EXPECT_LT(m.lo, 0.001);
    EXPECT_GT(m.hi, 0.99);
  }
}

TEST_F(Random, NormalMoments) {
  ct::manual_seed(0);
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16}) {
    const std::vector<double> v = doubles_of(*ct::randn(Shape{1000000}, dt));
    const Moments m = moments(v);
    EXPECT_NEAR(m.mean, 0.0, 0.005) << ct::dtype_name(dt);
    EXPECT_NEAR(m.var, 1.0, 0.01) << ct::dtype_name(dt);
    int64_t within1 = 0, within2 = 0;
    for (double x : v) {
      within1 += std::fabs(x) < 1;
      within2 += std::fabs(x) < 2;
    }
    EXPECT_NEAR(double(within1) / double(v.size()), 0.682689, 0.003) << ct::dtype_name(dt);
    EXPECT_NEAR(double(within2) / double(v.size()), 0.954500, 0.002) << ct::dtype_name(dt);
    EXPECT_LT(m.lo, -4.0);
    EXPECT_GT(m.hi, 4.0);
    EXPECT_TRUE(std::isfinite(m.lo) && std::isfinite(m.hi));
  }
}

// torch's rand / randn of a complex dtype: uniform_ / normal_ of its view_as_real, the
// normal one with std 1/sqrt(2) (a standard complex normal: E|z|^2 = 1).
TEST_F(Random, ComplexPartsAreIndependentRealDraws) {
  ct::manual_seed(0);
  for (DType dt : {DType::Complex64, DType::Complex128}) {
    const DType part = dt == DType::Complex64 ? DType::Float32 : DType::Float64;
    for (int normal = 0; normal < 2; ++normal) {
      Ref<Tensor> t = normal ? ct::randn(Shape{1000, 500}, dt) : ct::rand(Shape{1000, 500}, dt);
      EXPECT_EQ(t->dtype(), dt);
      EXPECT_TRUE(t->is_contiguous());
      // the same bytes as the parts, interleaved (re, im): read them as the real dtype
      Ref<Tensor> parts = Tensor::empty(Shape{1000, 500, 2}, part, "test");
      std::memcpy(parts->data(), t->data(), size_t(t->numel() * t->itemsize()));
      const std::vector<double> v = doubles_of(*parts);
      std::vector<double> re, im;
      for (size_t i = 0; i < v.size(); i += 2) {
        re.push_back(v[i]);
        im.push_back(v[i + 1]);
      }
      for (const std::vector<double>* p : {&re, &im}) {
        const Moments m = moments(*p);
        EXPECT_NEAR(m.mean, normal ? 0.0 : 0.5, 0.005) << ct::dtype_name(dt);
        EXPECT_NEAR(m.var, normal ? 0.5 : 1.0 / 12, 0.005) << ct::dtype_name(dt);
        if (!normal) {
          EXPECT_GE(m.lo, 0.0);
          EXPECT_LT(m.hi, 1.0);
        }
      }
      double cov = 0;  // the two parts are independent
      for (size_t i = 0; i < re.size(); ++i) cov += (re[i] - (normal ? 0 : 0.5)) * (im[i] - (normal ? 0 : 0.5));
      EXPECT_NEAR(cov / double(re.size()), 0.0, 0.003) << ct::dtype_name(dt);
    }
  }
}

TEST_F(Random, RandintRangeAndUniformity) {
  ct::manual_seed(0);
  struct Case {
    int64_t lo, hi;
    DType dt;
  };
  const Case cases[] = {{0, 2, DType::Bool},     {0, 256, DType::UInt8},     {-128, 128, DType::Int8},
                        {-5, 6, DType::Int16},   {-1000, 1000, DType::Int32}, {3, 4, DType::Int64},
                        {-7, 9, DType::Float32}, {0, 2048, DType::Float16},   {-256, 257, DType::BFloat16},
                        {10, 20, DType::Float64}};
  for (const Case& c : cases) {
    Ref<Tensor> t = ct::randint(c.lo, c.hi, Shape{400000}, c.dt);
    EXPECT_EQ(t->dtype(), c.dt);
    const std::vector<double> v = doubles_of(*t);
    const Moments m = moments(v);
    const double range = double(c.hi - c.lo);
    EXPECT_EQ(m.lo, double(c.lo)) << ct::dtype_name(c.dt);
    EXPECT_EQ(m.hi, double(c.hi - 1)) << ct::dtype_name(c.dt);
    EXPECT_NEAR(m.mean, double(c.lo) + (range - 1) / 2, range * 0.005 + 1e-9) << ct::dtype_name(c.dt);
    if (range <= 2048) {
      std::set<double> seen(v.begin(), v.end());
      EXPECT_EQ(double(seen.size()), range) << ct::dtype_name(c.dt) << ": not every value was drawn";
    }
    for (double x : v) {
      if (x != std::floor(x)) {
        ADD_FAILURE() << "non-integer " << x;
        break;
      }
    }
  }
  // The full int64 range: 64 random bits.
  Ref<Tensor> w = ct::randint(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                              Shape{10000}, DType::Int64);
  const int64_t* p = reinterpret_cast<const int64_t*>(w->data());
  int negative = 0, high_bits = 0;
  for (int i = 0; i < 10000; ++i) {
    negative += p[i] < 0;
    high_bits += (uint64_t(p[i]) >> 40) & 1;
  }
  EXPECT_NEAR(negative, 5000, 300);
  EXPECT_NEAR(high_bits, 5000, 300);
}

// ---- generated from PyTorch 2.13 ----------------------------------------------------------------

struct Case {
  const char* fn;
  int64_t low, high;
  Shape sizes;
  int dtype;
  int out_dtype;  // -1: error
  const char* kind;
  const char* message;
};

const Case kCases[] = {
    // BEGIN GENERATED random_cases (tests/tools/gen_reduce_cases.py)
    {"rand", 0, 0, {3}, 0, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Bool'"},
    {"randn", 0, 0, {3}, 0, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Bool'"},
    {"randint", 0, 2, {3}, 0, 0, nullptr, nullptr},
    {"rand", 0, 0, {0}, 0, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Bool'"},
    {"randn", 0, 0, {0}, 0, 0, nullptr, nullptr},
    {"randint", 0, 2, {0}, 0, 0, nullptr, nullptr},
    {"rand", 0, 0, {3}, 1, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Byte'"},
    {"randn", 0, 0, {3}, 1, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Byte'"},
    {"randint", 0, 2, {3}, 1, 1, nullptr, nullptr},
    {"rand", 0, 0, {0}, 1, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Byte'"},
    {"randn", 0, 0, {0}, 1, 1, nullptr, nullptr},
    {"randint", 0, 2, {0}, 1, 1, nullptr, nullptr},
    {"rand", 0, 0, {3}, 2, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Char'"},
    {"randn", 0, 0, {3}, 2, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Char'"},
    {"randint", 0, 2, {3}, 2, 2, nullptr, nullptr},
    {"rand", 0, 0, {0}, 2, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Char'"},
    {"randn", 0, 0, {0}, 2, 2, nullptr, nullptr},
    {"randint", 0, 2, {0}, 2, 2, nullptr, nullptr},
    {"rand", 0, 0, {3}, 3, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Short'"},
    {"randn", 0, 0, {3}, 3, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Short'"},
    {"randint", 0, 2, {3}, 3, 3, nullptr, nullptr},
    {"rand", 0, 0, {0}, 3, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Short'"},
    {"randn", 0, 0, {0}, 3, 3, nullptr, nullptr},
    {"randint", 0, 2, {0}, 3, 3, nullptr, nullptr},
    {"rand", 0, 0, {3}, 4, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Int'"},
    {"randn", 0, 0, {3}, 4, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Int'"},
    {"randint", 0, 2, {3}, 4, 4, nullptr, nullptr},
    {"rand", 0, 0, {0}, 4, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Int'"},
    {"randn", 0, 0, {0}, 4, 4, nullptr, nullptr},
    {"randint", 0, 2, {0}, 4, 4, nullptr, nullptr},
    {"rand", 0, 0, {3}, 5, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Long'"},
    {"randn", 0, 0, {3}, 5, -1, "DType", "\"normal_kernel_cpu\" not implemented for 'Long'"},
    {"randint", 0, 2, {3}, 5, 5, nullptr, nullptr},
    {"rand", 0, 0, {0}, 5, -1, "DType", "\"check_uniform_bounds\" not implemented for 'Long'"},
    {"randn", 0, 0, {0}, 5, 5, nullptr, nullptr},
    {"randint", 0, 2, {0}, 5, 5, nullptr, nullptr},
    {"rand", 0, 0, {3}, 6, 6, nullptr, nullptr},
    {"randn", 0, 0, {3}, 6, 6, nullptr, nullptr},
    {"randint", 0, 2, {3}, 6, 6, nullptr, nullptr},
    {"rand", 0, 0, {0}, 6, 6, nullptr, nullptr},
    {"randn", 0, 0, {0}, 6, 6, nullptr, nullptr},
    {"randint", 0, 2, {0}, 6, 6, nullptr, nullptr},
    {"rand", 0, 0, {3}, 7, 7, nullptr, nullptr},
    {"randn", 0, 0, {3}, 7, 7, nullptr, nullptr},
    {"randint", 0, 2, {3}, 7, 7, nullptr, nullptr},
    {"rand", 0, 0, {0}, 7, 7, nullptr, nullptr},
    {"randn", 0, 0, {0}, 7, 7, nullptr, nullptr},
    {"randint", 0, 2, {0}, 7, 7, nullptr, nullptr},
    {"rand", 0, 0, {3}, 8, 8, nullptr, nullptr},
    {"randn", 0, 0, {3}, 8, 8, nullptr, nullptr},
    {"randint", 0, 2, {3}, 8, 8, nullptr, nullptr},
    {"rand", 0, 0, {0}, 8, 8, nullptr, nullptr},
    {"randn", 0, 0, {0}, 8, 8, nullptr, nullptr},
    {"randint", 0, 2, {0}, 8, 8, nullptr, nullptr},
    {"rand", 0, 0, {3}, 9, 9, nullptr, nullptr},
    {"randn", 0, 0, {3}, 9, 9, nullptr, nullptr},
    {"randint", 0, 2, {3}, 9, 9, nullptr, nullptr},
    {"rand", 0, 0, {0}, 9, 9, nullptr, nullptr},
    {"randn", 0, 0, {0}, 9, 9, nullptr, nullptr},
    {"randint", 0, 2, {0}, 9, 9, nullptr, nullptr},
    {"rand", 0, 0, {-1}, 5, -1, "Shape", "Trying to create tensor with negative dimension -1: [-1]"},
    {"randint", 5, 5, {3}, 5, -1, "InvalidArgument", "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"},
    {"randint", 5, 5, {0}, 5, -1, "InvalidArgument", "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"},
    {"randint", 6, 5, {3}, 5, -1, "InvalidArgument", "random_ expects 'from' to be less than 'to', but got from=6 >= to=5"},
    {"randint", 6, 5, {0}, 5, -1, "InvalidArgument", "random_ expects 'from' to be less than 'to', but got from=6 >= to=5"},
    {"randint", 0, 300, {3}, 1, -1, "InvalidArgument", "to - 1 is out of bounds for unsigned char"},
    {"randint", 0, 300, {0}, 1, -1, "InvalidArgument", "to - 1 is out of bounds for unsigned char"},
    {"randint", 0, 256, {3}, 1, 1, nullptr, nullptr},
    {"randint", 0, 256, {0}, 1, 1, nullptr, nullptr},
    {"randint", -1, 10, {3}, 1, -1, "InvalidArgument", "from is out of bounds for unsigned char"},
    {"randint", -1, 10, {0}, 1, -1, "InvalidArgument", "from is out of bounds for unsigned char"},
    {"randint", -129, 10, {3}, 2, -1, "InvalidArgument", "from is out of bounds for signed char"},
    {"randint", -129, 10, {0}, 2, -1, "InvalidArgument", "from is out of bounds for signed char"},
    {"randint", -128, 128, {3}, 2, 2, nullptr, nullptr},
    {"randint", -128, 128, {0}, 2, 2, nullptr, nullptr},
    {"randint", -128, 129, {3}, 2, -1, "InvalidArgument", "to - 1 is out of bounds for signed char"},
    {"randint", -128, 129, {0}, 2, -1, "InvalidArgument", "to - 1 is out of bounds for signed char"},
    {"randint", 0, 3, {3}, 0, -1, "InvalidArgument", "to - 1 is out of bounds for bool"},
    {"randint", 0, 3, {0}, 0, -1, "InvalidArgument", "to - 1 is out of bounds for bool"},
    {"randint", -1, 2, {3}, 0, -1, "InvalidArgument", "from is out of bounds for bool"},
    {"randint", -1, 2, {0}, 0, -1, "InvalidArgument", "from is out of bounds for bool"},
    {"randint", 0, 2147483648, {3}, 4, 4, nullptr, nullptr},
    {"randint", 0, 2147483648, {0}, 4, 4, nullptr, nullptr},
    {"randint", 0, 2147483649, {3}, 4, -1, "InvalidArgument", "to - 1 is out of bounds for int"},
    {"randint", 0, 2147483649, {0}, 4, -1, "InvalidArgument", "to - 1 is out of bounds for int"},
    {"randint", -2147483649, 0, {3}, 4, -1, "InvalidArgument", "from is out of bounds for int"},
    {"randint", -2147483649, 0, {0}, 4, -1, "InvalidArgument", "from is out of bounds for int"},
    {"randint", 0, 70000, {3}, 3, -1, "InvalidArgument", "to - 1 is out of bounds for short int"},
    {"randint", 0, 70000, {0}, 3, -1, "InvalidArgument", "to - 1 is out of bounds for short int"},
    {"randint", 0, 70000, {3}, 6, -1, "InvalidArgument", "to - 1 is out of bounds for c10::Half"},
    {"randint", 0, 70000, {0}, 6, -1, "InvalidArgument", "to - 1 is out of bounds for c10::Half"},
    {"randint", -70000, 1, {3}, 6, -1, "InvalidArgument", "from is out of bounds for c10::Half"},
    {"randint", -70000, 1, {0}, 6, -1, "InvalidArgument", "from is out of bounds for c10::Half"},
    {"randint", -65504, 65505, {3}, 6, 6, nullptr, nullptr},
    {"randint", -65504, 65505, {0}, 6, 6, nullptr, nullptr},
    {"randint", (-9223372036854775807 - 1), 9223372036854775807, {3}, 5, 5, nullptr, nullptr},
    {"randint", (-9223372036854775807 - 1), 9223372036854775807, {0}, 5, 5, nullptr, nullptr},
    {"randint", 0, 1099511627776, {3}, 4, -1, "InvalidArgument", "to - 1 is out of bounds for int"},
    {"randint", 0, 1099511627776, {0}, 4, -1, "InvalidArgument", "to - 1 is out of bounds for int"},
    {"randint", -5, 300, {3}, 1, -1, "InvalidArgument", "from is out of bounds for unsigned char"},
    {"randint", -5, 300, {0}, 1, -1, "InvalidArgument", "from is out of bounds for unsigned char"},
    {"randint", 0, 1152921504606846976, {3}, 9, 9, nullptr, nullptr},
    {"randint", 0, 1152921504606846976, {0}, 9, 9, nullptr, nullptr},
    {"randint", 5, 5, {-1}, 5, -1, "Shape", "Trying to create tensor with negative dimension -1: [-1]"},
    // END GENERATED random_cases
};

std::string kind_name(ct::ErrorKind k) {
  switch (k) {
    case ct::ErrorKind::InvalidArgument: return "InvalidArgument";
    case ct::ErrorKind::Shape: return "Shape";
    case ct::ErrorKind::DType: return "DType";
    case ct::ErrorKind::Index: return "Index";
    default: return "other(" + std::to_string(int(k)) + ")";
  }
}

TEST_F(Random, TorchArgumentsAndDTypes) {
  for (const Case& c : kCases) {
    const std::string fn = c.fn;
    SCOPED_TRACE(fn + "(" + std::to_string(c.low) + ", " + std::to_string(c.high) + ", " + ct::list_str(c.sizes) +
                 ", " + ct::dtype_name(DType(c.dtype)) + ")");
    auto call = [&] {
      if (fn == "rand") return ct::rand(c.sizes, DType(c.dtype));
      if (fn == "randn") return ct::randn(c.sizes, DType(c.dtype));
      return ct::randint(c.low, c.high, c.sizes, DType(c.dtype));
    };
    if (c.out_dtype >= 0) {
      Ref<Tensor> r = call();
      EXPECT_EQ(r->dtype(), DType(c.out_dtype));
      EXPECT_EQ(ct::list_str(r->sizes()), ct::list_str(c.sizes));
      if (fn == "randint" && r->numel() > 0) {
        for (double x : doubles_of(*r)) {
          EXPECT_GE(x, double(c.low));
          EXPECT_LE(x, double(c.high - 1));
        }
      }
    } else {
      try {
        call();
        ADD_FAILURE() << "did not fail; torch says: " << c.message;
      } catch (const ct::Error& e) {
        EXPECT_EQ(kind_name(e.kind()), c.kind) << e.what();
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
