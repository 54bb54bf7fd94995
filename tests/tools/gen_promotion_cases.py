#!/usr/bin/env python3
"""Writes tests/capi/promotion_cases.inc: what PyTorch 2.13 computes for ctensor's elementwise ops.

Run with the project's venv Python, which has torch 2.13 (requirements.txt):

    build/venv/bin/python tests/tools/gen_promotion_cases.py

Three tables, all taken from torch itself (nothing here is computed by hand):

kPromotionCases   For every pair of the 10 dtypes and every mix of operand kinds
                  (D: a 1-D tensor of 2 elements, Z: a 0-dim tensor, S: a Python float, which
                  is what the C *_scalar functions take), the result dtype of add, sub, mul,
                  div, eq, lt (and of the reflected s - a, s / a), and of the in-place add_,
                  sub_, mul_, div_ -- or torch's error text when torch refuses.
kValueCases       Values: every dtype pair through add/sub/mul/div/comparisons/where, every
                  dtype through the scalar forms (including rsub/rdiv), the in-place forms
                  (an integer self computing in a wider dtype, float16/bfloat16 rounding),
                  every unary op, fill_.  Inputs include integer wrap-around, uint8
                  arithmetic, division by zero, int/int true division, values that round
                  differently in float16/bfloat16.
kLayoutCases      Result strides (and values) of ops on strided, permuted, sliced, expanded
                  inputs (TensorIterator's output layout), built with as_strided over a
                  storage the case carries.

Tensors are stored as raw little-endian bytes in hex (exact for every dtype, including
int64 beyond 2^53 and the sign of zero), with torch's tolist() as a comment.  Expected
errors carry the ct_status the header assigns and torch's message.
"""

import math
import os
import random
import warnings

import torch

warnings.filterwarnings("ignore")

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "capi", "promotion_cases.inc")

CT = {
    torch.bool: "CT_BOOL",
    torch.uint8: "CT_UINT8",
    torch.int8: "CT_INT8",
    torch.int16: "CT_INT16",
    torch.int32: "CT_INT32",
    torch.int64: "CT_INT64",
    torch.float16: "CT_FLOAT16",
    torch.bfloat16: "CT_BFLOAT16",
    torch.float32: "CT_FLOAT32",
    torch.float64: "CT_FLOAT64",
}
DTYPES = list(CT)
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
INF = float("inf")
NAN = float("nan")


# ---- encoding ---------------------------------------------------------------------------

def hexbytes(t):
    t = t.detach().reshape(-1).contiguous()
    if t.numel() == 0:
        return ""
    return t.view(torch.uint8).numpy().tobytes().hex()


def c_double(v):
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return v.hex()


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tspec(t):
    """{dtype, ndim, {sizes}, "hex"} for a tensor; the 'absent' spec for None."""
    if t is None:
        return "{CT_BOOL, -1, {0, 0, 0, 0}, \"\"}"
    sizes = list(t.shape) + [0] * (4 - t.dim())
    return "{%s, %d, {%s}, \"%s\"}" % (CT[t.dtype], t.dim(), ", ".join(str(s) for s in sizes), hexbytes(t))


def short(t):
    if t is None:
        return "-"
    v = t.tolist()
    s = repr(v)
    return s if len(s) < 160 else s[:160] + "..."


STATUS_OF = [
    ("can't be cast to the desired output type", "CT_ERR_DTYPE"),
    ("Subtraction, the `-` operator", "CT_ERR_DTYPE"),
    ("Negation, the `-` operator", "CT_ERR_DTYPE"),
    ("not implemented for 'Bool'", "CT_ERR_DTYPE"),
    ("Boolean inputs not supported for relu", "CT_ERR_DTYPE"),
    ("doesn't match the broadcast shape", "CT_ERR_SHAPE"),
    ("must match the size of tensor", "CT_ERR_SHAPE"),
    ("more than one element of the written-to tensor", "CT_ERR_OVERLAP"),
    ("cannot be converted to type", "CT_ERR_INVALID_ARGUMENT"),
    ("where expected condition to be a boolean tensor", "CT_ERR_DTYPE"),
]


