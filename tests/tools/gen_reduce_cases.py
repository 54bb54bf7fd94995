#!/usr/bin/env python3
"""Writes PyTorch 2.13's answers into the generated blocks of the reduction, matmul and
random tests.

Run with the project's venv Python, which has torch 2.13 (requirements.txt):

    build/venv/bin/python tests/tools/gen_reduce_cases.py

Each target file holds one or more blocks between the lines

    // BEGIN GENERATED <name> (tests/tools/gen_reduce_cases.py)
    // END GENERATED <name>

and this script replaces what lies between them; everything else in the files is written
by hand.  What is recorded:

  tests/core/test_reduce.cpp
    reduce_dtype_cases  result dtype (or error) of sum/mean/prod/amax/amin/argmax/argmin
                        for each input dtype, on a non-empty tensor
    reduce_error_cases  argument errors: message and error kind
    reduce_value_cases  small tensors with NaN, infinities, ties, integer wrap-around:
                        torch's output shape, dtype and values
  tests/core/test_matmul.cpp
    matmul_cases        operand shapes, layouts and dtypes -> result shape and dtype, or
                        torch's message and error kind (each torch kernel checks in its own
                        order: see src/core/ops/matmul.cpp)
  tests/core/test_random.cpp
    random_cases        rand/randn/randint arguments -> result dtype, or message and kind
  tests/capi/test_compute_reduce.cpp
    capi_error_cases    the same errors seen through the C API: ct_status and message

Error kinds follow ctensor's mapping of torch's exceptions: IndexError -> Index; a dtype
torch has no kernel for, or mismatched operand dtypes -> DType; a bad argument value
(duplicate dims, randint bounds) -> InvalidArgument; sizes that do not fit -> Shape.
Values are written as text that parses back exactly ("nan", "inf", integers as integers).
"""

import math
import os
import re
import sys

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
CODE = {d: i for i, d in enumerate(DTYPES)}  # ct_dtype / ct::DType numbers


def kind_of(exc):
    msg = str(exc)
    if isinstance(exc, IndexError):
        return "Index"
    if ("not implemented for" in msg or "expected scalar type" in msg or "same dtype" in msg
            or "could not infer output dtype" in msg or "does not support bool input" in msg):
        return "DType"
    if "appears multiple times" in msg or "out of bounds" in msg or "random_ expects" in msg:
        return "InvalidArgument"
    return "Shape"


def first_line(exc):
    return str(exc).split("\n")[0]


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ilist(v):
    return "{" + ", ".join(str(int(x)) for x in v) + "}"


def i64(x):
    """An int64 C++ literal (the most negative one cannot be written directly)."""
    x = int(x)
    return "(-9223372036854775807 - 1)" if x == -2**63 else str(x)


def num(x, dtype):
    if dtype.is_floating_point:
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return repr(x)
    return str(int(x))


def values_str(t):
    flat = t.reshape(-1).tolist()
    return cstr(" ".join(num(x, t.dtype) for x in flat))


def call(fn):
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 - we record whatever torch raises
        return None, e


# ---- reductions -----------------------------------------------------------------------------

REDUCE_OPS = ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin"]


def reduce_call(op, t, dims, keepdim):
    """dims None: over everything (the C API's ndim 0 / the _all forms)."""
    f = getattr(torch, op)
    if op in ("argmax", "argmin"):
        if dims is None:
            return f(t, keepdim=keepdim) if keepdim else f(t)
        return f(t, dim=dims[0], keepdim=keepdim)
    if op == "prod":  # torch.prod takes one dim, and no keepdim without one
        if dims is None:
            r = f(t)
            return r.reshape([1] * t.dim()) if keepdim else r
        return f(t, dims[0], keepdim=keepdim)
    return f(t, dim=[] if dims is None else dims, keepdim=keepdim)


def gen_reduce_dtypes():
    rows = []
    for op in REDUCE_OPS:
        for d in DTYPES:
            t = torch.ones(2, 3, dtype=d)
            r, e = call(lambda: reduce_call(op, t, None, False))
            if e is None:
                rows.append(f"    {{{cstr(op)}, {CODE[d]}, {CODE[r.dtype]}, nullptr, nullptr}},")
            else:
                rows.append(f"    {{{cstr(op)}, {CODE[d]}, -1, {cstr(kind_of(e))}, {cstr(first_line(e))}}},")
    return rows


