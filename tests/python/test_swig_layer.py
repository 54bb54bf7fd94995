"""The SWIG layer ctensor._C: generated from the header, ownership, errors -> exceptions."""

import pathlib
import re

import numpy as np
import pytest

import ctensor
from ctensor import _C
from ctutil import live

REPO = pathlib.Path(__file__).resolve().parents[2]
HEADER = (REPO / "include" / "ctensor.h").read_text()
INTERFACE = (REPO / "bindings" / "python" / "ctensor.i").read_text()


def header_functions():
    """(return type, name) of every CT_API function of the header."""
    flat = re.sub(r"/\*.*?\*/", " ", HEADER, flags=re.S)
    return [(m.group(1).strip(), m.group(2)) for m in
            re.finditer(r"CT_API\s+([^;(]*?)\b(ct_[a-z0-9_]+)\s*\(", flat)]


IGNORED = set(re.findall(r"%ignore (ct_[a-z0-9_]+);", INTERFACE))


def test_header_is_parsed():
    names = [n for _, n in header_functions()]
    assert len(names) > 60 and "ct_view" in names and "ct_to_dlpack" in names


def test_every_header_function_is_in_the_module():
    missing = [n for _, n in header_functions() if n not in IGNORED and not hasattr(_C, n)]
    assert not missing


def test_every_new_reference_is_newobject():
    """Functions returning a handle return a new reference (the header's rule): each must be
    %newobject in ctensor.i, else the Python object would add a reference and leak."""
    newobject = set(re.findall(r"%newobject (ct_[a-z0-9_]+);", INTERFACE))
    returning_handles = [n for r, n in header_functions()
                         if re.search(r"\b(ct_tensor|ct_storage|DLManagedTensor\w*)\s*\*", r)]
    missing = [n for n in returning_handles if n not in newobject and n not in IGNORED]
    assert not missing, f"add %newobject for {missing} in bindings/python/ctensor.i"


def test_lifetime_functions_are_not_exposed():
    for n in ("ct_tensor_retain", "ct_tensor_release", "ct_storage_retain", "ct_storage_release"):
        assert not hasattr(_C, n)


def test_raw_functions():
    base = live()
    x = _C.ct_arange(0, 12, 1, _C.CT_FLOAT32)
    assert isinstance(x, ctensor.Tensor)
    v = _C.ct_view(x, (3, 4))
    assert _C.ct_tensor_sizes(v) == (3, 4) and _C.ct_tensor_strides(v) == (4, 1)
    assert _C.ct_tensor_ndim(v) == 2 and _C.ct_tensor_numel(v) == 12 and _C.ct_tensor_offset(v) == 0
    assert _C.ct_tensor_is_view(v) == 1 and _C.ct_tensor_base(v) is x and _C.ct_tensor_base(x) is None
    assert _C.ct_tensor_dtype(v) == _C.CT_FLOAT32 == 8
    assert _C.ct_dtype_name(_C.CT_BFLOAT16) == "bfloat16" and _C.ct_dtype_itemsize(_C.CT_INT16) == 2
    assert _C.ct_status_name(_C.CT_ERR_SHAPE) == "CT_ERR_SHAPE" and _C.ct_version() == ctensor.__version__
    assert _C.ct_reshape_is_view(v, (12,)) == 1 and _C.ct_reshape_is_view(_C.ct_transpose(v, 0, 1), (12,)) == 0
    s = _C.ct_tensor_storage(v)
    assert _C.ct_storage_nbytes(s) == 48 and _C.ct_storage_id(s) == _C.ct_tensor_storage_id(v)
    assert _C.ct_tensor_to_string(_C.ct_select(v, 0, 0)) == "tensor([0., 1., 2., 3.])"
    big = _C.ct_zeros((300, 300), ctensor.float32)  # a repr longer than the first buffer
    assert _C.ct_tensor_to_string(big) == repr(big)
    assert _C.ct_tensor_data(v) == v.data_ptr() and _C.ct_storage_data(s) == v.data_ptr()
    assert _C.ct_permute(v, [1, 0]).stride() == (1, 4)
    assert _C.ct_slice(v, 1, 1, 2**63 - 1, 2).tolist() == [[1, 3], [5, 7], [9, 11]]
    assert _C.ct_as_strided(v, (2,), (5,), 1).tolist() == [1, 6]
    assert _C.ct_full(3, 2.5, ctensor.float64).tolist() == [2.5, 2.5, 2.5]
    assert _C.ct_CT_MAX_DIMS if hasattr(_C, "ct_CT_MAX_DIMS") else _C.CT_MAX_DIMS == 64
    del x, v, s, big
    assert live() == base


