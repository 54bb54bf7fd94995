"""Higher-order gradients (create_graph=True), against torch 2.13: second and third derivatives
of every op with a differentiable formula, gradgradcheck, the grad_fn names of gradients, a
leaf's .grad with create_graph, nodes that refuse a higher derivative, and no leaks."""

import gc
import warnings

import numpy as np
import pytest
import torch

import ctensor
from ctensor.autograd import gradgradcheck

LIBS = (ctensor, torch)


def _rand(lib, shape, seed, positive=False):
    v = np.random.default_rng(seed).uniform(0.5 if positive else -1.0, 1.5 if positive else 1.0, size=shape)
    return lib.tensor(v.tolist(), dtype=lib.float64)


def _copy_into_view(lib, x):
    z = x * 1.0
    z[1:, 0] = x[0, 1:] * x[1:, 1]
    return z


def _copy_whole(lib, x):
    z = lib.zeros(3, 3, dtype=lib.float64)
    z.copy_(x.exp())
    return z * x


# name -> (function of lib and the inputs, input shapes, inputs positive)
OPS = {
    "add": (lambda lib, x, w: x * x + w * x, [(3,), (3,)], False),
    "sub": (lambda lib, x, w: x * w - w * w, [(3,), (3,)], False),
    "mul": (lambda lib, x, w: x * w * x, [(3,), (3,)], False),
    "div": (lambda lib, x, w: x / w, [(3,), (3,)], True),
    "add_scalar": (lambda lib, x: (x + 2.0) * x, [(3,)], False),
    "sub_scalar": (lambda lib, x: (x - 2.0) * x, [(3,)], False),
    "rsub_scalar": (lambda lib, x: (2.0 - x) * x, [(3,)], False),
    "mul_scalar": (lambda lib, x: (x * 3.0) * x, [(3,)], False),
    "div_scalar": (lambda lib, x: (x / 3.0) * x, [(3,)], False),
    "rdiv_scalar": (lambda lib, x: 2.0 / x, [(3,)], True),
    "neg": (lambda lib, x: -x * x, [(3,)], False),
    "exp": (lambda lib, x: x.exp(), [(3,)], False),
    "log": (lambda lib, x: x.log(), [(3,)], True),
    "sin": (lambda lib, x: x.sin(), [(3,)], False),
    "cos": (lambda lib, x: x.cos(), [(3,)], False),
    "tanh": (lambda lib, x: x.tanh(), [(3,)], False),
    "sigmoid": (lambda lib, x: x.sigmoid(), [(3,)], False),
    "sqrt": (lambda lib, x: x.sqrt(), [(3,)], True),
    "reciprocal": (lambda lib, x: x.reciprocal(), [(3,)], True),
    "pow_scalar": (lambda lib, x: x.pow(3), [(3,)], False),
    "pow_fractional": (lambda lib, x: x ** 2.5, [(3,)], True),
    "pow_tensor": (lambda lib, x, w: x.pow(w), [(3,), (3,)], True),
    "rpow": (lambda lib, w: 2.0 ** w, [(3,)], False),
    "abs": (lambda lib, x: x.abs() * x, [(3,)], False),
    "relu": (lambda lib, x: x.relu() * x, [(3,)], False),
    "sum": (lambda lib, x: x.sum() * x, [(2, 3)], False),
    "sum_dim": (lambda lib, x: x.sum(1, keepdim=True) * x, [(2, 3)], False),
    "mean": (lambda lib, x: x.mean() * x, [(2, 3)], False),
    "mean_dim": (lambda lib, x: x.mean(0) * x, [(2, 3)], False),
    "matmul": (lambda lib, x, w: (x @ w) * (x @ w), [(2, 3), (3, 4)], False),
    "mm": (lambda lib, x, w: lib.mm(x, w).tanh(), [(2, 3), (3, 4)], False),
    "mv": (lambda lib, x, w: x.mv(w).exp(), [(2, 3), (3,)], False),
    "dot": (lambda lib, x, w: x.dot(w) * x, [(3,), (3,)], False),
    "bmm_matmul": (lambda lib, x, w: (x @ w).sin(), [(2, 2, 3), (3, 2)], False),
    "view": (lambda lib, x: x.view(6).exp().view(3, 2), [(2, 3)], False),
    "reshape": (lambda lib, x: x.t().reshape(6).exp(), [(2, 3)], False),
    "transpose": (lambda lib, x: x.transpose(0, 1).exp(), [(2, 3)], False),
    "t": (lambda lib, x: x.t().sin() * x.t(), [(2, 3)], False),
    "permute": (lambda lib, x: x.permute(2, 0, 1).exp(), [(2, 3, 2)], False),
    "expand": (lambda lib, x: x.expand(4, 3).exp() * 2.0, [(1, 3)], False),
    "expand_new_dim": (lambda lib, x: x.expand(2, 3).sin(), [(3,)], False),
    "select": (lambda lib, x: x.select(1, 2).exp(), [(2, 3)], False),
    "slice": (lambda lib, x: x[:, ::2].exp(), [(2, 3)], False),
    "narrow": (lambda lib, x: x.narrow(1, 1, 2).exp(), [(2, 3)], False),
    "squeeze": (lambda lib, x: x.squeeze(1).exp(), [(2, 1, 3)], False),
    "squeeze_all": (lambda lib, x: x.squeeze().exp(), [(2, 1, 3)], False),
    "unsqueeze": (lambda lib, x: x.unsqueeze(1).exp(), [(2, 3)], False),
    "diagonal": (lambda lib, x: x.diagonal().exp(), [(3, 3)], False),
    "unfold": (lambda lib, x: x.unfold(0, 2, 1).exp(), [(4,)], False),
    "as_strided": (lambda lib, x: x.as_strided((2, 2), (1, 2), 1).exp(), [(6,)], False),
    "as_strided_overlap": (lambda lib, x: x.as_strided((2, 2), (1, 1)).exp(), [(4,)], False),
    "split": (lambda lib, x: x.split(2)[1].exp() * x.split(2)[0], [(4,)], False),
    "unbind": (lambda lib, x: x.unbind(1)[0].exp() * x.unbind(1)[2], [(2, 3)], False),
    "chunk": (lambda lib, x: x.chunk(3, 1)[1].sin(), [(2, 3)], False),
    "clone": (lambda lib, x: x.clone().exp() * x, [(3,)], False),
    "contiguous": (lambda lib, x: x.t().contiguous().exp(), [(2, 3)], False),
    "to_float32": (lambda lib, x: x.to(lib.float32).exp().to(lib.float64), [(3,)], False),
    "copy_into_view": (_copy_into_view, [(3, 3)], False),
    "copy_whole": (_copy_whole, [(3, 3)], False),
    "where": (lambda lib, x, w: lib.where(x > 0, x * w, w.exp()), [(4,), (4,)], False),
    "cat": (lambda lib, x, w: lib.cat([x * x, w.exp()], 0), [(2,), (3,)], False),
    "stack": (lambda lib, x, w: lib.stack([x * w, w.exp()], 1), [(3,), (3,)], False),
    "maximum": (lambda lib, x, w: lib.maximum(x * x, w) * x, [(4,), (4,)], False),
    "minimum": (lambda lib, x, w: lib.minimum(x, w.exp()) * w, [(4,), (4,)], False),
    "amax": (lambda lib, x: x.amax(1) * x.sum(1), [(2, 3)], False),
    "max_all": (lambda lib, x: x.max() * x, [(2, 3)], False),
    "var": (lambda lib, x: x.var(1), [(2, 4)], False),
    "std": (lambda lib, x: x.std(), [(2, 4)], False),
    "var_mean": (lambda lib, x: lib.var_mean(x, 1)[0] * lib.var_mean(x, 1)[1], [(2, 4)], False),
    "std_mean": (lambda lib, x: lib.std_mean(x)[0] + lib.std_mean(x)[1] ** 2, [(2, 4)], False),
    "norm_2": (lambda lib, x: lib.linalg.vector_norm(x, 2, 1), [(2, 3)], False),
    "norm_3": (lambda lib, x: lib.linalg.vector_norm(x, 3), [(2, 3)], False),
    "norm_1": (lambda lib, x: lib.linalg.vector_norm(x, 1) * x, [(2, 3)], False),
    "flip": (lambda lib, x: x.flip(1).exp(), [(2, 3)], False),
    "roll": (lambda lib, x: x.roll(1, 1).exp(), [(2, 3)], False),
    "repeat": (lambda lib, x: x.repeat(2, 1, 2).exp(), [(2, 3)], False),
    "cumsum": (lambda lib, x: x.cumsum(1).exp(), [(2, 3)], False),
    "index_select": (lambda lib, x: x.index_select(1, lib.tensor([2, 0, 2])).exp(), [(2, 3)], False),
    "gather": (lambda lib, x: x.gather(1, lib.tensor([[2, 0], [1, 1]])).exp(), [(2, 3)], False),
    "index": (lambda lib, x: x[lib.tensor([1, 0, 1])].exp(), [(2, 3)], False),
    "clamp": (lambda lib, x: x.clamp(-0.5, 0.5) * x, [(2, 3)], False),
    "clamp_min_tensor": (lambda lib, x, w: lib.clamp_min(x, w) * x, [(4,), (4,)], False),
    "clamp_inplace": (lambda lib, x: (x * 1.0).clamp_(max=0.3) * x, [(2, 3)], False),
    "prod": (lambda lib, x: x.prod() * x, [(2, 3)], False),
    "prod_dim": (lambda lib, x: x.prod(1, keepdim=True).exp(), [(2, 3)], False),
    "exp_inplace": (lambda lib, x: (x * 2.0).exp_() * x, [(3,)], False),  # saves its result: differentiable
    "add_inplace": (lambda lib, x, w: (x * x).add_(w * x), [(3,), (3,)], False),
    "mul_inplace_scalar": (lambda lib, x: (x * x).mul_(3.0), [(3,)], False),
    "mul_inplace_tensor": (lambda lib, x, w: (x * 1.0).mul_(w * x) * x, [(3,), (3,)], False),
    "div_inplace_tensor": (lambda lib, x, w: (x * 1.0).div_(w) * x, [(3,), (3,)], True),
    "sin_inplace": (lambda lib, x: (x * 1.0).sin_() * x, [(3,)], False),
    "pow_inplace": (lambda lib, x: (x * 1.0).pow_(3) * x, [(3,)], False),
    "exp_inplace_on_view": (lambda lib, x: (lambda b: (b[1:].exp_(), b * b * x)[1])(x * 1.0), [(4,)], False),
    "sigmoid_inplace_on_view": (lambda lib, x: (lambda b: (b.view(2, 2)[:, 0].sigmoid_(), b * x)[1])(x * 1.0),
                                [(4,)], False),
    "copy_slices_mul": (lambda lib, x: (lambda c: (c.view(2, 2).t()[0].mul_(x[:2]), c * c)[1])(x * 2.0),
                        [(4,)], False),
}


