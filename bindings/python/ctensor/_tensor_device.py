"""Tensor methods about devices, as torch 2.13 built for the CPU only has them: ``device``,
``is_cpu``, ``is_cuda``, ``get_device``, ``cpu()``, ``cuda()`` and ``to()``.

``to`` keeps torch's sharing rule: it returns the tensor itself when neither the dtype nor the
layout changes, unless ``copy=True``; a device other than the CPU is refused as CPU-only torch
refuses it (AssertionError "Torch not compiled with CUDA enabled" for CUDA)."""

from __future__ import annotations

from . import _C
from . import _dtype as D
from ._device import CPU, device, target_device

Tensor = _C.Tensor

__all__ = ["install"]

_TO_SIGNATURES = (
    "(ctensor.device device = None, ctensor.dtype dtype = None, bool non_blocking = False, bool copy = False, "
    "*, ctensor.memory_format memory_format = None)",
    "(ctensor.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "ctensor.memory_format memory_format = None)",
    "(Tensor tensor, bool non_blocking = False, bool copy = False, *, ctensor.memory_format memory_format = None)",
)


def _type_name(v):
    if isinstance(v, D.dtype):
        return "ctensor.dtype"
    if isinstance(v, device):
        return "ctensor.device"
    if isinstance(v, Tensor):
        return "Tensor"
    return type(v).__name__


def _invalid_to(args, kwargs):
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    text = ", ".join(got) + (", " if kwargs and not args else "")  # torch's spelling
    return TypeError(f"to() received an invalid combination of arguments - got ({text}), but expected one of:\n"
                     + "".join(f" * {s}\n" for s in _TO_SIGNATURES))


def _is_dtype(v):
    return isinstance(v, D.dtype) or D.from_python_type(v) is not None


def _as_dtype(v):
    return v if isinstance(v, D.dtype) else D.from_python_type(v)


def _is_device(v):
    return isinstance(v, (str, device)) or (isinstance(v, int) and not isinstance(v, bool))


def _to_args(args, kwargs):
    """(device or None, dtype or None, copy, memory_format) from one of to()'s three signatures."""
    allowed = {"device", "dtype", "non_blocking", "copy", "memory_format"}
    shown = args  # errors name the arguments as given
    if set(kwargs) - allowed:
        raise _invalid_to(shown, kwargs)
    first = args[0] if args else None
    if args and isinstance(first, Tensor):  # to(other, non_blocking, copy)
        names = ("tensor", "non_blocking", "copy")
        if "device" in kwargs or "dtype" in kwargs:
            raise _invalid_to(shown, kwargs)
    elif args and _is_dtype(first):  # to(dtype, non_blocking, copy)
        names = ("dtype", "non_blocking", "copy")
    elif args and isinstance(first, (float, bool)):
        # torch's parser reads a Python float or bool *value* in the dtype position as its type
        # (x.to(1.5) is a float64 copy, x.to(True) a bool one); only there, not as dtype=.
        names = ("dtype", "non_blocking", "copy")
        args = (D.float64 if isinstance(first, float) else D.bool,) + tuple(args[1:])
    else:  # to(device=None, dtype=None, non_blocking, copy)
        names = ("device", "dtype", "non_blocking", "copy")
    if len(args) == 5 and names[0] == "device":  # one more than the longest signature: Python's wording
        raise TypeError("to() takes from 0 to 4 positional arguments but 5 were given")
    if len(args) > len(names):
        raise _invalid_to(shown, kwargs)
    bound = dict(zip(names, args))
    if set(bound) & set(kwargs):
        raise _invalid_to(shown, kwargs)
    bound.update(kwargs)
    dev, dtype = bound.get("device"), bound.get("dtype")
    if "tensor" in bound:
        dtype = bound["tensor"].dtype  # its device is always the CPU
    for flag in ("non_blocking", "copy"):
        if not isinstance(bound.get(flag, False), bool):
            raise _invalid_to(shown, kwargs)
    if dtype is not None and not _is_dtype(dtype):
        raise _invalid_to(shown, kwargs)
    if dev is not None and not _is_device(dev):
        raise _invalid_to(shown, kwargs)
    return dev, _as_dtype(dtype) if dtype is not None else None, bound.get("copy", False), \
        bound.get("memory_format")


class _DeviceMethods:
    """Namespace of the methods installed into ctensor.Tensor (never instantiated)."""

    @property
    def device(self):
        """device(type='cpu'): every ctensor tensor is in host memory."""
        return CPU

    @property
    def is_cpu(self):
        """True: ctensor tensors live in host memory."""
        return True

    @property
    def is_cuda(self):
        """False: ctensor tensors live in host memory."""
        return False

    def get_device(self):
        """-1, torch's answer for a CPU tensor (an accelerator tensor gives its index)."""
        return -1

    def to(self, *args, **kwargs):
        """to(device=None, dtype=None, non_blocking=False, copy=False, *, memory_format=None),
        to(dtype, non_blocking=False, copy=False, *, memory_format=None) or
        to(other, non_blocking=False, copy=False, *, memory_format=None): this tensor itself when
        nothing changes and copy is False, else a converted copy (ToCopyBackward0).  Only the CPU
        is a valid device."""
        dev, dtype, copy, memory_format = _to_args(args, kwargs)
        if dev is not None:
            # t.to('float32'): torch reads a str as a device, and so does this.  A device with an
            # index ('cpu:0') is not the tensor's own device (cpu, no index): torch copies.
            copy = target_device(dev).index is not None or copy
        if memory_format is not None or copy:
            from ._memory_format import to_memory_format
            return to_memory_format(self, dtype, memory_format, copy)
        if dtype is None or dtype is self.dtype:
            return self
        return _C.ct_to(self, dtype)

    def cpu(self, memory_format=None):
        """This tensor itself (it is already in host memory), or with memory_format as to(memory_format=)
        gives it: self when already laid out so, else a copy."""
        if memory_format is None:
            return self
        from ._memory_format import to_memory_format
        return to_memory_format(self, None, memory_format, False)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """Refused as a CPU-only torch refuses it: AssertionError "Torch not compiled with CUDA enabled"
        (RuntimeError "Invalid device, must be cuda device" for a device that is not a CUDA one)."""
        if device is not None:
            from ._device import _as_device
            if _as_device(device, "cuda").type != "cuda":
                raise RuntimeError("Invalid device, must be cuda device")
        raise AssertionError("Torch not compiled with CUDA enabled")


def install():
    """Adds the methods above to ctensor.Tensor (replacing _tensor.py's host-only device and to)."""
    for name, value in vars(_DeviceMethods).items():
        if name.startswith("__"):
            continue
        if callable(value):
            value.__qualname__ = "Tensor." + name
        _C._install(Tensor, name, value)
