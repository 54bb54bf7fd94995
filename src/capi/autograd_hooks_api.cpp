// Autograd callbacks from C: tensor hooks and custom ops.  Each wraps the caller's function
// pointer, user_data and release in a core object whose destructor is the release (Note
// [Tensor hooks] in core/autograd/meta.h, Note [Custom ops] in core/autograd/custom.cpp).
#include <string>

#include "capi/guard.h"
#include "core/autograd/custom.h"
#include "core/autograd/meta.h"

using namespace ct;
using namespace ct::capi;

struct ct_hook_handle {
  std::weak_ptr<autograd::HookList> list;
  uint64_t id = 0;
};

namespace {

// Owns user_data: release(user_data) runs exactly once, when this object goes.
struct UserData {
  void* data;
  void (*release)(void*);
  UserData(void* d, void (*r)(void*)) : data(d), release(r) {}
  UserData(const UserData&) = delete;
  UserData& operator=(const UserData&) = delete;
  ~UserData() {
    if (release) release(data);
  }
};

// A failure a callback reported: its status and the message it set with ct_set_error.
[[noreturn]] void raise_callback_failure(ct_status st, const char* what) {
  int raw = int(st);
  if (raw < int(CT_ERR_INVALID_ARGUMENT) || raw > int(CT_ERR_INTERNAL)) raw = int(CT_ERR_INTERNAL);
  std::string msg = ct_last_status() != CT_OK ? ct_last_error() : "";
  if (msg.empty()) msg = std::string(what) + " failed with " + ct_status_name(st);
  raise(static_cast<ErrorKind>(raw), msg);
}

ct_tensor* borrowed_handle(const Tensor& t) { return reinterpret_cast<ct_tensor*>(const_cast<Tensor*>(&t)); }

class CHook final : public autograd::Hook {
 public:
  CHook(ct_tensor_hook_fn fn, void* data, void (*release)(void*)) : fn_(fn), data_(data, release) {}
  Ref<Tensor> call(const Tensor& grad) override {
    ct_tensor* rep = nullptr;
    ct_clear_error();
    const ct_status st = fn_(data_.data, borrowed_handle(grad), &rep);
    Ref<Tensor> r = Ref<Tensor>::adopt(from_handle(rep));  // released if the hook failed
    if (st != CT_OK) raise_callback_failure(st, "tensor hook");
    return r;
  }

 private:
  ct_tensor_hook_fn fn_;
  UserData data_;
};

class CBackward final : public autograd::CustomBackward {
 public:
  CBackward(ct_custom_backward_fn fn, void* data, void (*release)(void*), int n_in)
      : fn_(fn), data_(data, release), n_in_(n_in) {}
  autograd::Grads call(const autograd::Grads& grads) override {
    std::vector<const ct_tensor*> go;
    for (const Ref<Tensor>& g : grads) go.push_back(g ? borrowed_handle(*g) : nullptr);
    std::vector<ct_tensor*> gi(size_t(n_in_), nullptr);
    ct_clear_error();
    const ct_status st = fn_(data_.data, int(go.size()), go.data(), n_in_, gi.data());
    autograd::Grads r;
    for (ct_tensor* h : gi) r.push_back(Ref<Tensor>::adopt(from_handle(h)));
    if (st != CT_OK) raise_callback_failure(st, "custom op backward");
    for (const Ref<Tensor>& t : r)
      CT_CHECK(!t || t->valid(), InvalidArgument, "custom op backward: a gradient is not a live ct_tensor handle");
    return r;
  }

 private:
  ct_custom_backward_fn fn_;
  UserData data_;
  int n_in_;
};

}  // namespace

