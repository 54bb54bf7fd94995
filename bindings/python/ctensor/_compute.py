"""Compute as torch 2.13's Python API: Tensor methods (add, sum, matmul, max, ...) and the
module functions (ctensor.add, ctensor.where, ctensor.cat, ctensor.rand, ...).

The operators (x + y, x += y, -x, abs(x), x @ y, x < y, ...) are C slots (fastpath.c); the
methods here reach the same C code through _arith_c / _compare_c, so a Python scalar means
the same thing in ``x + 2`` and ``x.add(2)``: torch's "wrapped number" rules (see fastpath.c).
Everything else calls the header's ct_* functions (ctensor._C) and adds only what torch's
Python signatures add: keyword arguments, ``dim`` as an int or a tuple, ``dtype=``, alpha,
the (values, indices) result of max/min over a dim."""

from __future__ import annotations

import builtins
import inspect
import operator

from . import _C
from . import _dtype as D
from . import return_types

Tensor = _C.Tensor

_ADD, _SUB, _MUL, _DIV = 0, 1, 2, 3
_INPLACE, _NO_ARRAY = 1, 2  # flags of _arith_c
# The C entry points (METH_FASTCALL), set by install(): _arith_c(a, b, op, flags) and
# _compare_c(a, b, pyop) -> Tensor, or NotImplemented when b is not an operand.
_arith_c = _compare_c = None
_LT, _LE, _EQ, _NE, _GT, _GE = 0, 1, 2, 3, 4, 5  # Python's rich comparison opcodes


class _Default:
    """A default argument that calls can tell apart from the same value given explicitly; its
    repr is torch's default, so help() and inspect.signature print torch's signature."""

    __slots__ = ("_text",)

    def __init__(self, text):
        self._text = text

    def __repr__(self):
        return self._text


_NO_ALPHA = _Default("1")

# torch's names of scalar types in messages ("Float did not match Double")
_TORCH_NAME = {D.bool: "Bool", D.uint8: "Byte", D.int8: "Char", D.int16: "Short", D.int32: "Int",
               D.int64: "Long", D.float16: "Half", D.bfloat16: "BFloat16", D.float32: "Float",
               D.float64: "Double", D.complex64: "ComplexFloat", D.complex128: "ComplexDouble"}


# ---- Python operands that are not Tensor / bool / int / float ----------------------------

def operand_hook(obj, array_ok):
    """Called by the C operators for an operand they do not know.  torch 2.13 treats a NumPy
    scalar as a Python number (integers within int64 as int; floating types and numpy.bool_ as
    float), and an ndarray as a tensor (a copy) only in tensor == ndarray (array_ok); anything
    else is not an operand (NotImplemented: NumPy computes tensor + - * / ndarray by its own
    rules and __array_wrap__ gives a tensor back, or Python raises its TypeError, as with
    torch)."""
    t = type(obj)
    if t.__module__ != "numpy":
        return NotImplemented
    if t.__name__ == "ndarray":
        if not array_ok:
            return NotImplemented  # torch: x + a (NumPy computes), x += a, x < a, x.add(a)
        from ._creation import tensor
        return tensor(obj)
    if not hasattr(obj, "dtype"):
        return NotImplemented
    kind = obj.dtype.kind
    if kind in "iu":
        i = int(obj)
        return i if -2**63 <= i < 2**63 else NotImplemented  # a numpy.uint64 past int64
    if kind in "fbc":  # numpy.complex64: its real part (NumPy's ComplexWarning), as torch;
        return float(obj)  # numpy.complex128 is a Python complex and never comes here
    return NotImplemented  # strings, datetimes


def _type_name(value):
    t = type(value)
    if t is Tensor:
        return "Tensor"
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _type_error(fn, arg, pos, value):
    return TypeError(f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {_type_name(value)}")


def _invalid_combination(fn, args, overloads):
    """torch's TypeError when no overload of fn accepts the arguments (first line identical)."""
    got = ", ".join(_type_name(a) for a in args)
    lines = "\n".join(f" * ({o})" for o in overloads)
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
                     f"of:\n{lines}\n")


def _check_tensor(fn, value, arg="input", pos=1):
    if not isinstance(value, Tensor):
        raise _type_error(fn, arg, pos, value)


# ---- torch's result_type with wrapped numbers ----------------------------------------------

class _UInt64:
    """The dtype torch 2.x gives a Python int in [2**63, 2**64) (a wrapped uint64 number).
    ctensor has no uint64 tensors: this only takes part in promotion, which refuses it next to
    anything but a floating dtype, as torch does."""
    is_floating_point = False
    is_complex = False


_U64 = _UInt64()


