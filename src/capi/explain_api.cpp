// ct_explain: the core's explanation (core/explain.h) copied out with snprintf's rules.
#include <algorithm>
#include <cstring>

#include "capi/guard.h"
#include "core/explain.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

int64_t ct_explain(const ct_tensor* a, const ct_tensor* b, char* buf, int64_t cap) {
  return guard<int64_t>(-1, [&] {
    const Tensor& x = tensor_arg(a, "ct_explain", "a");
    const Tensor* y = b != nullptr ? &tensor_arg(b, "ct_explain", "b") : nullptr;
    CT_CHECK(cap >= 0, InvalidArgument, "ct_explain: negative capacity " << cap);
    CT_CHECK(cap == 0 || buf != nullptr, InvalidArgument, "ct_explain: buf is NULL but cap is " << cap);
    const std::string s = explain(x, y);
    if (cap > 0) {
      const size_t n = std::min(s.size(), size_t(cap - 1));
      std::memcpy(buf, s.data(), n);
      buf[n] = '\0';
    }
    return int64_t(s.size());
  });
}

}  // extern "C"
