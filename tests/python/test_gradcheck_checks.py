"""ctensor.autograd.gradcheck / gradgradcheck against torch 2.13's, every check: the input
checks, the Jacobian check (slow and fast_mode), _test_backward_mul_by_grad_output and
check_undefined_grad.  Each case runs the same function with both libraries and asserts the
same verdict: True, or the same exception class and first line of the message (and the same
warnings)."""

import importlib
import math
import re
import warnings

import pytest

import ctensor
from ctutil import square_with_mistake as square, torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

LIBS = (torch, ctensor)


def gradcheck_error(lib):
    return importlib.import_module(lib.__name__ + ".autograd.gradcheck").GradcheckError


def verdict(lib, check, fn, inputs, **kw):
    """(result or exception class name, first line of the message, warning texts)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = (check(lib)(fn, inputs, **kw), "")
        except Exception as e:  # noqa: BLE001 -- the class is what is compared
            name = "GradcheckError" if isinstance(e, gradcheck_error(lib)) else type(e).__name__
            r = (name, str(e).splitlines()[0].replace("torch.", "ctensor.") if str(e) else "")
    return r + (sorted({str(x.message) for x in w}),)


def gradcheck(lib):
    return lib.autograd.gradcheck


def gradgradcheck(lib):
    return lib.autograd.gradgradcheck


def same(check, fn, make, **kw):
    """The verdict of check(fn(lib), make(lib)) in both libraries; returns ctensor's."""
    want = verdict(torch, check, fn(torch), make(torch), **kw)
    got = verdict(ctensor, check, fn(ctensor), make(ctensor), **kw)
    assert got == want
    return got


X = [[0.5, -1.25, 2.0], [1.5, 0.75, -0.3]]
Y = [[0.2, 0.9, -1.1], [0.4, -0.6, 1.3]]
Z = [[1 + 2j, -0.5 + 0.25j, 3 - 1j], [0.3 - 0.7j, -1.2 + 0.1j, 0.6 + 0.9j]]


def real(lib, values=X):
    return lib.tensor(values, dtype=lib.float64, requires_grad=True)


def cplx(lib, values=Z):
    return lib.tensor(values, dtype=lib.complex128, requires_grad=True)


# name -> (function of (lib, *inputs), input makers)
PASS = {
    "exp": (lambda L, a: a.exp(), (real,)),
    "sin * tanh": (lambda L, a, b: a.sin() * b.tanh(), (real, real)),
    "sigmoid sum": (lambda L, a: a.sigmoid().sum(), (real,)),
    "matmul": (lambda L, a, b: a.matmul(b.t()), (real, real)),
    "cumsum, prod": (lambda L, a: (a.cumsum(1), a.prod(0)), (real,)),
    "var, mean": (lambda L, a: (a.var(1), a.mean()), (real,)),
    "pow 3": (lambda L, a: a.pow(3), (real,)),
    "unbind": (lambda L, a: a.unbind(0), (real,)),
    "split": (lambda L, a: a.split(2, 1), (real,)),
    "cat, stack": (lambda L, a, b: (L.cat([a, b], 1), L.stack([a, b]).flip(0)), (real, real)),
    "transpose view": (lambda L, a: a.transpose(0, 1)[1:] * 2, (real,)),
    "norm": (lambda L, a: a.norm(), (real,)),
    "complex exp": (lambda L, z: z.exp(), (cplx,)),
    "complex abs": (lambda L, z: z.abs(), (cplx,)),
    "z conj(z), z w": (lambda L, z, w: (z * z.conj(), z * w), (cplx, cplx)),
    "complex and real": (lambda L, z, a: (z * a, (z.abs() * a).sum()), (cplx, real)),
    "real to complex": (lambda L, a: a * (1 + 2j), (real,)),
    "non-tensor input": (lambda L, a, k=3: a * k, (real,)),
}


@pytest.mark.parametrize("fast", [False, True], ids=["slow", "fast"])
@pytest.mark.parametrize("name", sorted(PASS))
def test_correct_functions_pass(name, fast):
    f, makers = PASS[name]
    got = same(gradcheck, lambda L: lambda *a: f(L, *a), lambda L: tuple(m(L) for m in makers), fast_mode=fast,
               check_grad_dtypes=True)
    assert got[0] is True