def _int_dtype(value):
    """The wrapped-number dtype of a Python int: int64, or uint64 up to 2**64 (beyond:
    Python's OverflowError, as torch)."""
    if -2**63 <= value < 2**63:
        return D.int64
    if value < 0:
        raise OverflowError("can't convert negative int to unsigned")
    if value >= 2**64:
        raise OverflowError("int too big to convert")
    return _U64


def _category(dt):
    return 3 if dt.is_complex else 2 if dt.is_floating_point else (0 if dt is D.bool else 1)


def _promote(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a is _U64 or b is _U64:  # c10's promoteTypes: a floating dtype wins, anything else fails
        if a is b or a.is_floating_point or a.is_complex:
            return a
        if b.is_floating_point or b.is_complex:
            return b
        names = ["UInt64" if d is _U64 else _TORCH_NAME[d] for d in (a, b)]
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{names[0]} and {names[1]}")
    return D.promote_types(a, b)


def _combine(higher, lower):
    # torch's combine_categories: a lower-priority operand counts only if its category is higher
    if higher is None:
        return lower
    if lower is None or higher.is_complex:
        return higher
    if lower.is_complex:  # a complex lower operand keeps a floating higher one's precision
        if not higher.is_floating_point:
            return lower
        return D.complex128 if higher is D.float64 else D.complex64 if higher is not D.float16 else higher.to_complex()
    if higher.is_floating_point:
        return higher
    if higher is D.bool or lower.is_floating_point:
        return _promote(higher, lower)
    return higher


def _result_type(*operands):
    """torch's result type over tensors and Python scalars (bool -> bool, int -> int64, float ->
    the default dtype, each counting only by category, as torch's wrapped numbers)."""
    dim = zero = wrapped = None
    for o in operands:
        if isinstance(o, Tensor):
            if o.dim() > 0:
                dim = _promote(dim, o.dtype)
            else:
                zero = _promote(zero, o.dtype)
        elif isinstance(o, builtins.bool):
            wrapped = _promote(wrapped, D.bool)
        elif isinstance(o, int):
            wrapped = _promote(wrapped, _int_dtype(o))
        elif isinstance(o, float):
            wrapped = _promote(wrapped, D.default_float_dtype())
        elif isinstance(o, complex):
            wrapped = _promote(wrapped, D.default_complex_dtype())
        else:
            raise TypeError(f"result_type: expected a Tensor or a Python number, got {type(o).__name__}")
    return _combine(dim, _combine(zero, wrapped))


def result_type(tensor, other):
    """torch.result_type: the dtype tensor op other gives (either may be a Python number, a
    NumPy scalar counting as one)."""
    args = []
    for value in (tensor, other):
        if not isinstance(value, (Tensor, builtins.bool, int, float, complex)):
            converted = operand_hook(value, False)
            if converted is NotImplemented:
                _check_numpy_uint(value)
                raise _invalid_combination("result_type", (tensor, other), (
                    "Tensor tensor, Tensor other", "Number scalar, Tensor tensor", "Tensor tensor, Number other",
                    "Number scalar1, Number scalar2"))
            value = converted
        args.append(value)
    r = _result_type(*args)
    if r is _U64:
        raise TypeError("ctensor has no uint64 dtype")
    return r


# The C++ type torch names when a complex scalar does not fit a real dtype.
_CPP_TYPE_NAMES = {D.uint8: "uint8_t", D.int8: "int8_t", D.int16: "int16_t", D.int32: "int", D.int64: "int64_t",
                   D.float16: "double", D.bfloat16: "double", D.float32: "float", D.float64: "double"}


def _scalar_tensor(value, dtype, check_reduced=True):
    """A 0-dim tensor of dtype holding a Python scalar, refusing values the dtype cannot hold
    ("value cannot be converted to type int8_t without overflow"), as torch's scalar_to_tensor
    and fill_; an int beyond uint64 is Python's OverflowError, as torch's.  check_reduced=False:
    a float16/bfloat16 dtype takes any value, rounding to +-inf (torch 2.13's where and setitem
    skip the check for these two dtypes only)."""
    if isinstance(value, complex):
        if dtype.is_complex:
            from ._creation import tensor
            return tensor(value, dtype=dtype)
        if value.imag != 0 and dtype is not D.bool:  # torch's checked_convert, by its C++ type names
            raise RuntimeError(f"value cannot be converted to type {_CPP_TYPE_NAMES[dtype]} without overflow")
        value = value.real if dtype is not D.bool else builtins.bool(value)
    if not check_reduced and dtype in (D.float16, D.bfloat16) and not isinstance(value, builtins.bool):
        if isinstance(value, int):
            _int_dtype(value)
        return _C.ct_to(_C.ct_full([], float(value), D.float64), dtype)
    if isinstance(value, int) and not isinstance(value, builtins.bool):
        _int_dtype(value)
        if dtype is D.int64:
            if value >= 2**63:
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            from ._creation import tensor
            return tensor(value, dtype=D.int64)
        if dtype.is_floating_point:
            value = float(value)
    if isinstance(value, int):
        value = D.uint8_wrapped(value, dtype)
    return _C.ct_full([], value, dtype)


def _check_numpy_uint(value):
    """torch's argument parser takes a NumPy integer as an int64 and fails on a numpy.uint64
    past int64 (operand_hook's NotImplemented for it) with this TypeError."""
    if type(value).__module__ == "numpy" and getattr(getattr(value, "dtype", None), "kind", "") == "u":
        raise TypeError("an integer is required")


def _as_operand(value, fn, arg, pos):
    if isinstance(value, (Tensor, builtins.bool, int, float, complex)):
        return value
    converted = operand_hook(value, False)  # torch: a method refuses an ndarray
    if converted is NotImplemented:
        _check_numpy_uint(value)
        raise _type_error(fn, arg, pos, value)
    return converted


# ---- arithmetic ----------------------------------------------------------------------------

def _with_alpha(fn, self, other, alpha):
    """other * alpha for add/sub with alpha, in the result dtype (torch's alpha_check first)."""
    rt = _result_type(self, other)
    if isinstance(alpha, builtins.bool):
        if rt is not D.bool:
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
    elif isinstance(alpha, complex):
        if not rt.is_complex:
            raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    elif isinstance(alpha, float):
        if not (rt.is_floating_point or rt.is_complex):
            raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    elif not isinstance(alpha, int):
        raise TypeError(f"{fn}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    else:
        _int_dtype(alpha)
    if rt is D.bool:
        alpha = builtins.bool(alpha)  # bool arithmetic: any non-zero alpha is True
        if not isinstance(other, Tensor):
            return builtins.bool(other) and alpha  # stays a bool scalar: a bool result
    elif not rt.is_complex:
        _scalar_tensor(alpha, rt)  # torch refuses an alpha the result dtype cannot hold
    if isinstance(other, Tensor):
        return _SCALED  # the header's ct_add_alpha: torch's kernel, one rounding
    if rt.is_complex:
        return complex(other) * alpha
    if rt.is_floating_point:
        return float(other) * alpha
    # an integer result: other * alpha wraps in the result dtype, as torch computes it there
    return (other * alpha + 2**63) % 2**64 - 2**63


_SCALED = object()
_EXACT_INT = 2**53  # ints a double holds exactly
_ALPHA_C = {(_ADD, False): _C.ct_add_alpha, (_SUB, False): _C.ct_sub_alpha,
            (_ADD, True): _C.ct_add_alpha_, (_SUB, True): _C.ct_sub_alpha_}


def _arith(fn, op, self, other, alpha, inplace, pos=1):
    flags = _NO_ARRAY | (_INPLACE if inplace else 0)
    if alpha is _NO_ALPHA:
        r = _arith_c(self, other, op, flags)  # the common case: one C call
        if r is not NotImplemented:
            return r
    elif type(self) is Tensor and type(other) is Tensor and (
            (type(alpha) is builtins.float and not alpha.is_integer())
            or (type(alpha) is builtins.int and -_EXACT_INT < alpha < _EXACT_INT)):
        # the SGD update p.add_(grad, alpha=-lr): the header's function makes torch's checks
        # (a fractional alpha with an integer result, an alpha the dtype cannot hold); only an
        # integral float (alpha=2.0, which torch refuses for integer results) needs the dtypes
        r = _ALPHA_C[op, inplace](self, other, alpha)
        return self if inplace else r
    other = _as_operand(other, fn, "other", pos)
    if alpha is not _NO_ALPHA:
        if not isinstance(self, Tensor):
            raise _type_error(fn, "input", 1, self)
        scaled = _with_alpha(fn, self, other, alpha)
        if scaled is _SCALED:
            if isinstance(alpha, complex) and alpha.imag != 0:  # a complex alpha: product first
                other = _arith_c(_C.ct_to(other, _result_type(self, other)), alpha, _MUL, _NO_ARRAY)
            else:
                r = _ALPHA_C[op, inplace](self, other, float(alpha.real))
                return self if inplace else r
        else:
            other = scaled
    r = _arith_c(self, other, op, flags)
    if r is NotImplemented:
        raise _type_error(fn, "input", 1, self)
    return r


def _compare(fn, op, self, other):
    r = _compare_c(self, other, op)
    if r is NotImplemented:
        _check_numpy_uint(other)
        raise _invalid_combination(fn, (other,), ("Tensor other", "Number other"))
    return r


def _check_rounding(rounding_mode):
    if rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    if rounding_mode is not None:
        raise NotImplementedError(f"ctensor: div(rounding_mode={rounding_mode!r}) is not supported; "
                                  f"only true division (rounding_mode=None)")


# ---- reductions ------------------------------------------------------------------------------

def _dims(dim, fn):
    if dim is None:
        return []
    if isinstance(dim, (list, tuple)):
        return [operator.index(d) for d in dim]
    try:
        return [operator.index(dim)]
    except TypeError:
        raise TypeError(f"{fn}(): argument 'dim' must be tuple of ints, not {type(dim).__name__}") from None


_NO_DIM = _Default("None")  # sum(*, dtype) and sum(dim, keepdim, *, dtype) are different overloads
_NO_KEEPDIM = _Default("False")


def _reduce(cfn, fn, self, dim, keepdim, dtype):
    _check_tensor(fn, self)
    if dtype is not None and not isinstance(dtype, D.dtype):
        raise TypeError(f"{fn}() received an invalid combination of arguments - got (dtype={type(dtype).__name__}, ), "
                        f"but expected one of:\n * (*, ctensor.dtype dtype = None)\n * (tuple of ints dim, bool "
                        f"keepdim = False, *, ctensor.dtype dtype = None)\n")
    if fn == "mean" and dtype is not None and not dtype.is_floating_point:
        raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point "
                           f"or complex dtype. Got: {_TORCH_NAME[dtype]}")
    if dim is _NO_DIM:
        if keepdim is not _NO_KEEPDIM:  # torch: sum(*, dtype) or sum(dim, keepdim=False, *, dtype)
            raise TypeError(f"{fn}() received an invalid combination of arguments - got (keepdim=bool, ), but "
                            f"expected one of:\n * (*, ctensor.dtype dtype)\n * (tuple of ints dim, bool "
                            f"keepdim, *, ctensor.dtype dtype)\n")
        dim = None
    if keepdim is _NO_KEEPDIM:
        keepdim = False
    src = self if dtype is None else _C.ct_to(self, dtype)
    r = cfn(src, _dims(dim, fn), builtins.bool(keepdim))
    if dtype is not None and r.dtype is not dtype:
        r = _C.ct_to(r, dtype)  # sum/prod of integers give int64 in C; torch gives dtype
    return r


def _one_dim(dim, fn):
    if dim is None:
        return None
    if isinstance(dim, (list, tuple, float)):
        if fn == "prod":
            raise _invalid_combination("prod", (dim,), ("*, ctensor.dtype dtype",
                                                        "int dim, bool keepdim, *, ctensor.dtype dtype"))
        raise TypeError(f"{fn}(): argument 'dim' must be int, not {type(dim).__name__}")
    return operator.index(dim)


def _prod_dim(dim):
    return dim if dim is _NO_DIM else _one_dim(dim, "prod")


def _arg_reduce(cfn, cfn_all, fn, self, dim, keepdim):
    _check_tensor(fn, self)
    d = _one_dim(dim, fn)
    if d is not None:
        return cfn(self, d, builtins.bool(keepdim))
    r = cfn_all(self)
    if keepdim:  # torch: every dim kept with size 1
        r = r.reshape([1] * self.dim())
    return r


def _max_min(name, self, dim, keepdim, other):
    _check_tensor(name, self)
    if isinstance(dim, Tensor) and other is None and not keepdim:
        dim, other = None, dim  # torch.max(a, b): elementwise
    if other is not None:
        # torch.maximum / torch.minimum (MaximumBackward0 / MinimumBackward0)
        _check_tensor("maximum" if name == "max" else "minimum", other, "other", 2)
        return (_C.ct_maximum if name == "max" else _C.ct_minimum)(self, other)
    if dim is None:  # MaxBackward1 / MinBackward1
        return (_C.ct_max_all if name == "max" else _C.ct_min_all)(self)
    d = _one_dim(dim, name)
    values, indices = (_C.ct_max_dim if name == "max" else _C.ct_min_dim)(self, d, builtins.bool(keepdim))
    return (return_types.max if name == "max" else return_types.min)((values, indices))


# ---- the Tensor methods ------------------------------------------------------------------------

def _check_same_dtype(a, b):
    """isclose/allclose take one dtype: torch's RuntimeError (the C API says CT_ERR_DTYPE,
    which Python raises as TypeError)."""
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{_TORCH_NAME[a.dtype]} did not match {_TORCH_NAME[b.dtype]}")


class _ComputeMethods:
    """Namespace of the compute methods installed into ctensor.Tensor (never instantiated)."""

    def maximum(self, other):
        """The elementwise maximum of self and other (a tensor; NaN wins), promoted as torch."""
        return maximum(self, other)

    def minimum(self, other):
        """The elementwise minimum of self and other (a tensor; NaN wins), promoted as torch."""
        return minimum(self, other)

    def add(self, other, *, alpha=_NO_ALPHA):
        """self + alpha * other (other: a tensor or a Python number, torch's promotion)."""
        return _arith("add", _ADD, self, other, alpha, False)

    def sub(self, other, *, alpha=_NO_ALPHA):
        """self - alpha * other."""
        return _arith("sub", _SUB, self, other, alpha, False)

    def mul(self, other):
        return _arith("mul", _MUL, self, other, _NO_ALPHA, False)

    def div(self, other, *, rounding_mode=None):
        """True division (integer inputs give float32); rounding modes are not supported."""
        _check_rounding(rounding_mode)
        return _arith("div", _DIV, self, other, _NO_ALPHA, False)

    def add_(self, other, *, alpha=_NO_ALPHA):
        """In place: writes self + alpha * other into self and returns self."""
        return _arith("add_", _ADD, self, other, alpha, True)

    def sub_(self, other, *, alpha=_NO_ALPHA):
        return _arith("sub_", _SUB, self, other, alpha, True)

    def mul_(self, other):
        return _arith("mul_", _MUL, self, other, _NO_ALPHA, True)

    def div_(self, other, *, rounding_mode=None):
        _check_rounding(rounding_mode)
        return _arith("div_", _DIV, self, other, _NO_ALPHA, True)

    multiply = mul
    multiply_ = mul_
    divide = div
    divide_ = div_
    subtract = sub
    subtract_ = sub_

    def neg(self):
        return _C.ct_neg(self)

    def abs(self):
        return _C.ct_abs(self)

    def exp(self):
        return _C.ct_exp(self)

    def log(self):
        return _C.ct_log(self)

    def sqrt(self):
        return _C.ct_sqrt(self)

    def sin(self):
        return _C.ct_sin(self)

    def cos(self):
        return _C.ct_cos(self)

    def tanh(self):
        return _C.ct_tanh(self)

    def sigmoid(self):
        return _C.ct_sigmoid(self)

    def relu(self):
        return _C.ct_relu(self)

    def reciprocal(self):
        return _C.ct_reciprocal(self)

    def sgn(self):
        return _C.ct_sgn(self)

    def sign(self):
        return _C.ct_sign(self)

    def angle(self):
        return _C.ct_angle(self)

    def reciprocal_(self):
        _C.ct_reciprocal_(self)
        return self

    def sgn_(self):
        _C.ct_sgn_(self)
        return self

    def sign_(self):
        _C.ct_sign_(self)
        return self

    def neg_(self):
        _C.ct_neg_(self)
        return self

    def abs_(self):
        _C.ct_abs_(self)
        return self

    def exp_(self):
        _C.ct_exp_(self)
        return self

    def log_(self):
        _C.ct_log_(self)
        return self

    def sqrt_(self):
        _C.ct_sqrt_(self)
        return self

    def sin_(self):
        _C.ct_sin_(self)
        return self

    def cos_(self):
        _C.ct_cos_(self)
        return self

    def tanh_(self):
        _C.ct_tanh_(self)
        return self

    def sigmoid_(self):
        _C.ct_sigmoid_(self)
        return self

    def relu_(self):
        _C.ct_relu_(self)
        return self

    negative = neg
    negative_ = neg_
    absolute = abs
    absolute_ = abs_

    def eq(self, other):
        return _compare("eq", _EQ, self, other)

    def ne(self, other):
        return _compare("ne", _NE, self, other)

    def lt(self, other):
        return _compare("lt", _LT, self, other)

    def le(self, other):
        return _compare("le", _LE, self, other)

    def gt(self, other):
        return _compare("gt", _GT, self, other)

    def ge(self, other):
        return _compare("ge", _GE, self, other)

    not_equal = ne
    less = lt
    less_equal = le
    greater = gt
    greater_equal = ge

    def fill_(self, value):
        """Every element set to value (a Python number or a 0-dim tensor); returns self.  As
        torch: exact for int64, a negative int wraps for uint8, values the dtype cannot hold
        are refused, and an expanded self is filled (each memory location once).  A tensor
        value is torch 2.13's fill_(Tensor): converted as copy_ converts (no range check), an
        expanded self refused, FillBackward3 (the value gets the sum of the gradient)."""
        if isinstance(value, Tensor):
            _C.ct_fill_tensor_(self, value)
            return self
        elif not isinstance(value, (builtins.bool, int, float, complex)):
            converted = operand_hook(value, False)
            if converted is NotImplemented:
                _check_numpy_uint(value)
                raise _invalid_combination("fill_", (value,), ("Tensor value", "Number value"))
            value = converted
        if self.requires_grad and _C.ct_is_grad_enabled():
            if isinstance(value, complex) and self.dtype.is_complex:
                _C.ct_fill_complex_(self, value.real, value.imag)  # records FillBackward2
                return self
            if isinstance(value, complex):
                _scalar_tensor(value, self.dtype)  # refuses a nonzero imaginary part as torch
                value = value.real
            _C.ct_fill_(self, value)  # records FillBackward2 (only floating tensors require grad)
            return self
        # one version bump; every element, even of an expanded self (each location once)
        _C._copy_to(self, _scalar_tensor(value, self.dtype), True)
        return self

    def zero_(self):
        _C.ct_zero_(self)
        return self

    def sum(self, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
        """Sum over dim (None: all; an int or a tuple); bool/integer inputs give int64."""
        return _reduce(_C.ct_sum, "sum", self, dim, keepdim, dtype)

    def mean(self, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
        """Mean over dim; the input (or dtype) must be floating, as torch."""
        return _reduce(_C.ct_mean, "mean", self, dim, keepdim, dtype)

    def prod(self, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
        """Product over one dim (or all); bool/integer inputs give int64."""
        return _reduce(_C.ct_prod, "prod", self, _prod_dim(dim), keepdim, dtype)

    def amax(self, dim=(), keepdim=False):
        return _reduce(_C.ct_amax, "amax", self, dim, keepdim, None)

    def amin(self, dim=(), keepdim=False):
        return _reduce(_C.ct_amin, "amin", self, dim, keepdim, None)

    def argmax(self, dim=None, keepdim=False):
        """Index of the first maximum along dim (None: of the flattened tensor)."""
        return _arg_reduce(_C.ct_argmax, _C.ct_argmax_all, "argmax", self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _arg_reduce(_C.ct_argmin, _C.ct_argmin_all, "argmin", self, dim, keepdim)

    def max(self, dim=None, keepdim=False, *, other=None):
        """max(): the largest element (0-dim); max(dim, keepdim=False): ctensor.return_types.max
        (values, indices); max(other): the elementwise maximum."""
        return _max_min("max", self, dim, keepdim, other)

    def min(self, dim=None, keepdim=False, *, other=None):
        return _max_min("min", self, dim, keepdim, other)

    def matmul(self, other):
        _check_tensor("matmul", other, "other", 1)
        return _C.ct_matmul(self, other)

    def mm(self, mat2):
        _check_tensor("mm", mat2, "mat2", 1)
        if self.dim() != 2:
            raise RuntimeError("self must be a matrix")
        if mat2.dim() != 2:
            raise RuntimeError("mat2 must be a matrix")
        return _C.ct_matmul(self, mat2)

    def equal(self, other):
        """True if same shape and same values (after promotion)."""
        _check_tensor("equal", other, "other", 1)
        return _C.ct_equal(self, other) == 1

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """|self - other| <= atol + rtol * |other| everywhere (broadcasting); same dtypes only,
        as torch; equal_nan=True also counts NaN facing NaN as close."""
        _check_tensor("allclose", other, "other", 1)
        _check_same_dtype(self, other)
        if equal_nan:
            close = _C.ct_isclose(self, other, float(rtol), float(atol), 1)
            return close.sum().item() == close.numel()
        return _C.ct_allclose(self, other, float(rtol), float(atol)) == 1

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """A bool tensor: |self - other| <= atol + rtol * |other| elementwise (broadcasting), or
        equal; same dtypes only, as torch; equal_nan=True also counts NaN facing NaN as close."""
        _check_tensor("isclose", other, "other", 1)
        _check_same_dtype(self, other)
        return _C.ct_isclose(self, other, float(rtol), float(atol), 1 if equal_nan else 0)


def install(arith, compare):
    """Adds the compute methods to ctensor.Tensor; arith and compare are the C entry points
    (_C._setup_compute's result)."""
    global _arith_c, _compare_c
    _arith_c, _compare_c = arith, compare
    for name, value in vars(_ComputeMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)
    # add, sub, mul, div and their in-place forms: C methods take the common calls and pass the
    # others to these Python ones (fastpath.c, "The arithmetic methods"), with their signature
    # and doc.
    pairs = []
    for name in ("add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"):
        fn = getattr(_ComputeMethods, name)
        fn.__qualname__ = "Tensor." + name  # Python's own argument errors name it
        sig = str(inspect.signature(fn)).replace("(self", "($self", 1)
        pairs.append((fn, f"{name}{sig}\n--\n\n{fn.__doc__ or ''}"))
    _C._fast_arith_methods(tuple(pairs))
    for alias, name in (("subtract", "sub"), ("multiply", "mul"), ("divide", "div"), ("subtract_", "sub_"),
                        ("multiply_", "mul_"), ("divide_", "div_")):
        assert getattr(_ComputeMethods, alias) is getattr(_ComputeMethods, name)
        _C._install(Tensor, alias, inspect.getattr_static(Tensor, name))  # one object, as before


# ---- module functions ------------------------------------------------------------------------

def add(input, other, *, alpha=_NO_ALPHA):
    return _arith("add", _ADD, input, other, alpha, False, pos=2)


def sub(input, other, *, alpha=_NO_ALPHA):
    return _arith("sub", _SUB, input, other, alpha, False, pos=2)


def mul(input, other):
    return _arith("mul", _MUL, input, other, _NO_ALPHA, False, pos=2)


def div(input, other, *, rounding_mode=None):
    _check_rounding(rounding_mode)
    return _arith("div", _DIV, input, other, _NO_ALPHA, False, pos=2)


subtract = sub
multiply = mul
divide = div
true_divide = div


def _unary(name, cfn):
    def f(input):
        _check_tensor(name, input)
        return cfn(input)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(input) -> Tensor (elementwise; a new tensor)"
    return f


neg = _unary("neg", _C.ct_neg)
negative = _unary("negative", _C.ct_neg)
abs = _unary("abs", _C.ct_abs)
absolute = _unary("absolute", _C.ct_abs)
exp = _unary("exp", _C.ct_exp)
log = _unary("log", _C.ct_log)
sqrt = _unary("sqrt", _C.ct_sqrt)
sin = _unary("sin", _C.ct_sin)
cos = _unary("cos", _C.ct_cos)
tanh = _unary("tanh", _C.ct_tanh)
sigmoid = _unary("sigmoid", _C.ct_sigmoid)
relu = _unary("relu", _C.ct_relu)
reciprocal = _unary("reciprocal", _C.ct_reciprocal)
sgn = _unary("sgn", _C.ct_sgn)
sign = _unary("sign", _C.ct_sign)
angle = _unary("angle", _C.ct_angle)


def _comparison(name, op):
    def f(input, other):
        _check_tensor(name, input)
        return _compare(name, op, input, other)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(input, other) -> Tensor (bool, elementwise, broadcasting)"
    return f


eq = _comparison("eq", _EQ)
ne = _comparison("ne", _NE)
lt = _comparison("lt", _LT)
le = _comparison("le", _LE)
gt = _comparison("gt", _GT)
ge = _comparison("ge", _GE)
not_equal = _comparison("not_equal", _NE)
less = _comparison("less", _LT)
less_equal = _comparison("less_equal", _LE)
greater = _comparison("greater", _GT)
greater_equal = _comparison("greater_equal", _GE)


def maximum(input, other):
    """torch.maximum(input, other): the elementwise maximum (NaN wins; MaximumBackward0)."""
    _check_tensor("maximum", input, "input", 1)
    _check_tensor("maximum", other, "other", 2)
    return _C.ct_maximum(input, other)


def minimum(input, other):
    """torch.minimum(input, other): the elementwise minimum (NaN wins; MinimumBackward0)."""
    _check_tensor("minimum", input, "input", 1)
    _check_tensor("minimum", other, "other", 2)
    return _C.ct_minimum(input, other)


def where(condition, input, other):
    """condition ? input : other elementwise (broadcasting all three).  input and other may be
    Python numbers, as in torch 2.13 (they count as wrapped numbers for the result dtype)."""
    for value in (input, other):
        if not isinstance(value, (Tensor, builtins.bool, int, float)) and operand_hook(value, False) is NotImplemented:
            _check_numpy_uint(value)
            raise _invalid_combination("where", (condition, input, other), (
                "Tensor condition", "Tensor condition, Tensor input, Tensor other",
                "Tensor condition, Tensor input, Number other", "Tensor condition, Number input, Tensor other",
                "Tensor condition, Number input, Number other"))
    _check_tensor("where", condition, "condition", 1)
    input = _as_operand(input, "where", "input", 2)
    other = _as_operand(other, "where", "other", 3)
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        rt = _result_type(input, other)
        if rt is _U64:
            raise TypeError("ctensor has no uint64 dtype (where() of two ints past int64)")
        if not isinstance(input, Tensor):
            input = _scalar_tensor(input, rt, check_reduced=False)
        if not isinstance(other, Tensor):
            other = _scalar_tensor(other, rt, check_reduced=False)
    return _C.ct_where(condition, input, other)


def equal(input, other):
    _check_tensor("equal", input)
    return _ComputeMethods.equal(input, other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _check_tensor("allclose", input)
    return _ComputeMethods.allclose(input, other, rtol, atol, equal_nan)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _check_tensor("isclose", input)
    return _ComputeMethods.isclose(input, other, rtol, atol, equal_nan)


def sum(input, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
    return _reduce(_C.ct_sum, "sum", input, dim, keepdim, dtype)


def mean(input, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
    return _reduce(_C.ct_mean, "mean", input, dim, keepdim, dtype)


def prod(input, dim=_NO_DIM, keepdim=_NO_KEEPDIM, *, dtype=None):
    return _reduce(_C.ct_prod, "prod", input, _prod_dim(dim), keepdim, dtype)


def amax(input, dim=(), keepdim=False):
    return _reduce(_C.ct_amax, "amax", input, dim, keepdim, None)


def amin(input, dim=(), keepdim=False):
    return _reduce(_C.ct_amin, "amin", input, dim, keepdim, None)


def argmax(input, dim=None, keepdim=False):
    return _arg_reduce(_C.ct_argmax, _C.ct_argmax_all, "argmax", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg_reduce(_C.ct_argmin, _C.ct_argmin_all, "argmin", input, dim, keepdim)


def max(input, dim=None, keepdim=False, *, other=None):
    """max(input) / max(input, dim, keepdim=False) -> return_types.max / max(input, other)."""
    return _max_min("max", input, dim, keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None):
    return _max_min("min", input, dim, keepdim, other)


def matmul(input, other):
    _check_tensor("matmul", input)
    return _ComputeMethods.matmul(input, other)


def mm(input, mat2):
    _check_tensor("mm", input)
    return _ComputeMethods.mm(input, mat2)


def _tensor_list(fn, tensors):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return list(tensors)


def cat(tensors, dim=0):
    """The tensors joined along dim (a copy; promoted dtype)."""
    ts = _tensor_list("cat", tensors)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return _C.ct_cat(ts, operator.index(dim))


concat = cat


def stack(tensors, dim=0):
    """The tensors (all of one shape) joined along a new dim (a copy)."""
    ts = _tensor_list("stack", tensors)
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    return _C.ct_stack(ts, operator.index(dim))


# ---- random numbers ----------------------------------------------------------------------------

def manual_seed(seed):
    """Seeds ctensor's generator (Philox4x32-10, counter-based: the same seed gives the same
    values whatever the thread count; the values are not torch's).  Returns None (torch
    returns its Generator object)."""
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    _C.ct_manual_seed(seed & (2**64 - 1))


def _random_dtype(dtype, default):
    from ._creation import _check_dtype
    dtype = _check_dtype(dtype)
    return default if dtype is None else dtype


def _check_factory_kwargs(device, requires_grad, generator):
    from ._creation import _check_device
    _check_device(device)
    if generator is not None:
        raise TypeError("ctensor has one process-wide generator: generator= is not supported")


def rand(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Uniform in [0, 1): rand(2, 3) or rand((2, 3)); floating and complex dtypes (default float32;
    a complex one: real and imaginary parts each uniform)."""
    from ._creation import _sizes, _requires_grad
    _check_factory_kwargs(device, requires_grad, generator)
    dt = _random_dtype(dtype, D.default_float_dtype())
    return _requires_grad(_C.ct_rand(_sizes(size, "rand"), dt), requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Standard normal: randn(2, 3) or randn((2, 3)); floating and complex dtypes (default float32;
    a complex one: the standard complex normal, each part of variance 1/2)."""
    from ._creation import _sizes, _requires_grad
    _check_factory_kwargs(device, requires_grad, generator)
    dt = _random_dtype(dtype, D.default_float_dtype())
    return _requires_grad(_C.ct_randn(_sizes(size, "randn"), dt), requires_grad)


def randint(*args, size=None, low=None, high=None, dtype=None, device=None, requires_grad=False,
            generator=None):
    """Integers uniform in [low, high): randint(high, size) or randint(low, high, size), size a
    tuple (keywords low=, high=, size= too); dtype default int64."""
    _check_factory_kwargs(device, requires_grad, generator)
    args = list(args)
    size_pos = len(args)
    if size is None and args:
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None and args:
        low = args.pop()
    if args:
        raise TypeError("randint() received an invalid combination of arguments: too many positional "
                        "arguments")
    if high is None or size is None:
        raise TypeError("randint() missing required arguments 'high' and 'size'")
    if size_pos == 3 and not isinstance(size, (list, tuple)):
        raise _invalid_combination("randint", (low, high, size), (
            "int high, tuple of ints size, *, ctensor.dtype dtype, device, bool requires_grad",
            "int low, int high, tuple of ints size, *, ctensor.dtype dtype, device, bool requires_grad"))
    if isinstance(size, Tensor) or not isinstance(size, (list, tuple)):
        raise TypeError(f"randint(): argument 'size' (position {size_pos}) must be tuple of ints, not "
                        f"{type(size).__name__}")
    from ._creation import _sizes, _requires_grad
    from ._random_like import warn_inexact_bounds
    lo, hi, dt = operator.index(low) if low is not None else 0, operator.index(high), _random_dtype(dtype, D.int64)
    try:
        out = _C.ct_randint(lo, hi, _sizes((size,), "randint"), dt)
    except RuntimeError as e:  # ct_randint names itself; torch's message for the bounds does not
        if "is out of bounds for" not in str(e):
            raise
        raise RuntimeError(str(e).removeprefix("randint(): ")) from None
    warn_inexact_bounds(lo, hi, dt)
    return _requires_grad(out, requires_grad)
