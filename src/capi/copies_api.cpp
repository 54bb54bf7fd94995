// Copies (new storage) and copy_ (writes into an existing tensor).
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/factory.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_clone(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_clone");
    return to_handle(copied_from(x, ag::clone(x)));
  });
}

ct_tensor* ct_index_select(const ct_tensor* t, int dim, const ct_tensor* index) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_index_select");
    const Tensor& i = value_arg(index, "ct_index_select", "index");
    return to_handle(ag::index_select(x, dim, i));
  });
}

ct_tensor* ct_to(const ct_tensor* t, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = tensor_arg(t, "ct_to");
    return to_handle(copied_from(x, ag::to_dtype(x, dtype_arg(dtype, "ct_to"))));
  });
}

ct_status ct_copy_(ct_tensor* dst, const ct_tensor* src) {
  return guard_status([&] {
    const Tensor& d = tensor_arg(dst, "ct_copy_", "dst");
    const Tensor& s = tensor_arg(src, "ct_copy_", "src");
    ag::copy_into(d, s, "copy_");
  });
}

}  // extern "C"

// ---- repeat, tile, flip, fliplr, flipud, roll (core/repeat_flip_roll.h) ------------------

extern "C" {

ct_tensor* ct_repeat(const ct_tensor* t, int n, const int64_t* repeats) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_repeat");
    check_dims_array(n, repeats, "ct_repeat", "repeats");
    return to_handle(ag::repeat(x, IntList(repeats, size_t(n))));
  });
}

ct_tensor* ct_tile(const ct_tensor* t, int n, const int64_t* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_tile");
    check_dims_array(n, dims, "ct_tile", "dims");
    return to_handle(ag::tile(x, IntList(dims, size_t(n))));
  });
}

ct_tensor* ct_flip(const ct_tensor* t, int n, const int64_t* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_flip");
    check_dims_array(n, dims, "ct_flip", "dims");
    return to_handle(ag::flip(x, IntList(dims, size_t(n))));
  });
}

ct_tensor* ct_fliplr(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_fliplr");
    CT_CHECK(x.ndim() >= 2, Shape, "Input must be >= 2-d.");
    const int64_t d[1] = {1};
    return to_handle(ag::flip(x, IntList(d, 1)));
  });
}

ct_tensor* ct_flipud(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_flipud");
    CT_CHECK(x.ndim() >= 1, Shape, "Input must be >= 1-d.");
    const int64_t d[1] = {0};
    return to_handle(ag::flip(x, IntList(d, 1)));
  });
}

ct_tensor* ct_roll(const ct_tensor* t, int nshifts, const int64_t* shifts, int ndims, const int64_t* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_roll");
    check_dims_array(nshifts, shifts, "ct_roll", "shifts");
    check_dims_array(ndims, dims, "ct_roll", "dims");
    return to_handle(ag::roll(x, IntList(shifts, size_t(nshifts)), IntList(dims, size_t(ndims))));
  });
}

}  // extern "C"
