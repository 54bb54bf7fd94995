"""Memory formats, differential against torch 2.13: the format objects, contiguous / is_contiguous /
clone / to / empty / empty_strided / *_like with memory_format=, the preserve rule, the layout of
elementwise and reduction results, errors and autograd nodes; then PyTorch's own memory-format
tests of test/test_torch.py that apply (test_memory_format_*), ported."""

import copy
import pickle
import random

import pytest

import ctensor
from ctutil import same_values

torch = pytest.importorskip("torch")

FORMATS = ["contiguous_format", "channels_last", "channels_last_3d", "preserve_format"]

# Inputs built by the same calls in both libraries: m is ctensor or torch.
INPUTS = {
    "contig4": lambda m: m.arange(120.).reshape(2, 3, 4, 5),
    "cl4": lambda m: m.arange(120.).reshape(2, 3, 4, 5).contiguous(memory_format=m.channels_last),
    "nhwc_permute": lambda m: m.arange(120.).reshape(2, 4, 5, 3).permute(0, 3, 1, 2),
    "permute4": lambda m: m.arange(120.).reshape(2, 3, 4, 5).permute(3, 1, 0, 2),
    "cl4_sliced": lambda m: m.arange(240.).reshape(2, 3, 8, 5).contiguous(memory_format=m.channels_last)[:, :, ::2],
    "cl4_narrow_c": lambda m: m.arange(240.).reshape(2, 6, 4, 5).contiguous(memory_format=m.channels_last)[:, 1:4],
    "expanded4": lambda m: m.arange(15.).reshape(1, 3, 1, 5).expand(2, 3, 4, 5),
    "expanded_c": lambda m: m.arange(3.).reshape(1, 3, 1, 1).expand(2, 3, 4, 5),
    "nc11": lambda m: m.arange(6.).reshape(2, 3, 1, 1),
    "nc11_cl": lambda m: m.arange(6.).reshape(2, 3, 1, 1).clone(memory_format=m.channels_last),
    "n1hw": lambda m: m.arange(40.).reshape(2, 1, 4, 5),
    "n1hw_cl": lambda m: m.arange(40.).reshape(2, 1, 4, 5).clone(memory_format=m.channels_last),
    "n111": lambda m: m.arange(2.).reshape(2, 1, 1, 1),
    "1c11": lambda m: m.arange(3.).reshape(1, 3, 1, 1),
    "1c1w_t": lambda m: m.arange(15.).reshape(1, 3, 1, 5).transpose(1, 3),
    "n11w_sliced": lambda m: m.arange(40.).reshape(2, 1, 4, 5)[:, :, :1],
    "empty_c": lambda m: m.zeros(2, 0, 4, 5),
    "empty_n_cl": lambda m: m.zeros(0, 3, 4, 5).contiguous(memory_format=m.channels_last),
    "contig5": lambda m: m.arange(720.).reshape(2, 3, 4, 5, 6),
    "cl5": lambda m: m.arange(720.).reshape(2, 3, 4, 5, 6).contiguous(memory_format=m.channels_last_3d),
    "permute5": lambda m: m.arange(720.).reshape(2, 4, 5, 6, 3).permute(0, 4, 1, 2, 3),
    "cl5_sliced": lambda m: m.arange(720.).reshape(2, 3, 4, 5, 6).contiguous(
        memory_format=m.channels_last_3d)[..., ::2, :],
    "nc111": lambda m: m.arange(6.).reshape(2, 3, 1, 1, 1),
    "t2": lambda m: m.arange(12.).reshape(3, 4).t(),
    "perm3": lambda m: m.zeros(2, 3, 4).permute(2, 0, 1),
    "step3": lambda m: m.arange(48.).reshape(4, 3, 4)[::2, :, 1:],
    "scalar": lambda m: m.tensor(3.),
}


def fmt(m, name):
    return getattr(m, name)


