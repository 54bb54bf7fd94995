"""gather, scatter, scatter_add, index_add, index_copy, index_fill, take, put and index_put as
torch 2.13's Python API (methods, in-place methods and module functions), over the C functions
ct_gather ... ct_index_put_ (include/ctensor.h).  Out-of-place results are always on a new
storage; the in-place methods write into self, bump its version and return self.

The C API reports an index out of range as CT_ERR_INDEX and a refused dtype as CT_ERR_DTYPE;
torch raises IndexError for some of these and RuntimeError for others (checked against torch
2.13), so _call re-raises each failure with torch's class."""

from __future__ import annotations

import operator
import warnings

from . import _C

Tensor = _C.Tensor

# Ops whose index failures torch raises as IndexError (the others: RuntimeError).
_INDEX_ERROR_OPS = frozenset({"index_copy", "index_fill", "take", "put", "index_put"})


def _call(op, fn, *args):
    try:
        return fn(*args)
    except IndexError as e:
        msg = str(e)
        if op in _INDEX_ERROR_OPS or msg.startswith("Dimension out of range") or "supposed to be a vector" in msg:
            raise
        raise RuntimeError(msg) from None
    except TypeError as e:
        if str(e).startswith("in method"):  # an argument SWIG could not convert
            raise
        raise RuntimeError(str(e)) from None


def _dim(op, dim):
    try:
        return operator.index(dim)
    except TypeError:
        raise TypeError(f"{op}(): argument 'dim' must be int, not {type(dim).__name__}") from None


def _tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{op}(): argument '{name}' must be Tensor, not {type(value).__name__}")
    return value


def _number(op, name, value):
    if isinstance(value, (bool, int, float)):
        return float(value)
    try:
        return float(operator.index(value))
    except TypeError:
        pass
    if hasattr(value, "__float__") and not isinstance(value, Tensor):
        return float(value)
    raise TypeError(f"{op}(): argument '{name}' must be Number, not {type(value).__name__}")


_reduce_warned = False


def _reduce_warning():
    """torch's TORCH_WARN_ONCE: the first scatter with a Tensor src and reduce= in the process."""
    global _reduce_warned
    if _reduce_warned:
        return
    _reduce_warned = True
    warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
                  "future PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
                  UserWarning, stacklevel=4)


def _scatter(self, dim, index, src, value, reduce, inplace, args_src=None):
    op = "scatter_" if inplace else "scatter"
    if args_src is not None:
        if src is not None or value is not None:
            raise TypeError(f"{op}() got multiple values for argument 'src'")
        if isinstance(args_src, Tensor):
            src = args_src
        else:
            value = args_src
    if src is None and value is None:
        raise TypeError(f"{op}() missing required argument 'src' or 'value'")
    d = _dim(op, dim)
    _tensor(op, "index", index)
    if reduce is not None and not isinstance(reduce, str):
        raise TypeError(f"{op}(): argument 'reduce' must be str, not {type(reduce).__name__}")
    if src is not None:
        _tensor(op, "src", src)
        if reduce is not None:
            _reduce_warning()
        fn = _C.ct_scatter_ if inplace else _C.ct_scatter
        r = _call("scatter", fn, self, d, index, src, reduce)
    else:
        fn = _C.ct_scatter_value_ if inplace else _C.ct_scatter_value
        r = _call("scatter", fn, self, d, index, _number(op, "value", value), reduce)
    return self if inplace else r


def _index_fill(self, dim, index, value, inplace):
    op = "index_fill_" if inplace else "index_fill"
    d = _dim(op, dim)
    _tensor(op, "index", index)
    if isinstance(value, Tensor):
        fn = _C.ct_index_fill_tensor_ if inplace else _C.ct_index_fill_tensor
        r = _call("index_fill", fn, self, d, index, value)
    else:
        fn = _C.ct_index_fill_ if inplace else _C.ct_index_fill
        r = _call("index_fill", fn, self, d, index, _number(op, "value", value))
    return self if inplace else r


def _index_put(self, indices, values, accumulate, inplace):
    op = "index_put_" if inplace else "index_put"
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{op}(): argument 'indices' must be tuple of Tensors, not {type(indices).__name__}")
    for ix in indices:
        _tensor(op, "indices", ix)
    _tensor(op, "values", values)
    fn = _C.ct_index_put_ if inplace else _C.ct_index_put
    r = _call("index_put", fn, self, list(indices), values, int(bool(accumulate)))
    return self if inplace else r


