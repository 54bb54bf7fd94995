// Lifetime and introspection of tensors and storages.
#include <algorithm>
#include <cstring>

#include "capi/guard.h"
#include "core/format.h"
#include "core/shape.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_tensor_retain(ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    if (!t) return static_cast<ct_tensor*>(nullptr);
    const Tensor& x = tensor_arg(t, "ct_tensor_retain");
    // A root's count has 32 bits (Note [Views lent by their root] in core/storage.h); only a
    // loop of retains can come near it, since every other reference is an object in memory.
    const int64_t n = x.refcount();
    CT_CHECK(n < Tensor::kMaxReferences, InvalidArgument,
             "ct_tensor_retain: the tensor already has " << n << " references, the most one tensor can have");
    x.retain();
    return t;
  });
}

void ct_tensor_release(ct_tensor* t) {
  guard<int>(0, [&] {
    if (t) tensor_arg(t, "ct_tensor_release").release();
    return 0;
  });
}

ct_storage* ct_storage_retain(ct_storage* s) {
  return guard<ct_storage*>(nullptr, [&] {
    if (!s) return static_cast<ct_storage*>(nullptr);
    storage_arg(s, "ct_storage_retain").retain();
    return s;
  });
}

void ct_storage_release(ct_storage* s) {
  guard<int>(0, [&] {
    if (s) storage_arg(s, "ct_storage_release").release();
    return 0;
  });
}

int ct_tensor_ndim(const ct_tensor* t) {
  return guard<int>(-1, [&] { return tensor_arg(t, "ct_tensor_ndim").ndim(); });
}

int64_t ct_tensor_size(const ct_tensor* t, int dim) {
  return guard<int64_t>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_tensor_size");
    return x.size(wrap_dim(dim, x.ndim(), false));
  });
}

int64_t ct_tensor_stride(const ct_tensor* t, int dim) {
  return guard<int64_t>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_tensor_stride");
    return x.stride(wrap_dim(dim, x.ndim(), false));
  });
}

const int64_t* ct_tensor_sizes(const ct_tensor* t) {
  return guard<const int64_t*>(nullptr, [&] { return tensor_arg(t, "ct_tensor_sizes").sizes().data(); });
}

const int64_t* ct_tensor_strides(const ct_tensor* t) {
  return guard<const int64_t*>(nullptr, [&] { return tensor_arg(t, "ct_tensor_strides").strides().data(); });
}

int64_t ct_tensor_offset(const ct_tensor* t) {
  return guard<int64_t>(-1, [&] { return tensor_arg(t, "ct_tensor_offset").offset(); });
}

int64_t ct_tensor_numel(const ct_tensor* t) {
  return guard<int64_t>(-1, [&] { return tensor_arg(t, "ct_tensor_numel").numel(); });
}

ct_dtype ct_tensor_dtype(const ct_tensor* t) {
  return guard<ct_dtype>(static_cast<ct_dtype>(-1),
                         [&] { return static_cast<ct_dtype>(tensor_arg(t, "ct_tensor_dtype").dtype()); });
}

int ct_tensor_is_contiguous(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(tensor_arg(t, "ct_tensor_is_contiguous").is_contiguous()); });
}

void* ct_tensor_data(const ct_tensor* t) {
  return guard<void*>(nullptr, [&] { return static_cast<void*>(tensor_arg(t, "ct_tensor_data").data()); });
}

int ct_tensor_is_view(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(tensor_arg(t, "ct_tensor_is_view").is_view()); });
}

ct_tensor* ct_tensor_base(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(Ref<Tensor>::retain(tensor_arg(t, "ct_tensor_base").base()));
  });
}

int64_t ct_tensor_version(const ct_tensor* t) {
  return guard<int64_t>(-1, [&] {
    const Tensor& x = tensor_arg(t, "ct_tensor_version");
    CT_CHECK(x.tracks_version(), InvalidArgument, kNoVersionMessage);  // Note [Inference tensors]
    return x.version();
  });
}

int64_t ct_tensor_refcount(const ct_tensor* t) {
  return guard<int64_t>(-1, [&] { return tensor_arg(t, "ct_tensor_refcount").refcount(); });
}

ct_storage* ct_tensor_storage(const ct_tensor* t) {
  return guard<ct_storage*>(nullptr, [&] {
    return to_handle(Ref<Storage>::retain(tensor_arg(t, "ct_tensor_storage").storage()));
  });
}

uint64_t ct_tensor_storage_id(const ct_tensor* t) {
  return guard<uint64_t>(0, [&] { return tensor_arg(t, "ct_tensor_storage_id").storage()->id(); });
}

int64_t ct_tensor_to_string(const ct_tensor* t, char* buf, int64_t cap) {
  return guard<int64_t>(-1, [&] {
    const Tensor& x = value_arg(t, "ct_tensor_to_string");
    CT_CHECK(cap >= 0, InvalidArgument, "ct_tensor_to_string: negative capacity " << cap);
    CT_CHECK(cap == 0 || buf != nullptr, InvalidArgument, "ct_tensor_to_string: buf is NULL but cap is " << cap);
    const std::string s = repr(x);
    if (cap > 0) {
      const size_t n = std::min(s.size(), size_t(cap - 1));
      std::memcpy(buf, s.data(), n);
      buf[n] = '\0';
    }
    return int64_t(s.size());
  });
}

uint64_t ct_storage_id(const ct_storage* s) {
  return guard<uint64_t>(0, [&] { return storage_arg(s, "ct_storage_id").id(); });
}

void* ct_storage_data(const ct_storage* s) {
  return guard<void*>(nullptr, [&] { return static_cast<void*>(storage_arg(s, "ct_storage_data").data()); });
}

int64_t ct_storage_nbytes(const ct_storage* s) {
  return guard<int64_t>(-1, [&] { return storage_arg(s, "ct_storage_nbytes").nbytes(); });
}

int64_t ct_storage_refcount(const ct_storage* s) {
  return guard<int64_t>(-1, [&] { return storage_arg(s, "ct_storage_refcount").refcount(); });
}

}  // extern "C"
