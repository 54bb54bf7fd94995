"""masked_select, masked_fill(_), masked_scatter(_), nonzero, argwhere, where(condition), rot90,
repeat_interleave: differential against torch 2.13 (values, dtype, shape, strides, a new
storage every time, in-place writes keep the storage and bump the version once, errors and
messages, grad_fn names, gradients), and roll's result strides on 4-d inputs."""

import itertools

import pytest

import ctensor
from ctutil import layout_pair, torch, same_values

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")


pair = layout_pair


def mask_pair(shape, seed=0):
    vals = [((i * 5 + seed) % 3) == 0 for i in range(max(1, _numel(shape)))][:_numel(shape)]
    return (ctensor.tensor(vals, dtype=ctensor.bool).reshape(shape),
            torch.tensor(vals, dtype=torch.bool).reshape(shape))


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def check_same(rc, rt, *sources):
    assert tuple(rc.shape) == tuple(rt.shape)
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1]
    assert rc.stride() == rt.stride(), (rc.stride(), rt.stride())
    assert same_values(rc, rt)
    # a copy; torch's int-repeats repeat_interleave is a view of its own fresh clone
    assert (rc._base is None) == (rt._base is None)
    for s in sources:
        if rc.numel() and s.numel():
            assert rc.untyped_storage().data_ptr() != s.untyped_storage().data_ptr()


def errors(fc, ft):
    with pytest.raises(Exception) as ec:
        fc()
    with pytest.raises(Exception) as et:
        ft()
    assert type(ec.value) is type(et.value), (ec.value, et.value)
    return str(ec.value), str(et.value)


def same_error(fc, ft):
    mc, mt = errors(fc, ft)
    assert mt.split("\n")[0] in mc, (mc, mt)


LAYOUTS = [None, "t", "step", "expand"]
SHAPES = [(2, 3), (3, 1, 4), (0, 3), (4,), ()]


def cases(shapes, layouts):
    return [(s, lay) for s in shapes for lay in layouts
            if (lay is None or len(s) >= 1) and (lay != "cl" or len(s) == 4)]


def mask_shapes(shape):
    """Masks that broadcast with a tensor of this shape: the same, its last dim, size 1, and
    one with a new leading dim."""
    out = [tuple(shape), ()]
    if shape:
        out.append((shape[-1],))
        out.append((2,) + tuple(shape))
    return out


# ---- masked_select ---------------------------------------------------------------------

@pytest.mark.parametrize("shape, layout", cases(SHAPES + [(2, 3, 4, 5)], LAYOUTS + ["cl"]))
def test_masked_select(shape, layout):
    c, t = pair(shape, layout=layout)
    for ms in mask_shapes(tuple(t.shape)):
        mc, mt = mask_pair(ms)
        check_same(c.masked_select(mc), t.masked_select(mt), c)
        check_same(ctensor.masked_select(c, mc), torch.masked_select(t, mt), c)


# ---- masked_fill -----------------------------------------------------------------------

@pytest.mark.parametrize("shape, layout", cases(SHAPES + [(2, 3, 4, 5)], LAYOUTS + ["cl"]))
def test_masked_fill(shape, layout):
    c, t = pair(shape, layout=layout)
    for ms in mask_shapes(tuple(t.shape)):
        mc, mt = mask_pair(ms, 1)
        for v in (2.5, -1, True):
            check_same(c.masked_fill(mc, v), t.masked_fill(mt, v), c)
            check_same(ctensor.masked_fill(c, mc, v), torch.masked_fill(t, mt, v), c)
        check_same(c.masked_fill(mc, ctensor.tensor(7.0)), t.masked_fill(mt, torch.tensor(7.0)), c)


