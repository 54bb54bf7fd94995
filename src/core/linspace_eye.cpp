// torch.linspace and torch.eye.  linspace reproduces torch's kernel
// (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp): the first half counts up from start,
// the second half down from end, so both ends are exact; integer dtypes step in double and
// truncate; float16/bfloat16 round after every operation, as c10::Half arithmetic does.
#include "linspace_eye.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "error.h"
#include "factory.h"
#include "ops/promote.h"

namespace ct {
namespace {

// torch's arithmetic for one dtype: Ops<T>::at(base, step, k) is base + k * step as its
// kernel computes it (c10::Half and BFloat16 convert an integer k to their own type and round
// every operation; integer dtypes step in double and truncate when storing).
template <class T, class = void>
struct Ops {
  using S = std::conditional_t<std::is_integral_v<T>, double, T>;  // torch's step_t
  static S from(T v) { return static_cast<S>(v); }
  // torch's CPU kernels are built for AVX-512 with contraction on: base + step * k is one
  // fused multiply-add there (3 .. -2.5 in 7 float steps has 0.25000006 in the middle)
  static S at(S base, S step, int64_t k) { return std::fma(step, static_cast<S>(k), base); }
  static S sub(S a, S b) { return a - b; }
  static S div(S a, int64_t k) { return a / static_cast<S>(k); }
  static T store(S v) { return static_cast<T>(v); }
};
template <class T>
struct Ops<T, std::enable_if_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>>> {
  using S = float;  // values already rounded to T
  static float r(float v) { return static_cast<float>(T(v)); }
  static S from(T v) { return static_cast<float>(v); }
  static S at(S base, S step, int64_t k) { return r(base + r(step * r(float(k)))); }
  static S sub(S a, S b) { return r(a - b); }
  static S div(S a, int64_t k) { return r(a / r(float(k))); }
  static T store(S v) { return T(v); }
};

// torch's linspace formula on a contiguous output of steps elements: the first half counts
// up from start, the second half down from end (compared with torch 2.13 for every dtype, up
// to 100 steps, in tests/python/test_pow_floor_norm.py).
template <class T>
void fill_linspace(T* out, double start_d, double end_d, int64_t steps) {
  using O = Ops<T>;
  using S = typename O::S;
  const S start = O::from(convert<T>(start_d)), end = O::from(convert<T>(end_d));
  const S step = O::div(O::sub(end, start), steps - 1);
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    out[i] = O::store(i < halfway ? O::at(start, step, i) : O::at(end, -step, steps - i - 1));
  }
}

}  // namespace

Ref<Tensor> linspace(double start, double end, int64_t steps, DType dtype) {
  CT_CHECK(steps >= 0, InvalidArgument, "number of steps must be non-negative");
  CT_CHECK(is_floating(dtype) || (std::isfinite(start) && std::isfinite(end)), InvalidArgument,
           "linspace: start and end must be finite for an integer dtype, got " << start << " and " << end);
  Ref<Tensor> out = Tensor::empty(Shape{steps}, dtype, "linspace");
  if (steps == 0) return out;
  // torch fills one step with start and calls its kernel (no bool) only for two or more
  CT_CHECK(dtype != DType::Bool || steps == 1, DType, "\"linspace_cpu\" not implemented for 'Bool'");
  CT_DISPATCH_ALL(dtype, [&] {
    scalar_t* p = reinterpret_cast<scalar_t*>(out->data());
    if (steps == 1) {
      p[0] = convert<scalar_t>(start);
    } else if constexpr (!std::is_same_v<scalar_t, bool>) {
      fill_linspace<scalar_t>(p, start, end, steps);
    }
  });
  return out;
}

Ref<Tensor> eye(int64_t n, int64_t m, DType dtype) {
  CT_CHECK(n >= 0, InvalidArgument, "n must be greater or equal to 0, got " << n);
  CT_CHECK(m >= 0, InvalidArgument, "m must be greater or equal to 0, got " << m);
  Ref<Tensor> out = full(Shape{n, m}, 0.0, dtype, "eye");
  CT_DISPATCH_ALL(dtype, [&] {
    scalar_t* p = reinterpret_cast<scalar_t*>(out->data());
    for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = convert<scalar_t>(1.0);
  });
  return out;
}

}  // namespace ct