def _derivatives(lib, name):
    """Outputs, first, second and third derivatives (None where a gradient does not exist)."""
    f, shapes, positive = OPS[name]
    xs = [_rand(lib, s, 10 + i, positive).requires_grad_() for i, s in enumerate(shapes)]
    y = f(lib, *xs)
    c = _rand(lib, tuple(y.shape), 1)
    g1 = lib.autograd.grad((y * c).sum(), xs, create_graph=True)
    out = [y.detach(), list(g1)]
    level = g1
    for k in (2, 3):
        terms = [(g * _rand(lib, tuple(g.shape), 20 * k + i)).sum() for i, g in enumerate(level)
                 if g is not None and g.requires_grad]
        if not terms:
            out.append(None)
            break
        level = lib.autograd.grad(sum(terms), xs, create_graph=k < 3, allow_unused=True)
        out.append(list(level))
    return out


def _vals(t):
    if isinstance(t, torch.Tensor) and t._is_zerotensor():  # torch's efficient zeros have no storage
        return np.zeros(tuple(t.shape))
    return np.array(t.detach().tolist())


def _zero(t):
    return t is None or not np.any(_vals(t))


def _same(a, b):
    """Equal values; a derivative that does not depend on the inputs may be None on one side and
    zeros on the other (torch records sgn(x) in abs's gradient, whose own gradient is zeros; here
    where(x > 0, g, -g) has no history through x)."""
    if a is None or b is None:
        other = b if a is None else a
        assert other is None or all(_zero(t) for t in (other if isinstance(other, list) else [other]))
        return
    if isinstance(a, list):
        assert len(a) == len(b)
        for p, q in zip(a, b):
            _same(p, q)
        return
    assert tuple(a.shape) == tuple(b.shape)
    assert np.allclose(_vals(a), _vals(b), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(OPS))
