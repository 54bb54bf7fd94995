"""ctensor.load and ctensor.save: torch.load(f, weights_only=True) and torch.save for the zip archives torch.save writes, over
ctensor's C reader (include/ctensor.h, ct_torch_load).  No pickled code ever runs: the C
reader accepts only containers, numbers, strings, OrderedDict and tensors, and refuses every
other global by name.

The result is the saved object rebuilt: dicts, OrderedDicts (with their attributes, as a
state dict's ``_metadata``), lists, tuples, scalars, and ctensor tensors that share storages
exactly as the saved torch tensors did (tied weights and views share one storage, with their
strides and offsets; one tensor saved under two keys is one object).  ``mmap=True`` maps the
file copy-on-write and cuts every storage from the mapping in place (no copy; writes stay in
memory), as torch.load(mmap=True); otherwise every storage is read into memory.
"""

from __future__ import annotations

import collections
import io
import json
import os

from . import _C

__all__ = ["load", "save"]


def _check_map_location(map_location):
    if map_location is None:
        return
    text = map_location if isinstance(map_location, str) else str(map_location)
    if text != "cpu":
        raise ValueError(f"map_location {map_location!r} is invalid: ctensor has only the cpu device "
                         "(storages saved on any device load on the cpu)")


def _open(f, mode):
    if isinstance(f, (str, os.PathLike)):
        return _C.ct_torch_load(os.fspath(f), mode)
    if isinstance(f, (bytes, bytearray, memoryview)):
        return _C.ct_torch_load_memory(f)
    if hasattr(f, "read"):  # a file object, as torch.load accepts: its bytes are copied
        name = getattr(f, "name", None)
        if mode != _C.CT_FILE_COPY and isinstance(name, str) and os.path.isfile(name):
            return _C.ct_torch_load(name, mode)
        return _C.ct_torch_load_memory(f.read())
    raise TypeError(f"load(): f must be a path, a file object or bytes, not {type(f).__name__}")


def _build(node, handle, cache):
    if not isinstance(node, dict):
        return node  # a scalar: None, bool, int, float, str
    if "tensor" in node:
        i = node["tensor"]
        if i not in cache:
            cache[i] = _C.ct_checkpoint_tensor(handle, i)
        return cache[i]
    if "list" in node:
        return [_build(v, handle, cache) for v in node["list"]]
    if "tuple" in node:
        return tuple(_build(v, handle, cache) for v in node["tuple"])
    ordered = "odict" in node
    pairs = node["odict"] if ordered else node["dict"]
    d = collections.OrderedDict() if ordered else {}
    for k, v in pairs:
        d[_build(k, handle, cache)] = _build(v, handle, cache)
    if "attrs" in node:
        d.__dict__.update(_build(node["attrs"], handle, cache))
    return d


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """torch.load(f, weights_only=True): the object torch.save wrote to f (a path, a file
    object or bytes), with ctensor tensors sharing storages as the saved ones did.
    mmap=True maps the file (copy-on-write) and makes no copy of any storage."""
    if weights_only is False:
        raise ValueError("load(): weights_only=False is not supported: ctensor never runs pickled code "
                         "(it reads what torch.load(weights_only=True) reads)")
    if pickle_module is not None:
        raise ValueError("load(): pickle_module is not supported: ctensor reads data.pkl with its own "
                         "restricted unpickler")
    _check_map_location(map_location)
    mode = _C.CT_FILE_COPY_ON_WRITE if mmap else _C.CT_FILE_COPY
    if mmap and not isinstance(f, (str, os.PathLike)) and not (hasattr(f, "name") and isinstance(f, io.IOBase)):
        raise ValueError("load(): mmap=True needs f to be a file name or a file object with a name")
    handle = _open(f, mode)
    try:
        return _build(json.loads(_C.ct_checkpoint_structure(handle)), handle, {})
    finally:
        _C.ct_checkpoint_release(handle)


def _node(obj, tensors, index):
    from ._C import Tensor
    if isinstance(obj, Tensor):
        key = id(obj)
        if key not in index:
            index[key] = len(tensors)
            tensors.append(obj)
        return {"tensor": index[key]}
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        if not -2**63 <= obj < 2**63:
            raise ValueError(f"save(): the integer {obj} does not fit in 64 bits")
        return obj
    if isinstance(obj, float):
        return obj
    if isinstance(obj, list):
        return {"list": [_node(x, tensors, index) for x in obj]}
    if isinstance(obj, tuple) and type(obj) is tuple:
        return {"tuple": [_node(x, tensors, index) for x in obj]}
    if isinstance(obj, dict) and type(obj) in (dict, collections.OrderedDict):
        pairs = [[_node(k, tensors, index), _node(v, tensors, index)] for k, v in obj.items()]
        if type(obj) is dict:
            return {"dict": pairs}
        node = {"odict": pairs}
        attrs = getattr(obj, "__dict__", None)
        if attrs:
            node["attrs"] = _node(dict(attrs), tensors, index)
        return node
    raise TypeError(f"save(): cannot save a {type(obj).__name__}: ctensor saves what "
                    "torch.load(weights_only=True) reads (dicts, OrderedDicts, lists, tuples, None, bool, int, "
                    "float, str and tensors)")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """torch.save(obj, f): writes obj to f (a path or a file object) as the zip archive torch
    writes, which torch.load(weights_only=True) reads with the same nesting and the same storage
    sharing (each storage written once, whole; tied weights and views share after loading)."""
    if pickle_module is not None or pickle_protocol != 2 or not _use_new_zipfile_serialization:
        raise ValueError("save(): ctensor writes only the zip format with pickle protocol 2 (torch's default)")
    tensors, index = [], {}
    structure = json.dumps(_node(obj, tensors, index), allow_nan=False)
    if isinstance(f, (str, os.PathLike)):
        _C.ct_torch_save(os.fspath(f), structure, tensors)
        return
    import tempfile
    fd, path = tempfile.mkstemp(suffix=".pt")
    try:
        os.close(fd)
        _C.ct_torch_save(path, structure, tensors)
        with open(path, "rb") as src:
            f.write(src.read())
    finally:
        os.unlink(path)
