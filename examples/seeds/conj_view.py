"""Seed question: "Does conj() copy?  Why did writing into x.conj() change x?"

Short answer: since PyTorch 1.10, conj() of a complex tensor copies nothing.  It returns a
view of the same memory with the conjugate bit set: every reader sees the values conjugated,
the stored values stay as they are.  A write through the view stores the conjugate of what is
written, so x changes (and its version moves).  imag of a conj view is a "negative" view.
clone() and resolve_conj() make a plain copy; numpy() and view_as_real refuse the view.

Run: PYTHONPATH=<build>/python python3 examples/seeds/conj_view.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"

x = torch.tensor([1 + 2j, 3 - 4j])
print("x =", x)

print("\n1. conj() copies nothing: a view with the conjugate bit")
c = x.conj()
print("c = x.conj()  ->", c)
print("c.is_conj():", c.is_conj(), "; c._base is x:", c._base is x,
      "; c.data_ptr() == x.data_ptr():", c.data_ptr() == x.data_ptr())

print("\n2. A write through the conj view stores the conjugate in x")
c[0] = 5 + 6j
print("c[0] = 5+6j  ->  x =", x, "; c =", c, "; x._version:", x._version)

print("\n3. imag of a conj view is a negative view of x's imaginary parts")
im = c.imag
print("c.imag ->", im, "; is_neg():", im.is_neg(), "; is_conj():", im.is_conj())
print("same memory as x:", im.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

print("\n4. clone() and resolve_conj() copy the values as read, without the bit")
r = c.resolve_conj()
print("c.resolve_conj() ->", r, "; is_conj():", r.is_conj(), "; same memory as x:", r.data_ptr() == x.data_ptr())
print("c.clone().is_conj():", c.clone().is_conj(), "; x.conj().conj().is_conj():", x.conj().conj().is_conj())

print("\n5. What refuses a conj view")
try:
    c.numpy()
except RuntimeError as e:
    print("c.numpy():", e)
try:
    torch.view_as_real(c)
except RuntimeError as e:
    print("torch.view_as_real(c):", str(e)[:58])

if CTENSOR:
    print("\n---- ctensor only ----")
    torch.explain(c, x, names=("x.conj()", "x"))
    if sys.argv[1:2] == ["--draw"]:
        torch.draw(x, c, im, names=("x", "x.conj()", "x.conj().imag"), path=f"{sys.argv[2]}/conj_view.svg")
