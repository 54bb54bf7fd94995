"""__getitem__ / __setitem__ against torch: basic indexing gives views, advanced indexing copies."""

import numpy as np
import pytest

import ctensor
from ctutil import same_values, torch, torch_storage_ptr

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def pair(shape=(2, 3, 4), dtype="float32"):
    n = 1
    for s in shape:
        n *= s
    c = ctensor.arange(n).to(getattr(ctensor, dtype)).reshape(shape).clone()
    t = torch.arange(n).to(getattr(torch, dtype)).reshape(shape).clone()
    return c, t


def key_for(lib, key):
    """The same key for either library (tensors in the key are made by that library)."""
    if isinstance(key, tuple):
        return tuple(key_for(lib, k) for k in key)
    if isinstance(key, Idx):
        return lib.tensor(key.data, dtype=getattr(lib, key.dtype)) if key.dtype else lib.tensor(key.data)
    return key


class Idx:
    def __init__(self, data, dtype=None):
        self.data, self.dtype = data, dtype

    def __repr__(self):
        return f"T({self.data!r}{', ' + self.dtype if self.dtype else ''})"


def compare(c_root, t_root, c, t):
    assert tuple(c.shape) == tuple(t.shape)
    assert c.stride() == t.stride(), "strides"  # advanced: torch's TensorIterator layout
    assert c.storage_offset() == t.storage_offset()
    assert c._is_view() == t._is_view()
    assert (c._base is c_root) == (t._base is t_root)
    assert c.shares_storage(c_root) == (torch_storage_ptr(t) == torch_storage_ptr(t_root))
    assert same_values(c, t)


