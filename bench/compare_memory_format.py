#!/usr/bin/env python3
"""Channels-last from Python: ctensor vs PyTorch (and NumPy where it means the same), in one run.

    PYTHONPATH=<build>/python <venv>/bin/python bench/compare_memory_format.py [--repetitions 15] [--threads N]
                                                                               [--markdown]

Rows (issue 18's measurement), on a [32, 64, 56, 56] float32 tensor (25.7 M elements, 103 MB):
  - x.contiguous(memory_format=channels_last) of a contiguous x (NumPy: the same bytes
    moved, np.ascontiguousarray(x.transpose(0, 2, 3, 1)));
  - a + b of two channels-last tensors (a channels-last result; NumPy: a + b of two
    C-contiguous (N, H, W, C) arrays, the same memory walk).
Each repetition times every library once, in turn (timeit, a loop count sized to --budget), so
that the other load of a shared machine falls on all alike; the table gives the median per
library over the repetitions, the median of the per-repetition ratios ct/torch and ct/NumPy
(below 1: ctensor faster), and their spread (min-max).  NumPy runs on one thread; --threads N
sets ctensor's and torch's thread counts alike (on a shared, overloaded machine a 2-thread run of
either is slower than a 1-thread one: the parallel region waits for a descheduled thread).
"""


import numpy as np
import torch

import ctensor
from bench_table import alternate, arg_parser, report_against, start

SHAPE = (32, 64, 56, 56)

ROWS = [
    ("contiguous(channels_last) [32,64,56,56] f32",
     "x.contiguous(memory_format=ctensor.channels_last)",
     "x.contiguous(memory_format=torch.channels_last)",
     "np.ascontiguousarray(x.transpose(0, 2, 3, 1))"),
    ("a + b, both channels_last [32,64,56,56] f32", "a + b", "a + b", "a + b"),
]


def setups():
    rng = np.random.default_rng(0)
    x = rng.random(SHAPE, dtype=np.float32)
    a = rng.random(SHAPE, dtype=np.float32)
    b = rng.random(SHAPE, dtype=np.float32)
    nhwc = (0, 2, 3, 1)
    envs = {
        "ctensor": {"ctensor": ctensor, "x": ctensor.tensor(x),
                    "a": ctensor.tensor(a).contiguous(memory_format=ctensor.channels_last),
                    "b": ctensor.tensor(b).contiguous(memory_format=ctensor.channels_last)},
        "torch": {"torch": torch, "x": torch.tensor(x),
                  "a": torch.tensor(a).contiguous(memory_format=torch.channels_last),
                  "b": torch.tensor(b).contiguous(memory_format=torch.channels_last)},
        "numpy": {"np": np, "x": x, "a": np.ascontiguousarray(a.transpose(nhwc)),
                  "b": np.ascontiguousarray(b.transpose(nhwc))},
    }
    # the same layouts and values everywhere
    for name in ("a", "b"):
        assert envs["ctensor"][name].stride() == envs["torch"][name].stride()
        assert envs["ctensor"][name].is_contiguous(memory_format=ctensor.channels_last)
    return envs


def check_results(envs):
    """The rows compute the same thing: same strides and values in ctensor and torch."""
    for _, ct_stmt, t_stmt, _ in ROWS:
        c = eval(ct_stmt, envs["ctensor"])  # noqa: S307 - our own statements
        t = eval(t_stmt, envs["torch"])  # noqa: S307
        assert c.stride() == t.stride(), (c.stride(), t.stride())
        assert np.array_equal(c.numpy(), t.numpy())


def measure(repetitions, budget):
    envs = setups()
    check_results(envs)
    return [(label, alternate({"ctensor": ct_stmt, "torch": t_stmt, "numpy": np_stmt}, envs, repetitions, budget))
            for label, ct_stmt, t_stmt, np_stmt in ROWS]


def main():
    args = arg_parser(__doc__, 15).parse_args()
    start(args)
    report_against(measure(args.repetitions, args.budget), ["torch", "numpy"], args.markdown)


if __name__ == "__main__":
    main()
