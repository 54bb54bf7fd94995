# Seed question: "What is the difference between reshape, view and permute, and what does
# contiguous mean?"  (reshape_view_permute.py and .c ask it in Python and C.)
#
# reshape_view (torch's view) and reshape_view_or_copy (torch's reshape) regroup the elements in
# their memory order; permute_view keeps the memory and changes the reading order by swapping
# strides.  reshape_view fails when the strides forbid the shape; reshape_view_or_copy then
# copies, and keeps the pointer whenever a view is possible.  Sizes and strides are in C order.
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/reshape_view_permute.jl
using CTensor

root = tensor_arange(Float32, 6)
x = reshape_view(root, 2, 3)
println("x = ", torch_repr(x))

v = reshape_view(x, 3, 2)
r = reshape_view_or_copy(x, 3, 2)
p = permute_view(x, 2, 1)
println("\n1. Same shape (3, 2), three different things")
for (name, t) in (("view(3, 2)", v), ("reshape(3, 2)", r), ("permute(1, 0)", p))
    println(rpad(name, 14), " strides ", strides(t), "  contiguous ", is_contiguous(t),
            "  same pointer as x ", pointer(t) == pointer(x))
end

println("\n2. view fails where the strides forbid it; reshape copies")
try
    reshape_view(p, 6)
catch e
    println("reshape_view(p, 6) -> ", e)
end
q = reshape_view_or_copy(p, 6)
println("q = ", torch_repr(q), "; shares x's storage: ", shares_storage(q, x))

println("\n3. explain(x, permute(x))")
explain(x, p)
