// Elementwise compute: arithmetic, math, comparisons, where, fill, equal/allclose/item,
// cat/stack.  Every function is one line through the guard into core/ops/elementwise.
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/ops/elementwise.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

namespace {

ct_tensor* binary_call(BinaryOp op, const ct_tensor* a, const ct_tensor* b, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::binary(op, Operand::of(value_arg(a, name, "a")), Operand::of(value_arg(b, name, "b"))));
  });
}
ct_status binary_inplace_call(BinaryOp op, ct_tensor* self, const ct_tensor* other, const char* name) {
  return guard_status([&] { ag::binary_(op, value_arg(self, name, "self"), Operand::of(value_arg(other, name, "other"))); });
}
ct_tensor* scaled_call(BinaryOp op, const ct_tensor* a, const ct_tensor* b, double alpha, const char* name) {
  return guard<ct_tensor*>(nullptr,
                           [&] { return to_handle(ag::add_scaled(op, value_arg(a, name, "a"), value_arg(b, name, "b"), alpha)); });
}
ct_status scaled_inplace_call(BinaryOp op, ct_tensor* self, const ct_tensor* other, double alpha, const char* name) {
  return guard_status(
      [&] { ag::add_scaled_(op, value_arg(self, name, "self"), value_arg(other, name, "other"), alpha); });
}
ct_tensor* scalar_call(BinaryOp op, const ct_tensor* a, double s, bool reflected, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Operand t = Operand::of(value_arg(a, name));
    return to_handle(reflected ? ag::binary(op, Operand::of(s), t) : ag::binary(op, t, Operand::of(s)));
  });
}
ct_status scalar_inplace_call(BinaryOp op, ct_tensor* self, double s, const char* name) {
  return guard_status([&] { ag::binary_(op, value_arg(self, name, "self"), Operand::of(s)); });
}
ct_tensor* complex_scalar_call(BinaryOp op, const ct_tensor* a, double re, double im, bool reflected,
                               const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Operand t = Operand::of(value_arg(a, name)), z = Operand::of(std::complex<double>(re, im));
    return to_handle(reflected ? ag::binary(op, z, t) : ag::binary(op, t, z));
  });
}
ct_status complex_scalar_inplace_call(BinaryOp op, ct_tensor* self, double re, double im, const char* name) {
  return guard_status(
      [&] { ag::binary_(op, value_arg(self, name, "self"), Operand::of(std::complex<double>(re, im))); });
}
ct_tensor* complex_compare_call(CompareOp op, const ct_tensor* a, double re, double im, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(compare(op, Operand::of(value_arg(a, name)), Operand::of(std::complex<double>(re, im))));
  });
}
ct_tensor* unary_call(UnaryOp op, const ct_tensor* a, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::unary(op, value_arg(a, name))); });
}
ct_status unary_inplace_call(UnaryOp op, ct_tensor* self, const char* name) {
  return guard_status([&] { ag::unary_(op, value_arg(self, name, "self")); });
}
ct_tensor* compare_call(CompareOp op, const ct_tensor* a, const ct_tensor* b, const char* name) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(compare(op, Operand::of(value_arg(a, name, "a")), Operand::of(value_arg(b, name, "b"))));
  });
}
ct_tensor* compare_scalar_call(CompareOp op, const ct_tensor* a, double s, const char* name) {
  return guard<ct_tensor*>(nullptr,
                           [&] { return to_handle(compare(op, Operand::of(value_arg(a, name)), Operand::of(s))); });
}

std::vector<const Tensor*> tensor_list(int n, const ct_tensor* const* tensors, const char* name) {
  CT_CHECK(n > 0, InvalidArgument, name << ": expected a non-empty list of tensors, got n = " << n);
  CT_CHECK(tensors != nullptr, InvalidArgument, name << ": tensors is NULL");
  std::vector<const Tensor*> list;
  for (int i = 0; i < n; ++i) list.push_back(&value_arg(tensors[i], name, "tensors[i]"));
  return list;
}

}  // namespace

