"""DLPack between ctensor (loaded with ctypes) and PyTorch / NumPy, both ways, zero-copy.

Run with the interpreter that has numpy and torch:
    CTENSOR_LIB=build/libctensor.so /usr/bin/python3 -m pytest tests/python/test_dlpack_ctypes.py

Capsule protocol (this file's producer, like NumPy 1.x and torch before 2.4, speaks the legacy one): a producer wraps its
DLManagedTensor* in a PyCapsule named "dltensor"; the consumer that takes ownership renames it
"used_dltensor".  A capsule that dies still named "dltensor" was never consumed, so its
destructor must call the deleter itself.
"""
import ctypes
import gc
import os
import sys
import weakref
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
import torch.utils.dlpack  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LIB_PATH = os.environ.get("CTENSOR_LIB") or str(ROOT / "build" / "libctensor.so")

# ---- the C API, declared by hand ---------------------------------------------------------

c_int64_p = ctypes.POINTER(ctypes.c_int64)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", c_int64_p),
        ("strides", c_int64_p),
        ("byte_offset", ctypes.c_uint64),
    ]


DLDeleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DLDeleter)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DLDeleter),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


kDLCPU = 1
kDLBool = 6
DLPACK_FLAG_BITMASK_READ_ONLY = 1

lib = ctypes.CDLL(LIB_PATH)  # CDLL drops the GIL during calls: deleters then run without it


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


vp = ctypes.c_void_p
ct_from_data = _fn("ct_from_data", vp, vp, ctypes.c_int, c_int64_p, ctypes.c_int)
ct_tensor_release = _fn("ct_tensor_release", None, vp)
ct_tensor_data = _fn("ct_tensor_data", vp, vp)
ct_tensor_ndim = _fn("ct_tensor_ndim", ctypes.c_int, vp)
ct_tensor_size = _fn("ct_tensor_size", ctypes.c_int64, vp, ctypes.c_int)
ct_tensor_stride = _fn("ct_tensor_stride", ctypes.c_int64, vp, ctypes.c_int)
ct_tensor_dtype = _fn("ct_tensor_dtype", ctypes.c_int, vp)
ct_tensor_version = _fn("ct_tensor_version", ctypes.c_int64, vp)
ct_transpose = _fn("ct_transpose", vp, vp, ctypes.c_int, ctypes.c_int)
ct_slice = _fn("ct_slice", vp, vp, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)
ct_copy_ = _fn("ct_copy_", ctypes.c_int, vp, vp)
ct_live_tensors = _fn("ct_live_tensors", ctypes.c_int64)
ct_live_storages = _fn("ct_live_storages", ctypes.c_int64)
ct_last_status = _fn("ct_last_status", ctypes.c_int)
ct_last_error = _fn("ct_last_error", ctypes.c_char_p)
ct_to_dlpack = _fn("ct_to_dlpack", vp, vp)
ct_from_dlpack = _fn("ct_from_dlpack", vp, vp)
ct_to_dlpack_versioned = _fn("ct_to_dlpack_versioned", vp, vp)
ct_from_dlpack_versioned = _fn("ct_from_dlpack_versioned", vp, vp)

CT_OK, CT_ERR_INVALID_ARGUMENT, CT_ERR_DTYPE, CT_ERR_READ_ONLY = 0, 1, 3, 8

# ct_dtype values (ABI) with their NumPy and torch names.
DTYPES = {
    "bool": (0, np.bool_, torch.bool),
    "uint8": (1, np.uint8, torch.uint8),
    "int8": (2, np.int8, torch.int8),
    "int16": (3, np.int16, torch.int16),
    "int32": (4, np.int32, torch.int32),
    "int64": (5, np.int64, torch.int64),
    "float16": (6, np.float16, torch.float16),
    "bfloat16": (7, None, torch.bfloat16),
    "float32": (8, np.float32, torch.float32),
    "float64": (9, np.float64, torch.float64),
}
NUMERIC = [k for k in DTYPES if k != "bool"]

