"""reciprocal, sgn, sign and angle for every dtype: differential against torch 2.13 (values,
special values, result dtype and layout, in place, out=, gradients of real and complex inputs,
node names, refusals and their messages)."""

import numpy as np
import pytest

import ctensor as ct
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

INF, NAN = float("inf"), float("nan")
REAL = [-2.5, -1.0, -0.0, 0.0, 0.5, 3.0, 1e-40, -1e30, INF, -INF, NAN]
COMPLEX = [0j, 3 + 4j, -1 + 0j, complex(-1, -0.0), 1j, -2.5 - 1e-3j, complex(INF, 1), complex(1, INF),
           complex(NAN, 1), 1e-30 + 1e-30j, 1e30 - 1e30j]
VALUES = {
    "float32": REAL, "float64": REAL, "float16": [-2.5, -0.0, 0.5, 3.0, INF, NAN], "bfloat16": [-2.5, 0.0, 3.0, NAN],
    "int64": [-7, 0, 5, 2**40], "int32": [-3, 0, 9], "int8": [-128, 0, 127], "uint8": [0, 1, 200],
    "bool": [True, False], "complex64": COMPLEX, "complex128": COMPLEX,
}
OPS = ["reciprocal", "sgn", "sign", "angle"]


def both(dtype, values=None):
    values = VALUES[dtype] if values is None else values
    return ct.tensor(values, dtype=getattr(ct, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))


def same(c, t):
    assert str(c.dtype).split(".")[1] == str(t.dtype).split(".")[1], (c.dtype, t.dtype)
    assert tuple(c.shape) == tuple(t.shape) and c.stride() == t.stride()
    a, b = np.array(c.tolist()), np.array(t.tolist())
    nan = (np.isnan(a.real) & np.isnan(b.real)) | (np.isnan(a.imag) & np.isnan(b.imag)) if a.dtype.kind in "fc" \
        else np.zeros(a.shape, bool)
    assert np.all((a == b) | nan), (a, b)