def outcome(fn):
    """(result, None) or (None, (exception type name, message with torch. spelled ctensor.))."""
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 - the type is compared
        return None, (type(e).__name__, str(e).replace("torch.", "ctensor."))


def same_geometry(c, t):
    assert tuple(c.shape) == tuple(t.shape)
    assert c.stride() == t.stride(), (c.stride(), t.stride())
    assert c.storage_offset() == t.storage_offset()
    assert c.dtype.itemsize == t.dtype.itemsize


def check_same(fn, name, values=True):
    c_in, t_in = INPUTS[name](ctensor), INPUTS[name](torch)
    (c, ce), (t, te) = outcome(lambda: fn(ctensor, c_in)), outcome(lambda: fn(torch, t_in))
    assert ce == te
    if te is not None:
        return
    results = zip(c, t) if isinstance(t, tuple) else [(c, t)]
    for cr, tr in results:
        if isinstance(tr, bool):
            assert cr == tr
            continue
        same_geometry(cr, tr)
        assert (cr is c_in) == (tr is t_in)  # returned as is or a new tensor
        if values:
            assert same_values(cr, tr)


# ---- the objects ----------------------------------------------------------------------------

def test_format_objects():
    for name in FORMATS:
        f = getattr(ctensor, name)
        assert repr(f) == repr(getattr(torch, name)).replace("torch.", "ctensor.")
        assert str(f) == repr(f)
        assert isinstance(f, ctensor.memory_format)
        assert pickle.loads(pickle.dumps(f)) is f
        assert copy.deepcopy(f) is f and copy.copy(f) is f
        assert f == f and hash(f) == hash(f)
    assert ctensor.channels_last != ctensor.contiguous_format
    with pytest.raises(TypeError, match="cannot create 'ctensor.memory_format' instances"):
        ctensor.memory_format()


@pytest.mark.parametrize("bad", [1, "channels_last", None])
def test_wrong_type_messages(bad):
    x, tx = ctensor.zeros(2, 3, 4, 5), torch.zeros(2, 3, 4, 5)
    for call in (lambda t: t.contiguous(memory_format=bad), lambda t: t.is_contiguous(memory_format=bad)):
        (c, ce), (t, te) = outcome(lambda: call(x)), outcome(lambda: call(tx))
        assert ce == te
    if bad is not None:
        for call in (lambda m, t: t.clone(memory_format=bad), lambda m, t: m.empty_like(t, memory_format=bad)):
            (c, ce), (t, te) = outcome(lambda: call(ctensor, x)), outcome(lambda: call(torch, tx))
            assert ce is not None and ce[0] == te[0] == "TypeError"


# ---- queries ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", INPUTS)
def test_is_contiguous(name):
    for f in FORMATS:
        check_same(lambda m, x: x.is_contiguous(memory_format=fmt(m, f)), name)
    check_same(lambda m, x: x.is_contiguous(), name)


# ---- copies -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("f", FORMATS)
def test_contiguous(name, f):
    check_same(lambda m, x: x.contiguous(memory_format=fmt(m, f)), name)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("f", FORMATS)
def test_clone(name, f):
    check_same(lambda m, x: x.clone(memory_format=fmt(m, f)), name)
    check_same(lambda m, x: m.clone(x, memory_format=fmt(m, f)), name)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("f", FORMATS)
def test_to(name, f):
    check_same(lambda m, x: x.to(memory_format=fmt(m, f)), name)
    check_same(lambda m, x: x.to(m.float64, memory_format=fmt(m, f)), name)
    check_same(lambda m, x: x.to(dtype=m.int32, memory_format=fmt(m, f)), name)
    check_same(lambda m, x: x.to(memory_format=fmt(m, f), copy=True), name)


@pytest.mark.parametrize("name", INPUTS)
def test_clone_and_to_defaults_preserve(name):
    check_same(lambda m, x: x.clone(), name)
    check_same(lambda m, x: x.to(m.float64), name)
    check_same(lambda m, x: x.to(copy=True), name)
    check_same(lambda m, x: x.contiguous(), name)


