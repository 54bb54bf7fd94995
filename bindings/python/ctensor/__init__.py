"""ctensor: PyTorch 1.13's tensor memory semantics, exactly, and observable.

Code written for ``torch`` that uses only the covered API runs with ``import ctensor as torch``
and prints the same thing (with ``ctensor.`` where torch prints ``torch.``).  Covered: the
foundation (creation, views, view-when-possible, copies, introspection, memory relations,
NumPy and DLPack exchange, printing) and compute (operators and their methods with torch's
promotion and Python-scalar rules, in-place ops, elementwise math, comparisons, where,
reductions, max/min with ``ctensor.return_types``, matmul, cat/stack, random numbers) and
reverse-mode autograd (``requires_grad``, ``backward``, ``grad``, ``grad_fn``, ``no_grad``, ...,
recorded by the C library).
Random numbers come from ctensor's own Philox generator: a seed gives reproducible values,
not torch's values; ``manual_seed`` returns None.

Layers: ``ctensor._C`` is the SWIG module generated from include/ctensor.h (every ``ct_*``
function, with the same name); ``ctensor.Tensor`` is the SWIG builtin type of ``ct_tensor``;
this package adds torch's Python API around it.  ctensor extras that torch has not:
``shares_memory``, ``may_share_memory``, ``shares_storage``, ``has_internal_overlap``,
``storage_id``, ``refcount``, ``live_tensors``, ``live_storages``.
"""

from __future__ import annotations

import builtins as _builtins

from . import _C
from . import _dtype
from ._dtype import (dtype, bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32,
                     float64, complex64, complex128, promote_types)
from ._size import Size

Tensor = _C.Tensor
UntypedStorage = _C.UntypedStorage

from . import _indexing, _values, _tensor  # noqa: E402

# Wire the C fast paths to the Python objects they return, and add the Python-level methods.
_C._setup(Size, _dtype.DTYPES, _indexing.getitem, _indexing.setitem, _values.item)
_tensor.install()
from . import _storage  # noqa: E402
_storage.install()
TypedStorage = _storage.TypedStorage

from . import _compute, return_types  # noqa: E402

# The operators' hook for operands that are not Tensor/bool/int/float (NumPy scalars, arrays);
# it returns the C arithmetic/comparison entry points the compute methods call.
_compute.install(*_C._setup_compute(_compute.operand_hook))
from . import _pow_div  # noqa: E402
_pow_div.install()
from . import _std_norm  # noqa: E402
_std_norm.install()

from . import _autograd  # noqa: E402
_autograd.install()
from . import _function  # noqa: E402
_function.install()

from . import _repeat_flip_roll  # noqa: E402
_repeat_flip_roll.install()
from ._repeat_flip_roll import tile, flip, fliplr, flipud, roll  # noqa: E402
from . import _gather_scatter  # noqa: E402
_gather_scatter.install()
from ._gather_scatter import (gather, scatter, scatter_add, index_add, index_copy, index_fill,  # noqa: E402
                              take, put, index_put, index_put_)
from . import _scatter_reduce  # noqa: E402
_scatter_reduce.install()
from ._scatter_reduce import scatter_reduce  # noqa: E402
from . import _scan_sort  # noqa: E402
_scan_sort.install()
from ._scan_sort import (cumsum, cumprod, sort, argsort, msort, topk, clamp, clip, clamp_, clip_,  # noqa: E402
                         clamp_min, clamp_max, clamp_min_, clamp_max_)
from . import autograd  # noqa: E402
from ._autograd import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,  # noqa: E402
                        is_inference_mode_enabled, is_inference)

from ._device import device, set_default_device, get_default_device  # noqa: E402
from . import _tensor_device  # noqa: E402
_tensor_device.install()
from . import cuda, backends, accelerator  # noqa: E402
from ._creation import (tensor, as_tensor, zeros, ones, empty, full, arange, zeros_like,  # noqa: E402
                        ones_like, empty_like, full_like, is_tensor)
from ._interop import from_numpy, from_dlpack, DLDeviceType  # noqa: E402
# safetensors files (ctensor.safetensors mirrors safetensors.torch; load/save stay there so
# that ctensor.load/save can be torch's .pt functions)
from ._safetensors import load_file, save_file, safe_open, from_file  # noqa: E402
from . import safetensors  # noqa: E402
from ._torch_load import load, save  # noqa: E402
from ._compute import (add, sub, subtract, mul, multiply, div, divide, true_divide,  # noqa: E402
                       neg, negative, abs, absolute, exp, log, sqrt, sin, cos, tanh, sigmoid, relu,
                       reciprocal, sgn, sign, angle,
                       eq, ne, lt, le, gt, ge, not_equal, less, less_equal, greater, greater_equal,
                       where, equal, allclose, isclose, sum, mean, prod, amax, amin, argmax, argmin, max, min,
                       maximum, minimum,
                       matmul, mm, cat, concat, stack, manual_seed, rand, randn, randint,
                       result_type)
from ._pow_div import pow, floor_divide, remainder, fmod  # noqa: E402
from ._ranges import linspace, eye  # noqa: E402
from ._std_norm import std, var, std_mean, var_mean, norm  # noqa: E402
from . import linalg  # noqa: E402
from . import _view_family  # noqa: E402
_view_family.install()
from ._view_family import (tensor_split, hsplit, vsplit, dsplit, split_with_sizes,  # noqa: E402
                           unsafe_split, unsafe_split_with_sizes, unsafe_chunk, unflatten, movedim,
                           moveaxis, swapaxes, swapdims, broadcast_to, broadcast_tensors,
                           broadcast_shapes, atleast_1d, atleast_2d, atleast_3d)

