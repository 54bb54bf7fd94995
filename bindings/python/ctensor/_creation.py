"""Factories: tensor, zeros, ones, empty, full, arange (torch's signatures and dtype rules)."""

from __future__ import annotations

import array
import numbers
import operator

from . import _C
from . import _dtype as D
from ._dtype import dtype as _dtype_cls

__all__ = ["tensor", "as_tensor", "zeros", "ones", "empty", "full", "arange",
           "zeros_like", "ones_like", "empty_like", "full_like", "is_tensor"]

Tensor = _C.Tensor

_INT_RANGE = {  # dtype -> (lowest, max), c10::overflows for integer targets
    D.uint8: (0, 255), D.int8: (-128, 127), D.int16: (-2**15, 2**15 - 1),
    D.int32: (-2**31, 2**31 - 1), D.int64: (-2**63, 2**63 - 1),
}


def _check_dtype(dtype, what="dtype"):
    """A factory's dtype= argument as a ctensor.dtype (None stays None): torch also takes Python's
    float, int and bool for float64, int64 and bool."""
    if dtype is None or isinstance(dtype, _dtype_cls):
        return dtype
    py = D.from_python_type(dtype)
    if py is not None:
        return py
    raise TypeError(f"{what} must be ctensor.dtype, not {type(dtype).__name__}")


def _check_device(device, fn=None):
    """A factory's device= argument: None (the default device), a ctensor.device, a string such as
    'cpu' or 'cuda:0', or an accelerator index; any device but the CPU is refused as a CPU-only
    torch refuses it.  fn names the factory in the TypeError for another type."""
    from ._device import tensor_device
    tensor_device(device, fn)


def is_tensor(obj) -> bool:
    """True if obj is a ctensor.Tensor."""
    return isinstance(obj, Tensor)


def _sizes(size, fn):
    """torch's `*size` convention: f(2, 3), f((2, 3)), f([2, 3]), f(Size)."""
    if len(size) == 1 and not isinstance(size[0], (int, Tensor)) and hasattr(size[0], "__len__"):
        size = tuple(size[0])
    if len(size) == 1 and (isinstance(size[0], float) or not hasattr(size[0], "__index__")):
        raise TypeError(f"{fn}(): argument 'size' (position 1) must be tuple of ints, not {type(size[0]).__name__}")
    out = []
    for i, s in enumerate(size):
        if isinstance(s, float) or not hasattr(s, "__index__"):
            raise TypeError(f"{fn}(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(s).__name__} at pos {i}")
        out.append(operator.index(s))
    return tuple(out)


# ---- tensor(data) -----------------------------------------------------------------------

def _numpy():
    import numpy
    return numpy


def _is_numpy_array(x):
    t = type(x)
    return t.__module__ == "numpy" and t.__name__ == "ndarray"


def _is_numpy_scalar(x):
    t = type(x)
    return t.__module__ == "numpy" and not t.__name__ == "ndarray" and hasattr(x, "dtype")


_NP_TO_CT = {  # numpy dtype name -> ctensor dtype
    "bool": D.bool, "uint8": D.uint8, "int8": D.int8, "int16": D.int16, "int32": D.int32,
    "int64": D.int64, "float16": D.float16, "float32": D.float32, "float64": D.float64,
    "complex64": D.complex64, "complex128": D.complex128,
}
_CT_TO_NP = {v: k for k, v in _NP_TO_CT.items()}


def _numpy_dtype_to_ct(npdtype):
    ct = _NP_TO_CT.get(npdtype.name)
    if ct is None or not npdtype.isnative:
        if ct is not None:
            raise ValueError("given numpy array has byte order different from the native byte order. "
                             "Conversion between byte orders is currently not supported.")
        # torch's message, with ctensor's own list (torch 2.13 adds uint64, uint32 and uint16,
        # which ctensor has no dtype for)
        raise TypeError(f"can't convert np.ndarray of type numpy.{npdtype.type.__name__}. The only "
                        "supported types are: float64, float32, float16, complex64, complex128, int64, int32, "
                        "int16, int8, uint8, and bool.")
    return ct