KEYS = [
    0, -1, 1, slice(None), slice(1, None), slice(None, None, 2), slice(-2, None), slice(5, 10),
    slice(-10, 1), (0, 1), (1, slice(None), 2), (Ellipsis, 1), (Ellipsis,), (), None, (None, 0),
    (slice(None), None, slice(1, 3)), (0, Ellipsis, None), (slice(None, None, 3), slice(None), slice(1, None, 2)),
    (Ellipsis, None), (None, Ellipsis, None), np.int64(1), (np.int32(1), 0),
    # one None among full slices and an Ellipsis: a single unsqueeze (ctpy_unsqueeze_getitem)
    (slice(None), None), (None, slice(None)), (None, Ellipsis), (slice(None), slice(None), None),
    (slice(None), slice(None), slice(None), None), (Ellipsis, None, slice(None)), (slice(None), Ellipsis, None),
    (slice(None), None, Ellipsis, slice(None)),
    # advanced: copies
    [0, 1], [1], [], [-1, 0, -1], [[0, 1], [1, 0]], (slice(None), [0, 2]), ([0, 1], slice(None), [1, 2]),
    ([0, 1], [1, 2]), (1, [0, 2], slice(1, 3)), (Ellipsis, [0, 2]), (None, [0, 1]), ([0, 1], None),
    ([0, 1], None, [0, 1]), [True, False], (slice(None), [True, False, True]), True, False, (0, True),
    Idx([1, 0]), Idx([[1], [0]]), Idx(1), Idx(True), Idx([True, False]), Idx([[True, False, True], [False, False, True]]),
    (Idx([0, 1]), Idx([[0], [2]])), (slice(None), Idx([2, 0, 1])), Idx([1, 0], "uint8"), [0.0, 1.0],
    (Idx([0, 1]), slice(None), Idx([3, 0])), np.array([1, 0]), np.array([True, False]), (Ellipsis, Idx(2)),
    (slice(None), slice(None), Idx([[0, 1], [2, 3]])),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_torch(key):
    c_root, t_root = pair()
    ck, tk = key_for(ctensor, key), key_for(torch, key)
    t = t_root[tk]
    c = c_root[ck]
    compare(c_root, t_root, c, t)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_on_transposed_matches_torch(key):
    c_root, t_root = pair()
    cv, tv = c_root.transpose(0, 2), t_root.transpose(0, 2)
    try:
        t = tv[key_for(torch, key)]
    except Exception as e:
        with pytest.raises(type(e)):
            cv[key_for(ctensor, key)]
        return
    compare(c_root, t_root, cv[key_for(ctensor, key)], t)


@pytest.mark.parametrize("key", [(0, 0, 0, 0), 5, (0, 7), -3, (Ellipsis, Ellipsis), [5], (slice(None), [0, 9]),
                                 (slice(None),) * 4 + (None,), (Ellipsis, None, Ellipsis), (slice(None), None, Ellipsis, Ellipsis),
                                 slice(None, None, -1), slice(None, None, 0), [[0, 1], [1, 2, 3]],
                                 Idx([0.5], "float32"), Idx([True, False]), (0, Idx([[True, True]])),
                                 Idx([0, 1], "int32"), "a", 1.5, (Idx([[True, False, True], [False, False, True]]), 1)],
                         ids=repr)
def test_getitem_errors_match_torch(key):
    c_root, t_root = pair()
    try:
        t = t_root[key_for(torch, key)]
    except Exception as e:
        with pytest.raises(Exception) as ce:
            c_root[key_for(ctensor, key)]
        assert type(ce.value) is type(e), (ce.value, e)
        return
    compare(c_root, t_root, c_root[key_for(ctensor, key)], t)  # (torch accepts a few of these)


def test_getitem_error_messages():
    c, t = pair((3, 4))
    for key in [5, (0, 10), (0, 0, 0), slice(None, None, -1), [7]]:
        with pytest.raises(Exception) as te:
            t[key]
        with pytest.raises(Exception) as ce:
            c[key]
        assert str(ce.value) == str(te.value)
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        ctensor.tensor(1.0)[0]
    with pytest.raises(IndexError, match="slice\\(\\) cannot be applied to a 0-dim tensor"):
        ctensor.tensor(1.0)[:]


def test_zero_dim_indexing():
    c, t = ctensor.tensor(5.0), torch.tensor(5.0)
    for key in [None, Ellipsis, (), True, False, (None, None)]:
        compare(c, t, c[key], t[key])


SET_CASES = [
    (0, 5.0), ((1, 2), -1.0), (slice(None), 0.0), ((Ellipsis, 1), 7), ((slice(None), 0), Idx([1.0, 2.0])),
    (1, Idx([[1.0, 2.0, 3.0, 4.0]])), ((0, slice(1, 3)), Idx([9.0])), (None, 3.0), (0, Idx(2.0)),
    ([0, 1], 1.0), ((slice(None), [0, 2]), -2.0), (Idx([True, False]), 4.0), ([[0, 1], [1, 2]], 8.0),
    ((Idx([0, 1]), slice(None), Idx([3, 0])), Idx([1.0, 2.0])), (Idx([[True, False, True], [False, False, True]]), 0.0),
    ((slice(None), [0, 2]), Idx([[1.0, 2.0, 3.0, 4.0]])), (0, [[1, 2, 3, 4]] * 3), ([1, 1], 3.0),
    (0, np.float64(1.5)), (0, True), ((0, 0, 0), 2**40), (0, np.int64(3)), (0, np.float32(1)),
    (0, np.bool_(True)), (0, np.array(1.0)), ((slice(None), 0), Idx([1.0, 2.0, 3.0, 4.0])),
    (([0, 1],), Idx([[1.0], [2.0]])), ((0,), Idx([[[1.0, 2.0, 3.0, 4.0]]])),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=repr)
def test_setitem_matches_torch(key, value):
    for dtype in ("float32", "int64"):
        c_root, t_root = pair(dtype=dtype)
        cv = key_for(ctensor, value) if isinstance(value, Idx) else value
        tv = key_for(torch, value) if isinstance(value, Idx) else value
        if isinstance(value, Idx):
            cv, tv = cv.to(c_root.dtype), tv.to(t_root.dtype)
        try:
            t_root[key_for(torch, key)] = tv
        except Exception as e:
            with pytest.raises(type(e)) as ce:
                c_root[key_for(ctensor, key)] = cv
            assert str(ce.value).replace("ctensor", "torch") == str(e)
            continue
        c_root[key_for(ctensor, key)] = cv
        assert same_values(c_root, t_root)
        assert c_root._version == t_root._version


@pytest.mark.parametrize("key,value", [
    (0, Idx([1.0, 2.0])), (0, Idx([[1.0] * 4] * 2)), ([0, 1], Idx([1.0, 2.0, 3.0])), (5, 1.0),
    ((0, 0), Idx([1.0, 2.0])), (Idx([True]), 1.0)], ids=repr)
def test_setitem_errors_match_torch(key, value):
    c_root, t_root = pair()
    with pytest.raises(Exception) as te:
        t_root[key_for(torch, key)] = key_for(torch, value) if isinstance(value, Idx) else value
    with pytest.raises(Exception) as ce:
        c_root[key_for(ctensor, key)] = key_for(ctensor, value) if isinstance(value, Idx) else value
    assert type(ce.value) is type(te.value), (ce.value, te.value)
    assert str(ce.value).replace("ctensor", "torch").replace("CTensor", "Tensor") == str(te.value) or \
        isinstance(te.value, IndexError), (ce.value, te.value)


@pytest.mark.parametrize("dtype,value", [("uint8", 300), ("int8", 200), ("uint8", -1), ("float16", 1e10),
                                         ("int32", 1.5), ("bool", 2), ("int64", 2**62 + 1)], ids=repr)
def test_setitem_scalar_conversion_matches_torch(dtype, value):
    c = ctensor.zeros(3, dtype=getattr(ctensor, dtype))
    t = torch.zeros(3, dtype=getattr(torch, dtype))
    try:
        t[0] = value
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as ce:
            c[0] = value
        assert str(ce.value).replace("ctensor", "torch") == str(e)
        return
    c[0] = value
    assert same_values(c, t)


def test_setitem_through_a_view_of_a_view():
    x = ctensor.zeros(4, 4)
    v = x[1:, 1:]
    v[1:, ::2] = 1
    assert x.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 1], [0, 1, 0, 1]]


