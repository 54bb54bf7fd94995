// The recording step of the masked ops, rot90 and repeat_interleave (mask_ops.h).  Each node
// is a MaskNode: torch's name, the saved mask (checked against in-place changes when
// backward reads it), and the gradient formula of torch's derivatives.yaml.
#include "mask_ops.h"

#include <functional>
#include <utility>

#include "core/copy.h"
#include "core/factory.h"
#include "core/mask_ops.h"
#include "core/memory_format.h"
#include "core/ops/elementwise.h"
#include "core/ops/reduce.h"
#include "core/shape.h"
#include "core/views.h"
#include "functions.h"
#include "meta.h"

namespace ct::ag {

using namespace ct::autograd;

namespace {

class MaskNode final : public Node {
 public:
  using Fn = std::function<Grads(const Tensor& grad, const Tensor* mask, MaskNode& self)>;
  MaskNode(const char* name, Fn fn) : name_(name), fn_(std::move(fn)) {}
  const char* name() const override { return name_; }
  Grads apply(const Tensor& g) override { return fn_(g, saved_ ? &mask_.unpack(*this) : nullptr, *this); }
  void release_saved() override {
    mask_.reset();
    released = true;
  }
  void alias_saved_inputs() override { mask_.alias_input(); }
  void save_mask(const Tensor& mask) {
    mask_.save(mask);
    saved_ = true;
    has_saved = true;
  }
  bool wants(size_t i) const { return i < next.size() && next[i].valid(); }

 private:
  const char* name_;
  Fn fn_;
  SavedTensor mask_;
  bool saved_ = false;
};

std::shared_ptr<MaskNode> make_node(const char* name, std::initializer_list<const Tensor*> inputs, MaskNode::Fn fn) {
  auto n = std::make_shared<MaskNode>(name, std::move(fn));
  for (const Tensor* t : inputs) n->add_input(*t);
  return n;
}

bool any_needs(std::initializer_list<const Tensor*> ts) {
  bool any = false;
  for (const Tensor* t : ts) any |= needs_grad(*t);
  return any;
}

// torch: grad.masked_fill(mask, 0) (the gradient of the elements a masked op overwrote).
Ref<Tensor> zero_masked(const Tensor& g, const Tensor& mask) { return ct::masked_fill(g, mask, 0.0); }

// torch's masked_scatter backward for source: the gradient at the mask's true positions, in
// order, padded with zeros to source's element count and shaped as source.
Ref<Tensor> source_grad(const Tensor& g, const Tensor& mask, const Shape& source_sizes) {
  Ref<Tensor> picked = ct::masked_select(g, mask);
  const int64_t n = checked_numel(source_sizes, "masked_scatter_backward");
  const int64_t size[1] = {n};
  Ref<Tensor> flat = full(IntList(size, 1), 0.0, g.dtype(), "masked_scatter_backward");
  copy_elements(*ct::narrow(*flat, 0, 0, picked->numel()), *picked);
  return ct::reshape(*flat, source_sizes);
}

// The node of masked_fill / masked_fill_ (value: nullptr for a number).
std::shared_ptr<MaskNode> fill_node(const Tensor& self, const Tensor& mask, const Tensor* value) {
  if (!value) {
    auto n = make_node("MaskedFillBackward0", {&self}, [](const Tensor& g, const Tensor* m, MaskNode&) -> Grads {
      return {zero_masked(g, *m)};
    });
    n->save_mask(mask);
    return n;
  }
  auto n = make_node("MaskedFillBackward1", {&self, value}, [](const Tensor& g, const Tensor* m, MaskNode& s) -> Grads {
    Grads out(2);
    if (s.wants(0)) out[0] = zero_masked(g, *m);
    if (s.wants(1)) out[1] = ct::sum(*ct::masked_select(g, *m), {}, false);
    return out;
  });
  n->save_mask(mask);
  return n;
}

std::shared_ptr<MaskNode> scatter_node(const Tensor& self, const Tensor& mask, const Tensor& source) {
  Shape source_sizes(source.sizes().begin(), source.sizes().end());
  auto n = make_node("MaskedScatterBackward0", {&self, &source},
                     [source_sizes](const Tensor& g, const Tensor* m, MaskNode& s) -> Grads {
                       Grads out(2);
                       if (s.wants(0)) out[0] = zero_masked(g, *m);
                       if (s.wants(1)) out[1] = source_grad(g, *m, source_sizes);
                       return out;
                     });
  n->save_mask(mask);
  return n;
}

// An in-place masked op on self: torch's checks, the node made before the write (its edges
// are self's history before it), the write, then self's new history.
template <class MakeNode, class Write>
void record_inplace(const Tensor& self, bool record, MakeNode&& make, Write&& write) {
  if (__builtin_expect(!record, 1)) return write();
  check_inplace(self);
  std::shared_ptr<Node> n = make();
  write();
  rebase_history(self, std::move(n));
}

}  // namespace

Ref<Tensor> masked_select(const Tensor& t, const Tensor& mask) {
  Ref<Tensor> r = ct::masked_select(t, mask);
  if (__builtin_expect(needs_grad(t), 0)) {
    const Shape b = broadcast_shapes(mask.sizes(), t.sizes(), "masked_select");
    auto n = make_node("MaskedSelectBackward0", {&t}, [b](const Tensor& g, const Tensor* m, MaskNode&) -> Grads {
      // zeros of the broadcast shape with g scattered in; the engine sums broadcast dims away.
      Ref<Tensor> z = full(b, 0.0, g.dtype(), "masked_select_backward");
      ct::masked_scatter_(*z, *m, g);
      return {z};
    });
    n->save_mask(mask);
    set_history(*r, std::move(n));
  }
  return r;
}

void masked_fill_(const Tensor& self, const Tensor& mask, double value) {
  record_inplace(self, needs_grad(self), [&] { return fill_node(self, mask, nullptr); },
                 [&] { ct::masked_fill_(self, mask, value); });
}

void masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  record_inplace(self, any_needs({&self, &value}), [&] { return fill_node(self, mask, &value); },
                 [&] { ct::masked_fill_(self, mask, value); });
}

Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, double value) {
  Ref<Tensor> r = ct::masked_fill(t, mask, value);
  if (__builtin_expect(needs_grad(t), 0)) set_history(*r, fill_node(t, mask, nullptr));
  return r;
}

Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, const Tensor& value) {
  Ref<Tensor> r = ct::masked_fill(t, mask, value);
  if (__builtin_expect(any_needs({&t, &value}), 0)) set_history(*r, fill_node(t, mask, &value));
  return r;
}

void masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  record_inplace(self, any_needs({&self, &source}), [&] { return scatter_node(self, mask, source); },
                 [&] { ct::masked_scatter_(self, mask, source); });
}

Ref<Tensor> masked_scatter(const Tensor& t, const Tensor& mask, const Tensor& source) {
  Ref<Tensor> r = ct::masked_scatter(t, mask, source);
  if (__builtin_expect(any_needs({&t, &source}), 0)) set_history(*r, scatter_node(t, mask, source));
  return r;
}

Ref<Tensor> rot90(const Tensor& t, int64_t k, IntList dims) {
  Ref<Tensor> r = ct::rot90(t, k, dims);
  if (__builtin_expect(needs_grad(t), 0)) {
    // The gradient turns back: -k taken modulo 4 first (negating INT64_MIN would overflow).
    const int64_t back = (4 - ((k % 4) + 4) % 4) % 4;
    Shape d(dims.begin(), dims.end());
    set_history(*r, make_node("Rot90Backward0", {&t}, [back, d](const Tensor& g, const Tensor*, MaskNode&) -> Grads {
                  return {ct::rot90(g, back, d)};
                }));
  }
  return r;
}

Ref<Tensor> repeat_interleave_int(const Tensor& t, int64_t repeats, std::optional<int64_t> dim,
                                  std::optional<int64_t> output_size) {
  // torch: input.unsqueeze(dim + 1).expand(..., repeats at dim + 1, ...)
  //        .clone(contiguous_format).flatten(dim, dim + 1), input = t or t.flatten().
  const int d = repeat_interleave_int_dim(t, repeats, dim);
  Ref<Tensor> input = dim ? Ref<Tensor>::retain(const_cast<Tensor*>(&t)) : ag::flatten(t, 0, -1);
  Ref<Tensor> u = ag::unsqueeze(*input, d + 1);
  int64_t total = 0;
  CT_CHECK(!__builtin_mul_overflow(u->size(d), repeats, &total), Shape, "numel: integer multiplication overflow");
  CT_CHECK(!output_size || *output_size == total, InvalidArgument,
           "repeat_interleave: Invalid output_size, expected " << total << " but got " << *output_size);
  Shape sizes(u->sizes().begin(), u->sizes().end());
  sizes[size_t(d + 1)] = repeats;
  checked_numel(sizes, "repeat_interleave");
  Ref<Tensor> c = ag::clone_format(*ag::expand(*u, sizes), MemoryFormat::Contiguous);
  return ag::flatten(*c, d, d + 1);
}

Ref<Tensor> repeat_interleave_tensor(const Tensor& t, const Tensor& repeats, std::optional<int64_t> dim,
                                     std::optional<int64_t> output_size) {
  Ref<Tensor> input = dim ? Ref<Tensor>::retain(const_cast<Tensor*>(&t)) : ag::flatten(t, 0, -1);
  const int64_t d = dim.value_or(0);
  Ref<Tensor> index = repeat_interleave_index(repeats, *input, d, output_size);
  return ag::index_select(*input, d, *index);
}

}  // namespace ct::ag
