#!/usr/bin/env python3
"""How each cost grows with size, 1 KiB to 1 GiB of float32 (issue 26).

    PYTHONPATH=<build>/python python3 bench/size_table.py [--max-mib N] [--svg FILE] [--markdown]

Rows, for a square float32 tensor x of each size (1 KiB, 4 KiB, ..., 1 GiB):
  - view:   x.view(-1), against NumPy's a.reshape(-1): should not grow at all;
  - clone:  x.clone() (a new tensor each time, as a user gets it), as a fraction of the
            bandwidth of a memcpy of the same bytes into a buffer already touched
            (np.copyto into a reused array): grows linearly, at what fraction;
  - t copy: x.t().contiguous(), the same fraction (a transposed read);
  - matmul: x @ x up to 64 MiB (4096 x 4096), against cblas_sgemm called directly through
            ctypes on the same OpenBLAS the library links (same threads), as a ratio; below
            about 64 KiB the ctypes call itself (microseconds) dominates the cblas side.
Each cell is the minimum over repetitions (other load only adds time).  --svg draws time per
call against size on log-log axes (a plain SVG, no plotting library needed).
"""

import argparse
import ctypes
import ctypes.util
import math
import time

import numpy as np

import ctensor

KIB = 1024


def best_seconds(fn, budget):
    """Minimum time of one call, repeating within about `budget` seconds (at least 3 calls)."""
    fn()
    best, spent, calls = float("inf"), 0.0, 0
    while calls < 3 or (spent < budget and calls < 100000):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        calls += 1
    return best


def per_call_small(fn, budget):
    """For calls of well under a microsecond: mean over a batch, best of several batches."""
    n = 1000
    best = float("inf")
    deadline = time.perf_counter() + budget
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
        if time.perf_counter() > deadline:
            return best


def openblas_sgemm():
    """cblas_sgemm of the OpenBLAS the library links (Debian's libopenblas0), or None."""
    for name in ("libopenblas.so.0", ctypes.util.find_library("openblas")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
            f = lib.cblas_sgemm
        except (OSError, AttributeError):
            continue
        f.restype = None
        f.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                           ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int]
        return f
    return None


