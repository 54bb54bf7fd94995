// pow, floor_divide, remainder, fmod.  The arithmetic of each is PyTorch 2.13's CPU kernel
// (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp: div_floor, remainder, fmod; PowKernel.cpp),
// reproduced here because torch's choices are visible in the values: floor division of floats
// goes through fmod and rounds the quotient (5 // 0.1 is 49 in torch, not 50); integer
// division by zero raises "ZeroDivisionError"; integer pow wraps and gives 0 for negative
// exponents of bases other than +-1; pow by a scalar 2, 3, -2, 0.5, -0.5, -1 takes the
// multiply / sqrt / reciprocal shortcuts torch takes.  Complex pow is std::pow of
// std::complex (glibc's cpow), as c10::complex's pow is on CPU.
#include "core/ops/binary_math.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "core/copy.h"
#include "core/error.h"
#include "core/iter.h"
#include "core/ops/complex_math.h"
#include "core/shape.h"

namespace ct {
namespace {

const char* op_name(MathOp op) {
  switch (op) {
    case MathOp::Pow: return "pow";
    case MathOp::FloorDivide: return "floor_divide";
    case MathOp::Remainder: return "remainder";
    case MathOp::Fmod: return "fmod";
  }
  return "?";
}

// The kernel name torch's "not implemented for 'Bool'" message carries.
const char* kernel_name(MathOp op) {
  switch (op) {
    case MathOp::Pow: return "pow";
    case MathOp::FloorDivide: return "div_floor_cpu";
    case MathOp::Remainder: return "remainder_cpu";
    case MathOp::Fmod: return "fmod_cpu";
  }
  return "?";
}

void check_not_bool(MathOp op, DType compute) {
  CT_CHECK(compute != DType::Bool, DType, "\"" << kernel_name(op) << "\" not implemented for 'Bool'");
  // torch has no complex floor_divide / remainder / fmod either (its pow has one)
  CT_CHECK(op == MathOp::Pow || !is_complex(compute), DType,
           "\"" << kernel_name(op) << "\" not implemented for '" << torch_scalar_type_name(compute) << "'");
}

// ---- the scalar functions --------------------------------------------------------------------

// Integer power by squaring, wrapping as unsigned arithmetic does (int8 3 ** 10 is -87).
template <class A>
A int_pow(A base, A exp) {
  if constexpr (std::is_signed_v<A>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp & 1) ? A(-1) : A(1);
      return 0;
    }
  }
  uint64_t result = 1, b = uint64_t(int64_t(base));
  for (uint64_t e = uint64_t(exp); e; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return A(result);
}

template <class A>
A int_floor_divide(A a, A b) {
  if constexpr (std::is_signed_v<A>) {
    if (b == -1) return A(uint64_t(0) - uint64_t(int64_t(a)));  // INT_MIN // -1 wraps, as torch
    A q = A(a / b);
    const A r = A(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) --q;
    return q;
  } else {
    return A(a / b);
  }
}

template <class A>
A int_remainder(A a, A b) {
  if constexpr (std::is_signed_v<A>) {
    if (b == -1) return 0;
    A r = A(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = A(r + b);
    return r;
  } else {
    return A(a % b);
  }
}

template <class A>
A int_fmod(A a, A b) {
  if constexpr (std::is_signed_v<A>) {
    if (b == -1) return 0;
  }
  return A(a % b);
}

template <class A>
A float_floor_divide(A a, A b) {
  if (b == 0) return a / b;
  const A mod = std::fmod(a, b);
  A div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  if (div == 0) return std::copysign(A(0), a / b);
  A floordiv = std::floor(div);
  if (div - floordiv > A(0.5)) floordiv += 1;
  return floordiv;
}

template <class A>
A float_remainder(A a, A b) {
  A mod = std::fmod(a, b);
  if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
  return mod;
}

// ---- loops ----------------------------------------------------------------------------------

// out[i] = f(a[i], b[i]) in acc_t<T>, all three of dtype T.
template <class T, class F>
void run(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
  using A = acc_t<T>;
  const Tensor* ops[3] = {&out, &a, &b};
  ElementwiseIter it(ops);
  it.for_each([&](char** p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const A x = static_cast<A>(*reinterpret_cast<const T*>(p[1] + i * s[1]));
      const A y = static_cast<A>(*reinterpret_cast<const T*>(p[2] + i * s[2]));
      *reinterpret_cast<T*>(p[0] + i * s[0]) = T(f(x, y));
    }
  });
}

// out[i] = f(a[i]).
template <class T, class F>
void run_unary(const Tensor& out, const Tensor& a, F f) {
  using A = acc_t<T>;
  const Tensor* ops[2] = {&out, &a};
  ElementwiseIter it(ops);
  it.for_each([&](char** p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(p[0] + i * s[0]) = T(f(static_cast<A>(*reinterpret_cast<const T*>(p[1] + i * s[1]))));
    }
  });
}