# ---- capsules ------------------------------------------------------------------------------

_pyapi = ctypes.pythonapi
PyCapsule_New = _pyapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [vp, ctypes.c_char_p, vp]
PyCapsule_GetPointer = _pyapi.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = vp
PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
PyCapsule_SetName = _pyapi.PyCapsule_SetName
PyCapsule_SetName.restype = ctypes.c_int
PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
PyCapsule_IsValid = _pyapi.PyCapsule_IsValid
PyCapsule_IsValid.restype = ctypes.c_int
PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor receives a capsule whose refcount is already 0: take it as a raw pointer,
# never as a py_object (that would resurrect it), and query it through raw-pointer prototypes.
_IsValidRaw = ctypes.PYFUNCTYPE(ctypes.c_int, vp, ctypes.c_char_p)(("PyCapsule_IsValid", _pyapi))
_GetPointerRaw = ctypes.PYFUNCTYPE(vp, vp, ctypes.c_char_p)(("PyCapsule_GetPointer", _pyapi))

unconsumed_capsules = []  # pointers of managed tensors deleted by a capsule destructor


@ctypes.CFUNCTYPE(None, vp)
def _dltensor_capsule_destructor(capsule):
    if _IsValidRaw(capsule, b"dltensor"):  # never consumed: the deleter is still ours to call
        ptr = _GetPointerRaw(capsule, b"dltensor")
        unconsumed_capsules.append(ptr)
        DLManagedTensor.from_address(ptr).deleter(ptr)


def capsule_of(managed_ptr):
    return PyCapsule_New(managed_ptr, b"dltensor", ctypes.cast(_dltensor_capsule_destructor, vp))


def consume(capsule):
    """ct_tensor handle from a producer's "dltensor" capsule; marks the capsule used."""
    ptr = PyCapsule_GetPointer(capsule, b"dltensor")
    h = ct_from_dlpack(ptr)
    if not h:
        raise RuntimeError(ct_last_error().decode())
    PyCapsule_SetName(capsule, b"used_dltensor")
    return h


class CTensor:
    """Owns one ct_tensor reference; exports itself through __dlpack__ (for np.from_dlpack)."""

    def __init__(self, handle):
        if not handle:
            raise RuntimeError(ct_last_error().decode())
        self.h = handle
        # Capsules handed out by __dlpack__ stay referenced here until release(): a consumer
        # that fails drops its capsule while its exception is pending, and a ctypes callback
        # (our capsule destructor) cannot run Python code in that state.  Released here, they
        # die in an ordinary context; a consumed one is "used_dltensor" and its destructor
        # does nothing.
        self.capsules = []

    def release(self):
        del self.capsules[:]
        if self.h:
            ct_tensor_release(self.h)
            self.h = None

    def __del__(self):
        self.release()

    def __dlpack__(self, stream=None):
        m = ct_to_dlpack(self.h)
        if not m:
            raise BufferError(ct_last_error().decode())
        cap = capsule_of(m)
        self.capsules.append(cap)
        return cap

    def __dlpack_device__(self):
        return (kDLCPU, 0)

    @property
    def shape(self):
        return tuple(ct_tensor_size(self.h, d) for d in range(ct_tensor_ndim(self.h)))

    @property
    def strides(self):
        return tuple(ct_tensor_stride(self.h, d) for d in range(ct_tensor_ndim(self.h)))

    def numpy_view(self, np_dtype):
        """A NumPy view built from ct_tensor_data and the strides: no DLPack involved."""
        itemsize = np.dtype(np_dtype).itemsize
        span = 1 + sum((n - 1) * s for n, s in zip(self.shape, self.strides)) if all(self.shape) else 0
        buf = (ctypes.c_char * (span * itemsize)).from_address(ct_tensor_data(self.h))
        return np.ndarray(self.shape, np_dtype, buffer=buf, strides=[s * itemsize for s in self.strides])


