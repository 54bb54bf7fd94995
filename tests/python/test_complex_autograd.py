"""Autograd of complex tensors (Note [Complex autograd] in src/core/autograd/meta.cpp),
differential against torch 2.13: gradient values, dtypes and math bits, node names
(grad_fn.name()), torch's refusals; finite differences on the real and imaginary parts;
and PyTorch's test_view_ops.py tests of the complex views, ported (test_view_as_complex,
test_view_as_real, test_real_imag_view, test_set_real_imag; test_conj_imag_view is in
test_conj_bits.py)."""

import warnings

import numpy as np
import pytest
import torch

import ctensor as ct

RNG = np.random.default_rng(7)


def cdata(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def rdata(*shape):
    return RNG.standard_normal(shape)


def leaf(lib, a, dtype):
    """A leaf of lib holding a's values in dtype (a name), requiring grad."""
    return lib.tensor(a.tolist(), dtype=getattr(lib, dtype)).requires_grad_()


def grads(lib, fn, arrays, dtypes, gradient=None):
    """Runs fn on leaves made from arrays, backward from its result, and returns what the
    comparison needs: the result's node name and dtype, and each leaf's grad (values, dtype,
    bits)."""
    xs = [leaf(lib, a, d) for a, d in zip(arrays, dtypes)]
    out = fn(lib, *xs)
    name = out.grad_fn.name()
    if gradient is None:
        out.backward()
    else:
        out.backward(lib.tensor(gradient.tolist(), dtype=out.dtype))
    res = []
    for x in xs:
        g = x.grad
        if g is None:
            res.append(None)
            continue
        res.append((np.array(g.tolist()), str(g.dtype).split(".")[-1], g.is_conj(), g.is_neg(), tuple(g.shape)))
    return name, str(out.dtype).split(".")[-1], res


def check(fn, arrays, dtypes, gradient=None):
    want = grads(torch, fn, arrays, dtypes, gradient)
    got = grads(ct, fn, arrays, dtypes, gradient)
    assert got[:2] == want[:2]
    tol = 1e-4 if any(d in ("complex64", "float32") for d in dtypes) else 1e-10
    for g, w in zip(got[2], want[2]):
        assert (g is None) == (w is None)
        if g is None:
            continue
        assert g[1:] == w[1:]  # dtype, bits, shape
        np.testing.assert_allclose(g[0], w[0], rtol=tol, atol=tol)


C = "complex64"
Z = "complex128"
F = "float32"

# (id, fn, shapes of the leaves, kinds: c complex / r real)
CASES = [
    ("abs2", lambda L, z: (z * z.conj()).real.sum(), [(3,)], "c"),
    ("mul", lambda L, z, w: (z * w).abs().sum(), [(2, 3), (3,)], "cc"),
    ("mul_scalar", lambda L, z: (z * (2 - 3j)).imag.sum(), [(4,)], "c"),
    ("rmul_scalar", lambda L, z: ((0.5 + 1j) * z).real.sum(), [(4,)], "c"),
    ("div", lambda L, z, w: (z / w).imag.sum(), [(3,), (3,)], "cc"),
    ("div_scalar", lambda L, z: (z / (1 + 2j)).abs().sum(), [(3,)], "c"),
    ("rdiv_scalar", lambda L, z: ((1 + 2j) / z).real.sum(), [(3,)], "c"),
    ("rdiv_real_scalar", lambda L, z: (2.0 / z).imag.sum(), [(3,)], "c"),
    ("add_sub", lambda L, z, w: ((z + w) - 2 * w).abs().sum(), [(3,), (3,)], "cc"),
    ("add_alpha", lambda L, z, w: L.add(z, w, alpha=3).abs().sum(), [(3,), (3,)], "cc"),
    ("sub_alpha", lambda L, z, w: L.sub(z, w, alpha=-2).imag.sum(), [(3,), (3,)], "cc"),
    ("rsub", lambda L, z: (1 - z).imag.sum(), [(3,)], "c"),
    ("neg", lambda L, z: (-z).imag.sum(), [(3,)], "c"),
    ("abs", lambda L, z: z.abs().sum(), [(5,)], "c"),
    ("prod", lambda L, z: z.prod().abs(), [(4,)], "c"),
    ("prod_dim_zero", lambda L, z: (z * L.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])).prod(1).imag.sum(),
     [(2, 3)], "c"),
    ("prod_keepdim", lambda L, z: (z.prod(0, keepdim=True) * (1 - 2j)).real.sum(), [(3, 2)], "c"),
    ("sum_dim", lambda L, z: z.sum(0).abs().sum(), [(2, 3)], "c"),
    ("mean", lambda L, z: z.mean().abs(), [(2, 3)], "c"),
    ("mean_dim", lambda L, z: z.mean(1).imag.sum(), [(2, 3)], "c"),
    ("mm", lambda L, a, b: (a @ b).abs().sum(), [(2, 3), (3, 4)], "cc"),
    ("mv", lambda L, a, b: (a @ b).real.sum(), [(2, 3), (3,)], "cc"),
    ("dot", lambda L, a, b: (a @ b).imag, [(3,), (3,)], "cc"),
    ("vecmat", lambda L, a, b: (a @ b).abs().sum(), [(3,), (3, 2)], "cc"),
    ("bmm", lambda L, a, b: (a @ b).abs().sum(), [(2, 2, 3), (2, 3, 2)], "cc"),
    ("vdot", lambda L, a, b: L.vdot(a, b).abs(), [(3,), (3,)], "cc"),
    ("conj", lambda L, z: (z.conj() * z.conj()).imag.sum(), [(3,)], "c"),
    ("conj_physical", lambda L, z: (z.conj_physical() * (1 + 1j)).real.sum(), [(3,)], "c"),
    ("conj_imag", lambda L, z: z.conj().imag.sum(), [(3,)], "c"),
    ("conj_real", lambda L, z: (z.conj().real * 3).sum(), [(3,)], "c"),
    ("resolve_conj", lambda L, z: z.conj().resolve_conj().imag.sum(), [(3,)], "c"),
    ("view_as_real", lambda L, z: (L.view_as_real(z) * L.tensor([1.0, -2.0])).sum(), [(3,)], "c"),
    ("view_as_complex", lambda L, x: (L.view_as_complex(x) * (1 - 1j)).abs().sum(), [(3, 2)], "r"),
    ("real_leaf_times_j", lambda L, x: (x * 1j + 2).abs().sum(), [(3,)], "r"),
    ("real_plus_complex", lambda L, x, z: (x + z).abs().sum(), [(3,), (3,)], "rc"),
    ("real_times_complex", lambda L, x, z: (x * z).imag.sum(), [(2, 3), (3,)], "rc"),
    ("clone", lambda L, z: z.clone().imag.sum(), [(3,)], "c"),
    ("to_real", lambda L, z: (z.to(L.float64) * 2).sum(), [(3,)], "c"),
    ("real_to_complex", lambda L, x: (x.to(L.complex128) * 1j).imag.sum(), [(3,)], "r"),
    ("views", lambda L, z: (z.t()[1:].reshape(-1).unsqueeze(0).expand(2, 4) * (1 + 2j)).abs().sum(),
     [(2, 3)], "c"),
    ("transpose_select", lambda L, z: z.transpose(0, 1).select(0, 1).imag.sum(), [(2, 3)], "c"),
    ("permute_narrow", lambda L, z: z.permute(1, 0).narrow(0, 0, 2).abs().sum(), [(2, 3)], "c"),
    ("unbind", lambda L, z: z.unbind(1)[2].imag.sum(), [(2, 3)], "c"),
    ("diagonal", lambda L, z: z.diagonal().abs().sum(), [(3, 3)], "c"),
    ("as_strided", lambda L, z: z.as_strided((2, 2), (1, 1)).abs().sum(), [(4,)], "c"),
    ("cat_stack", lambda L, z, w: (L.cat([z, w]) * L.stack([w, z]).reshape(-1)).real.sum(), [(3,), (3,)], "cc"),
    ("flip_roll_repeat", lambda L, z: (z.flip(0).roll(1).repeat(2) * L.arange(6.0)).imag.sum(), [(3,)], "c"),
    ("rot90", lambda L, z: (L.rot90(z) * (1 + 2j)).abs().sum(), [(2, 3)], "c"),
    ("index_select", lambda L, z: (z.index_select(0, L.tensor([2, 0, 2])) * (1 - 1j)).abs().sum(), [(3, 2)], "c"),
    ("index_select_0d", lambda L, z: (z.reshape(()).index_select(0, L.tensor([0])) * (2 + 1j)).imag.sum(), [(1,)], "c"),
    ("gather", lambda L, z: z.gather(1, L.tensor([[1, 1], [0, 1]])).abs().sum(), [(2, 2)], "c"),
    ("take", lambda L, z: L.take(z, L.tensor([3, 0, 3])).imag.sum(), [(2, 2)], "c"),
    ("index", lambda L, z: (z[L.tensor([1, 1, 0])] * 1j).real.sum(), [(3,)], "c"),
    ("mask_index", lambda L, z: z[L.tensor([True, False, True])].abs().sum(), [(3,)], "c"),
    ("where", lambda L, z, w: L.where(L.tensor([True, False, True]), z, w).abs().sum(), [(3,), (3,)], "cc"),
    ("masked_fill", lambda L, z: z.masked_fill(L.tensor([True, False, True]), 2.0).abs().sum(), [(3,)], "c"),
    ("masked_select", lambda L, z: z.masked_select(L.tensor([True, False, True])).imag.sum(), [(3,)], "c"),
    ("masked_scatter", lambda L, z, w: z.masked_scatter(L.tensor([True, False, True]), w).abs().sum(),
     [(3,), (3,)], "cc"),
    ("scatter_add", lambda L, z, w: z.scatter_add(0, L.tensor([0, 0, 2]), w).abs().sum(), [(3,), (3,)], "cc"),
    ("scatter", lambda L, z, w: z.scatter(0, L.tensor([2, 0]), w).abs().sum(), [(3,), (2,)], "cc"),
    ("index_add", lambda L, z, w: z.index_add(0, L.tensor([1, 1]), w, alpha=2).imag.sum(), [(3,), (2,)], "cc"),
    ("index_copy", lambda L, z, w: z.index_copy(0, L.tensor([2, 0]), w).abs().sum(), [(3,), (2,)], "cc"),
    ("index_fill", lambda L, z: z.index_fill(0, L.tensor([1]), 0.5).abs().sum(), [(3,)], "c"),
    ("index_put", lambda L, z, w: z.index_put((L.tensor([0, 2]),), w, accumulate=True).abs().sum(),
     [(3,), (2,)], "cc"),
    ("put", lambda L, z, w: z.put(L.tensor([0, 2]), w).abs().sum(), [(3,), (2,)], "cc"),
]