REDUCE_ERRORS = [
    # op, sizes, dtype, dims (None = all), keepdim
    ("sum", [2, 3], torch.float32, [0, 0], False),
    ("sum", [2, 3], torch.float32, [1, -1], False),
    ("sum", [2, 3], torch.float32, [0, -2], True),
    ("sum", [2, 3], torch.float32, [2], False),
    ("sum", [2, 3], torch.float32, [-3], False),
    ("sum", [], torch.float32, [0, -1], False),
    ("sum", [], torch.float32, [1], False),
    ("mean", [2, 3], torch.int32, [0, 0], False),
    ("mean", [2, 3], torch.int64, [5], False),
    ("mean", [0, 3], torch.uint8, [0], False),
    ("mean", [2, 3], torch.bool, None, False),
    ("mean", [2, 3], torch.float32, [0, 0], False),
    ("amax", [0, 3], torch.float32, None, False),
    ("amax", [0, 3], torch.float32, [0], False),
    ("amax", [0, 3], torch.float32, [-2], True),
    ("amax", [0, 3], torch.float32, [0, 0], False),
    ("amax", [0, 3], torch.float32, [5], False),
    ("amin", [3, 0, 0], torch.int32, [2, 1], False),
    ("amin", [3, 0, 0], torch.int32, [1, 2], False),
    ("amin", [0], torch.float64, None, True),
    ("amax", [2, 3], torch.float32, [1, 1], False),
    # (torch 1.13 refused prod on float16/bfloat16 here; 2.x computes it: see REDUCE_VALUES)
    ("prod", [2, 3], torch.float32, [2], False),
    ("argmax", [0, 3], torch.float32, None, False),
    ("argmax", [0, 3], torch.float32, [0], False),
    ("argmin", [0, 3], torch.float32, [-2], True),
    ("argmax", [2, 3], torch.float32, [2], False),
    ("argmin", [], torch.float32, [1], False),
    ("argmax", [2, 3], torch.bool, [0], False),
    ("argmin", [], torch.bool, None, False),
    ("argmax", [0, 3], torch.bool, [0], False),
    ("argmax", [0, 3], torch.bool, [5], False),
]


def gen_reduce_errors():
    rows = []
    for op, sizes, d, dims, keepdim in REDUCE_ERRORS:
        t = torch.zeros(sizes, dtype=d)
        r, e = call(lambda: reduce_call(op, t, dims, keepdim))
        assert e is not None, (op, sizes, d, dims, "did not fail")
        rows.append(f"    {{{cstr(op)}, {ilist(sizes)}, {CODE[d]}, {'true' if dims is None else 'false'}, "
                    f"{ilist(dims or [])}, {'true' if keepdim else 'false'}, {cstr(kind_of(e))}, "
                    f"{cstr(first_line(e))}}},")
    return rows


nan, inf = float("nan"), float("inf")

REDUCE_VALUES = [
    # sizes, dtype, values
    ([4], torch.float32, [1.0, nan, 3.0, nan]),
    ([4], torch.float16, [1.0, nan, 3.0, nan]),
    ([4], torch.bfloat16, [-1.0, -inf, nan, 2.0]),
    ([4], torch.float64, [-inf, -inf, inf, inf]),
    ([2, 3], torch.float32, [3.0, 1.0, 3.0, 1.0, 1.0, 0.0]),
    ([2, 3], torch.float64, [nan, 1.0, 2.0, 5.0, nan, -1.0]),
    ([2, 3], torch.int32, [3, 1, 3, 1, 1, 0]),
    ([2, 3], torch.uint8, [255, 0, 255, 200, 200, 1]),
    ([3], torch.int8, [100, 100, 100]),
    ([3], torch.int8, [-128, 127, -128]),
    ([3], torch.int64, [4611686018427387904, 4611686018427387904, 4611686018427387904]),
    ([2], torch.int64, [1099511627776, 1099511627776]),
    ([2, 2], torch.bool, [1, 0, 1, 1]),
    ([3, 1, 2], torch.int16, [7, -7, 7, 30000, 30000, 30000]),
    ([], torch.float32, [2.5]),
    ([], torch.int32, [-4]),
    ([0, 3], torch.float32, []),
    ([2, 0], torch.int16, []),
    ([5], torch.float16, [60000.0, 60000.0, -1.0, 0.5, 0.25]),
]


