// out= variants (torch's `op(..., out=t)`): each computes with the ordinary C function, then
// hands the result to core/out_arg's write_out, which applies torch's out= rules.  The
// functions are generated from short tables so that none repeats the plumbing.
#include <initializer_list>
#include <vector>

#include "capi/guard.h"
#include "core/autograd/meta.h"
#include "core/out_arg.h"

using namespace ct;
using namespace ct::capi;

namespace {

Tensor& out_tensor(ct_tensor* out, const char* op, const char* name = "out") {
  return const_cast<Tensor&>(value_arg(out, op, name));
}

// torch's order: the requires-grad and overlap refusals, then the op's own checks (in the
// computation), then the dtype rule, resize and write.  The computation runs without grad
// mode: out= results are never in a graph.  compute returns a new handle or NULL with the
// error already recorded.
template <class F>
ct_status out_call(const char* op, OutRule rule, std::initializer_list<ct_tensor*> outs,
                   std::initializer_list<const ct_tensor*> ins, F compute) {
  std::vector<Tensor*> o;
  std::vector<const Tensor*> inputs;
  ct_status st = guard_status([&] {
    for (const ct_tensor* t : ins) inputs.push_back(&value_arg(t, op, "input"));
    for (ct_tensor* t : outs) o.push_back(&out_tensor(t, op));
    for (Tensor* t : o) check_out_before(op, rule, *t, inputs);
  });
  if (st != CT_OK) return st;
  std::vector<ct_tensor*> results(o.size(), nullptr);
  {
    autograd::NoGradGuard no_grad;
    results[0] = compute(results.size() > 1 ? &results[1] : nullptr);
  }
  if (!results[0]) return ct_last_status();
  st = guard_status([&] {
    for (size_t i = 0; i < o.size(); ++i) write_out(op, i == 0 ? rule : OutRule::Strict, *o[i], *from_handle(results[i]), inputs);
  });
  for (ct_tensor* r : results) ct_tensor_release(r);
  return st;
}

// The dtype the op must compute in when out's dtype decides it (sum, cumsum, creation).
ct_dtype out_dtype(const ct_tensor* out) { return ct_tensor_dtype(out); }

}  // namespace

extern "C" {

ct_status ct_write_out(ct_tensor* out, const ct_tensor* result, int ninputs, const ct_tensor* const* inputs,
                       ct_out_rule rule, const char* op, int* warn_resized) {
  const char* name = op ? op : "ct_write_out";
  return guard_status([&] {
    Tensor& o = out_tensor(out, name);
    const Tensor& r = value_arg(result, name, "result");
    CT_CHECK(ninputs >= 0 && (ninputs == 0 || inputs != nullptr), InvalidArgument,
             name << ": bad input list (ninputs = " << ninputs << ")");
    std::vector<const Tensor*> ins;
    for (int i = 0; i < ninputs; ++i) ins.push_back(&value_arg(inputs[i], name, "inputs[i]"));
    int raw;
    static_assert(sizeof raw == sizeof rule, "ct_out_rule is int-sized");
    std::memcpy(&raw, &rule, sizeof raw);
    CT_CHECK(raw >= 0 && raw < kNumOutRules, InvalidArgument, name << ": unknown out rule " << raw);
    const bool warn = write_out(name, static_cast<OutRule>(raw), o, r, ins);
    if (warn_resized) *warn_resized = warn ? 1 : 0;
  });
}

// ---- elementwise -----------------------------------------------------------------------------
#define CT_OUT_BINARY(fn, op, rule)                                                         \
  ct_status fn##_out(ct_tensor* out, const ct_tensor* a, const ct_tensor* b) {              \
    return out_call(op, rule, {out}, {a, b}, [&](ct_tensor**) { return fn(a, b); });        \
  }
#define CT_OUT_SCALAR(fn, op, rule)                                                         \
  ct_status fn##_out(ct_tensor* out, const ct_tensor* a, double s) {                        \
    return out_call(op, rule, {out}, {a}, [&](ct_tensor**) { return fn(a, s); });           \
  }
#define CT_OUT_UNARY(fn, op, rule)                                                          \
  ct_status fn##_out(ct_tensor* out, const ct_tensor* a) {                                  \
    return out_call(op, rule, {out}, {a}, [&](ct_tensor**) { return fn(a); });              \
  }