def test_derivatives_against_torch(name):
    _same(_derivatives(ctensor, name), _derivatives(torch, name))


@pytest.mark.parametrize("name", sorted(set(OPS) - {"to_float32"}))  # float32 steps: no 1e-6 differences
def test_gradgradcheck(name):
    f, shapes, positive = OPS[name]
    xs = tuple(_rand(ctensor, s, 30 + i, positive).requires_grad_() for i, s in enumerate(shapes))
    assert gradgradcheck(lambda *a: f(ctensor, *a), xs)


def _first_grad_names(lib, name):
    f, shapes, positive = OPS[name]
    xs = [_rand(lib, s, 40 + i, positive).requires_grad_() for i, s in enumerate(shapes)]
    y = f(lib, *xs)
    g = lib.autograd.grad(y, xs, lib.ones(tuple(y.shape), dtype=lib.float64).requires_grad_(), create_graph=True)
    return [type(t.grad_fn).__name__ if t is not None and t.grad_fn is not None else None for t in g]


# grad_fn names of the gradients that are torch's (the others record other nodes for the same
# values: a view's gradient computed as its adjoint, a sum of per-output pieces for split/unbind)
# (div's, cos's, tanh's, sigmoid's, mm's, dot's keep their first-order formulas, which compute the
# same values in another order: NegBackward0, MulBackward0 or ViewBackward0 where torch has
# MulBackward0, TanhBackwardBackward0, MmBackward0 ...)
SAME_NAMES = ["add", "sub", "mul", "neg", "exp", "log", "sin", "sqrt",
              "pow_scalar", "sum", "mean", "matmul", "view", "transpose", "t", "permute", "select",
              "slice", "narrow", "diagonal", "unfold", "unsqueeze", "squeeze", "clone", "where", "cat", "stack",
              "expand", "index_select", "gather", "index", "prod"]


