"""NumPy 2's array protocols and DLPack 1.x, with NumPy 2, torch 2.13 and JAX as the peers.

Each peer is both a consumer of ctensor tensors (np.from_dlpack, torch.from_dlpack,
jnp.from_dlpack) and a producer for ctensor.from_dlpack.  Memory stays shared wherever the
protocol promises it; a deleter runs exactly once, counted by the reference the export holds
(the exported tensor's storage has one more holder while a consumer holds the memory, one
fewer when the consumer's deleter runs), also when the consumer dies on another thread.  The
export holds the storage, not the tensor object: ctensor.refcount(t) does not move.
"""

import ctypes
import gc
import sys
import threading
import warnings

import numpy as np
import pytest

import ctensor
from ctutil import collect, torch

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")

DLPACK_FLAG_BITMASK_READ_ONLY = 1 << 0
DLPACK_FLAG_BITMASK_IS_COPIED = 1 << 1


class _VersionedHead(ctypes.Structure):
    """The first fields of DLManagedTensorVersioned (DLPack 1.x), enough to read the flags."""
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def holders(t):
    """Tensors and handles holding t's storage: t itself, other tensors on it, DLPack exports
    (the storage handle untyped_storage() makes for the count is not counted)."""
    return t.untyped_storage().refcount - 1


def versioned_head(capsule):
    return _VersionedHead.from_address(_get_pointer(capsule, b"dltensor_versioned"))


def read_only(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


def release_on_another_thread(holder):
    """Drops the last reference to the object in holder[0] on a new thread."""
    def drop():
        holder.clear()
        gc.collect()
    th = threading.Thread(target=drop)
    th.start()
    th.join()


# ---- __array__ with NumPy 2's copy keyword -------------------------------------------------------


def test_array_protocol_copy_keyword_has_numpy2_meaning():
    t = ctensor.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy 2 warns when __array__ lacks copy=
        assert np.shares_memory(np.asarray(t, copy=False), t.numpy())
        assert np.shares_memory(t.__array__(), t.numpy())
        assert np.shares_memory(t.__array__(copy=False), t.numpy())
        assert not np.shares_memory(t.__array__(copy=True), t.numpy())
        assert not np.shares_memory(np.array(t, copy=True), t.numpy())
        assert not np.shares_memory(np.array(t), t.numpy())  # np.array copies by default
        assert t.__array__(np.float64).dtype == np.float64  # a conversion is a copy
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            t.__array__(np.float64, copy=False)
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            np.asarray(t, dtype=np.float64, copy=False)
        same = t.__array__(np.float32, copy=False)  # same dtype: no copy needed
        assert np.shares_memory(same, t.numpy())


def test_array_protocol_keeps_torch_refusals():
    with pytest.raises(RuntimeError, match="requires grad"):
        np.asarray(ctensor.ones(2, requires_grad=True), copy=False)
    with pytest.raises(TypeError, match="BFloat16"):
        np.asarray(ctensor.ones(2, dtype=ctensor.bfloat16))


# ---- __dlpack__ as a producer -------------------------------------------------------------------


def test_dlpack_capsule_kinds():
    t = ctensor.arange(4.0)
    assert _get_name(t.__dlpack__()) == b"dltensor"  # a consumer that says nothing: DLPack 0.x
    assert _get_name(t.__dlpack__(max_version=(0, 8))) == b"dltensor"
    for mv in ((1, 0), (1, 5), (2, 0)):  # 1.x, whatever higher version the consumer can read
        cap = t.__dlpack__(max_version=mv)
        assert _get_name(cap) == b"dltensor_versioned"
        head = versioned_head(cap)
        assert (head.major, head.flags) == (1, 0)
    assert t.__dlpack_device__() == (ctensor.DLDeviceType.kDLCPU, 0) == (1, 0)
    cap = t.__dlpack__(max_version=(1, 0), dl_device=(1, 0), stream=None, copy=False)
    assert versioned_head(cap).flags == 0


def test_dlpack_copy_true_lends_a_marked_copy():
    t = ctensor.arange(4.0)
    cap = t.__dlpack__(max_version=(1, 0), copy=True)
    assert versioned_head(cap).flags == DLPACK_FLAG_BITMASK_IS_COPIED
    c = ctensor.from_dlpack(cap)
    assert c.data_ptr() != t.data_ptr() and c.tolist() == t.tolist()
    legacy = ctensor.from_dlpack(t.__dlpack__(copy=True))  # legacy capsules cannot say it
    assert legacy.data_ptr() != t.data_ptr()


def test_dlpack_read_only_flag_is_truthful():
    t = ctensor.from_numpy(read_only(np.arange(3.0)))
    cap = t.__dlpack__(max_version=(1, 0))
    assert versioned_head(cap).flags == DLPACK_FLAG_BITMASK_READ_ONLY
    back = ctensor.from_dlpack(cap)
    assert back.untyped_storage().is_read_only() and back.data_ptr() == t.data_ptr()
    with pytest.raises(BufferError, match="read-only"):  # a legacy capsule cannot say so
        t.__dlpack__()
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__(copy=False)
    cap = t.__dlpack__(copy=True)  # a writable copy may go out in any capsule
    assert not ctensor.from_dlpack(cap).untyped_storage().is_read_only()


def test_dlpack_producer_refusals():
    t = ctensor.ones(2)
    with pytest.raises(BufferError, match="CPU device"):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="CPU device"):
        t.__dlpack__(dl_device=(1, 3))
    with pytest.raises(BufferError, match="stream"):
        t.__dlpack__(stream=1)
    for bad in ((1,), "1.0", (1, 0, 0), (1.0, 0)):
        with pytest.raises(TypeError, match="max_version"):
            t.__dlpack__(max_version=bad)
    with pytest.raises(BufferError, match="require gradient"):
        ctensor.ones(2, requires_grad=True).__dlpack__(max_version=(1, 0))
    assert holders(t) == 1  # no refusal left an export behind


