"""What the comparison scripts (compare_*.py) share: their command line, the alternated timing of
each row (every library once per repetition, in turn, so that the other load of a shared machine
falls on all alike), a ratio list summarized as "median (min-max)", and a table printed as
aligned text or as Markdown (the form docs/performance.md quotes)."""

import argparse
import os
import platform
import statistics
import timeit

NAMES = {"ctensor": "ctensor", "torch": "PyTorch", "numpy": "NumPy", "memcpy": "memcpy"}


def spread(ratios):
    """Per-repetition ratios as "median (min-max)"."""
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def print_table(head, rows, markdown):
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(row[i]) for row in rows + [head]) for i in range(len(head))]
        for row in [head] + rows:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)))


def ms(s):
    return f"{s * 1e3:.2f} ms"


def per_call_s(stmt, env, budget):
    """Seconds per execution of stmt in env, timed over about `budget` seconds."""
    timer = timeit.Timer(stmt, globals=env)
    number, elapsed = timer.autorange()
    number = max(1, int(number * budget / max(elapsed, 1e-9)))
    return timer.timeit(number=number) / number


def alternate(stmts, envs, repetitions, budget):
    """{library: [seconds per call, one per repetition]} for one row: stmts maps each library
    to its statement, run in envs[library]; every repetition times each library once, in turn."""
    times = {lib: [] for lib in stmts}
    for _ in range(repetitions):
        for lib, stmt in stmts.items():
            times[lib].append(per_call_s(stmt, envs[lib], budget))
    return times


def arg_parser(doc, repetitions, threads=0):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--repetitions", type=int, default=repetitions)
    ap.add_argument("--budget", type=float, default=0.3, help="seconds per timing")
    ap.add_argument("--threads", type=int, default=threads,
                    help="threads for ctensor and torch alike (0: each library's default)")
    ap.add_argument("--markdown", action="store_true")
    return ap


def start(args, note=""):
    """Applies --threads to both libraries and prints the header line of the run."""
    import ctensor
    import numpy as np
    import torch
    if args.threads > 0:
        ctensor._C.ct_set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__} "
          f"({torch.get_num_threads()} threads), ctensor {ctensor.__version__} "
          f"({ctensor._C.ct_get_num_threads()} threads), NumPy {np.__version__}; "
          f"medians of {args.repetitions} alternated repetitions{note}")


def report_against(results, others, markdown):
    """The table of [(label, times)]: each library's median, then ctensor's time over each of
    `others` per repetition (below 1: ctensor faster)."""
    head = ["operation", "ctensor"] + [NAMES[o] for o in others] + [f"ct/{NAMES[o]} (min-max)" for o in others]
    rows = []
    for label, t in results:
        rows.append([label, ms(statistics.median(t["ctensor"]))] + [ms(statistics.median(t[o])) for o in others]
                    + [spread([c / x for c, x in zip(t["ctensor"], t[o])]) for o in others])
    print_table(head, rows, markdown)
