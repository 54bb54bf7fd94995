"""Tensor hooks (Tensor.register_hook), differential against torch 2.13: each scenario runs the
same code with torch and with ctensor and records what the hooks saw (values, order), the
gradients, the errors (class and message, torch. -> ctensor.), and compares the records.  Then
handles, the release of hooks (live tensor counts return to where they were), and threads."""

import threading

import pytest

import ctensor
from ctutil import live, torch
from ctutil import recorded_error as _err
from ctutil import recorded_value as _val

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def sc_order_and_replace(T, rec):
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: (rec.append(("h1", _val(g))), g * 10)[1])
    y.register_hook(lambda g: rec.append(("h2", _val(g))))
    y.retain_grad()
    x.register_hook(lambda g: rec.append(("x", _val(g))))
    (y * y).sum().backward()
    rec.append(("y.grad", _val(y.grad)))
    rec.append(("x.grad", _val(x.grad)))


def sc_leaf_replace_and_remove(T, rec):
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x.register_hook(lambda g: g + 100)
    (x * 3).sum().backward()
    rec.append(_val(x.grad))
    h.remove()
    h.remove()  # twice: nothing
    (x * 3).sum().backward()
    rec.append(_val(x.grad))


def sc_broadcast_leaf(T, rec):
    # a leaf's hook sees the gradient summed to its shape
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.register_hook(lambda g: rec.append(_val(g)))
    (x * T.ones(2, 3)).sum().backward()


def sc_deleted_intermediate(T, rec):
    x = T.ones(3, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: rec.append(("y", _val(g))))
    z = y * 3
    del y
    z.sum().backward()


def sc_inplace_after_hook(T, rec):
    x = T.ones(3, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: rec.append(("old", _val(g))))
    y.mul_(5)
    y.register_hook(lambda g: rec.append(("new", _val(g))))
    y.sum().backward()
    rec.append(_val(x.grad))


def sc_view_hook(T, rec):
    x = T.arange(6.0).reshape(2, 3).requires_grad_()
    v = x[0]
    v.register_hook(lambda g: rec.append(("v", _val(g))) or g * 2)
    (v * v).sum().backward()
    rec.append(_val(x.grad))


def sc_two_paths(T, rec):
    # the hook sees the sum of both paths' gradients, once
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.register_hook(lambda g: rec.append(_val(g)))
    (y * 2 + y * y).sum().backward()
    rec.append(_val(x.grad))


def sc_multiple_backward(T, rec):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.register_hook(lambda g: rec.append(_val(g)))
    y.sum().backward(retain_graph=True)
    (y * 3).sum().backward()
    rec.append(_val(x.grad))


def sc_errors(T, rec):
    for make in (lambda: T.ones(3), lambda: T.ones(3, requires_grad=True).detach(), lambda: T.arange(3)):
        try:
            make().register_hook(lambda g: g)
        except Exception as e:
            rec.append(_err(e))
    x = T.ones(3, requires_grad=True)
    for hook in (lambda g: 5, lambda g: T.ones(2), lambda g: T.ones(3, dtype=T.float64)):
        z = x * 3
        z.register_hook(hook)
        try:
            z.sum().backward()
        except Exception as e:
            rec.append(_err(e))
    x.grad = None

    def boom(g):
        raise ValueError("boom")

    z = x * 3
    z.register_hook(boom)
    try:
        z.sum().backward()
    except ValueError as e:
        rec.append(_err(e))
    rec.append(_val(x.grad))  # backward stopped before the leaf


def sc_hook_removes_itself(T, rec):
    x = T.ones(2, requires_grad=True)
    y = x + 1
    handles = []

    def once(g):
        rec.append(_val(g))
        handles[0].remove()

    handles.append(y.register_hook(once))
    y.register_hook(lambda g: rec.append("second"))
    y.sum().backward(retain_graph=True)
    y.sum().backward()


def sc_requires_grad_(T, rec):
    x = T.ones(2)
    rec.append(x.requires_grad_() is x)
    rec.append(x.requires_grad)
    rec.append(isinstance(x, T.autograd.Variable))
    v = T.autograd.Variable(T.ones(2), requires_grad=True)
    rec.append((v.requires_grad, v.is_leaf, _val(v.detach())))


SCENARIOS = [sc_order_and_replace, sc_leaf_replace_and_remove, sc_broadcast_leaf, sc_deleted_intermediate,
             sc_inplace_after_hook, sc_view_hook, sc_two_paths, sc_multiple_backward, sc_errors,
             sc_hook_removes_itself, sc_requires_grad_]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_like_torch(scenario):
    want, got = [], []
    scenario(torch, want)
    scenario(ctensor, got)
    assert got == want


def test_handle():
    x = ctensor.ones(2, requires_grad=True)
    h1 = x.register_hook(lambda g: None)
    h2 = x.register_hook(lambda g: None)
    assert isinstance(h1.id, int) and h2.id > h1.id
    seen = []
    with x.register_hook(lambda g: seen.append(1)):
        (x * 2).sum().backward()
    (x * 2).sum().backward()  # removed on exit
    assert seen == [1]


def test_hooks_released():
    before = live()
    x = ctensor.ones(3, requires_grad=True)
    y = x * 2
    big = ctensor.ones(1000)  # held by a hook's closure until the hook goes
    y.register_hook(lambda g, b=big: g + b[:3])
    x.register_hook(lambda g: g * 2)
    h = x.register_hook(lambda g, b=big: b.sum() * 0 + g)
    del big
    y.sum().backward()
    assert x.grad.tolist() == [8.0, 8.0, 8.0]  # (1 + 1) * 2, doubled by x's hook
    h.remove()
    del x, y, h
    assert live() == before


def test_released_with_graph_not_tensor():
    # a non-leaf's hook lives on with its grad_fn while a later node holds it (torch's)
    import gc
    import weakref

    class Probe:
        pass

    x = ctensor.ones(2, requires_grad=True)
    y = x * 2
    p = Probe()
    y.register_hook(lambda g, p=p: None)
    ref = weakref.ref(p)
    del p
    z = y + 1
    del y
    gc.collect()
    assert ref() is not None
    del z
    gc.collect()
    assert ref() is None


def test_hook_runs_on_backward_thread():
    x = ctensor.ones(2, requires_grad=True)
    y = x * 2
    where = []
    y.register_hook(lambda g: where.append((threading.get_ident(), ctensor.is_grad_enabled())))
    t = threading.Thread(target=lambda: y.sum().backward())
    t.start()
    t.join()
    assert where == [(t.ident, False)]
