# The views between a complex tensor and its parts: torch.view_as_real, view_as_complex,
# t.real, t.imag.  Each is a view (`is_view`, one version counter, the same storage).
#
# Why `real_view`/`imag_view` and not methods of `Base.real`/`Base.imag`: on an array those
# return new arrays (copies); these return views whose writes reach the complex tensor.

"""
    view_as_real(t) -> Tensor          (torch: torch.view_as_real(t))

A complex `t` (`ComplexF32`/`ComplexF64`) of size `(..., n)` seen as real numbers of size
`(..., n, 2)`: index 1 of the new last dimension is the real part, 2 the imaginary part (in
torch's dimension order: the LAST dimension is the new one).  A real `t`:
`CTensorError(CT_ERR_DTYPE)` "view_as_real is only supported for complex tensors".
"""
view_as_real(t::Tensor) = own_handle(() -> L.ct_view_as_real(t))

"""
    view_as_complex(t) -> Tensor          (torch: torch.view_as_complex(t))

A `Float32`/`Float64` `t` whose last dimension has size 2 and stride 1 (and even strides and
offset) seen as `ComplexF32`/`ComplexF64` with that dimension removed.  torch's checks and
messages (`CT_ERR_SHAPE`: "Tensor must have a last dimension of size 2", ...).
"""
view_as_complex(t::Tensor) = own_handle(() -> L.ct_view_as_complex(t))

"""
    real_view(t) -> Tensor          (torch: t.real)

The real parts of a complex `t`, a view; `t` itself when `t` is real.
"""
real_view(t::Tensor) = eltype(t) <: Complex ? own_handle(() -> L.ct_real(t)) : t

"""
    imag_view(t) -> Tensor          (torch: t.imag)

The imaginary parts of a complex `t`, a view.  A real `t`: `CTensorError(CT_ERR_DTYPE)`
"imag is not implemented for tensors with non-complex dtypes."
"""
imag_view(t::Tensor) = own_handle(() -> L.ct_imag(t))

# ---- The conjugate and negative bits (torch 1.10+: conj() copies nothing) ----------------
#
# `conj_view(t)` is torch's `t.conj()`: a view whose elements read conjugated while the
# stored values stay; `imag_view(conj_view(t))` reads the stored imaginary parts negated (the
# negative bit).  Indexing, `Array(t)`, printing and every library op read the values as
# torch does; `unsafe_wrap(Array, t)` and `pointer(t)` see the stored bytes.  (`Base.conj`
# on an array returns a new array: a copy, which `conj_physical` is.)

"""
    conj_view(t) -> Tensor          (torch: t.conj())

A complex `t`: a view with the conjugate bit toggled (same storage, version counter and
base; nothing copied).  Any other `t`: `t` itself.
"""
conj_view(t::Tensor) = eltype(t) <: Complex ? own_handle(() -> L.ct_conj(t)) : t

"""
    neg_view(t) -> Tensor          (torch: torch._neg_view(t))

A view with the negative bit toggled; floating and complex `t` only (`CT_ERR_DTYPE`).
"""
neg_view(t::Tensor) = own_handle(() -> L.ct_neg_view(t))

"""
    is_conj(t) -> Bool, is_neg(t) -> Bool          (torch: t.is_conj(), t.is_neg())
"""
is_conj(t::Tensor) = check_bool(L.ct_tensor_is_conj(t))
is_neg(t::Tensor) = check_bool(L.ct_tensor_is_neg(t))

"""
    resolve_conj(t) -> Tensor, resolve_neg(t) -> Tensor          (torch: t.resolve_conj(), ...)

`t` itself when the bit is clear, else a copy holding the values as read, with no bit.
"""
resolve_conj(t::Tensor) = is_conj(t) ? own_handle(() -> L.ct_resolve_conj(t)) : t
resolve_neg(t::Tensor) = is_neg(t) ? own_handle(() -> L.ct_resolve_neg(t)) : t

"""
    conj_physical(t) -> Tensor          (torch: torch.conj_physical(t))

A new tensor of the conjugated values (a complex `t`); `t` itself otherwise.
"""
conj_physical(t::Tensor) = eltype(t) <: Complex ? own_handle(() -> L.ct_conj_physical(t)) : t

"""
    conj_physical!(t) -> t          (torch: t.conj_physical_())

Conjugates `t`'s values in place (through a conj view: the base's stored values); one version
bump, also for a real `t`.
"""
conj_physical!(t::Tensor) = (_status(() -> L.ct_conj_physical_(t)); t)

"""
    adjoint_view(t) -> Tensor          (torch: t.adjoint(), t.mH)

The conjugate transpose of the last two dimensions (in torch's order): a view.  A 1-dim `t`:
`CTensorError(CT_ERR_SHAPE)` "tensor.adjoint() is only supported on matrices or batches of
matrices. Got 1-D tensor."
"""
adjoint_view(t::Tensor) = own_handle(() -> L.ct_adjoint(t))