def ct_tensor_from(array, ct_dtype):
    a = np.ascontiguousarray(array)
    sizes = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    return CTensor(ct_from_data(a.ctypes.data, a.ndim, sizes, ct_dtype))


def reference_values(name, shape=(3, 4)):
    n = int(np.prod(shape))
    if name == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    values = np.arange(n, dtype=np.float64).reshape(shape) - 3
    if name.startswith("uint"):
        values = values + 3
    return values


def ct_from_torch_values(t):
    """A ctensor tensor holding t's values (copied in, not shared)."""
    if t.dtype == torch.bfloat16:  # NumPy has no bfloat16: move the raw bits as int16
        return ct_tensor_from(t.contiguous().view(torch.int16).numpy(), DTYPES["bfloat16"][0])
    name = str(t.dtype).replace("torch.", "")
    return ct_tensor_from(t.numpy(), DTYPES[name][0])


@pytest.fixture(autouse=True)
def no_leaks():
    gc.collect()
    tensors, storages = ct_live_tensors(), ct_live_storages()
    del unconsumed_capsules[:]
    yield
    gc.collect()
    assert ct_live_tensors() == tensors, "a ctensor tensor leaked"
    assert ct_live_storages() == storages, "a ctensor storage leaked"


# ---- ctensor -> torch ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NUMERIC)
def test_ctensor_to_torch_every_dtype(name):
    code, _, tdtype = DTYPES[name]
    ref = torch.tensor(reference_values(name)).to(tdtype)
    c = ct_from_torch_values(ref)
    t = torch.utils.dlpack.from_dlpack(c.__dlpack__())
    assert t.dtype == tdtype
    assert torch.equal(t, ref)
    assert t.data_ptr() == ct_tensor_data(c.h)
    c.release()  # torch's tensor now holds the memory alone
    assert torch.equal(t, ref)
    del t


def test_ctensor_to_torch_shares_memory_both_ways():
    c = ct_tensor_from(np.arange(12, dtype=np.float32).reshape(3, 4), DTYPES["float32"][0])
    t = torch.utils.dlpack.from_dlpack(c.__dlpack__())
    view = c.numpy_view(np.float32)
    t[1, 2] = 100.0  # torch writes, ctensor reads
    assert view[1, 2] == 100.0
    one = ct_tensor_from(np.array([-5.0], dtype=np.float32), DTYPES["float32"][0])
    assert ct_copy_(c.h, one.h) == CT_OK  # ctensor writes, torch reads
    assert torch.all(t == -5.0)
    one.release()
    del view
    c.release()
    del t


def test_ctensor_noncontiguous_to_torch():
    base = ct_tensor_from(np.arange(24, dtype=np.int64).reshape(4, 6), DTYPES["int64"][0])
    tr = CTensor(ct_transpose(base.h, 0, 1))
    sl = CTensor(ct_slice(base.h, 1, 1, 6, 2))  # columns 1, 3, 5: offset 1, strides (6, 2)
    expect = np.arange(24).reshape(4, 6)
    t_tr = torch.utils.dlpack.from_dlpack(tr.__dlpack__())
    t_sl = torch.utils.dlpack.from_dlpack(sl.__dlpack__())
    assert t_tr.stride() == (1, 6) and t_sl.stride() == (6, 2)
    assert np.array_equal(t_tr.numpy(), expect.T)
    assert np.array_equal(t_sl.numpy(), expect[:, 1::2])
    assert t_sl.data_ptr() == ct_tensor_data(sl.h)  # the element pointer: torch 1.13 ignores byte_offset
    for c in (tr, sl, base):
        c.release()
    t_sl[0, 0] = 99  # the exports keep the storage alive
    assert t_tr[1, 0] == 99
    del t_tr, t_sl


