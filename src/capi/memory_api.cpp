// Memory relations between tensors.
#include "capi/guard.h"
#include "core/overlap.h"

using namespace ct;
using namespace ct::capi;

extern "C" {

int ct_shares_storage(const ct_tensor* a, const ct_tensor* b) {
  return guard<int>(-1, [&] {
    const Tensor& x = tensor_arg(a, "ct_shares_storage", "a");
    const Tensor& y = tensor_arg(b, "ct_shares_storage", "b");
    return int(x.storage() == y.storage());
  });
}

int ct_may_overlap(const ct_tensor* a, const ct_tensor* b) {
  return guard<int>(-1, [&] {
    return int(may_overlap(tensor_arg(a, "ct_may_overlap", "a"), tensor_arg(b, "ct_may_overlap", "b")));
  });
}

int ct_overlaps(const ct_tensor* a, const ct_tensor* b) {
  return guard<int>(-1, [&] {
    const int r = overlaps(tensor_arg(a, "ct_overlaps", "a"), tensor_arg(b, "ct_overlaps", "b"));
    if (r == -2) {
      set_error(CT_ERR_INVALID_ARGUMENT,
                "ct_overlaps: the exact search exceeded its work bound; whether the tensors overlap is unknown "
                "(ct_may_overlap gives the conservative answer)");
    }
    return r;
  });
}

int ct_has_internal_overlap(const ct_tensor* t) {
  return guard<int>(-1, [&] { return int(has_internal_overlap(tensor_arg(t, "ct_has_internal_overlap"))); });
}

}  // extern "C"
