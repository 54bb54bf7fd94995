"""The seed examples (examples/seeds): each prints what its expected-output file says, and the
Python ones print the same with real PyTorch (up to their "ctensor only" section)."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

import ctensor

REPO = pathlib.Path(__file__).resolve().parents[2]
SEEDS = REPO / "examples" / "seeds"
NAMES = ["same_id", "repeated_op", "reshape_view_permute", "keep_unmodified", "view_batch_minus_one", "conj_view",
         "custom_op"]
# The memory questions draw their tensors' storages (--draw); custom_op is about autograd and has no picture.
DRAWN = [n for n in NAMES if n != "custom_op"]
CTENSOR_ONLY = "---- ctensor only ----"
IMPORT_LINE = "import ctensor as torch  # the examples test also runs this file with \"import torch\"\n"

_spec = importlib.util.spec_from_file_location("check_output", SEEDS / "check_output.py")
check_output = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_output)


def run_python(script, cwd):
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(ctensor.__file__).parents[1]))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=cwd,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def torch_part(text):
    """The lines before the ctensor-only section (and the blank line that introduces it)."""
    head, sep, _ = text.partition("\n" + CTENSOR_ONLY + "\n")
    assert sep, f"no {CTENSOR_ONLY!r} line"
    return head.rstrip("\n") + "\n"


def test_every_seed_has_its_three_programs_and_expected_outputs():
    for name in NAMES:
        for suffix in (".c", ".py", ".jl", ".c.out", ".py.out"):
            assert (SEEDS / (name + suffix)).is_file(), name + suffix


def test_normalisation_hides_only_addresses_and_ids():
    text = "id 12, ids 3 and 4, data pointer: 0x7f00ab = storage start + 16 bytes, 12 elements"
    assert check_output.normalize(text) == (
        "id N, ids N and N, data pointer: 0xADDR = storage start + 16 bytes, 12 elements")


@pytest.mark.parametrize("name", NAMES)
def test_python_example_prints_its_expected_output(name, tmp_path):
    actual = check_output.normalize(run_python(SEEDS / f"{name}.py", tmp_path))
    assert actual == (SEEDS / f"{name}.py.out").read_text()
    assert not list(tmp_path.iterdir()), "an example wrote files without being asked (--draw)"


@pytest.mark.parametrize("name", NAMES)
def test_python_example_prints_the_same_with_torch(name, tmp_path):
    pytest.importorskip("torch", reason="needs PyTorch (apt-get install python3-torch)")
    source = (SEEDS / f"{name}.py").read_text()
    assert source.count(IMPORT_LINE) == 1
    script = tmp_path / f"{name}_torch.py"
    script.write_text(source.replace(IMPORT_LINE, "import torch\n"))
    expected = torch_part((SEEDS / f"{name}.py.out").read_text())
    assert run_python(script, tmp_path) == expected


@pytest.mark.parametrize("name", NAMES)
def test_c_example_prints_its_expected_output(name):
    lib = os.environ.get("CTENSOR_LIB")
    exe = pathlib.Path(lib).resolve().parent / "examples" / f"seed_{name}" if lib else None
    if exe is None or not exe.exists():
        pytest.skip("the C example is not built next to $CTENSOR_LIB (ctest seed_examples_* checks it)")
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert check_output.normalize(run.stdout) == (SEEDS / f"{name}.c.out").read_text()


@pytest.mark.parametrize("name", DRAWN)
def test_draw_option_writes_the_pictures(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(ctensor.__file__).parents[1]))
    run = subprocess.run([sys.executable, str(SEEDS / f"{name}.py"), "--draw", str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    pictures = list(tmp_path.glob("*.svg"))
    assert pictures and all(p.read_text().startswith("<svg") for p in pictures)


def test_guide_quotes_real_output():
    """docs/views-and-copies.md quotes the examples' output: every line of its plain ``` blocks
    must be a line some Python example prints."""
    printed = set()
    for name in NAMES:
        printed.update((SEEDS / f"{name}.py.out").read_text().splitlines())
    fence = None
    quoted = 0
    for line in (REPO / "docs" / "views-and-copies.md").read_text().splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else line[3:]
            continue
        if fence == "":
            assert line in printed, f"docs/views-and-copies.md quotes a line no example prints: {line!r}"
            quoted += 1
    assert quoted > 20


def test_guide_pictures_exist():
    import re
    guide = (REPO / "docs" / "views-and-copies.md").read_text()
    pictures = re.findall(r"\]\((img/[^)]+\.svg)\)", guide)
    assert len(pictures) >= 5
    for p in pictures:
        assert (REPO / "docs" / p).read_text().startswith("<svg"), p