from . import _mask_ops  # noqa: E402
_mask_ops.install()
from . import _complex  # noqa: E402
_complex.install()
from ._complex import view_as_real, view_as_complex, real, imag, is_complex  # noqa: E402
from ._complex import conj, conj_physical, conj_physical_, resolve_conj, resolve_neg, is_conj, is_neg  # noqa: E402
from ._complex import adjoint, _neg_view  # noqa: E402
from . import _products  # noqa: E402
_products.install()
from ._products import dot, vdot, mv, bmm  # noqa: E402
from ._mask_ops import (masked_select, masked_fill, masked_scatter, nonzero, argwhere, rot90,  # noqa: E402
                        repeat_interleave, where)

__version__ = _C.ct_version()

# torch's aliases
float = float32
double = float64
cfloat = complex64
cdouble = complex128
half = float16
long = int64
int = int32
short = int16
# (``bool`` is ctensor.bool; Python's bool stays available as builtins.bool)


# ---- functional forms of the Tensor methods (torch.reshape(x, ...), ...) -------------------

def reshape(input, shape):
    return input.reshape(shape)


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def ravel(input):
    return input.ravel()


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)




def t(input):
    return input.t()


def permute(input, dims):
    return input.permute(dims)


def squeeze(input, dim=None):
    return input.squeeze(dim)


def unsqueeze(input, dim):
    return input.unsqueeze(dim)


def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


def select(input, dim, index):
    return input.select(dim, index)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2)


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


def unbind(input, dim=0):
    return input.unbind(dim)


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def clone(input):
    return input.clone()


def index_select(input, dim, index):
    return input.index_select(dim, index)


def numel(input):
    """The number of elements of input (a Tensor)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"numel(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.numel()


def is_floating_point(input):
    return input.is_floating_point()


def get_num_threads():
    """Threads ctensor uses for large copies."""
    return _C.ct_get_num_threads()


def set_num_threads(n):
    """Sets the threads ctensor uses for large copies (n <= 0: the number of cores)."""
    _C.ct_set_num_threads(n)


# ---- ctensor extras: memory relations and lifetimes -----------------------------------------

def shares_storage(a, b):
    """True if a and b are on the same Storage object (same storage id)."""
    return _C.ct_shares_storage(a, b) == 1


def shares_memory(a, b):
    """Exact, as numpy.shares_memory: True if some byte belongs to an element of a and to an
    element of b (whatever their storages: two storages may wrap the same foreign memory)."""
    return _C.ct_overlaps(a, b) == 1


def may_share_memory(a, b):
    """Cheap and conservative, as numpy.may_share_memory: the byte ranges a and b span intersect."""
    return _C.ct_may_overlap(a, b) == 1


def has_internal_overlap(t):
    """True if two different indices of t reach the same memory (e.g. after expand)."""
    return _C.ct_has_internal_overlap(t) == 1


def storage_id(t):
    """The id of t's storage: unique in the process, never reused."""
    return _C.ct_tensor_storage_id(t)


def refcount(t):
    """References to t's tensor object in the C library (its Python object holds one; each
    view whose base it is holds one)."""
    return _C.ct_tensor_refcount(t)


def live_tensors():
    """Tensor objects alive in the process (every language's handles count)."""
    return _C.ct_live_tensors()


def live_storages():
    """Storage objects alive in the process."""
    return _C.ct_live_storages()


# torch's *_copy functions (permute_copy, view_copy, ...), generated from a table
from . import _view_copies  # noqa: E402
_view_copies.install(globals())

del _builtins

from ._explain import explain, draw  # noqa: E402

# ---- memory formats: torch.channels_last & co., contiguous/is_contiguous/clone(memory_format=),
# empty/empty_strided and the *_like factories with torch's preserve rule -----------------------
from . import _memory_format  # noqa: E402
_memory_format.install()
from ._memory_format import (memory_format, contiguous_format, channels_last, channels_last_3d,  # noqa: E402
                             preserve_format, empty, empty_strided, empty_like, zeros_like, ones_like,
                             full_like, clone)
from ._random_like import rand_like, randn_like, randint_like  # noqa: E402
from ._layout import layout, strided  # noqa: E402
from . import _legacy_types  # noqa: E402
_legacy_types.install()
globals().update(_legacy_types.LEGACY_TYPES)  # FloatTensor, LongTensor, ...

# Script helpers of issue #24: the default dtype, print options, Tensor(...) as a constructor.
from ._default_dtype import set_default_dtype, get_default_dtype  # noqa: E402
from ._print_options import set_printoptions  # noqa: E402
from . import _tensor_new  # noqa: E402
_tensor_new.install()


# Docstrings that say view, copy or self, on every public method and function (_docs.py).
from . import _docs  # noqa: E402
_docs.install(globals())
del annotations  # the __future__ feature object, not part of the API

def __getattr__(name):
    """A torch function ctensor lacks: an AttributeError that says so (docs/coverage.md lists
    what exists); any other name: Python's usual message."""
    from ._torch_names import TORCH_FUNCTIONS
    if name in TORCH_FUNCTIONS:
        raise AttributeError(f"module 'ctensor' has no attribute '{name}': ctensor does not implement "
                             f"torch.{name} (see docs/coverage.md for what it has)", name=name, obj=None)
    raise AttributeError(f"module 'ctensor' has no attribute '{name}'", name=name, obj=None)

# out= on the module functions that take it in torch (_out.py); after every function exists.
from . import _out  # noqa: E402
_out.install(globals())
