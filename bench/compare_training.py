#!/usr/bin/env python3
"""A training step from Python, ctensor vs PyTorch, and the same step in C (issue 26).

    PYTHONPATH=<build>/python python3 bench/compare_training.py [--build DIR] [--quick] [--libtorch]

The step: a 3-layer MLP (three WIDTH x WIDTH float32 weights with biases, ReLU after the first
two), MSE loss against a fixed target, backward, and torch.optim.SGD's update under no_grad:
`p.add_(p.grad, alpha=-lr)` in place, then the gradients set to None (optimizer.zero_grad()'s
default since torch 2.0); one thread for every library.  The same function runs on ctensor and
on torch (`lib` is the module).  `--zero-in-place` times older code's update instead:
`p.sub_(p.grad * lr)` through a temporary and `p.grad.zero_()` (zero_grad(set_to_none=False)),
which moves three more weight-sized buffers a step.  Two sizes:
  - batch 8, width 32: framework overhead dominates.  Targets: ctensor <= 0.25x torch, and
    the step written in C against the header (bench/train_step.c) <= 0.5x ctensor's Python.
  - batch 64, width 256: GEMM dominates.  Targets: ctensor <= 1.10x the time of the step's
    GEMMs called directly through cblas (train_step --gemms: eight sgemm calls, three forward
    and two per layer backward but none for the input, which needs no gradient), and <= 1.0x
    torch.  A second GEMM row times the same calls with C zeroed by memset and beta = 1, as
    ctensor's matmul makes them, for the ratio without that difference.
`--libtorch` adds the same step written against libtorch's C++ API
(bench/libtorch/train_step_libtorch.cpp, compiled on demand into DIR/bench against the imported
torch's own headers and libraries) and its ratio to torch's Python step: the reference for the
C/Python target, i.e. what torch's C++ frontend saves over torch's Python.
Each library and C program is timed in alternation, three rounds, keeping the minimum mean per step
(the machine's other load only ever adds time).
"""

import argparse
import os
import pathlib
import subprocess
import sys
import timeit

import ctensor

try:
    import torch
except ImportError:
    torch = None

REPO = pathlib.Path(__file__).resolve().parents[1]
LR = 1e-3


def make_model(lib, batch, width):
    lib.manual_seed(0)
    params = []
    for _ in range(3):
        w = (lib.randn(width, width) * 0.1).requires_grad_()
        b = lib.zeros(width).requires_grad_()
        params += [w, b]
    x = lib.randn(batch, width)
    y = lib.randn(batch, width)
    return params, x, y


def make_step(lib, params, x, y, zero_in_place=False):
    w1, b1, w2, b2, w3, b3 = params

    def step():
        h = (x @ w1 + b1).relu()
        h = (h @ w2 + b2).relu()
        out = h @ w3 + b3
        diff = out - y
        loss = (diff * diff).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                if zero_in_place:
                    p.sub_(p.grad * LR)
                    p.grad.zero_()
                else:
                    p.add_(p.grad, alpha=-LR)
                    p.grad = None

    for _ in range(20):  # warm up: the gradients exist, caches are filled
        step()
    return step


def per_step_ns(step, seconds):
    number = 1
    while timeit.timeit(step, number=number) < seconds / 10:
        number *= 2
    return min(timeit.repeat(step, number=number, repeat=5)) / number * 1e9


def c_figures(build, batch, width, seconds, zero_in_place):
    exe = pathlib.Path(build) / "bench" / "train_step"
    if not exe.exists():
        return {}
    run = subprocess.run([str(exe), str(batch), str(width), str(seconds), "--gemms"]
                         + (["--zero-in-place"] if zero_in_place else []), capture_output=True,
                         text=True, check=True, timeout=600)
    return {k: float(v) for k, v in (line.split() for line in run.stdout.splitlines())}


