"""The Python snippets of the documentation run and print what the documentation shows.

In each file below, every ```python block is a whole program and must be followed by a
```text block (nothing but blank lines between them) holding exactly what it prints.  A
snippet whose first line is `import ctensor as torch` must also print the same with real
PyTorch (`import torch` instead): those are the claims about PyTorch's semantics."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

import ctensor

REPO = pathlib.Path(__file__).resolve().parents[2]
DOCS = ["README.md", "docs/views-and-copies.md", "bindings/python/README.md", "docs/checkpoints.md"]
AS_TORCH = "import ctensor as torch\n"


def fenced_blocks(text):
    """[(info string, first line number, code)] of the fenced blocks, and what lies between."""
    out, info, start, buf = [], None, 0, []
    for n, line in enumerate(text.split("\n"), 1):
        if info is None and re.match(r"^```[\w+-]*\s*$", line):
            info, start, buf = line[3:].strip(), n + 1, []
        elif info is not None and line.startswith("```"):
            out.append((info, start, "\n".join(buf) + "\n"))
            info = None
        elif info is not None:
            buf.append(line)
    return out


def snippets():
    for doc in DOCS:
        text = (REPO / doc).read_text()
        lines = text.split("\n")
        blocks = fenced_blocks(text)
        for k, (info, line, code) in enumerate(blocks):
            if info != "python":
                continue
            nxt = blocks[k + 1] if k + 1 < len(blocks) else None
            end = line + code.count("\n")  # the closing fence's line
            between = lines[end:nxt[1] - 2] if nxt else ["(end of file)"]
            expected = nxt[2] if nxt and nxt[0] == "text" and not any(s.strip() for s in between) else None
            yield pytest.param(code, expected, id=f"{doc}:{line}")


def run(code, tmp_path):
    script = tmp_path / "snippet.py"
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(ctensor.__file__).parents[1]))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_every_document_has_snippets():
    found = {p.id.split(":")[0] for p in snippets()}
    assert found == set(DOCS), "a document lost its Python snippets: %s" % sorted(set(DOCS) - found)


@pytest.mark.parametrize("code,expected", list(snippets()))
def test_snippet_prints_what_the_document_shows(code, expected, tmp_path):
    assert expected is not None, "a ```python block must be followed by a ```text block of its output"
    assert run(code, tmp_path) == expected


@pytest.mark.parametrize("code,expected", [p for p in snippets() if p.values[0].startswith(AS_TORCH)])
def test_snippet_prints_the_same_with_torch(code, expected, tmp_path):
    pytest.importorskip("torch", reason="needs PyTorch (build/venv has torch 2.13)")
    assert run("import torch\n" + code[len(AS_TORCH):], tmp_path) == expected


def test_readme_julia_quick_start_is_the_julia_packages_tested_example():
    # there is no Julia runtime in every test run: the top README quotes, verbatim, the first
    # julia block of the package README, which bindings/julia/check checks is test code
    def first_julia(path):
        return next(code for info, _, code in fenced_blocks((REPO / path).read_text()) if info == "julia")
    assert first_julia("README.md") == first_julia("bindings/julia/CTensor/README.md")
