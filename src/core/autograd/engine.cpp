// The backward engine: counts how many gradients each node of the graph reachable from
// the roots will receive, then runs nodes whose gradients are complete, latest-created
// first (torch's order), summing the gradients that meet at a node.  Runs with grad mode
// off (on with create_graph: Note [Higher-order gradients] in meta.h), on the calling
// thread; tensor hooks (Note [Tensor hooks]) run there too, before a node takes its
// gradients.  With inputs (torch's autograd.grad, backward(inputs=)) only the nodes on a
// path to an input's gradient edge run (torch's exec_info), and autograd.grad captures the
// gradient arriving at each such edge instead of running it (torch's captures).
#include <queue>
#include <unordered_map>

#include "core/copy.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/math_bits.h"
#include "core/ops/elementwise.h"
#include "core/views.h"
#include "functions.h"
#include "meta.h"
#include "nodes.h"

namespace ct::autograd {

namespace {
struct Later {
  bool operator()(const Node* a, const Node* b) const { return a->seq < b->seq; }
};

// The engine's per-node state, found by node address in an open-addressing table: one
// allocation per backward for all nodes, where a std::unordered_map per field made one per
// node and field (about a fifth of a small training step's backward, by perf).  Nodes are
// only added while the graph is discovered; the gradient slots of all nodes then live in one
// array (a node's num_outputs() consecutive slots), laid out once discovery is done.
class NodeTable {
 public:
  struct State {
    Node* node = nullptr;
    int64_t deps = 0;     // edges of the reachable graph leading to the node not yet run
    size_t first = 0;     // its first gradient slot
    uint32_t count = 0;   // its number of slots (num_outputs)
    bool pushed = false;  // a root already queued
  };
  // Room for a small graph's nodes (a few layers' forward and backward) before any growth.
  NodeTable() : index_(64, kEmpty) { states_.reserve(32); }
  // The state of n and whether it was just added.
  std::pair<State*, bool> insert(Node* n) {
    if ((states_.size() + 1) * 2 > index_.size()) grow();
    size_t i = home(n);
    for (;; i = (i + 1) & (index_.size() - 1)) {
      const uint32_t k = index_[i];
      if (k == kEmpty) break;
      if (states_[k].node == n) return {&states_[k], false};
    }
    index_[i] = uint32_t(states_.size());
    states_.push_back(State{n});
    return {&states_.back(), true};
  }
  // The state of n (nullptr if n was never added).
  State* find(Node* n) {
    for (size_t i = home(n);; i = (i + 1) & (index_.size() - 1)) {
      const uint32_t k = index_[i];
      if (k == kEmpty) return nullptr;
      if (states_[k].node == n) return &states_[k];
    }
  }
  bool contains(Node* n) { return find(n) != nullptr; }
  size_t size() const { return states_.size(); }
  // Gives every node its slots (after the last insert).
  void lay_out_slots() {
    size_t total = 0;
    for (State& st : states_) {
      st.first = total;
      st.count = st.node->num_outputs();
      total += st.count;
    }
    slots_.resize(total);
  }
  std::span<Ref<Tensor>> slots(const State& st) { return {slots_.data() + st.first, st.count}; }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  size_t home(Node* n) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(n)) * 0x9E3779B97F4A7C15ull) >> 32) & (index_.size() - 1);
  }
  void grow() {
    Vec<uint32_t> bigger(index_.size() * 2, kEmpty);
    index_.swap(bigger);
    for (uint32_t k = 0; k < states_.size(); ++k) {
      size_t i = home(states_[k].node);
      while (index_[i] != kEmpty) i = (i + 1) & (index_.size() - 1);
      index_[i] = k;
    }
  }
  // small_blocks' cache serves these, as the nodes: one backward per training step
  template <class T>
  using Vec = std::vector<T, small_blocks::Allocator<T>>;
  Vec<uint32_t> index_;  // power-of-two size, at most half full: positions in states_
  Vec<State> states_;
  Vec<Ref<Tensor>> slots_;
};

std::string torch_size(IntList s) {
  std::string out = "ctensor.Size([";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}
}  // namespace


namespace {
void check_root_grad(size_t i, const Tensor& root, const Tensor* grad) {
  if (!grad) {
    if (!requires_grad(root)) return;  // torch gives it no gradient; the root check names it
    CT_CHECK(root.numel() == 1, InvalidArgument, "grad can be implicitly created only for scalar outputs");
    CT_CHECK(!is_complex(root.dtype()), InvalidArgument,
             "grad can be implicitly created only for real scalar outputs but got torch."
                 << dtype_name(root.dtype()));
    return;
  }
  CT_CHECK(std::equal(grad->sizes().begin(), grad->sizes().end(), root.sizes().begin(), root.sizes().end()), Shape,
           "Mismatch in shape: grad_output[" << i << "] has a shape of " << torch_size(grad->sizes()) << " and output["
                                             << i << "] has a shape of " << torch_size(root.sizes()) << ".");
  CT_CHECK(is_complex(grad->dtype()) == is_complex(root.dtype()), DType,
           "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in "
           "dtype: grad_output["
               << i << "] has a dtype of torch." << dtype_name(grad->dtype()) << " and output[" << i
               << "] has a dtype of torch." << dtype_name(root.dtype()) << ".");
}


}  // namespace

