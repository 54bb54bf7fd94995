"""Complex arithmetic (issue #19, second part): + - * / with tensors and Python complex scalars,
neg, abs, ==/!=, equal/allclose, sum/mean/prod, matmul/mm/bmm/mv/dot/vdot, and torch's
refusals of the ops it does not define for complex -- differential against torch 2.13
(values bit for bit where torch's rounding is reproduced, dtypes, shapes, strides, messages)."""

import numpy as np
import pytest
import torch

import ctensor as ct

CDT = ["complex64", "complex128"]


def rand_complex(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def pair(arr):
    return ct.tensor(arr), torch.from_numpy(np.ascontiguousarray(arr))


def dname(d):
    return str(d).split(".")[1]


def same(a, b, exact=True, rtol=None):
    """a (ctensor) equals b (torch): shape, dtype, strides, and values (bitwise when exact)."""
    assert tuple(a.shape) == tuple(b.shape)
    assert dname(a.dtype) == dname(b.dtype), (a.dtype, b.dtype)
    assert tuple(a.stride()) == tuple(b.stride()), (a.stride(), b.stride())
    a, b = a.resolve_conj(), b.resolve_conj()
    x, y = np.asarray(a.tolist() if a.dim() == 0 else a.numpy()), b.numpy()
    if exact:
        np.testing.assert_array_equal(x, y)
    else:
        np.testing.assert_allclose(x, y, rtol=rtol or (1e-5 if y.dtype in (np.complex64, np.float32) else 1e-12),
                                   atol=1e-6)


# ---- elementwise ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", CDT)
@pytest.mark.parametrize("n", [1, 7, 64, 1003, 4096])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_tensor_tensor_bitwise(dt, n, op):
    a, ta = pair(rand_complex(n, dt, 1))
    b, tb = pair(rand_complex(n, dt, 2))
    # torch's vectorised mul rounds each product ((ac - bd), no FMA), as ctensor; the last
    # n % 16 (complex64) or n % 8 (complex128) elements go through its scalar loop, where the
    # compiler fused some products: those may differ in the last bit.
    tail = n % (16 if dt == "complex64" else 8)
    exact = op in ("add", "sub") or tail == 0
    same(getattr(ct, op)(a, b), getattr(torch, op)(ta, tb), exact=exact)
    if not exact:
        same(getattr(ct, op)(a[:n - tail], b[:n - tail]), getattr(torch, op)(ta[:n - tail], tb[:n - tail]))


@pytest.mark.parametrize("dt", CDT)
def test_strided_operands_bitwise(dt):
    # neither unit nor zero strides: torch's scalar loop, whose products ctensor rounds alike
    x, tx = pair(rand_complex(2 * 301, dt, 21))
    y, ty = pair(rand_complex(3 * 301, dt, 22))
    for op in ("add", "sub", "mul", "div"):
        same(getattr(ct, op)(x[::2], y[::3]), getattr(torch, op)(tx[::2], ty[::3]))


@pytest.mark.parametrize("dt", CDT)
def test_division_special_values(dt):
    vals = [0, 1, -1, 1j, -2.5j, 1e30 + 1e-30j, 1e-30 + 1e30j, 3 + 4j, float("inf"), complex(0, float("inf")),
            float("nan"), complex(1, float("nan")), 0j]
    x = np.array([complex(p) for p in vals for _ in vals], dtype=dt)
    y = np.array([complex(q) for _ in vals for q in vals], dtype=dt)
    (a, ta), (b, tb) = pair(x), pair(y)
    r, tr = (a / b).numpy(), (ta / tb).numpy()
    np.testing.assert_array_equal(r, tr)  # NaNs compare equal here


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_non_contiguous_and_broadcast(op):
    x = rand_complex((6, 5), "complex64", 3)
    y = rand_complex((5,), "complex64", 4)
    a, ta = pair(x)
    b, tb = pair(y)
    # torch's strided loops are scalar code in which the compiler fused products (mul's ac - bd
    # as fma(a, c, -bd)); ctensor rounds each product, as torch's vectorised loops: 1 ulp apart
    exact = op in ("add", "sub")
    same(getattr(ct, op)(a.t(), a.t()), getattr(torch, op)(ta.t(), ta.t()), exact)
    same(getattr(ct, op)(a[::2, 1:], b[1:]), getattr(torch, op)(ta[::2, 1:], tb[1:]), exact)
    same(getattr(ct, op)(b, a), getattr(torch, op)(tb, ta), exact)
    same(getattr(ct, op)(a.t(), b[:, None]), getattr(torch, op)(ta.t(), tb[:, None]), exact)


SCALARS = [1j, 1 + 2j, -0.5 - 3j, 2.5, 3, True]


@pytest.mark.parametrize("s", SCALARS)
@pytest.mark.parametrize("dt", ["complex64", "complex128", "float32", "float64", "int32", "int64", "bool"])
def test_operators_with_python_scalars(s, dt):
    if dt == "bool":
        x = np.array([True, False, True])
    elif dt.startswith("int"):
        x = np.arange(-3, 4).astype(dt)
    elif dt.startswith("float"):
        x = np.linspace(-2, 3, 9).astype(dt)
    else:
        x = rand_complex(9, dt, 5)
    a, ta = pair(x)
    if not isinstance(s, complex) and not dt.startswith("complex"):
        return  # real with real: other tests
    cases = [lambda u: u + s, lambda u: s + u, lambda u: u * s, lambda u: s * u, lambda u: u / s, lambda u: u - s]
    if dt != "bool":
        cases.append(lambda u: s - u)
    if not (dt.startswith("int") or dt == "bool") or isinstance(s, complex):
        cases.append(lambda u: s / (u + 1 if dt != "bool" else u))
    for f in cases:
        try:
            ref = f(ta)
        except RuntimeError as e:
            with pytest.raises(RuntimeError, match=str(e).splitlines()[0][:40]):
                f(a)
            continue
        got = f(a)
        exact = ref.dtype.is_complex and not (ref.dtype == torch.complex64 and x.dtype == np.float64)
        same(got, ref, exact=False) if not exact else same(got, ref, exact=False, rtol=1e-6)


@pytest.mark.parametrize("dt,s,want", [("int32", 1j, "complex64"), ("int64", 2j, "complex64"),
                                      ("bool", 1j, "complex64"), ("float32", 1j, "complex64"),
                                      ("float64", 1j, "complex128"), ("complex64", 2.5, "complex64"),
                                      ("complex128", 1j, "complex128"), ("complex64", 1j, "complex64")])
def test_scalar_promotion(dt, s, want):
    a = ct.ones(3, dtype=getattr(ct, dt))
    assert dname((a * s).dtype) == want == dname((torch.ones(3, dtype=getattr(torch, dt)) * s).dtype)
    assert dname(ct.result_type(a, s)) == want


def test_tensor_promotion():
    f32, f64 = ct.ones(2), ct.ones(2, dtype=ct.float64)
    c64, c128 = ct.ones(2, dtype=ct.complex64), ct.ones(2, dtype=ct.complex128)
    assert (f32 * c64).dtype is ct.complex64
    assert (f64 * c64).dtype is ct.complex128
    assert (c64 * ct.tensor(2.0, dtype=ct.float64)).dtype is ct.complex64  # 0-dim: category only
    assert (c64 * ct.tensor(2j, dtype=ct.complex128)).dtype is ct.complex64
    assert (f32 * ct.tensor(2j, dtype=ct.complex128)).dtype is ct.complex64
    assert (ct.ones(2, dtype=ct.int64) * ct.tensor(2j, dtype=ct.complex128)).dtype is ct.complex128
    assert (c128 + f32).dtype is ct.complex128


def test_default_dtype_float64_gives_complex128():
    old = ct.get_default_dtype()
    ct.set_default_dtype(ct.float64)
    try:
        assert (ct.ones(2, dtype=ct.int32) * 1j).dtype is ct.complex128
        assert (ct.ones(2, dtype=ct.float32) * 1j).dtype is ct.complex64
    finally:
        ct.set_default_dtype(old)


def test_scalar_value_converted_to_result_dtype():
    # 1/3 + 1/7 j rounded to complex64 once, as torch's wrapped number
    x = rand_complex(32, "complex64", 6)  # no scalar tail in torch's vectorised loop
    a, ta = pair(x)
    z = 1 / 3 + 1j / 7
    for f in (lambda u: u * z, lambda u: u / z, lambda u: u + z, lambda u: z - u, lambda u: z / u):
        same(f(a), f(ta), exact=False, rtol=2e-6)
    same(a * z, ta * z)
    same(a / z, ta / z)
    same(a + z, ta + z)


def test_in_place_and_out():
    x = rand_complex((4, 3), "complex64", 7)
    a, ta = pair(x)
    b, tb = pair(rand_complex((3,), "complex64", 8))
    for op in ("add_", "sub_", "mul_", "div_"):
        v = a._version
        getattr(a, op)(b)
        getattr(ta, op)(tb)
        assert a._version == v + 1
        same(a, ta, exact=False)
        getattr(a, op)(2 - 1j)
        getattr(ta, op)(2 - 1j)
        same(a, ta, exact=False)
    a += 1j
    ta += 1j
    a *= 0.5
    ta *= 0.5
    same(a, ta, exact=False)
    # alpha
    same(ct.add(a, b, alpha=2j), torch.add(ta, tb, alpha=2j), exact=False)
    same(ct.sub(a, b, alpha=0.5), torch.sub(ta, tb, alpha=0.5), exact=False)
    with pytest.raises(RuntimeError, match="For non-complex input tensors, argument alpha must not be a complex"):
        ct.add(ct.ones(2), ct.ones(2), alpha=1j)
    # out=
    out, tout = ct.empty((4, 3), dtype=ct.complex64), torch.empty((4, 3), dtype=torch.complex64)
    ct.mul(a, b, out=out)
    torch.mul(ta, tb, out=tout)
    same(out, tout, exact=False)
    out128 = ct.empty((4, 3), dtype=ct.complex128)
    ct.div(a, b, out=out128)
    same(out128, torch.div(ta, tb).to(torch.complex128), exact=False, rtol=1e-6)


@pytest.mark.parametrize("f", [lambda x: x.add_(1j), lambda x: x.mul_(ct.ones(3, dtype=ct.complex64)),
                               lambda x: ct.mul(ct.ones(3, dtype=ct.complex64), 1, out=x)])
def test_real_self_cannot_hold_complex(f):
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Float"):
        f(ct.ones(3))
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Long"):
        ct.ones(3, dtype=ct.int64).mul_(1j)


def test_neg_abs():
    x = rand_complex((5, 4), "complex128", 9)
    x[0, 0] = complex(float("inf"), 1)
    x[0, 1] = complex(3e300, 4e300)  # hypot without overflow
    a, ta = pair(x)
    same(-a, -ta)
    same(a.t().neg(), ta.t().neg())
    same(abs(a), abs(ta))
    same(a.t().abs(), ta.t().abs())
    b, tb = pair(rand_complex(1000, "complex64", 10))
    same(b.abs(), tb.abs())
    c = b.clone()
    c.neg_()
    same(c, -tb)
    with pytest.raises(RuntimeError, match="In-place abs is not supported for complex tensors."):
        b.abs_()


@pytest.mark.parametrize("out_dtype", ["complex64", "complex128", "float32", "float64", "int64"])
def test_abs_out_of_a_complex_input(out_dtype):
    x, tx = pair(np.array([3 + 4j, 1j, -2], dtype=np.complex64))
    o, to = ct.empty(3, dtype=getattr(ct, out_dtype)), torch.empty(3, dtype=getattr(torch, out_dtype))
    try:
        torch.abs(tx, out=to)
    except RuntimeError as e:
        with pytest.raises(RuntimeError, match=str(e)):
            ct.abs(x, out=o)
        return
    ct.abs(x, out=o)
    same(o, to)


def test_eq_ne_equal_allclose():
    x = rand_complex(8, "complex64", 11)
    y = x.copy()
    y[3] += 1e-3j
    (a, ta), (b, tb) = pair(x), pair(y)
    same(a == b, ta == tb)
    same(a != b, ta != tb)
    same(a == complex(x[2]), ta == complex(x[2]))
    same(a != complex(x[2]), ta != complex(x[2]))
    same(ct.ones(3) == 1 + 0j, torch.ones(3) == 1 + 0j)
    assert ct.equal(a, a) and not ct.equal(a, b)
    assert ct.allclose(a, b, atol=1e-2) == torch.allclose(ta, tb, atol=1e-2)
    assert ct.allclose(a, b) == torch.allclose(ta, tb)
    assert ct.allclose(a, b, rtol=1e-3) == torch.allclose(ta, tb, rtol=1e-3)


@pytest.mark.parametrize("fn,msg,torch_words", [
    (lambda m, c: c < c, '"lt_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c <= 1, '"le_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c > 1j, '"gt_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c >= c, '"ge_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: m.maximum(c, c), "maximum not implemented for complex tensors.", True),
    (lambda m, c: m.minimum(c, c), "minimum not implemented for complex tensors.", True),
    (lambda m, c: c.amax(), '"max_values_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c.max(), '"max_all" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c.min(), '"min_all" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c.max(0), "max\\(\\): does not support complex input", True),
    (lambda m, c: c.argmax(), "argmax\\(\\): does not support complex input", True),
    (lambda m, c: c.relu(), "clamp is not supported for complex types", True),
    (lambda m, c: c // c, '"div_floor_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c // 1j, '"div_floor_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c % c, '"remainder_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: m.fmod(c, 2.0), '"fmod_cpu" not implemented for \'ComplexFloat\'', True),
    (lambda m, c: c.sort(), "Sort does not support complex dtypes on CPU", True),
    (lambda m, c: m.topk(c, 1), "topk does not support complex dtypes on CPU", True),
])
def test_refusals(fn, msg, torch_words):
    with pytest.raises((RuntimeError, NotImplementedError), match=msg):
        fn(ct, ct.tensor([1 + 2j, 3 - 1j]))
    if torch_words:
        with pytest.raises((RuntimeError, NotImplementedError), match=msg):
            fn(torch, torch.tensor([1 + 2j, 3 - 1j]))


def test_numpy_complex_scalars_as_torch():
    # numpy.complex128 is a Python complex; numpy.complex64 is taken by its real part (NumPy
    # warns), as torch 2.13 does
    x, tx = pair(np.array([1 + 2j, 3 - 1j], dtype=np.complex64))
    same(x * np.complex128(1 + 2j), tx * np.complex128(1 + 2j))
    with pytest.warns(Warning):
        r = x * np.complex64(2 + 1j)
    with pytest.warns(Warning):
        same(r, tx * np.complex64(2 + 1j))


def test_autograd_of_a_real_leaf_through_a_complex_scalar():
    # complex autograd itself: test_complex_autograd.py
    x = ct.ones(3, requires_grad=True)
    y = x * 1j
    assert y.dtype is ct.complex64 and y.grad_fn.name() == "MulBackward0"
    assert ct.ones(2, dtype=ct.complex64).requires_grad_().requires_grad
    with ct.no_grad():
        assert (x * 1j).dtype is ct.complex64 and not (x * 1j).requires_grad


# ---- reductions ----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", CDT)
@pytest.mark.parametrize("op", ["sum", "mean", "prod"])
def test_reductions(dt, op):
    x = rand_complex((6, 5, 4), dt, 12) * (0.5 if op == "prod" else 1)
    a, ta = pair(x)
    same(getattr(a, op)(), getattr(ta, op)(), exact=False)
    for d in ([0], [1], [2], [0, 2], [-1]):
        dd = d if op != "prod" else d[0]
        if op == "prod" and len(d) > 1:
            continue
        for keep in (False, True):
            same(getattr(a, op)(dd, keepdim=keep), getattr(ta, op)(dd, keepdim=keep), exact=False)
    same(getattr(a.transpose(0, 2), op)(1), getattr(ta.transpose(0, 2), op)(1), exact=False)


def test_small_reductions_bitwise():
    x = np.array([1 + 2j, 3 - 1j, 0.5 + 0.25j], dtype=np.complex64)
    a, ta = pair(x)
    same(a.sum(), ta.sum())
    same(a.mean(), ta.mean())
    same(a.prod(), ta.prod())
    same(ct.ones(3, dtype=ct.int64).sum(dtype=ct.complex64), torch.ones(3, dtype=torch.int64).sum(dtype=torch.complex64))
    e, te = ct.empty((0, 3), dtype=ct.complex64), torch.empty((0, 3), dtype=torch.complex64)
    same(e.sum(0), te.sum(0))
    same(e.prod(0), te.prod(0))


# ---- products ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", CDT)
def test_matmul_family(dt):
    A, tA = pair(rand_complex((5, 7), dt, 13))
    B, tB = pair(rand_complex((7, 3), dt, 14))
    v, tv = pair(rand_complex(7, dt, 15))
    w, tw = pair(rand_complex(5, dt, 16))
    same(A @ B, tA @ tB, exact=False)
    same(ct.mm(A, B), torch.mm(tA, tB), exact=False)
    same(A.t().t() @ B.t().t(), tA @ tB, exact=False)
    same(B.t() @ A.t(), tB.t() @ tA.t(), exact=False)  # transposed operands, no copies
    same(A[:, ::2] @ B[::2], tA[:, ::2] @ tB[::2], exact=False)  # strided: packed
    same(ct.mv(A, v), torch.mv(tA, tv), exact=False)
    same(A @ v, tA @ tv, exact=False)
    same(w @ A, tw @ tA, exact=False)
    same(ct.dot(v, v), torch.dot(tv, tv), exact=False)
    same(v.dot(v[::-1] if False else v), tv.dot(tv), exact=False)
    same(ct.vdot(v, v), torch.vdot(tv, tv), exact=False)
    same(ct.vdot(w, w * 1j), torch.vdot(tw, tw * 1j), exact=False)
    same(ct.vdot(A[:, 0], A[:, 1]), torch.vdot(tA[:, 0], tA[:, 1]), exact=False)  # strided
    X, tX = pair(rand_complex((4, 5, 7), dt, 17))
    Y, tY = pair(rand_complex((4, 7, 2), dt, 18))
    same(ct.bmm(X, Y), torch.bmm(tX, tY), exact=False)
    same(X @ B, tX @ tB, exact=False)


def test_product_errors():
    c, f = ct.ones(2, dtype=ct.complex64), ct.ones(2)
    with pytest.raises(RuntimeError, match="expected both vectors to have same dtype, but found ComplexFloat and Float"):
        ct.dot(c, f)
    with pytest.raises(RuntimeError, match="vdot : expected both vectors to have same dtype, but found ComplexFloat"):
        ct.vdot(c, f)
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 1D tensors"):
        ct.vdot(c[None], c)
    with pytest.raises(RuntimeError, match="inconsistent tensor size, expected tensor \\[2\\] and src \\[1\\]"):
        ct.vdot(c, c[:1])
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: c10::complex<float> != float"):
        ct.mm(c[None], f[:, None])
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        ct.bmm(c, c)
    with pytest.raises(RuntimeError, match="vector \\+ matrix @ vector expected, got 1, 1, 1"):
        ct.mv(c, c)
    assert ct.vdot(ct.tensor([1, 2]), ct.tensor([3, 4])).item() == 11


def test_conjugate_views_are_read_conjugated():
    # the lead's conj bit (Note [Math bits]): the new ops take their operands resolved
    x, tx = pair(np.array([1 + 2j, 3 - 1j], dtype=np.complex64))
    c, tc = x.conj(), tx.conj()
    for f in (lambda u, v: u * v, lambda u, v: u + 1j, lambda u, v: u == 1 - 2j, lambda u, v: u / (1 + 1j),
              lambda u, v: u.sum(), lambda u, v: abs(u)):
        same(f(c, x), f(tc, tx), exact=False)
    same(ct.vdot(c, x), torch.vdot(tc, tx))
    same(ct.vdot(x, c), torch.vdot(tx, tc))
    d, td = x.clone(), tx.clone()
    d.conj().mul_(1j)
    td.conj().mul_(1j)
    same(d, td)
