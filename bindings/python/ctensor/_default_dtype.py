"""torch.set_default_dtype / get_default_dtype over the C state (ct_set_default_dtype), which
the core reads wherever torch uses the default (int tensor * 1.5, int / int, sqrt of ints, repr)
and the package reads for creation without a dtype (_dtype.default_float_dtype)."""

from __future__ import annotations

from . import _C
from . import _dtype as D

__all__ = ["set_default_dtype", "get_default_dtype"]


def set_default_dtype(d):
    """Makes d (float16, bfloat16, float32 or float64) the default floating dtype, process-wide."""
    if not isinstance(d, D.dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _C.ct_set_default_dtype(d)


def get_default_dtype():
    """The default floating dtype (ctensor.float32 unless set_default_dtype changed it)."""
    return D.default_float_dtype()
