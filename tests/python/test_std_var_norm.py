"""std / var / std_mean / var_mean and norm / linalg.vector_norm: differential against torch 2.13.

Every signature form torch takes (correction=, the legacy unbiased= positional and keyword
forms, dim as int / tuple / list / negative, keepdim), result dtypes and shapes, values on
random and ill-conditioned data, float16 / bfloat16, integer inputs refused with torch's
message, the degrees-of-freedom warning, argument errors (type, class and text), autograd
node names and gradients (against torch and by finite differences), including the norm's
subgradient at zero."""

import math
import warnings

import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

INF = float("inf")


def pair(values, dtype="float32"):
    return (ctensor.tensor(values, dtype=getattr(ctensor, dtype)), torch.tensor(values, dtype=getattr(torch, dtype)))


def random_pair(shape, dtype="float32", seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.randn(*shape, generator=g, dtype=torch.float64).to(getattr(torch, dtype))
    return ctensor.tensor(t.tolist(), dtype=getattr(ctensor, dtype)), t


def check_same(c, t, rtol=1e-5, atol=1e-6):
    if isinstance(t, tuple):
        assert isinstance(c, tuple) and len(c) == len(t)
        for a, b in zip(c, t):
            check_same(a, b, rtol, atol)
        return
    assert repr(c.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    assert tuple(c.shape) == tuple(t.shape)
    got = torch.tensor(c.to(ctensor.float64).tolist(), dtype=torch.float64).reshape(tuple(t.shape))
    torch.testing.assert_close(got, t.double(), rtol=rtol, atol=atol, equal_nan=True)


def both(fn):
    """fn(module, x) run with (ctensor, x_ct) and (torch, x_t); returns both results or both errors."""
    def run(mod, x):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = fn(mod, x)
            except Exception as e:  # noqa: BLE001 - compared below
                r = e
        return r, [str(m.message) for m in w]
    return run


def first_line(e):
    return str(e).split("\n")[0]


# ---- std / var: signatures, values, shapes ------------------------------------------------------

CALLS = [
    "x.std()", "x.var()", "x.std(0)", "x.var(1)", "x.std(-1)", "x.var((0, 2))", "x.std([0, -1])",
    "x.std(dim=1, keepdim=True)", "x.var(1, keepdim=True)", "x.std(True)", "x.std(False)", "x.var(0, False)",
    "x.var(0, True, True)", "x.std(dim=0, unbiased=False, keepdim=True)", "x.std(unbiased=False)",
    "x.var(correction=0)", "x.var(0, correction=2)", "x.std(dim=(1,), correction=0.5, keepdim=True)",
    "x.std(correction=-1)", "x.std(())", "x.var([])", "x.std(None)", "x.std(keepdim=True)",
    "m.std(x)", "m.var(x, 1)", "m.std(x, 0, True, True)", "m.std(x, True)", "m.var(x, dim=2, correction=0)",
    "m.std_mean(x)", "m.var_mean(x, 1)", "m.std_mean(x, 0, True, True)", "m.var_mean(x, dim=(0, 1), correction=0)",
    "m.std_mean(x, False)", "m.var_mean(x, [2], keepdim=True)",
]


@pytest.mark.parametrize("call", CALLS)
def test_std_var_forms_match_torch(call):
    xc, xt = random_pair((3, 4, 5))
    rc = eval(call, {"x": xc, "m": ctensor})
    rt = eval(call, {"x": xt, "m": torch})
    assert isinstance(rc, tuple) == isinstance(rt, tuple)  # a tuple for the _mean forms
    check_same(rc, rt)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("dims", [None, 0, 1, (0, 1)])
def test_std_var_dtypes(dtype, dims):
    xc, xt = random_pair((17, 33), dtype, seed=3)
    tol = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-6, "float64": 1e-12}[dtype]
    for fn in ("std", "var"):
        check_same(getattr(xc, fn)(dims), getattr(xt, fn)(dims), rtol=tol, atol=tol)
    check_same(ctensor.var_mean(xc, dims), torch.var_mean(xt, dims), rtol=tol, atol=tol)


def test_views_and_large_reductions():
    xc, xt = random_pair((64, 300), seed=5)
    check_same(xc.t().std(0), xt.t().std(0))
    check_same(xc[:, ::3].var(1), xt[:, ::3].var(1))
    bc, bt = random_pair((100000,), seed=6)
    check_same(bc.var(), bt.var(), rtol=1e-5)


def test_ill_conditioned_float32_matches_torch():
    """1e4 + small noise: a one-pass sum of squares in float32 would lose every digit."""
    g = torch.Generator().manual_seed(1)
    t = 1e4 + 1e-2 * torch.randn(10000, generator=g)
    c = ctensor.tensor(t.tolist(), dtype=ctensor.float32)
    ref = t.double().var()
    assert abs(c.var().item() - ref.item()) <= 1e-4 * ref.item()
    check_same(c.std(), t.std(), rtol=1e-4)
    check_same(c.reshape(100, 100).var(1), t.reshape(100, 100).var(1), rtol=1e-3)


# ---- degrees of freedom ----------------------------------------------------------------------------

DOF_CALLS = ["ctensor.ones(1).std()", "ctensor.ones(1).var()", "ctensor.std_mean(ctensor.ones(1))",
             "ctensor.var_mean(ctensor.ones(1))", "ctensor.ones(3).var(correction=5)",
             "ctensor.ones(2, 3).std(1, correction=3)", "ctensor.empty(0).std()", "ctensor.empty(0, 3).var(0)",
             "ctensor.empty(0, 3).var(1)", "ctensor.tensor([1., 2.]).var(correction=2)",
             "ctensor.tensor(5.).std(correction=0)", "ctensor.ones(3).std()"]


@pytest.mark.parametrize("call", DOF_CALLS)
def test_no_degrees_of_freedom_values_and_warning(call):
    def run(mod):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = eval(call.replace("ctensor.", "mod."), {"mod": mod})
        return r, [(m.category, str(m.message), m.filename) for m in w]
    rc, wc = run(ctensor)
    rt, wt = run(torch)
    check_same(rc, rt)
    assert len(wc) == len(wt)
    for (cc, mc, fc), (ct, mt, ft) in zip(wc, wt):
        assert cc is ct is UserWarning
        # torch adds where in its C++ source the warning was raised
        assert mt.startswith(mc) and mt[len(mc):].startswith(" (Triggered internally at ")
        assert fc == ft  # attributed to the caller's code (here the eval'd string), as torch's
    if wc:
        assert "degrees of freedom is <= 0" in wc[0][1]


# ---- errors ----------------------------------------------------------------------------------------

ERROR_CALLS = [
    "x.std(5)", "x.var(-4)", "x.std((0, 0))", "x.std((1, -1))", "x.std(0.5)", "x.std('a')", "x.std(dim='a')",
    "x.std(0, 1)", "x.std(True, keepdim=True)", "x.std(0, unbiased=True, correction=1)", "x.std(unbiased=2)",
    "x.std(0, correction='a')", "x.std(unbiased=True, keepdim=True)", "x.std(0, True, False, correction=1)",
    "x.var(foo=1)", "m.std(x, unbiased=2)", "m.std_mean(x, unbiased=2)", "i.std()", "i.var(dim=5)",
    "m.var_mean(i)", "m.std_mean(i)", "b.var()", "m.tensor(5.).std(1)",
]


@pytest.mark.parametrize("call", ERROR_CALLS)
def test_errors_match_torch(call):
    def run(mod):
        env = {"m": mod, "x": mod.ones(3, 4), "i": mod.zeros(3, dtype=mod.int32), "b": mod.ones(2, dtype=mod.bool)}
        with pytest.raises(Exception) as info:
            eval(call, env)
        return info.value
    ec, et = run(ctensor), run(torch)
    assert type(ec) is type(et)
    assert first_line(ec).replace("ctensor.", "torch.") == first_line(et)


# ---- norm ------------------------------------------------------------------------------------------

NORM_CALLS = [
    "x.norm()", "x.norm(2)", "x.norm(1)", "x.norm(0)", "x.norm(float('inf'))", "x.norm(-float('inf'))",
    "x.norm(3)", "x.norm(0.5)", "x.norm(-1)", "x.norm(-2.5)", "x.norm('fro')", "x.norm(p='fro', dim=1)",
    "x.norm('fro', dim=(0, 1))", "x.norm(2, 1)", "x.norm(2, -1, True)", "x.norm(1, (0, 2))", "x.norm(p=None)",
    "x.norm(dim=[])", "x.norm(2, ())", "x.norm(2, 1, True, m.float64)", "x.norm(dtype=m.float64)",
    "x.norm(True)", "x.norm(1.5, dim=(0, 1))", "m.norm(x)", "m.norm(x, 1, 0)", "m.norm(x, p=3, dim=2, keepdim=True)",
    "m.linalg.vector_norm(x)", "m.linalg.vector_norm(x, 1, 0)", "m.linalg.vector_norm(x, dim=())",
    "m.linalg.vector_norm(x, 2, 0, True, dtype=m.float64)", "m.linalg.vector_norm(x, float('inf'), (1, 2))",
    "m.linalg.vector_norm(x, 0, -1)", "m.linalg.vector_norm(x, -1, 1)",
]


@pytest.mark.parametrize("call", NORM_CALLS)
def test_norm_forms_match_torch(call):
    xc, xt = random_pair((3, 4, 5), seed=2)
    xc[0, 0, 0] = 0.0  # a zero meets ord 0 and the negative orders
    xt[0, 0, 0] = 0.0
    check_same(eval(call, {"x": xc, "m": ctensor}), eval(call, {"x": xt, "m": torch}), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
@pytest.mark.parametrize("p", [2, 1, INF, 3])
def test_norm_dtypes(dtype, p):
    xc, xt = random_pair((20, 30), dtype, seed=4)
    tol = {"float16": 2e-3, "bfloat16": 1e-2, "float64": 1e-12}[dtype]
    check_same(xc.norm(p), xt.norm(p), rtol=tol, atol=tol)
    check_same(xc.norm(p, 1), xt.norm(p, 1), rtol=tol, atol=tol)
    check_same(xc.norm(p, dtype=ctensor.float64), xt.norm(p, dtype=torch.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("values", [[3.0, float("nan")], [1e20, 1e20], [0.0, 0.0], [-5.0]])
@pytest.mark.parametrize("p", [2, 1, 0, INF, -INF, 3, -1])
def test_norm_edge_values(values, p):
    xc, xt = pair(values)
    check_same(xc.norm(p), xt.norm(p))


NORM_ERRORS = [
    "e.norm(float('inf'))", "e.norm(-1)", "e2.norm(float('inf'), 0)", "e2.norm(-1.5, 0)", "i.norm()",
    "m.linalg.vector_norm(i)", "x.norm(dtype=m.int64)", "d.norm(dtype=m.float32)", "h.norm(dtype=m.bfloat16)",
    "x.norm(2, 5)", "x.norm(2, (0, 0))", "x.norm(2, dim=1.5)", "m.linalg.vector_norm(x, ord='fro')",
    "x.norm('abc')", "m.ones(2, 3, 4).norm('fro', dim=(0, 1, 2))", "m.ones(2, 3, 4).norm('abc')",
]


@pytest.mark.parametrize("call", NORM_ERRORS)
def test_norm_errors_match_torch(call):
    def run(mod):
        env = {"m": mod, "x": mod.ones(3, 4), "e": mod.empty(0), "e2": mod.empty(0, 3),
               "i": mod.arange(3), "d": mod.ones(3, dtype=mod.float64), "h": mod.ones(3, dtype=mod.float16)}
        with pytest.raises(Exception) as info:
            eval(call, env)
        return info.value
    ec, et = run(ctensor), run(torch)
    assert type(ec) is type(et)
    assert first_line(ec) == first_line(et)


def test_empty_norms_that_have_an_identity():
    for call in ["e.norm()", "e.norm(0)", "e.norm(1)", "e2.norm(float('inf'), 1)", "e2.norm(-1.5, 1)", "e2.norm(2, 0)"]:
        rc = eval(call, {"e": ctensor.empty(0), "e2": ctensor.empty(0, 3)})
        rt = eval(call, {"e": torch.empty(0), "e2": torch.empty(0, 3)})
        check_same(rc, rt)


def test_nuclear_norm_says_it_is_missing():
    with pytest.raises(NotImplementedError, match="nuclear norm"):
        ctensor.ones(2, 2).norm("nuc")


def test_linalg_missing_function_says_so():
    with pytest.raises(AttributeError, match="ctensor does not implement torch.linalg.svd"):
        ctensor.linalg.svd


# ---- autograd --------------------------------------------------------------------------------------

GRAD_CALLS = [
    ("x.std()", "StdBackward0"), ("x.var()", "VarBackward0"), ("x.std(1)", "StdBackward0"),
    ("x.var(0, keepdim=True)", "VarBackward0"), ("x.std((0, 2), correction=0)", "StdBackward0"),
    ("x.var(-1, correction=2.5)", "VarBackward0"),
    ("x.norm()", "LinalgVectorNormBackward0"), ("x.norm(1)", "LinalgVectorNormBackward0"),
    ("x.norm(3, 1)", "LinalgVectorNormBackward0"), ("x.norm(1.5, (0, 1))", "LinalgVectorNormBackward0"),
    ("x.norm(0.5)", "LinalgVectorNormBackward0"), ("x.norm(-1)", "LinalgVectorNormBackward0"),
    ("x.norm(float('inf'), 2)", "LinalgVectorNormBackward0"), ("x.norm(-float('inf'))", "LinalgVectorNormBackward0"),
    ("x.norm(0, 1)", "LinalgVectorNormBackward0"), ("x.norm(2, 1, True, m.float64)", "LinalgVectorNormBackward0"),
]


def weights(shape):
    n = math.prod(shape) if shape else 1
    return [(-1) ** k * (0.5 + 0.1 * k) for k in range(n)]


@pytest.mark.parametrize("call,node", GRAD_CALLS)
def test_gradients_match_torch(call, node):
    vals = torch.randn(3, 4, 5, generator=torch.Generator().manual_seed(7), dtype=torch.float64)
    xc = ctensor.tensor(vals.tolist(), dtype=ctensor.float64, requires_grad=True)
    xt = vals.clone().requires_grad_(True)
    rc, rt = eval(call, {"x": xc, "m": ctensor}), eval(call, {"x": xt, "m": torch})
    assert rt.grad_fn.name() == node
    assert type(rc.grad_fn).__name__ == node or rc.grad_fn.name() == node
    w = weights(tuple(rt.shape))
    (rc * ctensor.tensor(w, dtype=rc.dtype).reshape(tuple(rc.shape))).sum().backward()
    (rt * torch.tensor(w, dtype=rt.dtype).reshape(rt.shape)).sum().backward()
    if xt.grad is None:  # ord 0: torch's backward gives no gradient at all
        assert xc.grad is None
        return
    check_same(xc.grad, xt.grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("fn,node", [("std_mean", "StdMeanBackward0"), ("var_mean", "VarMeanBackward0")])
@pytest.mark.parametrize("use", ["first", "second", "both"])
def test_mean_forms_gradients(fn, node, use):
    vals = torch.randn(4, 6, generator=torch.Generator().manual_seed(8), dtype=torch.float64)
    xc = ctensor.tensor(vals.tolist(), dtype=ctensor.float64, requires_grad=True)
    xt = vals.clone().requires_grad_(True)
    (sc, mc), (st, mt) = getattr(ctensor, fn)(xc, 1), getattr(torch, fn)(xt, 1)
    assert st.grad_fn.name() == mt.grad_fn.name() == node
    assert sc.grad_fn.name() == mc.grad_fn.name() == node
    pick = {"first": lambda s, m: (s * 3).sum(), "second": lambda s, m: (m * 2).sum(),
            "both": lambda s, m: (s * 3 + m * 2).sum()}[use]
    pick(sc, mc).backward()
    pick(st, mt).backward()
    check_same(xc.grad, xt.grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("call", ["x.std()", "x.var(1)", "x.norm()", "x.norm(3, 0)", "x.norm(1.5)", "x.norm(0.7, 1)",
                                  "m.std_mean(x, 0)[0]", "m.var_mean(x, 1)[1]"])
def test_gradients_by_finite_differences(call):
    vals = [[0.3, -1.2, 2.0], [0.8, 1.5, -0.4]]
    x = ctensor.tensor(vals, dtype=ctensor.float64, requires_grad=True)
    r = eval(call, {"x": x, "m": ctensor})
    w = weights(tuple(r.shape))
    (r * ctensor.tensor(w, dtype=r.dtype).reshape(tuple(r.shape))).sum().backward()
    h = 1e-6
    for i in range(2):
        for j in range(3):
            def f(delta):
                v = [row[:] for row in vals]
                v[i][j] += delta
                y = eval(call, {"x": ctensor.tensor(v, dtype=ctensor.float64), "m": ctensor})
                return sum(a * b for a, b in zip(y.reshape(-1).tolist(), w))
            numeric = (f(h) - f(-h)) / (2 * h)
            assert abs(x.grad[i, j].item() - numeric) < 1e-6, (call, i, j)


@pytest.mark.parametrize("call", ["x.norm()", "x.norm(2, 1)", "x.norm(1)", "x.norm(3)", "x.norm(1.5)", "x.norm(0.5)",
                                  "x.norm(float('inf'))", "x.std()", "x.std(1)"])
def test_subgradients_at_zero_match_torch(call):
    vals = [[0.0, 0.0, 0.0], [0.0, 2.0, -1.0]]
    xc = ctensor.tensor(vals, dtype=ctensor.float64, requires_grad=True)
    xt = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
    eval(call, {"x": xc}).sum().backward()
    eval(call, {"x": xt}).sum().backward()
    check_same(xc.grad, xt.grad, rtol=1e-12, atol=1e-12)


def test_std_of_no_dof_gradient_is_nan_as_torch():
    xc = ctensor.tensor([1.5], dtype=ctensor.float64, requires_grad=True)
    xt = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xc.var().backward()
        xt.var().backward()
    check_same(xc.grad, xt.grad)
