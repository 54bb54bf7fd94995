"""Type promotion and Python-scalar rules of the operators, against torch 2.13: every dtype
pair (dimensioned/dimensioned, dimensioned/0-dim, 0-dim/dimensioned) and every dtype with
every kind of Python scalar (bool, small/negative/wrapping/huge int, float, NumPy scalars), on
both sides, out of place and in place.  Each case compares the repr (values and dtype),
strides and the exception class and message (see test_compute.normalized)."""

import operator

import numpy as np
import pytest

import ctensor
from ctutil import CT_DTYPES, torch
from test_compute import normalized

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")

NAMES = [repr(d).split(".")[1] for d in CT_DTYPES]
BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}
IN_PLACE = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv}
SCALARS = [True, False, 1, 0, -1, 3, 100, 1000, -300, 2**40, 2**63 - 1, 2**63, 2.5, -0.5, 1e10,
           float("inf"), np.float64(2.5), np.float32(0.25), np.int64(7), np.int8(-2), np.bool_(True)]


def make(lib, name, shape):
    """[0, 1, 3, 7] (or [2, 1, 5, 3] for `alt`) converted to dtype `name`, with `shape`."""
    vals = [2.0, 1.0, 5.0, 3.0] if shape == "alt" else [0.0, 1.0, 3.0, 7.0]
    t = lib.tensor(vals).to(getattr(lib, name))
    if shape == "0d":
        return t[2]
    if shape == "t":
        return t.reshape(2, 2).t()
    return t.reshape(2, 2)


def run(fn, *args):
    try:
        r = fn(*args)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return ("raise", type(e).__name__, str(e).split("\n")[0])
    if r is NotImplemented:
        return ("NotImplemented",)
    if isinstance(r, tuple):  # return_types.max: (values, indices)
        return (repr(r).replace("ctensor.", "torch."),) + tuple(t.stride() for t in r)
    return (repr(r).replace("ctensor.", "torch."), r.stride())


def mismatches(cases):
    bad = []
    for label, f in cases:
        th, ct = run(f, torch), run(f, ctensor)
        if normalized(ct, th) != th:
            bad.append(f"{label}\n   torch:   {th}\n   ctensor: {ct}")
    return bad


@pytest.mark.parametrize("a", NAMES)
def test_tensor_tensor_promotion(a):
    cases = []
    for b in NAMES:
        for sa, sb in [("2d", "alt"), ("2d", "0d"), ("0d", "alt"), ("t", "alt")]:
            for sym, op in BINARY.items():
                cases.append((f"{a}[{sa}] {sym} {b}[{sb}]",
                              lambda lib, a=a, b=b, sa=sa, sb=sb, op=op: op(make(lib, a, sa), make(lib, b, sb))))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])


@pytest.mark.parametrize("a", NAMES)
def test_tensor_scalar_promotion_both_sides(a):
    cases = []
    for s in SCALARS:
        for shape in ("2d", "0d"):
            for sym, op in BINARY.items():
                cases.append((f"{a}[{shape}] {sym} {s!r}",
                              lambda lib, a=a, s=s, shape=shape, op=op: op(make(lib, a, shape), s)))
                if not isinstance(s, np.generic):  # a NumPy scalar on the left is NumPy's business
                    cases.append((f"{s!r} {sym} {a}[{shape}]",
                                  lambda lib, a=a, s=s, shape=shape, op=op: op(s, make(lib, a, shape))))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])


def in_place(op, a, other_fn):
    def f(lib):
        x = make(lib, a, "2d")
        before = x._version
        ident = id(x)
        y = op(x, other_fn(lib))
        assert y is x and id(y) == ident and x._version == before + 1
        return x
    return f


