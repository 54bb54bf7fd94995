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
