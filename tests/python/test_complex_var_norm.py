"""var, std, var_mean, std_mean and vector_norm/norm of complex tensors: differential against
torch 2.13 (real result dtype, values to the last bit or within an ulp, dims, keepdim,
correction, conj views; autograd refused clearly where ctensor has no complex formula)."""

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


def test_autograd_refused_clearly():
    z = ct.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    for f, name in ((lambda: z.var(), "VarBackward0"), (lambda: z.norm(), "LinalgVectorNormBackward0")):
        with pytest.raises(RuntimeError, match=f"autograd of complex tensors is not implemented in ctensor for this "
                                               f"op \\({name} has no complex formula\\)"):
            f()
    assert z.detach().var().item() == pytest.approx(torch.tensor([1 + 2j, 3 - 1j]).var().item())


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
    z = ct.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    with pytest.raises(RuntimeError, match="CumprodBackward0 has no complex formula"):
        z.cumprod(0)
