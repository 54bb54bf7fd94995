"""Seed question: "How do I keep PyTorch from modifying my variable?"

Short answer: assignment (b = a) copies nothing; neither does a view, nor detach():
detach() returns a tensor on the SAME memory (clone() is not detach()).  Only a copy protects
the original: clone() (or an out-of-place operation).  And view() never modifies its input in
place: x.view(...) returns a new tensor and leaves x's shape alone.

Run: PYTHONPATH=<build>/python python3 examples/seeds/keep_unmodified.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"

a = torch.zeros(4)
print("a =", a)

print("\n1. b = a is the same tensor")
b = a
b[0] = 1.
print("b = a; b[0] = 1  ->  a =", a, "; b is a:", b is a)

print("\n2. A view shares a's memory")
v = a.view(2, 2)
v[0, 1] = 2.
print("v = a.view(2, 2); v[0, 1] = 2  ->  a =", a)

print("\n3. detach() is NOT a copy (clone() is not detach())")
d = a.detach()
d[2] = 3.
print("d = a.detach(); d[2] = 3  ->  a =", a)
print("d.data_ptr() == a.data_ptr():", d.data_ptr() == a.data_ptr(), "; d._base is None:", d._base is None,
      "; d._version == a._version:", d._version == a._version)

print("\n4. clone() is a copy: the only one of the four that protects a")
c = a.clone()
c[3] = 4.
print("c = a.clone(); c[3] = 4  ->  a =", a, "; c =", c)
print("c.data_ptr() == a.data_ptr():", c.data_ptr() == a.data_ptr(), "; c._version:", c._version)
print("a._version:", a._version, "(three in-place writes reached a's memory)")

print("\n5. view() never modifies in place")
x = torch.arange(6.)
y = x.view(2, 3)
print("y = x.view(2, 3): x.shape", tuple(x.shape), "; y.shape", tuple(y.shape))

print("\n6. A function that writes into its argument changes the caller's tensor")


def mark_first(t):
    """Writes into its argument (in place), as many library functions do."""
    t[0] = -1.
    return t


w = torch.arange(3.)
mark_first(w)
print("after mark_first(w): w =", w)
w = torch.arange(3.)
mark_first(w.clone())
print("after mark_first(w.clone()): w =", w)

if CTENSOR:
    print("\n---- ctensor only ----")
    torch.explain(a, d, names=("a", "a.detach()"))
    if sys.argv[1:2] == ["--draw"]:
        torch.draw(a, v, d, c, names=("a", "a.view(2, 2)", "a.detach()", "a.clone()"),
                   path=f"{sys.argv[2]}/keep_unmodified.svg")
