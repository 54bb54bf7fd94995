"""torch's ``out=`` keyword on the module functions that take it.

Each function keeps its own argument handling (scalars, alpha, dtype promotion, errors): the
wrapper computes the ordinary result without grad mode, then hands it to the C function
ct_write_out, which applies torch 2.13's out= rules (include/ctensor.h, "Out arguments"):
requires-grad and overlap refusals, the op family's dtype rule, resize_output with the
restride to the op's layout, one converting write (version +1).  The C API has no warning
channel, so torch's deprecation warning for resizing an out that had elements is issued
here.  The result returned is the ``out`` object itself, as torch.
"""
from __future__ import annotations

import functools
import warnings

from . import _C
from ._tensor import Tensor

CASTABLE = _C.CT_OUT_CASTABLE
SAME_DTYPE = _C.CT_OUT_SAME_DTYPE
STRICT = _C.CT_OUT_STRICT
ANY = _C.CT_OUT_ANY
REDUCE_SAME = _C.CT_OUT_REDUCE_SAME
CAT = _C.CT_OUT_CAT
INDEX_SELECT = _C.CT_OUT_INDEX_SELECT
WHERE = _C.CT_OUT_WHERE


def _resize_warning(old, new):
    return (f"An output with one or more elements was resized since it had shape {list(old)}, which does not "
            f"match the required output shape {list(new)}. This behavior is deprecated, and in a future PyTorch "
            "release outputs will not be resized unless they have zero elements. You can explicitly reuse an "
            "out tensor t by resizing it, inplace, to zero elements with t.resize_(0).")


def _tensors_in(args, kwargs):
    """The tensor arguments (inside lists too: cat's tensors), for the grad and overlap checks."""
    found = []
    for value in list(args) + list(kwargs.values()):
        if isinstance(value, Tensor):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(v for v in value if isinstance(v, Tensor))
    return found


def _check_out_type(op, out):
    if not isinstance(out, Tensor):
        raise TypeError(f"{op}(): argument 'out' must be Tensor, not {type(out).__name__}")


def _check_grad(op, outs, inputs):
    from ._autograd import is_grad_enabled
    if is_grad_enabled() and any(t.requires_grad for t in list(inputs) + list(outs)):
        raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def write(op, rule, out, result, inputs, stacklevel=3):
    """Writes result into out with the rules of `rule`; warns as torch when out was resized
    from a shape with elements; returns out."""
    old_shape, old_numel = tuple(out.shape), out.numel()
    try:
        _C.ct_write_out(out, result, list(inputs), rule, op)
    except TypeError as e:  # CT_ERR_DTYPE: torch raises RuntimeError, except torch.cat's check
        if getattr(e, "status", None) == "CT_ERR_DTYPE" and rule != CAT:
            raise RuntimeError(str(e)) from None
        raise
    if old_numel != 0 and tuple(out.shape) != old_shape:
        warnings.warn(_resize_warning(old_shape, tuple(out.shape)), UserWarning, stacklevel=stacklevel)
    return out


def _compute(fn, args, kwargs):
    from ._autograd import no_grad
    with no_grad():
        return fn(*args, **kwargs)


def _wrap(fn, op, rule, prepare=None):
    """fn with an `out=` keyword following `rule`; prepare(out, kwargs) may adjust the keywords
    for ops that compute in out's dtype."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        _check_out_type(op, out)
        inputs = _tensors_in(args, kwargs)
        _check_grad(op, [out], inputs)
        if prepare is not None:
            kwargs = prepare(op, out, kwargs)
        result = _compute(fn, args, kwargs)
        return write(op, rule, out, result, inputs)
    return f


def _torch_name(dtype):
    from ._compute import _TORCH_NAME
    return _TORCH_NAME[dtype]


# The C++ type names torch prints for a dtype's TypeMeta.
_CPP_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
              "int32": "int", "int64": "long int", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "float32": "float", "float64": "double"}


def _strict_dtype_message(expected, got):
    def cpp(d):
        return _CPP_NAMES[str(d).rsplit(".", 1)[-1]]
    return f"Expected out tensor to have dtype {cpp(expected)}, but got {cpp(got)} instead"


def _in_out_dtype(op, out, kwargs):
    """sum/prod/cumsum/cumprod: torch computes in out's dtype; a dtype= that differs is refused."""
    dtype = kwargs.get("dtype")
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(_strict_dtype_message(dtype, out.dtype))
    return dict(kwargs, dtype=out.dtype)


def _mean_dtype(op, out, kwargs):
    """mean divides in out's dtype when that is floating (torch's mean.out); an integer out
    keeps the float result, which the castable rule refuses with torch's message."""
    if kwargs.get("dtype") is None and out.is_floating_point():
        return dict(kwargs, dtype=out.dtype)
    return kwargs


