"""gather, scatter, scatter_add, index_add, index_copy, index_fill, take, put, index_put:
differential against torch 2.13 (values, dtype, shape, strides, a new storage for every
out-of-place result, the same storage and a version bump for the in-place forms, errors and
their messages, grad_fn names and gradients)."""

import warnings

import pytest

import ctensor
from ctutil import torch, same_values

pytestmark = pytest.mark.skipif(torch is None, reason="needs torch")


def ct_of(t):
    """A ctensor copy of torch tensor t with t's values, dtype and strides (layout)."""
    dt = getattr(ctensor, str(t.dtype).split(".")[1])
    # torch's layout is a permutation of a dense tensor (or a step of one): rebuild it the same way
    c = ctensor.tensor(t.contiguous().reshape(-1).tolist(), dtype=dt).reshape(tuple(t.shape))
    if t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last) and not t.is_contiguous():
        c = c.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    return c


def layout(t, how):
    """t laid out as: None (C order), "t" (transposed), "step" (every other element of a
    twice-as-long last dim) or "cl" (channels_last)."""
    if how == "t":
        return t.transpose(0, -1).contiguous().transpose(0, -1)
    if how == "step":
        big = torch.stack([t, t], dim=-1).reshape(*t.shape[:-1], 2 * t.shape[-1])
        return big[..., ::2]
    if how == "cl":
        return t.contiguous(memory_format=torch.channels_last)
    return t


def ct_layout(t, how):
    """The ctensor tensor with the same values and layout as layout(t, how)."""
    if how == "t":
        return ct_of(t.contiguous()).transpose(0, -1).contiguous().transpose(0, -1)
    if how == "step":
        big = torch.stack([t, t], dim=-1).reshape(*t.shape[:-1], 2 * t.shape[-1])
        return ct_of(big)[..., ::2]
    if how == "cl":
        return ct_of(t.contiguous()).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    return ct_of(t)


def check_same(rc, rt, *inputs):
    assert tuple(rc.shape) == tuple(rt.shape)
    assert str(rc.dtype).split(".")[1] == str(rt.dtype).split(".")[1]
    assert rc.stride() == rt.stride(), (rc.stride(), rt.stride())
    assert same_values(rc, rt), (rc.tolist(), rt.tolist())
    assert rc._base is None
    if rc.numel():
        for x in inputs:
            if x.numel():
                assert rc.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()


def values(shape, dtype=torch.float32 if torch else None, seed=0):
    g = torch.Generator().manual_seed(seed)
    v = torch.randint(-5, 6, shape, generator=g)
    return v.to(dtype) if dtype != torch.bool else v > 0


def indices(shape, high, seed=1, dtype=torch.int64 if torch else None):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, max(high, 1), shape, generator=g).to(dtype)


LAYOUTS = [None, "t", "step"]
GATHER_CASES = [((3, 4), 0, (2, 4)), ((3, 4), 1, (3, 6)), ((3, 4), -1, (2, 2)), ((2, 3, 4), 1, (2, 5, 3)),
                ((5,), 0, (7,)), ((3, 4), 0, (0, 4)), ((0, 4), 1, (0, 2))]


@pytest.mark.parametrize("shape, dim, ishape", GATHER_CASES)
@pytest.mark.parametrize("how", LAYOUTS)
@pytest.mark.parametrize("idtype", ["int64", "int32"])
def test_gather(shape, dim, ishape, how, idtype):
    t = layout(values(shape), how)
    c = ct_layout(values(shape), how)
    it = indices(ishape, shape[dim], dtype=getattr(torch, idtype))
    ic = ct_of(it)
    rt, rc = torch.gather(t, dim, it), ctensor.gather(c, dim, ic)
    check_same(rc, rt, c, ic)
    check_same(c.gather(dim, ic), t.gather(dim, it), c)