extern "C" {

ct_status ct_tensor_register_hook(ct_tensor* t, ct_tensor_hook_fn fn, void* user_data, void (*release)(void*),
                                  ct_hook_handle** handle) {
  if (handle) *handle = nullptr;
  // Owned from here on, so that every failure releases user_data once.
  auto data = std::make_unique<UserData>(user_data, release);
  return guard_status([&] {
    const Tensor& x = tensor_arg(t, "ct_tensor_register_hook");
    CT_CHECK(fn, InvalidArgument, "ct_tensor_register_hook: fn is NULL");
    auto h = std::make_shared<CHook>(fn, user_data, release);
    data->release = nullptr;  // the hook owns it now
    auto out = std::make_unique<ct_hook_handle>();
    out->id = autograd::register_hook(x, std::move(h), &out->list);
    if (handle) *handle = out.release();
  });
}

ct_status ct_hook_remove(ct_hook_handle* h) {
  return guard_status([&] {
    CT_CHECK(h, InvalidArgument, "ct_hook_remove: handle is NULL");
    autograd::remove_hook(h->list, h->id);
  });
}

int64_t ct_hook_id(const ct_hook_handle* h) {
  return guard<int64_t>(-1, [&] {
    CT_CHECK(h, InvalidArgument, "ct_hook_id: handle is NULL");
    return int64_t(h->id);
  });
}

void ct_hook_handle_release(ct_hook_handle* h) { delete h; }

ct_status ct_custom_op_apply(const char* name, int n_inputs, ct_tensor* const* inputs, int n_outputs,
                             ct_tensor* const* outputs, const int* output_flags, int materialize_grads,
                             ct_custom_backward_fn backward, void* user_data, void (*release)(void*)) {
  auto data = std::make_unique<UserData>(user_data, release);
  return guard_status([&] {
    const char* op = "ct_custom_op_apply";
    CT_CHECK(name, InvalidArgument, op << ": name is NULL");
    CT_CHECK(backward, InvalidArgument, op << ": backward is NULL");
    CT_CHECK(n_inputs >= 0, InvalidArgument, op << ": n_inputs is " << n_inputs);
    CT_CHECK(n_outputs > 0, InvalidArgument, op << ": n_outputs is " << n_outputs << ", expected at least 1");
    CT_CHECK(inputs || n_inputs == 0, InvalidArgument, op << ": inputs is NULL");
    CT_CHECK(outputs, InvalidArgument, op << ": outputs is NULL");
    std::vector<const Tensor*> ins;
    for (int i = 0; i < n_inputs; ++i) ins.push_back(&tensor_arg(inputs[i], op, "input"));
    std::vector<autograd::CustomOutput> outs;
    bool differentiable_backward = false;
    for (int o = 0; o < n_outputs; ++o) {
      const Tensor& t = tensor_arg(outputs[o], op, "output");
      const int flags = output_flags ? output_flags[o] : 0;
      CT_CHECK((flags & ~7) == 0, InvalidArgument, op << ": output_flags[" << o << "] is " << flags);
      differentiable_backward = differentiable_backward || (flags & CT_CUSTOM_DIFFERENTIABLE_BACKWARD) != 0;
      autograd::CustomOutput c{&t, (flags & CT_CUSTOM_NON_DIFFERENTIABLE) != 0, -1};
      if (flags & CT_CUSTOM_DIRTY) {
        for (int i = 0; i < n_inputs && c.dirty_input < 0; ++i)
          if (ins[size_t(i)] == &t) c.dirty_input = i;
        CT_CHECK(c.dirty_input >= 0, InvalidArgument,
                 op << ": output " << o << " is flagged CT_CUSTOM_DIRTY but is not one of the inputs");
      }
      outs.push_back(c);
    }
    auto fn = std::make_shared<CBackward>(backward, user_data, release, n_inputs);
    data->release = nullptr;  // fn owns it now
    autograd::apply_custom_op(name, ins, outs, materialize_grads != 0, std::move(fn), differentiable_backward);
  });
}

ct_tensor* ct_custom_op_saved_output(const ct_tensor* saved, int output_index) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(autograd::custom_saved_output(tensor_arg(saved, "ct_custom_op_saved_output"), output_index));
  });
}

}  // extern "C"
