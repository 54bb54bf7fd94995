"""Advanced indexing through the C ops (ct_index, ct_index_put_): differential against torch
2.13 for the autograd nodes (IndexBackward0 for x[idx] / x[mask], IndexPutBackward0 for
y[idx] = v, CopySlices when the indexed tensor is a view), gradients, values, the conversion
of Python numbers and the refusal of tensors of another dtype, broadcasting of the value,
error messages and version bumps."""

import pytest

import ctensor
from ctutil import outcomes, torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

X = [[float(4 * r + c) for c in range(4)] for r in range(3)]


def keys(m):
    """(label, key) pairs of advanced (and mixed basic + advanced) indexing for a (3, 4) x."""
    i = m.tensor([2, 0, 2])
    mask_rows = m.tensor([True, False, True])
    mask_2d = m.tensor([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
    return [
        ("x[idx]", i),
        ("x[list]", [1, 1, 0]),
        ("x[mask]", mask_rows),
        ("x[mask2d]", mask_2d),
        ("x[:, idx]", (slice(None), m.tensor([3, 1]))),
        ("x[1:, idx]", (slice(1, None), m.tensor([3, 1]))),
        ("x[idx, 1]", (i, 1)),
        ("x[idx, idx2] broadcast", (m.tensor([[0], [2]]), m.tensor([1, 3, 3]))),
        ("x[None, idx]", (None, i)),
        ("x[..., idx]", (Ellipsis, m.tensor([-1, 0]))),
        ("x[idx int32]", m.tensor([1, 2], dtype=m.int32)),
    ]


def read(m, k):
    x = m.tensor(X, requires_grad=True)
    _, key = keys(m)[k]
    y = x[key]
    w = m.arange(y.numel(), dtype=m.float32).reshape(tuple(y.shape))
    (y * w).sum().backward()
    return y.grad_fn.name(), tuple(y.shape), y.tolist(), x.grad.tolist()


@pytest.mark.parametrize("k", range(11))
def test_read_node_values_and_grads_match_torch(k):
    assert read(ctensor, k) == read(torch, k)


def write(m, k, value_kind):
    x = m.tensor(X, requires_grad=True)
    y = x.clone()
    _, key = keys(m)[k]
    region = tuple(x.detach()[key].shape)
    if value_kind == "scalar":
        v = 7.5
    elif value_kind == "row":  # broadcast along the leading dims of the region
        v = m.arange(region[-1], dtype=m.float32).requires_grad_()
    else:  # leading 1s are dropped first (torch's slicePrefix1sSize)
        v = m.ones((1, 1) + region, dtype=m.float32).requires_grad_()
    ver = y._version
    y[key] = v
    name = y.grad_fn.name()
    w = m.arange(y.numel(), dtype=m.float32).reshape(tuple(y.shape))
    (y * w).sum().backward()
    vgrad = v.grad.tolist() if isinstance(v, m.Tensor) else None
    return name.split("::")[-1], y._version - ver, y.tolist(), x.grad.tolist(), vgrad


@pytest.mark.parametrize("k", [0, 2, 3, 4, 5, 6, 8, 9, 10])
@pytest.mark.parametrize("value_kind", ["scalar", "row", "prefix1"])
def test_write_node_values_grads_and_version_match_torch(k, value_kind):
    assert write(ctensor, k, value_kind) == write(torch, k, value_kind)


def test_duplicate_indices_last_write_wins_and_numbers_take_selfs_dtype():
    out = {}
    for m in (torch, ctensor):
        a = m.zeros(4, dtype=m.int32)
        a[m.tensor([1, 1, 3])] = 2.7  # a float number into int32: converted as torch does
        b = m.zeros(3, dtype=m.bool)
        b[m.tensor([0])] = 2
        c = m.zeros(2, 3)
        c[m.tensor([0, 0])] = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        out[m.__name__] = (a.tolist(), b.tolist(), c.tolist())
    assert out["ctensor"] == out["torch"]


def failures(m):
    x = m.zeros(4, 3)
    cases = [
        lambda: x.__setitem__(m.tensor([0, 2]), m.ones(2)),
        lambda: x.__setitem__(m.tensor([0, 2]), m.ones(3, dtype=m.int64)),
        lambda: x.__setitem__(m.tensor([5]), 1.0),
        lambda: x[m.tensor([5])],
        lambda: x[:, m.tensor([-4])],
        lambda: x.__setitem__((slice(None), m.tensor([7])), 1.0),
        lambda: x[m.tensor([[True, False, True]] * 4), 0],
        lambda: x[m.tensor([0, 1]), m.tensor([0, 1, 2])],
        lambda: x[m.tensor([0.5])],
    ]
    return outcomes(cases)


def test_errors_match_torch():
    for c, t in zip(failures(ctensor), failures(torch)):
        assert c == t


def test_read_of_a_transposed_tensor_keeps_torchs_layout():
    for key in [lambda m: m.tensor([1, 0]), lambda m: (slice(None), m.tensor([2, 0]))]:
        xt = torch.arange(12.0).reshape(3, 4).t()
        xc = ctensor.arange(12.0).reshape(3, 4).t()
        rt, rc = xt[key(torch)], xc[key(ctensor)]
        assert rc.tolist() == rt.tolist() and rc.stride() == rt.stride()