@pytest.mark.parametrize("a", NAMES)
def test_in_place_promotion(a):
    cases = []
    for sym, op in IN_PLACE.items():
        for b in NAMES:
            for sb in ("alt", "0d"):
                cases.append((f"{a} {sym} {b}[{sb}]", in_place(op, a, lambda lib, b=b, sb=sb: make(lib, b, sb))))
        for s in SCALARS:
            cases.append((f"{a} {sym} {s!r}", in_place(op, a, lambda lib, s=s: s)))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])


@pytest.mark.parametrize("a", NAMES)
def test_methods_agree_with_operators(a):
    """x.add(s) is x + s, x.eq(s) is x == s, ... for every scalar kind (and torch agrees)."""
    pairs = [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("div", operator.truediv),
             ("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
             ("gt", operator.gt), ("ge", operator.ge)]
    cases = []
    for s in SCALARS + ["tensor"]:
        for name, op in pairs:
            def f(lib, s=s, name=name, op=op):
                x = make(lib, a, "2d")
                other = make(lib, "int16", "alt") if isinstance(s, str) else s
                m, o = run(lambda: getattr(x, name)(other)), run(lambda: op(x, other))
                if m != o and not (m[0] == o[0] == "raise"):
                    raise AssertionError(f"method {m} != operator {o}")
                return getattr(x, name)(other)
            cases.append((f"{a}.{name}({s!r})", f))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])


def reduction_input(lib, name, layout):
    """Small integer-valued 3x4x2 data (exact in every dtype), contiguous or permuted."""
    t = lib.tensor([float(i * 7 % 11 - 3) for i in range(24)]).reshape(3, 4, 2).to(getattr(lib, name))
    return t.permute(2, 0, 1) if layout == "permuted" else t


@pytest.mark.parametrize("name", NAMES)
def test_reductions_over_every_dtype_dim_and_layout(name):
    ops = [("sum", lambda t, d, k: t.sum(d, k)), ("mean", lambda t, d, k: t.mean(d, k)),
           ("prod", lambda t, d, k: t.prod(d, k) if isinstance(d, int) else t.prod()),
           ("amax", lambda t, d, k: t.amax(d if d is not None else (), k)),
           ("amin", lambda t, d, k: t.amin(d if d is not None else (), k)),
           ("argmax", lambda t, d, k: t.argmax(d if not isinstance(d, tuple) else None, k)),
           ("argmin", lambda t, d, k: t.argmin(d if not isinstance(d, tuple) else None, k)),
           ("max", lambda t, d, k: t.max(d, k) if isinstance(d, int) else t.max()),
           ("min", lambda t, d, k: t.min(d, k) if isinstance(d, int) else t.min()),
           ("sum_dtype", lambda t, d, k: t.sum(d, k, dtype=t.dtype))]
    cases = []
    for layout in ("contiguous", "permuted"):
        for d in (None, 0, 1, -1, (0, 2), (1, 0, 2)):
            for k in (False, True):
                for opname, op in ops:
                    def case(lib, op=op, d=d, k=k, layout=layout):
                        return op(reduction_input(lib, name, layout), d, k)
                    cases.append((f"{name}[{layout}].{opname}({d}, {k})", case))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])


UNARY = ("neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu")


@pytest.mark.parametrize("name", NAMES)
def test_unary_math_over_every_dtype_out_of_place_and_in_place(name):
    def data(lib):
        return lib.tensor([float(v) for v in (-3, -1, 0, 1, 2, 7)]).reshape(2, 3).t().to(getattr(lib, name))

    def in_place(op):
        def f(lib):
            x = data(lib)
            before = x._version
            assert getattr(x, op + "_")() is x and x._version == before + 1
            return x
        return f

    cases = []
    for op in UNARY:
        cases.append((f"{name}.{op}()", lambda lib, op=op: getattr(data(lib), op)()))
        cases.append((f"torch.{op}({name})", lambda lib, op=op: getattr(lib, op)(data(lib))))
        cases.append((f"{name}.{op}_()", in_place(op)))
    bad = mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)}:\n" + "\n".join(bad[:20])
