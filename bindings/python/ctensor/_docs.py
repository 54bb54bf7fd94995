"""One-line docstrings for the public methods of ctensor.Tensor and the public functions of
ctensor: each says whether the result is a view of the input (shares its memory), a new tensor
(a copy), or self (in place), as include/ctensor.h documents for the C function underneath.

The C methods (SWIG's %extend methods and fastpath.c's) get their text signature here too, so
help() and inspect.signature show Python arguments, not the C prototype.  tests/tools/
gen_stub_docs.py copies these lines into the .pyi stubs; tests/python/test_help_and_stubs.py
checks that every public name has one and that the stubs agree."""

from __future__ import annotations

import inspect

from . import _C

# name -> (text signature of a C method, or None for a Python function or attribute; the line)
TENSOR = {
    # ---- introspection (no tensor result) ----
    "T": (None, "The dimensions reversed (a view); torch warns when ndim is not 2."),
    "mT": (None, "The last two dimensions swapped (a view); self itself for a 0-dim tensor."),
    "shape": (None, "The sizes, as a ctensor.Size."),
    "dtype": (None, "The element type, a ctensor.dtype."),
    "device": (None, "device(type='cpu'): ctensor tensors live in host memory."),
    "is_cpu": (None, "True: ctensor tensors live in host memory."),
    "ndim": (None, "The number of dimensions."),
    "data": (None, "The same memory as a tensor that is not a view and records no graph (shares memory)."),
    "grad": (None, "The accumulated gradient (a tensor), or None."),
    "grad_fn": (None, "The node that made this tensor in the autograd graph, or None for a leaf."),
    "is_leaf": (None, "True if the tensor has no grad_fn."),
    "requires_grad": (None, "True if gradients are computed for this tensor (settable on leaves)."),
    "retains_grad": (None, "True if retain_grad() was called on this non-leaf tensor."),
    "is_inference": (None, "True if self is an inference tensor: made in inference_mode, or a view, detach() or .data of one."),
    "size": ("($self, dim=None, /)", "The sizes as a ctensor.Size, or the size of one dim (no tensor result)."),
    "stride": ("($self, dim=None, /)", "The strides (in elements) as a tuple, or the stride of one dim."),
    "dim": ("($self, /)", "The number of dimensions."),
    "ndimension": ("($self, /)", "The number of dimensions (dim())."),
    "numel": ("($self, /)", "The number of elements."),
    "nelement": ("($self, /)", "The number of elements (numel())."),
    "element_size": ("($self, /)", "The size of one element in bytes."),
    "storage_offset": ("($self, /)", "The offset of the first element in the storage, in elements."),
    "is_contiguous": (None, "True if the strides are exactly memory_format's for this shape (size-1 dims ignored)."),
    "is_floating_point": ("($self, /)", "True for float16, bfloat16, float32 and float64."),
    "data_ptr": ("($self, /)", "The address of the first element (an int)."),
    "untyped_storage": ("($self, /)", "The storage holding the elements (shares memory)."),
    "storage_id": ("($self, /)", "ctensor: the id of the storage, unique for the process's lifetime."),
    "refcount": ("($self, /)", "ctensor: the number of handles (any language) holding this tensor."),
    "shares_storage": ("($self, other, /)", "ctensor: True if self and other are on the same storage."),
    "has_internal_overlap": ("($self, /)", "ctensor: True if two elements of self share memory."),
    "item": (None, "The value of a one-element tensor as a Python scalar."),
    "tolist": (None, "Nested lists of Python scalars (a scalar for a 0-dim tensor); a copy."),
    "numpy": ("($self, /, *, force=False)", "An ndarray sharing this tensor's memory; it keeps the tensor "
              "alive.  force=True: of self detached and resolved (a copy only if a conj/neg bit is set)."),
    "equal": (None, "True if self and other have the same shape and elements (a bool)."),
    "allclose": (None, "True if |self - other| <= atol + rtol * |other| everywhere (a bool)."),
    "isclose": (None, "A new bool tensor: True where |self - other| <= atol + rtol * |other| (or equal; "
                "NaN facing NaN when equal_nan)."),
    # ---- views ----
    "view": ("($self, /, *shape)", "A view with another shape (same elements, no copy); -1 infers a size. "
             "view(dtype): the same bytes as another dtype (shares memory and version, not a view)."),
    "narrow_copy": (None, "narrow(dim, start, length) of self, copied: a new tensor (NarrowCopyBackward0)."),
    "view_as": ("($self, /, other)", "A view with other's shape."),
    "reshape": ("($self, /, *shape)", "A view with another shape when the strides allow one, else a copy."),
    "reshape_as": ("($self, /, other)", "reshape(other.shape): a view when the strides allow one, else a copy."),
    "expand": ("($self, /, *sizes)", "A broadcast view (stride 0 on expanded dims); -1 keeps a size."),
    "expand_as": ("($self, /, other)", "expand(other.shape): a broadcast view."),
    "as_strided": ("($self, /, size, stride, storage_offset=None)",
                   "A view with the given sizes, strides and offset on the same storage."),
    "permute": ("($self, /, *dims)", "A view with the dimensions reordered."),
    "transpose": ("($self, dim0, dim1, /)", "A view with dim0 and dim1 swapped."),
    "swapaxes": ("($self, axis0, axis1, /)", "transpose(axis0, axis1): a view with two dims swapped."),
    "swapdims": ("($self, dim0, dim1, /)", "transpose(dim0, dim1): a view with two dims swapped."),
    "t": ("($self, /)", "A view with the two dims of a matrix swapped (a 0-d or 1-d tensor: self as a view)."),
    "movedim": (None, "A view with dims moved from source to destination positions."),
    "moveaxis": (None, "movedim(source, destination): a view with dims moved."),
    "unsqueeze": ("($self, dim, /)", "A view with a new dim of size 1 at dim."),
    "squeeze": ("($self, dim=None, /)", "A view without the dims of size 1 (or without dim if its size is 1)."),
    "select": ("($self, dim, index, /)", "A view without dim, at index."),
    "narrow": ("($self, dim, start, length, /)", "A view of length entries of dim from start."),
    "diagonal": ("($self, /, offset=0, dim1=0, dim2=1)", "A view of a diagonal (as the last dim)."),
    "unfold": ("($self, dimension, size, step, /)", "A view of the windows of size along dimension, step apart."),
    "flatten": ("($self, /, start_dim=0, end_dim=-1)",
                "Dims start_dim..end_dim merged: a view when possible, else a copy."),
    "ravel": ("($self, /)", "A 1-d view when self is contiguous, else a 1-d copy."),
    "unbind": (None, "A tuple of views, one per index of dim, without dim."),
    "split": (None, "A tuple of views along dim, of split_size (or the given sizes) each."),
    "chunk": (None, "A tuple of at most chunks views along dim."),
    # the split family (_view_family.py)
    "tensor_split": (None, "A tuple of views along dim: sections pieces, or the pieces between indices."),
    "hsplit": (None, "tensor_split along dim 1 (dim 0 of a 1-d tensor): a tuple of views."),
    "vsplit": (None, "tensor_split along dim 0: a tuple of views."),
    "dsplit": (None, "tensor_split along dim 2: a tuple of views."),
    "split_with_sizes": (None, "A tuple of views along dim, of the given lengths."),
    "unsafe_split": (None, "split's pieces sharing self's memory, but not views (own version counters)."),
    "unsafe_split_with_sizes": (None, "split_with_sizes' pieces sharing self's memory, but not views."),
    "unsafe_chunk": (None, "chunk's pieces sharing self's memory, but not views."),
    "unflatten": (None, "A view with dim replaced by the dims of sizes (-1 infers one)."),
    "broadcast_to": (None, "A broadcast view with the given shape (stride 0 on expanded dims)."),
    "detach": ("($self, /)", "A view sharing memory that records no graph (requires_grad=False)."),
    "contiguous": (None, "self if already laid out in memory_format (contiguous_format by default), else a copy laid out so."),
    # ---- copies ----
    "clone": (None, "A copy with a new storage laid out as memory_format says (by default self's strides when dense); records a graph."),
    "index_select": ("($self, dim, index, /)", "A copy of the entries of dim at the indices in index."),
    "to": (None, "self if dtype and device already match (unless copy=True), else a converted copy."),
    "type_as": (None, "self if other has self's dtype, else a copy converted to other's dtype."),
    "cpu": (None, "self (ctensor tensors live in host memory); with memory_format, self or a copy as to() gives."),
    "float": ("($self, /)", "self if float32, else a float32 copy."),
    "double": ("($self, /)", "self if float64, else a float64 copy."),
    "half": ("($self, /)", "self if float16, else a float16 copy."),
    "bfloat16": ("($self, /)", "self if bfloat16, else a bfloat16 copy."),
    "long": ("($self, /)", "self if int64, else an int64 copy."),
    "int": ("($self, /)", "self if int32, else an int32 copy."),
    "short": ("($self, /)", "self if int16, else an int16 copy."),
    "char": ("($self, /)", "self if int8, else an int8 copy."),
    "byte": ("($self, /)", "self if uint8, else a uint8 copy."),
    "bool": ("($self, /)", "self if bool, else a bool copy."),
    "new_empty": (None, "A new tensor of self's dtype, uninitialized."),
    "new_zeros": (None, "A new tensor of self's dtype, filled with 0."),
    "new_ones": (None, "A new tensor of self's dtype, filled with 1."),
    "new_full": (None, "A new tensor of self's dtype, filled with fill_value."),
    "new_tensor": (None, "A new tensor of self's dtype holding a copy of data."),
    # ---- compute: new tensors ----
    "add": ("($self, other, *, alpha=1)", "A new tensor: self + alpha * other (broadcasting, torch's promotion)."),
    "sub": ("($self, other, *, alpha=1)", "A new tensor: self - alpha * other (broadcasting, torch's promotion)."),
    "subtract": (None, "sub(): a new tensor, self - alpha * other."),
    "mul": ("($self, other)", "A new tensor: self * other (broadcasting, torch's promotion)."),
    "multiply": (None, "mul(): a new tensor, self * other."),
    "div": ("($self, other, *, rounding_mode=None)", "A new tensor: self / other (true division, or rounding_mode 'trunc'/'floor')."),
    "divide": (None, "div(): a new tensor, self / other."),
    "neg": (None, "A new tensor: -self."),
    "negative": (None, "neg(): a new tensor, -self."),
    "abs": (None, "A new tensor: |self|."),
    "absolute": (None, "abs(): a new tensor, |self|."),
    "exp": (None, "A new tensor: e ** self (floating result)."),
    "log": (None, "A new tensor: the natural logarithm of self (floating result)."),
    "sqrt": (None, "A new tensor: the square root of self (floating result)."),
    "sin": (None, "A new tensor: sin(self) (floating result)."),
    "cos": (None, "A new tensor: cos(self) (floating result)."),
    "tanh": (None, "A new tensor: tanh(self) (floating result)."),
    "sigmoid": (None, "A new tensor: 1 / (1 + e ** -self) (floating result)."),
    "reciprocal": (None, "A new tensor: 1 / self (floating result)."),
    "sgn": (None, "A new tensor: self / |self| for complex (0 at 0), sign(self) otherwise."),
    "sign": (None, "A new tensor: -1, 0 or 1 as self is negative, zero (or NaN) or positive; not for complex."),
    "angle": (None, "A new tensor: the argument atan2(imag, real) of each element (pi for negative reals)."),
    "relu": (None, "A new tensor: max(self, 0)."),
    "eq": (None, "A new bool tensor: self == other (broadcasting)."),
    "ne": (None, "A new bool tensor: self != other (broadcasting)."),
    "not_equal": (None, "ne(): a new bool tensor, self != other."),
    "lt": (None, "A new bool tensor: self < other (broadcasting)."),
    "less": (None, "lt(): a new bool tensor, self < other."),
    "le": (None, "A new bool tensor: self <= other (broadcasting)."),
    "less_equal": (None, "le(): a new bool tensor, self <= other."),
    "gt": (None, "A new bool tensor: self > other (broadcasting)."),
    "greater": (None, "gt(): a new bool tensor, self > other."),
    "ge": (None, "A new bool tensor: self >= other (broadcasting)."),
    "greater_equal": (None, "ge(): a new bool tensor, self >= other."),
    "sum": (None, "A new tensor: the sum over dim (all elements by default)."),
    "mean": (None, "A new tensor: the mean over dim (all elements by default); floating dtypes."),
    "prod": (None, "A new tensor: the product over dim (all elements by default)."),
    "amax": (None, "A new tensor: the largest values over dim (all elements by default)."),
    "amin": (None, "A new tensor: the smallest values over dim (all elements by default)."),
    "argmax": (None, "A new int64 tensor: the index of the largest value (over dim, or flattened)."),
    "argmin": (None, "A new int64 tensor: the index of the smallest value (over dim, or flattened)."),
    "max": (None, "A new tensor: the largest element, (values, indices) over dim, or the elementwise maximum."),
    "min": (None, "A new tensor: the smallest element, (values, indices) over dim, or the elementwise minimum."),
    "matmul": (None, "A new tensor: the matrix product of self and other (broadcasting batch dims)."),
    "mm": (None, "A new tensor: the product of two matrices."),
    "std": (None, "A new tensor: the standard deviation over dim (all elements by default); floating dtypes."),
    "var": (None, "A new tensor: the variance over dim (all elements by default); floating dtypes."),
    "norm": (None, "A new tensor: the vector norm of order p over dim (all elements by default)."),
    # ---- in place: self ----
    "add_": ("($self, other, *, alpha=1)", "In place, returns self: self += alpha * other."),
    "sub_": ("($self, other, *, alpha=1)", "In place, returns self: self -= alpha * other."),
    "subtract_": (None, "sub_(): in place, returns self."),
    "mul_": ("($self, other)", "In place, returns self: self *= other."),
    "multiply_": (None, "mul_(): in place, returns self."),
    "div_": ("($self, other, *, rounding_mode=None)", "In place, returns self: self /= other."),
    "divide_": (None, "div_(): in place, returns self."),
    "neg_": (None, "In place, returns self: self = -self."),
    "negative_": (None, "neg_(): in place, returns self."),
    "abs_": (None, "In place, returns self: self = |self|."),
    "absolute_": (None, "abs_(): in place, returns self."),
    "exp_": (None, "In place, returns self: self = e ** self."),
    "log_": (None, "In place, returns self: self = log(self)."),
    "sqrt_": (None, "In place, returns self: self = sqrt(self)."),
    "sin_": (None, "In place, returns self: self = sin(self)."),
    "cos_": (None, "In place, returns self: self = cos(self)."),
    "tanh_": (None, "In place, returns self: self = tanh(self)."),
    "sigmoid_": (None, "In place, returns self: self = sigmoid(self)."),
    "reciprocal_": (None, "In place, returns self: self = reciprocal(self)."),
    "sgn_": (None, "In place, returns self: self = sgn(self)."),
    "sign_": (None, "In place, returns self: self = sign(self)."),
    "relu_": (None, "In place, returns self: self = max(self, 0)."),
    "fill_": (None, "In place, returns self: every element set to value."),
    "zero_": (None, "In place, returns self: every element set to 0."),
    "copy_": ("($self, /, src, non_blocking=False)", "In place, returns self: src's values copied in (broadcast)."),
    "requires_grad_": (None, "In place, returns self: sets requires_grad."),
    "retain_grad": (None, "Keeps .grad for this non-leaf tensor in backward(); returns None."),
    "backward": (None, "Accumulates d(self)/d(leaf) into every leaf's .grad; returns None."),
    "register_hook": (None, "Calls hook(grad) in backward with this tensor's gradient; a returned tensor "
                            "replaces it. Returns a handle (remove())."),
    # ---- rearranging copies (_repeat_flip_roll.py) ----
    "repeat": (None, "A copy (new storage, C order): self tiled repeats[i] times along dim i."),
    "tile": (None, "A copy (new storage): repeat with dims padded by leading 1s."),
    "flip": (None, "A copy (new storage, laid out as clone()): self reversed along dims."),
    "fliplr": (None, "A copy (new storage): self reversed along dim 1."),
    "flipud": (None, "A copy (new storage): self reversed along dim 0."),
    "roll": (None, "A copy (new storage): self's elements shifted along dims, wrapping around."),
    # ---- masked copies, nonzero, rot90, repeat_interleave (_mask_ops.py) ----
    "masked_select": (None, "A copy (new storage, 1-D): the elements of self where mask is true, broadcast together."),
    "masked_fill": (None, "A copy (new storage, C order) of self broadcast with mask, value where mask is true."),
    "masked_fill_": (None, "In place, returns self: value written where mask (broadcast to self) is true."),
    "masked_scatter": (None, "A copy (new storage, C order) of self broadcast with mask, taking source's elements in order where mask is true."),
    "masked_scatter_": (None, "In place, returns self: source's elements, in order, written where mask is true."),
    "nonzero": (None, "A new int64 tensor (count, ndim) of the indices of non-zero elements; as_tuple: views of one new storage."),
    "argwhere": (None, "A new int64 tensor (count, ndim) of the indices of non-zero elements (nonzero())."),
    "rot90": (None, "A copy (new storage): self rotated k quarter turns in the plane of dims (odd k: transposed strides)."),
    "repeat_interleave": (None, "A copy (new storage, C order): each element of self repeated along dim (or flattened)."),
    # ---- scans, sort, topk, clamp (_scan_sort.py) ----
    "cumsum": (None, "A new tensor (new storage): running sums of self along dim (ints give int64)."),
    "cumsum_": (None, "In place, returns self: running sums along dim."),
    "cumprod": (None, "A new tensor (new storage): running products of self along dim (ints give int64)."),
    "cumprod_": (None, "In place, returns self: running products along dim."),
    "sort": (None, "A named tuple (values, indices) of new tensors: self sorted along dim, NaN largest."),
    "argsort": (None, "A new int64 tensor: the indices that sort self along dim."),
    "msort": (None, "A new tensor (new storage): self sorted along dim 0."),
    "topk": (None, "A named tuple (values, indices) of new tensors: the k largest (smallest) along dim."),
    "clamp": (None, "A new tensor (new storage): self limited to [min, max] (max wins where min > max)."),
    "clamp_": (None, "In place, returns self: self limited to [min, max]."),
    "clip": (None, "clamp(): a new tensor, self limited to [min, max]."),
    "clip_": (None, "clamp_(): in place, returns self."),
    "clamp_min": (None, "A new tensor (new storage): max(self, min) elementwise."),
    "clamp_min_": (None, "In place, returns self: self = max(self, min)."),
    "clamp_max": (None, "A new tensor (new storage): min(self, max) elementwise."),
    "clamp_max_": (None, "In place, returns self: self = min(self, max)."),
}

