"""Memory formats (torch.contiguous_format, channels_last, channels_last_3d, preserve_format) and
the methods and factories that take them, over the ct_memory_format functions of the header.

A memory format names the dim order a NEW tensor is laid out in; it is read off a tensor's strides
(is_contiguous(memory_format=)), never stored in it.  The preserve rule (empty_like, clone, to,
*_like): a dense non-overlapping input keeps its exact strides, any other input gets dense strides
in the order of its own."""

from __future__ import annotations

from . import _C
from . import _dtype as D

Tensor = _C.Tensor

__all__ = ["memory_format", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format",
           "empty", "empty_strided", "empty_like", "zeros_like", "ones_like", "full_like", "clone", "install"]


class memory_format(D.ModuleConstant):
    """torch.memory_format: one of four module-level objects, compared by identity."""

    __slots__ = ("_code", "_name")

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'ctensor.memory_format' instances")

    @classmethod
    def _make(cls, code, name):
        obj = object.__new__(cls)
        object.__setattr__(obj, "_code", code)
        object.__setattr__(obj, "_name", name)
        return obj

    def __setattr__(self, name, value):
        raise AttributeError(f"'ctensor.memory_format' object attribute '{name}' is read-only")


# The numbers are ct_memory_format's.
contiguous_format = memory_format._make(0, "contiguous_format")
channels_last = memory_format._make(1, "channels_last")
channels_last_3d = memory_format._make(2, "channels_last_3d")
preserve_format = memory_format._make(3, "preserve_format")


def _code(fmt, fn, default=None):
    """The ct_memory_format number of fmt; None means `default` (for torch's optional arguments)."""
    if fmt is None and default is not None:
        fmt = default
    if not isinstance(fmt, memory_format):
        raise TypeError(f"{fn}(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    return fmt._code


def _requires_grad(t, requires_grad):
    from ._creation import _requires_grad as mark
    return mark(t, requires_grad)


# ---- Tensor methods ----------------------------------------------------------------------------

def _contiguous(self, memory_format=contiguous_format):
    """self if already laid out in memory_format (contiguous_format by default), else a copy laid out so.

    The copy records CloneBackward0; preserve_format is refused when a copy is needed."""
    return _C.ct_contiguous_format(self, _code(memory_format, "contiguous"))


def _is_contiguous(self, memory_format=contiguous_format):
    """True if the strides are exactly memory_format's for this shape (size-1 dims ignored)."""
    return _C.ct_is_contiguous_format(self, _code(memory_format, "is_contiguous")) == 1


def _clone(self, *, memory_format=preserve_format):
    """A copy with a new storage laid out as memory_format says (by default self's strides when dense); records a graph."""
    return _C.ct_clone_format(self, _code(memory_format, "clone", preserve_format))


# ---- functions ----------------------------------------------------------------------------------

def clone(input, *, memory_format=preserve_format):
    """A copy of input with a new storage laid out as memory_format says (by default input's strides when dense); records a graph."""
    if not isinstance(input, Tensor):
        raise TypeError(f"clone(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return _clone(input, memory_format=memory_format)


def empty(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False,
          memory_format=contiguous_format):
    """empty(*size, dtype=None, memory_format=torch.contiguous_format): uninitialized memory laid out in
    memory_format (channels_last needs 4 dims, channels_last_3d 5; preserve_format is refused)."""
    from . import _creation
    if memory_format is None or memory_format is contiguous_format:
        return _creation.empty(*size, dtype=dtype, device=device, requires_grad=requires_grad, out=out,
                                      layout=layout, pin_memory=pin_memory)
    code = _code(memory_format, "empty")
    from ._layout import check_layout
    check_layout(layout, "empty")
    dtype = _creation._check_dtype(dtype)
    _creation._check_device(device)
    if out is not None:
        raise TypeError("empty(): out= is not supported by ctensor")
    sizes = _creation._sizes(size, "empty")
    t = _C.ct_empty_format(sizes, dtype if dtype is not None else D.default_float_dtype(), code)
    return _requires_grad(t, requires_grad)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """empty_strided(size, stride, dtype=None): uninitialized, with exactly these strides; the storage
    holds the bytes they reach."""
    from . import _creation
    dtype = _creation._check_dtype(dtype)
    _creation._check_device(device)
    sizes = _creation._sizes((size,), "empty_strided")
    if any(s < 0 for s in sizes):  # torch checks the sizes before the strides
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}")
    t = _C.ct_empty_strided(sizes, stride, dtype if dtype is not None else D.default_float_dtype())
    return _requires_grad(t, requires_grad)


def _like_args(fn, input, dtype, device, memory_format, layout=None):
    from . import _creation
    from ._layout import check_layout
    _creation._check_like_input(fn, input)
    check_layout(layout, fn)
    dtype = _creation._check_dtype(dtype)
    _creation._check_device(device)
    return (dtype if dtype is not None else input.dtype), _code(memory_format, fn, preserve_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=preserve_format):
    """empty_like(input, dtype=None, memory_format=torch.preserve_format): uninitialized, input's shape,
    laid out by the preserve rule (input's own strides when it is dense) or as memory_format says."""
    d, code = _like_args("empty_like", input, dtype, device, memory_format, layout)
    return _requires_grad(_C.ct_empty_like(input, d, code), requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=preserve_format):
    """zeros_like(input, dtype=None, memory_format=torch.preserve_format): zeros laid out as empty_like."""
    d, code = _like_args("zeros_like", input, dtype, device, memory_format, layout)
    return _requires_grad(_C.ct_zeros_like(input, d, code), requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=preserve_format):
    """ones_like(input, dtype=None, memory_format=torch.preserve_format): ones laid out as empty_like."""
    d, code = _like_args("ones_like", input, dtype, device, memory_format, layout)
    return _requires_grad(_C.ct_ones_like(input, d, code), requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=preserve_format):
    """full_like(input, fill_value, dtype=None, memory_format=torch.preserve_format): fill_value laid out
    as empty_like."""
    import numbers
    from . import _creation
    d, code = _like_args("full_like", input, dtype, device, memory_format, layout)
    _creation._check_fill_value("full_like", fill_value)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if d is D.int64 and isinstance(fill_value, numbers.Integral) and abs(int(fill_value)) > 2**53:
        # beyond double precision: the exact values (full() builds them exactly), seen with the
        # strides empty_like gives, then cloned (clone keeps the strides of a dense tensor)
        strides = _C.ct_empty_like(input, d, code).stride()
        flat = _creation.full((input.numel(),), fill_value, dtype=d)
        out = _C.ct_clone(flat.as_strided(tuple(input.shape), strides, 0))
        return _requires_grad(out, requires_grad)
    if isinstance(fill_value, numbers.Integral):
        fill_value = D.uint8_wrapped(fill_value, d)
    return _requires_grad(_C.ct_full_like(input, fill_value, d, code), requires_grad)


def to_memory_format(self, dtype, memory_format, copy):
    """Tensor.to(..., memory_format=): ct_to_format (self when nothing changes)."""
    return _C.ct_to_format(self, dtype if dtype is not None else self.dtype,
                           _code(memory_format, "to", preserve_format), 1 if copy else 0)


def install():
    """Replaces Tensor.contiguous / is_contiguous / clone by the memory_format-taking versions."""
    for name, fn in (("contiguous", _contiguous), ("is_contiguous", _is_contiguous), ("clone", _clone)):
        fn.__name__ = name
        fn.__qualname__ = "Tensor." + name
        _C._install(Tensor, name, fn)
