// Per-tensor autograd state, grad mode, saved tensors and the in-place rules.
#include "meta.h"

#include <pthread.h>

#include <atomic>
#include <cctype>
#include <memory>
#include <string_view>
#include <unordered_set>

#include "core/copy.h"
#include "core/error.h"
#include "core/id_block.h"
#include "core/small_blocks.h"
#include "core/math_bits.h"
#include "core/ops/elementwise.h"
#include "core/ops/promote.h"
#include "core/ops/reduce.h"
#include "core/views.h"
#include "functions.h"
#include "nodes.h"

namespace ct::autograd {

constinit thread_local bool t_grad_enabled __attribute__((tls_model("initial-exec"))) = true;

namespace {
std::atomic<uint64_t> g_next_seq{0};
__thread IdBlock t_seqs __attribute__((tls_model("initial-exec")));

std::string size_list(IntList s) { return list_str(s); }
}  // namespace

namespace {
// Removes m's retain_grad registration from the node that holds it.
void unregister_retained(AutogradMeta& m) {
  if (std::shared_ptr<Node> n = m.retained_at.lock())
    for (AutogradMeta*& r : n->retained)
      if (r == &m) r = nullptr;
  m.retained_at.reset();
}

void register_retained(AutogradMeta& m, const std::shared_ptr<Node>& fn) {
  unregister_retained(m);
  if (fn->retained.size() <= m.output_index) fn->retained.resize(m.output_index + 1, nullptr);
  fn->retained[m.output_index] = &m;
  m.retained_at = fn;
}

// Makes fn t's grad_fn, moving a retain_grad registration from the old one (torch moves
// its retains_grad hook the same way when an in-place op rebases the history; Note
// [Retained grad and CopySlices]).
void set_grad_fn(AutogradMeta& m, std::shared_ptr<Node> fn) {
  m.grad_fn = std::move(fn);
  m.output_index = 0;
  m.hooks.reset();  // the old grad_fn keeps the hooks registered so far (Note [Tensor hooks])
  if (m.retains_grad) {
    if (m.grad_fn)
      register_retained(m, m.grad_fn);
    else
      unregister_retained(m);
  }
  sync_history(m);
}
}  // namespace

void sync_history(AutogradMeta& m) {
  if (!m.history) return;
  HistoryRecord& h = *m.history;
  h.grad_fn = m.grad_fn ? m.grad_fn->name() : nullptr;
  h.requires_grad = m.requires_grad;
  h.is_view = m.is_view;
  h.creation = m.creation;
  h.output_nr = m.output_nr;
  h.attr_version = m.attr_version;
}

void* AutogradMeta::operator new(size_t bytes) { return small_blocks::Allocator<char>().allocate(bytes); }
void AutogradMeta::operator delete(void* p, size_t bytes) noexcept {
  small_blocks::Allocator<char>().deallocate(static_cast<char*>(p), bytes);
}

void destroy_meta(AutogradMeta* m) {
  unregister_retained(*m);
  delete m;
}

AutogradMeta& meta_of(const Tensor& t) {
  if (!t.autograd()) t.set_autograd(new AutogradMeta());
  return *t.autograd();
}

bool requires_grad(const Tensor& t) {
  const AutogradMeta* m = t.autograd();
  if (m && (m->requires_grad || m->grad_fn)) return true;
  // A view follows its base; one without state was taken before the base had any.
  return (!m || m->is_view) && t.base() && requires_grad(*t.base());
}

std::string forward_op_name(const char* name) {
  std::string n = name;
  // the nodes torch writes by hand are named by their C++ names (Python's grad_fn.name() too)
  if (n == "CopySlices" || n == "CopyBackwards") return "torch::autograd::" + n;
  const size_t at = n.rfind("Backward");
  if (at == std::string::npos) return n;  // a custom op's "MyFnBackward" names "MyFn" (no digits: dropped too)
  const std::string digits = n.substr(at + 8);
  if (digits.find_first_not_of("0123456789") != std::string::npos) return n;
  return n.substr(0, at) + (digits == "0" ? "" : digits);
}

namespace {
// torch's handle_view_on_rebase: refuses an in-place write to a view (indirect: to its base
// or another view of its base, noticed when the view's grad_fn is next asked for) when the
// view's creation forbids it.  The message names the op that made the view if it recorded
// one (torch 2.x: its forward_op_name).
// fn_name: the name of the view's grad_fn, or nullptr.
void check_view_rebase(CreationMeta creation, int64_t output_nr, const char* fn_name, bool indirect) {
  if (creation == CreationMeta::Default) return;
  std::ostringstream os;
  const char* what = indirect ? "its base or another view of its base has been" : "is being";
  const bool inference = creation == CreationMeta::InferenceMode;
  if (creation == CreationMeta::NoGradMode || inference || !fn_name) {
    if (fn_name) {  // a view, taken with grad mode on, of a view taken in no_grad mode
      os << "Output " << output_nr << " of " << forward_op_name(fn_name) << " is a view of a view which was created in";
    } else {
      os << "A view was created in";
    }
    if (inference) {
      os << " inference mode and " << what << " modified inplace in normal mode.";
    } else {
      os << " no_grad mode and " << what << " modified inplace with grad mode enabled.";
    }
  } else {
    os << "Output " << output_nr << " of " << forward_op_name(fn_name) << " is a view and " << what
       << " modified inplace.";
  }
  if (creation == CreationMeta::MultiOutputNode) {
    os << " This view is the output of a function that returns multiple views. Such functions do not allow the "
          "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  } else if (creation == CreationMeta::InCustomFunction) {
    os << " This view was created inside a custom Function (or because an input was returned as-is) and the "
          "autograd logic to handle view+inplace would override the custom backward associated with the custom "
          "Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
          "output of the custom Function.";
  } else {
    os << " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
          "moving both the view and the inplace either both inside the "
       << (inference ? "inference_mode" : "no_grad")
       << " block (if you don't want the "
          "inplace to be tracked) or both outside (if you want the inplace to be tracked).";
  }
  raise(ErrorKind::InvalidArgument, os.str());
}
void check_view_rebase(const AutogradMeta& m, bool indirect) {
  check_view_rebase(m.creation, m.output_nr, m.grad_fn ? m.grad_fn->name() : nullptr, indirect);
}
}  // namespace

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  AutogradMeta* m = t.autograd();
  if (!m) {
    if (!t.base() || !requires_grad(*t.base())) return nullptr;
    // A view taken before its base had autograd state: it gets a view meta now, and the
    // grad_fn of a view whose base changed (torch's lazy regeneration below).
    m = &meta_of(t);
    m->is_view = true;
    m->attr_version = -1;
  }
  if (m->is_view && t.base()) {
    const Tensor& base = *t.base();
    if (!m->grad_fn && !requires_grad(base)) return nullptr;
    const int64_t version = t.version();
    if (m->attr_version != version) {
      check_view_rebase(*m, /*indirect=*/true);
      m->attr_version = version;
      // torch replays a view whose dtype or bits differ from its base's (its view_fn): the
      // regenerated node is then named after the view's own op; the gradient is the same
      const bool replayed = m->view_fn_name && (t.dtype() != base.dtype() || t.math_bits() != base.math_bits());
      set_grad_fn(*m, make_as_strided_backward(base, t, replayed ? m->view_fn_name : "AsStridedBackward0"));
    }
  }
  return m->grad_fn;
}