@pytest.mark.parametrize("prec", ["single", "double"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradients_as_torch(case, prec):
    _, fn, shapes, kinds = case
    cx, re = (C, F) if prec == "single" else (Z, "float64")
    arrays = [cdata(*s) if k == "c" else rdata(*s) for s, k in zip(shapes, kinds)]
    check(fn, arrays, [cx if k == "c" else re for k in kinds])


def test_backward_of_a_complex_tensor_with_a_gradient():
    g = cdata(2, 3)
    check(lambda L, z, w: z * w.conj(), [cdata(2, 3), cdata(3)], [Z, Z], gradient=g)
    check(lambda L, z: z.conj().t(), [cdata(2, 3)], [C], gradient=cdata(3, 2))


def test_node_names_of_the_complex_views():
    for lib in (torch, ct):
        z = lib.tensor([1 + 2j, 3 - 1j]).requires_grad_()
        x = lib.tensor([[1.0, 2.0]]).requires_grad_()
        names = [z.conj().grad_fn.name(), z.real.grad_fn.name(), z.imag.grad_fn.name(),
                 lib.view_as_real(z).grad_fn.name(), lib.view_as_complex(x).grad_fn.name(),
                 lib._neg_view(z).grad_fn.name(), z.conj().resolve_conj().grad_fn.name(),
                 z.conj_physical().grad_fn.name(), z.conj().imag.is_neg(),
                 z.resolve_conj() is z, z.abs().dtype == lib.float32]
        if lib is torch:
            want = names
    assert names == want


# ---- finite differences on the real and imaginary parts ---------------------------------------

FD_CASES = [
    ("abs_mul_div", lambda L, z, w: ((z * w) / (w + 2)).abs().sum()),
    ("matmul_conj", lambda L, z, w: (z.reshape(2, 2) @ w.reshape(2, 2).conj()).real.sum()),
    ("imag_views", lambda L, z, w: (z.t().conj().imag * w.abs()).sum()),
    ("vdot_view_as_real", lambda L, z, w: L.view_as_real(L.vdot(z, w) * z).sum()),
]


@pytest.mark.parametrize("case", FD_CASES, ids=[c[0] for c in FD_CASES])
def test_finite_differences(case):
    # z.grad = dL/d(re z) + i dL/d(im z) for a real L (torch's convention)
    _, fn = case
    a, b = cdata(4), cdata(4)

    def loss(za):
        with ct.no_grad():
            return fn(ct, ct.tensor(za.tolist(), dtype=ct.complex128), ct.tensor(b.tolist(), dtype=ct.complex128)).item()

    z = leaf(ct, a, Z)
    fn(ct, z, ct.tensor(b.tolist(), dtype=ct.complex128)).backward()
    got = np.array(z.grad.tolist())
    h = 1e-6
    want = np.zeros(4, dtype=complex)
    for k in range(4):
        for step, part in ((h, 1.0), (1j * h, 1j)):
            up, down = a.copy(), a.copy()
            up[k] += step
            down[k] -= step
            want[k] += part * (loss(up) - loss(down)) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# ---- in-place writes through complex views (CopySlices, math bits) -----------------------------

INPLACE = [
    ("real_mul_", lambda L, z, y: z.real.mul_(y)),
    ("imag_add_", lambda L, z, y: z.imag.add_(y * 2)),
    ("conj_mul_", lambda L, z, y: z.conj().mul_(y + 1j)),
    ("conj_imag_mul_", lambda L, z, y: z.conj().imag.mul_(y)),
    ("slice_copy_", lambda L, z, y: z[1:].copy_(y[:2] * (1 - 1j))),
    ("view_as_real_mul_", lambda L, z, y: L.view_as_real(z)[:, 1].mul_(y)),
    ("set_real", lambda L, z, y: setattr(z, "real", y * 3)),
    ("set_imag", lambda L, z, y: setattr(z, "imag", y.exp())),
    ("copy_real_into_complex", lambda L, z, y: z.copy_(y * 2)),
    ("copy_complex_into_real", lambda L, z, y: z.imag.copy_(y * (1 + 2j))),
]


@pytest.mark.parametrize("case", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_through_complex_views(case):
    _, write = case
    a, r = cdata(3), rdata(3)

    def run(lib):
        z0 = leaf(lib, a, C)
        y = leaf(lib, r, F)
        z = z0 * 1  # a non-leaf to write into
        with warnings.catch_warnings():  # torch: complex -> real copies discard the imaginary part
            warnings.simplefilter("ignore")
            write(lib, z, y)
        name = z.grad_fn.name()
        (z * lib.tensor([1 + 1j, 2 - 1j, -1 + 0.5j])).abs().sum().backward()
        return name, np.array(z0.grad.tolist()), np.array(y.grad.tolist()), z0.grad.is_conj(), y.grad.dtype

    got, want = run(ct), run(torch)
    assert got[0] == want[0] and got[3:] == (want[3], getattr(ct, str(want[4]).split(".")[-1]))
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-5, atol=1e-5)


def test_view_regenerated_after_a_write_to_its_base():
    a = cdata(4)

    def run(lib):
        z0 = leaf(lib, a, C)
        z = z0 * 1
        v = z[1:].conj()
        z.mul_(2j)
        name = v.grad_fn.name()
        (v * (1 + 3j)).real.sum().backward()
        return name, np.array(z0.grad.tolist())

    got, want = run(ct), run(torch)
    assert got[0] == want[0]
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)


def test_fill_with_a_complex_value_records_fill_backward2():
    def run(lib):
        z = lib.tensor([1 + 2j, 3 - 1j]).requires_grad_()
        w = z * 1
        w[1:].fill_(2 - 1j)
        v = z * 2
        v.fill_(0.5j)
        (w * v).abs().sum().backward()
        return w.tolist(), v.grad_fn.name(), z.grad.tolist()

    assert run(ct) == run(torch)


def test_complex_alpha_and_accumulated_conj_grads():
    # a grad stolen with the conj bit keeps it as later backward calls add into it (torch's
    # in-place `grad += new_grad`)
    def run(lib):
        z = lib.tensor([1 + 2j, 3 - 1j]).requires_grad_()
        w = lib.tensor([0.5j, 2 + 0j]).requires_grad_()
        out = [lib.add(z, w, alpha=1j).grad_fn.name()]
        lib.add(z, w, alpha=1j).abs().sum().backward()
        out += [z.grad.tolist(), w.grad.tolist()]
        z.grad = None
        for loss in (lambda: z.conj().resolve_conj().imag.sum(), lambda: z.conj().resolve_conj().imag.sum(),
                     lambda: (z * 2).sum().real):
            loss().backward()
            out.append((z.grad.is_conj(), z.grad.tolist()))
        return out

    got, want = run(ct), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:3], want[1:3]):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    assert got[3:] == want[3:]


