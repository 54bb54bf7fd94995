"""Bool tensors over bytes other than 0 and 1 (a NumPy uint8 buffer viewed as bool, shared with
from_numpy): every op reads a non-zero byte as true, as torch 2.13 does for the same buffer
(torch.from_numpy of the same array).  The C-level sweep of every op is tests/capi/test_bool_bytes.cpp."""

import numpy as np
import pytest

import ctensor as ct

torch = pytest.importorskip("torch")


def raw_bools():
    return np.arange(256, dtype=np.uint8).reshape(16, 16).view(np.bool_)


OPS = {
    "tolist": lambda lib, x: x.tolist(),
    "items": lambda lib, x: [x[i, j].item() for i in range(16) for j in (0, 1, 7)],
    "bool()": lambda lib, x: [bool(x[i, 3]) for i in range(16)],
    "sum": lambda lib, x: (x.sum().item(), x.sum(0).tolist(), x.t().sum(1).tolist()),
    "prod": lambda lib, x: x.prod(1).tolist(),
    "amax/amin": lambda lib, x: (x.amax(0).tolist(), x.amin(1).tolist()),
    "max/min dim": lambda lib, x: (x.max(1).values.tolist(), x.min(0).indices.tolist()),
    "to": lambda lib, x: [x.to(d).tolist() for d in (lib.uint8, lib.int64, lib.float32, lib.float16)],
    "compare": lambda lib, x: [(x == x.t()).tolist(), (x != True).tolist(), (x < x[3]).tolist()],  # noqa: E712
    "arith": lambda lib, x: [(x + x.t()).tolist(), (x * x[5]).tolist(), (x / 2).tolist(), (x + 1).tolist()],
    "where": lambda lib, x: [lib.where(x, 1.0, -1.0).tolist(), lib.where(x.t(), x, x.t()).tolist()],
    "mask": lambda lib, x: lib.arange(256).view(16, 16)[x].tolist(),
    "equal": lambda lib, x: (lib.equal(x, x != 0), lib.equal(x, lib.ones(16, 16, dtype=lib.bool))),
    "repr": lambda lib, x: repr(x[:2, :4]).replace("ctensor", "torch"),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_non_zero_bytes_are_true(name):
    op = OPS[name]
    want = op(torch, torch.from_numpy(raw_bools()))
    got = op(ct, ct.from_numpy(raw_bools()))
    assert got == want


def _copy_(lib, x):
    out = lib.empty(16, 16, dtype=lib.bool)
    out.copy_(x)
    return out


# The bytes a copy writes: torch's copy kernel (clone, contiguous, copy_, reshape of a
# transpose) and flip, repeat, gather, take, masked_select and advanced indexing write 0/1;
# cat, stack, index_select and roll move the bytes as they are (torch: when their inputs are
# contiguous slices; torch's roll along an inner dim writes 0/1, ctensor's does not).
COPIES = {
    "clone": lambda lib, x: x.clone(),
    "clone of transpose": lambda lib, x: x.t().clone(),
    "contiguous": lambda lib, x: x.t().contiguous(),
    "reshape": lambda lib, x: x.t().reshape(256),
    "copy_": _copy_,
    "copy_ of transpose": lambda lib, x: _copy_(lib, x.t()),
    "to(copy=True)": lambda lib, x: x.to(lib.bool, copy=True),
    "flip": lambda lib, x: x.flip(1),
    "repeat": lambda lib, x: x.repeat(1, 2),
    "roll(3, 0)": lambda lib, x: x.roll(3, 0),
    "roll flat": lambda lib, x: x.roll(5),
    "cat": lambda lib, x: lib.cat([x, x]),
    "stack": lambda lib, x: lib.stack([x, x]),
    "index_select": lambda lib, x: x.index_select(0, lib.tensor([3, 1])),
    "gather": lambda lib, x: x.gather(1, lib.tensor([[3, 1]] * 16)),
    "take": lambda lib, x: x.take(lib.tensor([5, 200])),
    "masked_select": lambda lib, x: x.masked_select(lib.ones(16, 16, dtype=lib.bool)),
    "index": lambda lib, x: x[lib.tensor([2, 9])],
}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_bytes_a_copy_writes(name):
    op = COPIES[name]
    want = op(torch, torch.from_numpy(raw_bools())).contiguous().view(torch.uint8).tolist()
    got = op(ct, ct.from_numpy(raw_bools())).contiguous().view(ct.uint8).tolist()
    assert got == want