def test_gather_zero_dim_and_channels_last():
    s = torch.tensor(3.0)
    for idx in (torch.tensor(0), torch.tensor([0, 0])):
        check_same(ctensor.gather(ct_of(s), 0, ct_of(idx)), torch.gather(s, 0, idx))
    t = values((2, 3, 4, 5)).contiguous(memory_format=torch.channels_last)
    i = indices((2, 3, 4, 5), 3).contiguous(memory_format=torch.channels_last)
    check_same(ctensor.gather(ct_layout(values((2, 3, 4, 5)), "cl"), 1, ct_layout(indices((2, 3, 4, 5), 3), "cl")),
               torch.gather(t, 1, i))


def test_gather_large_runs_threads_and_matches():
    t = values((4000, 16))
    i = indices((4000, 16), 4000, seed=3)
    check_same(ctensor.gather(ct_of(t), 0, ct_of(i)), torch.gather(t, 0, i))


SCATTER_CASES = [((3, 4), 0, (2, 4)), ((3, 4), 1, (3, 2)), ((2, 3, 4), -2, (2, 3, 2)), ((5,), 0, (4,)),
                 ((3, 4), 0, (0, 4))]


@pytest.mark.parametrize("shape, dim, ishape", SCATTER_CASES)
@pytest.mark.parametrize("how", LAYOUTS)
def test_scatter_forms(shape, dim, ishape, how):
    t, c = layout(values(shape), how), ct_layout(values(shape), how)
    it = indices(ishape, shape[dim], seed=5)
    ic = ct_of(it)
    st = values(ishape, seed=7)
    sc = ct_of(st)
    check_same(c.scatter(dim, ic, sc), t.scatter(dim, it, st), c, sc)
    check_same(ctensor.scatter(c, dim, ic, 2.5), torch.scatter(t, dim, it, 2.5), c)
    check_same(c.scatter(dim, ic, value=-1), t.scatter(dim, it, value=-1), c)
    check_same(c.scatter_add(dim, ic, sc), t.scatter_add(dim, it, st), c)
    check_same(ctensor.scatter_add(c, dim, ic, sc), torch.scatter_add(t, dim, it, st), c)
    for red in ("add", "multiply"):
        check_same(c.scatter(dim, ic, 3.0, reduce=red), t.scatter(dim, it, 3.0, reduce=red), c)
        with warnings.catch_warnings(record=True) as wc:
            warnings.simplefilter("always")
            rc = c.scatter(dim, ic, sc, reduce=red)
        with warnings.catch_warnings(record=True) as wt:
            warnings.simplefilter("always")
            rt = t.scatter(dim, it, st, reduce=red)
        check_same(rc, rt, c)
        # torch warns once per process (TORCH_WARN_ONCE), with this text; so does ctensor
        assert [str(w.message) for w in wc] in ([], [REDUCE_WARNING])
        assert [str(w.message).split(" (Triggered")[0] for w in wt] in ([], [REDUCE_WARNING])
    with warnings.catch_warnings(record=True) as wc:
        warnings.simplefilter("always")
        c.scatter(dim, ic, sc, reduce="add")
    assert wc == []


REDUCE_WARNING = ("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future "
                  "PyTorch release. Use torch.scatter_reduce instead for more reduction options.")


@pytest.mark.parametrize("shape, dim, ishape", SCATTER_CASES)
@pytest.mark.parametrize("how", LAYOUTS)
def test_scatter_in_place(shape, dim, ishape, how):
    it = indices(ishape, shape[dim], seed=5)
    ic = ct_of(it)
    st = values(ishape, seed=7)
    sc = ct_of(st)
    for name, args_t, args_c in [("scatter_", (st,), (sc,)), ("scatter_", (1.5,), (1.5,)),
                                 ("scatter_add_", (st,), (sc,))]:
        t, c = layout(values(shape), how), ct_layout(values(shape), how)
        ptr, ver = c.untyped_storage().data_ptr(), c._version
        r = getattr(c, name)(dim, ic, *args_c)
        getattr(t, name)(dim, it, *args_t)
        assert r is c and c.untyped_storage().data_ptr() == ptr and c._version == ver + 1
        assert same_values(c, t) and c.stride() == t.stride()


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_accumulate_like_torch(dtype):
    tdt = getattr(torch, dtype)
    t = values((4, 3), tdt, seed=2)
    s = values((6, 3), tdt, seed=3)
    it = torch.tensor([[0, 1, 2], [0, 0, 0], [3, 3, 1], [1, 2, 3], [0, 1, 0], [2, 2, 2]])
    c, sc, ic = ct_of(t), ct_of(s), ct_of(it)
    check_same(c.scatter_add(0, ic, sc), t.scatter_add(0, it, s))
    check_same(c.scatter(0, ic, sc, reduce="multiply"), t.scatter(0, it, s, reduce="multiply"))
    check_same(c.gather(0, ic), t.gather(0, it))
    idx = torch.tensor([0, 3, 3, 1, 0, 2])
    check_same(c.index_add(0, ct_of(idx), sc), t.index_add(0, idx, s))
    check_same(c.index_fill(1, ct_of(torch.tensor([0, 2])), 1), t.index_fill(1, torch.tensor([0, 2]), 1))
    flat = torch.tensor([0, 5, 5, 11, -1, 2])
    check_same(c.put(ct_of(flat), sc[:, 0].contiguous(), accumulate=True), t.put(flat, s[:, 0].contiguous(), accumulate=True))
    check_same(c.take(ct_of(flat)), t.take(flat))


