// Autograd state of a tensor, the graph's nodes and edges, and grad mode.
//
// Note [Autograd state]
// A Tensor's metadata is immutable; its autograd state is not.  It lives behind the one
// pointer Tensor::autograd_, which is nullptr for a tensor that never took part in autograd
// (so views and copies of such tensors cost exactly what they did before autograd existed),
// and is created the first time the tensor requires grad, gets a grad_fn, a grad, or is a
// view of a tensor that has autograd state, or an output of a multi-output view op (which
// must remember that: Note [Multi-output views] in functions.cpp).  Changing the autograd state of one tensor from
// two threads at once (set requires_grad, set grad, backward accumulating into it, an
// in-place op rebasing its history) is a data race, as in torch; reading it concurrently
// with no writer is safe.
//
// Note [Graph ownership]
// A tensor owns its grad_fn (shared_ptr); a node owns the nodes of its inputs through its
// edges, and data-only aliases (ct::alias, no autograd state) of the tensors it saved.  A
// leaf's AccumulateGrad node owns the leaf; the leaf only has a weak_ptr to it.  So no node
// ever owns a tensor that owns the node (torch's SavedVariable rule for outputs), and a
// graph is freed as soon as its last output tensor is.
//
// Note [Views and autograd]
// The autograd base of a view is its Tensor::base() (the root tensor).  A view of a tensor
// with autograd state gets a view meta: when it was created (grad mode on or off) and the
// storage version its grad_fn describes.  When an in-place op writes through a view, the
// base's grad_fn becomes CopySlices (torch's), and every view of that base whose recorded
// version is stale gets a fresh AsStridedBackward0 grad_fn the next time it is asked for
// one (torch's lazy regeneration).
//
// Note [Retained grad and CopySlices]
// retain_grad registers the tensor's meta on its grad_fn (Node::retained), and every new
// grad_fn takes the registration over (an in-place op on the tensor itself, a write through
// one of its views that makes its grad_fn CopySlices, a view's regenerated grad_fn), as torch
// 2.x moves its retains_grad hook.  So after `y.retain_grad(); y[0] = 5` y.grad is the
// gradient flowing into CopySlices.  (torch 1.13 left the hook on the base's old grad_fn
// when CopySlices replaced it: y.grad was then zero where the write landed.)
//
// Note [Saved tensor names]
// When backward finds a saved tensor modified in place, torch's message names the grad_fn
// the tensor has at that moment (torch keeps the tensor itself; a saved output names the node
// that saved it), asking a stale view for it as grad_fn() would (AsStridedBackward0, or the
// view's own refusal).  Nodes here hold data-only aliases (Note [Graph ownership]), so a
// tensor's meta shares a small record with the tensors saved from it: its grad_fn's name,
// requires_grad flag and view state, kept current by the meta (sync_history) and outliving
// the tensor.  A view's record points to its base's.  Only tensors with autograd state when
// saved get one: a tensor saved without (no history then, never required grad) and given a
// history later by an in-place op is named by nothing, where torch names its new grad_fn.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/small_blocks.h"
#include "core/tensor.h"

