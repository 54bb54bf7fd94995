"""rand_like, randn_like and randint_like: random tensors shaped and laid out as an input.

The layout is empty_like's (the preserve rule, or the memory_format asked for); the values come
from ctensor's one generator, drawn as ct_rand/ct_randn/ct_randint draw them for a contiguous
tensor and placed in the result's memory order, as torch fills a fresh tensor.  The result is a
new tensor with version 0 (torch's factories bump nothing) and no graph."""

from __future__ import annotations

import operator

from . import _C
from . import _dtype as D
from ._memory_format import _like_args, _requires_grad, preserve_format

Tensor = _C.Tensor

__all__ = ["rand_like", "randn_like", "randint_like"]

# c10's ScalarType names, which torch's "not implemented for" messages use.
_SCALAR_TYPE_NAMES = {D.bool: "Bool", D.uint8: "Byte", D.int8: "Char", D.int16: "Short", D.int32: "Int",
                      D.int64: "Long", D.float16: "Half", D.bfloat16: "BFloat16", D.float32: "Float",
                      D.float64: "Double"}


def _laid_out_like(input, dtype, code, flat):
    """flat (contiguous, numel values) seen in memory order with the strides empty_like would give,
    then copied: a dense result whose k-th element in memory is flat[k]."""
    strides = _C.ct_empty_like(input, dtype, code).stride()
    return _C.ct_clone(flat.as_strided(tuple(input.shape), strides, 0))


def _check_generator(generator):
    if generator is not None:
        raise TypeError("ctensor has one process-wide generator: generator= is not supported")


def _floating_like(fn, kernel, draw, input, generator, dtype, layout, device, requires_grad, memory_format):
    d, code = _like_args(fn, input, dtype, device, memory_format, layout)
    _check_generator(generator)
    if not (d.is_floating_point or d.is_complex):  # complex: independent real and imaginary draws, as torch
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_SCALAR_TYPE_NAMES[d]}\'')
    out = _laid_out_like(input, d, code, draw((input.numel(),), d))
    return _requires_grad(out, requires_grad)


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=preserve_format):
    """Uniform in [0, 1), input's shape, dtype (or dtype=) and layout (empty_like's); floating and complex
    dtypes (a complex one: real and imaginary parts each uniform)."""
    return _floating_like("rand_like", "check_uniform_bounds", _C.ct_rand, input, generator, dtype, layout,
                          device, requires_grad, memory_format)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=preserve_format):
    """Standard normal, input's shape, dtype (or dtype=) and layout (empty_like's); floating and complex
    dtypes (a complex one: the standard complex normal, each part of variance 1/2)."""
    return _floating_like("randn_like", "normal_kernel_cpu", _C.ct_randn, input, generator, dtype, layout,
                          device, requires_grad, memory_format)


_RANDINT_LIKE_SIGNATURES = (
    "(Tensor input, int low, int high, *, ctensor.memory_format memory_format = None, ctensor.dtype dtype = None, "
    "ctensor.layout layout = None, ctensor.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)",
    "(Tensor input, int high, *, ctensor.memory_format memory_format = None, ctensor.dtype dtype = None, "
    "ctensor.layout layout = None, ctensor.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)",
)


# torch's check_from_to_in_range: significand bits of each floating dtype, and its C++ name.
_DIGITS = {D.float16: (11, "c10::Half"), D.bfloat16: (8, "c10::BFloat16"), D.float32: (24, "float"),
           D.float64: (53, "double")}


def warn_inexact_bounds(low, high, d):
    """torch's UserWarning when a floating dtype cannot hold every integer of [low, high)
    (a bound beyond +-2^digits), given after the bounds passed their range checks."""
    if d not in _DIGITS:
        return
    import warnings
    digits, name = _DIGITS[d]
    for what, v in (("from", low), ("to - 1", high - 1)):
        if v < -(1 << digits) or v > (1 << digits):
            warnings.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                          f"{name} can support discrete uniform distribution only within this range. This warning "
                          "will become an error in version 1.7 release, please fix the code in advance",
                          UserWarning, stacklevel=3)


def _bound(v):
    """An int bound (a one-element integer tensor counts, as torch's Tensor high); None otherwise."""
    if isinstance(v, Tensor):
        if v.numel() != 1 or v.dtype.is_floating_point:
            return None
        v = v.item()
    if isinstance(v, bool) or isinstance(v, float) or not hasattr(v, "__index__"):
        return None
    return operator.index(v)


def randint_like(input, *args, low=None, high=None, generator=None, dtype=None, layout=None, device=None,
                 pin_memory=False, requires_grad=False, memory_format=preserve_format):
    """randint_like(input, high) or randint_like(input, low, high): integers uniform in [low, high)
    (low 0 by default), input's shape, dtype (or dtype=; a floating input gives floating values) and
    layout (empty_like's)."""
    given = list(args)
    if len(given) == 2 and low is None and high is None:
        low, high = given
    elif len(given) == 1 and high is None:
        if low is None:
            high = given[0]
        else:
            raise TypeError("randint_like() got multiple values for argument 'low'")
    elif len(given) == 1 and low is None:
        low = given[0]
    elif given:
        high = _MISSING  # too many positional arguments
    lo, hi = (0 if low is None else _bound(low)), (None if high in (None, _MISSING) else _bound(high))
    if lo is None or hi is None:
        shown = ["Tensor" if isinstance(input, Tensor) else type(input).__name__] + \
            [("Tensor" if isinstance(a, Tensor) else type(a).__name__) for a in args]
        raise TypeError(f"randint_like() received an invalid combination of arguments - got ({', '.join(shown)}), "
                        "but expected one of:\n" + "".join(f" * {s}\n" for s in _RANDINT_LIKE_SIGNATURES))
    d, code = _like_args("randint_like", input, dtype, device, memory_format, layout)
    _check_generator(generator)
    try:
        flat = _C.ct_randint(lo, hi, (input.numel(),), d)
    except RuntimeError as e:  # ct_randint names itself; torch's randint_like message does not
        raise RuntimeError(str(e).removeprefix("randint(): ")) from None
    warn_inexact_bounds(lo, hi, d)
    return _requires_grad(_laid_out_like(input, d, code, flat), requires_grad)


_MISSING = object()