def test_retain_grad_and_accumulation():
    a = cdata(3)

    def run(lib):
        z = leaf(lib, a, C)
        y = z * (2 + 1j)
        y.retain_grad()
        y.abs().sum().backward(retain_graph=True)
        y.conj().imag.sum().backward()
        return np.array(z.grad.tolist()), np.array(y.grad.tolist()), y.grad.is_conj(), z.grad.dtype

    got, want = run(ct), run(torch)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)
    assert got[2] == want[2] and str(got[3]).split(".")[-1] == str(want[3]).split(".")[-1]


# ---- refusals ------------------------------------------------------------------------------------

def test_backward_of_a_complex_scalar_needs_a_gradient():
    for lib in (torch, ct):
        z = lib.tensor([1 + 2j]).requires_grad_()
        with pytest.raises(RuntimeError, match=r"grad can be implicitly created only for real scalar outputs but "
                                               r"got torch.complex64"):
            z.sum().backward()
        with pytest.raises(RuntimeError, match=r"For complex Tensors, both grad_output and output are required "
                                               r"to have the same dtype. Mismatch in dtype: grad_output\[0\] has a "
                                               r"dtype of torch.float32 and output\[0\] has a dtype of "
                                               r"torch.complex64"):
            z.sum().backward(lib.tensor(1.0))