def _creation_dtype(op, out, kwargs):
    """Creation functions make their values in out's dtype; a dtype= that differs is refused."""
    dtype = kwargs.get("dtype")
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {_torch_name(dtype)} does not match dtype of out parameter "
                           f"({_torch_name(out.dtype)})")
    if kwargs.get("requires_grad"):
        raise RuntimeError(f"{op}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    return dict(kwargs, dtype=out.dtype)


def _max_min(fn, op):
    """torch.max/min(input, dim, keepdim=False, out=(values, indices)): both written."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not (isinstance(out, (tuple, list)) and len(out) == 2 and all(isinstance(t, Tensor) for t in out)):
            raise TypeError(f"{op}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        inputs = _tensors_in(args, kwargs)
        _check_grad(op, out, inputs)
        result = _compute(fn, args, kwargs)
        if isinstance(result, Tensor):
            raise TypeError(f"{op}(): out= needs a dim (torch.{op}(input, dim, out=(values, indices)))")
        values, indices = out
        write(op, STRICT, values, result[0], inputs)
        write(op, STRICT, indices, result[1], inputs)
        from . import return_types
        return getattr(return_types, op + "_out")((values, indices))
    return f


def _arange(fn):
    """torch.arange(..., out=t): made in out's dtype; torch's own warning (not resize_output's)
    when an out with elements has another number of elements."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        _check_out_type("arange", out)
        kwargs = _creation_dtype("arange", out, kwargs)
        result = _compute(fn, args, kwargs)
        old_shape, old_numel = tuple(out.shape), out.numel()
        if old_numel != 0 and old_numel != result.numel():
            warnings.warn(f"The number of elements in the out tensor of shape {list(old_shape)} is {old_numel} "
                          f"which does not match the computed number of elements {result.numel()}. Note that this "
                          "may occur as a result of rounding error. The out tensor will be resized to a tensor of "
                          f"shape ({result.numel()},).", UserWarning, stacklevel=2)
        _C.ct_write_out(out, result, [], ANY, "arange")
        return out
    return f


def _quiet_creation(fn, op):
    """linspace, eye, zeros, ones, full, rand, randn, randint: resized without a warning (torch
    resizes these with resize_ directly)."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        _check_out_type(op, out)
        kwargs = _creation_dtype(op, out, kwargs)
        result = _compute(fn, args, kwargs)
        _C.ct_write_out(out, result, [], ANY, op)
        return out
    return f


def _empty(fn):
    """torch.empty(*size, out=t): t resized to size (no write, no warning)."""
    @functools.wraps(fn)
    def f(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        _check_out_type("empty", out)
        kwargs = _creation_dtype("empty", out, kwargs)
        shape = fn(*args, **kwargs).shape  # the argument checks and the sizes, as without out
        out.resize_(shape)
        return out
    return f


_RULES = {
    CASTABLE: ("add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow",
               "floor_divide", "remainder", "fmod", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge",
               "not_equal", "less", "less_equal", "greater", "greater_equal", "exp", "log", "sqrt",
               "sin", "cos", "tanh", "sigmoid", "reciprocal", "angle"),
    SAME_DTYPE: ("neg", "negative", "abs", "absolute", "clamp", "clip", "sgn", "sign"),
    STRICT: ("matmul", "mm", "gather", "argmax", "argmin"),
    REDUCE_SAME: ("amax", "amin"),
    CAT: ("cat", "concat", "concatenate", "stack"),
    INDEX_SELECT: ("index_select",),
    WHERE: ("where",),
}
# The name torch's messages use for an alias.
_TORCH_OP = {"subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div", "negative": "neg",
             "absolute": "abs", "clip": "clamp", "concat": "cat", "concatenate": "cat", "not_equal": "ne",
             "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge"}


def install(namespace):
    """Replaces the functions in `namespace` (the ctensor module's globals) by versions that
    take out=."""
    for rule, names in _RULES.items():
        for name in names:
            if name in namespace:
                namespace[name] = _wrap(namespace[name], _TORCH_OP.get(name, name), rule)
    namespace["mean"] = _wrap(namespace["mean"], "mean", CASTABLE, _mean_dtype)
    for name in ("sum", "prod", "cumsum", "cumprod"):
        namespace[name] = _wrap(namespace[name], name, ANY, _in_out_dtype)
    for name in ("max", "min"):
        namespace[name] = _max_min(namespace[name], name)
    namespace["arange"] = _arange(namespace["arange"])
    for name in ("linspace", "eye", "zeros", "ones", "full", "rand", "randn", "randint"):
        namespace[name] = _quiet_creation(namespace[name], name)
    namespace["empty"] = _empty(namespace["empty"])
