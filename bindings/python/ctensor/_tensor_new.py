"""``ctensor.Tensor(...)`` as a constructor, torch's legacy ``torch.Tensor`` new():
``Tensor(2, 3)`` uninitialized with the default dtype, ``Tensor([1, 2])`` from data in the
default dtype, ``Tensor()`` empty (shape (0,)), ``Tensor(size=(2, 3))``, ``Tensor(data=...)``
and ``Tensor(t)`` an alias of t (a view, whatever its dtype).  fastpath.c's tp_new of
ctensor.Tensor calls ``new`` (registered by ``install``); ``isinstance(x, Tensor)`` is the type's."""

from __future__ import annotations

import operator

from . import _C
from . import _dtype as D

__all__ = ["new", "install"]

_SIGNATURES = (" * (*, ctensor.device device = None)\n"
               " * (ctensor.Storage storage)\n"
               " * (Tensor other)\n"
               " * (tuple of ints size, *, ctensor.device device = None)\n"
               " * (object data, *, ctensor.device device = None)\n")


def _type_name(v):
    if isinstance(v, D.dtype):
        return "ctensor.dtype"
    return "Tensor" if isinstance(v, _C.Tensor) else type(v).__name__


def _invalid(args, kwargs, bad_keywords):
    """torch's "invalid combination of arguments" TypeError for new()."""
    # torch lists keywords in name order, whatever order they were given in
    got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(kwargs[k])}" for k in sorted(kwargs)])
    if kwargs and not args:
        got += ", "  # torch's spelling: "(data=list, size=tuple, )"
    detail = ""
    if bad_keywords:
        detail = f"      didn't match because some of the keywords were incorrect: {', '.join(bad_keywords)}\n"
    lines = _SIGNATURES.split("\n", 1)
    return TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     f"{lines[0]}\n{detail}{lines[1]}")


def _is_size_like(x):
    """An int-like (an int, a NumPy integer scalar: __index__ and no length; not bool or float)."""
    return not isinstance(x, (bool, float)) and hasattr(x, "__index__") and not hasattr(x, "__len__") \
        and not isinstance(x, _C.Tensor)


def _empty(sizes):
    sizes = tuple(sizes)
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {list(sizes)}")
    return _C.ct_empty(sizes, D.default_float_dtype())


def _sizes_from(args):
    out = []
    for i, s in enumerate(args):
        if not _is_size_like(s):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type(s).__name__}\"")
        out.append(operator.index(s))
    return out


def new(*args, **kwargs):
    """torch.Tensor(*args, **kwargs): see the module docstring."""
    from ._creation import _tensor
    from ._device import _as_device
    bad = [k for k in kwargs if k not in ("device", "size", "data")]
    if bad or ("size" in kwargs and ("data" in kwargs or args)) or ("data" in kwargs and args):
        raise _invalid(args, kwargs, sorted(bad or [k for k in kwargs if k != "device"]))
    device = kwargs.get("device")
    if device is not None:
        kind = _as_device(device, "Tensor").type
        if kind != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {kind} was passed")
    if "size" in kwargs:
        size = kwargs["size"]
        return _empty(_sizes_from(size if hasattr(size, "__len__") else (size,)))
    if "data" in kwargs:
        args = (kwargs["data"],)
    if not args:
        return _empty((0,))
    first = args[0]
    if len(args) == 1:
        if isinstance(first, _C.Tensor):
            return _C.ct_alias_view(first)  # torch: an alias (AliasBackward0) of the tensor
        if type(first).__name__ == "Size":  # a Size is sizes, even Size([]) (a 0-dim tensor)
            return _empty(_sizes_from(first))
        if _is_size_like(first):
            return _empty(_sizes_from(args))
        if isinstance(first, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(first).__name__}'")
        if hasattr(first, "__len__") or hasattr(first, "__array__") or hasattr(first, "__dlpack__"):
            try:
                return _tensor(first, D.default_float_dtype())
            except TypeError as e:
                # an item that is no number: torch's legacy constructor reads items as reals
                prefix = "new(): invalid data type '"
                if str(e).startswith(prefix):
                    raise TypeError(f"must be real number, not {str(e)[len(prefix):-1]}") from None
                raise
        raise TypeError(f"new(): data must be a sequence (got {type(first).__name__})")
    if not _is_size_like(first):
        raise _invalid(args, kwargs, ())
    return _empty(_sizes_from(args))


def install():
    new.__qualname__ = "Tensor.__new__"
    _C._set_tensor_new(new)