// torch checks integer divisors inside its kernels; checking first keeps an in-place self
// unwritten when it refuses.
void check_no_zero_divisor(const Tensor& b) {
  bool zero = false;
  const Tensor* ops[1] = {&b};
  ElementwiseIter it(ops);
  CT_DISPATCH_ALL(b.dtype(), [&] {
    it.for_each(
        [&](char** p, const int64_t* s, int64_t n) {
          for (int64_t i = 0; i < n && !zero; ++i) zero = *reinterpret_cast<const scalar_t*>(p[0] + i * s[0]) == scalar_t(0);
        },
        INT64_MAX);
  });
  CT_CHECK(!zero, InvalidArgument, "ZeroDivisionError");
}

// out = a op b in dtype T (a template, so that each dtype instantiates only its own branch).
template <class T>
void kernel_t(MathOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  using A = acc_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    CT_FAIL(Internal, op_name(op) << ": bool compute dtype");
  } else if constexpr (is_complex_v<T>) {
    CT_CHECK(op == MathOp::Pow, Internal, op_name(op) << ": complex compute dtype");
    run<T>(out, a, b, [](T x, T y) { return std::pow(x, y); });
  } else if constexpr (std::is_floating_point_v<A>) {
    switch (op) {
      case MathOp::Pow: run<T>(out, a, b, [](A x, A y) { return std::pow(x, y); }); break;
      case MathOp::FloorDivide: run<T>(out, a, b, [](A x, A y) { return float_floor_divide(x, y); }); break;
      case MathOp::Remainder: run<T>(out, a, b, [](A x, A y) { return float_remainder(x, y); }); break;
      case MathOp::Fmod: run<T>(out, a, b, [](A x, A y) { return std::fmod(x, y); }); break;
    }
  } else {
    switch (op) {
      case MathOp::Pow: run<T>(out, a, b, [](A x, A y) { return int_pow(x, y); }); break;
      case MathOp::FloorDivide: run<T>(out, a, b, [](A x, A y) { return int_floor_divide(x, y); }); break;
      case MathOp::Remainder: run<T>(out, a, b, [](A x, A y) { return int_remainder(x, y); }); break;
      case MathOp::Fmod: run<T>(out, a, b, [](A x, A y) { return int_fmod(x, y); }); break;
    }
  }
}

template <class T>
void div_trunc_t(const Tensor& out, const Tensor& a, const Tensor& b) {
  using A = acc_t<T>;
  if constexpr (std::is_floating_point_v<A>) run<T>(out, a, b, [](A x, A y) { return std::trunc(x / y); });
  else CT_FAIL(Internal, "div_trunc: integer dtype");
}

// out = a op b, all of out's dtype.
void kernel(MathOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  if (!is_floating(out.dtype()) && op != MathOp::Pow) check_no_zero_divisor(b);
  CT_DISPATCH_WITH_COMPLEX(out.dtype(), [&] { kernel_t<scalar_t>(op, out, a, b); });
}

