// Element types: the twelve dtypes, their C++ types, and conversion between them.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "error.h"
#include "half.h"

namespace ct {

// Values equal ct_dtype's (they are ABI).
enum class DType : int8_t {
  Bool = 0, UInt8 = 1, Int8 = 2, Int16 = 3, Int32 = 4, Int64 = 5,
  Float16 = 6, BFloat16 = 7, Float32 = 8, Float64 = 9, Complex64 = 10, Complex128 = 11,
};
constexpr int kNumDTypes = 12;

inline bool is_valid_dtype(int d) { return d >= 0 && d < kNumDTypes; }
// Real floating point (torch's is_floating_point: false for complex).
inline bool is_floating(DType d) { return d >= DType::Float16 && d <= DType::Float64; }
inline bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
inline bool is_integral(DType d, bool include_bool) {
  return d == DType::Bool ? include_bool : d < DType::Float16;
}
// The real dtype of a complex one's parts (complex64 -> float32); d itself when real.
inline DType real_part_dtype(DType d) {
  return d == DType::Complex64 ? DType::Float32 : d == DType::Complex128 ? DType::Float64 : d;
}
// The complex dtype whose parts are d (float32 -> complex64, float64 -> complex128).
inline DType complex_of(DType d) { return d == DType::Float64 ? DType::Complex128 : DType::Complex64; }

// Bytes per element.  Inline: read by every tensor made and every kernel set up.
inline constexpr int64_t kItemSizes[kNumDTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
inline int64_t itemsize(DType d) { return kItemSizes[int(d)]; }
const char* dtype_name(DType d);  // "float32", ...
// torch's ScalarType name, as its messages print it: "Float", "Long", "ComplexFloat", ...
const char* torch_scalar_type_name(DType d);
// Throws DType naming `op` if d is not one of the twelve.
DType checked_dtype(int d, const char* op);

template <DType D> struct TypeOf;
template <> struct TypeOf<DType::Bool> { using type = bool; };
template <> struct TypeOf<DType::UInt8> { using type = uint8_t; };
template <> struct TypeOf<DType::Int8> { using type = int8_t; };
template <> struct TypeOf<DType::Int16> { using type = int16_t; };
template <> struct TypeOf<DType::Int32> { using type = int32_t; };
template <> struct TypeOf<DType::Int64> { using type = int64_t; };
template <> struct TypeOf<DType::Float16> { using type = Half; };
template <> struct TypeOf<DType::BFloat16> { using type = BFloat16; };
template <> struct TypeOf<DType::Float32> { using type = float; };
template <> struct TypeOf<DType::Float64> { using type = double; };
template <> struct TypeOf<DType::Complex64> { using type = std::complex<float>; };
template <> struct TypeOf<DType::Complex128> { using type = std::complex<double>; };

// An element moved without being looked at, for kernels that dispatch on the item size
// only (gather, flip, the copy engine): complex128's 16 bytes.
struct Bytes16 {
  uint64_t lo, hi;
};

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;

// The type arithmetic on T is done in: float for float16/bfloat16 (as torch's CPU kernels),
// T itself otherwise.
template <class T> struct AccOf { using type = T; };
template <> struct AccOf<Half> { using type = float; };
template <> struct AccOf<BFloat16> { using type = float; };
template <class T> using acc_t = typename AccOf<T>::type;

// Reads one element of type T stored at p.  A bool element is read through its byte, any
// non-zero byte being true (as torch reads them): bool storages can hold any byte (ct_empty,
// ct_from_blob, DLPack), and loading a byte other than 0 or 1 as C++ bool is undefined
// behaviour.  Every kernel reads elements through this.
template <class T>
inline T load(const void* p) {
  if constexpr (std::is_same_v<T, bool>) return *static_cast<const unsigned char*>(p) != 0;
  else return *static_cast<const T*>(p);
}

// Converts one value the way PyTorch's casts do on x86, without undefined behaviour:
// to bool is x != 0; float to integer truncates toward zero (see below for NaN and values
// out of range); integer to narrower integer wraps.
template <class To, class From>
inline To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex_v<To>) {
    // real -> complex: imaginary part 0; complex -> complex: each part converted.
    using P = typename To::value_type;
    if constexpr (is_complex_v<From>) return To(P(x.real()), P(x.imag()));
    else return To(convert<P>(x), P(0));
  } else if constexpr (is_complex_v<From>) {
    // complex -> bool: either part non-zero; -> any other real type: the real part, as
    // torch's casts (Python warns that the imaginary part is discarded).
    if constexpr (std::is_same_v<To, bool>) return x.real() != 0 || x.imag() != 0;
    else return convert<To>(x.real());
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) {
      return float(x) != 0.0f;
    } else {
      return x != From(0);
    }
  } else if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>) {
    return convert<To>(float(x));
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(float(x));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);
  } else if constexpr (std::is_floating_point_v<From>) {  // float -> integer
    // x86's truncating conversion: int64 targets convert in 64 bits, narrower ones in 32
    // bits and then wrap; NaN and out-of-range values give the "integer indefinite"
    // INT64_MIN / INT32_MIN.  This is what PyTorch 1.13 produces on x86.
    if constexpr (sizeof(To) == 8) {
      if (!(x >= From(-9223372036854775808.0) && x < From(9223372036854775808.0))) {
        return static_cast<To>(std::numeric_limits<int64_t>::min());
      }
      return static_cast<To>(static_cast<int64_t>(x));
    } else {
      int32_t wide = std::numeric_limits<int32_t>::min();
      if (x > From(-2147483649.0) && x < From(2147483648.0)) wide = static_cast<int32_t>(x);
      return static_cast<To>(static_cast<uint32_t>(wide));  // modular narrowing, defined
    }
  } else {
    return static_cast<To>(x);  // integer -> integer: modular (defined since C++20, and in practice)
  }
}

}  // namespace ct

