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


import numpy as np
import torch

import ctensor
from bench_table import alternate, arg_parser, report_against, start

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


def measure(repetitions, budget):
    envs = setups()
    check_results(envs)
    return [(label, alternate({"ctensor": stmt, "torch": stmt}, envs, repetitions, budget)) for label, stmt in ROWS]


def main():
    args = arg_parser(__doc__, 9).parse_args()
    start(args)
    report_against(measure(args.repetitions, args.budget), ["torch"], args.markdown)


if __name__ == "__main__":
    main()