def status_of(msg):
    for key, st in STATUS_OF:
        if key in msg:
            return st
    raise SystemExit("no ct_status for torch error: " + msg)


def run(f):
    try:
        return f(), None
    except RuntimeError as e:
        return None, str(e).split("\n")[0]


# ---- operations as torch spells them -----------------------------------------------------

BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}
SCALAR = {  # a op s with s a Python float; rsub/rdiv are Python's reflected operators
    "add_s": lambda a, s: a + s,
    "sub_s": lambda a, s: a - s,
    "mul_s": lambda a, s: a * s,
    "div_s": lambda a, s: a / s,
    "rsub_s": lambda a, s: s - a,
    "rdiv_s": lambda a, s: s / a,
    "eq_s": lambda a, s: a == s,
    "ne_s": lambda a, s: a != s,
    "lt_s": lambda a, s: a < s,
    "le_s": lambda a, s: a <= s,
    "gt_s": lambda a, s: a > s,
    "ge_s": lambda a, s: a >= s,
}
INPLACE = {
    "add_": lambda a, b: a.add_(b),
    "sub_": lambda a, b: a.sub_(b),
    "mul_": lambda a, b: a.mul_(b),
    "div_": lambda a, b: a.div_(b),
}
UNARY = ["neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu"]
# Ops whose float results may differ from torch's vectorised (SLEEF) math by an ulp or two.
TRANSCENDENTAL = {"exp", "log", "sin", "cos", "tanh", "sigmoid"}
# torch 2.13's CPU float32 sqrt is not correctly rounded (sqrt(3.14159f) is 1.77245307, one
# ulp below the correctly rounded 1.77245319 ctensor computes): one ulp allowed.
ULPS = {**{name: 2 for name in TRANSCENDENTAL}, "sqrt": 1}


def unary_op(name):
    return {"sigmoid": torch.sigmoid, "relu": torch.relu}.get(name, getattr(torch, name, None))


def unary_apply(name, a, inplace=False):
    """torch's result of a unary op (torch 2.x has CPU float16 kernels for all of them; 1.13
    refused exp, log, sqrt, sin, cos, tanh, sigmoid and relu on float16)."""
    f = (lambda t: getattr(t, name + "_")()) if inplace else unary_op(name)
    return f(a)


# ---- table 1: promotion -----------------------------------------------------------------

def operand(dtype, kind):
    if kind == "D":
        return torch.ones(2, dtype=dtype)
    if kind == "Z":
        return torch.ones((), dtype=dtype)
    return 2.0  # S: a Python float


def promotion_rows():
    rows = []
    kinds = [("D", "D"), ("D", "Z"), ("Z", "D"), ("Z", "Z")]
    for da in DTYPES:
        for db in DTYPES:
            for ka, kb in kinds:
                for op in ["add", "sub", "mul", "div", "eq", "lt"]:
                    r, err = run(lambda: BINARY[op](operand(da, ka), operand(db, kb)))
                    rows.append((op, da, ka, db, kb, r, err))
                for op in ["add_", "sub_", "mul_", "div_"]:
                    r, err = run(lambda: INPLACE[op](operand(da, ka), operand(db, kb)))
                    rows.append((op, da, ka, db, kb, r, err))
    for da in DTYPES:
        for ka in ["D", "Z"]:
            for op in ["add_s", "sub_s", "mul_s", "div_s", "rsub_s", "rdiv_s", "eq_s", "lt_s"]:
                r, err = run(lambda: SCALAR[op](operand(da, ka), 2.0))
                rows.append((op, da, ka, None, "S", r, err))
            for op in ["add_", "sub_", "mul_", "div_"]:
                r, err = run(lambda: INPLACE[op](operand(da, ka), 2.0))
                rows.append((op[:-1] + "_s_", da, ka, None, "S", r, err))
    out = []
    for op, da, ka, db, kb, r, err in rows:
        if err is None:
            res, st, msg = CT[r.dtype], "CT_OK", '""'
        else:
            res, st, msg = "CT_NO_DTYPE", status_of(err), c_str(err)
        out.append('  {"%s", %s, \'%s\', %s, \'%s\', %s, %s, %s},' %
                   (op, CT[da], ka, CT[db] if db is not None else "CT_FLOAT64", kb, res, st, msg))
    return out