INDEX_CASES = [((4, 3), 0, [2, 0, 3]), ((4, 3), 1, [2, 2]), ((2, 3, 4), -1, [3, 0]), ((5,), 0, [4, 4, 0]),
               ((4, 3), 0, [])]


@pytest.mark.parametrize("shape, dim, idx", INDEX_CASES)
@pytest.mark.parametrize("how", LAYOUTS + ["cl"])
def test_index_add_copy_fill(shape, dim, idx, how):
    if how == "cl":
        shape = (2, 3, 2, 2)
        idx = [i % shape[dim] for i in idx]
    t, c = layout(values(shape), how), ct_layout(values(shape), how)
    it = torch.tensor(idx, dtype=torch.int64)
    ic = ct_of(it)
    sshape = list(shape)
    sshape[dim] = len(idx)
    st = values(tuple(sshape), seed=9)
    sc = ct_of(st)
    check_same(c.index_add(dim, ic, sc), t.index_add(dim, it, st), c, sc)
    check_same(ctensor.index_add(c, dim, ic, sc, alpha=-2), torch.index_add(t, dim, it, st, alpha=-2), c)
    check_same(c.index_fill(dim, ic, 7.5), t.index_fill(dim, it, 7.5), c)
    check_same(ctensor.index_fill(c, dim, ic, ctensor.tensor(2.0, dtype=ctensor.float64)),
               torch.index_fill(t, dim, it, torch.tensor(2.0, dtype=torch.float64)), c)
    uniq = torch.unique(it)
    sshape[dim] = len(uniq)
    st = values(tuple(sshape), seed=11)
    check_same(c.index_copy(dim, ct_of(uniq), ct_of(st)), t.index_copy(dim, uniq, st), c)
    check_same(ctensor.index_copy(c, dim, ct_of(uniq), ct_of(st)), torch.index_copy(t, dim, uniq, st), c)
    # in place: same storage, version + 1, self returned
    for name, a_c, a_t in [("index_add_", (ic, sc), (it, values(tuple(list(shape[:dim % len(shape)]) + [len(idx)] + list(shape[dim % len(shape) + 1:])), seed=9))),
                           ("index_fill_", (ic, -1), (it, -1)), ("index_copy_", (ct_of(uniq), ct_of(st)), (uniq, st))]:
        t2, c2 = layout(values(shape), how), ct_layout(values(shape), how)
        ptr, ver = c2.untyped_storage().data_ptr(), c2._version
        assert getattr(c2, name)(dim, *a_c) is c2
        getattr(t2, name)(dim, *a_t)
        assert c2.untyped_storage().data_ptr() == ptr and c2._version == ver + 1 and same_values(c2, t2)


