"""safetensors files, as the safetensors package's torch API (safetensors.torch): load_file,
save_file, load, save and safe_open, over ctensor's C functions (include/ctensor.h, "Files").

Loading is zero-copy: the file is mapped once and every tensor is a view of that one storage
(``a.untyped_storage()`` is the same object's bytes for every tensor of a file, unlike the
package's tensors, which each get a storage of their own).  ``mode`` chooses the mapping:
``"c"`` copy-on-write (the default, as the package's ``UntypedStorage.from_file(shared=False)``:
tensors are writable and writes never reach the file), ``"r"`` read-only (writes raise),
``"r+"`` shared (writes reach the file), ``"copy"`` (the file is read into memory ctensor owns).
"""

from __future__ import annotations

import os
import tempfile

from . import _C

__all__ = ["load_file", "save_file", "load", "save", "safe_open", "from_file"]

_MODES = {"r": _C.CT_FILE_READ_ONLY, "c": _C.CT_FILE_COPY_ON_WRITE, "r+": _C.CT_FILE_SHARED,
          "copy": _C.CT_FILE_COPY}


def _mode(mode):
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(f"mode {mode!r} is invalid (expected one of: \"r\", \"c\", \"r+\", \"copy\")") from None


def _check_device(device):
    if device not in ("cpu", None) and str(device) != "cpu":
        raise ValueError(f"device {device!r} is invalid: ctensor has only the cpu device")


class safe_open:
    """safetensors.safe_open(filename, framework="pt"): the file's header, checked completely
    on opening, and its tensors, each a new tensor object that is a VIEW of the file's one
    mapped storage (no copy).  Use as a context manager, or call close()."""

    def __init__(self, filename, framework="pt", device="cpu", *, backend="mmap", mode="c"):
        if framework not in ("pt", "torch", "ctensor", "ct"):
            raise ValueError(f"framework {framework!r} is invalid: ctensor's safe_open gives ctensor tensors "
                             "(framework=\"pt\")")
        if backend not in ("mmap", "pread"):
            raise ValueError(f"backend {backend!r} is invalid (expected one of: \"mmap\", \"pread\")")
        _check_device(device)
        m = _mode(mode)
        if backend == "pread" and mode == "c":
            m = _C.CT_FILE_COPY  # pread: the bytes are read, not mapped
        self._handle = _C.ct_safetensors_open(os.fspath(filename), m)

    @classmethod
    def _from_bytes(cls, data):
        self = cls.__new__(cls)
        self._handle = _C.ct_safetensors_open_memory(data)
        return self

    def _h(self):
        if self._handle is None:
            raise RuntimeError("safe_open: the file is closed")
        return self._handle

    def close(self):
        """Releases the header; tensors already taken stay valid (each holds the storage)."""
        h, self._handle = getattr(self, "_handle", None), None
        if h is not None:
            _C.ct_checkpoint_release(h)

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def keys(self):
        """The tensor names, sorted (as the package)."""
        h = self._h()
        return [_C.ct_checkpoint_name(h, i) for i in range(_C.ct_checkpoint_count(h))]

    def offset_keys(self):
        """The tensor names in the order of their data in the file."""
        h = self._h()
        names = self.keys()
        return sorted(names, key=lambda n: self._byte_start(h, n))

    @staticmethod
    def _byte_start(h, name):
        t = _C.ct_checkpoint_tensor(h, _C.ct_checkpoint_find(h, name))
        return (t.storage_offset() * t.element_size(), t.numel() > 0)

    def metadata(self):
        """The "__metadata__" strings as a dict, or None when the header has none."""
        h = self._h()
        if not _C.ct_checkpoint_has_metadata(h):
            return None
        return {_C.ct_checkpoint_metadata_key(h, i): _C.ct_checkpoint_metadata_value(h, i)
                for i in range(_C.ct_checkpoint_metadata_count(h))}

    def get_tensor(self, name):
        """A new tensor that is a VIEW of the file's storage (a copy only if its bytes are
        misaligned in the file)."""
        h = self._h()
        try:
            i = _C.ct_checkpoint_find(h, name)
        except IndexError:
            raise KeyError(f"File does not contain tensor {name}") from None
        return _C.ct_checkpoint_tensor(h, i)

    def get_tensors(self):
        """{name: tensor} for every tensor, each a VIEW of the file's storage."""
        h = self._h()
        return {_C.ct_checkpoint_name(h, i): _C.ct_checkpoint_tensor(h, i) for i in range(_C.ct_checkpoint_count(h))}


