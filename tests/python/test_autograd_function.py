"""Custom autograd functions (ctensor.autograd.Function), differential against torch 2.13: each
scenario defines the same Function for torch and ctensor, runs it and records values, node
names, gradients, what backward received and the errors (class and message, torch. ->
ctensor.), and compares the records.  Then lifetimes: a Function's ctx is released with its
graph (live tensor counts return to where they were)."""

import gc
import weakref

import pytest

import ctensor
from ctutil import live, torch
from ctutil import recorded_error as _err
from ctutil import recorded_value as _val

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def _try(rec, f):
    try:
        f()
    except Exception as e:
        rec.append(_err(e))


def sc_mul(T, rec):
    F = T.autograd.Function

    class MyMul(F):
        @staticmethod
        def forward(ctx, x, y):
            rec.append(("needs", ctx.needs_input_grad, T.is_grad_enabled()))
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            rec.append(("g", _val(g), T.is_grad_enabled()))
            return g * y, g * x

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.tensor([4.0, 5.0, 6.0])
    z = MyMul.apply(x, y)
    rec.append((_val(z.detach()), z.grad_fn.name(), z.requires_grad, z.is_leaf))
    (z * z).sum().backward()
    rec.append(_val(x.grad))
    _try(rec, lambda: (z * z).sum().backward())  # saved tensors freed
    with T.no_grad():
        w = MyMul.apply(x, y)
    rec.append((w.grad_fn, w.requires_grad))
    w = MyMul.apply(T.ones(2), T.ones(2))
    rec.append((w.grad_fn, w.requires_grad))


