"""Tensor.storage(), copy.copy, copy.deepcopy and pickle, differential against torch 2.13.

What is compared: which results share memory (with the source and with each other), strides,
storage offsets, values, dtypes, requires_grad / is_leaf / grad, the version of the result,
error types and texts; and torch's own view-test helpers (test/test_view_ops.py is_view_of,
is_view_of_same_base) run unchanged on ctensor tensors through t.storage()."""

import copy
import pickle
import warnings

import pytest

import ctensor as ct
from ctensor import _storage

torch = pytest.importorskip("torch")


def pair(fn):
    """fn(lib) for lib = torch and ctensor."""
    return fn(torch), fn(ct)


def geometry(t):
    return (tuple(t.shape), t.stride(), t.storage_offset(), str(t.dtype).rpartition(".")[2])


def same_memory(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def quietly(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


# ---- storage() -------------------------------------------------------------------------------

def test_storage_warns_once_like_torch():
    """torch warns on the first storage() of the process only; ctensor's flag is its own."""
    _storage._warned = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ct.ones(2).storage()
        ct.ones(2).storage()[0]
    assert len(caught) == 1
    w = caught[0]
    assert w.category is UserWarning and w.filename == __file__
    torch.storage._reset_warn_typed_storage_removal()
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        torch.ones(2).storage()
    assert str(w.message) == str(theirs[0].message)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                                   "float32", "float64"])
def test_storage_api(dtype):
    def make(lib):
        x = lib.arange(12).to(getattr(lib, dtype)).view(3, 4).t()[1:]
        return x, quietly(x.storage)

    (tx, ts), (cx, cs) = pair(make)
    assert cs.size() == ts.size() == len(cs) == len(ts) == 12
    assert cs.nbytes() == ts.nbytes() and cs.element_size() == ts.element_size()
    assert str(cs.dtype) == str(ts.dtype).replace("torch", "ctensor")
    assert str(cs.device) == str(ts.device) == "cpu"
    assert cs.tolist() == ts.tolist() and list(cs) == list(ts)
    assert cs.data_ptr() == cx.untyped_storage().data_ptr() == cs.untyped().data_ptr()
    assert cs.untyped().nbytes() == ts.untyped().nbytes()
    for i in (0, 5, 11, -1, -12):
        got, want = quietly(lambda: cs[i]), quietly(lambda: ts[i])
        assert type(got) is type(want) and got == want


def test_storage_objects_are_new_each_call():
    def make(lib):
        x = lib.zeros(2, 3)
        return quietly(x.storage), quietly(x.storage), quietly(x[1].storage)

    for s1, s2, s3 in pair(make):
        assert s1 is not s2 and s1.data_ptr() == s2.data_ptr() == s3.data_ptr()


def test_storage_element_errors_and_writes():
    def run(lib):
        x = lib.arange(6, dtype=lib.int16)
        s = quietly(x.storage)
        out = []
        for idx in (6, -7, "a", slice(1, 2)):
            try:
                quietly(lambda: s[idx])
            except Exception as e:  # noqa: BLE001 -- the type is compared
                out.append((type(e).__name__, str(e).split(" with ")[0].replace("torch.storage.", "").replace("ctensor.", "")))
        for idx, v in ((6, 1), (-7, 1)):
            try:
                quietly(lambda: s.__setitem__(idx, v))
            except Exception as e:  # noqa: BLE001
                out.append((type(e).__name__, str(e)))
        quietly(lambda: s.__setitem__(1, 42))
        quietly(lambda: s.__setitem__(-1, 2.7))  # converted as the tensor's setitem converts
        quietly(lambda: s.__setitem__(slice(2, 4), 9))
        return out, x.tolist()

    assert run(torch) == run(ct)


def test_storage_follows_writes_through_any_view():
    def run(lib):
        x = lib.zeros(4)
        s = quietly(x.storage)
        x[1:].add_(1)
        return s.tolist()

    assert run(torch) == run(ct)


