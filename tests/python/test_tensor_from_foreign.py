"""ctensor.tensor / ctensor.as_tensor of another library's arrays: anything with __dlpack__
(a torch tensor), __array_interface__ or __array__.  tensor() always copies; as_tensor() shares
memory when the dtype allows, as torch 2.13 does for a NumPy array or a DLPack producer."""

import numpy as np
import pytest

import ctensor
from ctutil import torch

needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")


class OnlyDLPack:
    """A DLPack producer that is neither an ndarray nor a sequence."""
    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


class OnlyArrayInterface:
    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


class OnlyArray:
    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a


WRAPPERS = [OnlyDLPack, OnlyArrayInterface, OnlyArray]


def shares(t, a):
    return t.data_ptr() == a.ctypes.data


@pytest.mark.parametrize("wrap", WRAPPERS)
def test_tensor_copies(wrap):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ctensor.tensor(wrap(a))
    assert t.dtype is ctensor.float32 and t.shape == (2, 3) and not shares(t, a)
    a[0, 0] = 42
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize("wrap", WRAPPERS)
def test_as_tensor_shares_when_dtype_matches(wrap):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for dtype in (None, ctensor.float32):
        t = ctensor.as_tensor(wrap(a), dtype=dtype)
        assert shares(t, a)
        a[1, 2] = 7
        assert t[1, 2].item() == 7


@pytest.mark.parametrize("wrap", WRAPPERS)
def test_dtype_conversion_copies(wrap):
    a = np.arange(3, dtype=np.int32)
    for fn in (ctensor.tensor, ctensor.as_tensor):
        t = fn(wrap(a), dtype=ctensor.float64)
        assert t.dtype is ctensor.float64 and t.tolist() == [0.0, 1.0, 2.0] and not shares(t, a)


@needs_torch
def test_dlpack_sharing_matches_torch():
    # the reference: torch.as_tensor shares a DLPack producer's memory iff the dtype matches
    a = np.arange(4, dtype=np.float32)
    assert torch.as_tensor(OnlyDLPack(a)).data_ptr() == a.ctypes.data
    assert torch.as_tensor(OnlyDLPack(a), dtype=torch.float64).data_ptr() != a.ctypes.data
    assert torch.tensor(OnlyDLPack(a)).data_ptr() != a.ctypes.data
    assert shares(ctensor.as_tensor(OnlyDLPack(a)), a)
    assert not shares(ctensor.as_tensor(OnlyDLPack(a), dtype=ctensor.float64), a)
    assert not shares(ctensor.tensor(OnlyDLPack(a)), a)


@needs_torch
@pytest.mark.parametrize("src", [lambda: torch.tensor(3.5), lambda: torch.arange(6).reshape(2, 3),
                                 lambda: torch.tensor([True, False]),
                                 lambda: torch.arange(12.).reshape(3, 4).t()])
def test_torch_tensor_in(src):
    s = src()
    t = ctensor.tensor(s)
    assert t.tolist() == s.tolist() and str(t.dtype).split(".")[1] == str(s.dtype).split(".")[1]
    assert t.shape == tuple(s.shape) and t.data_ptr() != s.data_ptr()
    u = ctensor.as_tensor(s)
    assert u.tolist() == s.tolist() and u.stride() == s.stride() and u.data_ptr() == s.data_ptr()


@needs_torch
def test_torch_tensor_requiring_grad_is_refused_as_by_dlpack():
    s = torch.ones(2, requires_grad=True)
    with pytest.raises(BufferError, match="require gradient"):
        ctensor.as_tensor(s)
    assert ctensor.tensor(s.detach()).tolist() == [1.0, 1.0]


def test_requires_grad_and_factories_still_work():
    a = np.ones(2, dtype=np.float32)
    t = ctensor.tensor(OnlyDLPack(a), requires_grad=True)
    assert t.requires_grad and t.is_leaf
    assert ctensor.tensor(np.float32(2)).dtype is ctensor.float32  # NumPy scalars: unchanged
    assert ctensor.as_tensor(np.float64(2)).dtype is ctensor.float64


@needs_torch
def test_torch_tensors_inside_lists_are_scalars():
    # torch.tensor([torch.tensor(1.), torch.tensor(2.)]) reads 0-d tensors as scalars
    t = ctensor.tensor([torch.tensor(1.0), torch.tensor(2.0)])
    assert t.dtype is ctensor.float32 and t.tolist() == [1.0, 2.0]
    assert ctensor.tensor([[torch.tensor(1), 2]]).dtype is ctensor.int64
    for lib in (torch, ctensor):
        with pytest.raises(ValueError, match="^only one element tensors can be converted to Python scalars$"):
            lib.tensor([torch.ones(2), torch.ones(2)])
