// Scans, sorting and clamping (core/scan_sort.h): ct_cumsum(_), ct_cumprod(_), ct_sort,
// ct_argsort, ct_topk, ct_clamp(_), ct_clamp_tensor(_), ct_clamp_min/max(_)(_tensor).
#include <cmath>
#include <optional>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/scan_sort.h"

using namespace ct;
using namespace ct::capi;

namespace {

std::optional<DType> optional_dtype(int dtype, const char* op) {
  if (dtype == -1) return std::nullopt;
  return checked_dtype(dtype, op);
}

ClampBound scalar_bound(int has, double v, int integral, const char* op) {
  if (!has) return ClampBound::none();
  CT_CHECK(!integral || (std::isfinite(v) && v == std::trunc(v)), InvalidArgument,
           op << ": integral bound " << v << " is not an integer");
  return ClampBound::of(v, integral != 0);
}

ClampBound tensor_bound(const ct_tensor* b, const char* op, const char* name) {
  return b ? ClampBound::of(value_arg(b, op, name)) : ClampBound::none();
}

// One bound of clamp_min (lo) or clamp_max (hi).
ct_tensor* one_bound(const ct_tensor* t, ClampBound b, bool is_min, const char* op, const char* torch_op) {
  const Tensor& x = value_arg(t, op);
  return to_handle(is_min ? ag::clamp(x, b, ClampBound::none(), torch_op) : ag::clamp(x, ClampBound::none(), b, torch_op));
}
void one_bound_(ct_tensor* t, ClampBound b, bool is_min, const char* op, const char* torch_op) {
  const Tensor& x = value_arg(t, op);
  is_min ? ag::clamp_(x, b, ClampBound::none(), torch_op) : ag::clamp_(x, ClampBound::none(), b, torch_op);
}

}  // namespace

extern "C" {

ct_tensor* ct_cumsum(const ct_tensor* t, int dim, int dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_cumsum");
    return to_handle(ag::cumsum(x, dim, optional_dtype(dtype, "ct_cumsum")));
  });
}

ct_status ct_cumsum_(ct_tensor* self, int dim, int dtype) {
  return guard_status([&] { ag::cumsum_(value_arg(self, "ct_cumsum_"), dim, optional_dtype(dtype, "ct_cumsum_")); });
}

ct_tensor* ct_cumprod(const ct_tensor* t, int dim, int dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_cumprod");
    return to_handle(ag::cumprod(x, dim, optional_dtype(dtype, "ct_cumprod")));
  });
}

ct_status ct_cumprod_(ct_tensor* self, int dim, int dtype) {
  return guard_status([&] { ag::cumprod_(value_arg(self, "ct_cumprod_"), dim, optional_dtype(dtype, "ct_cumprod_")); });
}

ct_tensor* ct_sort(const ct_tensor* t, int dim, int descending, int stable, ct_tensor** indices) {
  return guard<ct_tensor*>(nullptr, [&] {
    ValuesIndices r = ag::sort(value_arg(t, "ct_sort"), dim, descending != 0, stable != 0);
    if (indices) *indices = to_handle(std::move(r.indices));  // only on success: nothing fails after
    return to_handle(std::move(r.values));
  });
}

ct_tensor* ct_argsort(const ct_tensor* t, int dim, int descending, int stable) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ct::sort(value_arg(t, "ct_argsort"), dim, descending != 0, stable != 0).indices);
  });
}

ct_tensor* ct_topk(const ct_tensor* t, int64_t k, int dim, int largest, int sorted, ct_tensor** indices) {
  return guard<ct_tensor*>(nullptr, [&] {
    ValuesIndices r = ag::topk(value_arg(t, "ct_topk"), k, dim, largest != 0, sorted != 0);
    if (indices) *indices = to_handle(std::move(r.indices));
    return to_handle(std::move(r.values));
  });
}

ct_tensor* ct_clamp(const ct_tensor* t, int has_min, double min, int has_max, double max, int integral) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_clamp");
    return to_handle(ag::clamp(x, scalar_bound(has_min, min, integral, "ct_clamp"),
                               scalar_bound(has_max, max, integral, "ct_clamp"), "clamp"));
  });
}

ct_status ct_clamp_(ct_tensor* self, int has_min, double min, int has_max, double max, int integral) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_clamp_");
    ag::clamp_(x, scalar_bound(has_min, min, integral, "ct_clamp_"), scalar_bound(has_max, max, integral, "ct_clamp_"),
               "clamp_");
  });
}

ct_tensor* ct_clamp_tensor(const ct_tensor* t, const ct_tensor* min, const ct_tensor* max) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_clamp_tensor");
    return to_handle(ag::clamp(x, tensor_bound(min, "ct_clamp_tensor", "min"),
                               tensor_bound(max, "ct_clamp_tensor", "max"), "clamp"));
  });
}

ct_status ct_clamp_tensor_(ct_tensor* self, const ct_tensor* min, const ct_tensor* max) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_clamp_tensor_");
    ag::clamp_(x, tensor_bound(min, "ct_clamp_tensor_", "min"), tensor_bound(max, "ct_clamp_tensor_", "max"),
               "clamp_");
  });
}

ct_tensor* ct_clamp_min(const ct_tensor* t, double min, int integral) {
  return guard<ct_tensor*>(nullptr, [&] {
    return one_bound(t, scalar_bound(1, min, integral, "ct_clamp_min"), true, "ct_clamp_min", "clamp_min");
  });
}

ct_tensor* ct_clamp_max(const ct_tensor* t, double max, int integral) {
  return guard<ct_tensor*>(nullptr, [&] {
    return one_bound(t, scalar_bound(1, max, integral, "ct_clamp_max"), false, "ct_clamp_max", "clamp_max");
  });
}

ct_status ct_clamp_min_(ct_tensor* self, double min, int integral) {
  return guard_status(
      [&] { one_bound_(self, scalar_bound(1, min, integral, "ct_clamp_min_"), true, "ct_clamp_min_", "clamp_min_"); });
}

ct_status ct_clamp_max_(ct_tensor* self, double max, int integral) {
  return guard_status(
      [&] { one_bound_(self, scalar_bound(1, max, integral, "ct_clamp_max_"), false, "ct_clamp_max_", "clamp_max_"); });
}

ct_tensor* ct_clamp_min_tensor(const ct_tensor* t, const ct_tensor* min) {
  return guard<ct_tensor*>(nullptr, [&] {
    return one_bound(t, ClampBound::of(value_arg(min, "ct_clamp_min_tensor", "min")), true, "ct_clamp_min_tensor",
                     "clamp_min");
  });
}

ct_tensor* ct_clamp_max_tensor(const ct_tensor* t, const ct_tensor* max) {
  return guard<ct_tensor*>(nullptr, [&] {
    return one_bound(t, ClampBound::of(value_arg(max, "ct_clamp_max_tensor", "max")), false, "ct_clamp_max_tensor",
                     "clamp_max");
  });
}

ct_status ct_clamp_min_tensor_(ct_tensor* self, const ct_tensor* min) {
  return guard_status([&] {
    one_bound_(self, ClampBound::of(value_arg(min, "ct_clamp_min_tensor_", "min")), true, "ct_clamp_min_tensor_",
               "clamp_min_");
  });
}

ct_status ct_clamp_max_tensor_(ct_tensor* self, const ct_tensor* max) {
  return guard_status([&] {
    one_bound_(self, ClampBound::of(value_arg(max, "ct_clamp_max_tensor_", "max")), false, "ct_clamp_max_tensor_",
               "clamp_max_");
  });
}

}  // extern "C"
