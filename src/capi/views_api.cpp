// Views (same storage) and the view-when-possible family.
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/shape.h"
#include "core/views.h"

#include <vector>

using namespace ct;
using namespace ct::capi;

namespace {
IntList shape_arg(int ndim, const int64_t* shape, const char* op, const char* what = "shape") {
  return dims_arg(ndim, shape, op, what);
}

// Runs f(tensor) under the guard, returning the new reference as a handle.
template <class F>
ct_tensor* view_call(const ct_tensor* t, const char* op, F&& f) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(f(tensor_arg(t, op))); });
}

// The n lengths of ct_split_with_sizes (n may exceed CT_MAX_DIMS: they are not dims).
IntList lengths_arg(int64_t n, const int64_t* p, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": n must be >= 0, got " << n);
  CT_CHECK(n == 0 || p != nullptr, InvalidArgument, op << ": split_sizes is NULL with n = " << n);
  return IntList(p, size_t(n));
}

// A multi-output view op (header: "Multi-output views").  count(x) checks the arguments and
// says how many views there would be, without making any (out == NULL asks only that; with
// an out array, a cap too small fails before any work); make(x) makes and records them.
template <class Count, class Make>
int64_t multi_call(const ct_tensor* t, const char* op, ct_tensor** out, int64_t cap, Count&& count, Make&& make) {
  return guard<int64_t>(-1, [&]() -> int64_t {
    const Tensor& x = tensor_arg(t, op);
    const int64_t n = count(x);
    if (!out) return n;
    CT_CHECK(cap >= n, InvalidArgument, op << ": " << n << " outputs do not fit in cap " << cap);
    std::vector<Ref<Tensor>> views = make(x);
    CT_CHECK(int64_t(views.size()) == n, Internal, op << ": made " << views.size() << " views, counted " << n);
    for (int64_t i = 0; i < n; ++i) out[i] = to_handle(std::move(views[size_t(i)]));
    return n;
  });
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

ct_tensor* ct_slices(const ct_tensor* t, int n, const int64_t* starts, const int64_t* stops, const int64_t* steps) {
  return view_call(t, "ct_slices", [&](const Tensor& x) {
    check_dims_array(n, starts, "ct_slices", "starts");
    check_dims_array(n, stops, "ct_slices", "stops");
    check_dims_array(n, steps, "ct_slices", "steps");
    const size_t k = size_t(n);
    return ag::slice_dims(x, IntList(starts, k), IntList(stops, k), IntList(steps, k));
  });
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

ct_tensor* ct_squeeze_dims(const ct_tensor* t, int ndims, const int* dims) {
  return view_call(t, "ct_squeeze_dims", [&](const Tensor& x) {
    check_dims_array(ndims, dims, "ct_squeeze_dims", "dims");
    return ag::squeeze_dims(x, std::span<const int>(dims, size_t(ndims)));
  });
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

int64_t ct_unbind(const ct_tensor* t, int dim, ct_tensor** out, int64_t cap) {
  return multi_call(
      t, "ct_unbind", out, cap, [&](const Tensor& x) { return unbind_count(x, dim); },
      [&](const Tensor& x) { return ag::unbind(x, dim); });
}

int64_t ct_split(const ct_tensor* t, int64_t split_size, int dim, ct_tensor** out, int64_t cap) {
  return multi_call(
      t, "ct_split", out, cap, [&](const Tensor& x) { return split_count(x, split_size, dim); },
      [&](const Tensor& x) { return ag::split(x, split_size, dim); });
}

int64_t ct_split_with_sizes(const ct_tensor* t, int64_t n, const int64_t* split_sizes, int dim, ct_tensor** out,
                            int64_t cap) {
  return multi_call(
      t, "ct_split_with_sizes", out, cap,
      [&](const Tensor& x) { return split_with_sizes_count(x, lengths_arg(n, split_sizes, "ct_split_with_sizes"), dim); },
      [&](const Tensor& x) { return ag::split_with_sizes(x, lengths_arg(n, split_sizes, "ct_split_with_sizes"), dim); });
}

int64_t ct_chunk(const ct_tensor* t, int64_t chunks, int dim, ct_tensor** out, int64_t cap) {
  return multi_call(
      t, "ct_chunk", out, cap, [&](const Tensor& x) { return chunk_count(x, chunks, dim); },
      [&](const Tensor& x) { return ag::chunk(x, chunks, dim); });
}

ct_tensor* ct_alias_view(const ct_tensor* t) {
  return view_call(t, "ct_alias_view", [&](const Tensor& x) { return ag::alias_view(x); });
}

ct_tensor* ct_reshape(const ct_tensor* t, int ndim, const int64_t* shape) {
  return view_call(t, "ct_reshape",
                   [&](const Tensor& x) { return ag::reshape(x, shape_arg(ndim, shape, "ct_reshape")); });
}

ct_tensor* ct_flatten(const ct_tensor* t, int start_dim, int end_dim) {
  return view_call(t, "ct_flatten", [&](const Tensor& x) { return ag::flatten(x, start_dim, end_dim); });
}

ct_tensor* ct_contiguous(const ct_tensor* t) {
  return view_call(t, "ct_contiguous", [&](const Tensor& x) { return copied_from(x, ag::contiguous(x)); });
}

int ct_reshape_is_view(const ct_tensor* t, int ndim, const int64_t* shape) {
  return guard<int>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_reshape_is_view");
    return int(reshape_is_view(x, shape_arg(ndim, shape, "ct_reshape_is_view")));
  });
}

}  // extern "C"