# ---- table 2: values ----------------------------------------------------------------------

# Two inputs per dtype, 8 elements each, chosen so that together they wrap integers, divide
# by zero (0/0 and x/0), round in float16/bfloat16, overflow to inf and reach subnormals.
A_VALUES = {
    torch.bool: [True, False, True, False, True, True, False, False],
    torch.uint8: [250, 3, 0, 200, 17, 255, 128, 1],
    torch.int8: [127, -128, 0, -7, 100, -1, 64, 5],
    torch.int16: [32767, -32768, 0, -7, 300, -1, 181, 5],
    torch.int32: [2147483647, -2147483648, 0, -7, 65536, -1, 46341, 16777217],
    torch.int64: [9223372036854775807, -9223372036854775808, 0, -7, 4294967296, -1, 3037000500,
                  9007199254740993],
    torch.float16: [65504.0, 0.0, -0.0, 2049.0, 0.1, -3.5, 1e-7, INF],
    torch.bfloat16: [3.3895313892515355e38, 0.0, -0.0, 257.0, 0.1, -3.5, 1e-40, NAN],
    torch.float32: [3.4e38, 0.0, -0.0, 16777217.0, 0.1, -3.5, 1e-45, INF],
    torch.float64: [1.7e308, 0.0, -0.0, 9007199254740993.0, 0.1, -3.5, 5e-324, NAN],
}
B_VALUES = {
    torch.bool: [True, True, False, False, True, False, True, False],
    torch.uint8: [10, 5, 0, 100, 17, 1, 128, 3],
    torch.int8: [1, -1, 0, 3, 100, -128, 2, -5],
    torch.int16: [1, -1, 0, 3, 300, -32768, 181, -5],
    torch.int32: [1, -1, 0, 3, 65536, -2147483648, 46341, 3],
    torch.int64: [1, -1, 0, 3, 4294967296, -9223372036854775808, 3037000500, 3],
    torch.float16: [1.0, 0.0, 0.0, 1.0, 0.2, 3.0, -0.0, 2.0],
    torch.bfloat16: [1.0, 0.0, 0.0, 1.0, 0.2, 3.0, -0.0, 2.0],
    torch.float32: [2.0, 0.0, 0.0, 1.0, 0.2, 3.0, -0.0, 0.5],
    torch.float64: [2.0, 0.0, 0.0, 1.0, 0.2, 3.0, -0.0, 0.5],
}
# Moderate values for the unary ops and the scalar forms (every element in some op's domain).
U_VALUES = {
    torch.bool: [True, False, True, False, False, True],
    torch.uint8: [0, 1, 2, 100, 255, 7],
    torch.int8: [0, 1, -1, 127, -128, 7],
    torch.int16: [0, 1, -1, 32767, -32768, 1000],
    torch.int32: [0, 1, -1, 2147483647, -2147483648, 16777217],
    torch.int64: [0, 1, -1, 9223372036854775807, -9223372036854775808, 9007199254740993],
    torch.float16: [0.0, -0.0, 0.5, -2.25, 3.140625, 65504.0, -INF, NAN, 11.0, 1e-5],
    torch.bfloat16: [0.0, -0.0, 0.5, -2.25, 3.140625, 1e30, -INF, NAN, 89.0, 1e-5],
    torch.float32: [0.0, -0.0, 0.5, -2.25, 3.14159, 1e30, -INF, NAN, 89.0, 1e-5],
    torch.float64: [0.0, -0.0, 0.5, -2.25, 3.14159, 1e300, -INF, NAN, 710.0, 1e-5],
}
SCALARS = [2.0, -0.5, 0.0, 0.1, 300.0, 1e10, -7.0, INF, NAN]


