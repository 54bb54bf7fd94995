"""Complex tensors as torch 2.13 spells them: Tensor.real / .imag (views, assignable),
is_complex(), and torch.view_as_real / view_as_complex / real / imag.  The views are the
C library's (ct_view_as_real, ...): same storage, a base, one version counter.

The lazy conjugate (torch 1.10+): conj() is a view carrying the conjugate bit, imag of it a
view carrying the negative bit; is_conj/is_neg read them, resolve_conj/resolve_neg and
conj_physical materialize them, and H/mH/adjoint are conj of the transposes (ctensor.h,
"The conjugate and negative bits")."""

from __future__ import annotations

import warnings

from . import _C

Tensor = _C.Tensor

__all__ = ["view_as_real", "view_as_complex", "real", "imag", "is_complex", "conj", "conj_physical",
           "conj_physical_", "resolve_conj", "resolve_neg", "is_conj", "is_neg", "adjoint", "_neg_view"]


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

    def conj(self):
        """A view reading the complex conjugates (the conjugate bit; no copy); self if not complex."""
        return _C.ct_conj(self)

    def conj_physical(self):
        """A new tensor of the conjugated values (self if not complex)."""
        return _C.ct_conj_physical(self)

    def conj_physical_(self):
        """Conjugates the values in place; returns self."""
        _C.ct_conj_physical_(self)
        return self

    def resolve_conj(self):
        """self if the conjugate bit is clear, else a clone holding the conjugated values."""
        return _C.ct_resolve_conj(self)

    def resolve_neg(self):
        """self if the negative bit is clear, else a clone holding the negated values."""
        return _C.ct_resolve_neg(self)

    def is_conj(self):
        """Whether this tensor is a lazy conjugate view (the conjugate bit)."""
        return _C.ct_tensor_is_conj(self) == 1

    def is_neg(self):
        """Whether this tensor reads its stored values negated (the negative bit)."""
        return _C.ct_tensor_is_neg(self) == 1

    def adjoint(self):
        """The conjugate transpose of the last two dims: a view (conj of transpose(-2, -1))."""
        if self.dim() == 0:
            warnings.warn("adjoint() is deprecated on 0-D tensors. Consider using x.conj().", UserWarning,
                          stacklevel=2)
        return _C.ct_adjoint(self)


def _mH(self):
    n = self.dim()
    if n == 1:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.")
    if n == 0:
        warnings.warn("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
    return _C.ct_adjoint(self)


def _H(self):
    n = self.dim()
    if n == 0:
        warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
        return _C.ct_conj(self)
    if n != 2:
        hint = " For batches of matrices, consider using tensor.mH" if n > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D tensor.{hint}")
    return _C.ct_adjoint(self)


def install():
    """Adds real, imag and is_complex to ctensor.Tensor."""
    _C._install(Tensor, "real", property(_real_get, _real_set, doc="The real parts: a view (t itself if t is real)."))
    _C._install(Tensor, "imag", property(_imag_get, _imag_set, doc="The imaginary parts of a complex tensor: a view."))
    _C._install(Tensor, "is_complex", _ComplexMethods.is_complex)
    for name in ("conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg", "is_conj", "is_neg",
                 "adjoint"):
        _C._install(Tensor, name, getattr(_ComplexMethods, name))
    _C._install(Tensor, "H", property(_H, doc="The conjugate transpose of a matrix: a view."))
    _C._install(Tensor, "mH", property(_mH, doc="The conjugate transpose of the last two dims: a view."))


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


def conj(input):
    """torch.conj(input): input.conj(), a lazy conjugate view."""
    return _check_tensor("conj", input).conj()


def conj_physical(input):
    """torch.conj_physical(input): a new tensor of the conjugated values (input if not complex)."""
    return _check_tensor("conj_physical", input).conj_physical()


def conj_physical_(input):
    """torch.conj_physical_(input): conjugates in place."""
    return _check_tensor("conj_physical_", input).conj_physical_()


def resolve_conj(input):
    """torch.resolve_conj(input)."""
    return _check_tensor("resolve_conj", input).resolve_conj()


def resolve_neg(input):
    """torch.resolve_neg(input)."""
    return _check_tensor("resolve_neg", input).resolve_neg()


def is_conj(input):
    """torch.is_conj(input)."""
    return _check_tensor("is_conj", input).is_conj()


def is_neg(input):
    """torch.is_neg(input)."""
    return _check_tensor("is_neg", input).is_neg()


def adjoint(input):
    """torch.adjoint(input): input.adjoint()."""
    return _check_tensor("adjoint", input).adjoint()


def _neg_view(input):
    """torch._neg_view(input): a view carrying the negative bit."""
    return _C.ct_neg_view(_check_tensor("_neg_view", input))