def refusal(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is compared with ctensor's
        return type(e), str(e)
    return None


@pytest.mark.parametrize("dtype", sorted(VALUES))
@pytest.mark.parametrize("op", OPS)
def test_values_as_torch(op, dtype):
    c, t = both(dtype)
    rt = refusal(lambda: getattr(torch, op)(t))
    if rt is not None:  # torch refuses (sign of complex): ctensor the same way
        rc = refusal(lambda: getattr(ct, op)(c))
        assert rc is not None and rc[0] is rt[0] and rc[1] == rt[1], (rc, rt)
        return
    same(getattr(ct, op)(c), getattr(torch, op)(t))
    same(getattr(c, op)(), getattr(t, op)())


def close_to(c, t, ulps):
    a, b = np.array(c.tolist()), np.array(t.tolist())
    eps = np.finfo(np.float32 if str(t.dtype) in ("torch.float32", "torch.complex64") else np.float64).eps
    assert str(c.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    assert np.allclose(a, b, rtol=ulps * eps, atol=0, equal_nan=True), np.max(np.abs(a - b) / np.abs(b))


@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128"])
@pytest.mark.parametrize("op", OPS)
def test_many_values(op, dtype):
    # long rows reach torch's vectorised loops; strided views its scalar ones.  reciprocal and
    # sign are torch's values bit for bit; sgn's |z| and angle's atan2 are SLEEF's in torch
    # (ctensor: the C library's hypot and atan2), so within an ulp or two
    if op == "sign" and dtype != "float32":
        return
    g = torch.Generator().manual_seed(2)
    t = torch.randn(1000, dtype=getattr(torch, dtype), generator=g) * 3
    c = ct.from_numpy(t.numpy().copy())
    check = same if op in ("reciprocal", "sign") or dtype == "float32" else (lambda x, y: close_to(x, y, 2))
    check(getattr(c, op)(), getattr(t, op)())
    check(getattr(c[::3], op)(), getattr(t[::3], op)())
    check(getattr(c.conj(), op)(), getattr(t.conj(), op)().resolve_conj())


@pytest.mark.parametrize("n", [1000, 7, 16, 24, 33])
def test_sgn_complex64_bit_for_bit(n):
    # the parts over |z| in torch's vector loop, c10's division in its scalar tail and strided rows;
    # 24 and 1000 end in a tail of 8 with AVX-512 (loops of 16) and none with AVX2 (loops of 8)
    g = torch.Generator().manual_seed(3)
    t = torch.randn(n, dtype=torch.complex64, generator=g) * 3
    t[:len(COMPLEX)] = torch.tensor(COMPLEX[:n])
    c = ct.from_numpy(t.numpy().copy())
    same(c.sgn(), t.sgn())
    same(c[::2].sgn(), t[::2].sgn())


@pytest.mark.parametrize("dtype", sorted(VALUES))
@pytest.mark.parametrize("op", ["reciprocal_", "sgn_", "sign_"])
def test_in_place_as_torch(op, dtype):
    c, t = both(dtype)
    rt = refusal(lambda: getattr(t, op)())
    v = c._version
    rc = refusal(lambda: getattr(c, op)())
    if rt is not None:
        assert rc is not None and rc[0] is rt[0] and rc[1] == rt[1], (rc, rt)
        assert c._version == v
        return
    assert rc is None and c._version == v + 1
    same(c, t)


@pytest.mark.parametrize("op, src, out", [
    ("sign", "float32", "int64"), ("sign", "int64", "float32"), ("sgn", "complex64", "float32"),
    ("angle", "complex64", "complex64"), ("angle", "complex64", "float64"), ("angle", "float32", "int64"),
    ("reciprocal", "int64", "int64"), ("reciprocal", "int64", "float64"), ("sgn", "float64", "float64"),
])
def test_out_as_torch(op, src, out):
    c, t = both(src, [1, 2])
    oc, ot = ct.empty(2, dtype=getattr(ct, out)), torch.empty(2, dtype=getattr(torch, out))
    rt = refusal(lambda: getattr(torch, op)(t, out=ot))
    rc = refusal(lambda: getattr(ct, op)(c, out=oc))
    if rt is not None:
        assert rc is not None and rc[0] is rt[0] and rc[1] == rt[1], (rc, rt)
        return
    assert rc is None
    same(oc, ot)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_gradients_as_torch(op, dtype):
    if op == "sign" and dtype == "complex128":
        return
    values = [0.0, -1.5, 2.0, 0.25] if dtype == "float64" else [0j, 3 + 4j, -1.5 + 0.5j, 0.25j]
    got = []
    for m in (torch, ct):
        x = m.tensor(values, dtype=getattr(m, dtype), requires_grad=True)
        y = getattr(m, op)(x * 1)  # a non-leaf input too
        loss = (y * y.conj()).real if y.dtype.is_complex else y * m.tensor([1.0, 2.0, 3.0, 4.0], dtype=y.dtype)
        loss.sum().backward()
        # torch's zero gradients of sgn/angle of a real input are unallocated zero tensors: + 0
        got.append((y.grad_fn.name(), np.array((x.grad + 0).tolist())))
    (nt, gt), (nc, gc) = got
    assert nc == nt
    assert np.allclose(gc, gt, rtol=1e-12, atol=1e-12, equal_nan=True), (gc, gt)


def test_sign_saves_nothing():
    # SignBackward0 needs no values, so writing the input afterwards is fine (torch too)
    for m in (torch, ct):
        x = m.tensor([1.0, -2.0], requires_grad=True)
        y = x * 1
        s = y.sign()
        y.mul_(2)
        s.sum().backward()
        assert x.grad.tolist() == [0.0, 0.0]


def test_rdiv_uses_torchs_reciprocal():
    # s / t is t.reciprocal() * s in torch: complex values bit for bit
    g = torch.Generator().manual_seed(5)
    t = torch.randn(777, dtype=torch.complex64, generator=g)
    c = ct.from_numpy(t.numpy().copy())
    same(2.5 / c, 2.5 / t)
    same((1 - 2j) / c, (1 - 2j) / t)
