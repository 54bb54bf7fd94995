"""x * x of one tensor: its backward computes g * x once and doubles it in place (the two
gradients torch computes and then adds are the same tensor).  Differential against torch 2.13,
bit for bit, on values where a different order of rounding would show: overflow to inf,
subnormal products, signed zeros, nan; and the paths that keep torch's formula (complex,
create_graph)."""

import numpy as np
import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch 2.13 is the reference and is not installed")

EDGE = [3.0, -2.5, 1e30, -1e30, 1e20, 1e-30, -1e-25, 2e-20, 0.0, -0.0, float("nan"), float("inf"), -float("inf")]
GRAD = [0.5, 1e20, -3.0, 1e-20, 7.0, 1e-30, -1e30, 1e-30, -1.0, 2.0, 1.0, 1.0, 1.0]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


def run(lib, dtype, values, grad, steps):
    x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
    y = steps(x)
    y.backward(lib.tensor(grad, dtype=getattr(lib, dtype)))
    return x.grad


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("form", ["x * x", "(x - 1) * (x - 1)", "x[::2] * x[::2]"])
def test_square_gradient_is_torchs_bit_for_bit(dtype, form):
    values = EDGE if dtype != "float16" else [3.0, -2.5, 300.0, -300.0, 1e-4, 6e-8, 0.0, -0.0, float("nan")]
    grad = GRAD[: len(values)] if dtype != "float16" else [0.5, 1000.0, -3.0, 1e-3, 7.0, 1e-3, -1.0, 2.0, 1.0]
    if form.startswith("x[::2]"):
        grad = grad[::2]
    steps = {"x * x": lambda x: x * x,
             "(x - 1) * (x - 1)": lambda x: (lambda d: d * d)(x - 1),
             "x[::2] * x[::2]": lambda x: (lambda v: v * v)(x[::2])}[form]
    got = run(ctensor, dtype, values, grad, steps)
    want = run(torch, dtype, values, grad, steps)
    assert np.array_equal(bits(got.numpy()), bits(want.numpy())), (got, want)


def test_square_of_an_intermediate_retains_torchs_gradient():
    out = []
    for lib in (ctensor, torch):
        a = lib.tensor([1e30, 2.0, -0.0, 1e-25], requires_grad=True)
        d = a - 1
        d.retain_grad()
        calls = []
        d.register_hook(lambda g: calls.append(g.tolist()))
        (d * d).sum().backward()
        out.append((d.grad.tolist(), a.grad.tolist(), calls, d.grad_fn.name() if hasattr(d.grad_fn, "name") else None))
        assert len(calls) == 1  # one summed gradient reaches d, as in torch
    assert out[0][:3] == out[1][:3]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_square_keeps_torchs_formula(dtype):
    values = [complex(1, 2), complex(1e30, 1.0), complex(-0.0, 3.0), complex(2.0, -0.0)]
    grad = [complex(1, 1), complex(1, 0), complex(0.5, -2), complex(-1, 0.0)]
    got = run(ctensor, dtype, values, grad, lambda x: x * x).numpy()
    want = run(torch, dtype, values, grad, lambda x: x * x).numpy()
    assert np.array_equal(bits(got.view(got.real.dtype)), bits(want.view(want.real.dtype)))


def test_square_under_create_graph_differentiates_again():
    res = []
    for lib in (ctensor, torch):
        x = lib.tensor([1.5, -2.0, 0.25], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad((x * x).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        res.append((g.tolist(), gg.tolist(), g.grad_fn is not None))
    assert res[0] == res[1]
