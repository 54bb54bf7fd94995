"""Seed question: "Why does x.view(batch, -1) give a tensor that looks identical to x?"

Short answer: -1 means "whatever size makes the element count right".  If x is already
(batch, features), x.view(batch, -1) infers features and returns a tensor of the same shape,
on the same memory, with the same values: a new tensor object that is a view, nothing else.
It flattens only when there are dimensions after the batch one to flatten.  view works on any
tensor, contiguous or not, as long as the dimensions it merges are adjacent in memory; and the
batch rows stay whole only if the batch dimension is the first one in memory order.

Run: PYTHONPATH=<build>/python python3 examples/seeds/view_batch_minus_one.py [--draw DIR]
The same script runs with real PyTorch (replace the import line by "import torch") and prints
the same lines, up to the "ctensor only" section.
"""
import sys

import ctensor as torch  # the examples test also runs this file with "import torch"

CTENSOR = torch.__name__ == "ctensor"

x = torch.arange(8.).view(2, 4)  # already (batch, features)
y = x.view(x.size(0), -1)
print("x.shape", tuple(x.shape), "-> x.view(2, -1).shape", tuple(y.shape), "; -1 became", y.size(1))
print("same values:", y.tolist() == x.tolist(), "; same data pointer:", y.data_ptr() == x.data_ptr(),
      "; same strides:", y.stride() == x.stride())
print("y is x:", y is x, "(a new tensor object); y._base is x._base:", y._base is x._base)

print("\n1. With dimensions to flatten, the same call flattens them")
images = torch.arange(24.).view(2, 3, 4)  # (batch, rows, cols)
flat = images.view(images.size(0), -1)
print("images.shape", tuple(images.shape), "-> view(2, -1).shape", tuple(flat.shape))
print("row 1 of flat is image 1:", flat[1].tolist() == images[1].reshape(-1).tolist())

print("\n2. Non-contiguous input: view works when no merged dimension is split in memory")
t = torch.arange(8.).view(4, 2).t()  # shape (2, 4), strides (1, 2)
print("t = arange(8).view(4, 2).t(): strides", t.stride(), "contiguous", t.is_contiguous())
print("t.view(2, -1).shape:", tuple(t.view(t.size(0), -1).shape), "(nothing to merge: allowed)")
try:
    t.view(-1)
except RuntimeError as e:
    print("t.view(-1) -> RuntimeError:", str(e))

print("\n3. The batch dimension must come first: after a permute, reshape mixes samples")
batch_last = torch.arange(6.).view(3, 2)  # 3 features of 2 samples: samples are the COLUMNS
wrong = batch_last.reshape(2, -1)
right = batch_last.t().reshape(2, -1)
print("batch_last =", batch_last.tolist())
print("batch_last.reshape(2, -1) =", wrong.tolist(), "(rows of memory, not samples)")
print("batch_last.t().reshape(2, -1) =", right.tolist(), "(one row per sample)")
print("  still batch_last's memory (nothing to merge, so a view):", right.data_ptr() == batch_last.data_ptr(),
      "; contiguous:", right.is_contiguous())
flat_samples = batch_last.t().reshape(-1)
print("batch_last.t().reshape(-1) =", flat_samples.tolist(), "; a copy:",
      flat_samples.data_ptr() != batch_last.data_ptr())

if CTENSOR:
    print("\n---- ctensor only ----")
    torch.explain(x, y, names=("x", "x.view(2, -1)"))
    if sys.argv[1:2] == ["--draw"]:
        torch.draw(x, y, names=("x", "x.view(2, -1)"), path=f"{sys.argv[2]}/view_batch_minus_one.svg")
        torch.draw(batch_last, right, flat_samples,
                   names=("batch_last", "batch_last.t().reshape(2, -1)", "batch_last.t().reshape(-1)"),
                   path=f"{sys.argv[2]}/view_batch_permuted.svg")
