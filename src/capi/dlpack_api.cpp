// DLPack at the boundary (Note [DLPack ownership] in core/dlpack.h), and the read-only query
// that goes with versioned imports.
#include "capi/guard.h"
#include "core/dlpack.h"
#include "ctensor_dlpack.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_tensor* ct_from_dlpack(DLManagedTensor* m) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(from_dlpack(m)); });
}

ct_tensor* ct_from_dlpack_versioned(DLManagedTensorVersioned* m) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(from_dlpack_versioned(m)); });
}

DLManagedTensor* ct_to_dlpack(const ct_tensor* t) {
  return guard<DLManagedTensor*>(nullptr, [&] { return to_dlpack(tensor_arg(t, "to_dlpack")); });
}

DLManagedTensorVersioned* ct_to_dlpack_versioned(const ct_tensor* t) {
  return guard<DLManagedTensorVersioned*>(nullptr,
                                          [&] { return to_dlpack_versioned(tensor_arg(t, "to_dlpack_versioned")); });
}

int ct_storage_is_read_only(const ct_storage* s) {
  return guard<int>(-1, [&] { return storage_arg(s, "ct_storage_is_read_only").read_only() ? 1 : 0; });
}

}  // extern "C"