@pytest.mark.parametrize("shape, layout", cases(SHAPES, [None, "t", "step"]))
def test_masked_fill_in_place(shape, layout):
    c, t = pair(shape, layout=layout)
    for ms in mask_shapes(tuple(t.shape))[:3]:
        mc, mt = mask_pair(ms, 2)
        before_ptr, before_v = c.untyped_storage().data_ptr(), c._version
        assert c.masked_fill_(mc, -4.0) is c
        t.masked_fill_(mt, -4.0)
        assert c.untyped_storage().data_ptr() == before_ptr and c._version == before_v + 1
        assert same_values(c, t) and c.stride() == t.stride()
        c.masked_fill_(mc, ctensor.tensor(9, dtype=ctensor.int64))
        t.masked_fill_(mt, torch.tensor(9, dtype=torch.int64))
        assert same_values(c, t) and c._version == before_v + 2


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                                   "float64"])
def test_masked_fill_dtypes(dtype):
    c, t = pair((3, 4), dtype)
    mc, mt = mask_pair((3, 4))
    for v in (1, 0, True, 3.75, -2):
        if dtype in ("uint8", "bool") and v == -2:
            continue
        check_same(c.masked_fill(mc, v), t.masked_fill(mt, v), c)
    for vd in ("float64", "int64", "bool"):
        vc, vt = ctensor.tensor(1, dtype=getattr(ctensor, vd)), torch.tensor(1, dtype=getattr(torch, vd))
        check_same(c.masked_fill(mc, vc), t.masked_fill(mt, vt), c)


def test_masked_fill_expanded_self():
    c, t = pair((3,), layout="expand")
    mc, mt = mask_pair((3,))
    c.masked_fill_(mc, 5.0)
    t.masked_fill_(mt, 5.0)
    assert same_values(c, t)


def test_masked_fill_integer_values_wrap_as_torch():
    c, t = pair((3, 4), "uint8")
    mc, mt = mask_pair((4,))
    for v in (-1, -255, 255, ctensor.tensor(-3)):
        vt = torch.tensor(-3) if isinstance(v, ctensor.Tensor) else v
        check_same(c.masked_fill(mc, v), t.masked_fill(mt, vt), c)


def test_masked_fill_int64_value_keeps_digits():
    c = ctensor.zeros(2, dtype=ctensor.int64)
    c.masked_fill_(ctensor.tensor([True, False]), ctensor.tensor(2**62 + 1))
    assert c.tolist() == [2**62 + 1, 0]


# ---- masked_scatter --------------------------------------------------------------------

@pytest.mark.parametrize("shape, layout", cases(SHAPES + [(2, 3, 4, 5)], LAYOUTS + ["cl"]))
def test_masked_scatter(shape, layout):
    c, t = pair(shape, layout=layout)
    n = 2 * max(1, t.numel())
    sc, st = pair((n,))
    for ms in mask_shapes(tuple(t.shape)):
        mc, mt = mask_pair(ms, 2)
        check_same(c.masked_scatter(mc, sc), t.masked_scatter(mt, st), c, sc)
        check_same(ctensor.masked_scatter(c, mc, sc.reshape(2, -1)), torch.masked_scatter(t, mt, st.reshape(2, -1)),
                   c, sc)


def test_masked_scatter_in_place():
    c, t = pair((3, 4), layout="t")
    sc, st = pair((4, 3), layout="t")
    mc, mt = mask_pair((3,))
    v = c._version
    assert c.masked_scatter_(mc, sc) is c
    t.masked_scatter_(mt, st)
    assert same_values(c, t) and c._version == v + 1 and c.stride() == t.stride()
    # source overlapping self: values read from before the write, as a clone would give
    c, t = pair((6,))
    mc, mt = mask_pair((6,), 1)
    c.masked_scatter_(mc, c.flip(0).flip(0)[1:] if False else c[1:])
    t.masked_scatter_(mt, t[1:].clone())
    assert same_values(c, t)


# ---- nonzero, argwhere, where(condition) -----------------------------------------------