def test_index_ops_zero_dim():
    s = torch.tensor(3.0)
    c = ct_of(s)
    check_same(c.index_add(0, ct_of(torch.tensor(0)), ct_of(torch.tensor(2.0))),
               s.index_add(0, torch.tensor(0), torch.tensor(2.0)))
    check_same(c.index_copy(0, ct_of(torch.tensor([0])), ct_of(torch.tensor(2.0))),
               s.index_copy(0, torch.tensor([0]), torch.tensor(2.0)))
    check_same(c.index_fill(0, ct_of(torch.tensor(0)), 5.0), s.index_fill(0, torch.tensor(0), 5.0))
    check_same(c.scatter(0, ct_of(torch.tensor(0)), 5.0), s.scatter(0, torch.tensor(0), 5.0))


@pytest.mark.parametrize("how", LAYOUTS + ["cl"])
def test_take_put(how):
    shape = (2, 3, 2, 2) if how == "cl" else (3, 4)
    t, c = layout(values(shape), how), ct_layout(values(shape), how)
    n = t.numel()
    it = torch.tensor([[0, n - 1, 3], [-1, -n, 3]])
    ic = ct_of(it)
    check_same(c.take(ic), t.take(it), c)
    check_same(ctensor.take(c, ic), torch.take(t, it), c)
    st = values((6,), seed=4)
    check_same(c.put(ic, ct_of(st)), t.put(it, st), c)
    check_same(ctensor.put(c, ic, ct_of(st), accumulate=True), torch.put(t, it, st, accumulate=True), c)
    ptr, ver = c.untyped_storage().data_ptr(), c._version
    assert c.put_(ic, ct_of(st), accumulate=True) is c
    t.put_(it, st, accumulate=True)
    assert same_values(c, t) and c._version == ver + 1 and c.untyped_storage().data_ptr() == ptr
    check_same(c.take(ct_of(torch.tensor([], dtype=torch.int64))), t.take(torch.tensor([], dtype=torch.int64)))


def B(*v):
    return torch.tensor(v, dtype=torch.bool)


def L(*v):
    return torch.tensor(v, dtype=torch.int64)


INDEX_PUT_CASES = [
    ((4, 3), lambda: (L(0, 2, -1),), (3,)),
    ((4, 3), lambda: (L(0, 2, 0), L(1, 1, 2)), (3,)),
    ((4, 3), lambda: (L(0, 0, 0, 3),), ()),
    ((4, 3), lambda: (L(0, 3).reshape(2, 1), L(0, 1, 2)), (2, 3)),
    ((4, 3), lambda: (L(0, 3).reshape(2, 1), L(0, 1, 2)), (3,)),
    ((4, 3), lambda: (B(True, False, True, True),), (3, 3)),
    ((4, 3), lambda: (values((4, 3)) > 0,), ()),
    ((2, 3, 4), lambda: (B(True, False), L(2, 0)), (2, 4)),
    ((2, 3, 4), lambda: (torch.tensor([1, 0], dtype=torch.int32),), (4,)),
    ((2, 3, 4), lambda: (L(1, 1, 0), L(2, 2, 2), L(3, 3, 0)), ()),
    ((4, 3), lambda: (L(),), (3,)),
]


@pytest.mark.parametrize("shape, idx, vshape", INDEX_PUT_CASES)
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("how", [None, "t", "step"])
def test_index_put(shape, idx, vshape, accumulate, how):
    t, c = layout(values(shape), how), ct_layout(values(shape), how)
    ix_t = idx()
    ix_c = tuple(ct_of(i) for i in ix_t)
    vt = values(vshape, seed=13)
    vc = ct_of(vt)
    check_same(c.index_put(ix_c, vc, accumulate=accumulate), t.index_put(ix_t, vt, accumulate=accumulate), c)
    check_same(ctensor.index_put(c, ix_c, vc, accumulate), torch.index_put(t, ix_t, vt, accumulate), c)
    ptr, ver = c.untyped_storage().data_ptr(), c._version
    assert ctensor.index_put_(c, ix_c, vc, accumulate) is c
    t.index_put_(ix_t, vt, accumulate)
    assert same_values(c, t) and c._version == ver + 1 and c.untyped_storage().data_ptr() == ptr


