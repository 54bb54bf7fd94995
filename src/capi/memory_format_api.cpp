// Memory formats: the ct_memory_format functions of the header (core/memory_format.h).
#include <cstring>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/memory_format.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

const char* ct_memory_format_name(ct_memory_format fmt) {
  return guard<const char*>(nullptr, [&] { return memory_format_name(format_arg(fmt, "ct_memory_format_name")); });
}

int ct_is_contiguous_format(const ct_tensor* t, ct_memory_format fmt) {
  return guard<int>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_is_contiguous_format");
    return is_contiguous_as(x.sizes(), x.strides(), format_arg(fmt, "ct_is_contiguous_format")) ? 1 : 0;
  });
}

int ct_suggest_memory_format(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(suggest_memory_format(tensor_arg(t, "ct_suggest_memory_format"))); });
}

ct_tensor* ct_contiguous_format(const ct_tensor* t, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_contiguous_format");
    return to_handle(copied_from(x, ag::contiguous_format(x, format_arg(fmt, "ct_contiguous_format"))));
  });
}

ct_tensor* ct_clone_format(const ct_tensor* t, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_clone_format");
    return to_handle(copied_from(x, ag::clone_format(x, format_arg(fmt, "ct_clone_format"))));
  });
}

ct_tensor* ct_to_format(const ct_tensor* t, ct_dtype dtype, ct_memory_format fmt, int copy) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_to_format");
    const DType d = dtype_arg(dtype, "ct_to_format");
    return to_handle(copied_from(x, ag::to_format(x, d, format_arg(fmt, "ct_to_format"), copy != 0)));
  });
}

ct_tensor* ct_empty_format(int ndim, const int64_t* sizes, ct_dtype dtype, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_empty_format";
    const DType d = dtype_arg(dtype, op);
    const MemoryFormat f = format_arg(fmt, op);
    return to_handle(empty_format(dims_arg(ndim, sizes, op), d, f, op));
  });
}

ct_tensor* ct_empty_strided(int ndim, const int64_t* sizes, const int64_t* stride, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_empty_strided";
    const DType d = dtype_arg(dtype, op);
    const IntList sz = dims_arg(ndim, sizes, op);
    return to_handle(empty_strided_checked(sz, dims_arg(ndim, stride, op, "stride"), d, op));
  });
}

ct_tensor* ct_empty_like(const ct_tensor* t, ct_dtype dtype, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_empty_like";
    const Tensor& x = tensor_arg(t, op);
    const DType d = dtype_arg(dtype, op);
    return to_handle(empty_like(x, d, format_arg(fmt, op), op));
  });
}

ct_tensor* ct_full_like(const ct_tensor* t, double value, ct_dtype dtype, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_full_like";
    const Tensor& x = tensor_arg(t, op);
    const DType d = dtype_arg(dtype, op);
    return to_handle(full_like(x, value, d, format_arg(fmt, op), op));
  });
}

ct_tensor* ct_zeros_like(const ct_tensor* t, ct_dtype dtype, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_zeros_like";
    const Tensor& x = tensor_arg(t, op);
    const DType d = dtype_arg(dtype, op);
    return to_handle(full_like(x, 0.0, d, format_arg(fmt, op), op));
  });
}

ct_tensor* ct_ones_like(const ct_tensor* t, ct_dtype dtype, ct_memory_format fmt) {
  return guard<ct_tensor*>(nullptr, [&] {
    const char* op = "ct_ones_like";
    const Tensor& x = tensor_arg(t, op);
    const DType d = dtype_arg(dtype, op);
    return to_handle(full_like(x, 1.0, d, format_arg(fmt, op), op));
  });
}

}  // extern "C"