# ---- factories ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("f", FORMATS)
def test_like_factories(name, f):
    check_same(lambda m, x: m.empty_like(x, memory_format=fmt(m, f)), name, values=False)
    check_same(lambda m, x: m.zeros_like(x, memory_format=fmt(m, f)), name)
    check_same(lambda m, x: m.ones_like(x, dtype=m.int16, memory_format=fmt(m, f)), name)
    check_same(lambda m, x: m.full_like(x, 7.5, memory_format=fmt(m, f)), name)
    check_same(lambda m, x: m.full_like(x, 2**60, dtype=m.int64, memory_format=fmt(m, f)), name)


@pytest.mark.parametrize("name", INPUTS)
def test_like_factories_default(name):
    check_same(lambda m, x: m.empty_like(x), name, values=False)
    check_same(lambda m, x: m.zeros_like(x), name)
    check_same(lambda m, x: m.ones_like(x), name)
    check_same(lambda m, x: m.full_like(x, 3), name)


def test_empty_like_of_a_permutation():
    # the bug of issue 18
    assert ctensor.empty_like(ctensor.zeros(2, 3, 4).permute(2, 0, 1)).stride() == (1, 12, 4)
    assert torch.empty_like(torch.zeros(2, 3, 4).permute(2, 0, 1)).stride() == (1, 12, 4)


def test_like_results_are_fresh_leaves():
    x = ctensor.zeros(2, 3, 4, 5, requires_grad=True)
    for fn in (ctensor.empty_like, ctensor.zeros_like, ctensor.ones_like):
        r = fn(x, memory_format=ctensor.channels_last)
        assert not r.requires_grad and r._version == 0 and not r._is_view()
    r = ctensor.full_like(x, 2.0, memory_format=ctensor.channels_last, requires_grad=True)
    assert r.requires_grad and r.is_leaf
    assert ctensor.full_like(x, 2**60, dtype=ctensor.int64)._version == 0


@pytest.mark.parametrize("sizes", [(2, 3), (2, 3, 4), (2, 3, 4, 5), (2, 0, 4, 5), (0, 3, 4, 5), (2, 3, 4, 5, 6),
                                   (2, 3, 1, 1), (2, 0, 4, 5, 6)])
@pytest.mark.parametrize("f", FORMATS)
def test_empty(sizes, f):
    (c, ce), (t, te) = (outcome(lambda: ctensor.empty(sizes, memory_format=fmt(ctensor, f))),
                        outcome(lambda: torch.empty(sizes, memory_format=fmt(torch, f))))
    assert ce == te
    if t is not None:
        same_geometry(c, t)
        assert c.untyped_storage().nbytes() == t.untyped_storage().nbytes()


@pytest.mark.parametrize("size,stride", [((2, 3), (1, 2)), ((2, 3), (0, 0)), ((2, 3), (3, 1)), ((2, 3, 4, 5), (60, 1, 15, 3)),
                                         ((2, 3), (7, 2)), ((2, 0), (5, 7)), ((1, 3), (-1, 1)), ((0, 3), (-1, 1)),
                                         ((2, 3), (-1, 1)), ((2, -3), (1, 1)), ((2, 3), (1,)), ((2, 3), (2**62, 1)),
                                         ((), ()), ((5,), (3,))])
def test_empty_strided(size, stride):
    (c, ce), (t, te) = (outcome(lambda: ctensor.empty_strided(size, stride)),
                        outcome(lambda: torch.empty_strided(size, stride)))
    assert ce == te
    if t is not None:
        same_geometry(c, t)
        assert c.untyped_storage().nbytes() == t.untyped_storage().nbytes()
        assert c.dtype is ctensor.float32


def test_empty_strided_dtype_and_grad():
    c = ctensor.empty_strided((2, 3), (1, 2), dtype=ctensor.float64, requires_grad=True)
    assert c.dtype is ctensor.float64 and c.requires_grad and c.stride() == (1, 2)