def test_from_data_checks_the_buffer():
    t = _C.ct_from_data(np.arange(6, dtype=np.int32).tobytes(), (2, 3), ctensor.int32)
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="buffer holds 8 bytes, the tensor needs 24"):
        _C.ct_from_data(b"\0" * 8, (2, 3), ctensor.int32)
    with pytest.raises(TypeError):
        _C.ct_from_data([1, 2, 3], (3,), ctensor.int32)


@pytest.mark.parametrize("call,cls,status", [
    (lambda x: _C.ct_view(_C.ct_transpose(x, 0, 1), (12,)), RuntimeError, "CT_ERR_NOT_VIEWABLE"),
    (lambda x: _C.ct_view(x, (5,)), RuntimeError, "CT_ERR_SHAPE"),
    (lambda x: _C.ct_transpose(x, 0, 7), IndexError, "CT_ERR_INDEX"),
    (lambda x: _C.ct_select(x, 0, 3), IndexError, "CT_ERR_INDEX"),
    (lambda x: _C.ct_as_strided(x, (4, 4), (4, 1), 0), RuntimeError, "CT_ERR_INDEX"),
    (lambda x: _C.ct_narrow(x, 0, 2, 5), RuntimeError, "CT_ERR_SHAPE"),
    (lambda x: _C.ct_to(x, 77), TypeError, "CT_ERR_DTYPE"),
    (lambda x: _C.ct_index_select(x, 0, _C.ct_zeros((2,), 8)), RuntimeError, "CT_ERR_DTYPE"),
    (lambda x: _C.ct_copy_(_C.ct_expand(_C.ct_zeros(1, 8), (3,)), _C.ct_ones(3, 8)), RuntimeError, "CT_ERR_OVERLAP"),
    (lambda x: _C.ct_permute(x, [0, 0]), RuntimeError, "CT_ERR_INVALID_ARGUMENT"),
    (lambda x: _C.ct_empty((-1,), 8), RuntimeError, "CT_ERR_SHAPE"),
])
def test_errors_become_torch_exceptions(call, cls, status):
    x = _C.ct_view(_C.ct_arange(0, 12, 1, 8), (3, 4))
    with pytest.raises(Exception) as e:
        call(x)
    assert type(e.value) is cls
    assert e.value.status == status
    # the C message, less the "op: " prefix the C convention adds where torch's text has none
    # (fastpath.c: ctpy_torch_text); the C message itself keeps it
    c_message = _C.ct_last_error()
    assert str(e.value) == c_message or (c_message.endswith(": " + str(e.value))
                                         and c_message.split(":")[0].rstrip("()").isidentifier())


def test_a_successful_call_after_a_failure_does_not_raise():
    x = ctensor.zeros(3)
    with pytest.raises(IndexError):
        x.transpose(0, 4)
    assert _C.ct_last_status() == _C.CT_ERR_INDEX  # kept by the C library until cleared
    # The view fast paths trust the returned handle, not the status (a NULL result always comes
    # with a fresh status), so they do not pay for clearing it.
    assert x.transpose(0, 0).shape == (3,)
    assert x[1:].shape == (2,) and x.reshape(3).shape == (3,)
    with pytest.raises(RuntimeError, match=r"shape '\[2\]' is invalid for input of size 3"):
        x.view(2)  # the next failure reports itself, not the stale status
    # SWIG-generated wrappers judge by the status, so they clear it first.
    assert _C.ct_tensor_numel(x) == 3
    assert _C.ct_last_status() == _C.CT_OK and _C.ct_last_error() == ""


def test_argument_type_errors():
    x = ctensor.zeros(2, 2)
    with pytest.raises(TypeError, match="must be Tensor"):
        _C.ct_view([1, 2], (4,))
    with pytest.raises(TypeError):
        x.transpose(0.5, 1)
    with pytest.raises(TypeError, match="must be tuple of ints"):
        x.view(2.0, 2)
    with pytest.raises(TypeError):
        x.index_select(0, [0])
    with pytest.raises(TypeError, match="expected a ctensor dtype"):
        _C.ct_zeros((2,), "float32")
    assert x.view(np.int64(4)).shape == (4,)  # NumPy integers are ints, as in torch
    assert x.reshape(ctensor.tensor(4)).shape == (4,)  # so are one-element integer tensors
    assert x.transpose(dim0=1, dim1=0).shape == (2, 2) and x.flatten(start_dim=0).shape == (4,)
    assert x.view(size=(4,)).shape == (4,) and x.reshape(shape=[4]).shape == (4,)


def test_too_many_dims():
    x = ctensor.zeros(1)
    assert x.view(*([1] * 64)).dim() == 64
    with pytest.raises(RuntimeError):
        x.view(*([1] * 65))


def test_threads_setting():
    n = ctensor.get_num_threads()
    ctensor.set_num_threads(1)
    assert ctensor.get_num_threads() == 1
    ctensor.set_num_threads(0)
    assert ctensor.get_num_threads() >= 1
    ctensor.set_num_threads(n)
