"""Seed question: "I run the same operation again and it allocates new memory every time.
Why, and how do I reuse memory?"

Short answer: an out-of-place operation always returns a NEW tensor; when its result cannot
be a view of the input (a copy), that tensor gets a NEW storage, every call.  Nothing is
cached between calls.  Operations that can be views (view, reshape of a contiguous tensor,
contiguous() of a contiguous tensor) allocate nothing.  To reuse memory, write into a tensor
you keep: in-place operations (copy_, add_, ...) and out= arguments keep its data pointer and
bump its version counter.

Run: PYTHONPATH=<build>/python python3 examples/seeds/repeated_op.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"

x = torch.arange(6.).view(2, 3)
print("x =", x)

print("\n1. A copying operation, twice: two results, two new storages")
a = x.t().contiguous()
b = x.t().contiguous()
print("a = x.t().contiguous(); b = x.t().contiguous()")
print("a is b:", a is b, "; a.data_ptr() == b.data_ptr():", a.data_ptr() == b.data_ptr())
print("a.data_ptr() == x.data_ptr():", a.data_ptr() == x.data_ptr(), "(a copy: x.t() is not contiguous)")
c = x.t().reshape(6)
d = x.t().reshape(6)
print("x.t().reshape(6) twice: same memory:", c.data_ptr() == d.data_ptr(), "(reshape had to copy)")

print("\n2. Operations that can be views allocate nothing")
print("x.contiguous() is x:", x.contiguous() is x)
print("x.reshape(3, 2).data_ptr() == x.data_ptr():", x.reshape(3, 2).data_ptr() == x.data_ptr())
print("x.view(6).data_ptr() == x.data_ptr():", x.view(6).data_ptr() == x.data_ptr())

print("\n3. Reusing memory: write into a tensor you keep")
out = torch.empty(3, 2)
p = out.data_ptr()
for step in range(3):
    out.copy_(x.t())
print("out.copy_(x.t()) three times; same data pointer:", out.data_ptr() == p)
print("out._version:", out._version, "(one per in-place write)")
print("out =", out)

if CTENSOR:
    print("\n---- ctensor only ----")
    print("storages alive for a and b: two different ones:", not torch.shares_storage(a, b))
    torch.explain(a, b, names=("a", "b"))
    if sys.argv[1:2] == ["--draw"]:
        torch.draw(x, a, b, names=("x", "a", "b"), path=f"{sys.argv[2]}/repeated_op.svg")