@pytest.mark.parametrize("name", SAME_NAMES)
def test_gradient_grad_fn_names(name):
    assert _first_grad_names(ctensor, name) == _first_grad_names(torch, name)


def test_leaf_grad_with_create_graph():
    """backward(create_graph=True): a first .grad is a recorded copy, a later one grad + new."""
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings():  # torch's "reference cycle" warning, once per process
            warnings.simplefilter("ignore")
            (x ** 3).sum().backward(create_graph=True)
        first = (type(x.grad.grad_fn).__name__, x.grad.tolist(), x.grad.requires_grad)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x * x).sum().backward(create_graph=True)
        second = (type(x.grad.grad_fn).__name__, x.grad.tolist())
        (g2,) = lib.autograd.grad(x.grad.sum(), x)
        res.append((first, second, g2.tolist()))
        x.grad = None
    assert res[0] == res[1]


def test_backward_inputs_with_create_graph():
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([3.0, -1.0], dtype=lib.float64, requires_grad=True)
        y = (x * x * w).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.autograd.backward(y, inputs=[x], create_graph=True)
        (gw,) = lib.autograd.grad(x.grad.sum(), w)
        res.append((x.grad.tolist(), w.grad, gw.tolist()))
        x.grad = None
    assert res[0] == res[1]


