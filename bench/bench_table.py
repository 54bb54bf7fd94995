"""What the comparison scripts share: a ratio list summarized as "median (min-max)", and a
table printed as aligned text or as Markdown (the form docs/performance.md quotes)."""

import statistics


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
