"""Reading element values into Python (item, tolist), through the data pointer.

These read memory directly rather than through ct_item, whose double would round int64
values beyond 2**53: the tensor is converted to a wide dtype (int64 / float64 / bool) and made
contiguous by the C library, and its bytes are copied out while the tensor is alive."""

from __future__ import annotations

import array
import ctypes
import struct

from . import _C
from . import _dtype as D

__all__ = ["item", "flat_values", "tolist"]

_STRUCT = {D.bool: "?", D.uint8: "B", D.int8: "b", D.int16: "h", D.int32: "i", D.int64: "q",
           D.float16: "e", D.float32: "f", D.float64: "d", D.complex64: "ff", D.complex128: "dd"}


def item(t):
    """The value of a one-element tensor as a Python bool, int, float or complex."""
    if t.numel() != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    dt = t.dtype
    t = _C.ct_resolve_neg(_C.ct_resolve_conj(t))  # the value as read, not the stored bits
    raw = ctypes.string_at(t.data_ptr(), dt.itemsize)
    if dt is D.bfloat16:  # the upper half of a float32
        return struct.unpack("<f", b"\x00\x00" + raw)[0]
    if dt.is_complex:
        return complex(*struct.unpack("<" + _STRUCT[dt], raw))
    return struct.unpack("<" + _STRUCT[dt], raw)[0]


def flat_values(t):
    """Every value of t in C order, as a list of Python scalars."""
    dt = t.dtype
    if dt is D.bool:
        wide, code = D.bool, "B"
    elif dt.is_complex:
        wide, code = D.complex128, "d"  # read as pairs of doubles
    elif dt.is_floating_point:
        wide, code = D.float64, "d"
    else:
        wide, code = D.int64, "q"
    if t.requires_grad:
        t = _C.ct_detach(t)  # reading values records nothing
    # a clone resolves a conj or neg view's bits; ct_to of the same dtype is t itself
    c = _C.ct_contiguous(_C.ct_resolve_neg(_C.ct_resolve_conj(_C.ct_to(t, wide))))
    n = c.numel()
    if n == 0:
        return []
    a = array.array(code)
    a.frombytes(ctypes.string_at(c.data_ptr(), n * wide.itemsize))
    vals = a.tolist()
    if dt is D.bool:
        return [v != 0 for v in vals]
    if dt.is_complex:
        return [complex(vals[2 * i], vals[2 * i + 1]) for i in range(n)]
    return vals


def nest(vals, sizes):
    """Nested lists of the given sizes from a flat C-order list."""
    if not sizes:
        return vals[0]
    if len(sizes) == 1:
        return list(vals)
    step = 1
    for s in sizes[1:]:
        step *= s
    return [nest(vals[i * step:(i + 1) * step], sizes[1:]) for i in range(sizes[0])]


def tolist(t):
    """t as nested lists of Python scalars (a scalar for a 0-dim tensor)."""
    return nest(flat_values(t), tuple(t.shape))
