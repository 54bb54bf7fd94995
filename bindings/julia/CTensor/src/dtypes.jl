# Element types <-> ct_dtype.  The ct_dtype numbers are ABI: ELTYPES[d + 1] is the Julia
# type of dtype d.

"""
    CTensor.ELTYPES

The Julia element types of ctensor's dtypes, in `ct_dtype` order (`ELTYPES[d + 1]` is the
type of dtype `d`): Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32,
Float64, ComplexF32, ComplexF64.  `BFloat16` is `Core.BFloat16` on Julia 1.11+, else CTensor's
own (see `CTensor.BFloat16`).  Julia's `Complex{T}` is laid out as ctensor's complex dtypes
(real part first), so complex tensors and arrays share memory as the real ones do.
"""
const ELTYPES = (Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64, ComplexF32,
                 ComplexF64)

"The element types a `Tensor` can have."
const CTElType = Union{Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64, ComplexF32,
                       ComplexF64}

"""
    dtype(T) -> Cint

The `ct_dtype` of Julia element type `T` (`dtype(Float32) == LibCTensor.CT_FLOAT32`).
"""
dtype(::Type{Bool}) = L.CT_BOOL
dtype(::Type{UInt8}) = L.CT_UINT8
dtype(::Type{Int8}) = L.CT_INT8
dtype(::Type{Int16}) = L.CT_INT16
dtype(::Type{Int32}) = L.CT_INT32
dtype(::Type{Int64}) = L.CT_INT64
dtype(::Type{Float16}) = L.CT_FLOAT16
dtype(::Type{BFloat16}) = L.CT_BFLOAT16
dtype(::Type{Float32}) = L.CT_FLOAT32
dtype(::Type{Float64}) = L.CT_FLOAT64
dtype(::Type{ComplexF32}) = L.CT_COMPLEX64
dtype(::Type{ComplexF64}) = L.CT_COMPLEX128
dtype(::Type{T}) where {T} = _julia_error(L.CT_ERR_DTYPE,
    "ctensor has no dtype for element type $T (it has " * join(ELTYPES, ", ") * ")")

"""
    eltype_of(d::Integer) -> Type

The Julia element type of `ct_dtype` `d`.
"""
function eltype_of(d::Integer)
    0 <= d < length(ELTYPES) || _julia_error(L.CT_ERR_DTYPE, "unknown ct_dtype $d")
    return ELTYPES[d + 1]
end

"""
    dtype_name(T) -> String

PyTorch's name of the dtype of element type `T`: `"float32"`, `"bfloat16"`, `"bool"`, ...
(from the library: `ct_dtype_name`).
"""
function dtype_name(::Type{T}) where {T}
    p = L.ct_dtype_name(dtype(T))
    p == C_NULL && throw(last_error())
    return unsafe_string(p)
end