@pytest.mark.parametrize("op", [
    lambda z: z.scatter_reduce(0, ct.tensor([0, 1, 0]), z, "sum"),
    lambda z: z.scatter_reduce(0, ct.tensor([0, 1, 0]), z, "prod", include_self=False),
])
def test_ops_without_a_complex_formula_refuse(op):
    z = ct.tensor([1 + 2j, 3 - 1j, 0.5j]).requires_grad_()
    # torch does not differentiate scatter_reduce for complex either: its message
    with pytest.raises(RuntimeError, match=r"^scatter_reduce does not support automatic differentiation for "
                                           r"outputs with complex dtype\.$"):
        op(z)
    with ct.no_grad():
        op(z)  # the op itself works
    with pytest.raises(RuntimeError, match="scatter_reduce does not support automatic differentiation"):
        op(z * 1)  # a non-leaf too


def test_inplace_refusal_leaves_the_tensor_unwritten():
    z = ct.tensor([1 + 2j, 3 - 1j]).requires_grad_()
    w = z * 1
    before = w.tolist()
    with pytest.raises(RuntimeError, match="scatter_reduce does not support automatic differentiation"):
        w.scatter_reduce_(0, ct.tensor([0, 0]), w, "sum")
    assert w.tolist() == before


# ---- PyTorch's test_view_ops.py tests, ported ------------------------------------------------