def load_file(filename, device="cpu", *, backend="mmap", mode="c"):
    """safetensors.torch.load_file: {name: tensor}, every tensor a VIEW of one mapped storage
    of the file (no copy; mode "copy" reads the file into memory instead)."""
    with safe_open(filename, "pt", device=device, backend=backend, mode=mode) as f:
        return f.get_tensors()


def load(data):
    """safetensors.torch.load(bytes): {name: tensor}, all views of one COPY of data."""
    with safe_open._from_bytes(data) as f:
        return f.get_tensors()


def _end_ptr(t):
    if t.numel():
        return t.view(-1)[-1].data_ptr() + t.element_size()
    return t.data_ptr()


def _shared_groups(tensors):
    # safetensors.torch._find_shared_tensors: names on one storage whose memory ranges meet
    by_storage = {}
    for k, v in tensors.items():
        s = v.untyped_storage()
        if s.data_ptr() != 0 and s.nbytes() != 0:
            by_storage.setdefault((s.data_ptr(), s.nbytes()), set()).add(k)
    groups = []
    for shared in sorted(by_storage.values()):
        if len(shared) < 2:
            groups.append(shared)
            continue
        areas = sorted((tensors[n].data_ptr(), _end_ptr(tensors[n]), n) for n in shared)
        _, last_stop, last_name = areas[0]
        groups.append({last_name})
        for start, stop, name in areas[1:]:
            if start >= last_stop:
                groups.append({name})
            else:
                groups[-1].add(name)
            last_stop = stop
    return groups


def _checked_items(tensors):
    # the checks and messages of safetensors.torch._flatten_as_ptr, in its order
    from ._C import Tensor
    if not isinstance(tensors, dict):
        raise ValueError(f"Expected a dict of [str, torch.Tensor] but received {type(tensors)}")
    for k, v in tensors.items():
        if not isinstance(v, Tensor):
            raise ValueError(f"Key `{k}` is invalid, expected torch.Tensor but received {type(v)}")
    failing = [names for names in _shared_groups(tensors) if len(names) > 1]
    if failing:
        raise RuntimeError(
            f"""
            Some tensors share memory, this will lead to duplicate memory on disk and potential differences when loading them again: {failing}.
            A potential way to correctly save your model is to use `save_model`.
            More information at https://huggingface.co/docs/safetensors/torch_shared_tensors
            """
        )
    for k, v in tensors.items():
        if not v.is_contiguous():
            raise ValueError(
                f"You are trying to save a non contiguous tensor: `{k}` which is not allowed. It either means you"
                " are trying to save tensors which are reference of each other in which case it's recommended to save"
                " only the full tensors, and reslice at load time, or simply call `.contiguous()` on your tensor to"
                " pack it before saving."
            )
    return list(tensors.items())


def _metadata_pairs(metadata):
    if metadata is None:
        return None
    return [(k, v) for k, v in metadata.items()]


def save_file(tensors, filename, metadata=None):
    """safetensors.torch.save_file: writes COPIES of the tensors' bytes to filename, byte for
    byte what the package writes (with at most one metadata entry; more are written sorted by
    key, the package's order varies)."""
    _C.ct_safetensors_save(os.fspath(filename), _checked_items(tensors), _metadata_pairs(metadata), 0)


def save(tensors, metadata=None):
    """safetensors.torch.save: the bytes save_file would write (a COPY of the tensors)."""
    items = _checked_items(tensors)
    fd, path = tempfile.mkstemp(suffix=".safetensors")
    try:
        os.close(fd)
        _C.ct_safetensors_save(path, items, _metadata_pairs(metadata), 0)
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.unlink(path)


def from_file(filename, shared=None, size=0, *, dtype=None, device=None, pin_memory=False, requires_grad=False):
    """torch.from_file: a 1-D tensor of `size` elements of dtype (the default dtype if None) that
    is a VIEW of a mapping of the file's first bytes, no copy.  shared=True writes through to
    the file; shared=False or None maps copy-on-write (writes stay in memory), as torch."""
    from ._default_dtype import get_default_dtype
    from ._dtype import dtype as _dtype_cls
    if device not in (None, "cpu") and str(device) != "cpu":
        raise ValueError(f"device {device!r} is invalid: ctensor has only the cpu device")
    dt = get_default_dtype() if dtype is None else dtype
    if not isinstance(dt, _dtype_cls):
        raise TypeError(f"from_file(): argument 'dtype' must be torch.dtype, not {type(dt).__name__}")
    mode = _C.CT_FILE_SHARED if shared else _C.CT_FILE_COPY_ON_WRITE
    storage = _C.ct_storage_from_file(os.fspath(filename), 0, size * dt.itemsize, mode)
    from ._creation import empty
    t = empty(0, dtype=dt).set_(storage)
    if requires_grad:
        t.requires_grad_(True)
    return t
