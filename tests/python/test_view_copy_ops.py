"""torch's *_copy functions (permute_copy, view_copy, ...): differential against torch 2.13.

Each returns what its view op returns, as a new contiguous tensor on a new storage (not a
view, version 0), recorded for autograd as torch's "<view node>_copy"."""

import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def base(m, requires_grad=False):
    """A [2, 3, 4] float64 tensor seen through a permutation (not contiguous): (4, 2, 3)."""
    x = m.arange(24.0, dtype=m.float64).reshape(2, 3, 4)
    if requires_grad:
        x.requires_grad_()
    return x, x.permute(2, 0, 1)


# name -> (args after input, kwargs), applied to the permuted [4, 2, 3] tensor (or its
# [:, :1] slice for the size-1 cases)
CASES = [
    ("view_copy", ((6, 4),), {}, False),
    ("view_copy", ((-1,),), {}, False),
    ("permute_copy", ((2, 0, 1),), {}, False),
    ("transpose_copy", (0, 2), {}, False),
    ("t_copy", (), {}, "2d"),
    ("diagonal_copy", (), {}, False),
    ("diagonal_copy", (1, 1, 2), {}, False),
    ("diagonal_copy", (), {"offset": -1, "dim1": 2, "dim2": 0}, False),
    ("expand_copy", ((5, 4, 1, 3),), {}, True),
    ("expand_copy", ((4, 3, 3),), {"implicit": True}, True),
    ("narrow_copy", (1, 0, 1), {}, False),
    ("narrow_copy", (0, -2, 2), {}, False),
    ("select_copy", (0, 1), {}, False),
    ("select_copy", (2, -1), {}, False),
    ("slice_copy", (), {}, False),
    ("slice_copy", (0, 0, 4, 2), {}, False),
    ("slice_copy", (2,), {"start": -2}, False),
    ("slice_copy", (1, None, 10), {}, False),
    ("squeeze_copy", (), {}, True),
    ("squeeze_copy", (1,), {}, True),
    ("squeeze_copy", (0,), {}, True),
    ("unsqueeze_copy", (1,), {}, False),
    ("unsqueeze_copy", (-1,), {}, False),
    ("unfold_copy", (2, 2, 1), {}, False),
    ("alias_copy", (), {}, False),
    ("as_strided_copy", ((3, 2), (1, 4)), {}, False),
    ("as_strided_copy", ((3, 2), (1, 4), 5), {}, False),
    ("as_strided_copy", ((2, 2), (0, 1)), {"storage_offset": 2}, False),
    ("unbind_copy", (), {}, False),
    ("unbind_copy", (2,), {}, False),
    ("split_copy", (3,), {}, False),
    ("split_copy", (2, 2), {}, False),
    ("split_with_sizes_copy", ([1, 3],), {}, False),
    ("split_with_sizes_copy", ([0, 2, 1], 2), {}, False),
]


def operand(m, x, pick):
    if pick == "2d":
        return x[0]
    if pick:
        return x[:, :1]
    return x


