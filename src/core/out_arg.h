// torch's out= arguments: one place that writes an already computed result into a
// caller-owned tensor with torch 2.13's rules (aten/src/ATen/native/Resize.cpp resize_output,
// TensorIterator's dtype and overlap checks, VariableType's requires-grad refusal), so every
// op's out variant is "compute, then write_out".  See "Out arguments" in include/ctensor.h.
#pragma once

#include <span>

#include "core/tensor.h"

namespace ct {

// Which dtype rule (and message) an op's out follows; torch's wording differs by op family.
enum class OutRule : int {
  Castable = 0,      // TensorIterator ops: can_cast(result, out) else "result type Float can't be cast to
                     // the desired output type Long"; overlap refused
  SameDtype = 1,     // neg, abs, clamp: "Found dtype Double but expected Float"; overlap refused
  Strict = 2,        // mm, matmul, max/min values and indices, argmax, gather: "Expected out tensor to
                     // have dtype float, but got double instead"; overlap not checked
  Any = 3,           // sum, prod, cumsum, cumprod, creation: any dtype (the op computes in out's dtype)
  ReduceSame = 4,    // amax, amin: "Expected the dtype for input and out to match, but got Float for
                     // input's dtype and Double for out's dtype."
  Cat = 5,           // cat, stack: "torch.cat(): input types can't be cast to the desired output type Long"
  IndexSelect = 6,   // "index_select(): self and result must have the same scalar type"
  Where = 7,         // where: "Expected out type to be Float but got Long"; overlap refused
};
inline constexpr int kNumOutRules = 8;

// The refusals torch makes before computing: under grad mode an argument (out included) that
// requires grad ("add(): functions with out=... arguments don't support automatic
// differentiation, but one of the arguments requires grad."), then for the rules that check
// overlap an out with internal overlap (a size>1 dim of stride 0) or one that partially
// overlaps an input (torch's get_overlap_status; an out that IS an input is fine).
void check_out_before(const char* op, OutRule rule, const Tensor& out, std::span<const Tensor* const> inputs);

// Writes result into out: the checks above, the dtype rule, then torch's resize_output (sizes
// that differ: out is resized in place — same storage object, grown when too small — and,
// only then, restrided to result's strides, the layout the op chose), then one converting
// copy.  out's version goes up by exactly one.  Returns whether out was resized from a shape
// with elements (torch's deprecation warning; C has no warning channel, the bindings warn).
bool write_out(const char* op, OutRule rule, Tensor& out, const Tensor& result,
               std::span<const Tensor* const> inputs);

// torch's warning text for that case.
std::string out_resize_warning(IntList old_sizes, IntList new_sizes);

}  // namespace ct