CT_OUT_BINARY(ct_add, "add", OutRule::Castable)
CT_OUT_BINARY(ct_sub, "sub", OutRule::Castable)
CT_OUT_BINARY(ct_mul, "mul", OutRule::Castable)
CT_OUT_BINARY(ct_div, "div", OutRule::Castable)
CT_OUT_BINARY(ct_pow, "pow", OutRule::Castable)
CT_OUT_BINARY(ct_floor_divide, "floor_divide", OutRule::Castable)
CT_OUT_BINARY(ct_remainder, "remainder", OutRule::Castable)
CT_OUT_BINARY(ct_fmod, "fmod", OutRule::Castable)
CT_OUT_BINARY(ct_maximum, "maximum", OutRule::Castable)
CT_OUT_BINARY(ct_minimum, "minimum", OutRule::Castable)
CT_OUT_SCALAR(ct_add_scalar, "add", OutRule::Castable)
CT_OUT_SCALAR(ct_sub_scalar, "sub", OutRule::Castable)
CT_OUT_SCALAR(ct_mul_scalar, "mul", OutRule::Castable)
CT_OUT_SCALAR(ct_div_scalar, "div", OutRule::Castable)
CT_OUT_SCALAR(ct_pow_scalar, "pow", OutRule::Castable)
CT_OUT_UNARY(ct_neg, "neg", OutRule::SameDtype)
CT_OUT_UNARY(ct_abs, "abs", OutRule::SameDtype)
CT_OUT_UNARY(ct_exp, "exp", OutRule::Castable)
CT_OUT_UNARY(ct_log, "log", OutRule::Castable)
CT_OUT_UNARY(ct_sqrt, "sqrt", OutRule::Castable)
CT_OUT_UNARY(ct_sin, "sin", OutRule::Castable)
CT_OUT_UNARY(ct_cos, "cos", OutRule::Castable)
CT_OUT_UNARY(ct_tanh, "tanh", OutRule::Castable)
CT_OUT_UNARY(ct_sigmoid, "sigmoid", OutRule::Castable)
CT_OUT_UNARY(ct_reciprocal, "reciprocal", OutRule::Castable)
CT_OUT_UNARY(ct_sgn, "sgn", OutRule::SameDtype)
CT_OUT_UNARY(ct_sign, "sign", OutRule::SameDtype)
CT_OUT_UNARY(ct_angle, "angle", OutRule::Castable)
CT_OUT_BINARY(ct_eq, "eq", OutRule::Castable)
CT_OUT_BINARY(ct_ne, "ne", OutRule::Castable)
CT_OUT_BINARY(ct_lt, "lt", OutRule::Castable)
CT_OUT_BINARY(ct_le, "le", OutRule::Castable)
CT_OUT_BINARY(ct_gt, "gt", OutRule::Castable)
CT_OUT_BINARY(ct_ge, "ge", OutRule::Castable)
CT_OUT_SCALAR(ct_eq_scalar, "eq", OutRule::Castable)
CT_OUT_SCALAR(ct_ne_scalar, "ne", OutRule::Castable)
CT_OUT_SCALAR(ct_lt_scalar, "lt", OutRule::Castable)
CT_OUT_SCALAR(ct_le_scalar, "le", OutRule::Castable)
CT_OUT_SCALAR(ct_gt_scalar, "gt", OutRule::Castable)
CT_OUT_SCALAR(ct_ge_scalar, "ge", OutRule::Castable)

ct_status ct_where_out(ct_tensor* out, const ct_tensor* cond, const ct_tensor* a, const ct_tensor* b) {
  return out_call("where", OutRule::Where, {out}, {cond, a, b}, [&](ct_tensor**) { return ct_where(cond, a, b); });
}
ct_status ct_clamp_out(ct_tensor* out, const ct_tensor* t, int has_min, double min, int has_max, double max,
                       int integral) {
  return out_call("clamp", OutRule::SameDtype, {out}, {t},
                  [&](ct_tensor**) { return ct_clamp(t, has_min, min, has_max, max, integral); });
}

