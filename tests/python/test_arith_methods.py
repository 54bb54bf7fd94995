"""Tensor.add/sub/mul/div and their in-place forms are C methods (fastpath.c, "The arithmetic
methods") that take the common calls themselves and pass the others to the Python methods they
stand for (ctensor._compute._ComputeMethods).  Both must give the same thing for every call:
values, dtype, identity of an in-place result, version, graph, and the same error; and both
must agree with torch."""

import itertools
import math

import numpy as np
import pytest

import ctensor
from ctensor._compute import _ComputeMethods
from ctutil import torch

NAMES = ["add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"]
ALPHAS = [None, -0.1, 0.5, 2.0, 2, -3, 2**60, True, 1 + 2j, math.inf, math.nan, np.float32(0.25), "x"]
OTHERS = ["tensor", "int tensor", "scalar", "complex", "list", "ndarray", "none"]
DTYPES = ["float32", "int64"]


def make(lib, dtype, kind):
    dt = getattr(lib, dtype)
    base = lib.tensor([[1, 2, 3], [4, 5, 6]], dtype=dt)
    if kind == "tensor":
        other = lib.tensor([0.5, -1.5, 2.0], dtype=dt) if dtype == "float32" else lib.tensor([3, -1, 2])
    elif kind == "int tensor":
        other = lib.tensor([3, -1, 2])
    elif kind == "scalar":
        other = 3
    elif kind == "complex":
        other = 1 - 1j
    elif kind == "list":
        other = [1.0, 2.0, 3.0]
    elif kind == "ndarray":
        other = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    else:
        other = None
    return base, other


def call(method, self, other, alpha):
    kwargs = {} if alpha is None else {"alpha": alpha}
    try:
        r = method(self, other, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return ("raises", type(e).__name__, str(e).replace("torch.", "ctensor.").replace("Tensor.", ""))
    if isinstance(r, np.ndarray):
        return ("ndarray", r.tolist())
    # str: NaN == NaN
    return ("tensor", r is self, str(r.dtype).replace("torch.", "ctensor."), str(r.tolist()), str(self.tolist()))


CASES = [(n, d, k, a) for n, d, k, a in itertools.product(NAMES, DTYPES, OTHERS, ALPHAS)
         if a is None or n.rstrip("_") in ("add", "sub")]


@pytest.mark.parametrize("name,dtype,kind,alpha", CASES)
def test_c_method_is_the_python_method(name, dtype, kind, alpha):
    x, other = make(ctensor, dtype, kind)
    y, other2 = make(ctensor, dtype, kind)
    fast = call(getattr(ctensor.Tensor, name), x, other, alpha)
    slow = call(getattr(_ComputeMethods, name), y, other2, alpha)
    assert fast == slow
    assert x._version == y._version


@pytest.mark.skipif(torch is None, reason="differential against torch; torch is not installed")
@pytest.mark.parametrize("name,dtype,kind,alpha",
                         [c for c in CASES if c[2] in ("tensor", "int tensor", "scalar") and c[3] in (None, -0.1, 2, True)])
def test_c_method_is_torch_method(name, dtype, kind, alpha):
    x, other = make(ctensor, dtype, kind)
    t, tother = make(torch, dtype, kind)
    mine = call(getattr(ctensor.Tensor, name), x, other, alpha)
    theirs = call(getattr(torch.Tensor, name), t, tother, alpha)
    if mine[0] == "raises" or theirs[0] == "raises":
        assert mine[:2] == theirs[:2], (mine, theirs)
    else:
        assert mine[1:3] == theirs[1:3] and mine[4] == theirs[4]
        assert np.allclose(eval(mine[3]), eval(theirs[3]))


def test_sgd_update_records_nothing_and_bumps_the_version_once():
    w = ctensor.ones(3, requires_grad=True)
    g = ctensor.full((3,), 2.0)
    with ctensor.no_grad():
        v = w._version
        assert w.add_(g, alpha=-0.1) is w
        assert w._version == v + 1 and w.grad_fn is None
    assert w.tolist() == pytest.approx([0.8, 0.8, 0.8])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        w.add_(g, alpha=-0.1)


def test_graph_through_add_with_alpha_is_torch():
    x = ctensor.tensor([1.0, 2.0], requires_grad=True)
    y = ctensor.tensor([3.0, 4.0], requires_grad=True)
    z = x.add(y, alpha=0.5).sub(x, alpha=-0.25)
    assert z.grad_fn.name() == "SubBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [1.25, 1.25] and y.grad.tolist() == [0.5, 0.5]


def test_aliases_are_the_same_methods():
    for alias, name in (("subtract", "sub"), ("multiply", "mul"), ("divide", "div"), ("subtract_", "sub_"),
                        ("multiply_", "mul_"), ("divide_", "div_")):
        assert getattr(ctensor.Tensor, alias) is getattr(ctensor.Tensor, name)


def test_keywords_and_arity_go_to_python():
    x = ctensor.ones(2)
    assert x.add(other=x, alpha=2).tolist() == [3.0, 3.0]
    with pytest.raises(TypeError, match="Tensor.add\\(\\) missing 1 required positional argument: 'other'"):
        x.add()
    with pytest.raises(TypeError, match="unexpected keyword argument 'beta'"):
        x.add_(x, beta=1)
    with pytest.raises(TypeError):
        x.mul(x, x)