extern "C" {

ct_tensor* ct_add(const ct_tensor* a, const ct_tensor* b) { return binary_call(BinaryOp::Add, a, b, "ct_add"); }
ct_tensor* ct_sub(const ct_tensor* a, const ct_tensor* b) { return binary_call(BinaryOp::Sub, a, b, "ct_sub"); }
ct_tensor* ct_mul(const ct_tensor* a, const ct_tensor* b) { return binary_call(BinaryOp::Mul, a, b, "ct_mul"); }
ct_tensor* ct_div(const ct_tensor* a, const ct_tensor* b) { return binary_call(BinaryOp::Div, a, b, "ct_div"); }
ct_status ct_add_(ct_tensor* s, const ct_tensor* o) { return binary_inplace_call(BinaryOp::Add, s, o, "ct_add_"); }
ct_status ct_sub_(ct_tensor* s, const ct_tensor* o) { return binary_inplace_call(BinaryOp::Sub, s, o, "ct_sub_"); }
ct_status ct_mul_(ct_tensor* s, const ct_tensor* o) { return binary_inplace_call(BinaryOp::Mul, s, o, "ct_mul_"); }
ct_status ct_div_(ct_tensor* s, const ct_tensor* o) { return binary_inplace_call(BinaryOp::Div, s, o, "ct_div_"); }

ct_tensor* ct_add_alpha(const ct_tensor* a, const ct_tensor* b, double alpha) {
  return scaled_call(BinaryOp::Add, a, b, alpha, "ct_add_alpha");
}
ct_tensor* ct_sub_alpha(const ct_tensor* a, const ct_tensor* b, double alpha) {
  return scaled_call(BinaryOp::Sub, a, b, alpha, "ct_sub_alpha");
}
ct_status ct_add_alpha_(ct_tensor* self, const ct_tensor* other, double alpha) {
  return scaled_inplace_call(BinaryOp::Add, self, other, alpha, "ct_add_alpha_");
}
ct_status ct_sub_alpha_(ct_tensor* self, const ct_tensor* other, double alpha) {
  return scaled_inplace_call(BinaryOp::Sub, self, other, alpha, "ct_sub_alpha_");
}

ct_tensor* ct_add_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Add, a, s, false, "ct_add_scalar"); }
ct_tensor* ct_sub_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Sub, a, s, false, "ct_sub_scalar"); }
ct_tensor* ct_mul_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Mul, a, s, false, "ct_mul_scalar"); }
ct_tensor* ct_div_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Div, a, s, false, "ct_div_scalar"); }
ct_tensor* ct_rsub_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Sub, a, s, true, "ct_rsub_scalar"); }
ct_tensor* ct_rdiv_scalar(const ct_tensor* a, double s) { return scalar_call(BinaryOp::Div, a, s, true, "ct_rdiv_scalar"); }
ct_status ct_add_scalar_(ct_tensor* t, double s) { return scalar_inplace_call(BinaryOp::Add, t, s, "ct_add_scalar_"); }
ct_status ct_sub_scalar_(ct_tensor* t, double s) { return scalar_inplace_call(BinaryOp::Sub, t, s, "ct_sub_scalar_"); }
ct_status ct_mul_scalar_(ct_tensor* t, double s) { return scalar_inplace_call(BinaryOp::Mul, t, s, "ct_mul_scalar_"); }
ct_status ct_div_scalar_(ct_tensor* t, double s) { return scalar_inplace_call(BinaryOp::Div, t, s, "ct_div_scalar_"); }

ct_status ct_fill_(ct_tensor* self, double value) {
  return guard_status([&] { ag::fill_(value_arg(self, "ct_fill_", "self"), value); });
}
ct_status ct_fill_tensor_(ct_tensor* self, const ct_tensor* value) {
  return guard_status(
      [&] { ag::fill_(value_arg(self, "ct_fill_tensor_", "self"), value_arg(value, "ct_fill_tensor_", "value")); });
}
ct_status ct_fill_complex_(ct_tensor* self, double re, double im) {
  return guard_status(
      [&] { ag::fill_complex_(value_arg(self, "ct_fill_complex_", "self"), std::complex<double>(re, im)); });
}
ct_status ct_zero_(ct_tensor* self) {
  return guard_status([&] { ag::zero_(value_arg(self, "ct_zero_", "self")); });
}

