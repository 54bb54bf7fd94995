"""The split family and the other composite views (tensor_split, hsplit/vsplit/dsplit,
split_with_sizes, unsafe_split/unsafe_split_with_sizes/unsafe_chunk, unflatten, movedim,
moveaxis, swapaxes, swapdims, expand_as, view_as, reshape_as, broadcast_to,
broadcast_tensors, broadcast_shapes, atleast_1d/2d/3d), differential against torch 2.13:
geometry, values, sharing, _is_view/_base, version counters, errors and messages, grad_fn
names and gradients."""

import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def pair(*shape, dtype="float64", start=0):
    """The same arange tensor in ctensor and torch (each its own root)."""
    n = 1
    for s in shape:
        n *= s
    c = ctensor.arange(start, start + n, dtype=getattr(ctensor, dtype)).reshape(shape).clone()
    t = torch.arange(start, start + n, dtype=getattr(torch, dtype)).reshape(shape).clone()
    return c, t


def as_list(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def check_same(rc, rt, xc, xt):
    """Each result of ctensor (rc) matches torch's (rt) on the inputs xc / xt."""
    lc, lt = as_list(rc), as_list(rt)
    assert isinstance(rc, tuple) == isinstance(rt, (tuple, list))
    assert len(lc) == len(lt)
    for c, t in zip(lc, lt):
        assert tuple(c.shape) == tuple(t.shape)
        assert c.stride() == t.stride()
        assert c.storage_offset() == t.storage_offset()
        assert c.tolist() == t.tolist()
        assert c._is_view() == t._is_view()
        assert (c._base is xc) == (t._base is xt)
        assert (c is xc) == (t is xt)
        assert c.shares_storage(xc) == (t.untyped_storage().data_ptr() == xt.untyped_storage().data_ptr())
        assert c._version == t._version
    return lc, lt


def both(op, *shape, dtype="float64"):
    xc, xt = pair(*shape, dtype=dtype)
    return check_same(op(ctensor, xc), op(torch, xt), xc, xt)


def same_error(op, *shape, xs=None):
    """op raises the same exception class with the same first line in both libraries."""
    xc, xt = xs if xs is not None else pair(*shape)
    with pytest.raises(Exception) as et:
        op(torch, xt)
    with pytest.raises(Exception) as ec:
        op(ctensor, xc)
    assert type(ec.value) is type(et.value), (ec.value, et.value)
    first = lambda e: str(e).split("\n")[0]  # noqa: E731  (torch appends a C++ backtrace)
    assert first(ec.value) == first(et.value)
    return ec.value


# ---- tensor_split --------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(7,), (2, 7), (3, 0, 5), (1, 6, 2)])
@pytest.mark.parametrize("dim", [0, -1, 1])
@pytest.mark.parametrize("sections", [1, 2, 3, 5, 9])
def test_tensor_split_sections(shape, dim, sections):
    if dim == 1 and len(shape) < 2:
        return
    both(lambda L, x: L.tensor_split(x, sections, dim), *shape)
    both(lambda L, x: x.tensor_split(sections, dim=dim), *shape)


@pytest.mark.parametrize("indices", [[], [0], [2], [1, 4], [4, 1], [-1], [-10, 10], [0, 0, 7, 7],
                                     (2, 3), [3, 100, 2], [-2, -5]])
def test_tensor_split_indices(indices):
    both(lambda L, x: L.tensor_split(x, indices, 1), 2, 7, 3)
    both(lambda L, x: x.tensor_split(indices, -1), 2, 3, 7)
    both(lambda L, x: L.tensor_split(x, indices=indices, dim=1), 2, 7)


@pytest.mark.parametrize("spec", [[1, 4], [], [5, 2, 9], 3, 1])
def test_tensor_split_tensor_spec(spec):
    both(lambda L, x: L.tensor_split(x, L.tensor(spec, dtype=L.int64), 1), 2, 7)
    both(lambda L, x: x.tensor_split(tensor_indices_or_sections=L.tensor(spec, dtype=L.int64), dim=1), 2, 7)


def test_tensor_split_strided_index_tensor():
    both(lambda L, x: L.tensor_split(x, L.tensor([1, 9, 3, 9, 5])[::2], 1), 2, 7)
    both(lambda L, x: L.tensor_split(x, [L.tensor(2), 4], 1), 2, 7)


@pytest.mark.parametrize("op", [
    lambda L, x: L.tensor_split(x[0, 0, 0], 2),
    lambda L, x: L.tensor_split(x, 0),
    lambda L, x: L.tensor_split(x, -2, 1),
    lambda L, x: L.tensor_split(x, 2, 3),
    lambda L, x: L.tensor_split(x, 2, -4),
    lambda L, x: L.tensor_split(x, [1], 5),
    lambda L, x: L.tensor_split(x, L.tensor([1], dtype=L.int32), 1),
    lambda L, x: L.tensor_split(x, L.tensor([1.0]), 1),
    lambda L, x: L.tensor_split(x, L.tensor(True), 1),
    lambda L, x: L.tensor_split(x, L.tensor([[1]]), 1),
    lambda L, x: L.tensor_split(x, L.tensor(0), 1),
    lambda L, x: L.tensor_split(x, 2.0),
    lambda L, x: x.tensor_split(2.0),
    lambda L, x: L.tensor_split(x, True),
])
def test_tensor_split_errors(op):
    same_error(op, 2, 3, 4)


# ---- hsplit, vsplit, dsplit -----------------------------------------------------------------

@pytest.mark.parametrize("fn", ["hsplit", "vsplit", "dsplit"])
@pytest.mark.parametrize("shape", [(6,), (4, 6), (2, 4, 6), (6, 4, 2, 2), (0, 2, 4)])
@pytest.mark.parametrize("spec", [1, 2, 3, 4, 0, -2, [1], [1, 3], [], [3, 1], (2,)])
def test_directional_splits(fn, shape, spec):
    def op(L, x):
        return getattr(L, fn)(x, spec)

    def method(L, x):
        return getattr(x, fn)(spec)

    xc, xt = pair(*shape)
    try:
        rt = op(torch, xt)
    except Exception:
        same_error(op, xs=(xc, xt))
        same_error(method, xs=(xc, xt))
        return
    check_same(op(ctensor, xc), rt, xc, xt)
    check_same(method(ctensor, xc), method(torch, xt), xc, xt)


@pytest.mark.parametrize("fn", ["hsplit", "vsplit", "dsplit"])
def test_directional_split_argument_errors(fn):
    same_error(lambda L, x: getattr(L, fn)(x, 2.0), 4, 4, 4)
    same_error(lambda L, x: getattr(L, fn)(x, L.tensor([2])), 4, 4, 4)
    both(lambda L, x: getattr(L, fn)(x, L.tensor(2)), 4, 4, 4)
    both(lambda L, x: getattr(L, fn)(x, sections=2), 4, 4, 4)
    both(lambda L, x: getattr(L, fn)(x, indices=[1]), 4, 4, 4)


# ---- split_with_sizes and the unsafe splits ---------------------------------------------------

def test_split_with_sizes_method_and_function():
    both(lambda L, x: x.split_with_sizes([1, 2], 1), 2, 3)
    both(lambda L, x: x.split_with_sizes(split_sizes=[2, 0, 1], dim=-1), 2, 3)
    both(lambda L, x: L.split_with_sizes(x, [1, 1]), 2, 3)
    same_error(lambda L, x: x.split_with_sizes([1, 1], 1), 2, 3)


@pytest.mark.parametrize("op", [
    lambda L, x: x.unsafe_split(2, 1),
    lambda L, x: x.unsafe_split(5),
    lambda L, x: L.unsafe_split(x, 1, -1),
    lambda L, x: x.unsafe_split(split_size=2, dim=1),
    lambda L, x: x.unsafe_split_with_sizes([1, 2], 1),
    lambda L, x: L.unsafe_split_with_sizes(x, [3, 0], -2),
    lambda L, x: x.unsafe_chunk(2, 1),
    lambda L, x: L.unsafe_chunk(x, 5, 2),
    lambda L, x: x.unsafe_chunk(chunks=3, dim=0),
])
def test_unsafe_splits(op):
    xc, xt = pair(3, 3, 4)
    xc.add_(0)
    xt.add_(0)  # version 1: the pieces start at 0 nonetheless
    lc, lt = check_same(op(ctensor, xc), op(torch, xt), xc, xt)
    for c, t in zip(lc, lt):
        assert not c._is_view() and c._base is None
        c.add_(1)
        t.add_(1)  # writes memory of x, not its version
        assert c._version == t._version == 1
        assert xc._version == xt._version == 1
    assert xc.tolist() == xt.tolist()


def test_unsafe_chunk_of_an_empty_dim():
    xc, xt = pair(0, 2)
    check_same(xc.unsafe_chunk(3, 0), xt.unsafe_chunk(3, 0), xc, xt)


@pytest.mark.parametrize("op", [
    lambda L, x: x[0, 0, 0].unsafe_split(1),
    lambda L, x: x.unsafe_split(-1),
    lambda L, x: x.unsafe_split([1, 2]),
    lambda L, x: L.unsafe_split(x, [1, 2]),
    lambda L, x: x.unsafe_split_with_sizes([1, 1], 1),
    lambda L, x: x.unsafe_split_with_sizes([-1, 4], 1),
    lambda L, x: x.unsafe_chunk(0, 1),
    lambda L, x: x.unsafe_chunk(2, 3),
])
def test_unsafe_split_errors(op):
    same_error(op, 2, 3, 4)


def test_unsafe_split_autograd():
    xc = ctensor.arange(12.0, dtype=ctensor.float64).reshape(3, 4).requires_grad_()
    xt = torch.arange(12.0, dtype=torch.float64).reshape(3, 4).requires_grad_()
    for op, name in [(lambda x: x.unsafe_split(2, 1), "UnsafeSplitBackward0"),
                     (lambda x: x.unsafe_split_with_sizes([1, 2], 0), "UnsafeSplitWithSizesBackward0"),
                     (lambda x: x.unsafe_chunk(2, 0), "UnsafeSplitBackward0")]:
        pc, pt = op(xc * 1), op(xt * 1)
        assert [type(p.grad_fn).__name__ for p in pt] == [name] * len(pt)
        assert [p.grad_fn.name() for p in pc] == [name] * len(pc)
        # in place on the pieces is allowed (not multi-output views)
        pc[0].mul_(3)
        pt[0].mul_(3)
        assert pc[0].grad_fn.name() == type(pt[0].grad_fn).__name__ == "MulBackward0"
        sc = sum(((p * (i + 2)).sum() for i, p in enumerate(pc)), ctensor.zeros((), dtype=ctensor.float64))
        st = sum(((p * (i + 2)).sum() for i, p in enumerate(pt)), torch.zeros((), dtype=torch.float64))
        sc.backward()
        st.backward()
        assert xc.grad.tolist() == xt.grad.tolist()
        xc.grad = None
        xt.grad = None
    # an empty dim: UnsafeSplitWithSizesBackward0
    ec = ctensor.zeros(0, 2, requires_grad=True)
    et = torch.zeros(0, 2, requires_grad=True)
    assert [p.grad_fn.name() for p in ec.unsafe_chunk(2)] == [type(p.grad_fn).__name__ for p in et.unsafe_chunk(2)]


# ---- unflatten -------------------------------------------------------------------------------

@pytest.mark.parametrize("dim,sizes", [(1, (2, 3)), (1, [3, 2]), (-1, (2, -1)), (0, (1, 4, 1)), (2, (4,)),
                                       (1, (-1, 1)), (2, (2, 1, 2))])
def test_unflatten(dim, sizes):
    both(lambda L, x: x.unflatten(dim, sizes), 4, 6, 4)
    both(lambda L, x: L.unflatten(x, dim=dim, sizes=sizes), 4, 6, 4)
    both(lambda L, x: x.transpose(0, 2).unflatten(dim, sizes), 4, 6, 4)


def test_unflatten_view_and_copy_rules():
    both(lambda L, x: x.permute(2, 0, 1).unflatten(1, (1, 2)), 2, 3, 4)
    both(lambda L, x: x.unflatten(1, L.Size([2, 3])) if L is torch else x.unflatten(1, ctensor.Size([2, 3])), 4, 6)
    both(lambda L, x: x[:, 1:].unflatten(1, (5, 1)), 2, 6)
    both(lambda L, x: L.zeros(2, 0, dtype=L.float64).unflatten(1, (2, 0)), 1)


@pytest.mark.parametrize("op", [
    lambda L, x: x.unflatten(1, (2, 2)),
    lambda L, x: x.unflatten(1, ()),
    lambda L, x: x.unflatten(1, (-1, -1)),
    lambda L, x: x.unflatten(2, (-2, 2)),
    lambda L, x: x.unflatten(3, (2, 2)),
    lambda L, x: x[0, 0, 0].unflatten(0, (1,)),
    lambda L, x: x[0, 0, 0].unflatten(1, (1,)),
    lambda L, x: x.unflatten(1, 6),
    lambda L, x: x.unflatten(1, (2.0, 3)),
    lambda L, x: x.unflatten(1, "ab"),
    lambda L, x: L.zeros(2, 0).unflatten(1, (0, -1)),
])
def test_unflatten_errors(op):
    same_error(op, 2, 3, 4)


# ---- movedim, moveaxis, swapaxes, swapdims ---------------------------------------------------

@pytest.mark.parametrize("src,dst", [(0, 2), (-1, 0), (1, 1), ((0, 1), (2, 0)), ([0, 2], [1, 0]), ((), ()),
                                     ((0, 1, 2), (2, 1, 0)), ((-1, -2), (0, 1))])
@pytest.mark.parametrize("fn", ["movedim", "moveaxis"])
def test_movedim(src, dst, fn):
    both(lambda L, x: getattr(x, fn)(src, dst), 2, 3, 4)
    both(lambda L, x: getattr(L, fn)(x, source=src, destination=dst), 2, 3, 4)


def test_movedim_of_a_scalar():
    xc, xt = ctensor.tensor(3.0), torch.tensor(3.0)
    check_same(xc.movedim(0, -1), xt.movedim(0, -1), xc, xt)
    check_same(xc.movedim((), ()), xt.movedim((), ()), xc, xt)


@pytest.mark.parametrize("op", [
    lambda L, x: x.movedim((0, 1), (0,)),
    lambda L, x: x.movedim((0, 0), (1, 2)),
    lambda L, x: x.movedim((0, -3), (1, 2)),
    lambda L, x: x.movedim((0, 1), (2, 2)),
    lambda L, x: x.movedim(3, 0),
    lambda L, x: x.movedim(0, -4),
    lambda L, x: x.movedim([0], 0),
    lambda L, x: x.movedim(0.0, 0),
    lambda L, x: L.tensor(1.0).movedim(1, 0),
])
def test_movedim_errors(op):
    same_error(op, 2, 3, 4)


@pytest.mark.parametrize("a,b", [(0, 2), (-1, 0), (1, 1)])
def test_swapaxes_swapdims(a, b):
    both(lambda L, x: x.swapaxes(a, b), 2, 3, 4)
    both(lambda L, x: x.swapdims(a, b), 2, 3, 4)
    both(lambda L, x: L.swapaxes(x, axis0=a, axis1=b), 2, 3, 4)
    both(lambda L, x: L.swapdims(x, dim0=a, dim1=b), 2, 3, 4)
    for name in ("swapaxes_", "swapdims_"):
        xc, xt = pair(2, 3, 4)
        assert getattr(xc, name)(a, b) is xc and getattr(xt, name)(a, b) is xt
        assert xc.shape == xt.shape and xc.stride() == xt.stride() and xc._version == xt._version
    same_error(lambda L, x: x.swapaxes(0, 3), 2, 3, 4)
    same_error(lambda L, x: L.swapdims(x, -4, 0), 2, 3, 4)


# ---- expand_as, view_as, reshape_as, broadcast_to, broadcast_tensors, broadcast_shapes --------

def test_as_ops():
    both(lambda L, x: x[:, :1].expand_as(L.empty(5, 3, 4)), 3, 4)
    both(lambda L, x: x.expand_as(other=L.empty(2, 3, 4)), 3, 4)
    both(lambda L, x: x.view_as(L.empty(4, 3, dtype=L.int8)), 3, 4)
    both(lambda L, x: x.reshape_as(L.empty(2, 6)), 3, 4)
    both(lambda L, x: x.t().reshape_as(L.empty(2, 6)), 3, 4)
    # (ctensor names the dtype float64 in expand's message where torch says DoubleTensor)
    with pytest.raises(RuntimeError, match="must be greater or equal to the number of dimensions"):
        pair(2, 3, 4)[0].expand_as(ctensor.empty(2, 3))
    same_error(lambda L, x: x.t().view_as(L.empty(12)), 3, 4)
    same_error(lambda L, x: x.reshape_as(L.empty(5)), 3, 4)


@pytest.mark.parametrize("size", [(3, 4), (2, 3, 4), [5, 1, 3, 4], (-1, 4), (2, -1, -1), (0, 3, 4)])
def test_broadcast_to(size):
    both(lambda L, x: L.broadcast_to(x[:1], size), 3, 4)
    both(lambda L, x: x[:1].broadcast_to(size), 3, 4)
    both(lambda L, x: L.broadcast_to(x[:1], size=size), 3, 4)


def test_broadcast_to_errors():
    # (expand's message names the dtype as ctensor.float64 where torch says DoubleTensor)
    with pytest.raises(RuntimeError, match=r"the number of sizes provided \(1\) must be greater or equal"):
        pair(3, 4)[0].broadcast_to((3,))
    same_error(lambda L, x: x.broadcast_to((2, 4)), 3, 4)
    same_error(lambda L, x: L.broadcast_to(x, 4), 3, 4)
    same_error(lambda L, x: L.broadcast_to(x, (3.0, 4)), 3, 4)
    both(lambda L, x: x.broadcast_to(4), 4)


def test_broadcast_tensors():
    xc, xt = pair(2, 3, 4)
    yc, yt = pair(3, 1, start=7)
    rc = ctensor.broadcast_tensors(xc, yc, ctensor.tensor(5.0, dtype=ctensor.float64))
    rt = torch.broadcast_tensors(xt, yt, torch.tensor(5.0, dtype=torch.float64))
    assert rc[0] is xc and rt[0] is xt
    assert rc[1]._base is yc and rt[1]._base is yt
    for c, t in zip(rc, rt):
        assert c.shape == t.shape and c.stride() == t.stride() and c.tolist() == t.tolist()
    assert ctensor.broadcast_tensors() == () and torch.broadcast_tensors() == ()
    assert ctensor.broadcast_tensors(xc)[0] is xc
    same_error(lambda L, x: L.broadcast_tensors(x, L.zeros(3)), 2, 3, 4)
    same_error(lambda L, x: L.broadcast_tensors(x, L.zeros(3, 1), L.zeros(5, 1, 1, 2)), 2, 3, 4)
    same_error(lambda L, x: L.broadcast_tensors(x, 1), 2, 3, 4)


@pytest.mark.parametrize("shapes", [
    (), ((2, 3),), ((2,), (3, 1), (1, 1, 1)), (2, (3, 1)), ([2, 1], [2]), ((0,), (1,)), ((2, 1), None),
    (None, (2,)), ((1, 2), (3, 1, 1), (5, 1, 4)), ((2, 3), (4,)), ([2], (3,)), ((2, -1),), ((2, 1), (-1,)),
    ((-1,), (1,)), (2.0,), ((0,), (2,)), ([True],), ((5, 1, 4), [3, 5, 1, 4]),
])
def test_broadcast_shapes(shapes):
    try:
        rt = torch.broadcast_shapes(*shapes)
    except Exception:
        same_error(lambda L, x: L.broadcast_shapes(*shapes), 1)
        return
    rc = ctensor.broadcast_shapes(*shapes)
    assert type(rc) is ctensor.Size and tuple(rc) == tuple(rt)


def test_broadcast_shapes_mismatch_names_the_argument_as_given():
    for shapes in [((2, 3), [4]), ((2, 3), ctensor.Size([4])), ((2, 3), 4)]:
        with pytest.raises(RuntimeError) as ec:
            ctensor.broadcast_shapes(*shapes)
        tshapes = tuple(torch.Size(list(s)) if isinstance(s, ctensor.Size) else s for s in shapes)
        with pytest.raises(RuntimeError) as et:
            torch.broadcast_shapes(*tshapes)
        assert str(ec.value) == str(et.value).replace("torch.", "ctensor.")


# ---- atleast_1d, atleast_2d, atleast_3d ------------------------------------------------------

@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 3, 4), (0,), (1, 0, 2, 1)])
def test_atleast(rank, shape):
    fn = f"atleast_{rank}d"
    both(lambda L, x: getattr(L, fn)(x), *shape)
    both(lambda L, x: getattr(L, fn)(x[...]), *shape)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_atleast_several(rank):
    fn = f"atleast_{rank}d"
    xs_c = [ctensor.tensor(1.0), ctensor.arange(3.0), ctensor.zeros(2, 2)]
    xs_t = [torch.tensor(1.0), torch.arange(3.0), torch.zeros(2, 2)]
    for args_c, args_t in [(xs_c, xs_t), ((xs_c,), (xs_t,)), ((tuple(xs_c),), (tuple(xs_t),)), ((), ())]:
        rc, rt = getattr(ctensor, fn)(*args_c), getattr(torch, fn)(*args_t)
        assert type(rc) is tuple and type(rt) is tuple and len(rc) == len(rt)
        for c, t, xc, xt in zip(rc, rt, xs_c, xs_t):
            assert c.shape == t.shape and c.stride() == t.stride()
            assert (c is xc) == (t is xt) and (c._base is xc) == (t._base is xt)
    same_error(lambda L, x: getattr(L, fn)(1.0), 1)
    same_error(lambda L, x: getattr(L, fn)(x, 1.0), 1)
    same_error(lambda L, x: getattr(L, fn)([x, "a"]), 1)


