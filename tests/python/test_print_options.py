"""torch.set_printoptions, differential: the same tensors printed by torch 2.13 and ctensor under
the same options must give the same text, "ctensor." read as "torch.".  Every test restores
both libraries' defaults, even when it fails."""

import math

import numpy as np
import pytest

import ctensor
from ctensor import _print_options

torch = pytest.importorskip("torch")
from torch._tensor_str import get_printoptions as torch_get_printoptions  # noqa: E402


@pytest.fixture(autouse=True)
def restore_defaults():
    yield
    torch.set_printoptions(profile="default")
    ctensor.set_printoptions(profile="default")


def _arrays():
    """name -> (numpy array, dtype name): values both libraries hold exactly."""
    rng = np.random.default_rng(5)
    a = {
        "small_ints": (np.array([[1, -2, 3], [40, 5, -600]]), "int64"),
        "int8": (np.array([-128, 0, 127]), "int8"),
        "bools": (np.array([[True, False], [False, True]]), "bool"),
        "scalar": (np.array(3.25), "float32"),
        "int_scalar": (np.array(-7), "int64"),
        "floats": (np.array([1.5, 2.25, -3.125, 0.0]), "float32"),
        "whole_floats": (np.array([1.0, 2.0, -30.0]), "float32"),
        "big_whole": (np.array([1.0, 2.0e9]), "float64"),
        "wide_range": (np.array([1e-5, 1.0, 1e5]), "float64"),
        "tiny": (np.array([1e-8, 2e-8]), "float32"),
        "huge": (np.array([1e10, -3e12]), "float64"),
        "nonfinite": (np.array([float("nan"), float("inf"), -float("inf"), 1.5]), "float32"),
        "zeros": (np.zeros((2, 2)), "float32"),
        "half": (np.array([0.1, 1000.0, -2.5]), "float16"),
        "bf16": (np.array([0.1, 1000.0, -2.5]), "bfloat16"),
        "random": (rng.standard_normal((4, 5)) * 10, "float64"),
        "long_row": (np.arange(30) * 1.5, "float32"),
        "long_int_row": (np.arange(40) * 1001, "int64"),
        "summarized_2d": (np.arange(2000).reshape(40, 50) / 7, "float32"),
        "summarized_3d": (np.arange(3000).reshape(10, 15, 20), "int64"),
        "summarized_1d": (np.linspace(-1, 1, 1500), "float64"),
        "empty": (np.zeros((0,)), "float32"),
        "empty_2d": (np.zeros((2, 0)), "int64"),
    }
    return a


ARRAYS = _arrays()

OPTIONS = [
    {}, {"precision": 2}, {"precision": 0}, {"precision": 8}, {"threshold": 5}, {"threshold": 0},
    {"edgeitems": 1}, {"edgeitems": 1, "threshold": 4}, {"edgeitems": 0, "threshold": 4}, {"edgeitems": 0},
    {"edgeitems": 10, "threshold": 3}, {"linewidth": 30}, {"linewidth": 200}, {"linewidth": 5},
    {"sci_mode": True}, {"sci_mode": False}, {"sci_mode": True, "precision": 2},
    {"profile": "short"}, {"profile": "full"}, {"profile": "full", "precision": 1},
    {"profile": "short", "linewidth": 40, "sci_mode": False}, {"profile": "unknown-profile"},
]


def _make(lib, name):
    array, dt = ARRAYS[name]
    if dt == "bfloat16":
        return lib.tensor(array.tolist(), dtype=lib.float32).to(lib.bfloat16)
    return lib.tensor(array.tolist(), dtype=getattr(lib, dt)).reshape(array.shape)


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_repr_as_torch_under_options(name, options):
    torch.set_printoptions(**options)
    ctensor.set_printoptions(**options)
    expected = repr(_make(torch, name))
    got = repr(_make(ctensor, name))
    assert got.replace("ctensor.", "torch.") == expected
    assert str(_make(ctensor, name)) == got


def test_options_carry_over_between_calls_and_reset_by_profile():
    for lib in (torch, ctensor):
        lib.set_printoptions(precision=2)
        lib.set_printoptions(threshold=5)  # precision stays 2; sci_mode is reset each call, as torch
    assert _print_options.get_printoptions() == torch_get_printoptions()
    assert repr(ctensor.arange(10) / 3).replace("ctensor.", "torch.") == repr(torch.arange(10) / 3)
    for lib in (torch, ctensor):
        lib.set_printoptions(profile="default")
    assert _print_options.get_printoptions() == torch_get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


def test_get_printoptions_and_context_manager():
    ctensor.set_printoptions(profile="full", sci_mode=False)
    opts = _print_options.get_printoptions()
    assert opts == {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80, "sci_mode": False}
    with _print_options.printoptions(precision=1, sci_mode=True):
        assert repr(ctensor.tensor([1.25])) == "tensor([1.2e+00])"
    assert _print_options.get_printoptions() == opts
    assert not hasattr(torch, "get_printoptions") and not hasattr(ctensor, "get_printoptions")


@pytest.mark.parametrize("bad", [{"precision": -1}, {"precision": 1.5}, {"edgeitems": -2},
                                 {"threshold": float("nan")}, {"linewidth": 2.5}])
def test_bad_values_are_refused_and_change_nothing(bad):
    ctensor.set_printoptions(precision=3)
    before = _print_options.get_printoptions()
    with pytest.raises(RuntimeError, match=next(iter(bad))):
        ctensor.set_printoptions(**bad)
    assert _print_options.get_printoptions() == before


def test_requires_grad_and_grad_fn_suffixes_wrap_at_linewidth():
    for width in (80, 40, 20):
        torch.set_printoptions(linewidth=width)
        ctensor.set_printoptions(linewidth=width)
        t = torch.arange(6.0).requires_grad_()
        c = ctensor.arange(6.0).requires_grad_()
        assert repr(c).replace("ctensor.", "torch.") == repr(t)
        assert repr(c * 2).replace("ctensor.", "torch.") == repr(t * 2)
        assert repr(c.double() * 2).replace("ctensor.", "torch.") == repr(t.double() * 2)
