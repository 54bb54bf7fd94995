"""scatter_reduce / scatter_reduce_ (Tensor methods and torch.scatter_reduce): differential
against torch 2.13 (values, dtype, strides, a new storage for the out-of-place form, the same
storage and one version bump in place, errors and their messages, ScatterReduceBackward0 and
its gradients for every reduction)."""

import pytest

import ctensor
from ctutil import outcomes, torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

REDUCES = ["sum", "prod", "mean", "amax", "amin"]
SELF = [[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, -2.0], [7.0, -8.0, 9.0, 1.0]]
SRC = [[10.0, 20.0, 30.0], [40.0, 0.0, 60.0], [-1.0, 2.0, 2.0]]
INDEX = [[0, 0, 2], [1, 0, 0], [3, 3, 3]]


def run(m, reduce, include_self, dtype="float32", dim=1, index=INDEX, inplace=False, self_t=False):
    dt = getattr(m, dtype)
    x = m.tensor(SELF, dtype=dt)
    if self_t:
        x = x.t().contiguous().t()
    i = m.tensor(index)
    s = m.tensor(SRC, dtype=dt)
    if inplace:
        v = x._version
        r = x.scatter_reduce_(dim, i, s, reduce, include_self=include_self)
        assert r is x
        return r, x._version - v
    return m.scatter_reduce(x, dim, i, s, reduce, include_self=include_self), None


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "int16", "float16"])
def test_values_match_torch(reduce, include_self, dtype):
    rt, _ = run(torch, reduce, include_self, dtype)
    rc, _ = run(ctensor, reduce, include_self, dtype)
    assert str(rc.dtype) == str(rt.dtype).replace("torch", "ctensor")
    assert rc.tolist() == rt.tolist()
    assert rc.stride() == rt.stride()


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_in_place_and_layout_match_torch(reduce, include_self):
    rt, vt = run(torch, reduce, include_self, inplace=True)
    rc, vc = run(ctensor, reduce, include_self, inplace=True)
    assert rc.tolist() == rt.tolist() and vc == vt == 1
    # out of place from a transposed self: torch's result is C order, on a new storage
    rt, _ = run(torch, reduce, include_self, self_t=True)
    rc, _ = run(ctensor, reduce, include_self, self_t=True)
    assert rc.tolist() == rt.tolist() and rc.stride() == rt.stride()


def test_dim0_int32_index_nan_and_empty_match_torch():
    out = {}
    for m in (torch, ctensor):
        x = m.tensor([[1.0, 2.0], [3.0, 4.0]])
        i = m.tensor([[1, 1], [1, 0]], dtype=m.int32)
        s = m.tensor([[float("nan"), 5.0], [6.0, -1.0]])
        e = m.tensor([[1.0, 2.0]]).scatter_reduce(0, m.zeros(0, 2, dtype=m.int64), m.zeros(0, 2), "prod")
        out[m.__name__] = ([[str(v) for v in row] for row in x.scatter_reduce(0, i, s, "amax").tolist()],
                           x.scatter_reduce(0, i, s, "amin", include_self=False).tolist()[0],
                           e.tolist(), m.tensor([-7, 2]).scatter_reduce(0, m.tensor([0]), m.tensor([0]), "mean").tolist())
    assert out["ctensor"] == out["torch"]


def errors(m):
    x = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    i = m.tensor([[0, 0, 2], [1, 0, 0]])
    s = m.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]])
    cases = [
        lambda: x.scatter_reduce(1, i, s, "foo"),
        lambda: x.clone().scatter_reduce_(1, i, s, "max"),
        lambda: x.scatter_reduce(1, i.double(), s, "sum"),
        lambda: x.scatter_reduce(1, i + 5, s, "sum"),
        lambda: x.scatter_reduce(1, i, s.double(), "sum"),
        lambda: x.scatter_reduce(3, i, s, "sum"),
        lambda: x.scatter_reduce(1, i[:, :1].expand(2, 5), s, "sum"),
        lambda: x.scatter_reduce(1, i[0], s, "sum"),
        lambda: m.tensor([True, False]).scatter_reduce(0, m.tensor([0]), m.tensor([True]), "mean"),
    ]
    return outcomes(cases)


