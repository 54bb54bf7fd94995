// pow, floor_divide, remainder, fmod: one line each through the guard into
// core/autograd (which records PowBackward0/1/2, RemainderBackward0/1, FmodBackward0/1) and
// core/ops/binary_math.
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/ops/binary_math.h"

using namespace ct;
using namespace ct::capi;

namespace {

ct_tensor* tt_call(MathOp op, const ct_tensor* a, const ct_tensor* b, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::math_binary(op, Operand::of(value_arg(a, name, "a")), Operand::of(value_arg(b, name, "b"))));
  });
}
ct_status tt_inplace_call(MathOp op, ct_tensor* self, const ct_tensor* other, const char* name) {
  return guard_status(
      [&] { ag::math_binary_(op, value_arg(self, name, "self"), Operand::of(value_arg(other, name, "other"))); });
}
ct_tensor* scalar_call(MathOp op, const ct_tensor* a, double s, bool reflected, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Operand t = Operand::of(value_arg(a, name));
    return to_handle(reflected ? ag::math_binary(op, Operand::of(s), t) : ag::math_binary(op, t, Operand::of(s)));
  });
}
ct_status scalar_inplace_call(MathOp op, ct_tensor* self, double s, const char* name) {
  return guard_status([&] { ag::math_binary_(op, value_arg(self, name, "self"), Operand::of(s)); });
}
ct_tensor* complex_scalar_call(const ct_tensor* a, std::complex<double> z, bool reflected, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Operand t = Operand::of(value_arg(a, name));
    return to_handle(reflected ? ag::math_binary(MathOp::Pow, Operand::of(z), t)
                               : ag::math_binary(MathOp::Pow, t, Operand::of(z)));
  });
}

}  // namespace

extern "C" {

ct_tensor* ct_pow(const ct_tensor* a, const ct_tensor* b) { return tt_call(MathOp::Pow, a, b, "ct_pow"); }
ct_status ct_pow_(ct_tensor* s, const ct_tensor* o) { return tt_inplace_call(MathOp::Pow, s, o, "ct_pow_"); }
ct_tensor* ct_pow_scalar(const ct_tensor* a, double e) { return scalar_call(MathOp::Pow, a, e, false, "ct_pow_scalar"); }
ct_status ct_pow_scalar_(ct_tensor* t, double e) { return scalar_inplace_call(MathOp::Pow, t, e, "ct_pow_scalar_"); }
ct_tensor* ct_rpow_scalar(const ct_tensor* a, double base) {
  return scalar_call(MathOp::Pow, a, base, true, "ct_rpow_scalar");
}
ct_tensor* ct_pow_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_scalar_call(a, {re, im}, false, "ct_pow_complex_scalar");
}
ct_status ct_pow_complex_scalar_(ct_tensor* self, double re, double im) {
  return guard_status([&] {
    ag::math_binary_(MathOp::Pow, value_arg(self, "ct_pow_complex_scalar_", "self"), Operand::of(std::complex<double>(re, im)));
  });
}
ct_tensor* ct_rpow_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_scalar_call(a, {re, im}, true, "ct_rpow_complex_scalar");
}
ct_tensor* ct_pow_int(const ct_tensor* a, int64_t e) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::pow_int(value_arg(a, "ct_pow_int"), e)); });
}
ct_status ct_pow_int_(ct_tensor* self, int64_t e) {
  return guard_status([&] { ag::pow_int_(value_arg(self, "ct_pow_int_", "self"), e); });
}

ct_tensor* ct_floor_divide(const ct_tensor* a, const ct_tensor* b) {
  return tt_call(MathOp::FloorDivide, a, b, "ct_floor_divide");
}
ct_status ct_floor_divide_(ct_tensor* s, const ct_tensor* o) {
  return tt_inplace_call(MathOp::FloorDivide, s, o, "ct_floor_divide_");
}
ct_tensor* ct_floor_divide_scalar(const ct_tensor* a, double s) {
  return scalar_call(MathOp::FloorDivide, a, s, false, "ct_floor_divide_scalar");
}
ct_status ct_floor_divide_scalar_(ct_tensor* t, double s) {
  return scalar_inplace_call(MathOp::FloorDivide, t, s, "ct_floor_divide_scalar_");
}
ct_tensor* ct_rfloor_divide_scalar(const ct_tensor* a, double s) {
  return scalar_call(MathOp::FloorDivide, a, s, true, "ct_rfloor_divide_scalar");
}

ct_tensor* ct_remainder(const ct_tensor* a, const ct_tensor* b) {
  return tt_call(MathOp::Remainder, a, b, "ct_remainder");
}
ct_status ct_remainder_(ct_tensor* s, const ct_tensor* o) {
  return tt_inplace_call(MathOp::Remainder, s, o, "ct_remainder_");
}
ct_tensor* ct_remainder_scalar(const ct_tensor* a, double s) {
  return scalar_call(MathOp::Remainder, a, s, false, "ct_remainder_scalar");
}
ct_status ct_remainder_scalar_(ct_tensor* t, double s) {
  return scalar_inplace_call(MathOp::Remainder, t, s, "ct_remainder_scalar_");
}
ct_tensor* ct_rremainder_scalar(const ct_tensor* a, double s) {
  return scalar_call(MathOp::Remainder, a, s, true, "ct_rremainder_scalar");
}

ct_tensor* ct_fmod(const ct_tensor* a, const ct_tensor* b) { return tt_call(MathOp::Fmod, a, b, "ct_fmod"); }
ct_status ct_fmod_(ct_tensor* s, const ct_tensor* o) { return tt_inplace_call(MathOp::Fmod, s, o, "ct_fmod_"); }
ct_tensor* ct_fmod_scalar(const ct_tensor* a, double s) { return scalar_call(MathOp::Fmod, a, s, false, "ct_fmod_scalar"); }
ct_status ct_fmod_scalar_(ct_tensor* t, double s) { return scalar_inplace_call(MathOp::Fmod, t, s, "ct_fmod_scalar_"); }

}  // extern "C"