# ---- elementwise and reduction layouts ------------------------------------------------------------

BINARY_PARTNERS = {
    "contig": lambda m, x: m.ones(tuple(x.shape)),
    "cl": lambda m, x: m.ones(tuple(x.shape)).contiguous(
        memory_format=m.channels_last if x.dim() == 4 else m.channels_last_3d) if x.dim() in (4, 5) else m.ones(tuple(x.shape)),
    "bias": lambda m, x: m.ones((x.shape[1],) + (1,) * (x.dim() - 2)) if x.dim() >= 3 else m.ones(x.shape[-1:]),
    "last": lambda m, x: m.ones(x.shape[-1:]) if x.dim() else m.ones(()),
    "zero_dim": lambda m, x: m.tensor(2.),
    "int_cl": lambda m, x: m.ones(tuple(x.shape), dtype=m.int32).contiguous(
        memory_format=m.channels_last) if x.dim() == 4 else m.ones(tuple(x.shape), dtype=m.int32),
}


@pytest.mark.parametrize("name", INPUTS)
def test_unary_layouts(name):
    check_same(lambda m, x: x + 1, name)
    check_same(lambda m, x: x * 2.0, name)
    check_same(lambda m, x: -x, name)
    check_same(lambda m, x: x.exp(), name, values=False)
    check_same(lambda m, x: x.relu(), name)
    check_same(lambda m, x: x > 3, name)
    check_same(lambda m, x: x.to(m.int32) + 1, name)
    check_same(lambda m, x: x ** 2, name)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("partner", BINARY_PARTNERS)
def test_binary_layouts(name, partner):
    p = BINARY_PARTNERS[partner]
    check_same(lambda m, x: x + p(m, x), name)
    check_same(lambda m, x: p(m, x) + x, name)
    check_same(lambda m, x: x * p(m, x), name)
    check_same(lambda m, x: x - p(m, x).to(x.dtype), name)
    check_same(lambda m, x: x / p(m, x), name)
    check_same(lambda m, x: m.where(x > 3, x, p(m, x).to(x.dtype)), name)
    check_same(lambda m, x: m.where(p(m, x) > 0, p(m, x).to(x.dtype), x), name)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("partner", ["contig", "cl", "bias", "zero_dim"])
def test_inplace_keeps_self_layout(name, partner):
    p = BINARY_PARTNERS[partner]

    def op(m, x):
        y = x.clone()
        y.add_(p(m, x))
        y.mul_(2)
        y.exp_()
        return y
    check_same(op, name, values=False)


@pytest.mark.parametrize("name", [n for n in INPUTS if n not in ("scalar",)])
def test_reduction_layouts(name):
    nd = INPUTS[name](torch).dim()
    for dims in [(0,), (1,), (nd - 1,), tuple(range(1, nd)), tuple(range(2, nd))]:
        if not dims:
            continue
        for keep in (True, False):
            check_same(lambda m, x: x.sum(dims, keepdim=keep), name)
            check_same(lambda m, x: x.mean(dims, keepdim=keep), name)
            check_same(lambda m, x: x.amax(dims, keepdim=keep), name)
    check_same(lambda m, x: x.argmax(1, keepdim=True), name)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("partner", ["same", "contig", "cl", "empty_1d"])
def test_cat_and_stack_layouts(name, partner):
    """cat lays its result out in the inputs' common suggested format (contiguous when one is
    contiguous or two differ, skipped 1-d empties included); stack is cat along the dim, split by
    a view, or cat of unsqueezed inputs for the new last dim; neither result is a view."""
    others = {"same": lambda m, x: x.clone(),
              "contig": lambda m, x: x.contiguous(),
              "cl": lambda m, x: x.contiguous(memory_format=m.channels_last) if x.dim() == 4 else x,
              "empty_1d": lambda m, x: m.zeros(0)}
    other = others[partner]
    if partner != "empty_1d":
        for d in range(-1, INPUTS[name](torch).dim() + 1):
            check_same(lambda m, x: m.stack([x, other(m, x)], d), name)
            check_same(lambda m, x: m.stack([x, other(m, x)], d)._base is None, name)
    for d in range(max(INPUTS[name](torch).dim(), 1)):
        check_same(lambda m, x: m.cat([x, other(m, x)], d), name)
        check_same(lambda m, x: m.cat([other(m, x), x, x], d), name)