def test_errors_match_torch():
    for c, t in zip(errors(ctensor), errors(torch)):
        assert c == t


def flat(rows):
    return [v for row in rows for v in row]


def grads(m, reduce, include_self, inplace, src_vals=SRC, self_vals=SELF):
    x = m.tensor(self_vals, dtype=m.float64, requires_grad=True)
    s = m.tensor(src_vals, dtype=m.float64, requires_grad=True)
    i = m.tensor(INDEX)
    if inplace:
        y = x * 1
        y.scatter_reduce_(1, i, s, reduce, include_self=include_self)
    else:
        y = x.scatter_reduce(1, i, s, reduce, include_self=include_self)
    name = y.grad_fn.name()
    w = m.arange(12, dtype=m.float64).reshape(3, 4)
    (y * w).sum().backward()
    return name, flat(x.grad.tolist()), flat(s.grad.tolist())


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("inplace", [False, True])
def test_grads_match_torch(reduce, include_self, inplace):
    c = grads(ctensor, reduce, include_self, inplace)
    t = grads(torch, reduce, include_self, inplace)
    assert c[0] == t[0] == "ScatterReduceBackward0"
    assert c[1] == pytest.approx(t[1]) and c[2] == pytest.approx(t[2])


@pytest.mark.parametrize("reduce", ["prod", "amax", "amin"])
def test_grads_with_zeros_and_ties_match_torch(reduce):
    src = [[0.0, 3.0, 0.0], [2.0, 0.0, 0.0], [5.0, 5.0, 0.0]]
    slf = [[0.0, 2.0, 3.0, 0.0], [3.0, 5.0, 6.0, -2.0], [7.0, -8.0, 9.0, 5.0]]
    c = grads(ctensor, reduce, True, False, src, slf)
    t = grads(torch, reduce, True, False, src, slf)
    assert c[1] == pytest.approx(t[1]) and c[2] == pytest.approx(t[2])


def test_grads_by_finite_differences():
    x = ctensor.tensor(SELF, dtype=ctensor.float64, requires_grad=True)
    s = ctensor.tensor(SRC, dtype=ctensor.float64, requires_grad=True)
    i = ctensor.tensor(INDEX)
    for reduce in ["sum", "mean", "prod"]:
        y = x.scatter_reduce(1, i, s, reduce, include_self=False)
        y.sum().backward()
        eps = 1e-6
        for r in range(3):
            for c in range(3):
                sp = [row[:] for row in SRC]
                sp[r][c] += eps
                up = ctensor.tensor(SELF, dtype=ctensor.float64).scatter_reduce(
                    1, i, ctensor.tensor(sp, dtype=ctensor.float64), reduce, include_self=False).sum().item()
                base = ctensor.tensor(SELF, dtype=ctensor.float64).scatter_reduce(
                    1, i, ctensor.tensor(SRC, dtype=ctensor.float64), reduce, include_self=False).sum().item()
                assert s.grad.tolist()[r][c] == pytest.approx((up - base) / eps, rel=1e-4, abs=1e-4)
        x.grad = None
        s.grad = None


def test_max_and_min_are_taken_as_amax_and_amin_but_have_no_backward():
    out = {}
    for m in (torch, ctensor):
        x = m.tensor([1.0, -2.0, 0.0], requires_grad=True)
        i, s = m.tensor([0, 1]), m.tensor([5.0, -3.0])
        y, z = x.scatter_reduce(0, i, s, "max"), x.scatter_reduce(0, i, s, "min")
        try:
            y.sum().backward()
            err = None
        except RuntimeError as e:
            err = str(e)
        out[m.__name__] = (y.tolist(), z.tolist(), y.grad_fn.name(), err)
    assert out["ctensor"] == out["torch"]
