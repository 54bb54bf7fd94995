# Type stubs for ctensor (the public API; ctensor._C is the raw SWIG layer over ctensor.h).
from typing import Any, Callable, Iterator, List, SupportsIndex, Optional, Sequence, Tuple, Union, overload

from . import return_types as return_types
from . import autograd as autograd
from . import linalg as linalg
from .autograd import Node as _Node
from ._function import RemovableHandle as _RemovableHandle

import builtins
import enum

_int = builtins.int
_float = builtins.float
_bool = builtins.bool

__version__: str

class memory_format:
    """torch.memory_format: one of four module-level objects, compared by identity."""

contiguous_format: memory_format
channels_last: memory_format
channels_last_3d: memory_format
preserve_format: memory_format

class dtype:
    """An element type.  ``ctensor.float32`` is ``ct_dtype`` ``CT_FLOAT32`` (8)."""
    itemsize: _int
    is_floating_point: _bool
    is_signed: _bool
    is_complex: _bool
    def to_real(self) -> dtype:
        """torch's dtype.to_real(): the dtype of a complex dtype's parts; a real dtype itself."""
    def to_complex(self) -> dtype:
        """torch's dtype.to_complex(): complex64 for float32 and bfloat16, complex128 for float64; a"""

bool: dtype
uint8: dtype
int8: dtype
int16: dtype
int32: dtype
int64: dtype
float16: dtype
bfloat16: dtype
float32: dtype
float64: dtype
complex64: dtype
complex128: dtype
float: dtype
double: dtype
cfloat: dtype
cdouble: dtype
half: dtype
long: dtype
int: dtype
short: dtype

def promote_types(type1: dtype, type2: dtype) -> dtype:
    """torch.promote_types for ctensor's twelve dtypes."""

class Size(Tuple[_int, ...]):
    """A tuple of ints, as torch.Size: ``x.shape == (3, 4)`` and ``x.shape[1:]`` is a Size."""
    def __new__(cls, sizes: Sequence[_int] = ...) -> Size: ...
    def numel(self) -> _int:
        """The number of elements a tensor of these sizes holds."""
    @overload
    def __getitem__(self, key: _int) -> _int: ...
    @overload
    def __getitem__(self, key: slice) -> Size: ...

class device:
    """A device as torch names it: ``device('cpu')``, ``device('cuda:1')``, ``device('cuda', 0)``,"""
    @property
    def type(self) -> str:
        """The device type: 'cpu', 'cuda', 'meta', ..."""
    @property
    def index(self) -> Optional[_int]:
        """The device index, or None when none was given."""
    def __init__(self, type: Union[str, device, _int], index: Optional[_int] = ...) -> None: ...
    def __enter__(self) -> device: ...
    def __exit__(self, *exc: Any) -> _bool: ...

class layout:
    """A memory layout; ``ctensor.strided`` is the only one."""
strided: layout

_Shape = Union[_int, Sequence[_int], Size]
_Index = Any
_Scalar = Union[_bool, _int, _float]
_Operand = Union[Tensor, _Scalar]  # NumPy scalars count as Python numbers, as in torch
_Dims = Union[None, _int, Sequence[_int]]

class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h), the ones ctensor meets: it lives in host memory."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3

class UntypedStorage:
    """The bytes under one or more tensors, as torch.UntypedStorage: a handle on a C ct_storage."""
    id: _int
    refcount: _int
    def data_ptr(self) -> _int:
        """The address of the first byte (an int)."""
    def nbytes(self) -> _int:
        """The size in bytes."""
    def size(self) -> _int:
        """The size in bytes (an untyped storage's elements are bytes)."""
    def element_size(self) -> _int:
        """1: an untyped storage's elements are bytes."""
    def is_read_only(self) -> _bool:
        """ctensor: True if the memory is read-only (a read-only NumPy array's)."""

class TypedStorage:
    """The storage of a tensor seen as elements of its dtype (torch.TypedStorage)."""
    dtype: dtype
    @property
    def device(self) -> device:
        """The device of the memory: always cpu."""
    @property
    def is_cuda(self) -> _bool:
        """False: ctensor's memory is on the CPU."""
    def untyped(self) -> UntypedStorage:
        """The UntypedStorage underneath (the same one tensor.untyped_storage() gives)."""
    def data_ptr(self) -> _int:
        """The address of the storage's first byte (an int)."""
    def nbytes(self) -> _int:
        """The size of the storage in bytes."""
    def element_size(self) -> _int:
        """The size of one element of dtype in bytes."""
    def size(self) -> _int:
        """The number of dtype elements the storage holds."""
    def __len__(self) -> _int: ...
    def __getitem__(self, idx: _int) -> Any: ...
    def __setitem__(self, idx: _int | slice, value: Any) -> None: ...
    def __iter__(self) -> Iterator[Any]: ...
    def tolist(self) -> list[Any]:
        """Every element of the storage as a Python list (a copy)."""