ct_tensor* ct_neg(const ct_tensor* a) { return unary_call(UnaryOp::Neg, a, "ct_neg"); }
ct_tensor* ct_abs(const ct_tensor* a) { return unary_call(UnaryOp::Abs, a, "ct_abs"); }
ct_tensor* ct_exp(const ct_tensor* a) { return unary_call(UnaryOp::Exp, a, "ct_exp"); }
ct_tensor* ct_log(const ct_tensor* a) { return unary_call(UnaryOp::Log, a, "ct_log"); }
ct_tensor* ct_sqrt(const ct_tensor* a) { return unary_call(UnaryOp::Sqrt, a, "ct_sqrt"); }
ct_tensor* ct_sin(const ct_tensor* a) { return unary_call(UnaryOp::Sin, a, "ct_sin"); }
ct_tensor* ct_cos(const ct_tensor* a) { return unary_call(UnaryOp::Cos, a, "ct_cos"); }
ct_tensor* ct_tanh(const ct_tensor* a) { return unary_call(UnaryOp::Tanh, a, "ct_tanh"); }
ct_tensor* ct_sigmoid(const ct_tensor* a) { return unary_call(UnaryOp::Sigmoid, a, "ct_sigmoid"); }
ct_tensor* ct_relu(const ct_tensor* a) { return unary_call(UnaryOp::Relu, a, "ct_relu"); }
ct_status ct_neg_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Neg, s, "ct_neg_"); }
ct_status ct_abs_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Abs, s, "ct_abs_"); }
ct_status ct_exp_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Exp, s, "ct_exp_"); }
ct_status ct_log_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Log, s, "ct_log_"); }
ct_status ct_sqrt_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Sqrt, s, "ct_sqrt_"); }
ct_status ct_sin_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Sin, s, "ct_sin_"); }
ct_status ct_cos_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Cos, s, "ct_cos_"); }
ct_status ct_tanh_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Tanh, s, "ct_tanh_"); }
ct_status ct_sigmoid_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Sigmoid, s, "ct_sigmoid_"); }
ct_status ct_relu_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Relu, s, "ct_relu_"); }
ct_tensor* ct_reciprocal(const ct_tensor* a) { return unary_call(UnaryOp::Reciprocal, a, "ct_reciprocal"); }
ct_tensor* ct_sgn(const ct_tensor* a) { return unary_call(UnaryOp::Sgn, a, "ct_sgn"); }
ct_tensor* ct_sign(const ct_tensor* a) { return unary_call(UnaryOp::Sign, a, "ct_sign"); }
ct_tensor* ct_angle(const ct_tensor* a) { return unary_call(UnaryOp::Angle, a, "ct_angle"); }
ct_status ct_reciprocal_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Reciprocal, s, "ct_reciprocal_"); }
ct_status ct_sgn_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Sgn, s, "ct_sgn_"); }
ct_status ct_sign_(ct_tensor* s) { return unary_inplace_call(UnaryOp::Sign, s, "ct_sign_"); }

ct_tensor* ct_eq(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Eq, a, b, "ct_eq"); }
ct_tensor* ct_ne(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Ne, a, b, "ct_ne"); }
ct_tensor* ct_lt(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Lt, a, b, "ct_lt"); }
ct_tensor* ct_le(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Le, a, b, "ct_le"); }
ct_tensor* ct_gt(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Gt, a, b, "ct_gt"); }
ct_tensor* ct_ge(const ct_tensor* a, const ct_tensor* b) { return compare_call(CompareOp::Ge, a, b, "ct_ge"); }
ct_tensor* ct_eq_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Eq, a, s, "ct_eq_scalar"); }
ct_tensor* ct_ne_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Ne, a, s, "ct_ne_scalar"); }
ct_tensor* ct_lt_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Lt, a, s, "ct_lt_scalar"); }
ct_tensor* ct_le_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Le, a, s, "ct_le_scalar"); }
ct_tensor* ct_gt_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Gt, a, s, "ct_gt_scalar"); }
ct_tensor* ct_ge_scalar(const ct_tensor* a, double s) { return compare_scalar_call(CompareOp::Ge, a, s, "ct_ge_scalar"); }

