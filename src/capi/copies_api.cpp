// Copies (new storage) and copy_ (writes into an existing tensor).
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/factory.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_clone(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::clone(tensor_arg(t, "ct_clone"))); });
}

ct_tensor* ct_index_select(const ct_tensor* t, int dim, const ct_tensor* index) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_index_select");
    const Tensor& i = tensor_arg(index, "ct_index_select", "index");
    return to_handle(ag::index_select(x, dim, i));
  });
}

ct_tensor* ct_to(const ct_tensor* t, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_to");
    return to_handle(ag::to_dtype(x, dtype_arg(dtype, "ct_to")));
  });
}

ct_status ct_copy_(ct_tensor* dst, const ct_tensor* src) {
  return guard_status([&] {
    const Tensor& d = tensor_arg(dst, "ct_copy_", "dst");
    const Tensor& s = tensor_arg(src, "ct_copy_", "src");
    ag::copy_into(d, s, "copy_");
  });
}

}  // extern "C"
