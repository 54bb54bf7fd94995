// The C boundary: handles <-> core objects, argument checks, and the one guard that turns
// every exception into a status code plus a thread-local message.  Nothing else lives here.
#pragma once

#include <atomic>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>

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

// Note [Math bits at the boundary]
// An op that reads a tensor's values takes it with value_arg instead of tensor_arg.  A tensor
// with a conj or neg bit (Note [Math bits] in core/tensor.h) is then replaced, for this call,
// by a resolved clone: torch's MathBitsFallback.  When the op wrote the clone (its version
// moved), the clone is copied back into the tensor as the call ends (copy_ applies the bits;
// a resized clone resizes the tensor first), so `x.conj().add_(1)` changes x as torch does,
// with one version bump; a result that is the clone itself is the tensor again.  A failing
// call drops the clones.  Views, metadata, copy_/clone/to and the bit functions take
// tensor_arg: they see the bits.  The cost for a tensor without bits is one byte compare, and
// one relaxed load of a process-wide counter per call (no thread-local access).
const Tensor& resolve_for_call(const Tensor& t);
size_t resolutions_mark_slow();
void finish_resolutions(size_t mark, ct_tensor** result);
void drop_resolutions(size_t mark) noexcept;
extern std::atomic<int> g_resolutions_pending;
inline bool resolutions_pending() { return g_resolutions_pending.load(std::memory_order_relaxed) != 0; }
inline size_t resolutions_mark() { return resolutions_pending() ? resolutions_mark_slow() : 0; }
inline const Tensor& value_arg(const ct_tensor* t, const char* op, const char* name = "tensor") {
  const Tensor& x = tensor_arg(t, op, name);
  if (__builtin_expect(x.math_bits() == 0, 1)) return x;
  return resolve_for_call(x);
}

// Hands a new reference to C.
inline ct_tensor* to_handle(Ref<Tensor> t) { return reinterpret_cast<ct_tensor*>(t.release()); }
inline ct_storage* to_handle(Ref<Storage> s) { return reinterpret_cast<ct_storage*>(s.release()); }
inline Tensor* from_handle(ct_tensor* t) { return reinterpret_cast<Tensor*>(t); }

// Runs body; on an exception records the status and message (prefixed by nothing: core
// messages already name the operation) and returns `failure`.
template <class R, class F>
R guard(R failure, F&& body) noexcept {
  const size_t mark = resolutions_mark();  // Note [Math bits at the boundary]
  try {
    R r = body();
    if (resolutions_pending()) {
      if constexpr (std::is_same_v<R, ct_tensor*>) finish_resolutions(mark, &r);
      else finish_resolutions(mark, nullptr);
    }
    return r;
  } catch (const Error& e) {
    set_error(static_cast<ct_status>(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    set_error(CT_ERR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    set_error(CT_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    set_error(CT_ERR_INTERNAL, "internal error: unknown exception");
  }
  if (resolutions_pending()) drop_resolutions(mark);
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
