# Elementwise power, floored division and remainders as Julia's operators, and the spread
# reductions (std, var, their _mean forms, vector norms).  Every result is a new tensor made
# by the library (torch's dtype promotion, autograd recorded as torch records it).
#
# Julia's names and torch's: `fld` is torch.floor_divide (rounds toward -Inf, Python's //);
# Julia's `div` truncates toward zero, which is not floor_divide, so it has no method here.
# `mod` is torch.remainder (Python's %: the sign of the divisor); `rem` is torch.fmod (C's
# fmod: the sign of the dividend).  `^` is torch's elementwise pow (`x ** p`), also for a
# matrix: the matrix power Julia's `^` means for a Matrix is not what a Tensor does.

# A Julia number beside tensor t as torch's wrapped number: a 0-dim tensor whose dtype keeps
# torch's result dtype (an Integer takes an integer t's dtype, int64 beside bool; a float
# takes a floating t's dtype, float32 beside an integer t).  Integers beyond 2^53 round.
function _wrapped(t::Tensor{T}, x::Real) where {T}
    S = x isa Bool ? Bool :
        x isa Integer ? (T === Bool ? Int64 : T) :
        (T <: AbstractFloat || T === BFloat16 ? T : Float32)
    return tensor_full(S, x, ())
end

# ---- ^ ----------------------------------------------------------------------------------------

_pow(a::Tensor, b::Tensor) = own_handle(() -> L.ct_pow(a, b))
_pow(a::Tensor, p::Integer) = own_handle(() -> L.ct_pow_int(a, Int64(p)))
_pow(a::Tensor, p::Real) = own_handle(() -> L.ct_pow_scalar(a, Float64(p)))
_rpow(x::Integer, b::Tensor) = own_handle(() -> L.ct_pow(_wrapped(b, x), b))
_rpow(x::Real, b::Tensor) = own_handle(() -> L.ct_rpow_scalar(b, Float64(x)))
_pow(a::Tensor, p::Complex) = own_handle(() -> L.ct_pow_complex_scalar(a, Float64(real(p)), Float64(imag(p))))
_rpow(x::Complex, b::Tensor) = own_handle(() -> L.ct_rpow_complex_scalar(b, Float64(real(x)), Float64(imag(x))))

"""
    t ^ p          (torch: t ** p, torch.pow)

Elementwise power, a new tensor with torch's dtypes: an `Integer` `p` keeps an integer `t`'s
element type (`ct_pow_int`; a negative `p` is refused for integers), a float `p` gives a
floating result (`ct_pow_scalar`), a `Complex` `p` a complex one (`ct_pow_complex_scalar`:
complex64 beside float32 or an integer `t`), a tensor `p` broadcasts (`ct_pow`); `x ^ t` for a
real or complex number `x`.  Elementwise also for 2-D tensors (torch's meaning, not Julia's matrix power; the 2-D
methods are more specific than LinearAlgebra's matrix ones).  Autograd: PowBackward0 /
PowBackward1 / PowBackward2.
"""
Base.:^(a::Tensor, p::Integer) = _pow(a, p)
Base.:^(a::Tensor, p::Real) = _pow(a, p)
Base.:^(a::Tensor, p::Complex) = _pow(a, p)
Base.:^(x::Complex, b::Tensor) = _rpow(x, b)
Base.:^(a::Tensor{<:Any,2}, p::Complex) = _pow(a, p)
Base.:^(x::Complex, b::Tensor{<:Any,2}) = _rpow(x, b)
Base.:^(a::Tensor, b::Tensor) = _pow(a, b)
Base.:^(x::Real, b::Tensor) = _rpow(x, b)
Base.:^(a::Tensor{<:Any,2}, p::Integer) = _pow(a, p)
Base.:^(a::Tensor{<:Any,2}, p::Real) = _pow(a, p)
Base.:^(x::Real, b::Tensor{<:Any,2}) = _rpow(x, b)
Base.:^(a::Tensor{<:Any,2}, b::Tensor) = _pow(a, b)
Base.:^(a::Tensor, b::Tensor{<:Any,2}) = _pow(a, b)
Base.:^(a::Tensor{<:Any,2}, b::Tensor{<:Any,2}) = _pow(a, b)
# LinearAlgebra's ℯ ^ A (the matrix exponential) would be as specific as x ^ t for a matrix.
Base.:^(x::Irrational{:ℯ}, b::Tensor{<:Any,2}) = _rpow(x, b)

