// Random tensors.  See random.h.
#include "core/ops/random.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

#include "core/complex_views.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/ops/promote.h"
#include "core/parallel.h"

namespace ct {
namespace {

constexpr uint64_t kDefaultSeed = 67280421310721ull;

struct Generator {
  std::mutex mu;
  uint64_t seed = kDefaultSeed;
  uint64_t offset = 0;
};

Generator& generator() {
  static Generator g;
  return g;
}

// Reserves n counters: returns the seed and the first counter.
void reserve(uint64_t n, uint64_t* seed, uint64_t* first) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  *seed = g.seed;
  *first = g.offset;
  g.offset += n;
}

inline void philox(uint64_t counter, uint64_t key, uint32_t out[4]) {
  const uint32_t c[4] = {uint32_t(counter), uint32_t(counter >> 32), 0u, 0u};
  philox4x32_10(c, key, out);
}

inline uint64_t u64(uint32_t hi, uint32_t lo) { return (uint64_t(hi) << 32) | lo; }

// Fills t (fresh, contiguous) with f(block) for each element, block = 4 Philox outputs of
// counter first + i.
template <class T, class F>
void generate(const Tensor& t, F&& f) {
  const int64_t n = t.numel();
  if (n == 0) return;
  uint64_t seed, first;
  reserve(uint64_t(n), &seed, &first);
  T* out = reinterpret_cast<T*>(t.data());
  parallel_for(n, 16384, [&](int64_t lo, int64_t hi) {
    uint32_t r[4];
    for (int64_t i = lo; i < hi; ++i) {
      philox(first + uint64_t(i), seed, r);
      out[i] = f(r);
    }
  });
}

// Significand bits of each floating dtype (std::numeric_limits<T>::digits).
template <class T>
constexpr int digits() {
  if constexpr (std::is_same_v<T, Half>) {
    return 11;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 8;
  } else {
    return std::numeric_limits<T>::digits;
  }
}

template <class T>
constexpr bool kFloating = std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Uniform [0, 1): a random integer below 2^digits, times 2^-digits (exact in T).
template <class T>
void fill_uniform(const Tensor& t) {
  if constexpr (std::is_same_v<T, double>) {
    generate<T>(t, [](const uint32_t* r) { return double(u64(r[0], r[1]) >> 11) * 0x1p-53; });
  } else if constexpr (kFloating<T>) {
    constexpr int kBits = digits<T>();
    generate<T>(t, [](const uint32_t* r) { return T(float(r[0] >> (32 - kBits)) * std::ldexp(1.0f, -kBits)); });
  } else {
    CT_FAIL(Internal, "rand: not a floating dtype");
  }
}

// Standard normal: Box-Muller on two 53-bit uniforms, in double, rounded once to T.
template <class T>
void fill_normal(const Tensor& t, double std = 1.0) {
  if constexpr (kFloating<T>) {
    generate<T>(t, [std](const uint32_t* r) {
      const double u1 = double((u64(r[0], r[1]) >> 11) + 1) * 0x1p-53;  // (0, 1]
      const double u2 = double(u64(r[2], r[3]) >> 11) * 0x1p-53;        // [0, 1)
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586476925 * u2);
      return convert<T>(z * std);
    });
  } else {
    CT_FAIL(Internal, "randn: not a floating dtype");
  }
}

}  // namespace

void philox4x32_10(const uint32_t counter[4], uint64_t key, uint32_t out[4]) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(kM0) * c0;
    const uint64_t p1 = uint64_t(kM1) * c2;
    const uint32_t n0 = uint32_t(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = uint32_t(p0 >> 32) ^ c3 ^ k1;
    c1 = uint32_t(p1);
    c3 = uint32_t(p0);
    c0 = n0;
    c2 = n2;
    k0 += kW0;
    k1 += kW1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

void manual_seed(uint64_t seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = seed;
  g.offset = 0;
}

Ref<Tensor> rand(IntList sizes, DType dtype) {
  Ref<Tensor> t = Tensor::empty(sizes, dtype, "rand");
  CT_CHECK(is_floating(dtype) || is_complex(dtype), DType,
           "rand(): \"check_uniform_bounds\" not implemented for '" << torch_scalar_type_name(dtype) << "'");
  // a complex tensor: its real and imaginary parts each uniform (torch's uniform_ on view_as_real)
  Ref<Tensor> parts = is_complex(dtype) ? view_as_real(*t) : t;
  CT_DISPATCH_ALL(parts->dtype(), [&] { fill_uniform<scalar_t>(*parts); });
  return t;
}

Ref<Tensor> randn(IntList sizes, DType dtype) {
  Ref<Tensor> t = Tensor::empty(sizes, dtype, "randn");
  // torch 2.x's normal_ returns before its kernel when there are no elements (rand's bounds
  // check comes first and refuses integer dtypes even then)
  CT_CHECK(is_floating(dtype) || is_complex(dtype) || t->numel() == 0, DType,
           "randn(): \"normal_kernel_cpu\" not implemented for '" << torch_scalar_type_name(dtype) << "'");
  if (t->numel() == 0) return t;
  // a complex tensor: standard complex normal, each part with variance 1/2 (torch's normal_ on
  // view_as_real with std / sqrt(2))
  Ref<Tensor> parts = is_complex(dtype) ? view_as_real(*t) : t;
  const double std = is_complex(dtype) ? 0.70710678118654752440 : 1.0;
  CT_DISPATCH_ALL(parts->dtype(), [&] { fill_normal<scalar_t>(*parts, std); });
  return t;
}

Ref<Tensor> randint(int64_t low, int64_t high, IntList sizes, DType dtype) {
  Ref<Tensor> t = Tensor::empty(sizes, dtype, "randint");
  CT_CHECK(low < high, InvalidArgument,
           "random_ expects 'from' to be less than 'to', but got from=" << low << " >= to=" << high);
  CT_DISPATCH_ALL(dtype, [&] {
    using T = scalar_t;
    double lo, hi;
    if constexpr (std::is_same_v<T, Half>) {
      lo = -65504.0, hi = 65504.0;
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      lo = -3.3895313892515355e38, hi = 3.3895313892515355e38;
    } else {
      lo = double(std::numeric_limits<T>::lowest()), hi = double(std::numeric_limits<T>::max());
    }
    // torch compares in int64 for integer dtypes and in double for floating ones; every
    // integer limit is exact in double except int64's, which no int64 exceeds anyway.
    CT_CHECK(double(low) >= lo && double(low) <= hi, InvalidArgument,
             "randint(): from is out of bounds for " << cpp_type_name(dtype));
    CT_CHECK(double(high - 1) >= lo && double(high - 1) <= hi, InvalidArgument,
             "randint(): to - 1 is out of bounds for " << cpp_type_name(dtype));
  });
  const uint64_t range = uint64_t(high) - uint64_t(low);
  CT_DISPATCH_ALL(dtype, [&] {
    using T = scalar_t;
    generate<T>(*t, [&](const uint32_t* r) {
      // torch's uniform_int_from_to: 32 random bits when the range is below 2^32, else 64.
      const uint64_t v = range < (uint64_t(1) << 32) ? uint64_t(r[0]) % range : u64(r[0], r[1]) % range;
      return convert<T>(int64_t(uint64_t(low) + v));
    });
  });
  return t;
}

}  // namespace ct
