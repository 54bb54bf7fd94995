# Seed question: "How do I add an op of my own, with its own backward?"
# (custom_op.py and custom_op.c ask it in Python and C.)
#
# custom_op(forward, backward, name, inputs...) is torch.autograd.Function from Julia: forward
# runs with grad mode off, and the output's grad_fn is a node named name * "Backward" that
# calls the Julia `backward` with the output's gradient.  The op then takes part in a graph
# like a built-in one, and register_hook sees the gradient on its way.  What `backward`
# captures is released when the graph is freed (live_callbacks() returns to 0).
#
# Run: CTENSOR_LIB=<build>/libctensor.so julia --project=bindings/julia/CTensor examples/seeds/custom_op.jl
using CTensor
using CTensor: LibCTensor, own_handle, grad

const L = LibCTensor
# Compute ops have no Julia layer yet: the raw layer, with the results owned.
mul(a, b) = own_handle(L.ct_mul(a, b))
mul(a, k::Real) = own_handle(L.ct_mul_scalar(a, Float64(k)))
sumall(a) = own_handle(L.ct_sum(a, 0, C_NULL, 0))

# y = x^3, with the derivative 3x^2 written by hand (grad * 3 * x * x: torch's order).
# backward captures x, an input: fine (capturing the output would make a cycle).
cube(x) = custom_op(x -> mul(mul(x, x), x), g -> mul(mul(mul(g, 3), x), x), "Cube", x)

x = requires_grad!(Tensor(Float32[0.5 -1.0 2.0; 1.5 0.0 -2.0]))
w = Tensor(Float32[1.0, 0.5, -1.0])
println("x = ", torch_repr(x))

println("\n1. The custom op inside a graph: x -> a = 2x -> y = Cube(a) -> loss = sum(y * w)")
a = mul(x, 2)
y = cube(a)
loss = sumall(mul(y, w))
println("y = ", torch_repr(y))
println("grad_fn_name(y): ", grad_fn_name(y), " ; grad_fn_name(a): ", grad_fn_name(a))
println("loss = ", torch_repr(loss))

println("\n2. A hook on a sees the gradient Cube's backward sends it")
h = register_hook(g -> (println("gradient reaching a = ", torch_repr(g)); nothing), a)
backward!(loss)
println("grad(x) = ", torch_repr(grad(x)))
remove!(h)

println("\n3. An exception in backward stops backward! with its message")
z = sumall(custom_op(t -> mul(t, 1), g -> error("Same has no backward"), "Same", x))
try
    backward!(z)
catch e
    println(sprint(showerror, e))
end