def libtorch_binary(build):
    """Compiles bench/libtorch/train_step_libtorch.cpp into BUILD/bench when missing or stale;
    None (with the reason on stderr) when it cannot.  Not a CMake target: torch's
    headers take about half a minute to compile, which CI should not pay."""
    if torch is None:
        print("--libtorch: torch is not installed; no libtorch row", file=sys.stderr)
        return None
    root = pathlib.Path(torch.__file__).resolve().parent
    inc, lib = root / "include", root / "lib"
    api = inc / "torch" / "csrc" / "api" / "include"
    missing = [p for p in (api / "torch" / "torch.h", lib / "libtorch_cpu.so", lib / "libc10.so") if not p.exists()]
    if missing:
        print(f"--libtorch: {missing[0]} not found (this torch ships no C++ headers or libraries); "
              "no libtorch row", file=sys.stderr)
        return None
    src = REPO / "bench" / "libtorch" / "train_step_libtorch.cpp"
    exe = pathlib.Path(build) / "bench" / "train_step_libtorch"
    # Rebuilt when the source or the torch it links changed (a new wheel's ABI may differ).
    if exe.exists() and exe.stat().st_mtime >= max(src.stat().st_mtime, (lib / "libtorch_cpu.so").stat().st_mtime):
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    tmp = exe.with_name(exe.name + ".tmp")
    abi = int(torch.compiled_with_cxx11_abi())  # must match, or std::string symbols do not link
    cmd = [os.environ.get("CXX", "c++"), "-std=c++17", "-O2", f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
           "-isystem", str(inc), "-isystem", str(api), str(src), "-o", str(tmp),
           f"-L{lib}", f"-Wl,-rpath,{lib}", "-ltorch", "-ltorch_cpu", "-lc10"]
    print(f"compiling {exe} against {root} (about half a minute)", file=sys.stderr)
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"--libtorch: compiling failed; no libtorch row:\n{' '.join(cmd)}\n{run.stderr[-3000:]}",
              file=sys.stderr)
        return None
    tmp.replace(exe)
    return exe


def libtorch_step_ns(exe, batch, width, seconds):
    run = subprocess.run([str(exe), str(batch), str(width), str(seconds)], capture_output=True,
                         text=True, check=True, timeout=600)
    key, value = run.stdout.split()
    assert key == "step_ns", run.stdout
    return float(value)


def fmt(ns):
    return f"{ns / 1e3:8.1f} us"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=str(REPO / "build"), help="build directory holding bench/train_step")
    ap.add_argument("--quick", action="store_true", help="short rounds (a smoke run)")
    ap.add_argument("--zero-in-place", action="store_true",
                    help="older code's update: p.sub_(p.grad * lr) and p.grad.zero_()")
    ap.add_argument("--libtorch", action="store_true",
                    help="add the step written against libtorch's C++ API (compiled on demand into BUILD/bench)")
    args = ap.parse_args()
    seconds = 0.05 if args.quick else 1.0
    ctensor.set_num_threads(1)
    if args.libtorch and args.zero_in_place:
        ap.error("--libtorch times torch.optim.SGD's update only")
    libtorch_exe = libtorch_binary(args.build) if args.libtorch else None
    libs = [ctensor] + ([torch] if torch else [])
    if torch:
        torch.set_num_threads(1)
    print(f"ctensor {ctensor.__version__}, PyTorch {torch.__version__ if torch else '(not installed)'}; "
          f"one thread each; update: {'zeroed in place' if args.zero_in_place else 'torch.optim.SGD'}")
    for batch, width in ((8, 32), (64, 256)):
        steps = {lib.__name__: make_step(lib, *make_model(lib, batch, width), args.zero_in_place) for lib in libs}
        best = {name: float("inf") for name in steps}
        lt_ns = float("inf") if libtorch_exe else None
        c = {}
        # Alternate the libraries, and the C programs with them: each ratio compares two steps
        # timed in the same minutes (the minimum of three rounds each).
        for _ in range(3):
            for name, step in steps.items():
                best[name] = min(best[name], per_step_ns(step, seconds / 3))
            if libtorch_exe:
                lt_ns = min(lt_ns, libtorch_step_ns(libtorch_exe, batch, width, seconds / 3))
            for key, ns in c_figures(args.build, batch, width, seconds / 3, args.zero_in_place).items():
                c[key] = min(c.get(key, float("inf")), ns)
        ct_ns = best["ctensor"]
        print(f"\nbatch {batch}, width {width}: time per step")
        print(f"  ctensor (Python)   {fmt(ct_ns)}")
        if torch:
            print(f"  torch (Python)     {fmt(best['torch'])}   ctensor/torch {ct_ns / best['torch']:.2f}")
        if lt_ns is not None:
            print(f"  libtorch (C++)     {fmt(lt_ns)}   libtorch C++/torch Python {lt_ns / best['torch']:.2f}")
        if "step_ns" in c:
            print(f"  ctensor (C)        {fmt(c['step_ns'])}   C/Python {c['step_ns'] / ct_ns:.2f}")
        if "gemms_ns" in c:
            print(f"  its GEMMs (cblas)  {fmt(c['gemms_ns'])}   ctensor/GEMMs {ct_ns / c['gemms_ns']:.2f}")
        if "gemms_memset_ns" in c:
            # The same calls with C zeroed by memset and beta = 1, as ctensor's matmul calls
            # them: what the step costs over GEMMs that avoid OpenBLAS's scalar zeroing too.
            print(f"  (C by memset)      {fmt(c['gemms_memset_ns'])}   ctensor/these   "
                  f"{ct_ns / c['gemms_memset_ns']:.2f}")


if __name__ == "__main__":
    main()
