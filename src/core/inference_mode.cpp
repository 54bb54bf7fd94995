// Inference mode's thread-local flag and torch's guard (Note [Inference tensors]).
#include "inference_mode.h"

#include "autograd/meta.h"

namespace ct {

constinit thread_local bool t_inference_mode __attribute__((tls_model("initial-exec"))) = false;

int enter_inference_mode(bool enabled) {
  const int prev = (inference_mode_enabled() ? 1 : 0) | (autograd::grad_enabled() ? 2 : 0);
  set_inference_mode_flag(enabled);
  autograd::set_grad_enabled(!enabled);  // torch: AutoGradMode(!enabled), so (false) turns grad mode on
  return prev;
}

void restore_inference_mode(int state) {
  set_inference_mode_flag(state & 1);
  autograd::set_grad_enabled(state & 2);
}

}  // namespace ct
