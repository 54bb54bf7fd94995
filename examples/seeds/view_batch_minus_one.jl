# Seed question: "Why does x.view(batch, -1) give a tensor that looks identical to x?"
# (view_batch_minus_one.py and .c ask it in Python and C.)
#
# -1 is inferred so that the element count matches.  If x is already (batch, features), the
# result has x's shape, strides, storage and values: a new tensor object that is a view, and
# nothing else.  It flattens only when there are dims after the batch one.
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/view_batch_minus_one.jl
using CTensor

root = tensor_arange(Float32, 8)
x = reshape_view(root, 2, 4)
y = reshape_view(x, size(x, 1), -1)
println("size(x) ", size(x), " -> size(view(2, -1)) ", size(y), "; same strides ", strides(x) == strides(y),
        "; same pointer ", pointer(x) == pointer(y), "; same C tensor ", same_tensor(x, y))

images = reshape_view(tensor_arange(Float32, 24), 2, 3, 4)
println("images ", size(images), " -> view(2, -1) ", size(reshape_view(images, 2, -1)))

t = transpose_view(reshape_view(root, 4, 2))    # (2, 4), strides (1, 2)
println("transposed: view(2, -1) works: ", size(reshape_view(t, 2, -1)))
try
    reshape_view(t, -1)
catch e
    println("view(-1) -> ", e)
end

println("\nexplain(x, x.view(2, -1))")
explain(x, y)
