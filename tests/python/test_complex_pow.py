"""pow of complex tensors and complex scalars: differential against torch 2.13 (values bit for
bit where torch's kernel is reproduced, special values included; promotion with real tensors
and Python numbers; the scalar-exponent shortcuts; in place; gradients and node names)."""

import numpy as np
import pytest

import ctensor as ct
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

DTYPES = ["complex64", "complex128"]
SPECIAL = [0, 1, -1, 1j, -1j, complex("inf"), complex(0, float("inf")), complex(float("nan"), 0),
           complex(-1, -0.0), 1e-30j]


def values(dtype, n=600, seed=0):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, dtype=getattr(torch, dtype), generator=g) * 3
    z[:len(SPECIAL)] = torch.tensor(SPECIAL, dtype=getattr(torch, dtype))
    return z


def same_values(a, b):
    """Equal element by element (any NaN matching any NaN), dtype and shape too."""
    a, b = a.numpy(), b.numpy()
    return a.shape == b.shape and a.dtype == b.dtype and bool(
        np.all((a == b) | (np.isnan(a.real) & np.isnan(b.real)) | (np.isnan(a.imag) & np.isnan(b.imag))))


# exponents whose torch kernel ctensor reproduces exactly: std::pow (glibc's cpow), and the
# fill / copy / sqrt / reciprocal shortcuts
EXACT = {
    "x**0": lambda x, y: x ** 0,
    "x**1": lambda x, y: x ** 1,
    "x**0.5": lambda x, y: x ** 0.5,
    "x**-0.5": lambda x, y: x ** -0.5,
    "x**-1": lambda x, y: x ** -1,
    "x**2.5": lambda x, y: x ** 2.5,
    "x**-1.7": lambda x, y: x.pow(-1.7),
    "x**(1+1j)": lambda x, y: x ** (1 + 1j),
    "x**0j": lambda x, y: x ** 0j,
    "x**1j": lambda x, y: x ** 1j,
    "x**y": lambda x, y: x ** y,
    "pow(x, y) strided": lambda x, y: x[::2].pow(y[::2]),
    "2**y": lambda x, y: 2 ** y,
    "2.5**y": lambda x, y: 2.5 ** y,
    "(1+2j)**y": lambda x, y: (1 + 2j) ** y,
    "0**y": lambda x, y: 0 ** y,
    "real**complex": lambda x, y: x.real ** y,
    "complex**real": lambda x, y: x ** y.imag,
}
# 2, 3, -2 multiply as torch's vectorised loop; its scalar tail rounds another way (Note in
# core/ops/complex_math.h), so those elements may differ in the last bit
MULTIPLIED = {
    "x**2": lambda x, y: x ** 2,
    "x**3": lambda x, y: x ** 3,
    "x**-2": lambda x, y: x ** -2,
    "x**(2+0j)": lambda x, y: x ** (2 + 0j),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", sorted(EXACT))
def test_values_bit_for_bit(case, dtype):
    (cx, tx), (cy, ty) = [(ct.from_numpy(t.numpy().copy()), t) for t in (values(dtype), values(dtype, seed=1))]
    rc, rt = EXACT[case](cx, cy), EXACT[case](tx, ty)
    assert same_values(rc, rt)
    assert rc.stride() == rt.stride()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", sorted(MULTIPLIED))
def test_multiplying_shortcuts(case, dtype):
    x = values(dtype)
    rc, rt = MULTIPLIED[case](ct.from_numpy(x.numpy().copy()), None), MULTIPLIED[case](x, None)
    a, b = rc.numpy(), rt.numpy()
    assert a.dtype == b.dtype
    tol = 3e-7 if dtype == "complex64" else 5e-16
    assert np.allclose(a, b, rtol=tol, atol=0, equal_nan=True)
    vec = 16 if dtype == "complex64" else 8
    body = len(a) - len(a) % vec  # the elements torch's vectorised loop computes
    assert same_values(ct.from_numpy(a[:body].copy()), torch.from_numpy(b[:body].copy()))


@pytest.mark.parametrize("make", [
    lambda m: m.tensor([1.0, -2.0, 0.0]) ** (0.5 + 1j),      # real tensor, complex exponent
    lambda m: m.tensor([1, 2, 3]) ** 1j,                     # int tensor: the default complex dtype
    lambda m: m.tensor([1.0, 2.0], dtype=m.float64) ** 1j,   # float64: complex128
    lambda m: (1 + 1j) ** m.tensor([1, 2]),                  # complex base, int exponent
    lambda m: m.tensor([1 + 1j]) ** m.tensor([2.0], dtype=m.float64),  # complex64 ** float64: complex128
    lambda m: m.tensor([1 + 1j], dtype=m.complex128) ** m.tensor(2.0),  # a 0-dim float does not widen
    lambda m: m.tensor([1 + 1j]) ** 2,                       # a Python int: stays complex64
    lambda m: m.tensor([1 + 1j]) ** True,
])
def test_promotion(make):
    rc, rt = make(ct), make(torch)
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1]
    assert np.allclose(np.array(rc.tolist()), rt.numpy(), rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("exponent", [2, 0.5, -1, 1.5 - 1j, "tensor"])
def test_in_place(exponent):
    out = []
    for m in (ct, torch):
        z = m.tensor([1 + 2j, -3 + 0.5j, 0.25j])
        e = m.tensor([2 - 1j, 0.5, 3j]) if exponent == "tensor" else exponent
        v = z._version
        r = z.pow_(e)
        assert r is z and z._version == v + 1
        out.append(z)
    assert same_values(*out)
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Float"):
        ct.tensor([1.0]).pow_(1j)


def test_conj_views_read_conjugated():
    z = values("complex64", 64)
    c = ct.from_numpy(z.numpy().copy())
    assert same_values(c.conj() ** 2.5, z.conj() ** 2.5)
    assert same_values(c ** c.conj(), z ** z.conj())
    assert not (c.conj() ** 2.5).is_conj()


GRADS = {
    "x**2": lambda x, y: x ** 2,
    "x**2.5": lambda x, y: x ** 2.5,
    "x**(1+1j)": lambda x, y: x ** (1 + 1j),
    "x**0": lambda x, y: x ** 0,
    "(x+1)**-1": lambda x, y: (x + 1) ** -1,
    "(x+1)**-0.5": lambda x, y: (x + 1) ** -0.5,
    "x**y": lambda x, y: x ** y,
    "2**y": lambda x, y: 2 ** y,
    "(1-2j)**y": lambda x, y: (1 - 2j) ** y,
    "0**y": lambda x, y: 0 ** y,
    "(-2.0)**y": lambda x, y: (-2.0) ** y,
    "real**complex": lambda x, y: x.real ** y,
    "complex**real": lambda x, y: x ** y.real,
    "real**1j": lambda x, y: x.real ** 1j,
    "in place, tensor": lambda x, y: (x * 1).pow_(y),
    "in place, scalar": lambda x, y: (x * 1).pow_(1.5 - 1j),
}


@pytest.mark.parametrize("case", sorted(GRADS))
def test_gradients_as_torch(case):
    # the conjugate Wirtinger gradient of |r|^2 summed; x[0] = 0, y[0] = 2 and y[1] = 0 reach
    # the zero-base and zero-exponent branches of torch's formulas
    g = torch.Generator().manual_seed(7)
    a = torch.randn(6, dtype=torch.complex128, generator=g).numpy()
    b = torch.randn(6, dtype=torch.complex128, generator=g).numpy()
    a[0], b[0], b[1] = 0, 2, 0
    got = []
    for m in (torch, ct):
        x, y = m.tensor(a, requires_grad=True), m.tensor(b, requires_grad=True)
        r = GRADS[case](x, y)
        (r * r.conj()).real.sum().backward()
        got.append((r.grad_fn.name(), [None if t.grad is None else np.array(t.grad.tolist()) for t in (x, y)]))
    (name_t, grads_t), (name_c, grads_c) = got
    assert name_c == name_t
    for gt, gc in zip(grads_t, grads_c):
        assert (gt is None) == (gc is None)
        if gt is not None:
            assert np.allclose(gc, gt, rtol=1e-12, atol=1e-12, equal_nan=True), (gc, gt)


def test_c_functions():
    # the C entry points behind z ** (1 + 1j), z **= 1j and (1 + 2j) ** z
    from ctensor import _C
    z = ct.tensor([1 + 2j, 0.5 - 1j])
    t = torch.tensor([1 + 2j, 0.5 - 1j])
    assert same_values(_C.ct_pow_complex_scalar(z, 1.0, 1.0), t ** (1 + 1j))
    assert same_values(_C.ct_rpow_complex_scalar(z, 1.0, 2.0), (1 + 2j) ** t)
    w = z.clone()
    _C.ct_pow_complex_scalar_(w, 0.0, 1.0)
    assert same_values(w, t ** 1j)
