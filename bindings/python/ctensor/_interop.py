"""Zero-copy exchange with NumPy (both ways) and DLPack (both ways)."""

from __future__ import annotations

import warnings

from . import _C
from ._creation import _is_numpy_array, _numpy_dtype_to_ct

__all__ = ["from_numpy", "from_dlpack", "to_numpy", "dlpack", "dlpack_device"]

Tensor = _C.Tensor

_KDLCPU = 1


def from_numpy(ndarray):
    """A tensor sharing ndarray's memory (no copy).  The tensor keeps the array alive until the
    last tensor on that memory is gone.  Negative strides, or strides that are not a multiple
    of the element size, raise ValueError (as torch.from_numpy)."""
    t = _C._from_numpy(ndarray)  # the buffer-protocol path (numpy_exchange.c)
    if t is not None:
        return t
    # What it declines: errors and the read-only warning, worded as torch's.
    if not _is_numpy_array(ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dt = _numpy_dtype_to_ct(ndarray.dtype)
    item = ndarray.dtype.itemsize
    strides = []
    for s in ndarray.strides:
        if s < 0:
            raise ValueError(
                "At least one stride in the given numpy array is negative, and tensors with negative "
                "strides are not currently supported. (You can probably work around this by making a "
                "copy of your array  with array.copy().) ")
        if s % item:
            raise ValueError("given numpy array strides not a multiple of the element byte size. Copy "
                             "the numpy array to reallocate the memory.")
        strides.append(s // item)
    if not ndarray.flags.writeable:
        warnings.warn(
            "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
            "This means writing to this tensor will result in undefined behavior. You may want to copy "
            "the array to protect its data or make it writable before converting it to a tensor. This "
            "type of warning will be suppressed for the rest of this program.", UserWarning, stacklevel=2)
    address = ndarray.__array_interface__["data"][0]
    # The deleter argument is the owner: the storage holds a reference to the array and drops
    # it (taking the GIL, from whatever thread) when the last tensor on it is gone.
    return _C.ct_from_blob(address, ndarray.shape, strides, dt, ndarray)


def to_numpy(t, force=False):
    """t.numpy(): an ndarray on the same memory; it keeps t alive (its .base is t)."""
    import numpy as np
    if force and t.requires_grad:
        t = t.detach()
    # NumPy reads t.__array_interface__ (numpy_exchange.c), which raises torch's errors for a
    # tensor that requires grad and for bfloat16.
    return np.asarray(t)


def dlpack(t, stream=None, *, max_version=None, dl_device=None, copy=None):
    """t.__dlpack__(): a capsule lending t's memory.  "dltensor" (DLPack 0.x, what NumPy < 2 and
    torch < 2.4 read) unless the consumer asks for max_version >= (1, 0)."""
    if t.requires_grad:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    if stream is not None and stream != -1:
        raise BufferError("ctensor tensors live in host memory: stream must be None")
    if dl_device is not None and tuple(dl_device)[0] != _KDLCPU:
        raise BufferError("ctensor can only export to the CPU device")
    if copy:
        t = _C.ct_clone(t)
    if max_version is not None and tuple(max_version)[0] >= 1:
        return _C.ct_to_dlpack_versioned(t)
    return _C.ct_to_dlpack(t)


def dlpack_device(t):
    """t.__dlpack_device__(): (kDLCPU, 0)."""
    return (_KDLCPU, 0)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of any DLPack producer (an object with __dlpack__, such as a
    NumPy array or a torch tensor, or a DLPack capsule).  The capsule is renamed
    "used_dltensor" once ctensor owns it."""
    if hasattr(ext_tensor, "__dlpack__"):
        if hasattr(ext_tensor, "__dlpack_device__"):
            dev = ext_tensor.__dlpack_device__()
            if int(dev[0]) != _KDLCPU:
                raise RuntimeError(f"from_dlpack: ctensor reads host (kDLCPU) memory only, got device {dev}")
        try:
            capsule = ext_tensor.__dlpack__(max_version=(1, 1))
        except TypeError:  # producers before DLPack 1.0 (NumPy 1.x, torch 1.x)
            capsule = ext_tensor.__dlpack__()
    else:
        capsule = ext_tensor
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got "
                        f"{type(ext_tensor).__name__}")
    # the C typemaps check the capsule's name again and rename it on success
    if _capsule_name(capsule) in ("dltensor_versioned", "used_dltensor_versioned"):
        return _C.ct_from_dlpack_versioned(capsule)
    return _C.ct_from_dlpack(capsule)


def _capsule_name(capsule):
    r = repr(capsule)  # <capsule object "dltensor" at 0x...>
    parts = r.split('"')
    return parts[1] if len(parts) >= 3 else None
