// ct_matmul.
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/ops/matmul.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_matmul(const ct_tensor* a, const ct_tensor* b) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(a, "ct_matmul", "a");
    const Tensor& y = value_arg(b, "ct_matmul", "b");
    return to_handle(ag::matmul(x, y));
  });
}

ct_tensor* ct_vdot(const ct_tensor* a, const ct_tensor* b) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(a, "ct_vdot", "a");
    const Tensor& y = value_arg(b, "ct_vdot", "b");
    check_vdot(x, y);
    if (!is_complex(x.dtype())) return to_handle(ag::matmul(x, y));  // real: vdot is dot (autograd as dot)
    return to_handle(ag::vdot(x, y));
  });
}

}  // extern "C"
