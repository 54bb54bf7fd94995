# Seed question: "I run the same operation again and it allocates new memory every time.  Why,
# and how do I reuse memory?"  (repeated_op.py and repeated_op.c ask it in Python and C.)
#
# An operation that copies returns a NEW tensor on a NEW storage at every call; nothing is
# cached.  Views allocate nothing.  To reuse memory, write into a tensor you keep
# (copy_into!): the pointer stays, the version counter moves.
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/repeated_op.jl
using CTensor
using CTensor: version   # generic names: public, not exported

root = tensor_arange(Float32, 6)
x = reshape_view(root, 2, 3)
println("x = ", torch_repr(x))

println("\n1. A copy of a transpose, twice: two new storages")
t = transpose_view(x)
a = contiguous_or_self(t)
b = contiguous_or_self(t)
println("same storage a/b: ", shares_storage(a, b), "; a/x: ", shares_storage(a, x))

println("\n2. Views allocate nothing")
println("contiguous_or_self(x) is x: ", same_tensor(contiguous_or_self(x), x))
println("reshape_view_or_copy(x, 3, 2) keeps the pointer: ", pointer(reshape_view_or_copy(x, 3, 2)) == pointer(x))

println("\n3. Reusing memory")
out = tensor_zeros(Float32, 3, 2)
p = pointer(out)
for step in 1:3
    copy_into!(out, t)
end
println("copy_into!(out, x.t()) three times: same pointer ", pointer(out) == p, ", version ", version(out))
println("out = ", torch_repr(out))

println("\n4. explain(a, b)")
explain(a, b)
