"""cumsum, cumprod, sort, argsort, msort, topk and clamp (clip, clamp_min, clamp_max) as torch
2.13's Python API, over ct_cumsum, ct_cumprod, ct_sort, ct_argsort, ct_topk and the ct_clamp
family (include/ctensor.h).  Every out-of-place result is a new tensor on a new storage; the
in-place forms write self and return it.  sort and topk return ctensor.return_types.sort /
topk named tuples, as torch.return_types."""

from __future__ import annotations

import builtins
import operator

from . import _C, return_types
from . import _dtype as D
from ._compute import _check_tensor, _int_dtype, _result_type, _scalar_tensor

Tensor = _C.Tensor


def _int_arg(op, name, value, pos):
    if isinstance(value, builtins.bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be int, not {type(value).__name__}")
    return operator.index(value)


def _bool_arg(op, name, value, pos):
    if not isinstance(value, builtins.bool):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be bool, not {type(value).__name__}")
    return value


def _dtype_code(op, dtype):
    if dtype is None:
        return -1
    if not isinstance(dtype, D.dtype):
        raise TypeError(f"{op}(): argument 'dtype' must be ctensor.dtype, not {type(dtype).__name__}")
    return dtype._code


def _is_number(v):
    return isinstance(v, (builtins.bool, int, float))


# ---- cumsum / cumprod ----------------------------------------------------------------------

def _scan(c_fn, op, self, dim, dtype):
    _check_tensor(op, self)
    return c_fn(self, _int_arg(op, "dim", dim, 1), _dtype_code(op, dtype))


def _scan_(c_fn, op, self, dim, dtype):
    c_fn(self, _int_arg(op, "dim", dim, 1), _dtype_code(op, dtype))
    return self


# ---- clamp ---------------------------------------------------------------------------------

def _clamp_args(op, self, lo, hi):
    """(kind, lo, hi): kind "tensor" (either bound a Tensor; a number beside it becomes a 0-dim
    tensor of the result dtype, as torch's parser makes it one) or "scalar"."""
    for name, v in (("min", lo), ("max", hi)):
        if v is not None and not isinstance(v, Tensor) and not _is_number(v):
            raise TypeError(f"{op}() received an invalid combination of arguments - got ({name}={type(v).__name__}, ), "
                            f"but expected one of:\n * (Tensor min = None, Tensor max = None)\n"
                            f" * (Number min = None, Number max = None)\n")
    if isinstance(lo, Tensor) or isinstance(hi, Tensor):
        rt = _result_type(*[v for v in (self, lo, hi) if v is not None])
        lo = _scalar_tensor(lo, rt) if _is_number(lo) else lo
        hi = _scalar_tensor(hi, rt) if _is_number(hi) else hi
        return "tensor", lo, hi
    return "scalar", lo, hi


def _integral(*values):
    """Whether every given bound is a Python int (an integer tensor then keeps its dtype); an
    int beyond 64 bits is Python's OverflowError, as torch's parser raises."""
    for v in values:
        if isinstance(v, int) and not isinstance(v, builtins.bool):
            _int_dtype(v)
    return builtins.all(v is None or isinstance(v, int) for v in values)


def _clamp(self, min=None, max=None, inplace=False):
    op = "clamp_" if inplace else "clamp"
    _check_tensor(op, self)
    kind, lo, hi = _clamp_args(op, self, min, max)
    if kind == "tensor":
        if inplace:
            _C.ct_clamp_tensor_(self, lo, hi)
            return self
        return _C.ct_clamp_tensor(self, lo, hi)
    args = (lo is not None, 0.0 if lo is None else float(lo), hi is not None, 0.0 if hi is None else float(hi),
            _integral(lo, hi))
    if inplace:
        _C.ct_clamp_(self, *args)
        return self
    return _C.ct_clamp(self, *args)


def _clamp_one(self, bound, is_min, inplace):
    name = "min" if is_min else "max"
    op = f"clamp_{name}" + ("_" if inplace else "")
    _check_tensor(op, self)
    if isinstance(bound, Tensor):
        fn = {(True, False): _C.ct_clamp_min_tensor, (True, True): _C.ct_clamp_min_tensor_,
              (False, False): _C.ct_clamp_max_tensor, (False, True): _C.ct_clamp_max_tensor_}[(is_min, inplace)]
        r = fn(self, bound)
    elif _is_number(bound):
        fn = {(True, False): _C.ct_clamp_min, (True, True): _C.ct_clamp_min_,
              (False, False): _C.ct_clamp_max, (False, True): _C.ct_clamp_max_}[(is_min, inplace)]
        r = fn(self, float(bound), _integral(bound))
    else:
        raise TypeError(f"{op}(): argument '{name}' (position 1) must be Tensor or Number, not {type(bound).__name__}")
    return self if inplace else r


# ---- sort / topk ---------------------------------------------------------------------------

def _sort(self, dim=-1, descending=False, stable=False):
    _check_tensor("sort", self)
    if stable is None:
        stable = False
    values, indices = _C.ct_sort(self, _int_arg("sort", "dim", dim, 1), _bool_arg("sort", "descending", descending, 2),
                                 _bool_arg("sort", "stable", stable, 3))
    return return_types.sort((values, indices))


def _argsort(self, dim=-1, descending=False, stable=False):
    _check_tensor("argsort", self)
    return _C.ct_argsort(self, _int_arg("argsort", "dim", dim, 1), _bool_arg("argsort", "descending", descending, 2),
                         _bool_arg("argsort", "stable", stable, 3))


def _topk(self, k, dim=-1, largest=True, sorted=True):
    _check_tensor("topk", self)
    values, indices = _C.ct_topk(self, _int_arg("topk", "k", k, 2), _int_arg("topk", "dim", dim, 2),
                                 _bool_arg("topk", "largest", largest, 3), _bool_arg("topk", "sorted", sorted, 4))
    return return_types.topk((values, indices))


class _ScanSortMethods:
    def cumsum(self, dim, dtype=None):
        """Tensor.cumsum(dim, dtype=None): running sums along dim (ints give int64)."""
        return _scan(_C.ct_cumsum, "cumsum", self, dim, dtype)

    def cumsum_(self, dim, dtype=None):
        """Tensor.cumsum_(dim, dtype=None): cumsum in place."""
        return _scan_(_C.ct_cumsum_, "cumsum_", self, dim, dtype)

    def cumprod(self, dim, dtype=None):
        """Tensor.cumprod(dim, dtype=None): running products along dim (ints give int64)."""
        return _scan(_C.ct_cumprod, "cumprod", self, dim, dtype)

    def cumprod_(self, dim, dtype=None):
        """Tensor.cumprod_(dim, dtype=None): cumprod in place."""
        return _scan_(_C.ct_cumprod_, "cumprod_", self, dim, dtype)

    def sort(self, dim=-1, descending=False, *, stable=False):
        """Tensor.sort(dim=-1, descending=False, *, stable=False) -> return_types.sort."""
        return _sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        """Tensor.argsort(dim=-1, descending=False, *, stable=False): the indices of sort."""
        return _argsort(self, dim, descending, stable)

    def msort(self):
        """Tensor.msort(): the values of sort along dim 0."""
        return _sort(self, 0).values

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """Tensor.topk(k, dim=-1, largest=True, sorted=True) -> return_types.topk."""
        return _topk(self, k, dim, largest, sorted)

    def clamp(self, min=None, max=None):
        """Tensor.clamp(min=None, max=None): each element limited to [min, max]."""
        return _clamp(self, min, max)

    def clamp_(self, min=None, max=None):
        """Tensor.clamp_(min=None, max=None): clamp in place."""
        return _clamp(self, min, max, inplace=True)

    def clip(self, min=None, max=None):
        """Tensor.clip(min=None, max=None): clamp's alias."""
        return _clamp(self, min, max)

    def clip_(self, min=None, max=None):
        """Tensor.clip_(min=None, max=None): clamp_'s alias."""
        return _clamp(self, min, max, inplace=True)

    def clamp_min(self, min):
        """Tensor.clamp_min(min)."""
        return _clamp_one(self, min, True, False)

    def clamp_min_(self, min):
        """Tensor.clamp_min_(min)."""
        return _clamp_one(self, min, True, True)

    def clamp_max(self, max):
        """Tensor.clamp_max(max)."""
        return _clamp_one(self, max, False, False)

    def clamp_max_(self, max):
        """Tensor.clamp_max_(max)."""
        return _clamp_one(self, max, False, True)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_ScanSortMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions ----------------------------------------------------------------------

def cumsum(input, dim, *, dtype=None):
    """torch.cumsum(input, dim, *, dtype=None)."""
    return _scan(_C.ct_cumsum, "cumsum", input, dim, dtype)


def cumprod(input, dim, *, dtype=None):
    """torch.cumprod(input, dim, *, dtype=None)."""
    return _scan(_C.ct_cumprod, "cumprod", input, dim, dtype)


def sort(input, dim=-1, descending=False, *, stable=False):
    """torch.sort(input, dim=-1, descending=False, *, stable=False) -> return_types.sort."""
    return _sort(input, dim, descending, stable)


def argsort(input, dim=-1, descending=False, *, stable=False):
    """torch.argsort(input, dim=-1, descending=False, *, stable=False)."""
    return _argsort(input, dim, descending, stable)


def msort(input):
    """torch.msort(input): sort along dim 0, values only."""
    return _sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    """torch.topk(input, k, dim=-1, largest=True, sorted=True) -> return_types.topk."""
    return _topk(input, k, dim, largest, sorted)


def clamp(input, min=None, max=None):
    """torch.clamp(input, min=None, max=None)."""
    return _clamp(input, min, max)


def clip(input, min=None, max=None):
    """torch.clip(input, min=None, max=None): clamp's alias."""
    return _clamp(input, min, max)


def clamp_(input, min=None, max=None):
    """torch.clamp_(input, min=None, max=None)."""
    return _clamp(input, min, max, inplace=True)


def clip_(input, min=None, max=None):
    """torch.clip_(input, min=None, max=None): clamp_'s alias."""
    return _clamp(input, min, max, inplace=True)


def clamp_min(input, min):
    """torch.clamp_min(input, min)."""
    return _clamp_one(input, min, True, False)


def clamp_max(input, max):
    """torch.clamp_max(input, max)."""
    return _clamp_one(input, max, False, False)


def clamp_min_(input, min):
    """torch.clamp_min_(input, min)."""
    return _clamp_one(input, min, True, True)


def clamp_max_(input, max):
    """torch.clamp_max_(input, max)."""
    return _clamp_one(input, max, False, True)
