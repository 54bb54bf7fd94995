#!/usr/bin/env python3
"""Complex arithmetic from Python: ctensor vs PyTorch, in one run.

    PYTHONPATH=<build>/python <venv>/bin/python bench/compare_complex.py [--repetitions 9] [--threads N]
                                                                         [--markdown]

Rows (issue 19's measurement):
  - a * b, complex64, 16M elements each (128 MB per tensor), out of place;
  - a @ b, complex64 [1024, 1024] @ [1024, 1024] (GEMM: ctensor's cblas_cgemm from OpenBLAS,
    torch's own BLAS).
Each repetition times both libraries once, in turn (timeit, a loop count sized to --budget), so
that the other load of a shared machine falls on both alike; the table gives the median per
library over the repetitions and the median of the per-repetition ratios ct/torch (below 1:
ctensor faster) with their spread (min-max).  --threads N sets both libraries' thread counts.
"""

import argparse
import os
import platform
import statistics
import timeit

import numpy as np
import torch

import ctensor
from bench_table import print_table, spread

N_MUL, N_MM = 16 * 1024 * 1024, 1024

ROWS = [
    ("mul [16M] c64 * c64 -> c64", "a * b"),
    ("matmul [1024,1024] @ [1024,1024] c64", "m @ n"),
]


def setups():
    rng = np.random.default_rng(0)

    def c64(shape):
        return (rng.standard_normal(shape, dtype=np.float32)
                + 1j * rng.standard_normal(shape, dtype=np.float32)).astype(np.complex64)
    arrays = {"a": c64(N_MUL), "b": c64(N_MUL), "m": c64((N_MM, N_MM)), "n": c64((N_MM, N_MM))}
    return {
        "ctensor": {k: ctensor.tensor(v) for k, v in arrays.items()},
        "torch": {k: torch.from_numpy(v).clone() for k, v in arrays.items()},
    }


def check_results(envs):
    """The rows compute the same thing: mul bit for bit, GEMM to float32 rounding."""
    c, t = eval("a * b", envs["ctensor"]), eval("a * b", envs["torch"])  # noqa: S307 - our own statements
    assert c.stride() == t.stride() and np.array_equal(c.numpy(), t.numpy())
    c, t = eval("m @ n", envs["ctensor"]), eval("m @ n", envs["torch"])  # noqa: S307
    np.testing.assert_allclose(c.numpy(), t.numpy(), rtol=1e-3, atol=1e-3)


def per_call_s(stmt, env, budget):
    timer = timeit.Timer(stmt, globals=env)
    number, elapsed = timer.autorange()
    number = max(1, int(number * budget / max(elapsed, 1e-9)))
    return timer.timeit(number=number) / number


def measure(repetitions, budget):
    envs = setups()
    check_results(envs)
    out = []
    for label, stmt in ROWS:
        times = {lib: [] for lib in envs}
        for _ in range(repetitions):
            for lib in envs:
                times[lib].append(per_call_s(stmt, envs[lib], budget))
        out.append((label, times))
    return out


def ms(s):
    return f"{s * 1e3:.2f} ms"


def report(results, markdown):
    head = ["operation", "ctensor", "PyTorch", "ct/PyTorch (min-max)"]
    rows = []
    for label, t in results:
        r = [c / x for c, x in zip(t["ctensor"], t["torch"])]
        rows.append([label, ms(statistics.median(t["ctensor"])), ms(statistics.median(t["torch"])),
                     spread(r)])
    print_table(head, rows, markdown)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=9)
    ap.add_argument("--budget", type=float, default=0.3, help="seconds per timing")
    ap.add_argument("--threads", type=int, default=0,
                    help="threads for ctensor and torch alike (0: each library's default)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if args.threads > 0:
        ctensor._C.ct_set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__} "
          f"({torch.get_num_threads()} threads), ctensor {ctensor.__version__} "
          f"({ctensor._C.ct_get_num_threads()} threads); "
          f"medians of {args.repetitions} alternated repetitions")
    report(measure(args.repetitions, args.budget), args.markdown)


if __name__ == "__main__":
    main()
