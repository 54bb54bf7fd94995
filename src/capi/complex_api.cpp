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

// Complex inputs never require grad (they cannot), so these views record no history.
ct_tensor* ct_view_as_real(const ct_tensor* t) { return complex_view_call(t, "ct_view_as_real", view_as_real); }
ct_tensor* ct_view_as_complex(const ct_tensor* t) {
  return complex_view_call(t, "ct_view_as_complex", [](const Tensor& x) {
    // a real input in a graph would be silently cut from it: refused until complex autograd exists
    CT_CHECK(!autograd::needs_grad(x), InvalidArgument,
             "view_as_complex: autograd through complex tensors is not implemented in ctensor yet (the input "
             "requires grad)");
    return view_as_complex(x);
  });
}
ct_tensor* ct_real(const ct_tensor* t) { return complex_view_call(t, "ct_real", real_view); }
ct_tensor* ct_imag(const ct_tensor* t) { return complex_view_call(t, "ct_imag", imag_view); }

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

ct_tensor* ct_conj(const ct_tensor* t) { return complex_view_call(t, "ct_conj", conj_view); }
ct_tensor* ct_neg_view(const ct_tensor* t) { return complex_view_call(t, "ct_neg_view", neg_view); }
ct_tensor* ct_resolve_conj(const ct_tensor* t) { return complex_view_call(t, "ct_resolve_conj", resolve_conj); }
ct_tensor* ct_resolve_neg(const ct_tensor* t) { return complex_view_call(t, "ct_resolve_neg", resolve_neg); }
ct_tensor* ct_conj_physical(const ct_tensor* t) {
  return complex_view_call(t, "ct_conj_physical", conj_physical);
}

ct_tensor* ct_adjoint(const ct_tensor* t) {
  return complex_view_call(t, "ct_adjoint", [](const Tensor& x) {
    const int n = x.ndim();
    CT_CHECK(n >= 2 || n == 0, Shape,
             "tensor.adjoint() is only supported on matrices or batches of matrices. Got " << n << "-D tensor.");
    if (n == 0) return conj_view(x);
    return conj_view(*ag::transpose(x, -2, -1));  // a real x: the transpose itself
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
  return guard_status([&] { conj_physical_(value_arg(t, "ct_conj_physical_", "self")); });
}
