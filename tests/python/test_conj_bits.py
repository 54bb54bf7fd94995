"""The conjugate and negative bits (issue #19): conj() as a lazy view, imag of it a neg view,
resolve_conj/resolve_neg/conj_physical(_), adjoint/H/mH, how views, copies, in-place writes,
NumPy and DLPack treat each bit, and PyTorch's own tests that use them (test_view_ops.py:
test_conj_imag_view, test_conj_self) -- differential against torch 2.13: each scenario runs
on both libraries and compares values, bits, sharing, bases and versions."""

import warnings

import numpy as np
import pytest
import torch

import ctensor as ct

LIBS = (ct, torch)


def base_data():
    return [[1 + 2j, 3 - 4j, -0.5 + 0j], [5 + 6j, -7 - 8j, 0 - 1.5j]]


def make(lib, dtype="complex64", data=None):
    return lib.tensor(base_data() if data is None else data, dtype=getattr(lib, dtype))


def state(t, x=None):
    """What a scenario observes of a result t (and its relation to x)."""
    s = dict(values=t.tolist(), conj=t.is_conj(), neg=t.is_neg(), shape=tuple(t.shape), stride=tuple(t.stride()),
             offset=t.storage_offset(), dtype=str(t.dtype).split(".")[1], version=t._version, is_view=t._base is not None)
    if x is not None:
        s["shares"] = t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
        s["base_is_x"] = t._base is x
        s["is_x"] = t is x
    return s


def both(fn):
    """fn(lib) -> a dict (or an exception) per library; they must be equal."""
    out = []
    for lib in LIBS:
        try:
            out.append(fn(lib))
        except Exception as e:  # the same failure, with the same text
            out.append((type(e).__name__, str(e)))
    assert out[0] == out[1]
    return out[0]


# ---- creating and reading the bits ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_conj_is_a_view_with_the_bit(dtype):
    def f(lib):
        x = make(lib, dtype)
        c = x.conj()
        return state(c, x), state(x), lib.is_conj(c), c.data_ptr() == x.data_ptr()
    both(f)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "bfloat16"])
def test_conj_of_a_real_tensor_is_itself(dtype):
    def f(lib):
        x = lib.ones(2, 3, dtype=getattr(lib, dtype))
        return x.conj() is x, x.conj_physical() is x, x.resolve_conj() is x, x.is_conj(), lib.conj(x) is x
    both(f)


def test_conj_of_conj_clears_the_bit_and_keeps_the_root_base():
    def f(lib):
        x = make(lib)
        cc = x.conj().conj()
        return state(cc, x)
    r = both(f)
    assert r["conj"] is False and r["base_is_x"] and not r["is_x"]


def test_imag_of_conj_is_a_neg_view():
    def f(lib):
        x = make(lib)
        c = x.conj()
        return state(c.imag, x), state(c.real, x), state(x.imag, x)
    r = both(f)
    assert r[0]["neg"] and not r[0]["conj"] and r[0]["shares"]


def test_neg_view_and_both_bits():
    def f(lib):
        x = make(lib)
        n = lib._neg_view(x)
        b = lib._neg_view(x.conj())
        return (state(n, x), state(n.real, x), state(n.imag, x), state(b, x), state(b.imag, x), state(b.real, x),
                state(b.resolve_conj()), state(b.resolve_neg()), state(lib.view_as_real(n), x))
    both(f)