def test_copying_a_storage_copies_its_memory():
    def run(lib):
        x = lib.arange(4.0)
        s = quietly(x.storage)
        c, d = copy.copy(s), copy.deepcopy(s)
        return (type(c).__name__, c.data_ptr() == s.data_ptr(), d.data_ptr() == s.data_ptr(), c.tolist(),
                d.tolist(), str(d.dtype).rpartition(".")[2])

    assert run(torch) == run(ct)


def test_empty_storage():
    def run(lib):
        s = quietly(lib.empty(0).storage)
        return s.size(), s.nbytes(), s.tolist()

    assert run(torch) == run(ct)


# torch's test/test_view_ops.py helpers (TestViewOps.is_view_of and is_view_of_same_base),
# as written there before untyped_storage(): through t.storage().data_ptr().
def is_view_of(base, other):
    if not other._is_view() or other is base or other._base is not base or base.device != other.device:
        return False
    if base.device.type == "cpu":
        if base.storage().data_ptr() != other.storage().data_ptr():
            return False
    return True


def is_view_of_same_base(v1, v2):
    if not v1._is_view() or v1 is v2:
        return False
    return v1._base is v2._base and v1.storage().data_ptr() == v2.storage().data_ptr()


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_view_ops_helpers_run_on_ctensor():
    def run(lib):
        t = lib.ones(5, 5)
        v = lib.unsqueeze(t, 1) if hasattr(lib, "unsqueeze") else t.unsqueeze(1)
        a, b = t[1:], t.t()
        c = t.clone()
        return (is_view_of(t, v), is_view_of(t, a), is_view_of(a, t), is_view_of(t, c), is_view_of(t, t),
                is_view_of_same_base(a, b), is_view_of_same_base(a, a), is_view_of_same_base(c, a),
                is_view_of(t, t.detach()))

    assert run(torch) == run(ct)


# ---- copy.copy -------------------------------------------------------------------------------

def test_copy_copy_shares_storage_and_geometry():
    def run(lib):
        x = lib.arange(12.).view(3, 4).t()[1:]
        c = copy.copy(x)
        shares = c.data_ptr() == x.data_ptr() and same_memory(c, x)
        c[0, 0] = 100.0
        return (c is x, shares, geometry(c), c._base is None, c._is_view(), c.is_leaf, c.requires_grad,
                x[0, 0].item(), type(c).__name__)

    assert run(torch) == run(ct)


def test_copy_copy_of_tensors_in_a_graph():
    def run(lib):
        r = lib.ones(3, requires_grad=True)
        r.grad = lib.full((3,), 5.0)
        y = r * 2
        cr, cy = copy.copy(r), copy.copy(y)
        return ((cr.requires_grad, cr.is_leaf, cr.grad, same_memory(cr, r)),
                (cy.requires_grad, cy.is_leaf, cy.grad_fn, same_memory(cy, y)))

    assert run(torch) == run(ct)


# ---- copy.deepcopy ---------------------------------------------------------------------------

def test_deepcopy_keeps_sharing_within_one_call():
    def run(lib):
        b = lib.arange(12.).view(3, 4)
        d = copy.deepcopy([b, b.t(), b[1:, 2], b[0]])
        new_memory = not same_memory(d[0], b)
        shared = [same_memory(d[0], t) for t in d]
        versions = [t._version for t in d]  # 1 each: torch makes them with set_
        d[0][0, 0] = 100.0
        seen = (d[1][0, 0].item(), d[3][0].item(), b[0, 0].item())
        again = copy.deepcopy(b)  # another call: its own storage
        return ([geometry(t) for t in d], new_memory, shared, seen, not same_memory(again, d[0]),
                [t._base is None for t in d], versions, d[0].untyped_storage().nbytes())

    assert run(torch) == run(ct)


def test_deepcopy_of_a_view_copies_the_whole_storage():
    def run(lib):
        x = lib.arange(12.).view(3, 4).t()[1:]
        d = copy.deepcopy(x)
        return geometry(d), d.untyped_storage().nbytes(), d.tolist(), d._is_view()

    assert run(torch) == run(ct)