@pytest.mark.parametrize("shape, layout", cases(SHAPES + [(2, 3, 4, 5)], LAYOUTS + ["cl"]))
@pytest.mark.parametrize("dtype", ["float32", "bool", "int64", "float16"])
def test_nonzero(shape, layout, dtype):
    c, t = pair(shape, dtype, layout)
    check_same(c.nonzero(), t.nonzero(), c)
    check_same(ctensor.nonzero(c), torch.nonzero(t), c)
    check_same(c.argwhere(), t.argwhere(), c)
    check_same(ctensor.argwhere(c), torch.argwhere(t), c)
    for rc, rt in ((c.nonzero(as_tuple=True), t.nonzero(as_tuple=True)),
                   (ctensor.nonzero(c, as_tuple=True), torch.nonzero(t, as_tuple=True)),
                   (ctensor.where(c), torch.where(t))):
        assert isinstance(rc, tuple) and len(rc) == len(rt)
        for a, b in zip(rc, rt):
            assert same_values(a, b) and a.stride() == b.stride() and a.dtype == ctensor.int64
            assert (a._base is None) == (b._base is None)


def test_nonzero_nan_and_zero_dim():
    c = ctensor.tensor([0.0, float("nan"), -0.0, 1.0])
    t = torch.tensor([0.0, float("nan"), -0.0, 1.0])
    check_same(c.nonzero(), t.nonzero(), c)
    for v in (0.0, 3.0):
        check_same(ctensor.tensor(v).nonzero(), torch.tensor(v).nonzero(), c)
        assert [x.tolist() for x in ctensor.where(ctensor.tensor(v))] == [x.tolist() for x in torch.where(torch.tensor(v))]


def test_where_three_arguments_still_work():
    c, t = pair((2, 3))
    check_same(ctensor.where(c > 0, c, 0.0), torch.where(t > 0, t, 0.0), c)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("other", ["tensor", "scalar", "strided"])
def test_where_select_kernel(dtype, other):
    """where's element loop: the contiguous (mask, tensor, tensor or scalar) path and the
    strided one, on an irregular mask, against torch."""
    n = 37
    vals = [((i * 7) % 5) - 2 for i in range(2 * n)]
    mask = [((i * 13) % 7) < 3 for i in range(n)]
    cm, tm = ctensor.tensor(mask), torch.tensor(mask)
    ca = ctensor.tensor(vals[:n]).to(getattr(ctensor, dtype))
    ta = torch.tensor(vals[:n]).to(getattr(torch, dtype))
    if other == "scalar":
        cb, tb = ctensor.tensor(0).to(ca.dtype), torch.tensor(0).to(ta.dtype)
    else:
        cb = ctensor.tensor(vals[n:]).to(ca.dtype)
        tb = torch.tensor(vals[n:]).to(ta.dtype)
        if other == "strided":
            cb = ctensor.tensor(vals).to(ca.dtype)[::2][:n]
            tb = torch.tensor(vals).to(ta.dtype)[::2][:n]
    check_same(ctensor.where(cm, ca, cb), torch.where(tm, ta, tb), ca)


# ---- rot90 -----------------------------------------------------------------------------

@pytest.mark.parametrize("shape, layout", cases([(2, 3), (3, 1, 4), (0, 3), (2, 3, 4, 5)], LAYOUTS + ["cl"]))
def test_rot90(shape, layout):
    c, t = pair(shape, layout=layout)
    nd = c.dim()
    for k in range(-5, 7):
        for d0, d1 in itertools.permutations(range(-nd, nd), 2):
            if (d0 - d1) % nd == 0:
                continue
            check_same(c.rot90(k, (d0, d1)), t.rot90(k, (d0, d1)), c)
    check_same(c.rot90(), t.rot90(), c)
    check_same(ctensor.rot90(c, 3), torch.rot90(t, 3), c)
    check_same(ctensor.rot90(c, k=2**62 + 1, dims=[1, 0]), torch.rot90(t, k=2**62 + 1, dims=[1, 0]), c)


