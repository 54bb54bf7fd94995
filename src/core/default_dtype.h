// The default floating dtype (torch.get_default_dtype): what a float result gets when nothing
// else decides it.  Process-wide, as torch's.
#pragma once

#include "dtype.h"

namespace ct {

// float32 until set_default_float_dtype changes it.
DType default_float_dtype();
// Accepts float16, bfloat16, float32, float64; anything else throws DType with torch's text,
// prefixed by op.
void set_default_float_dtype(DType d, const char* op);

}  // namespace ct
