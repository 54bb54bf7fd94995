"""Factories, dtypes, Size: named and behaving as torch's."""

import math
import pickle

import numpy as np
import pytest

import ctensor
from ctutil import CT_DTYPES, same_values, torch, torch_dtype

needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")


# ---- dtypes ---------------------------------------------------------------------------------

def test_dtype_objects_and_aliases():
    assert [repr(d) for d in CT_DTYPES] == [
        "ctensor.bool", "ctensor.uint8", "ctensor.int8", "ctensor.int16", "ctensor.int32",
        "ctensor.int64", "ctensor.float16", "ctensor.bfloat16", "ctensor.float32", "ctensor.float64"]
    assert ctensor.float is ctensor.float32
    assert ctensor.double is ctensor.float64
    assert ctensor.half is ctensor.float16
    assert ctensor.long is ctensor.int64
    assert ctensor.int is ctensor.int32
    assert ctensor.short is ctensor.int16
    assert str(ctensor.float32) == "ctensor.float32"
    assert ctensor.float32.is_floating_point and not ctensor.int64.is_floating_point
    assert [d.itemsize for d in CT_DTYPES] == [1, 1, 1, 2, 4, 8, 2, 2, 4, 8]
    assert pickle.loads(pickle.dumps(ctensor.float64)) is ctensor.float64
    assert isinstance(ctensor.float32, ctensor.dtype)


@needs_torch
def test_promote_types_matches_torch():
    for a in CT_DTYPES:
        for b in CT_DTYPES:
            expected = torch.promote_types(torch_dtype(a), torch_dtype(b))
            assert repr(ctensor.promote_types(a, b)).split(".")[1] == str(expected).split(".")[1], (a, b)


def test_size():
    s = ctensor.Size([3, 4])
    assert isinstance(s, tuple) and s == (3, 4)
    assert repr(s) == "ctensor.Size([3, 4])" and str(s) == "ctensor.Size([3, 4])"
    assert repr(ctensor.Size([])) == "ctensor.Size([])"
    assert isinstance(s[1:], ctensor.Size) and s[1:] == (4,)
    assert s[0] == 3 and s.numel() == 12
    assert isinstance(s + (5,), ctensor.Size) and s + (5,) == (3, 4, 5)
    x = ctensor.zeros(2, 3)
    assert isinstance(x.shape, ctensor.Size) and isinstance(x.size(), ctensor.Size)
    assert x.shape == ctensor.Size([2, 3]) == (2, 3) == x.size()
    assert pickle.loads(pickle.dumps(s)) == s


# ---- tensor() -------------------------------------------------------------------------------

INFERENCE_CASES = [
    1, 1.5, True, [1, 2, 3], [1.0, 2], [True, False], [True, 2], [[1, 2], [3, 4]], [], [[], []],
    [[[1.5]]], (1, 2), [(1, 2), (3, 4)], [np.float64(1.0)], [np.int32(3)], np.float32(2.5),
    [np.float32(1), 2], [np.int8(1), np.uint8(2)], np.array([1, 2], dtype=np.int16),
    np.array([[1.5, 2.5]], dtype=np.float64), np.array(True), [2**62, -2**62],
]


