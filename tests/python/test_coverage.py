"""ctensor.<name> for a torch function ctensor lacks says so; docs/coverage.md and the name list
behind that message are generated from the namespaces and must be current."""

import os
import pathlib
import subprocess
import sys

import pytest

import ctensor
from ctutil import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_missing_torch_function_says_ctensor_does_not_implement_it():
    name = "kron"  # a torch function ctensor does not have
    assert not hasattr(ctensor, name)
    with pytest.raises(AttributeError, match=r"module 'ctensor' has no attribute 'kron': ctensor does not "
                                             r"implement torch\.kron") as info:
        ctensor.kron
    assert info.value.name == "kron"


def test_other_names_keep_pythons_message():
    with pytest.raises(AttributeError) as info:
        ctensor.no_such_thing
    assert str(info.value) == "module 'ctensor' has no attribute 'no_such_thing'"
    assert not hasattr(ctensor, "__array_priority__")


def test_the_new_ops_are_listed_as_present():
    text = (ROOT / "docs" / "coverage.md").read_text()
    for name in ("pow", "floor_divide", "remainder", "fmod", "linspace", "eye"):
        assert f"| `{name}` | yes |" in text


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_coverage_files_are_current():
    # the child imports the ctensor this test imported (conftest found it; CI sets no PYTHONPATH)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(ctensor.__file__).parents[1]))
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "gen_coverage.py"), "--check"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
