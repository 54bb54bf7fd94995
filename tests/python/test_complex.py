"""Complex tensors (issue #19, first part): the complex64/complex128 dtypes, their promotion,
creation from Python complex numbers and NumPy, printing, item/tolist, copies and
conversions, and the views between a complex tensor and its parts (view_as_real,
view_as_complex, real, imag) — differential against torch 2.13."""

import numpy as np
import pytest
import torch

import ctensor as ct

DTYPES = [ct.bool, ct.uint8, ct.int8, ct.int16, ct.int32, ct.int64, ct.float16, ct.bfloat16, ct.float32,
          ct.float64, ct.complex64, ct.complex128]


def tt(d):
    return getattr(torch, d._name)


def geometry(t):
    return (tuple(t.shape), tuple(t.stride()), t.storage_offset(), str(t.dtype).split(".")[1])


def test_dtype_objects():
    assert ct.cfloat is ct.complex64 and ct.cdouble is ct.complex128
    for d in DTYPES:
        ref = tt(d)
        assert (d.is_complex, d.is_floating_point, d.is_signed, d.itemsize) == \
            (ref.is_complex, ref.is_floating_point, ref.is_signed, ref.itemsize), d
    assert ct.complex64.to_real() is ct.float32 and ct.complex128.to_real() is ct.float64
    assert ct.float64.to_complex() is ct.complex128 and ct.bfloat16.to_complex() is ct.complex64
    with pytest.raises(RuntimeError, match="Unknown Complex ScalarType for Long"):
        ct.int64.to_complex()


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", [ct.complex64, ct.complex128])
def test_promote_types_with_complex(a, b):
    assert str(ct.promote_types(a, b)).split(".")[1] == str(torch.promote_types(tt(a), tt(b))).split(".")[1]
    assert str(ct.promote_types(b, a)).split(".")[1] == str(torch.promote_types(tt(b), tt(a))).split(".")[1]


@pytest.mark.parametrize("d", [ct.bool, ct.int64, ct.bfloat16, ct.float32, ct.float64, ct.complex64])
def test_result_type_with_a_python_complex(d):
    x, y = ct.ones(2, dtype=d), torch.ones(2, dtype=tt(d))
    assert str(ct.result_type(x, 1j)).split(".")[1] == str(torch.result_type(y, 1j)).split(".")[1]
    z, w = ct.tensor(1 + 1j, dtype=ct.complex128), torch.tensor(1 + 1j, dtype=torch.complex128)
    assert str(ct.result_type(x, z)).split(".")[1] == str(torch.result_type(y, w)).split(".")[1]


DATA = [[1 + 2j, 3], [1, 2.5j], [True, 1j], [[1 + 2j, -3.5 - 1e-5j]], 2 - 3j, [1e10 + 1j],
        [float("nan") + 1j * float("inf")], [-0.0 - 0.0j, 0.5 - 0j], [[1j] * 3] * 2, [1 + 1j] * 1200, []]


@pytest.mark.parametrize("data", DATA, ids=range(len(DATA)))
@pytest.mark.parametrize("dtype", [None, "complex64", "complex128"])
def test_tensor_from_python_complex_prints_as_torch(data, dtype):
    a = ct.tensor(data, dtype=getattr(ct, dtype) if dtype else None)
    b = torch.tensor(data, dtype=getattr(torch, dtype) if dtype else None)
    assert geometry(a) == geometry(b)
    assert repr(a) == repr(b).replace("torch.", "ctensor.")
    assert a.tolist() == b.tolist() or repr(a.tolist()) == repr(b.tolist())  # nan != nan


def test_item_and_tolist():
    a, b = ct.tensor([[1.5 - 2j]]), torch.tensor([[1.5 - 2j]])
    assert a.item() == b.item() and type(a.item()) is complex
    assert a.tolist() == b.tolist()
    assert ct.tensor(3.0 + 0j, dtype=ct.complex128).item() == 3 + 0j


def test_numpy_round_trip_shares_memory():
    n = np.array([[1 + 2j, 3 - 4j]], dtype=np.complex64)
    t = ct.from_numpy(n)
    assert t.dtype is ct.complex64 and t.tolist() == [[1 + 2j, 3 - 4j]]
    n[0, 0] = 9j
    assert t[0, 0].item() == 9j  # the same memory
    back = t.numpy()
    assert back.dtype == np.complex64 and np.shares_memory(back, n)
    assert ct.tensor(np.array([1 + 1j])).dtype is ct.complex128


@pytest.mark.parametrize("src", ["complex64", "complex128"])
@pytest.mark.parametrize("dst", ["bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64",
                                 "complex128"])
def test_conversions_as_torch(src, dst):
    data = [1.5 + 2j, -3.25 - 0.5j, 0j, 0 + 1j, 255.9 + 0j]
    a = ct.tensor(data, dtype=getattr(ct, src)).to(getattr(ct, dst))
    b = torch.tensor(data, dtype=getattr(torch, src)).to(getattr(torch, dst))
    assert a.tolist() == b.tolist()
    c = ct.tensor([1, 0, 3], dtype=getattr(ct, dst)).to(getattr(ct, src)) if dst not in ("bool",) else None
    if c is not None:
        d = torch.tensor([1, 0, 3], dtype=getattr(torch, dst)).to(getattr(torch, src))
        assert c.tolist() == d.tolist()