@needs_torch
@pytest.mark.parametrize("data", INFERENCE_CASES, ids=repr)
def test_tensor_dtype_inference_matches_torch(data):
    c = ctensor.tensor(data)
    t = torch.tensor(data)
    assert str(c.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    assert tuple(c.shape) == tuple(t.shape)
    assert same_values(c, t)
    assert str(c) == str(t).replace("torch.", "ctensor.")


EXPLICIT_CASES = [
    ([1.7, -1.7], "int64"), ([300, -1], "int16"), ([-1, 255], "uint8"), ([0.5, 0.0, 2], "bool"),
    ([3], "bool"), (True, "float32"), ([2**63 - 1], "int64"), ([1, 2], "float16"),
    ([1.1, 2.2], "bfloat16"), ([70000.0], "float16"), ([1e300], "float32"), ([1, 2], "float64"),
    ([[1, 2], [3, 4]], "int8"), (0.1, "float64"),
]


@needs_torch
@pytest.mark.parametrize("data,name", EXPLICIT_CASES, ids=repr)
def test_tensor_explicit_dtype_matches_torch(data, name):
    c = ctensor.tensor(data, dtype=getattr(ctensor, name))
    t = torch.tensor(data, dtype=getattr(torch, name))
    assert same_values(c, t)
    assert str(c) == str(t).replace("torch.", "ctensor.")


ERROR_CASES = [
    ([[1, 2], [3]], None), ([1, [2]], None), ([[1], 2], None), ("ab", None), (["a"], None),
    ([1, "a"], None), ([None], None), (object(), None), ([300], "uint8"), ([256], "uint8"),
    ([128], "int8"), ([1e20], "int64"), ([float("nan")], "int64"), ([-1.0], "uint8"),
    ([2**63], None),
]


@needs_torch
# ids without addresses: pytest-xdist workers must collect the same names
@pytest.mark.parametrize("data,name", ERROR_CASES, ids=lambda v: "object()" if type(v) is object else repr(v))
def test_tensor_errors_match_torch(data, name):
    with pytest.raises(Exception) as te:
        torch.tensor(data, dtype=getattr(torch, name) if name else None)
    with pytest.raises(Exception) as ce:
        ctensor.tensor(data, dtype=getattr(ctensor, name) if name else None)
    assert type(ce.value) is type(te.value), (ce.value, te.value)
    assert str(ce.value).replace("ctensor", "torch") == str(te.value), (ce.value, te.value)


def test_tensor_copies_its_input():
    a = np.arange(4.0)
    c = ctensor.tensor(a)
    a[0] = 100
    assert c[0].item() == 0.0
    x = ctensor.arange(3)
    y = ctensor.tensor(x)
    assert not y.shares_storage(x) and y._base is None and y.tolist() == [0, 1, 2]
    z = ctensor.tensor(x, dtype=ctensor.float64)
    assert z.dtype is ctensor.float64 and z.tolist() == [0.0, 1.0, 2.0]


def test_tensor_from_noncontiguous_numpy_and_scalars():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]
    c = ctensor.tensor(a)
    assert c.tolist() == a.tolist() and c.dtype is ctensor.int32 and c.is_contiguous()
    assert ctensor.tensor(np.float16(1.5)).dtype is ctensor.float16
    assert ctensor.tensor(np.bool_(True)).dtype is ctensor.bool
    assert ctensor.tensor([ctensor.tensor(2.5), 1]).tolist() == [2.5, 1.0]


def test_tensor_refuses_unsupported_numpy_dtypes():
    with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy.uint16"):
        ctensor.tensor(np.zeros(2, dtype=np.uint16))


# ---- zeros, ones, empty, full, arange ---------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("args", [(2, 3), ((2, 3),), ([2, 3],), (0,), (), ((),), (1, 0, 2)], ids=repr)
def test_shape_factories(fn, args):
    if not args:  # torch requires a size
        with pytest.raises(TypeError):
            getattr(torch, fn)(*args)
        with pytest.raises(TypeError):
            getattr(ctensor, fn)(*args)
        return
    c = getattr(ctensor, fn)(*args)
    t = getattr(torch, fn)(*args)
    assert tuple(c.shape) == tuple(t.shape) and c.stride() == t.stride()
    assert c.dtype is ctensor.float32 and c.is_contiguous() and c.storage_offset() == 0
    assert c._base is None and not c._is_view() and c._version == 0
    if fn != "empty":
        assert same_values(c, t)


@needs_torch
@pytest.mark.parametrize("dt", ["bool", "uint8", "int32", "int64", "float16", "bfloat16", "float64"])
def test_factories_with_dtype(dt):
    for fn in ("zeros", "ones"):
        c = getattr(ctensor, fn)(2, 2, dtype=getattr(ctensor, dt))
        t = getattr(torch, fn)(2, 2, dtype=getattr(torch, dt))
        assert str(c) == str(t).replace("torch.", "ctensor.")


@needs_torch
@pytest.mark.parametrize("size,value,dt", [
    ((2, 2), 7, None), ((3,), 1.5, None), ((2,), True, None), ((2, 3), 2, "float64"),
    ((2,), -1, "uint8"), ((2,), 2**60 + 1, None), ((0,), 3, None), ((), 4.25, None)], ids=repr)
