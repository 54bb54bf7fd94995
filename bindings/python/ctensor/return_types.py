"""Named results of ctensor operations, as torch.return_types: ``x.max(dim)`` returns
``ctensor.return_types.max(values=..., indices=...)``, a tuple whose fields are also
attributes, printed as torch prints its structseq (one field per line)."""

from __future__ import annotations

__all__ = ["max", "min", "max_out", "min_out"]


class _ValuesIndices(tuple):
    """(values, indices): a read-only tuple of two tensors, built from one 2-sequence as torch's."""

    __slots__ = ()
    n_fields = 2
    n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, sequence):
        t = tuple(sequence)
        if len(t) != 2:
            raise TypeError(f"ctensor.return_types.{cls.__name__}() takes a 2-sequence ({len(t)}-sequence given)")
        return super().__new__(cls, t)

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return f"ctensor.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    __str__ = __repr__

    def __reduce__(self):
        return (type(self), (tuple(self),))


class max(_ValuesIndices):
    """The result of max(dim): the largest values along dim and their first indices."""

    __slots__ = ()


class max_out(_ValuesIndices):
    """What torch.max(input, dim, out=(values, indices)) returns: the two out tensors."""

    __slots__ = ()


class min_out(_ValuesIndices):
    """What torch.min(input, dim, out=(values, indices)) returns."""

    __slots__ = ()


class min(_ValuesIndices):
    """The result of min(dim): the smallest values along dim and their first indices."""

    __slots__ = ()


max.__module__ = min.__module__ = "ctensor.return_types"


# ---- sort and topk (_scan_sort.py) ---------------------------------------------------------

class sort(_ValuesIndices):
    """The result of sort(): the sorted values and the positions they came from."""

    __slots__ = ()


class topk(_ValuesIndices):
    """The result of topk(): the k largest (or smallest) values and their positions."""

    __slots__ = ()


sort.__module__ = topk.__module__ = "ctensor.return_types"
__all__ += ["sort", "topk"]
