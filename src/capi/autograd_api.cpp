// Autograd: requires_grad, grad, backward, detach, grad_fn names, grad mode.  Handles and
// errors only; the work is in core/autograd.
#include "capi/guard.h"
#include "core/autograd/meta.h"
#include "core/views.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_status ct_set_requires_grad(ct_tensor* t, int requires_grad) {
  return guard_status(
      [&] { autograd::set_requires_grad(tensor_arg(t, "ct_set_requires_grad"), requires_grad != 0); });
}

int ct_requires_grad(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(autograd::requires_grad(tensor_arg(t, "ct_requires_grad"))); });
}

int ct_is_leaf(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(autograd::is_leaf(tensor_arg(t, "ct_is_leaf"))); });
}

ct_tensor* ct_grad(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(autograd::grad(tensor_arg(t, "ct_grad"))); });
}

ct_status ct_set_grad(ct_tensor* t, const ct_tensor* grad) {
  return guard_status([&] {
    const Tensor& x = tensor_arg(t, "ct_set_grad");
    const Tensor* g = grad ? &tensor_arg(grad, "ct_set_grad", "grad") : nullptr;
    autograd::set_grad(x, g);
  });
}

ct_status ct_backward(ct_tensor* t, const ct_tensor* grad, int retain_graph) {
  return guard_status([&] {
    const Tensor& x = tensor_arg(t, "ct_backward");
    const Tensor* g = grad ? &value_arg(grad, "ct_backward", "grad") : nullptr;
    autograd::backward(x, g, retain_graph != 0);
  });
}

ct_status ct_retain_grad(ct_tensor* t) {
  return guard_status([&] { autograd::retain_grad(tensor_arg(t, "ct_retain_grad")); });
}

int ct_retains_grad(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(autograd::retains_grad(tensor_arg(t, "ct_retains_grad"))); });
}

ct_tensor* ct_detach(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(alias(tensor_arg(t, "ct_detach"))); });
}

const char* ct_grad_fn_name(const ct_tensor* t) {
  return guard<const char*>(nullptr, [&]() -> const char* {
    auto fn = autograd::grad_fn(tensor_arg(t, "ct_grad_fn_name"));
    return fn ? fn->name() : nullptr;
  });
}

int ct_set_grad_enabled(int enabled) {
  const bool prev = autograd::grad_enabled();
  autograd::set_grad_enabled(enabled != 0);
  return int(prev);
}

int ct_is_grad_enabled(void) { return int(autograd::grad_enabled()); }

int ct_set_inference_mode(int enabled) { return enter_inference_mode(enabled != 0); }

ct_status ct_restore_inference_mode(int state) {
  return guard_status([&] {
    CT_CHECK(state >= 0 && state <= 3, InvalidArgument,
             "ct_restore_inference_mode: state must be a value returned by ct_set_inference_mode (0 to 3), got "
                 << state);
    restore_inference_mode(state);
  });
}

int ct_is_inference_mode_enabled(void) { return int(inference_mode_enabled()); }

int ct_tensor_is_inference(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(tensor_arg(t, "ct_tensor_is_inference").is_inference()); });
}

}  // extern "C"
