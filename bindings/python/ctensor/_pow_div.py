"""pow (**), floor_divide (//), remainder (%) and fmod as torch 2.13's Python API.

// and % are C operator slots (fastpath.c) with torch's wrapped-number rules, as + - * /;
the methods and functions here reach the same code through _compute._arith_c.  ** goes
through pow_hook (the C slot calls it), because torch's pow(Tensor, int) has rules of its
own: an integer exponent keeps an integer tensor's dtype and refuses a negative exponent
(ct_pow_int), where other ops treat an int as a wrapped 0-dim tensor."""

from __future__ import annotations

import builtins

from . import _C
from . import _compute as C
from . import _dtype as D

Tensor = _C.Tensor

_FLOORDIV, _MOD, _FMOD = 4, 5, 6  # _arith_c op codes (fastpath.c)


def _number(value):
    """value as a Python bool/int/float/complex (a NumPy scalar converted), or None."""
    if isinstance(value, (builtins.bool, int, float, complex)):
        return value
    converted = C.operand_hook(value, False)
    return None if converted is NotImplemented else converted


def _wrapped(value, like):
    """A Python bool/int next to a non-floating tensor, as torch's wrapped number: a 0-dim
    tensor whose dtype keeps the promotion torch computes (bool stays bool; an int takes an
    integer tensor's dtype, wrapping as torch's cast does, or int64 next to bool)."""
    if isinstance(value, builtins.bool):
        return _C.ct_full([], float(value), D.bool)
    C._int_dtype(value)
    dt = like.dtype if like.dtype is not D.bool else D.int64
    bits = dt.itemsize * 8
    v = value % (1 << bits)
    if v >= 1 << (bits - 1) and dt is not D.uint8:
        v -= 1 << bits
    return C._scalar_tensor(v, dt)


def _pow_tensor_number(self, exponent, inplace):
    """self ** exponent for a Python number exponent (torch's pow(Tensor, Scalar))."""
    if isinstance(exponent, builtins.bool):
        if self.dtype is D.bool:
            # bool ** bool stays bool: torch takes its exponent 0 / 1 shortcuts (ones, a copy)
            if inplace:
                return self if exponent else self.fill_(True)
            return self.clone() if exponent else _C.ct_ones(list(self.shape), D.bool)
        exponent = int(exponent)
    if isinstance(exponent, int):
        if -2**63 <= exponent < 2**63:
            if inplace:
                _C.ct_pow_int_(self, exponent)
                return self
            return _C.ct_pow_int(self, exponent)
        C._int_dtype(exponent)  # past uint64: Python's OverflowError, as torch
        if not self.dtype.is_floating_point:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
    if isinstance(exponent, complex):
        if inplace:
            _C.ct_pow_complex_scalar_(self, exponent.real, exponent.imag)
            return self
        return _C.ct_pow_complex_scalar(self, exponent.real, exponent.imag)
    exponent = float(exponent)
    if inplace:
        _C.ct_pow_scalar_(self, exponent)
        return self
    return _C.ct_pow_scalar(self, exponent)


def _rpow(base, exponent):
    """base ** exponent for a Python number base (torch.pow(Scalar, Tensor))."""
    if isinstance(base, complex):
        return _C.ct_rpow_complex_scalar(exponent, base.real, base.imag)
    if isinstance(base, float) or exponent.dtype.is_floating_point or exponent.dtype.is_complex:
        return _C.ct_rpow_scalar(exponent, float(base))
    return _C.ct_pow(_wrapped(base, exponent), exponent)


def pow_hook(a, b, inplace):
    """The ** / **= slot: a ** b with either side the tensor; NotImplemented for operands
    torch does not take (Python then raises its TypeError)."""
    if isinstance(a, Tensor):
        if isinstance(b, Tensor):
            if inplace:
                _C.ct_pow_(a, b)
                return a
            return _C.ct_pow(a, b)
        n = _number(b)
        if n is None:
            return NotImplemented
        return _pow_tensor_number(a, n, inplace)
    n = _number(a)
    if n is None or inplace:
        return NotImplemented
    return _rpow(n, b)


def _pow_method(name, self, exponent, inplace):
    r = pow_hook(self, exponent, inplace)
    if r is NotImplemented:
        C._check_numpy_uint(exponent)
        raise C._invalid_combination(name, (exponent,), ("Tensor exponent", "Number exponent"))
    return r


