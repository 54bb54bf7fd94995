"""ctensor.explain and ctensor.draw: a tensor's memory in words and in a picture.

``explain`` prints what ``ct_explain`` (include/ctensor.h) says about each tensor and each pair.
``draw`` pictures each storage as a strip of cells and, under it, each tensor on it: the cells
its elements occupy, numbered in logical (row-major) order, with the cells that several
tensors reach marked.  SVG is written by this module alone; PNG goes through matplotlib.
"""

from __future__ import annotations

import html
import itertools
import math
import re
import sys

from . import _C

# ---- explain ----------------------------------------------------------------------------------


def _default_names(n):
    return [chr(ord("a") + i) if n <= 26 else f"t{i}" for i in range(n)]


def _check_tensors(op, tensors, names):
    if not tensors:
        raise TypeError(f"{op}() needs at least one tensor")
    for i, t in enumerate(tensors):
        if not isinstance(t, _C.Tensor):
            raise TypeError(f"{op}(): argument {i} must be Tensor, not {type(t).__name__}")
    if names is None:
        return _default_names(len(tensors))
    names = [str(n) for n in names]
    if len(names) != len(tensors):
        raise ValueError(f"{op}(): {len(names)} names for {len(tensors)} tensors")
    return names


def _rename_block(text, name):
    """A one-tensor text of ct_explain, with the heading "a:" renamed."""
    assert text.startswith("a:")
    return name + text[1:]


# In the relation lines of ct_explain the tensors are called a and b only in "a's", "a is"
# (and the same for b).
_PAIR_NAME = re.compile(r"(?<!\w)([ab])(?='s\b| is\b)")


def _pair_section(text, name_a, name_b):
    """The "a and b:" section of a two-tensor text of ct_explain, renamed."""
    lines = text.splitlines(keepends=True)
    start = lines.index("a and b:\n")
    out = [f"{name_a} and {name_b}:\n"]
    rename = {"a": name_a, "b": name_b}
    out += [_PAIR_NAME.sub(lambda m: rename[m.group(1)], line) for line in lines[start + 1:]]
    return "".join(out)


def explain_text(*tensors, names=None):
    """The text ``explain`` prints."""
    names = _check_tensors("explain", tensors, names)
    parts = [_rename_block(_C.ct_explain(t, None), n) for t, n in zip(tensors, names)]
    for (i, a), (j, b) in itertools.combinations(enumerate(tensors), 2):
        parts.append(_pair_section(_C.ct_explain(a, b), names[i], names[j]))
    return "".join(parts)


def explain(*tensors, names=None, file=None):
    """Prints everything about the memory of each tensor (storage id and size, offset, strides,
    contiguity, base, refcounts, version, distinct memory locations) and, for each pair,
    whether they share a storage, whether their elements overlap (exact) and how many
    elements they share.  ``names`` labels the tensors (default a, b, c, ...)."""
    print(explain_text(*tensors, names=names), end="", file=file if file is not None else sys.stdout)


# ---- draw: layout -----------------------------------------------------------------------------

MAX_CELLS = 512        # cells of one storage that draw() accepts
MAX_ELEMENTS = 4096    # elements of one tensor (an expanded tensor has more than its cells)
CELLS_PER_LINE = 16
_CELL_W, _CELL_H = 44, 30
_LEFT = 150            # room for the row labels, at least (it grows with the longest name)
_MARGIN = 10
_PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"]
_SHARED = "#e15759"


def _elements(t):
    """(logical index, byte offset from the storage start) of every element, in C order."""
    sizes, strides = tuple(t.shape), tuple(t.stride())
    isz, off = t.element_size(), t.storage_offset()
    out = []
    for k, idx in enumerate(itertools.product(*(range(n) for n in sizes))):
        out.append((k, (off + sum(i * s for i, s in zip(idx, strides))) * isz))
    return out


# Advance widths of DejaVu Sans (the picture's first font) in em, rounded up, so that the
# estimate of a text's width is never short of the rendered one; Arial, the fallback, is
# narrower.  A text that was too wide for its column used to be clipped at the picture's edge.
_EM = {**dict.fromkeys(" .,:;'|!ijlI", 0.35), **dict.fromkeys("()[]{}-t", 0.45),
       **dict.fromkeys("mwMW", 1.0)}  # every other character: 0.72