namespace ct::autograd {

// The gradients a node takes and gives, one per output or input (null: none).  Their
// vectors come from the thread's small-block cache: a node's backward makes one, the engine
// one per node, every step of a training loop (glibc's malloc and free of them were 3% of a
// small step, callgrind).
using Grads = std::vector<Ref<Tensor>, small_blocks::Allocator<Ref<Tensor>>>;

struct Node;

struct Edge {
  std::shared_ptr<Node> fn;
  uint32_t input_nr = 0;  // which output of fn the gradient is for (custom ops have several)
  bool valid() const { return fn != nullptr; }
};

// Note [Tensor hooks]
// torch's Tensor.register_hook.  A tensor's hooks form one list, shared (shared_ptr) by the
// tensor's meta and, for a non-leaf, by the grad_fn it had when the first hook was
// registered (Node::pre_hooks, with the tensor's output number).  When the tensor gets a new
// grad_fn (an in-place op, a regenerated view) its meta drops the list: hooks registered
// before keep firing for the old value's gradient, later ones go to a new list on the new
// grad_fn (torch 2.x's update_tensor_hooks_on_new_gradfn).  A leaf's list stays in its meta
// and its AccumulateGrad runs it.  So a hook lives as long as the tensor or the node that
// can call it, or until it is removed; its destructor is the C API's release.
struct Hook {
  virtual ~Hook() = default;
  // The gradient to use instead of grad, or an empty Ref to keep it; throws to fail backward.
  virtual Ref<Tensor> call(const Tensor& grad) = 0;
};
struct HookList {
  std::vector<std::pair<uint64_t, std::shared_ptr<Hook>>> hooks;  // (id, hook), registration order
};

// An input's sizes, inline up to kInline dims (every node keeps one per input: no
// allocation for those), on the heap beyond.
class InputSizes {
 public:
  static constexpr size_t kInline = 4;
  InputSizes() = default;
  InputSizes(IntList s) : n_(s.size()) {
    if (n_ <= kInline) std::copy(s.begin(), s.end(), inline_);
    else heap_.assign(s.begin(), s.end());
  }
  InputSizes(const Shape& s) : InputSizes(IntList(s)) {}
  size_t size() const { return n_; }
  const int64_t* begin() const { return n_ <= kInline ? inline_ : heap_.data(); }
  const int64_t* end() const { return begin() + n_; }
  int64_t operator[](size_t i) const { return begin()[i]; }
  operator IntList() const { return {begin(), n_}; }
  void pop_back() {
    if (n_ == kInline + 1) {  // back inline
      std::copy(heap_.begin(), heap_.end() - 1, inline_);
      heap_.clear();
    } else if (n_ > kInline) {
      heap_.pop_back();
    }
    --n_;
  }