bool is_leaf(const Tensor& t) { return grad_fn(t) == nullptr; }

Edge gradient_edge(const Tensor& t) {
  if (auto fn = grad_fn(t)) return {std::move(fn), t.autograd() ? t.autograd()->output_index : 0};
  AutogradMeta* m = t.autograd();
  if (m && m->requires_grad) {
    std::shared_ptr<Node> acc = m->accumulator.lock();
    if (!acc) {
      acc = make_accumulate_grad(t);
      m->accumulator = acc;
    }
    return {std::move(acc)};
  }
  return {};
}

void set_requires_grad(const Tensor& t, bool on) {
  CT_CHECK(!on || is_floating(t.dtype()) || is_complex(t.dtype()), DType,
           "only Tensors of floating point dtype can require gradients");
  CT_CHECK(!on || !t.is_inference() || inference_mode_enabled(), InvalidArgument, kRequiresGradMessage);
  if (!is_leaf(t)) {
    CT_CHECK(on, InvalidArgument,
             "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
             "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  if (!on && !t.autograd()) return;
  AutogradMeta& m = meta_of(t);
  m.requires_grad = on;
  sync_history(m);
}

void detach_in_place(const Tensor& t) {
  AutogradMeta* m = t.autograd();
  if (!m) return;
  set_grad_fn(*m, nullptr);
  m->requires_grad = false;
  m->accumulator.reset();
  sync_history(*m);
}

Ref<Tensor> grad(const Tensor& t) {
  const AutogradMeta* m = t.autograd();
  return m ? m->grad : Ref<Tensor>();
}

void set_grad(const Tensor& t, const Tensor* g) {
  if (!g) {
    if (t.autograd()) t.autograd()->grad = Ref<Tensor>();
    return;
  }
  // torch refuses only this cycle; a view of t, or two tensors each the other's grad, also
  // keep each other alive (the header says so), in torch as here.
  CT_CHECK(g != &t, InvalidArgument, "can't assign Variable as its own grad");
  CT_CHECK(g->dtype() == t.dtype(), DType,
           "attempting to assign a gradient with dtype '"
               << cpp_type_name(g->dtype()) << "' to a tensor with grad_dtype '" << torch_scalar_type_name(t.dtype())
               << "'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
                  "the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set "
                  "grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream "
                  "systems that assume they match.");
  CT_CHECK(std::equal(g->sizes().begin(), g->sizes().end(), t.sizes().begin(), t.sizes().end()), Shape,
           "attempting to assign a gradient of size '" << list_str(g->sizes()) << "' to a tensor of size '"
                                                       << list_str(t.sizes())
                                                       << "'. Please ensure that the gradient and the tensor are the "
                                                          "same size");
  meta_of(t).grad = Ref<Tensor>::retain(const_cast<Tensor*>(g));
}

void retain_grad(const Tensor& t) {
  CT_CHECK(requires_grad(t), InvalidArgument, "can't retain_grad on Tensor that has requires_grad=False");
  std::shared_ptr<Node> fn = grad_fn(t);
  if (!fn) return;  // leaves keep their grad anyway
  AutogradMeta& m = meta_of(t);
  m.retains_grad = true;
  register_retained(m, fn);
}

uint64_t register_hook(const Tensor& t, std::shared_ptr<Hook> h, std::weak_ptr<HookList>* list) {
  static std::atomic<uint64_t> next_id{0};
  CT_CHECK(requires_grad(t), InvalidArgument, "cannot register a hook on a tensor that doesn't require gradient");
  std::shared_ptr<Node> fn = grad_fn(t);  // first: a view may get its meta (and a new grad_fn) here
  AutogradMeta& m = meta_of(t);
  if (!m.hooks) {
    m.hooks = std::make_shared<HookList>();
    if (fn) fn->pre_hooks.emplace_back(m.output_index, m.hooks);
  }
  const uint64_t id = next_id.fetch_add(1, std::memory_order_relaxed);
  m.hooks->hooks.emplace_back(id, std::move(h));
  if (list) *list = m.hooks;
  return id;
}

void remove_hook(const std::weak_ptr<HookList>& list, uint64_t id) {
  std::shared_ptr<HookList> l = list.lock();
  if (!l) return;
  std::shared_ptr<Hook> gone;  // destroyed after the list is consistent again
  for (auto it = l->hooks.begin(); it != l->hooks.end(); ++it) {
    if (it->first == id) {
      gone = std::move(it->second);
      l->hooks.erase(it);
      break;
    }
  }
}

Ref<Tensor> run_hooks(const HookList& list, Ref<Tensor> grad) {
  // A copy: a hook may remove itself or others, or register more (which run next backward).
  std::vector<std::shared_ptr<Hook>> hooks;
  for (const auto& [id, h] : list.hooks) hooks.push_back(h);
  for (const std::shared_ptr<Hook>& h : hooks) {
    Ref<Tensor> r = h->call(*grad);
    if (!r) continue;
    CT_CHECK(std::equal(r->sizes().begin(), r->sizes().end(), grad->sizes().begin(), grad->sizes().end()),
             InvalidArgument, "hook has changed the size of value (was " << list_str(grad->sizes()) << " got "
                                                                          << list_str(r->sizes()) << ")");
    CT_CHECK(r->dtype() == grad->dtype(), InvalidArgument,
             "hook has changed the type of value (was ctensor." << legacy_type_name(grad->dtype()) << " got ctensor."
                                                                << legacy_type_name(r->dtype()) << ")");
    grad = std::move(r);
  }
  return grad;
}

bool retains_grad(const Tensor& t) { return t.autograd() && t.autograd()->retains_grad && !is_leaf(t); }

Ref<Tensor> resolve_bits(Ref<Tensor> g) {
  if (g->math_bits() == 0) return g;
  if (!create_graph_active()) return resolve_math_bits(*g);
  return ag::resolve_neg(*ag::resolve_conj(*g));
}

Ref<Tensor> fix_grad(Ref<Tensor> g, const InputMeta& m, bool keep_bits) {
  const IntList have = g->sizes();
  bool same = have.size() == m.sizes.size();  // a loop: std::equal would call memcmp
  for (size_t i = 0; same && i < have.size(); ++i) same = have[i] == m.sizes[i];
  if (!same) {
    if (g->math_bits() != 0) g = resolve_bits(std::move(g));  // sum reads values
    const int64_t lead = int64_t(have.size()) - int64_t(m.sizes.size());
    CT_CHECK(lead >= 0, Internal, "autograd: gradient of shape " << list_str(have) << " for an input of shape "
                                                                  << list_str(m.sizes));
    DimBuf dims;  // on the stack: a broadcast input (a bias) takes this path every backward
    for (int64_t i = 0; i < int64_t(have.size()); ++i) {
      if (i < lead) {
        dims.push_back(i);
      } else if (m.sizes[size_t(i - lead)] == 1 && have[size_t(i)] != 1) {
        dims.push_back(i);
      } else {
        CT_CHECK(m.sizes[size_t(i - lead)] == have[size_t(i)], Internal,
                 "autograd: gradient of shape " << list_str(have) << " for an input of shape " << list_str(m.sizes));
      }
    }
    // the recording ops under create_graph (a gradient with history keeps it); the core
    // ops otherwise (no view meta for the reshape made in backward)
    const bool cg = create_graph_active();
    if (lead > 0 && int64_t(dims.size()) == lead) {  // only leading dims (a bias): the sum has the shape
      g = cg ? ag::sum(*g, dims, false) : sum(*g, dims, false);
    } else {
      if (dims.size() != 0) g = cg ? ag::sum(*g, dims, true) : sum(*g, dims, true);
      g = cg ? ag::reshape(*g, m.sizes) : reshape(*g, m.sizes);
    }
  }
  // A real input of a complex op takes the real part (torch's handle_r_to_c); a real
  // gradient of a complex input becomes complex.  Gradients carry no math bits (Note [Math
  // bits]): a conj or neg view made by a formula is resolved here.
  if (g->dtype() != m.dtype) g = ag::to_dtype(*g, m.dtype);
  if (g->math_bits() != 0 && !keep_bits) g = resolve_bits(std::move(g));
  return g;
}

// Note [Complex autograd]
// torch differentiates complex tensors with the conjugate Wirtinger convention: for a real
// loss L, z.grad is dL/d(re z) + i dL/d(im z), and each formula is the real one with the
// local derivative conjugated (mul: grad * other.conj()).  A real input of a complex op takes
// the real part of its gradient (torch's handle_r_to_c, in fix_grad).  Only the nodes listed
// here have formulas checked for complex values; any other node refuses a complex input or
// result when it is recorded, before the op writes anything, instead of giving a wrong grad.
void check_complex_formula(const char* name) {
  static const std::unordered_set<std::string_view> ok = {
      "AddBackward0", "SubBackward0", "RsubBackward1", "MulBackward0", "DivBackward0", "NegBackward0",
      // the gradients of views under create_graph (Note [Higher-order gradients] in meta.h)
      "SelectBackwardBackward0", "SliceBackwardBackward0", "DiagonalBackwardBackward0",
      "UnfoldBackwardBackward0", "ViewBackwardBackward0", "AsStridedBackwardBackward0",
      "IndexAddBackward0", "ScatterAddBackward0", "IndexPutImplBackward0",
      "AbsBackward0", "ExpBackward0", "LogBackward0", "SqrtBackward0", "SinBackward0", "CosBackward0",
      "TanhBackward0", "SigmoidBackward0", "SumBackward0", "SumBackward1", "ProdBackward0", "ProdBackward1", "MeanBackward0", "MeanBackward1",
      "DotBackward0", "VdotBackward0", "MvBackward0", "SqueezeBackward4", "MmBackward0", "CloneBackward0", "UnsafeViewBackward0",
      "ConjBackward0", "ConjPhysicalBackward0", "ConjPhysicalBackward1", "NegViewBackward0", "ViewAsRealBackward0",
      "ViewAsComplexBackward0", "CopyBackwards", "CopySlices", "ToCopyBackward0", "ViewBackward0",
      "TransposeBackward0", "TransposeBackward1", "TBackward0", "TBackward1", "PermuteBackward0",
      "SliceBackward0", "SelectBackward0", "ExpandBackward0", "SqueezeBackward0", "SqueezeBackward1",
      "SqueezeBackward2", "SqueezeBackward3", "SqueezeBackward5", "UnsqueezeBackward0", "UnsqueezeBackward1",
      "DiagonalBackward0", "UnfoldBackward0", "AliasBackward0", "AsStridedBackward0", "AsStridedBackward1",
      "UnbindBackward0", "SplitBackward0", "SplitWithSizesBackward0", "UnsafeSplitBackward0",
      "UnsafeSplitWithSizesBackward0", "CatBackward0", "StackBackward0", "FlipBackward0", "RollBackward0",
      "RepeatBackward0", "Rot90Backward0", "IndexSelectBackward0", "GatherBackward0", "TakeBackward0",
      "IndexBackward0", "IndexPutBackward0", "PutBackward0", "WhereBackward0", "MaskedFillBackward0",
      "MaskedFillBackward1", "MaskedSelectBackward0", "MaskedScatterBackward0", "ScatterBackward0",
      "ScatterBackward1", "ScatterAddBackward0", "IndexAddBackward0", "IndexCopyBackward0", "IndexFillBackward0",
      "IndexFillBackward1", "FillBackward2", "FillBackward3", "ZeroBackward0", "CumsumBackward0", "CumprodBackward0", "VarBackward0", "PowBackward0",
      "PowBackward1", "PowBackward2", "ReciprocalBackward0", "SgnBackward0", "AngleBackward0",
      "StdBackward0", "VarMeanBackward0", "StdMeanBackward0", "LinalgVectorNormBackward0",
      kNotImplementedNode, "torch::autograd::AccumulateGrad"};
  const std::string_view n = name;
  // torch's *_copy ops (Note [Copies of views] in functions.cpp) reuse the views' formulas
  const bool view_copy = n.size() > 5 && n.substr(n.size() - 5) == "_copy";
  if (view_copy || n == "NarrowCopyBackward0" || ok.count(n) != 0) return;
  // torch's throw_error_for_complex_autograd names the forward op in snake case
  std::string op;
  for (char c : forward_op_name(name)) {
    if (std::isupper(static_cast<unsigned char>(c)) && !op.empty()) op += '_';
    op += char(std::tolower(static_cast<unsigned char>(c)));
  }
  CT_FAIL(InvalidArgument, op << " does not support automatic differentiation for outputs with complex dtype.");
}

Node::Node() : seq(take_id(g_next_seq, t_seqs)) {}

namespace {
// The nodes whose last owner was a node being destroyed, freed one at a time by the outermost
// ~Node (so a long chain is not freed by recursion).  Thread-locals are initial-exec, as
// t_grad_enabled: one %fs-relative access instead of a __tls_get_addr call, on every node's
// destruction (the module's TLS block is static already, so this takes no more static TLS).
// The list is reached through a plain pointer because a thread_local with a destructor gets
// a guard variable that is read through __tls_get_addr on every access; the list is freed by
// a key destructor when the thread exits (never, if the process could not make the key).
using PendingNodes = std::vector<std::shared_ptr<Node>>;
thread_local bool t_draining __attribute__((tls_model("initial-exec"))) = false;
thread_local PendingNodes* t_pending __attribute__((tls_model("initial-exec"))) = nullptr;

PendingNodes& pending_nodes() {
  if (!t_pending) {
    static pthread_key_t key;
    static const bool has_key = pthread_key_create(&key, [](void* p) {
      delete static_cast<PendingNodes*>(p);
      t_pending = nullptr;  // key destructors run on the exiting thread itself
    }) == 0;
    auto list = std::make_unique<PendingNodes>();
    if (has_key && pthread_setspecific(key, list.get()) != 0)
      throw std::bad_alloc();  // the only failure: no memory for the key's slot
    t_pending = list.release();
  }
  return *t_pending;
}
}  // namespace

void Node::release_later(std::shared_ptr<Node> n) {
  if (n && n.use_count() == 1) pending_nodes().push_back(std::move(n));
}

Node::~Node() {
  for (Edge& e : next) release_later(std::move(e.fn));
  if (t_draining || !t_pending) return;
  t_draining = true;
  while (!t_pending->empty()) {
    std::shared_ptr<Node> n = std::move(t_pending->back());
    t_pending->pop_back();
    n.reset();  // may push its own inputs
  }
  t_draining = false;
}

void Node::add_input(const Tensor& t) {
  if (is_complex(t.dtype()) && !user_formula()) check_complex_formula(name());
  next.push_back(gradient_edge(t));
  inputs.push_back({InputSizes(t.sizes()), t.dtype()});
}

void Node::add_input_meta_only(const Tensor& t) {
  if (is_complex(t.dtype()) && !user_formula()) check_complex_formula(name());
  next.push_back({});
  inputs.push_back({InputSizes(t.sizes()), t.dtype()});
}

namespace {
std::shared_ptr<const HistoryRecord> history_of(const Tensor& t) {
  AutogradMeta* m = t.autograd();
  if (!m) return nullptr;
  if (!m->history) {
    m->history = std::allocate_shared<HistoryRecord>(small_blocks::Allocator<HistoryRecord>());
    sync_history(*m);
    if (m->is_view && t.base()) m->history->base = history_of(*t.base());
  }
  return m->history;
}
}  // namespace

void SavedTensor::save(const Tensor& t, const Node* output_of) {
  CT_CHECK(!t.is_inference(), InvalidArgument, kSavedMessage);  // Note [Inference tensors]
  data = output_of ? alias(t) : Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  version = t.version();
  if (output_of) {
    fn_name = output_of->name();
    is_output = true;
  } else {
    grad_fn(t);  // a view taken before its base had autograd state gets its meta
    history = history_of(t);
    if (has_autograd(t) && requires_grad(t)) edge = gradient_edge(t);
  }
}

void SavedTensor::alias_input() {
  if (data && !is_output) data = alias(*data);
}

namespace {
thread_local bool t_create_graph __attribute__((tls_model("initial-exec"))) = false;  // as t_draining
}
bool create_graph_active() { return t_create_graph; }
CreateGraphGuard::CreateGraphGuard(bool on) : prev_cg(t_create_graph), prev_grad(grad_enabled()) {
  t_create_graph = on;
  set_grad_enabled(on);
}
CreateGraphGuard::~CreateGraphGuard() {
  t_create_graph = prev_cg;
  set_grad_enabled(prev_grad);
}

void fail_released() {
  raise(ErrorKind::InvalidArgument,
        "Trying to backward through the graph a second time (or directly access saved tensors after they have "
        "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
        "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
        "you need to access saved tensors after calling backward.");
}

const char* legacy_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "BoolTensor";
    case DType::UInt8: return "ByteTensor";
    case DType::Int8: return "CharTensor";
    case DType::Int16: return "ShortTensor";
    case DType::Int32: return "IntTensor";
    case DType::Int64: return "LongTensor";
    case DType::Float16: return "HalfTensor";
    case DType::BFloat16: return "BFloat16Tensor";
    case DType::Float32: return "FloatTensor";
    case DType::Float64: return "DoubleTensor";
    case DType::Complex64: return "ComplexFloatTensor";
    case DType::Complex128: return "ComplexDoubleTensor";
  }
  return "Tensor";
}

