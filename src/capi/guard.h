// The C boundary: handles <-> core objects, argument checks, and the one guard that turns
// every exception into a status code plus a thread-local message.  Nothing else lives here.
#pragma once

#include <cstring>
#include <new>
#include <string>

#include "core/dtype.h"
#include "core/error.h"
#include "core/memory_format.h"
#include "core/shape.h"
#include "core/storage.h"
#include "core/tensor.h"
#include "ctensor.h"

// A handle is a pointer to the core object itself: no wrapper, no table (the ownership rules
// are in include/ctensor.h, "Ownership").  These empty types only give C distinct names.
struct ct_tensor {};
struct ct_storage {};

namespace ct::capi {

// Records a failure for ct_last_status()/ct_last_error() on this thread.
void set_error(ct_status status, const std::string& message);

// Borrowed core object behind a handle; throws InvalidArgument naming op when the handle is
// NULL or, best effort (a magic number cleared on free), no longer a live tensor: a released
// handle is undefined behaviour for the caller (include/ctensor.h), this check only catches some.
const Tensor& tensor_arg(const ct_tensor* t, const char* op, const char* name = "tensor");
const Storage& storage_arg(const ct_storage* s, const char* op);

// A ct_dtype from C, read as raw bits: C may pass any int (e.g. (ct_dtype)42), and loading an
// out-of-range value through the enum type would be undefined in C++.
inline DType dtype_arg(const ct_dtype& d, const char* op) {
  int raw;
  static_assert(sizeof(raw) == sizeof(d), "ct_dtype is int-sized");
  std::memcpy(&raw, &d, sizeof raw);
  return checked_dtype(raw, op);
}

// A C array of ndim sizes (or strides) as a list, after the header's checks on ndim and NULL.
inline IntList dims_arg(int ndim, const int64_t* p, const char* op, const char* what = "sizes") {
  check_dims_array(ndim, p, op, what);
  return IntList(p, size_t(ndim));
}

// A ct_memory_format from C, read as raw bits for the same reason.
inline MemoryFormat format_arg(const ct_memory_format& f, const char* op) {
  int raw;
  static_assert(sizeof(raw) == sizeof(f), "ct_memory_format is int-sized");
  std::memcpy(&raw, &f, sizeof raw);
  return checked_memory_format(raw, op);
}

// Hands a new reference to C.
inline ct_tensor* to_handle(Ref<Tensor> t) { return reinterpret_cast<ct_tensor*>(t.release()); }
inline ct_storage* to_handle(Ref<Storage> s) { return reinterpret_cast<ct_storage*>(s.release()); }
inline Tensor* from_handle(ct_tensor* t) { return reinterpret_cast<Tensor*>(t); }

// Runs body; on an exception records the status and message (prefixed by nothing: core
// messages already name the operation) and returns `failure`.
template <class R, class F>
R guard(R failure, F&& body) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    set_error(static_cast<ct_status>(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    set_error(CT_ERR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    set_error(CT_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    set_error(CT_ERR_INTERNAL, "internal error: unknown exception");
  }
  return failure;
}

// For functions returning ct_status.
template <class F>
ct_status guard_status(F&& body) noexcept {
  return guard<ct_status>(CT_ERR_INTERNAL, [&] {
    body();
    return CT_OK;
  }) == CT_OK ? CT_OK : ct_last_status();
}

}  // namespace ct::capi
