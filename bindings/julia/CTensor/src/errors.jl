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
@inline function check_handle(p::Ptr{Cvoid})
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
