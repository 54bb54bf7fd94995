"""Complex tensors as torch 2.13 spells them: Tensor.real / .imag (views, assignable),
is_complex(), and torch.view_as_real / view_as_complex / real / imag.  The views are the
C library's (ct_view_as_real, ...): same storage, a base, one version counter."""

from __future__ import annotations

from . import _C

Tensor = _C.Tensor

__all__ = ["view_as_real", "view_as_complex", "real", "imag", "is_complex"]


def _check_tensor(fn, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {type(value).__name__}")
    return value


def _real_get(self):
    return _C.ct_real(self) if self.dtype.is_complex else self  # torch: x.real is x for a real x


def _real_set(self, value):
    _real_get(self).copy_(value)


def _imag_get(self):
    return _C.ct_imag(self)


def _imag_set(self, value):
    _C.ct_imag(self).copy_(value)


class _ComplexMethods:
    def is_complex(self):
        """Whether the dtype is complex64 or complex128."""
        return self.dtype.is_complex


def install():
    """Adds real, imag and is_complex to ctensor.Tensor."""
    _C._install(Tensor, "real", property(_real_get, _real_set, doc="The real parts: a view (t itself if t is real)."))
    _C._install(Tensor, "imag", property(_imag_get, _imag_set, doc="The imaginary parts of a complex tensor: a view."))
    _C._install(Tensor, "is_complex", _ComplexMethods.is_complex)


def view_as_real(input):
    """torch.view_as_real(input): complex (..., n) -> real (..., n, 2), a view."""
    return _C.ct_view_as_real(_check_tensor("view_as_real", input))


def view_as_complex(input):
    """torch.view_as_complex(input): real (..., 2) -> complex (...), a view."""
    return _C.ct_view_as_complex(_check_tensor("view_as_complex", input))


def real(input):
    """torch.real(input): input.real."""
    return _check_tensor("real", input).real


def imag(input):
    """torch.imag(input): input.imag."""
    return _check_tensor("imag", input).imag


def is_complex(input):
    """torch.is_complex(input)."""
    return _check_tensor("is_complex", input).is_complex()