def value_row(op, a, b=None, s=0.0, c=None, result=None, err=None, ulps=0):
    if err is None:
        res, st, msg = CT[result.dtype], "CT_OK", '""'
    else:
        res, st, msg = "CT_NO_DTYPE", status_of(err), c_str(err)
    comment = "  // %s: a=%s" % (op, short(a))
    if b is not None:
        comment += " b=%s" % short(b)
    if op.endswith("_s") or op.endswith("_s_") or op == "fill_":
        comment += " s=%r" % s
    if c is not None:
        comment += " cond=%s" % short(c)
    comment += " -> %s" % (short(result) if err is None else err)
    row = '  {"%s", %s, %s, %s, %s, %s, %s, %s, %s, %d},' % (
        op, tspec(a), tspec(b), c_double(s), tspec(c), res, st, msg, tspec(result if err is None else None), ulps)
    return [comment, row]


def value_rows():
    rows = []
    # Every dtype pair through the binary ops and comparisons.
    for da in DTYPES:
        for db in DTYPES:
            a = torch.tensor(A_VALUES[da], dtype=da)
            b = torch.tensor(B_VALUES[db], dtype=db)
            for op in ["add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge"]:
                r, err = run(lambda: BINARY[op](a, b))
                rows += value_row(op, a, b, result=r, err=err)
            # In place: self = a (copied), torch's casting rules decide.
            for op in ["add_", "sub_", "mul_", "div_"]:
                self = a.clone()
                r, err = run(lambda: INPLACE[op](self, b))
                rows += value_row(op, a, b, result=self if err is None else None, err=err)
            cond = torch.tensor([True, False, False, True, True, False, True, False])
            r, err = run(lambda: torch.where(cond, a, b))
            rows += value_row("where", a, b, c=cond, result=r, err=err)
    # Scalar forms, reflected forms and in-place scalar forms.
    for da in DTYPES:
        a = torch.tensor(U_VALUES[da], dtype=da)
        for s in SCALARS:
            for op, f in SCALAR.items():
                r, err = run(lambda: f(a, s))
                rows += value_row(op, a, s=s, result=r, err=err)
            for op in ["add_", "sub_", "mul_", "div_"]:
                self = a.clone()
                r, err = run(lambda: INPLACE[op](self, s))
                rows += value_row(op[:-1] + "_s_", a, s=s, result=self if err is None else None, err=err)
    # Unary ops and their in-place forms.
    for da in DTYPES:
        a = torch.tensor(U_VALUES[da], dtype=da)
        for name in UNARY:
            ulps = ULPS.get(name, 0)
            r, err = run(lambda: unary_apply(name, a))
            rows += value_row(name, a, result=r, err=err, ulps=ulps)
            self = a.clone()
            r, err = run(lambda: unary_apply(name, self, inplace=True))
            rows += value_row(name + "_", a, result=self if err is None else None, err=err, ulps=ulps)
    # Rounding in float16/bfloat16: many values, operations that round once.
    for dt in [torch.float16, torch.bfloat16]:
        a = torch.linspace(-10, 10, 41).to(dt)
        b = torch.linspace(0.3, 7.0, 41).to(dt)
        for op in ["add", "sub", "mul", "div"]:
            r, err = run(lambda: BINARY[op](a, b))
            rows += value_row(op, a, b, result=r, err=err)
        for s in [0.1, 1 / 3, 7.77]:
            for op in ["add_s", "mul_s", "div_s", "rdiv_s", "rsub_s"]:
                r, err = run(lambda: SCALAR[op](a, s))
                rows += value_row(op, a, s=s, result=r, err=err)
        # Mixed with float32: computed in float32, rounded once.
        b32 = torch.linspace(0.3, 7.0, 41) / 3
        for op in ["add", "div"]:
            r, err = run(lambda: BINARY[op](a, b32))
            rows += value_row(op, a, b32, result=r, err=err)
            self = a.clone()
            r, err = run(lambda: INPLACE[op + "_"](self, b32))
            rows += value_row(op + "_", a, b32, result=self, err=err)
    # 0-dim self and 0-dim other: both count as 0-dim (float16 += float32 computes in float32).
    for da, db, va, vb in [(torch.float16, torch.float32, 1.0, 0.00048828125 + 1e-7),
                           (torch.bfloat16, torch.float64, 1.0, 0.00390625 + 1e-9),
                           (torch.uint8, torch.int8, 200, -100),
                           (torch.int32, torch.int64, 2147483647, 1)]:
        a = torch.tensor(va, dtype=da)
        b = torch.tensor(vb, dtype=db)
        for op in ["add_", "sub_", "mul_"]:
            self = a.clone()
            r, err = run(lambda: INPLACE[op](self, b))
            rows += value_row(op, a, b, result=self if err is None else None, err=err)
    # fill_: values every dtype holds, and values torch refuses.
    for da in DTYPES:
        for s in [0.0, 1.0, -1.0, 2.7, -2.7, 255.0, 256.0, -129.0, 65504.0, 1e6, 3.5e38, INF, -INF, NAN]:
            self = torch.zeros(3, dtype=da)
            r, err = run(lambda: self.fill_(s))
            rows += value_row("fill_", torch.zeros(3, dtype=da), s=s, result=self if err is None else None,
                              err=err)
    return rows


