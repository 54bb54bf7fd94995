"""Which tensor becomes a leaf's first .grad, differential against torch 2.13 (Note [Stealing
the gradient] in src/core/autograd/nodes.cpp).  torch's AccumulateGrad keeps the incoming
gradient itself (detached: same storage and version counter) when nobody else holds it and it
obeys the layout contract, and otherwise stores a copy with the leaf's strides.  Each scenario
runs the same code on both libraries and records what is observable: values, strides, whether
.grad shares memory and a version counter with a tensor the user holds, and what a second
backward writes where."""

import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def sc_cat_narrows_the_users_gradient(T, rec):
    # CatBackward0 gives narrow views of g: nobody else holds them, so .grad is one of them
    x1 = T.ones(2, requires_grad=True)
    x2 = T.ones(3, requires_grad=True)
    g = T.arange(5.0)
    T.cat([x1, x2]).backward(g)
    rec += [shares(x2.grad, g), x2.grad.storage_offset(), x2.grad._is_view(), x2.grad._base is None]
    g.add_(1)  # writes .grad too, and bumps the version counter the two share
    rec += [x2.grad.tolist(), x2.grad._version, g._version]
    T.cat([x1, x2]).backward(T.ones(5))  # accumulates in place: into g's memory
    rec += [g.tolist(), x1.grad.tolist()]


def sc_fresh_gradient_is_kept(T, rec):
    x = T.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    first = x.grad
    rec += [first.tolist(), first.stride(), first._version]
    (x * 3).sum().backward()  # in place into the kept tensor
    rec += [x.grad is first, first.tolist(), first._version]


def sc_a_hook_keeps_the_gradient(T, rec):
    held = []
    x = T.ones(3, requires_grad=True)
    x.register_hook(lambda t: held.append(t))
    (x * 2).sum().backward()
    rec += [shares(held[0], x.grad), x.grad.tolist()]
    held[0].mul_(0)
    rec += [x.grad.tolist()]


def sc_hook_returns_a_held_tensor(T, rec):
    kept = T.full((3,), 7.0)
    x = T.ones(3, requires_grad=True)
    x.register_hook(lambda t: kept)
    (x * 2).sum().backward()
    rec += [shares(kept, x.grad), x.grad.tolist()]


def sc_users_gradient_on_a_leaf(T, rec):
    x = T.ones(2, 3, requires_grad=True)
    g = T.full((2, 3), 5.0)
    x.backward(g)
    rec += [shares(g, x.grad), x.grad.tolist()]


def sc_transposed_leaf_gets_its_strides(T, rec):
    x = T.ones(3, 2).t().requires_grad_()
    (x * 2).sum().backward()  # a contiguous gradient: copied with the leaf's strides
    rec += [x.grad.stride(), x.grad.tolist()]
    y = T.ones(3, 2).t().requires_grad_()
    (y.t() * 2).t().sum().backward()  # already in the leaf's layout: kept
    rec += [y.grad.stride(), y.grad.tolist()]


def sc_expanded_gradient_is_copied(T, rec):
    x = T.ones(2, 3, requires_grad=True)
    x.sum().backward()  # SumBackward0 expands: stride 0 breaks the contract
    rec += [x.grad.stride(), x.grad.tolist()]


def sc_overlapping_leaf_gets_contiguous(T, rec):
    x = T.ones(6).as_strided((2, 2), (1, 1)).detach().requires_grad_()
    (x * 2).sum().backward()
    rec += [x.grad.stride(), x.grad.tolist()]


def sc_conj_gradient(T, rec):
    x = T.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    x.conj().abs().sum().backward()
    rec += [x.grad.is_conj(), [complex(v) for v in x.grad.resolve_conj().tolist()]]


def sc_create_graph_copies(T, rec):
    x = T.ones(3, requires_grad=True)
    y = (x * x).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    z = (x * 2).sum()
    z.backward(create_graph=True)
    rec += [x.grad.tolist(), x.grad.requires_grad, g.tolist()]


SCENARIOS = [v for k, v in sorted(globals().items()) if k.startswith("sc_")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__[3:])
def test_same_as_torch(scenario):
    want, got = [], []
    scenario(torch, want)
    scenario(ctensor, got)
    assert got == want