def test_grad_outputs_with_history():
    """A grad_output that requires grad: the result depends on it (torch's vjp of a vjp)."""
    res = []
    for lib in LIBS:
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        v = lib.tensor([0.5, -2.0], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(x.exp(), x, v, create_graph=True)
        gx, gv = lib.autograd.grad(g.sum(), [x, v])
        res.append((g.tolist(), gx.tolist(), gv.tolist()))
    assert res[0] == res[1]


REFUSING = {
    "ProdBackward0": lambda x: (x - x[1].detach()).prod(),  # with a zero (none: differentiable)
    "CumprodBackward0": lambda x: x.cumprod(0).sum(),
    "SortBackward0": lambda x: (x.sort()[0] * x).sum(),
    "TopkBackward0": lambda x: (x.topk(2)[0] ** 2).sum(),
}


@pytest.mark.parametrize("node", sorted(REFUSING))
def test_refusing_nodes(node):
    """A node without a differentiable formula never gives a silent wrong higher derivative: its
    gradient has a grad_fn whose backward fails naming the node."""
    x = ctensor.tensor([1.5, -2.0, 3.0], dtype=ctensor.float64, requires_grad=True)
    (g,) = ctensor.autograd.grad(REFUSING[node](x), x, create_graph=True)
    assert g.requires_grad
    expected = torch.tensor(x.tolist(), dtype=torch.float64, requires_grad=True)
    (tg,) = torch.autograd.grad(REFUSING[node](expected), expected)
    assert g.tolist() == pytest.approx(tg.tolist())  # first order still right
    with pytest.raises(RuntimeError, match=f"derivative for {node} is not implemented"):
        ctensor.autograd.grad(g.sum(), x)


def test_no_leak():
    """Every graph a higher-order computation makes is freed with its tensors (live counts)."""
    gc.collect()
    start = ctensor.live_tensors()

    def work():
        x = _rand(ctensor, (3, 3), 1).requires_grad_()
        w = _rand(ctensor, (3, 3), 2).requires_grad_()
        y = (x @ w).tanh().t()[0].sum() + (x.exp() / w).mean() + x.transpose(0, 1).reshape(9)[1:].pow(3).sum()
        g, gw = ctensor.autograd.grad(y, [x, w], create_graph=True)
        (h,) = ctensor.autograd.grad((g * g).sum() + gw.sum(), x, create_graph=True)
        ctensor.autograd.grad(h.sum(), w)
        z = x * 1.0
        z[0] = x[1] * w[1]
        (g2,) = ctensor.autograd.grad(z.sum() * z.sum(), w, create_graph=True)
        ctensor.autograd.grad(g2.sum(), x)
        (p,) = ctensor.autograd.grad(x.prod(), x, create_graph=True)  # a refusing node
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x * x * w).sum().backward(create_graph=True)
        x.grad.sum().backward()
        x.grad = None  # the cycle torch warns about
        w.grad = None

    work()
    gc.collect()
    assert ctensor.live_tensors() == start


def _copy_complex(lib, z):
    w = z * 1.0
    w[0] = z[1] * z[2]
    return w


COMPLEX_OPS = {
    "mul": lambda lib, z: z * z * (1 + 1j),
    "exp": lambda lib, z: z.exp(),
    "div": lambda lib, z: 1 / z,
    "conj_sin": lambda lib, z: z.conj() * z.sin(),
    "abs": lambda lib, z: z.abs() * 2,
    "views": lambda lib, z: z[1:].t().exp(),
    "real_imag": lambda lib, z: z.real * z.imag,
    "view_as_real": lambda lib, z: lib.view_as_real(z * z).exp(),
    "matmul": lambda lib, z: z.reshape(3, 1) @ z.reshape(1, 3),
    "copy_into_view": _copy_complex,
    "index_select": lambda lib, z: z.index_select(0, lib.tensor([2, 0, 2])).exp(),
    "index": lambda lib, z: z[lib.tensor([1, 1, 0])] * z,
    "prod": lambda lib, z: z.prod() * z,
}