# ---- autograd: node names, gradients, version counters ------------------------------------------

OPS_WITH_NODES = [
    (lambda L, x: L.tensor_split(x, 3, 1), (2, 5, 3)),
    (lambda L, x: L.tensor_split(x, [1, 3], 2), (2, 5, 3)),
    (lambda L, x: L.tensor_split(x, L.tensor([1, 3]), 2), (2, 5, 3)),
    (lambda L, x: L.hsplit(x, [2]), (2, 5, 3)),
    (lambda L, x: L.vsplit(x, 2), (2, 5, 3)),
    (lambda L, x: L.dsplit(x, 3), (2, 5, 3)),
    (lambda L, x: x.split_with_sizes([1, 4], 1), (2, 5, 3)),
    (lambda L, x: x.unflatten(1, (5, 1)), (2, 5, 3)),
    (lambda L, x: x.movedim(0, 2), (2, 5, 3)),
    (lambda L, x: x.movedim(1, 1), (2, 5, 3)),
    (lambda L, x: x[0, 0, 0].movedim(0, 0), (2, 5, 3)),
    (lambda L, x: x.moveaxis((0, 1), (1, 0)), (2, 5, 3)),
    (lambda L, x: x.swapaxes(0, 2), (2, 5, 3)),
    (lambda L, x: x.swapdims(1, 2), (2, 5, 3)),
    (lambda L, x: x[:, :1].expand_as(x), (2, 5, 3)),
    (lambda L, x: x.view_as(x[0]), (1, 5, 3)),
    (lambda L, x: x.reshape_as(x[0]), (1, 5, 3)),
    (lambda L, x: x.transpose(0, 1).reshape_as(x.flatten()), (2, 5, 3)),
    (lambda L, x: x.broadcast_to((4, 2, 5, 3)), (2, 5, 3)),
    (lambda L, x: L.broadcast_tensors(x, x[0, 0]), (2, 5, 3)),
    (lambda L, x: L.atleast_1d(x[0, 0, 0]), (2, 5, 3)),
    (lambda L, x: L.atleast_2d(x[0, 0]), (2, 5, 3)),
    (lambda L, x: L.atleast_3d(x[0, 0]), (2, 5, 3)),
    (lambda L, x: L.atleast_3d(x[0]), (2, 5, 3)),
    (lambda L, x: L.atleast_3d(x), (2, 5, 3)),
]