def _infer_scalar_type(obj):
    """torch's infer_scalar_type (python_arg_parsing / tensor_new.cpp) for one object."""
    if _is_numpy_scalar(obj):
        return _numpy_dtype_to_ct(obj.dtype)
    if isinstance(obj, float):
        return D.default_float_dtype()
    if isinstance(obj, bool):
        return D.bool
    if isinstance(obj, numbers.Integral):
        return D.int64
    if isinstance(obj, complex):
        return D.default_complex_dtype()
    if isinstance(obj, Tensor):
        return obj.dtype
    if _is_foreign_tensor(obj):
        return _foreign_array(obj).dtype
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
    if _is_numpy_array(obj):
        return _numpy_dtype_to_ct(obj.dtype)
    if _is_sequence(obj):
        result = None
        for item in obj:
            t = _infer_scalar_type(item)
            result = t if result is None else D.promote_types(result, t)
        return result if result is not None else D.default_float_dtype()
    raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")


def _is_foreign_tensor(obj):
    """Another library's tensor (a DLPack producer that is not a NumPy array or scalar): inside
    a list, torch reads it as a scalar, as it reads its own tensors."""
    return hasattr(obj, "__dlpack__") and not _is_numpy_array(obj) and not _is_numpy_scalar(obj) \
        and not isinstance(obj, Tensor)


def _is_sequence(obj):
    return isinstance(obj, (list, tuple)) or (
        not isinstance(obj, (str, bytes, dict, Tensor)) and hasattr(obj, "__len__")
        and hasattr(obj, "__getitem__") and not _is_numpy_scalar(obj) and not _is_foreign_tensor(obj))


def _compute_sizes(data):
    sizes = []
    seq = data
    while _is_sequence(seq) and not _is_numpy_array(seq):
        if isinstance(seq, (str, bytes)):
            raise ValueError(f"too many dimensions '{type(seq).__name__}'")
        n = len(seq)
        sizes.append(n)
        if n == 0:
            break
        seq = seq[0]
        if isinstance(seq, (str, bytes)):  # a str is a sequence of itself, forever (torch)
            raise ValueError(f"too many dimensions '{type(seq).__name__}'")
    if _is_numpy_array(seq):
        sizes.extend(seq.shape)
    elif isinstance(seq, Tensor) and False:  # torch 1.13 treats tensors in lists as scalars
        pass
    return sizes


def _flatten(data, sizes, dim, out):
    """Appends the scalars of data in C order to out, checking the nested lengths."""
    if dim == len(sizes):
        if _is_sequence(data) and not isinstance(data, (str, bytes)):
            if _is_numpy_array(data) and data.ndim == 0:
                out.append(data.item())
                return
            raise TypeError(f"'{type(data).__name__}' object cannot be interpreted as an integer")
        out.append(data)
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if _is_numpy_array(data):
        if tuple(data.shape) != tuple(sizes[dim:]):
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(data)})")
        out.extend(data.reshape(-1).tolist())
        return
    n = len(data)
    if n != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {n})")
    for item in data:
        _flatten(item, sizes, dim + 1, out)


def _scalar_value(v):
    if isinstance(v, Tensor):
        return v.item()
    if _is_numpy_scalar(v):
        return v.item()
    if _is_foreign_tensor(v):
        from ._values import item  # NumPy's ValueError for several elements, as torch
        return item(_foreign_array(v))
    return v


def _to_int_checked(v, dt):
    """torch's unpackIntegral + c10::checked_convert: a Python value for an integer dtype."""
    lo, hi = _INT_RANGE[dt]
    if isinstance(v, float):
        if v != v or v < lo or v > hi:  # nan has no integer value
            raise RuntimeError(f"value cannot be converted to type {dt._name} without overflow")
        return int(v)
    if isinstance(v, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(v).__name__}'")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer") from None
    if not (-2**63 <= i < 2**63):
        raise ValueError("Overflow when unpacking long long")
    if lo == 0:  # unsigned: negative values wrap (two's complement) when -v fits
        if i > hi or (i < 0 and -i > hi):
            raise RuntimeError(f"value cannot be converted to type {dt._name} without overflow")
    elif i < lo or i > hi:
        raise RuntimeError(f"value cannot be converted to type {dt._name} without overflow")
    return i


def _to_float(v):
    if isinstance(v, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(v).__name__}'")
    try:
        return float(v)
    except TypeError:
        raise TypeError(f"must be real number, not {type(v).__name__}") from None
    except OverflowError:
        raise RuntimeError("Overflow when unpacking double") from None


def _to_complex(v):
    if isinstance(v, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(v).__name__}'")
    try:
        return complex(v)
    except TypeError:
        raise TypeError(f"must be real number, not {type(v).__name__}") from None


