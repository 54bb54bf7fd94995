"""masked_select, masked_fill(_), masked_scatter(_), nonzero, argwhere, where(condition), rot90
and repeat_interleave as torch 2.13's Python API, over the C functions of the same names
(include/ctensor.h, "Masked copies").  Every result is a copy on a new storage, except
nonzero(as_tuple=True) / where(condition), which are views (unbind) of one new index matrix,
as in torch; the trailing-underscore methods write self in place and return it."""

from __future__ import annotations

import builtins
import operator

from . import _C

Tensor = _C.Tensor


def _tensor_arg(op, name, value, pos):
    if not isinstance(value, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")
    return value


def _fill(op, self, mask, value, in_place):
    _tensor_arg(op, "mask", mask, 1)
    if isinstance(value, Tensor):
        f = _C.ct_masked_fill_tensor_ if in_place else _C.ct_masked_fill_tensor
    elif isinstance(value, int) and not self.is_floating_point():
        # torch checks an integer value by integer rules (-1 fits uint8: it wraps); the C
        # number form takes a double, so an int goes as a 0-dim int64 tensor (same node:
        # integer tensors record none)
        from ._creation import tensor as _tensor
        value = _tensor(value, dtype=_C_int64())
        f = _C.ct_masked_fill_tensor_ if in_place else _C.ct_masked_fill_tensor
    elif isinstance(value, (builtins.bool, int, float)) or hasattr(value, "__float__"):
        if isinstance(value, complex):
            raise TypeError(f"{op}(): argument 'value' must be Number or Tensor, not complex")
        value = float(value)
        f = _C.ct_masked_fill_ if in_place else _C.ct_masked_fill
    else:
        raise TypeError(f"{op}() received an invalid combination of arguments - got (Tensor, "
                        f"{type(value).__name__}), but expected one of: (Tensor mask, Tensor value) "
                        f"or (Tensor mask, Number value)")
    r = f(self, mask, value)
    return self if in_place else r


def _C_int64():
    from ._dtype import int64
    return int64


def _dims(op, dims):
    try:
        return [operator.index(d) for d in dims]
    except TypeError:
        raise TypeError(f"{op}(): argument 'dims' (position 2) must be tuple of ints, "
                        f"not {type(dims).__name__}") from None


def _opt_int(op, name, value):
    if value is None:
        return None
    if isinstance(value, (builtins.bool, float)) or not hasattr(value, "__index__"):
        raise TypeError(f"{op}(): argument '{name}' must be int, not {type(value).__name__}")
    return operator.index(value)


def _nonzero_tuple(t):
    # torch's nonzero_numpy: a 0-dim input counts as 1-D; the results are unbind's views.
    m = _C.ct_nonzero(t.unsqueeze(0) if t.dim() == 0 else t)
    return m.unbind(1)


class _MaskMethods:
    def masked_select(self, mask):
        """Tensor.masked_select(mask): the elements where mask is true, broadcast, as 1-D (copy)."""
        return _C.ct_masked_select(self, _tensor_arg("masked_select", "mask", mask, 1))

    def masked_fill(self, mask, value):
        """Tensor.masked_fill(mask, value): a copy with value where mask is true."""
        return _fill("masked_fill", self, mask, value, False)

    def masked_fill_(self, mask, value):
        """Tensor.masked_fill_(mask, value): value written where mask is true (in place)."""
        return _fill("masked_fill_", self, mask, value, True)

    def masked_scatter(self, mask, source):
        """Tensor.masked_scatter(mask, source): a copy taking source's elements, in order, where
        mask is true."""
        _tensor_arg("masked_scatter", "mask", mask, 1)
        return _C.ct_masked_scatter(self, mask, _tensor_arg("masked_scatter", "source", source, 2))

    def masked_scatter_(self, mask, source):
        """Tensor.masked_scatter_(mask, source): the same, in place."""
        _tensor_arg("masked_scatter_", "mask", mask, 1)
        _C.ct_masked_scatter_(self, mask, _tensor_arg("masked_scatter_", "source", source, 2))
        return self

    def nonzero(self, *, as_tuple=False):
        """Tensor.nonzero(*, as_tuple=False): int64 (count, ndim) indices of non-zero elements
        (new storage, column-major as torch); as_tuple: one index tensor per dim (views of one
        new storage)."""
        if as_tuple:
            return _nonzero_tuple(self)
        return _C.ct_nonzero(self)

    def argwhere(self):
        """Tensor.argwhere(): nonzero()."""
        return _C.ct_argwhere(self)

    def rot90(self, k=1, dims=(0, 1)):
        """Tensor.rot90(k=1, dims=(0, 1)): rotated k quarter turns from dims[0] towards dims[1]
        (a copy; odd k gives transposed strides)."""
        return _C.ct_rot90(self, operator.index(k), _dims("rot90", dims))

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Tensor.repeat_interleave(repeats, dim=None, *, output_size=None): each element
        repeated (along dim, or over the flattened tensor) (a copy)."""
        dim = _opt_int("repeat_interleave", "dim", dim)
        output_size = _opt_int("repeat_interleave", "output_size", output_size)
        if isinstance(repeats, Tensor):
            return _C.ct_repeat_interleave_tensor(self, repeats, dim, output_size)
        if isinstance(repeats, (builtins.bool, float)) or not hasattr(repeats, "__index__"):
            raise TypeError(f"repeat_interleave(): argument 'repeats' (position 1) must be Tensor or int, "
                            f"not {type(repeats).__name__}")
        return _C.ct_repeat_interleave(self, operator.index(repeats), dim, output_size)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_MaskMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions ----------------------------------------------------------------------

def masked_select(input, mask):
    """torch.masked_select(input, mask)."""
    return _MaskMethods.masked_select(_tensor_arg("masked_select", "input", input, 1), mask)


def masked_fill(input, mask, value):
    """torch.masked_fill(input, mask, value)."""
    return _fill("masked_fill", _tensor_arg("masked_fill", "input", input, 1), mask, value, False)


def masked_scatter(input, mask, source):
    """torch.masked_scatter(input, mask, source)."""
    return _MaskMethods.masked_scatter(_tensor_arg("masked_scatter", "input", input, 1), mask, source)


def nonzero(input, *, as_tuple=False):
    """torch.nonzero(input, *, as_tuple=False)."""
    return _MaskMethods.nonzero(_tensor_arg("nonzero", "input", input, 1), as_tuple=as_tuple)


def argwhere(input):
    """torch.argwhere(input)."""
    return _C.ct_argwhere(_tensor_arg("argwhere", "input", input, 1))


def rot90(input, k=1, dims=(0, 1)):
    """torch.rot90(input, k=1, dims=(0, 1))."""
    return _MaskMethods.rot90(_tensor_arg("rot90", "input", input, 1), k, dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """torch.repeat_interleave(input, repeats, dim=None, *, output_size=None), or
    torch.repeat_interleave(repeats, *, output_size=None): indices 0.. repeated repeats[i] times."""
    _tensor_arg("repeat_interleave", "input", input, 1)
    if repeats is None:
        if dim is not None:
            raise TypeError("repeat_interleave() received an invalid combination of arguments - got "
                            "(Tensor, dim=int), but expected one of: (Tensor repeats, *, int output_size)")
        return _C.ct_repeat_interleave_repeats(input, _opt_int("repeat_interleave", "output_size", output_size))
    return _MaskMethods.repeat_interleave(input, repeats, dim, output_size=output_size)


def where(condition, input=None, other=None):
    """torch.where(condition, input, other) (elementwise choice), or torch.where(condition):
    nonzero(condition, as_tuple=True)."""
    if input is None and other is None:
        return _nonzero_tuple(_tensor_arg("where", "condition", condition, 1))
    if input is None or other is None:
        raise TypeError("where() missing 1 required positional argument: "
                        f"\"{'input' if input is None else 'other'}\"")
    from ._compute import where as where3
    return where3(condition, input, other)