def test_setitem_with_overlapping_value():
    c, t = pair((6,))
    c[1:] = c[:-1]
    t[1:] = t[:-1].clone()  # torch 1.13 refuses the partial overlap; ctensor copies as from a clone
    assert same_values(c, t)


def test_indexing_with_numpy_and_tensor_indices_keeps_values():
    x = ctensor.arange(10)
    assert x[np.array([3, 1])].tolist() == [3, 1]
    assert x[x.index_select(0, ctensor.tensor([2]))].tolist() == [2]
    assert x[ctensor.tensor(4)].tolist() == 4 and x[ctensor.tensor(4)]._is_view()


@pytest.mark.parametrize("key", [None, (slice(None), None), (Ellipsis, None)], ids=repr)
def test_unsqueeze_keys_in_no_grad_like_torch(key):
    """x[:, None] made in no_grad mode of a tensor that requires grad: the same view as torch's,
    which may not be written in place once grad mode is back (its creation mode), and which
    records nothing."""
    c_root, t_root = pair((2, 3))
    c_root.requires_grad_()
    t_root.requires_grad_()
    with ctensor.no_grad():
        c = c_root[key]
    with torch.no_grad():
        t = t_root[key]
    compare(c_root, t_root, c, t)
    assert c.grad_fn is None and t.grad_fn is None
    assert c.requires_grad == t.requires_grad
    with pytest.raises(RuntimeError) as te:
        t.mul_(2)
    with pytest.raises(RuntimeError) as ce:
        c.mul_(2)
    assert str(ce.value) == str(te.value)


@pytest.mark.parametrize("key", [None, (slice(None), None), (Ellipsis, None), (None, Ellipsis)], ids=repr)
def test_unsqueeze_keys_record_torchs_graph(key):
    c_root, t_root = pair((2, 3))
    c_root.requires_grad_()
    t_root.requires_grad_()
    c, t = c_root[key], t_root[key]
    compare(c_root, t_root, c, t)
    assert c.grad_fn.name() == t.grad_fn.name()
    c.sum().backward()
    t.sum().backward()
    assert same_values(c_root.grad, t_root.grad)
