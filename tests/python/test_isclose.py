"""torch.isclose / Tensor.isclose, and allclose's equal_nan: differential against torch 2.13
(values for every dtype family, tolerances rounded in the dtype, infinities, NaN with and
without equal_nan, complex values, broadcasting, the default dtype for integers; errors)."""

import numpy as np
import pytest

import ctensor as ct
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")

INF, NAN = float("inf"), float("nan")

CASES = {
    "float32": ([1.0, 1.0, 1e-9, INF, -INF, INF, NAN, NAN, 1e30, 0.0, 100.0],
                [1.0 + 1e-6, 1.1, 0.0, INF, INF, 1e38, NAN, 1.0, 1.00001e30, -0.0, 100.001]),
    "float64": ([1.0, 1.0 + 1e-12, 1e-9, INF, NAN, 2.0], [1.0 + 1e-5, 1.0, 2e-9, INF, NAN, 2.0 + 2e-5]),
    "float16": ([1.0, 1.5, 2.0, NAN, 65504.0], [1.0009765625, 1.5009765625, 2.001953125, NAN, INF]),
    "bfloat16": ([1.0, 1.5, 300.0, NAN], [1.0078125, 1.5, 301.0, NAN]),
    "complex64": ([1 + 1j, 1 + 1j, complex(NAN, 0), complex(0, NAN), complex(INF, 1), 3j],
                  [1 + 1.000001j, 1 + 1.1j, complex(NAN, 0), complex(1, NAN), complex(INF, 1), 3.00003j]),
    "complex128": ([1 + 1j, complex(NAN, NAN), 1e-300j], [1 + (1 + 1e-6) * 1j, complex(NAN, 1), 0j]),
    "int64": ([0, 5, 2**24 + 1, 2**62 + 1, 2**63 - 1, -7], [0, 6, 2**24, 2**62, -2**63, -7]),
    "int8": ([1, 127, -128], [2, -128, -128]),
    "uint8": ([200, 0, 3], [10, 255, 3]),
    "bool": ([True, True, False], [True, False, False]),
}
TOLERANCES = [(1e-5, 1e-8), (0.0, 0.0), (0.1, 0.0), (0.0, 1.5), (1e-3, 1e-3)]


def pair(m, dtype):
    a, b = CASES[dtype]
    d = getattr(m, dtype)
    return m.tensor(a, dtype=d), m.tensor(b, dtype=d)


@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("tol", TOLERANCES)
@pytest.mark.parametrize("dtype", sorted(CASES))
def test_values_as_torch(dtype, tol, equal_nan):
    rtol, atol = tol
    (ca, cb), (ta, tb) = pair(ct, dtype), pair(torch, dtype)
    rc = ct.isclose(ca, cb, rtol=rtol, atol=atol, equal_nan=equal_nan)
    rt = torch.isclose(ta, tb, rtol=rtol, atol=atol, equal_nan=equal_nan)
    assert rc.dtype is ct.bool and rc.tolist() == rt.tolist() and not rc.requires_grad
    assert ca.isclose(cb, rtol, atol, equal_nan).tolist() == rt.tolist()
    assert ct.allclose(ca, cb, rtol, atol, equal_nan) == torch.allclose(ta, tb, rtol, atol, equal_nan)
    assert ct.allclose(ca[:1], cb[:1], rtol, atol, equal_nan) == torch.allclose(ta[:1], tb[:1], rtol, atol, equal_nan)


def test_integers_use_the_default_dtype():
    # 2**24 + 1 and 2**24 are one float32: close under a float32 default, not under float64
    for m in (ct, torch):
        m.set_default_dtype(m.float64)
    try:
        a, b = [2**24 + 1], [2**24]
        assert ct.isclose(ct.tensor(a), ct.tensor(b), rtol=0, atol=0.5).tolist() == \
            torch.isclose(torch.tensor(a), torch.tensor(b), rtol=0, atol=0.5).tolist() == [False]
    finally:
        for m in (ct, torch):
            m.set_default_dtype(m.float32)
    assert ct.isclose(ct.tensor([2**24 + 1]), ct.tensor([2**24]), rtol=0, atol=0.5).tolist() == [True]


def test_broadcasting_layout_and_views():
    for m in (ct, torch):
        a = m.tensor([[1.0, 2.0, 3.0]]).t()          # a column view
        b = m.tensor([1.0, 2.0000001, 4.0])
        r = m.isclose(a, b)
        assert r.shape == (3, 3)
        if m is torch:
            expected = (r.tolist(), r.stride())
        else:
            got = (r.tolist(), r.stride())
    assert got == expected
    z = torch.tensor([1 + 2j, 3 - 1j])
    c = ct.tensor([1 + 2j, 3 - 1j])
    assert ct.isclose(c, c.conj()).tolist() == torch.isclose(z, z.conj()).tolist() == [False, False]
    assert ct.isclose(c.conj(), c.conj().resolve_conj()).tolist() == [True, True]


@pytest.mark.parametrize("call, message", [
    (lambda m: m.isclose(m.tensor([1.0]), m.tensor([1.0], dtype=m.float64)), "^Float did not match Double$"),
    (lambda m: m.isclose(m.tensor([1.0]), m.tensor([1.0]), rtol=-1), "rtol must be greater than or equal to zero, but got -1"),
    (lambda m: m.isclose(m.tensor([1.0]), m.tensor([1.0]), atol=-0.5), "atol must be greater than or equal to zero, but got -0.5"),
    (lambda m: m.isclose(m.ones(2), m.ones(3)), "The size of tensor a \\(2\\) must match the size of tensor b \\(3\\)"),
    (lambda m: m.allclose(m.ones(2), m.ones(2, dtype=m.int64), equal_nan=True), "^Float did not match Long$"),
])
def test_errors_as_torch(call, message):
    for m in (torch, ct):
        with pytest.raises(RuntimeError, match=message):
            call(m)


def test_c_function():
    from ctensor import _C
    a, b = ct.tensor([1.0, NAN]), ct.tensor([1.0, NAN])
    assert _C.ct_isclose(a, b, 1e-5, 1e-8, 0).tolist() == [True, False]
    assert _C.ct_isclose(a, b, 1e-5, 1e-8, 1).tolist() == [True, True]
    r = _C.ct_isclose(a, b, 1e-5, 1e-8, 1)
    assert not r.shares_storage(a) and r.is_contiguous()
