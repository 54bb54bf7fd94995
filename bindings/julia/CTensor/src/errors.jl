# Errors: every failed call becomes a CTensorError built from the library's thread-local
# last status and message.  One place turns results into exceptions: the check_* helpers.
#
# The last error is per OS thread.  A Julia task only changes threads at a yield point, and
# nothing between a failing ccall and last_error() yields (no I/O, no lock, no wait), so the
# message read is the one of the failing call.

"""
    CTensorError(status, message)

A call into libctensor failed.  `status` is the `ct_status` code (`LibCTensor.CT_ERR_SHAPE`,
..., see `status_name`), `message` the library's message (`ct_last_error()`), worded as
PyTorch words it where PyTorch has a message.  Argument checks done on the Julia side (a
dimension outside `1:ndims(t)`, ...) throw it too, with the status the C function would use.
"""
struct CTensorError <: Exception
    status::Int
    message::String
end

"""
    status_name(status) -> String

`"CT_OK"`, `"CT_ERR_SHAPE"`, ... (`"CT_UNKNOWN_STATUS"` outside the enum).
"""
status_name(s::Integer) = _string_or(L.ct_status_name(s), "CT_UNKNOWN_STATUS")

Base.showerror(io::IO, e::CTensorError) =
    print(io, "CTensorError(", status_name(e.status), "): ", e.message)

_string_or(p::Ptr{UInt8}, default::String) = p == C_NULL ? default : unsafe_string(p)

"""
    last_error() -> CTensorError

The status and message of the last failed call on this thread (status 0 and `""` if none
since `clear_error()`).
"""
last_error() = CTensorError(Int(L.ct_last_status()), _string_or(L.ct_last_error(), ""))

"""
    clear_error()

Forgets the last error of this thread.
"""
clear_error() = (L.ct_clear_error(); nothing)

# A handle from a function documented to return NULL on failure.
@inline function check_handle(p::Ptr)
    p == C_NULL && throw(last_error())
    return p
end

# A ct_status result: 0 is success.
@inline function check_status(s::Integer)
    s == 0 || throw(last_error())
    return nothing
end

# A query documented to return a negative sentinel on failure (-1, or -2 for ct_overlaps).
@inline function check_nonneg(x::Integer)
    x < 0 && throw(last_error())
    return x
end

# 1 / 0 answers of the introspection and memory-relation queries.
@inline check_bool(x::Integer) = check_nonneg(x) == 1

_julia_error(status::Integer, msg::AbstractString) = throw(CTensorError(Int(status), String(msg)))

# ---- Out of memory: collect, then retry once ---------------------------------------------
#
# Julia's GC sees a Tensor as a small object and not the storage it holds in C, so a program
# can run out of memory while unreachable Tensors still hold large storages.  Every call that
# may allocate goes through _retry_oom: on CT_ERR_OUT_OF_MEMORY it runs a full collection
# (the finalizers release those storages) and tries once more, as CUDA.jl does for its pool.

"Collections run by a retry after `CT_ERR_OUT_OF_MEMORY` (for tests)."
const OOM_RETRIES = Threads.Atomic{Int}(0)

@noinline function _collect_for_memory()
    Threads.atomic_add!(OOM_RETRIES, 1)
    GC.gc(true)
    drain_foreign_roots!()
    return nothing
end

# f() is the library call; failed(result) says whether it failed (its status is then the
# thread's last status: nothing between the call and the check yields).
@inline function _retry_oom(f, failed)
    r = f()
    if failed(r) && L.ct_last_status() == L.CT_ERR_OUT_OF_MEMORY
        _collect_for_memory()
        r = f()
    end
    return r
end

_isnull(p::Ptr) = p == C_NULL

"""
    own_handle(f::Function) -> Tensor

`own_handle(f())` for a library call `f` that returns a new handle, with one retry after a
garbage collection if it failed with `CT_ERR_OUT_OF_MEMORY`:
`own_handle(() -> LibCTensor.ct_clone(t))`.
"""
own_handle(f::Function) = own_handle(_retry_oom(f, _isnull))

# A ct_status call that may allocate: checked, with the retry.
_status(f) = check_status(_retry_oom(f, !iszero))