STORAGE = {
    "data_ptr": ("($self, /)", "The address of the first byte (an int)."),
    "nbytes": ("($self, /)", "The size in bytes."),
    "size": ("($self, /)", "The size in bytes (an untyped storage's elements are bytes)."),
    "element_size": ("($self, /)", "1: an untyped storage's elements are bytes."),
    "is_read_only": ("($self, /)", "ctensor: True if the memory is read-only (a read-only NumPy array's)."),
}

# Module functions that are torch.op(input, ...) for a Tensor.op: the method's line, with input.
_MODULE_SPECIFIC = {
    "as_strided": "A view of input with the given sizes, strides and offset on the same storage.",
    "clone": "A copy of input with a new storage laid out as memory_format says (by default input's strides when dense); records a graph.",
    "t": "A view of input with the two dims of a matrix swapped.",
    "numel": "The number of elements of input.",
    "broadcast_to": "A broadcast view of input with the given shape (stride 0 on expanded dims).",
    "broadcast_tensors": "A tuple: each tensor itself if it has the common shape, else a broadcast view of it.",
    "broadcast_shapes": "The shape (a Size) the given shapes broadcast to.",
    "atleast_1d": "Each tensor itself if it has >= 1 dims, else a view of shape (1,); a tuple for several.",
    "atleast_2d": "Each tensor itself if it has >= 2 dims, else a view with dims of size 1 added.",
    "atleast_3d": "Each tensor itself if it has >= 3 dims, else a view with dims of size 1 added.",
    "true_divide": "div(): a new tensor, input / other.",
    "std_mean": "A tuple of two new tensors: the standard deviation and the mean of input over dim.",
    "var_mean": "A tuple of two new tensors: the variance and the mean of input over dim.",
    "where": "where(condition, input, other): a new tensor choosing input where condition holds, else other; where(condition): nonzero(condition, as_tuple=True).",
}


