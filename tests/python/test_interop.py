"""Zero-copy exchange with NumPy and DLPack, both ways, and the lifetimes it implies."""

import gc
import subprocess
import sys
import threading
import weakref

import numpy as np
import pytest

import ctensor
from ctutil import collect, live, torch

needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")


# ---- NumPy -> ctensor (from_numpy) ---------------------------------------------------------

@pytest.mark.parametrize("npdt,ctdt", [("bool", "bool"), ("uint8", "uint8"), ("int8", "int8"),
                                       ("int16", "int16"), ("int32", "int32"), ("int64", "int64"),
                                       ("float16", "float16"), ("float32", "float32"), ("float64", "float64")])
def test_from_numpy_dtypes_share_memory(npdt, ctdt):
    a = np.arange(6).astype(npdt).reshape(2, 3)
    t = ctensor.from_numpy(a)
    assert t.dtype is getattr(ctensor, ctdt) and t.shape == (2, 3) and t.stride() == (3, 1)
    assert t.data_ptr() == a.ctypes.data
    assert t.tolist() == a.tolist()
    assert not t._is_view() and t._base is None


def test_from_numpy_writes_both_ways():
    a = np.zeros((3, 4), dtype=np.float32)
    t = ctensor.from_numpy(a)
    a[1, 2] = 5
    assert t[1, 2].item() == 5
    t[0] = 7
    assert (a[0] == 7).all()
    assert t._version == 1


