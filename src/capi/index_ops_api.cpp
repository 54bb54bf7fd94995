// Indexed copies (core/gather_scatter.h): gather, scatter, scatter_add, index_add, index_copy,
// index_fill, take, put, index_put.  Each wrapper checks its handles and calls the
// autograd-recording op (core/autograd/functions.h).
#include <cstring>
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"

using namespace ct;
using namespace ct::capi;

namespace {

// torch's reduce= strings: NULL (no reduction), "add" or "multiply".
ScatterReduce reduce_arg(const char* reduce) {
  if (!reduce) return ScatterReduce::None;
  if (!std::strcmp(reduce, "add")) return ScatterReduce::Add;
  if (!std::strcmp(reduce, "multiply")) return ScatterReduce::Multiply;
  CT_FAIL(InvalidArgument, "reduce argument must be either add or multiply.");
}

// The n borrowed index tensors of ct_index_put / ct_index; a NULL entry is a whole dim.
std::vector<const Tensor*> tensors_arg(int n, const ct_tensor* const* tensors, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": the number of index tensors must be >= 0, got " << n);
  CT_CHECK(n == 0 || tensors != nullptr, InvalidArgument, op << ": tensors is NULL but n is " << n);
  std::vector<const Tensor*> out;
  for (int i = 0; i < n; ++i) out.push_back(tensors[i] ? &value_arg(tensors[i], op, "indices") : nullptr);
  return out;
}

}  // namespace

extern "C" {

ct_tensor* ct_gather(const ct_tensor* t, int dim, const ct_tensor* index) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_gather");
    return to_handle(ag::gather(x, dim, value_arg(index, "ct_gather", "index")));
  });
}

ct_tensor* ct_scatter(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* src,
                      const char* reduce) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_scatter");
    const Tensor& i = value_arg(index, "ct_scatter", "index");
    const Tensor& s = value_arg(src, "ct_scatter", "src");
    return to_handle(ag::scatter(x, dim, i, &s, 0.0, reduce_arg(reduce), false, false));
  });
}

ct_status ct_scatter_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* src, const char* reduce) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_scatter_", "self");
    const Tensor& i = value_arg(index, "ct_scatter_", "index");
    const Tensor& s = value_arg(src, "ct_scatter_", "src");
    ag::scatter(x, dim, i, &s, 0.0, reduce_arg(reduce), false, true);
  });
}

ct_tensor* ct_scatter_value(const ct_tensor* t, int dim, const ct_tensor* index, double value, const char* reduce) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_scatter_value");
    const Tensor& i = value_arg(index, "ct_scatter_value", "index");
    return to_handle(ag::scatter(x, dim, i, nullptr, value, reduce_arg(reduce), false, false));
  });
}

ct_status ct_scatter_value_(ct_tensor* self, int dim, const ct_tensor* index, double value, const char* reduce) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_scatter_value_", "self");
    const Tensor& i = value_arg(index, "ct_scatter_value_", "index");
    ag::scatter(x, dim, i, nullptr, value, reduce_arg(reduce), false, true);
  });
}

ct_tensor* ct_scatter_add(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* src) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_scatter_add");
    const Tensor& i = value_arg(index, "ct_scatter_add", "index");
    const Tensor& s = value_arg(src, "ct_scatter_add", "src");
    return to_handle(ag::scatter(x, dim, i, &s, 0.0, ScatterReduce::Add, true, false));
  });
}

ct_status ct_scatter_add_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* src) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_scatter_add_", "self");
    const Tensor& i = value_arg(index, "ct_scatter_add_", "index");
    const Tensor& s = value_arg(src, "ct_scatter_add_", "src");
    ag::scatter(x, dim, i, &s, 0.0, ScatterReduce::Add, true, true);
  });
}

ct_tensor* ct_index_add(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* source, double alpha) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_add");
    const Tensor& i = value_arg(index, "ct_index_add", "index");
    const Tensor& s = value_arg(source, "ct_index_add", "source");
    return to_handle(ag::index_add(x, dim, i, s, alpha, false));
  });
}

ct_status ct_index_add_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* source, double alpha) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_index_add_", "self");
    const Tensor& i = value_arg(index, "ct_index_add_", "index");
    const Tensor& s = value_arg(source, "ct_index_add_", "source");
    ag::index_add(x, dim, i, s, alpha, true);
  });
}

ct_tensor* ct_index_copy(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* source) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_copy");
    const Tensor& i = value_arg(index, "ct_index_copy", "index");
    const Tensor& s = value_arg(source, "ct_index_copy", "source");
    return to_handle(ag::index_copy(x, dim, i, s, false));
  });
}

