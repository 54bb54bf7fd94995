#!/usr/bin/env python3
"""Opening a 2 GiB safetensors checkpoint of 200 tensors: ctensor vs safetensors vs torch.load.

    PYTHONPATH=<build>/python <venv>/bin/python bench/compare_checkpoint.py [--repetitions 5]
                                                                           [--dir /tmp] [--markdown]

Issue 23 asks that opening a checkpoint mapped cost time proportional to the number of tensors,
not the bytes (target: at most the time of `safetensors.safe_open` + `get_tensor` of every tensor
and of `torch.load(mmap=True)` of the same tensors saved as .pt), and that loading with copies
reach >= 0.8 of the read bandwidth of the page-cached file.  The file is written once (200
float32 tensors of 2.5 Mi elements, 2 GiB; the .pt twin as well) into --dir, read once so that
both are in the page cache, and deleted at the end.  Rows:
  - mapped open: ctensor.load_file (copy-on-write mapping, every tensor a view of one storage)
    vs safe_open(framework="pt") + get_tensor of all 200 vs torch.load(mmap=True, weights_only=True);
  - with copies: ctensor.load_file(mode="copy") (the file read into memory ctensor owns, by as
    many threads as ctensor.get_num_threads(), two here) vs reading the file into a
    preallocated, already touched buffer (readinto: the page-cache read bandwidth; and the same
    read split over two threads) and vs safetensors' pread backend.
Each repetition times every contender once, in turn, so that the load of a shared machine falls
on all alike; the table gives medians and the median (min-max) of per-repetition ratios.
"""

import argparse
import os
import platform
import statistics
import threading
import time

import torch
from safetensors import safe_open
from safetensors.torch import save_file

import ctensor
from bench_table import print_table, spread

N_TENSORS = 200
ELEMS = 2_684_354  # float32: 200 * 4 * ELEMS ~ 2 GiB


def make_files(d):
    st_path = os.path.join(d, "ct_bench_checkpoint.safetensors")
    pt_path = os.path.join(d, "ct_bench_checkpoint.pt")
    tensors = {f"layer{i:03d}.weight": torch.full((ELEMS,), float(i)) for i in range(N_TENSORS)}
    save_file(tensors, st_path)
    torch.save(tensors, pt_path)
    return st_path, pt_path


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 26):
            pass


def ct_mapped(st_path):
    d = ctensor.load_file(st_path)
    assert len(d) == N_TENSORS


def st_mapped(st_path):
    with safe_open(st_path, framework="pt") as f:
        d = {k: f.get_tensor(k) for k in f.keys()}
    assert len(d) == N_TENSORS


def pt_mapped(pt_path):
    d = torch.load(pt_path, mmap=True, weights_only=True)
    assert len(d) == N_TENSORS


def ct_copy(st_path):
    d = ctensor.load_file(st_path, mode="copy")
    assert len(d) == N_TENSORS


def st_pread(st_path):
    with safe_open(st_path, framework="pt", backend="pread") as f:
        d = {k: f.get_tensor(k) for k in f.keys()}
    assert len(d) == N_TENSORS


def read_into(buf):
    def run(path):
        view = memoryview(buf)
        done = 0
        with open(path, "rb", buffering=0) as f:
            while done < len(buf):  # one read(2) returns at most 2 GiB - 4 KiB on Linux
                n = f.readinto(view[done:])
                assert n > 0
                done += n
    return run


def read_into_threads(buf, threads):
    """The same read split into `threads` contiguous parts, one thread each (os.preadv releases
    the GIL): what ctensor's copy load does, into memory already touched."""
    def run(path):
        view = memoryview(buf)
        n = len(buf)
        fd = os.open(path, os.O_RDONLY)
        try:
            def part(k):
                done, stop = n * k // threads, n * (k + 1) // threads
                while done < stop:
                    got = os.preadv(fd, [view[done:min(stop, done + (1 << 30))]], done)
                    assert got > 0
                    done += got
            pool = [threading.Thread(target=part, args=(k,)) for k in range(threads)]
            for t in pool:
                t.start()
            for t in pool:
                t.join()
        finally:
            os.close(fd)
    return run


def timed(fn, arg):
    t0 = time.perf_counter()
    fn(arg)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    st_path, pt_path = make_files(args.dir)
    try:
        size = os.path.getsize(st_path)
        warm(st_path)
        warm(pt_path)
        buf = bytearray(size)  # touched by the first read below
        read_into(buf)(st_path)
        groups = {
            "mapped": {"ctensor": (ct_mapped, st_path), "safetensors": (st_mapped, st_path),
                       "torch.load(mmap)": (pt_mapped, pt_path)},
            "copies": {"ctensor": (ct_copy, st_path), "page-cache read": (read_into(buf), st_path),
                       "page-cache read, 2 threads": (read_into_threads(buf, 2), st_path),
                       "safetensors pread": (st_pread, st_path)},
        }
        times = {g: {k: [] for k in c} for g, c in groups.items()}
        for _ in range(args.repetitions):
            for g, contenders in groups.items():
                for name, (fn, arg) in contenders.items():
                    times[g][name].append(timed(fn, arg))
        print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}, "
              f"ctensor {ctensor.__version__}; {N_TENSORS} tensors, {size / 2**30:.2f} GiB file in the page cache; "
              f"medians of {args.repetitions} alternated repetitions; ratios: other's time / ctensor's")
        head = ["operation", "contender", "median", "GB/s", "other/ctensor (min-max)"]
        rows = []
        for g, t in times.items():
            ct = t["ctensor"]
            for name, v in t.items():
                med = statistics.median(v)
                ratio = "" if name == "ctensor" else spread([o / c for o, c in zip(v, ct)])
                rows.append([f"open, {g}", name, f"{med * 1e3:.2f} ms",
                             f"{size / med / 1e9:.2f}" if g == "copies" else "", ratio])
        print_table(head, rows, args.markdown)
    finally:
        for p in (st_path, pt_path):
            if os.path.exists(p):
                os.unlink(p)


if __name__ == "__main__":
    main()
