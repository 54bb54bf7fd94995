"""Reference counts, object identity and leaks: live_tensors()/live_storages() return to their
baseline once the Python objects are gone."""

import gc
import sys

import numpy as np
import pytest

import ctensor
from ctutil import collect, live


def test_every_operation_releases_what_it_made():
    base = live()
    x = ctensor.arange(24.0).view(2, 3, 4)
    results = [
        x.t() if x.dim() <= 2 else x.transpose(0, 1), x[0], x[:, 1:], x[..., None], x.view(6, 4),
        x.reshape(4, 6), x.transpose(0, 2).reshape(24), x.flatten(), x.permute(2, 0, 1), x.squeeze(),
        x.unsqueeze(0), x.narrow(2, 1, 2), x.select(1, 0), x[0:1].expand(5, 3, 4), x.diagonal(0, 1, 2),
        x.unfold(2, 2, 1), x.as_strided((2, 2), (1, 1)), x.contiguous(), x.clone(), x.detach(), x.data,
        x.index_select(1, ctensor.tensor([0, 2])), x[[0, 1]], x[x.select(2, 0).bool()], x.to(ctensor.int64),
        x.float(), x.double(), x.untyped_storage(), x._base, x.numpy(), x.tolist(), list(x), x.unbind(2),
        x.split(1, 1), x.chunk(2, 2), np.from_dlpack(x), ctensor.from_dlpack(x), x.__dlpack__(),
        repr(x), x.shape, x.stride(), x.T, x.mT, ctensor.from_numpy(np.ones(3)), ctensor.tensor([[1, 2]]),
        ctensor.zeros(3), ctensor.full((2,), 1.5), ctensor.arange(5),
    ]
    x[0] = 1.0
    x[[0, 1], 0] = ctensor.tensor(2.0)
    x[x.bool()] = 3.0
    x.copy_(ctensor.ones(4))
    del results, x
    assert live() == base


def test_failed_calls_release_what_they_made():
    base = live()
    x = ctensor.arange(12.0).view(3, 4)
    for f in (lambda: x.t().view(12), lambda: x.transpose(0, 5), lambda: x[5], lambda: x[[7]],
              lambda: x.expand(3, 5), lambda: x.as_strided((100,), (1,)), lambda: x.narrow(0, 2, 5),
              lambda: ctensor.from_numpy(np.arange(4.0)[::-1]), lambda: ctensor.tensor([[1], [2, 3]]),
              lambda: x.__setitem__(0, ctensor.ones(5)), lambda: x.copy_(ctensor.ones(7)),
              lambda: ctensor.zeros(-1), lambda: x.index_select(0, ctensor.tensor([9]))):
        with pytest.raises(Exception):
            f()
    del x
    assert live() == base


def test_from_blob_failure_drops_its_owner_reference():
    a = np.arange(4.0)
    before = sys.getrefcount(a)
    with pytest.raises(Exception):
        # sizes that do not fit int64 elements: ct_from_blob fails, its deleter must not run and
        # the reference taken for it must be dropped again
        ctensor._C.ct_from_blob(a.ctypes.data, [2, -1], None, ctensor.float64, a)
    assert sys.getrefcount(a) == before
    t = ctensor._C.ct_from_blob(a.ctypes.data, [4], None, ctensor.float64, a)
    assert sys.getrefcount(a) == before + 1 and t.tolist() == [0, 1, 2, 3]
    del t
    collect()
    assert sys.getrefcount(a) == before


def test_refcounts_follow_views():
    x = ctensor.zeros(3, 4)
    assert x.refcount() == 1 and ctensor.refcount(x) == 1
    v = x[1]
    assert x.refcount() == 2 and v.refcount() == 1  # a view holds its base
    w = v[1:]
    assert x.refcount() == 3  # views of views name the root, not the intermediate view
    s = x.untyped_storage()
    assert s.refcount == 4  # x, v, w and this storage handle
    del v, w
    collect()
    assert x.refcount() == 1 and s.refcount == 2
    d = x.detach()
    assert x.refcount() == 1 and s.refcount == 3  # an alias is not a view: own object, same storage


