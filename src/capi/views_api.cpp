// Views (same storage) and the view-when-possible family.
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/shape.h"
#include "core/views.h"

using namespace ct;
using namespace ct::capi;

namespace {
IntList shape_arg(int ndim, const int64_t* shape, const char* op, const char* what = "shape") {
  check_dims_array(ndim, shape, op, what);
  return IntList(shape, size_t(ndim));
}

// Runs f(tensor) under the guard, returning the new reference as a handle.
template <class F>
ct_tensor* view_call(const ct_tensor* t, const char* op, F&& f) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(f(tensor_arg(t, op))); });
}
}  // namespace

extern "C" {

ct_tensor* ct_view(const ct_tensor* t, int ndim, const int64_t* shape) {
  return view_call(t, "ct_view", [&](const Tensor& x) { return ag::view(x, shape_arg(ndim, shape, "ct_view")); });
}

ct_tensor* ct_transpose(const ct_tensor* t, int dim0, int dim1) {
  return view_call(t, "ct_transpose", [&](const Tensor& x) { return ag::transpose(x, dim0, dim1); });
}

ct_tensor* ct_t(const ct_tensor* t) {
  return view_call(t, "ct_t", [&](const Tensor& x) { return ag::t(x); });
}

ct_tensor* ct_permute(const ct_tensor* t, int ndim, const int* dims) {
  return view_call(t, "ct_permute", [&](const Tensor& x) {
    check_dims_array(ndim, dims, "ct_permute", "dims");
    return ag::permute(x, std::span<const int>(dims, size_t(ndim)));
  });
}

ct_tensor* ct_slice(const ct_tensor* t, int dim, int64_t start, int64_t stop, int64_t step) {
  return view_call(t, "ct_slice", [&](const Tensor& x) { return ag::slice(x, dim, start, stop, step); });
}

ct_tensor* ct_narrow(const ct_tensor* t, int dim, int64_t start, int64_t length) {
  return view_call(t, "ct_narrow", [&](const Tensor& x) { return ag::narrow(x, dim, start, length); });
}

ct_tensor* ct_select(const ct_tensor* t, int dim, int64_t index) {
  return view_call(t, "ct_select", [&](const Tensor& x) { return ag::select(x, dim, index); });
}

ct_tensor* ct_expand(const ct_tensor* t, int ndim, const int64_t* sizes) {
  return view_call(t, "ct_expand",
                   [&](const Tensor& x) { return ag::expand(x, shape_arg(ndim, sizes, "ct_expand", "sizes")); });
}

ct_tensor* ct_squeeze(const ct_tensor* t, int dim) {
  return view_call(t, "ct_squeeze", [&](const Tensor& x) { return ag::squeeze(x, dim); });
}

ct_tensor* ct_squeeze_all(const ct_tensor* t) {
  return view_call(t, "ct_squeeze_all", [&](const Tensor& x) { return ag::squeeze_all(x); });
}

ct_tensor* ct_unsqueeze(const ct_tensor* t, int dim) {
  return view_call(t, "ct_unsqueeze", [&](const Tensor& x) { return ag::unsqueeze(x, dim); });
}

ct_tensor* ct_diagonal(const ct_tensor* t, int64_t offset, int dim1, int dim2) {
  return view_call(t, "ct_diagonal", [&](const Tensor& x) { return ag::diagonal(x, offset, dim1, dim2); });
}

ct_tensor* ct_unfold(const ct_tensor* t, int dim, int64_t size, int64_t step) {
  return view_call(t, "ct_unfold", [&](const Tensor& x) { return ag::unfold(x, dim, size, step); });
}

ct_tensor* ct_as_strided(const ct_tensor* t, int ndim, const int64_t* sizes, const int64_t* strides,
                         int64_t storage_offset) {
  return view_call(t, "ct_as_strided", [&](const Tensor& x) {
    return ag::as_strided(x, shape_arg(ndim, sizes, "ct_as_strided", "sizes"),
                      shape_arg(ndim, strides, "ct_as_strided", "strides"), storage_offset);
  });
}

ct_tensor* ct_alias(const ct_tensor* t) {
  return view_call(t, "ct_alias", [&](const Tensor& x) { return alias(x); });
}

ct_tensor* ct_reshape(const ct_tensor* t, int ndim, const int64_t* shape) {
  return view_call(t, "ct_reshape",
                   [&](const Tensor& x) { return ag::reshape(x, shape_arg(ndim, shape, "ct_reshape")); });
}

ct_tensor* ct_flatten(const ct_tensor* t, int start_dim, int end_dim) {
  return view_call(t, "ct_flatten", [&](const Tensor& x) { return ag::flatten(x, start_dim, end_dim); });
}

ct_tensor* ct_contiguous(const ct_tensor* t) {
  return view_call(t, "ct_contiguous", [&](const Tensor& x) { return ag::contiguous(x); });
}

int ct_reshape_is_view(const ct_tensor* t, int ndim, const int64_t* shape) {
  return guard<int>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_reshape_is_view");
    return int(reshape_is_view(x, shape_arg(ndim, shape, "ct_reshape_is_view")));
  });
}

}  // extern "C"
