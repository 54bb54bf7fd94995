# BFloat16s.jl and CTensor.  On Julia 1.11+ both use Core.BFloat16: one type, nothing to do
# (BFloat16s.jl gives it arithmetic and printing, and tensors of it need nothing more).  On
# Julia 1.10 each has its own type; the bits are the same, so conversions are exact
# reinterpretations, and an array of BFloat16s.BFloat16 copies into a tensor.
module CTensorBFloat16sExt

import BFloat16s
import CTensor

@static if CTensor.BFloat16 !== BFloat16s.BFloat16

const Ours = CTensor.BFloat16
const Theirs = BFloat16s.BFloat16

Base.convert(::Type{Theirs}, x::Ours) = reinterpret(Theirs, reinterpret(UInt16, x))
Base.convert(::Type{Ours}, x::Theirs) = reinterpret(Ours, reinterpret(UInt16, x))
Theirs(x::Ours) = convert(Theirs, x)
Ours(x::Theirs) = convert(Ours, x)
Base.promote_rule(::Type{Ours}, ::Type{Theirs}) = Theirs

# Tensor(A) of their type: a bfloat16 tensor (ctensor has one bfloat16 dtype, of our type).
# Other arrays of theirs: Tensor{CTensor.BFloat16}(A).
CTensor.Tensor(A::Array{Theirs}) = CTensor.Tensor{Ours}(A)

end # @static if

end # module
