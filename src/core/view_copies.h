// Core pieces of torch's *_copy ops that differ from their view op (the rest is the view
// followed by a contiguous copy: ag::copy_of_view).
#pragma once

#include "tensor.h"

namespace ct {

// torch's narrow_copy checks (narrow_copy_dense_cpu_out), which are not narrow's: a
// negative length reads "start (0) + length (-1) exceeds dimension size (2).", a dim past
// the end fails torch's bare TORCH_CHECK(dim < ...).  Returns the wrapped dim.
int64_t check_narrow_copy(const Tensor& t, int64_t dim, int64_t start, int64_t length);

}  // namespace ct