def reduce_dims_options(ndim):
    opts = [None]
    if ndim >= 1:
        opts += [[0], [-1]]
    if ndim >= 2:
        opts += [[0, 1], [1]]
    if ndim >= 3:
        opts += [[2, 0]]
    return opts


def gen_reduce_values():
    rows = []
    for sizes, d, vals in REDUCE_VALUES:
        t = torch.tensor(vals, dtype=d).reshape(sizes)
        for op in REDUCE_OPS:
            for dims in reduce_dims_options(len(sizes)):
                if op in ("argmax", "argmin", "prod") and dims is not None and len(dims) > 1:
                    continue
                for keepdim in (False, True):
                    r, e = call(lambda: reduce_call(op, t, dims, keepdim))
                    if e is not None:
                        continue  # errors are covered by the tables above
                    rows.append(f"    {{{cstr(op)}, {ilist(sizes)}, {CODE[d]}, {values_str(t)}, "
                                f"{'true' if dims is None else 'false'}, {ilist(dims or [])}, "
                                f"{'true' if keepdim else 'false'}, {ilist(r.shape)}, {CODE[r.dtype]}, "
                                f"{values_str(r)}}},")
    return rows


# ---- matmul ---------------------------------------------------------------------------------

def operand(spec, dtype):
    """spec: (base sizes, permutation or None, step along dim 0 of the base)."""
    base, perm, step = spec
    full = list(base)
    if full:
        full[0] *= step
    t = torch.ones(full, dtype=dtype) if full else torch.ones((), dtype=dtype)
    if step != 1:
        t = t[::step]
    if perm is not None:
        t = t.permute(*perm)
    return t


def spec(base, perm=None, step=1):
    return (list(base), perm, step)


MATMUL_SHAPES = [
    (spec([3]), spec([3])), (spec([2, 3]), spec([3])), (spec([3]), spec([3, 2])),
    (spec([2, 3]), spec([3, 4])), (spec([2, 2, 3]), spec([3, 2])), (spec([2, 3]), spec([2, 3, 2])),
    (spec([3]), spec([2, 3, 4])), (spec([2, 2, 3]), spec([3])), (spec([2, 1, 3, 4]), spec([5, 4, 2])),
    (spec([3, 2, 2, 3]), spec([4, 1, 3, 2])), (spec([2, 2, 3]), spec([2, 3, 2])),
    # shape errors, through every torch kernel
    (spec([2, 3]), spec([4, 5])), (spec([3]), spec([4])), (spec([2, 3]), spec([4])),
    (spec([3]), spec([4, 5])), (spec([2, 2, 3]), spec([3, 4, 5])), (spec([2, 2, 3]), spec([4, 5])),
    (spec([2, 3]), spec([2, 4, 5])), (spec([2, 2, 3]), spec([3, 3, 2])), (spec([2, 2, 3]), spec([4])),
    (spec([3]), spec([2, 4, 5])), (spec([2, 2, 3]), spec([2, 4, 5])), (spec([3, 2, 2, 3]), spec([4, 1, 3, 2])),
    (spec([2, 2, 2, 3]), spec([3, 3, 3, 2])),  # torch names the last mismatching batch dim
    (spec([]), spec([3])), (spec([3]), spec([])), (spec([]), spec([])),
    # layouts that decide whether torch folds (the messages differ)
    (spec([2, 2, 3], [0, 2, 1]), spec([4, 5])), (spec([2, 2, 3], [0, 2, 1]), spec([2, 5])),
    (spec([2, 2, 3], [0, 2, 1]), spec([3])), (spec([4, 5]), spec([2, 2, 3], [0, 2, 1])),
    (spec([2, 3, 4], step=2), spec([5, 5])), (spec([2, 3, 5, 4], [0, 1, 3, 2]), spec([6, 7])),
    (spec([2, 4, 3], [2, 1, 0]), spec([6, 7])), (spec([2, 3, 2], [0, 2, 1]), spec([2, 4])),
    # empty
    (spec([0]), spec([0])), (spec([2, 0]), spec([0, 3])), (spec([0, 3]), spec([3, 4])),
    (spec([2, 0, 3]), spec([3, 4])), (spec([0, 2, 3]), spec([1, 3, 4])), (spec([3, 4]), spec([2, 0, 3])),
    (spec([5, 0]), spec([0, 3])), (spec([2, 3, 0]), spec([0, 3])), (spec([2, 3, 0]), spec([0])),
    (spec([2, 3, 0]), spec([1])), (spec([0, 3, 0]), spec([1, 3])), (spec([3, 4]), spec([0, 4, 3])),
    (spec([2, 2, 0]), spec([2, 0, 2])), (spec([0, 2]), spec([2])), (spec([3, 2, 0]), spec([3, 0, 2])),
]

