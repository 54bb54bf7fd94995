"""Copies the first docstring line of every public runtime name into the .pyi stubs.

The stubs (bindings/python/ctensor/*.pyi) are hand-written for their types; their docstrings
are not: for each public function, class and class method defined in a stub, this script puts
the first line of the runtime object's docstring (inspect.getdoc) as the stub's docstring,
replacing whatever docstring was there.  With @overload or a property setter, only the first
definition of a name gets it.  Names the runtime does not have are left alone (the stub tests
report them).  Idempotent: rerun it after adding a method or editing a docstring.

    PYTHONPATH=build/python python tests/tools/gen_stub_docs.py          # rewrite the stubs
    PYTHONPATH=build/python python tests/tools/gen_stub_docs.py --check  # exit 1 if stale

tests/python/test_help_and_stubs.py runs the check."""

import argparse
import ast
import importlib
import inspect
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB_DIR = ROOT / "bindings" / "python" / "ctensor"
STUBS = {"__init__.pyi": "ctensor", "autograd.pyi": "ctensor.autograd", "return_types.pyi": "ctensor.return_types"}


def first_doc_line(obj):
    """The first line of obj's docstring, or None."""
    doc = inspect.getdoc(obj)
    return doc.strip().splitlines()[0].strip() if doc and doc.strip() else None


def _literal(line):
    if '"""' in line or "\\" in line or line.endswith('"'):
        return repr(line)
    return f'"""{line}"""'


def _is_doc(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _targets(tree, module):
    """(node, runtime object) for each stub definition that gets a docstring."""
    seen = set()
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.name.startswith("_"):
            continue
        if not hasattr(module, node.name):
            continue
        runtime = getattr(module, node.name)
        if node.name not in seen:
            seen.add(node.name)
            yield node, runtime
        if isinstance(node, ast.ClassDef) and isinstance(runtime, type):
            members = set()
            for item in node.body:
                if (isinstance(item, ast.FunctionDef) and not item.name.startswith("_")
                        and item.name not in members):
                    members.add(item.name)
                    try:
                        value = inspect.getattr_static(runtime, item.name)
                    except AttributeError:
                        continue
                    yield item, value


def render(text, module):
    """The stub text with the runtime's docstrings in it."""
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    edits = []  # (first line index, last line index, replacement lines)
    for node, runtime in _targets(tree, module):
        line = first_doc_line(runtime)
        if line is None:
            continue
        indent = " " * (node.col_offset + 4)
        doc = f"{indent}{_literal(line)}\n"
        body = node.body[0]
        if _is_doc(body):  # a docstring from an earlier run: replace it
            edits.append((body.lineno - 1, body.end_lineno - 1, [doc]))
        elif body.lineno == node.body[-1].end_lineno and isinstance(body, ast.Expr) and \
                isinstance(body.value, ast.Constant) and body.value.value is Ellipsis:
            # `def f(...) -> T: ...  # comment` -> `def f(...) -> T:  # comment` + the docstring
            src = lines[body.lineno - 1]
            head, tail = src[:body.col_offset].rstrip(), src[body.end_col_offset:].rstrip("\n")
            edits.append((body.lineno - 1, body.lineno - 1, [head + tail + "\n", doc]))
        elif isinstance(node, ast.ClassDef) and body.lineno > node.lineno:
            # a class with a body on its own lines: the docstring goes right under the header
            # (the stubs' class headers are one line), above any comment or decorator
            edits.append((node.lineno, node.lineno - 1, [doc]))
    for first, last, new in sorted(edits, reverse=True):
        lines[first:last + 1] = new
    return "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale stubs, change nothing")
    args = parser.parse_args()
    stale = []
    for name, module_name in STUBS.items():
        path = STUB_DIR / name
        text = path.read_text()
        new = render(text, importlib.import_module(module_name))
        if new != text:
            stale.append(name)
            if not args.check:
                path.write_text(new)
    if args.check and stale:
        print("stale stub docstrings (run tests/tools/gen_stub_docs.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
