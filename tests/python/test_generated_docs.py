"""The generated parts of the Python binding's documentation (tests/tools/gen_python_docs.py)
are up to date with the code and the tests they come from."""

import importlib.util
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gen_python_docs", REPO / "tests" / "tools" / "gen_python_docs.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)


def test_generated_parts_are_current(capsys):
    rc = gen.main(["gen_python_docs.py", "--check"])
    assert rc == 0, capsys.readouterr().out


def test_a_change_in_the_source_makes_the_part_stale():
    readme = (REPO / "bindings" / "python" / "README.md").read_text()
    assert gen.render("bindings/python/README.md", readme) == readme
    # an edit inside the generated part (as a hand edit, or a stale table, would be) is undone
    begin = gen.BEGIN % "name-differences"
    edited = readme.replace(begin + "\n", begin + "\n| `x.foo()` | `FooBackward0` | `BarBackward0` |\n", 1)
    assert edited != readme and gen.render("bindings/python/README.md", edited) == readme
