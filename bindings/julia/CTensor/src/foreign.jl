# Sharing memory with Julia arrays, both ways.
#
# Julia Array -> Tensor without copying (wrap_array).  ct_from_blob gets A's memory, a
# deleter and a ctx.  A must stay alive until the deleter runs, so it is rooted in _ROOTS
# under a fresh key.  The deleter runs on whatever thread drops the last reference to the
# storage: a Julia finalizer, another Julia thread, or a thread of another language that
# holds the tensor.  So it must not allocate, take a lock or touch _ROOTS.  It only pushes
# its ctx, a node malloc'ed by wrap_array ([next, key]), onto a lock-free stack
# (_RELEASED, a Treiber stack: one compare-and-swap loop).  Julia code drains the stack later
# (drain_foreign_roots!, called by every wrap_array and by foreign_roots): it takes the whole
# stack with one atomic exchange, so there is no ABA problem, unroots each key under the lock
# and frees the nodes.  Until a drain, an Array whose tensors are all gone stays rooted (its
# memory is kept, never used).
#
# Tensor -> Julia Array without copying (unsafe_wrap(Array, t)): only for a tensor whose
# strides are Julia's column-major ones; the Array keeps t alive through a finalizer.
# Array(t) copies, in any layout.

const _ROOTS = IdDict{UInt64,Any}()      # key -> the Array whose memory a storage wraps
const _ROOTS_LOCK = ReentrantLock()
const _NEXT_KEY = Threads.Atomic{UInt64}(0)
const _RELEASED = Threads.Atomic{UInt}(0) # head of the stack of released nodes (0: empty)
const _DELETER = Ref{Ptr{Cvoid}}(C_NULL)  # the @cfunction below, made in __init__

# The ct_from_blob deleter.  No allocation, no lock, no Julia runtime call: safe on any
# thread (a thread Julia does not know is adopted by the @cfunction entry, Julia >= 1.9).
function _foreign_deleter(data::Ptr{Cvoid}, ctx::Ptr{Cvoid})::Cvoid
    node = Ptr{UInt}(ctx)
    while true
        old = _RELEASED[]
        unsafe_store!(node, old, 1)  # node.next = old
        Threads.atomic_cas!(_RELEASED, old, UInt(node)) == old && break
    end
    return nothing
end

"""
    drain_foreign_roots!() -> Int

Unroots the Julia arrays whose ctensor storages are gone (their deleters ran), and returns
how many.  `wrap_array` and `foreign_roots` call it; call it yourself after dropping large
wrapped arrays to let Julia's GC reclaim them sooner.
"""
function drain_foreign_roots!()
    _RELEASED[] == 0 && return 0
    head = Threads.atomic_xchg!(_RELEASED, UInt(0))
    n = 0
    lock(_ROOTS_LOCK)
    try
        while head != 0
            node = Ptr{UInt}(head)
            next = unsafe_load(node, 1)
            key = UInt64(unsafe_load(node, 2))
            delete!(_ROOTS, key)
            Libc.free(node)
            head = next
            n += 1
        end
    finally
        unlock(_ROOTS_LOCK)
    end
    return n
end

"""
    foreign_roots() -> Int

Julia arrays currently kept alive because a ctensor storage wraps their memory (after a
drain).  0 once every tensor made by `wrap_array` is gone and collected.
"""
function foreign_roots()
    drain_foreign_roots!()
    lock(_ROOTS_LOCK)
    try
        return length(_ROOTS)
    finally
        unlock(_ROOTS_LOCK)
    end
end