class _GatherScatterMethods:
    def gather(self, dim, index, *, sparse_grad=False):
        """A copy with index's shape of self's entries picked along dim by index.

        Tensor.gather(dim, index, *, sparse_grad=False); index is int64 or int32 with self's
        ndim; the result is on a new storage."""
        if sparse_grad:
            raise RuntimeError("gather(): sparse_grad=True needs sparse tensors, which ctensor does not have")
        return _call("gather", _C.ct_gather, self, _dim("gather", dim), _tensor("gather", "index", index))

    def scatter(self, dim, index, src=None, value=None, *, reduce=None):
        """A copy of self with src's entries (or value) written at index along dim.

        Tensor.scatter(dim, index, src | value, *, reduce=None); reduce='add' / 'multiply'
        combines with the element there."""
        if src is not None and not isinstance(src, Tensor) and value is None:
            src, value = None, src
        return _scatter(self, dim, index, src, value, reduce, False)

    def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
        """scatter written into self (returns self).

        Tensor.scatter_(dim, index, src | value, *, reduce=None)."""
        if src is not None and not isinstance(src, Tensor) and value is None:
            src, value = None, src
        return _scatter(self, dim, index, src, value, reduce, True)

    def scatter_add(self, dim, index, src):
        """A copy of self with src's entries added at index along dim (duplicates add up).

        Tensor.scatter_add(dim, index, src)."""
        return _call("scatter_add", _C.ct_scatter_add, self, _dim("scatter_add", dim),
                     _tensor("scatter_add", "index", index), _tensor("scatter_add", "src", src))

    def scatter_add_(self, dim, index, src):
        """scatter_add written into self (returns self).

        Tensor.scatter_add_(dim, index, src)."""
        _call("scatter_add", _C.ct_scatter_add_, self, _dim("scatter_add_", dim),
              _tensor("scatter_add_", "index", index), _tensor("scatter_add_", "src", src))
        return self

    def index_add(self, dim, index, source, *, alpha=1):
        """A copy of self with alpha * source's slices added to the slices index picks along dim.

        Tensor.index_add(dim, index, source, *, alpha=1)."""
        return _call("index_add", _C.ct_index_add, self, _dim("index_add", dim), _tensor("index_add", "index", index),
                     _tensor("index_add", "source", source), _number("index_add", "alpha", alpha))

    def index_add_(self, dim, index, source, *, alpha=1):
        """index_add written into self (returns self).

        Tensor.index_add_(dim, index, source, *, alpha=1)."""
        _call("index_add", _C.ct_index_add_, self, _dim("index_add_", dim), _tensor("index_add_", "index", index),
              _tensor("index_add_", "source", source), _number("index_add_", "alpha", alpha))
        return self

    def index_copy(self, dim, index, source):
        """A copy of self whose slices picked by index along dim are source's.

        Tensor.index_copy(dim, index, source)."""
        return _call("index_copy", _C.ct_index_copy, self, _dim("index_copy", dim),
                     _tensor("index_copy", "index", index), _tensor("index_copy", "source", source))

    def index_copy_(self, dim, index, source):
        """index_copy written into self (returns self).

        Tensor.index_copy_(dim, index, source)."""
        _call("index_copy", _C.ct_index_copy_, self, _dim("index_copy_", dim),
              _tensor("index_copy_", "index", index), _tensor("index_copy_", "source", source))
        return self

    def index_fill(self, dim, index, value):
        """A copy of self with the slices picked by index along dim set to value.

        Tensor.index_fill(dim, index, value); value is a number or a 0-dim tensor."""
        return _index_fill(self, dim, index, value, False)

    def index_fill_(self, dim, index, value):
        """index_fill written into self (returns self).

        Tensor.index_fill_(dim, index, value)."""
        return _index_fill(self, dim, index, value, True)

    def take(self, index):
        """A copy with index's shape of self's entries at index, self read as 1-D in C order.

        Tensor.take(index)."""
        return _call("take", _C.ct_take, self, _tensor("take", "index", index))

    def put(self, index, source, accumulate=False):
        """A copy of self with source written (or added) at the C-order flat positions index.

        Tensor.put(index, source, accumulate=False)."""
        return _call("put", _C.ct_put, self, _tensor("put", "index", index), _tensor("put", "source", source),
                     int(bool(accumulate)))

    def put_(self, index, source, accumulate=False):
        """put written into self (returns self).

        Tensor.put_(index, source, accumulate=False)."""
        _call("put", _C.ct_put_, self, _tensor("put_", "index", index), _tensor("put_", "source", source),
              int(bool(accumulate)))
        return self

    def index_put(self, indices, values, accumulate=False):
        """A copy of self with self[indices] = values (or += with accumulate).

        Tensor.index_put(indices, values, accumulate=False); duplicates add up with accumulate."""
        return _index_put(self, indices, values, accumulate, False)

    def index_put_(self, indices, values, accumulate=False):
        """index_put written into self (returns self).

        Tensor.index_put_(indices, values, accumulate=False)."""
        return _index_put(self, indices, values, accumulate, True)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_GatherScatterMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions ------------------------------------------------------------------------

def gather(input, dim, index, *, sparse_grad=False):
    """torch.gather(input, dim, index, *, sparse_grad=False)."""
    return _GatherScatterMethods.gather(input, dim, index, sparse_grad=sparse_grad)


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """torch.scatter(input, dim, index, src | value, *, reduce=None)."""
    return _GatherScatterMethods.scatter(input, dim, index, src, value, reduce=reduce)


def scatter_add(input, dim, index, src):
    """torch.scatter_add(input, dim, index, src)."""
    return _GatherScatterMethods.scatter_add(input, dim, index, src)


def index_add(input, dim, index, source, *, alpha=1):
    """torch.index_add(input, dim, index, source, *, alpha=1)."""
    return _GatherScatterMethods.index_add(input, dim, index, source, alpha=alpha)


def index_copy(input, dim, index, source):
    """torch.index_copy(input, dim, index, source)."""
    return _GatherScatterMethods.index_copy(input, dim, index, source)


def index_fill(input, dim, index, value):
    """torch.index_fill(input, dim, index, value)."""
    return _GatherScatterMethods.index_fill(input, dim, index, value)


def take(input, index):
    """torch.take(input, index)."""
    return _GatherScatterMethods.take(input, index)


def put(input, index, source, accumulate=False):
    """torch.put(input, index, source, accumulate=False)."""
    return _GatherScatterMethods.put(input, index, source, accumulate)


def index_put(input, indices, values, accumulate=False):
    """torch.index_put(input, indices, values, accumulate=False)."""
    return _GatherScatterMethods.index_put(input, indices, values, accumulate)


def index_put_(input, indices, values, accumulate=False):
    """torch.index_put_(input, indices, values, accumulate=False)."""
    return _GatherScatterMethods.index_put_(input, indices, values, accumulate)