def _from_values(flat, sizes, dt):
    """A new tensor of dtype dt and shape sizes from a flat list of Python scalars."""
    flat = [_scalar_value(v) for v in flat]
    if dt.is_complex:
        parts = []
        for v in flat:
            c = _to_complex(v)
            parts += (c.real, c.imag)
        t = _C.ct_from_data(array.array("d", parts), sizes, D.complex128)
    elif dt.is_floating_point:
        buf = array.array("d", [_to_float(v) for v in flat])
        t = _C.ct_from_data(buf, sizes, D.float64)
    elif dt is D.bool:
        vals = []
        for v in flat:
            if isinstance(v, (str, bytes)):
                raise TypeError(f"new(): invalid data type '{type(v).__name__}'")
            vals.append(1 if v else 0)
        t = _C.ct_from_data(bytes(vals), sizes, D.bool)
    else:
        buf = array.array("q", [_to_int_checked(v, dt) for v in flat])
        t = _C.ct_from_data(buf, sizes, D.int64)
    return t if t.dtype is dt else _C.ct_to(t, dt)


def _from_numpy_copy(a, dt):
    src_dt = _numpy_dtype_to_ct(a.dtype)
    c = a if a.flags.c_contiguous else a.copy(order="C")  # (ascontiguousarray makes 0-d 1-d)
    t = _C.ct_from_data(c, a.shape, src_dt)
    if dt is not None and dt is not src_dt:
        t = _C.ct_to(t, dt)
    return t


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of data (nested lists/tuples of numbers, a scalar, a NumPy
    array, a tensor, or any array with __dlpack__, __array_interface__ or __array__).  Without dtype: bools -> bool, ints -> int64, floats -> float32,
    NumPy arrays and scalars keep their dtype; mixed lists promote as torch does."""
    dtype = _check_dtype(dtype)
    _check_device(device)
    return _requires_grad(_tensor(data, dtype), requires_grad)


def _tensor(data, dtype):
    if isinstance(data, Tensor):
        # torch.tensor(t) copies t's values without its graph
        t = _C.ct_clone(_C.ct_detach(data))
        return t if dtype is None or dtype is t.dtype else _C.ct_to(t, dtype)
    if _is_numpy_array(data):
        return _from_numpy_copy(data, dtype)
    if _is_numpy_scalar(data):
        return _from_numpy_copy(_numpy().asarray(data), dtype)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    shared = _foreign_array(data)
    if shared is not None:
        # a copy: a new storage even when the dtype already matches
        return _C.ct_clone(shared) if dtype is None or dtype is shared.dtype else _C.ct_to(shared, dtype)
    sizes = _compute_sizes(data)
    inferred = dtype if dtype is not None else _infer_scalar_type(data)
    flat = []
    _flatten(data, sizes, 0, flat)
    return _from_values(flat, tuple(sizes), inferred)


def _foreign_array(data):
    """A tensor on the memory of another library's array, or None for anything else.

    torch.tensor/as_tensor read any object with __dlpack__ (a torch tensor, a JAX or CuPy
    array...) through DLPack; ctensor does the same, and also reads objects that only offer
    NumPy's __array_interface__ or __array__ (through numpy.asarray, which shares memory when
    it can) -- torch 2.13 refuses those ("Could not infer dtype of ...")."""
    from ._interop import from_dlpack, from_numpy
    if hasattr(data, "__dlpack__"):
        return from_dlpack(data)
    if hasattr(data, "__array_interface__") or hasattr(data, "__array__"):
        return from_numpy(_numpy().asarray(data))
    return None


def _requires_grad(t, requires_grad):
    """A factory's requires_grad=: marks the new leaf (torch's error for non-floating dtypes)."""
    if requires_grad:
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None):
    """data itself if it is a tensor of that dtype; shares the memory of a NumPy array or a DLPack /
    __array_interface__ producer when the dtype matches; else a copy."""
    dtype = _check_dtype(dtype)
    _check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None else _C.ct_to(data, dtype)
    if _is_numpy_array(data):
        from ._interop import from_numpy
        try:
            t = from_numpy(data)
        except (TypeError, ValueError):
            return tensor(data, dtype=dtype)
        return t if dtype is None else _C.ct_to(t, dtype)
    if not _is_numpy_scalar(data):
        # torch 2.13 shares a DLPack producer's memory when the dtype matches, else copies
        t = _foreign_array(data)
        if t is not None:
            return t if dtype is None else _C.ct_to(t, dtype)
    return tensor(data, dtype=dtype)


def _factory(fn, cname):
    def f(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False):
        dtype = _check_dtype(dtype)
        _check_device(device, fn)
        from ._layout import check_layout
        check_layout(layout, fn)
        if out is not None:
            raise TypeError(f"{fn}(): out= is not supported by ctensor")
        if not size:
            raise TypeError(f"{fn}() received an invalid combination of arguments - got (), but "
                            "expected (tuple of ints size, *, ctensor.dtype dtype)")
        sizes = _sizes(size, fn)
        if fn == "zeros" and any(s < 0 for s in sizes):  # torch 2.13's zeros checks first, in its own words
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        t = getattr(_C, cname)(sizes, dtype if dtype is not None else D.default_float_dtype())
        return _requires_grad(t, requires_grad)
    f.__name__ = fn
    f.__qualname__ = fn
    return f


zeros = _factory("zeros", "ct_zeros")
zeros.__doc__ = "zeros(*size, dtype=None) -> Tensor filled with 0 (float32 by default)."
ones = _factory("ones", "ct_ones")
ones.__doc__ = "ones(*size, dtype=None) -> Tensor filled with 1 (float32 by default)."
empty = _factory("empty", "ct_empty")
empty.__doc__ = "empty(*size, dtype=None) -> Tensor with uninitialized memory (float32 by default)."


def _check_fill_value(fn, value):
    if not isinstance(value, (numbers.Number, Tensor)) and not _is_numpy_scalar(value):
        raise TypeError(f"{fn}(): argument 'fill_value' (position 2) must be Number, not {type(value).__name__}")


def full(size, fill_value, dtype=None, device=None, requires_grad=False, out=None):
    """full(size, fill_value, dtype=None): every element fill_value.  Without dtype: bool for a
    bool, int64 for an int, float32 for a float (torch 1.13's rule)."""
    dtype = _check_dtype(dtype)
    _check_device(device)
    _check_fill_value("full", fill_value)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = D.bool
        elif isinstance(fill_value, numbers.Integral):
            dtype = D.int64
        else:
            dtype = D.default_float_dtype()
    sizes = _sizes((size,) if isinstance(size, int) else tuple(size), "full")
    if dtype is D.int64 and isinstance(fill_value, numbers.Integral) and abs(int(fill_value)) > 2**53:
        # beyond double precision: fill exactly through a 0-dim int64 tensor
        src = _C.ct_from_data(array.array("q", [int(fill_value)]), (), D.int64)
        return _requires_grad(_C.ct_contiguous(_C.ct_expand(src, sizes)), requires_grad)
    if isinstance(fill_value, numbers.Integral):
        fill_value = D.uint8_wrapped(fill_value, dtype)
    return _requires_grad(_C.ct_full(sizes, fill_value, dtype), requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False, out=None):
    """arange(end) / arange(start, end, step=1): 1-D, start + k*step while < end.  Without dtype:
    int64 if start, end and step are ints, else float32."""
    dtype = _check_dtype(dtype)
    _check_device(device)
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if dtype is None:
        if all(isinstance(v, numbers.Integral) for v in vals):
            dtype = D.int64
        else:
            dtype = D.default_float_dtype()
    return _requires_grad(_C.ct_arange(float(vals[0]), float(vals[1]), float(vals[2]), dtype), requires_grad)


def _check_like_input(fn, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


def _like(fn):
    def f(input, dtype=None, device=None, requires_grad=False, memory_format=None):
        _check_like_input(f.__name__, input)
        return fn(input.shape, dtype=dtype if dtype is not None else input.dtype, device=device,
                  requires_grad=requires_grad)
    return f


zeros_like = _like(zeros)
zeros_like.__name__ = "zeros_like"
zeros_like.__doc__ = "zeros_like(input, dtype=None): zeros of input's shape (C-contiguous)."
ones_like = _like(ones)
ones_like.__name__ = "ones_like"
ones_like.__doc__ = "ones_like(input, dtype=None): ones of input's shape (C-contiguous)."
empty_like = _like(empty)
empty_like.__name__ = "empty_like"
empty_like.__doc__ = "empty_like(input, dtype=None): uninitialized, input's shape (C-contiguous)."


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False, memory_format=None):
    """full_like(input, fill_value, dtype=None): fill_value in input's shape (C-contiguous)."""
    _check_like_input("full_like", input)
    _check_fill_value("full_like", fill_value)
    return full(input.shape, fill_value, dtype=dtype if dtype is not None else input.dtype, device=device,
                requires_grad=requires_grad)
