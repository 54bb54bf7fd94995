// view(dtype) and the rank-aware transposes T and mT (ctensor.h, "dtype views and T / mT").
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/dtype_view.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_view_dtype(const ct_tensor* t, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_view_dtype");
    return to_handle(view_dtype(x, dtype_arg(dtype, "ct_view_dtype")));
  });
}

ct_tensor* ct_matrix_transpose(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_matrix_transpose");
    if (check_matrix_transpose(x)) return to_handle(Ref<Tensor>::retain(const_cast<Tensor*>(&x)));
    return to_handle(ag::transpose(x, -2, -1));
  });
}

ct_tensor* ct_numpy_T(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::numpy_T(tensor_arg(t, "ct_numpy_T")));
  });
}

}  // extern "C"
