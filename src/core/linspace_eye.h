// torch.linspace and torch.eye: new contiguous tensors (see include/ctensor.h, Creation).
#pragma once

#include <cstdint>

#include "tensor.h"

namespace ct {

// steps values from start to end, computed as torch 2.13's CPU kernel computes them.
Ref<Tensor> linspace(double start, double end, int64_t steps, DType dtype);
// An n x m matrix with ones on the diagonal.
Ref<Tensor> eye(int64_t n, int64_t m, DType dtype);

}  // namespace ct
