// Tensor hooks and custom ops through the public header: a hook replaces a gradient, a failing
// hook ends backward with its status and message, removal, a custom op inside a recorded
// graph gets the analytic (torch's) gradient, several outputs and zero materialization, the
// errors, torch's gradient shape rule, a backward reached only by undefined gradients, and
// that user_data is released exactly once and no tensor is left behind (the CtTest fixture
// compares ct_live_tensors() before and after).
#include <cmath>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

struct Counts {
  int calls = 0;
  int released = 0;
};

void count_release(void* ud) { ++static_cast<Counts*>(ud)->released; }

ct_tensor* vec(std::vector<double> v, int requires_grad) {
  const int64_t n = int64_t(v.size());
  ct_tensor* t = ct_from_data(v.data(), 1, &n, CT_FLOAT64);
  if (t && requires_grad) ct_set_requires_grad(t, 1);
  return t;
}

std::vector<double> vals(const ct_tensor* t) {
  TensorRef c(ct_contiguous(t));
  const double* p = static_cast<const double*>(ct_tensor_data(c));
  return std::vector<double>(p, p + ct_tensor_numel(c));
}

ct_tensor* total(const ct_tensor* t) { return ct_sum(t, 0, nullptr, 0); }

// grad * 10
ct_status times_ten(void* ud, const ct_tensor* grad, ct_tensor** replacement) {
  ++static_cast<Counts*>(ud)->calls;
  *replacement = ct_mul_scalar(grad, 10.0);
  return *replacement ? CT_OK : ct_last_status();
}

ct_status keep(void* ud, const ct_tensor*, ct_tensor**) {
  ++static_cast<Counts*>(ud)->calls;
  return CT_OK;
}

ct_status fails(void* ud, const ct_tensor*, ct_tensor**) {
  ++static_cast<Counts*>(ud)->calls;
  ct_set_error(CT_ERR_SHAPE, "my hook refuses");
  return CT_ERR_SHAPE;
}

ct_status wrong_size(void*, const ct_tensor*, ct_tensor** replacement) {
  *replacement = vec({1, 2}, 0);
  return CT_OK;
}

class AutogradHooks : public ctt::CtTest {};

TEST_F(AutogradHooks, HookReplacesGradientThenRetainGrad) {
  Counts c;
  {
    CT_MAKE(x, vec({1, 2, 3}, 1));
    CT_MAKE(y, ct_mul(x, x));
    ct_hook_handle* h = nullptr;
    CT_ASSERT_OK(ct_tensor_register_hook(y, times_ten, &c, count_release, &h));
    ASSERT_NE(h, nullptr);
    EXPECT_GE(ct_hook_id(h), 0);
    CT_ASSERT_OK(ct_retain_grad(y));
    CT_MAKE(s, total(y));
    CT_ASSERT_OK(ct_backward(s, nullptr, 0));
    EXPECT_EQ(c.calls, 1);
    CT_MAKE(gx, ct_grad(x));
    EXPECT_EQ(vals(gx), (std::vector<double>{20, 40, 60}));  // torch: 10 * 2x
    CT_MAKE(gy, ct_grad(y));
    EXPECT_EQ(vals(gy), (std::vector<double>{10, 10, 10}));  // retain_grad after the hook
    ct_hook_handle_release(h);  // the hook stays
    EXPECT_EQ(c.released, 0);
  }
  EXPECT_EQ(c.released, 1);  // the tensor and its graph are gone
}

TEST_F(AutogradHooks, LeafHookRunsBeforeAccumulation) {
  Counts c;
  {
    CT_MAKE(x, vec({1, 2}, 1));
    CT_ASSERT_OK(ct_tensor_register_hook(x, times_ten, &c, count_release, nullptr));
    CT_MAKE(y, ct_mul_scalar(x, 3));
    CT_MAKE(s, total(y));
    CT_ASSERT_OK(ct_backward(s, nullptr, 0));
    CT_MAKE(gx, ct_grad(x));
    EXPECT_EQ(vals(gx), (std::vector<double>{30, 30}));
  }
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(c.released, 1);
}

