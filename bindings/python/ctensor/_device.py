"""torch.device for a library whose tensors all live in host memory.

Every device torch can name can be named here (``device('cuda:1')`` is a valid object, as in a
CPU build of torch); only a tensor on one that is not the CPU is refused, with the error a CPU-only
torch 2.13 build raises: AssertionError "Torch not compiled with CUDA enabled" for CUDA (and XPU),
so that ``device = 'cuda' if torch.cuda.is_available() else 'cpu'`` scripts behave as there.

The default device (``with device(...)``, ``set_default_device``) is a per-thread stack, as torch's
device context (a TorchFunctionMode, thread-local): a factory without ``device=`` makes its tensor
there (and so refuses to while a CUDA device is the default)."""

from __future__ import annotations

import operator
import threading

__all__ = ["device", "set_default_device", "get_default_device", "tensor_device", "target_device",
           "require_host", "CPU"]

# c10/core/Device.cpp's list, in its order (the text of its error message).
_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
                 "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_INDEX_MAX = 2**31 - 1


def _invalid_combination(got, marked):
    return TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     " * (ctensor.device device)\n" + marked +
                     " * (str type, int index = -1)\n")


def _parse(text):
    """(type, index or None) of a device string, with c10's errors (no spaces, no leading zeros,
    no sign in the index)."""
    if text == "":
        raise RuntimeError("Device string must not be empty")
    kind, colon, idx = text.partition(":")
    if kind not in _DEVICE_TYPES:
        if not kind or not all(c.isascii() and (c.isalpha() or c == "_") for c in kind):
            raise RuntimeError(f"Invalid device string: '{text}'")
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
                           f"{text}")
    if not colon:
        return kind, None
    if not idx.isascii() or not idx.isdigit() or (len(idx) > 1 and idx[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{text}'")
    if int(idx) > _DEVICE_INDEX_MAX:
        raise RuntimeError(f"Could not parse device index '{idx}' in device string '{text}'")
    return kind, int(idx)


def _no_accelerator(index):
    # torch.device(0) / device=0: an index alone names the current accelerator, and there is none
    if index < 0:
        return RuntimeError("Device index must not be negative")
    return RuntimeError("Cannot access accelerator device when none is available.")


class device:
    """A device as torch names it: ``device('cpu')``, ``device('cuda:1')``, ``device('cuda', 0)``,
    ``device(type='cpu', index=0)``; ``.type`` and ``.index`` (None when not given).  Any device
    torch knows can be named; ctensor tensors can only be made on the CPU.  As a context manager
    it is the default device of the factories inside the ``with``."""

    __slots__ = ("_type", "_index")

    def __init__(self, *args, **kwargs):
        type_, index = _device_args(args, kwargs)
        object.__setattr__(self, "_type", type_)
        object.__setattr__(self, "_index", index)

    @property
    def type(self):
        """The device type: 'cpu', 'cuda', 'meta', ..."""
        return self._type

    @property
    def index(self):
        """The device index, or None when none was given."""
        return self._index

    def __setattr__(self, name, value):
        if name in ("type", "index"):
            raise AttributeError(f"attribute '{name}' of 'ctensor.device' objects is not writable")
        raise AttributeError(f"'ctensor.device' object has no attribute '{name}'")

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented  # torch: device('cpu') == 'cpu' is False
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return (device, (str(self),))

    def __enter__(self):
        _default_stack().append(self)
        return self

    def __exit__(self, *exc):
        _default_stack().pop()
        return False


device.__module__ = "ctensor"  # pickled and printed as ctensor.device


def _device_args(args, kwargs):
    """torch.device's two signatures: (device) and (str type, int index=-1)."""
    unknown = set(kwargs) - {"type", "index"}
    if unknown:
        raise TypeError(f"device() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    if len(args) > 2:
        raise _invalid_combination(", ".join(type(a).__name__ for a in args), "")
    if "type" in kwargs and args:
        raise TypeError("device() got multiple values for argument 'type'")
    if "index" in kwargs and len(args) > 1:
        raise TypeError("device() got multiple values for argument 'index'")
    if "index" in kwargs and not args and "type" not in kwargs:
        raise _invalid_combination(f"index={type(kwargs['index']).__name__}, ",
                                   "      didn't match because some of the keywords were incorrect: index\n")
    type_ = args[0] if args else kwargs.get("type", _MISSING)
    index = args[1] if len(args) > 1 else kwargs.get("index", None)
    if type_ is _MISSING:
        raise _invalid_combination("", "")
    if isinstance(type_, device):
        if len(args) + len(kwargs) > 1:
            raise TypeError("device(): argument 'type' (position 1) must be str, not ctensor.device")
        return type_._type, type_._index
    if isinstance(type_, int) and not isinstance(type_, bool) and len(args) + len(kwargs) == 1:
        raise _no_accelerator(type_)
    if not isinstance(type_, str):
        name = type(type_).__name__
        raise _invalid_combination(name, f"      didn't match because some of the arguments have invalid types: "
                                         f"(!{name}!)\n")
    kind, parsed = _parse(type_)
    if index is not None:
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not {type(index).__name__}")
        index = operator.index(index)
        if parsed is not None:
            raise RuntimeError("type (string) must not include an index because index was passed explicitly: "
                               f"{type_}")
        if index < 0:
            raise RuntimeError("Device index must not be negative")
        return kind, index
    return kind, parsed


_MISSING = object()
CPU = device("cpu")
_THREAD = threading.local()


def _default_stack():
    """This thread's default devices: [0] is set_default_device's; `with device(...)` pushes on top."""
    stack = getattr(_THREAD, "stack", None)
    if stack is None:
        stack = _THREAD.stack = [CPU]
    return stack


def set_default_device(dev):
    """The device factories use when not given one, in this thread (None: the CPU again)."""
    _default_stack()[0] = CPU if dev is None else _as_device(dev, "set_default_device")


def get_default_device():
    """The device factories use when not given one: device(type='cpu') unless changed."""
    dev = _default_stack()[-1]
    require_host(dev)  # torch 2.13 makes a tensor there to ask, and fails the same way
    return dev


def _as_device(dev, fn):
    if isinstance(dev, device):
        return dev
    if isinstance(dev, str):
        return device(dev)
    if isinstance(dev, int) and not isinstance(dev, bool):
        raise _no_accelerator(dev)
    where = f"{fn}(): argument" if fn else "argument"
    raise TypeError(f"{where} 'device' must be ctensor.device, not {type(dev).__name__}")


def require_host(dev):
    """Refuses a tensor on any device but the CPU, with CPU-only torch's exception for CUDA and XPU."""
    if dev._type == "cpu":
        return
    if dev._type in ("cuda", "xpu"):
        raise AssertionError(f"Torch not compiled with {dev._type.upper()} enabled")
    raise NotImplementedError(f"ctensor tensors live in host memory only: it cannot make a tensor on device "
                              f"'{dev}'")


def tensor_device(dev, fn):
    """A factory's device= argument: None means the default device; the result must be the CPU."""
    dev = _default_stack()[-1] if dev is None else _as_device(dev, fn)
    require_host(dev)
    return dev


def target_device(dev):
    """Tensor.to()'s device argument (a device, a string or an accelerator index)."""
    dev = _as_device(dev, "to")
    require_host(dev)
    return dev
