"""Finds the ctensor package for the Python tests.

In order: $CTENSOR_PYTHONPATH (a directory holding the ctensor package); <dir of
$CTENSOR_LIB>/python (the README's test command sets CTENSOR_LIB=<build>/libctensor.so, and the
build puts the package in <build>/python); <repo>/build/python; an installed ctensor."""

import os
import pathlib
import sys

_REPO = pathlib.Path(__file__).resolve().parents[2]


def _candidates():
    env = os.environ.get("CTENSOR_PYTHONPATH")
    if env:
        yield pathlib.Path(env)
    lib = os.environ.get("CTENSOR_LIB")
    if lib:
        yield pathlib.Path(lib).resolve().parent / "python"
    yield _REPO / "build" / "python"


for _c in _candidates():
    if (_c / "ctensor" / "__init__.py").exists():
        sys.path.insert(0, str(_c))
        break