def name_of(t):
    fn = t.grad_fn
    if fn is None:
        return None
    return fn.name()


@pytest.mark.parametrize("op,shape", OPS_WITH_NODES)
def test_grad_fn_names_and_gradients(op, shape):
    xc, xt = pair(*shape)
    xc.requires_grad_()
    xt.requires_grad_()
    # through a non-leaf, so that results are views of something with a grad_fn
    bc, bt = xc * 1, xt * 1
    rc, rt = as_list(op(ctensor, bc)), as_list(op(torch, bt))
    assert [name_of(c) for c in rc] == [name_of(t) for t in rt]
    assert [(c._base is bc, c is bc) for c in rc] == [(t._base is bt, t is bt) for t in rt]
    weights = [i + 1.5 for i in range(len(rt))]
    sc = sum(((c * w).sum() for c, w in zip(rc, weights)), ctensor.zeros((), dtype=ctensor.float64))
    st = sum(((t * w).sum() for t, w in zip(rt, weights)), torch.zeros((), dtype=torch.float64))
    sc.backward()
    st.backward()
    assert xc.grad.tolist() == xt.grad.tolist()


@pytest.mark.parametrize("op,shape", OPS_WITH_NODES)
def test_versions_shared_with_the_base(op, shape):
    xc, xt = pair(*shape)
    rc, rt = as_list(op(ctensor, xc)), as_list(op(torch, xt))
    for c, t in zip(rc, rt):
        if c.numel() == 0:
            continue
        # a view with internal overlap (expand) may not be written: write its base then
        overlap = c.has_internal_overlap()
        (xc if overlap else c).add_(1)
        (xt if overlap else t).add_(1)
        assert xc._version == xt._version
        assert [r._version for r in rc] == [r._version for r in rt]
    assert xc.tolist() == xt.tolist()