# Shapes for the dtype matrix: every torch kernel, and bmm on both sides of its 400 limit.
MATMUL_DTYPE_SHAPES = [
    (spec([3]), spec([3])), (spec([2, 3]), spec([3])), (spec([3]), spec([3, 2])), (spec([2, 3]), spec([3, 2])),
    (spec([2, 2, 3]), spec([2, 3, 2])), (spec([2, 8, 8]), spec([2, 8, 7])), (spec([2, 2, 3]), spec([3, 2])),
    (spec([2, 3]), spec([2, 3, 2])),
]
MATMUL_EMPTY_DTYPE_SHAPES = [
    (spec([0]), spec([0])), (spec([2, 0]), spec([0, 2])), (spec([0, 2]), spec([2])), (spec([2, 0]), spec([0])),
    (spec([2, 2, 0]), spec([2, 0, 2])), (spec([0, 2, 3]), spec([0, 3, 2])), (spec([0, 3]), spec([3, 2])),
    (spec([3, 2, 0]), spec([0, 2])),
]
MIXED = [(torch.float32, torch.float64), (torch.float64, torch.float32), (torch.int32, torch.float32),
         (torch.float32, torch.int32), (torch.bool, torch.float64), (torch.float64, torch.bool),
         (torch.float16, torch.float64), (torch.float64, torch.float16), (torch.int32, torch.int64),
         (torch.bfloat16, torch.float32), (torch.float32, torch.bfloat16), (torch.bool, torch.float16),
         (torch.int32, torch.float16), (torch.float16, torch.int32)]


def matmul_row(sa, da, sb, db):
    a, b = operand(sa, da), operand(sb, db)
    r, e = call(lambda: torch.matmul(a, b))

    def sp(s):
        base, perm, step = s
        return f"{ilist(base)}, {ilist(perm or [])}, {step}"

    if e is None:
        return (f"    {{{sp(sa)}, {CODE[da]}, {sp(sb)}, {CODE[db]}, {ilist(r.shape)}, {CODE[r.dtype]}, "
                f"nullptr, nullptr}},")
    return (f"    {{{sp(sa)}, {CODE[da]}, {sp(sb)}, {CODE[db]}, {{}}, -1, {cstr(kind_of(e))}, "
            f"{cstr(first_line(e))}}},")


def gen_matmul():
    rows = []
    for sa, sb in MATMUL_SHAPES:
        rows.append(matmul_row(sa, torch.float32, sb, torch.float32))
    for d in DTYPES:
        for sa, sb in MATMUL_DTYPE_SHAPES + MATMUL_EMPTY_DTYPE_SHAPES:
            rows.append(matmul_row(sa, d, sb, d))
    for da, db in MIXED:
        for sa, sb in MATMUL_DTYPE_SHAPES + MATMUL_EMPTY_DTYPE_SHAPES + [(spec([2, 3]), spec([4, 5]))]:
            rows.append(matmul_row(sa, da, sb, db))
    return rows


# ---- random ---------------------------------------------------------------------------------

