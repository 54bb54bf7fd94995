"""Second derivatives through custom autograd.Functions, against torch 2.13 (issue 21).

A Function's backward is differentiable, as torch's: under create_graph it runs with grad
mode on and what it computes from its gradients and saved inputs is recorded.
once_differentiable backward runs with grad mode off and its results fail the next backward
with torch's message (torch's DelayedError).  A saved output unpacks under create_graph with
the Function's node as grad_fn, as torch's SavedVariable."""

import numpy as np
import pytest
import torch

import ctensor

LIBS = pytest.mark.parametrize("lib", (ctensor, torch), ids=["ctensor", "torch"])


def _functions(lib):
    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    class MulAdd(lib.autograd.Function):  # x * y + x, two inputs, one kept on ctx
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y + x

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * (y + 1), g * x

    class Once(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * g * x

    class ExpSavedOutput(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * y

    return Cube, MulAdd, Once, ExpSavedOutput


def _x(lib, values=(0.5, -1.0, 2.0)):
    return lib.tensor(list(values), dtype=lib.float64, requires_grad=True)


def _np(t):
    return np.array(t.detach().tolist())


@LIBS
def test_second_and_third_derivative_of_a_cube(lib):
    Cube = _functions(lib)[0]
    x = _x(lib)
    g, = lib.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert g.requires_grad and g.grad_fn.name() == "MulBackward0"
    h, = lib.autograd.grad(g.sum(), x, create_graph=True)
    k, = lib.autograd.grad(h.sum(), x)
    assert np.allclose(_np(g), [0.75, 3, 12]) and np.allclose(_np(h), [3, -6, 12]) and np.allclose(_np(k), 6)


@LIBS
def test_mixed_second_derivatives_of_two_inputs(lib):
    MulAdd = _functions(lib)[1]
    x, y = _x(lib), _x(lib, (1.0, 2.0, 3.0))
    gx, gy = lib.autograd.grad(MulAdd.apply(x, y).sum(), (x, y), create_graph=True)
    hxy, = lib.autograd.grad(gx.sum(), y)   # d/dy (y + 1) = 1
    hyx, = lib.autograd.grad(gy.sum(), x)   # d/dx x = 1
    assert np.allclose(_np(hxy), 1) and np.allclose(_np(hyx), 1)


def test_gradgradcheck_of_custom_functions_agrees_with_torch():
    for lib in (ctensor, torch):
        Cube, MulAdd = _functions(lib)[:2]
        x, y = _x(lib), _x(lib, (1.0, 2.0, 3.0))
        assert lib.autograd.gradgradcheck(Cube.apply, (x,))
        assert lib.autograd.gradgradcheck(MulAdd.apply, (x, y))


@LIBS
def test_once_differentiable_with_a_plain_gradient_gives_no_graph(lib):
    Once = _functions(lib)[2]
    x = _x(lib)
    g, = lib.autograd.grad(Once.apply(x).sum(), x, create_graph=True)
    assert np.allclose(_np(g), [1, -2, 4]) and not g.requires_grad
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        lib.autograd.grad(g.sum(), x)


@LIBS
def test_once_differentiable_refuses_the_second_backward(lib):
    Once = _functions(lib)[2]
    x = _x(lib)
    y = Once.apply(x * 1)
    g, = lib.autograd.grad((y * y).sum(), x, create_graph=True)  # Once's gradient requires grad
    assert g.requires_grad
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        lib.autograd.grad(g.sum(), x)  # Once's result hangs on a fresh leaf, not on x (torch's fake_requires_grad)
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked with "
                                           "@once_differentiable"):
        g.sum().backward()


@LIBS
def test_a_saved_output_is_differentiated_through(lib):
    """torch's SavedVariable for an output: under create_graph it unpacks with the node as grad_fn."""
    Exp = _functions(lib)[3]
    x = _x(lib)
    y = Exp.apply(x)
    g, = lib.autograd.grad(y.sum(), x, create_graph=True)
    assert np.allclose(_np(g), np.exp([0.5, -1.0, 2.0])) and g.requires_grad
    h, = lib.autograd.grad(g.sum(), x, create_graph=True)
    k, = lib.autograd.grad(h.sum(), x)
    assert np.allclose(_np(h), np.exp([0.5, -1.0, 2.0])) and np.allclose(_np(k), np.exp([0.5, -1.0, 2.0]))
    assert lib.autograd.gradgradcheck(Exp.apply, (_x(lib),))


@LIBS
def test_a_saved_output_modified_in_place_is_refused(lib):
    Exp = _functions(lib)[3]
    x = _x(lib)
    y = Exp.apply(x)
    with lib.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        lib.autograd.grad(y.sum(), x, create_graph=True)


def test_no_tensor_is_left_behind():
    import gc
    Cube = _functions(ctensor)[0]
    gc.collect()
    before = ctensor.live_tensors()
    for _ in range(3):
        x = _x(ctensor)
        g, = ctensor.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
        ctensor.autograd.grad(g.sum(), x)
        del x, g
    gc.collect()
    assert ctensor.live_tensors() == before