// out = a ** e for a floating out (a in its dtype), with torch's shortcuts.  float16 rounds the
// exponent to float16 first (its kernel is std::pow(Half, Half)); bfloat16, float and double
// take it in their compute type.
template <class T>
void float_pow_scalar_t(const Tensor& out, const Tensor& a, double e) {
  using A = acc_t<T>;
  if constexpr (std::is_floating_point_v<A>) {
    if (out.dtype() != DType::Float16) {
      if (e == 0.5) return run_unary<T>(out, a, [](A x) { return std::sqrt(x); });
      if (e == -0.5) return run_unary<T>(out, a, [](A x) { return A(1) / std::sqrt(x); });
      if (e == -1.0) return run_unary<T>(out, a, [](A x) { return A(1) / x; });
      if (e == 2.0) return run_unary<T>(out, a, [](A x) { return x * x; });
      if (e == 3.0) return run_unary<T>(out, a, [](A x) { return x * x * x; });
      if (e == -2.0) return run_unary<T>(out, a, [](A x) { return A(1) / (x * x); });
    }
    const A ea = out.dtype() == DType::Float16 ? A(static_cast<float>(Half(float(e)))) : A(e);
    run_unary<T>(out, a, [ea](A x) { return std::pow(x, ea); });
  } else {
    CT_FAIL(Internal, "pow: integer dtype for a float exponent");
  }
}
// out = a ** e for a complex out, with torch's shortcuts (pow_tensor_scalar_kernel, and
// pow_out's fill / copy for e == 0 / 1, which std::pow would not give for 0 or inf bases).
// torch takes sqrt, rsqrt and reciprocal from their kernels (torch 2.13's complex reciprocal
// is c10::complex's division 1 / z); 2, 3 and -2 multiply as its vectorised loop does (no
// FMA); any other e goes to std::pow in the dtype's precision.
template <class T>
void complex_pow_scalar_t(const Tensor& out, const Tensor& a, std::complex<double> e) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    if (e == 0.0) return run_unary<T>(out, a, [](T) { return T(1); });
    if (e == 1.0) return run_unary<T>(out, a, [](T x) { return x; });
    if (e == 0.5) return run_unary<T>(out, a, [](T x) { return std::sqrt(x); });
    if (e == -0.5) return run_unary<T>(out, a, [](T x) { return creciprocal(std::sqrt(x)); });
    if (e == -1.0) return run_unary<T>(out, a, [](T x) { return creciprocal(x); });
    if (e == 2.0) return run_unary<T>(out, a, [](T x) { return cmul(x, x); });
    if (e == 3.0) return run_unary<T>(out, a, [](T x) { return cmul(cmul(x, x), x); });
    if (e == -2.0) return run_unary<T>(out, a, [](T x) { return cdiv(T(1), cmul(x, x)); });
    const T et(R(e.real()), R(e.imag()));
    run_unary<T>(out, a, [et](T x) { return std::pow(x, et); });
  } else {
    CT_FAIL(Internal, "pow: a real dtype for a complex result");
  }
}

void float_pow_scalar(const Tensor& out, const Tensor& a, std::complex<double> e) {
  if (is_complex(out.dtype()))
    return CT_DISPATCH_WITH_COMPLEX(out.dtype(), [&] { complex_pow_scalar_t<scalar_t>(out, a, e); });
  CT_DISPATCH_ALL(out.dtype(), [&] { float_pow_scalar_t<scalar_t>(out, a, e.real()); });
}

template <class T>
int64_t max_of() {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return int64_t(std::numeric_limits<T>::max());
  else return INT64_MAX;
}

// The C type name in torch's "value cannot be converted to type int8_t without overflow".
const char* c_type_name(DType d) {
  switch (d) {
    case DType::UInt8: return "uint8_t";
    case DType::Int8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: return "int32_t";
    default: return "int64_t";
  }
}

// out = a ** e for an integer out (a in its dtype); e >= 0 and fits the dtype.
template <class T>
void int_pow_scalar_t(const Tensor& out, const Tensor& a, int64_t e) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const T et = T(e);
    run_unary<T>(out, a, [et](T x) { return int_pow(x, et); });
  } else {
    CT_FAIL(Internal, "pow: non-integer dtype for an integer exponent");
  }
}
void int_pow_scalar(const Tensor& out, const Tensor& a, int64_t e) {
  CT_DISPATCH_ALL(out.dtype(), [&] { int_pow_scalar_t<scalar_t>(out, a, e); });
}

// The dtype pow(t, Python int) computes in, checking the exponent as torch does.
DType pow_int_dtype(DType self, bool self_zero_dim, int64_t e) {
  const OperandType types[2] = {{self, self_zero_dim ? OperandKind::ZeroDim : OperandKind::Dimensioned},
                                {DType::Int64, OperandKind::PythonInt}};
  const DType d = result_type(types);
  if (!is_floating(d) && !is_complex(d)) {
    CT_CHECK(e >= 0, InvalidArgument, "Integers to negative integer powers are not allowed.");
    bool fits = true;
    CT_DISPATCH_ALL(d, [&] { fits = e <= max_of<scalar_t>(); });
    CT_CHECK(fits, InvalidArgument, "value cannot be converted to type " << c_type_name(d) << " without overflow");
  }
  return d;
}

