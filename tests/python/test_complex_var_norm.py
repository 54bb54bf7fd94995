"""var, std, var_mean, std_mean and vector_norm/norm of complex tensors: differential against
torch 2.13 (real result dtype, values to the last bit or within an ulp, dims, keepdim,
correction, conj views; gradients as torch's)."""

import numpy as np
import pytest

import ctensor as ct
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

CASES = {
    "var": lambda m, x: x.var(),
    "var_dim0": lambda m, x: x.var(0),
    "var_c0_keepdim": lambda m, x: x.var(1, correction=0, keepdim=True),
    "std": lambda m, x: x.std(),
    "std_dims": lambda m, x: x.std((0, 1)),
    "var_mean": lambda m, x: m.var_mean(x, 1)[0],
    "var_mean_mean": lambda m, x: m.var_mean(x, 1)[1],
    "std_mean": lambda m, x: m.std_mean(x)[0],
    "norm": lambda m, x: x.norm(),
    "norm_1": lambda m, x: x.norm(1),
    "norm_inf_dim": lambda m, x: m.linalg.vector_norm(x, float("inf"), dim=1),
    "norm_3_dim0": lambda m, x: x.norm(3, dim=0),
    "norm_0": lambda m, x: m.linalg.vector_norm(x, 0),
    "conj_var": lambda m, x: x.conj().var(1),
    "conj_norm": lambda m, x: x.conj().norm(),
    "transposed_std": lambda m, x: x.t().std(0),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_as_torch(case, dtype):
    g = torch.Generator().manual_seed(3)
    t = torch.randn(6, 9, dtype=getattr(torch, dtype), generator=g) * 3 + (1 + 2j)
    c = ct.from_numpy(t.numpy().copy())
    rc, rt = CASES[case](ct, c), CASES[case](torch, t)
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1] and tuple(rc.shape) == tuple(rt.shape)
    a, b = np.array(rc.tolist()), rt.numpy()
    tol = 2e-7 if dtype == "complex64" else 5e-16  # at most an ulp apart (summation order)
    assert np.allclose(a, b, rtol=tol, atol=0), (a, b)


GRAD_CASES = {
    "var": lambda m, x: x.var(),
    "var_dim1_c0": lambda m, x: x.var(1, correction=0),
    "std_dim0": lambda m, x: x.std(0),
    "var_mean": lambda m, x: m.var_mean(x, 1)[0],
    "std_mean": lambda m, x: m.std_mean(x, 1)[0],
    "std_mean_mean": lambda m, x: m.std_mean(x, 1)[1].abs(),
    "norm": lambda m, x: x.norm(),
    "norm_1_dim1": lambda m, x: m.linalg.vector_norm(x, 1, 1),
    "norm_inf_dim1": lambda m, x: m.linalg.vector_norm(x, float("inf"), 1),
    "norm_3_dim0": lambda m, x: m.linalg.vector_norm(x, 3, 0),
    "norm_half_dim0": lambda m, x: m.linalg.vector_norm(x, 0.5, 0),
    "norm_1.5": lambda m, x: m.linalg.vector_norm(x, 1.5),
    "cumprod_abs": lambda m, x: m.cumprod(x, 1).abs(),
    "cumprod_times_x": lambda m, x: (m.cumprod(x, 0) * x).real,
    "conj_std": lambda m, x: x.conj().std(1),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("case", sorted(GRAD_CASES))
def test_gradients_as_torch(case, dtype):
    # the conjugate Wirtinger gradient of a real loss; a zero element exercises the
    # subgradients (sgn(0) = 0) and cumprod's zero-safe formula
    g = torch.Generator().manual_seed(5)
    a = torch.randn(3, 4, dtype=getattr(torch, dtype), generator=g).numpy()
    a[1, 2] = 0
    grads, names = [], []
    for m in (torch, ct):
        x = m.tensor(a.copy(), requires_grad=True)
        y = GRAD_CASES[case](m, x)
        y.sum().backward()
        names.append((y.grad_fn.name(), x.grad.is_conj()))  # conj's gradient is a lazy conj view
        assert str(x.grad.dtype).split(".")[1] == dtype
        grads.append(np.array(x.grad.tolist()))
    assert names[0] == names[1]
    tol = 1e-5 if dtype == "complex64" else 1e-12
    assert np.allclose(grads[1], grads[0], rtol=tol, atol=tol), (grads[1], grads[0])


SCANS = {
    "cumsum1": lambda m, x: x.cumsum(1),
    "cumsum0": lambda m, x: m.cumsum(x, 0),
    "cumprod1": lambda m, x: x.cumprod(1),
    "cumprod_t": lambda m, x: x.t().cumprod(0),
    "cumsum_conj": lambda m, x: x.conj().cumsum(1),
    "cumsum_dtype": lambda m, x: x.cumsum(1, dtype=m.complex128),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("case", sorted(SCANS))
def test_scans_bit_for_bit(case, dtype):
    # complex cumsum / cumprod accumulate in complex double, as torch's CPU kernel
    g = torch.Generator().manual_seed(4)
    t = torch.randn(5, 40, dtype=getattr(torch, dtype), generator=g)
    c = ct.from_numpy(t.numpy().copy())
    rc, rt = SCANS[case](ct, c), SCANS[case](torch, t).resolve_conj()
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1] and rc.stride() == rt.stride()
    assert np.array_equal(rc.numpy(), rt.numpy())


def test_scans_in_place_and_gradients():
    for op in ("cumsum_", "cumprod_"):
        c, t = ct.tensor([1 + 2j, 3 - 1j, 0.5j]), torch.tensor([1 + 2j, 3 - 1j, 0.5j])
        getattr(c, op)(0)
        getattr(t, op)(0)
        assert np.array_equal(c.numpy(), t.numpy()) and c._version == 1
    grads = []
    for m in (torch, ct):
        z = m.tensor([1 + 2j, 3 - 1j, 0.5j], requires_grad=True)
        y = z.cumsum(0)
        (y * y.conj()).real.sum().backward()
        grads.append((y.grad_fn.name(), z.grad.tolist()))
    assert grads[0] == grads[1]