# ---- autograd ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["contig4", "cl4", "nhwc_permute", "cl4_sliced", "contig5", "t2"])
def test_autograd_nodes_and_grads(name):
    c_in = INPUTS[name](ctensor).detach().requires_grad_(True)
    t_in = INPUTS[name](torch).detach().requires_grad_(True)
    ops = [lambda m, x: x.clone(memory_format=m.contiguous_format),
           lambda m, x: x.contiguous(),
           lambda m, x: x.to(memory_format=m.contiguous_format, copy=True),
           lambda m, x: x.to(m.float64, memory_format=m.contiguous_format)]
    if c_in.dim() == 4:
        ops += [lambda m, x: x.clone(memory_format=m.channels_last),
                lambda m, x: x.contiguous(memory_format=m.channels_last),
                lambda m, x: x.to(memory_format=m.channels_last)]
    for op in ops:
        c, t = op(ctensor, c_in), op(torch, t_in)
        assert (c is c_in) == (t is t_in)
        c_name = None if c.grad_fn is None else c.grad_fn.name()
        assert c_name == (None if t.grad_fn is None else t.grad_fn.name())
        if c is not c_in:
            (c * ctensor.arange(float(c.numel())).reshape(tuple(c.shape)).to(c.dtype)).sum().backward()
            (t * torch.arange(float(t.numel())).reshape(tuple(t.shape)).to(t.dtype)).sum().backward()
            assert c_in.grad.tolist() == t_in.grad.tolist()
            c_in.grad = None
            t_in.grad = None


# ---- explain ----------------------------------------------------------------------------------------

def test_explain_names_the_format():
    x = ctensor.zeros(2, 3, 4, 5)
    from ctensor import _explain
    text = _explain.explain_text(x.contiguous(memory_format=ctensor.channels_last))
    assert "memory format: channels_last; suggested for new tensors like it: channels_last" in text
    text = _explain.explain_text(ctensor.zeros(2, 3, 1, 1))
    assert "memory format: contiguous_format and channels_last (size-1 dims make both match)" in text
    text = _explain.explain_text(x.contiguous(memory_format=ctensor.channels_last)[:, :, ::2])
    assert "memory format: none exactly; suggested for new tensors like it: channels_last" in text


# ---- PyTorch's test/test_torch.py memory-format tests, ported ---------------------------------------------

def test_memory_format_preserved_after_permute():
    x = ctensor.randn(4, 3, 8, 8)
    nhwc = x.contiguous(memory_format=ctensor.channels_last)
    y = nhwc.permute(0, 1, 3, 2).permute(0, 1, 3, 2)
    assert y.is_contiguous(memory_format=ctensor.channels_last)
    x = ctensor.randn(4, 3, 8, 8, 8)
    ndhwc = x.contiguous(memory_format=ctensor.channels_last_3d)
    y = ndhwc.permute(0, 1, 4, 3, 2).permute(0, 1, 4, 3, 2)
    assert y.is_contiguous(memory_format=ctensor.channels_last_3d)