def test_consumed_capsule_is_refused():
    t = ctensor.ones(2)
    for cap in (t.__dlpack__(), t.__dlpack__(max_version=(1, 0))):
        ctensor.from_dlpack(cap)
        with pytest.raises(ValueError, match="already consumed"):
            ctensor.from_dlpack(cap)


def test_unconsumed_capsules_release_their_export():
    t = ctensor.ones(2)
    caps = [t.__dlpack__(), t.__dlpack__(max_version=(1, 0)), t.__dlpack__(max_version=(1, 0), copy=True)]
    assert holders(t) == 3  # the copy's export holds the clone, not t
    del caps
    collect()
    assert holders(t) == 1


# ---- consumers: NumPy 2, torch 2.13, JAX --------------------------------------------------------


def test_numpy_consumes_and_shares():
    t = ctensor.arange(6, dtype=ctensor.int32).reshape(2, 3)
    alone = holders(t)  # t and its base
    a = np.from_dlpack(t)  # NumPy 2 asks for max_version=(1, x)
    assert a.ctypes.data == t.data_ptr() and holders(t) == alone + 1
    t.add_(1)
    assert a.tolist() == [[1, 2, 3], [4, 5, 6]] and a.flags.writeable
    c = np.from_dlpack(t, copy=True)
    assert not np.shares_memory(a, c) and holders(t) == alone + 1
    ro = np.from_dlpack(ctensor.from_numpy(read_only(np.arange(3))))
    assert not ro.flags.writeable
    holder = [a]
    del a
    release_on_another_thread(holder)
    assert holders(t) == alone  # NumPy ran the deleter once, on that thread