ct_tensor* ct_where(const ct_tensor* cond, const ct_tensor* a, const ct_tensor* b) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(
        ag::where(value_arg(cond, "ct_where", "cond"), value_arg(a, "ct_where", "a"), value_arg(b, "ct_where", "b")));
  });
}

ct_tensor* ct_maximum(const ct_tensor* a, const ct_tensor* b) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::maximum(value_arg(a, "ct_maximum", "a"), value_arg(b, "ct_maximum", "b"), true));
  });
}

ct_tensor* ct_minimum(const ct_tensor* a, const ct_tensor* b) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::maximum(value_arg(a, "ct_minimum", "a"), value_arg(b, "ct_minimum", "b"), false));
  });
}

int ct_equal(const ct_tensor* a, const ct_tensor* b) {
  return guard<int>(-1, [&] { return int(equal(value_arg(a, "ct_equal", "a"), value_arg(b, "ct_equal", "b"))); });
}

int ct_allclose(const ct_tensor* a, const ct_tensor* b, double rtol, double atol) {
  return guard<int>(-1, [&] {
    return int(allclose(value_arg(a, "ct_allclose", "a"), value_arg(b, "ct_allclose", "b"), rtol, atol));
  });
}

ct_tensor* ct_isclose(const ct_tensor* a, const ct_tensor* b, double rtol, double atol, int equal_nan) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(isclose(value_arg(a, "ct_isclose", "a"), value_arg(b, "ct_isclose", "b"), rtol, atol, equal_nan != 0));
  });
}

ct_status ct_item(const ct_tensor* t, double* out) {
  return guard_status([&] {
    const Tensor& x = value_arg(t, "ct_item");
    CT_CHECK(out != nullptr, InvalidArgument, "ct_item: out is NULL");
    *out = item(x);
  });
}

ct_tensor* ct_cat(int n, const ct_tensor* const* tensors, int dim) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::cat(tensor_list(n, tensors, "ct_cat"), dim)); });
}

ct_tensor* ct_stack(int n, const ct_tensor* const* tensors, int dim) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::stack(tensor_list(n, tensors, "ct_stack"), dim)); });
}

}  // extern "C"

// ---- complex scalar operands (a Python complex) -------------------------------------------
extern "C" {

#define CT_COMPLEX_SCALAR_OPS(X)                                                               \
  X(add, BinaryOp::Add)                                                                        \
  X(sub, BinaryOp::Sub)                                                                        \
  X(mul, BinaryOp::Mul)                                                                        \
  X(div, BinaryOp::Div)
#define CT_DEFINE(name, op)                                                                    \
  ct_tensor* ct_##name##_complex_scalar(const ct_tensor* a, double re, double im) {            \
    return complex_scalar_call(op, a, re, im, false, "ct_" #name "_complex_scalar");           \
  }                                                                                            \
  ct_status ct_##name##_complex_scalar_(ct_tensor* self, double re, double im) {               \
    return complex_scalar_inplace_call(op, self, re, im, "ct_" #name "_complex_scalar_");      \
  }
CT_COMPLEX_SCALAR_OPS(CT_DEFINE)
#undef CT_DEFINE
#undef CT_COMPLEX_SCALAR_OPS

ct_tensor* ct_rsub_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_scalar_call(BinaryOp::Sub, a, re, im, true, "ct_rsub_complex_scalar");
}
ct_tensor* ct_rdiv_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_scalar_call(BinaryOp::Div, a, re, im, true, "ct_rdiv_complex_scalar");
}
ct_tensor* ct_eq_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_compare_call(CompareOp::Eq, a, re, im, "ct_eq_complex_scalar");
}
ct_tensor* ct_ne_complex_scalar(const ct_tensor* a, double re, double im) {
  return complex_compare_call(CompareOp::Ne, a, re, im, "ct_ne_complex_scalar");
}

}  // extern "C"