# ---- fld, mod, rem ------------------------------------------------------------------------------

"""
    fld(a, b)          (torch: torch.floor_divide(a, b), Python's a // b)

Elementwise quotient rounded toward -Inf, as Julia's `fld` (not `div`, which truncates),
with torch's promotion; `a` or `b` may be a number.  Integer division by zero throws
`CTensorError` ("ZeroDivisionError").  Not differentiable (torch records "NotImplemented").
"""
Base.fld(a::Tensor, b::Tensor) = own_handle(() -> L.ct_floor_divide(a, b))
Base.fld(a::Tensor, b::Integer) = own_handle(() -> L.ct_floor_divide(a, _wrapped(a, b)))
Base.fld(a::Tensor, b::Real) = own_handle(() -> L.ct_floor_divide_scalar(a, Float64(b)))
Base.fld(a::Integer, b::Tensor) = own_handle(() -> L.ct_floor_divide(_wrapped(b, a), b))
Base.fld(a::Real, b::Tensor) = own_handle(() -> L.ct_rfloor_divide_scalar(b, Float64(a)))

"""
    mod(a, b)          (torch: torch.remainder(a, b), Python's a % b)

Elementwise remainder with the sign of `b`, as Julia's `mod`: `mod(-7, 2) == 1`.  `a` or `b`
may be a number.  Autograd: RemainderBackward0 / RemainderBackward1.
"""
Base.mod(a::Tensor, b::Tensor) = own_handle(() -> L.ct_remainder(a, b))
Base.mod(a::Tensor, b::Integer) = own_handle(() -> L.ct_remainder(a, _wrapped(a, b)))
Base.mod(a::Tensor, b::Real) = own_handle(() -> L.ct_remainder_scalar(a, Float64(b)))
Base.mod(a::Integer, b::Tensor) = own_handle(() -> L.ct_remainder(_wrapped(b, a), b))
Base.mod(a::Real, b::Tensor) = own_handle(() -> L.ct_rremainder_scalar(b, Float64(a)))

"""
    rem(a, b)          (torch: torch.fmod(a, b))

Elementwise remainder with the sign of `a`, as Julia's `rem` and C's fmod:
`rem(-7, 2) == -1`.  `a` or `b` may be a number.  Autograd: FmodBackward0 / FmodBackward1.
"""
Base.rem(a::Tensor, b::Tensor) = own_handle(() -> L.ct_fmod(a, b))
Base.rem(a::Tensor, b::Integer) = own_handle(() -> L.ct_fmod(a, _wrapped(a, b)))
Base.rem(a::Tensor, b::Real) = own_handle(() -> L.ct_fmod_scalar(a, Float64(b)))
Base.rem(a::Real, b::Tensor) = own_handle(() -> L.ct_fmod(_wrapped(b, a), b))

# ---- std, var, norms ------------------------------------------------------------------------

# Julia's dims (1-based; `:` for all) as the C dims list, and whether any were given.
_cdims(t::Tensor, ::Colon, op) = Cint[]
_cdims(t::Tensor, d::Integer, op) = Cint[_cdim(t, d, op)]
_cdims(t::Tensor, ds, op) = Cint[_cdim(t, d, op) for d in ds]

_correction(corrected::Bool, correction) = correction === nothing ? (corrected ? 1.0 : 0.0) : Float64(correction)

function _spread(t::Tensor, dims, corrected, correction, take_sqrt::Bool)
    op = take_sqrt ? "tensor_std" : "tensor_var"
    cd = _cdims(t, dims, op)
    c = _correction(corrected, correction)
    keep = Cint(dims isa Colon ? 0 : 1)
    f = take_sqrt ? L.ct_std : L.ct_var
    return own_handle(() -> f(t, length(cd), cd, c, keep))