def _do_transpose(lib, x, contiguous=False, dim0=0, dim1=1):
    return x if contiguous else x.transpose(dim0, dim1)


def _crandn(*shape, dtype="complex64"):
    """ct.randn of a complex dtype (ctensor's randn makes real values only)."""
    real = ct.float32 if dtype == "complex64" else ct.float64
    return ct.view_as_complex(ct.randn(*shape, 2, dtype=real)).clone()


def _is_view_of(base, other):
    return other._is_view() and other._base is base and \
        other.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()


def test_torch_test_view_as_complex():
    def fn(contiguous_input=True, dim0=0, dim1=1):
        t = ct.randn(3, 2, 2)
        c_t = t[:, :, 0] + 1j * t[:, :, 1]
        input = _do_transpose(ct, t, contiguous_input, dim0, dim1)
        if input.size()[-1] != 2:
            with pytest.raises(RuntimeError, match="Tensor must have a last dimension of size 2"):
                ct.view_as_complex(input)
            return
        if input.stride()[-1] != 1:
            with pytest.raises(RuntimeError, match="Tensor must have a last dimension with stride 1"):
                ct.view_as_complex(input)
            return
        res = ct.view_as_complex(input)
        assert res.tolist() == _do_transpose(ct, c_t, contiguous_input, dim0, dim1).tolist()
        assert _is_view_of(t, res)

    fn()
    fn(contiguous_input=False)
    fn(contiguous_input=False, dim0=0, dim1=2)
    fn(contiguous_input=False, dim0=1, dim1=2)
    x = ct.randn(3, 3)
    t = ct.as_strided(x, (2, 2), (1, 1))
    with pytest.raises(RuntimeError, match="Tensor must have a stride divisible by 2 for all but last dimension"):
        ct.view_as_complex(t)
    x = ct.tensor([])
    with pytest.raises(RuntimeError, match="Tensor must have a last dimension of size 2"):
        ct.view_as_complex(x)
    with pytest.raises(RuntimeError, match="Input tensor must have one or more dimensions"):
        ct.view_as_complex(ct.tensor(2.0))
    y = x.reshape(0, 2)
    res = ct.view_as_complex(y)
    assert _is_view_of(x, res) and tuple(res.shape) == (0,)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_torch_test_view_as_real(dtype):
    def fn(contiguous_input=True):
        t = _crandn(3, 4, dtype=dtype)
        input = _do_transpose(ct, t, contiguous_input)
        res = ct.view_as_real(input)
        assert res[:, :, 0].tolist() == input.real.tolist()
        assert res[:, :, 1].tolist() == input.imag.tolist()
        assert _is_view_of(t, res)

    fn()
    fn(contiguous_input=False)
    x = ct.tensor([], dtype=getattr(ct, dtype))
    res = ct.view_as_real(x)
    assert _is_view_of(x, res) and tuple(res.shape) == (0, 2)
    x = ct.tensor(2 + 3j, dtype=getattr(ct, dtype))
    res = ct.view_as_real(x)
    assert _is_view_of(x, res) and tuple(res.shape) == (2,)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_torch_test_real_imag_view(dtype):
    def compare_with_numpy(contiguous_input=True):
        t = _crandn(3, 3, dtype=dtype)
        u = t if contiguous_input else t.T
        re = u.real
        assert re.tolist() == u.numpy().real.tolist() and _is_view_of(t, re)
        im = u.imag
        assert im.tolist() == u.numpy().imag.tolist() and _is_view_of(t, im)

    compare_with_numpy()
    compare_with_numpy(contiguous_input=False)
    a = _crandn(10, dtype=dtype)
    assert a[5:].real.tolist() == a.real[5:].tolist()
    assert a[5:].imag.tolist() == a.imag[5:].tolist()


