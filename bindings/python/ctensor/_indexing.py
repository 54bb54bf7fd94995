"""Indexing that is not a plain view: integer/boolean tensors and lists (advanced indexing).

The C fast path (fastpath.c) handles keys made only of ints, slices, None and Ellipsis with
one ct_as_strided call.  Every other key comes here.  The algorithm is torch 2.13's
(torch/csrc/autograd/python_variable_indexing.cpp, ATen/TensorIndexing.h, ATen/native/
TensorAdvancedIndexing.cpp):
  1. applySlicing: the basic indices are applied left to right (select, slice, unsqueeze), and
     each tensor index is recorded at the dimension it applies to;
  2. index(): boolean masks become the columns of their nonzero(); the index tensors are
     broadcast together; if they are not adjacent their dimensions move to the front; the
     result is  dims before + broadcast shape + dims after, a copy.
Step 2 is one C call, ct_index (torch's aten::index: IndexBackward0 in a graph), with the
recorded list (None for a dim not indexed).  Its result is C-ordered; the memory layout torch's
TensorIterator gives (it follows the input's) is then worked out here and, when it is not C
order (a transposed input) and the result is outside a graph, the result is assembled in a
buffer with those strides (_relayout).  Assignment is one ct_index_put_ (IndexPutBackward0,
one version bump), with a Python number converted to self's dtype first (a tensor value must
have self's dtype, as in torch)."""

from __future__ import annotations

import array
import operator
import warnings

from . import _C
from . import _dtype as D
from ._creation import _is_numpy_array, _is_numpy_scalar, tensor as _tensor

__all__ = ["getitem", "setitem"]

Tensor = _C.Tensor
_INT64_MAX = 2**63 - 1


# ---- keys ---------------------------------------------------------------------------------

def _treat_sequence_as_tuple(key):
    """NumPy's (and torch's) heuristic: a short list holding slices, None, Ellipsis, tensors or
    sequences is read as a tuple of indices."""
    if isinstance(key, tuple):
        return True
    if isinstance(key, Tensor) or not _is_sequence(key):
        return False
    try:
        n = len(key)
    except TypeError:
        return False
    if n >= 32:
        return False
    for obj in key:
        if isinstance(obj, (Tensor, slice)) or obj is None or obj is Ellipsis or _is_sequence(obj):
            return True
    return False


def _is_sequence(obj):
    return isinstance(obj, (list, tuple)) or _is_numpy_array(obj) or (
        hasattr(obj, "__len__") and hasattr(obj, "__getitem__")
        and not isinstance(obj, (str, bytes, dict, Tensor)) and not _is_numpy_scalar(obj))


def _is_int(obj):
    if isinstance(obj, bool) or isinstance(obj, Tensor):
        return False
    if isinstance(obj, int):
        return True
    if _is_numpy_scalar(obj):
        return obj.dtype.kind in "iu"
    return not isinstance(obj, float) and hasattr(obj, "__index__") and not _is_sequence(obj)


def _is_bool(obj):
    return isinstance(obj, bool) or (_is_numpy_scalar(obj) and obj.dtype.kind == "b")


def _index_tensor_from_data(obj):
    """torch's indexing_tensor_from_data: bool/uint8 data stays a mask, anything else becomes
    int64 (floats are truncated)."""
    if _is_numpy_array(obj):
        t = _tensor(obj)
        return t if t.dtype in (D.bool, D.uint8, D.int64) else _C.ct_to(t, D.int64)
    t = _tensor(obj)
    if t.dtype in (D.bool, D.uint8, D.int64):
        return t
    return _tensor(obj, dtype=D.int64)


def _wrap_items(key):
    items = list(key) if _treat_sequence_as_tuple(key) else [key]
    out = []
    for obj in items:
        if obj is None or obj is Ellipsis or isinstance(obj, slice):
            out.append(obj)
        elif _is_bool(obj):
            out.append(bool(obj))
        elif _is_int(obj):
            out.append(operator.index(obj))
        elif isinstance(obj, Tensor):
            out.append(obj)
        elif isinstance(obj, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
        elif _is_sequence(obj):
            out.append(_index_tensor_from_data(obj))
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             "Variables are valid indices (got " + type(obj).__name__ + ")")
    return out


def _count_specified_dims(items):
    count = 0
    for obj in items:
        if isinstance(obj, Tensor):
            count += obj.dim() if obj.dtype in (D.bool, D.uint8) else 1
        elif obj is None or obj is Ellipsis or isinstance(obj, bool):
            continue
        else:
            count += 1
    return count


# ---- step 1: applySlicing ------------------------------------------------------------------

def _select(result, dim, index, real_dim):
    if result.dim() == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    size = result.size(dim)
    if index < -size or index >= size:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {size}")
    return _C.ct_select(result, dim, index)