void refuse_higher_order(Node& n, const Grads& in, Grads& outs) {
  std::vector<const Tensor*> with_history;
  for (const Ref<Tensor>& g : in)
    if (g && requires_grad(*g)) with_history.push_back(g.get());
  for (Ref<Tensor>& o : outs) {
    if (!o) continue;
    std::shared_ptr<Node> r = make_not_implemented(n.name(), {});
    for (size_t i = 0; i < n.next.size(); ++i)
      if (n.next[i].valid()) {
        r->next.push_back(n.next[i]);
        r->inputs.push_back(n.inputs[i]);
      }
    for (const Tensor* g : with_history) r->add_input(*g);
    Ref<Tensor> a = alias(*o);  // o may be a tensor of the graph (an incoming gradient)
    meta_of(*a).grad_fn = std::move(r);
    o = std::move(a);
  }
}

std::vector<Ref<Tensor>> run_backward(std::span<const Tensor* const> roots, std::span<const Tensor* const> grads,
                                      std::span<const Tensor* const> inputs, bool retain_graph, bool create_graph,
                                      bool accumulate, bool allow_unused) {
  CT_CHECK(roots.size() == grads.size(), InvalidArgument,
           "got " << roots.size() << " tensors and " << grads.size() << " gradients");
  for (size_t i = 0; i < roots.size(); ++i) check_root_grad(i, *roots[i], grads[i]);
  std::vector<Edge> root_edges(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    root_edges[i] = requires_grad(*roots[i]) ? gradient_edge(*roots[i]) : Edge{};
    CT_CHECK(root_edges[i].valid(), InvalidArgument,
             "element " << i << " of tensors does not require grad and does not have a grad_fn");
  }
  std::vector<Edge> input_edges(inputs.size());
  for (size_t j = 0; j < inputs.size(); ++j) {
    CT_CHECK(requires_grad(*inputs[j]), InvalidArgument, "One of the differentiated Tensors does not require grad");
    input_edges[j] = gradient_edge(*inputs[j]);
  }
  if (accumulate)  // torch's backward(inputs=): a non-leaf input keeps its grad
    for (const Tensor* t : inputs)
      if (!is_leaf(*t)) retain_grad(*t);

  CreateGraphGuard mode(create_graph);
  // The roots' gradients, with their history under create_graph (torch uses grad_outputs as given).
  std::vector<Ref<Tensor>> root_grads(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& root = *roots[i];
    if (!grads[i]) {
      root_grads[i] = full(root.sizes(), 1.0, root.dtype(), "backward");
    } else {
      root_grads[i] = ag::to_dtype(*grads[i], root.dtype());
      if (root_grads[i]->math_bits() != 0) root_grads[i] = resolve_bits(std::move(root_grads[i]));
    }
  }

  // Dependencies: how many edges of the reachable graph lead to each node.
  NodeTable table;
  std::vector<Node*> stack;
  for (const Edge& e : root_edges)
    if (table.insert(e.fn.get()).second) stack.push_back(e.fn.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next) {
      if (!e.valid()) continue;
      auto [st, fresh] = table.insert(e.fn.get());
      ++st->deps;
      if (fresh) stack.push_back(e.fn.get());
    }
  }
  table.lay_out_slots();

  // With inputs: which nodes run (needed: a child should execute), and the captures
  // (autograd.grad: input j's gradient is slot input_nr of its edge's node).
  const bool targeted = !inputs.empty();
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;
  std::unordered_map<Node*, bool> needed;
  if (targeted) {
    std::unordered_map<Node*, bool> target;
    for (size_t j = 0; j < input_edges.size(); ++j) {
      Node* f = input_edges[j].fn.get();
      if (!table.contains(f)) continue;  // not in the graph: no gradient
      if (accumulate) {
        target[f] = true;
      } else {
        captures[f].emplace_back(input_edges[j].input_nr, j);
      }
    }
    // Post-order over the reachable graph: needed[n] = some child is needed or captured.
    std::unordered_map<Node*, bool> done;
    std::vector<std::pair<Node*, size_t>> walk;
    for (const Edge& e : root_edges)
      if (!done.count(e.fn.get())) {
        done[e.fn.get()] = false;
        walk.emplace_back(e.fn.get(), 0);
      }
    while (!walk.empty()) {
      auto& [n, k] = walk.back();
      if (k < n->next.size()) {
        Node* c = n->next[k++].fn.get();
        if (c && !done.count(c)) {
          done[c] = false;
          walk.emplace_back(c, 0);
        }
        continue;
      }
      bool need = target.count(n) > 0;
      for (const Edge& e : n->next)
        if (e.valid() && (needed[e.fn.get()] || captures.count(e.fn.get()))) need = true;
      needed[n] = need;
      done[n] = true;
      walk.pop_back();
    }
  }
  std::vector<Ref<Tensor>> captured(accumulate ? 0 : inputs.size());

  // One gradient slot per output of each node waiting to run (NodeTable::slots).
  auto slots_of = [&table](Node* n) { return table.slots(*table.find(n)); };
  auto add_to_slot = [](Ref<Tensor>& slot, Ref<Tensor> gi) {
    if (slot) {  // a sum reads values: bits resolved
      slot = resolve_bits(std::move(slot));
      gi = resolve_bits(std::move(gi));
      slot = ag::binary(BinaryOp::Add, Operand::of(*slot), Operand::of(*gi));
    } else {
      slot = std::move(gi);
    }
  };
  using NodeVec = std::vector<Node*, small_blocks::Allocator<Node*>>;
  NodeVec ready_heap;
  ready_heap.reserve(table.size());  // every node is queued at most once: no growth
  std::priority_queue<Node*, NodeVec, Later> ready(Later{}, std::move(ready_heap));
  // Keeps the roots' nodes alive even if running one drops the last other owner.
  std::vector<std::shared_ptr<Node>> keep;
  for (size_t i = 0; i < roots.size(); ++i) {
    Node* f = root_edges[i].fn.get();
    add_to_slot(slots_of(f)[root_edges[i].input_nr], std::move(root_grads[i]));
    keep.push_back(root_edges[i].fn);
  }
  for (const std::shared_ptr<Node>& f : keep) {
    NodeTable::State& st = *table.find(f.get());
    if (st.deps == 0 && !st.pushed) {
      st.pushed = true;
      ready.push(f.get());
    }
  }
  Grads in;  // the gradients of the node running, reused node after node
  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    {
      const std::span<Ref<Tensor>> slots = slots_of(n);
      in.resize(slots.size());
      for (size_t k = 0; k < slots.size(); ++k) in[k] = std::move(slots[k]);
    }
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
        m.grad = m.grad ? ag::binary(BinaryOp::Add, Operand::of(*m.grad), Operand::of(*in[k]))
                 : create_graph ? ag::clone(*in[k])
                                : copy_to_new(*in[k], in[k]->dtype());
      }
      if (in[k]->math_bits() != 0 && !n->keeps_bits()) in[k] = resolve_bits(std::move(in[k]));
    }
    if (targeted) {
      auto c = captures.find(n);
      if (c != captures.end())
        for (const auto& [nr, j] : c->second)
          if (nr < in.size()) captured[j] = in[nr];
      if (!needed[n]) {  // captured only, or off every path to an input
        in.clear();
        continue;
      }
    }
    Grads outs;
    // torch runs every node on the way, also one that only undefined gradients reached: a
    // built-in formula then gives none (skipped here), a custom op's backward still runs (on
    // zeros, or None without materialize_grads), which gradcheck's check_undefined_grad tests
    if (any || n->user_formula()) {
      if (n->released && n->has_saved) fail_released();
      outs = n->apply_all(in);
      if (create_graph && !n->differentiable()) refuse_higher_order(*n, in, outs);
    }
    in.clear();
    if (!retain_graph) n->release_saved();
    for (size_t i = 0; i < n->next.size(); ++i) {
      const Edge& e = n->next[i];
      if (!e.valid()) continue;
      Node* child = e.fn.get();
      if (i < outs.size() && outs[i])
        add_to_slot(slots_of(child)[e.input_nr], fix_grad(std::move(outs[i]), n->inputs[i], child->keeps_bits()));
      if (--table.find(child)->deps == 0 && (!targeted || needed[child] || captures.count(child))) ready.push(child);
    }
  }
  if (!accumulate)
    for (size_t j = 0; j < captured.size(); ++j)
      CT_CHECK(allow_unused || captured[j], InvalidArgument,
               "The differentiated Tensor at index " << j
                                                     << " appears to not have been used in the graph. Set "
                                                        "allow_unused=True if this is the desired behavior.");
  return captured;
}

void backward(const Tensor& root, const Tensor* grad, bool retain_graph) {
  const Tensor* r[1] = {&root};
  const Tensor* g[1] = {grad};
  run_backward(r, g, {}, retain_graph, false, true, false);
}

}  // namespace ct::autograd
