"""view(dtype), T and mT, narrow's tensor start: differential against torch 2.13.

view(dtype) is torch's non-differentiable view: same storage and version counter, no _base,
_is_view() False, requires_grad False (TORCH_MODEL.md, "view(dtype)")."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import ctensor
from ctutil import CT_DTYPES, torch, torch_dtype

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def pair(shape, dtype):
    """The same values as a ctensor tensor and a torch tensor of dtype (contiguous, no view)."""
    n = int(np.prod(shape))
    t = (torch.arange(n) * 37 + 11).remainder(2 if dtype == ctensor.bool else 100).to(torch_dtype(dtype))
    t = t.reshape(shape).clone()
    return ctensor.tensor(t.tolist(), dtype=dtype), t


def raw_bytes(x, lib=ctensor):
    """The tensor's elements (C order) as bytes.  Through an integer dtype of the same size
    first: copying a bool tensor normalizes its bytes to 0/1 in torch (not in ctensor, whose
    copies keep them: a difference outside view(dtype), seen here and left alone)."""
    same = {1: lib.uint8, 2: lib.int16, 4: lib.int32, 8: lib.int64}[x.element_size()]
    return bytes(x.view(same).contiguous().reshape(-1).view(lib.uint8).tolist())


def torch_raw(x):
    return raw_bytes(x, torch)


def check_same(c, t):
    assert tuple(c.shape) == tuple(t.shape)
    assert c.stride() == t.stride()
    assert c.storage_offset() == t.storage_offset()
    assert repr(c.dtype).split(".")[1] == repr(t.dtype).split(".")[1]
    if c.dim() and c.stride(-1) == 1 and c.numel():
        assert raw_bytes(c) == torch_raw(t)


def error_of(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the type is compared
        return type(e), str(e)
    return None


def same_error(fc, ft):
    ec, et = error_of(fc), error_of(ft)
    assert ec is not None and et is not None, (ec, et)
    assert ec == et


# ---- geometry and values, every dtype pair ----------------------------------------------

LAYOUTS = {
    "contiguous": lambda x: x,
    "permuted": lambda x: x.permute(1, 0, 2),
    "last_not_1": lambda x: x.permute(2, 0, 1),
    "expanded": lambda x: x[:1, :, :1].expand(3, 4, 8),
    "sliced": lambda x: x[1:, 1:, 2:6],
    "offset_odd": lambda x: x[:, :, 1:],
    "empty": lambda x: x[:0],
    "zero_last": lambda x: x[:, :, :0],
    "size1_dims": lambda x: x[1:2, 2:3, :],
}


@pytest.mark.parametrize("src", CT_DTYPES, ids=repr)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_view_dtype_matches_torch(src, layout):
    c0, t0 = pair((3, 4, 8), src)
    c, t = LAYOUTS[layout](c0), LAYOUTS[layout](t0)
    for dst in CT_DTYPES:
        td = torch_dtype(dst)
        et = error_of(lambda: t.view(td))
        if et is not None:
            assert error_of(lambda: c.view(dst)) == et, (src, dst, layout)
            continue
        v, tv = c.view(dst), t.view(td)
        check_same(v, tv)
        assert v.data_ptr() == c.data_ptr() if c.numel() else True
        assert v.shares_storage(c0)
        # a dtype view is no view in torch's sense
        assert not v._is_view() and v._base is None
        assert v._is_view() == tv._is_view()
        # and back: the same values, bit for bit
        if v.dim():
            back = v.view(src)
            assert back.shape == c.shape and back.stride() == c.stride()


def test_zero_dim_rules():
    for src in CT_DTYPES:
        c, t = pair((), src)
        for dst in CT_DTYPES:
            et = error_of(lambda: t.view(torch_dtype(dst)))
            if et is None:
                v = c.view(dst)
                assert v.shape == () and v.dtype == dst
            else:
                assert error_of(lambda: c.view(dst)) == et
                assert "self.dim() cannot be 0" in et[1]


@pytest.mark.parametrize(
    "make, dst",
    [
        (lambda m: m.zeros(2, 3), "float64"),
        (lambda m: m.zeros(10)[1:5], "float64"),
        (lambda m: m.zeros(4, 5)[:, :2], "float64"),
        (lambda m: m.zeros(3, 0), "float64"),
        (lambda m: m.zeros(2, 4).t(), "int16"),
        (lambda m: m.zeros(8)[::2], "int16"),
        (lambda m: m.zeros(8).as_strided((2, 2), (3, 1)), "float64"),
        (lambda m: m.zeros(8).as_strided((2, 2), (2, 1), 1), "float64"),
        (lambda m: m.zeros(2, 3, dtype=m.bool), "float64"),
        (lambda m: m.zeros(2, 3, dtype=m.bfloat16), "float32"),
        (lambda m: m.zeros(3)[1:1], "float64"),
        (lambda m: m.tensor(1.0), "int16"),
    ],
)
def test_errors_and_messages(make, dst):
    c, t = make(ctensor), make(torch)
    same_error(lambda: c.view(getattr(ctensor, dst)), lambda: t.view(getattr(torch, dst)))


def test_check_order_size_before_offset_before_stride():
    # every rule broken at once: size(-1) wins, then the offset, then stride(-1), then stride(0)
    for m, dt in ((ctensor, ctensor.float64), (torch, torch.float64)):
        x = m.zeros(40)
        msgs = [error_of(lambda: x.as_strided((3, 3), (5, 2), 1).view(dt))[1],
                error_of(lambda: x.as_strided((3, 4), (5, 2), 1).view(dt))[1],
                error_of(lambda: x.as_strided((3, 4), (5, 2), 2).view(dt))[1],
                error_of(lambda: x.as_strided((3, 4), (5, 1), 2).view(dt))[1]]
        if m is ctensor:
            ct_msgs = msgs
        else:
            assert ct_msgs == msgs


def test_sharing_and_version_counter():
    for m in (ctensor, torch):
        x = m.arange(6.0)
        v = x.view(m.int32)
        assert x._version == v._version == 0
        v.add_(1)
        assert x._version == v._version == 1
        x.mul_(2)
        assert v._version == 2
        w = x[2:].view(m.int32)  # of a view: still no _base
        assert not w._is_view() and w._base is None
        w[0] = 0
        assert x[2].item() == 0.0 and x._version == 3
        s = x.view(m.float32)  # the same dtype: a new tensor, not self, not a view
        assert s is not x and not s._is_view() and s._base is None


def test_autograd_view_dtype_drops_grad():
    for m in (ctensor, torch):
        x = m.arange(6.0, requires_grad=True)
        for dt in ("float32", "int32", "float64", "float16", "bfloat16", "bool", "uint8"):
            v = x.view(getattr(m, dt))
            assert not v.requires_grad and v.grad_fn is None and v.is_leaf
        y = x * 2
        v = y.view(m.int32)
        assert not v.requires_grad and v.grad_fn is None


def test_values_against_numpy_bits():
    # float16 / bfloat16 / bool: bit patterns, read through uint8
    c = ctensor.tensor([1.0, -2.0, 0.5, 65504.0], dtype=ctensor.float16)
    t = torch.tensor([1.0, -2.0, 0.5, 65504.0], dtype=torch.float16)
    assert c.view(ctensor.int16).tolist() == t.view(torch.int16).tolist()
    assert c.view(ctensor.bfloat16).tolist() == t.view(torch.bfloat16).tolist()
    assert c.view(ctensor.uint8).view(ctensor.bool).tolist() == t.view(torch.uint8).view(torch.bool).tolist()
    b = ctensor.tensor([[1, 0, 7, 255]], dtype=ctensor.uint8).view(ctensor.bool)
    assert b.tolist() == torch.tensor([[1, 0, 7, 255]], dtype=torch.uint8).view(torch.bool).tolist()
    assert c.view(ctensor.int32).tolist() == t.view(torch.int32).tolist()


def test_python_overloads():
    c, t = ctensor.zeros(4), torch.zeros(4)
    assert c.view(dtype=ctensor.int32).dtype == ctensor.int32
    assert t.view(dtype=torch.int32).dtype == torch.int32
    assert c.view(2, 2).shape == (2, 2)
    for bad in ("int32", None):
        assert error_of(lambda: c.view(bad))[0] is TypeError
        assert error_of(lambda: t.view(bad))[0] is TypeError


# ---- PyTorch's test_view_ops.py: test_view_dtype_new, test_view_dtype_upsize_errors ---------

NP_DTYPES = {ctensor.uint8: np.uint8, ctensor.int8: np.int8, ctensor.int16: np.int16, ctensor.int32: np.int32,
             ctensor.int64: np.int64, ctensor.float16: np.float16, ctensor.float32: np.float32,
             ctensor.float64: np.float64}


@pytest.mark.parametrize("dtype", [d for d in CT_DTYPES if d != ctensor.bfloat16], ids=repr)
def test_view_dtype_new(dtype):
    def make(shape):
        return ctensor.randint(-5, 5, shape).to(dtype) if shape else ctensor.tensor(3).to(dtype)

    def inputs():
        yield make((4, 4, 64))
        yield make((4, 4, 64)).permute(1, 0, 2)
        yield make((4, 64, 4)).permute(2, 0, 1)
        yield make((1, 5, 1)).expand(5, 5, 64)
        yield make((2, 5, 256))[1::2, 1:, ::2]
        yield make((0, 5, 64))
        yield make(())

    def expected(a, view_dtype):
        s, vs = a.element_size(), ctensor.empty(0, dtype=view_dtype).element_size()
        if s == vs:
            return tuple(a.size()), a.stride()
        size, stride = list(a.size()), list(a.stride())
        if s > vs:
            r = s // vs
            size[-1] *= r
            stride = [st * r for st in stride]
        else:
            r = vs // s
            size[-1] //= r
            stride = [st // r for st in stride]
        stride[-1] = 1
        return tuple(size), tuple(stride)

    for a in inputs():
        a_np = a.numpy()
        a_np_contig = a.contiguous().numpy()
        for view_dtype, np_dtype in NP_DTYPES.items():
            equal = a.element_size() == ctensor.empty(0, dtype=view_dtype).element_size()
            if not equal and a.dim() == 0:
                with pytest.raises(RuntimeError, match=r"self.dim\(\) cannot be 0"):
                    a.view(view_dtype)
                continue
            if not equal and a.stride(-1) != 1:
                with pytest.raises(RuntimeError, match=r"self.stride\(-1\) must be 1"):
                    a.view(view_dtype)
                continue
            v = a.view(view_dtype)
            assert v.dtype == view_dtype
            assert v.data_ptr() == a.data_ptr()
            assert (tuple(v.size()), v.stride()) == expected(a, view_dtype)
            assert v.view(dtype).equal(a)
            want = a_np.view(np_dtype) if equal else a_np_contig.view(np_dtype)
            np.testing.assert_array_equal(v.numpy(), want)
    if dtype.is_floating_point:
        for view_dtype in (ctensor.float16, ctensor.bfloat16, ctensor.float32, ctensor.float64):
            t = ctensor.randn(5, 5, 64).to(dtype).requires_grad_()
            assert not t.view(view_dtype).requires_grad


@pytest.mark.parametrize("dtype", CT_DTYPES, ids=repr)
def test_view_dtype_upsize_errors(dtype):
    size = ctensor.empty(0, dtype=dtype).element_size()
    for view_dtype in CT_DTYPES:
        vsize = ctensor.empty(0, dtype=view_dtype).element_size()
        if vsize <= size:
            continue
        r = vsize // size
        a = ctensor.zeros(4, 4, r + 1, dtype=dtype)
        with pytest.raises(RuntimeError, match=rf"self.size\(-1\) must be divisible by {r}"):
            a.view(view_dtype)
        with pytest.raises(RuntimeError, match=rf"self.storage_offset\(\) must be divisible by {r}"):
            a[:, :, 1:].view(view_dtype)
        a = ctensor.zeros(4, 4, r, dtype=dtype).as_strided((4, 4, r), (r, 1, 1))
        with pytest.raises(RuntimeError, match=rf"self.stride\(1\) must be divisible by {r}"):
            a.view(view_dtype)


# ---- T and mT ----------------------------------------------------------------------------

def run_fresh(code):
    """Runs code in a fresh interpreter (the warnings are once per process) with -W always;
    returns (stderr lines that are warnings, stdout)."""
    r = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                       env=None, check=True)
    warns = [line.split("UserWarning: ", 1)[1].split(" (Triggered internally")[0]
             for line in r.stderr.splitlines() if "UserWarning: " in line]
    return warns, r.stdout


@pytest.mark.parametrize("expr", ["zeros(2,3,4).T", "tensor(1.).T", "zeros(3).T", "zeros(2,3).T",
                                  "zeros(2,3,4,5).T", "tensor(1.).mT", "zeros(2,3).mT",
                                  "zeros(2,3,4).T; m.zeros(5).T", "tensor(1.).T; m.tensor(2.).T; m.zeros(3).T"])
def test_transpose_warnings_once_per_process(expr):
    code = "import {mod} as m\nr = m.{expr}\nprint(tuple(r.shape), r.stride())"
    import os
    env_path = os.pathsep.join(p for p in sys.path if p)
    got = run_fresh(f"import sys; sys.path[:0] = {env_path.split(os.pathsep)!r}\n" + code.format(mod="ctensor", expr=expr))
    want = run_fresh(code.format(mod="torch", expr=expr))
    assert got == want


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (2, 1, 3, 4)])
def test_T_and_mT_geometry_and_errors(shape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = ctensor.arange(float(np.prod(shape))).reshape(shape).clone()
        t = torch.arange(float(np.prod(shape))).reshape(shape).clone()
        cT, tT = c.T, t.T
        assert cT.shape == tT.shape and cT.stride() == tT.stride() and cT.tolist() == tT.tolist()
        assert cT._is_view() and cT._base is c and cT is not c
        et = error_of(lambda: t.mT)
        if et:
            assert error_of(lambda: c.mT) == et
        else:
            cm, tm = c.mT, t.mT
            assert cm.shape == tm.shape and cm.stride() == tm.stride()
            assert (cm is c) == (tm is t)
            if tm is not t:
                assert cm._is_view() and cm._base is c


def test_T_mT_autograd_nodes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in (ctensor, torch):
            a = m.ones(2, 3, 4, requires_grad=True)
            names = [a.T.grad_fn.name(), a.mT.grad_fn.name(), a[0].T.grad_fn.name(), a[0, 0, 0].T.grad_fn.name()]
            (a.T * m.arange(24.0).reshape(4, 3, 2)).sum().backward()
            g = a.grad.tolist()
            if m is ctensor:
                ct_out = (names, g)
            else:
                assert ct_out == (names, g)


# PyTorch's test_view_ops.py test_T / test_transposes / test_transposes_errors, for the ops
# ctensor has (T, mT; H, mH and adjoint belong with complex tensors).
@pytest.mark.parametrize("dtype", CT_DTYPES, ids=repr)
def test_transposes(dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ctensor.randn(2, 3, 4)
        assert a.T.equal(a.permute(2, 1, 0))
        b = ctensor.randn(10)
        assert b.equal(b.T)
        for op in ("T", "mT"):
            for shape in ((2, 3), (2, 3, 4)) if op[0] == "m" else ((2, 3),):
                x = ctensor.randint(-9, 9, shape).to(dtype)
                assert getattr(x, op).equal(x.transpose(-2, -1))
        with pytest.raises(RuntimeError, match="only supported on matrices or batches of matrices"):
            ctensor.zeros(2, dtype=dtype).mT


# ---- narrow with a tensor start ----------------------------------------------------------

@pytest.mark.parametrize("start", ["tensor([0])", "tensor(0)", "tensor(-1)", "tensor(0.)", "tensor(True)",
                                   "tensor([[0]])", "tensor([0, 1])", "tensor(-3)", "tensor(0, dtype=m.uint8)",
                                   "tensor(1, dtype=m.int8)", "tensor(0.5)", "-1", "-3"])
def test_narrow_tensor_start(start):
    def run(m):
        x = m.arange(6.0).view(2, 3)
        s = eval(start if start.lstrip("-").isdigit() else "m." + start, {"m": m})
        r = x.narrow(0, s, 1)
        r2 = m.narrow(x, 0, s, 1)
        r3 = x.narrow(0, start=s, length=1)
        return [tuple(q.shape) for q in (r, r2, r3)], r.tolist()
    ec, et = error_of(lambda: run(ctensor)), error_of(lambda: run(torch))
    assert ec == et
    if et is None:
        assert run(ctensor) == run(torch)
