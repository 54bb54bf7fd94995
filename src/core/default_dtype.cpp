#include "default_dtype.h"

#include <atomic>

#include "error.h"

namespace ct {
namespace {

// Relaxed: the value is one word, and torch gives no ordering guarantee between a
// set_default_dtype on one thread and tensor creation on another either.
std::atomic<DType> g_default{DType::Float32};

}  // namespace

DType default_float_dtype() { return g_default.load(std::memory_order_relaxed); }

void set_default_float_dtype(DType d, const char* op) {
  CT_CHECK(is_floating(d), DType,
           op << ": only floating-point types are supported as the default type, got " << dtype_name(d));
  g_default.store(d, std::memory_order_relaxed);
}

}  // namespace ct
