// The backward engine: counts how many gradients each node of the graph reachable from
// the root will receive, then runs nodes whose gradients are complete, latest-created
// first (torch's order), summing the gradients that meet at a node.  Runs with grad mode
// off, on the calling thread; tensor hooks (Note [Tensor hooks]) run there too, before a
// node takes its gradients.
#include <queue>
#include <unordered_map>

#include "core/copy.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/math_bits.h"
#include "core/ops/elementwise.h"
#include "meta.h"

namespace ct::autograd {

namespace {
struct Later {
  bool operator()(const Node* a, const Node* b) const { return a->seq < b->seq; }
};

std::string torch_size(IntList s) {
  std::string out = "ctensor.Size([";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}
}  // namespace

void backward(const Tensor& root, const Tensor* grad, bool retain_graph) {
  Edge root_edge = requires_grad(root) ? gradient_edge(root) : Edge{};
  CT_CHECK(root_edge.valid(), InvalidArgument, "element 0 of tensors does not require grad and does not have a grad_fn");
  Ref<Tensor> g;
  if (!grad) {
    CT_CHECK(root.numel() == 1, InvalidArgument, "grad can be implicitly created only for scalar outputs");
    CT_CHECK(!is_complex(root.dtype()), InvalidArgument,
             "grad can be implicitly created only for real scalar outputs but got torch."
                 << dtype_name(root.dtype()));
    g = full(root.sizes(), 1.0, root.dtype(), "backward");
  } else {
    CT_CHECK(std::equal(grad->sizes().begin(), grad->sizes().end(), root.sizes().begin(), root.sizes().end()), Shape,
             "Mismatch in shape: grad_output[0] has a shape of " << torch_size(grad->sizes())
                                                                 << " and output[0] has a shape of "
                                                                 << torch_size(root.sizes()) << ".");
    CT_CHECK(is_complex(grad->dtype()) == is_complex(root.dtype()), DType,
             "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in "
             "dtype: grad_output[0] has a dtype of torch."
                 << dtype_name(grad->dtype()) << " and output[0] has a dtype of torch." << dtype_name(root.dtype())
                 << ".");
    g = to_dtype(*grad, root.dtype());
    if (g->math_bits() != 0) g = resolve_math_bits(*g);
  }
  NoGradGuard no_grad;

  // Dependencies: how many edges of the reachable graph lead to each node.
  std::unordered_map<Node*, int64_t> deps;
  std::vector<Node*> stack{root_edge.fn.get()};
  deps[root_edge.fn.get()] = 0;
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next) {
      if (!e.valid()) continue;
      auto [it, fresh] = deps.try_emplace(e.fn.get(), 0);
      ++it->second;
      if (fresh) stack.push_back(e.fn.get());
    }
  }

  // One gradient slot per output of each node waiting to run.
  std::unordered_map<Node*, std::vector<Ref<Tensor>>> buffers;
  auto slots_of = [&buffers](Node* n) -> std::vector<Ref<Tensor>>& {
    std::vector<Ref<Tensor>>& v = buffers[n];
    if (v.empty()) v.resize(n->num_outputs());
    return v;
  };
  slots_of(root_edge.fn.get())[root_edge.input_nr] = std::move(g);
  std::priority_queue<Node*, std::vector<Node*>, Later> ready;
  ready.push(root_edge.fn.get());
  // Keeps the root's node alive even if running it drops the last other owner.
  const std::shared_ptr<Node> keep = root_edge.fn;
  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    std::vector<Ref<Tensor>> in = std::move(slots_of(n));
    buffers.erase(n);
    // torch's call_tensor_pre_hooks: the tensors' hooks (Note [Tensor hooks]) in registration
    // order, each on its output's gradient, then retain_grad, which so stores their result
    for (const auto& [nr, list] : n->pre_hooks)
      if (nr < in.size() && in[nr]) in[nr] = run_hooks(*list, std::move(in[nr]));
    bool any = false;
    for (uint32_t k = 0; k < in.size(); ++k) {
      if (!in[k]) continue;
      any = true;
      if (std::shared_ptr<HookList> leaf = n->leaf_hooks()) in[k] = run_hooks(*leaf, std::move(in[k]));
      if (k < n->retained.size() && n->retained[k]) {  // the output's gradient, summed over backward calls
        AutogradMeta& m = *n->retained[k];
        m.grad = m.grad ? binary(BinaryOp::Add, Operand::of(*m.grad), Operand::of(*in[k]))
                        : copy_to_new(*in[k], in[k]->dtype());
      }
      if (in[k]->math_bits() != 0 && !n->keeps_bits()) in[k] = resolve_math_bits(*in[k]);
    }
    std::vector<Ref<Tensor>> outs;
    if (any) {
      if (n->released && n->has_saved) fail_released();
      outs = n->apply_all(in);
    }
    in.clear();
    if (!retain_graph) n->release_saved();
    for (size_t i = 0; i < n->next.size(); ++i) {
      const Edge& e = n->next[i];
      if (!e.valid()) continue;
      Node* child = e.fn.get();
      if (i < outs.size() && outs[i]) {
        Ref<Tensor> gi = fix_grad(std::move(outs[i]), n->inputs[i], child->keeps_bits());
        Ref<Tensor>& slot = slots_of(child)[e.input_nr];
        if (slot) {  // a sum reads values: bits resolved
          if (slot->math_bits()) slot = resolve_math_bits(*slot);
          if (gi->math_bits()) gi = resolve_math_bits(*gi);
          slot = binary(BinaryOp::Add, Operand::of(*slot), Operand::of(*gi));
        } else {
          slot = std::move(gi);
        }
      }
      if (--deps[child] == 0) ready.push(child);
    }
  }
}

}  // namespace ct::autograd