# ---- table 3: layouts ---------------------------------------------------------------------

rng = random.Random(20240601)


def random_geometry(shape=None):
    """(sizes, strides, offset) of a view of some storage: a permuted contiguous block,
    possibly sliced with a step, possibly with expanded dims and odd strides on size-1 dims."""
    if shape is None:
        nd = rng.choice([1, 2, 2, 3, 3, 4])
        shape = [rng.choice([1, 2, 3, 4, 2, 3]) for _ in range(nd)]
        if rng.random() < 0.08:
            shape[rng.randrange(nd)] = 0
    nd = len(shape)
    steps = [rng.choice([1, 1, 1, 2]) for _ in range(nd)]
    full = [s * st if s > 0 else 1 for s, st in zip(shape, steps)]
    order = list(range(nd))
    if rng.random() < 0.6:
        rng.shuffle(order)
    # strides of a contiguous block of `full` laid out in `order` (order[-1] innermost)
    strides = [0] * nd
    acc = 1
    for d in reversed(order):
        strides[d] = acc
        acc *= full[d]
    strides = [st * step for st, step in zip(strides, steps)]
    for d in range(nd):
        if shape[d] == 1 and rng.random() < 0.3:
            strides[d] = rng.choice([0, 7, 99])
        elif shape[d] > 1 and rng.random() < 0.1:
            strides[d] = 0  # expanded
    offset = rng.choice([0, 0, 1, 3])
    return shape, strides, offset


def extent(sizes, strides, offset):
    if any(s == 0 for s in sizes):
        return offset + 1
    return offset + sum((s - 1) * st for s, st in zip(sizes, strides)) + 1


def storage_tensor(n, dtype):
    base = torch.arange(n, dtype=torch.float64)
    if dtype == torch.bool:
        return (base % 3) != 0
    return (base % 100 - 37).to(dtype) if dtype not in FLOATS else (base * 0.25 - 5).to(dtype)


def gspec(t_storage, sizes, strides, offset):
    sz = list(sizes) + [0] * (4 - len(sizes))
    st = list(strides) + [0] * (4 - len(strides))
    return "{%s, %d, {%s}, {%s}, %d, %d, \"%s\"}" % (
        CT[t_storage.dtype], len(sizes), ", ".join(map(str, sz)), ", ".join(map(str, st)), offset,
        t_storage.numel(), hexbytes(t_storage))


NO_GEOM = "{CT_BOOL, -1, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, \"\"}"

LAYOUT_OPS = {
    "add": lambda x, y: x + y,
    "mul": lambda x, y: x * y,
    "eq": lambda x, y: x == y,
    "add_s": lambda x, y: x + 2.0,
    "mul_s": lambda x, y: x * 3.0,
    "exp": lambda x, y: unary_apply("exp", x),
    "neg": lambda x, y: -x,
    "abs": lambda x, y: x.abs(),
    "where": lambda x, y: torch.where(x > 0, x, y),
}