// ---- reductions ------------------------------------------------------------------------------
// sum and prod compute in out's dtype (torch's sum.IntList_out takes it as the dtype).
#define CT_OUT_REDUCE_IN_OUT_DTYPE(fn, op)                                                               \
  ct_status fn##_out(ct_tensor* out, const ct_tensor* t, int ndim, const int* dims, int keepdim) {      \
    return out_call(op, OutRule::Any, {out}, {t}, [&](ct_tensor**) -> ct_tensor* {                      \
      ct_tensor* converted = ct_to(t, out_dtype(out));                                                  \
      if (!converted) return nullptr;                                                                    \
      ct_tensor* r = fn(converted, ndim, dims, keepdim);                                                 \
      ct_tensor_release(converted);                                                                      \
      return r;                                                                                          \
    });                                                                                                  \
  }
#define CT_OUT_REDUCE(fn, op, rule)                                                                      \
  ct_status fn##_out(ct_tensor* out, const ct_tensor* t, int ndim, const int* dims, int keepdim) {      \
    return out_call(op, rule, {out}, {t}, [&](ct_tensor**) { return fn(t, ndim, dims, keepdim); });     \
  }
CT_OUT_REDUCE_IN_OUT_DTYPE(ct_sum, "sum")
CT_OUT_REDUCE_IN_OUT_DTYPE(ct_prod, "prod")
// mean divides in out's dtype when that is floating (torch's mean.out sums with dtype=out's);
// an integer out keeps the float result, which the castable rule then refuses.
ct_status ct_mean_out(ct_tensor* out, const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return out_call("mean", OutRule::Castable, {out}, {t}, [&](ct_tensor**) -> ct_tensor* {
    const ct_dtype d = out_dtype(out);
    if (d != CT_FLOAT16 && d != CT_BFLOAT16 && d != CT_FLOAT32 && d != CT_FLOAT64) return ct_mean(t, ndim, dims, keepdim);
    ct_tensor* converted = ct_to(t, d);
    if (!converted) return nullptr;
    ct_tensor* r = ct_mean(converted, ndim, dims, keepdim);
    ct_tensor_release(converted);
    return r;
  });
}
CT_OUT_REDUCE(ct_amax, "amax", OutRule::ReduceSame)
CT_OUT_REDUCE(ct_amin, "amin", OutRule::ReduceSame)

ct_status ct_argmax_out(ct_tensor* out, const ct_tensor* t, int dim, int keepdim) {
  return out_call("argmax", OutRule::Strict, {out}, {t}, [&](ct_tensor**) { return ct_argmax(t, dim, keepdim); });
}
ct_status ct_argmin_out(ct_tensor* out, const ct_tensor* t, int dim, int keepdim) {
  return out_call("argmin", OutRule::Strict, {out}, {t}, [&](ct_tensor**) { return ct_argmin(t, dim, keepdim); });
}
ct_status ct_max_dim_out(ct_tensor* values, ct_tensor* indices, const ct_tensor* t, int dim, int keepdim) {
  return out_call("max", OutRule::Strict, {values, indices}, {t},
                  [&](ct_tensor** idx) { return ct_max_dim(t, dim, keepdim, idx); });
}
ct_status ct_min_dim_out(ct_tensor* values, ct_tensor* indices, const ct_tensor* t, int dim, int keepdim) {
  return out_call("min", OutRule::Strict, {values, indices}, {t},
                  [&](ct_tensor** idx) { return ct_min_dim(t, dim, keepdim, idx); });
}
ct_status ct_cumsum_out(ct_tensor* out, const ct_tensor* t, int dim) {
  return out_call("cumsum", OutRule::Any, {out}, {t}, [&](ct_tensor**) { return ct_cumsum(t, dim, int(out_dtype(out))); });
}
ct_status ct_cumprod_out(ct_tensor* out, const ct_tensor* t, int dim) {
  return out_call("cumprod", OutRule::Any, {out}, {t}, [&](ct_tensor**) { return ct_cumprod(t, dim, int(out_dtype(out))); });
}

