// torch's Tensor.view(dtype) (aten view_dtype) and its rank-aware transposes T and mT.
#pragma once

#include "tensor.h"

namespace ct {

// The same bytes read as `dtype`: a new Tensor on t's storage that shares t's version
// counter but is NOT a view (no base), as torch's non-differentiable view (Note [dtype
// views] in dtype_view.cpp).  Geometry and errors are torch 2.13's.
Ref<Tensor> view_dtype(const Tensor& t, DType dtype);

// torch's mT's rule: ndim 0 (t itself; torch warns, the bindings do) or >= 2; otherwise
// throws Shape with torch's message.  Returns whether t is 0-dim.
bool check_matrix_transpose(const Tensor& t);

}  // namespace ct