"""
    wrap_array(A::Array{T,N}) -> Tensor{T,N}

A tensor on `A`'s memory, WITHOUT copying (`ct_from_blob`): same size, same indexing
(`wrap_array(A)[i, j] === A[i, j]`), and Julia's column-major strides `(1, size(A, 1), ...)`,
so for `N >= 2` it is not contiguous in ctensor's (row-major) sense.  Writes through either
are seen through the other.  `A` stays rooted until the storage's last tensor, in any
language, is gone (then `drain_foreign_roots!` unroots it).  Do not resize `A` (`push!`,
`resize!`, ...) while it is wrapped: that may move its memory.
"""
function wrap_array(A::Array{T,N}) where {T,N}
    dt = dtype(T)
    drain_foreign_roots!()
    _DELETER[] == C_NULL && _julia_error(L.CT_ERR_INTERNAL, "CTensor.__init__ has not run")
    key = Threads.atomic_add!(_NEXT_KEY, UInt64(1)) + UInt64(1)
    node = Ptr{UInt}(Libc.malloc(2 * sizeof(UInt)))
    node == C_NULL && throw(OutOfMemoryError())
    unsafe_store!(node, UInt(0), 1)
    unsafe_store!(node, UInt(key), 2)
    lock(_ROOTS_LOCK)
    try
        _ROOTS[key] = A
    finally
        unlock(_ROOTS_LOCK)
    end
    sizes = _csizes(size(A))
    strides = _csizes(Base.strides(A))
    h = GC.@preserve A L.ct_from_blob(pointer(A), N, sizes, strides, dt, _DELETER[], node)
    if h == C_NULL
        err = last_error()  # before anything that could yield and change threads
        lock(_ROOTS_LOCK)
        try
            delete!(_ROOTS, key)
        finally
            unlock(_ROOTS_LOCK)
        end
        Libc.free(node)     # on failure the deleter is not called: the node is still ours
        throw(err)
    end
    return own_handle(h)::Tensor{T,N}
end

# Julia's column-major strides for t's sizes (dimensions of size 1 may have any stride).
function is_column_major(t::Tensor{T,N}) where {T,N}
    expected = 1
    for k in 1:N
        t.dims[k] == 1 || t.strides[k] == expected || return false
        expected *= t.dims[k]
    end
    return true
end

struct _KeepAlive
    t::Tensor
end
(k::_KeepAlive)(_) = nothing

"""
    unsafe_wrap(Array, t::Tensor{T,N}) -> Array{T,N}

A Julia `Array` on `t`'s memory, WITHOUT copying, same size and indexing.  Only when `t`'s
strides are Julia's column-major ones (`is_column_major(t)`): e.g. a tensor from
`wrap_array`, or `permute_view(x, N:-1:1...)` of a contiguous row-major `x` (whose
`[j, i]` is then `x[i, j]`); otherwise it throws, and `Array(t)` copies.  The Array keeps `t`
alive through a finalizer; an Array derived from it that shares its memory without
referencing it (on Julia >= 1.11, `reshape`) does not: keep such uses inside
`GC.@preserve t`.  Element writes through the Array are not counted by `version(t)`.
"""
function Base.unsafe_wrap(::Type{Array}, t::Tensor{T,N}) where {T,N}
    is_column_major(t) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "unsafe_wrap(Array, t): t's strides $(t.strides) are not column-major for size " *
        "$(t.dims); use Array(t) to copy")
    length(t) == 0 && return Array{T,N}(undef, t.dims)
    t.data == C_NULL && _throw_closed()
    A = unsafe_wrap(Array, t.data, t.dims; own = false)
    finalizer(_KeepAlive(t), A)
    return A
end

"""
    Array(t::Tensor) -> Array

A COPY of `t` as a Julia `Array` with the same size and indexing (`Array(t)[i, j] == t[i, j]`).
"""
function Base.Array{T,N}(t::Tensor{T,N}) where {T,N}
    N <= 1 && return copyto!(Array{T,N}(undef, t.dims), t)
    # Reversing the dimensions and making that contiguous (row-major) gives exactly the
    # column-major memory order of a Julia Array of t's size.
    p = permute_view(t, ntuple(k -> N + 1 - k, N)...)
    c = contiguous_or_self(p)
    A = Array{T,N}(undef, t.dims)
    length(A) > 0 && GC.@preserve c A unsafe_copyto!(pointer(A), pointer(c), length(A))
    close(c)
    close(p)
    return A
end
Base.Array{T}(t::Tensor{T,N}) where {T,N} = Array{T,N}(t)
Base.Array(t::Tensor{T,N}) where {T,N} = Array{T,N}(t)
