// Note [Custom ops]
// torch.autograd.Function's node (PyNode / CppNode): one node with one output per forward
// output (Node::num_outputs, the engine's per-output slots) and an edge per input.  Its
// backward gets every output's gradient at once: zeros of the output's sizes and dtype for
// an output no gradient reached, unless materialize_grads is off (then none, as torch's
// ctx.set_materialize_grads(False)).  The input's sizes must be expandable to a returned
// gradient's (a broadcast gradient is then summed to them, and converted to the input's
// dtype), as torch's validate_outputs: a gradient [2, 3] for an input [3] is summed, one of
// [1] or [] is refused.
// Under create_graph the node is differentiable when the op says its backward is (it then
// runs with grad mode on, and what it computes with recording ops is recorded); otherwise
// its backward runs with grad mode off and the engine refuses the next backward (Note
// [Higher-order gradients]), as torch's once_differentiable.
// The node owns the user's callback; it is destroyed with the node (the C API's release).
#include "custom.h"

#include <mutex>
#include <unordered_set>

#include "core/error.h"
#include "core/factory.h"
#include "core/shape.h"

namespace ct::autograd {

const char* intern_name(const std::string& name) {
  static std::mutex mu;
  static auto* names = new std::unordered_set<std::string>();  // never freed: names stay valid
  std::lock_guard<std::mutex> lock(mu);
  return names->insert(name).first->c_str();
}

namespace {

bool expandable_to(IntList from, IntList to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  return true;
}

class CustomNode;
// The differentiable custom node whose backward runs on this thread (innermost), or nullptr.
thread_local CustomNode* t_running = nullptr;
struct RunningGuard {
  CustomNode* prev;
  explicit RunningGuard(CustomNode* n) : prev(t_running) { t_running = n; }
  ~RunningGuard() { t_running = prev; }
};

class CustomNode final : public Node {
 public:
  CustomNode(const char* name, std::vector<InputMeta> outs, bool materialize, std::shared_ptr<CustomBackward> fn,
             bool differentiable_backward)
      : name_(name),
        outs_(std::move(outs)),
        materialize_(materialize),
        differentiable_(differentiable_backward),
        fn_(std::move(fn)) {}
  const char* name() const override { return name_; }
  bool differentiable() const override { return differentiable_; }
  uint32_t num_outputs() const override { return uint32_t(outs_.size()); }
  bool user_formula() const override { return true; }
  // Output 0's gradient alone: CopySlices calls this for a dirty view (always output 0).
  Grads apply(const Tensor& g) override {
    Grads grads(outs_.size());
    grads[0] = Ref<Tensor>::retain(const_cast<Tensor*>(&g));
    return apply_all(grads);
  }
  Grads apply_all(Grads& grads) override {
    if (materialize_)
      for (size_t i = 0; i < grads.size(); ++i)
        if (!grads[i]) grads[i] = full(outs_[i].sizes, 0.0, outs_[i].dtype, "backward");
    Grads r;
    if (differentiable_) {
      RunningGuard running(this);  // custom_saved_output's node
      r = fn_->call(grads);        // grad mode as the engine set it: on under create_graph
    } else {
      NoGradGuard off;  // once differentiable: the engine refuses the next backward instead
      r = fn_->call(grads);
    }
    CT_CHECK(r.size() == inputs.size(), InvalidArgument,
             "function " << name_ << " returned an incorrect number of gradients (expected " << inputs.size()
                         << ", got " << r.size() << ")");
    for (size_t i = 0; i < r.size(); ++i) {
      if (!r[i] || !next[i].valid()) {
        r[i] = Ref<Tensor>();  // an input that takes no gradient: ignored, as torch
        continue;
      }
      CT_CHECK(expandable_to(inputs[i].sizes, r[i]->sizes()), InvalidArgument,
               "Function " << name_ << " returned an invalid gradient at index " << i << " - got "
                           << list_str(r[i]->sizes()) << " but expected shape compatible with "
                           << list_str(inputs[i].sizes));
    }
    return r;
  }