ct_status ct_index_copy_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* source) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_index_copy_", "self");
    const Tensor& i = value_arg(index, "ct_index_copy_", "index");
    const Tensor& s = value_arg(source, "ct_index_copy_", "source");
    ag::index_copy(x, dim, i, s, true);
  });
}

ct_tensor* ct_index_fill(const ct_tensor* t, int dim, const ct_tensor* index, double value) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_fill");
    const Tensor& i = value_arg(index, "ct_index_fill", "index");
    return to_handle(ag::index_fill(x, dim, i, nullptr, value, false));
  });
}

ct_status ct_index_fill_(ct_tensor* self, int dim, const ct_tensor* index, double value) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_index_fill_", "self");
    const Tensor& i = value_arg(index, "ct_index_fill_", "index");
    ag::index_fill(x, dim, i, nullptr, value, true);
  });
}

ct_tensor* ct_index_fill_tensor(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* value) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_fill_tensor");
    const Tensor& i = value_arg(index, "ct_index_fill_tensor", "index");
    const Tensor& v = value_arg(value, "ct_index_fill_tensor", "value");
    return to_handle(ag::index_fill(x, dim, i, &v, 0.0, false));
  });
}

ct_status ct_index_fill_tensor_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* value) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_index_fill_tensor_", "self");
    const Tensor& i = value_arg(index, "ct_index_fill_tensor_", "index");
    const Tensor& v = value_arg(value, "ct_index_fill_tensor_", "value");
    ag::index_fill(x, dim, i, &v, 0.0, true);
  });
}

ct_tensor* ct_take(const ct_tensor* t, const ct_tensor* index) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_take");
    return to_handle(ag::take(x, value_arg(index, "ct_take", "index")));
  });
}

ct_tensor* ct_put(const ct_tensor* t, const ct_tensor* index, const ct_tensor* source, int accumulate) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_put");
    const Tensor& i = value_arg(index, "ct_put", "index");
    const Tensor& s = value_arg(source, "ct_put", "source");
    return to_handle(ag::put(x, i, s, accumulate != 0, false));
  });
}

ct_status ct_put_(ct_tensor* self, const ct_tensor* index, const ct_tensor* source, int accumulate) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_put_", "self");
    const Tensor& i = value_arg(index, "ct_put_", "index");
    const Tensor& s = value_arg(source, "ct_put_", "source");
    ag::put(x, i, s, accumulate != 0, true);
  });
}

ct_tensor* ct_index_put(const ct_tensor* t, int n, const ct_tensor* const* tensors, const ct_tensor* values,
                        int accumulate) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_put");
    const std::vector<const Tensor*> ix = tensors_arg(n, tensors, "ct_index_put");
    const Tensor& v = value_arg(values, "ct_index_put", "values");
    return to_handle(ag::index_put(x, ix, v, accumulate != 0, false));
  });
}

ct_status ct_index_put_(ct_tensor* self, int n, const ct_tensor* const* tensors, const ct_tensor* values,
                        int accumulate) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_index_put_", "self");
    const std::vector<const Tensor*> ix = tensors_arg(n, tensors, "ct_index_put_");
    const Tensor& v = value_arg(values, "ct_index_put_", "values");
    ag::index_put(x, ix, v, accumulate != 0, true);
  });
}

ct_tensor* ct_index(const ct_tensor* t, int n, const ct_tensor* const* tensors) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index");
    const std::vector<const Tensor*> ix = tensors_arg(n, tensors, "ct_index");
    return to_handle(ag::index(x, ix));
  });
}

ct_tensor* ct_scatter_reduce(const ct_tensor* t, int dim, const ct_tensor* index, const ct_tensor* src,
                             const char* reduce, int include_self) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_scatter_reduce");
    const Tensor& i = value_arg(index, "ct_scatter_reduce", "index");
    const Tensor& s = value_arg(src, "ct_scatter_reduce", "src");
    return to_handle(ag::scatter_reduce(x, dim, i, s, reduce, include_self != 0, false));
  });
}

ct_status ct_scatter_reduce_(ct_tensor* self, int dim, const ct_tensor* index, const ct_tensor* src,
                             const char* reduce, int include_self) {
  return guard_status([&] {
    const Tensor& x = value_arg(self, "ct_scatter_reduce_", "self");
    const Tensor& i = value_arg(index, "ct_scatter_reduce_", "index");
    const Tensor& s = value_arg(src, "ct_scatter_reduce_", "src");
    ag::scatter_reduce(x, dim, i, s, reduce, include_self != 0, true);
  });
}

}  // extern "C"