def test_tensor_split_pieces_may_be_written_in_place_under_autograd():
    xc = ctensor.zeros(4, 3, requires_grad=True) * 1
    xt = torch.zeros(4, 3, requires_grad=True) * 1
    pc, pt = xc.tensor_split(2), xt.tensor_split(2)
    pc[0].add_(1)
    pt[0].add_(1)
    assert name_of(pc[0]) == name_of(pt[0]) == "AddBackward0" or name_of(pc[0]) == name_of(pt[0])
    assert name_of(xc) == name_of(xt)
    # split_with_sizes pieces are multi-output views: torch refuses the same write
    with pytest.raises(RuntimeError) as et:
        xt.split_with_sizes([1, 3])[0].add_(1)
    with pytest.raises(RuntimeError) as ec:
        xc.split_with_sizes([1, 3])[0].add_(1)
    assert str(ec.value).split("\n")[0] == str(et.value).split("\n")[0]


# ---- ported from PyTorch's test/test_view_ops.py ----------------------------------------------

def _is_view_of(base, other):
    return other._is_view() and other._base is base and other.shares_storage(base)


def test_ported_tensor_split_sections():
    for L in (ctensor, torch):
        input_sizes = [(0,), (10,), (10, 0), (0, 10), (4, 10), (12, 3)]
        for input_size in input_sizes:
            n = 1
            for k in input_size:
                n *= k
            a = L.arange(n, dtype=L.float64).reshape(input_size).clone()
            a_n = torch.tensor(a.tolist(), dtype=torch.float64).reshape(input_size).numpy()
            import numpy as np
            for dim in range(-a.dim(), a.dim()):
                for sections in range(1, 2 * a.size(dim)):
                    result = L.tensor_split(a, sections, dim)
                    expected = np.array_split(a_n, sections, dim)
                    assert len(result) == len(expected)
                    for r, e in zip(result, expected):
                        assert tuple(r.shape) == e.shape and r.tolist() == e.tolist()
                        assert _is_view_of(a, r) if L is ctensor else r._base is a