def _slice(result, dim, s):
    if result.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    step = 1 if s.step is None else operator.index(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    start = 0 if s.start is None else max(min(operator.index(s.start), _INT64_MAX), -_INT64_MAX)
    stop = _INT64_MAX if s.stop is None else max(min(operator.index(s.stop), _INT64_MAX), -_INT64_MAX)
    if start == 0 and step == 1 and stop >= result.size(dim):  # torch 2.13's applySlice: no op
        return result
    return _C.ct_slice(result, dim, start, stop, step)


def _bool_to_index(b):
    return _C.ct_from_data(array.array("q", [0] if b else []), (1 if b else 0,), D.int64)


def _apply_slicing(self, items):
    """Returns (sliced view, list of index tensors or None by dimension of the view, a mask
    standing for as many dims as it has)."""
    ndim = self.dim()
    specified = _count_specified_dims(items)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result = self
    dim = 0
    masked = 0  # dims covered by masks beyond their first (torch 2.x: x[mask2d, 1] selects in dim 2)
    indices = []

    def record(t):
        nonlocal dim, masked
        slot = dim - masked
        while len(indices) < slot + 1:
            indices.append(None)
        indices[slot] = t
        k = t.dim() if t.dtype in (D.bool, D.uint8) else 1
        dim += max(k, 1)
        masked += max(k, 1) - 1

    for i, obj in enumerate(items):
        if obj is None:
            result = _C.ct_unsqueeze(result, dim)
            dim += 1
        elif obj is Ellipsis:  # torch allows several; each moves the pointer
            dim += ndim - specified
        elif isinstance(obj, slice):
            result = _slice(result, dim, obj)
            dim += 1
        elif isinstance(obj, bool):
            result = _C.ct_unsqueeze(result, dim)
            record(_bool_to_index(obj))
        elif isinstance(obj, int):
            result = _select(result, dim, obj, i)
        else:  # a tensor
            if obj.dim() == 0 and not obj.dtype.is_floating_point:
                if obj.dtype in (D.bool, D.uint8):
                    result = _C.ct_unsqueeze(result, dim)
                    record(_bool_to_index(obj.item() != 0))
                else:
                    result = _select(result, dim, obj.item(), i)
            else:
                record(obj)
    return result, indices


# ---- step 2: index ------------------------------------------------------------------------

def _nonzero_columns(mask):
    """The columns of mask.nonzero(), as torch's expandTensors gives them (views of an (n, k)
    int64 tensor, so column j has stride k)."""
    nz = _C.ct_nonzero(mask)
    return [_C.ct_select(nz, 1, j) for j in range(mask.dim())]


def _broadcast_shapes(shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, v in enumerate(s):
            j = ndim - len(s) + i
            if v != 1:
                if out[j] != 1 and out[j] != v:
                    raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                                     "with shapes " + ", ".join(str(list(x)) for x in shapes))
                out[j] = v
    return tuple(out)


def _prepare(src, indices):
    """torch's make_info, for the result's layout only (ct_index has checked the indices): expand
    masks, broadcast, move to the front if the indexed dims are not adjacent.  Returns (src, index tensors broadcast to B, position of the
    first indexed dim, B)."""
    expanded = []
    for idx in indices:
        if idx is None:
            expanded.append(None)
            continue
        if idx.dtype in (D.bool, D.uint8):  # (the uint8 warning: _index_list)
            j = len(expanded)
            for k in range(idx.dim()):
                if j + k >= src.dim() or idx.size(k) != src.size(j + k):
                    raise IndexError(f"The shape of the mask {list(idx.shape)} at index {k} does not "
                                     f"match the shape of the indexed tensor {list(src.shape)} at index "
                                     f"{j + k}")
            expanded.extend(_nonzero_columns(idx))
        elif idx.dtype is D.int64:
            expanded.append(idx)
        elif idx.dtype is D.int32:  # torch 2.x indexes with int32 too
            expanded.append(_C.ct_to(idx, D.int64))
        else:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if len(expanded) > src.dim():
        raise IndexError(f"too many indices for tensor of dimension {src.dim()} (got {len(expanded)})")
    while len(expanded) < src.dim():
        expanded.append(None)
    defined = [p for p, e in enumerate(expanded) if e is not None]
    B = _broadcast_shapes([tuple(expanded[p].shape) for p in defined])
    for p in defined:
        if tuple(expanded[p].shape) != B:
            expanded[p] = _C.ct_expand(expanded[p], B)
    adjacent = defined == list(range(defined[0], defined[-1] + 1))
    if not adjacent:
        order = defined + [d for d in range(src.dim()) if d not in defined]
        src = _C.ct_permute(src, order)
        expanded = [expanded[d] for d in order]
        defined = list(range(len(defined)))
    return src, [expanded[p] for p in defined], defined[0], B


def _contiguous_strides(shape):
    st = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        st[d] = st[d + 1] * max(shape[d + 1], 1)
    return tuple(st)


def _iterator_strides(shape, operands):
    """The strides TensorIterator gives a new output of `shape`, from the input operands'
    strides (torch's reorder_dimensions: an insertion sort of the dims, fastest first)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        for st in operands:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            c = should_swap(perm[dim0], perm[dim1])
            if c > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif c < 0:
                break
    out = [0] * ndim
    nxt = 1
    for d in perm:
        out[d] = nxt
        nxt *= shape[d]
    return tuple(out), perm == list(range(ndim - 1, -1, -1))


def _is_contiguous(shape, strides):
    if 0 in shape:
        return True
    expected = 1
    for n, st in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if st != expected:
                return False
            expected *= n
    return True


def _is_non_overlapping_and_dense(shape, strides):
    if _is_contiguous(shape, strides):
        return True
    order = sorted(range(len(shape)), key=lambda d: (strides[d], shape[d]))
    expected = 1
    for d in order:
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def _fast_setup(out_shape, operands):
    """TensorIterator's fast_set_up: operands of the output's very shape (no broadcasting) that
    are all contiguous give a contiguous output, all dense with equal strides give those
    strides; else None (the dims are reordered)."""
    if any(tuple(sh) != tuple(out_shape) for sh, _ in operands):
        return None
    if all(_is_contiguous(sh, st) for sh, st in operands):
        return "contiguous"
    first = operands[0][1]
    if all(_is_non_overlapping_and_dense(sh, st) and tuple(st) == tuple(first) for sh, st in operands):
        return tuple(first)
    return None


def _view_strides(oldshape, oldstride, newshape):
    """ATen's computeStride (the strides of t.view(newshape)), which reshape_indexer uses."""
    numel = 1
    for s in oldshape:
        numel *= s
    if numel == 0:
        if tuple(oldshape) == tuple(newshape):
            return tuple(oldstride)
        return _contiguous_strides(newshape)  # "as if computed via resize"
    newstride = [0] * len(newshape)
    if not oldshape:
        return tuple([1] * len(newshape))
    view_d = len(newshape) - 1
    chunk_base_stride = oldstride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(oldshape) - 1, -1, -1):
        tensor_numel *= oldshape[tensor_d]
        if tensor_d == 0 or (oldshape[tensor_d - 1] != 1 and
                             oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base_stride
                view_numel *= newshape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = oldstride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(newstride)


def _torch_layout(src, idx_tensors, p0, B, out_shape):
    """The output strides of torch's index kernel for this indexing (None: C-contiguous)."""
    k = len(idx_tensors)
    nb = len(B)
    before = p0
    after = src.dim() - p0 - k
    src_st = list(src.stride())
    # restride_src: stride 0 over the broadcast index dims
    ops = []
    raw = [(tuple(out_shape), tuple(src_st[:before] + [0] * nb + src_st[p0 + k:]))]
    for t in idx_tensors:
        sz = (1,) * before + tuple(t.shape) + (1,) * after
        st = _view_strides(tuple(t.shape), tuple(t.stride()), sz)
        if st is None:  # reshape would copy: a contiguous index
            st = _contiguous_strides(sz)
        raw.append((sz, tuple(st)))
    fast = _fast_setup(out_shape, raw)
    if fast == "contiguous":
        return None
    if fast is not None:
        return fast
    for sz, st in raw:  # compute_strides: broadcast dims get stride 0
        ops.append([0 if (sz[d] == 1 and out_shape[d] != 1) else st[d] for d in range(len(out_shape))])
    strides, is_c_order = _iterator_strides(out_shape, ops)
    if is_c_order:
        return None
    return strides


def _relayout(t, strides):
    """A copy of t with exactly the given strides, that is not a view and has version 0 (what
    torch's TensorIterator allocates with empty_strided, which the C API does not have): the
    values are written through a strided view of a fresh buffer, then the buffer's memory is
    wrapped as a new storage (ct_from_blob) that keeps the buffer alive."""
    shape = tuple(t.shape)
    extent = 1 + sum((n - 1) * st for n, st in zip(shape, strides)) if t.numel() else 1
    buf = _C.ct_empty((extent,), t.dtype)
    if t.numel():
        _C.ct_copy_(_C.ct_as_strided(buf, shape, strides, 0), t)
    return _C.ct_from_blob(buf.data_ptr(), shape, strides, t.dtype, buf)


def _index_list(indices):
    """The recorded indices as ct_index takes them (None: a dim not indexed), with torch's
    warning for uint8 masks."""
    for idx in indices:
        if idx is not None and idx.dtype is D.uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                          "torch.bool instead.", UserWarning, stacklevel=4)
    return list(indices)


