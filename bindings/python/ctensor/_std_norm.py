"""std, var, std_mean, var_mean and norm / linalg.vector_norm as torch 2.13's Python API.

The C functions (ct_std, ct_var, ct_std_mean, ct_var_mean, ct_vector_norm) compute; this
file adds torch's signatures: the legacy ``unbiased=`` forms beside ``correction=``, dim as an
int or a tuple, torch.norm's ``p`` (a number, 'fro', or the matrix norms it hands to
linalg.matrix_norm), and the UserWarning torch gives when no degrees of freedom are left
(the C library cannot warn)."""

from __future__ import annotations

import builtins
import inspect
import operator
import warnings

from . import _C
from . import _compute as C
from . import _dtype as D

Tensor = _C.Tensor


_UNSET = object()  # an argument the caller did not give

# torch's overloads of std / var (the same for var, var_mean, std_mean), for its
# "invalid combination of arguments" message.
_METHOD_OVERLOADS = ("tuple of ints dim, bool unbiased = True, bool keepdim = False",
                     "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
                     "bool unbiased = True")
_FUNCTION_OVERLOADS = ("Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, "
                       "Tensor out = None",
                       "Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, "
                       "Tensor out = None",
                       "Tensor input, bool unbiased = True")
_MEAN_OVERLOADS = ("Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False",
                   "Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
                   "Tensor input, bool unbiased = True")


def _is_number(value):
    return isinstance(value, (builtins.bool, int, float))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, builtins.bool)


def _invalid(fn, function, args, kwargs):
    """torch's TypeError: the given positional types, then name=type for the keywords (sorted,
    as torch prints them)."""
    overloads = (_MEAN_OVERLOADS if fn.endswith("_mean") else _FUNCTION_OVERLOADS) if function else _METHOD_OVERLOADS
    got = [C._type_name(a) for a in args] + [f"{k}={C._type_name(v)}" for k, v in sorted(kwargs.items())]
    lines = "\n".join(f" * ({o})" for o in overloads)
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}"
                     f"{', ' if kwargs and not args else ''}), but expected one of:\n{lines}\n")


def _spread_args(fn, function, args, kwargs):
    """(dims, correction, keepdim) from any of torch's three overloads; args and kwargs as the
    caller gave them (function: args[0] is the input)."""
    given = args[1:] if function else args

    def bad():
        return _invalid(fn, function, args, kwargs)

    if len(given) > 3 or any(k not in ("dim", "unbiased", "keepdim", "correction") for k in kwargs):
        raise bad()
    named = dict(zip(("dim", "unbiased", "keepdim"), given))
    for k, v in kwargs.items():
        if k in named:
            raise bad()
        named[k] = v
    dim = named.get("dim")
    unbiased, keepdim, correction = named.get("unbiased", _UNSET), named.get("keepdim", False), named.get("correction")
    if isinstance(dim, builtins.bool):  # std(unbiased): a bool alone
        if len(named) != 1:
            raise bad()
        return [], (1.0 if dim else 0.0), False
    if unbiased is not _UNSET:
        # (dim, unbiased, keepdim) needs its dim; without one only std(unbiased) is left
        if "correction" in named or not isinstance(unbiased, builtins.bool) or ("dim" not in named and len(named) > 1):
            raise bad()
        corr = 1.0 if unbiased else 0.0
    elif correction is None:
        corr = 1.0
    elif _is_number(correction):
        corr = float(correction)
    else:
        raise bad()
    if not isinstance(keepdim, builtins.bool):
        raise bad()
    if dim is None:
        dims = []
    elif _is_int(dim):
        dims = [dim]
    elif isinstance(dim, (list, tuple)) and all(_is_int(d) for d in dim):
        dims = list(dim)
    else:
        raise bad()
    return dims, corr, keepdim


