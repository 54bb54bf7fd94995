// The complex views (view_as_real, view_as_complex, real, imag) and ct_item_complex.
#include "capi/guard.h"
#include "core/autograd/meta.h"
#include "core/complex_views.h"
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
    const Tensor& x = tensor_arg(t, "ct_item_complex");
    CT_CHECK(re != nullptr && imag != nullptr, InvalidArgument, "ct_item_complex: re or imag is NULL");
    const std::complex<double> v = item_complex(x);
    *re = v.real();
    *imag = v.imag();
  });
}
