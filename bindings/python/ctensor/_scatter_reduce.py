"""scatter_reduce and scatter_reduce_ as torch 2.13's Python API (Tensor methods and
torch.scatter_reduce), over ct_scatter_reduce / ct_scatter_reduce_ (include/ctensor.h).  The
out-of-place form is always a new storage; the in-place form writes into self, bumps its version
and returns self.  Index failures are RuntimeError in torch (as for scatter), which _call gives."""

from __future__ import annotations

from . import _C
from ._gather_scatter import _call, _dim, _tensor

Tensor = _C.Tensor


def _scatter_reduce(self, dim, index, src, reduce, include_self, inplace):
    op = "scatter_reduce_" if inplace else "scatter_reduce"
    d = _dim(op, dim)
    _tensor(op, "index", index)
    _tensor(op, "src", src)
    if not isinstance(reduce, str):
        raise TypeError(f"{op}(): argument 'reduce' must be str, not {type(reduce).__name__}")
    if not isinstance(include_self, bool):
        raise TypeError(f"{op}(): argument 'include_self' must be bool, not {type(include_self).__name__}")
    fn = _C.ct_scatter_reduce_ if inplace else _C.ct_scatter_reduce
    r = _call("scatter_reduce", fn, self, d, index, src, reduce, int(include_self))
    return self if inplace else r


class _ScatterReduceMethods:
    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        """A copy of self with src's values reduced into the positions index picks along dim.

        Tensor.scatter_reduce(dim, index, src, reduce, *, include_self=True); reduce is 'sum',
        'prod', 'mean', 'amax' or 'amin'."""
        return _scatter_reduce(self, dim, index, src, reduce, include_self, False)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        """scatter_reduce written into self (returns self).

        Tensor.scatter_reduce_(dim, index, src, reduce, *, include_self=True)."""
        return _scatter_reduce(self, dim, index, src, reduce, include_self, True)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_ScatterReduceMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """torch.scatter_reduce(input, dim, index, src, reduce, *, include_self=True)."""
    _tensor("scatter_reduce", "input", input)
    return _scatter_reduce(input, dim, index, src, reduce, include_self, False)
