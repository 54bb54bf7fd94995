// pow, floor_divide, remainder and fmod: elementwise, broadcasting, promoted dtype, each
// computed as PyTorch 2.13's CPU kernel computes it (see include/ctensor.h, Compute).
#pragma once

#include <cstdint>

#include "core/ops/elementwise.h"

namespace ct {

enum class MathOp { Pow, FloorDivide, Remainder, Fmod };

// a op b, either of them a Python-float scalar (Operand::of(double)).
Ref<Tensor> math_binary(MathOp op, Operand a, Operand b);
// self = self op other, in place (bumps self's version).
void math_binary_(MathOp op, const Tensor& self, Operand other);
// a ** exponent for a Python int exponent (torch's pow(Tensor, Scalar) with an integral
// Scalar): an integer result refuses a negative exponent and one its dtype cannot hold.
Ref<Tensor> pow_int(const Tensor& a, int64_t exponent);
void pow_int_(const Tensor& self, int64_t exponent);
// trunc(a / b) for floating a and b of one dtype (torch's div(rounding_mode="trunc"); fmod's
// backward uses it).
Ref<Tensor> div_trunc(const Tensor& a, const Tensor& b);

}  // namespace ct