@pytest.mark.parametrize("dtypes", [(c, o) for c in ("complex64", "complex128")
                                    for o in ("float32", "float64", "int64", "int32", "uint8", "bool",
                                              "float16", "bfloat16", "complex64", "complex128")])
def test_torch_test_set_real_imag(dtypes):
    x = _crandn(10, dtype=dtypes[0])
    src = torch.testing.make_tensor((10,), dtype=getattr(torch, dtypes[1]), device="cpu")
    src2 = torch.testing.make_tensor((10,), dtype=getattr(torch, dtypes[1]), device="cpu")
    new_real = ct.tensor(src.tolist(), dtype=getattr(ct, dtypes[1]))
    new_imag = ct.tensor(src2.tolist(), dtype=getattr(ct, dtypes[1]))
    with _no_check():
        x.real = new_real
        x.imag = new_imag
    tx = torch.randn(10, dtype=getattr(torch, dtypes[0]))
    with _no_check():
        tx.real = src
        tx.imag = src2
    np.testing.assert_allclose(np.array(x.tolist()), np.array(tx.tolist()), rtol=1e-3 if "16" in dtypes[1] else 1e-6)


class _no_check:
    """Ignores the casting warnings (torch: ComplexHalf/complex -> real discards the imaginary part)."""

    def __enter__(self):
        import warnings
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)
