#!/usr/bin/env python3
"""Cost of a view op from Python: ctensor vs NumPy vs PyTorch, side by side (timeit).

    PYTHONPATH=<build>/python /usr/bin/python3 bench/compare_views.py [--quick] [--modes]

For each op, the three libraries are timed in alternation, several rounds, and the minimum per
call is kept (the machine's other load only ever adds time).  Ratios are ctensor / NumPy and
ctensor / PyTorch; the goal is at most 1.5x NumPy and at most 1/3 of PyTorch.

--modes also builds, in a temporary directory, the same small interface (one view op as a
method of the tensor class) with SWIG's default proxy classes and with -builtin, plus a C loop
over the same C call, and times all of them: the numbers behind the choice of -builtin.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import timeit

import numpy as np

try:
    import torch
except ImportError:
    torch = None

import ctensor

REPO = pathlib.Path(__file__).resolve().parents[1]

# (label, ctensor/torch statement, NumPy statement)
OPS = [
    ("x[1:3, 1:3]", "x[1:3, 1:3]", "a[1:3, 1:3]"),
    ("x.t()", "x.t()", "a.transpose()"),
    ("x.reshape(4, 3)", "x.reshape(4, 3)", "a.reshape(4, 3)"),
    ("x.view(4, 3)", "x.view(4, 3)", "a.reshape(4, 3)"),
    ("x.transpose(0, 1)", "x.transpose(0, 1)", "a.swapaxes(0, 1)"),
    ("x.T", "x.T", "a.T"),
    ("x[1]", "x[1]", "a[1]"),
    ("x[:, None]", "x[:, None]", "a[:, None]"),
    ("x.unsqueeze(0)", "x.unsqueeze(0)", "a[None]"),
    ("x.narrow(1, 1, 2)", "x.narrow(1, 1, 2)", "a[:, 1:3]"),
    ("x.select(1, 2)", "x.select(1, 2)", "a[:, 2]"),
    ("x.expand(2, 3, 4)", "x.expand(2, 3, 4)", "np.broadcast_to(a, (2, 3, 4))"),
    ("x.shape", "x.shape", "a.shape"),
]
TARGETS = {"x[1:3, 1:3]", "x.t()", "x.reshape(4, 3)"}


def best(stmt, env, number, rounds):
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=rounds)) / number * 1e9


def measure(number, rounds, passes):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x_ct = ctensor.arange(12.0).reshape(3, 4)
    env_np = {"a": a, "np": np}
    env_ct = {"x": x_ct}
    env_t = {"x": torch.arange(12.0).reshape(3, 4)} if torch else None
    rows = []
    for label, stmt, np_stmt in OPS:
        t_np, t_ct, t_t = [], [], []
        for _ in range(passes):  # alternate, so that load changes hit all three alike
            t_np.append(best(np_stmt, env_np, number, rounds))
            t_ct.append(best(stmt, env_ct, number, rounds))
            if env_t:
                t_t.append(best(stmt, env_t, number // 4 or 1, rounds))
        rows.append((label, min(t_np), min(t_ct), min(t_t) if t_t else float("nan")))
    return rows


def report(rows):
    print(f"{'op':22s} {'NumPy ns':>9s} {'ctensor ns':>10s} {'torch ns':>9s} {'ct/np':>7s} {'ct/torch':>9s}  target")
    for label, n, c, t in rows:
        target = ""
        if label in TARGETS:
            ok = c <= 1.5 * n and (t != t or c <= t / 3)
            target = "met" if ok else ("<= torch/3 only" if c <= t / 3 else "missed")
        print(f"{label:22s} {n:9.0f} {c:10.0f} {t:9.0f} {c / n:7.2f} {c / t:9.2f}  {target}")


# ---- --modes: SWIG proxies vs -builtin vs a C loop -------------------------------------------

MODES_I = """
%module(package="") m
%{
#include "ctensor.h"
%}
%nodefaultctor ct_tensor;
%rename(Tensor) ct_tensor;
struct ct_tensor {};
%exception {
  ct_clear_error();
  $action
  if (ct_last_status() != CT_OK) { PyErr_SetString(PyExc_RuntimeError, ct_last_error()); SWIG_fail; }
}
%newobject ct_tensor::t;
%newobject make;
%extend ct_tensor {
  ~ct_tensor() { ct_tensor_release($self); }
  ct_tensor *t() { return ct_transpose($self, 0, 1); }
}
%inline %{
ct_tensor *make(void) { int64_t s[2] = {3, 4}; ct_tensor *a = ct_arange(0, 12, 1, CT_FLOAT32);
  ct_tensor *v = ct_reshape(a, 2, s); ct_tensor_release(a); return v; }
%}
"""

C_LOOP = r"""
#include <stdio.h>
#include <time.h>
#include "ctensor.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void) {
  int64_t s[2] = {3, 4}, r[2] = {4, 3}, sz[2] = {2, 2}, st[2] = {4, 1};
  ct_tensor *a = ct_arange(0, 12, 1, CT_FLOAT32), *x = ct_reshape(a, 2, s);
  const int n = 20000; /* many short batches: the minimum escapes the machine's other load */
  double best[3] = {1e9, 1e9, 1e9};
  for (int rep = 0; rep < 300; ++rep) {
    double t0 = now();
    for (int i = 0; i < n; ++i) ct_tensor_release(ct_transpose(x, 0, 1));
    double t1 = now();
    for (int i = 0; i < n; ++i) ct_tensor_release(ct_as_strided(x, 2, sz, st, 5));
    double t2 = now();
    for (int i = 0; i < n; ++i) ct_tensor_release(ct_reshape(x, 2, r));
    double t3 = now();
    double d[3] = {t1 - t0, t2 - t1, t3 - t2};
    for (int k = 0; k < 3; ++k) if (d[k] / n * 1e9 < best[k]) best[k] = d[k] / n * 1e9;
  }
  printf("%.1f %.1f %.1f\n", best[0], best[1], best[2]);
  return 0;
}
"""


def find_libctensor():
    lib = os.environ.get("CTENSOR_LIB")
    if lib:
        return pathlib.Path(lib)
    out = subprocess.run(["ldd", ctensor._C.__file__], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "libctensor" in line and "=>" in line:
            return pathlib.Path(line.split("=>")[1].split()[0])
    raise SystemExit("cannot find libctensor: set CTENSOR_LIB")


def modes(number, rounds):
    lib = find_libctensor()
    inc = REPO / "include"
    pyinc = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "m.i").write_text(MODES_I)
        link = [f"-L{lib.parent}", f"-l:{lib.name}", f"-Wl,-rpath,{lib.parent}"]
        for mode, flags in (("proxy", []), ("builtin", ["-builtin"])):
            d = tmp / mode
            d.mkdir()
            subprocess.run(["swig", "-python", *flags, f"-I{inc}", "-outdir", str(d), "-o", str(d / "m_wrap.c"),
                            str(tmp / "m.i")], check=True)
            subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-I{pyinc}", f"-I{inc}", str(d / "m_wrap.c"),
                            "-o", str(d / f"_m{suffix}"), *link], check=True)
            code = textwrap.dedent(f"""
                import sys, timeit
                sys.path.insert(0, {str(d)!r})
                import m
                x = m.make()
                print(min(timeit.repeat("x.t()", globals=globals(), number={number}, repeat={rounds})) / {number} * 1e9)
            """)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            results[mode] = float(out.stdout)
        (tmp / "loop.c").write_text(C_LOOP)
        subprocess.run(["cc", "-O2", f"-I{inc}", str(tmp / "loop.c"), "-o", str(tmp / "loop"), *link], check=True)
        c_t, c_strided, c_reshape = map(float, subprocess.run([str(tmp / "loop")], capture_output=True, text=True,
                                                              check=True).stdout.split())
    x = ctensor.arange(12.0).reshape(3, 4)
    results["ctensor"] = best("x.t()", {"x": x}, number, rounds)
    print("\nx.t() by binding style (ns per call, same C call ct_transpose + release):")
    print(f"  SWIG default proxy class   {results['proxy']:8.0f}")
    print(f"  SWIG -builtin type          {results['builtin']:8.0f}   ({results['proxy'] / results['builtin']:.1f}x faster)")
    print(f"  ctensor (-builtin + fast paths) {results['ctensor']:4.0f}")
    print(f"  C loop, no Python           {c_t:8.1f}")
    print("C floor of the other target ops (no Python):")
    print(f"  ct_as_strided (x[1:3, 1:3]) {c_strided:8.1f}")
    print(f"  ct_reshape (view)           {c_reshape:8.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    ap.add_argument("--modes", action="store_true", help="also compare SWIG proxy vs -builtin (needs swig, cc)")
    args = ap.parse_args()
    number, rounds, passes = (2000, 3, 1) if args.quick else (100000, 5, 3)
    print(f"NumPy {np.__version__}, torch {torch.__version__ if torch else '(not installed)'}, "
          f"ctensor {ctensor.__version__}; min of {rounds}x{number} calls, {passes} alternating passes\n")
    report(measure(number, rounds, passes))
    if args.modes:
        modes(number, rounds)


if __name__ == "__main__":
    main()