@pytest.mark.parametrize("call", [
    lambda m, x: x.rot90(1, [0]),
    lambda m, x: x.rot90(1, [0, 1, 2]),
    lambda m, x: x.rot90(1, [0, 0]),
    lambda m, x: x.rot90(1, [0, -2]),
    lambda m, x: x.rot90(1, [1, -1]),
    lambda m, x: x.rot90(1, [0, 5]),
    lambda m, x: x.rot90(1, [-3, 1]),
    lambda m, x: x[0].rot90(1, [0, 1]),
    lambda m, x: x[0].rot90(1, [0]),
    lambda m, x: x[0, 0].rot90(),
])
def test_rot90_errors(call):
    c, t = pair((2, 3))
    same_error(lambda: call(ctensor, c), lambda: call(torch, t))


# ---- repeat_interleave -----------------------------------------------------------------

@pytest.mark.parametrize("shape, layout", cases([(2, 3), (3, 1, 4), (0, 3), (4,), (), (2, 3, 4, 5)],
                                                LAYOUTS + ["cl"]))
def test_repeat_interleave(shape, layout):
    c, t = pair(shape, layout=layout)
    nd = c.dim()
    for r in (0, 1, 3):
        check_same(c.repeat_interleave(r), t.repeat_interleave(r), c)
        check_same(ctensor.repeat_interleave(c, r), torch.repeat_interleave(t, r), c)
        for d in range(-nd, nd):
            check_same(c.repeat_interleave(r, d), t.repeat_interleave(r, d), c)
            check_same(c.repeat_interleave(r, dim=d, output_size=r * t.shape[d]),
                       t.repeat_interleave(r, dim=d, output_size=r * t.shape[d]), c)
            counts = [(i % 3) for i in range(t.shape[d])]
            for rd in ("int64", "int32"):
                rc = ctensor.tensor(counts, dtype=getattr(ctensor, rd))
                rt = torch.tensor(counts, dtype=getattr(torch, rd))
                check_same(c.repeat_interleave(rc, d), t.repeat_interleave(rt, d), c)
            check_same(c.repeat_interleave(ctensor.tensor(2), d), t.repeat_interleave(torch.tensor(2), d), c)
            check_same(c.repeat_interleave(ctensor.tensor([2]), d), t.repeat_interleave(torch.tensor([2]), d), c)
    flat = [(i % 2) for i in range(t.numel())]
    check_same(c.repeat_interleave(ctensor.tensor(flat, dtype=ctensor.int64)),
               t.repeat_interleave(torch.tensor(flat, dtype=torch.int64)), c)


def test_repeat_interleave_counts_form():
    for vals, dt in (([1, 2, 0, 3], "int64"), ([2, 2], "int32"), ([], "int64")):
        rc, rt = ctensor.tensor(vals, dtype=getattr(ctensor, dt)), torch.tensor(vals, dtype=getattr(torch, dt))
        check_same(ctensor.repeat_interleave(rc), torch.repeat_interleave(rt), rc)
        check_same(rc.repeat_interleave() if False else ctensor.repeat_interleave(rc, output_size=sum(vals)),
                   torch.repeat_interleave(rt, output_size=sum(vals)), rc)


@pytest.mark.parametrize("call", [
    lambda m, x: x.repeat_interleave(-1),
    lambda m, x: x.repeat_interleave(-1, dim=5),
    lambda m, x: x.repeat_interleave(2, dim=2),
    lambda m, x: x.repeat_interleave(2, dim=0, output_size=5),
    lambda m, x: x.repeat_interleave(2, dim=0, output_size=-1),
    lambda m, x: x.repeat_interleave(m.tensor([1, 2, 3]), dim=0),
    lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=-1),
    lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=5),
    lambda m, x: x.repeat_interleave(m.tensor([[1, 2]]), dim=0),
    lambda m, x: x.repeat_interleave(m.tensor([1.0, 2.0]), dim=0),
    lambda m, x: x.repeat_interleave(m.tensor([1, -1]), dim=0),
    lambda m, x: x.repeat_interleave(m.tensor([1, 2], dtype=m.int16), dim=0),
    lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=0, output_size=4),
    lambda m, x: x[0, 0].repeat_interleave(3, dim=0),
    lambda m, x: x[0, 0].repeat_interleave(m.tensor(3), dim=0),
    lambda m, x: m.repeat_interleave(m.tensor(3)),
    lambda m, x: m.repeat_interleave(m.tensor([[1, 2]])),
    lambda m, x: m.repeat_interleave(m.tensor([1.0])),
    lambda m, x: m.repeat_interleave(m.tensor([1, -2])),
    lambda m, x: m.repeat_interleave(m.tensor([2, 2]), output_size=3),
    lambda m, x: m.repeat_interleave(m.tensor([2, 2], dtype=m.uint8)),
])
def test_repeat_interleave_errors(call):
    c, t = pair((2, 3))
    same_error(lambda: call(ctensor, c), lambda: call(torch, t))