def _warn_no_dof(fn, input, result, correction):
    """torch's UserWarning when N - correction <= 0 (N: input numel / output numel)."""
    factor = input.numel() / builtins.max(1, result.numel())
    if not factor - correction > 0:
        warnings.warn(f"{fn}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)


def _spread(fn, function, input, args, kwargs):
    C._check_tensor(fn, input)
    dims, corr, keep = _spread_args(fn, function, ((input,) + args) if function else args, kwargs)
    if fn in ("std", "var"):
        r = (_C.ct_std if fn == "std" else _C.ct_var)(input, dims, corr, keep)
        _warn_no_dof(fn, input, r, corr)
        return r
    v, m = (_C.ct_std_mean if fn == "std_mean" else _C.ct_var_mean)(input, dims, corr, keep)
    _warn_no_dof(fn, input, v, corr)
    return (v, m)


def _signature(first):
    """Gives a function taking (first, *args, **kwargs), which tells torch's overloads apart
    itself, the signature of torch's documented form, for help() and inspect."""
    P = inspect.Parameter

    def give(f):
        f.__signature__ = inspect.Signature([
            P(first, P.POSITIONAL_OR_KEYWORD), P("dim", P.POSITIONAL_OR_KEYWORD, default=None),
            P("unbiased", P.POSITIONAL_OR_KEYWORD, default=True), P("keepdim", P.POSITIONAL_OR_KEYWORD, default=False),
            P("correction", P.KEYWORD_ONLY, default=None)])
        return f
    return give


# ---- norms ---------------------------------------------------------------------------------

def _norm_dims(dim):
    if dim is None:
        return []
    if isinstance(dim, (list, tuple)):
        return [operator.index(d) for d in dim]
    if isinstance(dim, int) and not isinstance(dim, builtins.bool):
        return [dim]
    raise TypeError(f"linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints, not "
                    f"{type(dim).__name__}")


def _vector_norm(input, ord, dim, keepdim, dtype):
    C._check_tensor("linalg_vector_norm", input)
    if isinstance(ord, Tensor):
        ord = ord.item()
    if not _is_number(ord):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise TypeError(f"linalg_vector_norm(): argument 'dtype' must be ctensor.dtype, not {type(dtype).__name__}")
    code = -1 if dtype is None else dtype._code
    return _C.ct_vector_norm(input, float(ord), _norm_dims(dim), builtins.bool(keepdim), code)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.vector_norm: (sum |x|^ord)^(1/ord) over dim (None or (): all); ord 0, 1, 2,
    inf, -inf or any float; dtype converts x first (without narrowing).  A new tensor."""
    return _vector_norm(x, ord, dim, keepdim, dtype)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """torch.norm: the vector norm of order p (a number; 'fro' or None: 2) over dim (None:
    all).  A new tensor."""
    C._check_tensor("norm", input)
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
            return _vector_norm(input, 2, dim, keepdim, dtype)
        # torch hands the rest to linalg.matrix_norm, which checks the order, then the dims.
        if p not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
        if len(dims) != 2:
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got " + " ".join(str(d) for d in dims))
        raise NotImplementedError("ctensor: norm(p='nuc') (the nuclear norm, a matrix norm) is not implemented")
    return _vector_norm(input, 2 if p is None else p, dim, keepdim, dtype)


class _StdNormMethods:
    """Namespace of the methods installed into ctensor.Tensor (never instantiated)."""

    @_signature("self")
    def std(self, *args, **kwargs):
        """Standard deviation over dim (None: all) with correction (default 1; unbiased=False
        is 0); floating tensors only.  A new tensor."""
        return _spread("std", False, self, args, kwargs)

    @_signature("self")
    def var(self, *args, **kwargs):
        """Variance over dim (None: all) with correction (default 1; unbiased=False is 0);
        floating tensors only.  A new tensor."""
        return _spread("var", False, self, args, kwargs)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """torch.norm(self, p, dim, keepdim, dtype): the vector norm of order p.  A new tensor."""
        return norm(self, p, dim, keepdim, dtype)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_StdNormMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions ------------------------------------------------------------------------

@_signature("input")
def std(input, *args, **kwargs):
    """torch.std: standard deviation over dim with correction (default 1).  A new tensor."""
    return _spread("std", True, input, args, kwargs)


@_signature("input")
def var(input, *args, **kwargs):
    """torch.var: variance over dim with correction (default 1).  A new tensor."""
    return _spread("var", True, input, args, kwargs)


@_signature("input")
def std_mean(input, *args, **kwargs):
    """torch.std_mean: the tuple (std, mean) over dim, as torch.std and torch.mean."""
    return _spread("std_mean", True, input, args, kwargs)


@_signature("input")
def var_mean(input, *args, **kwargs):
    """torch.var_mean: the tuple (var, mean) over dim, as torch.var and torch.mean."""
    return _spread("var_mean", True, input, args, kwargs)