VIEWS = {
    "view": lambda t: t.view(6), "t": lambda t: t.t(), "transpose": lambda t: t.transpose(0, 1),
    "getitem": lambda t: t[1:, ::2], "select": lambda t: t[1], "narrow": lambda t: t.narrow(1, 1, 2),
    "expand": lambda t: t.expand(4, 2, 3), "unsqueeze": lambda t: t.unsqueeze(0),
    "squeeze": lambda t: t.unsqueeze(1).squeeze(1), "split": lambda t: t.split(1)[1],
    "chunk": lambda t: t.chunk(3, 1)[2], "unbind": lambda t: t.unbind(1)[0], "flatten": lambda t: t.flatten(),
    "reshape_view": lambda t: t.reshape(3, 2), "diagonal": lambda t: t.diagonal(),
    "as_strided": lambda t: t.as_strided((2, 2), (1, 2), 1), "unfold": lambda t: t.unfold(1, 2, 1),
    "movedim": lambda t: t.movedim(0, 1), "permute": lambda t: t.permute(1, 0), "detach": lambda t: t.detach(),
    "data": lambda t: t.data, "mT": lambda t: t.mT, "T": lambda t: t.T, "view_same_shape": lambda t: t.view_as(t),
    "contiguous_of_contiguous": lambda t: t.contiguous(), "to_same_dtype": lambda t: t.to(t.dtype),
    "unflatten": lambda t: t.flatten().unflatten(0, (3, 2)), "imag_then_view": lambda t: t.imag.t(),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_views_keep_the_bits(name):
    op = VIEWS[name]

    def f(lib):
        x = make(lib)
        c = x.conj()
        return state(op(c), x), state(op(lib._neg_view(x)), x)
    both(f)


COPIES = {
    "clone": lambda t, lib: t.clone(), "contiguous_of_transposed": lambda t, lib: t.t().contiguous(),
    "reshape_copy": lambda t, lib: t.t().reshape(6), "resolve_conj": lambda t, lib: t.resolve_conj(),
    "resolve_neg": lambda t, lib: t.resolve_neg(), "conj_physical": lambda t, lib: t.conj_physical(),
    "cat": lambda t, lib: lib.cat([t, t]), "stack": lambda t, lib: lib.stack([t, t]),
    "flip": lambda t, lib: t.flip(0), "roll": lambda t, lib: t.roll(1, 1), "repeat": lambda t, lib: t.repeat(2, 1),
    "index_select": lambda t, lib: t.index_select(1, lib.tensor([2, 0])),
    "clone_4d": lambda t, lib: t.unsqueeze(0).unsqueeze(0).clone(),
    "transpose_copy": lambda t, lib: lib.transpose_copy(t, 0, 1),
}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copies_resolve_the_bits(name):
    op = COPIES[name]

    def f(lib):
        x = make(lib)
        return state(op(x.conj(), lib), x), state(op(x.conj().imag, lib), x), state(op(lib._neg_view(x), lib), x)
    both(f)


def test_to_another_dtype_resolves():
    def f(lib):
        x = make(lib)
        c = x.conj()
        return (state(c.to(lib.complex128)), state(c.imag.to(lib.float64)), state(c.imag.to(lib.int64)),
                state(c.imag.to(lib.float16)), state(lib._neg_view(x).to(lib.complex128)))
    both(f)


def test_empty_like_and_full_like_carry_no_bit():
    def f(lib):
        c = make(lib).conj()
        return (lib.empty_like(c).is_conj(), state(lib.zeros_like(c)), state(lib.ones_like(c)),
                state(lib.full_like(c.imag, 2.0)))
    both(f)


# ---- writes through a view with a bit -----------------------------------------------------

def test_copy_into_a_conj_view_stores_conjugates():
    def f(lib):
        x = make(lib)
        c = x.conj()
        c.copy_(lib.tensor([[1j, 2, 3 + 3j]]))
        return state(x), state(c, x)
    both(f)


def test_copy_between_views_with_bits():
    def f(lib):
        out = []
        for src_kind in ("plain", "conj", "neg", "both"):
            for dst_kind in ("plain", "conj", "neg", "both"):
                x, y = make(lib), make(lib).flip(1)
                views = {"plain": lambda t: t, "conj": lambda t: t.conj(), "neg": lambda t: lib._neg_view(t),
                         "both": lambda t: lib._neg_view(t.conj())}
                views[dst_kind](x).copy_(views[src_kind](y))
                out.append((src_kind, dst_kind, x.tolist(), x._version))
        return out
    both(f)


def test_copy_of_a_tensor_onto_its_own_conj_view():
    def f(lib):
        x = make(lib)
        c = x.conj()
        c.copy_(c)  # identical: nothing to do, still a version bump
        a = state(x)
        x.copy_(x.conj())  # overlapping, different bits: the conjugates
        b = state(x)
        y = make(lib)
        y.conj().copy_(y)
        return a, b, state(y)
    both(f)


def test_copy_from_conj_into_real_and_from_neg_into_other_dtypes():
    def f(lib):
        x = make(lib)
        out = []
        for d in ("float32", "float64", "int64", "int8", "bool", "complex128", "bfloat16"):
            dst = lib.zeros(2, 3, dtype=getattr(lib, d))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # complex -> real drops the imaginary part
                dst.copy_(x.conj().imag if d != "complex128" else x.conj())
            out.append(state(dst))
        return out
    both(f)


def test_in_place_ops_on_a_conj_view_write_back_through_the_bit():
    def f(lib):
        out = []
        for op in (lambda t: t.fill_(2.5), lambda t: t.fill_(1 - 2j), lambda t: t.zero_(), lambda t: t.conj_physical_(),
                   lambda t: t.masked_fill_(lib.tensor([[True, False, True], [False, False, True]]), 1.0),
                   lambda t: t.index_fill_(1, lib.tensor([0, 2]), 3.0), lambda t: t.add_(1j), lambda t: t.mul_(t),
                   lambda t: t.div_(2 + 1j), lambda t: t.neg_(), lambda t: t.sub_(lib.ones(3), alpha=2),
                   lambda t: t.index_put_((lib.tensor([1]),), lib.tensor(5j)),
                   lambda t: t.scatter_(1, lib.tensor([[2], [0]]), 7.0)):
            x = make(lib)
            c = x.conj()
            r = op(c)
            out.append((state(x), state(c, x), r is c))
        return out
    both(f)


def test_in_place_ops_on_a_neg_view_write_back_through_the_bit():
    def f(lib):
        out = []
        for op in (lambda t: t.fill_(1.0), lambda t: t.mul_(2), lambda t: t.add_(1), lambda t: t.clamp_(min=0),
                   lambda t: t.neg_(), lambda t: t.abs_(), lambda t: t.copy_(lib.ones(3))):
            x = make(lib)
            im = x.conj().imag
            r = op(im)
            out.append((state(x), state(im, x), r is im))
        return out
    both(f)


def test_conj_physical_():
    def f(lib):
        x = make(lib)
        r = x.conj_physical_()
        y = lib.ones(2)
        return state(x), r is x, y.conj_physical_() is y, y._version, state(lib.conj_physical(make(lib)))
    both(f)


# ---- ops that read values see the resolved ones ----------------------------------------------

READERS = {
    "sum": lambda t: t.sum(), "mean": lambda t: t.mean(), "mul": lambda t: t * 2, "add": lambda t: t + t,
    "abs": lambda t: t.abs(), "neg": lambda t: -t, "exp": lambda t: t.exp(), "gt": lambda t: t > 0,
    "max": lambda t: t.max(), "cumsum": lambda t: t.cumsum(1), "sort": lambda t: t.sort(1).values,
    "matmul": lambda t: t @ t.t(), "where": lambda t: t.clamp(-1, 1), "getitem_bool": lambda t: t[t > 0],
    "getitem_list": lambda t: t[[1, 0]], "gather": lambda t: t.gather(1, t.new_zeros(2, 2).long()),
    "masked_select": lambda t: t.masked_select(t > -3), "nonzero": lambda t: t.nonzero(),
    "item": lambda t: t[1, 2].item(), "tolist": lambda t: t.tolist(), "repr": lambda t: repr(t),
    "numpy_force": lambda t: t.numpy(force=True).tolist(), "pow": lambda t: t.pow(2), "topk": lambda t: t.topk(2).values,
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_ops_read_the_values_of_a_neg_view(name):
    op = READERS[name]

    def f(lib):
        x = make(lib)
        r = op(x.conj().imag)
        if isinstance(r, (lib.Tensor,)):
            return state(r, x)
        return r
    both(f)


def test_reading_a_conj_view():
    def f(lib):
        c = make(lib).conj()
        return c.tolist(), c[0, 0].item(), repr(c), c.t().tolist(), str(c[1]), c.numpy(force=True).tolist()
    both(f)


# ---- refusals --------------------------------------------------------------------------------

def test_refusals_as_torch():
    def f(lib):
        x = make(lib)
        c, im = x.conj(), x.conj().imag
        out = []
        for fn in (lambda: c.view(lib.float32), lambda: c.view(lib.complex64), lambda: im.view(lib.int32),
                   lambda: im.view(lib.float32), lambda: lib.view_as_real(c), lambda: c.numpy(), lambda: im.numpy(),
                   lambda: np.asarray(c), lambda: lib.ones(3).H, lambda: lib.ones(3).mH, lambda: lib.ones(3).adjoint(),
                   lambda: lib.ones(2, 3, 4).H, lambda: c.__dlpack__()):
            try:
                fn()
                out.append("no error")
            except Exception as e:
                out.append((type(e).__name__, str(e)))
        return out
    both(f)


def test_dlpack_of_a_neg_view_exports_the_stored_values():
    im = ct.tensor([1 + 2j, 3 - 4j]).conj().imag
    ref = torch.tensor([1 + 2j, 3 - 4j]).conj().imag
    assert np.from_dlpack(im).tolist() == np.from_dlpack(ref).tolist() == [2.0, -4.0]


# ---- adjoint, H, mH --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), ()])
@pytest.mark.parametrize("dtype", ["complex64", "float32"])
def test_adjoint_H_mH(shape, dtype):
    def f(lib):
        x = lib.arange(6 * (4 if len(shape) == 3 else 1), dtype=lib.float32)
        x = x[:1].reshape(()) if shape == () else x.reshape(shape)
        x = x.to(getattr(lib, dtype))
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch warns once per process: compared below for ctensor
            for get in (lambda t: t.mH, lambda t: t.adjoint(), lambda t: lib.adjoint(t), lambda t: t.H):
                try:
                    out.append(state(get(x), x))
                except RuntimeError as e:
                    out.append(("RuntimeError", str(e)))
        return out
    both(f)


def test_adjoint_of_a_0d_tensor_warns():
    x = ct.tensor(1j)
    for get, msg in ((lambda t: t.H, "Tensor.H is deprecated on 0-D tensors. Consider using x.conj()."),
                     (lambda t: t.mH, "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj()."),
                     (lambda t: t.adjoint(), "adjoint() is deprecated on 0-D tensors. Consider using x.conj().")):
        with pytest.warns(UserWarning, match=msg.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
            assert get(x).is_conj()


def test_adjoint_of_a_real_tensor_requiring_grad_records_transpose():
    def f(lib):
        x = lib.ones(2, 3, requires_grad=True)
        return type(x.adjoint().grad_fn).__name__, type(x.mH.grad_fn).__name__, x.adjoint().is_conj()
    both(f)


# ---- PyTorch's own tests (test/test_view_ops.py), ported --------------------------------------

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_torch_test_conj_imag_view(dtype):
    # test_conj_imag_view: t.conj() is a view equal to NumPy's conj; its imag a neg view of t
    t = ct.view_as_complex(ct.randn(4, 5, 2, dtype=getattr(ct, dtype).to_real())).clone()
    t_numpy_conj = ct.from_numpy(t.numpy().conj())
    v = t.conj()
    assert v._base is t and v.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
    assert v.tolist() == t_numpy_conj.tolist()
    v_imag = v.imag
    assert v_imag._base is t
    assert v_imag.tolist() == t_numpy_conj.imag.tolist()
    assert v_imag.is_neg()


def test_torch_test_conj_view_with_shared_memory():
    # test_conj_view_with_shared_memory: a, and two conj views of it, as operands and outputs
    a = ct.view_as_complex(ct.randn(4, 5, 2)).clone()
    b = a.conj()
    c = a.conj()
    ref = [t.clone() for t in (a, b, c)]
    assert ct.equal(ct.add(a, b), a.add_(b))
    assert ct.equal(ct.add(b, c), ct.add(b, c, out=a))
    assert ct.equal(ct.add(b, c), b.add_(c))
    # and the same numbers as torch, step by step
    ta = torch.from_numpy(ref[0].numpy())
    tb, tc = ta.conj(), ta.conj()
    ta.add_(tb)
    torch.add(tb, tc, out=ta)
    tb.add_(tc)
    assert a.tolist() == ta.tolist() and b.is_conj() and c.is_conj()


def test_binary_ops_mixing_bits():
    def f(lib):
        x = make(lib)
        c, n = x.conj(), lib._neg_view(x)
        out = [state(c + x), state(c * n), state(n - c), state(c / (x + 1)), state(c @ c.t()), state(c == x.conj()),
               lib.equal(c, x.conj_physical()), state(c.sum()), state(c.abs()), state(lib.vdot(c[0], x[0]))]
        return out
    both(f)


def test_torch_test_conj_self():
    # test_view_ops.py test_conj_self: conj of a real tensor is the tensor itself
    t = ct.ones(5, 5)
    s = t.conj()
    assert s is t
    s = t.conj_physical()
    assert s is t
    assert t.resolve_conj() is t


def test_no_leaks():
    from ctutil import live
    start = live()
    for _ in range(3):
        x = make(ct)
        c = x.conj()
        c.fill_(1.0)
        c.imag.mul_(2)
        try:
            c.view(ct.float32)
        except RuntimeError:
            pass
        del x, c
    assert live() == start
