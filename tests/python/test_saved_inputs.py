"""A node keeps the tensors it saved from its inputs as those tensors themselves, as torch's
SavedVariable does (saved_original_), and its outputs as aliases without history.  What a user
can see of that: after `x.data = y` (or `h.data = ...` on an intermediate), backward reads the
new values, as torch's does; metadata changed in place still fails the version check; and the
node of an in-place op that saved the tensor it modifies holds no cycle (everything it made
is freed)."""

import pytest

import ctensor
from ctutil import live, torch

needs_torch = pytest.mark.skipif(torch is None, reason="differential test: torch is not installed")


# (name, the op that saves x, what happens to x before backward): each case runs with
# y = op(x, w).sum() on x = arange(4).reshape(2, 2) and w = ones(2, 2) requiring grad.
_X_CASES = [
    ("data swapped, mul", lambda x, w: x * w, lambda lib, x: setattr(x, "data", lib.full((2, 2), 7.0))),
    ("data swapped, matmul", lambda x, w: x @ w, lambda lib, x: setattr(x, "data", lib.full((2, 2), 7.0))),
    ("transposed in place", lambda x, w: x * w, lambda lib, x: x.t_()),
    ("unsqueezed in place", lambda x, w: x @ w, lambda lib, x: x.unsqueeze_(0)),
    ("set_ in place", lambda x, w: x @ w, lambda lib, x: x.set_(lib.full((2, 2), 5.0))),
    ("requires_grad_ later", lambda x, w: x @ w, lambda lib, x: x.requires_grad_()),
]


def _run_x_case(lib, op, change):
    x = lib.arange(4.0).reshape(2, 2)
    w = lib.ones(2, 2, requires_grad=True)
    y = op(x, w).sum()
    change(lib, x)
    y.backward()
    return w.grad.tolist(), x.grad is None


def _run_intermediate_case(lib):
    # the saved input is an intermediate (h has a grad_fn), saved twice by one matmul
    w = lib.ones(2, 2, requires_grad=True)
    h = w * 2
    y = (h @ h).sum()
    h.data = lib.zeros(2, 2)
    y.backward()
    return w.grad.tolist()


def _cases(lib):
    """Each case: a backward after the saved input changed; returns what it gave."""
    cases = [lambda op=op, change=change: _run_x_case(lib, op, change) for _, op, change in _X_CASES]
    return cases + [lambda: _run_intermediate_case(lib)]


def _outcome(case):
    try:
        return case()
    except RuntimeError as e:
        return "RuntimeError: " + str(e).split(":")[0]


@needs_torch
@pytest.mark.parametrize("i", range(len(_cases(ctensor))))
def test_backward_reads_a_saved_input_as_torch_does(i):
    assert _outcome(_cases(ctensor)[i]) == _outcome(_cases(torch)[i])


def test_data_assignment_reaches_backward():
    # torch keeps the input itself, so its new data is what backward multiplies by
    x = ctensor.arange(4.0).reshape(2, 2)
    w = ctensor.ones(2, 2, requires_grad=True)
    y = (x * w).sum()
    x.data = ctensor.full((2, 2), 7.0)
    y.backward()
    assert w.grad.tolist() == [[7.0, 7.0], [7.0, 7.0]]


def _in_place_programs():
    def mul_self():
        x = ctensor.ones(3, requires_grad=True).clone()
        x.mul_(x)
        return x

    def view_mul_base():
        b = ctensor.ones(4, requires_grad=True).clone()
        v = b[:2]
        v.mul_(b[2:])
        return b

    def view_mul_itself():
        b = ctensor.ones(4, requires_grad=True).clone()
        v = b[1:3]
        v.mul_(v)
        return b

    def base_div_view():
        b = ctensor.full((4,), 2.0, requires_grad=True).clone()
        b.div_(b[0])
        return b

    def masked_fill_saves_mask():
        x = ctensor.ones(4, requires_grad=True).clone()
        x.masked_fill_(x > 0, 3.0)
        return x

    def pow_self():
        x = ctensor.full((3,), 2.0, requires_grad=True).clone()
        x.pow_(x)
        return x

    def unsqueeze_after_save():
        w = ctensor.ones(3, requires_grad=True)
        h = w * 2
        y = h * h
        h.unsqueeze_(0)
        return y

    return [mul_self, view_mul_base, view_mul_itself, base_div_view, masked_fill_saves_mask, pow_self,
            unsqueeze_after_save]


@pytest.mark.parametrize("program", _in_place_programs(), ids=lambda f: f.__name__)
def test_an_in_place_node_that_saved_its_own_tensor_holds_no_cycle(program):
    # The in-place op's node becomes the grad_fn of a tensor it saved (directly, or through
    # the base of a view): it keeps an alias then, or the tensor would hold its own node and
    # neither would ever be freed.
    base = live()
    r = program()
    assert r.grad_fn is not None
    del r
    assert live() == base


def test_saving_an_input_frees_it_with_the_graph():
    base = live()
    w = ctensor.ones(3, 3, requires_grad=True)
    x = ctensor.ones(2, 3)
    y = (x @ w).relu().sum()
    del x  # the graph keeps it for w's gradient
    y.backward()
    assert w.grad.tolist() == [[2.0] * 3] * 3
    del w, y
    assert live() == base