class Tensor:
    """A multi-dimensional array of one dtype over a storage, as torch.Tensor: a handle on a C ct_tensor."""
    # introspection
    @property
    def shape(self) -> Size:
        """The sizes, as a ctensor.Size."""
    @property
    def dtype(self) -> dtype:
        """The element type, a ctensor.dtype."""
    @property
    def ndim(self) -> _int:
        """The number of dimensions."""
    @property
    def T(self) -> Tensor:
        """The dimensions reversed (a view); torch warns when ndim is not 2."""
    @property
    def mT(self) -> Tensor:
        """The last two dimensions swapped (a view); self itself for a 0-dim tensor."""
    @property
    def data(self) -> Tensor:
        """The same memory as a tensor that is not a view and records no graph (shares memory)."""
    # autograd
    @property
    def requires_grad(self) -> _bool:
        """True if gradients are computed for this tensor (settable on leaves)."""
    @requires_grad.setter
    def requires_grad(self, value: _bool) -> None: ...
    @property
    def is_leaf(self) -> _bool:
        """True if the tensor has no grad_fn."""
    @property
    def grad(self) -> Optional[Tensor]:
        """The accumulated gradient (a tensor), or None."""
    @grad.setter
    def grad(self, value: Optional[Tensor]) -> None: ...
    @property
    def grad_fn(self) -> Optional[_Node]:
        """The node that made this tensor in the autograd graph, or None for a leaf."""
    def requires_grad_(self, requires_grad: _bool = ...) -> Tensor:
        """In place, returns self: sets requires_grad."""
    def retain_grad(self) -> None:
        """Keeps .grad for this non-leaf tensor in backward(); returns None."""
    def is_inference(self) -> _bool:
        """True if self is an inference tensor: made in inference_mode, or a view, detach() or .data of one."""
    @property
    def retains_grad(self) -> _bool:
        """True if retain_grad() was called on this non-leaf tensor."""
    def backward(self, gradient: Optional[Tensor] = ..., retain_graph: Optional[_bool] = ...,
                 create_graph: _bool = ..., inputs: None = ...) -> None:
        """Accumulates d(self)/d(leaf) into every leaf's .grad; returns None."""
    def register_hook(self, hook: Callable[[Tensor], Optional[Tensor]]) -> _RemovableHandle:
        """Calls hook(grad) in backward with this tensor's gradient; a returned tensor replaces it. Returns a handle (remove())."""
    @property
    def _base(self) -> Optional[Tensor]: ...
    @property
    def _version(self) -> _int: ...
    @property
    def device(self) -> device:
        """device(type='cpu'): ctensor tensors live in host memory."""
    @property
    def is_cpu(self) -> _bool:
        """True: ctensor tensors live in host memory."""
    @property
    def __array_interface__(self) -> dict: ...
    __array_priority__: _int
    @overload
    def size(self) -> Size:
        """The sizes as a ctensor.Size, or the size of one dim (no tensor result)."""
    @overload
    def size(self, dim: _int) -> _int: ...
    @overload
    def stride(self) -> Tuple[_int, ...]:
        """The strides (in elements) as a tuple, or the stride of one dim."""
    @overload
    def stride(self, dim: _int) -> _int: ...
    def storage_offset(self) -> _int:
        """The offset of the first element in the storage, in elements."""
    def dim(self) -> _int:
        """The number of dimensions."""
    def ndimension(self) -> _int:
        """The number of dimensions (dim())."""
    def numel(self) -> _int:
        """The number of elements."""
    def nelement(self) -> _int:
        """The number of elements (numel())."""
    def element_size(self) -> _int:
        """The size of one element in bytes."""
    def is_contiguous(self, memory_format: memory_format = ...) -> _bool:
        """True if the strides are exactly memory_format's for this shape (size-1 dims ignored)."""
    def maximum(self, other: Tensor) -> Tensor:
        """The elementwise maximum of self and other (a tensor; NaN wins), promoted as torch."""
    def minimum(self, other: Tensor) -> Tensor:
        """The elementwise minimum of self and other (a tensor; NaN wins), promoted as torch."""
    def is_floating_point(self) -> _bool:
        """True for float16, bfloat16, float32 and float64."""
    def is_complex(self) -> _bool:
        """Whether the dtype is complex64 or complex128."""
    real: Tensor
    imag: Tensor
    H: Tensor
    mH: Tensor
    def conj(self) -> Tensor:
        """A view reading the complex conjugates (the conjugate bit; no copy); self if not complex."""
    def conj_physical(self) -> Tensor:
        """A new tensor of the conjugated values (self if not complex)."""
    def conj_physical_(self) -> Tensor:
        """Conjugates the values in place; returns self."""
    def resolve_conj(self) -> Tensor:
        """self if the conjugate bit is clear, else a clone holding the conjugated values."""
    def resolve_neg(self) -> Tensor:
        """self if the negative bit is clear, else a clone holding the negated values."""
    def is_conj(self) -> _bool:
        """Whether this tensor is a lazy conjugate view (the conjugate bit)."""
    def is_neg(self) -> _bool:
        """Whether this tensor reads its stored values negated (the negative bit)."""
    def adjoint(self) -> Tensor:
        """The conjugate transpose of the last two dims: a view (conj of transpose(-2, -1))."""
    def data_ptr(self) -> _int:
        """The address of the first element (an int)."""
    def untyped_storage(self) -> UntypedStorage:
        """The storage holding the elements (shares memory)."""
    def storage(self) -> TypedStorage:
        """The tensor's whole storage as elements of its dtype (torch's deprecated TypedStorage;"""
    def __reduce_ex__(self, proto: SupportsIndex) -> tuple[Any, ...]: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor: ...
    def _is_view(self) -> _bool: ...
    # ctensor extras
    def storage_id(self) -> _int:
        """ctensor: the id of the storage, unique for the process's lifetime."""
    def refcount(self) -> _int:
        """ctensor: the number of handles (any language) holding this tensor."""
    def shares_storage(self, other: Tensor) -> _bool:
        """ctensor: True if self and other are on the same storage."""
    def has_internal_overlap(self) -> _bool:
        """ctensor: True if two elements of self share memory."""
    # views
    @overload
    def view(self, dtype: dtype) -> Tensor:
        """A view with another shape (same elements, no copy); -1 infers a size. view(dtype): the same bytes as another dtype (shares memory and version, not a view)."""
    @overload
    def view(self, *shape: Union[_int, Sequence[_int]]) -> Tensor: ...
    def narrow_copy(self, dim: _int, start: _int, length: _int) -> Tensor:
        """narrow(dim, start, length) of self, copied: a new tensor (NarrowCopyBackward0)."""
    def view_as(self, other: Tensor) -> Tensor:
        """A view with other's shape."""
    def reshape(self, *shape: Union[_int, Sequence[_int]]) -> Tensor:
        """A view with another shape when the strides allow one, else a copy."""
    def reshape_as(self, other: Tensor) -> Tensor:
        """reshape(other.shape): a view when the strides allow one, else a copy."""
    def flatten(self, start_dim: _int = ..., end_dim: _int = ...) -> Tensor:
        """Dims start_dim..end_dim merged: a view when possible, else a copy."""
    def ravel(self) -> Tensor:
        """A 1-d view when self is contiguous, else a 1-d copy."""
    def transpose(self, dim0: _int, dim1: _int) -> Tensor:
        """A view with dim0 and dim1 swapped."""
    def swapaxes(self, axis0: _int, axis1: _int) -> Tensor:
        """transpose(axis0, axis1): a view with two dims swapped."""
    def swapdims(self, dim0: _int, dim1: _int) -> Tensor:
        """transpose(dim0, dim1): a view with two dims swapped."""
    def t(self) -> Tensor:
        """A view with the two dims of a matrix swapped (a 0-d or 1-d tensor: self as a view)."""
    def permute(self, *dims: Union[_int, Sequence[_int]]) -> Tensor:
        """A view with the dimensions reordered."""
    def movedim(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
        """A view with dims moved from source to destination positions."""
    def moveaxis(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
        """A view with dims moved from source to destination positions."""
    def squeeze(self, dim: Optional[_int] = ...) -> Tensor:
        """A view without the dims of size 1 (or without dim if its size is 1)."""
    def unsqueeze(self, dim: _int) -> Tensor:
        """A view with a new dim of size 1 at dim."""
    def narrow(self, dim: _int, start: _int, length: _int) -> Tensor:
        """A view of length entries of dim from start."""
    def select(self, dim: _int, index: _int) -> Tensor:
        """A view without dim, at index."""
    def expand(self, *sizes: Union[_int, Sequence[_int]]) -> Tensor:
        """A broadcast view (stride 0 on expanded dims); -1 keeps a size."""
    def expand_as(self, other: Tensor) -> Tensor:
        """expand(other.shape): a broadcast view."""
    def diagonal(self, offset: _int = ..., dim1: _int = ..., dim2: _int = ...) -> Tensor:
        """A view of a diagonal (as the last dim)."""
    def unfold(self, dimension: _int, size: _int, step: _int) -> Tensor:
        """A view of the windows of size along dimension, step apart."""
    def as_strided(self, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = ...) -> Tensor:
        """A view with the given sizes, strides and offset on the same storage."""
    def unbind(self, dim: _int = ...) -> Tuple[Tensor, ...]:
        """A tuple of views, one per index of dim, without dim."""
    def split(self, split_size_or_sections: Union[_int, Sequence[_int]], dim: _int = ...) -> Tuple[Tensor, ...]:
        """A tuple of views along dim, of split_size (or the given sizes) each."""
    def chunk(self, chunks: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
        """A tuple of at most chunks views along dim."""
    def tensor_split(self, indices_or_sections: Union[_int, Sequence[_int], Tensor] = ..., dim: _int = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ..., tensor_indices_or_sections: Optional[Tensor] = ...) -> Tuple[Tensor, ...]:
        """A tuple of views along dim: sections pieces, or the pieces between indices."""
    def hsplit(self, split_size_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
        """tensor_split along dim 1 (dim 0 of a 1-d tensor): a tuple of views."""
    def vsplit(self, split_size_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
        """tensor_split along dim 0: a tuple of views."""
    def dsplit(self, split_size_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
        """tensor_split along dim 2: a tuple of views."""
    def split_with_sizes(self, split_sizes: Sequence[_int], dim: _int = ...) -> Tuple[Tensor, ...]:
        """A tuple of views along dim, of the given lengths."""
    def unsafe_split(self, split_size: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
        """split's pieces sharing self's memory, but not views (own version counters)."""
    def unsafe_split_with_sizes(self, split_sizes: Sequence[_int], dim: _int = ...) -> Tuple[Tensor, ...]:
        """split_with_sizes' pieces sharing self's memory, but not views."""
    def unsafe_chunk(self, chunks: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
        """chunk's pieces sharing self's memory, but not views."""
    def unflatten(self, dim: _int, sizes: Sequence[_int]) -> Tensor:
        """A view with dim replaced by the dims of sizes (-1 infers one)."""
    def broadcast_to(self, size: Union[_int, Sequence[_int]], *more: _int) -> Tensor:
        """A broadcast view with the given shape (stride 0 on expanded dims)."""
    def detach(self) -> Tensor:
        """A view sharing memory that records no graph (requires_grad=False)."""
    def detach_(self) -> Tensor:
        """Detaches self in place (no grad_fn, requires_grad False, same version counter); refuses a view. Returns self."""
    def set_(self, source: Any = ..., storage_offset: _int = ..., size: Optional[Sequence[_int]] = ...,
             stride: Optional[Sequence[_int]] = ...) -> Tensor:
        """Makes self look at another tensor's memory, a storage (with offset, size, stride) or a new empty storage; keeps self's identity and version counter. Returns self."""
    def is_set_to(self, tensor: Tensor) -> _bool:
        """True if self and tensor have the same storage, offset, sizes and strides."""
    def resize_(self, *sizes: Union[_int, Sequence[_int]], memory_format: Any = ...) -> Tensor:
        """Resizes self in place to sizes (contiguous, or memory_format's strides; grows the storage, for every tensor on it, when needed). Returns self."""
    def resize_as_(self, the_template: Tensor, memory_format: Any = ...) -> Tensor:
        """resize_ to the sizes of the_template (preserve_format: in the_template's suggested memory format). Returns self."""
    def as_strided_(self, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = ...) -> Tensor:
        """Gives self new sizes, strides and storage offset on the same storage. Returns self."""
    def t_(self) -> Tensor:
        """Transposes a tensor of at most 2 dims in place (its metadata). Returns self."""
    def transpose_(self, dim0: _int, dim1: _int) -> Tensor:
        """Swaps dims dim0 and dim1 of self in place (its metadata). Returns self."""
    def swapdims_(self, dim0: _int, dim1: _int) -> Tensor:
        """transpose_: swaps dims dim0 and dim1 of self in place. Returns self."""
    def swapaxes_(self, axis0: _int, axis1: _int) -> Tensor:
        """transpose_: swaps dims dim0 and dim1 of self in place. Returns self."""
    def squeeze_(self, dim: Union[None, _int, Sequence[_int]] = ...) -> Tensor:
        """Removes dims of size 1 (all, one, or a tuple) from self in place. Returns self."""
    def unsqueeze_(self, dim: _int) -> Tensor:
        """Inserts a dim of size 1 at dim into self in place. Returns self."""
    # view when possible, copies
    def contiguous(self, memory_format: memory_format = ...) -> Tensor:
        """self if already laid out in memory_format (contiguous_format by default), else a copy laid out so."""
    def clone(self, *, memory_format: Optional[memory_format] = ...) -> Tensor:
        """A copy with a new storage laid out as memory_format says (by default self's strides when dense); records a graph."""
    def index_select(self, dim: _int, index: Tensor) -> Tensor:
        """A copy of the entries of dim at the indices in index."""
    def repeat(self, *repeats: Union[_int, Sequence[_int]]) -> Tensor:
        """A copy (new storage, C order): self tiled repeats[i] times along dim i."""
    def tile(self, *dims: Union[_int, Sequence[_int]]) -> Tensor:
        """A copy (new storage): repeat with dims padded by leading 1s."""
    def flip(self, *dims: Union[_int, Sequence[_int]]) -> Tensor:
        """A copy (new storage, laid out as clone()): self reversed along dims."""
    def fliplr(self) -> Tensor:
        """A copy (new storage): self reversed along dim 1."""
    def flipud(self) -> Tensor:
        """A copy (new storage): self reversed along dim 0."""
    def roll(self, shifts: Union[_int, Sequence[_int]], dims: Union[_int, Sequence[_int], None] = ...) -> Tensor:
        """A copy (new storage): self's elements shifted along dims, wrapping around."""
    def gather(self, dim: _int, index: Tensor, *, sparse_grad: _bool = ...) -> Tensor:
        """A copy with index's shape of self's entries picked along dim by index."""
    def scatter(self, dim: _int, index: Tensor, src: Union[Tensor, _Scalar, None] = ..., value: Optional[_Scalar] = ..., *, reduce: Optional[str] = ...) -> Tensor:
        """A copy of self with src's entries (or value) written at index along dim."""
    def scatter_(self, dim: _int, index: Tensor, src: Union[Tensor, _Scalar, None] = ..., value: Optional[_Scalar] = ..., *, reduce: Optional[str] = ...) -> Tensor:
        """scatter written into self (returns self)."""
    def scatter_add(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """A copy of self with src's entries added at index along dim (duplicates add up)."""
    def scatter_add_(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """scatter_add written into self (returns self)."""
    def scatter_reduce(self, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: _bool = ...) -> Tensor:
        """A copy of self with src's values reduced into the positions index picks along dim."""
    def scatter_reduce_(self, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: _bool = ...) -> Tensor:
        """scatter_reduce written into self (returns self)."""
    def index_add(self, dim: _int, index: Tensor, source: Tensor, *, alpha: _Scalar = ...) -> Tensor:
        """A copy of self with alpha * source's slices added to the slices index picks along dim."""
    def index_add_(self, dim: _int, index: Tensor, source: Tensor, *, alpha: _Scalar = ...) -> Tensor:
        """index_add written into self (returns self)."""
    def index_copy(self, dim: _int, index: Tensor, source: Tensor) -> Tensor:
        """A copy of self whose slices picked by index along dim are source's."""
    def index_copy_(self, dim: _int, index: Tensor, source: Tensor) -> Tensor:
        """index_copy written into self (returns self)."""
    def index_fill(self, dim: _int, index: Tensor, value: Union[Tensor, _Scalar]) -> Tensor:
        """A copy of self with the slices picked by index along dim set to value."""
    def index_fill_(self, dim: _int, index: Tensor, value: Union[Tensor, _Scalar]) -> Tensor:
        """index_fill written into self (returns self)."""
    def take(self, index: Tensor) -> Tensor:
        """A copy with index's shape of self's entries at index, self read as 1-D in C order."""
    def put(self, index: Tensor, source: Tensor, accumulate: _bool = ...) -> Tensor:
        """A copy of self with source written (or added) at the C-order flat positions index."""
    def put_(self, index: Tensor, source: Tensor, accumulate: _bool = ...) -> Tensor:
        """put written into self (returns self)."""
    def index_put(self, indices: Sequence[Tensor], values: Tensor, accumulate: _bool = ...) -> Tensor:
        """A copy of self with self[indices] = values (or += with accumulate)."""
    def index_put_(self, indices: Sequence[Tensor], values: Tensor, accumulate: _bool = ...) -> Tensor:
        """index_put written into self (returns self)."""
    def masked_select(self, mask: Tensor) -> Tensor:
        """A copy (new storage, 1-D): the elements of self where mask is true, broadcast together."""
    def masked_fill(self, mask: Tensor, value: Union[_float, Tensor]) -> Tensor:
        """A copy (new storage, C order) of self broadcast with mask, value where mask is true."""
    def masked_fill_(self, mask: Tensor, value: Union[_float, Tensor]) -> Tensor:
        """In place, returns self: value written where mask (broadcast to self) is true."""
    def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
        """A copy (new storage, C order) of self broadcast with mask, taking source's elements in order where mask is true."""
    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        """In place, returns self: source's elements, in order, written where mask is true."""
    @overload
    def nonzero(self) -> Tensor:
        """A new int64 tensor (count, ndim) of the indices of non-zero elements; as_tuple: views of one new storage."""
    @overload
    def nonzero(self, *, as_tuple: _bool) -> Union[Tensor, Tuple[Tensor, ...]]:
        """"""
    def argwhere(self) -> Tensor:
        """A new int64 tensor (count, ndim) of the indices of non-zero elements (nonzero())."""
    def rot90(self, k: _int = ..., dims: Sequence[_int] = ...) -> Tensor:
        """A copy (new storage): self rotated k quarter turns in the plane of dims (odd k: transposed strides)."""
    def repeat_interleave(self, repeats: Union[_int, Tensor], dim: Optional[_int] = ..., *,
                          output_size: Optional[_int] = ...) -> Tensor:
        """A copy (new storage, C order): each element of self repeated along dim (or flattened)."""
    def cumsum(self, dim: _int, dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor (new storage): running sums of self along dim (ints give int64)."""
    def cumsum_(self, dim: _int, dtype: Optional[dtype] = ...) -> Tensor:
        """In place, returns self: running sums along dim."""
    def cumprod(self, dim: _int, dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor (new storage): running products of self along dim (ints give int64)."""
    def cumprod_(self, dim: _int, dtype: Optional[dtype] = ...) -> Tensor:
        """In place, returns self: running products along dim."""
    def sort(self, dim: _int = ..., descending: _bool = ..., *, stable: Optional[_bool] = ...) -> return_types.sort:
        """A named tuple (values, indices) of new tensors: self sorted along dim, NaN largest."""
    def argsort(self, dim: _int = ..., descending: _bool = ..., *, stable: _bool = ...) -> Tensor:
        """A new int64 tensor: the indices that sort self along dim."""
    def msort(self) -> Tensor:
        """A new tensor (new storage): self sorted along dim 0."""
    def topk(self, k: _int, dim: _int = ..., largest: _bool = ..., sorted: _bool = ...) -> return_types.topk:
        """A named tuple (values, indices) of new tensors: the k largest (smallest) along dim."""
    def clamp(self, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
        """A new tensor (new storage): self limited to [min, max] (max wins where min > max)."""
    def clamp_(self, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
        """In place, returns self: self limited to [min, max]."""
    def clip(self, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
        """clamp(): a new tensor, self limited to [min, max]."""
    def clip_(self, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
        """clamp_(): in place, returns self."""
    def clamp_min(self, min: Union[_int, _float, _bool, Tensor]) -> Tensor:
        """A new tensor (new storage): max(self, min) elementwise."""
    def clamp_min_(self, min: Union[_int, _float, _bool, Tensor]) -> Tensor:
        """In place, returns self: self = max(self, min)."""
    def clamp_max(self, max: Union[_int, _float, _bool, Tensor]) -> Tensor:
        """A new tensor (new storage): min(self, max) elementwise."""
    def clamp_max_(self, max: Union[_int, _float, _bool, Tensor]) -> Tensor:
        """In place, returns self: self = min(self, max)."""
    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """self if dtype and device already match (unless copy=True), else a converted copy."""
    def type_as(self, other: Tensor) -> Tensor:
        """self if other has self's dtype, else a copy converted to other's dtype."""
    def cpu(self, memory_format: Optional[memory_format] = ...) -> Tensor:
        """self (ctensor tensors live in host memory); with memory_format, self or a copy as to() gives."""
    def cuda(self, device: Any = ..., non_blocking: _bool = ..., memory_format: Optional[memory_format] = ...) -> Tensor:
        'Refused as a CPU-only torch refuses it: AssertionError "Torch not compiled with CUDA enabled"'
    @property
    def is_cuda(self) -> _bool:
        """False: ctensor tensors live in host memory."""
    def get_device(self) -> _int:
        """-1, torch's answer for a CPU tensor (an accelerator tensor gives its index)."""
    @property
    def layout(self) -> layout:
        """ctensor.strided: every tensor's layout"""
    def type(self, dtype: Any = ..., non_blocking: _bool = ...) -> Any:
        """Without arguments: this tensor's legacy type name ('ctensor.FloatTensor').  With a dtype, a"""
    def float(self) -> Tensor:
        """self if float32, else a float32 copy."""
    def double(self) -> Tensor:
        """self if float64, else a float64 copy."""
    def half(self) -> Tensor:
        """self if float16, else a float16 copy."""
    def bfloat16(self) -> Tensor:
        """self if bfloat16, else a bfloat16 copy."""
    def long(self) -> Tensor:
        """self if int64, else an int64 copy."""
    def int(self) -> Tensor:
        """self if int32, else an int32 copy."""
    def short(self) -> Tensor:
        """self if int16, else an int16 copy."""
    def char(self) -> Tensor:
        """self if int8, else an int8 copy."""
    def byte(self) -> Tensor:
        """self if uint8, else a uint8 copy."""
    def bool(self) -> Tensor:
        """self if bool, else a bool copy."""
    def copy_(self, src: Tensor, non_blocking: _bool = ...) -> Tensor:
        """In place, returns self: src's values copied in (broadcast)."""
    def new_tensor(self, data: Any, dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
        """A new tensor of self's dtype holding a copy of data."""
    def new_empty(self, *size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
        """A new tensor of self's dtype, uninitialized."""
    def new_zeros(self, *size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
        """A new tensor of self's dtype, filled with 0."""
    def new_ones(self, *size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
        """A new tensor of self's dtype, filled with 1."""
    def new_full(self, size: Sequence[_int], fill_value: _Scalar, dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
        """A new tensor of self's dtype, filled with fill_value."""
    # values and exchange
    def item(self) -> _Scalar:
        """The value of a one-element tensor as a Python scalar."""
    def tolist(self) -> Any:
        """Nested lists of Python scalars (a scalar for a 0-dim tensor); a copy."""
    def numpy(self, *, force: _bool = ...) -> Any:
        """An ndarray sharing this tensor's memory; it keeps the tensor alive.  force=True: of self detached and resolved (a copy only if a conj/neg bit is set)."""
    def __array__(self, dtype: Any = ..., copy: Optional[_bool] = ...) -> Any: ...
    def __array_wrap__(self, array: Any, context: Any = ..., return_scalar: _bool = ...) -> Tensor: ...
    def __dlpack__(self, stream: Any = ..., *, max_version: Optional[Tuple[_int, _int]] = ...,
                   dl_device: Any = ..., copy: Optional[_bool] = ...) -> Any: ...
    def __dlpack_device__(self) -> Tuple[DLDeviceType, _int]: ...
    # Python protocols
    def __getitem__(self, key: _Index) -> Tensor: ...
    def __setitem__(self, key: _Index, value: Union[Tensor, _Scalar]) -> None: ...
    def __len__(self) -> _int: ...
    def __iter__(self) -> Iterator[Tensor]: ...
    def __bool__(self) -> _bool: ...
    def __int__(self) -> _int: ...
    def __float__(self) -> _float: ...
    def __index__(self) -> _int: ...
    def __hash__(self) -> _int: ...
    def __format__(self, spec: str) -> str: ...
    # operators (a Python scalar operand follows torch's wrapped-number rules)
    def __add__(self, other: _Operand) -> Tensor: ...
    def __radd__(self, other: _Operand) -> Tensor: ...
    def __iadd__(self, other: _Operand) -> Tensor: ...
    def __sub__(self, other: _Operand) -> Tensor: ...
    def __rsub__(self, other: _Operand) -> Tensor: ...
    def __isub__(self, other: _Operand) -> Tensor: ...
    def __mul__(self, other: _Operand) -> Tensor: ...
    def __rmul__(self, other: _Operand) -> Tensor: ...
    def __imul__(self, other: _Operand) -> Tensor: ...
    def __truediv__(self, other: _Operand) -> Tensor: ...
    def __floordiv__(self, other: _Operand) -> Tensor: ...
    def __rfloordiv__(self, other: _Operand) -> Tensor: ...
    def __ifloordiv__(self, other: _Operand) -> Tensor: ...
    def __mod__(self, other: _Operand) -> Tensor: ...
    def __rmod__(self, other: _Operand) -> Tensor: ...
    def __imod__(self, other: _Operand) -> Tensor: ...
    def __pow__(self, exponent: _Operand) -> Tensor: ...
    def __rpow__(self, base: _Operand) -> Tensor: ...
    def __ipow__(self, exponent: _Operand) -> Tensor: ...
    def __rtruediv__(self, other: _Operand) -> Tensor: ...
    def __itruediv__(self, other: _Operand) -> Tensor: ...
    def __matmul__(self, other: Tensor) -> Tensor: ...
    def __rmatmul__(self, other: Tensor) -> Tensor: ...
    def __neg__(self) -> Tensor: ...
    def __pos__(self) -> Tensor: ...
    def __abs__(self) -> Tensor: ...
    def __eq__(self, other: Any) -> Tensor: ...  # type: ignore[override]
    def __ne__(self, other: Any) -> Tensor: ...  # type: ignore[override]
    def __lt__(self, other: _Operand) -> Tensor: ...
    def __le__(self, other: _Operand) -> Tensor: ...
    def __gt__(self, other: _Operand) -> Tensor: ...
    def __ge__(self, other: _Operand) -> Tensor: ...
    # arithmetic
    def add(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """A new tensor: self + alpha * other (broadcasting, torch's promotion)."""
    def sub(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """A new tensor: self - alpha * other (broadcasting, torch's promotion)."""
    def subtract(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """A new tensor: self - alpha * other (broadcasting, torch's promotion)."""
    def mul(self, other: _Operand) -> Tensor:
        """A new tensor: self * other (broadcasting, torch's promotion)."""
    def multiply(self, other: _Operand) -> Tensor:
        """A new tensor: self * other (broadcasting, torch's promotion)."""
    def div(self, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
        """A new tensor: self / other (true division, or rounding_mode 'trunc'/'floor')."""
    def divide(self, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
        """A new tensor: self / other (true division, or rounding_mode 'trunc'/'floor')."""
    def add_(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """In place, returns self: self += alpha * other."""
    def sub_(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """In place, returns self: self -= alpha * other."""
    def subtract_(self, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
        """In place, returns self: self -= alpha * other."""
    def mul_(self, other: _Operand) -> Tensor:
        """In place, returns self: self *= other."""
    def multiply_(self, other: _Operand) -> Tensor:
        """In place, returns self: self *= other."""
    def div_(self, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
        """In place, returns self: self /= other."""
    def divide_(self, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
        """In place, returns self: self /= other."""
    def fill_(self, value: Union[_Scalar, Tensor]) -> Tensor:
        """In place, returns self: every element set to value."""
    def zero_(self) -> Tensor:
        """In place, returns self: every element set to 0."""
    def pow(self, exponent: _Operand) -> Tensor:
        """self ** exponent elementwise (a new tensor; torch's promotion)."""
    def pow_(self, exponent: _Operand) -> Tensor:
        """In place: writes self ** exponent into self and returns self."""
    def floor_divide(self, other: _Operand) -> Tensor:
        """self // other elementwise, rounding toward -inf (a new tensor)."""
    def floor_divide_(self, other: _Operand) -> Tensor:
        """In place: writes self // other into self and returns self."""
    def remainder(self, other: _Operand) -> Tensor:
        """self % other elementwise, with the sign of other (a new tensor)."""
    def remainder_(self, other: _Operand) -> Tensor:
        """In place: writes self % other into self and returns self."""
    def fmod(self, other: _Operand) -> Tensor:
        """C's fmod elementwise, with the sign of self (a new tensor)."""
    def fmod_(self, other: _Operand) -> Tensor:
        """In place: writes fmod(self, other) into self and returns self."""
    # spread and norms
    def std(self, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
            correction: Optional[_Scalar] = ...) -> Tensor:
        """A new tensor: the standard deviation over dim (all elements by default); floating dtypes."""
    def var(self, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
            correction: Optional[_Scalar] = ...) -> Tensor:
        """A new tensor: the variance over dim (all elements by default); floating dtypes."""
    def norm(self, p: Union[_Scalar, str, None] = ..., dim: _Dims = ..., keepdim: _bool = ...,
             dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor: the vector norm of order p over dim (all elements by default)."""
    # elementwise math
    def neg(self) -> Tensor:
        """A new tensor: -self."""
    def negative(self) -> Tensor:
        """A new tensor: -self."""
    def abs(self) -> Tensor:
        """A new tensor: |self|."""
    def absolute(self) -> Tensor:
        """A new tensor: |self|."""
    def exp(self) -> Tensor:
        """A new tensor: e ** self (floating result)."""
    def log(self) -> Tensor:
        """A new tensor: the natural logarithm of self (floating result)."""
    def sqrt(self) -> Tensor:
        """A new tensor: the square root of self (floating result)."""
    def sin(self) -> Tensor:
        """A new tensor: sin(self) (floating result)."""
    def cos(self) -> Tensor:
        """A new tensor: cos(self) (floating result)."""
    def tanh(self) -> Tensor:
        """A new tensor: tanh(self) (floating result)."""
    def sigmoid(self) -> Tensor:
        """A new tensor: 1 / (1 + e ** -self) (floating result)."""
    def reciprocal(self) -> Tensor:
        """A new tensor: 1 / self (floating result)."""
    def sgn(self) -> Tensor:
        """A new tensor: self / |self| for complex (0 at 0), sign(self) otherwise."""
    def sign(self) -> Tensor:
        """A new tensor: -1, 0 or 1 as self is negative, zero (or NaN) or positive; not for complex."""
    def angle(self) -> Tensor:
        """A new tensor: the argument atan2(imag, real) of each element (pi for negative reals)."""
    def relu(self) -> Tensor:
        """A new tensor: max(self, 0)."""
    def neg_(self) -> Tensor:
        """In place, returns self: self = -self."""
    def negative_(self) -> Tensor:
        """In place, returns self: self = -self."""
    def abs_(self) -> Tensor:
        """In place, returns self: self = |self|."""
    def absolute_(self) -> Tensor:
        """In place, returns self: self = |self|."""
    def exp_(self) -> Tensor:
        """In place, returns self: self = e ** self."""
    def log_(self) -> Tensor:
        """In place, returns self: self = log(self)."""
    def sqrt_(self) -> Tensor:
        """In place, returns self: self = sqrt(self)."""
    def sin_(self) -> Tensor:
        """In place, returns self: self = sin(self)."""
    def cos_(self) -> Tensor:
        """In place, returns self: self = cos(self)."""
    def tanh_(self) -> Tensor:
        """In place, returns self: self = tanh(self)."""
    def sigmoid_(self) -> Tensor:
        """In place, returns self: self = sigmoid(self)."""
    def reciprocal_(self) -> Tensor:
        """In place, returns self: self = reciprocal(self)."""
    def sgn_(self) -> Tensor:
        """In place, returns self: self = sgn(self)."""
    def sign_(self) -> Tensor:
        """In place, returns self: self = sign(self)."""
    def relu_(self) -> Tensor:
        """In place, returns self: self = max(self, 0)."""
    # comparisons
    def eq(self, other: _Operand) -> Tensor:
        """A new bool tensor: self == other (broadcasting)."""
    def ne(self, other: _Operand) -> Tensor:
        """A new bool tensor: self != other (broadcasting)."""
    def lt(self, other: _Operand) -> Tensor:
        """A new bool tensor: self < other (broadcasting)."""
    def le(self, other: _Operand) -> Tensor:
        """A new bool tensor: self <= other (broadcasting)."""
    def gt(self, other: _Operand) -> Tensor:
        """A new bool tensor: self > other (broadcasting)."""
    def ge(self, other: _Operand) -> Tensor:
        """A new bool tensor: self >= other (broadcasting)."""
    def not_equal(self, other: _Operand) -> Tensor:
        """A new bool tensor: self != other (broadcasting)."""
    def less(self, other: _Operand) -> Tensor:
        """A new bool tensor: self < other (broadcasting)."""
    def less_equal(self, other: _Operand) -> Tensor:
        """A new bool tensor: self <= other (broadcasting)."""
    def greater(self, other: _Operand) -> Tensor:
        """A new bool tensor: self > other (broadcasting)."""
    def greater_equal(self, other: _Operand) -> Tensor:
        """A new bool tensor: self >= other (broadcasting)."""
    def equal(self, other: Tensor) -> _bool:
        """True if self and other have the same shape and elements (a bool)."""
    def allclose(self, other: Tensor, rtol: _float = ..., atol: _float = ..., equal_nan: _bool = ...) -> _bool:
        """True if |self - other| <= atol + rtol * |other| everywhere (a bool)."""
    def isclose(self, other: Tensor, rtol: _float = ..., atol: _float = ..., equal_nan: _bool = ...) -> Tensor:
        """A new bool tensor: True where |self - other| <= atol + rtol * |other| (or equal; NaN facing NaN when equal_nan)."""
    # reductions
    def sum(self, dim: _Dims = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor: the sum over dim (all elements by default)."""
    def mean(self, dim: _Dims = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor: the mean over dim (all elements by default); floating dtypes."""
    def prod(self, dim: Optional[_int] = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
        """A new tensor: the product over dim (all elements by default)."""
    def amax(self, dim: _Dims = ..., keepdim: _bool = ...) -> Tensor:
        """A new tensor: the largest values over dim (all elements by default)."""
    def amin(self, dim: _Dims = ..., keepdim: _bool = ...) -> Tensor:
        """A new tensor: the smallest values over dim (all elements by default)."""
    def argmax(self, dim: Optional[_int] = ..., keepdim: _bool = ...) -> Tensor:
        """A new int64 tensor: the index of the largest value (over dim, or flattened)."""
    def argmin(self, dim: Optional[_int] = ..., keepdim: _bool = ...) -> Tensor:
        """A new int64 tensor: the index of the smallest value (over dim, or flattened)."""
    @overload
    def max(self) -> Tensor:
        """A new tensor: the largest element, (values, indices) over dim, or the elementwise maximum."""
    @overload
    def max(self, dim: _int, keepdim: _bool = ...) -> return_types.max: ...
    @overload
    def max(self, other: Tensor) -> Tensor: ...
    @overload
    def min(self) -> Tensor:
        """A new tensor: the smallest element, (values, indices) over dim, or the elementwise minimum."""
    @overload
    def min(self, dim: _int, keepdim: _bool = ...) -> return_types.min: ...
    @overload
    def min(self, other: Tensor) -> Tensor: ...
    # linear algebra
    def matmul(self, other: Tensor) -> Tensor:
        """A new tensor: the matrix product of self and other (broadcasting batch dims)."""
    def mm(self, mat2: Tensor) -> Tensor:
        """A new tensor: the product of two matrices."""
    def dot(self, tensor: Tensor) -> Tensor:
        """A new 0-dim tensor: the unconjugated inner product of two 1-D tensors."""
    def vdot(self, other: Tensor) -> Tensor:
        """A new 0-dim tensor: sum(conj(self) * other) of two 1-D tensors."""
    def mv(self, vec: Tensor) -> Tensor:
        """A new tensor: matrix (n x m) @ vector (m)."""
    def bmm(self, mat2: Tensor) -> Tensor:
        """A new tensor: batched matrix products, (b x n x m) @ (b x m x p)."""

def is_tensor(obj: Any) -> _bool:
    """True if obj is a ctensor.Tensor."""
def tensor(data: Any, dtype: Optional[dtype] = ..., device: Any = ..., requires_grad: _bool = ...,
           pin_memory: _bool = ...) -> Tensor:
    """A new tensor holding a copy of data (nested lists/tuples of numbers, a scalar, a NumPy"""
def as_tensor(data: Any, dtype: Optional[dtype] = ..., device: Any = ...) -> Tensor:
    """data itself if it is a tensor of that dtype; shares the memory of a NumPy array or a DLPack /"""
def zeros(*size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...,
          requires_grad: _bool = ...) -> Tensor:
    """zeros(*size, dtype=None) -> Tensor filled with 0 (float32 by default)."""
def ones(*size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...,
         requires_grad: _bool = ...) -> Tensor:
    """ones(*size, dtype=None) -> Tensor filled with 1 (float32 by default)."""
def empty(*size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...,
          requires_grad: _bool = ..., memory_format: Optional[memory_format] = ...) -> Tensor:
    """empty(*size, dtype=None, memory_format=torch.contiguous_format): uninitialized memory laid out in"""
def empty_strided(size: _Shape, stride: Sequence[_int], *, dtype: Optional[dtype] = ..., device: Any = ...,
                  requires_grad: _bool = ...) -> Tensor:
    """empty_strided(size, stride, dtype=None): uninitialized, with exactly these strides; the storage"""
def full(size: _Shape, fill_value: Union[_Scalar, Tensor], dtype: Optional[dtype] = ..., device: Any = ...,
         requires_grad: _bool = ...) -> Tensor:
    """full(size, fill_value, dtype=None): every element fill_value.  Without dtype: bool for a"""
def arange(start: Union[_Scalar, Tensor], end: Optional[Union[_Scalar, Tensor]] = ...,
           step: Union[_Scalar, Tensor] = ..., dtype: Optional[dtype] = ..., device: Any = ...,
           requires_grad: _bool = ...) -> Tensor:
    """arange(end) / arange(start, end, step=1): 1-D, start + k*step while < end.  Without dtype:"""
def zeros_like(input: Tensor, *, dtype: Optional[dtype] = ..., device: Any = ..., requires_grad: _bool = ...,
               memory_format: Optional[memory_format] = ...) -> Tensor:
    """zeros_like(input, dtype=None, memory_format=torch.preserve_format): zeros laid out as empty_like."""
def ones_like(input: Tensor, *, dtype: Optional[dtype] = ..., device: Any = ..., requires_grad: _bool = ...,
              memory_format: Optional[memory_format] = ...) -> Tensor:
    """ones_like(input, dtype=None, memory_format=torch.preserve_format): ones laid out as empty_like."""
def empty_like(input: Tensor, *, dtype: Optional[dtype] = ..., device: Any = ..., requires_grad: _bool = ...,
               memory_format: Optional[memory_format] = ...) -> Tensor:
    """empty_like(input, dtype=None, memory_format=torch.preserve_format): uninitialized, input's shape,"""
def full_like(input: Tensor, fill_value: _Scalar, *, dtype: Optional[dtype] = ..., device: Any = ...,
              requires_grad: _bool = ..., memory_format: Optional[memory_format] = ...) -> Tensor:
    """full_like(input, fill_value, dtype=None, memory_format=torch.preserve_format): fill_value laid out"""
def rand_like(input: Tensor, *, generator: Any = ..., dtype: Optional[dtype] = ..., layout: Optional[layout] = ...,
              device: Any = ..., requires_grad: _bool = ..., memory_format: Optional[memory_format] = ...) -> Tensor:
    """Uniform in [0, 1), input's shape, dtype (or dtype=) and layout (empty_like's); floating and complex"""
def randn_like(input: Tensor, *, generator: Any = ..., dtype: Optional[dtype] = ..., layout: Optional[layout] = ...,
               device: Any = ..., requires_grad: _bool = ..., memory_format: Optional[memory_format] = ...) -> Tensor:
    """Standard normal, input's shape, dtype (or dtype=) and layout (empty_like's); floating and complex"""
def randint_like(input: Tensor, *args: Union[_int, Tensor], low: Optional[_int] = ..., high: Optional[_int] = ...,
                 generator: Any = ..., dtype: Optional[dtype] = ..., layout: Optional[layout] = ..., device: Any = ...,
                 pin_memory: _bool = ..., requires_grad: _bool = ...,
                 memory_format: Optional[memory_format] = ...) -> Tensor:
    """randint_like(input, high) or randint_like(input, low, high): integers uniform in [low, high)"""
def set_default_device(dev: Any) -> None:
    """The device factories use when not given one, in this thread (None: the CPU again)."""
def get_default_device() -> device:
    """The device factories use when not given one: device(type='cpu') unless changed."""
def get_default_dtype() -> dtype:
    """The default floating dtype (ctensor.float32 unless set_default_dtype changed it)."""
def set_default_dtype(d: dtype) -> None:
    """Makes d (float16, bfloat16, float32 or float64) the default floating dtype, process-wide."""
def set_printoptions(precision: Optional[_int] = ..., threshold: Optional[float] = ...,
                     edgeitems: Optional[_int] = ..., linewidth: Optional[_int] = ...,
                     profile: Optional[str] = ..., sci_mode: Optional[_bool] = ...) -> None:
    """torch.set_printoptions: a profile ('default', 'short', 'full'; any other name is ignored,"""
from . import cuda as cuda
from . import backends as backends
from . import accelerator as accelerator
# legacy tensor types: constructors, and isinstance tests of the dtype
FloatTensor: Any
DoubleTensor: Any
HalfTensor: Any
BFloat16Tensor: Any
LongTensor: Any
IntTensor: Any
ShortTensor: Any
CharTensor: Any
ByteTensor: Any
BoolTensor: Any
def from_numpy(ndarray: Any) -> Tensor:
    """A tensor sharing ndarray's memory (no copy).  The tensor keeps the array alive until the"""

# autograd: grad mode (per thread; context managers and decorators, as torch's)
from .autograd import no_grad as no_grad, enable_grad as enable_grad, set_grad_enabled as set_grad_enabled
def is_grad_enabled() -> _bool:
    """True if grad mode is on for this thread (new threads start with it on)."""
from .autograd import inference_mode as inference_mode
def is_inference_mode_enabled() -> _bool:
    """True if inference mode is on for this thread (torch.is_inference_mode_enabled)."""
def is_inference(input: Tensor) -> _bool:
    """True if input is an inference tensor: made in inference_mode, or a view, detach() or .data of one."""
def from_dlpack(ext_tensor: Any, *, device: Any = ..., copy: Optional[_bool] = ...) -> Tensor:
    """A tensor on the memory of any DLPack producer: an object with __dlpack__ (a NumPy array, a"""

def reshape(input: Tensor, shape: Sequence[_int]) -> Tensor:
    """A view with another shape when the strides allow one, else a copy."""
def flatten(input: Tensor, start_dim: _int = ..., end_dim: _int = ...) -> Tensor:
    """Dims start_dim..end_dim merged: a view when possible, else a copy."""
def ravel(input: Tensor) -> Tensor:
    """A 1-d view when input is contiguous, else a 1-d copy."""
def transpose(input: Tensor, dim0: _int, dim1: _int) -> Tensor:
    """A view with dim0 and dim1 swapped."""
def swapaxes(input: Tensor, axis0: _int, axis1: _int) -> Tensor:
    """transpose(axis0, axis1): a view with two dims swapped."""
def swapdims(input: Tensor, dim0: _int, dim1: _int) -> Tensor:
    """transpose(dim0, dim1): a view with two dims swapped."""
def t(input: Tensor) -> Tensor:
    """A view of input with the two dims of a matrix swapped."""
def permute(input: Tensor, dims: Sequence[_int]) -> Tensor:
    """A view with the dimensions reordered."""
def squeeze(input: Tensor, dim: Optional[_int] = ...) -> Tensor:
    """A view without the dims of size 1 (or without dim if its size is 1)."""
def unsqueeze(input: Tensor, dim: _int) -> Tensor:
    """A view with a new dim of size 1 at dim."""
def narrow(input: Tensor, dim: _int, start: _int, length: _int) -> Tensor:
    """A view of length entries of dim from start."""
def select(input: Tensor, dim: _int, index: _int) -> Tensor:
    """A view without dim, at index."""
def diagonal(input: Tensor, offset: _int = ..., dim1: _int = ..., dim2: _int = ...) -> Tensor:
    """A view of a diagonal (as the last dim)."""
def as_strided(input: Tensor, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = ...) -> Tensor:
    """A view of input with the given sizes, strides and offset on the same storage."""
def broadcast_to(input: Tensor, size: Sequence[_int]) -> Tensor:
    """A broadcast view of input with the given shape (stride 0 on expanded dims)."""
def unbind(input: Tensor, dim: _int = ...) -> Tuple[Tensor, ...]:
    """A tuple of views, one per index of dim, without dim."""
def split(tensor: Tensor, split_size_or_sections: Union[_int, Sequence[_int]], dim: _int = ...) -> Tuple[Tensor, ...]:
    """A tuple of views along dim, of split_size (or the given sizes) each."""
def chunk(input: Tensor, chunks: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
    """A tuple of at most chunks views along dim."""
def tensor_split(input: Tensor, indices_or_sections: Union[_int, Sequence[_int], Tensor] = ..., dim: _int = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ..., tensor_indices_or_sections: Optional[Tensor] = ...) -> Tuple[Tensor, ...]:
    """A tuple of views along dim: sections pieces, or the pieces between indices."""
def hsplit(input: Tensor, indices_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
    """tensor_split along dim 1 (dim 0 of a 1-d tensor): a tuple of views."""
def vsplit(input: Tensor, indices_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
    """tensor_split along dim 0: a tuple of views."""
def dsplit(input: Tensor, indices_or_sections: Union[_int, Sequence[_int]] = ..., *, sections: Optional[_int] = ..., indices: Optional[Sequence[_int]] = ...) -> Tuple[Tensor, ...]:
    """tensor_split along dim 2: a tuple of views."""
def split_with_sizes(input: Tensor, split_sizes: Sequence[_int], dim: _int = ...) -> Tuple[Tensor, ...]:
    """A tuple of views along dim, of the given lengths."""
def unsafe_split(tensor: Tensor, split_size_or_sections: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
    """split's pieces sharing input's memory, but not views (own version counters)."""
def unsafe_split_with_sizes(input: Tensor, split_sizes: Sequence[_int], dim: _int = ...) -> Tuple[Tensor, ...]:
    """split_with_sizes' pieces sharing input's memory, but not views."""
def unsafe_chunk(input: Tensor, chunks: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
    """chunk's pieces sharing input's memory, but not views."""
def unflatten(input: Tensor, dim: _int, sizes: Sequence[_int]) -> Tensor:
    """A view with dim replaced by the dims of sizes (-1 infers one)."""
def broadcast_tensors(*tensors: Tensor) -> Tuple[Tensor, ...]:
    """A tuple: each tensor itself if it has the common shape, else a broadcast view of it."""
def broadcast_shapes(*shapes: Union[None, _int, Sequence[_int]]) -> Size:
    """The shape (a Size) the given shapes broadcast to."""
def atleast_1d(*tensors: Union[Tensor, Sequence[Tensor]]) -> Union[Tensor, Tuple[Tensor, ...]]:
    """Each tensor itself if it has >= 1 dims, else a view of shape (1,); a tuple for several."""
def atleast_2d(*tensors: Union[Tensor, Sequence[Tensor]]) -> Union[Tensor, Tuple[Tensor, ...]]:
    """Each tensor itself if it has >= 2 dims, else a view with dims of size 1 added."""
def atleast_3d(*tensors: Union[Tensor, Sequence[Tensor]]) -> Union[Tensor, Tuple[Tensor, ...]]:
    """Each tensor itself if it has >= 3 dims, else a view with dims of size 1 added."""
def movedim(input: Tensor, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
    """A view with dims moved from source to destination positions."""
def moveaxis(input: Tensor, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
    """A view with dims moved from source to destination positions."""
# torch's *_copy functions: the view op's result in a new contiguous storage (_view_copies.py)
def view_copy(input: Tensor, size: Union[dtype, Sequence[_int]]) -> Tensor:
    """view(size) or view(dtype) of input, copied (never fails on strides: reshapes instead)."""
def permute_copy(input: Tensor, dims: Sequence[_int]) -> Tensor:
    """permute(dims) of input, copied."""
def transpose_copy(input: Tensor, dim0: _int, dim1: _int) -> Tensor:
    """transpose(dim0, dim1) of input, copied."""
def t_copy(input: Tensor) -> Tensor:
    """t() of input, copied."""
def diagonal_copy(input: Tensor, offset: _int = ..., dim1: _int = ..., dim2: _int = ...) -> Tensor:
    """diagonal(offset, dim1, dim2) of input, copied."""
def expand_copy(input: Tensor, size: Sequence[_int], *, implicit: _bool = ...) -> Tensor:
    """expand(size) of input, copied (dense: no stride 0)."""
def narrow_copy(input: Tensor, dim: _int, start: _int, length: _int) -> Tensor:
    """narrow(dim, start, length) of input, copied: a new tensor (NarrowCopyBackward0)."""
def select_copy(input: Tensor, dim: _int, index: _int) -> Tensor:
    """select(dim, index) of input, copied."""
def slice_copy(input: Tensor, dim: _int = ..., start: Optional[_int] = ..., end: Optional[_int] = ...,
               step: _int = ...) -> Tensor:
    """input[start:end:step] along dim, copied."""
def squeeze_copy(input: Tensor, dim: Optional[_int] = ...) -> Tensor:
    """squeeze(dim) of input, copied."""
def unsqueeze_copy(input: Tensor, dim: _int) -> Tensor:
    """unsqueeze(dim) of input, copied."""
def unfold_copy(input: Tensor, dimension: _int, size: _int, step: _int) -> Tensor:
    """unfold(dimension, size, step) of input, copied."""
def alias_copy(input: Tensor) -> Tensor:
    """A copy of input (AliasBackward0_copy)."""
def as_strided_copy(input: Tensor, size: Sequence[_int], stride: Sequence[_int],
                    storage_offset: Optional[_int] = ...) -> Tensor:
    """as_strided(size, stride, storage_offset) of input, copied."""
def detach_copy(input: Tensor) -> Tensor:
    """A copy of input that stays in the graph (node NotImplemented: no derivative, as torch)."""
def unbind_copy(input: Tensor, dim: _int = ...) -> Tuple[Tensor, ...]:
    """unbind(dim) of input, each piece copied (a tuple)."""
def split_copy(input: Tensor, split_size: _int, dim: _int = ...) -> Tuple[Tensor, ...]:
    """split(split_size, dim) of input, each piece copied (a tuple)."""
def split_with_sizes_copy(input: Tensor, split_sizes: Sequence[_int], dim: _int = ...) -> Tuple[Tensor, ...]:
    """split_with_sizes(split_sizes, dim) of input, each piece copied (a tuple)."""
def clone(input: Tensor) -> Tensor:
    """A copy of input with a new storage laid out as memory_format says (by default input's strides when dense); records a graph."""
def index_select(input: Tensor, dim: _int, index: Tensor) -> Tensor:
    """A copy of the entries of dim at the indices in index."""
def tile(input: Tensor, dims: Union[_int, Sequence[_int]]) -> Tensor:
    """A copy (new storage): repeat with dims padded by leading 1s."""
def flip(input: Tensor, dims: Sequence[_int]) -> Tensor:
    """A copy (new storage, laid out as clone()): input reversed along dims."""
def fliplr(input: Tensor) -> Tensor:
    """A copy (new storage): input reversed along dim 1."""
def flipud(input: Tensor) -> Tensor:
    """A copy (new storage): input reversed along dim 0."""
def roll(input: Tensor, shifts: Union[_int, Sequence[_int]], dims: Union[_int, Sequence[_int], None] = ...) -> Tensor:
    """A copy (new storage): input's elements shifted along dims, wrapping around."""
def gather(input: Tensor, dim: _int, index: Tensor, *, sparse_grad: _bool = ...) -> Tensor:
    """torch.gather(input, dim, index, *, sparse_grad=False)."""
def scatter(input: Tensor, dim: _int, index: Tensor, src: Union[Tensor, _Scalar, None] = ..., value: Optional[_Scalar] = ..., *, reduce: Optional[str] = ...) -> Tensor:
    """torch.scatter(input, dim, index, src | value, *, reduce=None)."""
def scatter_add(input: Tensor, dim: _int, index: Tensor, src: Tensor) -> Tensor:
    """torch.scatter_add(input, dim, index, src)."""
def scatter_reduce(input: Tensor, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: _bool = ...) -> Tensor:
    """torch.scatter_reduce(input, dim, index, src, reduce, *, include_self=True)."""
def index_add(input: Tensor, dim: _int, index: Tensor, source: Tensor, *, alpha: _Scalar = ...) -> Tensor:
    """torch.index_add(input, dim, index, source, *, alpha=1)."""
def index_copy(input: Tensor, dim: _int, index: Tensor, source: Tensor) -> Tensor:
    """torch.index_copy(input, dim, index, source)."""
def index_fill(input: Tensor, dim: _int, index: Tensor, value: Union[Tensor, _Scalar]) -> Tensor:
    """torch.index_fill(input, dim, index, value)."""
def take(input: Tensor, index: Tensor) -> Tensor:
    """torch.take(input, index)."""
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: _bool = ...) -> Tensor:
    """torch.put(input, index, source, accumulate=False)."""
def index_put(input: Tensor, indices: Sequence[Tensor], values: Tensor, accumulate: _bool = ...) -> Tensor:
    """torch.index_put(input, indices, values, accumulate=False)."""
def index_put_(input: Tensor, indices: Sequence[Tensor], values: Tensor, accumulate: _bool = ...) -> Tensor:
    """torch.index_put_(input, indices, values, accumulate=False)."""
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """A copy (new storage, 1-D): the elements of input where mask is true, broadcast together."""
def masked_fill(input: Tensor, mask: Tensor, value: Union[_float, Tensor]) -> Tensor:
    """A copy (new storage, C order) of input broadcast with mask, value where mask is true."""
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy (new storage, C order) of input broadcast with mask, taking source's elements in order where mask is true."""
def nonzero(input: Tensor, *, as_tuple: _bool = ...) -> Union[Tensor, Tuple[Tensor, ...]]:
    """A new int64 tensor (count, ndim) of the indices of non-zero elements; as_tuple: views of one new storage."""
def argwhere(input: Tensor) -> Tensor:
    """A new int64 tensor (count, ndim) of the indices of non-zero elements (nonzero())."""
def rot90(input: Tensor, k: _int = ..., dims: Sequence[_int] = ...) -> Tensor:
    """A copy (new storage): input rotated k quarter turns in the plane of dims (odd k: transposed strides)."""
def repeat_interleave(input: Tensor, repeats: Union[_int, Tensor, None] = ..., dim: Optional[_int] = ..., *,
                      output_size: Optional[_int] = ...) -> Tensor:
    """A copy (new storage, C order): each element of input repeated along dim (or flattened)."""
def cumsum(input: Tensor, dim: _int, *, dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor (new storage): running sums of input along dim (ints give int64)."""
def cumprod(input: Tensor, dim: _int, *, dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor (new storage): running products of input along dim (ints give int64)."""
def sort(input: Tensor, dim: _int = ..., descending: _bool = ..., *, stable: Optional[_bool] = ...) -> return_types.sort:
    """A named tuple (values, indices) of new tensors: input sorted along dim, NaN largest."""
def argsort(input: Tensor, dim: _int = ..., descending: _bool = ..., *, stable: _bool = ...) -> Tensor:
    """A new int64 tensor: the indices that sort input along dim."""
def msort(input: Tensor) -> Tensor:
    """A new tensor (new storage): input sorted along dim 0."""
def topk(input: Tensor, k: _int, dim: _int = ..., largest: _bool = ..., sorted: _bool = ...) -> return_types.topk:
    """A named tuple (values, indices) of new tensors: the k largest (smallest) along dim."""
def clamp(input: Tensor, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
    """A new tensor (new storage): input limited to [min, max] (max wins where min > max)."""
def clamp_(input: Tensor, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
    """In place, returns input: input limited to [min, max]."""
def clip(input: Tensor, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
    """clamp(): a new tensor, input limited to [min, max]."""
def clip_(input: Tensor, min: Union[_int, _float, _bool, Tensor, None] = ..., max: Union[_int, _float, _bool, Tensor, None] = ...) -> Tensor:
    """clamp_(): in place, returns input."""
def clamp_min(input: Tensor, min: Union[_int, _float, _bool, Tensor]) -> Tensor:
    """A new tensor (new storage): max(input, min) elementwise."""
def clamp_min_(input: Tensor, min: Union[_int, _float, _bool, Tensor]) -> Tensor:
    """In place, returns input: input = max(input, min)."""
def clamp_max(input: Tensor, max: Union[_int, _float, _bool, Tensor]) -> Tensor:
    """A new tensor (new storage): min(input, max) elementwise."""
def clamp_max_(input: Tensor, max: Union[_int, _float, _bool, Tensor]) -> Tensor:
    """In place, returns input: input = min(input, max)."""
def numel(input: Tensor) -> _int:
    """The number of elements of input."""
def maximum(input: Tensor, other: Tensor, *, out: Optional[Tensor] = ...) -> Tensor:
    """torch.maximum(input, other): the elementwise maximum (NaN wins; MaximumBackward0)."""
def minimum(input: Tensor, other: Tensor, *, out: Optional[Tensor] = ...) -> Tensor:
    """torch.minimum(input, other): the elementwise minimum (NaN wins; MinimumBackward0)."""
def is_floating_point(input: Tensor) -> _bool:
    """True for float16, bfloat16, float32 and float64."""
def is_complex(input: Tensor) -> _bool:
    """torch.is_complex(input)."""
def view_as_real(input: Tensor) -> Tensor:
    """torch.view_as_real(input): complex (..., n) -> real (..., n, 2), a view."""
def view_as_complex(input: Tensor) -> Tensor:
    """torch.view_as_complex(input): real (..., 2) -> complex (...), a view."""
def real(input: Tensor) -> Tensor:
    """torch.real(input): input.real."""
def imag(input: Tensor) -> Tensor:
    """torch.imag(input): input.imag."""
def conj(input: Tensor) -> Tensor:
    """torch.conj(input): input.conj(), a lazy conjugate view."""
def conj_physical(input: Tensor) -> Tensor:
    """torch.conj_physical(input): a new tensor of the conjugated values (input if not complex)."""
def conj_physical_(input: Tensor) -> Tensor:
    """torch.conj_physical_(input): conjugates in place."""
def resolve_conj(input: Tensor) -> Tensor:
    """torch.resolve_conj(input)."""
def resolve_neg(input: Tensor) -> Tensor:
    """torch.resolve_neg(input)."""
def is_conj(input: Tensor) -> _bool:
    """torch.is_conj(input)."""
def is_neg(input: Tensor) -> _bool:
    """torch.is_neg(input)."""
def adjoint(input: Tensor) -> Tensor:
    """torch.adjoint(input): input.adjoint()."""
def _neg_view(input: Tensor) -> Tensor:
    """torch._neg_view(input): a view carrying the negative bit."""
def get_num_threads() -> _int:
    """Threads ctensor uses for large copies."""
def set_num_threads(n: _int) -> None:
    """Sets the threads ctensor uses for large copies (n <= 0: the number of cores)."""

# ctensor extras
def shares_storage(a: Tensor, b: Tensor) -> _bool:
    """ctensor: True if input and other are on the same storage."""
def shares_memory(a: Tensor, b: Tensor) -> _bool:
    """Exact, as numpy.shares_memory: True if some byte belongs to an element of a and to an"""
def may_share_memory(a: Tensor, b: Tensor) -> _bool:
    """Cheap and conservative, as numpy.may_share_memory: the byte ranges a and b span intersect."""
def has_internal_overlap(t: Tensor) -> _bool:
    """ctensor: True if two elements of input share memory."""
def storage_id(t: Tensor) -> _int:
    """ctensor: the id of the storage, unique for the process's lifetime."""
def refcount(t: Tensor) -> _int:
    """ctensor: the number of handles (any language) holding this tensor."""
def live_tensors() -> _int:
    """Tensor objects alive in the process (every language's handles count)."""
def live_storages() -> _int:
    """Storage objects alive in the process."""

# explain and draw (ctensor/_explain.py)
def explain(*tensors: Tensor, names: Optional[Sequence[str]] = ..., file: Any = ...) -> None:
    """Prints everything about the memory of each tensor (storage id and size, offset, strides,"""
def draw(*tensors: Tensor, path: Optional[str] = ..., names: Optional[Sequence[str]] = ...) -> Optional[str]:
    """Pictures the storages of the tensors as strips of cells and, under each strip, the"""

# compute (torch's signatures; Python scalars follow torch's wrapped-number rules)
def add(input: _Operand, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
    """A new tensor: input + alpha * other (broadcasting, torch's promotion)."""
def sub(input: _Operand, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
    """A new tensor: input - alpha * other (broadcasting, torch's promotion)."""
def subtract(input: _Operand, other: _Operand, *, alpha: _Scalar = ...) -> Tensor:
    """A new tensor: input - alpha * other (broadcasting, torch's promotion)."""
def mul(input: _Operand, other: _Operand) -> Tensor:
    """A new tensor: input * other (broadcasting, torch's promotion)."""
def multiply(input: _Operand, other: _Operand) -> Tensor:
    """A new tensor: input * other (broadcasting, torch's promotion)."""
def div(input: _Operand, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
    """A new tensor: input / other (true division, or rounding_mode 'trunc'/'floor')."""
def divide(input: _Operand, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
    """A new tensor: input / other (true division, or rounding_mode 'trunc'/'floor')."""
def true_divide(input: _Operand, other: _Operand, *, rounding_mode: None = ...) -> Tensor:
    """A new tensor: input / other (true division, or rounding_mode 'trunc'/'floor')."""
def neg(input: Tensor) -> Tensor:
    """A new tensor: -input."""
def negative(input: Tensor) -> Tensor:
    """neg(): a new tensor, -input."""
def abs(input: Tensor) -> Tensor:
    """A new tensor: |input|."""
def absolute(input: Tensor) -> Tensor:
    """abs(): a new tensor, |input|."""
def exp(input: Tensor) -> Tensor:
    """A new tensor: e ** input (floating result)."""
def log(input: Tensor) -> Tensor:
    """A new tensor: the natural logarithm of input (floating result)."""
def sqrt(input: Tensor) -> Tensor:
    """A new tensor: the square root of input (floating result)."""
def sin(input: Tensor) -> Tensor:
    """A new tensor: sin(input) (floating result)."""
def cos(input: Tensor) -> Tensor:
    """A new tensor: cos(input) (floating result)."""
def tanh(input: Tensor) -> Tensor:
    """A new tensor: tanh(input) (floating result)."""
def sigmoid(input: Tensor) -> Tensor:
    """A new tensor: 1 / (1 + e ** -input) (floating result)."""
def reciprocal(input: Tensor) -> Tensor:
    """A new tensor: 1 / input (floating result)."""
def sgn(input: Tensor) -> Tensor:
    """A new tensor: input / |input| for complex (0 at 0), sign(input) otherwise."""
def sign(input: Tensor) -> Tensor:
    """A new tensor: -1, 0 or 1 as input is negative, zero (or NaN) or positive; not for complex."""
def angle(input: Tensor) -> Tensor:
    """A new tensor: the argument atan2(imag, real) of each element (pi for negative reals)."""
def relu(input: Tensor) -> Tensor:
    """A new tensor: max(input, 0)."""
def eq(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input == other (broadcasting)."""
def ne(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input != other (broadcasting)."""
def lt(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input < other (broadcasting)."""
def le(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input <= other (broadcasting)."""
def gt(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input > other (broadcasting)."""
def ge(input: Tensor, other: _Operand) -> Tensor:
    """A new bool tensor: input >= other (broadcasting)."""
def not_equal(input: Tensor, other: _Operand) -> Tensor:
    """ne(): a new bool tensor, input != other."""
def less(input: Tensor, other: _Operand) -> Tensor:
    """lt(): a new bool tensor, input < other."""
def less_equal(input: Tensor, other: _Operand) -> Tensor:
    """le(): a new bool tensor, input <= other."""
def greater(input: Tensor, other: _Operand) -> Tensor:
    """gt(): a new bool tensor, input > other."""
def greater_equal(input: Tensor, other: _Operand) -> Tensor:
    """ge(): a new bool tensor, input >= other."""
@overload
def where(condition: Tensor) -> Tuple[Tensor, ...]:
    """where(condition, input, other): a new tensor choosing input where condition holds, else other; where(condition): nonzero(condition, as_tuple=True)."""
@overload
def where(condition: Tensor, input: _Operand, other: _Operand) -> Tensor:
    """condition ? input : other elementwise (broadcasting all three).  input and other may be"""
def equal(input: Tensor, other: Tensor) -> _bool:
    """True if input and other have the same shape and elements (a bool)."""
def allclose(input: Tensor, other: Tensor, rtol: _float = ..., atol: _float = ..., equal_nan: _bool = ...) -> _bool:
    """True if |input - other| <= atol + rtol * |other| everywhere (a bool)."""
def isclose(input: Tensor, other: Tensor, rtol: _float = ..., atol: _float = ..., equal_nan: _bool = ...) -> Tensor:
    """A new bool tensor: True where |input - other| <= atol + rtol * |other| (or equal; NaN facing NaN when equal_nan)."""
def result_type(tensor: _Operand, other: _Operand) -> dtype:
    """torch.result_type: the dtype tensor op other gives (either may be a Python number, a"""
def sum(input: Tensor, dim: _Dims = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor: the sum over dim (all elements by default)."""
def mean(input: Tensor, dim: _Dims = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor: the mean over dim (all elements by default); floating dtypes."""
def prod(input: Tensor, dim: Optional[_int] = ..., keepdim: _bool = ..., *, dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor: the product over dim (all elements by default)."""
def amax(input: Tensor, dim: _Dims = ..., keepdim: _bool = ...) -> Tensor:
    """A new tensor: the largest values over dim (all elements by default)."""
def amin(input: Tensor, dim: _Dims = ..., keepdim: _bool = ...) -> Tensor:
    """A new tensor: the smallest values over dim (all elements by default)."""
def argmax(input: Tensor, dim: Optional[_int] = ..., keepdim: _bool = ...) -> Tensor:
    """A new int64 tensor: the index of the largest value (over dim, or flattened)."""
def argmin(input: Tensor, dim: Optional[_int] = ..., keepdim: _bool = ...) -> Tensor:
    """A new int64 tensor: the index of the smallest value (over dim, or flattened)."""
def pow(input: _Operand, exponent: _Operand) -> Tensor:
    """torch.pow(input, exponent): input or exponent may be a Python number, not both."""
def floor_divide(input: _Operand, other: _Operand) -> Tensor:
    """torch.floor_divide(input, other): input // other; input may be a Python number."""
def remainder(input: _Operand, other: _Operand) -> Tensor:
    """torch.remainder(input, other): input % other; input may be a Python number."""
def fmod(input: Tensor, other: _Operand) -> Tensor:
    """torch.fmod(input, other): C's fmod, the sign of input."""
def std(input: Tensor, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
        correction: Optional[_Scalar] = ...) -> Tensor:
    """A new tensor: the standard deviation over dim (all elements by default); floating dtypes."""
def var(input: Tensor, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
        correction: Optional[_Scalar] = ...) -> Tensor:
    """A new tensor: the variance over dim (all elements by default); floating dtypes."""
def std_mean(input: Tensor, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
             correction: Optional[_Scalar] = ...) -> Tuple[Tensor, Tensor]:
    """A tuple of two new tensors: the standard deviation and the mean of input over dim."""
def var_mean(input: Tensor, dim: Union[_Dims, _bool] = ..., unbiased: _bool = ..., keepdim: _bool = ..., *,
             correction: Optional[_Scalar] = ...) -> Tuple[Tensor, Tensor]:
    """A tuple of two new tensors: the variance and the mean of input over dim."""
def norm(input: Tensor, p: Union[_Scalar, str, None] = ..., dim: _Dims = ..., keepdim: _bool = ...,
         dtype: Optional[dtype] = ...) -> Tensor:
    """A new tensor: the vector norm of order p over dim (all elements by default)."""
def linspace(start: Union[_Scalar, Tensor], end: Union[_Scalar, Tensor], steps: _int, *, dtype: Optional[dtype] = ...,
             device: Any = ..., requires_grad: _bool = ..., out: None = ..., layout: Any = ...,
             pin_memory: _bool = ...) -> Tensor:
    """steps values from start to end inclusive (1-D, a new tensor; float32 unless dtype)."""
def eye(n: _int, m: Optional[_int] = ..., *, dtype: Optional[dtype] = ..., device: Any = ...,
        requires_grad: _bool = ..., out: None = ..., layout: Any = ..., pin_memory: _bool = ...) -> Tensor:
    """The n x m (m defaults to n) identity matrix (a new tensor; float32 unless dtype)."""
@overload
def max(input: Tensor) -> Tensor:
    """A new tensor: the largest element, (values, indices) over dim, or the elementwise maximum."""
@overload
def max(input: Tensor, dim: _int, keepdim: _bool = ...) -> return_types.max: ...
@overload
def max(input: Tensor, other: Tensor) -> Tensor: ...
@overload
def min(input: Tensor) -> Tensor:
    """A new tensor: the smallest element, (values, indices) over dim, or the elementwise minimum."""
@overload
def min(input: Tensor, dim: _int, keepdim: _bool = ...) -> return_types.min: ...
@overload
def min(input: Tensor, other: Tensor) -> Tensor: ...
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """A new tensor: the matrix product of input and other (broadcasting batch dims)."""
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """A new tensor: the product of two matrices."""
def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """torch.dot: the unconjugated inner product of two 1-D tensors of one dtype (0-dim)."""
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """torch.vdot: sum(conj(input) * other) of two 1-D tensors of one dtype (0-dim)."""
def mv(input: Tensor, vec: Tensor) -> Tensor:
    """torch.mv: matrix (n x m) @ vector (m) -> (n)."""
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """torch.bmm: (b x n x m) @ (b x m x p) -> (b x n x p), no broadcasting."""
def cat(tensors: Sequence[Tensor], dim: _int = ...) -> Tensor:
    """The tensors joined along dim (a copy; promoted dtype)."""
def concat(tensors: Sequence[Tensor], dim: _int = ...) -> Tensor:
    """The tensors joined along dim (a copy; promoted dtype)."""
def stack(tensors: Sequence[Tensor], dim: _int = ...) -> Tensor:
    """The tensors (all of one shape) joined along a new dim (a copy)."""
# ctensor's generator is Philox4x32-10 (reproducible per seed, values differ from torch's);
# manual_seed returns None where torch returns its Generator.
def manual_seed(seed: _int) -> None:
    """Seeds ctensor's generator (Philox4x32-10, counter-based: the same seed gives the same"""
def rand(*size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...,
         requires_grad: _bool = ..., generator: None = ...) -> Tensor:
    """Uniform in [0, 1): rand(2, 3) or rand((2, 3)); floating and complex dtypes (default float32;"""
def randn(*size: Union[_int, Sequence[_int]], dtype: Optional[dtype] = ..., device: Any = ...,
          requires_grad: _bool = ..., generator: None = ...) -> Tensor:
    """Standard normal: randn(2, 3) or randn((2, 3)); floating and complex dtypes (default float32;"""
@overload
def randint(high: _int, size: Sequence[_int], *, dtype: Optional[dtype] = ..., device: Any = ...,
            requires_grad: _bool = ..., generator: None = ...) -> Tensor:
    """Integers uniform in [low, high): randint(high, size) or randint(low, high, size), size a"""
@overload
def randint(low: _int, high: _int, size: Sequence[_int], *, dtype: Optional[dtype] = ..., device: Any = ...,
            requires_grad: _bool = ..., generator: None = ...) -> Tensor: ...

# safetensors files and file-backed tensors (_safetensors.py; ctensor.safetensors mirrors
# safetensors.torch)
from . import safetensors as safetensors
from ._safetensors import safe_open as safe_open
def load_file(filename: Any, device: Any = ..., *, backend: str = ..., mode: str = ...) -> dict[str, Tensor]:
    """safetensors.torch.load_file: {name: tensor}, every tensor a VIEW of one mapped storage"""
def save_file(tensors: dict[str, Tensor], filename: Any, metadata: Optional[dict[str, str]] = ...) -> None:
    """safetensors.torch.save_file: writes COPIES of the tensors' bytes to filename, byte for"""
def load(f: Any, map_location: Any = ..., pickle_module: Any = ..., *, weights_only: Optional[_bool] = ...,
         mmap: Optional[_bool] = ..., **pickle_load_args: Any) -> Any:
    """torch.load(f, weights_only=True): the object torch.save wrote to f (a path, a file"""
def save(obj: Any, f: Any, pickle_module: Any = ..., pickle_protocol: _int = ...,
         _use_new_zipfile_serialization: _bool = ..., _disable_byteorder_record: _bool = ...) -> None:
    """torch.save(obj, f): writes obj to f (a path or a file object) as the zip archive torch"""
def from_file(filename: Any, shared: Optional[_bool] = ..., size: _int = ..., *, dtype: Optional[dtype] = ...,
              device: Any = ..., pin_memory: _bool = ..., requires_grad: _bool = ...) -> Tensor:
    """torch.from_file: a 1-D tensor of `size` elements of dtype (the default dtype if None) that"""
