// masked_select / masked_fill / masked_scatter, nonzero, argwhere, rot90, repeat_interleave
// (core/mask_ops.h through the autograd layer core/autograd/mask_ops.h).
#include <optional>

#include "capi/guard.h"
#include "core/autograd/mask_ops.h"
#include "core/mask_ops.h"

using namespace ct;
using namespace ct::capi;

namespace {
// An optional int from C: NULL is "not given".
std::optional<int64_t> opt(const int64_t* p) { return p ? std::optional<int64_t>(*p) : std::nullopt; }
}  // namespace

extern "C" {

ct_tensor* ct_masked_select(const ct_tensor* t, const ct_tensor* mask) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_masked_select");
    const Tensor& m = value_arg(mask, "ct_masked_select", "mask");
    return to_handle(ag::masked_select(x, m));
  });
}

ct_status ct_masked_fill_(ct_tensor* self, const ct_tensor* mask, double value) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_masked_fill_", "self");
    ag::masked_fill_(x, value_arg(mask, "ct_masked_fill_", "mask"), value);
  });
}

ct_tensor* ct_masked_fill(const ct_tensor* t, const ct_tensor* mask, double value) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_masked_fill");
    return to_handle(ag::masked_fill(x, value_arg(mask, "ct_masked_fill", "mask"), value));
  });
}

ct_status ct_masked_fill_tensor_(ct_tensor* self, const ct_tensor* mask, const ct_tensor* value) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_masked_fill_tensor_", "self");
    const Tensor& m = value_arg(mask, "ct_masked_fill_tensor_", "mask");
    ag::masked_fill_(x, m, value_arg(value, "ct_masked_fill_tensor_", "value"));
  });
}

ct_tensor* ct_masked_fill_tensor(const ct_tensor* t, const ct_tensor* mask, const ct_tensor* value) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_masked_fill_tensor");
    const Tensor& m = value_arg(mask, "ct_masked_fill_tensor", "mask");
    return to_handle(ag::masked_fill(x, m, value_arg(value, "ct_masked_fill_tensor", "value")));
  });
}

ct_status ct_masked_scatter_(ct_tensor* self, const ct_tensor* mask, const ct_tensor* source) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_masked_scatter_", "self");
    const Tensor& m = value_arg(mask, "ct_masked_scatter_", "mask");
    ag::masked_scatter_(x, m, value_arg(source, "ct_masked_scatter_", "source"));
  });
}

ct_tensor* ct_masked_scatter(const ct_tensor* t, const ct_tensor* mask, const ct_tensor* source) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_masked_scatter");
    const Tensor& m = value_arg(mask, "ct_masked_scatter", "mask");
    return to_handle(ag::masked_scatter(x, m, value_arg(source, "ct_masked_scatter", "source")));
  });
}

ct_tensor* ct_nonzero(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(nonzero(value_arg(t, "ct_nonzero"))); });
}

ct_tensor* ct_argwhere(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(nonzero(value_arg(t, "ct_argwhere"))); });
}

ct_tensor* ct_rot90(const ct_tensor* t, int64_t k, int ndims, const int64_t* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_rot90");
    return to_handle(ag::rot90(x, k, dims_arg(ndims, dims, "ct_rot90", "dims")));
  });
}

ct_tensor* ct_repeat_interleave(const ct_tensor* t, int64_t repeats, const int64_t* dim, const int64_t* output_size) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_repeat_interleave");
    return to_handle(ag::repeat_interleave_int(x, repeats, opt(dim), opt(output_size)));
  });
}

ct_tensor* ct_repeat_interleave_tensor(const ct_tensor* t, const ct_tensor* repeats, const int64_t* dim,
                                       const int64_t* output_size) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_repeat_interleave_tensor");
    const Tensor& r = value_arg(repeats, "ct_repeat_interleave_tensor", "repeats");
    return to_handle(ag::repeat_interleave_tensor(x, r, opt(dim), opt(output_size)));
  });
}

ct_tensor* ct_repeat_interleave_repeats(const ct_tensor* repeats, const int64_t* output_size) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& r = value_arg(repeats, "ct_repeat_interleave_repeats", "repeats");
    return to_handle(repeat_interleave_counts(r, opt(output_size)));
  });
}

}  // extern "C"
