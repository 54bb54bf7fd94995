#!/usr/bin/env python3
"""repeat and flip of a 64 MiB float32 tensor: ctensor vs PyTorch vs memcpy, in one run.

    PYTHONPATH=<build>/python <venv>/bin/python bench/compare_repeat_flip.py [--repetitions 11] [--threads N]
                                                                            [--markdown]

Issue 20 asks for repeat and flip at >= 0.8 of memcpy bandwidth.  The input is [4096, 4096]
float32 (64 MiB).  Each row's memcpy baseline is glibc's memcpy (ctypes.memmove between two
preallocated NumPy buffers) of as many bytes as the row's result has, so "ct/memcpy" is memcpy's
time over ctensor's: 1.0 means the op writes its result as fast as a plain copy of that many
bytes into memory already touched (the op itself also allocates its result, as torch's does).
Each repetition times every contender once, in turn (timeit, a loop count sized to --budget), so
that the load of a shared machine falls on all alike; the table gives medians over the
repetitions and the median (min-max) of the per-repetition ratios.  --threads N sets ctensor's
and torch's thread counts alike (memcpy is one thread).
"""

import ctypes
import statistics

import numpy as np
import torch

import ctensor
from bench_table import alternate, arg_parser, print_table, spread, start

SHAPE = (4096, 4096)  # 64 MiB of float32

# label, ctensor statement, torch statement, result bytes (for the memcpy baseline)
ROWS = [
    ("repeat(2, 1) [4096,4096] f32 -> 128 MiB", "x.repeat(2, 1)", "x.repeat(2, 1)", 2),
    ("repeat(1, 2) [4096,4096] f32 -> 128 MiB", "x.repeat(1, 2)", "x.repeat(1, 2)", 2),
    ("flip(0) [4096,4096] f32", "x.flip(0)", "x.flip(0)", 1),
    ("flip(1) [4096,4096] f32", "x.flip(1)", "x.flip(1)", 1),
    ("flip(0, 1) [4096,4096] f32", "x.flip(0, 1)", "x.flip(0, 1)", 1),
]


def setups():
    x = np.random.default_rng(0).random(SHAPE, dtype=np.float32)
    return {"ctensor": {"x": ctensor.tensor(x)}, "torch": {"x": torch.tensor(x)}}


def check_results(envs):
    """Each row computes the same values and layout in ctensor and torch."""
    for _, ct_stmt, t_stmt, _ in ROWS:
        c = eval(ct_stmt, envs["ctensor"])  # noqa: S307 - our own statements
        t = eval(t_stmt, envs["torch"])  # noqa: S307
        assert c.stride() == t.stride(), (c.stride(), t.stride())
        assert np.array_equal(c.numpy(), t.numpy())


def memcpy_env(nbytes):
    src = np.ones(nbytes, dtype=np.uint8)
    dst = np.zeros(nbytes, dtype=np.uint8)  # touched: no page faults in the timed copy
    return {"memmove": ctypes.memmove, "d": dst.ctypes.data, "s": src.ctypes.data, "n": nbytes,
            "_keep": (src, dst)}


def measure(repetitions, budget):
    envs = setups()
    check_results(envs)
    in_bytes = envs["torch"]["x"].numel() * 4
    out = []
    for label, ct_stmt, t_stmt, factor in ROWS:
        envs["memcpy"] = memcpy_env(in_bytes * factor)
        stmts = {"ctensor": ct_stmt, "torch": t_stmt, "memcpy": "memmove(d, s, n)"}
        out.append((label, in_bytes * factor, alternate(stmts, envs, repetitions, budget)))
        del envs["memcpy"]
    return out


def report(results, markdown):
    head = ["operation", "ctensor", "PyTorch", "memcpy", "ct GB/s", "ct/memcpy (min-max)", "torch/memcpy",
            "ct/PyTorch (min-max)"]
    rows = []
    for label, nbytes, t in results:
        r_m = [m / c for c, m in zip(t["ctensor"], t["memcpy"])]
        r_tm = [m / x for x, m in zip(t["torch"], t["memcpy"])]
        r_t = [x / c for c, x in zip(t["ctensor"], t["torch"])]
        med = {k: statistics.median(v) for k, v in t.items()}
        rows.append([label, f"{med['ctensor'] * 1e3:.1f} ms", f"{med['torch'] * 1e3:.1f} ms",
                     f"{med['memcpy'] * 1e3:.1f} ms", f"{nbytes / med['ctensor'] / 1e9:.2f}",
                     spread(r_m),
                     f"{statistics.median(r_tm):.2f}",
                     spread(r_t)])
    print_table(head, rows, markdown)


def main():
    args = arg_parser(__doc__, 11, threads=1).parse_args()
    start(args, "; ratios: higher is faster for ctensor")
    report(measure(args.repetitions, args.budget), args.markdown)


if __name__ == "__main__":
    main()
