"""Threads: tensors created, shared, viewed and released from many Python threads, and a
foreign-memory deleter that runs on a thread that does not hold the GIL.

The module releases the GIL around long calls, so these threads really run inside the library
at the same time (the header's "Threads." rules; tests/stress checks the C side under TSan)."""

import ctypes
import gc
import threading
import weakref

import numpy as np

import ctensor
from ctutil import live

THREADS = 8
ROUNDS = 300


def _run(target, n=THREADS):
    errors = []

    def guarded(i):
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported below with the thread number
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)  # a deadlock (GIL vs deleter) fails here instead of hanging CI
    assert not [t for t in threads if t.is_alive()], "threads still running after 120 s"
    assert errors == []


def test_many_threads_create_view_copy_and_release():
    base = live()
    shared = ctensor.arange(64.0).view(8, 8)
    shared_np = np.arange(64.0).reshape(8, 8)
    expect_sum = float(shared_np.sum())

    def work(i):
        mine = ctensor.zeros(8, dtype=ctensor.float64)
        for r in range(ROUNDS):
            v = shared.t()[i % 8]                      # a view of a view of the shared tensor
            assert v.tolist() == shared_np[:, i % 8].tolist()
            c = shared.clone() if r % 2 else shared.t().contiguous()
            assert float(c.sum()) == expect_sum
            a = ctensor.from_numpy(np.full(8, float(i)))  # foreign memory, released on this thread
            mine.copy_(a)
            mine.add_(v)
            n = v.numpy()                              # NumPy array keeping the view alive
            assert n[0] == shared_np[0, i % 8]
            del v, c, a, n
        assert mine.tolist() == (np.full(8, float(i)) + shared_np[:, i % 8]).tolist()

    _run(work)
    del shared
    gc.collect()
    assert live() == base


def test_tensors_handed_between_threads():
    """The last reference of a view made on one thread is dropped on another."""
    base = live()
    src = ctensor.from_numpy(np.arange(1000.0))
    slots = [None] * 16
    lock = threading.Lock()

    def work(i):
        for r in range(ROUNDS):
            view = src[(r + i) % 900:][:100]
            with lock:
                old, slots[(r * 7 + i) % 16] = slots[(r * 7 + i) % 16], view
            del old, view

    _run(work)
    slots.clear()
    del src
    gc.collect()
    assert live() == base


# ---- a deleter on a thread without the GIL --------------------------------------------------

_PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_PyCapsule_SetName = ctypes.pythonapi.PyCapsule_SetName
_PyCapsule_SetName.restype = ctypes.c_int
_PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _DLManagedTensorHead(ctypes.Structure):
    # DLTensor (48 bytes on 64-bit) then manager_ctx and deleter: only the deleter is read.
    _fields_ = [("dl_tensor", ctypes.c_byte * 48), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.CFUNCTYPE(None, ctypes.c_void_p))]


def test_numpy_owner_released_by_deleter_on_thread_without_gil():
    """ctensor storage over a NumPy array (the storage holds the array); the only thing keeping
    the storage alive is a DLManagedTensor; its deleter is called through ctypes, which releases
    the GIL for the call: the storage dies there, and its deleter must take the GIL itself to
    drop the array."""
    base = live()
    arr = np.arange(16.0)
    arr_ref = weakref.ref(arr)
    t = ctensor.from_numpy(arr)
    cap = t.__dlpack__()
    m = _PyCapsule_GetPointer(cap, b"dltensor")
    assert m
    _PyCapsule_SetName(cap, b"used_dltensor")  # we own the DLManagedTensor now
    del t, cap, arr
    gc.collect()
    assert arr_ref() is not None  # alive: held by the storage, held by the DLManagedTensor
    head = _DLManagedTensorHead.from_address(m)
    deleter = head.deleter  # a ctypes function: the GIL is released while it runs

    done = threading.Event()

    def release():
        deleter(m)
        done.set()

    th = threading.Thread(target=release)
    th.start()
    th.join(timeout=60)
    assert done.is_set()
    gc.collect()
    assert arr_ref() is None  # the deleter dropped the array, under the GIL it took
    assert live() == base


def test_concurrent_deleters_without_gil():
    """Many storages over NumPy arrays released at once from threads that hold no GIL."""
    base = live()
    refs, heads = [], []
    for i in range(32):
        arr = np.full(4, float(i))
        refs.append(weakref.ref(arr))
        t = ctensor.from_numpy(arr)
        cap = t.__dlpack__()
        m = _PyCapsule_GetPointer(cap, b"dltensor")
        _PyCapsule_SetName(cap, b"used_dltensor")
        heads.append((m, _DLManagedTensorHead.from_address(m).deleter))
        del t, cap, arr
    gc.collect()

    def release(i):
        for m, deleter in heads[i::THREADS]:
            deleter(m)

    _run(release)
    gc.collect()
    assert all(r() is None for r in refs)
    assert live() == base