# ---- errors of the masked ops ----------------------------------------------------------

@pytest.mark.parametrize("mdt", ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
                                 "float64"])
def test_mask_dtype_errors(mdt):
    c, t = pair((3, 4))
    mc, mt = ctensor.ones(4, dtype=getattr(ctensor, mdt)), torch.ones(4, dtype=getattr(torch, mdt))
    same_error(lambda: c.masked_select(mc), lambda: t.masked_select(mt))
    same_error(lambda: c.masked_fill(mc, 1.0), lambda: t.masked_fill(mt, 1.0))
    same_error(lambda: c.masked_fill_(mc, 1.0), lambda: t.masked_fill_(mt, 1.0))
    same_error(lambda: c.masked_scatter_(mc, c), lambda: t.masked_scatter_(mt, t))


@pytest.mark.parametrize("call", [
    lambda m, x: x.masked_select(m.ones(2, 4, dtype=m.bool)),
    lambda m, x: x.masked_fill(m.ones(5, dtype=m.bool), 1.0),
    lambda m, x: x.masked_fill_(m.ones(5, dtype=m.bool), 1.0),
    lambda m, x: x.masked_fill_(m.ones(2, 3, 4, dtype=m.bool), 1.0),
    lambda m, x: x.masked_fill(m.ones(4, dtype=m.bool), m.ones(2)),
    lambda m, x: x.masked_fill_(m.ones(4, dtype=m.int64), m.ones(3)),
    lambda m, x: x.masked_fill(m.ones(4, dtype=m.bool), 1e39),
    lambda m, x: x.to(m.uint8).masked_fill(m.ones(4, dtype=m.bool), -1.0),
    lambda m, x: x.to(m.uint8).masked_fill(m.ones(4, dtype=m.bool), 256),
    lambda m, x: x.to(m.uint8).masked_fill(m.ones(4, dtype=m.bool), -256),
    lambda m, x: x.to(m.int8).masked_fill(m.ones(4, dtype=m.bool), m.tensor(-129)),
    lambda m, x: x.half().masked_fill(m.ones(4, dtype=m.bool), 70000),
    lambda m, x: x.to(m.uint8).masked_fill(m.ones(4, dtype=m.bool), m.tensor(300)),
    lambda m, x: x.to(m.int8).masked_fill(m.ones(4, dtype=m.bool), 300.0),
    lambda m, x: x.masked_scatter_(m.ones(4, dtype=m.bool), x.double()),
    lambda m, x: x.masked_scatter_(m.ones(4, dtype=m.uint8), x.double()),
    lambda m, x: x.masked_scatter_(m.ones(5, dtype=m.bool), x),
    lambda m, x: x.masked_scatter_(m.ones(4, dtype=m.bool), m.ones(3)),
    lambda m, x: x.masked_scatter(m.ones(5, dtype=m.bool), x),
    lambda m, x: x.masked_scatter(m.ones(2, 3, 4, dtype=m.bool), m.ones(10)),
    lambda m, x: x[0].expand(2, 4).masked_scatter_(m.ones(4, dtype=m.bool), m.ones(8)),
])
def test_masked_errors(call):
    c, t = pair((3, 4))
    same_error(lambda: call(ctensor, c), lambda: call(torch, t))


