// Custom autograd ops (torch.autograd.Function): outputs computed by the user, a backward
// given by the user.  Note [Custom ops] in custom.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "meta.h"

namespace ct::autograd {

// The user's backward.  grads: one per output (empty Ref: no gradient reached that output and
// the op does not materialize zeros); returns one gradient per input (empty Ref: none).
struct CustomBackward {
  virtual ~CustomBackward() = default;
  virtual Grads call(const Grads& grads) = 0;
};

struct CustomOutput {
  const Tensor* tensor;
  bool non_differentiable = false;  // torch's ctx.mark_non_differentiable
  int dirty_input = -1;             // the input it is, modified in place by forward (mark_dirty)
};

// Attaches the op's node, named name + "Backward", to the outputs, when grad mode is on and an
// input requires grad (else does nothing).  differentiable_backward: under create_graph the
// backward runs with grad mode on and its gradients keep the history of the ops it ran
// (torch's default for a Function); otherwise it runs with grad mode off and create_graph
// gives gradients whose next backward fails (torch's once_differentiable).  InvalidArgument
// for an output that is an input not marked dirty, a dirty output that is not that input, a
// dirty input that may not be written in place (a leaf requiring grad, ...: torch's messages).
void apply_custom_op(const std::string& name, const std::vector<const Tensor*>& inputs,
                     const std::vector<CustomOutput>& outputs, bool materialize_grads,
                     std::shared_ptr<CustomBackward> backward, bool differentiable_backward = false);

// Inside a custom op's backward run under create_graph (differentiable_backward): output k
// of the op as torch's SavedVariable unpacks a saved output, an alias of `saved` (the caller's
// detached copy of it) whose grad_fn is the running node at output k, so that a second
// derivative flows through the op again.  Anywhere else: `saved` itself.  InvalidArgument
// for an output index the running op does not have.
Ref<Tensor> custom_saved_output(const Tensor& saved, int64_t output_index);

// The name given once, as a string that lives as long as the process (names of nodes are
// static strings: Note [Saved tensor names] keeps them after a node is gone).
const char* intern_name(const std::string& name);

}  // namespace ct::autograd
