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
