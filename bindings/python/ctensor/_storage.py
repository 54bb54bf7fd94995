"""Tensor.storage() and the copy protocols that go through it, as torch 2.13 has them.

TypedStorage is torch's deprecated typed view of a tensor's whole storage: the storage's bytes
as elements of the tensor's dtype.  Each call of t.storage() gives a new object (torch's do
too), so storages are compared by data_ptr(), never by identity.  The object holds a detached
alias of the tensor it came from, the handle through which the storage is read and written;
sizes are read from the storage at each call (a storage may change size under it).

copy.copy(t) and pickle go through Tensor.__reduce_ex__, as torch's: a rebuild function and
(storage, storage offset, sizes, strides, requires_grad).  copy.copy passes the storage object
along, so the copy shares t's memory; pickle reduces the storage to its bytes.  As torch,
pickle keeps the same tensor object shared within one dump but not two tensors on one storage
(each gets a storage object of its own).  copy.deepcopy copies each storage once per call
(memo keyed by storage id), so tensors sharing memory before still share it after, with their
strides and offsets.
"""

from __future__ import annotations

import ctypes
import warnings

from . import _C
from . import _dtype as D
from . import _values

_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage "
    "class. This should only matter to you if you are using storages directly.  To access UntypedStorage "
    "directly, use tensor.untyped_storage() instead of tensor.storage()")
_warned = False


def _warn_typed_storage_removal(stacklevel=2):
    """torch's warning: once per process, pointing at the caller's line."""
    global _warned
    if not _warned:
        warnings.warn(_TYPED_STORAGE_WARNING, UserWarning, stacklevel=stacklevel + 1)
        _warned = True


class TypedStorage:
    """The storage of a tensor seen as elements of its dtype (torch.TypedStorage)."""

    __slots__ = ("_alias", "_dtype")

    def __init__(self, *args, **kwargs):
        raise RuntimeError("ctensor.TypedStorage cannot be constructed directly: use tensor.storage()")

    @classmethod
    def _of(cls, t):
        s = object.__new__(cls)
        s._alias = _C.ct_data(t)  # no graph, its own version counter (writes through a storage do not move the tensor's, as in torch); shares the storage
        s._dtype = t.dtype
        return s

    # ---- geometry ---------------------------------------------------------------------------

    @property
    def dtype(self):
        """The element type the storage is seen as (the tensor's dtype)."""
        return self._dtype

    @property
    def device(self):
        """The device of the memory: always cpu."""
        from ._device import CPU
        return CPU

    @property
    def is_cuda(self):
        """False: ctensor's memory is on the CPU."""
        return False

    def untyped(self):
        """The UntypedStorage underneath (the same one tensor.untyped_storage() gives)."""
        return self._alias.untyped_storage()

    def data_ptr(self):
        """The address of the storage's first byte (an int)."""
        return self.untyped().data_ptr()

    def nbytes(self):
        """The size of the storage in bytes."""
        return self.untyped().nbytes()

    def element_size(self):
        """The size of one element of dtype in bytes."""
        return self.dtype.itemsize

    def size(self):
        """The number of dtype elements the storage holds."""
        return self.nbytes() // self.element_size()

    def __len__(self):
        return self.size()

    def _flat(self):
        """Every element of the storage as a 1-D tensor (a view of it, read now)."""
        return _C.ct_as_strided(self._alias, (self.size(),), (1,), 0)

    # ---- elements ---------------------------------------------------------------------------

    def __getitem__(self, idx):
        _warn_typed_storage_removal()
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        n = self.size()
        i = idx + n if idx < 0 else idx
        if not 0 <= i < n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        return _values.item(_C.ct_as_strided(self._alias, (), (), i))

    def __setitem__(self, idx, value):
        _warn_typed_storage_removal()
        if not isinstance(idx, (int, slice)):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        if isinstance(value, TypedStorage) or type(value).__name__ == "UntypedStorage":
            raise RuntimeError(f"cannot set item with value type {type(value)}")
        self._flat()[idx] = value  # the tensor's rules: bounds message, conversions

    def tolist(self):
        """Every element of the storage as a Python list (a copy)."""
        return _values.flat_values(self._flat())

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        body = "\n".join(f" {v}" for v in self.tolist())
        head = f"[ctensor.TypedStorage(dtype={self.dtype}, device=cpu) of size {self.size()}]"
        return f"{body}\n{head}" if body else head

    __str__ = __repr__

    # ---- copies -----------------------------------------------------------------------------

    def _tensor(self, offset, sizes, strides):
        """A new tensor (not a view) over this storage with the given geometry, made as torch
        makes it (an empty tensor set_ to the storage): its own version counter, at 1."""
        t = _C.ct_empty([0], self.dtype)
        _C.ct_set_storage_strided_(t, self.untyped(), offset, list(sizes), list(strides))
        return t

    def __reduce__(self):
        data = ctypes.string_at(self.data_ptr(), self.nbytes()) if self.nbytes() else b""
        return (_storage_from_bytes, (data, str(self.dtype).rpartition(".")[2]))

    def __deepcopy__(self, memo):
        key = ("ctensor.storage", self.untyped().id)
        new = memo.get(key)
        if new is None:
            flat = _C.ct_clone(self._flat())
            new = TypedStorage._of(flat)
            memo[key] = new
        return new

    def __copy__(self):
        # torch's TypedStorage.__copy__ is clone(): new memory, unlike copy.copy of a tensor
        return TypedStorage._of(_C.ct_clone(self._flat()))


TypedStorage.__module__ = "ctensor"  # exported as ctensor.TypedStorage (torch: torch.TypedStorage)


def _storage_from_bytes(data, dtype_name):
    """pickle's rebuild of a TypedStorage: a new storage holding these bytes."""
    dtype = getattr(D, dtype_name)
    n = len(data) // dtype.itemsize
    flat = _C.ct_from_data(data, (n,), dtype)
    return TypedStorage._of(flat)


def _rebuild_tensor(storage, offset, sizes, strides, requires_grad):
    """torch's _rebuild_tensor_v2: a leaf over `storage` with this geometry."""
    t = storage._tensor(offset, sizes, strides)
    if requires_grad:
        t.requires_grad_(True)
    return t


_NON_LEAF_DEEPCOPY = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
    "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, "
    "see https://github.com/pytorch/pytorch/pull/103001")


class _StorageMethods:
    """Namespace of the methods installed into ctensor.Tensor (never instantiated)."""

    def storage(self):
        """The tensor's whole storage as elements of its dtype (torch's deprecated TypedStorage;
        warns once, as torch).  A new object each call: compare storages by data_ptr()."""
        _warn_typed_storage_removal()
        return TypedStorage._of(self)

    def _typed_storage(self):
        return TypedStorage._of(self)

    def __reduce_ex__(self, proto):
        return (_rebuild_tensor, (TypedStorage._of(self), self.storage_offset(), tuple(self.shape),
                                  self.stride(), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        if not self.is_leaf:
            raise RuntimeError(_NON_LEAF_DEEPCOPY)
        storage = TypedStorage._of(self).__deepcopy__(memo)
        new = storage._tensor(self.storage_offset(), tuple(self.shape), self.stride())
        if self.requires_grad:
            new.requires_grad_(True)
        g = self.grad
        if g is not None:
            import copy
            new.grad = copy.deepcopy(g, memo)
        memo[id(self)] = new
        return new


def install():
    for name in ("storage", "_typed_storage", "__reduce_ex__", "__deepcopy__"):
        _C._install(_C.Tensor, name, vars(_StorageMethods)[name])
