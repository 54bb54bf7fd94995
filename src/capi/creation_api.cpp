// Creation: every result is a new tensor on a new storage.
#include "capi/guard.h"
#include "core/linspace_eye.h"
#include "core/factory.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

namespace {
IntList sizes_arg(int ndim, const int64_t* sizes, const char* op) {
  check_dims_array(ndim, sizes, op, "sizes");
  return IntList(sizes, size_t(ndim));
}
}  // namespace

extern "C" {

ct_tensor* ct_empty(int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_empty");
    return to_handle(Tensor::empty(sizes_arg(ndim, sizes, "ct_empty"), d, "ct_empty"));
  });
}

ct_tensor* ct_zeros(int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_zeros");
    return to_handle(full(sizes_arg(ndim, sizes, "ct_zeros"), 0.0, d, "ct_zeros"));
  });
}

ct_tensor* ct_ones(int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_ones");
    return to_handle(full(sizes_arg(ndim, sizes, "ct_ones"), 1.0, d, "ct_ones"));
  });
}

ct_tensor* ct_full(int ndim, const int64_t* sizes, double value, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_full");
    return to_handle(full(sizes_arg(ndim, sizes, "ct_full"), value, d, "ct_full"));
  });
}

ct_tensor* ct_arange(double start, double end, double step, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(arange(start, end, step, dtype_arg(dtype, "ct_arange")));
  });
}

ct_tensor* ct_linspace(double start, double end, int64_t steps, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(linspace(start, end, steps, dtype_arg(dtype, "ct_linspace"))); });
}

ct_tensor* ct_eye(int64_t n, int64_t m, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(eye(n, m, dtype_arg(dtype, "ct_eye"))); });
}

ct_tensor* ct_from_data(const void* data, int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_from_data");
    return to_handle(from_data(data, sizes_arg(ndim, sizes, "ct_from_data"), d));
  });
}

ct_tensor* ct_from_blob(void* data, int ndim, const int64_t* sizes, const int64_t* strides, ct_dtype dtype,
                        void (*deleter)(void* data, void* ctx), void* ctx) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_from_blob");
    const IntList s = sizes_arg(ndim, sizes, "ct_from_blob");
    const IntList st = strides ? IntList(strides, size_t(ndim)) : IntList();
    return to_handle(from_blob(data, s, st, d, deleter, ctx));
  });
}

}  // extern "C"
