"""repr/str identical to torch's (with ctensor. where torch prints torch.), from ct_tensor_to_string."""

import math

import pytest

import ctensor
from ctutil import torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def both(make):
    return make(ctensor), make(torch)


CASES = [
    lambda m: m.tensor(3.5), lambda m: m.tensor(-0.0), lambda m: m.tensor(7), lambda m: m.tensor(True),
    lambda m: m.tensor([]), lambda m: m.zeros(0, 3), lambda m: m.zeros(2, 0, 3), lambda m: m.arange(10),
    lambda m: m.arange(12.0).view(3, 4), lambda m: m.arange(24).view(2, 3, 4), lambda m: m.arange(2000),
    lambda m: m.arange(2000.0).view(40, 50), lambda m: m.arange(5000).view(10, 10, 50),
    lambda m: m.tensor([1e-8, 1.0, 1e8]), lambda m: m.tensor([1.5, float("nan"), float("inf"), -float("inf")]),
    lambda m: m.tensor([123456789.0, 0.5]), lambda m: m.tensor([0.1, 0.25, 1000.0]),
    lambda m: m.tensor([1e-5, 2e-5]), lambda m: m.tensor([100.0, 200.0]), lambda m: m.tensor([-1.0, 2.0]),
    lambda m: m.tensor([1e20]), lambda m: m.tensor([[1e-20, 1.0]]), lambda m: m.tensor([True, False, True]),
    lambda m: m.tensor([-5, 12345678901]), lambda m: m.arange(12.0).view(3, 4).t(),
    lambda m: m.arange(12.0).view(3, 4)[:, ::2], lambda m: m.arange(6.0).view(2, 3).expand(2, 2, 3),
    lambda m: m.tensor([0.0, 1 / 7, 2 / 7, 3 / 7], dtype=m.float64),
    lambda m: m.tensor([0.1, 0.2], dtype=m.float16), lambda m: m.tensor([0.1, 0.2], dtype=m.bfloat16),
    lambda m: m.tensor([1, 2], dtype=m.int8), lambda m: m.tensor([1, 2], dtype=m.uint8),
    lambda m: m.tensor([1, 2], dtype=m.int16), lambda m: m.tensor([1, 2], dtype=m.int32),
    lambda m: m.tensor([1.0, 2.0], dtype=m.float64), lambda m: m.tensor(2.0, dtype=m.float64),
    lambda m: m.zeros(0, dtype=m.int64), lambda m: m.zeros(0, dtype=m.int32), lambda m: m.zeros(2, 3, dtype=m.bool),
    lambda m: m.tensor([[math.pi, -math.e], [1 / 3, 2 / 3]]), lambda m: m.full((3, 3), 1e-3),
    lambda m: m.ones(1, 1, 1, 1), lambda m: m.arange(1200.0).view(2, 600)[:, 1:], lambda m: m.tensor([0.0, -0.0]),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_repr_matches_torch(i):
    c, t = both(CASES[i])
    assert repr(c) == repr(t).replace("torch.", "ctensor.")
    assert str(c) == str(t).replace("torch.", "ctensor.")
    assert f"{c}" == f"{t}".replace("torch.", "ctensor.")


def test_size_dtype_device_reprs_match_torch():
    c, t = both(lambda m: m.zeros(3, 4))
    assert repr(c.shape) == repr(t.shape).replace("torch.", "ctensor.")
    assert repr(c.dtype) == repr(t.dtype).replace("torch.", "ctensor.")
    assert repr(c.device) == repr(t.device)
    assert [repr(d) for d in (ctensor.float, ctensor.long, ctensor.half, ctensor.double)] == \
        [repr(d).replace("torch.", "ctensor.") for d in (torch.float, torch.long, torch.half, torch.double)]


def test_printing_a_program_matches_torch():
    """A small torch program run with `import ctensor as torch` prints the same lines."""
    program = '''
x = torch.arange(12.).view(3, 4)
print(x)
y = x[1:3, 1:3]
y[0, 0] = -1
print(x, y, y.shape, y.stride(), y.storage_offset(), y._is_view(), y._base is x._base)
t = x.t()
print(t.is_contiguous(), t.stride(), t.contiguous().stride())
try:
    t.view(12)
except RuntimeError as e:
    print("RuntimeError:", e)
r = t.reshape(12)
print(r, r._is_view(), r.data_ptr() == x.data_ptr())
print(x.index_select(0, torch.tensor([2, 0])), x[[2, 0]]._is_view())
print(torch.tensor([[1, 2], [3, 4]]).dtype, torch.tensor([1.5]).dtype, torch.tensor([True]).dtype)
print(x.dtype, x.shape, x.size(), x.size(1), x.dim(), x.numel(), len(x), x[0].tolist())
print(torch.zeros(2, 3, dtype=torch.int32), torch.ones(2), torch.full((2,), 7), torch.arange(0, 1, 0.25))
print(x.clone()._base is None, x.detach()._base is None, x.detach().data_ptr() == x.data_ptr())
print([row.tolist() for row in x], x[1, 2].item(), x.T.shape, x.unsqueeze(0).shape, x.flatten().shape)
print(x.expand(2, 3, 4).stride(), x.diagonal(), x.unfold(1, 2, 2).shape, x.narrow(1, 1, 2))
'''
    import contextlib
    import io

    outputs = []
    for lib in (ctensor, torch):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(program, {"torch": lib})
        outputs.append(buf.getvalue())
    assert outputs[0] == outputs[1].replace("torch.", "ctensor.")
