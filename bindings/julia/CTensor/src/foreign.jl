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
# What is rooted is the memory, not just the Array: on Julia 1.11+ an Array's bytes belong to
# its Memory, and push!/resize! may give the Array a new Memory, so the old Memory (the one
# the storage points at) is rooted itself and stays valid.  On Julia 1.10 the bytes belong to
# the Array and resizing may free them, so wrap_array also roots a reshaped alias of A, which
# makes Julia refuse to resize A ("cannot resize array with shared data").
#
# Tensor -> Julia Array without copying (unsafe_wrap(Array, t)): only for a tensor whose
# strides are Julia's column-major ones.  On Julia 1.11+ the Array is made on a Memory that
# spans the storage from its start (so its dataids are the storage's, as every tensor on it
# has), and the keep-alive finalizer is attached to that Memory, which every Array derived
# from it references (JuliaLang/julia#54985: a finalizer on the wrapper Array runs while a
# reshape of it still uses the bytes).  On Julia 1.10 the finalizer is on the Array, which
# owns the pointer.  Array(t) copies, in any layout.

const _ROOTS = IdDict{UInt64,Any}()      # key -> what keeps the memory a storage wraps alive
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

# Roots value under a fresh key and returns (node, key): node is the malloc'ed [next, key]
# that the deleter (or a release callback) pushes onto _RELEASED when value may go.
function _root!(value)
    key = Threads.atomic_add!(_NEXT_KEY, UInt64(1)) + UInt64(1)
    node = Ptr{UInt}(Libc.malloc(2 * sizeof(UInt)))
    node == C_NULL && throw(OutOfMemoryError())
    unsafe_store!(node, UInt(0), 1)
    unsafe_store!(node, UInt(key), 2)
    lock(_ROOTS_LOCK)
    try
        _ROOTS[key] = value
    finally
        unlock(_ROOTS_LOCK)
    end
    return node, key
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
drain).  0 once every tensor made by `wrap_array` is gone and collected.  (The Julia
callbacks of autograd_callbacks.jl share the roots table: `live_callbacks` counts those.)
"""
function foreign_roots()
    drain_foreign_roots!()
    lock(_ROOTS_LOCK)
    try
        return count(v -> !(v isa _Callback), values(_ROOTS))
    finally
        unlock(_ROOTS_LOCK)
    end
end

# What wrap_array roots for A (see the top of this file).
@static if isdefined(Base, :Memory)
    _roots_of(A::Array) = (A, getfield(A, :ref).mem)
else
    _roots_of(A::Array) = (A, reshape(A, (size(A)..., 1)))
end

"""
    wrap_array(A::Array{T,N}) -> Tensor{T,N}