def test_masked_scatter_expand_error_names_mask_type():
    c, t = pair((3, 4))
    mc, mt = errors(lambda: c.masked_scatter_(ctensor.ones(2, 3, 4, dtype=ctensor.bool), c),
                    lambda: t.masked_scatter_(torch.ones(2, 3, 4, dtype=torch.bool), t))
    assert mc == mt


# ---- autograd --------------------------------------------------------------------------

def grad_pair(shape, layout=None):
    c, t = pair(shape, "float64", layout)
    c = c.detach().clone().requires_grad_()
    t = t.detach().clone().requires_grad_()
    return c, t


def check_grads(fc, ft, shape=(3, 4), layout=None, extra=()):
    c, t = grad_pair(shape, layout)
    ec = [ctensor.tensor(e.tolist(), dtype=ctensor.float64).requires_grad_() for e in extra]
    et = [e.detach().clone().requires_grad_() for e in extra]
    rc, rt = fc(c, *ec), ft(t, *et)
    assert rc.grad_fn.name() == rt.grad_fn.name()
    w = [float((i * 3) % 7 - 2) for i in range(rt.numel())]
    (rc * ctensor.tensor(w, dtype=ctensor.float64).reshape(tuple(rt.shape))).sum().backward()
    (rt * torch.tensor(w, dtype=torch.float64).reshape(rt.shape)).sum().backward()
    assert same_values(c.grad, t.grad)
    for a, b in zip(ec, et):
        assert same_values(a.grad, b.grad)


def test_gradients():
    mc, mt = mask_pair((4,), 1)
    m2c, m2t = mask_pair((2, 3, 4), 2)
    check_grads(lambda x: x.masked_select(mc), lambda x: x.masked_select(mt))
    check_grads(lambda x: x.masked_select(m2c), lambda x: x.masked_select(m2t))
    check_grads(lambda x: x.masked_fill(mc, 2.0), lambda x: x.masked_fill(mt, 2.0))
    check_grads(lambda x: x.masked_fill(m2c, 2.0), lambda x: x.masked_fill(m2t, 2.0))
    v = torch.tensor(1.5, dtype=torch.float64)
    check_grads(lambda x, v: x.masked_fill(mc, v), lambda x, v: x.masked_fill(mt, v), extra=(v,))
    s = torch.arange(30, dtype=torch.float64).reshape(5, 6)
    check_grads(lambda x, s: x.masked_scatter(mc, s), lambda x, s: x.masked_scatter(mt, s), extra=(s,))
    check_grads(lambda x, s: x.masked_scatter(m2c, s), lambda x, s: x.masked_scatter(m2t, s),
                extra=(torch.arange(40, dtype=torch.float64),))
    check_grads(lambda x: (x * 1).masked_fill_(mc, 3.0), lambda x: (x * 1).masked_fill_(mt, 3.0))
    check_grads(lambda x, v: (x * 1).masked_fill_(mc, v), lambda x, v: (x * 1).masked_fill_(mt, v), extra=(v,))
    check_grads(lambda x, s: (x * 1).masked_scatter_(mc, s), lambda x, s: (x * 1).masked_scatter_(mt, s),
                extra=(s,))
    for k in (-1, 0, 1, 2, 3, 5):
        check_grads(lambda x: x.rot90(k, (1, 0)), lambda x: x.rot90(k, (1, 0)))
        check_grads(lambda x: x.rot90(k, (0, 2)), lambda x: x.rot90(k, (0, 2)), shape=(2, 3, 4))
    check_grads(lambda x: x.repeat_interleave(2), lambda x: x.repeat_interleave(2))
    check_grads(lambda x: x.repeat_interleave(3, dim=-1), lambda x: x.repeat_interleave(3, dim=-1), layout="t")
    rc, rt = ctensor.tensor([1, 0, 2, 1]), torch.tensor([1, 0, 2, 1])
    check_grads(lambda x: x.repeat_interleave(rc, dim=1), lambda x: x.repeat_interleave(rt, dim=1))
    check_grads(lambda x: x.repeat_interleave(ctensor.tensor(2)), lambda x: x.repeat_interleave(torch.tensor(2)))