def _complex_derivatives(lib, name):
    z = lib.tensor([1 + 2j, -0.5 + 1j, 2 - 1j], dtype=lib.complex128, requires_grad=True)
    y = COMPLEX_OPS[name](lib, z)
    loss = (y * y.conj()).real.sum() if y.is_complex() else y.sum()
    (g,) = lib.autograd.grad(loss, z, create_graph=True)
    (g2,) = lib.autograd.grad((g * g.conj()).real.sum(), z)
    return [np.array(g.detach().tolist()), np.array(g2.tolist())]


@pytest.mark.parametrize("name", sorted(COMPLEX_OPS))
def test_complex_second_derivatives_against_torch(name):
    """torch's conjugate Wirtinger convention, one level up."""
    for a, b in zip(_complex_derivatives(ctensor, name), _complex_derivatives(torch, name)):
        assert np.allclose(a, b, rtol=1e-10, atol=1e-12)


# ---- ported from torch's test/test_view_ops.py (the tests that call gradgradcheck) ----------

def _as_strided_case(x, prepro_fn, size, strides, offset=None):
    x = x.to(ctensor.float64).detach().requires_grad_()

    def closure(x):
        if prepro_fn is not None:
            x = prepro_fn(x)
        return x.as_strided(size, strides, offset)

    assert ctensor.autograd.gradcheck(closure, [x])
    assert gradgradcheck(closure, [x])


def test_as_strided_gradients():
    """torch's TestViewOps.test_as_strided_gradients."""
    _as_strided_case(ctensor.arange(0, 25), lambda x: x.view(5, 5), [3, 3], [6, 2], 2)
    # crazy stride at a dim of size 1
    _as_strided_case(ctensor.randn(12), None, [1, 2, 1, 5], [0, 5, 100, 1], 2)
    # expand cases
    _as_strided_case(ctensor.randn(5), None, [3, 3, 3], [0, 1, 0], 2)
    _as_strided_case(ctensor.randn(5), None, [3, 3, 3], [0, 0, 0], 4)
    _as_strided_case(ctensor.randn(5), lambda x: x.expand(5, 5), [5, 5], [0, 1], 0)
    # non-expand overlapping
    _as_strided_case(ctensor.randn(35), None, [6, 6], [5, 1], 2)
    _as_strided_case(ctensor.randn(15), None, [3, 2], [3, 6], 2)
    # transpose
    _as_strided_case(ctensor.randn(3, 4), None, [4, 3], [1, 4])
    # "getting things outside the input"
    x = ctensor.randn(6, 2)
    _as_strided_case(x[3:], None, [3, 2], [2, 1], 0)
    # select on an expanded input
    _as_strided_case(ctensor.randn(2, 3), lambda x: x.expand(10, 2, 3), [2, 3], [3, 1], 0)


def test_unbind_gradgradcheck():
    """torch's TestViewOps.test_unbind (its gradcheck / gradgradcheck part)."""
    stacked = ctensor.randn(3, 10, 10, dtype=ctensor.float64, requires_grad=True)
    assert ctensor.autograd.gradcheck(lambda x: x.unbind(), (stacked,))
    assert gradgradcheck(lambda x: x.unbind(), (stacked,))


# ---- ported from torch's test/test_autograd.py (second derivatives of ctensor's ops) ---------

@pytest.mark.parametrize("lib", LIBS, ids=["ctensor", "torch"])
def test_hessian_vector(lib):
    x = lib.randn(2, 2, requires_grad=True)
    y = lib.randn(2, 2, requires_grad=True)
    z = x ** 2 + y * x + y ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z.backward(lib.ones(2, 2), create_graph=True)
    with lib.no_grad():
        x_grad = 2 * x + y
        y_grad = x + 2 * y
    assert lib.allclose(x.grad, x_grad) and lib.allclose(y.grad, y_grad)
    grad_sum = 2 * x.grad + y.grad
    grad_sum.backward(lib.ones(2, 2))
    assert lib.allclose(x.grad, x_grad + lib.ones(2, 2) * 5)
    assert lib.allclose(y.grad, y_grad + lib.ones(2, 2) * 4)
    x.grad = y.grad = None


