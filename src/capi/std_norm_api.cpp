// Spread reductions: ct_var, ct_std, ct_var_mean, ct_std_mean, and ct_vector_norm.
#include <optional>
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/ops/reduce.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

namespace {

std::vector<int64_t> dims_arg(int ndim, const int* dims, const char* op) {
  check_dims_array(ndim, dims, op, "dims");
  return std::vector<int64_t>(dims, dims + ndim);
}

ct_tensor* var_call(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim, bool take_sqrt,
                    const char* op) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, op);
    const std::vector<int64_t> d = dims_arg(ndim, dims, op);
    return to_handle(ag::var(x, d, correction, keepdim != 0, take_sqrt));
  });
}

ct_tensor* var_mean_call(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim,
                         ct_tensor** mean, bool take_sqrt, const char* op) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, op);
    const std::vector<int64_t> d = dims_arg(ndim, dims, op);
    auto [v, m] = ag::var_mean(x, d, correction, keepdim != 0, take_sqrt);
    if (mean) *mean = to_handle(std::move(m));  // only on success, nothing can fail after
    return to_handle(std::move(v));
  });
}

}  // namespace

extern "C" {

ct_tensor* ct_var(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim) {
  return var_call(t, ndim, dims, correction, keepdim, false, "ct_var");
}

ct_tensor* ct_std(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim) {
  return var_call(t, ndim, dims, correction, keepdim, true, "ct_std");
}

ct_tensor* ct_var_mean(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim,
                       ct_tensor** mean) {
  return var_mean_call(t, ndim, dims, correction, keepdim, mean, false, "ct_var_mean");
}

ct_tensor* ct_std_mean(const ct_tensor* t, int ndim, const int* dims, double correction, int keepdim,
                       ct_tensor** mean) {
  return var_mean_call(t, ndim, dims, correction, keepdim, mean, true, "ct_std_mean");
}

ct_tensor* ct_vector_norm(const ct_tensor* t, double ord, int ndim, const int* dims, int keepdim, int dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_vector_norm";
    const Tensor& x = value_arg(t, op);
    const std::vector<int64_t> d = dims_arg(ndim, dims, op);
    std::optional<DType> dt;
    if (dtype != -1) dt = checked_dtype(dtype, op);
    return to_handle(ag::vector_norm(x, ord, d, keepdim != 0, dt));
  });
}

}  // extern "C"