def test_index_put_duplicates_accumulate():
    t = torch.zeros(5)
    it = L(1, 1, 1, 4, 1)
    vt = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    c = ct_of(t)
    c.index_put_((ct_of(it),), ct_of(vt), accumulate=True)
    t.index_put_((it,), vt, accumulate=True)
    assert c.tolist() == t.tolist() == [0.0, 11.0, 0.0, 0.0, 4.0]


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64"])
def test_integer_accumulation_wraps_like_torch(dtype):
    """Sums and products past the dtype's range wrap around, as torch's kernels do.  They were
    signed overflow in C++ (undefined behaviour; the fuzzer found index_put_ with accumulate of
    two large int64 values under UBSan, which the sanitizer run of this file also checks)."""
    tdt = getattr(torch, dtype)
    big = torch.iinfo(tdt).max - 3
    t = torch.tensor([big, -big, big, 7], dtype=tdt)
    s = torch.tensor([big, -big, 5, big], dtype=tdt)
    i = torch.tensor([0, 1, 2, 0])
    c, sc, ic = ct_of(t), ct_of(s), ct_of(i)
    check_same(c.clone().index_put_((ic,), sc, accumulate=True), t.clone().index_put_((i,), s, accumulate=True))
    check_same(c.index_add(0, ic, sc), t.index_add(0, i, s))
    check_same(c.index_add(0, ic, sc, alpha=3), t.index_add(0, i, s, alpha=3))
    check_same(c.scatter_add(0, ic, sc), t.scatter_add(0, i, s))
    check_same(c.scatter(0, ic, sc, reduce="multiply"), t.scatter(0, i, s, reduce="multiply"))
    check_same(c.scatter_reduce(0, ic, sc, "prod"), t.scatter_reduce(0, i, s, "prod"))
    check_same(c.scatter_reduce(0, ic, sc, "sum", include_self=False), t.scatter_reduce(0, i, s, "sum", include_self=False))
    check_same(c.put(ic, sc, accumulate=True), t.put(i, s, accumulate=True))


