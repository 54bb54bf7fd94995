// Tensor identity: .data, x.data = y, detach_, resizability, and the in-place metadata ops
// (include/ctensor.h, "Tensor identity and in-place metadata ops").
#include "capi/guard.h"
#include "core/metadata_ops.h"
#include "core/shape.h"
#include "core/views.h"

using namespace ct;
using namespace ct::capi;

namespace {
// The tensor behind a handle the op mutates (arguments are const in the core's accessors).
Tensor& mut_arg(ct_tensor* t, const char* op, const char* name = "self") {
  return const_cast<Tensor&>(tensor_arg(t, op, name));
}
}  // namespace

extern "C" {

ct_tensor* ct_data(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(data_of(tensor_arg(t, "ct_data"))); });
}

ct_status ct_set_data(ct_tensor* self, const ct_tensor* new_data) {
  return guard_status([&] {
    set_data(mut_arg(self, "ct_set_data"), tensor_arg(new_data, "ct_set_data", "new_data"));
  });
}

ct_status ct_detach_(ct_tensor* t) {
  return guard_status([&] { detach_(mut_arg(t, "ct_detach_", "tensor")); });
}

int ct_same_version_counter(const ct_tensor* a, const ct_tensor* b) {
  return guard<int>(-1, [&] {
    return int(Tensor::same_version_counter(tensor_arg(a, "ct_same_version_counter", "a"),
                                            tensor_arg(b, "ct_same_version_counter", "b")));
  });
}

int ct_storage_is_resizable(const ct_storage* s) {
  return guard<int>(-1, [&] { return int(storage_arg(s, "ct_storage_is_resizable").resizable()); });
}

ct_status ct_storage_disable_resize(ct_storage* s) {
  return guard_status([&] { storage_arg(s, "ct_storage_disable_resize").disable_resize(); });
}

ct_status ct_set_(ct_tensor* self, const ct_tensor* source) {
  return guard_status([&] { set_(mut_arg(self, "ct_set_"), tensor_arg(source, "ct_set_", "source")); });
}

ct_status ct_set_storage_(ct_tensor* self, ct_storage* storage) {
  return guard_status([&] {
    Tensor& x = mut_arg(self, "ct_set_storage_");
    set_storage_whole_(x, const_cast<Storage&>(storage_arg(storage, "ct_set_storage_")));
  });
}

ct_status ct_set_storage_strided_(ct_tensor* self, ct_storage* storage, int64_t storage_offset, int ndim,
                                  const int64_t* sizes, int stride_ndim, const int64_t* strides) {
  return guard_status([&] {
    const char* op = "ct_set_storage_strided_";
    Tensor& x = mut_arg(self, op);
    Storage& s = const_cast<Storage&>(storage_arg(storage, op));
    const IntList sz = dims_arg(ndim, sizes, op, "sizes");
    if (stride_ndim >= 0) {
      CT_CHECK(stride_ndim == ndim, Shape,
               "unequal size length (" << ndim << ") and stride length (" << stride_ndim << ")");
      dims_arg(stride_ndim, strides, op, "strides");
    }
    set_storage_(x, s, storage_offset, sz, stride_ndim >= 0 ? strides : nullptr);
  });
}

ct_status ct_set_empty_(ct_tensor* self) {
  return guard_status([&] { set_empty_(mut_arg(self, "ct_set_empty_")); });
}

int ct_is_set_to(const ct_tensor* self, const ct_tensor* other) {
  return guard<int>(-1, [&] {
    return int(is_set_to(tensor_arg(self, "ct_is_set_to", "self"), tensor_arg(other, "ct_is_set_to", "other")));
  });
}

ct_status ct_resize_(ct_tensor* self, int ndim, const int64_t* sizes) {
  return guard_status([&] { resize_(mut_arg(self, "ct_resize_"), dims_arg(ndim, sizes, "ct_resize_", "sizes")); });
}

ct_status ct_resize_format_(ct_tensor* self, int ndim, const int64_t* sizes, ct_memory_format fmt) {
  return guard_status([&] {
    const MemoryFormat f = format_arg(fmt, "ct_resize_format_");
    resize_(mut_arg(self, "ct_resize_format_"), dims_arg(ndim, sizes, "ct_resize_format_", "sizes"), f);
  });
}

ct_status ct_resize_as_(ct_tensor* self, const ct_tensor* other) {
  return guard_status([&] { resize_as_(mut_arg(self, "ct_resize_as_"), tensor_arg(other, "ct_resize_as_", "other")); });
}

ct_status ct_as_strided_(ct_tensor* self, int ndim, const int64_t* sizes, int stride_ndim, const int64_t* strides,
                         int64_t storage_offset) {
  return guard_status([&] {
    const char* op = "ct_as_strided_";
    Tensor& x = mut_arg(self, op);
    const IntList sz = dims_arg(ndim, sizes, op, "sizes");
    const IntList st = dims_arg(stride_ndim, strides, op, "strides");
    as_strided_(x, sz, st, storage_offset);
  });
}

ct_status ct_t_(ct_tensor* self) {
  return guard_status([&] { t_(mut_arg(self, "ct_t_")); });
}

ct_status ct_transpose_(ct_tensor* self, int dim0, int dim1) {
  return guard_status([&] { transpose_(mut_arg(self, "ct_transpose_"), dim0, dim1); });
}

ct_status ct_squeeze_(ct_tensor* self) {
  return guard_status([&] { squeeze_(mut_arg(self, "ct_squeeze_")); });
}

ct_status ct_squeeze_dim_(ct_tensor* self, int dim) {
  return guard_status([&] { squeeze_dim_(mut_arg(self, "ct_squeeze_dim_"), dim); });
}

ct_status ct_unsqueeze_(ct_tensor* self, int dim) {
  return guard_status([&] { unsqueeze_(mut_arg(self, "ct_unsqueeze_"), dim); });
}

}  // extern "C"
