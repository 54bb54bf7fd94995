#!/usr/bin/env python3
"""Writes tests/core/format_cases.inc: tensors together with PyTorch's repr of them.

Run with the project's venv Python, which has torch 2.13 (requirements.txt):

    build/venv/bin/python tests/tools/gen_format_cases.py

Each case records a tensor as ctensor can rebuild it without torch: the dtype, the
elements of its whole storage (as text that parses back to the exact value), and the view
geometry (sizes, strides, storage offset) taken from torch itself after the recipe that
made it (transpose, slicing, expand, ...).  The expected text is repr(tensor) with
"torch." replaced by "ctensor.".  test_format.cpp rebuilds each tensor and compares.
"""

import math
import os
import sys

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "format_cases.inc")

DTYPE_ENUM = {
    torch.bool: "Bool",
    torch.uint8: "UInt8",
    torch.int8: "Int8",
    torch.int16: "Int16",
    torch.int32: "Int32",
    torch.int64: "Int64",
    torch.float16: "Float16",
    torch.bfloat16: "BFloat16",
    torch.float32: "Float32",
    torch.float64: "Float64",
}
ALL_DTYPES = list(DTYPE_ENUM)
INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]

NAN = float("nan")
INF = float("inf")

cases = []  # (name, recipe, tensor)


def add(name, tensor, recipe=""):
    cases.append((name, recipe, tensor))


def value_tokens(t):
    """The elements of t's whole storage, as text that parses back exactly."""
    n = t.storage().size()
    flat = torch.as_strided(t, (n,), (1,), 0)  # storage offset 0: the storage start
    if t.dtype == torch.bool:
        return ["1" if v else "0" for v in flat.tolist()]
    if t.dtype in INT_DTYPES:
        return [str(v) for v in flat.tolist()]
    if t.dtype == torch.float64:
        return [repr(v) for v in flat.tolist()]
    # float32, float16, bfloat16: every value is a float32; numpy's str is the shortest
    # text that parses back (strtof) to the same float32.
    return [str(np.float32(v)) for v in flat.float().numpy()]


def c_list(xs):
    return "{" + ", ".join(str(int(x)) for x in xs) + "}"


def c_string_chunks(tokens, width=96):
    lines, cur = [], ""
    for tok in tokens:
        piece = (" " if cur else "") + tok
        if cur and len(cur) + len(piece) > width:
            lines.append(cur + " ")
            cur = tok
        else:
            cur += piece
    lines.append(cur)
    return lines


def emit(f, index, name, recipe, t):
    expected = repr(t).replace("torch.", "ctensor.")
    assert ")ct\"" not in expected
    toks = value_tokens(t)
    cname = "c%03d_%s" % (index, name)
    f.write("{\"%s\",\n" % cname)
    f.write(" \"%s\",\n" % recipe.replace("\\", "\\\\").replace("\"", "\\\""))
    f.write(" ct::DType::%s, %s, %s, %d, %d,\n" % (
        DTYPE_ENUM[t.dtype], c_list(t.size()), c_list(t.stride()), t.storage_offset(),
        t.storage().size()))
    for line in c_string_chunks(toks):
        f.write(" \"%s\"\n" % line)
    f.write(" ,\n R\"ct(%s)ct\"},\n" % expected)


def T(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype)