def sc_in_graph(T, rec):
    # a custom op between recorded ops gets torch's gradient
    F = T.autograd.Function

    class Cube(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

    a = T.tensor([[0.5, -1.0], [2.0, 1.5]], requires_grad=True)
    b = T.tensor([1.0, 2.0], requires_grad=True)
    out = (Cube.apply(a * b + 1).sin() * b).sum()
    out.backward()
    rec.append([round(v, 5) for v in a.grad.flatten().tolist()])
    rec.append([round(v, 5) for v in b.grad.tolist()])


def sc_multi_output(T, rec):
    F = T.autograd.Function

    class Split2(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            rec.append((_val(g1), _val(g2)))
            return g1 * 2 + g2 * 3

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a, b = Split2.apply(x)
    rec.append((a.grad_fn.name(), b.grad_fn.name()))
    a.sum().backward(retain_graph=True)  # b got no gradient: zeros
    (a * b).sum().backward()
    rec.append(_val(x.grad))
    b.retain_grad()
    x.grad = None
    (b * 5).sum().backward()
    rec.append((_val(b.grad), _val(x.grad)))


def sc_no_materialize(T, rec):
    F = T.autograd.Function

    class Two(F):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            rec.append((_val(g1), _val(g2)))
            return g1 * 2 if g1 is not None else g2 * 3

    x = T.ones(2, requires_grad=True)
    a, b = Two.apply(x)
    b.sum().backward()
    rec.append(_val(x.grad))


def sc_non_differentiable(T, rec):
    F = T.autograd.Function

    class ArgAndMax(F):
        @staticmethod
        def forward(ctx, x):
            i = x.argmax()
            m = x.max()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(x, i)
            return m, i

        @staticmethod
        def backward(ctx, gm, gi):
            x, i = ctx.saved_tensors
            rec.append(_val(gi))
            g = T.zeros_like(x)
            g[i] = gm
            return g

    x = T.tensor([1.0, 5.0, 2.0], requires_grad=True)
    m, i = ArgAndMax.apply(x)
    rec.append((i.requires_grad, i.grad_fn, m.grad_fn.name()))
    m.backward()
    rec.append(_val(x.grad))


def sc_dirty(T, rec):
    F = T.autograd.Function

    class Double_(F):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = T.ones(3, requires_grad=True)
    _try(rec, lambda: Double_.apply(leaf))
    a = leaf * 1
    b = Double_.apply(a)
    rec.append((b is a, b.grad_fn.name(), a._version, _val(b.detach())))
    (b * 3).sum().backward()
    rec.append(_val(leaf.grad))


def sc_identity_and_view(T, rec):
    F = T.autograd.Function

    class Ident(F):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class Flat(F):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 2) * 5

    x = T.ones(2, 2, requires_grad=True)
    o = Ident.apply(x)
    rec.append((o is x, o._base is x, o.grad_fn.name()))
    o.sum().backward()
    rec.append(_val(x.grad))
    x.grad = None
    v = Flat.apply(x)
    rec.append((v._base is x, v.grad_fn.name()))
    v.sum().backward()
    rec.append(_val(x.grad))


def sc_errors(T, rec):
    F = T.autograd.Function
    x = T.ones(3, requires_grad=True)

    class TooFew(F):
        @staticmethod
        def forward(ctx, x, y):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    class BadShape(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return T.ones(2)

    class NotTensor(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return "a"

    class GradForNumber(F):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    class ExtraNone(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    class SaveNumber(F):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x, k)
            rec.append("forward ran")
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    class Raises(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise KeyError("in backward")

    _try(rec, lambda: TooFew.apply(x, T.ones(3)).sum().backward())
    _try(rec, lambda: BadShape.apply(x).sum().backward())
    _try(rec, lambda: NotTensor.apply(x).sum().backward())
    _try(rec, lambda: GradForNumber.apply(x, 3).sum().backward())
    _try(rec, lambda: SaveNumber.apply(x, 3))
    _try(rec, lambda: Raises.apply(x).sum().backward())
    x.grad = None
    ExtraNone.apply(x).sum().backward()
    rec.append(_val(x.grad))


def sc_saved_modified(T, rec):
    F = T.autograd.Function

    class Sv(F):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            ctx.saved_tensors
            return g * 2

    x = T.ones(3, requires_grad=True)
    w = Sv.apply(x)
    with T.no_grad():
        x.add_(1)
    _try(rec, lambda: w.sum().backward())
    x2 = T.ones(2, 2, requires_grad=True)
    w = Sv.apply(x2)
    w.mul_(2)
    _try(rec, lambda: w.sum().backward())


def sc_setup_context_and_once(T, rec):
    F = T.autograd.Function
    once = T.autograd.function.once_differentiable

    class Scale(F):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        @once
        def backward(ctx, g):
            rec.append(T.is_grad_enabled())
            return g * ctx.k, None

    class Defaults(F):
        @staticmethod
        def forward(x, k=2.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            rec.append((len(inputs), ctx.needs_input_grad))
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    x = T.tensor([1.0, -2.0], requires_grad=True)
    Defaults.apply(x).sum().backward()
    Defaults.apply(x, k=3.0).sum().backward()
    rec.append(_val(x.grad))
    x.grad = None
    y = Scale.apply(x, 4.0)
    rec.append(y.grad_fn.name())
    y.sum().backward()
    rec.append(_val(x.grad))


def sc_hooks_on_custom_outputs(T, rec):
    F = T.autograd.Function

    class Two(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            rec.append((_val(g1), _val(g2)))
            return g1 + g2

    x = T.ones(2, requires_grad=True)
    a, b = Two.apply(x)
    b.register_hook(lambda g: rec.append(("b", _val(g))) or g * 10)
    a.register_hook(lambda g: rec.append(("a", _val(g))))
    (a + 2 * b).sum().backward()
    rec.append(_val(x.grad))


def sc_dirty_view_and_mixed_outputs(T, rec):
    F = T.autograd.Function

    class Double_(F):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Mixed(F):
        @staticmethod
        def forward(ctx, x, n=2):
            return x * n, "tag", 3

        @staticmethod
        def backward(ctx, g, g2, g3):
            rec.append((g2, g3))
            return g * 6, None

    x = T.ones(4, requires_grad=True)
    base = x * 1
    v = base[0:2]
    o = Double_.apply(v)  # through a view: the base's grad_fn becomes CopySlices
    rec.append((o is v, o.grad_fn.name(), base.grad_fn.name(), base.tolist()))
    base.sum().backward()
    rec.append(_val(x.grad))
    x.grad = None
    r = Mixed.apply(x, 3)
    rec.append((type(r).__name__, r[1], r[2], r[0].grad_fn.name()))
    r[0].sum().backward()
    rec.append(_val(x.grad))


SCENARIOS = [sc_dirty_view_and_mixed_outputs, sc_mul, sc_in_graph, sc_multi_output, sc_no_materialize, sc_non_differentiable, sc_dirty,
             sc_identity_and_view, sc_errors, sc_saved_modified, sc_setup_context_and_once,
             sc_hooks_on_custom_outputs]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_like_torch(scenario):
    want, got = [], []
    scenario(torch, want)
    scenario(ctensor, got)
    assert got == want


def test_ctx_released_with_graph():
    before = live()
    seen = []

    class Probe:
        pass

    class Keep(ctensor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.big = ctensor.ones(1000)
            ctx.probe = Probe()
            seen.append(weakref.ref(ctx.probe))
            y = x * 2
            return y, y * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 6

    x = ctensor.ones(3, requires_grad=True)
    a, b = Keep.apply(x)
    (a + b).sum().backward()
    assert x.grad.tolist() == [8.0, 8.0, 8.0]
    assert seen[0]() is not None  # the graph holds ctx
    del a, b, x
    gc.collect()
    assert seen[0]() is None
    assert live() == before


def test_variable_alias():
    v = ctensor.autograd.Variable(ctensor.ones(2), requires_grad=True)
    assert v.requires_grad and v.is_leaf
    assert isinstance(ctensor.ones(1), ctensor.autograd.Variable)
    import ctensor.autograd.function as fmod
    assert fmod.once_differentiable is ctensor.autograd.function.once_differentiable


# ---- gradcheck ----------------------------------------------------------------------------------

def sc_gradcheck(T, rec):
    import warnings
    ga = T.autograd.gradcheck
    x = T.tensor([[0.5, -1.2], [2.0, 0.3]], dtype=T.float64, requires_grad=True)
    y = T.tensor([1.5, -0.7], dtype=T.float64, requires_grad=True)
    rec.append(ga(lambda a, b: (a * b).sin().sum(0), (x, y)))
    rec.append(ga(lambda a: a.exp(), x, eps=1e-6, atol=1e-5, rtol=1e-3))
    rec.append(ga(lambda a, k: (a * k, a.detach()), (x, 3.0)))
    _try(rec, lambda: ga(lambda a: a.detach() * 2, (x,)))  # no differentiable output: numerical must be 0

    class Wrong(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    z = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    _try(rec, lambda: ga(Wrong.apply, (z,)))
    rec.append(ga(Wrong.apply, (z,), raise_exception=False))
    _try(rec, lambda: ga(lambda a: a * 2, (T.ones(2, dtype=T.float64),)))
    _try(rec, lambda: ga(lambda a: a.sum(), (T.ones(1, dtype=T.float64).expand(3).requires_grad_(),)))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        _try(rec, lambda: ga(lambda a: a * 2, (T.ones(2, requires_grad=True),)))  # float32: fails as torch's
        rec.append([str(i.message) for i in w])


def test_gradcheck_like_torch():
    want, got = [], []
    sc_gradcheck(torch, want)
    sc_gradcheck(ctensor, got)
    assert got == want


def test_gradcheck_error_class():
    from ctensor.autograd.gradcheck import GradcheckError
    assert issubclass(GradcheckError, RuntimeError)
    with pytest.raises(GradcheckError):
        ctensor.autograd.gradcheck(lambda a: a * a.detach(), (ctensor.tensor([1.0, 2.0], dtype=ctensor.float64,
                                                                            requires_grad=True),))


def test_complex_inputs_take_the_users_formula():
    # torch lets a Function differentiate complex values with its own backward; ctensor's
    # built-in nodes are checked for a complex formula, a custom node is not
    grads = []
    for m in (torch, ctensor):
        class Square(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return g * 2 * x.conj()

        z = m.tensor([1 + 2j, 3j, -0.5 + 0j], requires_grad=True)
        y = Square.apply(z)
        (y * y.conj()).real.sum().backward()
        grads.append((y.grad_fn.name(), y.dtype.is_complex, z.grad.tolist()))
    assert grads[0] == grads[1]
