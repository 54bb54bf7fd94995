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

}  // extern "C"

namespace {
// n tensors of a list argument; a NULL entry is refused unless may_be_null (then nullptr).
std::vector<const Tensor*> list_arg(const ct_tensor* const* p, int64_t n, const char* op, const char* what,
                                    bool may_be_null) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": " << what << " count must be >= 0, got " << n);
  std::vector<const Tensor*> out(size_t(n), nullptr);
  if (n == 0) return out;
  if (!p) {
    CT_CHECK(may_be_null, InvalidArgument, op << ": " << what << " is NULL");
    return out;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!p[i]) {
      CT_CHECK(may_be_null, InvalidArgument, op << ": " << what << "[" << i << "] is NULL");
      continue;
    }
    out[size_t(i)] = &tensor_arg(p[i], op, what);
  }
  return out;
}

// The arguments ct_autograd_grad and ct_autograd_backward share: roots (none NULL; none at
// all is torch's: nothing runs, so every input is unused), their gradients (NULL or NULL
// entries: implicit), and the inputs (none NULL).
struct BackwardArgs {
  std::vector<const Tensor*> roots, grads, inputs;
};
BackwardArgs backward_args(const char* op, const ct_tensor* const* roots, int64_t n_roots, const char* roots_name,
                           const ct_tensor* const* grads, const char* grads_name, const ct_tensor* const* inputs,
                           int64_t n_inputs) {
  BackwardArgs a;
  a.roots = list_arg(roots, n_roots, op, roots_name, false);
  a.grads = list_arg(grads, n_roots, op, grads_name, true);
  a.inputs = list_arg(inputs, n_inputs, op, "inputs", false);
  return a;
}
}  // namespace

extern "C" {

ct_status ct_autograd_grad(const ct_tensor* const* outputs, int64_t n_outputs, const ct_tensor* const* grad_outputs,
                           const ct_tensor* const* inputs, int64_t n_inputs, int retain_graph, int create_graph,
                           int allow_unused, ct_tensor** results) {
  return guard_status([&] {
    const char* op = "ct_autograd_grad";
    const BackwardArgs a = backward_args(op, outputs, n_outputs, "outputs", grad_outputs, "grad_outputs", inputs, n_inputs);
    CT_CHECK(n_inputs > 0, InvalidArgument, "`inputs` argument to `grad()` cannot be empty.");
    CT_CHECK(results != nullptr, InvalidArgument, op << ": results is NULL");
    for (int64_t j = 0; j < n_inputs; ++j) results[j] = nullptr;
    std::vector<Ref<Tensor>> r =
        autograd::run_backward(a.roots, a.grads, a.inputs, retain_graph != 0, create_graph != 0, false, allow_unused != 0);
    for (int64_t j = 0; j < n_inputs; ++j) results[j] = r[size_t(j)] ? to_handle(std::move(r[size_t(j)])) : nullptr;
  });
}

ct_status ct_autograd_backward(const ct_tensor* const* tensors, int64_t n_tensors, const ct_tensor* const* grad_tensors,
                               const ct_tensor* const* inputs, int64_t n_inputs, int retain_graph, int create_graph) {
  return guard_status([&] {
    const BackwardArgs a = backward_args("ct_autograd_backward", tensors, n_tensors, "tensors", grad_tensors,
                                         "grad_tensors", inputs, n_inputs);
    autograd::run_backward(a.roots, a.grads, a.inputs, retain_graph != 0, create_graph != 0, true, true);
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