def test_memory_format_propagation_rules():
    contiguous = ctensor.rand(10, 3, 5, 5)
    cl = ctensor.rand(10, 3, 5, 5).contiguous(memory_format=ctensor.channels_last)
    ambiguous = ctensor.rand(10, 3, 1, 1).contiguous(memory_format=ctensor.channels_last)
    assert ambiguous.is_contiguous(memory_format=ctensor.channels_last)
    assert ambiguous.is_contiguous(memory_format=ctensor.contiguous_format)
    bias = ctensor.rand(1, 1, 1, 1).contiguous(memory_format=ctensor.channels_last)

    def propagation_rules(contiguous, cl, ambiguous, bias):
        options = ((ambiguous, contiguous, ctensor.contiguous_format),
                   (ambiguous, cl, ctensor.channels_last),
                   (contiguous, ambiguous, ctensor.contiguous_format),
                   (contiguous, cl, ctensor.contiguous_format),
                   (cl, ambiguous, ctensor.channels_last),
                   (cl, contiguous, ctensor.channels_last),
                   (bias, cl, ctensor.channels_last),
                   (cl, bias, ctensor.channels_last))
        for a, b, mf in options:
            assert (a + b).is_contiguous(memory_format=mf)

    propagation_rules(contiguous, cl, ambiguous, bias)
    cl = cl.to(memory_format=ctensor.channels_last)
    ambiguous = ambiguous.to(memory_format=ctensor.channels_last)
    bias = bias.to(memory_format=ctensor.channels_last)
    propagation_rules(contiguous, cl, ambiguous, bias)
    # strides matter in ambiguous tensors
    for mf in (ctensor.channels_last, ctensor.contiguous_format):
        ambiguous = ctensor.rand(10, 3, 1, 1).to(memory_format=mf)
        bias = ctensor.rand(3, 1, 1)
        assert (ambiguous + bias).stride() == ambiguous.stride()
        assert (bias + ambiguous).stride() == ambiguous.stride()
        assert (ambiguous * 5).stride() == ambiguous.stride()


def test_memory_format_empty_like():
    def helper(x, memory_format):
        xc = x.contiguous(memory_format=memory_format)
        like = ctensor.empty_like(xc, memory_format=ctensor.preserve_format)
        assert not like.is_contiguous() and like.is_contiguous(memory_format=memory_format)
        like_x = ctensor.empty_like(x, memory_format=ctensor.preserve_format)
        assert like_x.is_contiguous() and not like_x.is_contiguous(memory_format=memory_format)
        like = ctensor.empty_like(x, memory_format=memory_format)
        assert not like.is_contiguous() and like.is_contiguous(memory_format=memory_format)
        like = ctensor.empty_like(xc, memory_format=ctensor.contiguous_format)
        assert like.is_contiguous() and not like.is_contiguous(memory_format=memory_format)
        like = ctensor.empty_like(xc)
        assert not like.is_contiguous() and like.is_contiguous(memory_format=memory_format)
    helper(ctensor.randn(4, 3, 8, 8), ctensor.channels_last)
    helper(ctensor.randn(4, 3, 8, 8, 8), ctensor.channels_last_3d)


def test_memory_format_contiguous_returns_same_tensor_if_already_satisfies():
    def helper(x, memory_format):
        alias = x.contiguous(memory_format=memory_format)
        alias.fill_(7)
        assert x.tolist() == alias.tolist()
    helper(ctensor.randn(4, 8, 10, 3).permute(0, 3, 1, 2), ctensor.channels_last)
    helper(ctensor.randn(4, 8, 8, 10, 3).permute(0, 4, 1, 2, 3), ctensor.channels_last_3d)


def test_memory_format_empty():
    def helper(dim1, dim2, memory_format):
        with pytest.raises(RuntimeError):
            ctensor.empty(dim1, memory_format=memory_format)
        x = ctensor.empty(dim2, memory_format=memory_format)
        assert x.is_contiguous(memory_format=memory_format)
    helper((3, 3), (3, 3, 3, 3), ctensor.channels_last)
    helper((3, 3, 3), (3, 3, 3, 3, 3), ctensor.channels_last_3d)