def outcome(f):
    """(exception class name, first line of its message) or the result."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", f())
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return (type(e).__name__, str(e).split("\n")[0].split(" (Triggered")[0])


def error_cases(m):
    """(name, thunk) pairs written once against module m (torch or ctensor) and a converter."""
    x = m.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    i = m.tensor([[0, 1, 2], [2, 1, 0]])
    t = m.tensor
    f64 = m.float64
    i32 = m.int32
    return [
        ("gather oob", lambda: m.gather(x, 1, t([[5]]))),
        ("gather neg", lambda: m.gather(x, 1, t([[-1]]))),
        ("gather float index", lambda: m.gather(x, 1, t([[1.0]]))),
        ("gather ndim", lambda: m.gather(x, 1, t([1]))),
        ("gather size", lambda: m.gather(x, 1, m.zeros(3, 3, dtype=m.int64))),
        ("gather dim", lambda: m.gather(x, 3, i)),
        ("scatter dtype", lambda: x.scatter(1, i, m.ones(2, 3, dtype=f64))),
        ("scatter oob", lambda: x.scatter(1, t([[7]]), 1.0)),
        ("scatter reduce", lambda: x.scatter(1, i, m.ones(2, 3), reduce="mean")),
        ("scatter src size", lambda: x.scatter(1, i, m.ones(1, 3))),
        ("scatter ndim", lambda: x.scatter(1, i[0], x)),
        ("scatter_add size", lambda: x.scatter_add(1, m.zeros(3, 3, dtype=m.int64), m.ones(3, 3))),
        ("scatter_add dtype", lambda: x.scatter_add(1, i, m.ones(2, 3, dtype=f64))),
        ("scatter value overflow", lambda: m.zeros(3, dtype=m.uint8).scatter(0, t([0]), 300)),
        ("index_add oob", lambda: x.index_add(0, t([0, 5]), m.ones(2, 3))),
        ("index_add neg", lambda: x.index_add(0, t([-1]), m.ones(1, 3))),
        ("index_add float index", lambda: x.index_add(0, t([0.0, 1]), m.ones(2, 3))),
        ("index_add dtype", lambda: x.index_add(0, t([0, 1]), m.ones(2, 3, dtype=f64))),
        ("index_add shape", lambda: x.index_add(0, t([0, 1]), m.ones(2, 4))),
        ("index_add count", lambda: x.index_add(0, t([0, 1]), m.ones(3, 3))),
        ("index_add 2-d index", lambda: x.index_add(0, t([[0]]), x[:1])),
        ("index_add 1-d source", lambda: x.index_add(0, t([0, 1]), m.ones(2))),
        ("index_add alpha", lambda: m.zeros(3, dtype=m.uint8).index_add(0, t([0]), m.ones(1, dtype=m.uint8), alpha=300)),
        ("index_copy oob", lambda: x.index_copy(0, t([0, 5]), m.ones(2, 3))),
        ("index_copy neg", lambda: x.index_copy(0, t([-1]), m.ones(1, 3))),
        ("index_copy int32", lambda: x.index_copy(0, t([0, 1], dtype=i32), m.ones(2, 3))),
        ("index_copy dtype", lambda: x.index_copy(0, t([0, 1]), m.ones(2, 3, dtype=f64))),
        ("index_copy 2-d index", lambda: x.index_copy(0, t([[0]]), x[:1])),
        ("index_copy slice", lambda: x.index_copy(0, t([0, 1]), m.ones(2, 4))),
        ("index_copy count", lambda: x.index_copy(0, t([0, 1]), m.ones(3, 3))),
        ("index_copy ndim", lambda: x.index_copy(0, t([0, 1]), m.ones(2))),
        ("index_fill oob", lambda: x.index_fill(0, t([0, 5]), 1.0)),
        ("index_fill neg oob", lambda: x.index_fill(0, t([-3]), 1.0)),
        ("index_fill int32", lambda: x.index_fill(0, t([0, 1], dtype=i32), 1.0)),
        ("index_fill 1-d value", lambda: x.index_fill(0, t([0, 1]), t([2.0]))),
        ("index_fill 2-d index", lambda: x.index_fill(0, t([[0]]), 1.0)),
        ("index_fill overflow", lambda: m.zeros(3, dtype=m.uint8).index_fill(0, t([0]), 300)),
        ("take oob", lambda: m.take(x, t([7]))),
        ("take neg oob", lambda: m.take(x, t([-7]))),
        ("take int32", lambda: m.take(x, t([1], dtype=i32))),
        ("put oob", lambda: x.put(t([7]), t([1.0]))),
        ("put dtype", lambda: x.put(t([1]), t([1.0], dtype=f64))),
        ("put count", lambda: x.put(t([1, 2]), t([1.0]))),
        ("put int32", lambda: x.put(t([1], dtype=i32), t([1.0]))),
        ("index_put oob", lambda: x.index_put((t([0, 5]),), t(1.0))),
        ("index_put neg oob", lambda: x.index_put((t([-3]),), m.ones(3))),
        ("index_put dtype", lambda: x.index_put((t([0, 1]),), t(1.0, dtype=f64))),
        ("index_put too many", lambda: x.index_put((t([0]), t([0, 1]), t([0])), t(1.0))),
        ("index_put broadcast", lambda: x.index_put((t([0, 1]), t([0, 1, 2])), t(1.0))),
        ("index_put values", lambda: x.index_put((t([[0], [1]]), t([0, 1, 2])), m.ones(2, 2))),
        ("index_put mask", lambda: x.index_put((t([True, False, True]),), m.ones(3))),
        ("index_put float", lambda: x.index_put((t([0.0]),), m.ones(3))),
        ("expanded scatter_", lambda: x.expand(3, 2, 3).scatter_(0, m.zeros(1, 1, 1, dtype=m.int64), 1.0)),
        ("expanded index_add_", lambda: x.expand(3, 2, 3).index_add_(0, t([0]), m.ones(1, 2, 3))),
        ("expanded put_", lambda: x.expand(3, 2, 3).put_(t([0]), m.ones(1))),
    ]


@pytest.mark.parametrize("k", range(len(error_cases(torch))) if torch else [])
def test_errors_match_torch(k):
    name, ft = error_cases(torch)[k]
    _, fc = error_cases(ctensor)[k]
    ot, oc = outcome(ft), outcome(fc)
    assert ot[0] != "ok", name
    assert oc[0] == ot[0] and oc[1] == ot[1], (name, oc, ot)


def test_overlap_with_self_refused_like_torch():
    for m in (torch, ctensor):
        y = m.zeros(5)
        for f in (lambda: y.index_add_(0, m.tensor([0, 1]), y[1:3]),
                  lambda: y.scatter_(0, m.tensor([0, 1]), y[1:3]),
                  lambda: y.scatter_add_(0, m.tensor([0, 1]), y[1:3]),
                  lambda: y.index_copy_(0, m.tensor([0, 1]), y[1:3]),
                  lambda: y.put_(m.tensor([0, 1]), y[1:3]),
                  lambda: y.index_put_((m.tensor([0, 1]),), y[1:3])):
            assert outcome(f) == ("RuntimeError", "unsupported operation: some elements of the input tensor and the "
                                  "written-to tensor refer to a single memory location. Please clone() the tensor "
                                  "before performing the operation.")


def test_expanded_self_refused_where_torch_warns():
    # torch 2.13 only warns for index_fill_ / index_put_ on an expanded tensor and writes
    # through the shared memory; ctensor refuses it, as every other in-place op.
    c = ctensor.zeros(2, 3).expand(3, 2, 3)
    for f in (lambda: c.index_fill_(0, ctensor.tensor([0]), 1.0),
              lambda: c.index_put_((ctensor.tensor([0]),), ctensor.ones(1))):
        assert outcome(f)[0] == "RuntimeError" and "more than one element of the written-to tensor" in outcome(f)[1]


def test_failed_in_place_leaves_self_unchanged():
    c = ctensor.zeros(4)
    v = c._version
    with pytest.raises(RuntimeError):
        c.scatter_(0, ctensor.tensor([0, 1, 9]), 5.0)
    with pytest.raises(IndexError):
        c.index_put_((ctensor.tensor([0, 1, 9]),), ctensor.tensor(5.0))
    assert c.tolist() == [0.0] * 4 and c._version == v


def grad_cases(m, x, y):
    """(name, f(x, y)) with x (3, 4) and y (3, 4) requiring grad."""
    t = m.tensor
    i = t([[0, 1, 2, 0], [2, 1, 0, 0], [1, 1, 1, 2]])
    return [
        ("gather", lambda: m.gather(x, 1, t([[0, 3], [1, 1], [2, 0]]))),
        ("scatter src", lambda: x.scatter(0, i, y)),
        ("scatter value", lambda: x.scatter(0, i, 2.0)),
        ("scatter_add", lambda: x.scatter_add(0, i, y)),
        ("index_add", lambda: x.index_add(0, t([2, 0, 2]), y, alpha=3)),
        ("index_copy", lambda: x.index_copy(1, t([3, 0]), y[:, :2])),
        ("index_fill", lambda: x.index_fill(1, t([3, 0]), 2.0)),
        ("index_fill tensor", lambda: x.index_fill(1, t([3, 0]), y[0, 0])),
        ("take", lambda: x.take(t([0, 5, 5, -1]))),
        ("put", lambda: x.put(t([0, 5, 5]), y[0, :3])),
        ("put acc", lambda: x.put(t([0, 5, 5]), y[0, :3], accumulate=True)),
        ("index_put", lambda: x.index_put((t([0, 2, 0]),), y[0])),
        ("index_put acc", lambda: x.index_put((t([0, 2, 0]), t([1, 1, 1])), y[0, 0], accumulate=True)),
        ("index_put mask", lambda: x.index_put((x.detach() > 0,), y[1, 1])),
        ("scatter_ in place", lambda: (x * 1).scatter_(0, i, y)),
        ("index_add_ in place", lambda: (x * 1).index_add_(0, t([2, 0, 2]), y)),
        ("index_put_ in place", lambda: (x * 1).index_put_((t([1]),), y[2])),
        ("put_ in place", lambda: (x * 1).put_(t([1]), y[2, :1])),
        ("index_fill_ in place", lambda: (x * 1).index_fill_(0, t([1]), 3.0)),
        ("index_copy_ in place", lambda: (x * 1).index_copy_(0, t([1]), y[:1])),
        ("scatter_add_ in place", lambda: (x * 1).scatter_add_(1, i, y)),
    ]


@pytest.mark.parametrize("k", range(21))
def test_grads_match_torch(k):
    vals = values((3, 4), seed=21).tolist()
    wals = values((3, 4), seed=22).tolist()
    xt, yt = torch.tensor(vals, requires_grad=True), torch.tensor(wals, requires_grad=True)
    xc, yc = ctensor.tensor(vals, requires_grad=True), ctensor.tensor(wals, requires_grad=True)
    name, ft = grad_cases(torch, xt, yt)[k]
    _, fc = grad_cases(ctensor, xc, yc)[k]
    rt, rc = ft(), fc()
    assert rc.grad_fn.name() == rt.grad_fn.name(), name
    w = values(tuple(rt.shape), seed=23)
    (rt * w).sum().backward()
    (rc * ct_of(w)).sum().backward()
    for a, b in ((xc, xt), (yc, yt)):
        assert (a.grad is None) == (b.grad is None), name
        if b.grad is not None:
            assert a.grad.tolist() == b.grad.tolist(), name


def test_scatter_reduce_has_no_derivative():
    x = ctensor.ones(2, 3, requires_grad=True)
    r = x.scatter(1, ctensor.tensor([[0], [1]]), 2.0, reduce="add")
    assert r.grad_fn.name() == torch.ones(2, 3, requires_grad=True).scatter(
        1, torch.tensor([[0], [1]]), 2.0, reduce="add").grad_fn.name()
    with pytest.raises(RuntimeError):
        r.sum().backward()


def test_leaf_in_place_refused():
    x = ctensor.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x.index_fill_(0, ctensor.tensor([0]), 2.0)


def test_in_place_through_a_view_records_copy_slices_like_torch():
    out = {}
    for m in (torch, ctensor):
        a = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        b = a * 1
        v = b[1]
        v.index_fill_(0, m.tensor([0]), 9.0)
        v.scatter_add_(0, m.tensor([2, 2]), a[0, :2])
        b.sum().backward()
        out[m.__name__] = (b.grad_fn.name(), b.tolist(), a.grad.tolist(), b._version)
    assert out["ctensor"] == out["torch"]


def test_gather_same_result_on_one_thread():
    t = values((3000, 8), seed=31)
    i = indices((3000, 8), 3000, seed=32)
    n = ctensor._C.ct_get_num_threads()
    try:
        ctensor._C.ct_set_num_threads(1)
        one = ctensor.gather(ct_of(t), 0, ct_of(i))
    finally:
        ctensor._C.ct_set_num_threads(n)
    check_same(one, torch.gather(t, 0, i))
    check_same(ctensor.gather(ct_of(t), 0, ct_of(i)), torch.gather(t, 0, i))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_gather_past_the_streaming_threshold(dtype):
    # Outputs over 8 MB of 4- and 8-byte elements are written with streaming stores; the
    # 3-D case merges its two outer dims into one row loop.
    for shape, ishape, dim in (((600_000, 16), (600_000, 4), 1), ((2, 300_000, 16), (2, 300_000, 4), 2),
                               ((700_000, 4), (700_000, 4), 0)):
        t = values(shape, getattr(torch, dtype), seed=41)
        i = indices(ishape, shape[dim], seed=42)
        c, ic = ctensor.from_numpy(t.numpy()), ctensor.from_numpy(i.numpy())
        rc, rt = ctensor.gather(c, dim, ic), torch.gather(t, dim, i)
        assert tuple(rc.shape) == tuple(rt.shape) and rc.stride() == rt.stride()
        assert (rc.numpy() == rt.numpy()).all()
    t = values((600_000, 16), getattr(torch, dtype), seed=43)
    i = indices((600_000, 4), 16, seed=44)
    i[123_456, 2] = 16
    with pytest.raises(RuntimeError, match="index 16 is out of bounds for dimension 1 with size 16"):
        torch.gather(t, 1, i)
    with pytest.raises(RuntimeError, match="index 16 is out of bounds for dimension 1 with size 16"):
        ctensor.gather(ctensor.from_numpy(t.numpy()), 1, ctensor.from_numpy(i.numpy()))
