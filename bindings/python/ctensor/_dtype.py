"""ctensor dtypes: twelve singleton objects named and printed as torch's (``ctensor.float32``)."""

from __future__ import annotations

import builtins

__all__ = ["dtype", "DTYPES", "promote_types", "default_float_dtype", "default_complex_dtype", "from_python_type"]


class ModuleConstant:
    """A singleton named by a module attribute (ctensor.float32, ctensor.channels_last): printed
    as ``ctensor.<name>``, pickled by that name, and its own copy."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ctensor." + self._name

    __str__ = __repr__

    def __reduce__(self):
        return self._name  # pickled as the module attribute ctensor.<name>

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class dtype(ModuleConstant):
    """An element type.  ``ctensor.float32`` is ``ct_dtype`` ``CT_FLOAT32`` (8)."""

    __slots__ = ("_code", "_name", "itemsize", "is_floating_point", "is_signed", "is_complex")

    def __init__(self, code: int, name: str, itemsize: int, is_floating_point: bool, is_signed: bool,
                 is_complex: builtins.bool = False):
        self._code = code
        self._name = name
        self.itemsize = itemsize
        self.is_floating_point = is_floating_point
        self.is_signed = is_signed
        self.is_complex = is_complex

    def to_real(self) -> "dtype":
        """torch's dtype.to_real(): the dtype of a complex dtype's parts; a real dtype itself."""
        return {complex64: float32, complex128: float64}.get(self, self)

    def to_complex(self) -> "dtype":
        """torch's dtype.to_complex(): complex64 for float32 and bfloat16, complex128 for float64; a
        complex dtype itself.  float16 (torch: complex32) and the integer types raise."""
        if self.is_complex:
            return self
        if self is float32 or self is bfloat16:
            return complex64
        if self is float64:
            return complex128
        if self is float16:
            raise RuntimeError("ctensor has no complex32 dtype (torch's complex type of float16)")
        from ._compute import _TORCH_NAME
        raise RuntimeError(f"Unknown Complex ScalarType for {_TORCH_NAME[self]}")


# Numbers are ct_dtype's (ABI); order matters: DTYPES[code] is the dtype of that code.
bool = dtype(0, "bool", 1, False, False)
uint8 = dtype(1, "uint8", 1, False, False)
int8 = dtype(2, "int8", 1, False, True)
int16 = dtype(3, "int16", 2, False, True)
int32 = dtype(4, "int32", 4, False, True)
int64 = dtype(5, "int64", 8, False, True)
float16 = dtype(6, "float16", 2, True, True)
bfloat16 = dtype(7, "bfloat16", 2, True, True)
float32 = dtype(8, "float32", 4, True, True)
float64 = dtype(9, "float64", 8, True, True)
complex64 = dtype(10, "complex64", 8, False, True, True)
complex128 = dtype(11, "complex128", 16, False, True, True)

DTYPES = (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)


def default_float_dtype() -> dtype:
    """The process-wide default floating dtype (ct_get_default_dtype; torch.get_default_dtype)."""
    from . import _C  # late: _C imports this module's dtypes at setup
    return DTYPES[_C.ct_get_default_dtype()]


def default_complex_dtype() -> dtype:
    """The complex dtype of the default float dtype (torch: complex64 for float32)."""
    return complex128 if default_float_dtype() is float64 else complex64


def from_python_type(t):
    """torch's reading of a Python type as a dtype (dtype=float is float64, int int64, bool bool,
    complex complex128); None for anything else."""
    return ({builtins.float: float64, builtins.int: int64, builtins.bool: bool, builtins.complex: complex128}.get(t)
            if isinstance(t, type) else None)


def uint8_wrapped(value, d: dtype):
    """An integral fill value as torch takes it for dtype d: a negative Python int in [-255, 0)
    wraps for uint8 (torch's overflow check allows it; -1 fills 255); anything else unchanged
    (the C call then refuses what the dtype cannot hold).  Callers pass integers only: torch
    refuses a float -1.0 for uint8."""
    if d is uint8 and -255 <= value < 0:
        return int(value) + 256
    return value


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types for ctensor's twelve dtypes."""
    for pos, (arg, value) in enumerate((("type1", a), ("type2", b)), 1):
        if not isinstance(value, dtype):
            raise TypeError(f"promote_types(): argument '{arg}' (position {pos}) must be ctensor.dtype, "
                            f"not {type(value).__name__}")
    if a is b:
        return a
    if a is bool:
        return b
    if b is bool:
        return a
    if a.is_complex or b.is_complex:  # the wider of the complex one and the other's precision
        wide = (complex128, float64)
        return complex128 if a in wide or b in wide else complex64
    if a.is_floating_point or b.is_floating_point:
        if not a.is_floating_point:
            return b
        if not b.is_floating_point:
            return a
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if a.itemsize >= b.itemsize else b
    # two integer types
    if a is uint8 or b is uint8:
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize >= b.itemsize else b