@pytest.mark.parametrize("fast", [False, True], ids=["slow", "fast"])
@pytest.mark.parametrize("name", ["exp", "sin * tanh", "matmul", "complex exp", "z conj(z), z w", "norm"])
def test_gradgradcheck_passes(name, fast):
    f, makers = PASS[name]
    got = same(gradgradcheck, lambda L: lambda *a: f(L, *a), lambda L: tuple(m(L) for m in makers), fast_mode=fast)
    assert got[0] is True


@pytest.mark.parametrize("fast", [False, True], ids=["slow", "fast"])
def test_gradgradcheck_fails_on_a_detached_factor(fast):
    """a * a.detach(): its gradient g * a has derivative g in a numerically, none analytically."""
    got = same(gradgradcheck, lambda L: lambda a: a * a.detach(), lambda L: (real(L),), fast_mode=fast)
    assert got[0] == "GradcheckError"


# ---- custom Functions with wrong backwards --------------------------------------------------

def custom(lib, backward, materialize=True, outputs=1):
    """x -> 2x (and 3x with two outputs) with the given backward(ctx, *grads)."""

    class Custom(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(materialize)
            return (x * 2, x * 3) if outputs == 2 else x * 2

        @staticmethod
        def backward(ctx, *grads):
            return backward(lib, *grads)

    return Custom.apply


def raise_on_none(lib, g):
    if g is None:
        raise RuntimeError("no gradient")
    return g * 2


def ones_on_none(lib, g):
    return g * 2 if g is not None else lib.ones(2, 3, dtype=lib.float64)


def two_outputs_one_none(lib, g1, g2):
    if g1 is None and g2 is None:
        return None
    if g1 is None or g2 is None:  # fails when only one of them is None
        raise RuntimeError("one gradient missing")
    return g1 * 2 + g2 * 3


calls = {"n": 0}


def nondeterministic(lib, g):
    calls["n"] += 1
    return g * (2 + 1e-3 * calls["n"])


WRONG = {
    "scaled": (lambda L, g: g * 2.5, {}),
    "unscaled": (lambda L, g: L.full_like(g, 2.0), {}),
    "unscaled, one element": (lambda L, g: L.full_like(g, 2.0), {"values": [1.5]}),
    "wrong dtype": (lambda L, g: (g * 2).float(), {}),
    "wrong dtype, check_grad_dtypes": (lambda L, g: (g * 2).float(), {"check_grad_dtypes": True}),
    "wrong size": (lambda L, g: (g * 2)[:1], {}),
    "scalar gradient": (lambda L, g: (g * 2).sum(), {}),
    "broadcast gradient": (lambda L, g: (g * 2).expand(4, 2, 3), {}),
    "nondeterministic": (nondeterministic, {}),
    "nondeterministic, nondet_tol": (nondeterministic, {"nondet_tol": 1.0}),
    "None-unsafe": (lambda L, g: g * 2, {"materialize": False}),
    "raises on None": (raise_on_none, {"materialize": False}),
    "raises on None, check_undefined_grad=False": (raise_on_none, {"materialize": False,
                                                                   "check_undefined_grad": False}),
    "ones on None": (ones_on_none, {"materialize": False}),
    "two outputs, one None": (two_outputs_one_none, {"materialize": False, "outputs": 2}),
    "two outputs, correct": (lambda L, g1, g2: g1 * 2 + g2 * 3, {"outputs": 2}),
}


@pytest.mark.parametrize("fast", [False, True], ids=["slow", "fast"])
@pytest.mark.parametrize("name", sorted(WRONG))
def test_custom_backwards_as_torch(name, fast):
    backward, kw = WRONG[name]
    kw = dict(kw)
    opts = {k: kw.pop(k) for k in ("materialize", "outputs") if k in kw}
    values = kw.pop("values", X)
    got = same(gradcheck, lambda L: custom(L, backward, **opts), lambda L: (real(L, values),), fast_mode=fast, **kw)
    # torch casts a gradient to its input's dtype, so a wrong dtype passes
    passes = ("wrong dtype", "wrong dtype, check_grad_dtypes", "raises on None, check_undefined_grad=False",
              "two outputs, correct")
    assert (got[0] is True) == (name in passes)


@pytest.mark.parametrize("name", ["scaled", "nondeterministic", "raises on None", "ones on None", "unscaled"])
def test_raise_exception_false_returns_false(name):
    backward, kw = WRONG[name]
    materialize = kw.get("materialize", True)
    for lib in LIBS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert lib.autograd.gradcheck(custom(lib, backward, materialize), (real(lib),),
                                          raise_exception=False) is False


def test_a_typeerror_of_backward_is_not_a_gradcheck_failure():
    """torch only turns RuntimeErrors of the undefined-gradient backward into GradcheckError."""
    backward, _ = WRONG["None-unsafe"]
    for lib in LIBS:
        with pytest.raises(TypeError):
            lib.autograd.gradcheck(custom(lib, backward, False), (real(lib),), raise_exception=False)


def test_undefined_grad_failure_warns_and_chains():
    for lib in LIBS:
        with pytest.warns(UserWarning, match="New undefined gradient support checking feature"):
            with pytest.raises(gradcheck_error(lib), match="Expected backward function to handle undefined") as e:
                lib.autograd.gradcheck(custom(lib, raise_on_none, False), (real(lib),))
        assert isinstance(e.value.__cause__, RuntimeError) and str(e.value.__cause__) == "no gradient"


# ---- fast mode ---------------------------------------------------------------------------------

def torch_u(n):
    """torch's fast-mode vector u of an n-element input (first draws of a fresh generator)."""
    u = torch.rand(n, generator=torch.Generator()).double()
    return (u / u.norm()).tolist()


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def same_text_and_values(got, want):
    """The same text, and the same numbers up to their last bits: torch's v^T J u is a BLAS
    dot of six products, whose last bit changes with the arrays' addresses (in torch as in
    NumPy), so the same process gives ...722 in one run and ...727 in another."""
    got_numbers, want_numbers = _NUMBER.findall(got), _NUMBER.findall(want)
    return (_NUMBER.sub("#", got) == _NUMBER.sub("#", want) and len(got_numbers) == len(want_numbers)
            and all(math.isclose(float(a), float(b), rel_tol=1e-15) for a, b in zip(got_numbers, want_numbers)))


def test_fast_mode_message_is_torchs():
    """u and v are torch's own, so the whole message (values included) is torch's."""
    def message(lib):
        with pytest.raises(gradcheck_error(lib)) as e:
            lib.autograd.gradcheck(custom(lib, lambda L, g: g * 2.5), (real(lib),), fast_mode=True)
        return str(e.value).replace("torch.", "ctensor.")

    got, want = message(ctensor), message(torch)
    assert got.splitlines()[0] == want.splitlines()[0]
    assert same_text_and_values("\n".join(got.splitlines()[1:3]), "\n".join(want.splitlines()[1:3]))  # numerical:..., analytical:...
    assert same_text_and_values(got, want)
    assert not same_text_and_values(got.replace("analytical:2", "analytical:3"), want)  # the check can fail


def test_fast_fail_slow_ok():
    """f(x) = c (u1 x0 - u0 x1): J u = 0, so a relative error of 1e-4 in one partial derivative,
    within rtol element-wise, is large against the fast mode's atol."""
    u0, u1 = torch_u(2)

    def fn(lib):
        class F(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return (x * lib.tensor([u1, -u0], dtype=lib.float64) * 1000).sum()

            @staticmethod
            def backward(ctx, g):
                return g * lib.tensor([u1 * (1 + 1e-4), -u0], dtype=lib.float64) * 1000

        return F.apply

    for lib in LIBS:
        x = lib.tensor([0.3, 0.8], dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradcheck(fn(lib), (x,))
        with pytest.raises(gradcheck_error(lib)) as e:
            lib.autograd.gradcheck(fn(lib), (x,), fast_mode=True)
        assert "Fast gradcheck failed but element-wise differences are small" in str(e.value)


def test_fast_mode_leaves_the_users_generator_alone():
    ctensor.manual_seed(7)
    want = ctensor.rand(4)
    ctensor.manual_seed(7)
    assert ctensor.autograd.gradcheck(lambda a: a.exp(), (real(ctensor),), fast_mode=True)
    assert ctensor.equal(ctensor.rand(4), want)


def test_no_differentiable_outputs():
    for fast in (False, True):
        got = same(gradcheck, lambda L: lambda a: a.detach() * 2, lambda L: (real(L),), fast_mode=fast)
        assert got[:2] == ("GradcheckError", "Numerical gradient for function expected to be zero")
        got = same(gradcheck, lambda L: lambda a: (a.detach() * 0 + 1, (a.detach() * 0).sum()), lambda L: (real(L),),
                   fast_mode=fast)
        assert got[0] is True


def test_non_tensor_output_is_refused_as_in_torch():
    got = same(gradcheck, lambda L: lambda a: (a * 2, 3), lambda L: (real(L),))
    assert got[0] == "AttributeError"


# ---- input checks ------------------------------------------------------------------------------

def test_input_checks_as_torch():
    got = same(gradcheck, lambda L: lambda a: a * 2, lambda L: (L.tensor([1.0, 2.0], dtype=L.float64),))
    assert got[0] == "ValueError"
    got = same(gradcheck, lambda L: lambda a: a * 2,
               lambda L: (L.tensor([1.0], dtype=L.float64).expand(3).detach().requires_grad_(),),
               raise_exception=False)
    assert got[0] == "RuntimeError" and got[1].startswith("The 0th input has a dimension with stride 0.")
    got = same(gradcheck, lambda L: lambda a: a * 2,
               lambda L: (L.tensor([1.0, 2.0], dtype=L.float32, requires_grad=True),), eps=1e-2,
               atol=1e-2, rtol=1e-2)
    assert got[0] is True and "is not a double precision floating point or complex" in got[2][0]
    got = same(gradcheck, lambda L: lambda a: a * 2, lambda L: (real(L),), check_backward_ad=False)
    assert got[0] == "AssertionError"


def test_gradgradcheck_argument_checks_as_torch():
    got = same(gradgradcheck, lambda L: lambda a: a * a, lambda L: (real(L),), check_rev_over_rev=False)
    assert got[0] == "AssertionError"


def test_perturbed_output_shape_must_not_change():
    def fn(L):
        return lambda a: a[: 2 + int(a.sum().item() > 5.0)] * 1  # its size depends on the values

    x = [2.5, 2.5, 0.0]
    for fast in (False, True):
        got = same(gradcheck, fn, lambda L: (real(L, x),), fast_mode=fast, eps=1e-6)
        assert got[0] == "AssertionError" and got[1].startswith("Expected `func` to return outputs with the same")


# ---- the engine: a custom op reached only by undefined gradients still runs (as torch's) -------

def test_custom_backward_runs_when_only_undefined_gradients_reach_it():
    def run(lib):
        seen = []

        class B(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                seen.append(g.tolist())
                return g * 2

        class A(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 3

            @staticmethod
            def backward(ctx, g):
                return None

        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        A.apply(B.apply(x) * 5).sum().backward()
        return seen, x.grad.tolist()

    assert run(ctensor) == run(torch) == ([[0.0, 0.0]], [0.0, 0.0])


# ---- complex values and several outputs, both modes -------------------------------------------

@pytest.mark.parametrize("fast", [False, True], ids=["slow", "fast"])
@pytest.mark.parametrize("mistake", ["none", "no conj", "real only", "scaled"])
@pytest.mark.parametrize("out", ["complex", "abs", "both"])
def test_complex_backwards_as_torch(mistake, out, fast):
    def fn(L):
        f = square(L, mistake)
        return {"complex": lambda z: f(z), "abs": lambda z: f(z).abs(),
                "both": lambda z, a: (a * 2, f(z) * a.sum())}[out]

    makers = (cplx, real) if out == "both" else (cplx,)
    got = same(gradcheck, fn, lambda L: tuple(m(L) for m in makers), fast_mode=fast)
    assert (got[0] is True) == (mistake == "none")