def _index(src, indices):
    out = _C.ct_index(src, _index_list(indices))
    if out.dim() > 1 and not out.requires_grad:
        # torch's layout follows the input's; work it out from the broadcast index tensors
        s2, idx_tensors, p0, B = _prepare(src, indices)
        strides = _torch_layout(s2, idx_tensors, p0, B, tuple(out.shape))
        if strides is not None and tuple(out.stride()) != strides:
            out = _relayout(out, strides)
    return out


def getitem(self, key):
    """self[key] for keys with tensors, lists, arrays or bools (the C fast path does the rest)."""
    items = _wrap_items(key)
    sliced, indices = _apply_slicing(self, items)
    if not any(i is not None for i in indices):
        if sliced is self:
            return _C.ct_alias_view(self)  # torch: at::alias (AliasBackward0)
        return sliced
    return _index(sliced, indices)


# ---- assignment -----------------------------------------------------------------------------

_LEGACY_NAMES = {D.float32: "FloatTensor", D.float64: "DoubleTensor", D.float16: "HalfTensor",
                 D.bfloat16: "BFloat16Tensor", D.int64: "LongTensor", D.int32: "IntTensor",
                 D.int16: "ShortTensor", D.int8: "CharTensor", D.uint8: "ByteTensor", D.bool: "BoolTensor",
                 D.complex64: "ComplexFloatTensor", D.complex128: "ComplexDoubleTensor"}
