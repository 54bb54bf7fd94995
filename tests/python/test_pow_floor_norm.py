"""pow / ** , floor_divide / //, remainder / %, fmod: differential against torch 2.13.

Every combination of operand kinds (tensors of each dtype, dimensioned and 0-dim, Python
bool/int/float scalars on either side), in-place forms, edge values (0 ** 0, negative bases
with fractional exponents, integer wrap, division by zero, signs of // and %) and gradients.
ctensor must give torch's dtype and values, or torch's exception class and message."""

import math
import operator

import pytest

import ctensor
from ctutil import ct_dtype, same_values, to_torch, torch, torch_dtype

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
# values chosen so that every op meets signs, zero and (for ints) wrap-around
VALUES = {"bool": [True, False, True], "uint8": [3, 0, 250], "int8": [-7, 0, 100], "int32": [-7, 2, 0],
          "int64": [-7, 3, -(2**62)], "float16": [-7.5, 0.0, 2.0], "bfloat16": [-7.5, 0.0, 3.0],
          "float32": [-7.5, 0.0, 0.5], "float64": [-2.0, 0.0, 1e300]}
SCALARS = [True, False, 0, 2, -3, 1000, 2.5, -0.5, 0.0]


def tensors(dtype, zero_dim=False):
    vals = VALUES[dtype][0] if zero_dim else VALUES[dtype]
    ct_t = ctensor.tensor(vals, dtype=getattr(ctensor, dtype))
    return ct_t, torch.tensor(vals, dtype=getattr(torch, dtype))


def outcome(f, *args):
    """('ok', tensor) or ('err', class name, message)."""
    try:
        return ("ok", f(*args))
    except Exception as e:  # noqa: BLE001 - the class is compared
        return ("err", type(e).__name__, str(e).split("\n")[0])


def close(c, t):
    """Same dtype, shape and values (floats to a few ulps: torch's vectorised pow is Sleef's)."""
    assert repr(c.dtype).split(".")[1] == str(t.dtype).split(".")[1], (c.dtype, t.dtype)
    assert tuple(c.shape) == tuple(t.shape)
    if not t.dtype.is_floating_point:
        assert same_values(c, t), (c.tolist(), t.tolist())
        return
    ct_t = to_torch(c).double()
    tt = t.double()
    tol = {torch.float16: 1e-3, torch.bfloat16: 1e-2, torch.float32: 1e-6, torch.float64: 1e-14}[t.dtype]
    assert torch.allclose(ct_t, tt, rtol=tol, atol=0, equal_nan=True), (c.tolist(), t.tolist())
    # signs of zeros and infinities exactly (a NaN's sign is not part of the contract)
    numbers = ~torch.isnan(tt)
    assert (torch.signbit(ct_t) == torch.signbit(tt))[numbers].all(), (c.tolist(), t.tolist())


def check_same(fc, ft, *args_pairs):
    c_args = [a[0] if isinstance(a, tuple) else a for a in args_pairs]
    t_args = [a[1] if isinstance(a, tuple) else a for a in args_pairs]
    rc, rt = outcome(fc, *c_args), outcome(ft, *t_args)
    if rt[0] == "err":
        assert rc[0] == "err", (rt, rc[1] if rc[0] == "ok" else None)
        assert rc[1:] == rt[1:]
        return
    assert rc[0] == "ok", (rc, rt)
    close(rc[1], rt[1])