Ref<Tensor> output_with_history(const Node& owner, const Tensor& data, uint32_t output_index) {
  Ref<Tensor> live = alias(data);
  std::shared_ptr<Node> cs = owner.copy_slices.lock();
  AutogradMeta& m = meta_of(*live);
  m.grad_fn = cs ? cs->view_grad_fn() : std::const_pointer_cast<Node>(owner.shared_from_this());
  m.output_index = cs ? 0 : output_index;
  return live;
}

const Tensor& SavedTensor::unpack(const Node& owner) const {
  if (owner.released || !data) fail_released();
  const int64_t now = data->version();
  if (now != version) {
    const char* name = fn_name;
    if (history) {  // the tensor's grad_fn now, as grad_fn() would give it (Note [Saved tensor names])
      const HistoryRecord& h = *history;
      name = h.grad_fn;
      const bool base_requires_grad = h.base && (h.base->requires_grad || h.base->grad_fn);
      if (h.is_view && (h.grad_fn || base_requires_grad) && h.attr_version != now) {
        check_view_rebase(h.creation, h.output_nr, h.grad_fn, /*indirect=*/true);
        name = "AsStridedBackward0";
      }
    }
    std::ostringstream os;
    os << "one of the variables needed for gradient computation has been modified by an inplace operation: "
       << "[ctensor." << legacy_type_name(data->dtype()) << ' ' << size_list(data->sizes()) << "]";
    if (name) os << ", which is output 0 of " << forward_op_name(name) << ',';
    os << " is at version " << now << "; expected version " << version
       << " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
          "with torch.autograd.set_detect_anomaly(True, check_nan=False).";
    raise(ErrorKind::InvalidArgument, os.str());
  }
  if (t_create_graph && (is_output || edge.valid())) {  // Note [Higher-order gradients]
    if (!live) {
      if (is_output) {
        live = output_with_history(owner, *data, 0);
      } else if (const Tensor* leaf = edge.fn->variable()) {
        live = Ref<Tensor>::retain(const_cast<Tensor*>(leaf));
      } else {
        live = alias(*data);
        AutogradMeta& m = meta_of(*live);
        m.grad_fn = edge.fn;
        m.output_index = edge.input_nr;
      }
    }
    return *live;
  }
  return *data;
}

