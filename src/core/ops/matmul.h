// Matrix products with torch.matmul's rules.
#pragma once

#include "core/tensor.h"

namespace ct {

// torch.matmul: 1-D x 1-D dot (0-dim result); 2-D x 2-D mm; 1-D x 2-D and 2-D x 1-D (a
// dim prepended / appended, then removed); N-D batched, broadcasting the batch dims.
// Operands must have the same dtype, and errors (shapes, dtypes, torch's missing CPU kernels
// for bool) are raised in the order and words of the torch 2.13 kernel (dot, mv, mm or bmm)
// that torch.matmul would call.  The result is a new contiguous tensor.  float32/float64 go
// through BLAS, without copying operands whose strides BLAS accepts; other dtypes use a
// blocked loop (integers wrap; float16/bfloat16 accumulate in float).
Ref<Tensor> matmul(const Tensor& a, const Tensor& b);
// torch.vdot: sum(conj(a[i]) * b[i]) of two 1-D tensors of one dtype (dot for real dtypes), a
// 0-dim result; checks and messages as torch's (dims, dtype, sizes, no bool kernel).
Ref<Tensor> vdot(const Tensor& a, const Tensor& b);
void check_vdot(const Tensor& a, const Tensor& b);  // vdot's checks alone

}  // namespace ct