def test_torch_releases_ctensor_export():
    tensors, storages = ct_live_tensors(), ct_live_storages()
    c = ct_tensor_from(np.ones(5, dtype=np.float32), DTYPES["float32"][0])
    t = torch.utils.dlpack.from_dlpack(c.__dlpack__())
    c.release()
    assert ct_live_tensors() == tensors  # the export holds the storage, not the tensor
    assert ct_live_storages() == storages + 1  # held by the export inside torch
    assert t.tolist() == [1.0] * 5
    del t
    gc.collect()
    assert ct_live_storages() == storages


def test_ctensor_bool_to_torch():
    c = ct_tensor_from(np.array([True, False, True]), DTYPES["bool"][0])
    t = torch.utils.dlpack.from_dlpack(c.__dlpack__())  # torch 2.x reads kDLBool (1.13 did not)
    assert t.dtype == torch.bool and t.tolist() == [True, False, True]
    assert t.data_ptr() == ct_tensor_data(c.h)
    c.release()
    del t


def test_torch_refusing_a_dtype_leaves_deleter_to_capsule():
    c = ct_tensor_from(np.ones(3, dtype=np.float32), DTYPES["float32"][0])
    cap = c.__dlpack__()
    m = DLManagedTensor.from_address(PyCapsule_GetPointer(cap, b"dltensor"))
    m.dl_tensor.dtype.lanes = 2  # vector lanes: torch refuses them before taking the capsule
    # (a foreign device instead is taken, refused after, and leaked by torch 2.13)
    with pytest.raises(BufferError, match="lanes"):
        torch.utils.dlpack.from_dlpack(cap)
    assert PyCapsule_IsValid(cap, b"dltensor")  # not consumed
    c.release()
    del cap
    gc.collect()
    assert len(unconsumed_capsules) == 1  # the capsule destructor ran the deleter


# ---- torch -> ctensor ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NUMERIC)
def test_torch_to_ctensor_every_dtype(name):
    code, _, tdtype = DTYPES[name]
    t = torch.tensor(reference_values(name)).to(tdtype)
    cap = torch.utils.dlpack.to_dlpack(t)
    c = CTensor(consume(cap))
    assert ct_tensor_dtype(c.h) == code
    assert c.shape == tuple(t.shape) and c.strides == t.stride()
    assert ct_tensor_data(c.h) == t.data_ptr()
    back = torch.utils.dlpack.from_dlpack(c.__dlpack__())  # and back to torch: same memory
    assert back.data_ptr() == t.data_ptr() and torch.equal(back, t)
    del cap, back
    c.release()


def test_torch_to_ctensor_shares_memory_both_ways():
    t = torch.arange(10, dtype=torch.float64)[2:8:2]  # offset 2, stride 2
    c = CTensor(consume(torch.utils.dlpack.to_dlpack(t)))
    assert c.shape == (3,) and c.strides == (2,)
    view = c.numpy_view(np.float64)
    assert list(view) == [2.0, 4.0, 6.0]
    t[1] = 40.0  # torch writes, ctensor reads
    assert view[1] == 40.0
    seven = ct_tensor_from(np.array([7.0]), DTYPES["float64"][0])
    assert ct_copy_(c.h, seven.h) == CT_OK  # ctensor writes, torch reads
    assert t.tolist() == [7.0, 7.0, 7.0]
    seven.release()
    del view
    c.release()


def test_ctensor_releases_torch_memory():
    t = torch.arange(6, dtype=torch.float32)
    alive = weakref.ref(t)
    c = CTensor(consume(torch.utils.dlpack.to_dlpack(t)))
    del t
    gc.collect()
    # torch keeps the Python object of a tensor that C++ still references (our import does).
    assert alive() is not None
    c.release()  # runs torch's deleter, without the GIL (ctypes.CDLL)
    gc.collect()
    assert alive() is None


def test_torch_capsule_used_once():
    cap = torch.utils.dlpack.to_dlpack(torch.zeros(3))
    c = CTensor(consume(cap))
    with pytest.raises(ValueError):
        PyCapsule_GetPointer(cap, b"dltensor")  # renamed: nobody else may take it
    c.release()