// Computes self op= with compute dtype d through fn(out, input), writing self or a converted
// temporary copied back (one version bump), after torch's in-place checks.
template <class Fn>
void in_place(const Tensor& self, DType d, const char* name, Fn fn) {
  CT_CHECK(can_cast(d, self.dtype()), DType,
           "result type " << torch_scalar_type_name(d) << " can't be cast to the desired output type "
                          << torch_scalar_type_name(self.dtype()));
  if (d == self.dtype()) {
    fn(self, self);
    self.bump_version();
  } else {
    Ref<Tensor> tmp = to_dtype(self, d);
    fn(*tmp, *tmp);
    copy_into(self, *tmp, name);
  }
}

}  // namespace

Ref<Tensor> math_binary(MathOp op, Operand a, Operand b) {
  const OperandType types[2] = {operand_type(a), operand_type(b)};
  const DType d = result_type(types);
  const char* name = op_name(op);
  check_not_bool(op, d);
  const Shape shape = broadcast_shapes(a.tensor ? a.tensor->sizes() : IntList(), b.tensor ? b.tensor->sizes() : IntList(), name);
  const MaybeOwned<Tensor> ta = operand_as(a, d);
  if (op == MathOp::Pow && a.tensor && !b.tensor) {  // tensor ** Python float: torch's pow(Tensor, Scalar)
    const Tensor* layout[1] = {ta.get()};
    Ref<Tensor> out = elementwise_output(shape, layout, d, name);
    float_pow_scalar(*out, *ta, {b.scalar, b.imag});
    return out;
  }
  const MaybeOwned<Tensor> tb = operand_as(b, d);
  const Tensor* layout[2] = {ta.get(), tb.get()};
  Ref<Tensor> out = elementwise_output(shape, layout, d, name);
  kernel(op, *out, *ta, *tb);
  return out;
}

void math_binary_(MathOp op, const Tensor& self, Operand other) {
  const char* name = op_name(op);
  const OperandType types[2] = {{self.dtype(), self.ndim() == 0 ? OperandKind::ZeroDim : OperandKind::Dimensioned},
                                operand_type(other)};
  const DType d = result_type(types);
  check_not_bool(op, d);
  check_writable(self, name);
  const Shape shape = broadcast_shapes(self.sizes(), other.tensor ? other.tensor->sizes() : IntList(), name);
  CT_CHECK(std::equal(shape.begin(), shape.end(), self.sizes().begin(), self.sizes().end()), Shape,
           "output with shape " << list_str(self.sizes()) << " doesn't match the broadcast shape " << list_str(shape));
  if (op == MathOp::Pow && !other.tensor) {
    in_place(self, d, name,
             [&](const Tensor& out, const Tensor& in) { float_pow_scalar(out, in, {other.scalar, other.imag}); });
    return;
  }
  // Checked before any write: in torch the kernel raises part-way, here self stays untouched.
  const MaybeOwned<Tensor> tother = unaliased(self, operand_as(other, d));
  in_place(self, d, name, [&](const Tensor& out, const Tensor& in) { kernel(op, out, in, *tother); });
}

Ref<Tensor> pow_int(const Tensor& a, int64_t exponent) {
  const DType d = pow_int_dtype(a.dtype(), a.ndim() == 0, exponent);
  if (is_floating(d) || is_complex(d)) return math_binary(MathOp::Pow, Operand::of(a), Operand::of(double(exponent)));
  Ref<Tensor> ta = to_dtype(a, d);
  const Tensor* layout[1] = {ta.get()};
  Ref<Tensor> out = elementwise_output(a.sizes(), layout, d, "pow");
  int_pow_scalar(*out, *ta, exponent);
  return out;
}

void pow_int_(const Tensor& self, int64_t exponent) {
  const DType d = pow_int_dtype(self.dtype(), self.ndim() == 0, exponent);
  if (is_floating(d) || is_complex(d)) return math_binary_(MathOp::Pow, self, Operand::of(double(exponent)));
  check_writable(self, "pow_");
  in_place(self, d, "pow_", [&](const Tensor& out, const Tensor& in) { int_pow_scalar(out, in, exponent); });
}

Ref<Tensor> div_trunc(const Tensor& a, const Tensor& b) {
  CT_CHECK(is_floating(a.dtype()) && a.dtype() == b.dtype(), Internal, "div_trunc: floating operands of one dtype");
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes(), "div");
  const Tensor* layout[2] = {&a, &b};
  Ref<Tensor> out = elementwise_output(shape, layout, a.dtype(), "div");
  CT_DISPATCH_ALL(a.dtype(), [&] { div_trunc_t<scalar_t>(*out, a, b); });
  return out;
}

}  // namespace ct