def test_full(size, value, dt):
    c = ctensor.full(size, value, dtype=getattr(ctensor, dt) if dt else None)
    t = torch.full(size, value, dtype=getattr(torch, dt) if dt else None)
    assert str(c) == str(t).replace("torch.", "ctensor.")
    assert same_values(c, t)


@needs_torch
def test_full_overflow_matches_torch():
    with pytest.raises(RuntimeError) as te:
        torch.full((2,), 300, dtype=torch.uint8)
    with pytest.raises(RuntimeError) as ce:
        ctensor.full((2,), 300, dtype=ctensor.uint8)
    assert str(ce.value) == str(te.value)


@needs_torch
@pytest.mark.parametrize("args,kw", [
    ((5,), {}), ((1, 4), {}), ((0, 1, 0.25), {}), ((5.0,), {}), ((1, 4), {"dtype": "float64"}),
    ((10, 0, -3), {}), ((0, 0), {}), ((-2.5, 2.5, 0.5), {}), ((3,), {"dtype": "int8"})], ids=repr)
def test_arange(args, kw):
    kc = {k: getattr(ctensor, v) for k, v in kw.items()}
    kt = {k: getattr(torch, v) for k, v in kw.items()}
    c = ctensor.arange(*args, **kc)
    t = torch.arange(*args, **kt)
    assert str(c) == str(t).replace("torch.", "ctensor.")


@needs_torch
@pytest.mark.parametrize("args,kw", [((0, 3, -1), {}), ((0, 3, 0), {}), ((3,), {"dtype": "bool"})], ids=repr)
def test_arange_errors(args, kw):
    with pytest.raises(Exception) as te:
        torch.arange(*args, **{k: getattr(torch, v) for k, v in kw.items()})
    with pytest.raises(Exception) as ce:
        ctensor.arange(*args, **{k: getattr(ctensor, v) for k, v in kw.items()})
    assert type(ce.value) is type(te.value)


def test_negative_size_error():
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        ctensor.empty(-1)
    with pytest.raises(TypeError, match="must be tuple of ints"):
        ctensor.zeros(2.0, 3)


def test_like_factories_and_new_methods():
    x = ctensor.arange(6).view(2, 3)
    assert ctensor.zeros_like(x).tolist() == [[0, 0, 0], [0, 0, 0]] and ctensor.zeros_like(x).dtype is ctensor.int64
    assert ctensor.ones_like(x, dtype=ctensor.float64).dtype is ctensor.float64
    assert ctensor.full_like(x, 7).tolist() == [[7, 7, 7], [7, 7, 7]]
    assert ctensor.empty_like(x).shape == (2, 3)
    assert x.new_zeros(2).dtype is ctensor.int64 and x.new_ones((1, 2)).tolist() == [[1, 1]]
    assert x.new_tensor([1.5]).dtype is ctensor.int64
    assert x.new_full((2,), 3).tolist() == [3, 3] and x.new_empty(3).shape == (3,)


def test_device_and_requires_grad_arguments():
    assert ctensor.zeros(2, device="cpu").device == ctensor.device("cpu")
    assert repr(ctensor.zeros(1).device) == "device(type='cpu')"
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled$"):
        ctensor.zeros(2, device="cuda")  # as a CPU-only torch (test_torch_scripts.py has the rest)
    assert ctensor.tensor([1.0], requires_grad=True).requires_grad  # test_autograd.py has the rest
    with pytest.raises(RuntimeError, match="floating point"):
        ctensor.tensor([1], requires_grad=True)
    with pytest.raises(TypeError):
        ctensor.zeros(2, dtype="float32")


def test_is_tensor_and_version():
    assert ctensor.is_tensor(ctensor.zeros(1)) and not ctensor.is_tensor([1])
    assert ctensor.__version__.count(".") == 2


def test_tensor_constructs_as_torch_legacy_new():
    # torch.Tensor(...) is torch's legacy constructor (test_torch_scripts.py compares it with torch)
    assert tuple(ctensor.Tensor().shape) == (0,) and ctensor.Tensor().dtype is ctensor.float32
    assert ctensor.Tensor([1, 2]).tolist() == [1.0, 2.0]


def test_large_values_round_trip():
    big = [2**62 + 1, -(2**63)]
    assert ctensor.tensor(big).tolist() == big
    assert ctensor.tensor([math.pi], dtype=ctensor.float64).item() == math.pi