# c10's names of the C++ types in "value cannot be converted to type float without overflow"
_CPP_NAMES = {D.float32: "float", D.float64: "double", D.float16: "c10::Half", D.bfloat16: "c10::BFloat16",
              D.int64: "int64_t", D.int32: "int", D.int16: "int16_t", D.int8: "int8_t", D.uint8: "uint8_t",
              D.bool: "bool"}


def _value_tensor(value, like):
    """torch 2.13's valueToTensor: a tensor, or a Python bool/int/float (NumPy integers and
    float64 too) as a 0-dim tensor that converts to like's dtype the way fill_ does, except
    that an int must fit int64 and a float16/bfloat16 target takes any value (rounding to
    +-inf: its scalar tensor skips fill_'s overflow check)."""
    if isinstance(value, Tensor):
        return value
    if _is_numpy_scalar(value) and value.dtype.kind in "iu":
        value = int(value)
    if isinstance(value, bool):
        return _C.ct_full((), value, D.bool)
    reduced = like.dtype in (D.float16, D.bfloat16)
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise ValueError("Overflow when unpacking long long")
        if like.dtype is D.int64:
            return _C.ct_from_data(array.array("q", [value]), (), D.int64)
        if reduced:
            return _C.ct_from_data(array.array("d", [float(value)]), (), D.float64)
        value = D.uint8_wrapped(value, like.dtype)
        return _C.ct_full((), value, like.dtype)  # checks that the value fits, as torch's fill_
    if isinstance(value, float):
        if like.dtype is D.float64 or reduced:
            return _C.ct_from_data(array.array("d", [value]), (), D.float64)
        return _C.ct_full((), value, like.dtype)
    if isinstance(value, complex):
        if like.dtype.is_complex:
            return _C.ct_from_data(array.array("d", [value.real, value.imag]), (), D.complex128)
        if value.imag != 0:  # c10's checked conversion of a complex to a real type
            raise RuntimeError(f"value cannot be converted to type {_CPP_NAMES[like.dtype]} without overflow")
        return _value_tensor(value.real, like)
    t = type(value)
    name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"
    raise TypeError(f"can't assign a {name} to a ctensor.{_LEGACY_NAMES[like.dtype]}")


def setitem(self, key, value):
    """self[key] = value for any key and value (tensor, scalar, nested list, array)."""
    items = _wrap_items(key)
    sliced, indices = _apply_slicing(self, items)
    v = _value_tensor(value, self)
    if not any(i is not None for i in indices):
        _C._copy_to(sliced, v)  # torch's copy_to: copy, fill for a 0-dim value, or expand and copy
        return
    if not isinstance(value, Tensor) and v.dtype is not self.dtype:
        v = _C.ct_to(v, self.dtype)  # torch's valueToTensor: a number takes self's dtype
    shape = tuple(v.shape)
    lead = 0
    while lead < len(shape) and shape[lead] == 1:  # torch's slicePrefix1sSize
        lead += 1
    if lead:
        v = _C.ct_view(v, shape[lead:])
    try:
        _C.ct_index_put_(sliced, _index_list(indices), v, 0)
    except TypeError as e:  # CT_ERR_DTYPE: torch raises the dtype mismatch as a RuntimeError
        if not str(e).startswith("Index put requires"):
            raise
        raise RuntimeError(str(e)) from None