def test_ported_tensor_split_indices():
    import numpy as np
    indices_args = ((), (0,), (3,), (10,), (-1,), (-10,), (2, -1), (3, 4, 10), (0, -1, 0, 10), (1, 5, 2, 8))
    for L in (ctensor, torch):
        for input_size in [(0,), (10,), (10, 0), (0, 10), (4, 10), (12, 3)]:
            a = L.arange(int(np.prod(input_size)), dtype=L.float64).reshape(input_size)
            a_n = np.arange(int(np.prod(input_size)), dtype=np.float64).reshape(input_size)
            for dim in range(-a.dim(), a.dim()):
                for indices in indices_args:
                    result = L.tensor_split(a, indices, dim)
                    result_t = L.tensor_split(a, L.tensor(indices, dtype=L.int64), dim)
                    expected = np.array_split(a_n, indices, dim)
                    assert len(result) == len(expected) == len(result_t)
                    for r, rt_, e in zip(result, result_t, expected):
                        assert tuple(r.shape) == e.shape and r.tolist() == e.tolist() == rt_.tolist()


def test_ported_tensor_split_errors():
    S = 10
    cases = [  # input size, sections or indices, dim, error type, message
        ((S,), 10, 1, IndexError, r"Dimension out of range"),
        ((), 10, 0, RuntimeError, r"tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"),
        ((S,), (10,), 1, IndexError, r"Dimension out of range"),
        ((), (10,), 0, RuntimeError, r"tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"),
        ((S,), 0, 0, RuntimeError, r"number of sections must be larger than 0, got 0"),
        ((S,), -1, 0, RuntimeError, r"number of sections must be larger than 0, got -1"),
    ]
    for shape, spec, dim, err, msg in cases:
        a = ctensor.randn(shape)
        with pytest.raises(err, match=msg):
            ctensor.tensor_split(a, spec, dim)
        with pytest.raises(err, match=msg):  # the same through the tensor overload
            ctensor.tensor_split(a, ctensor.tensor(spec, dtype=ctensor.int64), dim)
    for bad in (ctensor.tensor(2.0), ctensor.tensor([[2]]), ctensor.tensor([2], dtype=ctensor.int32)):
        with pytest.raises(RuntimeError, match="tensor_split expected tensor_indices_or_sections to"):
            ctensor.tensor_split(ctensor.zeros(S), bad)
    with pytest.raises(TypeError):
        ctensor.tensor_split(ctensor.zeros(S), 2.0)


