"""ctensor.Size: the sizes of a tensor, a tuple printed as ``ctensor.Size([3, 4])``."""

from __future__ import annotations

__all__ = ["Size"]


class Size(tuple):
    """A tuple of ints, as torch.Size: ``x.shape == (3, 4)`` and ``x.shape[1:]`` is a Size."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        return super().__new__(cls, (_as_int(s) for s in sizes))

    def __repr__(self) -> str:
        return "ctensor.Size([" + ", ".join(str(int(s)) for s in self) + "])"

    __str__ = __repr__

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self) -> int:
        """The number of elements a tensor of these sizes holds."""
        n = 1
        for s in self:
            n *= s
        return n

    def __reduce__(self):
        return (Size, (tuple(self),))


def _as_int(s):
    if isinstance(s, float):
        raise TypeError("ctensor.Size() takes an iterable of 'int' (item 0 is 'float')")
    return s.__index__()