def gen_cases():
    g = torch.Generator().manual_seed(20240601)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)

    def srandn(*shape, dtype=torch.float32):
        # randn rounded to 5 significant digits: still not exact in binary, so printing
        # rounds, but the big summarized cases stay small in the checked-in file.
        x = torch.randn(*shape, generator=g, dtype=torch.float64)
        x = torch.tensor([float("%.5g" % v) for v in x.flatten().tolist()], dtype=torch.float64)
        return x.reshape(shape).to(dtype)

    def randint(lo, hi, *shape, dtype=torch.int64):
        return torch.randint(lo, hi, shape, generator=g, dtype=torch.int64).to(dtype)

    # ---- float32 1-d: notation, width, the thresholds of scientific mode -------------
    f32 = [
        ("ints", [1.0, 2.0, 3.0]),
        ("half", [0.5]),
        ("mixed_frac", [1.5, 2.25, -3.125]),
        ("tenths", [0.1, 0.2, 0.3]),
        ("neg_zero_pos", [-1.0, 0.0, 1.0]),
        ("big_1e10", [1e10]),
        ("small_1e-5", [1e-5]),
        ("small_and_one", [1e-5, 1.0]),
        ("int_1e8_and_1", [1e8, 1.0]),
        ("int_exactly_1e8", [1e8]),
        ("int_above_1e8", [123456789.0]),
        ("int_ratio_1000", [1.0, 1000.0]),
        ("int_ratio_1001", [1.0, 1001.0]),
        ("frac_ratio_1000", [0.5, 500.0]),
        ("frac_ratio_above", [0.5, 500.5]),
        ("f32_1e-4_is_below", [1e-4, 0.05]),
        ("ties_even", [0.03125, 0.5, 0.09375, 1.65625]),
        ("thirds", [1 / 3, 2 / 3, -1 / 3]),
        ("neg_zero", [-0.0]),
        ("zero_and_neg_zero", [0.0, -0.0]),
        ("all_zero", [0.0, 0.0, 0.0]),
        ("neg_zero_frac", [-0.0, 1.5]),
        ("neg_zero_sci", [-0.0, 1e-7, 3.0]),
        ("subnormal", [1e-45]),
        ("f32_max", [3.4028235e38, -1.0]),
        ("width_ints", [123.0, 456.0, 789.0]),
        ("width_neg_ints", [-123.0, 4.0]),
        ("large_frac", [12345.678, 0.5]),
        ("almost_1e8_frac", [99999.5, 1234.25]),
        ("sci_negative", [-1e-9, 2e-9, 3.5e-8]),
        ("sci_1e38", [1e38, 1e-38]),
        ("int_sci_mixed", [1e15, 2e15, -3e15]),
        ("e_rounding", [1.99995e10, 9.99995e-6]),
        ("f_rounding", [0.99995, 9.99995, 2.00005]),
    ]
    for name, vals in f32:
        add("f32_" + name, T(vals))

    f64 = [
        ("1e-4_exact", [1e-4, 0.05]),
        ("1e-4_alone", [1e-4]),
        ("frac_below_1e8", [99999999.5]),
        ("frac_above_1e8", [100000000.5]),
        ("huge_ratio", [1e308, 1e-308]),
        ("denorm_min", [5e-324]),
        ("exp3", [1e-100, 1e100]),
        ("digits", [0.123456789012345678, 1.0]),
        ("ties", [0.00015, 0.00025, 0.5]),
        ("int_above_2_53", [2.0**53 + 2, 3.0]),
        ("thirds", [1 / 3, 2 / 3]),
    ]
    for name, vals in f64:
        add("f64_" + name, T(vals, torch.float64))

    # ---- nan / inf ---------------------------------------------------------------------
    nonfinite = [
        ("nan", [NAN]),
        ("inf", [INF]),
        ("ninf", [-INF]),
        ("all_three", [NAN, INF, -INF]),
        ("nan_int", [NAN, 1.0]),
        ("nan_frac", [NAN, 1.5]),
        ("inf_int", [INF, 2.0]),
        ("ninf_sci", [-INF, 1e10]),
        ("nan_zero", [NAN, 0.0]),
        ("nan_negzero", [NAN, -0.0]),
        ("inf_frac", [INF, 0.001, 1.0]),
        ("everything", [1.0, 2.0, NAN, INF, -INF, 0.0]),
        ("nan_small", [NAN, 1e-5]),
        ("ninf_wide_int", [-INF, 12345.0]),
        ("ninf_narrow_int", [-INF, 1.0, 2.0]),
    ]
    for name, vals in nonfinite:
        add("nonfinite_" + name, T(vals))
    add("nonfinite_f64_mix", T([[NAN, 1e-3], [INF, -2.5]], torch.float64))
    add("nonfinite_f16", T([NAN, INF, -INF, 1.5], torch.float16))
    add("nonfinite_bf16", T([NAN, -INF, 3.0], torch.bfloat16))

    # ---- 0-dim -------------------------------------------------------------------------
    scalars = [
        ("f32_3", 3.0, torch.float32),
        ("f32_negzero", -0.0, torch.float32),
        ("f32_zero", 0.0, torch.float32),
        ("f32_1_5", 1.5, torch.float32),
        ("f32_nan", NAN, torch.float32),
        ("f32_inf", INF, torch.float32),
        ("f32_ninf", -INF, torch.float32),
        ("f32_1e10", 1e10, torch.float32),
        ("f32_1e-10", 1e-10, torch.float32),
        ("f32_123456789", 123456789.0, torch.float32),
        ("f64_0_1", 0.1, torch.float64),
        ("f64_2", 2.0, torch.float64),
        ("f16_3", 3.0, torch.float16),
        ("f16_0_1", 0.1, torch.float16),
        ("bf16_1e30", 1e30, torch.bfloat16),
        ("i8", -5, torch.int8),
        ("u8", 255, torch.uint8),
        ("i16", -32768, torch.int16),
        ("i32", 2147483647, torch.int32),
        ("i64", 2**62 + 12345, torch.int64),
        ("i64_min", -(2**63), torch.int64),
        ("bool_true", True, torch.bool),
        ("bool_false", False, torch.bool),
    ]
    for name, v, dt in scalars:
        add("scalar_" + name, torch.tensor(v, dtype=dt))
    m = randn(3, 4)
    add("scalar_select_view", m[1, 2], "randn(3,4)[1,2]")

    # ---- empty -------------------------------------------------------------------------
    for dt in ALL_DTYPES:
        dn = str(dt).split(".")[1]
        add("empty_%s" % dn, torch.zeros(0, dtype=dt))
        add("empty_0x3_%s" % dn, torch.zeros(0, 3, dtype=dt))
    for dt in [torch.float32, torch.int64, torch.bool, torch.float16]:
        dn = str(dt).split(".")[1]
        add("empty_2x0x4_%s" % dn, torch.zeros(2, 0, 4, dtype=dt))
    add("empty_0x0", torch.zeros(0, 0))
    add("empty_slice_view", torch.arange(12, dtype=torch.int32).reshape(3, 4)[:, 4:], "arange(12).reshape(3,4)[:,4:]")

    # ---- integers ----------------------------------------------------------------------
    add("i8_extremes", T([-128, 0, 127], torch.int8))
    add("u8_extremes", T([0, 7, 255], torch.uint8))
    add("u8_all", torch.arange(256).to(torch.uint8), "arange(256)")
    add("i16_extremes", T([-32768, 32767, 5], torch.int16))
    add("i32_extremes", T([-(2**31), 2**31 - 1, 0], torch.int32))
    add("i64_2_62", T([2**62, -(2**62), 1], torch.int64))
    add("i64_near_2_62", T([2**62 - 1, 2**62 + 1, 4611686018427387903 // 3], torch.int64))
    add("i64_extremes", T([2**63 - 1, -(2**63)], torch.int64))
    add("i64_2_53", T([2**53 + 1, 2**53, -(2**53) - 1], torch.int64))
    add("i64_table", T([[1, -100, 7, 0], [1000, 2, -3, 45], [9, 99, 999, 9999]], torch.int64))
    add("i32_arange100", torch.arange(100, dtype=torch.int32), "arange(100)")
    add("i64_arange1000", torch.arange(1000), "arange(1000): at the threshold")
    add("i64_arange1001", torch.arange(1001), "arange(1001): summarized")
    add("i64_one", T([42], torch.int64))
    add("i16_negwidth", T([-1, 10, -100, 1000], torch.int16))
    add("i8_rand_2d", randint(-128, 128, 5, 9, dtype=torch.int8))
    add("u8_rand_3d", randint(0, 256, 2, 3, 4, dtype=torch.uint8))
    add("i32_rand_wide", randint(-(2**31), 2**31, 30, dtype=torch.int32))
    big = randint(-(2**62), 2**62, 4, 3) * 2 + 1
    add("i64_rand_big", big)

    # ---- bool --------------------------------------------------------------------------
    add("bool_vec", T([True, False, True], torch.bool))
    add("bool_all_true", T([True, True], torch.bool))
    add("bool_col", T([[True], [False]], torch.bool))
    add("bool_3x4", randn(3, 4) > 0, "randn(3,4) > 0")
    add("bool_long", randn(40) > 0, "randn(40) > 0")

    # ---- random floats of many scales --------------------------------------------------
    add("randn_5", randn(5))
    add("randn_100", randn(100))
    add("randn_3x4", randn(3, 4))
    add("randn_5x7", randn(5, 7))
    add("randn_2x3x4", randn(2, 3, 4))
    add("randn_2x2x2x3", randn(2, 2, 2, 3))
    add("randn_1x2x1x3", randn(1, 2, 1, 3))
    add("randn_2x1x3", randn(2, 1, 3))
    add("randn_1x1x1", randn(1, 1, 1))
    add("randn_3x30", randn(3, 30), "rows wrap")
    add("randn_1x1x20", randn(1, 1, 20))
    add("randn_2x2x2x2x2", randn(2, 2, 2, 2, 2), "5-d")
    add("ndim11_ones", randn(*([1] * 10 + [3])), "10 unit dims then 3")
    add("ndim40_deep_wrap", randn(*([1] * 40 + [30])), "indent 47: few entries per line")
    add("ndim10_summarized", torch.arange(1024, dtype=torch.int16).reshape(*([2] * 10)),
        "1024 elements in 10 dims of 2: summarized, nothing elided")
    for scale in [1e-6, 1e-3, 1e3, 1e5, 1e7, 1e9]:
        add("randn_4x5_x%g" % scale, randn(4, 5) * scale, "randn(4,5)*%g" % scale)
    for i in range(3):
        mags = torch.pow(10.0, randint(-6, 7, 4, 5).double())
        add("mixed_mag_%d" % i, (randn(4, 5, dtype=torch.float64) * mags).float(),
            "randn * 10**randint(-6, 6)")
    add("mixed_mag_f64", randn(6, dtype=torch.float64) * torch.pow(10.0, randint(-12, 13, 6).double()))
    add("randn_f64_3x3", randn(3, 3, dtype=torch.float64))
    add("randn_f64_big", randn(3, 3, dtype=torch.float64) * 1e200)
    add("randn_f64_tiny", randn(3, 3, dtype=torch.float64) * 1e-200)
    add("randn_f16_4x4", randn(4, 4, dtype=torch.float16))
    add("randn_bf16_4x4", randn(4, 4, dtype=torch.bfloat16))
    add("randn_f16_x100", randn(2, 6).mul(100).to(torch.float16))
    add("randint_as_float", randint(-50, 50, 3, 5).float())
    add("randint_as_f64_wide", randint(-99999, 99999, 12).double())
    add("rand_pos", torch.rand(2, 8, generator=g))

    # ---- float16 / bfloat16 specifics --------------------------------------------------
    add("f16_max", T([65504.0, -65504.0, 1.0], torch.float16))
    add("f16_subnormal", T([6e-8, 1e-5, 0.25], torch.float16))
    add("f16_ties", T([0.00048828125, 0.0001220703125 * 3, 1.0], torch.float16))
    add("f16_ints", T([1.0, 2048.0, 2049.0], torch.float16))
    add("f16_thirds", T([1 / 3, 2 / 3], torch.float16))
    add("bf16_huge", T([1e30, -3e38, 1.0], torch.bfloat16))
    add("bf16_small", T([1e-30, 0.5], torch.bfloat16))
    add("bf16_ints", T([256.0, 257.0, 1.0], torch.bfloat16))
    add("bf16_frac", T([0.1, 0.2, 0.3, 1.7], torch.bfloat16))

    # ---- non-contiguous ----------------------------------------------------------------
    add("transpose_3x4", randn(3, 4).t(), "randn(3,4).t()")
    add("permute_int32", torch.arange(24, dtype=torch.int32).reshape(2, 3, 4).permute(2, 0, 1),
        "arange(24).reshape(2,3,4).permute(2,0,1)")
    add("step_slice", randn(4, 6)[:, ::2], "randn(4,6)[:, ::2]")
    add("sub_block", randn(5, 5)[1:4, 2:], "randn(5,5)[1:4, 2:]")
    add("column", randn(4, 5)[:, 1], "randn(4,5)[:, 1]")
    add("expand", randn(1, 4).expand(3, 4), "randn(1,4).expand(3,4): stride 0")
    add("diagonal", torch.arange(25.0).reshape(5, 5).diagonal(), "arange(25.).reshape(5,5).diagonal()")
    add("transpose_f16", randn(2, 5, dtype=torch.float16).t(), "randn(2,5).half().t()")
    add("transpose_i64", torch.arange(6).reshape(2, 3).t() * 1000003, "(arange(6).reshape(2,3).t()*1000003")
    add("transpose_4d", randn(2, 3, 2, 2).transpose(1, 3), "randn(2,3,2,2).transpose(1,3)")
    add("bool_transpose", (randn(3, 2) > 0).t(), "(randn(3,2)>0).t()")

    # ---- summarized (more than 1000 elements) -------------------------------------------
    add("sum_2000", srandn(2000))
    add("sum_1001", srandn(1001))
    add("sum_40x40", srandn(40, 40))
    add("sum_3x500", srandn(3, 500))
    add("sum_10x10x20", srandn(10, 10, 20))
    add("sum_7x150", srandn(7, 150), "7 rows > 2*edgeitems")
    add("sum_6x200", srandn(6, 200), "6 rows: all shown")
    add("sum_2x2x300", srandn(2, 2, 300))
    add("sum_1x1001", srandn(1, 1001))
    add("sum_1001x1", srandn(1001, 1))
    add("sum_4x4x4x4x4", srandn(4, 4, 4, 4, 4), "1024 elements, no dim elided")
    add("sum_7x7x7x7", srandn(7, 7, 7, 7))
    add("sum_40x40_t", srandn(40, 40).t(), "srandn(40,40).t()")
    add("sum_step_slice", torch.arange(3000.0).reshape(3, 1000)[:, ::2], "arange(3000.).reshape(3,1000)[:, ::2]")
    add("sum_i64_2000", torch.arange(2000) * 7 - 5000)
    add("sum_i32_40x40", randint(-1000, 1000, 40, 40, dtype=torch.int32))
    add("sum_i16_3x500", randint(-30000, 30000, 3, 500, dtype=torch.int16))
    add("sum_i8_10x10x20", randint(-128, 128, 10, 10, 20, dtype=torch.int8))
    add("sum_u8_2000", randint(0, 256, 2000, dtype=torch.uint8))
    add("sum_i64_big", randint(-(2**62), 2**62, 40, 40))
    add("sum_bool_2000", srandn(2000) > 0)
    add("sum_bool_40x40", srandn(40, 40) > 0)
    add("sum_f16_2000", srandn(2000, dtype=torch.float16))
    add("sum_f16_40x40", srandn(40, 40, dtype=torch.float16))
    add("sum_bf16_3x500", srandn(3, 500, dtype=torch.bfloat16))
    add("sum_f64_10x10x20", srandn(10, 10, 20, dtype=torch.float64) * torch.pow(10.0, randint(-3, 4, 10, 10, 20).double()))
    x = torch.arange(2000.0)
    x[1000] = 0.5
    add("sum_hidden_frac", x, "arange(2000.) with a hidden 0.5")
    x = torch.arange(2000.0)
    x[1000] = 1e20
    add("sum_hidden_huge", x, "arange(2000.) with a hidden 1e20")
    x = torch.arange(2000.0)
    x[500] = NAN
    x[1999] = INF
    add("sum_nan_inf", x, "hidden nan, shown inf")
    x = srandn(40, 40)
    x[20, 20] = 1e-9
    add("sum_hidden_tiny_2d", x, "hidden 1e-9 in the middle")
    x = srandn(40, 40)
    x[0, 39] = 1e-9
    add("sum_shown_tiny_2d", x, "shown 1e-9 in a corner")
    x = torch.zeros(50, 50)
    x[0, 0] = -0.0
    add("sum_zeros", x)

    # ---- where the suffix goes: lines close to the width ---------------------------------
    for dt, unit in [(torch.int32, 1), (torch.int16, 11), (torch.float64, 1.25),
                     (torch.uint8, 3), (torch.float16, 0.5)]:
        wanted = set(range(54, 63))
        for n in range(1, 40):
            t = (torch.arange(n, dtype=torch.float64) * unit + unit).to(dt)
            body = "tensor(" + torch._tensor_str._tensor_str(t, len("tensor("))
            last_len = len(body) - body.rfind("\n") + 1
            if last_len in wanted:
                wanted.discard(last_len)
                add("suffix_%s_%d" % (str(dt).split(".")[1], n), t, "last line %d" % last_len)
    for n in [9, 10, 18, 19, 27]:
        add("suffix_i32_2d_%d" % n, torch.arange(2 * n, dtype=torch.int32).reshape(2, n) * 11)
    add("suffix_sum_i32", torch.arange(2000, dtype=torch.int32))
    add("suffix_sum_f64", srandn(2000, dtype=torch.float64))


def main():
    gen_cases()
    names = set()
    with open(OUT, "w") as f:
        f.write("// Generated by tests/tools/gen_format_cases.py with torch %s: do not edit.\n" % torch.__version__)
        f.write("// {name, recipe, dtype, sizes, strides, offset, storage numel, storage values, repr}\n")
        for i, (name, recipe, t) in enumerate(cases):
            assert name not in names, name
            names.add(name)
            emit(f, i, name, recipe, t)
    print("wrote %d cases to %s" % (len(cases), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