@pytest.mark.parametrize("lib", LIBS, ids=["ctensor", "torch"])
def test_grad(lib):
    x = lib.randn(2, 2, requires_grad=True)
    y = lib.randn(2, 2, requires_grad=True)
    z = x ** 2 + y * x + y ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z.backward(lib.ones(2, 2), create_graph=True)
    x_grad = 2 * x + y
    y_grad = x + 2 * y
    assert lib.allclose(x.grad, x_grad) and lib.allclose(y.grad, y_grad)
    grad_sum = 2 * x.grad + y.grad
    x_hv = lib.autograd.grad(outputs=[grad_sum], grad_outputs=[lib.ones(2, 2)], inputs=[x], create_graph=True)
    assert lib.allclose(x_hv[0], lib.ones(2, 2) * 5)
    assert lib.allclose(x.grad, x_grad) and lib.allclose(y.grad, y_grad)
    grad_out = lib.ones(2)
    with pytest.raises(RuntimeError) as e:
        lib.autograd.grad(outputs=[grad_sum], grad_outputs=[grad_out], inputs=[x], create_graph=True)
    assert str(e.value) == (f"Mismatch in shape: grad_output[0] has a shape of {grad_out.shape} and output[0] "
                            f"has a shape of {grad_sum.shape}.")
    x.grad = y.grad = None


@pytest.mark.parametrize("lib", LIBS, ids=["ctensor", "torch"])
def test_grad_nonleaf(lib):
    x_init = lib.randn(2, 2, requires_grad=True)
    x = x_init
    y = lib.randn(2, 2, requires_grad=True)
    grad_output = lib.ones(2, 2)

    def fn(x):
        return x ** 2 + y * x + y ** 2

    for _ in range(5):
        (grad_x,) = lib.autograd.grad(fn(x), x, grad_outputs=grad_output, create_graph=True)
        assert y.grad is None and x.grad is None
        assert lib.allclose(grad_x, 2 * x + y)
        x = x + 0.05 * grad_x
    assert fn(x).sum().item() > fn(x_init).sum().item()
    x.backward(grad_output)
    assert y.grad is not None and x_init.grad is not None


@pytest.mark.parametrize("lib", LIBS, ids=["ctensor", "torch"])
def test_grad_nonleaf_many_outputs(lib):
    x = lib.randn(4, 2, requires_grad=True)
    a, b = x.chunk(2)
    hook_called = [False]
    x.register_hook(lambda *grads: hook_called.__setitem__(0, True))
    go = lib.randn(2, 2)
    grad_a, grad_b = lib.autograd.grad((a + 2 * b), [a, b], grad_outputs=go, create_graph=True)
    assert lib.equal(grad_a, go) and lib.allclose(grad_b, go * 2)
    assert not hook_called[0] and x.grad is None


@pytest.mark.parametrize("lib", LIBS, ids=["ctensor", "torch"])
def test_grad_unreachable(lib):
    x = lib.ones(1, requires_grad=True)
    y = lib.ones(1, requires_grad=True)
    grad_x, grad_y = lib.autograd.grad(x * 2, [x, y], allow_unused=True)
    assert lib.equal(grad_x, x * 2) and grad_y is None
    z = lib.ones(1, requires_grad=True)  # no grad accumulator allocated
    grad_x, grad_z = lib.autograd.grad(x * 2, [x, z], allow_unused=True)
    assert lib.equal(grad_x, x * 2) and grad_z is None
    with pytest.raises(RuntimeError, match="Set allow_unused=True"):
        lib.autograd.grad(x * 2, [x, y], allow_unused=False)
