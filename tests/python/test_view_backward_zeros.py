"""The backward of a view puts the gradient into zeros of the input's shape.  For a view that
reaches each input element at most once, torch's formulas copy it there (slice_scatter,
select_scatter, squeeze, view, permute), so a -0 gradient stays -0; for one that reaches an
element more than once (expand) they sum, and a sum of -0s starts from +0.  Differential
against torch 2.13 on the bits of the gradient."""

import numpy as np
import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch 2.13 is the reference and is not installed")

VIEWS = {
    "x[::2]": lambda x: x[::2],
    "x[1:3]": lambda x: x[1:3],
    "x[2]": lambda x: x[2],
    "x.unsqueeze(0)": lambda x: x.unsqueeze(0),
    "x.view(2, 2).t()": lambda x: x.view(2, 2).t(),
    "x.expand(2, 4)": lambda x: x.expand(2, 4),
    "x.view(2, 2).diagonal()": lambda x: x.view(2, 2).diagonal(),
    "x.unfold(0, 2, 1)": lambda x: x.unfold(0, 2, 1),
    "x.narrow(0, 1, 2)": lambda x: x.narrow(0, 1, 2),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_negative_zero_gradient_through_a_view(name, dtype):
    grads = []
    for lib in (ctensor, torch):
        x = lib.tensor([3.0, -2.5, 0.0, -0.0], dtype=getattr(lib, dtype), requires_grad=True)
        v = VIEWS[name](x)
        v.backward(lib.full(tuple(v.shape), -0.0, dtype=getattr(lib, dtype)))
        grads.append(x.grad.numpy())
    got, want = grads
    itype = np.uint32 if got.itemsize == 4 else np.uint64
    assert np.array_equal(got.view(itype), want.view(itype)), (got, want)


def test_complex_negative_zero_gradient_through_a_slice():
    grads = []
    for lib in (ctensor, torch):
        x = lib.tensor([1 + 2j, -0.0 - 0.0j, 3j, 2 + 0j], requires_grad=True)
        x[1:3].backward(lib.tensor([complex(-0.0, -0.0), complex(-0.0, 1.0)]))
        grads.append(x.grad.numpy().view(np.float32).view(np.uint32))
    assert np.array_equal(grads[0], grads[1])