_OVERLOADS = {  # torch's signatures, for its "invalid combination of arguments" message
    "floor_divide": ("Tensor input, Tensor other, *, Tensor out = None", "Tensor input, Number other"),
    "remainder": ("Tensor input, Tensor other, *, Tensor out = None", "Number self, Tensor other",
                  "Tensor input, Number other, *, Tensor out = None"),
    "fmod": ("Tensor input, Tensor other, *, Tensor out = None", "Tensor input, Number other, *, Tensor out = None"),
}


def _arith(fn, op, self, other, inplace, function=False):
    """self op other through the C operators' code; function: torch.fn(input, other), whose
    refusal lists both arguments (a method's lists other only)."""
    if not isinstance(other, Tensor) and _number(other) is None:
        C._check_numpy_uint(other)
        if function:
            raise C._invalid_combination(fn, (self, other), _OVERLOADS[fn])
        raise C._invalid_combination(fn, (other,), ("Tensor other", "Number other"))
    return C._arith(fn, op, self, other, C._NO_ALPHA, inplace, 2 if function else 1)


class _PowDivMethods:
    """Namespace of the methods installed into ctensor.Tensor (never instantiated)."""

    def pow(self, exponent):
        """self ** exponent elementwise (a new tensor; torch's promotion)."""
        return _pow_method("pow", self, exponent, False)

    def pow_(self, exponent):
        """In place: writes self ** exponent into self and returns self."""
        return _pow_method("pow_", self, exponent, True)

    def floor_divide(self, other):
        """self // other elementwise, rounding toward -inf (a new tensor)."""
        return _arith("floor_divide", _FLOORDIV, self, other, False)

    def floor_divide_(self, other):
        """In place: writes self // other into self and returns self."""
        return _arith("floor_divide_", _FLOORDIV, self, other, True)

    def remainder(self, other):
        """self % other elementwise, with the sign of other (a new tensor)."""
        return _arith("remainder", _MOD, self, other, False)

    def remainder_(self, other):
        """In place: writes self % other into self and returns self."""
        return _arith("remainder_", _MOD, self, other, True)

    def fmod(self, other):
        """C's fmod elementwise, with the sign of self (a new tensor)."""
        return _arith("fmod", _FMOD, self, other, False)

    def fmod_(self, other):
        """In place: writes fmod(self, other) into self and returns self."""
        return _arith("fmod_", _FMOD, self, other, True)


def install():
    """Adds the methods to ctensor.Tensor and wires ** (the C slot) to pow_hook."""
    _C._setup_pow(pow_hook)
    for name, value in vars(_PowDivMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions ------------------------------------------------------------------------

def pow(input, exponent):
    """torch.pow(input, exponent): input or exponent may be a Python number, not both."""
    if not isinstance(input, Tensor):
        n = _number(input)
        if n is not None and isinstance(exponent, Tensor):
            return _rpow(n, exponent)
        raise C._invalid_combination("pow", (input, exponent), (
            "Tensor input, Tensor exponent, *, Tensor out = None",
            "Number self, Tensor exponent, *, Tensor out = None",
            "Tensor input, Number exponent, *, Tensor out = None"))
    r = pow_hook(input, exponent, False)
    if r is NotImplemented:
        C._check_numpy_uint(exponent)
        raise C._invalid_combination("pow", (input, exponent), (
            "Tensor input, Tensor exponent, *, Tensor out = None",
            "Number self, Tensor exponent, *, Tensor out = None",
            "Tensor input, Number exponent, *, Tensor out = None"))
    return r


def _function_with_number_input(name, op, input, other):
    """torch.<name>(input, other) where input may be a Python number (other then a tensor)."""
    if not isinstance(input, Tensor):
        n = _number(input)
        if n is None or not isinstance(other, Tensor):
            raise C._invalid_combination(name, (input, other), _OVERLOADS[name])
        input = n
    return _arith(name, op, input, other, False, True)


def floor_divide(input, other):
    """torch.floor_divide(input, other): input // other; input may be a Python number."""
    return _function_with_number_input("floor_divide", _FLOORDIV, input, other)


def remainder(input, other):
    """torch.remainder(input, other): input % other; input may be a Python number."""
    return _function_with_number_input("remainder", _MOD, input, other)


def fmod(input, other):
    """torch.fmod(input, other): C's fmod, the sign of input."""
    if not isinstance(input, Tensor):
        raise C._invalid_combination("fmod", (input, other), _OVERLOADS["fmod"])
    return _arith("fmod", _FMOD, input, other, False, True)