void check_inplace(const Tensor& self) {
  const AutogradMeta* m = self.autograd();
  if (self.base()) {
    if (m) check_view_rebase(*m, /*indirect=*/false);
    const Tensor& base = *self.base();
    CT_CHECK(!(requires_grad(base) && is_leaf(base)), InvalidArgument,
             "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  CT_CHECK(!(requires_grad(self) && is_leaf(self)), InvalidArgument,
           "a leaf Variable that requires grad is being used in an in-place operation.");
}

void rebase_history(const Tensor& self, std::shared_ptr<Node> fn) {
  fn->alias_saved_inputs();  // self's node must not hold self (or its base) itself: a cycle
  if (self.base()) {
    const Tensor& base = *self.base();
    // base's retain_grad registration moves to CopySlices (Note [Retained grad and CopySlices])
    set_grad_fn(meta_of(base), make_copy_slices(base, self, std::move(fn)));
    AutogradMeta& vm = meta_of(self);
    vm.is_view = true;
    vm.attr_version = -1;  // regenerated (AsStridedBackward0) when next asked for
    set_grad_fn(vm, nullptr);
    return;
  }
  set_grad_fn(meta_of(self), std::move(fn));
}

void set_inplace_view_history(const Tensor& self, std::shared_ptr<Node> fn) {
  fn->alias_saved_inputs();  // as rebase_history
  AutogradMeta& m = meta_of(self);
  // A retain_grad registration stays on the old grad_fn (now fn's input), so self.grad is the
  // gradient in self's geometry before the op, as torch 2.13 leaves it.
  m.grad_fn = std::move(fn);
  m.output_index = 0;
  m.hooks.reset();  // Note [Tensor hooks]
  sync_history(m);
  if (self.base()) {
    m.is_view = true;
    m.attr_version = self.version();
  }
}

void set_history(const Tensor& result, std::shared_ptr<Node> fn) {
  // A real input can give a complex result (x * 1j): the node must have a complex formula.
  if (is_complex(result.dtype()) && !fn->user_formula()) check_complex_formula(fn->name());
  meta_of(result).grad_fn = std::move(fn);
}

void set_view_meta(const Tensor& input, const Tensor& view, std::shared_ptr<Node> fn, CreationMeta creation,
                   int64_t output_nr) {
  if (!view.base()) {  // not a view after all (reshape copied): an ordinary result
    if (fn) set_history(view, std::move(fn));
    return;
  }
  if (inference_mode_enabled()) {
    creation = CreationMeta::InferenceMode;  // torch: inference mode wins over every other
  } else if (!grad_enabled()) {
    creation = CreationMeta::NoGradMode;
  }
  // torch's propagate_creation_meta: a view of a view that may not be written in place
  // (made in no_grad mode, or an output of unbind/split) may not be written either.
  const AutogradMeta* im = input.autograd();
  if (creation == CreationMeta::Default && input.base() && im && im->is_view) creation = im->creation;
  AutogradMeta& m = meta_of(view);
  m.is_view = true;
  m.creation = creation;
  m.output_nr = output_nr;
  m.grad_fn = std::move(fn);
  m.view_fn_name = m.grad_fn ? m.grad_fn->name() : nullptr;
  m.attr_version = view.version();
}

}  // namespace ct::autograd