// Runs the block with `scalar_t` bound to the C++ type of dtype `d`.
#define CT_DISPATCH_ALL(d, ...)                                                      \
  [&] {                                                                              \
    switch (d) {                                                                     \
      case ::ct::DType::Bool: { using scalar_t = bool; return __VA_ARGS__(); }       \
      case ::ct::DType::UInt8: { using scalar_t = uint8_t; return __VA_ARGS__(); }   \
      case ::ct::DType::Int8: { using scalar_t = int8_t; return __VA_ARGS__(); }     \
      case ::ct::DType::Int16: { using scalar_t = int16_t; return __VA_ARGS__(); }   \
      case ::ct::DType::Int32: { using scalar_t = int32_t; return __VA_ARGS__(); }   \
      case ::ct::DType::Int64: { using scalar_t = int64_t; return __VA_ARGS__(); }   \
      case ::ct::DType::Float16: { using scalar_t = ::ct::Half; return __VA_ARGS__(); } \
      case ::ct::DType::BFloat16: { using scalar_t = ::ct::BFloat16; return __VA_ARGS__(); } \
      case ::ct::DType::Float32: { using scalar_t = float; return __VA_ARGS__(); }   \
      case ::ct::DType::Float64: { using scalar_t = double; return __VA_ARGS__(); }  \
      case ::ct::DType::Complex64:                                                   \
      case ::ct::DType::Complex128: break;                                           \
    }                                                                                \
    ::ct::fail_not_implemented(d, nullptr);                                          \
  }()

// CT_DISPATCH_ALL plus the two complex dtypes (scalar_t = std::complex<float/double>), for
// the kernels that handle complex values: so far conversions, fills, nonzero, masked_fill and
// item; every other kernel refuses complex through CT_DISPATCH_ALL's fallback.
#define CT_DISPATCH_WITH_COMPLEX(d, ...)                                              \
  [&] {                                                                              \
    if ((d) == ::ct::DType::Complex64) {                                             \
      using scalar_t = std::complex<float>;                                          \
      return __VA_ARGS__();                                                          \
    }                                                                                \
    if ((d) == ::ct::DType::Complex128) {                                            \
      using scalar_t = std::complex<double>;                                         \
      return __VA_ARGS__();                                                          \
    }                                                                                \
    return CT_DISPATCH_ALL(d, __VA_ARGS__);                                          \
  }()

namespace ct {
// Refuses a Python-float scalar that does not fit dtype, as PyTorch does for fill/full:
// "value cannot be converted to type uint8_t without overflow" (-1.0 for uint8, 127.5 for
// int8); inf and nan fit floating types only.
void check_scalar_fits(double value, DType d);

// Throws DType: "<op>: not implemented for 'ComplexFloat' (...)", the refusal of an op that
// has no kernel for d (a complex dtype); op may be null (CT_DISPATCH_ALL's fallback).
[[noreturn]] void fail_not_implemented(DType d, const char* op);
// The same refusal when d is complex, for ops that pick their dtype before dispatching.
inline void refuse_complex(DType d, const char* op) {
  if (is_complex(d)) fail_not_implemented(d, op);
}
}  // namespace ct
