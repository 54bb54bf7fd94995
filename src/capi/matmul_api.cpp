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

}  // extern "C"
