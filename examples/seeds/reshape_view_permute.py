"""Seed question: "What is the difference between reshape, view and permute, and what does
contiguous mean?"

Short answer: view and reshape keep the order of the elements in memory and only regroup
them; permute (and transpose, .t()) keeps the memory and changes the ORDER in which the
elements are read, by swapping strides.  A tensor is contiguous when reading it in its logical
(row-major) order walks memory straight through.  view never copies: it fails when the strides
do not allow the new shape.  reshape is a view whenever view would work and a copy otherwise;
in particular reshape of a contiguous tensor keeps the same data pointer (it does NOT copy).

Run: PYTHONPATH=<build>/python python3 examples/seeds/reshape_view_permute.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"

x = torch.arange(6.).view(2, 3)
print("x =", x)

v = x.view(3, 2)
r = x.reshape(3, 2)
p = x.permute(1, 0)
print("\n1. Same shape (3, 2), three different things")
for name, t in (("x.view(3, 2)", v), ("x.reshape(3, 2)", r), ("x.permute(1, 0)", p)):
    print(f"{name:16} strides {t.stride()}  contiguous {t.is_contiguous()!s:5}  "
          f"same data pointer as x {t.data_ptr() == x.data_ptr()}  values {t.tolist()}")
print("(view/reshape regroup 0 1 2 3 4 5 in memory order; permute reads the columns of x)")

print("\n2. view fails where the strides forbid it; reshape then copies")
try:
    p.view(6)
except RuntimeError as e:
    print("p.view(6) -> RuntimeError:", str(e))
q = p.reshape(6)
print("q = p.reshape(6):", q.tolist(), "; q._base is None:", q._base is None,
      "; q.data_ptr() == x.data_ptr():", q.data_ptr() == x.data_ptr())

print("\n3. contiguous() makes the memory order match the logical order (a copy here)")
c = p.contiguous()
print("c = p.contiguous(): strides", c.stride(), "; contiguous", c.is_contiguous(),
      "; same data pointer as x:", c.data_ptr() == x.data_ptr())
print("c.view(6):", c.view(6).tolist())

print("\n4. A write through a view or a permutation is seen by x; through a copy it is not")
v[0, 0] = 10.
p[0, 1] = 30.
q[5] = 99.
print("v[0, 0] = 10; p[0, 1] = 30; q[5] = 99  ->  x =", x)

if CTENSOR:
    print("\n---- ctensor only ----")
    print("shares storage with x: view", torch.shares_storage(x, v), "; permute",
          torch.shares_storage(x, p), "; reshape of permute", torch.shares_storage(x, q))
    torch.explain(x, p, names=("x", "x.permute(1, 0)"))
    if sys.argv[1:2] == ["--draw"]:
        torch.draw(x, v, p, names=("x", "x.view(3, 2)", "x.permute(1, 0)"),
                   path=f"{sys.argv[2]}/reshape_view_permute.svg")
