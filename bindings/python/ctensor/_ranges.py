"""torch.linspace and torch.eye (ct_linspace, ct_eye), with torch 2.13's Python signatures and
argument errors."""

from __future__ import annotations

import inspect
import builtins
import numbers

from . import _C
from . import _dtype as D
from ._compute import _invalid_combination
from ._creation import _check_device, _check_dtype, _requires_grad

Tensor = _C.Tensor
_MISSING = object()
_KW = ("*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
       "bool pin_memory = False, bool requires_grad = False")


def _refusal(fn, given, overloads):
    """torch's TypeError, naming a dtype argument ctensor.dtype as torch names torch.dtype."""
    e = _invalid_combination(fn, given, overloads)
    return TypeError(str(e).replace("ctensor._dtype.dtype", "ctensor.dtype"))


def _number(value):
    """start/end: a Python number or a one-element tensor (torch's Scalar / 0-dim Tensor)."""
    if isinstance(value, Tensor):
        return value.item() if value.numel() == 1 else None
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value
    return None


def linspace(start=_MISSING, end=_MISSING, steps=_MISSING, *extra, dtype=None, device=None, requires_grad=False,
             out=None, layout=None, pin_memory=False):
    """steps values from start to end inclusive (1-D, a new tensor; float32 unless dtype)."""
    given = [v for v in (start, end, steps) if v is not _MISSING] + list(extra)
    s, e = _number(start), _number(end)
    if (len(given) != 3 or s is None or e is None or isinstance(steps, (builtins.bool, float))
            or not isinstance(steps, numbers.Integral)):
        raise _refusal("linspace", given, (
            f"Tensor start, Tensor end, int steps, {_KW}", f"Number start, Tensor end, int steps, {_KW}",
            f"Tensor start, Number end, int steps, {_KW}", f"Number start, Number end, int steps, {_KW}"))
    if out is not None:
        raise NotImplementedError("ctensor: linspace(out=...) is not supported")
    dtype = _check_dtype(dtype)
    _check_device(device)
    dt = dtype if dtype is not None else D.default_float_dtype()
    return _requires_grad(_C.ct_linspace(float(s), float(e), int(steps), dt), requires_grad)


def eye(n=_MISSING, m=None, *extra, dtype=None, device=None, requires_grad=False, out=None, layout=None,
        pin_memory=False):
    """The n x m (m defaults to n) identity matrix (a new tensor; float32 unless dtype)."""
    def is_int(v):
        return isinstance(v, numbers.Integral) and not isinstance(v, builtins.bool)
    if n is _MISSING or extra or (m is not None and not is_int(m)):
        given = [v for v in (n, m) if v is not _MISSING and v is not None] + list(extra)
        raise _refusal("eye", given, (f"int n, {_KW}", f"int n, int m, {_KW}"))
    if not is_int(n):
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if out is not None:
        raise NotImplementedError("ctensor: eye(out=...) is not supported")
    dtype = _check_dtype(dtype)
    _check_device(device)
    dt = dtype if dtype is not None else D.default_float_dtype()
    return _requires_grad(_C.ct_eye(int(n), int(n) if m is None else int(m), dt), requires_grad)


def _torch_signature(fn, positional):
    """help() and inspect.signature show torch's signature, not the _MISSING sentinels that
    let a call with missing arguments raise torch's TypeError."""
    P = inspect.Parameter
    params = [P(name, P.POSITIONAL_OR_KEYWORD, **({} if default is _MISSING else {"default": default}))
              for name, default in positional]
    params += [P(name, P.KEYWORD_ONLY, default=default) for name, default in (
        ("out", None), ("dtype", None), ("layout", None), ("device", None), ("pin_memory", False),
        ("requires_grad", False))]
    fn.__signature__ = inspect.Signature(params)


_torch_signature(linspace, (("start", _MISSING), ("end", _MISSING), ("steps", _MISSING)))
_torch_signature(eye, (("n", _MISSING), ("m", None)))
