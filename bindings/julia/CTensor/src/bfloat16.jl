# BFloat16: the upper 16 bits of a Float32 (ctensor's CT_BFLOAT16, torch.bfloat16).
#
# Julia 1.11 defines the type itself, Core.BFloat16, and leaves everything else (conversions,
# arithmetic, printing) to BFloat16s.jl: there, CTensor uses Core's type and defines no
# method on it (that would be type piracy, and would clash with BFloat16s.jl's).  Tensors of
# it need no method: their elements are loaded and stored as 16-bit values.  Load
# BFloat16s.jl to compute with the values.
#
# Julia 1.10 has no BFloat16: CTensor defines a minimal one of its own (exact conversion to
# Float32, round-to-nearest-even from it as c10's round_to_nearest_even, NaN -> 0x7fc0,
# comparisons, arithmetic through Float32).  BFloat16s.jl's type is then another type;
# ext/CTensorBFloat16sExt.jl converts between the two.

@static if isdefined(Core, :BFloat16)

using Core: BFloat16

else

"""
    BFloat16 <: AbstractFloat

16-bit brain floating point: sign, 8 exponent bits, 7 mantissa bits (the upper half of a
`Float32`).  The element type of `ct_dtype` `CT_BFLOAT16` tensors.  On Julia 1.11+ this is
`Core.BFloat16` (load BFloat16s.jl for its arithmetic); on Julia 1.10 CTensor's own type:
converts exactly to `Float32`, and `BFloat16(x)` rounds to nearest even, as PyTorch does.
"""
primitive type BFloat16 <: AbstractFloat 16 end

_bits(x::BFloat16) = reinterpret(UInt16, x)
_bf16(b::UInt16) = reinterpret(BFloat16, b)

function BFloat16(x::Float32)
    isnan(x) && return _bf16(0x7fc0)
    b = reinterpret(UInt32, x)
    b += 0x00007fff + ((b >> 16) & 0x00000001)
    return _bf16((b >> 16) % UInt16)
end
BFloat16(x::BFloat16) = x
BFloat16(x::Float64) = BFloat16(Float32(x))
BFloat16(x::Float16) = BFloat16(Float32(x))
BFloat16(x::Integer) = BFloat16(Float32(x))

Base.Float32(x::BFloat16) = reinterpret(Float32, UInt32(_bits(x)) << 16)
Base.Float64(x::BFloat16) = Float64(Float32(x))
Base.Float16(x::BFloat16) = Float16(Float32(x))

Base.promote_rule(::Type{BFloat16}, ::Type{Float16}) = Float32
Base.promote_rule(::Type{BFloat16}, ::Type{Float32}) = Float32
Base.promote_rule(::Type{BFloat16}, ::Type{Float64}) = Float64
Base.promote_rule(::Type{BFloat16}, ::Type{<:Integer}) = BFloat16

Base.zero(::Type{BFloat16}) = _bf16(0x0000)
Base.one(::Type{BFloat16}) = _bf16(0x3f80)

Base.isnan(x::BFloat16) = (_bits(x) & 0x7fff) > 0x7f80
Base.isinf(x::BFloat16) = (_bits(x) & 0x7fff) == 0x7f80
Base.isfinite(x::BFloat16) = (_bits(x) & 0x7f80) != 0x7f80
Base.signbit(x::BFloat16) = (_bits(x) & 0x8000) != 0x0000
Base.:-(x::BFloat16) = _bf16(_bits(x) ⊻ 0x8000)
Base.abs(x::BFloat16) = _bf16(_bits(x) & 0x7fff)

Base.:(==)(a::BFloat16, b::BFloat16) = Float32(a) == Float32(b)
Base.:<(a::BFloat16, b::BFloat16) = Float32(a) < Float32(b)
Base.:<=(a::BFloat16, b::BFloat16) = Float32(a) <= Float32(b)
Base.isless(a::BFloat16, b::BFloat16) = isless(Float32(a), Float32(b))
Base.isequal(a::BFloat16, b::BFloat16) = isequal(Float32(a), Float32(b))
Base.hash(x::BFloat16, h::UInt) = hash(Float32(x), h)

for op in (:+, :-, :*, :/)
    @eval Base.$op(a::BFloat16, b::BFloat16) = BFloat16($op(Float32(a), Float32(b)))
end

Base.show(io::IO, x::BFloat16) =
    get(io, :compact, false) ? show(io, Float32(x)) : print(io, "BFloat16(", Float32(x), ")")

end # @static if