TEST_F(AutogradHooks, FailingHookEndsBackward) {
  Counts c;
  CT_MAKE(x, vec({1, 2}, 1));
  CT_MAKE(y, ct_mul(x, x));
  CT_ASSERT_OK(ct_tensor_register_hook(y, fails, &c, count_release, nullptr));
  CT_MAKE(s, total(y));
  CT_EXPECT_FAIL(ct_backward(s, nullptr, 1), CT_ERR_SHAPE, CT_ERR_SHAPE, "my hook refuses");
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(ct_grad(x), nullptr);  // stopped before the leaf
}

TEST_F(AutogradHooks, ReplacementMustKeepSizes) {
  CT_MAKE(x, vec({1, 2, 3}, 1));
  CT_MAKE(y, ct_mul(x, x));
  CT_ASSERT_OK(ct_tensor_register_hook(y, wrong_size, nullptr, nullptr, nullptr));
  CT_MAKE(s, total(y));
  CT_EXPECT_FAIL(ct_backward(s, nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "hook has changed the size of value (was [3] got [2])");
}

TEST_F(AutogradHooks, RemoveReleasesAtOnce) {
  Counts c;
  CT_MAKE(x, vec({1, 2}, 1));
  ct_hook_handle* h = nullptr;
  CT_ASSERT_OK(ct_tensor_register_hook(x, keep, &c, count_release, &h));
  CT_ASSERT_OK(ct_hook_remove(h));
  EXPECT_EQ(c.released, 1);
  CT_ASSERT_OK(ct_hook_remove(h));  // twice: nothing
  EXPECT_EQ(c.released, 1);
  CT_MAKE(s, total(x));
  CT_ASSERT_OK(ct_backward(s, nullptr, 0));
  EXPECT_EQ(c.calls, 0);
  ct_hook_handle_release(h);
  ct_hook_handle_release(nullptr);
  CT_EXPECT_FAIL(ct_hook_remove(nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_FAIL(ct_hook_id(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "NULL");
}

TEST_F(AutogradHooks, RegistrationErrorsReleaseOnce) {
  Counts c;
  CT_MAKE(t, vec({1, 2}, 0));
  ct_hook_handle* h = reinterpret_cast<ct_hook_handle*>(&c);
  CT_EXPECT_FAIL(ct_tensor_register_hook(t, keep, &c, count_release, &h), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "cannot register a hook on a tensor that doesn't require gradient");
  EXPECT_EQ(h, nullptr);
  EXPECT_EQ(c.released, 1);
  CT_EXPECT_FAIL(ct_tensor_register_hook(nullptr, keep, &c, count_release, &h), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_EQ(c.released, 2);
  CT_EXPECT_FAIL(ct_tensor_register_hook(t, nullptr, &c, count_release, &h), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "fn is NULL");
  EXPECT_EQ(c.released, 3);
}

// ---- custom ops ---------------------------------------------------------------------------

// Cube: out = a^3, backward 3 a^2 g; user_data holds a (released by cube_release).
struct CubeData {
  ct_tensor* a;
  Counts* counts;
};

ct_status cube_backward(void* ud, int n_out, const ct_tensor* const* go, int n_in, ct_tensor** gi) {
  auto* d = static_cast<CubeData*>(ud);
  ++d->counts->calls;
  if (n_out != 1 || n_in != 1 || !go[0]) {
    ct_set_error(CT_ERR_INTERNAL, "cube_backward: unexpected arguments");
    return CT_ERR_INTERNAL;
  }
  TensorRef a2(ct_mul(d->a, d->a));
  TensorRef three(ct_mul_scalar(a2, 3.0));
  gi[0] = ct_mul(three, go[0]);
  return gi[0] ? CT_OK : ct_last_status();
}

void cube_release(void* ud) {
  auto* d = static_cast<CubeData*>(ud);
  ++d->counts->released;
  ct_tensor_release(d->a);
  delete d;
}

// out = cube(a), recorded as the custom op "Cube" when a requires grad.  Its backward reads a
// through user_data: ct_detach(a) (once differentiable), or with flags
// CT_CUSTOM_DIFFERENTIABLE_BACKWARD a itself (an input: owning it makes no cycle), so that
// what backward computes from it is recorded under create_graph.
ct_tensor* cube(ct_tensor* a, Counts* counts, int flags = 0) {
  const int prev = ct_set_grad_enabled(0);
  ct_tensor* a2 = ct_mul(a, a);
  ct_tensor* out = ct_mul(a2, a);
  ct_tensor_release(a2);
  ct_set_grad_enabled(prev);
  const bool keep_history = (flags & CT_CUSTOM_DIFFERENTIABLE_BACKWARD) != 0;
  auto* d = new CubeData{keep_history ? ct_tensor_retain(a) : ct_detach(a), counts};
  if (ct_custom_op_apply("Cube", 1, &a, 1, &out, &flags, 1, cube_backward, d, cube_release) != CT_OK) {
    ct_tensor_release(out);
    return nullptr;
  }
  return out;
}

TEST_F(AutogradHooks, CustomOpInsideAGraph) {
  Counts c;
  {
    CT_MAKE(x, vec({0.5, -1, 2}, 1));
    CT_MAKE(a, ct_mul_scalar(x, 2));  // recorded: MulBackward0
    CT_MAKE(out, cube(a, &c));
    EXPECT_STREQ(ct_grad_fn_name(out), "CubeBackward");
    EXPECT_EQ(ct_requires_grad(out), 1);
    CT_MAKE(y, ct_mul(out, x));  // d/dx (8 x^3 * x) = 32 x^3
    CT_MAKE(s, total(y));
    CT_ASSERT_OK(ct_backward(s, nullptr, 0));
    CT_MAKE(gx, ct_grad(x));
    EXPECT_EQ(vals(gx), (std::vector<double>{4, -32, 256}));  // torch: 32 * x**3
    EXPECT_EQ(c.calls, 1);
    EXPECT_EQ(c.released, 0);
  }
  EXPECT_EQ(c.released, 1);
}

// d sum(y) / dx through ct_autograd_grad: a new reference, or NULL with the error set.
ct_tensor* grad_of_sum(const ct_tensor* y, const ct_tensor* x, int create_graph) {
  TensorRef s(total(y));
  if (!s) return nullptr;
  const ct_tensor* outs[1] = {s};
  const ct_tensor* ins[1] = {x};
  ct_tensor* g = nullptr;
  ct_autograd_grad(outs, 1, nullptr, ins, 1, 0, create_graph, 0, &g);
  return g;
}

// d/dx of the gradient of sum(cube(x)) (torch: 6x), or the refusal without the flag.
TEST_F(AutogradHooks, CustomOpSecondDerivativeWithDifferentiableBackward) {
  Counts c;
  {
    CT_MAKE(x, vec({0.5, -1, 2}, 1));
    CT_MAKE(out, cube(x, &c, CT_CUSTOM_DIFFERENTIABLE_BACKWARD));
    CT_MAKE(gx, grad_of_sum(out, x, 1));
    EXPECT_EQ(vals(gx), (std::vector<double>{0.75, 3, 12}));  // 3 x^2
    EXPECT_EQ(ct_requires_grad(gx), 1);
    EXPECT_STREQ(ct_grad_fn_name(gx), "MulBackward0");  // what cube_backward computed, recorded
    CT_MAKE(hx, grad_of_sum(gx, x, 0));
    EXPECT_EQ(vals(hx), (std::vector<double>{3, -6, 12}));  // torch: 6 x
  }
  EXPECT_EQ(c.released, 1);
  {
    CT_MAKE(x, vec({0.5, -1, 2}, 1));
    CT_MAKE(out, cube(x, &c, 0));  // once differentiable
    CT_MAKE(gx, grad_of_sum(out, x, 1));
    EXPECT_EQ(vals(gx), (std::vector<double>{0.75, 3, 12}));
    CT_EXPECT_NULL(grad_of_sum(gx, x, 0), CT_ERR_INVALID_ARGUMENT, "derivative for CubeBackward is not implemented");
  }
  EXPECT_EQ(c.released, 2);
  CT_MAKE(x, vec({1}, 1));
  int bad = 8;
  CT_MAKE(out, ct_ones(0, nullptr, CT_FLOAT64));
  ct_tensor* ins[1] = {x};
  ct_tensor* outs[1] = {out};
  CT_EXPECT_FAIL(ct_custom_op_apply("Cube", 1, ins, 1, outs, &bad, 1, cube_backward, nullptr, nullptr),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "ct_custom_op_apply: output_flags[0] is 8");
}

// Exp: backward reads the op's output through ct_custom_op_saved_output (user_data keeps
// ct_detach(out), never out itself).
ct_status exp_backward(void* ud, int, const ct_tensor* const* go, int, ct_tensor** gi) {
  TensorRef out(ct_custom_op_saved_output(static_cast<ct_tensor*>(ud), 0));
  if (!out) return ct_last_status();
  gi[0] = ct_mul(go[0], out);
  return gi[0] ? CT_OK : ct_last_status();
}

// An op `name` whose output is forward(x) (computed with grad mode off) and whose backward
// fn gets saved = ct_detach(output) as user_data; its backward is differentiable.
ct_tensor* saving_op(const char* name, ct_tensor* x, ct_custom_backward_fn fn, ct_tensor* (*forward)(const ct_tensor*)) {
  const int prev = ct_set_grad_enabled(0);
  ct_tensor* out = forward(x);
  ct_set_grad_enabled(prev);
  int flags = CT_CUSTOM_DIFFERENTIABLE_BACKWARD;
  ct_tensor* ins[1] = {x};
  if (!out || ct_custom_op_apply(name, 1, ins, 1, &out, &flags, 1, fn, ct_detach(out),
                                 [](void* p) { ct_tensor_release(static_cast<ct_tensor*>(p)); }) != CT_OK) {
    ct_tensor_release(out);
    return nullptr;
  }
  return out;
}

TEST_F(AutogradHooks, CustomOpSavedOutputCarriesTheNodeUnderCreateGraph) {
  CT_MAKE(x, vec({0.5, -1, 2}, 1));
  CT_MAKE(y, saving_op("Exp", x, exp_backward, ct_exp));
  {  // outside a backward: saved itself, whatever the index
    TensorRef saved(ct_detach(y));
    TensorRef same(ct_custom_op_saved_output(saved, 5));
    EXPECT_EQ(ct_tensor_data(same), ct_tensor_data(saved));
    EXPECT_EQ(ct_grad_fn_name(same), nullptr);
  }
  const std::vector<double> e = {std::exp(0.5), std::exp(-1.0), std::exp(2.0)};
  CT_MAKE(gx, grad_of_sum(y, x, 1));
  CT_MAKE(hx, grad_of_sum(gx, x, 0));  // torch: exp(x) again, through the op's node
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(vals(gx)[i], e[i]);
    EXPECT_DOUBLE_EQ(vals(hx)[i], e[i]);
  }
  CT_EXPECT_NULL(ct_custom_op_saved_output(nullptr, 0), CT_ERR_INVALID_ARGUMENT, "ct_custom_op_saved_output");
}

ct_status bad_index_backward(void* ud, int, const ct_tensor* const*, int, ct_tensor** gi) {
  gi[0] = ct_custom_op_saved_output(static_cast<ct_tensor*>(ud), 2);
  return gi[0] ? CT_OK : ct_last_status();
}

TEST_F(AutogradHooks, CustomOpSavedOutputIndexMustBeAnOutput) {
  CT_MAKE(x, vec({1}, 1));
  CT_MAKE(y, saving_op("Id", x, bad_index_backward, ct_detach));
  CT_EXPECT_NULL(grad_of_sum(y, x, 1), CT_ERR_INVALID_ARGUMENT,
                 "custom op saved output: IdBackward has 1 outputs, got index 2");
}

TEST_F(AutogradHooks, CustomOpNotRecordedReleasesAtOnce) {
  Counts c;
  CT_MAKE(x, vec({1, 2}, 0));
  CT_MAKE(out, cube(x, &c));
  EXPECT_EQ(ct_grad_fn_name(out), nullptr);
  EXPECT_EQ(ct_requires_grad(out), 0);
  EXPECT_EQ(c.released, 1);
}

// Two outputs (2x, 3x): backward records what it got.
struct TwoData {
  Counts counts;
  std::vector<std::vector<double>> got;  // per output; empty: NULL
};

ct_status two_backward(void* ud, int n_out, const ct_tensor* const* go, int n_in, ct_tensor** gi) {
  auto* d = static_cast<TwoData*>(ud);
  ++d->counts.calls;
  d->got.clear();
  for (int i = 0; i < n_out; ++i) d->got.push_back(go[i] ? vals(go[i]) : std::vector<double>{});
  if (n_in != 1) return CT_ERR_INTERNAL;
  TensorRef a(go[0] ? ct_mul_scalar(go[0], 2) : nullptr);
  TensorRef b(go[1] ? ct_mul_scalar(go[1], 3) : nullptr);
  gi[0] = !a.get() ? b.take() : !b.get() ? a.take() : ct_add(a, b);
  return CT_OK;
}

void two_release(void* ud) { ++static_cast<TwoData*>(ud)->counts.released; }

TEST_F(AutogradHooks, CustomOpSeveralOutputs) {
  for (int materialize : {1, 0}) {
    TwoData d;
    {
      CT_MAKE(x, vec({1, 2}, 1));
      const int prev = ct_set_grad_enabled(0);
      TensorRef o0(ct_mul_scalar(x, 2)), o1(ct_mul_scalar(x, 3));
      ct_set_grad_enabled(prev);
      ct_tensor* outs[2] = {o0, o1};
      ct_tensor* ins[1] = {x};
      CT_ASSERT_OK(ct_custom_op_apply("Two", 1, ins, 2, outs, nullptr, materialize, two_backward, &d, two_release));
      EXPECT_STREQ(ct_grad_fn_name(o1), "TwoBackward");
      CT_MAKE(s, total(o1));
      CT_ASSERT_OK(ct_backward(s, nullptr, 1));
      ASSERT_EQ(d.got.size(), 2u);
      EXPECT_EQ(d.got[0], materialize ? (std::vector<double>{0, 0}) : std::vector<double>{});
      EXPECT_EQ(d.got[1], (std::vector<double>{1, 1}));
      CT_MAKE(gx, ct_grad(x));
      EXPECT_EQ(vals(gx), (std::vector<double>{3, 3}));
      CT_MAKE(both, ct_add(o0, o1));  // both outputs: one call with both gradients
      CT_MAKE(s2, total(both));
      CT_ASSERT_OK(ct_backward(s2, nullptr, 0));
      EXPECT_EQ(d.counts.calls, 2);
      EXPECT_EQ(d.got[0], (std::vector<double>{1, 1}));
      CT_MAKE(gx2, ct_grad(x));
      EXPECT_EQ(vals(gx2), (std::vector<double>{8, 8}));
    }
    EXPECT_EQ(d.counts.released, 1);
  }
}

ct_status identity_backward(void*, int, const ct_tensor* const* go, int, ct_tensor** gi) {
  gi[0] = go[0] ? ct_alias(go[0]) : nullptr;
  return CT_OK;
}

// torch's CreationMeta::IN_CUSTOM_FUNCTION: a view returned by a custom op may not be written in
// place, recorded or not (CopySlices over its own op would bypass the user's backward); with
// several differentiable outputs torch's multi-output message wins.
TEST_F(AutogradHooks, CustomOpViewOutputsMayNotBeWrittenInPlace) {
  CT_MAKE(x, vec({1, 2, 3}, 1));
  CT_MAKE(y, ct_mul_scalar(x, 1));
  const int prev = ct_set_grad_enabled(0);  // forward runs with grad mode off
  TensorRef v(ct_narrow(y, 0, 0, 2));
  ct_set_grad_enabled(prev);
  ct_tensor* ins[1] = {y};
  ct_tensor* outs[1] = {v};
  CT_ASSERT_OK(ct_custom_op_apply("Narrow", 1, ins, 1, outs, nullptr, 1, identity_backward, nullptr, nullptr));
  EXPECT_STREQ(ct_grad_fn_name(v), "NarrowBackward");
  CT_EXPECT_FAIL(ct_mul_scalar_(v, 2), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Output 0 of Narrow is a view and is being modified inplace. This view was created inside a custom "
                 "Function (or because an input was returned as-is) and the autograd logic to handle view+inplace "
                 "would override the custom backward associated with the custom Function, leading to incorrect "
                 "gradients. This behavior is forbidden. You can fix this by cloning the output of the custom "
                 "Function.");
  // nothing recorded (no input requires grad): the view is still marked
  CT_MAKE(z, vec({1, 2, 3}, 0));
  TensorRef zv(ct_narrow(z, 0, 0, 2));
  ct_tensor* zins[1] = {z};
  ct_tensor* zouts[1] = {zv};
  CT_ASSERT_OK(ct_custom_op_apply("Narrow", 1, zins, 1, zouts, nullptr, 1, identity_backward, nullptr, nullptr));
  EXPECT_EQ(ct_grad_fn_name(zv), nullptr);
  CT_MAKE(g, vec({1, 1}, 1));
  CT_EXPECT_FAIL(ct_add_(zv, g), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "A view was created in no_grad mode and is being modified inplace with grad mode enabled. This view "
                 "was created inside a custom Function");
  // two differentiable outputs: the multi-output rule
  CT_MAKE(y2, ct_mul_scalar(x, 1));
  ct_set_grad_enabled(0);
  TensorRef a(ct_narrow(y2, 0, 0, 2)), b(ct_narrow(y2, 0, 1, 2));
  ct_set_grad_enabled(prev);
  ct_tensor* ins2[1] = {y2};
  ct_tensor* outs2[2] = {a, b};
  TwoData d;
  CT_ASSERT_OK(ct_custom_op_apply("Split", 1, ins2, 2, outs2, nullptr, 1, two_backward, &d, two_release));
  CT_EXPECT_FAIL(ct_mul_scalar_(b, 2), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Output 1 of Split is a view and is being modified inplace. This view is the output of a function "
                 "that returns multiple views.");
}

ct_status bad_shape_backward(void*, int, const ct_tensor* const*, int, ct_tensor** gi) {
  gi[0] = vec({1, 2}, 0);
  return CT_OK;
}

ct_status failing_backward(void*, int, const ct_tensor* const*, int, ct_tensor** gi) {
  gi[0] = vec({1, 2, 3}, 0);  // released by ctensor: the call failed
  ct_set_error(CT_ERR_DTYPE, "custom refuses");
  return CT_ERR_DTYPE;
}

TEST_F(AutogradHooks, CustomOpErrors) {
  Counts c;
  CT_MAKE(x, vec({1, 2, 3}, 1));
  ct_tensor* ins[1] = {x};
  CT_EXPECT_FAIL(ct_custom_op_apply("Id", 1, ins, 1, ins, nullptr, 1, bad_shape_backward, &c, count_release),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "custom op Id: output 0 is input 0 itself; return a view of it, or mark it dirty");
  EXPECT_EQ(c.released, 1);
  CT_EXPECT_FAIL(ct_custom_op_apply("Id", 1, ins, 0, ins, nullptr, 1, bad_shape_backward, &c, count_release),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "n_outputs is 0");
  EXPECT_EQ(c.released, 2);
  const int dirty = CT_CUSTOM_DIRTY;
  CT_EXPECT_FAIL(ct_custom_op_apply("Id", 1, ins, 1, ins, &dirty, 1, bad_shape_backward, &c, count_release),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(c.released, 3);
  CT_EXPECT_FAIL(ct_custom_op_apply(nullptr, 1, ins, 1, ins, nullptr, 1, bad_shape_backward, &c, count_release),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "name is NULL");
  EXPECT_EQ(c.released, 4);

  for (auto fn : {bad_shape_backward, failing_backward}) {
    CT_MAKE(o, ct_mul_scalar(x, 1));
    CT_ASSERT_OK(ct_detach_(o));
    ct_tensor* outs[1] = {o};
    CT_ASSERT_OK(ct_custom_op_apply("Bad", 1, ins, 1, outs, nullptr, 1, fn, nullptr, nullptr));
    CT_MAKE(s, total(o));
    if (fn == bad_shape_backward)
      CT_EXPECT_FAIL(ct_backward(s, nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                     "Function BadBackward returned an invalid gradient at index 0 - got [2] but expected shape "
                     "compatible with [3]");
    else
      CT_EXPECT_FAIL(ct_backward(s, nullptr, 0), CT_ERR_DTYPE, CT_ERR_DTYPE, "custom refuses");
  }
}


// torch's validate_outputs: the input's sizes must expand to the gradient's, so a [1]
// gradient for a [3] input is refused and a [2, 3] one is summed to [3].
ct_status one_element_backward(void*, int, const ct_tensor* const*, int, ct_tensor** gi) {
  gi[0] = vec({5}, 0);
  return CT_OK;
}

ct_status wide_backward(void*, int, const ct_tensor* const*, int, ct_tensor** gi) {
  const double d[6] = {1, 2, 3, 4, 5, 6};
  const int64_t sizes[2] = {2, 3};
  gi[0] = ct_from_data(d, 2, sizes, CT_FLOAT64);
  return CT_OK;
}

TEST_F(AutogradHooks, CustomOpGradientMustBroadcastFromTheInput) {
  for (auto fn : {one_element_backward, wide_backward}) {
    CT_MAKE(x, vec({1, 2, 3}, 1));
    ct_tensor* ins[1] = {x};
    CT_MAKE(o, ct_mul_scalar(x, 1));
    CT_ASSERT_OK(ct_detach_(o));
    ct_tensor* outs[1] = {o};
    CT_ASSERT_OK(ct_custom_op_apply("Op", 1, ins, 1, outs, nullptr, 1, fn, nullptr, nullptr));
    CT_MAKE(s, total(o));
    if (fn == one_element_backward) {
      CT_EXPECT_FAIL(ct_backward(s, nullptr, 0), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                     "Function OpBackward returned an invalid gradient at index 0 - got [1] but expected shape "
                     "compatible with [3]");
    } else {
      CT_ASSERT_OK(ct_backward(s, nullptr, 0));
      CT_MAKE(gx, ct_grad(x));
      EXPECT_EQ(vals(gx), (std::vector<double>{5, 7, 9}));
    }
  }
}

// Records whether its gradient came (and its values), sends grad * 2 on (or nothing).
struct Seen {
  int calls = 0;
  bool got_null = false;
  std::vector<double> got;
};

ct_status seeing_backward(void* ud, int, const ct_tensor* const* go, int, ct_tensor** gi) {
  auto* s = static_cast<Seen*>(ud);
  ++s->calls;
  s->got_null = go[0] == nullptr;
  if (go[0]) {
    s->got = vals(go[0]);
    gi[0] = ct_mul_scalar(go[0], 2);
  }
  return CT_OK;
}

ct_status none_backward(void*, int, const ct_tensor* const*, int, ct_tensor**) { return CT_OK; }

// torch calls a custom op's backward also when only undefined gradients reach it (here: the
// next op's backward returns none): with zeros, or NULL without materialization.
TEST_F(AutogradHooks, CustomOpRunsWhenOnlyUndefinedGradientsReachIt) {
  for (int materialize : {1, 0}) {
    Seen seen;
    CT_MAKE(x, vec({1, 2}, 1));
    ct_tensor* ins[1] = {x};
    CT_MAKE(b, ct_mul_scalar(x, 2));
    CT_ASSERT_OK(ct_detach_(b));
    ct_tensor* bs[1] = {b};
    CT_ASSERT_OK(ct_custom_op_apply("B", 1, ins, 1, bs, nullptr, materialize, seeing_backward, &seen, nullptr));
    CT_MAKE(m, ct_mul_scalar(b, 5));  // a built-in node between them passes the nothing on
    ct_tensor* ms[1] = {m};
    CT_MAKE(a, ct_mul_scalar(m, 3));
    CT_ASSERT_OK(ct_detach_(a));
    ct_tensor* as[1] = {a};
    CT_ASSERT_OK(ct_custom_op_apply("A", 1, ms, 1, as, nullptr, 1, none_backward, nullptr, nullptr));
    CT_MAKE(s, total(a));
    CT_ASSERT_OK(ct_backward(s, nullptr, 0));
    EXPECT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.got_null, materialize == 0);
    TensorRef gx(ct_grad(x));  // NULL: no gradient
    if (materialize) {
      EXPECT_EQ(seen.got, (std::vector<double>{0, 0}));
      EXPECT_EQ(vals(gx), (std::vector<double>{0, 0}));  // torch's x.grad: zeros
    } else {
      EXPECT_EQ(gx.get(), nullptr);
    }
  }
}

}  // namespace
