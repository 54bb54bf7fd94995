// Integer arithmetic that wraps modulo 2^bits, as PyTorch's kernels do in practice, instead of
// signed overflow, which is undefined in C++ (UBSan reports it; the optimizer may assume it
// never happens).  Other types (bool, floating point, complex) use their own operators.
#pragma once

#include <type_traits>

namespace ct {

template <class T>
inline T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return T(U(U(a) + U(b)));
  } else {
    return a + b;
  }
}
template <class T>
inline T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return T(U(U(a) - U(b)));
  } else {
    return a - b;
  }
}
// Types narrower than int are multiplied as unsigned int: uint16 * uint16 promotes to (signed)
// int, whose product can overflow.
template <class T>
inline T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), int, T>>;
    return T(U(U(a) * U(b)));
  } else {
    return a * b;
  }
}

}  // namespace ct