def test_one_python_object_per_tensor():
    x = ctensor.arange(6.0)
    v = x.view(2, 3)
    assert v._base is x and v._base is v._base
    assert x.contiguous() is x and x.to(ctensor.float32) is x and x.float() is x
    ids = {id(v._base) for _ in range(5)}
    assert ids == {id(x)}
    del x
    collect()
    b = v._base  # the root is alive in C; it gets a Python object again
    assert b is v._base and b.shape == (6,)
    assert ctensor._C._registry_size() >= 2


def test_storage_ids_are_unique_and_stable():
    ids = set()
    keep = []
    for _ in range(50):
        t = ctensor.zeros(2)
        keep.append(t)
        ids.add(t.storage_id())
    assert len(ids) == 50
    x = keep[0]
    assert x[1:].storage_id() == x.storage_id() == x.untyped_storage().id


def test_many_objects_and_registry_growth():
    base = live()
    reg = ctensor._C._registry_size()
    x = ctensor.arange(10000)
    items = list(x)  # 10000 views, each with its own Python object
    assert ctensor._C._registry_size() >= reg + 10000
    assert all(items[i].item() == i for i in range(0, 10000, 997))
    del items, x
    collect()
    assert ctensor._C._registry_size() == reg
    assert live() == base


def test_tensor_attributes_and_hash():
    x = ctensor.zeros(2)
    assert hash(x) == hash(x) and len({x, x, x.view(2)}) == 2
    x.name = "weights"  # tensors carry a __dict__, as torch's
    assert x.name == "weights"


def test_attributes_stay_with_their_tensor():
    """Every tensor object starts on one shared empty __dict__ on CPython 3.11 (Note [Shared
    empty attribute dict] in fastpath.c): no way of storing an attribute may reach another tensor."""
    x, y = ctensor.zeros(2), ctensor.zeros(2)
    x.name = "w"
    y.__dict__["k"] = 1
    vars(ctensor.zeros(1)).update(m=2)
    setattr(y, "j", 3)
    z = ctensor.zeros(2)
    assert vars(z) == {} and not hasattr(z, "name") and not hasattr(z, "k") and not hasattr(z, "m")
    assert vars(x) == {"name": "w"} and vars(y) == {"k": 1, "j": 3}
    with pytest.raises(TypeError):  # would skip Tensor's own __setattr__ (README: differs from torch)
        object.__setattr__(z, "a", 1)
    z.requires_grad = True  # a descriptor: nothing stored in the dict
    assert vars(z) == {} and vars(ctensor.zeros(1)) == {}
    del x.name
    with pytest.raises(AttributeError):
        del x.name
    with pytest.raises(AttributeError):
        del z.nothing
    assert vars(x) == {} and vars(ctensor.zeros(1)) == {}


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython's specializing interpreter")
def test_method_calls_on_tensors_are_specialized():
    """A method call on a tensor specializes (Note [Shared empty attribute dict]): on 3.11 only an
    object with a dict does, on 3.12 and later only one without."""
    import dis

    def call(t):
        return t.t()

    x = ctensor.zeros(2, 3)
    for _ in range(64):
        call(x)
    names = [i.opname for i in dis.get_instructions(call, adaptive=True)]
    if sys.version_info < (3, 12):
        assert "LOAD_METHOD_WITH_DICT" in names, names
    else:
        assert any(n.startswith("LOAD_ATTR_METHOD") for n in names), names


def test_reference_cycle_through_instance_dict():
    """Tensor objects are not tracked by Python's cycle collector (as SWIG builtin types, and to
    keep a view op cheap): a cycle through a tensor's __dict__ lives until it is broken."""
    base = live()
    x = ctensor.zeros(3)
    x.me = x
    del x.me  # breaking the cycle releases everything
    del x
    assert live() == base


def test_deep_copy_and_pickle():
    import copy
    import pickle
    x = ctensor.arange(4.0).view(2, 2)
    y = copy.deepcopy(x)
    assert y.tolist() == x.tolist() and not y.shares_storage(x)
    z = pickle.loads(pickle.dumps(x))
    assert z.tolist() == x.tolist() and z.dtype is ctensor.float32
