"""Zero-copy exchange with NumPy (both ways) and DLPack (both ways)."""

from __future__ import annotations

import enum

from . import _C
from ._creation import _is_numpy_array, _numpy_dtype_to_ct

__all__ = ["from_numpy", "from_dlpack", "to_numpy", "dlpack", "dlpack_device", "DLDeviceType"]

Tensor = _C.Tensor

_KDLCPU = 1


def from_numpy(ndarray):
    """A tensor sharing ndarray's memory (no copy).  The tensor keeps the array alive until the
    last tensor on that memory is gone.  Negative strides, or strides that are not a multiple
    of the element size, raise ValueError (as torch.from_numpy).  A read-only array gives a
    read-only storage, whose writers raise (torch instead warns and lets writes through)."""
    t = _C._from_numpy(ndarray)  # the buffer-protocol path (numpy_exchange.c)
    if t is not None:
        return t
    # What it declines: errors worded as torch's, and read-only arrays.
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
    if not ndarray.flags.writeable and ndarray.size:
        # NumPy 2 says "read-only" in a versioned DLPack capsule, which ct_from_dlpack_versioned
        # turns into a read-only storage (the capsule's deleter keeps the array alive).
        return _C.ct_from_dlpack_versioned(ndarray.__dlpack__(max_version=(1, 0)))
    address = ndarray.__array_interface__["data"][0]
    # The deleter argument is the owner: the storage holds a reference to the array and drops
    # it (taking the GIL, from whatever thread) when the last tensor on it is gone.
    return _C.ct_from_blob(address, ndarray.shape, strides, dt, ndarray)


def to_numpy(t, force=False):
    """t.numpy(): an ndarray on the same memory; it keeps t alive (its .base is t)."""
    import numpy as np
    if force:  # torch 2.x: force resolves what numpy() would refuse
        if t.requires_grad:
            t = t.detach()
        t = _C.ct_resolve_neg(_C.ct_resolve_conj(t))
    # NumPy reads t.__array_interface__ (numpy_exchange.c), which raises torch's errors for a
    # tensor that requires grad and for bfloat16.
    return np.asarray(t)


def to_array(t, dtype=None, copy=None):
    """t.__array__(dtype, copy), with NumPy 2's meaning of copy."""
    import numpy as np
    a = np.asarray(t)  # reads t.__array_interface__: no copy
    if copy:
        return np.array(a, dtype=dtype, copy=True)
    if dtype is None or np.dtype(dtype) == a.dtype:
        return a
    if copy is False:
        raise ValueError(f"Unable to avoid copy while creating an array as requested: a {t.dtype} tensor "
                         f"cannot be read as {np.dtype(dtype)} without a copy (copy=False)")
    return a.astype(dtype)


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h), the ones ctensor meets: it lives in host memory."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3


# Plain ints: comparing with an IntEnum member costs ~0.5 us per export.
_CPU_DEVICE = (_KDLCPU, 0)


def _versioned(max_version):
    """Whether a consumer's max_version asks for a versioned (DLPack 1.x) capsule."""
    if max_version is None:
        return False
    if (type(max_version) is not tuple or len(max_version) != 2
            or type(max_version[0]) is not int or type(max_version[1]) is not int):
        raise TypeError(f"__dlpack__: max_version must be None or a tuple of two ints, got {max_version!r}")
    return max_version[0] >= 1


def dlpack(t, stream=None, *, max_version=None, dl_device=None, copy=None):
    """t.__dlpack__(): a capsule lending t's memory, by the DLPack protocol of the Python array
    API.  "dltensor" (DLPack 0.x, for consumers that do not say max_version) unless the consumer
    asks for max_version >= (1, 0): then "dltensor_versioned" (1.x whatever higher minor or major
    it names), whose flags say read-only and is-copied truthfully.  copy=True lends a fresh clone;
    copy=False and None never copy (ctensor memory is host memory, readable by every consumer).
    A read-only tensor cannot go out in a legacy capsule, which has no read-only flag: BufferError,
    as NumPy does."""
    versioned = _versioned(max_version)
    if t.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if stream is not None and stream != -1:
        raise BufferError(f"ctensor tensors live in host memory: stream must be None or -1, got {stream!r}")
    if dl_device is not None and dl_device != _CPU_DEVICE and tuple(dl_device) != _CPU_DEVICE:
        raise BufferError(f"ctensor can only export to the CPU device (kDLCPU, 0), got {dl_device!r}")
    if t.is_conj():
        raise BufferError("Can't export tensors with the conjugate bit set")
    if copy:
        t = _C.ct_clone(t)
    elif not versioned and t.untyped_storage().is_read_only():
        raise BufferError("Cannot export a read-only tensor in a legacy DLPack capsule, which cannot say it "
                          "is read-only: ask for max_version=(1, 0) or copy=True")
    if versioned:
        capsule = _C.ct_to_dlpack_versioned(t)
        return _C._dlpack_mark_copied(capsule) if copy else capsule
    return _C.ct_to_dlpack(t)


_CPU_DEVICE_ENUM = (DLDeviceType.kDLCPU, 0)


def dlpack_device(t):
    """t.__dlpack_device__(): (DLDeviceType.kDLCPU, 0)."""
    return _CPU_DEVICE_ENUM


def _check_target_device(device):
    if device is None:
        return
    name = device if isinstance(device, str) else str(device)
    if name not in ("cpu", "cpu:0"):
        raise ValueError(f"from_dlpack: ctensor tensors live in host memory: device must be None or 'cpu', "
                         f"got {device!r}")


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor on the memory of any DLPack producer: an object with __dlpack__ (a NumPy array, a
    torch tensor, a JAX array, another ctensor tensor) or a DLPack capsule.  copy=None shares the
    producer's memory (torch.from_dlpack's rule); copy=True asks the producer for a copy (and
    copies itself if the producer predates DLPack 1.0); copy=False asks it never to copy.  The
    capsule is renamed "used_dltensor[_versioned]" once ctensor owns it."""
    _check_target_device(device)
    copied = False
    if hasattr(ext_tensor, "__dlpack__"):
        if hasattr(ext_tensor, "__dlpack_device__"):
            dev = ext_tensor.__dlpack_device__()
            if int(dev[0]) != _KDLCPU:
                raise BufferError(f"from_dlpack: ctensor reads host (kDLCPU) memory only, got device {dev}")
        try:
            capsule = ext_tensor.__dlpack__(max_version=(1, 1), copy=copy)
            copied = bool(copy)
        except TypeError:  # producers before DLPack 1.0 (NumPy 1.x, torch < 2.4) know no keywords
            capsule = ext_tensor.__dlpack__()
    else:
        capsule = ext_tensor
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got "
                        f"{type(ext_tensor).__name__}")
    # the C typemaps check the capsule's name again and rename it on success
    if _capsule_name(capsule) in ("dltensor_versioned", "used_dltensor_versioned"):
        t = _C.ct_from_dlpack_versioned(capsule)
    else:
        t = _C.ct_from_dlpack(capsule)
    return _C.ct_clone(t) if copy and not copied else t


def _capsule_name(capsule):
    r = repr(capsule)  # <capsule object "dltensor" at 0x...>
    parts = r.split('"')
    return parts[1] if len(parts) >= 3 else None
