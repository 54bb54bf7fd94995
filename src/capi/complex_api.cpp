// The complex views (view_as_real, view_as_complex, real, imag), ct_item_complex, and the
// conjugate and negative bits (conj, adjoint, is_conj/is_neg, resolve_*, conj_physical).
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/autograd/meta.h"
#include "core/complex_views.h"
#include "core/math_bits.h"
#include "core/ops/elementwise.h"

using namespace ct;
using namespace ct::capi;

namespace {

template <class F>
ct_tensor* complex_view_call(const ct_tensor* t, const char* op, F&& f) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(f(tensor_arg(t, op))); });
}

}  // namespace

// Each records torch's node when t requires grad (core/autograd/functions.h).
ct_tensor* ct_view_as_real(const ct_tensor* t) { return complex_view_call(t, "ct_view_as_real", ag::view_as_real); }
ct_tensor* ct_view_as_complex(const ct_tensor* t) {
  return complex_view_call(t, "ct_view_as_complex", ag::view_as_complex);
}
ct_tensor* ct_real(const ct_tensor* t) { return complex_view_call(t, "ct_real", ag::real); }
ct_tensor* ct_imag(const ct_tensor* t) { return complex_view_call(t, "ct_imag", ag::imag); }

ct_status ct_item_complex(const ct_tensor* t, double* re, double* imag) {
  return guard_status([&] {
    const Tensor& x = value_arg(t, "ct_item_complex");
    CT_CHECK(re != nullptr && imag != nullptr, InvalidArgument, "ct_item_complex: re or imag is NULL");
    const std::complex<double> v = item_complex(x);
    *re = v.real();
    *imag = v.imag();
  });
}

// ---- Note [Math bits] ----------------------------------------------------------------------

ct_tensor* ct_conj(const ct_tensor* t) { return complex_view_call(t, "ct_conj", ag::conj); }
ct_tensor* ct_neg_view(const ct_tensor* t) { return complex_view_call(t, "ct_neg_view", ag::neg_view); }
ct_tensor* ct_resolve_conj(const ct_tensor* t) { return complex_view_call(t, "ct_resolve_conj", ag::resolve_conj); }
ct_tensor* ct_resolve_neg(const ct_tensor* t) { return complex_view_call(t, "ct_resolve_neg", ag::resolve_neg); }
ct_tensor* ct_conj_physical(const ct_tensor* t) {
  return complex_view_call(t, "ct_conj_physical", ag::conj_physical);
}

ct_tensor* ct_adjoint(const ct_tensor* t) {
  return complex_view_call(t, "ct_adjoint", [](const Tensor& x) {
    const int n = x.ndim();
    CT_CHECK(n >= 2 || n == 0, Shape,
             "tensor.adjoint() is only supported on matrices or batches of matrices. Got " << n << "-D tensor.");
    if (n == 0) return ag::conj(x);
    return ag::conj(*ag::transpose(x, -2, -1));  // a real x: the transpose itself
  });
}

int ct_tensor_is_conj(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(tensor_arg(t, "ct_tensor_is_conj").is_conj()); });
}
int ct_tensor_is_neg(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(tensor_arg(t, "ct_tensor_is_neg").is_neg()); });
}

ct_status ct_conj_physical_(ct_tensor* t) {
  // value_arg: a tensor with bits is conjugated through a resolved clone and written back
  return guard_status([&] { ag::conj_physical_(value_arg(t, "ct_conj_physical_", "self")); });
}
