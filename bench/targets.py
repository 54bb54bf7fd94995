#!/usr/bin/env python3
"""The performance targets, measured: runs the Google Benchmark binaries of a build and
prints one table of the figures the issues name, each a ratio to a baseline measured in the
same binary (or a time, for the view row).

    /usr/bin/python3 bench/targets.py <build dir> [--repetitions N] [--markdown]

Run it on a quiet machine (the ratios are taken side by side, but a busy machine still
skews multi-threaded rows against single-threaded baselines).  OMP_WAIT_POLICY=passive is
set for the children so idle OpenMP threads do not spin against the baselines.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys


def run(binary, pattern, repetitions):
    """Median of each benchmark's repetitions: {name: row}, row = the JSON of the median."""
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    out = subprocess.run([str(binary), f"--benchmark_filter={pattern}", f"--benchmark_repetitions={repetitions}",
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         capture_output=True, text=True, env=env, check=True).stdout
    rows = {}
    for b in json.loads(out)["benchmarks"]:
        # One repetition gives no aggregates: its single run is the median.
        if b.get("aggregate_name") == "median" or (repetitions == 1 and b.get("run_type") == "iteration"):
            rows[b["run_name"]] = b
    return rows


def find(rows, prefix):
    for name, row in rows.items():
        if name.startswith(prefix):
            return row
    raise KeyError(f"no benchmark row starting with {prefix!r} (have: {sorted(rows)})")


def seconds(row):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[row["time_unit"]]
    return row["real_time"] * scale


def measure(build, repetitions):
    bench = pathlib.Path(build) / "bench"
    figures = []  # (figure, value, target text, met)

    views = run(bench / "bench_views", "BM_capi_|BM_core_transpose|BM_baseline_malloc128", repetitions)
    ns = find(views, "BM_capi_transpose")["cpu_time"]
    figures.append(("view create+release, C ABI (ct_transpose + release)", f"{ns:.1f} ns", "<= 50 ns", ns <= 50))
    for name in ("slice", "view", "reshape_view"):
        figures.append((f"  (ct_{name.split('_')[0]} + release)", f"{find(views, 'BM_capi_' + name)['cpu_time']:.1f} ns",
                        "", None))
    size = int(find(views, "BM_core_transpose")["tensor_bytes"])
    figures.append(("Tensor object size (up to 4 dims inline)", f"{size} bytes", "<= 128", size <= 128))
    figures.append(("  (malloc+free of 128 bytes, same run)", f"{find(views, 'BM_baseline_malloc128')['cpu_time']:.1f} ns",
                    "", None))

    copy = run(bench / "bench_copy", "BM_Memcpy|BM_ContiguousTransposed/float32|BM_ContiguousPermute|"
               "BM_CopyIntoTransposed", repetitions)
    for threads, note in ((0, ""), (1, ", 1 thread")):
        row = find(copy, f"BM_ContiguousTransposed/float32_4096x4096/threads:{threads}/")
        r = row["vs_memcpy"]
        cpu = f" (CPU time: {row['vs_memcpy_cpu']:.2f})" if threads == 1 else ""
        figures.append((f"2-D transpose -> contiguous, 4096^2 float32{note}, vs memcpy", f"{r:.2f}{cpu}",
                        ">= 0.80" if not threads else "", r >= 0.8 if not threads else None))
        row = find(copy, f"BM_CopyIntoTransposed/threads:{threads}/")
        cpu = f" (CPU time: {row['vs_memcpy_cpu']:.2f})" if threads == 1 else ""
        figures.append((f"  (the same copy into an existing tensor{note})", f"{row['vs_memcpy']:.2f}{cpu}", "", None))
    for threads, note in ((0, ""), (1, ", 1 thread")):
        perms = {name: row["vs_memcpy"] for name, row in copy.items()
                 if name.startswith("BM_ContiguousPermute") and f"/threads:{threads}/" in name}
        worst = min(perms, key=perms.get)
        label = "/".join(part for part in worst.split("/")[1:3])
        # Issue 26: >= 0.80 with the default threads (2 here), >= 0.60 on one thread.
        goal = 0.6 if threads == 1 else 0.8
        figures.append((f"3-D/4-D permutation -> contiguous, worst of 1/2/4/8-byte items{note}, vs memcpy",
                        f"{perms[worst]:.2f} ({label})", f">= {goal:.2f}", perms[worst] >= goal))
        figures.append(("  (best of them)", f"{max(perms.values()):.2f}", "", None))
        if threads == 1:
            cpu = {name: row["vs_memcpy_cpu"] for name, row in copy.items()
                   if name.startswith("BM_ContiguousPermute") and "/threads:1/" in name}
            w = min(cpu, key=cpu.get)
            figures.append(("  (1 thread, in CPU time: worst, best)",
                            f"{cpu[w]:.2f} ({'/'.join(w.split('/')[1:3])}), {max(cpu.values()):.2f}", "", None))
    r = find(copy, "BM_Memcpy/")["vs_memcpy"]
    figures.append(("  (memcpy against itself: the noise of the method)", f"{r:.2f}", "", None))

    elem = run(bench / "bench_elementwise", "BM_CtAddInplace/16777216/0|BM_CtAddNew/16777216/0|BM_RawInplace/16777216|"
               "BM_CtRow/2048/0|BM_CtCol/2048/0|BM_CtRowInplace/2048/0|BM_CtColInplace/2048/0", repetitions)
    r = find(elem, "BM_CtAddInplace/16777216/0")["vs_raw"]
    figures.append(("contiguous add in place, 64 MiB float32, vs the raw loop", f"{r:.2f}", ">= 0.9", r >= 0.9))
    new, pre = seconds(find(elem, "BM_CtAddNew/16777216/0")), seconds(find(elem, "BM_CtAddInplace/16777216/0"))
    figures.append(("out-of-place add on 64 MiB / preallocated (time)", f"{new / pre:.2f}x", "<= 1.3x", new / pre <= 1.3))
    for label, name in (("row", "BM_CtRow/2048/0"), ("column", "BM_CtCol/2048/0")):
        r = find(elem, name)["vs_raw"]
        figures.append((f"broadcast add, {label}, new result, vs the raw loop", f"{r:.2f}", ">= 0.8", r >= 0.8))

    red = run(bench / "bench_reduce", "BM_capi_sum_f32_64MiB", repetitions)
    r = min(row["vs_read"] for name, row in red.items())
    figures.append(("sum of 64 MiB float32 vs read bandwidth", f"{r:.2f}", ">= 0.8", r >= 0.8))

    mm = run(bench / "bench_matmul", "BM_capi_matmul_f32", repetitions)
    r = min(row["vs_blas"] for name, row in mm.items())
    figures.append(("matmul 1024^2 float32 vs direct cblas_sgemm", f"{r:.2f}", ">= 0.90", r >= 0.9))
    torch_bin = bench / "bench_libtorch"
    if torch_bin.exists():  # optional: built when libtorch-dev was found at configure time
        lt = run(torch_bin, ".", repetitions)
        for op in ("view_transpose", "contiguous_transposed", "add_new", "add_inplace", "sum", "matmul"):
            ct, t = seconds(find(lt, f"BM_{op}_ctensor")), seconds(find(lt, f"BM_{op}_libtorch"))
            figures.append((f"  libtorch, same binary: {op}, ctensor time / libtorch time", f"{ct / t:.2f}", "", None))
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="the CMake build directory")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    figures = measure(args.build, args.repetitions)
    if args.markdown:
        print("| figure | measured | target | |")
        print("|---|---|---|---|")
        for f, v, t, ok in figures:
            print(f"| {f} | {v} | {t} | {'' if ok is None else ('met' if ok else 'missed')} |")
    else:
        for f, v, t, ok in figures:
            print(f"{f:78s} {v:>16s}  {t:8s} {'' if ok is None else ('met' if ok else 'MISSED')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
