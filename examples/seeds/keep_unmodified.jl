# Seed question: "How do I keep PyTorch from modifying my variable?"
# (keep_unmodified.py and keep_unmodified.c ask it in Python and C.)
#
# b = a binds a second name to the same tensor; a view and alias (torch's detach()) share
# a's memory.  Only clone (a copy) protects a: clone is not alias/detach.  A view never
# modifies its input: reshape_view returns a new tensor and leaves a's shape alone.
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/keep_unmodified.jl
using CTensor
using CTensor: clone, version   # generic names: public, not exported

a = tensor_zeros(Float32, 4)
b = a
b[1] = 1
println("b = a; b[1] = 1  ->  a = ", torch_repr(a))

v = reshape_view(a, 2, 2)
v[1, 2] = 2
println("v = reshape_view(a, 2, 2); v[1, 2] = 2  ->  a = ", torch_repr(a))

d = alias(a)
d[3] = 3
println("d = alias(a) (detach); d[3] = 3  ->  a = ", torch_repr(a))
println("same pointer: ", pointer(d) == pointer(a), "; is a view: ", is_view(d), "; same version: ",
        version(d) == version(a))

c = clone(a)
c[4] = 4
println("c = clone(a); c[4] = 4  ->  a = ", torch_repr(a), "; c = ", torch_repr(c))
println("version(a) = ", version(a), "; size(a) after reshape_view: ", size(a))

println("\nexplain(a, alias(a))")
explain(a, d)
