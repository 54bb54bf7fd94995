"""Seed question: "I indexed a tensor twice and both results have the same id().  Are they the
same tensor?  Do they share memory?"

Short answer: id() is the address of the Python *object*, not of the data, and CPython reuses
the memory of an object that was freed.  x[0] and x[1] are two different tensor objects; both
are views into x's storage at different offsets.  Advanced indexing (a list or a tensor of
indices) is different again: it copies.

Run: PYTHONPATH=<build>/python python3 examples/seeds/same_id.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section: storage relations and explain() are ctensor's.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"


x = torch.arange(12.).view(3, 4)
print("x =", x)

print("\n1. Temporaries: id() of objects that no longer exist")
print("id(x[0]) == id(x[1]):", id(x[0]) == id(x[1]))
print("   (x[0] was freed before x[1] was made, and CPython put x[1] at the same address:")
print("    equal ids of temporaries say nothing about the tensors)")

print("\n2. Kept alive, they are two different objects")
a = x[0]
b = x[1]
print("a = x[0]; b = x[1]; a is b:", a is b, "; id(a) == id(b):", id(a) == id(b))
print("x[0] is x[0]:", x[0] is x[0], "(every indexing makes a new tensor object)")

print("\n3. id() is not an address of the data")
print("id(x) == x.data_ptr():", id(x) == x.data_ptr())
print("a.data_ptr() - x.data_ptr():", a.data_ptr() - x.data_ptr(), "bytes (a starts where x starts)")
print("b.data_ptr() - x.data_ptr():", b.data_ptr() - x.data_ptr(), "bytes (one row of 4 float32 further)")
print("a.storage_offset(), b.storage_offset():", a.storage_offset(), b.storage_offset())

print("\n4. Basic indexing is a view: writing through it changes x")
b[0] = -1.
print("b[0] = -1  ->  x[1] =", x[1])

print("\n5. Advanced indexing (a list of indices) copies")
y = x[[0, 2]]
print("y = x[[0, 2]]; y._base is None:", y._base is None)
print("y.data_ptr() == x.data_ptr():", y.data_ptr() == x.data_ptr())
y[0, 0] = 100.
print("y[0, 0] = 100  ->  x[0, 0] =", x[0, 0], "(x unchanged), y[0, 0] =", y[0, 0])

if CTENSOR:
    print("\n---- ctensor only ----")
    print("same storage (a, b):", torch.shares_storage(a, b), "; (x, y):", torch.shares_storage(x, y))
    torch.explain(a, b, names=("x[0]", "x[1]"))
    if sys.argv[1:2] == ["--draw"]:  # --draw DIR: the pictures of docs/views-and-copies.md
        torch.draw(x, a, b, y, names=("x", "x[0]", "x[1]", "x[[0, 2]]"), path=f"{sys.argv[2]}/same_id.svg")