# ---- NumPy -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in NUMERIC if DTYPES[n][1] is not None])
def test_ctensor_to_numpy_every_dtype(name):
    code, npdtype, _ = DTYPES[name]
    ref = reference_values(name).astype(npdtype)
    c = ct_tensor_from(ref, code)
    a = np.from_dlpack(c)  # NumPy 1.24 makes it read-only: it cannot know whether we allow writes
    assert a.dtype == npdtype and np.array_equal(a, ref)
    assert a.ctypes.data == ct_tensor_data(c.h)
    c.release()
    assert np.array_equal(a, ref)  # the export keeps the memory alive
    del a


@pytest.mark.parametrize("name", [n for n in NUMERIC if DTYPES[n][1] is not None])
def test_numpy_to_ctensor_every_dtype(name):
    code, npdtype, _ = DTYPES[name]
    arr = reference_values(name).astype(npdtype)
    c = CTensor(consume(arr.__dlpack__()))
    assert ct_tensor_dtype(c.h) == code
    assert c.shape == arr.shape and c.strides == tuple(s // arr.itemsize for s in arr.strides)
    assert ct_tensor_data(c.h) == arr.ctypes.data
    back = np.from_dlpack(c)  # and back to NumPy: the same memory again
    assert back.ctypes.data == arr.ctypes.data and np.array_equal(back, arr)
    del back
    c.release()


def test_numpy_memory_shared_both_ways():
    arr = np.arange(20, dtype=np.int32).reshape(4, 5)
    c = CTensor(consume(arr.__dlpack__()))
    tr = CTensor(ct_transpose(c.h, 0, 1))
    arr[1, 2] = 1000  # NumPy writes, ctensor reads
    assert tr.numpy_view(np.int32)[2, 1] == 1000
    v = ct_tensor_version(c.h)
    minus = ct_tensor_from(np.array([-1], dtype=np.int32), DTYPES["int32"][0])
    assert ct_copy_(tr.h, minus.h) == CT_OK  # ctensor writes, NumPy reads
    assert ct_tensor_version(c.h) == v + 1
    assert (arr == -1).all()
    for t in (minus, tr, c):
        t.release()


def test_ctensor_noncontiguous_to_numpy():
    base = ct_tensor_from(np.arange(20, dtype=np.int32).reshape(4, 5), DTYPES["int32"][0])
    tr = CTensor(ct_transpose(base.h, 0, 1))
    sl = CTensor(ct_slice(base.h, 0, 1, 4, 2))  # rows 1 and 3: offset 5
    a, b = np.from_dlpack(tr), np.from_dlpack(sl)
    assert a.shape == (5, 4) and a.strides == (4, 20)
    assert b.shape == (2, 5) and b.strides == (40, 4)
    assert b.ctypes.data == ct_tensor_data(sl.h)
    minus = ct_tensor_from(np.array([-1], dtype=np.int32), DTYPES["int32"][0])
    assert ct_copy_(sl.h, minus.h) == CT_OK  # ctensor writes, NumPy reads
    assert (a[:, 1] == -1).all() and (a[:, 0] == np.arange(5)).all()
    assert (b == -1).all()
    for t in (minus, sl, tr, base):
        t.release()
    assert a[0, 3] == -1  # the exports keep the memory alive
    del a, b


def test_numpy_to_ctensor_releases_array():
    arr = np.arange(8, dtype=np.float32)[1::3]  # strides in elements: 3
    refs = sys.getrefcount(arr)
    c = CTensor(consume(arr.__dlpack__()))
    assert c.strides == (3,) and ct_tensor_data(c.h) == arr.ctypes.data
    assert sys.getrefcount(arr) == refs + 1  # NumPy's export holds the array
    arr[0] = 42
    assert c.numpy_view(np.float32)[0] == 42
    c.release()  # NumPy's deleter takes the GIL itself
    assert sys.getrefcount(arr) == refs


def test_ctensor_bool_to_numpy():
    c = ct_tensor_from(np.array([True, False, True]), DTYPES["bool"][0])
    a = np.from_dlpack(c)  # NumPy 2 reads kDLBool (1.24 did not)
    assert a.dtype == np.bool_ and a.tolist() == [True, False, True]
    assert a.ctypes.data == ct_tensor_data(c.h)
    c.release()
    del a


def test_numpy_refuses_bfloat16_and_capsule_cleans_up():
    c = ct_tensor_from(np.zeros(3, dtype=np.int16), DTYPES["bfloat16"][0])
    with pytest.raises(Exception):  # NumPy has no bfloat16
        np.from_dlpack(c)
    c.release()
    gc.collect()
    assert len(unconsumed_capsules) == 1


# ---- versioned through ctypes (test_dlpack_protocols.py has NumPy 2, torch 2.13 and JAX) -------


def test_versioned_round_trip_through_ctypes():
    c = ct_tensor_from(np.arange(6, dtype=np.int16).reshape(2, 3), DTYPES["int16"][0])
    m = ct_to_dlpack_versioned(c.h)
    mv = DLManagedTensorVersioned.from_address(m)
    assert (mv.version.major, mv.flags) == (1, 0)
    assert mv.dl_tensor.device.device_type == kDLCPU and mv.dl_tensor.dtype.bits == 16
    c2 = CTensor(ct_from_dlpack_versioned(m))
    assert ct_tensor_data(c2.h) == ct_tensor_data(c.h)
    c.release()
    assert c2.numpy_view(np.int16).tolist() == [[0, 1, 2], [3, 4, 5]]
    c2.release()


def test_read_only_versioned_import():
    arr = np.arange(4, dtype=np.float32)
    shape = (ctypes.c_int64 * 1)(4)
    calls = []

    @DLDeleter
    def deleter(ptr):
        calls.append(ptr)

    m = DLManagedTensorVersioned()
    m.version = DLPackVersion(1, 0)
    m.deleter = deleter
    m.flags = DLPACK_FLAG_BITMASK_READ_ONLY
    m.dl_tensor = DLTensor(arr.ctypes.data, DLDevice(kDLCPU, 0), 1, DLDataType(2, 32, 1), shape, None, 0)
    c = CTensor(ct_from_dlpack_versioned(ctypes.addressof(m)))
    one = ct_tensor_from(np.array([1.0], dtype=np.float32), DTYPES["float32"][0])
    assert ct_copy_(c.h, one.h) == CT_ERR_READ_ONLY
    assert ct_last_status() == CT_ERR_READ_ONLY
    assert arr.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert ct_to_dlpack(c.h) is None and ct_last_status() == CT_ERR_READ_ONLY
    one.release()
    c.release()
    assert calls == [ctypes.addressof(m)]


def test_hostile_import_keeps_ownership():
    arr = np.zeros(4, dtype=np.float32)
    shape = (ctypes.c_int64 * 1)(4)
    calls = []

    @DLDeleter
    def deleter(ptr):
        calls.append(ptr)

    m = DLManagedTensor()
    m.deleter = deleter
    m.dl_tensor = DLTensor(arr.ctypes.data, DLDevice(2, 0), 1, DLDataType(2, 32, 1), shape, None, 0)  # CUDA
    assert ct_from_dlpack(ctypes.addressof(m)) is None
    assert ct_last_status() == CT_ERR_INVALID_ARGUMENT
    assert b"from_dlpack" in ct_last_error()
    m.dl_tensor.device = DLDevice(kDLCPU, 0)
    m.dl_tensor.dtype = DLDataType(2, 32, 2)  # lanes 2
    assert ct_from_dlpack(ctypes.addressof(m)) is None
    assert ct_last_status() == CT_ERR_DTYPE
    assert calls == []
