"""The split family and the other composite views, over the header's functions
(ctensor.h, "The split family and other composite views"): tensor_split, hsplit, vsplit,
dsplit, split_with_sizes, unsafe_split, unsafe_split_with_sizes, unsafe_chunk, unflatten,
movedim/moveaxis, swapaxes/swapdims, broadcast_to, broadcast_tensors, broadcast_shapes and
atleast_1d/2d/3d, with torch 2.13's signatures, argument rules and messages.  (expand_as,
view_as, reshape_as, swapaxes and swapdims are methods written in ctensor.i / fastpath.c over
the same C functions.)"""

from __future__ import annotations

import re

from . import _C

Tensor = _C.Tensor

__all__ = ["tensor_split", "hsplit", "vsplit", "dsplit", "split_with_sizes", "unsafe_split",
           "unsafe_split_with_sizes", "unsafe_chunk", "unflatten", "movedim", "moveaxis", "swapaxes",
           "swapdims", "broadcast_to", "broadcast_tensors", "broadcast_shapes", "atleast_1d",
           "atleast_2d", "atleast_3d", "install"]


def _is_int(v):
    """An int argument as torch's parser takes it: int, or anything with __index__ (a 0-dim
    integer tensor included), but not bool's float cousins."""
    if isinstance(v, bool):
        return False
    if isinstance(v, Tensor):
        return v.dim() == 0 and not v.is_floating_point()
    return not isinstance(v, float) and hasattr(v, "__index__")


def _int_seq(v):
    return isinstance(v, (list, tuple)) and all(_is_int(e) for e in v)


def _type_desc(v):
    if isinstance(v, (list, tuple)):
        inner = sorted({type(e).__name__ for e in v})
        return f"{type(v).__name__} of [{', '.join(inner)}]"
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def _ints(v):
    return [int(e) if not isinstance(e, Tensor) else int(e.item()) for e in v]


# ---- tensor_split and the directional splits ------------------------------------------------

_TENSOR_SPLIT_FORMS = (" * (Tensor input, tuple of ints indices, int dim = 0)\n"
                       " * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n"
                       " * (Tensor input, int sections, int dim = 0)\n")


def _tensor_split(input, spec, dim, method):
    if isinstance(spec, Tensor):  # torch's Tensor overload: int64, 0-dim (sections) or 1-D (indices)
        return _C.ct_tensor_split_tensor(input, spec, dim)
    if _is_int(spec):
        return _C.ct_tensor_split(input, int(spec), dim)
    if _int_seq(spec):
        return _C.ct_tensor_split_indices(input, _ints(spec), dim)
    forms = _TENSOR_SPLIT_FORMS.replace("Tensor input, ", "") if method else _TENSOR_SPLIT_FORMS
    got = f"({type(spec).__name__})" if method else f"(Tensor, {type(spec).__name__})"
    raise TypeError(f"tensor_split() received an invalid combination of arguments - got {got}, "
                    f"but expected one of:\n{forms}")


def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    """Views of input along dim: `sections` pieces (the first size % sections one longer), or
    pieces cut at `indices`, or either given as an int64 tensor (0-dim: sections; 1-D: indices).
    Each piece is an ordinary view (SliceBackward0)."""
    spec = _one_spec(indices_or_sections, sections, indices, tensor_indices_or_sections)
    return _tensor_split(input, spec, dim, method=False)


def _one_spec(*given):
    found = [g for g in given if g is not None]
    if len(found) != 1:
        raise TypeError("tensor_split() missing required argument 'indices_or_sections'")
    return found[0]


def _directional(which, input, spec, method):
    if _is_int(spec) and not isinstance(spec, bool):
        return getattr(_C, f"ct_{which}")(input, int(spec))
    if _int_seq(spec):
        return getattr(_C, f"ct_{which}_indices")(input, _ints(spec))
    if method:
        raise TypeError(f"{which}() received an invalid combination of arguments - got ({type(spec).__name__}), "
                        f"but expected one of:\n * (int sections)\n * (tuple of ints indices)\n")
    bad = _type_desc(spec)
    raise TypeError(
        f"{which}() received an invalid combination of arguments - got (Tensor, {type(spec).__name__}), but "
        f"expected one of:\n"
        f" * (Tensor input, int sections)\n"
        f"      didn't match because some of the arguments have invalid types: (Tensor, !{bad}!)\n"
        f" * (Tensor input, tuple of ints indices)\n"
        f"      didn't match because some of the arguments have invalid types: (Tensor, !{bad}!)\n")


def hsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """tensor_split along dim 1 (dim 0 of a 1-D input); an int must divide that dim's size."""
    return _directional("hsplit", input, _one_spec(indices_or_sections, sections, indices), False)


def vsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """tensor_split along dim 0 of an input of at least 2 dims; an int must divide its size."""
    return _directional("vsplit", input, _one_spec(indices_or_sections, sections, indices), False)


def dsplit(input, indices_or_sections=None, *, sections=None, indices=None):
    """tensor_split along dim 2 of an input of at least 3 dims; an int must divide its size."""
    return _directional("dsplit", input, _one_spec(indices_or_sections, sections, indices), False)


def split_with_sizes(input, split_sizes, dim=0):
    """Views of the given lengths along dim (SplitWithSizesBackward0, multi-output views)."""
    return _C.ct_split_with_sizes(input, split_sizes, dim)


# ---- unsafe splits: the same pieces, not views -------------------------------------------------

def _unsafe_split_size(split_size, pos):
    if not _is_int(split_size):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position {pos}) must be int, "
                        f"not {type(split_size).__name__}")
    return int(split_size)


def unsafe_split(tensor, split_size_or_sections, dim=0):
    """split's pieces on tensor's storage that are not views (own version counters)."""
    return _C.ct_unsafe_split(tensor, _unsafe_split_size(split_size_or_sections, 2), dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """split_with_sizes' pieces on input's storage that are not views."""
    return _C.ct_unsafe_split_with_sizes(input, split_sizes, dim)


def unsafe_chunk(input, chunks, dim=0):
    """chunk's pieces on input's storage that are not views."""
    return _C.ct_unsafe_chunk(input, chunks, dim)


# ---- single views ---------------------------------------------------------------------------

def unflatten(input, dim, sizes):
    """A view with dim replaced by the dims of sizes (one may be -1)."""
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, not "
                        f"{type(sizes).__name__}")
    for i, s in enumerate(sizes):
        if not _is_int(s):
            raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found "
                            f"element of type {type(s).__name__} at pos {i}")
    return _C.ct_unflatten(input, dim, _ints(sizes))


def movedim(input, source, destination):
    """A view with dims source moved to positions destination (ints or sequences of ints)."""
    if _is_int(source) and _is_int(destination):
        return _C.ct_movedim(input, [int(source)], [int(destination)])
    if _int_seq(source) and _int_seq(destination):
        if len(source) != len(destination):  # (ct_movedim takes one count for both lists)
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
                               f"contain the same number of dims as destination ({list(destination)} dims)")
        return _C.ct_movedim(input, _ints(source), _ints(destination))
    s, d = _type_desc(source), _type_desc(destination)
    mark = lambda ok, t: t if ok else f"!{t}!"  # noqa: E731
    raise TypeError(
        f"movedim() received an invalid combination of arguments - got ({type(source).__name__}, "
        f"{type(destination).__name__}), but expected one of:\n"
        f" * (int source, int destination)\n"
        f"      didn't match because some of the arguments have invalid types: "
        f"({mark(_is_int(source), s)}, {mark(_is_int(destination), d)})\n"
        f" * (tuple of ints source, tuple of ints destination)\n"
        f"      didn't match because some of the arguments have invalid types: "
        f"({mark(_int_seq(source), s)}, {mark(_int_seq(destination), d)})\n")


moveaxis = movedim


def swapaxes(input, axis0, axis1):
    """transpose under numpy's name: a view with two dims swapped."""
    return _C.ct_swapaxes(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    """transpose: a view with two dims swapped."""
    return _C.ct_swapdims(input, dim0, dim1)


def _size_list(size, fn):
    if _is_int(size):
        return [int(size)]
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"{fn}(): argument 'size' (position 2) must be tuple of ints, not {type(size).__name__}")
    for i, s in enumerate(size):
        if not _is_int(s):
            raise TypeError(f"{fn}(): argument 'size' (position 2) must be tuple of ints, but found element of "
                            f"type {type(s).__name__} at pos {i}")
    return _ints(size)


def broadcast_to(input, size):
    """expand(size): a view with stride 0 on the broadcast dims (ExpandBackward0)."""
    if _is_int(size):
        raise TypeError(f"broadcast_to(): argument 'size' (position 2) must be tuple of ints, not "
                        f"{type(size).__name__}")
    return _C.ct_broadcast_to(input, _size_list(size, "broadcast_to"))


