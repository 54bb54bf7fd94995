"""torch's *_copy functions (torch.permute_copy, torch.view_copy, ...), generated from one table.

Each is the view op of the same name without ``_copy`` followed by a contiguous copy: a new
tensor on a new storage, not a view, whose autograd node is torch's ``<view node>_copy``
(include/ctensor.h, "Copies of views").  The table gives torch's Python signature and how the
bound arguments reach the C function; ``install`` puts the generated functions in the
package namespace and ``narrow_copy`` on Tensor (the one torch also has as a method)."""

from __future__ import annotations

import inspect

from . import _C
from ._dtype import dtype as _dtype_cls

_INT64_MAX = (1 << 63) - 1
_P = inspect.Parameter


def _ints(v, fn, arg):
    """torch's int-list argument: a sequence of ints, or one int."""
    if hasattr(v, "__index__") and not isinstance(v, float):
        return [v]
    try:
        return list(v)
    except TypeError:
        raise TypeError(f"{fn}(): argument '{arg}' must be tuple of ints, not {type(v).__name__}") from None


def _view_copy(a):
    if isinstance(a["size"], _dtype_cls):
        return _C.ct_view_dtype_copy(a["input"], a["size"])
    return _C.ct_view_copy(a["input"], _ints(a["size"], "view_copy", "size"))


def _squeeze_copy(a):
    d = a["dim"]
    if d is None:
        return _C.ct_squeeze_all_copy(a["input"])
    if isinstance(d, (tuple, list)):
        return _C.ct_squeeze_dims_copy(a["input"], list(d))
    return _C.ct_squeeze_copy(a["input"], d)


def _as_strided_copy(a):
    x = a["input"]
    off = x.storage_offset() if a["storage_offset"] is None else a["storage_offset"]
    return _C.ct_as_strided_copy(x, _ints(a["size"], "as_strided_copy", "size"),
                                 _ints(a["stride"], "as_strided_copy", "stride"), off)


def _slice_copy(a):
    start = 0 if a["start"] is None else a["start"]
    end = _INT64_MAX if a["end"] is None else a["end"]
    return _C.ct_slice_copy(a["input"], a["dim"], start, end, a["step"])


# name, torch's parameters after `input` (name or (name, default); "*" starts keyword-only),
# the C call over the bound arguments, the line of the docstring.
_TABLE = (
    ("view_copy", ("size",), _view_copy,
     "view(size) or view(dtype) of input, copied (never fails on strides: reshapes instead)."),
    ("permute_copy", ("dims",), lambda a: _C.ct_permute_copy(a["input"], _ints(a["dims"], "permute_copy", "dims")),
     "permute(dims) of input, copied."),
    ("transpose_copy", ("dim0", "dim1"), lambda a: _C.ct_transpose_copy(a["input"], a["dim0"], a["dim1"]),
     "transpose(dim0, dim1) of input, copied."),
    ("t_copy", (), lambda a: _C.ct_t_copy(a["input"]), "t() of input, copied."),
    ("diagonal_copy", (("offset", 0), ("dim1", 0), ("dim2", 1)),
     lambda a: _C.ct_diagonal_copy(a["input"], a["offset"], a["dim1"], a["dim2"]),
     "diagonal(offset, dim1, dim2) of input, copied."),
    ("expand_copy", ("size", "*", ("implicit", False)),
     lambda a: _C.ct_expand_copy(a["input"], _ints(a["size"], "expand_copy", "size")),
     "expand(size) of input, copied (dense: no stride 0)."),
    ("narrow_copy", ("dim", "start", "length"),
     lambda a: _C.ct_narrow_copy(a["input"], a["dim"], a["start"], a["length"]),
     "narrow(dim, start, length) of input, copied (NarrowCopyBackward0)."),
    ("select_copy", ("dim", "index"), lambda a: _C.ct_select_copy(a["input"], a["dim"], a["index"]),
     "select(dim, index) of input, copied."),
    ("slice_copy", (("dim", 0), ("start", None), ("end", None), ("step", 1)), _slice_copy,
     "input[start:end:step] along dim, copied."),
    ("squeeze_copy", (("dim", None),), _squeeze_copy, "squeeze(dim) of input, copied."),
    ("unsqueeze_copy", ("dim",), lambda a: _C.ct_unsqueeze_copy(a["input"], a["dim"]),
     "unsqueeze(dim) of input, copied."),
    ("unfold_copy", ("dimension", "size", "step"),
     lambda a: _C.ct_unfold_copy(a["input"], a["dimension"], a["size"], a["step"]),
     "unfold(dimension, size, step) of input, copied."),
    ("alias_copy", (), lambda a: _C.ct_alias_copy(a["input"]), "A copy of input (AliasBackward0_copy)."),
    ("as_strided_copy", ("size", "stride", ("storage_offset", None)), _as_strided_copy,
     "as_strided(size, stride, storage_offset) of input, copied."),
    ("detach_copy", (), lambda a: _C.ct_detach_copy(a["input"]),
     "A copy of input that stays in the graph (node NotImplemented: no derivative, as torch)."),
    ("unbind_copy", (("dim", 0),), lambda a: _C.ct_unbind_copy(a["input"], a["dim"]),
     "unbind(dim) of input, each piece copied (a tuple)."),
    ("split_copy", ("split_size", ("dim", 0)), lambda a: _C.ct_split_copy(a["input"], a["split_size"], a["dim"]),
     "split(split_size, dim) of input, each piece copied (a tuple)."),
    ("split_with_sizes_copy", ("split_sizes", ("dim", 0)),
     lambda a: _C.ct_split_with_sizes_copy(a["input"], a["split_sizes"], a["dim"]),
     "split_with_sizes(split_sizes, dim) of input, each piece copied (a tuple)."),
)


def _make(name, params, call, doc):
    kind = _P.POSITIONAL_OR_KEYWORD
    ps = [_P("input", kind)]
    for p in params:
        if p == "*":
            kind = _P.KEYWORD_ONLY
            continue
        pname, default = p if isinstance(p, tuple) else (p, _P.empty)
        ps.append(_P(pname, kind, default=default))
    sig = inspect.Signature(ps)

    def fn(*args, **kwargs):
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}(): {e}") from None
        bound.apply_defaults()
        return call(bound.arguments)

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "ctensor"
    fn.__signature__ = sig
    fn.__doc__ = doc
    return fn


FUNCTIONS = {name: _make(name, params, call, doc) for name, params, call, doc in _TABLE}


def install(module_globals):
    """Adds the functions to the ctensor namespace and Tensor.narrow_copy (torch has it as a method)."""
    module_globals.update(FUNCTIONS)
    narrow_copy = FUNCTIONS["narrow_copy"]

    def method(self, dim, start, length):
        return narrow_copy(self, dim, start, length)

    method.__name__ = "narrow_copy"
    method.__qualname__ = "Tensor.narrow_copy"
    method.__doc__ = FUNCTIONS["narrow_copy"].__doc__.replace("input", "self")
    _C._install(_C.Tensor, "narrow_copy", method)

