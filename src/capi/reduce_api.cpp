// Reductions: ct_sum, ct_mean, ct_prod, ct_amax, ct_amin, ct_argmax(_all), ct_argmin(_all),
// ct_max_all, ct_min_all, ct_max_dim, ct_min_dim.
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/ops/reduce.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

namespace {

using DimsFn = Ref<Tensor> (*)(const Tensor&, std::span<const int64_t>, bool);

ct_tensor* dims_call(const ct_tensor* t, int ndim, const int* dims, int keepdim, const char* op, DimsFn fn) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, op);
    check_dims_array(ndim, dims, op, "dims");
    const std::vector<int64_t> d(dims, dims + ndim);
    return to_handle(fn(x, d, keepdim != 0));
  });
}

using ArgFn = Ref<Tensor> (*)(const Tensor&, std::optional<int64_t>, bool);

ct_tensor* arg_call(const ct_tensor* t, std::optional<int64_t> dim, int keepdim, const char* op, ArgFn fn) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(fn(value_arg(t, op), dim, keepdim != 0)); });
}

}  // namespace

extern "C" {

ct_tensor* ct_sum(const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return dims_call(t, ndim, dims, keepdim, "ct_sum", &ct::ag::sum);
}

ct_tensor* ct_mean(const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return dims_call(t, ndim, dims, keepdim, "ct_mean", &ct::ag::mean);
}

ct_tensor* ct_prod(const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return dims_call(t, ndim, dims, keepdim, "ct_prod", &ct::ag::prod);
}

ct_tensor* ct_amax(const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return dims_call(t, ndim, dims, keepdim, "ct_amax", &ct::ag::amax);
}

ct_tensor* ct_amin(const ct_tensor* t, int ndim, const int* dims, int keepdim) {
  return dims_call(t, ndim, dims, keepdim, "ct_amin", &ct::ag::amin);
}

ct_tensor* ct_argmax(const ct_tensor* t, int dim, int keepdim) {
  return arg_call(t, dim, keepdim, "ct_argmax", &ct::argmax);
}

ct_tensor* ct_argmin(const ct_tensor* t, int dim, int keepdim) {
  return arg_call(t, dim, keepdim, "ct_argmin", &ct::argmin);
}

ct_tensor* ct_argmax_all(const ct_tensor* t) {
  return arg_call(t, std::nullopt, 0, "ct_argmax_all", &ct::argmax);
}

ct_tensor* ct_argmin_all(const ct_tensor* t) {
  return arg_call(t, std::nullopt, 0, "ct_argmin_all", &ct::argmin);
}

ct_tensor* ct_max_all(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::max_all(value_arg(t, "ct_max_all"), true)); });
}

ct_tensor* ct_min_all(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::max_all(value_arg(t, "ct_min_all"), false)); });
}

namespace {
ct_tensor* max_dim_call(const ct_tensor* t, int dim, int keepdim, ct_tensor** indices, bool max) {
  const char* op = max ? "ct_max_dim" : "ct_min_dim";
  return guard<ct_tensor*>(nullptr, [&] {
    ValuesIndices r = ag::max_dim(value_arg(t, op), dim, keepdim != 0, max);
    if (indices) *indices = to_handle(std::move(r.indices));  // only on success, nothing can fail after
    return to_handle(std::move(r.values));
  });
}
}  // namespace

ct_tensor* ct_max_dim(const ct_tensor* t, int dim, int keepdim, ct_tensor** indices) {
  return max_dim_call(t, dim, keepdim, indices, true);
}

ct_tensor* ct_min_dim(const ct_tensor* t, int dim, int keepdim, ct_tensor** indices) {
  return max_dim_call(t, dim, keepdim, indices, false);
}

}  // extern "C"
