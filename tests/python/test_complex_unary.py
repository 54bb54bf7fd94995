"""exp, log, sqrt, sin, cos, tanh and sigmoid of complex tensors: differential against torch
2.13 (values bit for bit, special values and branch cuts included; dtype, layout, a new
storage; in place; through conj and neg views; out=; gradients and node names)."""

import numpy as np
import pytest

import ctensor as ct
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

OPS = ["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"]
DTYPES = ["complex64", "complex128"]
SPECIAL = [0, 1j, -1j, -1, -1 + 0j, complex(-1, -0.0), 1e-30j, 40 + 1j, -40 - 3j, 700 + 1e-3j,
           complex("inf"), complex("-inf"), complex(0, float("inf")), complex(float("nan"), 1),
           complex(1, float("nan")), complex(float("inf"), float("nan"))]


def values(dtype, n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, dtype=getattr(torch, dtype), generator=g) * 4
    z[:len(SPECIAL)] = torch.tensor(SPECIAL, dtype=getattr(torch, dtype))
    return z


def both(z):
    return ct.from_numpy(z.numpy().copy()), z


def bitwise_equal(a, b):
    a, b = a.numpy(), b.numpy()
    return a.shape == b.shape and a.dtype == b.dtype and bool(
        np.all((a == b) | (np.isnan(a.real) & np.isnan(b.real)) | (np.isnan(a.imag) & np.isnan(b.imag))))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_values_bit_for_bit(op, dtype):
    c, t = both(values(dtype))
    with np.errstate(all="ignore"):
        rc, rt = getattr(c, op)(), getattr(t, op)()
        assert rc.dtype == getattr(ct, dtype) and bitwise_equal(rc, rt)
        assert rc.untyped_storage().data_ptr() != c.untyped_storage().data_ptr()
        assert bitwise_equal(getattr(ct, op)(c), getattr(torch, op)(t))


@pytest.mark.parametrize("op", OPS)
def test_layouts_in_place_out_and_math_bits(op):
    t = values("complex64", 24, seed=1).reshape(4, 6)
    c = ct.from_numpy(t.numpy().copy())
    rc, rt = getattr(c.t(), op)(), getattr(t.t(), op)()
    assert rc.stride() == rt.stride() and bitwise_equal(rc, rt)
    assert bitwise_equal(getattr(c[:, ::2], op)(), getattr(t[:, ::2], op)())
    # through a conj view, and the neg view that imag of a conj view is (values read resolved)
    assert bitwise_equal(getattr(c.conj(), op)(), getattr(t.conj(), op)().resolve_conj())
    # in place, also through a conj view (written back through the bit)
    c2, t2 = c.clone(), t.clone()
    getattr(c2, op + "_")()
    getattr(t2, op + "_")()
    assert bitwise_equal(c2, t2) and c2._version == 1
    c3, t3 = c.clone(), t.clone()
    getattr(c3.conj(), op + "_")()
    getattr(t3.conj(), op + "_")()
    assert bitwise_equal(c3, t3)
    oc, ot = ct.empty(4, 6, dtype=ct.complex64), torch.empty(4, 6, dtype=torch.complex64)
    getattr(ct, op)(c, out=oc)
    getattr(torch, op)(t, out=ot)
    assert bitwise_equal(oc, ot)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_gradients_as_torch(op, dtype):
    grads = {}
    for m in (torch, ct):
        z = m.tensor([1 + 2j, -0.5 + 0.3j, 2 - 1j, 0.25j], dtype=getattr(m, dtype), requires_grad=True)
        y = getattr(z, op)()
        loss = (y * y.conj()).real.sum() + (y * (0.5 - 2j)).imag.sum()
        loss.backward()
        grads[m.__name__] = (y.grad_fn.name(), z.grad.dtype, np.array(z.grad.tolist()))
    name_t, dt_t, g_t = grads["torch"]
    name_c, dt_c, g_c = grads["ctensor"]
    assert name_c == name_t and str(dt_c) == str(dt_t).replace("torch", "ctensor")
    assert np.allclose(g_c, g_t, rtol=1e-5 if dtype == "complex64" else 1e-12, atol=0)


def test_relu_and_in_place_abs_still_refused_as_torch():
    for m in (torch, ct):
        z = m.tensor([1 + 2j])
        with pytest.raises(RuntimeError, match="clamp is not supported for complex types"):
            z.relu()
        with pytest.raises(RuntimeError, match="In-place abs is not supported for complex tensors."):
            z.abs_()