def test_copies_clone_contiguous_cat():
    for dt in ("complex64", "complex128"):
        a = ct.tensor([[1 + 2j, 3 - 1j, 5j], [7, 8 + 8j, -9j]], dtype=getattr(ct, dt))
        b = torch.tensor([[1 + 2j, 3 - 1j, 5j], [7, 8 + 8j, -9j]], dtype=getattr(torch, dt))
        assert a.t().contiguous().tolist() == b.t().contiguous().tolist()
        assert a.t().clone().stride() == b.t().clone().stride()
        assert ct.cat([a, a.flip(0)], 1).tolist() == torch.cat([b, b.flip(0)], 1).tolist()
        assert a.t()[1:].contiguous().tolist() == b.t()[1:].contiguous().tolist()
        big_a, big_b = ct.zeros(64, 40, dtype=getattr(ct, dt)), torch.zeros(64, 40, dtype=getattr(torch, dt))
        big_a[3, 5], big_b[3, 5] = 1 + 2j, 1 + 2j
        assert big_a.t().contiguous().tolist() == big_b.t().contiguous().tolist()  # the tiled copy path
        assert ct.zeros(3, dtype=getattr(ct, dt)).fill_(2.5).tolist() == [2.5 + 0j] * 3


def test_setitem_with_python_numbers():
    a, b = ct.zeros(3, dtype=ct.complex64), torch.zeros(3, dtype=torch.complex64)
    for x in (a, b):
        x[0] = 1 + 2j
        x[1] = 3
        x[2] = 2.5
    assert repr(a) == repr(b)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        ct.zeros(3)[0] = 1j
    f = ct.zeros(2)
    f[1] = 4 + 0j
    assert f.tolist() == [0.0, 4.0]


# ---- views ------------------------------------------------------------------------------------

def make_pair(shape=(3, 4), dtype="complex64", op=None):
    n = 1
    for s in shape:
        n *= s
    vals = [complex(i, -i / 2) for i in range(n)]
    a = ct.tensor(vals, dtype=getattr(ct, dtype)).reshape(shape)
    b = torch.tensor(vals, dtype=getattr(torch, dtype)).reshape(shape)
    if op:
        a, b = op(a), op(b)
    return a, b


LAYOUTS = [None, lambda t: t.t(), lambda t: t[1:, ::2], lambda t: t[:, 1], lambda t: t.unsqueeze(0).expand(2, 3, 4)]


@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_view_as_real_real_imag_geometry(layout, dtype):
    a, b = make_pair(dtype=dtype, op=LAYOUTS[layout])
    for fa, fb in ((ct.view_as_real, torch.view_as_real), (lambda t: t.real, lambda t: t.real),
                   (lambda t: t.imag, lambda t: t.imag), (ct.real, torch.real), (ct.imag, torch.imag)):
        va, vb = fa(a), fb(b)
        assert geometry(va) == geometry(vb)
        assert va.tolist() == vb.tolist()
        assert va._is_view() and va._base is (a._base if a._is_view() else a)
        assert va.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()


def test_writes_through_the_part_views():
    a, b = make_pair()
    for x in (a, b):
        v0 = x._version
        x.imag[0] = 7.0
        x.real.mul_(2) if hasattr(x.real, "mul_") else None
        ct_or_torch = torch if isinstance(x, torch.Tensor) else ct
        ct_or_torch.view_as_real(x)[1, 1, 1] = -1.0
        x.imag = x.imag  # the setter copies into the view
        assert x._version > v0
    assert a.tolist() == b.tolist()
    assert a._version == b._version


def test_real_of_a_real_tensor_is_itself_and_imag_raises():
    x = ct.ones(3)
    assert x.real is x and ct.real(x) is x
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes."):
        x.imag
    with pytest.raises(RuntimeError, match="view_as_real is only supported for complex tensors"):
        ct.view_as_real(x)
    assert not x.is_complex() and ct.complex64 and ct.zeros(1, dtype=ct.complex64).is_complex()
    assert ct.is_complex(ct.zeros(1, dtype=ct.complex128))


VC_CASES = [
    lambda m: m.zeros(3, 2), lambda m: m.zeros(3, 4, 2).transpose(0, 1), lambda m: m.zeros(3, 2, 2)[:, 1:, :],
    lambda m: m.zeros(6, 2)[::3], lambda m: m.zeros(2, 3, 2)[:, ::2], lambda m: m.zeros(0, 2),
    lambda m: m.zeros(3, 2, dtype=m.float64),
    # errors, in torch's order
    lambda m: m.zeros(3), lambda m: m.zeros(3, 3), lambda m: m.zeros(4, 2).t(), lambda m: m.zeros(()),
    lambda m: m.zeros(7)[1:].view(3, 2), lambda m: m.zeros(3, 2, dtype=m.int64),
    lambda m: m.zeros(3, 3)[:, :2],
]


@pytest.mark.parametrize("case", range(len(VC_CASES)))
def test_view_as_complex_as_torch(case):
    def run(m):
        try:
            x = VC_CASES[case](m)
            v = m.view_as_complex(x)
            return ("ok", geometry(v), v._base is (x._base if x._is_view() else x))
        except Exception as e:  # noqa: BLE001
            return (type(e).__name__, str(e).split("\n")[0])
    assert run(ct) == run(torch)


def test_view_as_complex_of_a_tensor_requiring_grad_records_its_node():
    x = ct.zeros(3, 2, requires_grad=True)
    assert ct.view_as_complex(x).grad_fn.name() == "ViewAsComplexBackward0"
    with ct.no_grad():
        v = ct.view_as_complex(x)
        assert v.shape == (3,) and v.grad_fn is None


def test_arithmetic_refused_with_a_clear_error():
    a = ct.tensor([1 + 1j])
    with pytest.raises(RuntimeError, match="^Sort does not support complex dtypes on CPU$"):
        a.sort()  # arithmetic (+ - * /, sum, matmul, exp, cumsum, ...) is in test_complex_arith.py
    assert a.requires_grad_().requires_grad  # complex autograd: test_complex_autograd.py
