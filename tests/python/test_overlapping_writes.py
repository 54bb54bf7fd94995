"""In-place writes to a tensor whose elements share memory, against torch 2.13.

torch refuses a written-to tensor only when a dim of size > 1 has stride 0 (an expand): its
has_internal_overlap says Yes only then.  Any other overlapping layout (unfold windows,
as_strided) is TooHard to it and is written, element after element in TensorIterator's
order, each write reading what the earlier ones left.  ctensor does the same for the
elementwise in-place ops, fill_, zero_ and copy_ (on one thread, ElementwiseIter's order, which
is TensorIterator's), so the values match torch's exactly.  In-place ops that ctensor computes
aside and copies in (cumsum_, cumprod_, clamp_ with tensor bounds, the scatter/index family,
masked_scatter_) refuse such a tensor instead of giving other values than torch."""

import itertools

import numpy as np
import pytest
import torch

import ctensor

# (sizes, strides, offset) over a 12-element storage; every one overlaps, none has stride 0
GEOMETRIES = [((3, 2), (1, 1), 0), ((2, 3), (1, 1), 0), ((3, 3), (2, 1), 1), ((2, 2, 2), (2, 1, 1), 0),
              ((4, 2), (1, 2), 0), ((3, 2), (2, 3), 0), ((2, 3), (3, 2), 0), ((5, 3), (1, 2), 0),
              ((2, 2, 3), (1, 3, 1), 0)]
OPS = ["add_(1.5)", "mul_(1.25)", "neg_()", "exp_()", "sqrt_()", "relu_()", "sigmoid_()", "abs_()", "pow_(2)",
       "clamp_(0.5, 3)", "fill_(2.0)", "zero_()", "add_(Y)", "mul_(Y)", "sub_(Y, alpha=2)", "div_(Y)",
       "copy_(Y)", "copy_(Y.t().contiguous().t() if Y.dim() == 2 else Y)", "copy_(Y.to(lib.float32))",
       "copy_(Y[:1])", "masked_fill_(M, 7.0)", "__iadd__(Y)", "__imul__(2.0)"]


def _run(lib, sizes, strides, offset, op):
    x = lib.arange(1.0, 13.0, dtype=lib.float64)
    v = x.as_strided(sizes, strides, offset)
    n = int(np.prod(sizes))
    Y = lib.arange(2.0, 2.0 + n, dtype=lib.float64).reshape(sizes) * 0.5 + 1
    M = (lib.arange(0, n).reshape(sizes) % 2) == 0
    V = x.as_strided(sizes, strides, offset + 1)  # an input sharing v's memory
    try:
        eval("v." + op, {"v": v, "Y": Y, "M": M, "V": V, "lib": lib})
        return "ok", x.tolist()
    except RuntimeError as e:
        return "RuntimeError", str(e).split("\n")[0]


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{g[0]}-{g[1]}-{g[2]}")
@pytest.mark.parametrize("op", OPS)
def test_writes_as_torch(geometry, op):
    assert _run(ctensor, *geometry, op) == _run(torch, *geometry, op)


@pytest.mark.parametrize("op", ["add_(V)", "copy_(V)", "sub_(V)", "add_(v)", "fmod_(v)"])
def test_an_input_sharing_the_memory_is_refused(op):
    """torch reads such an input live while it writes (TooHard to both of its checks); ctensor
    would read a copy made aside, so it refuses, before writing anything.  Also self itself
    (x.fmod_(x) on an unfold would meet a divisor turned 0 mid-way: an integer division by zero
    in torch's kernel)."""
    geometry = ((3, 2), (1, 1), 0)
    got = _run(ctensor, *geometry, op)
    assert got == ("RuntimeError", "unsupported operation: some elements of the input tensor and the written-to "
                                   "tensor refer to a single memory location. Please clone() the tensor before "
                                   "performing the operation.")
    assert _run(torch, *geometry, op)[0] == "ok"


def test_integer_fmod_of_itself_is_refused_not_a_crash():
    x = ctensor.arange(1, 9)
    v = x.unfold(0, 3, 1)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        v.fmod_(v)
    assert x.tolist() == list(range(1, 9))


@pytest.mark.parametrize("op", ["add_(1.0)", "copy_(lib.zeros(2, 3))", "mul_(lib.ones(2, 3))", "neg_()"])
def test_stride_zero_is_still_refused(op):
    """An expand: torch's has_internal_overlap says Yes, and both refuse with its message."""
    for lib in (ctensor, torch):
        e = lib.arange(3.0).expand(2, 3)
        with pytest.raises(RuntimeError, match="unsupported operation: more than one element of the written-to "
                                               "tensor refers to a single memory location"):
            eval("e." + op, {"e": e, "lib": lib})


@pytest.mark.parametrize("op", ["cumsum_(0)", "cumprod_(1)",
                                "clamp_(lib.full((3, 2), 2.5, dtype=lib.float64), lib.full((3, 2), 3.5, "
                                "dtype=lib.float64))"])
def test_ops_computed_aside_refuse_instead_of_differing(op):
    """torch writes these (reading what it wrote); ctensor computes them aside, which would
    leave other values, so it refuses: never a silent difference."""
    x = ctensor.arange(1.0, 13.0, dtype=ctensor.float64)
    v = x.as_strided((3, 2), (1, 1), 0)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        eval("v." + op, {"v": v, "lib": ctensor})
    assert x.tolist() == list(map(float, range(1, 13)))  # refused before any write
    assert _run(torch, (3, 2), (1, 1), 0, op)[0] == "ok"


def test_a_large_overlapping_write_is_serial_and_exact():
    """Above the parallel grain, each location is written once per index tuple reaching it,
    never by two threads at once: add_(1) leaves x + (the number of tuples per location)."""
    n = 100_000
    x = ctensor.zeros(n + 2, dtype=ctensor.float64)
    w = x.unfold(0, 3, 1)  # (n, 3), strides (1, 1): locations 1 .. n reached up to three times
    for _ in range(2):
        w.add_(1.0)
    counts = np.bincount((np.arange(n)[:, None] + np.arange(3)[None, :]).ravel(), minlength=n + 2)
    assert np.array_equal(np.array(x.tolist()), 2.0 * counts)
    w.copy_(ctensor.arange(float(3 * n), dtype=ctensor.float64).reshape(n, 3))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # torch's own threads would race on the shared locations
    try:
        t = torch.zeros(n + 2, dtype=torch.float64)
        t.unfold(0, 3, 1).copy_(torch.arange(float(3 * n), dtype=torch.float64).reshape(n, 3))
    finally:
        torch.set_num_threads(threads)
    assert x.tolist() == t.tolist()


def test_explain_still_reports_the_exact_overlap(capsys):
    x = ctensor.arange(8.0)
    ctensor.explain(x.unfold(0, 3, 1))
    assert "internal overlap: yes" in capsys.readouterr().out
    ctensor.explain(x.view(2, 4).t())
    assert "internal overlap: no" in capsys.readouterr().out
