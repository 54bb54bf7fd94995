// Complex arithmetic rounded as torch 2.13's CPU kernels round it, so that results match
// torch bit for bit (checked against the installed torch, AVX512 kernels):
//  - mul: (ac - bd) + (ad + bc)i, each product rounded (the vectorised kernel has no FMA);
//    not std::complex's operator*, which calls __mulsc3 for C99 Annex G NaN recovery.  torch's
//    scalar loops (strided operands) fuse two of the products: cmul_fused.  The scalar tail
//    of its vectorised loop (the last n % 16 complex64 / n % 8 complex128 elements of a
//    contiguous row) rounds yet another way, not reproduced: 1 ulp apart at most there.
//  - div: c10::complex's operator/ (c10/util/complex.h, Smith's algorithm as NumPy's), which
//    the vectorised kernel calls element by element; torch's build contracts its a + b * r
//    expressions into fused multiply-adds, so they are std::fma here.
//  - reciprocal: 1 / z by c10's division, as torch 2.13's reciprocal kernel gives it (checked:
//    equal bit for bit to torch.reciprocal and 1 / z; conj(z) / |z|^2 is not).
#pragma once

#include <cmath>
#include <complex>

namespace ct {

template <class T>
inline std::complex<T> cmul(std::complex<T> x, std::complex<T> y) {
  const T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  return {ac - bd, ad + bc};
}

// The same product as torch's scalar (strided) loops compute it: the compiler fused a*c and
// a*d into the sums, (fma(a, c, -(b*d)), fma(a, d, b*c)).
template <class T>
inline std::complex<T> cmul_fused(std::complex<T> x, std::complex<T> y) {
  const T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  return {std::fma(a, c, -(b * d)), std::fma(a, d, b * c)};
}

template <class T>
inline std::complex<T> cdiv(std::complex<T> x, std::complex<T> y) {
  const T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const T abs_c = std::abs(c), abs_d = std::abs(d);
  if (abs_c >= abs_d) {
    if (abs_c == T(0) && abs_d == T(0)) return {a / abs_c, b / abs_d};  // complex inf or nan
    const T rat = d / c;
    const T scl = T(1) / std::fma(d, rat, c);
    return {std::fma(b, rat, a) * scl, std::fma(-a, rat, b) * scl};
  }
  const T rat = c / d;
  const T scl = T(1) / std::fma(c, rat, d);
  return {std::fma(a, rat, b) * scl, std::fma(b, rat, -a) * scl};
}

template <class T>
inline std::complex<T> creciprocal(std::complex<T> z) {
  return cdiv(std::complex<T>(1), z);
}

// torch's abs of a complex value (Sleef's hypot, correctly rounded in practice): the real
// dtype's value.
template <class T>
inline T cabs(std::complex<T> z) {
  return std::hypot(z.real(), z.imag());
}

}  // namespace ct