 private:
  size_t n_ = 0;
  int64_t inline_[kInline] = {};
  Shape heap_;  // n_ > kInline only
};

// What a gradient flowing into an edge must look like: the input's sizes and dtype.
struct InputMeta {
  InputSizes sizes;
  DType dtype = DType::Float32;
};

// How a view was made, which decides whether it may be written in place (torch's
// CreationMeta): with grad mode on (Default), off (NoGradMode), or as one output of an op
// returning several views (MultiOutputNode: unbind, split, split_with_sizes, chunk).  A view
// of a view inherits a non-Default creation (torch's propagate_creation_meta).
// A view taken in inference mode of a normal tensor is InferenceMode (Note [Inference tensors]).
// A view returned by a custom op (torch.autograd.Function) is InCustomFunction: writing it in
// place would replace the user's backward by CopySlices over the view's op.
enum class CreationMeta : uint8_t { Default, NoGradMode, MultiOutputNode, InferenceMode, InCustomFunction };

// What a saved tensor's message needs of the tensor it was saved from (Note [Saved tensor
// names]); the view fields mirror AutogradMeta's.
struct HistoryRecord {
  const char* grad_fn = nullptr;  // name of the grad_fn, or nullptr
  bool requires_grad = false;     // the leaf flag
  bool is_view = false;
  CreationMeta creation = CreationMeta::Default;
  int64_t output_nr = 0;
  int64_t attr_version = 0;
  std::shared_ptr<const HistoryRecord> base;  // a view's base's, if the base had autograd state
};

struct AutogradMeta {
  // Every recorded result gets one: from small_blocks' per-thread cache (Note [Tensor
  // objects] in tensor.h), not a malloc and a free per op.
  static void* operator new(size_t bytes);
  static void operator delete(void* p, size_t bytes) noexcept;
  bool requires_grad = false;       // set by the user on a leaf
  std::shared_ptr<Node> grad_fn;    // nullptr for a leaf
  std::weak_ptr<Node> accumulator;  // a leaf's AccumulateGrad, while the graph holds it
  Ref<Tensor> grad;                 // .grad, or empty
  bool retains_grad = false;        // a non-leaf that keeps its grad (retain_grad)
  // The node whose `retained` is this meta: grad_fn (Note [Retained grad and CopySlices]).
  std::weak_ptr<Node> retained_at;
  // Views (t.base() != nullptr) only:
  bool is_view = false;
  CreationMeta creation = CreationMeta::Default;
  int64_t attr_version = 0;  // storage version grad_fn was made for
  int64_t output_nr = 0;     // which output of its op (multi-output views), for messages
  // The node the view was made with, which names its regenerated grad_fn when torch replays
  // the view (its view_fn) instead of using as_strided: a view whose dtype or math bits
  // differ from its base's.
  const char* view_fn_name = nullptr;
  // Shared with the tensors saved from this one (Note [Saved tensor names]); made by the first.
  std::shared_ptr<HistoryRecord> history;
  // Which output of grad_fn this tensor is (a custom op's outputs share one node); 0 otherwise.
  uint32_t output_index = 0;
  // Tensor hooks (Note [Tensor hooks]); nullptr until the first is registered.
  std::shared_ptr<HookList> hooks;
};

void destroy_meta(AutogradMeta* m);
// The meta of t, created empty if t has none.
AutogradMeta& meta_of(const Tensor& t);

// Grad mode: thread-local, on by default.  Read by every view op, so inline, and in the static
// TLS block (initial-exec: one load, no __tls_get_addr call from the shared library).
extern constinit thread_local bool t_grad_enabled __attribute__((tls_model("initial-exec")));
inline bool grad_enabled() { return t_grad_enabled; }
inline void set_grad_enabled(bool on) { t_grad_enabled = on; }
// Whether ops record a graph: grad mode on and not in inference mode (torch excludes the
// autograd dispatch keys there, so even enable_grad inside inference_mode records nothing).
inline bool grad_recording() { return t_grad_enabled && !inference_mode_enabled(); }
struct NoGradGuard {
  bool prev;
  NoGradGuard() : prev(grad_enabled()) { set_grad_enabled(false); }
  ~NoGradGuard() { set_grad_enabled(prev); }
};

// Note [Higher-order gradients]
// backward / grad with create_graph run the formulas with grad mode on, so the gradients they
// compute are recorded like any other result (torch's create_graph).  Three pieces make that
// exact:
// - Formulas call the recording ops (ct::ag); with grad mode off, as in a first-order
//   backward, those record nothing and compute what the core ops compute, bit for bit.
// - A saved tensor unpacks, while the engine runs with create_graph, to a tensor with its
//   autograd identity (torch's SavedVariable): a leaf input is the leaf itself, another input
//   a fresh alias whose grad_fn is the input's gradient edge at save time, an output a fresh
//   alias whose grad_fn is the node itself.  The alias lives only while the node runs, so no
//   node owns a tensor that owns it (Note [Graph ownership]).
// - A node whose formula has no differentiable form (Node::differentiable() false: it computes
//   in raw buffers, or saved a copy without history) gets its gradients wrapped by the engine
//   in a node that refuses the next backward with "derivative for <node> is not implemented",
//   never a silent zero second derivative.
// The gradients outs a node without a differentiable formula gave under create_graph, each
// made the result of a node that refuses backward ("derivative for <n> is not implemented"):
// its edges are n's inputs' and those of the incoming gradients in that require grad, so the
// gradient requires grad exactly when its true derivative may be nonzero.
struct Node;
void refuse_higher_order(Node& n, const Grads& in, Grads& outs);
// A saved output of owner as SavedTensor::unpack gives it under create_graph: an alias of data
// whose grad_fn is owner at output_index (or the CopySlices of a view owner rewrote).
Ref<Tensor> output_with_history(const Node& owner, const Tensor& data, uint32_t output_index);
// Whether the engine runs with create_graph on this thread (read by SavedTensor::unpack).
bool create_graph_active();
struct CreateGraphGuard {
  bool prev_cg, prev_grad;
  explicit CreateGraphGuard(bool on);
  ~CreateGraphGuard();
};

// Copies m's history into the record it shares with saved tensors, if it has one (Note
// [Saved tensor names]).
void sync_history(AutogradMeta& m);

// Queries with torch's meanings.  A view whose base requires grad requires grad.
bool requires_grad(const Tensor& t);
bool is_leaf(const Tensor& t);  // no grad_fn
// t's grad_fn, regenerating a stale view's (Note [Views and autograd]); nullptr if none.
std::shared_ptr<Node> grad_fn(const Tensor& t);
// Where the gradient of t goes: its grad_fn, or its leaf's AccumulateGrad, or nothing.
Edge gradient_edge(const Tensor& t);
void set_requires_grad(const Tensor& t, bool on);
// torch's detach_() on a tensor that is not a view: no grad_fn, requires_grad false.
void detach_in_place(const Tensor& t);
Ref<Tensor> grad(const Tensor& t);
void set_grad(const Tensor& t, const Tensor* g);
void retain_grad(const Tensor& t);  // torch's t.retain_grad()
bool retains_grad(const Tensor& t);

// A gradient in its input's sizes and dtype: sums broadcast dims away, converts dtype.
// Math bits are resolved unless keep_bits and nothing else had to change (Note [Complex
// autograd] in meta.cpp: only AccumulateGrad takes a gradient with bits).
Ref<Tensor> fix_grad(Ref<Tensor> g, const InputMeta& m, bool keep_bits = false);
// g with its math bits applied to its values (recorded under create_graph).
Ref<Tensor> resolve_bits(Ref<Tensor> g);

// A node of the backward graph: one output (the tensor it produced), one edge per input.
struct Node : std::enable_shared_from_this<Node> {
  Node();
  // Frees a long chain of nodes iteratively, not recursively (a graph of a million ops
  // would otherwise overflow the stack when its last tensor goes).
  virtual ~Node();
  // Hands a node this one owns to the iterative deleter of ~Node.
  static void release_later(std::shared_ptr<Node> n);
  virtual const char* name() const = 0;
  // Gradients for the inputs, one per edge (empty Ref: none), from the gradient of the
  // output.  The engine then fixes their sizes and dtypes (fix_grad).
  virtual Grads apply(const Tensor& grad) = 0;
  // Frees the saved values (backward without retain_graph).
  virtual void release_saved() { released = true; }
  // SavedTensor::alias_input on every saved input: rebase_history calls it, before the node
  // becomes the grad_fn of a tensor that exists already.
  virtual void alias_saved_inputs() {}
  // Outputs of the node (gradients it takes): 1 but for custom ops.
  virtual uint32_t num_outputs() const { return 1; }
  // Gradients for the inputs from one gradient per output (empty Ref: none reached it; at
  // least one did, except for a user_formula node, which the engine calls also when none
  // did, as torch).  The default calls apply() with output 0's.
  virtual Grads apply_all(Grads& grads) {
    return grads[0] ? apply(*grads[0]) : Grads{};
  }
  // A leaf's hooks, run by its AccumulateGrad (Note [Tensor hooks]); nullptr for other nodes.
  virtual std::shared_ptr<HookList> leaf_hooks() const { return nullptr; }
  // Whether apply() takes a gradient with math bits (AccumulateGrad); others get it resolved.
  virtual bool keeps_bits() const { return false; }
  // Whether the formula is the user's (a custom op): complex values are theirs to handle, as
  // torch lets a Function take them; every built-in node is checked (check_complex_formula).
  virtual bool user_formula() const { return false; }
  // Whether apply() gives gradients with history when run with create_graph (Note
  // [Higher-order gradients]); the engine wraps the others' in a refusing node.
  virtual bool differentiable() const { return false; }
  // A leaf's AccumulateGrad: the leaf; nullptr for other nodes.
  virtual const Tensor* variable() const { return nullptr; }
  // For the write of a CopySlices (its fn): the CopySlices, whose view_grad_fn() is the grad_fn
  // of the written view after the write (a saved output's identity, as torch's SavedVariable of
  // an in-place op on a view keeps the view's grad_fn); empty for other nodes.
  std::weak_ptr<Node> copy_slices;
  virtual std::shared_ptr<Node> view_grad_fn() { return nullptr; }

