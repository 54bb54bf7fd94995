# explain: a tensor's memory, or two tensors' memory relation, in words (ct_explain).

"""
    explain([io::IO,] a[, b])

Prints what `ct_explain` says: `a`'s storage (id, size, refcount, version), storage offset,
strides (in elements, C order), contiguity, data pointer, base, refcount and distinct memory
locations; with `b`, also `b`'s, then whether they are the same tensor object, share a
storage, are each other's base, whether their elements overlap (exact) and how many elements
each has that share memory with the other.  `sprint(explain, a, b)` gives the text.  Sizes
and strides are the C (row-major) ones, as `size` and `strides` report them here.
"""
function explain(io::IO, a::Tensor, b::Union{Tensor,Nothing} = nothing)
    print(io, _explain_text(a, b))
    return nothing
end
explain(a::Tensor, b::Union{Tensor,Nothing} = nothing) = explain(stdout, a, b)

# Asks for the length, then fills a buffer of that size (snprintf rules).  A Tensor argument
# is rooted by ccall itself (cconvert); no tensor b is NULL.
function _explain_text(a::Tensor, b::Union{Tensor,Nothing})
    bb = b === nothing ? C_NULL : b
    n = check_nonneg(L.ct_explain(a, bb, Ptr{UInt8}(C_NULL), 0))
    buf = Vector{UInt8}(undef, n + 1)
    m = check_nonneg(L.ct_explain(a, bb, buf, n + 1))
    return String(buf[1:min(m, n)])
end