def test_ported_hsplit_vsplit_dsplit():
    import numpy as np
    cases = {"hsplit": [((6,), 2), ((6,), [1, 3]), ((4, 6), 3), ((4, 6), [2, 5]), ((2, 4, 6), 2)],
             "vsplit": [((6, 2), 3), ((6, 4), [1, 4]), ((4, 6, 2), 2)],
             "dsplit": [((2, 2, 6), 3), ((2, 2, 6), [1, 2]), ((1, 2, 4, 2), 2)]}
    for fn, cs in cases.items():
        for shape, spec in cs:
            a_n = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
            a = ctensor.arange(int(np.prod(shape)), dtype=ctensor.float64).reshape(shape).clone()
            expected = getattr(np, fn)(a_n, spec)
            result = getattr(ctensor, fn)(a, spec)
            assert len(result) == len(expected)
            for r, e in zip(result, expected):
                assert tuple(r.shape) == e.shape and r.tolist() == e.tolist() and _is_view_of(a, r)
    for fn, shape, msg in [("hsplit", (), "torch.hsplit requires a tensor with at least 1 dimension"),
                           ("vsplit", (4,), "torch.vsplit requires a tensor with at least 2 dimension"),
                           ("dsplit", (4, 4), "torch.dsplit requires a tensor with at least 3 dimension"),
                           ("hsplit", (5,), "is not divisible by the split_size 2!")]:
        with pytest.raises(RuntimeError, match=msg):
            getattr(ctensor, fn)(ctensor.zeros(shape), 2)


