"""gradcheck with complex inputs and outputs, against torch 2.13's: the same verdict for correct
and wrong backward formulas, and the same failure (GradcheckError, first line of the message:
which part of a complex output, which output and input) when a formula is wrong."""

import importlib

import pytest

import ctensor
from ctutil import square_with_mistake, torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

Z = [1 + 2j, -0.5 + 0.25j, 3 - 1j]
X = [0.5, -1.5, 2.0]

CORRECT = {
    "abs of a complex sum": (lambda a: (a * a).sum().abs(), "z"),
    "z * conj(z)": (lambda a: a * a.conj(), "z"),
    "complex times real": (lambda a, b: a * b, "zx"),
    "exp": (lambda a: a.exp(), "z"),
    "real to complex": (lambda b: b * 1j, "x"),
    "real and imaginary views": (lambda a: (a.real * a.imag, a.real + 2 * a.imag), "z"),
    "mixed outputs": (lambda a, b: (a.abs() * b, a * b.sum()), "zx"),
}


def gradcheck_error(lib):
    """torch.autograd.gradcheck.GradcheckError (the module, which torch.autograd's function
    attribute of the same name hides)."""
    return importlib.import_module(lib.__name__ + ".autograd.gradcheck").GradcheckError


def make(lib, kinds):
    out = []
    for k in kinds:
        if k == "z":
            out.append(lib.tensor(Z, dtype=lib.complex128, requires_grad=True))
        else:
            out.append(lib.tensor(X, dtype=lib.float64, requires_grad=True))
    return tuple(out)


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_correct_formulas_pass_as_in_torch(name):
    fn, kinds = CORRECT[name]
    assert torch.autograd.gradcheck(fn, make(torch, kinds))
    assert ctensor.autograd.gradcheck(fn, make(ctensor, kinds))


@pytest.mark.parametrize("mistake", ["no conj", "real only", "scaled"])
@pytest.mark.parametrize("out", ["complex", "abs"])
def test_wrong_formulas_fail_as_in_torch(mistake, out):
    def failure(lib):
        f = square_with_mistake(lib, mistake)
        fn = (lambda z: f(z)) if out == "complex" else (lambda z: f(z).abs())
        with pytest.raises(gradcheck_error(lib)) as e:
            lib.autograd.gradcheck(fn, make(lib, "z"))
        assert lib.autograd.gradcheck(fn, make(lib, "z"), raise_exception=False) is False
        return str(e.value).splitlines()[0]

    assert failure(ctensor) == failure(torch)


def test_complex_input_jacobian_is_printed_complex():
    f = square_with_mistake(ctensor, "scaled")
    with pytest.raises(gradcheck_error(ctensor)) as e:
        ctensor.autograd.gradcheck(lambda z: f(z).abs(), make(ctensor, "z"))
    assert "dtype=ctensor.complex128" in str(e.value)


def test_single_precision_complex_warns_as_torch():
    for lib in (torch, ctensor):
        z = lib.tensor(Z, dtype=lib.complex64, requires_grad=True)
        with pytest.warns(UserWarning, match="is not a double precision floating point or complex"):
            lib.autograd.gradcheck(lambda a: a * 2, (z,), raise_exception=False, atol=1e-2, rtol=1e-2)