def layout_rows():
    rows = []
    count = 0
    while count < 400:
        op = rng.choice(list(LAYOUT_OPS))
        dx = rng.choice([torch.float32, torch.float32, torch.int32, torch.int64, torch.float64, torch.uint8,
                         torch.float16])
        dy = rng.choice([dx, dx, torch.float32, torch.int16, torch.float64])
        xs, xst, xo = random_geometry()
        sx = storage_tensor(extent(xs, xst, xo), dx)
        x = torch.as_strided(sx, xs, xst, xo)
        y = None
        sy = None
        if op in ("add", "mul", "eq", "where"):
            r = rng.random()
            if r < 0.35:
                ys = list(xs)
            elif r < 0.75:  # broadcast: drop leading dims, set some dims to 1
                ys = list(xs[rng.randrange(len(xs) + 1):])
                ys = [1 if rng.random() < 0.3 else s for s in ys]
            else:
                ys = []  # a 0-dim tensor
            ys_, yst, yo = random_geometry(ys) if ys else ([], [], rng.choice([0, 2]))
            sy = storage_tensor(extent(ys_, yst, yo), dy)
            y = torch.as_strided(sy, ys_, yst, yo)
            if rng.random() < 0.3 and len(ys) == len(xs):  # x as the second operand
                x, y, sx, sy, xs, ys_, xst, yst, xo, yo = y, x, sy, sx, ys_, xs, yst, xst, yo, xo
        res, err = run(lambda: LAYOUT_OPS[op](x, y))
        if err is not None:
            continue  # shapes chosen at random may not broadcast the other way round
        count += 1
        ulps = 2 if op == "exp" else 0
        rows.append("  // %s: x %s/%s+%d %s  y %s  -> sizes %s strides %s" % (
            op, list(x.shape), list(x.stride()), x.storage_offset(), str(x.dtype)[6:],
            "-" if y is None else "%s/%s+%d %s" % (list(y.shape), list(y.stride()), y.storage_offset(),
                                                   str(y.dtype)[6:]),
            list(res.shape), list(res.stride())))
        sz = list(res.shape) + [0] * (4 - res.dim())
        st = list(res.stride()) + [0] * (4 - res.dim())
        rows.append('  {"%s", %s, %s, %s, %d, {%s}, {%s}, "%s", %d},' % (
            op, gspec(sx, x.shape, x.stride(), x.storage_offset()),
            NO_GEOM if y is None else gspec(sy, y.shape, y.stride(), y.storage_offset()),
            CT[res.dtype], res.dim(), ", ".join(map(str, sz)), ", ".join(map(str, st)), hexbytes(res), ulps))
    return rows


def main():
    lines = [
        "// Generated by tests/tools/gen_promotion_cases.py from PyTorch %s.  Do not edit:" % torch.__version__,
        "// run build/venv/bin/python tests/tools/gen_promotion_cases.py to regenerate.",
        "// Structs (PromotionCase, ValueCase, LayoutCase) are declared by test_compute_elementwise.cpp.",
        "",
        "// op, a dtype, a kind, b dtype, b kind ('D' 1-D tensor, 'Z' 0-dim tensor, 'S' Python float),",
        "// result dtype (CT_NO_DTYPE on error), status, torch's message.",
        "static const PromotionCase kPromotionCases[] = {",
    ]
    lines += promotion_rows()
    lines += ["};", "",
              "// op, a, b, scalar, cond, result dtype, status, torch's message, result, ulps allowed.",
              "static const ValueCase kValueCases[] = {"]
    lines += value_rows()
    lines += ["};", "",
              "// op, x geometry, y geometry (dtype, ndim, sizes, strides, offset, storage numel, storage),",
              "// result dtype, ndim, sizes, strides, values, ulps allowed.",
              "static const LayoutCase kLayoutCases[] = {"]
    lines += layout_rows()
    lines += ["};", ""]
    with open(OUT, "w") as f:
        f.write("\n".join(lines))
    print("wrote", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