def test_ported_unflatten():
    assert ctensor.tensor([]).unflatten(0, (0, 1)).tolist() == torch.tensor([]).unflatten(0, (0, 1)).tolist()
    assert ctensor.tensor([1]).unflatten(0, (1, 1)).tolist() == [[1]]
    assert ctensor.tensor([1, 2, 3, 4]).unflatten(0, (2, 2)).tolist() == [[1, 2], [3, 4]]
    assert ctensor.tensor([1, 2, 3, 4]).unflatten(0, [2, 2]).tolist() == [[1, 2], [3, 4]]
    assert ctensor.tensor([1, 2, 3, 4]).unflatten(0, ctensor.Size([2, 2])).tolist() == [[1, 2], [3, 4]]
    assert ctensor.ones(2, 10).unflatten(1, (5, 2)).shape == (2, 5, 2)
    assert ctensor.tensor([1, 2, 3, 4]).unflatten(0, (-1, 2)).tolist() == [[1, 2], [3, 4]]
    assert ctensor.ones(2, 10).unflatten(1, (5, -1)).shape == (2, 5, 2)
    assert ctensor.ones(2, 0).unflatten(1, (0,)).shape == (2, 0)
    with pytest.raises(RuntimeError, match=r"unflatten: sizes must be non-empty"):
        ctensor.tensor([1]).unflatten(0, [])
    with pytest.raises(RuntimeError, match=r"Provided sizes \[2, 2\] don't multiply up to the size of dim 0 \(1\)"):
        ctensor.tensor([1]).unflatten(0, [2, 2])
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        ctensor.tensor([1]).unflatten(1, [1])
    with pytest.raises(RuntimeError, match=r"only one dimension can be inferred"):
        ctensor.randn(5, 10).unflatten(1, (-1, -1))
    with pytest.raises(RuntimeError, match=r"Provided sizes \[-1, 4\] don't multiply up to the size of dim 1 \(10\)"):
        ctensor.randn(5, 10).unflatten(1, (-1, 4))
    with pytest.raises(RuntimeError, match=r"the unspecified dimension size -1 can be any value and is ambiguous"):
        ctensor.randn(2, 0).unflatten(1, (2, -1, 0))