@needs_torch
def test_torch_consumes_and_shares_both_ways():
    t = ctensor.arange(12.0).reshape(3, 4)[:, 1:]
    alone = holders(t)  # t and its base
    x = torch.from_dlpack(t)  # torch 2.13 asks for max_version=(1, x)
    assert x.data_ptr() == t.data_ptr() and x.stride() == t.stride() and holders(t) == alone + 1
    x[0, 0] = -1.0  # torch writes, ctensor reads
    assert t[0, 0].item() == -1.0
    t.mul_(2)  # ctensor writes, torch reads
    assert x[0, 0].item() == -2.0
    holder = [x]
    del x
    release_on_another_thread(holder)
    assert holders(t) == alone


def test_jax_consumes_and_shares():
    t = ctensor.arange(8.0)
    j = jnp.from_dlpack(t)
    assert j.unsafe_buffer_pointer() == t.data_ptr() and holders(t) == 2
    assert j.tolist() == t.tolist()
    holder = [j]
    del j
    release_on_another_thread(holder)
    assert holders(t) == 1


def test_jax_refusing_strides_leaves_no_export():
    v = ctensor.arange(8.0)[::2]
    alone = holders(v)  # v and its base
    with pytest.raises(Exception, match="striding"):  # JAX takes only compact layouts
        jnp.from_dlpack(v)
    collect()
    assert holders(v) == alone


# ---- producers: NumPy 2, torch 2.13, JAX --------------------------------------------------------


def test_from_dlpack_of_numpy_shares_and_releases_once():
    a = np.arange(6.0).reshape(2, 3)
    address = a.ctypes.data
    refs = sys.getrefcount(a)
    t = ctensor.from_dlpack(a)
    assert sys.getrefcount(a) == refs + 1 and t.data_ptr() == address
    t[0, 0] = 9.0
    assert a[0, 0] == 9.0
    holder = [t]
    del t
    release_on_another_thread(holder)
    assert sys.getrefcount(a) == refs  # NumPy's deleter ran, once
    c = ctensor.from_dlpack(a, copy=True)
    assert c.data_ptr() != address and c.tolist() == a.tolist()
    assert sys.getrefcount(a) == refs


def test_from_dlpack_of_read_only_numpy_is_read_only():
    a = read_only(np.arange(3.0))
    t = ctensor.from_dlpack(a)
    assert t.untyped_storage().is_read_only() and t.data_ptr() == a.ctypes.data
    with pytest.raises(RuntimeError, match="read-only"):
        t.fill_(0)
    assert not t.numpy().flags.writeable  # and back


@needs_torch
def test_from_dlpack_of_torch_shares_both_ways():
    x = torch.arange(12.0).reshape(3, 4).t()
    t = ctensor.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr() and t.stride() == x.stride()
    t.add_(1)
    assert x[0, 0].item() == 1.0
    x.mul_(10)
    assert t[0, 0].item() == 10.0
    assert t._version == 1  # ctensor's own version counter: torch's writes are not seen
    c = ctensor.from_dlpack(x, copy=True)
    assert c.data_ptr() != x.data_ptr() and c.tolist() == x.tolist()


def test_from_dlpack_of_jax_shares():
    j = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    t = ctensor.from_dlpack(j)
    assert t.data_ptr() == j.unsafe_buffer_pointer() and t.tolist() == j.tolist()
    # JAX marks its export writable (flags 0) though its arrays are immutable: ctensor can only
    # believe the flag.
    assert not t.untyped_storage().is_read_only()
    c = ctensor.from_dlpack(j, copy=True)
    assert c.data_ptr() != j.unsafe_buffer_pointer()


def test_from_dlpack_consumer_refusals():
    class OnAnotherDevice:
        def __dlpack__(self, **kw):
            raise AssertionError("not asked: the device is refused first")

        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

    with pytest.raises(BufferError, match="kDLCPU"):
        ctensor.from_dlpack(OnAnotherDevice())
    with pytest.raises(ValueError, match="device must be None or 'cpu'"):
        ctensor.from_dlpack(np.ones(2), device="cuda")
    assert ctensor.from_dlpack(np.ones(2), device="cpu").tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="__dlpack__ or a DLPack capsule"):
        ctensor.from_dlpack([1.0, 2.0])