end

function _spread_mean(t::Tensor, dims, corrected, correction, take_sqrt::Bool)
    op = take_sqrt ? "tensor_std_mean" : "tensor_var_mean"
    cd = _cdims(t, dims, op)
    c = _correction(corrected, correction)
    keep = Cint(dims isa Colon ? 0 : 1)
    m = Ref{Ptr{L.ct_tensor}}(C_NULL)
    f = take_sqrt ? L.ct_std_mean : L.ct_var_mean
    s = own_handle(() -> f(t, length(cd), cd, c, keep, m))
    return (s, own_handle(m[]))
end

"""
    tensor_var(t; dims = :, corrected = true, correction = nothing) -> Tensor

Variance of a floating tensor (torch.var; tensor_std: torch.std), with the
keywords of Statistics.var / std: over `dims` (1-based; `:` for every element, giving a 0-D
tensor, `x[]` its value) with the reduced dims kept as size 1, as Statistics does;
`corrected = true` divides by n - 1, `false` by n; `correction = c` (any real, torch's
keyword) divides by n - c.  Welford's algorithm in Float64 (`ct_var`).  No degrees of freedom
left gives NaN or Inf, as torch.  Integer tensors throw `CTensorError` ("std and var only
support floating point and complex dtypes").  Autograd: VarBackward0 / StdBackward0.  With
Statistics loaded, `Statistics.var(t; dims, corrected)` and `std` call these.
"""
tensor_var(t::Tensor; dims = :, corrected::Bool = true, correction = nothing) =
    _spread(t, dims, corrected, correction, false)
"""
    tensor_std(t; dims = :, corrected = true, correction = nothing) -> Tensor

The square root of `tensor_var` (torch.std).  Autograd: StdBackward0 (0 where the result is 0).
"""
tensor_std(t::Tensor; dims = :, corrected::Bool = true, correction = nothing) =
    _spread(t, dims, corrected, correction, true)

"""
    tensor_var_mean(t; dims = :, corrected = true, correction = nothing) -> (var, mean)

torch.var_mean: both results of one call, `tensor_var` and the mean over the same dims.
Autograd: both record VarMeanBackward0.
"""
tensor_var_mean(t::Tensor; dims = :, corrected::Bool = true, correction = nothing) =
    _spread_mean(t, dims, corrected, correction, false)
"""
    tensor_std_mean(t; dims = :, corrected = true, correction = nothing) -> (std, mean)

torch.std_mean: `tensor_std` and the mean over the same dims.  Autograd: StdMeanBackward0.
"""
tensor_std_mean(t::Tensor; dims = :, corrected::Bool = true, correction = nothing) =
    _spread_mean(t, dims, corrected, correction, true)

"""
    tensor_norm(t, p::Real = 2; dims = :) -> Tensor          (torch: torch.linalg.vector_norm)

The `p`-norm of the elements of a floating tensor, as LinearAlgebra.norm(A, p) for an array
(every element, whatever the shape): `p = 2` the Euclidean norm, `1` the sum of magnitudes,
`Inf` / `-Inf` the largest / smallest magnitude, `0` the number of non-zero elements, any
other `p` (sum |x|^p)^(1/p).  `dims` (1-based) reduces only those dims, kept as size 1;
`dims = :` gives a 0-D tensor (`x[]` its value).  Autograd: LinalgVectorNormBackward0 (the
gradient at a zero norm is 0, as torch).  With LinearAlgebra loaded, `norm(t, p)` calls it.
"""
function tensor_norm(t::Tensor, p::Real = 2; dims = :)
    cd = _cdims(t, dims, "tensor_norm")
    keep = Cint(dims isa Colon ? 0 : 1)
    return own_handle(() -> L.ct_vector_norm(t, Float64(p), length(cd), cd, keep, Cint(-1)))
end