def _text_width(text, size, bold=False):
    """An upper bound of the width, in pixels, of text drawn at font size `size`."""
    em = sum(_EM.get(ch, 0.72) for ch in text)
    return em * size * (1.12 if bold else 1.0)


def _width_needed(shapes):
    """Right edge of the rightmost text or rectangle."""
    right = 0.0
    for s in shapes:
        if s[0] == "rect":
            right = max(right, s[1] + s[3])
        else:
            _, x, _, text, size, anchor, bold, _ = s
            w = _text_width(text, size, bold)
            right = max(right, x + {"start": w, "middle": w / 2, "end": 0}[anchor])
    return right


def _layout(tensors, names):
    """Shapes of the picture: ("rect", x, y, w, h, fill, stroke, width) and
    ("text", x, y, string, size, anchor, bold, color); and the picture's size."""
    shapes = []
    groups = {}  # storage id -> indices of its tensors, in order of first appearance
    for i, t in enumerate(tensors):
        groups.setdefault(_C.ct_tensor_storage_id(t), []).append(i)
    for i, t in enumerate(tensors):
        if t.numel() > MAX_ELEMENTS:
            raise ValueError(f"draw(): {names[i]} has {t.numel()} elements; draw() pictures at most "
                             f"{MAX_ELEMENTS} per tensor (draw a smaller example)")
    y = 12
    # the row labels (names, "storage") end 8 pixels left of the cells: room for the longest
    left = max(_LEFT, math.ceil(_MARGIN + 8 + max(_text_width(n, 13) for n in list(names) + ["storage"])))
    for i, t in enumerate(tensors):  # legend
        color = _PALETTE[i % len(_PALETTE)]
        shapes.append(("rect", 10, y, 14, 14, color, "#333333", 1))
        desc = (f"{names[i]}: shape {tuple(t.shape)}, strides {tuple(t.stride())}, "
                f"offset {t.storage_offset()}, {str(t.dtype).replace('ctensor.', '')}, "
                f"storage {_C.ct_tensor_storage_id(t)}"
                + (", contiguous" if t.is_contiguous() else ", not contiguous")
                + (", conjugate view: values read conjugated" if t.is_conj() else "")
                + (", negative view: values read negated" if t.is_neg() else ""))
        shapes.append(("text", 32, y + 7, desc, 13, "start", False, "#000000"))
        y += 20
    shapes.append(("rect", 10, y, 14, 14, "#ffffff", _SHARED, 3))
    shapes.append(("text", 32, y + 7, "storage cell reached by two or more of these tensors", 13,
                   "start", False, "#000000"))
    y += 30
    for sid, members in groups.items():
        storage = tensors[members[0]].untyped_storage()
        unit = min(tensors[i].element_size() for i in members)
        ncells = storage.nbytes() // unit
        if ncells > MAX_CELLS:
            raise ValueError(f"draw(): storage {sid} has {ncells} cells of {unit} bytes; draw() "
                             f"pictures at most {MAX_CELLS} (draw a smaller example)")
        # cell -> {tensor index: [logical indices whose element starts in the cell]} and the
        # set of tensors covering it (an element of a wider dtype covers several cells)
        labels = [dict() for _ in range(ncells)]
        cover = [set() for _ in range(ncells)]
        for i in members:
            isz = tensors[i].element_size()
            for k, byte in _elements(tensors[i]):
                labels[byte // unit].setdefault(i, []).append(k)
                for c in range(byte // unit, (byte + isz - 1) // unit + 1):
                    cover[c].add(i)
        shapes.append(("text", 10, y + 8, f"storage {sid}: {storage.nbytes()} bytes, "
                       f"cells of {unit} bytes, numbered from the storage start", 14, "start", True,
                       "#000000"))
        y += 24
        for line_start in range(0, max(ncells, 1), CELLS_PER_LINE):
            cells = range(line_start, min(line_start + CELLS_PER_LINE, ncells))
            shapes.append(("text", left - 8, y + _CELL_H / 2, "storage", 13, "end", True, "#000000"))
            for c in cells:
                x = left + (c - line_start) * _CELL_W
                shared = len(cover[c]) >= 2
                shapes.append(("rect", x, y, _CELL_W, _CELL_H, "#f4f4f4",
                               _SHARED if shared else "#888888", 3 if shared else 1))
                shapes.append(("text", x + _CELL_W / 2, y + _CELL_H / 2, str(c), 12, "middle", shared,
                               "#444444"))
            y += _CELL_H + 4
            for i in members:
                color = _PALETTE[i % len(_PALETTE)]
                shapes.append(("text", left - 8, y + _CELL_H / 2, names[i], 13, "end", False, color))
                for c in cells:
                    x = left + (c - line_start) * _CELL_W
                    if i in cover[c]:
                        shapes.append(("rect", x, y, _CELL_W, _CELL_H, color, "#333333", 1))
                        if i in labels[c]:
                            text = ",".join(str(k) for k in labels[c][i])
                            size = 12 if len(text) <= 5 else 9
                            shapes.append(("text", x + _CELL_W / 2, y + _CELL_H / 2, text, size,
                                           "middle", True, "#ffffff"))
                    else:
                        shapes.append(("rect", x, y, _CELL_W, _CELL_H, "#ffffff", "#dddddd", 1))
                y += _CELL_H + 2
            y += 12
        y += 10
    # as wide as the longest text (a legend line, a storage title) or the cells need
    width = math.ceil(max(left + CELLS_PER_LINE * _CELL_W, _width_needed(shapes)) + 2 * _MARGIN)
    return shapes, width, y


# ---- draw: output -----------------------------------------------------------------------------


def _svg(shapes, width, height):
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
           f'viewBox="0 0 {width} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect x="0" y="0" width="{width}" height="{height:.0f}" fill="#ffffff"/>']
    for s in shapes:
        if s[0] == "rect":
            _, x, y, w, h, fill, stroke, sw = s
            out.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="{sw}"/>')
        else:
            _, x, y, text, size, anchor, bold, color = s
            weight = ' font-weight="bold"' if bold else ""
            out.append(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
                       f'dominant-baseline="central" fill="{color}"{weight}>{html.escape(text)}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def _png(shapes, width, height, path):
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("draw(): writing PNG needs matplotlib (apt-get install python3-matplotlib "
                           "or pip install matplotlib); SVG needs nothing: use a path ending in .svg") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    dpi = 100
    fig = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    halign = {"start": "left", "middle": "center", "end": "right"}
    for s in shapes:
        if s[0] == "rect":
            _, x, y, w, h, fill, stroke, sw = s
            ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=stroke, linewidth=sw * 0.75))
        else:
            _, x, y, text, size, anchor, bold, color = s
            ax.text(x, y, text, fontsize=size * 0.75, ha=halign[anchor], va="center", color=color,
                    fontweight="bold" if bold else "normal")
    fig.savefig(path, dpi=dpi, facecolor="white")
    plt.close(fig)


def draw(*tensors, path=None, names=None):
    """Pictures the storages of the tensors as strips of cells and, under each strip, the
    cells each tensor's elements occupy, numbered in logical (row-major) order; cells reached
    by two or more tensors are outlined in red.  Returns the SVG text if path is None; else
    writes path (".svg": SVG, no dependencies; ".png": through matplotlib) and returns it.
    Storages of more than MAX_CELLS cells and tensors of more than MAX_ELEMENTS elements are
    refused (ValueError)."""
    names = _check_tensors("draw", tensors, names)
    shapes, width, height = _layout(tensors, names)
    if path is None:
        return _svg(shapes, width, height)
    path = str(path)
    if path.lower().endswith(".svg"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(_svg(shapes, width, height))
    elif path.lower().endswith(".png"):
        _png(shapes, width, height, path)
    else:
        raise ValueError(f"draw(): path must end in .svg or .png, got {path!r}")
    return path