def measure(max_bytes, budget):
    sgemm = openblas_sgemm()
    rows = []
    size = KIB
    while size <= max_bytes:
        n = size // 4
        side = int(math.isqrt(n))
        shape = (side, n // side)
        a = np.random.default_rng(0).standard_normal(shape, dtype=np.float32)
        x = ctensor.from_numpy(a).clone()
        dst = np.empty_like(a)
        np.copyto(dst, a)  # touched: the baseline never pays for fresh pages
        small = size <= 4 * KIB * KIB
        row = {"bytes": size}
        row["view"] = per_call_small(lambda: x.view(-1), budget / 4)
        row["np_view"] = per_call_small(lambda: a.reshape(-1), budget / 4)
        timer = (lambda f: per_call_small(f, budget / 4)) if size <= 64 * KIB else (lambda f: best_seconds(f, budget))
        row["memcpy"] = timer(lambda: np.copyto(dst, a))
        row["clone"] = timer(lambda: x.clone())
        row["tcopy"] = timer(lambda: x.t().contiguous())
        if shape[0] == shape[1] and size <= 64 * KIB * KIB:
            row["matmul"] = timer(lambda: x @ x)
            if sgemm is not None:
                c = np.empty_like(a)
                m = shape[0]
                row["cblas"] = timer(lambda: sgemm(101, 111, 111, m, m, m, 1.0, a.ctypes.data, m, a.ctypes.data, m,
                                                   0.0, c.ctypes.data, m))
        rows.append(row)
        print(f"  measured {fmt_bytes(size)}", flush=True)
        del x, a, dst
        size *= 4
    return rows


def fmt_bytes(b):
    for unit, scale in (("GiB", KIB ** 3), ("MiB", KIB ** 2), ("KiB", KIB)):
        if b >= scale:
            return f"{b // scale} {unit}"
    return f"{b} B"


def fmt_time(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def table(rows, markdown):
    head = ["size", "view", "NumPy view", "clone", "clone / memcpy bw", "t().contiguous()", "t copy / memcpy bw",
            "x @ x", "x @ x / cblas"]
    lines = [head]
    for r in rows:
        lines.append([
            fmt_bytes(r["bytes"]), fmt_time(r["view"]), fmt_time(r["np_view"]), fmt_time(r["clone"]),
            f"{r['memcpy'] / r['clone']:.2f}", fmt_time(r["tcopy"]), f"{r['memcpy'] / r['tcopy']:.2f}",
            fmt_time(r["matmul"]) if "matmul" in r else "-",
            f"{r['matmul'] / r['cblas']:.2f}" if "cblas" in r else "-",
        ])
    if markdown:
        print("| " + " | ".join(lines[0]) + " |")
        print("|" + "---|" * len(lines[0]))
        for line in lines[1:]:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        for line in lines:
            print("  ".join(cell.ljust(w) for cell, w in zip(line, widths)))


def svg_chart(rows, path):
    """Time per call against size, log-log, one polyline per row kind.  Every text carries its
    font-size and text-anchor (tests/python/test_explain.py measures the pictures of docs/img)."""
    series = [("view", "x.view(-1)", "#1f77b4"), ("clone", "x.clone()", "#d62728"),
              ("memcpy", "memcpy (touched buffer)", "#7f7f7f"), ("tcopy", "x.t().contiguous()", "#ff7f0e"),
              ("matmul", "x @ x", "#2ca02c"), ("cblas", "cblas_sgemm", "#98df8a")]
    W, H, L, R, T, B = 720, 440, 70, 200, 20, 50
    xs = [math.log2(r["bytes"]) for r in rows]
    ys = [math.log10(r[k]) for r in rows for k, _, _ in series if k in r]
    x0, x1, y0, y1 = min(xs), max(xs), math.floor(min(ys)), math.ceil(max(ys))

    def px(v):
        return L + (v - x0) / (x1 - x0) * (W - L - R)

    def py(v):
        return H - B - (v - y0) / (y1 - y0) * (H - T - B)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           'font-size="11">', f'<rect width="{W}" height="{H}" fill="white"/>']
    for e in range(y0, y1 + 1):
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{py(e):.1f}" y2="{py(e):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{py(e) + 4:.1f}" font-size="11" text-anchor="end">{fmt_time(10.0 ** e)}</text>')
    for r in rows:
        v = math.log2(r["bytes"])
        out.append(f'<text x="{px(v):.1f}" y="{H - B + 16}" font-size="11" text-anchor="middle">{fmt_bytes(r["bytes"])}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 10}" font-size="11" text-anchor="middle">tensor size (float32)</text>')
    for i, (k, label, color) in enumerate(series):
        pts = [(px(math.log2(r["bytes"])), py(math.log10(r[k]))) for r in rows if k in r]
        if not pts:
            continue
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="'
                   + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
        out.append(f'<line x1="{W - R + 12}" x2="{W - R + 32}" y1="{T + 10 + 18 * i}" y2="{T + 10 + 18 * i}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{W - R + 38}" y="{T + 14 + 18 * i}" font-size="11" text-anchor="start">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-mib", type=int, default=1024, help="largest size in MiB (default 1024)")
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per cell (default 0.5)")
    ap.add_argument("--svg", help="write the chart to this file")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--threads", type=int, help="threads for ctensor and OpenBLAS (default: the library's)")
    args = ap.parse_args()
    if args.max_mib < 1:
        ap.error("--max-mib must be at least 1")
    if args.threads:
        ctensor.set_num_threads(args.threads)  # OpenBLAS too: the library sets its thread count
    print(f"ctensor {ctensor.__version__}, NumPy {np.__version__}; ctensor threads {ctensor.get_num_threads()}")
    rows = measure(args.max_mib * KIB * KIB, args.budget)
    table(rows, args.markdown)
    if args.svg:
        svg_chart(rows, args.svg)


if __name__ == "__main__":
    main()