def _method_broadcast_to(self, size, *more):
    return _C.ct_broadcast_to(self, _size_list(size if not more else (size,) + more, "broadcast_to"))


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (a tensor already of that shape: itself)."""
    return _C.ct_broadcast_tensors(list(tensors))


_MISMATCH = re.compile(r"Mismatching argument at index (\d+) had \([^)]*\);")


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (ints, or sequences of ints; None is skipped)."""
    from ._size import Size
    given = [(s,) if _is_int(s) else s for s in shapes if s is not None]
    for s in given:
        if not isinstance(s, (list, tuple)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    try:
        return Size(_C.ct_broadcast_shapes([_ints(s) for s in given]))
    except RuntimeError as e:  # torch prints the argument as Python does (a list as [3])
        m = _MISMATCH.search(str(e))
        if m is None:
            if "negative length" in str(e):
                raise ValueError(str(e)) from None
            raise
        shown = given[int(m.group(1))]
        raise RuntimeError(str(e)[:m.start()] + f"Mismatching argument at index {m.group(1)} had {shown!r};"
                           + str(e)[m.end():]) from None


def _atleast(rank, tensors):
    fn = getattr(_C, f"ct_atleast_{rank}d")
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return fn(tensors[0])
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        bad = type(tensors[0]).__name__
        raise TypeError(
            f"atleast_{rank}d() received an invalid combination of arguments - got ({bad}), but expected one "
            f"of:\n * (Tensor input)\n      didn't match because some of the arguments have invalid types: "
            f"(!{bad}!)\n * (tuple of Tensors tensors)\n      didn't match because some of the arguments have "
            f"invalid types: (!{bad}!)\n")
    seq = tensors[0] if len(tensors) == 1 else tensors
    for i, t in enumerate(seq):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return tuple(fn(t) for t in seq)


def atleast_1d(*tensors):
    """Each tensor with at least 1 dim: itself, or a [1] view of a 0-dim tensor."""
    return _atleast(1, tensors)


def atleast_2d(*tensors):
    """Each tensor with at least 2 dims: itself, a [1, n] view of a 1-D one, [1, 1] of a 0-dim one."""
    return _atleast(2, tensors)


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims: itself, [m, n, 1] of a 2-D one, [1, n, 1] of a 1-D one,
    [1, 1, 1] of a 0-dim one."""
    return _atleast(3, tensors)


class _Methods:
    """Tensor methods (installed by install())."""

    def tensor_split(self, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                     tensor_indices_or_sections=None):
        """Views along dim: sections pieces, or pieces cut at indices (see ctensor.tensor_split)."""
        spec = _one_spec(indices_or_sections, sections, indices, tensor_indices_or_sections)
        return _tensor_split(self, spec, dim, method=True)

    def hsplit(self, split_size_or_sections=None, *, sections=None, indices=None):
        """ctensor.hsplit(self, ...)."""
        return _directional("hsplit", self, _one_spec(split_size_or_sections, sections, indices), True)

    def vsplit(self, split_size_or_sections=None, *, sections=None, indices=None):
        """ctensor.vsplit(self, ...)."""
        return _directional("vsplit", self, _one_spec(split_size_or_sections, sections, indices), True)

    def dsplit(self, split_size_or_sections=None, *, sections=None, indices=None):
        """ctensor.dsplit(self, ...)."""
        return _directional("dsplit", self, _one_spec(split_size_or_sections, sections, indices), True)

    def split_with_sizes(self, split_sizes, dim=0):
        """Views of the given lengths along dim (SplitWithSizesBackward0)."""
        return _C.ct_split_with_sizes(self, split_sizes, dim)

    def unsafe_split(self, split_size, dim=0):
        """split's pieces, not views (UnsafeSplitBackward0; own version counters)."""
        return _C.ct_unsafe_split(self, _unsafe_split_size(split_size, 1), dim)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        """split_with_sizes' pieces, not views (UnsafeSplitWithSizesBackward0)."""
        return _C.ct_unsafe_split_with_sizes(self, split_sizes, dim)

    def unsafe_chunk(self, chunks, dim=0):
        """chunk's pieces, not views."""
        return _C.ct_unsafe_chunk(self, chunks, dim)

    def unflatten(self, dim, sizes):
        """A view with dim replaced by the dims of sizes (one may be -1)."""
        return unflatten(self, dim, sizes)

    def movedim(self, source, destination):
        """A view with dims moved from source to destination positions (PermuteBackward0)."""
        return movedim(self, source, destination)

    moveaxis = movedim

    def broadcast_to(self, size, *more):
        """expand(size): a broadcast view (ExpandBackward0)."""
        return _method_broadcast_to(self, size, *more)

    def swapaxes_(self, axis0, axis1):
        """transpose_: swaps dims dim0 and dim1 of self in place. Returns self."""
        _C.ct_swapaxes_(self, axis0, axis1)
        return self

    def swapdims_(self, dim0, dim1):
        """transpose_: swaps dims dim0 and dim1 of self in place. Returns self."""
        _C.ct_swapdims_(self, dim0, dim1)
        return self


def install():
    """Adds the methods above to ctensor.Tensor."""
    for name, value in vars(_Methods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)