def gen_random():
    rows = []

    def add(fn, low, high, sizes, d, thunk):
        r, e = call(thunk)
        if e is None:
            rows.append(f"    {{{cstr(fn)}, {i64(low)}, {i64(high)}, {ilist(sizes)}, {CODE[d]}, {CODE[r.dtype]}, "
                        f"nullptr, nullptr}},")
        else:
            rows.append(f"    {{{cstr(fn)}, {i64(low)}, {i64(high)}, {ilist(sizes)}, {CODE[d]}, -1, {cstr(kind_of(e))}, "
                        f"{cstr(first_line(e))}}},")

    for d in DTYPES:
        for sizes in ([3], [0]):
            add("rand", 0, 0, sizes, d, lambda: torch.rand(sizes, dtype=d))
            add("randn", 0, 0, sizes, d, lambda: torch.randn(sizes, dtype=d))
            add("randint", 0, 2, sizes, d, lambda: torch.randint(0, 2, sizes, dtype=d))
    add("rand", 0, 0, [-1], torch.int64, lambda: torch.rand([-1], dtype=torch.int64))
    bounds = [(5, 5, torch.int64), (6, 5, torch.int64), (0, 300, torch.uint8), (0, 256, torch.uint8),
              (-1, 10, torch.uint8), (-129, 10, torch.int8), (-128, 128, torch.int8), (-128, 129, torch.int8),
              (0, 3, torch.bool), (-1, 2, torch.bool), (0, 2**31, torch.int32), (0, 2**31 + 1, torch.int32),
              (-2**31 - 1, 0, torch.int32), (0, 70000, torch.int16), (0, 70000, torch.float16),
              (-70000, 1, torch.float16), (-65504, 65505, torch.float16), (-2**63, 2**63 - 1, torch.int64),
              (0, 2**40, torch.int32), (-5, 300, torch.uint8), (0, 2**60, torch.float64)]
    with torch.random.fork_rng():
        for low, high, d in bounds:
            for sizes in ([3], [0]):
                add("randint", low, high, sizes, d, lambda: torch.randint(low, high, sizes, dtype=d))
        add("randint", 5, 5, [-1], torch.int64, lambda: torch.randint(5, 5, [-1]))
    return rows


# ---- C API errors ---------------------------------------------------------------------------

def gen_capi_errors():
    rows = []
    for op, sizes, d, dims, keepdim in REDUCE_ERRORS:
        t = torch.zeros(sizes, dtype=d)
        r, e = call(lambda: reduce_call(op, t, dims, keepdim))
        rows.append(f"    {{{cstr(op)}, {ilist(sizes)}, {CODE[d]}, {'true' if dims is None else 'false'}, "
                    f"{ilist(dims or [])}, {'true' if keepdim else 'false'}, {cstr(kind_of(e))}, "
                    f"{cstr(first_line(e))}}},")
    return rows


# ---- writing --------------------------------------------------------------------------------

def replace_block(path, name, rows):
    full = os.path.normpath(os.path.join(ROOT, path))
    with open(full) as f:
        text = f.read()
    begin = f"// BEGIN GENERATED {name} (tests/tools/gen_reduce_cases.py)\n"
    end = f"// END GENERATED {name}\n"
    pattern = re.compile(re.escape(begin) + r".*?" + r"^[ \t]*" + re.escape(end), re.S | re.M)
    if not pattern.search(text):
        sys.exit(f"{path}: no block {name}")
    # Keep the indentation of the END line.
    m = pattern.search(text)
    indent = re.search(r"^([ \t]*)" + re.escape(end), text[m.start():], re.M).group(1)
    body = begin + "\n".join(rows) + ("\n" if rows else "") + indent + end
    text = text[:m.start()] + body + text[m.end():]
    with open(full, "w") as f:
        f.write(text)
    print(f"{path}: {name}: {len(rows)} rows")


def main():
    assert torch.__version__.startswith("2.13"), torch.__version__
    torch.manual_seed(0)
    replace_block("tests/core/test_reduce.cpp", "reduce_dtype_cases", gen_reduce_dtypes())
    replace_block("tests/core/test_reduce.cpp", "reduce_error_cases", gen_reduce_errors())
    replace_block("tests/core/test_reduce.cpp", "reduce_value_cases", gen_reduce_values())
    replace_block("tests/core/test_matmul.cpp", "matmul_cases", gen_matmul())
    replace_block("tests/core/test_random.cpp", "random_cases", gen_random())
    replace_block("tests/capi/test_compute_reduce.cpp", "capi_error_cases", gen_capi_errors())


if __name__ == "__main__":
    main()
