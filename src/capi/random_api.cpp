// Random numbers: ct_manual_seed, ct_rand, ct_randn, ct_randint.
#include "capi/guard.h"
#include "core/ops/random.h"
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

void ct_manual_seed(uint64_t seed) { manual_seed(seed); }

ct_tensor* ct_rand(int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_rand");
    return to_handle(rand(sizes_arg(ndim, sizes, "ct_rand"), d));
  });
}

ct_tensor* ct_randn(int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_randn");
    return to_handle(randn(sizes_arg(ndim, sizes, "ct_randn"), d));
  });
}

ct_tensor* ct_randint(int64_t low, int64_t high, int ndim, const int64_t* sizes, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const DType d = dtype_arg(dtype, "ct_randint");
    return to_handle(randint(low, high, sizes_arg(ndim, sizes, "ct_randint"), d));
  });
}

}  // extern "C"