 private:
  const char* name_;
  std::vector<InputMeta> outs_;
  bool materialize_;
  bool differentiable_;
  std::shared_ptr<CustomBackward> fn_;
};

}  // namespace

Ref<Tensor> custom_saved_output(const Tensor& saved, int64_t output_index) {
  const CustomNode* n = t_running;
  if (!n || !create_graph_active()) return Ref<Tensor>::retain(const_cast<Tensor*>(&saved));
  CT_CHECK(output_index >= 0 && output_index < int64_t(n->num_outputs()), InvalidArgument,
           "custom op saved output: " << n->name() << " has " << n->num_outputs() << " outputs, got index "
                                      << output_index);
  return output_with_history(*n, saved, uint32_t(output_index));
}

void apply_custom_op(const std::string& name, const std::vector<const Tensor*>& inputs,
                     const std::vector<CustomOutput>& outputs, bool materialize_grads,
                     std::shared_ptr<CustomBackward> backward, bool differentiable_backward) {
  // Checks first, so that a refused call changes nothing.
  for (size_t o = 0; o < outputs.size(); ++o) {
    const CustomOutput& out = outputs[o];
    CT_CHECK(out.tensor, InvalidArgument, "custom op " << name << ": output " << o << " is NULL");
    CT_CHECK(out.dirty_input < int(inputs.size()), InvalidArgument,
             "custom op " << name << ": output " << o << " is marked as input " << out.dirty_input << " of "
                          << inputs.size());
    if (out.dirty_input >= 0) {
      CT_CHECK(inputs[size_t(out.dirty_input)] == out.tensor, InvalidArgument,
               "custom op " << name << ": output " << o << " is marked dirty but is not input " << out.dirty_input);
      // CopySlices passes the view's gradient to output 0 and takes input 0's back
      CT_CHECK(!out.tensor->base() || (o == 0 && out.dirty_input == 0), InvalidArgument,
               "custom op " << name << ": a view modified in place (marked dirty) must be input 0 and output 0");
    } else {
      for (size_t i = 0; i < inputs.size(); ++i)
        CT_CHECK(inputs[i] != out.tensor, InvalidArgument,
                 "custom op " << name << ": output " << o << " is input " << i
                              << " itself; return a view of it, or mark it dirty if forward modified it in place");
    }
  }
  bool any = false;
  for (const Tensor* t : inputs) any = any || requires_grad(*t);
  const bool recording = grad_recording() && any;  // nothing is recorded in inference mode
  if (recording)
    for (const CustomOutput& out : outputs)
      if (out.dirty_input >= 0 && !out.non_differentiable) check_inplace(*out.tensor);
  // torch's mark_dirty bumps the version once more, recorded or not
  for (const CustomOutput& out : outputs)
    if (out.dirty_input >= 0) out.tensor->bump_version();
  auto differentiable = [](const CustomOutput& out) {
    return !out.non_differentiable && (is_floating(out.tensor->dtype()) || is_complex(out.tensor->dtype()));
  };
  size_t n_differentiable = 0;
  if (recording)
    for (const CustomOutput& out : outputs) n_differentiable += differentiable(out) ? 1 : 0;
  // Every view among the outputs (but a dirty input) may not be written in place, recorded or
  // not: CopySlices over the view's own op would bypass the user's backward (torch's
  // _process_backward_mode_ad: CreationMeta::IN_CUSTOM_FUNCTION, or MULTI_OUTPUT_NODE when
  // the node has several differentiable outputs).
  for (size_t o = 0; o < outputs.size(); ++o) {
    const CustomOutput& out = outputs[o];
    const Tensor& t = *out.tensor;
    if (out.dirty_input >= 0 || !t.base() || !(is_floating(t.dtype()) || is_complex(t.dtype()))) continue;
    AutogradMeta& m = meta_of(t);
    if (!m.is_view) {  // a view taken before its base had autograd state: it gets its view meta now
      m.is_view = true;
      m.attr_version = t.version();
    }
    m.creation = n_differentiable > 1 ? CreationMeta::MultiOutputNode : CreationMeta::InCustomFunction;
    m.output_nr = int64_t(o);
    sync_history(m);
  }
  if (!recording) return;

  std::vector<InputMeta> out_meta;
  for (const CustomOutput& out : outputs)
    out_meta.push_back({Shape(out.tensor->sizes().begin(), out.tensor->sizes().end()), out.tensor->dtype()});
  auto node = std::make_shared<CustomNode>(intern_name(name + "Backward"), std::move(out_meta), materialize_grads,
                                           std::move(backward), differentiable_backward);
  for (const Tensor* t : inputs) {
    if (requires_grad(*t))
      node->add_input(*t);
    else
      node->add_input_meta_only(*t);
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    const CustomOutput& out = outputs[o];
    const Tensor& t = *out.tensor;
    if (!differentiable(out)) continue;
    if (out.dirty_input >= 0) {
      rebase_history(t, node);
      if (!t.base()) meta_of(t).output_index = uint32_t(o);
      continue;
    }
    AutogradMeta& m = meta_of(t);
    m.grad_fn = node;
    m.output_index = uint32_t(o);
    m.hooks.reset();
    if (t.base()) {  // a view made in forward: its history is the node now (creation set above)
      m.attr_version = t.version();
      m.view_fn_name = nullptr;
    }
    sync_history(m);
  }
}

}  // namespace ct::autograd