  // Adds an input: its gradient edge and metadata.
  void add_input(const Tensor& t);
  void add_input_meta_only(const Tensor& t);  // an input that takes no gradient

  // From small_blocks' cache, as the node itself: a node is made per recorded op.
  std::vector<Edge, small_blocks::Allocator<Edge>> next;
  std::vector<InputMeta, small_blocks::Allocator<InputMeta>> inputs;
  uint64_t seq;              // creation order on its thread (id_block.h): later nodes run first
  bool has_saved = false;    // whether backward needs values released by release_saved()
  // The autograd state of the output tensor when it retains its grad (retain_grad): the
  // engine stores the gradient flowing into this node there.  Not owning: the tensor's
  // destruction (destroy_meta) or the registration moving to a new grad_fn clears it
  // (Note [Retained grad and CopySlices]).
  // One per output of a multi-output node (index = output number); empty or nullptr: none.
  std::vector<AutogradMeta*> retained;
  // The hooks of the tensors this node produced (Note [Tensor hooks]): (output number, list).
  std::vector<std::pair<uint32_t, std::shared_ptr<HookList>>> pre_hooks;
  bool released = false;
};

// A tensor saved for backward: a data-only alias (no autograd state, so no cycle) and the
// storage version at the time it was saved.
struct SavedTensor {
  Ref<Tensor> data;
  int64_t version = 0;
  // For the error message (Note [Saved tensor names]): the node an output was saved by, or
  // the record of the tensor an input was saved from.
  const char* fn_name = nullptr;
  std::shared_ptr<const HistoryRecord> history;
  // For create_graph (Note [Higher-order gradients]): an input's gradient edge when saved (if
  // it required grad), whether this is the owner's output, and the tensor with identity that
  // unpack made (only while the owner runs: drop_live).
  Edge edge;
  bool is_output = false;
  mutable Ref<Tensor> live;
  // An input is kept as the tensor itself, as torch's SavedVariable keeps an input (its
  // saved_original_): backward reads what the tensor holds then, so after `x.data = y` it
  // reads y's values, as torch does.  An output is kept as an alias without history, since
  // the output itself would hold its own node (a cycle).
  void save(const Tensor& t, const Node* output_of = nullptr);
  // Makes a saved input an alias like a saved output: for the node of an in-place op, which
  // becomes the grad_fn of a tensor it may have saved (x.mul_(x)), directly or through a base.
  void alias_input();
  // The saved tensor; throws torch's errors when it was freed or modified in place.  Under
  // create_graph, the tensor with its autograd identity.
  const Tensor& unpack(const Node& owner) const;
  void drop_live() const { live = Ref<Tensor>(); }
  void reset() {
    data = Ref<Tensor>();
    history.reset();
    edge = Edge{};
    live = Ref<Tensor>();
  }
};

// torch's messages, shared by the engine and the nodes.
[[noreturn]] void fail_released();

// The record step of an in-place op on self (Note [Views and autograd]).  check_inplace
// throws torch's errors before anything is written; rebase_history makes fn self's new
// grad_fn, or, when self is a view, the base's CopySlices.
void check_inplace(const Tensor& self);
void rebase_history(const Tensor& self, std::shared_ptr<Node> fn);
// The record step of an in-place view op (t_, transpose_, squeeze_, unsqueeze_, as_strided_):
// fn, whose edge is self's grad_fn before the op, becomes self's grad_fn.  Unlike
// rebase_history the base keeps its history (torch records no CopySlices for these), and a
// view's grad_fn stays current for the version after the op's bump (call it after the bump).
// A retain_grad registration stays where it was (torch's: self.grad has the old geometry).
void set_inplace_view_history(const Tensor& self, std::shared_ptr<Node> fn);
// The name torch gives the node of an op without a derivative formula.
inline constexpr const char* kNotImplementedNode = "torch::autograd::NotImplemented";
// Makes fn the grad_fn of a freshly created (non-view) result.
void set_history(const Tensor& result, std::shared_ptr<Node> fn);
// For a freshly created view of `input`: gives it a view meta and, with grad mode on and
// input requiring grad, the grad_fn made by make_fn.  Output output_nr of a multi-output
// view op passes CreationMeta::MultiOutputNode.
template <class MakeFn>
void set_view_history(const Tensor& input, const Tensor& view, MakeFn&& make_fn,
                      CreationMeta creation = CreationMeta::Default, int64_t output_nr = 0);

// Refuses (InvalidArgument, naming the op) a node without a complex formula when one of its
// inputs or its result is complex (Note [Complex autograd] in meta.cpp).
void check_complex_formula(const char* name);

// Registers h on t (Note [Tensor hooks]) and returns its id; the list it went to is *list.
// InvalidArgument "cannot register a hook on a tensor that doesn't require gradient".
uint64_t register_hook(const Tensor& t, std::shared_ptr<Hook> h, std::weak_ptr<HookList>* list);
// Removes hook id from list if both still exist (the hook is destroyed when nothing runs it).
void remove_hook(const std::weak_ptr<HookList>& list, uint64_t id);
// Runs the hooks of list on grad in order, each seeing the previous one's result; a result
// must keep the gradient's sizes and dtype (InvalidArgument otherwise).
Ref<Tensor> run_hooks(const HookList& list, Ref<Tensor> grad);

// Runs backward from root with gradient grad (nullptr: implicit 1 for one element).
void backward(const Tensor& root, const Tensor* grad, bool retain_graph);
// torch's engine run: backward from roots with their gradients (nullptr: implicit 1 for a
// one-element root; validated with torch's messages and index).  inputs empty: every leaf
// accumulates (backward).  With inputs and accumulate: only those accumulate (a non-leaf
// input retains its grad, as torch's backward(inputs=)).  With inputs and !accumulate
// (torch's autograd.grad): the gradients reaching the inputs' gradient edges are returned
// (empty Ref: not reached; an error unless allow_unused) and no .grad is touched; only the
// part of the graph leading to the inputs runs.  create_graph: Note [Higher-order gradients].
std::vector<Ref<Tensor>> run_backward(std::span<const Tensor* const> roots, std::span<const Tensor* const> grads,
                                      std::span<const Tensor* const> inputs, bool retain_graph, bool create_graph,
                                      bool accumulate, bool allow_unused);

// Name of the Python-side tensor type of a dtype, as torch prints it ("FloatTensor").
const char* legacy_type_name(DType d);
// The op a node's name stands for, as torch 2.x's Node::forward_op_name names it in messages:
// "Backward<N>" dropped, N kept unless 0 ("ExpBackward0" -> "Exp", "FillBackward3" -> "Fill3",
// a custom op's "MyFnBackward" -> "MyFn");
// other names unchanged ("torch::autograd::CopySlices").
std::string forward_op_name(const char* name);

// ---- inline fast paths ---------------------------------------------------------------

// Whether an op on t must be recorded: one well-predicted branch when t has no state.
// Whether t, or the base of view t, has autograd state at all.  A view taken before its
// base had any still follows the base's history (torch's views always do).
inline bool has_autograd(const Tensor& t) {
  const Tensor* b = t.base();
  return t.autograd() != nullptr || (b != nullptr && b->autograd() != nullptr);
}

// Whether an op on t must be recorded: one well-predicted test when t has no state.
inline bool needs_grad(const Tensor& t) {
  return __builtin_expect(has_autograd(t), 0) && grad_recording() && requires_grad(t);
}

void set_view_meta(const Tensor& input, const Tensor& view, std::shared_ptr<Node> fn,
                   CreationMeta creation = CreationMeta::Default, int64_t output_nr = 0);

template <class MakeFn>
void set_view_history(const Tensor& input, const Tensor& view, MakeFn&& make_fn, CreationMeta creation,
                      int64_t output_nr) {
  if (&input == &view) return;  // an op that returned its input
  if (__builtin_expect(!has_autograd(input), 1)) {
    // torch gives every view of a floating tensor a creation mode, autograd or not: a view
    // taken in no_grad mode may not later be written in place by an op that records a graph.
    // Only those views pay for a meta (one branch on grad mode for the others).
    if (__builtin_expect(!grad_recording(), 0) && view.base() && is_floating(view.dtype()))
      set_view_meta(input, view, nullptr, creation, output_nr);
    return;
  }
  // A view of an inference tensor (made to require grad in inference mode): torch's view ops
  // then have no normal tensor argument and never reach autograd (Note [Inference tensors]).
  if (input.is_inference()) return;
  std::shared_ptr<Node> fn;
  if (grad_recording() && requires_grad(input)) fn = make_fn();
  set_view_meta(input, view, std::move(fn), creation, output_nr);
}

}  // namespace ct::autograd
