"""Seed question: "How do I add an op of my own, with its own backward?"

Short answer: compute the op's result yourself and give autograd its backward.  In Python that
is torch.autograd.Function: forward runs with grad mode off, ctx.save_for_backward keeps what
backward needs (sharing memory with the original, checked against in-place writes), and the
output's grad_fn is a node named "<Class>Backward" that calls your backward.  The op then
takes part in a graph like any built-in one: gradients flow through it to the leaves, and a
hook (register_hook) sees the gradient on its way.  examples/seeds/custom_op.c does the same
from C (ct_custom_op_apply, ct_tensor_register_hook) and custom_op.jl from Julia.

Run: PYTHONPATH=<build>/python python3 examples/seeds/custom_op.py
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"


class Cube(torch.autograd.Function):
    """y = x ** 3, with the derivative 3 x^2 written by hand."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x * x


x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -2.0]], requires_grad=True)
w = torch.tensor([1.0, 0.5, -1.0])
print("x =", x)

print("\n1. The custom op inside a graph: x -> a = 2x -> y = Cube(a) -> loss = sum(y * w)")
a = x * 2
y = Cube.apply(a)
loss = (y * w).sum()
print("y =", y)
print("y.grad_fn:", type(y.grad_fn).__name__, "; a.grad_fn:", type(a.grad_fn).__name__)
print("loss =", loss)

print("\n2. A hook on a sees the gradient Cube's backward sends it")
h = a.register_hook(lambda g: print("gradient reaching a =", g))
loss.backward()
print("x.grad =", x.grad, "(24 x^2 w)")
h.remove()

print("\n3. The saved input is checked: writing it in place breaks backward")
a2 = x * 2
y2 = Cube.apply(a2)
a2.add_(1)
try:
    y2.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(":")[0])

if CTENSOR:
    print("\n---- ctensor only ----")
    print("4. The graph goes with its last output: no node keeps a tensor alive after that")
    start = torch.live_tensors()
    b = x * 2
    z = Cube.apply(b)
    z.sum().backward()
    del b, z
    print("tensors alive after the graph is gone:", torch.live_tensors() - start, "more than before it")
