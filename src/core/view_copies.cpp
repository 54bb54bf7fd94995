#include "view_copies.h"

#include "error.h"
#include "shape.h"

namespace ct {

int64_t check_narrow_copy(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  CT_CHECK(t.ndim() > 0, Index, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = dim;
  if (dim < 0) {
    d = wrap_dim(dim, t.ndim());
  } else {
    CT_CHECK(dim < t.ndim(), Shape,
             "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  (Could this error "
             "message be improved?  If so, please report an enhancement request to PyTorch.)");
  }
  const int64_t size = t.size(int(d));
  CT_CHECK(start >= -size && start <= size, Index,
           "start out of range (expected to be in range of [" << -size << ", " << size << "], but got " << start
                                                              << ")");
  if (start < 0) start += size;
  CT_CHECK(length >= 0 && start <= size - length, Shape,
           "start (" << start << ") + length (" << length << ") exceeds dimension size (" << size << ").");
  return d;
}

}  // namespace ct