def test_from_numpy_strided_arrays():
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    for a in (base[:, ::2], base.T, base[1:3, 2:], base[::2, 1::3], base[None, :, 0]):
        t = ctensor.from_numpy(a)
        assert t.stride() == tuple(s // 4 for s in a.strides)
        assert t.tolist() == a.tolist()
        assert t.data_ptr() == a.ctypes.data


def test_from_numpy_refuses_negative_and_odd_strides():
    with pytest.raises(ValueError, match="At least one stride in the given numpy array is negative"):
        ctensor.from_numpy(np.arange(4.0)[::-1])
    odd = np.zeros(10, dtype=np.uint8)[1:9].view(np.int16)
    odd_strided = np.lib.stride_tricks.as_strided(np.zeros(8, dtype=np.int16), shape=(3,), strides=(3,))
    ctensor.from_numpy(odd)  # contiguous int16 at an odd address is fine
    with pytest.raises(ValueError, match="strides not a multiple of the element byte size"):
        ctensor.from_numpy(odd_strided)
    with pytest.raises(TypeError, match="expected np.ndarray \\(got list\\)"):
        ctensor.from_numpy([1, 2])
    with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy.uint16"):
        ctensor.from_numpy(np.zeros(2, dtype=np.uint16))


@needs_torch
def test_from_numpy_errors_match_torch():
    for a in (np.arange(4.0)[::-1], np.lib.stride_tricks.as_strided(np.zeros(8, np.int16), (3,), (3,)),
              np.zeros(2, "U3")):
        with pytest.raises(Exception) as te:
            torch.from_numpy(a)
        with pytest.raises(Exception) as ce:
            ctensor.from_numpy(a)
        assert type(ce.value) is type(te.value)
        # torch names its own list of dtypes after the first sentence (ctensor has fewer)
        assert str(ce.value).split(". The only")[0] == str(te.value).split(". The only")[0]


def test_from_numpy_lists_only_the_dtypes_it_has():
    for dt in ("uint16", "uint32", "uint64"):  # torch 2.13 takes these, ctensor does not
        with pytest.raises(TypeError, match=f"numpy.{dt}. The only supported types are: float64, float32, "
                                            "float16, complex64, complex128, int64, int32, int16, int8, uint8, "
                                            "and bool.$"):
            ctensor.from_numpy(np.zeros(2, dt))


def test_from_numpy_read_only_gives_a_read_only_storage_and_back():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = ctensor.from_numpy(a)  # no torch warning: the storage itself refuses writes
    assert t.untyped_storage().is_read_only() and t.data_ptr() == a.ctypes.data
    with pytest.raises(RuntimeError, match="read-only"):
        t.add_(1)
    with pytest.raises(RuntimeError, match="read-only"):
        t[0] = 7
    assert a.tolist() == [0.0, 1.0, 2.0] and t._version == 0
    back = t.numpy()  # and back: NumPy sees a read-only array on the same memory
    assert not back.flags.writeable and np.shares_memory(back, a)
    v = t[1:]  # views of it are read-only too
    with pytest.raises(RuntimeError, match="read-only"):
        v.mul_(2)
    assert t.clone().add_(1).tolist() == [1.0, 2.0, 3.0]  # a copy is writable


def test_from_numpy_fast_path_takes_plain_arrays_and_declines_the_rest():
    # _C._from_numpy reads the buffer protocol in C; what it declines (None) goes through the
    # Python path, which raises or warns in torch's words (the tests above).
    base = np.arange(24, dtype=np.int64).reshape(4, 6)
    for a in (base, base.T, base[::2, 1::3], np.array(2.5), base[:, :1], base.astype(bool),
              base.astype(np.complex64), base.astype(complex)[1:]):
        t = ctensor._C._from_numpy(a)
        assert type(t) is ctensor.Tensor and t.data_ptr() == a.ctypes.data
        assert t.shape == a.shape and t.stride() == tuple(s // a.itemsize for s in a.strides)
        assert t.tolist() == a.tolist()
    read_only = np.arange(3.0)
    read_only.flags.writeable = False
    odd = np.lib.stride_tricks.as_strided(np.zeros(8, np.int16), (3,), (3,))
    class Sub(np.ndarray):
        pass
    for a in (read_only, np.zeros((0, 3), np.float16), np.arange(4.0)[::-1], odd, np.zeros(2, np.uint16), np.zeros(2, ">f4"),
              [1, 2], b"ab", np.zeros(2).view(Sub)):
        assert ctensor._C._from_numpy(a) is None


def test_from_numpy_keeps_the_array_alive():
    base = live()
    a = np.arange(1000.0)
    ref = weakref.ref(a)
    t = ctensor.from_numpy(a)
    v = t[10:20]
    del a
    collect()
    assert ref() is not None  # the storage holds the array
    del t
    collect()
    assert ref() is not None and v[0].item() == 10.0  # a view keeps the storage
    del v
    collect()
    assert ref() is None
    assert live() == base


def test_from_numpy_released_from_another_thread():
    a = np.arange(100.0)
    ref = weakref.ref(a)
    t = ctensor.from_numpy(a)
    del a
    box = [t]
    del t

    def drop():
        box.clear()  # the last reference dies on this thread; the deleter takes the GIL

    th = threading.Thread(target=drop)
    th.start()
    th.join(timeout=60)  # the deleter takes the GIL: a deadlock fails here instead of hanging
    assert not th.is_alive()
    collect()
    assert ref() is None


def test_from_numpy_deleter_during_interpreter_shutdown():
    """Tensors on NumPy memory still alive at exit must not crash the interpreter."""
    code = ("import numpy as np, ctensor\n"
            "keep = [ctensor.from_numpy(np.arange(10.0))[2:] for _ in range(3)]\n"
            "import threading\n"
            "t = ctensor.from_numpy(np.ones(5))\n"
            "th = threading.Thread(target=lambda: keep.append(t))\n"
            "th.start(); th.join()\n"
            "print('ok')\n")
    r = _run_fresh(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def _run_fresh(code):
    """code run by a fresh interpreter that imports this ctensor package (CI sets no PYTHONPATH)."""
    import os
    pkg = os.path.dirname(os.path.dirname(ctensor.__file__))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": pkg})


# ---- ctensor -> NumPy (numpy(), np.asarray) -------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_numpy_shares_memory(dt):
    x = ctensor.arange(12).to(getattr(ctensor, dt)).view(3, 4)
    a = x.numpy()
    assert a.dtype == np.dtype(dt) and a.shape == (3, 4)
    assert a.ctypes.data == x.data_ptr()
    assert a.tolist() == x.tolist()
    b = np.asarray(x)
    assert b.ctypes.data == x.data_ptr()


def test_numpy_of_views_and_writes():
    x = ctensor.arange(12.0).view(3, 4).clone()
    t = x.t()
    a = t.numpy()
    assert a.strides == (4, 16) and a.tolist() == t.tolist()
    a[0, 2] = -1
    assert x[2, 0].item() == -1
    e = x[0:1].expand(3, 4).numpy()
    assert e.strides == (0, 4)
    s = x[1, 1:3].numpy()
    assert s.ctypes.data == x.data_ptr() + 5 * 4
    assert ctensor.zeros(0, 3).numpy().shape == (0, 3)
    assert ctensor.tensor(2.5).numpy().shape == ()


def test_numpy_keeps_the_tensor_alive():
    base = live()
    x = ctensor.arange(100.0)
    a = x[10:].numpy()
    del x
    collect()
    assert a[0] == 10.0 and a.base is not None
    assert ctensor.live_tensors() > base[0]
    del a
    collect()
    assert live() == base


@needs_torch
def test_numpy_base_is_the_tensor_as_torch():
    x = ctensor.arange(6.0).view(2, 3)
    a, b = x.numpy(), np.asarray(x.t())
    assert a.base is x and type(b.base) is ctensor.Tensor and b.strides == (4, 12)
    assert type(torch.arange(3.0).numpy().base) is torch.Tensor
    assert a.flags.writeable and b.flags.writeable
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        np.asarray(ctensor.zeros(2, requires_grad=True))
    assert ctensor.ones(2, requires_grad=True).numpy(force=True).tolist() == [1.0, 1.0]


@needs_torch
def test_numpy_method_as_torch():
    # t.numpy() makes the array through NumPy's C-API table (numpy_exchange.c), not the dict
    for dt in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
               "complex64", "complex128"):
        c, t = ctensor.zeros(2, 3, dtype=getattr(ctensor, dt)), torch.zeros(2, 3, dtype=getattr(torch, dt))
        a, b = c.t().numpy(), t.t().numpy()
        assert (a.dtype, a.shape, a.strides, a.flags.writeable) == (b.dtype, b.shape, b.strides, b.flags.writeable)
        assert a.ctypes.data == c.data_ptr() and type(a.base) is ctensor.Tensor
    for m, x in (("ctensor", ctensor.zeros(2)), ("torch", torch.zeros(2))):
        errors = []
        for call in (lambda: x.numpy(True), lambda: x.numpy(forc=True), lambda: x.numpy(force=1)):
            with pytest.raises(TypeError) as e:
                call()
            errors.append(str(e.value))
        assert errors == ["numpy() takes 0 positional arguments but 1 was given",
                          "numpy() got an unexpected keyword argument 'forc'",
                          "numpy(): argument 'force' must be bool, not int"], m
        x.numpy()
        with pytest.raises(RuntimeError, match="Trying to resize storage that is not resizable"):
            x.resize_(100)  # the memory was lent to NumPy: it may never move
    c = ctensor.tensor([1 + 2j]).conj()
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that has conjugate bit set"):
        c.numpy()
    assert c.numpy(force=True).tolist() == [1 - 2j] and not c.numpy(force=True).base is c


def test_numpy_of_a_read_only_storage_is_read_only():
    a = np.arange(3.0)
    a.flags.writeable = False
    back = ctensor.from_numpy(a).numpy()
    assert not back.flags.writeable and np.shares_memory(back, a)


def test_numpy_without_numpy_c_api_takes_the_dict_path():
    # A fresh interpreter whose NumPy C-API table cannot be found: numpy() still works (it
    # falls back to np.asarray and the __array_interface__ dict).
    code = ("import sys, numpy, ctensor\n"
            "sys.modules['numpy._core._multiarray_umath'] = None\n"
            "sys.modules['numpy.core._multiarray_umath'] = None\n"
            "x = ctensor.arange(6.0).view(2, 3)\n"
            "a = x.t().numpy()\n"
            "assert a.strides == (4, 12) and a.base is not None and a.ctypes.data == x.data_ptr()\n"
            "print('ok')\n")
    out = _run_fresh(code)
    assert out.stdout.strip() == "ok", out.stderr


def test_numpy_bfloat16_unsupported():
    with pytest.raises(TypeError, match="BFloat16"):
        ctensor.zeros(2, dtype=ctensor.bfloat16).numpy()


def test_array_interface():
    x = ctensor.arange(6, dtype=ctensor.int32).view(2, 3)
    ai = x.__array_interface__
    assert ai["shape"] == (2, 3) and ai["typestr"] == "<i4" and ai["strides"] == (12, 4)
    assert ai["data"] == (x.data_ptr(), False) and ai["version"] == 3
    assert ctensor.zeros(0, 2).__array_interface__["data"][0] != 0  # NumPy refuses NULL
    assert np.array(x, dtype=np.float64).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


# ---- DLPack ---------------------------------------------------------------------------------

def test_dlpack_method_in_c_agrees_with_the_protocol_in_python():
    # __dlpack__ answers the common calls in C (numpy_exchange.c) and hands the rest to
    # _interop.dlpack: both give the same capsule kind, or the same error, for every call.
    from ctensor import _interop
    ro = np.arange(3.0)
    ro.flags.writeable = False
    tensors = [ctensor.arange(6.0).view(2, 3).t(), ctensor.zeros(2, requires_grad=True),
               ctensor.tensor([1 + 2j]).conj(), ctensor.from_numpy(ro), ctensor.zeros(0, 3)]
    calls = [((), {}), ((None,), {}), ((-1,), {}), ((0,), {}), ((), {"stream": None}),
             ((), {"max_version": (1, 0)}), ((), {"max_version": (2, 3)}), ((), {"max_version": (0, 8)}),
             ((), {"max_version": [1, 0]}), ((), {"max_version": (1, 0), "copy": False}),
             ((), {"max_version": (1, 0), "copy": True}), ((), {"copy": True}), ((), {"dl_device": (1, 0)}),
             ((), {"dl_device": (2, 0)}), ((), {"bogus": 1}), ((None, None), {})]

    def outcome(f, *args, **kw):
        try:
            cap = f(*args, **kw)
        except Exception as e:  # noqa: BLE001 -- the comparison is the test
            return type(e).__name__, str(e).replace("_interop.dlpack()", "__dlpack__()").replace("dlpack()", "__dlpack__()")
        return "capsule", repr(cap).split('"')[1]

    for t in tensors:
        for args, kw in calls:
            fast = outcome(t.__dlpack__, *args, **kw)
            slow = outcome(_interop.dlpack, t, *args, **kw)
            assert fast[0] == slow[0], (t, args, kw, fast, slow)
            if fast[0] != "TypeError":  # Python names the function in its argument errors
                assert fast == slow, (t, args, kw, fast, slow)
    assert ctensor.zeros(2).__dlpack_device__() == (ctensor.DLDeviceType.kDLCPU, 0)


def test_numpy_from_dlpack_of_ctensor():
    x = ctensor.arange(12.0).view(3, 4).t()
    a = np.from_dlpack(x)
    assert a.ctypes.data == x.data_ptr() and a.strides == (4, 16) and a.tolist() == x.tolist()
    assert x.__dlpack_device__() == (1, 0)


def test_ctensor_from_dlpack_of_numpy():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)[:, 1:]
    t = ctensor.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data and t.stride() == (4, 1) and t.tolist() == a.tolist()
    a[0, 0] = 99
    assert t[0, 0].item() == 99
    ref = weakref.ref(a.base)
    del a
    collect()
    assert t[0, 0].item() == 99  # the DLPack deleter has not run: t keeps NumPy's memory
    del t
    collect()
    assert ref() is None


@needs_torch
def test_torch_from_dlpack_of_ctensor_and_back():
    x = ctensor.arange(6.0).view(2, 3)
    t = torch.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr() and t.stride() == (3, 1)
    t[0, 0] = 42
    assert x[0, 0].item() == 42
    y = ctensor.from_dlpack(torch.arange(4, dtype=torch.int32)[1:])
    assert y.tolist() == [1, 2, 3] and y.dtype is ctensor.int32
    z = ctensor.from_dlpack(t)
    assert z.data_ptr() == x.data_ptr()
    assert ctensor.shares_memory(z, x) and not z.shares_storage(x)  # two storages, one memory


def test_from_dlpack_of_ctensor_and_capsules():
    x = ctensor.arange(5)
    y = ctensor.from_dlpack(x)  # versioned capsule (DLPack 1.x) between ctensors
    assert y.data_ptr() == x.data_ptr() and y.tolist() == [0, 1, 2, 3, 4]
    cap = x.__dlpack__()
    assert "dltensor" in repr(cap)
    z = ctensor.from_dlpack(cap)
    assert '"used_dltensor"' in repr(cap) and z.tolist() == x.tolist()
    with pytest.raises(ValueError, match="already consumed"):
        ctensor.from_dlpack(cap)
    vcap = x.__dlpack__(max_version=(1, 0))
    assert '"dltensor_versioned"' in repr(vcap)
    w = ctensor.from_dlpack(vcap)
    assert '"used_dltensor_versioned"' in repr(vcap) and w.data_ptr() == x.data_ptr()
    with pytest.raises(TypeError):
        ctensor.from_dlpack([1, 2])


def test_unconsumed_capsule_releases_its_storage():
    base = live()
    x = ctensor.arange(5)
    cap = x.__dlpack__()
    del x
    collect()
    assert live() == (base[0], base[1] + 1)  # the capsule keeps the storage, not the tensor
    del cap
    collect()
    assert live() == base


def test_dlpack_lifetime_through_numpy():
    base = live()
    x = ctensor.arange(1000.0)
    a = np.from_dlpack(x)
    del x
    collect()
    assert a[999] == 999.0
    del a
    collect()
    assert live() == base


def test_dlpack_read_only_storage_refuses_writes():
    a = np.arange(3.0)
    t = ctensor.from_dlpack(a)
    assert not t.untyped_storage().is_read_only()
    t[0] = 5
    assert a[0] == 5
