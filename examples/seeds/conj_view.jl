# Seed question: "Does conj() copy?  Why did writing into x.conj() change x?"
# (conj_view.py and conj_view.c ask it in Python and C.)
#
# conj_view (torch's t.conj()) copies nothing: a view of the same memory carrying the
# conjugate bit; indexing reads conjugated values and a write stores the conjugate in x.
# imag_view of it carries the negative bit.  resolve_conj and Array copy the values as read.
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/conj_view.jl
using CTensor
using CTensor: version   # a generic name: public, not exported

x = tensor_zeros(ComplexF32, 2)
x[1] = 1 + 2im
x[2] = 3 - 4im
println("x = ", torch_repr(x))

c = conj_view(x)
println("c = conj_view(x) -> ", torch_repr(c), "; is_conj: ", is_conj(c), "; same pointer: ",
        pointer(c) == pointer(x))

c[1] = 5 + 6im
println("c[1] = 5+6im  ->  x = ", torch_repr(x), "; version(x) = ", version(x))

im_ = imag_view(c)
println("imag_view(c) -> ", torch_repr(im_), "; is_neg: ", is_neg(im_), "; shares x: ", shares_storage(im_, x))

r = resolve_conj(c)
println("resolve_conj(c) -> ", torch_repr(r), "; is_conj: ", is_conj(r), "; shares x: ", shares_storage(r, x))
println("Array(c) == conj.(Array(x)): ", Array(c) == conj.(Array(x)))
