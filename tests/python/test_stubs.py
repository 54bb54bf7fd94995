"""The type stubs (ctensor/__init__.pyi) describe the API the package has, and only it."""

import ast
import pathlib

import ctensor

STUB = pathlib.Path(ctensor.__file__).with_name("__init__.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    module, tensor = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            module.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            module.add(node.target.id)
        elif isinstance(node, ast.Assign):
            module.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom):
            # `from . import return_types as return_types`: a re-export (PEP 484)
            module.update(a.asname for a in node.names if a.asname and a.asname == a.name)
        if isinstance(node, ast.ClassDef) and node.name == "Tensor":
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    tensor.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    tensor.add(item.target.id)
    return module, tensor


def test_swig_ownership_methods_are_hidden():
    x = ctensor.zeros(1)
    for n in ("acquire", "append", "disown", "next", "own", "this", "thisown"):
        assert not hasattr(x, n)
        assert not hasattr(x.untyped_storage(), n)


def test_stub_file_is_shipped():
    assert STUB.exists() and STUB.with_name("py.typed").exists()


def test_module_names_match():
    module, _ = stub_names()
    public = {n for n in dir(ctensor) if not n.startswith("_")} | {"__version__"}
    helpers = {"annotations"}  # from __future__
    assert not (public - module - helpers), "missing in the stub"
    assert not {n for n in module if not n.startswith("_")} - public, "in the stub, not in ctensor"


def test_tensor_methods_match():
    _, tensor = stub_names()
    x = ctensor.zeros(2, 2)

    def has(name):  # x.imag raises RuntimeError on a real tensor, as in torch: it exists
        try:
            return hasattr(x, name)
        except RuntimeError:
            return True
    runtime = {n for n in dir(ctensor.Tensor) if not n.startswith("__") and has(n)}
    private_ok = {"_base", "_version", "_is_view"}
    assert not {n for n in runtime - tensor if not n.startswith("_") or n in private_ok}, "missing in the stub"
    assert not {n for n in tensor if not n.startswith("__")} - runtime, "in the stub, not on ctensor.Tensor"


def test_autograd_stub_names_match():
    tree = ast.parse(STUB.with_name("autograd.pyi").read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    # re-exports written `from ._function import Function as Function` (PEP 484's explicit form)
    names |= {a.asname for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names if a.asname}
    assert names == set(ctensor.autograd.__all__)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Node")
    assert {f.name for f in node.body if isinstance(f, ast.FunctionDef)} == {"name"}