def _memory_format_transformations(input_generator_fn, transformation_fn, memory_format, compare_data=True,
                                   default_is_preserve=False):
    # test_torch.py's _test_memory_format_transformations
    xc = input_generator_fn()
    if memory_format == ctensor.channels_last:
        xc = xc[..., ::2, ::2]
    else:
        xc = xc[..., ::2, ::2, ::2]
    clone = transformation_fn(xc, memory_format=ctensor.preserve_format)
    assert not clone.is_contiguous()
    assert clone.is_contiguous(memory_format=memory_format)
    assert not xc.is_contiguous()
    assert not xc.is_contiguous(memory_format=memory_format)
    if compare_data:
        assert xc.tolist() == clone.to(xc).tolist()

    xc = input_generator_fn()
    clone = transformation_fn(xc, memory_format=ctensor.contiguous_format)
    assert clone.is_contiguous() and not clone.is_contiguous(memory_format=memory_format)
    if compare_data:
        assert xc.tolist() == clone.to(xc).tolist()

    xc = input_generator_fn()
    clone = transformation_fn(xc)
    if default_is_preserve:
        assert not clone.is_contiguous() and clone.is_contiguous(memory_format=memory_format)
    else:
        assert clone.is_contiguous() and not clone.is_contiguous(memory_format=memory_format)
    if compare_data:
        assert xc.tolist() == clone.to(xc).tolist()

    x = ctensor.randn(3, 4, 5, 6, 7, 8, 9)
    rng = random.Random(0)
    for _ in range(10):
        permutation = list(range(x.dim()))
        rng.shuffle(permutation)
        x = x.permute(permutation)
        assert x.stride() == transformation_fn(x, memory_format=ctensor.preserve_format).stride()


def _generator(memory_format, shape):
    return lambda: ctensor.randn(shape).contiguous(memory_format=memory_format)


FORMATS_SHAPES = [("channels_last", (4, 3, 8, 8)), ("channels_last_3d", (4, 3, 8, 8, 8))]


@pytest.mark.parametrize("mf,shape", FORMATS_SHAPES)
def test_memory_format_clone(mf, shape):
    _memory_format_transformations(_generator(fmt(ctensor, mf), shape), lambda t, **kw: t.clone(**kw),
                                   fmt(ctensor, mf), True, default_is_preserve=True)


@pytest.mark.parametrize("mf,shape", FORMATS_SHAPES)
def test_memory_format_to(mf, shape):
    _memory_format_transformations(_generator(fmt(ctensor, mf), shape),
                                   lambda t, **kw: t.to(dtype=ctensor.float64, **kw), fmt(ctensor, mf), True,
                                   default_is_preserve=True)


@pytest.mark.parametrize("mf,shape", FORMATS_SHAPES)
def test_memory_format_type(mf, shape):
    _memory_format_transformations(_generator(fmt(ctensor, mf), shape),
                                   lambda t, **kw: t.to(ctensor.float64, **kw), fmt(ctensor, mf), True,
                                   default_is_preserve=True)


@pytest.mark.parametrize("mf,shape", FORMATS_SHAPES)
@pytest.mark.parametrize("fn", [lambda t, **kw: ctensor.zeros_like(t, **kw), lambda t, **kw: ctensor.ones_like(t, **kw),
                                lambda t, **kw: ctensor.full_like(t, 7, **kw),
                                lambda t, **kw: ctensor.empty_like(t, **kw)])
def test_memory_format_factory_like_functions_preserve(mf, shape, fn):
    _memory_format_transformations(_generator(fmt(ctensor, mf), shape), fn, fmt(ctensor, mf), compare_data=False,
                                   default_is_preserve=True)


def test_channels_last_strides_past_int64_are_refused():
    """An empty tensor whose channels-last strides pass int64: torch refuses it ("Stride
    calculation overflowed") rather than giving strides that are not channels-last."""
    big = 2 ** 63 - 1
    for m in (ctensor, torch):
        x = m.empty((17, 6, 0, 5)).as_strided((17, 6, 0, big), (1, 1, 1, 1))
        with pytest.raises(RuntimeError, match="Stride calculation overflowed"):
            x.clone(memory_format=m.channels_last)
        with pytest.raises(RuntimeError, match="Stride calculation overflowed"):
            m.empty((17, 6, 0, big), memory_format=m.channels_last)