A tensor on `A`'s memory, WITHOUT copying (`ct_from_blob`): same size, same indexing
(`wrap_array(A)[i, j] === A[i, j]`), and Julia's column-major strides `(1, size(A, 1), ...)`,
so for `N >= 2` it is not contiguous in ctensor's (row-major) sense.  Writes through either
are seen through the other.  `A`'s memory stays rooted until the storage's last tensor, in
any language, is gone (then `drain_foreign_roots!` unroots it).  Resizing `A` (`push!`,
`resize!`, ...): on Julia 1.11+ allowed, and the tensor keeps the old memory (no longer
shared with `A` once Julia moved it); on Julia 1.10 refused by Julia ("cannot resize array
with shared data"), from then on.
"""
function wrap_array(A::Array{T,N}) where {T,N}
    dt = dtype(T)
    drain_foreign_roots!()
    _DELETER[] == C_NULL && _julia_error(L.CT_ERR_INTERNAL, "CTensor.__init__ has not run")
    node, key = _root!(_roots_of(A))
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

"""
    is_column_major(t) -> Bool

Whether `t`'s strides are Julia's column-major ones for its size (dimensions of size 1 may
have any stride; an empty tensor has any strides), the layout `unsafe_wrap(Array, t)` needs.
"""
function is_column_major(t::Tensor{T,N}) where {T,N}
    any(iszero, t.dims) && return true
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

@static if isdefined(Base, :Memory) && isdefined(Base, :wrap) && isdefined(Base, :memoryref)
    # A Memory from the storage's start to t's last element, the keep-alive on it, and the
    # Array at t's first element.
    function _wrap_tensor_memory(t::Tensor{T,N}) where {T,N}
        mem = unsafe_wrap(Memory{T}, Ptr{T}(t.storage_data), t.offset + length(t); own = false)
        finalizer(_KeepAlive(t), mem)
        return Base.wrap(Array, memoryref(mem, t.offset + 1), t.dims)
    end
    _wrapped_ids(::UInt64) = ()
else
    function _wrap_tensor_memory(t::Tensor{T,N}) where {T,N}
        A = unsafe_wrap(Array, t.data, t.dims; own = false)
        finalizer(_KeepAlive(t), A)   # Julia 1.10: the Array owns the pointer
        _register_wrapped!(t.storage_id, A)
        return A
    end

    # Julia 1.10: the dataids of an Array are its first element's address.  So that
    # mightalias(A, x) sees the sharing with every tensor x on the storage (not only those
    # whose first element is A's), the tensors of a storage report the addresses of the live
    # Arrays made on it.  Dead entries go when next looked up (not from a finalizer: no lock
    # may be taken there).
    const _WRAPPED = Dict{UInt64,Vector{Tuple{WeakRef,UInt}}}()  # storage id -> (Array, address)
    const _WRAPPED_LOCK = ReentrantLock()
    const _WRAPPED_COUNT = Threads.Atomic{Int}(0)                # storages in _WRAPPED

    function _register_wrapped!(sid::UInt64, A::Array)
        lock(_WRAPPED_LOCK)
        try
            v = get!(() -> Tuple{WeakRef,UInt}[], _WRAPPED, sid)
            isempty(v) && Threads.atomic_add!(_WRAPPED_COUNT, 1)
            push!(v, (WeakRef(A), UInt(pointer(A))))
        finally
            unlock(_WRAPPED_LOCK)
        end
        return nothing
    end

    function _wrapped_ids(sid::UInt64)
        _WRAPPED_COUNT[] == 0 && return ()
        lock(_WRAPPED_LOCK)
        try
            v = get(_WRAPPED, sid, nothing)
            v === nothing && return ()
            filter!(e -> e[1].value !== nothing, v)
            if isempty(v)
                delete!(_WRAPPED, sid)
                Threads.atomic_sub!(_WRAPPED_COUNT, 1)
                return ()
            end
            return Tuple(e[2] for e in v)
        finally
            unlock(_WRAPPED_LOCK)
        end
    end
end

"""
    unsafe_wrap(Array, t::Tensor{T,N}) -> Array{T,N}

A Julia `Array` on `t`'s memory, WITHOUT copying, same size and indexing.  Only when `t`'s
strides are Julia's column-major ones (`is_column_major(t)`): e.g. a tensor from
`wrap_array`, or `permute_view(x, N:-1:1...)` of a contiguous row-major `x` (whose
`[j, i]` is then `x[i, j]`); otherwise it throws, and `Array(t)` copies.  Throws for a closed
tensor, for a read-only storage and for a conj or neg view (`is_conj`, `is_neg`).  The memory stays alive while the Array, or any array
derived from it, is reachable.  `Base.mightalias` sees the sharing with `t` and with every
tensor on its storage (on Julia 1.10: with the tensors whose first element is the Array's).
Element writes through the Array bypass the library: `version(t)` does not count them and
autograd does not see them.  An empty `t` gives an empty new Array.
"""
function Base.unsafe_wrap(::Type{Array}, t::Tensor{T,N}) where {T,N}
    isclosed(t) && _throw_closed()
    length(t) == 0 && return Array{T,N}(undef, t.dims)
    t.read_only && _julia_error(L.CT_ERR_READ_ONLY,
        "unsafe_wrap(Array, t): t's storage is read-only and a Julia Array is writable; " *
        "use Array(t) to copy")
    t.math_bits == 0x00 || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "unsafe_wrap(Array, t): t is a conjugate or negative view, whose stored values are not the ones " *
        "it reads; use Array(t) to copy, or resolve_conj/resolve_neg first")
    is_column_major(t) || _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "unsafe_wrap(Array, t): t's strides $(t.strides) are not column-major for size " *
        "$(t.dims); use Array(t) to copy")
    return _wrap_tensor_memory(t)
end

"""
    Array(t::Tensor) -> Array

A COPY of `t` as a Julia `Array` with the same size and indexing (`Array(t)[i, j] == t[i, j]`),
made by one library copy into the new Array's memory, under no-grad (an internal copy records
no graph).
"""
function Base.Array{T,N}(t::Tensor{T,N}) where {T,N}
    isclosed(t) && _throw_closed()
    A = Array{T,N}(undef, t.dims)
    isempty(A) && return A
    _with_array_tensor(w -> no_grad(() -> _status(() -> L.ct_copy_(w, t))), A)
    return A
end
Base.Array{T}(t::Tensor{T,N}) where {T,N} = Array{T,N}(t)
Base.Array(t::Tensor{T,N}) where {T,N} = Array{T,N}(t)
