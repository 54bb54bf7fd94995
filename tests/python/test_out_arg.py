"""out= against torch 2.13: values, identity of the returned out, storage kept, _version + 1,
strides kept or adopted, resize warnings, dtype rules and messages, overlap and requires-grad
refusals (include/ctensor.h, "Out arguments")."""
import warnings

import pytest

import ctensor
from ctutil import torch


def _outcome(lib, f):
    """(values or None, dtype, shape, strides, version delta, warnings, error) of one out= call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, before = f(lib)
            r = out
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            return ("error", type(e).__name__, str(e).replace("ctensor.", "torch."))
    ws = [str(w.message).split(" (Triggered internally")[0] for w in caught if w.category is UserWarning]
    return (_rounded(r.tolist()), str(r.dtype).split(".")[1], tuple(r.shape), r.stride(), r._version - before, ws)


def _rounded(v):
    """Values compared to 6 significant digits (the math kernels may differ from torch's by an
    ulp; that is not what these tests check), NaN as a string so that it equals itself."""
    if isinstance(v, list):
        return [_rounded(x) for x in v]
    if isinstance(v, float):
        return "nan" if v != v else float(f"{v:.6g}")
    return v


def same(f):
    expected = _outcome(torch, f)
    assert _outcome(ctensor, f) == expected
    return expected


def x23(lib, dtype=None):
    return lib.arange(6.0).reshape(2, 3).to(dtype or lib.float32)


def _call(fn, out_maker):
    """fn(lib, out) with a fresh out; returns (out, its version before) after checking that the
    returned object is out itself."""
    def f(lib):
        out = out_maker(lib)
        before = out._version
        r = fn(lib, out)
        assert r is out or (isinstance(r, tuple) and r[0] is out)
        return out, before
    return f


BINARY = ["add", "sub", "mul", "div", "pow", "floor_divide", "remainder", "fmod",
          "eq", "ne", "lt", "le", "gt", "ge"]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64", "bool"])
def test_binary_ops_values_dtypes_and_errors(name, out_dtype):
    def fn(lib, out):
        return getattr(lib, name)(x23(lib) + 1, lib.tensor([1.0, 2.0, 3.0]), out=out)
    same(_call(fn, lambda lib: lib.empty(2, 3, dtype=getattr(lib, out_dtype))))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "pow", "remainder", "eq", "lt"])
def test_binary_with_a_python_scalar(name):
    same(_call(lambda lib, out: getattr(lib, name)(x23(lib), 2, out=out), lambda lib: lib.empty(2, 3)))
    same(_call(lambda lib, out: getattr(lib, name)(x23(lib, lib.int64), 2, out=out),
               lambda lib: lib.empty(2, 3, dtype=lib.int64)))


def test_add_alpha_and_integer_wrap_in_the_common_dtype():
    same(_call(lambda lib, out: lib.add(x23(lib), x23(lib), alpha=2, out=out), lambda lib: lib.empty(2, 3)))
    same(_call(lambda lib, out: lib.add(lib.tensor([1, 2], dtype=lib.int8), lib.tensor([127, 127], dtype=lib.int8),
                                        out=out), lambda lib: lib.empty(2)))


@pytest.mark.parametrize("name", ["neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"])
@pytest.mark.parametrize("in_dtype,out_dtype", [("float32", "float32"), ("float32", "float64"),
                                                ("float32", "int64"), ("int64", "float32"), ("int64", "int64")])
def test_unary_ops(name, in_dtype, out_dtype):
    def fn(lib, out):
        return getattr(lib, name)(x23(lib, getattr(lib, in_dtype)) - 2, out=out)
    same(_call(fn, lambda lib: lib.empty(2, 3, dtype=getattr(lib, out_dtype))))


def test_where_and_clamp():
    same(_call(lambda lib, out: lib.where(x23(lib) > 2, x23(lib), -x23(lib), out=out), lambda lib: lib.empty(0)))
    same(_call(lambda lib, out: lib.where(x23(lib) > 2, x23(lib), -x23(lib), out=out),
               lambda lib: lib.empty(2, 3, dtype=lib.int64)))
    for dt in ("float32", "float64", "int64"):
        same(_call(lambda lib, out: lib.clamp(x23(lib), 1, 4, out=out),
                   lambda lib, dt=dt: lib.empty(2, 3, dtype=getattr(lib, dt))))


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "amax", "amin"])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64"])
def test_reductions_with_dim(name, out_dtype):
    data = [[0.5, 0.7, 1.5], [0.5, 0.9, 2.0]]
    same(_call(lambda lib, out: getattr(lib, name)(lib.tensor(data), 0, out=out),
               lambda lib: lib.empty(3, dtype=getattr(lib, out_dtype))))
    same(_call(lambda lib, out: getattr(lib, name)(lib.tensor(data), 1, True, out=out), lambda lib: lib.empty(0)))


def test_sum_dtype_that_differs_from_out():
    same(_call(lambda lib, out: lib.sum(x23(lib), 0, dtype=lib.float32, out=out),
               lambda lib: lib.empty(3, dtype=lib.int64)))


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_with_dim_write_values_and_indices(name):
    def fn(lib, out):
        v, i = out
        r = getattr(lib, name)(lib.tensor([[1.0, 5.0, 3.0], [4.0, 0.0, 6.0]]), 1, out=(v, i))
        assert r[0] is v and r[1] is i and type(r).__name__ == name + "_out"
        return i.tolist(), v
    for idx_dtype in ("int64", "int32"):
        for val_dtype in ("float32", "float64"):
            def run(lib, idx_dtype=idx_dtype, val_dtype=val_dtype):
                v = lib.empty(0, dtype=getattr(lib, val_dtype))
                i = lib.empty(2, dtype=getattr(lib, idx_dtype))
                indices, v = fn(lib, (v, i))
                return v, 0
            same(run)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reductions(name):
    same(_call(lambda lib, out: getattr(lib, name)(x23(lib), 1, out=out), lambda lib: lib.empty(0, dtype=lib.int64)))
    same(_call(lambda lib, out: getattr(lib, name)(x23(lib), 1, out=out), lambda lib: lib.empty(2, dtype=lib.int32)))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64"])
def test_scans_compute_in_outs_dtype(name, out_dtype):
    same(_call(lambda lib, out: getattr(lib, name)(lib.tensor([0.5, 1.7, 2.9]), 0, out=out),
               lambda lib: lib.empty(3, dtype=getattr(lib, out_dtype))))


@pytest.mark.parametrize("out_dtype", ["float32", "float64"])
def test_matmul_and_mm(out_dtype):
    for name in ("matmul", "mm"):
        same(_call(lambda lib, out: getattr(lib, name)(x23(lib), x23(lib).t(), out=out),
                   lambda lib: lib.empty(2, 2, dtype=getattr(lib, out_dtype))))


@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64"])
def test_cat_stack_index_select_gather(out_dtype):
    mk = (lambda lib: lib.empty(0, dtype=getattr(lib, out_dtype)))
    same(_call(lambda lib, out: lib.cat([x23(lib), x23(lib)], 0, out=out), mk))
    same(_call(lambda lib, out: lib.stack([x23(lib), x23(lib)], 1, out=out), mk))
    same(_call(lambda lib, out: lib.index_select(x23(lib), 1, lib.tensor([2, 0]), out=out), mk))
    same(_call(lambda lib, out: lib.gather(x23(lib), 1, lib.tensor([[2], [0]]), out=out), mk))


# ---- geometry: storage, strides, resize ----------------------------------------------------------

def test_correctly_shaped_out_keeps_storage_and_non_contiguous_strides():
    for lib in (torch, ctensor):
        base = lib.zeros(3, 2)
        out = base.t()
        ptr, storage_ptr = out.data_ptr(), out.untyped_storage().data_ptr()
        r = lib.add(x23(lib), 1, out=out)
        assert r is out and out.stride() == (1, 2) and out.data_ptr() == ptr
        assert out.untyped_storage().data_ptr() == storage_ptr and out._version == 1
        assert base.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]


def test_empty_out_is_resized_without_warning_to_the_inputs_layout():
    same(_call(lambda lib, out: lib.add(x23(lib).t(), 1, out=out), lambda lib: lib.empty(0)))
    same(_call(lambda lib, out: lib.exp(lib.ones(2, 3, 4, 5).to(memory_format=lib.channels_last), out=out),
               lambda lib: lib.empty(0)))
    same(_call(lambda lib, out: lib.sum(x23(lib).t(), 1, out=out), lambda lib: lib.empty(0)))
    same(_call(lambda lib, out: lib.mm(x23(lib).t(), x23(lib), out=out), lambda lib: lib.empty(0)))
    same(_call(lambda lib, out: lib.cat([x23(lib).t(), x23(lib).t()], out=out), lambda lib: lib.empty(0)))


def test_wrong_shaped_out_warns_and_is_resized():
    got = same(_call(lambda lib, out: lib.add(x23(lib), 1, out=out), lambda lib: lib.empty(5)))
    assert got[-1] and "was resized since it had shape [5]" in got[-1][0]
    same(_call(lambda lib, out: lib.sum(x23(lib), 0, out=out), lambda lib: lib.empty(4, 3)))
    same(_call(lambda lib, out: lib.matmul(x23(lib), x23(lib).t(), out=out), lambda lib: lib.empty(7)))


def test_growing_out_keeps_its_storage_object_and_views_see_it():
    for lib in (torch, ctensor):
        out = lib.zeros(2)
        alias = out[:]
        lib.add(x23(lib), 1, out=out)
        assert out.untyped_storage().data_ptr() == alias.untyped_storage().data_ptr()
        assert alias.tolist() == [1.0, 2.0]


def test_out_that_is_an_input():
    same(_call(lambda lib, out: lib.add(out, 1, out=out), lambda lib: lib.arange(3.0)))
    same(_call(lambda lib, out: lib.add(out[:], 1, out=out), lambda lib: lib.arange(3.0)))
    same(_call(lambda lib, out: lib.add(out, lib.ones(2, 3), out=out), lambda lib: lib.arange(3.0)))


def test_overlap_refusals():
    same(_call(lambda lib, out: lib.add(out._base[:5], 1, out=out), lambda lib: lib.arange(6.0)[1:]))
    same(_call(lambda lib, out: lib.exp(out._base[:5], out=out), lambda lib: lib.arange(6.0)[1:]))
    same(_call(lambda lib, out: lib.add(lib.ones(3), 1, out=out), lambda lib: lib.zeros(1).expand(3)))
    same(_call(lambda lib, out: lib.cat([out._base[:3], out._base[3:]], out=out), lambda lib: lib.arange(6.0)[:]))
    same(_call(lambda lib, out: lib.index_select(out._base, 0, lib.tensor([0, 1]), out=out),
               lambda lib: lib.arange(6.0)[1:3]))


def test_requires_grad_refused_under_grad_mode_only():
    for name, call in [("add", lambda lib, y, out: lib.add(y, 1, out=out)),
                       ("exp", lambda lib, y, out: lib.exp(y, out=out)),
                       ("sum", lambda lib, y, out: lib.sum(y, 0, out=out)),
                       ("cat", lambda lib, y, out: lib.cat([y], out=out)),
                       ("matmul", lambda lib, y, out: lib.matmul(y, y, out=out)),
                       ("clamp", lambda lib, y, out: lib.clamp(y, 0, 1, out=out))]:
        def f(lib, call=call):
            y = lib.ones(3, requires_grad=True)
            out = lib.empty(0)
            return call(lib, y, out), 0
        got = same(f)
        assert got[0] == "error" and got[2].startswith(name + "(): functions with out=")

        def g(lib, call=call):
            y = lib.ones(3, requires_grad=True)
            out = lib.empty(0)
            with lib.no_grad():
                r = call(lib, y, out)
            assert not r.requires_grad and r.grad_fn is None
            return r, 0
        same(g)
    same(_call(lambda lib, out: lib.add(lib.ones(3), 1, out=out), lambda lib: lib.empty(3, requires_grad=True)))


# ---- creation -----------------------------------------------------------------------------------

@pytest.mark.parametrize("out_dtype", ["float32", "int64"])
def test_creation_functions(out_dtype):
    mk = (lambda lib: lib.empty(2, dtype=getattr(lib, out_dtype)))
    same(_call(lambda lib, out: lib.zeros(2, 3, out=out), mk))
    same(_call(lambda lib, out: lib.ones(2, 3, out=out), mk))
    same(_call(lambda lib, out: lib.full((2, 3), 7, out=out), mk))
    same(_call(lambda lib, out: lib.arange(5, out=out), mk))
    same(_call(lambda lib, out: lib.arange(1, 4, out=out), lambda lib: lib.empty(0, dtype=getattr(lib, out_dtype))))
    same(_call(lambda lib, out: lib.linspace(0, 10, 5, out=out), mk))
    same(_call(lambda lib, out: lib.eye(3, out=out), mk))
    same(_call(lambda lib, out: lib.zeros(2, 3, dtype=lib.float64, out=out), mk))
    for name in ("rand", "randn"):
        got = _outcome(ctensor, _call(lambda lib, out: getattr(lib, name)(2, 3, out=out), mk))
        want = _outcome(torch, _call(lambda lib, out: getattr(lib, name)(2, 3, out=out), mk))
        # dtype, shape and strides (torch's randn out= bumps the version twice, a detail not kept)
        assert got[0] == "error" if want[0] == "error" else got[1:4] == want[1:4]
    got = _outcome(ctensor, _call(lambda lib, out: lib.randint(5, (2, 3), out=out), mk))
    want = _outcome(torch, _call(lambda lib, out: lib.randint(5, (2, 3), out=out), mk))
    assert got[1:] == want[1:]


def test_empty_with_out_resizes_only():
    for lib in (torch, ctensor):
        out = lib.zeros(2, 3)
        assert lib.empty(3, 2, out=out) is out and tuple(out.shape) == (3, 2)


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError):
        ctensor.add(ctensor.ones(2), 1, out=[1, 2])
    with pytest.raises(TypeError):
        ctensor.max(ctensor.ones(2, 2), 0, out=ctensor.ones(2))


def test_maximum_minimum_functions_and_methods():
    a = [[1.0, float("nan"), -2.0], [4.0, 0.5, 3.0]]
    b = [2, 0, -2]
    for name in ("maximum", "minimum"):
        x, y = ctensor.tensor(a, requires_grad=True), ctensor.tensor(b)
        tx, ty = torch.tensor(a, requires_grad=True), torch.tensor(b)
        r, tr = getattr(ctensor, name)(x, y), getattr(torch, name)(tx, ty)
        assert repr(r.detach()) == repr(tr.detach()).replace("torch.", "ctensor.")
        assert r.grad_fn.name() == tr.grad_fn.name()
        assert getattr(x, name)(y).tolist().__repr__() == getattr(tx, name)(ty).tolist().__repr__()
        o, to = ctensor.empty(0), torch.empty(0)
        with ctensor.no_grad():
            assert getattr(ctensor, name)(x, y, out=o) is o
        with torch.no_grad():
            getattr(torch, name)(tx, ty, out=to)
        assert repr(o) == repr(to).replace("torch.", "ctensor.")
        with pytest.raises(TypeError, match=f"{name}\\(\\): argument 'other' \\(position 2\\) must be Tensor"):
            getattr(ctensor, name)(x, 1)
        with pytest.raises(TypeError, match=f"{name}\\(\\): argument 'other' \\(position 2\\) must be Tensor"):
            getattr(torch, name)(tx, 1)