def test_in_place_on_a_view_records_copy_slices():
    c, t = grad_pair((3, 4))
    mc, mt = mask_pair((4,), 1)
    yc, yt = c * 1, t * 1
    yc[0].masked_fill_(mc, 2.0)
    yt[0].masked_fill_(mt, 2.0)
    assert yc.grad_fn.name() == yt.grad_fn.name()
    yc.sum().backward()
    yt.sum().backward()
    assert same_values(c.grad, t.grad)


def test_no_grad_for_integer_results():
    c, _ = grad_pair((3, 4))
    assert c.nonzero().grad_fn is None and not c.nonzero().requires_grad


# ---- roll on 4-d tensors with size-1 dims or odd strides -------------------------------

@pytest.mark.parametrize("shape", [(1, 3, 1, 2), (2, 1, 3, 1), (1, 1, 1, 1), (2, 3, 4, 1), (2, 1, 3, 4), (2, 3, 4, 6)])
@pytest.mark.parametrize("layout", [None, "cl", "step", "t"])
def test_roll_4d_strides_match_torch(shape, layout):
    c, t = pair(shape, layout=layout)
    for shifts, dims in [(1, 0), (1, 1), (1, 3), ((1, 2), (0, 3)), ((1, 1), (1, 2)), (3, None), (0, 1)]:
        check_same(c.roll(shifts, dims), t.roll(shifts, dims), c)
    for sl in ((slice(None), slice(None, 1)), (slice(None), slice(None), slice(None), slice(None, None, 2)),
               (slice(None), slice(None, None, 2))):
        for shifts, dims in [(1, 0), (1, 2), ((1, 1), (0, 3))]:
            check_same(c[sl].roll(shifts, dims), t[sl].roll(shifts, dims), c)
    pc, pt = c.permute(2, 0, 3, 1), t.permute(2, 0, 3, 1)
    for shifts, dims in [(1, 0), (1, 2), ((1, 2), (3, 1))]:
        check_same(pc.roll(shifts, dims), pt.roll(shifts, dims), pc)


def test_roll_5d_channels_last_3d_and_odd_strides():
    c = ctensor.arange(2 * 3 * 2 * 2 * 4, dtype=ctensor.float32).reshape(2, 3, 2, 2, 4)
    t = torch.arange(2 * 3 * 2 * 2 * 4, dtype=torch.float32).reshape(2, 3, 2, 2, 4)
    c3, t3 = c.contiguous(memory_format=ctensor.channels_last_3d), t.contiguous(memory_format=torch.channels_last_3d)
    for cc, tt in ((c3, t3), (c3[..., ::2], t3[..., ::2]), (c[:, :1], t[:, :1]), (c.as_strided((2, 1, 2, 2, 4), (48, 5, 8, 4, 1)),
                   t.as_strided((2, 1, 2, 2, 4), (48, 5, 8, 4, 1)))):
        for shifts, dims in [(1, 0), (1, 4), ((1, 1), (2, 3))]:
            check_same(cc.roll(shifts, dims), tt.roll(shifts, dims), cc)


# ---- flip's row kernels (flip_rows in repeat_flip_roll.cpp) on results large enough for
# streaming stores into a recycled buffer ---------------------------------------------------

@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64"])
def test_flip_large_rows_match_numpy(dtype):
    import numpy as np
    a = (np.arange(2 * 515 * 1031) % 251).astype(dtype).reshape(2, 515, 1031)  # odd row lengths
    c = ctensor.from_numpy(a)
    for dims in ((0,), (1,), (2,), (0, 2), (1, 2), (0, 1, 2), ()):
        for _ in range(2):  # the second result reuses the first's buffer (streaming stores)
            r = c.flip(dims)
            assert np.array_equal(r.numpy(), np.flip(a, dims) if dims else a)
        sub = c[:, 1:]  # rows starting at an odd address: the unaligned heads
        assert np.array_equal(sub.contiguous().flip(dims).numpy(), np.flip(a[:, 1:], dims) if dims else a[:, 1:])