def test_ported_movedim():
    import itertools
    import numpy as np
    for nd in range(5):
        shape = tuple(range(2, 2 + nd))
        a_n = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        x = ctensor.arange(int(np.prod(shape)), dtype=ctensor.float64).reshape(shape)
        for fn in (ctensor.movedim, ctensor.moveaxis, ctensor.Tensor.movedim, ctensor.Tensor.moveaxis):
            for src_dim, dst_dim in itertools.product(range(-max(nd, 1), max(nd, 1)), repeat=2):
                if nd == 0:
                    expected = a_n
                else:
                    expected = np.moveaxis(a_n, src_dim, dst_dim)
                r = fn(x, src_dim, dst_dim)
                assert r.tolist() == expected.tolist() and tuple(r.shape) == expected.shape
            for n in range(1, nd + 1):
                for src, dst in [(tuple(range(n)), tuple(reversed(range(n)))), (tuple(range(-n, 0)), tuple(range(n)))]:
                    r = fn(x, src, dst)
                    assert r.tolist() == np.moveaxis(a_n, src, dst).tolist()


def test_ported_atleast():
    import numpy as np
    for L in (ctensor,):
        for shape in [(), (3,), (2, 3), (2, 3, 4), (1, 1, 1, 1)]:
            a_n = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
            x = L.arange(int(np.prod(shape)), dtype=L.float64).reshape(shape)
            for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
                r = getattr(L, fn)(x)
                e = getattr(np, fn)(a_n)
                assert tuple(r.shape) == e.shape and r.tolist() == e.tolist()
                rs = getattr(L, fn)([x, x])
                es = getattr(np, fn)(a_n, a_n)
                assert [tuple(t.shape) for t in rs] == [t.shape for t in es]


def test_ported_broadcast_shapes_and_tensors():
    examples = [(), (1,), (2,), (1, 1), (3, 1), (3, 2), (4, 1, 1), (4, 3, 2)]
    for s0 in examples:
        x0 = ctensor.randn(s0)
        assert ctensor.broadcast_shapes(s0) == ctensor.broadcast_tensors(x0)[0].shape
        for s1 in examples:
            x1 = ctensor.randn(s1)
            expected = torch.broadcast_tensors(torch.randn(s0), torch.randn(s1))[0].shape
            assert tuple(ctensor.broadcast_shapes(s0, s1)) == tuple(expected)
            assert tuple(ctensor.broadcast_tensors(x0, x1)[0].shape) == tuple(expected)
    inputs_list = [[1, 4], [4, 1], [1, 1, 3]]
    for integral_inputs in inputs_list:
        assert tuple(ctensor.broadcast_shapes(*integral_inputs)) == tuple(torch.broadcast_shapes(*integral_inputs))
    for s0, s1 in [((2,), (3,)), ((2, 1), (3, 2)), ((4, 3, 2), (5, 1, 1))]:
        with pytest.raises(RuntimeError):
            ctensor.broadcast_shapes(s0, s1)
