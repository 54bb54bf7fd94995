// The views between complex tensors and their real parts: torch's view_as_real,
// view_as_complex, real and imag.  Each is a view (base = the root of t, shared version
// counter) over the same bytes, as torch's.
#pragma once

#include "tensor.h"

namespace ct {

// complex (..., n) -> float (..., n, 2): every stride and the offset doubled, a last dim of
// size 2 and stride 1 (real part, imaginary part).
Ref<Tensor> view_as_real(const Tensor& t);
// float/double (..., 2) with a last stride of 1, even strides and an even offset ->
// complex64/complex128 (...).  torch's checks and messages, in its order.
Ref<Tensor> view_as_complex(const Tensor& t);
// t.real: select(view_as_real(t), -1, 0) for a complex t; a real t itself (the caller
// returns the same object, as torch).
Ref<Tensor> real_view(const Tensor& t);
// t.imag: select(view_as_real(t), -1, 1); a real t is refused with torch's message.
Ref<Tensor> imag_view(const Tensor& t);

}  // namespace ct
