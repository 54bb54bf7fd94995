# Seed question: "I indexed a tensor twice and both results have the same id().  Are they the
# same tensor?  Do they share memory?"  (same_id.py and same_id.c ask it in Python and C.)
#
# In Julia the question is about objectid and pointers.  objectid names the Julia object, not
# the data; every select_view makes a new Tensor object on the same storage; pointers say where
# the elements are.  index_select_copy (Python's x[[0, 2]]) copies.  Indices are 1-based here:
# select_view(x, 1, 2) is Python's x[1].
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/same_id.jl
using CTensor
using CTensor: version   # generic names: public, not exported

root = tensor_arange(Float32, 12)
x = reshape_view(root, 3, 4)
println("x = ", torch_repr(x))

println("\n1. Two selects, two objects")
a = select_view(x, 1, 1)                      # Python: x[0]
b = select_view(x, 1, 2)                      # Python: x[1]
println("a === b: ", a === b, "; same C tensor: ", same_tensor(a, b))
println("same storage: ", shares_storage(a, b), " (storage ids are never reused)")

println("\n2. Where the elements are")
println("pointer(a) - pointer(x): ", Int(pointer(a) - pointer(x)), " bytes")
println("pointer(b) - pointer(x): ", Int(pointer(b) - pointer(x)), " bytes")
println("a and b overlap: ", overlaps(a, b), "; a and x overlap: ", overlaps(a, x))

println("\n3. Writing through b changes x")
b[1] = -1
println("b[1] = -1  ->  x[2, 1] = ", x[2, 1], "; version(x) = ", version(x))

println("\n4. An index list copies")
y = index_select_copy(x, 1, [1, 3])           # Python: x[[0, 2]]
println("shares storage with x: ", shares_storage(x, y), "; is a view: ", is_view(y))
y[1, 1] = 100
println("y[1, 1] = 100  ->  x[1, 1] = ", x[1, 1])

println("\n5. explain(x[0], x[1])")
explain(a, b)
