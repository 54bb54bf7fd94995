# Observing memory: storage identity, sharing, exact overlap, reference counts, versions,
# bases of views, and the process-wide object counts.

"""
    storage_id(t) -> UInt64

Id of `t`'s storage: unique in the process and never reused (unlike addresses), so equal
ids mean the same storage.
"""
storage_id(t::Tensor) = t.storage_id

"""
    shares_storage(a, b) -> Bool

Whether `a` and `b` are on the same storage object (a view and its base, two views of one
tensor, a tensor and its `alias`), `ct_shares_storage`.
"""
shares_storage(a::Tensor, b::Tensor) = check_bool(L.ct_shares_storage(a, b))

"""
    may_overlap(a, b) -> Bool

Whether the byte ranges spanned by `a` and `b` intersect, whatever their storages: cheap and
conservative, as `numpy.may_share_memory` (`ct_may_overlap`).
"""
may_overlap(a::Tensor, b::Tensor) = check_bool(L.ct_may_overlap(a, b))

"""
    overlaps(a, b) -> Bool

Exact: whether some byte belongs to an element of `a` and to an element of `b`, as
`numpy.shares_memory` (`ct_overlaps`).  Throws if the search bound was hit (the answer is
then unknown).
"""
overlaps(a::Tensor, b::Tensor) = check_bool(L.ct_overlaps(a, b))

"""
    has_internal_overlap(t) -> Bool

Whether two different indices of `t` reach the same memory (e.g. after `expand_view`).
"""
has_internal_overlap(t::Tensor) = check_bool(L.ct_has_internal_overlap(t))

"""
    is_view(t) -> Bool

Whether `t` was made by a view operation (it has a `base`).  `alias(t)` is not a view.
"""
is_view(t::Tensor) = check_bool(L.ct_tensor_is_view(t))

"""
    base(t) -> Union{Tensor, Nothing}

The root tensor `t` is a view of (PyTorch's `._base`): never an intermediate view, `nothing`
if `t` is not a view.  The result is a new `Tensor` object on the same C tensor as the root
(`handle(base(v)) == handle(x)`).  Not exported (a generic name): `using CTensor: base`.
"""
function base(t::Tensor)
    h = L.ct_tensor_base(t)
    # NULL without an error means "not a view"; the last error may be an older one.
    h == C_NULL && return is_view(t) ? throw(last_error()) : nothing
    return own_handle(h)
end

"""
    version(t) -> Int

In-place writes to `t` so far, shared by every view and alias of it (its version counter):
`copy_into!`, the library's `_` operations, and the writes of the Julia layer (`t[i] = x`,
`fill!`, `copyto!`, `t .= x`, `map!`), which all go through the library.  Writes through
`pointer(t)` or an `unsafe_wrap`ped Array bypass it and do not count.  Not exported (a
generic name): `using CTensor: version`.
"""
version(t::Tensor) = Int(check_nonneg(L.ct_tensor_version(t)))

"""
    refcount(t) -> Int

References to `t`'s C tensor object: handles (each `Tensor` holds one), plus views whose
base it is.
"""
refcount(t::Tensor) = Int(check_nonneg(L.ct_tensor_refcount(t)))

"""
    same_tensor(a, b) -> Bool

Whether `a` and `b` hold the same C tensor object (`base(v)` and the tensor `v` was made
from; `contiguous_or_self(t)` and a contiguous `t`).
"""
same_tensor(a::Tensor, b::Tensor) = handle(a) == handle(b) != C_NULL

"""
    live_tensors() -> Int
    live_storages() -> Int

Tensor / storage objects alive in the process, counting the handles of every language.  A
`Tensor` releases its handle when garbage-collected: call `GC.gc()` before comparing counts.
"""
live_tensors() = Int(L.ct_live_tensors())
live_storages() = Int(L.ct_live_storages())

