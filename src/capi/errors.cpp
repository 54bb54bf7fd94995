// Thread-local error state and the process-wide queries.
#include <string>

#include "capi/guard.h"
#include "core/copy.h"
#include "core/dtype.h"

namespace ct::capi {
namespace {
// initial-exec, as the core's thread-locals (the module's TLS block is static already, so this
// takes no more static TLS): t_status is then one %fs-relative access.  t_message, which has a
// destructor, still reads its guard through __tls_get_addr, but only when an error is set or read.
thread_local ct_status t_status __attribute__((tls_model("initial-exec"))) = CT_OK;
thread_local std::string t_message __attribute__((tls_model("initial-exec")));
}  // namespace

void set_error(ct_status status, const std::string& message) {
  t_status = status;
  try {
    t_message = message;
  } catch (...) {
    t_message.clear();  // keep the status even if the message cannot be stored
  }
}

const Tensor& tensor_arg(const ct_tensor* t, const char* op, const char* name) {
  CT_CHECK(t != nullptr, InvalidArgument, op << ": " << name << " is NULL");
  const Tensor* p = reinterpret_cast<const Tensor*>(t);
  CT_CHECK(p->valid(), InvalidArgument, op << ": " << name << " is not a live ct_tensor handle");
  return *p;
}

const Storage& storage_arg(const ct_storage* s, const char* op) {
  CT_CHECK(s != nullptr, InvalidArgument, op << ": storage is NULL");
  const Storage* p = reinterpret_cast<const Storage*>(s);
  CT_CHECK(p->valid(), InvalidArgument, op << ": storage is not a live ct_storage handle");
  return *p;
}

}  // namespace ct::capi

using namespace ct;
using namespace ct::capi;

extern "C" {

ct_status ct_last_status(void) { return t_status; }
const char* ct_last_error(void) { return t_message.c_str(); }
void ct_clear_error(void) {
  t_status = CT_OK;
  t_message.clear();
}
void ct_set_error(ct_status status, const char* message) {
  if (status == CT_OK) {
    ct_clear_error();
    return;
  }
  set_error(status, message ? message : "");
}

const char* ct_status_name(ct_status s) {
  // Read as raw bits, as dtype_arg does: C may pass any int, and switching on an enum value
  // outside its range is undefined in C++ (UBSan -fsanitize=enum reports it).
  int raw;
  static_assert(sizeof raw == sizeof s, "ct_status is int-sized");
  std::memcpy(&raw, &s, sizeof raw);
  switch (raw) {
    case CT_OK: return "CT_OK";
    case CT_ERR_INVALID_ARGUMENT: return "CT_ERR_INVALID_ARGUMENT";
    case CT_ERR_SHAPE: return "CT_ERR_SHAPE";
    case CT_ERR_DTYPE: return "CT_ERR_DTYPE";
    case CT_ERR_INDEX: return "CT_ERR_INDEX";
    case CT_ERR_NOT_VIEWABLE: return "CT_ERR_NOT_VIEWABLE";
    case CT_ERR_OVERLAP: return "CT_ERR_OVERLAP";
    case CT_ERR_OUT_OF_MEMORY: return "CT_ERR_OUT_OF_MEMORY";
    case CT_ERR_READ_ONLY: return "CT_ERR_READ_ONLY";
    case CT_ERR_INTERNAL: return "CT_ERR_INTERNAL";
  }
  return "CT_UNKNOWN_STATUS";
}

const char* ct_version(void) { return CT_VERSION_STRING; }

const char* ct_dtype_name(ct_dtype d) {
  return guard<const char*>(nullptr, [&] { return dtype_name(dtype_arg(d, "ct_dtype_name")); });
}

int64_t ct_dtype_itemsize(ct_dtype d) {
  return guard<int64_t>(-1, [&] { return itemsize(dtype_arg(d, "ct_dtype_itemsize")); });
}

int64_t ct_live_tensors(void) { return live_tensors(); }
int64_t ct_live_storages(void) { return live_storages(); }
void ct_set_num_threads(int n) { set_num_threads(n); }
int ct_get_num_threads(void) { return get_num_threads(); }

}  // extern "C"