def _module_line(name):
    if name in _MODULE_SPECIFIC:
        return _MODULE_SPECIFIC[name]
    return TENSOR[name][1].replace("self", "input")


def _set_python_doc(obj, line):
    old = inspect.getdoc(obj)
    doc = line if not old or old.splitlines()[0] == line else line + "\n\n" + old
    if isinstance(obj, property):
        return property(obj.fget, obj.fset, obj.fdel, doc)
    obj.__doc__ = doc
    return obj


def install(module_globals):
    """Sets the docstrings above on ctensor.Tensor's attributes and ctensor's functions."""
    Tensor = _C.Tensor
    done = set()  # aliases (subtract = sub) are one function object: the first name's line wins
    for name, (sig, line) in TENSOR.items():
        value = inspect.getattr_static(Tensor, name)
        if type(value).__name__ == "method_descriptor" and value.__name__ != name:
            # a C method under a second name (subtract = sub): again the one object, whose
            # descriptor _redoc rebuilt with the first name's line
            _C._install(Tensor, name, inspect.getattr_static(Tensor, value.__name__))
            continue
        if id(value) in done:
            continue
        done.add(id(value))
        if type(value).__name__ in ("method_descriptor", "getset_descriptor"):
            _C._redoc(Tensor, name, f"{name}{sig}\n--\n\n{line}" if sig else line)
        elif isinstance(value, property):
            _C._install(Tensor, name, _set_python_doc(value, line))
        else:
            _set_python_doc(value, line)
    # The Python-level methods are written in namespace classes (_TensorMethods, ...): their
    # qualified names would put those in help() and in Python's own argument errors
    # ("_TensorMethods.numpy() takes 1 positional argument ...").
    for value in list(vars(Tensor).values()):
        if isinstance(value, property):
            value = value.fget
        qualname = getattr(value, "__qualname__", "")
        owner, _, rest = qualname.partition(".")
        if inspect.isfunction(value) and owner.startswith("_") and owner.endswith("Methods") and rest:
            value.__qualname__ = "Tensor." + rest
    for name, (sig, line) in STORAGE.items():
        _C._redoc(_C.UntypedStorage, name, f"{name}{sig}\n--\n\n{line}")
    for name, value in module_globals.items():
        if name.startswith("_") or not callable(value) or isinstance(value, type):
            continue
        if name in TENSOR or name in _MODULE_SPECIFIC:
            method = inspect.getattr_static(Tensor, name, None)
            if value is method or id(value) in done:  # the same function object: doc set above
                continue
            done.add(id(value))
            _set_python_doc(value, _module_line(name))
