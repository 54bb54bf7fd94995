"""torch.set_default_dtype / get_default_dtype, differential against torch 2.13: under each
floating default, every place torch uses it (inference from Python floats, creation without a
dtype, Python floats in promotion, true division and float math of integers, torch.Tensor(...),
repr's dtype suffix) gives the same dtype in ctensor.  The default is restored after each test."""

import pytest

import ctensor

torch = pytest.importorskip("torch")

DEFAULTS = ["float64", "float16", "bfloat16", "float32"]


@pytest.fixture(autouse=True)
def restore_default():
    yield
    torch.set_default_dtype(torch.float32)
    ctensor.set_default_dtype(ctensor.float32)


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the outcome compared is the exception itself
        return type(e).__name__, str(e).replace("ctensor.", "torch.")
    if isinstance(r, (torch.Tensor, ctensor.Tensor)):
        return str(r.dtype).replace("ctensor.", "torch."), tuple(r.shape)
    return str(r).replace("ctensor.", "torch.")


# Each takes the library and returns a tensor (or raises): the dtype and shape are compared.
EXPRESSIONS = {
    "tensor_float": lambda m: m.tensor([1.5]),
    "tensor_mixed": lambda m: m.tensor([1, 2.5]),
    "tensor_empty": lambda m: m.tensor([]),
    "tensor_int": lambda m: m.tensor([1, 2]),
    "tensor_scalar": lambda m: m.tensor(2.5),
    "arange_float": lambda m: m.arange(0, 1, 0.25),
    "arange_int": lambda m: m.arange(3),
    "linspace": lambda m: m.linspace(0, 1, 3),
    "zeros": lambda m: m.zeros(2, 3),
    "ones": lambda m: m.ones(2),
    "empty": lambda m: m.empty(2),
    "full_float": lambda m: m.full((2,), 1.5),
    "full_int": lambda m: m.full((2,), 1),
    "rand": lambda m: m.rand(2),
    "randn": lambda m: m.randn(2),
    "eye": lambda m: m.eye(2),
    "Tensor_sizes": lambda m: m.Tensor(2, 3),
    "Tensor_data": lambda m: m.Tensor([1, 2]),
    "Tensor_empty": lambda m: m.Tensor(),
    "int_times_float": lambda m: m.tensor([1, 2]) * 1.5,
    "float_times_int_tensor": lambda m: 1.5 * m.tensor([1, 2]),
    "int_add_float": lambda m: m.tensor([1, 2]).add(0.5),
    "int_true_div": lambda m: m.tensor([1, 2]) / 2,
    "int_div_int_tensor": lambda m: m.tensor([1, 2]) / m.tensor([2, 2]),
    "bool_times_float": lambda m: m.tensor([True]) * 2.5,
    "int_sqrt": lambda m: m.tensor([1, 4]).sqrt(),
    "int_exp": lambda m: m.exp(m.tensor([0, 1])),
    "int_sigmoid": lambda m: m.tensor([0]).sigmoid(),
    "int_rdiv": lambda m: 1 / m.tensor([2]),
    "int_pow_float": lambda m: m.tensor([4]) ** 0.5,
    "int_clamp_float": lambda m: m.clamp(m.tensor([1, 5]), 0.5),
    "float32_times_float": lambda m: m.ones(2, dtype=m.float32) * 1.5,
    "float16_times_float": lambda m: m.ones(2, dtype=m.float16) * 1.5,
    "int_mean": lambda m: m.tensor([1, 2]).mean(),
    "float_method": lambda m: m.tensor([1]).float(),
    "result_type": lambda m: m.ones(1, dtype=m.int32) + m.tensor(1.5),
    "zeros_like_int": lambda m: m.zeros_like(m.tensor([1])),
    "rand_like_int_dtype": lambda m: m.rand_like(m.tensor([1]), dtype=m.get_default_dtype()),
}


@pytest.mark.parametrize("default", DEFAULTS)
@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_dtype_under_default_as_torch(default, name):
    torch.set_default_dtype(getattr(torch, default))
    ctensor.set_default_dtype(getattr(ctensor, default))
    assert str(ctensor.get_default_dtype()) == f"ctensor.{default}"
    f = EXPRESSIONS[name]
    assert _outcome(lambda: f(ctensor)) == _outcome(lambda: f(torch))


@pytest.mark.parametrize("default", DEFAULTS)
def test_repr_names_the_dtypes_torch_names(default):
    torch.set_default_dtype(getattr(torch, default))
    ctensor.set_default_dtype(getattr(ctensor, default))
    for make in (lambda m: m.tensor([1.5, 2.0], dtype=m.float32), lambda m: m.tensor([1.5], dtype=m.float64),
                 lambda m: m.tensor([0.5], dtype=m.float16), lambda m: m.tensor([], dtype=m.float32),
                 lambda m: m.tensor([], dtype=m.float64), lambda m: m.tensor([], dtype=m.int64),
                 lambda m: m.tensor([3]), lambda m: m.tensor([True]), lambda m: m.tensor([1.25])):
        assert repr(make(ctensor)).replace("ctensor.", "torch.") == repr(make(torch))


@pytest.mark.parametrize("bad", ["int64", "bool", "uint8", "python_float", "string", "none"])
def test_only_floating_dtypes_are_accepted(bad):
    def arg(m):
        special = {"python_float": float, "string": "float32", "none": None}
        return special[bad] if bad in special else getattr(m, bad)
    expected = _outcome(lambda: torch.set_default_dtype(arg(torch)))
    assert _outcome(lambda: ctensor.set_default_dtype(arg(ctensor))) == expected
    assert expected[0] == "TypeError"
    assert ctensor.get_default_dtype() is ctensor.float32


def test_default_is_process_wide():
    import threading
    ctensor.set_default_dtype(ctensor.float64)
    seen = []
    t = threading.Thread(target=lambda: seen.append(ctensor.tensor([1.5]).dtype))
    t.start()
    t.join()
    assert seen == [ctensor.float64]