// ---- matmul, joining, indexing ---------------------------------------------------------------
ct_status ct_matmul_out(ct_tensor* out, const ct_tensor* a, const ct_tensor* b) {
  return out_call("matmul", OutRule::Strict, {out}, {a, b}, [&](ct_tensor**) { return ct_matmul(a, b); });
}
ct_status ct_index_select_out(ct_tensor* out, const ct_tensor* t, int dim, const ct_tensor* index) {
  return out_call("index_select", OutRule::IndexSelect, {out}, {t, index},
                  [&](ct_tensor**) { return ct_index_select(t, dim, index); });
}
ct_status ct_gather_out(ct_tensor* out, const ct_tensor* t, int dim, const ct_tensor* index) {
  return out_call("gather", OutRule::Strict, {out}, {t, index}, [&](ct_tensor**) { return ct_gather(t, dim, index); });
}

}  // extern "C"

namespace {
// cat and stack take a list: the same flow over a vector of inputs.
template <class F>
ct_status list_out_call(const char* op, ct_tensor* out, int n, const ct_tensor* const* tensors, F compute) {
  std::vector<const Tensor*> inputs;
  Tensor* o = nullptr;
  ct_status st = guard_status([&] {
    o = &out_tensor(out, op);
    CT_CHECK(n > 0 && tensors != nullptr, InvalidArgument, op << ": expected a non-empty list of tensors, got n = " << n);
    for (int i = 0; i < n; ++i) inputs.push_back(&value_arg(tensors[i], op, "tensors[i]"));
    check_out_before(op, OutRule::Cat, *o, inputs);
  });
  if (st != CT_OK) return st;
  ct_tensor* r;
  {
    autograd::NoGradGuard no_grad;
    r = compute();
  }
  if (!r) return ct_last_status();
  st = guard_status([&] { write_out(op, OutRule::Cat, *o, *from_handle(r), inputs); });
  ct_tensor_release(r);
  return st;
}
}  // namespace

extern "C" {
ct_status ct_cat_out(ct_tensor* out, int n, const ct_tensor* const* tensors, int dim) {
  return list_out_call("cat", out, n, tensors, [&] { return ct_cat(n, tensors, dim); });
}
ct_status ct_stack_out(ct_tensor* out, int n, const ct_tensor* const* tensors, int dim) {
  return list_out_call("stack", out, n, tensors, [&] { return ct_stack(n, tensors, dim); });
}

// ---- creation: computed in out's dtype -------------------------------------------------------
#define CT_OUT_CREATE(name, op, call)                                                       \
  ct_status name(ct_tensor* out, int ndim, const int64_t* sizes) {                          \
    return out_call(op, OutRule::Any, {out}, {}, [&](ct_tensor**) { return call; });       \
  }
CT_OUT_CREATE(ct_zeros_out, "zeros", ct_zeros(ndim, sizes, out_dtype(out)))
CT_OUT_CREATE(ct_ones_out, "ones", ct_ones(ndim, sizes, out_dtype(out)))
CT_OUT_CREATE(ct_rand_out, "rand", ct_rand(ndim, sizes, out_dtype(out)))
CT_OUT_CREATE(ct_randn_out, "randn", ct_randn(ndim, sizes, out_dtype(out)))
ct_status ct_full_out(ct_tensor* out, int ndim, const int64_t* sizes, double value) {
  return out_call("full", OutRule::Any, {out}, {}, [&](ct_tensor**) { return ct_full(ndim, sizes, value, out_dtype(out)); });
}
ct_status ct_randint_out(ct_tensor* out, int64_t low, int64_t high, int ndim, const int64_t* sizes) {
  return out_call("randint", OutRule::Any, {out}, {},
                  [&](ct_tensor**) { return ct_randint(low, high, ndim, sizes, out_dtype(out)); });
}
ct_status ct_arange_out(ct_tensor* out, double start, double end, double step) {
  return out_call("arange", OutRule::Any, {out}, {}, [&](ct_tensor**) { return ct_arange(start, end, step, out_dtype(out)); });
}
ct_status ct_linspace_out(ct_tensor* out, double start, double end, int64_t steps) {
  return out_call("linspace", OutRule::Any, {out}, {},
                  [&](ct_tensor**) { return ct_linspace(start, end, steps, out_dtype(out)); });
}
ct_status ct_eye_out(ct_tensor* out, int64_t n, int64_t m) {
  return out_call("eye", OutRule::Any, {out}, {}, [&](ct_tensor**) { return ct_eye(n, m, out_dtype(out)); });
}
}  // extern "C"