"""
    version_string() -> String

The library's version, "MAJOR.MINOR.PATCH" (`ct_version`).
"""
version_string() = unsafe_string(L.ct_version())

"""
    num_threads() -> Int
    set_num_threads!(n)

Threads the library uses for large copies; `n <= 0` restores the default (the cores).
"""
num_threads() = Int(L.ct_get_num_threads())
set_num_threads!(n::Integer) = (L.ct_set_num_threads(n); nothing)

# ---- Storage -------------------------------------------------------------------------------

"""
    Storage

One owned reference to a ctensor storage (`ct_storage *`): the block of bytes every view of
it shares.  From `storage(t)`; released by a finalizer or `close`.
"""
mutable struct Storage
    @atomic handle::Ptr{L.ct_storage}
    function Storage(h::Ptr{L.ct_storage})
        h == C_NULL && throw(last_error())
        return finalizer(_release!, new(h))
    end
end

function _release!(s::Storage)
    h = @atomicswap s.handle = Ptr{L.ct_storage}(C_NULL)
    if h != C_NULL
        try
            L.ct_storage_release(h)
        catch
        end
    end
    return nothing
end

Base.close(s::Storage) = _release!(s)
handle(s::Storage) = @atomic :acquire s.handle
Base.cconvert(::Type{Ptr{L.ct_storage}}, s::Storage) = s
Base.unsafe_convert(::Type{Ptr{L.ct_storage}}, s::Storage) = handle(s)

"""
    storage(t) -> Storage

A new reference to `t`'s storage.  It keeps the bytes alive even after every tensor on them
is gone.  Not exported (a generic name): `using CTensor: storage`.
"""
storage(t::Tensor) = Storage(L.ct_tensor_storage(t))

storage_id(s::Storage) = (id = L.ct_storage_id(s); id == 0 ? throw(last_error()) : id)

"""
    nbytes(s::Storage) -> Int

Size of the storage in bytes.
"""
nbytes(s::Storage) = Int(check_nonneg(L.ct_storage_nbytes(s)))
refcount(s::Storage) = Int(check_nonneg(L.ct_storage_refcount(s)))

"""
    pointer(s::Storage) -> Ptr{Cvoid}
    data_address(s::Storage) -> UInt

Start of the storage's bytes.  `pointer` throws for a read-only storage (a pointer is a way
to write); `data_address` gives the address as a number for any storage.
"""
function Base.pointer(s::Storage)
    handle(s) == C_NULL && _julia_error(L.CT_ERR_INVALID_ARGUMENT, "storage is closed")
    is_read_only(s) && _julia_error(L.CT_ERR_READ_ONLY,
        "the storage is read-only: no writable pointer to it is handed out (data_address(s) is its address)")
    return L.ct_storage_data(s)
end
data_address(s::Storage) = UInt(L.ct_storage_data(s))

"""
    is_read_only(s::Storage) -> Bool
    is_read_only(t::Tensor) -> Bool

Whether writes to the storage are refused (e.g. a read-only DLPack tensor).
"""
is_read_only(s::Storage) = check_bool(L.ct_storage_is_read_only(s))
is_read_only(t::Tensor) = t.read_only

# A Storage holds a handle, not values: it cannot be copied deeply or sent elsewhere.
Base.deepcopy_internal(::Storage, ::IdDict) = _julia_error(L.CT_ERR_INVALID_ARGUMENT,
    "a CTensor.Storage cannot be deep-copied: deepcopy the tensors on it")
Serialization.serialize(::Serialization.AbstractSerializer, ::Storage) = _julia_error(
    L.CT_ERR_INVALID_ARGUMENT, "a CTensor.Storage cannot be serialized: serialize the tensors on it")

Base.show(io::IO, s::Storage) = handle(s) == C_NULL ? print(io, "CTensor.Storage(closed)") :
    print(io, "CTensor.Storage(id ", Int(storage_id(s)), ", ", nbytes(s), " bytes, refcount ",
          refcount(s), ")")
