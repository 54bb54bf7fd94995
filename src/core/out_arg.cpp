// torch's out= rules (see out_arg.h).
#include "core/out_arg.h"

#include <algorithm>
#include <string_view>

#include "core/autograd/meta.h"
#include "core/copy.h"
#include "core/error.h"
#include "core/ops/promote.h"
#include "core/overlap.h"
#include "core/shape.h"
#include "core/storage.h"

namespace ct {
namespace {

bool rule_checks_overlap(OutRule rule) {
  return rule == OutRule::Castable || rule == OutRule::SameDtype || rule == OutRule::Cat ||
         rule == OutRule::IndexSelect || rule == OutRule::Where;
}

// torch's get_overlap_status(out, input) == Partial.
bool partial_overlap(const Tensor& out, const Tensor& in) {
  if (&out == &in) return false;  // same TensorImpl: Full, allowed
  if (out.numel() == 0 || in.numel() == 0) return false;
  if (!is_non_overlapping_and_dense(out.sizes(), out.strides()) ||
      !is_non_overlapping_and_dense(in.sizes(), in.strides()))
    return false;  // TooHard: not an error
  if (out.storage() != in.storage()) return false;
  const int64_t a0 = out.offset() * itemsize(out.dtype()), a1 = a0 + out.numel() * itemsize(out.dtype());
  const int64_t b0 = in.offset() * itemsize(in.dtype()), b1 = b0 + in.numel() * itemsize(in.dtype());
  if (a0 == b0 && a1 == b1)
    return !std::equal(out.strides().begin(), out.strides().end(), in.strides().begin(), in.strides().end());
  return a0 < b1 && b0 < a1;
}

bool same_sizes(IntList a, IntList b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

void check_dtype(const char* op, OutRule rule, const Tensor& out, const Tensor& result,
                 std::span<const Tensor* const> inputs) {
  const DType r = result.dtype(), o = out.dtype();
  switch (rule) {
    case OutRule::Castable:
      CT_CHECK(can_cast(r, o), DType,
               "result type " << torch_scalar_type_name(r) << " can't be cast to the desired output type "
                              << torch_scalar_type_name(o));
      return;
    case OutRule::SameDtype:
      // torch's abs of a complex input (unary_op_impl_with_complex_to_float_out): a real out
      // takes the real result if castable; a complex out must be the input's dtype.
      if (op && std::string_view(op) == "abs" && !inputs.empty() && is_complex(inputs[0]->dtype())) {
        if (!is_complex(o)) {
          CT_CHECK(can_cast(r, o), DType,
                   "result type " << torch_scalar_type_name(r) << " can't be cast to the desired output type "
                                  << torch_scalar_type_name(o));
        } else {
          CT_CHECK(o == inputs[0]->dtype(), DType,
                   "Found dtype " << torch_scalar_type_name(o) << " but expected "
                                  << torch_scalar_type_name(inputs[0]->dtype()));
        }
        return;
      }
      CT_CHECK(r == o, DType, "Found dtype " << torch_scalar_type_name(o) << " but expected " << torch_scalar_type_name(r));
      return;
    case OutRule::Strict:
      CT_CHECK(r == o, DType,
               "Expected out tensor to have dtype " << cpp_type_name(r) << ", but got " << cpp_type_name(o) << " instead");
      return;
    case OutRule::Any:
      return;
    case OutRule::ReduceSame: {
      const DType in = inputs.empty() ? r : inputs[0]->dtype();
      CT_CHECK(in == o, DType,
               "Expected the dtype for input and out to match, but got " << torch_scalar_type_name(in)
                   << " for input's dtype and " << torch_scalar_type_name(o) << " for out's dtype.");
      return;
    }
    case OutRule::Cat:
      CT_CHECK(can_cast(r, o), DType,
               "torch.cat(): input types can't be cast to the desired output type " << torch_scalar_type_name(o));
      return;
    case OutRule::IndexSelect:
      CT_CHECK(r == o, DType, "index_select(): self and result must have the same scalar type");
      return;
    case OutRule::Where:
      CT_CHECK(r == o, DType,
               "Expected out type to be " << torch_scalar_type_name(r) << " but got " << torch_scalar_type_name(o));
      return;
  }
  CT_FAIL(InvalidArgument, op << ": unknown out rule " << int(rule));
}

// torch's resize_ then, because sizes changed, the restride to the op's layout; no version
// bump here (torch counts the whole out= call as one write).
void resize_out(Tensor& out, const Tensor& result, const char* op) {
  CT_CHECK(!autograd::requires_grad(out), InvalidArgument, "cannot resize variables that require grad");
  const IntList sizes = result.sizes(), strides = result.strides();
  int64_t need = 0;
  if (result.numel() != 0) {  // result is dense with non-negative strides: its span is numel-sized
    int64_t last = out.offset(), step = 0;
    bool overflow = false;
    for (size_t d = 0; d < sizes.size(); ++d)
      overflow |= __builtin_mul_overflow(sizes[d] - 1, strides[d], &step) || __builtin_add_overflow(last, step, &last);
    overflow |= __builtin_add_overflow(last, int64_t(1), &last) || __builtin_mul_overflow(last, itemsize(out.dtype()), &need);
    CT_CHECK(!overflow, InvalidArgument,
             op << ": Storage size calculation overflowed with sizes=" << list_str(sizes) << " and storage offset "
                << out.offset());
  }
  out.storage()->grow_to(need, op);
  out.set_geometry(out.storage(), out.dtype(), sizes, strides, out.offset());
}

}  // namespace

void check_out_before(const char* op, OutRule rule, const Tensor& out, std::span<const Tensor* const> inputs) {
  CT_CHECK(static_cast<int>(rule) >= 0 && static_cast<int>(rule) < kNumOutRules, InvalidArgument,
           op << ": unknown out rule " << int(rule));
  if (autograd::grad_recording()) {
    bool any = autograd::requires_grad(out);
    for (const Tensor* t : inputs) any = any || autograd::requires_grad(*t);
    CT_CHECK(!any, InvalidArgument,
             op << "(): functions with out=... arguments don't support automatic differentiation, but one of the "
                   "arguments requires grad.");
  }
  if (!rule_checks_overlap(rule)) return;
  CT_CHECK(!torch_internal_overlap(out), Overlap,
           kInternalOverlapMessage);
  for (const Tensor* t : inputs)
    CT_CHECK(!partial_overlap(out, *t), Overlap,
             kPartialOverlapMessage);
}

bool write_out(const char* op, OutRule rule, Tensor& out, const Tensor& result,
               std::span<const Tensor* const> inputs) {
  check_out_before(op, rule, out, inputs);
  check_dtype(op, rule, out, result, inputs);
  bool warn = false;
  if (!same_sizes(out.sizes(), result.sizes())) {
    // TensorIterator never resizes an output that is also one of its inputs.
    const bool is_input = std::any_of(inputs.begin(), inputs.end(), [&](const Tensor* t) { return t == &out; });
    CT_CHECK(!(is_input && (rule == OutRule::Castable || rule == OutRule::SameDtype || rule == OutRule::Where)), Shape,
             "output with shape " << list_str(out.sizes()) << " doesn't match the broadcast shape "
                                  << list_str(result.sizes()));
    warn = out.numel() != 0;
    resize_out(out, result, op);
  }
  copy_into(out, result, op);  // converts, refuses a read-only out, bumps the version once
  return warn;
}

std::string out_resize_warning(IntList old_sizes, IntList new_sizes) {
  std::ostringstream os;
  os << "An output with one or more elements was resized since it had shape " << list_str(old_sizes)
     << ", which does not match the required output shape " << list_str(new_sizes)
     << ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they "
        "have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
        "with t.resize_(0).";
  return os.str();
}

}  // namespace ct
