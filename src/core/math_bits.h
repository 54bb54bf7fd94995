// torch's lazy conjugate and negative views and the functions that resolve them
// (Note [Math bits] in tensor.h): conj, _neg_view, resolve_conj, resolve_neg, conj_physical,
// conj_physical_, and the kernel that applies bits to bytes just copied.
#pragma once

#include "tensor.h"

namespace ct {

// torch's Tensor.conj(): t itself for a non-complex t; else a view of t (same storage, base
// and version counter) with the conj bit toggled, so conj of a conj view clears it.
Ref<Tensor> conj_view(const Tensor& t);
// torch._neg_view: a view with the neg bit toggled (floating and complex dtypes only).
Ref<Tensor> neg_view(const Tensor& t);
// t itself when the bit is clear, else clone(t) (whose values are resolved and which carries
// no bit: a clone resolves both bits, as torch's).
Ref<Tensor> resolve_conj(const Tensor& t);
Ref<Tensor> resolve_neg(const Tensor& t);
// t itself without bits, else clone(t): what an op that reads values computes on.
Ref<Tensor> resolve_math_bits(const Tensor& t);
// torch.conj_physical: t itself for a non-complex t; else a new tensor of the conjugated
// values (no bits).
Ref<Tensor> conj_physical(const Tensor& t);
// torch's Tensor.conj_physical_() on a tensor without bits (the C boundary resolves and
// writes back the others): conjugates the stored values of a complex t; bumps the version
// (a real t too, as torch does).  Checks: writable, no internal overlap.
void conj_physical_(const Tensor& t);
// Applies `bits` to the stored values of dst in place (no checks, no version bump):
// kConjBit negates the imaginary parts of a complex dst (nothing for a real one), kNegBit
// negates every value.  Float dtypes and complex only: flipping the sign bit is exact, NaN
// included (torch's negation does the same).
void apply_math_bits(const Tensor& dst, uint8_t bits);

}  // namespace ct
