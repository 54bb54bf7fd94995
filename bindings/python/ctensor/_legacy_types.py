"""torch's legacy tensor types: ``FloatTensor``, ``LongTensor``, ... as constructors
(``FloatTensor(2, 3)`` uninitialized, ``FloatTensor([1, 2])`` from data, ``FloatTensor(t)`` an alias
of a tensor of that dtype) and as ``isinstance`` tests of the dtype; and ``Tensor.type()``.
They are not subclasses of ctensor.Tensor, as in torch."""

from __future__ import annotations

from . import _C
from . import _dtype as D

Tensor = _C.Tensor

__all__ = ["LEGACY_TYPES", "install"]

_NAMES = {D.float32: "FloatTensor", D.float64: "DoubleTensor", D.float16: "HalfTensor",
          D.bfloat16: "BFloat16Tensor", D.int64: "LongTensor", D.int32: "IntTensor", D.int16: "ShortTensor",
          D.int8: "CharTensor", D.uint8: "ByteTensor", D.bool: "BoolTensor"}


class tensortype(type):
    """The metaclass of the legacy types: isinstance(x, FloatTensor) asks x's dtype."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls):
        return f"<class 'ctensor.{cls.__name__}'>"

    def __call__(cls, *args, device=None):
        from ._creation import _sizes, _tensor
        from ._device import _as_device
        if device is not None and _as_device(device, cls.__name__).type != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: "
                               f"{_as_device(device, cls.__name__).type} was passed")
        dt = cls.dtype
        if not args:
            return _C.ct_empty((0,), dt)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not dt:
                raise TypeError(f"expected {cls.__name__} of dtype {dt}, got a tensor of dtype {args[0].dtype}")
            return _C.ct_alias_view(args[0])  # torch: an alias (AliasBackward0) of the tensor
        if len(args) == 1 and not isinstance(args[0], int) and hasattr(args[0], "__len__") \
                and type(args[0]).__name__ != "Size":
            return _tensor(args[0], dt)
        if len(args) == 1 and isinstance(args[0], float):
            raise TypeError("new(): data must be a sequence (got float)")
        sizes = _sizes(args, cls.__name__)
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}")
        return _C.ct_empty(sizes, dt)


LEGACY_TYPES = {name: tensortype(name, (), {"dtype": dt, "is_cuda": False, "is_sparse": False,
                                             "__module__": "ctensor",
                                             "__doc__": f"Tensors of dtype ctensor.{dt._name} (legacy name)."})
                for dt, name in _NAMES.items()}
_BY_NAME = {f"ctensor.{name}": cls for name, cls in LEGACY_TYPES.items()}


def _type(self, dtype=None, non_blocking=False, **kwargs):
    """Without arguments: this tensor's legacy type name ('ctensor.FloatTensor').  With a dtype, a
    legacy type or its name: this tensor converted to it (itself if the dtype is the same)."""
    if dtype is None:
        return "ctensor." + _NAMES[self.dtype]
    if isinstance(dtype, str):
        cls = _BY_NAME.get(dtype) or _BY_NAME.get(dtype.replace("torch.", "ctensor.", 1))
        if cls is None:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = cls.dtype
    elif isinstance(dtype, tensortype):
        dtype = dtype.dtype
    elif not isinstance(dtype, D.dtype):
        raise TypeError(f"type(): dtype must be ctensor.dtype, a legacy type or its name, not {type(dtype).__name__}")
    return self if dtype is self.dtype else _C.ct_to(self, dtype)


def install():
    _type.__name__ = "type"
    _type.__qualname__ = "Tensor.type"
    _C._install(Tensor, "type", _type)
    from ._layout import strided
    _C._install(Tensor, "layout", property(lambda self: strided, doc="ctensor.strided: every tensor's layout"))
