"""repeat, tile, flip, fliplr, flipud, roll: differential against torch 2.13 (values, dtype,
shape, strides, a new storage every time, errors and messages, grad_fn names, gradients)."""

import itertools

import pytest

import ctensor
from ctutil import layout_pair, torch, same_values

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")


pair = layout_pair


def check_same(rc, rt, src_c):
    assert tuple(rc.shape) == tuple(rt.shape)
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1]
    assert rc.stride() == rt.stride()
    assert same_values(rc, rt)
    assert rc._base is None
    if rc.numel() and src_c.numel():
        assert rc.untyped_storage().data_ptr() != src_c.untyped_storage().data_ptr()


LAYOUTS = [None, "t", "step", "expand"]
SHAPES = [(2, 3), (3, 1, 4), (0, 3), (4,), ()]


def cases(shapes, layouts):
    """(shape, layout) pairs where the layout applies: transposing or stepping needs a dim,
    channels_last four."""
    return [(s, lay) for s in shapes for lay in layouts
            if (lay is None or len(s) >= 1) and (lay != "cl" or len(s) == 4)]


@pytest.mark.parametrize("shape, layout", cases(SHAPES, LAYOUTS))
def test_repeat_and_tile(shape, layout):
    c, t = pair(shape, layout=layout)
    nd = c.dim()
    for reps in itertools.product([1, 2, 0, 3], repeat=nd + 1):
        check_same(c.repeat(*reps), t.repeat(*reps), c)
        check_same(c.repeat(reps), t.repeat(reps), c)
        check_same(c.tile(reps[1:]), t.tile(reps[1:]), c)
        check_same(ctensor.tile(c, reps[:1]), torch.tile(t, reps[:1]), c)


@pytest.mark.parametrize("shape, layout", cases(SHAPES + [(2, 3, 4, 5)], LAYOUTS + ["cl"]))
def test_flip_and_roll(shape, layout):
    c, t = pair(shape, "int64", layout)
    nd = c.dim()
    dims_all = list(range(-nd, nd)) if nd else [0, -1]
    for k in range(0, min(nd, 3) + 1):
        for dims in itertools.combinations(range(nd), k):
            dims = [d - nd if d % 2 else d for d in dims]  # mix negative dims in
            check_same(c.flip(dims), t.flip(dims), c)
            check_same(ctensor.flip(c, dims), torch.flip(t, dims), c)
            if dims:
                check_same(c.flip(*dims), t.flip(*dims), c)
                shifts = [(3 * i + 2) * (-1) ** i for i in range(len(dims))]
                check_same(c.roll(shifts, dims), t.roll(shifts, dims), c)
                check_same(ctensor.roll(c, shifts, dims=dims), torch.roll(t, shifts, dims=dims), c)
    for d in dims_all:
        if nd:
            check_same(c.roll(5, d), t.roll(5, d), c)
    for s in [0, 1, -7, 2**62]:
        check_same(c.roll(s), t.roll(s), c)
    if nd >= 2:
        check_same(c.fliplr(), t.fliplr(), c)
        check_same(ctensor.fliplr(c), torch.fliplr(t), c)
    if nd >= 1:
        check_same(c.flipud(), t.flipud(), c)
        check_same(ctensor.flipud(c), torch.flipud(t), c)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "float16", "bfloat16", "float64"])
def test_dtypes(dtype):
    c, t = pair((3, 4), dtype)
    check_same(c.repeat(2, 1, 2), t.repeat(2, 1, 2), c)
    check_same(c.flip(0, 1), t.flip(0, 1), c)
    check_same(c.roll((1, -2), (0, 1)), t.roll((1, -2), (0, 1)), c)


def errors(fc, ft):
    with pytest.raises(Exception) as ec:
        fc()
    with pytest.raises(Exception) as et:
        ft()
    assert type(ec.value) is type(et.value), (ec.value, et.value)
    return str(ec.value), str(et.value)


@pytest.mark.parametrize("call", [
    lambda m, x: x.repeat(2),
    lambda m, x: x.repeat(-1, 2),
    lambda m, x: x.tile((-1,)),
    lambda m, x: x.flip(0, 0),
    lambda m, x: x.flip(0, -2),
    lambda m, x: x.flip(2),
    lambda m, x: x.flip(-3),
    lambda m, x: x.select(0, 0).fliplr(),
    lambda m, x: x.select(0, 0).select(0, 0).flipud(),
    lambda m, x: x.roll((1, 2), (0,)),
    lambda m, x: x.roll((1, 2)),
    lambda m, x: x.roll(1, 2),
    lambda m, x: x.roll((), ()),
    lambda m, x: x.repeat(2**40, 2**40),
])
def test_errors(call):
    c, t = pair((2, 3))
    mc, mt = errors(lambda: call(ctensor, c), lambda: call(torch, t))
    assert mt in mc, (mc, mt)


def test_argument_errors():
    c, t = pair((2, 3))
    for f in [lambda m, x: x.repeat(), lambda m, x: x.flip(), lambda m, x: m.flip(x, 0),
              lambda m, x: x.repeat(2.5, 1)]:
        errors(lambda: f(ctensor, c), lambda: f(torch, t))


@pytest.mark.parametrize("op, name", [
    (lambda x: x.repeat(2, 1, 3), "RepeatBackward0"),
    (lambda x: x.repeat(1, 1), "RepeatBackward0"),
    (lambda x: x.tile((2,)), "RepeatBackward0"),
    (lambda x: x.flip(0, -1), "FlipBackward0"),
    (lambda x: x.fliplr(), "FlipBackward0"),
    (lambda x: x.flipud(), "FlipBackward0"),
    (lambda x: x.roll(1, 0), "RollBackward0"),
    (lambda x: x.roll(-4), "RollBackward0"),
    (lambda x: x.roll((1, 2), (1, 0)), "RollBackward0"),
])
@pytest.mark.parametrize("layout", [None, "t"])
def test_grad(op, name, layout):
    c, t = pair((3, 4), "float64", layout)
    c = c.detach().requires_grad_(True)
    t = t.detach().requires_grad_(True)
    rc, rt = op(c), op(t)
    assert rc.grad_fn.name() == rt.grad_fn.name() == name
    n = rt.numel()
    w = [float((i * 5) % 7) for i in range(n)]
    (rc * ctensor.tensor(w, dtype=ctensor.float64).reshape(tuple(rc.shape))).sum().backward()
    (rt * torch.tensor(w, dtype=torch.float64).reshape(rt.shape)).sum().backward()
    assert same_values(c.grad, t.grad)
