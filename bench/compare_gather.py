#!/usr/bin/env python3
"""gather and index_select from Python: ctensor vs PyTorch, in one run.

    PYTHONPATH=<build>/python <venv>/bin/python bench/compare_gather.py [--repetitions 9] [--threads N]
                                                                        [--markdown]

Rows (issue 20's measurement: "gather and index_select of 1M rows no slower than torch"), on a
[1_000_000, 16] float32 tensor x (64 MB) and int64 indexes drawn at random (seeded):
  - x.index_select(0, perm) with perm a permutation of the 1M rows;
  - x.gather(0, idx) with idx [1M, 16] of random rows (each element picks its own row);
  - x.gather(1, idx) with idx [1M, 4] of random columns (a narrow gather along the inner dim).
Each repetition times both libraries once, in turn (timeit, a loop count sized to --budget), so
that the other load of a shared machine falls on both alike; the table gives the median per
library over the repetitions and the median of the per-repetition ratios ct/torch (below 1:
ctensor faster) with their spread (min-max).  --threads N sets both libraries' thread counts.
"""


import numpy as np
import torch

import ctensor
from bench_table import alternate, arg_parser, report_against, start

ROWS_N, COLS = 1_000_000, 16

ROWS = [
    ("index_select(0, perm) [1M,16] f32 -> [1M,16]", "x.index_select(0, perm)", "x.index_select(0, perm)"),
    ("gather(0, idx[1M,16]) [1M,16] f32", "x.gather(0, rows)", "x.gather(0, rows)"),
    ("gather(1, idx[1M,4]) [1M,16] f32", "x.gather(1, cols)", "x.gather(1, cols)"),
]


def setups():
    rng = np.random.default_rng(0)
    x = rng.random((ROWS_N, COLS), dtype=np.float32)
    perm = rng.permutation(ROWS_N).astype(np.int64)
    rows = rng.integers(0, ROWS_N, size=(ROWS_N, COLS), dtype=np.int64)
    cols = rng.integers(0, COLS, size=(ROWS_N, 4), dtype=np.int64)
    arrays = {"x": x, "perm": perm, "rows": rows, "cols": cols}
    return {
        "ctensor": {k: ctensor.tensor(v) for k, v in arrays.items()},
        "torch": {k: torch.tensor(v) for k, v in arrays.items()},
    }


def check_results(envs):
    """The rows compute the same thing: same shapes, strides and values in ctensor and torch."""
    for _, ct_stmt, t_stmt in ROWS:
        c = eval(ct_stmt, envs["ctensor"])  # noqa: S307 - our own statements
        t = eval(t_stmt, envs["torch"])  # noqa: S307
        assert c.stride() == t.stride(), (c.stride(), t.stride())
        assert np.array_equal(c.numpy(), t.numpy())


def measure(repetitions, budget):
    envs = setups()
    check_results(envs)
    return [(label, alternate({"ctensor": ct_stmt, "torch": t_stmt}, envs, repetitions, budget))
            for label, ct_stmt, t_stmt in ROWS]


def main():
    args = arg_parser(__doc__, 9).parse_args()
    start(args)
    report_against(measure(args.repetitions, args.budget), ["torch"], args.markdown)


if __name__ == "__main__":
    main()