def test_deepcopy_same_object_twice_and_grads():
    def run(lib):
        r = lib.ones(3, requires_grad=True)
        r.grad = lib.full((3,), 5.0)
        d = copy.deepcopy([r, r])
        return (d[0] is d[1], d[0].requires_grad, d[0].is_leaf, d[0].grad.tolist(), same_memory(d[0].grad, r.grad),
                same_memory(d[0], r), copy.deepcopy(r.detach()).requires_grad)

    assert run(torch) == run(ct)


def test_deepcopy_refuses_non_leaves_as_torch():
    def run(lib):
        r = lib.ones(3, requires_grad=True)
        out = []
        for make in (lambda: r * 2, lambda: r[1:]):
            try:
                copy.deepcopy(make())
                out.append(None)
            except RuntimeError as e:
                out.append(str(e))
        with lib.no_grad():
            ok = copy.deepcopy(r * 2).requires_grad  # made without a graph: a leaf
        return out, ok

    got, want = run(ct), run(torch)
    assert got == want and want[0][0].startswith("Only Tensors created explicitly by the user")


# ---- pickle ----------------------------------------------------------------------------------

def test_pickle_keeps_strides_offset_and_the_storage():
    def run(lib):
        x = lib.arange(12.).view(3, 4).t()[1:]
        p = pickle.loads(pickle.dumps(x))
        return geometry(p), p.tolist(), p.untyped_storage().nbytes(), p._base is None, p._version

    assert run(torch) == run(ct)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                                   "float32", "float64"])
def test_pickle_dtypes(dtype):
    def run(lib):
        t = (lib.arange(6) - 2).to(getattr(lib, dtype)).view(2, 3).t()
        p = pickle.loads(pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL))
        return geometry(p), p.tolist()

    assert run(torch) == run(ct)


def test_pickle_special_shapes():
    def run(lib):
        out = []
        for t in (lib.tensor(3.0), lib.empty(0, 3), lib.ones(3).expand(2, 3), lib.zeros(2, 1, 3)[:, :, 1:]):
            p = pickle.loads(pickle.dumps(t))
            out.append((geometry(p), p.tolist(), p.untyped_storage().nbytes()))
        return out

    assert run(torch) == run(ct)


def test_pickle_sharing_within_one_dump_is_torchs():
    """The same tensor object stays one object; two tensors on one storage do not share after
    the round trip (torch reduces each to a storage object of its own)."""
    def run(lib):
        x = lib.arange(12.).view(3, 4)
        a, b, c = pickle.loads(pickle.dumps([x, x[1], x]))
        return a is c, same_memory(a, b), geometry(b), b.tolist()

    assert run(torch) == run(ct)


def test_pickle_requires_grad():
    def run(lib):
        r = lib.ones(3, requires_grad=True)
        r.grad = lib.ones(3)
        p, q = pickle.loads(pickle.dumps([r, r * 2]))
        return (p.requires_grad, p.is_leaf, p.grad, q.requires_grad, q.is_leaf, q.tolist())

    assert run(torch) == run(ct)


def test_pickled_tensor_is_independent():
    def run(lib):
        x = lib.zeros(3)
        p = pickle.loads(pickle.dumps(x))
        p.add_(1)
        return x.tolist(), p.tolist(), same_memory(x, p)

    assert run(torch) == run(ct)


def test_version_counters_of_storage_writes_and_copies_are_torchs():
    """Tensors rebuilt from a storage (copy.copy, deepcopy, pickle) are made by set_: a counter
    of their own, at 1; a write through storage() moves no tensor's version."""
    def run(lib):
        x = lib.zeros(4)
        v = x[1:]
        quietly(lambda: x.storage()).__setitem__(0, 1.0)
        seen = [x._version, v._version]
        c = copy.copy(v)
        d = copy.deepcopy([x, v])
        p = pickle.loads(pickle.dumps(v))
        seen += [c._version, d[0]._version, d[1]._version, p._version]
        c.add_(1)
        d[1].add_(1)
        p.add_(1)
        seen += [x._version, v._version, c._version, d[0]._version, d[1]._version, p._version]
        return seen, x.tolist(), d[0].tolist()

    assert run(torch) == run(ct)