OPS = {"pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod}


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("da", DTYPES)
@pytest.mark.parametrize("db", DTYPES)
@pytest.mark.parametrize("zero_dim_b", [False, True])
def test_tensor_tensor(op, da, db, zero_dim_b):
    a, b = tensors(da), tensors(db, zero_dim_b)
    check_same(OPS[op], OPS[op], a, b)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("da", DTYPES)
@pytest.mark.parametrize("s", SCALARS)
def test_tensor_scalar_both_sides(op, da, s):
    a = tensors(da)
    check_same(OPS[op], OPS[op], a, s)
    check_same(OPS[op], OPS[op], s, a)


@pytest.mark.parametrize("name", ["pow_", "floor_divide_", "remainder_", "fmod_"])
@pytest.mark.parametrize("da", DTYPES)
@pytest.mark.parametrize("other", ["int32", "float32", "bool", 2, -1, 2.5, True])
def test_in_place(name, da, other):
    a_c, a_t = tensors(da)
    before = a_c.tolist()
    o = tensors(other) if isinstance(other, str) else (other, other)
    rc = outcome(lambda: getattr(a_c, name)(o[0]))
    rt = outcome(lambda: getattr(a_t, name)(o[1]))
    assert rc[0] == rt[0], (rc, rt)
    if rt[0] == "err":
        assert rc[1:] == rt[1:]
        # a refused in-place op leaves self alone (torch's integer division kernels raise
        # "ZeroDivisionError" part-way, having written some elements: ctensor checks first)
        assert a_c.tolist() == before
    else:
        assert rc[1] is a_c
        close(a_c, a_t)


@pytest.mark.parametrize("iop", ["__ipow__", "__ifloordiv__", "__imod__"])
def test_augmented_assignment_is_in_place(iop):
    x = ctensor.tensor([5.0, -7.0])
    version = x._version
    y = getattr(x, iop)(2) if hasattr(x, iop) else None
    if y is None:  # the slot, not a dict method
        y = {"__ipow__": operator.ipow, "__ifloordiv__": operator.ifloordiv, "__imod__": operator.imod}[iop](x, 2)
    assert y is x and x._version == version + 1


def test_edge_values():
    T = torch.tensor
    C = ctensor.tensor
    cases = [
        (lambda m: m.tensor([0.0, 0.0, -0.0]) ** m.tensor([0.0, -1.0, -1.0])),
        (lambda m: m.tensor([0, 0]) ** 0),
        (lambda m: m.tensor([-8.0, -2.0]) ** (1 / 3)),
        (lambda m: m.tensor([-8.0, -2.0]) ** 0.5),
        (lambda m: m.tensor([3], dtype=m.int8) ** 10),
        (lambda m: m.tensor([2**62]) ** 2),
        (lambda m: m.tensor([1, -1, 2, -2]) ** m.tensor([-3, -3, -1, -2])),
        (lambda m: m.tensor([-7, 7, -7, 7]) // m.tensor([2, -2, -2, 2])),
        (lambda m: m.tensor([-7, 7, -7, 7]) % m.tensor([2, -2, -2, 2])),
        (lambda m: m.fmod(m.tensor([-7, 7, -7, 7]), m.tensor([2, -2, -2, 2]))),
        (lambda m: m.tensor([-7.5, 7.5, -7.5, 7.5]) % m.tensor([2.0, -2.0, -2.0, 2.0])),
        (lambda m: m.tensor([-7.5, 7.5, -7.5, 7.5]) // m.tensor([2.0, -2.0, -2.0, 2.0])),
        (lambda m: m.tensor([1.0, -1.0, 0.0, -0.0]) // 0.0),
        (lambda m: m.tensor([1.0, -1.0, 0.0]) % 0.0),
        (lambda m: m.tensor([5.0]) // 0.1),
        (lambda m: m.tensor([-0.0, 0.0]) // 1),
        (lambda m: m.tensor([-128], dtype=m.int8) // m.tensor([-1], dtype=m.int8)),
        (lambda m: m.tensor([-(2**63)]) // m.tensor([-1])),
        (lambda m: m.tensor([-(2**63)]) % m.tensor([-1])),
        (lambda m: m.tensor([1, 2]) // 0),
        (lambda m: m.tensor([1, 2]) % m.tensor(0)),
        (lambda m: 7 // m.tensor([1, 0])),
        (lambda m: m.fmod(m.tensor([1, 2]), 0)),
        (lambda m: m.tensor([2, 3], dtype=m.int8) ** 200),
        (lambda m: m.tensor([2, 3]) ** -2),
        (lambda m: m.tensor([2.0], dtype=m.float16) ** 0.1),
        (lambda m: m.tensor([2.0], dtype=m.bfloat16) ** 0.1),
        (lambda m: m.tensor([4.0, 0.0]) ** -0.5),
        (lambda m: m.tensor([True, False]) ** m.tensor([True, True])),
        (lambda m: m.tensor([True, False]) // m.tensor([True, True])),
        (lambda m: m.fmod(m.tensor([True]), m.tensor([True]))),
        (lambda m: m.pow(2, m.tensor([3, 4]))),
        (lambda m: m.pow(2.5, m.tensor([3, 4]))),
        (lambda m: m.remainder(2.5, m.tensor([3, 4]))),
        (lambda m: m.floor_divide(m.tensor([7, 8]), 2)),
        (lambda m: m.floor_divide(2, m.tensor([1.0, -3.0]))),
        (lambda m: m.floor_divide(7, m.tensor([2, -3]))),
        (lambda m: m.tensor([1.0, 2.0]).pow(m.tensor(2.0, dtype=m.float64))),
        (lambda m: m.tensor(2.0) ** m.tensor([1, 2], dtype=m.int32)),
    ]
    for i, f in enumerate(cases):
        rc, rt = outcome(f, ctensor), outcome(f, torch)
        assert rc[0] == rt[0], (i, rc, rt)
        if rt[0] == "err":
            assert rc[1:] == rt[1:], i
        else:
            close(rc[1], rt[1])
    del T, C


@pytest.mark.parametrize("bad", [
    lambda m: m.pow(2, 3),
    lambda m: m.pow(m.tensor([1.0]), "x"),
    lambda m: m.tensor([1.0]).pow(None),
    lambda m: m.fmod(2.0, m.tensor([1.0])),
    lambda m: m.tensor([1.0]) ** "x",
    lambda m: pow(m.tensor([1.0]), 2, 3),
    lambda m: m.tensor([1.0]) % None,
    lambda m: m.tensor([1.0]).floor_divide("a"),
    lambda m: m.tensor([1.0]).remainder_("a"),
    lambda m: m.tensor([1.0]).fmod(None),
    lambda m: m.tensor([1.0]).pow_("a"),
    lambda m: m.fmod(m.tensor([1.0]), "a"),
    lambda m: m.remainder(m.tensor([1.0]), "a"),
    lambda m: m.remainder("a", m.tensor([1.0])),
    lambda m: m.floor_divide(m.tensor([1.0]), "a"),
])
def test_argument_errors(bad):
    rc, rt = outcome(bad, ctensor), outcome(bad, torch)
    assert rt[0] == "err" and rc[0] == "err", (rc, rt)
    assert rc[1] == rt[1]
    # Python's own "unsupported operand" message names the type as ctensor.Tensor (its tp_name)
    assert rc[2].replace("'ctensor.Tensor'", "'Tensor'") == rt[2]


def grads(m, f, *values):
    xs = [m.tensor(v, dtype=m.float64).requires_grad_() for v in values]
    y = f(m, *xs)
    (y * m.tensor([1.0, 2.0, 3.0], dtype=m.float64)).sum().backward()
    return y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__, [x.grad for x in xs]


@pytest.mark.parametrize("f", [
    lambda m, x: x ** 2,
    lambda m, x: x ** 0,
    lambda m, x: x ** -1.5,
    lambda m, x: x ** 0.5,
    lambda m, x, y: x ** y,
    lambda m, y: 2 ** y,
    lambda m, y: 0.0 ** y,
    lambda m, x: x % 2,
    lambda m, x: m.fmod(x, -2.5),
    lambda m, x, y: x % y,
    lambda m, x, y: m.fmod(x, y),
    lambda m, x: x.clone().pow_(3),
    lambda m, x, y: x.clone().pow_(y),
    lambda m, x, y: x.clone().remainder_(y),
])
def test_gradients(f):
    nargs = f.__code__.co_argcount - 1
    values = [[3.0, 0.0, 1.5], [2.0, -1.0, 0.0]][:nargs]
    name_c, g_c = grads(ctensor, f, *values)
    name_t, g_t = grads(torch, f, *values)
    assert name_c == name_t
    for gc, gt in zip(g_c, g_t):
        assert (gc is None) == (gt is None)
        if gt is not None:
            assert torch.allclose(to_torch(gc), gt, rtol=1e-12, atol=0, equal_nan=True), (gc.tolist(), gt.tolist())


def test_floor_divide_has_no_derivative():
    for m in (ctensor, torch):
        x = m.tensor([3.0, 4.0]).requires_grad_()
        y = x // 2
        assert y.requires_grad
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
            y.sum().backward()


def test_operators_return_not_implemented_for_strangers():
    class Other:
        def __rpow__(self, base):
            return "rpow"

        def __rfloordiv__(self, a):
            return "rfloordiv"

        def __rmod__(self, a):
            return "rmod"

    x = ctensor.tensor([1.0])
    assert x ** Other() == "rpow" and x // Other() == "rfloordiv" and x % Other() == "rmod"


def test_numpy_scalars_count_as_python_numbers():
    np = pytest.importorskip("numpy")
    for s in (np.int64(3), np.float32(2.5), np.bool_(True)):
        for f in (operator.pow, operator.floordiv, operator.mod):
            check_same(f, f, tensors("int32"), s)
    assert math.isnan(float(ctensor.tensor(-8.0) ** np.float64(1 / 3)))


# ---- linspace, eye -------------------------------------------------------------------------------

@pytest.mark.parametrize("steps", [0, 1, 2, 3, 5, 7, 100])
@pytest.mark.parametrize("dtype", [None, "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32",
                                   "float64", "bool"])
@pytest.mark.parametrize("bounds", [(0, 1), (-1, 10), (3, -2.5), (0.1, 0.7), (5, 5)])
def test_linspace(steps, dtype, bounds):
    kw_c = {} if dtype is None else {"dtype": getattr(ctensor, dtype)}
    kw_t = {} if dtype is None else {"dtype": getattr(torch, dtype)}
    if dtype == "uint8" and min(bounds) < 0:
        return  # torch's uint8 cast of a negative bound is undefined behaviour in C++
    rc = outcome(lambda: ctensor.linspace(*bounds, steps, **kw_c))
    rt = outcome(lambda: torch.linspace(*bounds, steps, **kw_t))
    assert rc[0] == rt[0], (rc, rt)
    if rt[0] == "err":
        assert rc[1:] == rt[1:]
    else:
        assert same_values(rc[1], rt[1]) and repr(rc[1].dtype)[8:] == str(rt[1].dtype)[6:], (rc, rt)


@pytest.mark.parametrize("call", [
    lambda m: m.linspace(0, 1, -1),
    lambda m: m.linspace(0, 1),
    lambda m: m.linspace(0, 1, 2.5),
    lambda m: m.linspace(0, 1, True),
    lambda m: m.linspace("a", 1, 3),
    lambda m: m.linspace(0, 1, 3, m.float64),
    lambda m: m.linspace(m.tensor(0.0), m.tensor(2.0), 3),
    lambda m: m.linspace(0, 1, steps=4, dtype=m.float64, requires_grad=True),
    lambda m: m.linspace(0, 1, 3, dtype=m.int32, requires_grad=True),
    lambda m: m.eye(3),
    lambda m: m.eye(2, 3, dtype=m.bool),
    lambda m: m.eye(3, 2, dtype=m.int32),
    lambda m: m.eye(0),
    lambda m: m.eye(0, 3),
    lambda m: m.eye(-1),
    lambda m: m.eye(2, -1),
    lambda m: m.eye(2.5),
    lambda m: m.eye(True),
    lambda m: m.eye(2, 2.5),
    lambda m: m.eye(2, requires_grad=True),
    lambda m: m.eye(2, dtype=m.int64, requires_grad=True),
])
def test_linspace_eye_calls(call):
    rc, rt = outcome(call, ctensor), outcome(call, torch)
    assert rc[0] == rt[0], (rc, rt)
    if rt[0] == "err":
        assert rc[1:] == (rt[1], rt[2].replace("torch.", "ctensor."))
    else:
        c, t = rc[1], rt[1]
        assert same_values(c, t) and tuple(c.shape) == tuple(t.shape)
        assert repr(c.dtype)[8:] == str(t.dtype)[6:] and c.requires_grad == t.requires_grad and c.is_leaf