def outputs(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def describe(r, x):
    """What must match torch: geometry, values, not a view, version, fresh storage, node."""
    out = []
    for o in outputs(r):
        out.append((tuple(o.shape), o.stride(), o.storage_offset(), o.tolist(), o._is_view(), o._base is None,
                    o._version, o.is_contiguous(), o.requires_grad,
                    None if o.grad_fn is None else o.grad_fn.name()))
    return out


def call(m, name, args, kwargs, pick, requires_grad):
    root, x = base(m, requires_grad)
    r = getattr(m, name)(operand(m, x, pick), *args, **kwargs)
    return root, r


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("name, args, kwargs, pick", CASES)
def test_matches_torch(name, args, kwargs, pick, requires_grad):
    croot, cr = call(ctensor, name, args, kwargs, pick, requires_grad)
    troot, tr = call(torch, name, args, kwargs, pick, requires_grad)
    assert isinstance(cr, tuple) == isinstance(tr, tuple)
    assert describe(cr, croot) == describe(tr, troot)
    for o in outputs(cr):  # new memory: writing it leaves the input alone
        assert not o.shares_storage(croot)
        assert not ctensor.shares_memory(o, croot)
    if requires_grad:
        # gradients through the copies, weighted so each element counts differently
        def grad(m, root, r):
            total = None
            for i, o in enumerate(outputs(r)):
                w = m.arange(float(o.numel()), dtype=m.float64).reshape(o.shape) + i
                s = (o * w).sum()
                total = s if total is None else total + s
            total.backward()
            return root.grad.tolist()
        if name == "narrow_copy" and args[1] < 0:
            # torch 2.13's NarrowCopyBackward0 fails on a negative start ("The size of tensor a
            # (0) must match the size of tensor b (2) ..."): ctensor's gradient is narrow's
            with pytest.raises(RuntimeError, match="must match the size"):
                grad(torch, troot, tr)
            troot, tr = call(torch, "narrow", args, kwargs, pick, requires_grad)
        assert grad(ctensor, croot, cr) == grad(torch, troot, tr)


def test_outputs_may_be_written_in_place():
    for m in (ctensor, torch):
        x = m.arange(6.0, requires_grad=True)
        pieces = m.unbind_copy(x.view(2, 3) * 1)
        pieces[0].add_(1)  # not a multi-output view: allowed
        assert pieces[0]._version == 1
        v = m.view_copy(x, (2, 3))
        v.mul_(2)
        assert x._version == 0


def test_version_and_sharing_of_input():
    for m in (ctensor, torch):
        x = m.arange(6.0)
        c = m.permute_copy(x.view(2, 3), (1, 0))
        c.zero_()
        assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
        assert x._version == 0 and c._version == 1


def test_detach_copy_node_and_backward_error():
    for m in (ctensor, torch):
        x = m.arange(4.0, requires_grad=True)
        r = m.detach_copy(x)
        assert r.requires_grad and not r._is_view()
        with pytest.raises(RuntimeError, match="derivative for aten::detach_copy is not implemented"):
            r.sum().backward()
    r = ctensor.detach_copy(ctensor.arange(4.0))
    assert not r.requires_grad and r.grad_fn is None


def test_view_copy_dtype():
    for m in (ctensor, torch):
        x = m.arange(6.0, requires_grad=True)
        r = m.view_copy(x, m.int32)
        assert r.dtype == m.int32 and not r.requires_grad and r.grad_fn is None and r.shape == (6,)
        assert not r._is_view() and r.is_contiguous()
    c = ctensor.view_copy(ctensor.arange(6.0)[1:], ctensor.int16)
    t = torch.view_copy(torch.arange(6.0)[1:], torch.int16)
    assert c.tolist() == t.tolist() and c.stride() == t.stride() and c.storage_offset() == 0


def test_narrow_copy_method():
    c = ctensor.arange(6.0).view(2, 3).t()
    t = torch.arange(6.0).view(2, 3).t()
    assert c.narrow_copy(1, 1, 1).tolist() == t.narrow_copy(1, 1, 1).tolist()
    assert c.narrow_copy(1, 1, 1).stride() == t.narrow_copy(1, 1, 1).stride()


ERRORS = [
    ("narrow_copy", lambda m: (m.zeros(2, 3), 0, -3, 1)),
    ("narrow_copy", lambda m: (m.zeros(2, 3), 0, 1, 2)),
    ("narrow_copy", lambda m: (m.zeros(2, 3), 0, 0, -1)),
    ("narrow_copy", lambda m: (m.zeros(2, 3), 2, 0, 1)),
    ("narrow_copy", lambda m: (m.tensor(1.0), 0, 0, 1)),
    ("t_copy", lambda m: (m.zeros(2, 2, 2),)),
    ("permute_copy", lambda m: (m.zeros(2, 2), (0, 0))),
    ("select_copy", lambda m: (m.zeros(2, 3), 0, 5)),
    ("view_copy", lambda m: (m.zeros(2, 3), (4,))),
    ("view_copy", lambda m: (m.zeros(2, 3), m.float64)),
    ("unbind_copy", lambda m: (m.tensor(1.0),)),
    ("split_with_sizes_copy", lambda m: (m.zeros(4), [1, 2])),
    ("unfold_copy", lambda m: (m.zeros(3), 0, 4, 1)),
]


@pytest.mark.parametrize("name, make", ERRORS)
def test_errors_match_torch(name, make):
    def err(m):
        try:
            getattr(m, name)(*make(m))
        except Exception as e:  # noqa: BLE001 - compared
            return type(e), str(e)
        return None
    et = err(torch)
    assert et is not None
    assert err(ctensor) == et


def test_generated_signatures():
    import inspect
    assert str(inspect.signature(ctensor.slice_copy)) == "(input, dim=0, start=None, end=None, step=1)"
    assert str(inspect.signature(ctensor.expand_copy)) == "(input, size, *, implicit=False)"
    with pytest.raises(TypeError):
        ctensor.transpose_copy(ctensor.zeros(2, 2), 0)


@pytest.mark.parametrize("dims", [(0, 2), [2], (0,), (), (0, -1), (1,), (0, 0), (0, 5), (-4,)])
def test_squeeze_with_a_tuple_of_dims(dims):
    """torch 2.x's squeeze(dims) (SqueezeBackward2, a view) and squeeze_copy(dims)
    (SqueezeBackward2_copy, a new storage): each listed size-1 dim goes, the others stay."""
    def run(m):
        g = m.ones(1, 3, 1, requires_grad=True)
        out = []
        for f in (lambda: g.squeeze(dims), lambda: g.squeeze(dim=dims), lambda: m.squeeze(g, dims),
                  lambda: m.squeeze_copy(g, dims)):
            try:
                r = f()
                out.append((tuple(r.shape), r.stride(), r.grad_fn.name(), r._base is g,
                            r.untyped_storage().data_ptr() == g.untyped_storage().data_ptr()))
            except Exception as e:  # noqa: BLE001 - the type is compared
                out.append((type(e).__name__, str(e)))
        return out
    assert run(ctensor) == run(torch)
