# Tensor{T,N}: one owned reference to a ctensor tensor, as a Julia AbstractArray.
#
# Index mapping.  ctensor is row-major with explicit strides (in elements), like PyTorch and
# NumPy.  A Tensor keeps ctensor's dimension order: size(t) == the C sizes, strides(t) ==
# the C strides, and t[i, j, ...] is the element C and Python reach with [i-1, j-1, ...]:
#     address = data + sum((i_k - 1) * stride_k) * sizeof(T)
# which is exactly Julia's strided-array rule (strides, pointer, elsize).  1-based to 0-based
# conversion happens here and in _cdim/_cindex (views.jl), nowhere else.
#
# Reads are plain loads.  Every write goes through the library (ct_copy_ from a temporary),
# so that it is refused where the library refuses it (a leaf that requires grad, a view of
# one, a read-only storage, an expanded tensor), bumps the version counter, and is recorded
# by autograd (CopySlices) like torch's x[i, j] = v: a tensor saved for backward cannot
# change silently.  Bulk writes (fill!, copyto!, .=, map!) compute in Julia into a temporary
# and make ONE library copy.  Only a tensor nobody has seen yet (just made by ct_empty) is
# filled directly (_init_fresh!).
#
# Metadata (sizes, strides, offset, dtype, storage) never changes after creation, so it is
# read once, when the Tensor is made.  Only the bytes change.

struct _Own end  # marks the constructor that takes ownership of a handle

const _TensorHandle = Ptr{L.ct_tensor}

"""
    Tensor{T,N} <: AbstractArray{T,N}

One owned reference to a ctensor tensor (a `ct_tensor *` handle).  `T` is the element type
(see `CTensor.ELTYPES`), `N` the number of dimensions.  The reference is released by a
finalizer, or at once by `close(t)`; both are idempotent and never throw.

`size`, `strides`, `t[i, j]`, `pointer(t)` follow ctensor's (= PyTorch's) dimension order,
1-based: `t[i, j]` is the element `[i-1, j-1]` of C and Python.  Element writes go through
the library (they bump `version(t)` and are seen by autograd).  Passing `t` to `ccall` as
`Ptr{LibCTensor.ct_tensor}` passes its handle and keeps `t` alive for the call; as `Ptr{T}`
or `Ptr{Cvoid}`, its data, as for any array.

Make one with `Tensor{T}(undef, dims...)`, `Tensor{T,N}(undef, dims)`, `Tensor(A)` (a copy
of an array), `tensor_zeros`, `tensor_ones`, `tensor_full`, `tensor_arange`, or without
copying from a Julia `Array` with `wrap_array(A)`.  Views and copies: see the package README.
"""
mutable struct Tensor{T,N} <: AbstractArray{T,N}
    @atomic handle::_TensorHandle
    data::Ptr{T}                 # element [0,...,0]; C_NULL when empty or closed
    # Reassigned only by the in-place metadata ops (identity.jl: _refresh!), which keep T and
    # N.  Not declared `const` (Julia >= 1.8) because tree-sitter-julia, which checks these
    # files where Julia is absent, cannot parse const fields.
    dims::NTuple{N,Int}
    strides::NTuple{N,Int}
    offset::Int                  # storage offset, in elements
    storage_id::UInt64
    storage_data::Ptr{Cvoid}     # start of the storage's bytes (for dataids, unsafe_wrap)
    read_only::Bool
    math_bits::UInt8             # 1: conj view, 2: neg view (complex.jl); getindex applies them

    # Takes ownership of h, one reference to a tensor of dtype T with N dimensions.
    function Tensor{T,N}(::_Own, h::_TensorHandle) where {T,N}
        sz = L.ct_tensor_sizes(h)
        st = L.ct_tensor_strides(h)
        dims = ntuple(k -> Int(unsafe_load(sz, k)), Val(N))
        strides = ntuple(k -> Int(unsafe_load(st, k)), Val(N))
        s = L.ct_tensor_storage(h)
        sid = L.ct_storage_id(s)
        sdata = L.ct_storage_data(s)
        ro = L.ct_storage_is_read_only(s) == 1
        L.ct_storage_release(s)
        bits = UInt8((L.ct_tensor_is_conj(h) == 1) | ((L.ct_tensor_is_neg(h) == 1) << 1))
        t = new{T,N}(h, Ptr{T}(L.ct_tensor_data(h)), dims, strides,
                     Int(L.ct_tensor_offset(h)), sid, sdata, ro, bits)
        return finalizer(_release!, t)
    end
end

# The finalizer (and close): swaps the handle out first, so a second call does nothing.
function _release!(t::Tensor{T}) where {T}
    h = @atomicswap t.handle = _TensorHandle(C_NULL)
    t.data = Ptr{T}(C_NULL)
    if h != C_NULL
        try
            L.ct_tensor_release(h)
        catch
            # ct_tensor_release never fails; a finalizer must never throw whatever happens.
        end
    end
    return nothing
end

"""
    own_handle(h::Ptr{LibCTensor.ct_tensor}) -> Tensor

Takes ownership of `h`, a new reference returned by a `LibCTensor.ct_*` function, and
returns the `Tensor` owning it (element type and dimensions read from the handle).  Throws
the last `CTensorError` if `h` is NULL, so `own_handle(LibCTensor.ct_clone(t))` is the whole
error check.  `own_handle(() -> LibCTensor.ct_clone(t))` also retries once after a garbage
collection when the call ran out of memory.
"""
function own_handle(h::Ptr)
    h == C_NULL && throw(last_error())
    p = _TensorHandle(h)
    n = Int(L.ct_tensor_ndim(p))
    d = Int(L.ct_tensor_dtype(p))
    if n < 0 || !(0 <= d < length(ELTYPES))
        L.ct_tensor_release(p)
        _julia_error(L.CT_ERR_INTERNAL, "libctensor returned a tensor with ndim $n, dtype $d")
    end
    return Tensor{ELTYPES[d + 1], n}(_Own(), p)
end

"""
    close(t::Tensor)

Releases `t`'s reference now instead of at garbage collection.  Idempotent.  Afterwards
indexing `t`, `pointer(t)` and `unsafe_wrap` throw, and every library call on it fails with
`CT_ERR_INVALID_ARGUMENT`; views and copies made from `t` stay valid (a view keeps its
storage alive).
"""
Base.close(t::Tensor) = _release!(t)

"""
    handle(t) -> Ptr{LibCTensor.ct_tensor}

The `ct_tensor *` of `t` (borrowed: valid while `t` is alive; `C_NULL` after `close`).  Two
`Tensor`s with the same handle are the same C tensor object (e.g. `base(v)` and the tensor
`v` was viewed from).
"""
handle(t::Tensor) = @atomic :acquire t.handle

isclosed(t::Tensor) = handle(t) == C_NULL

# ccall(..., (Ptr{ct_tensor},), t) passes the handle and roots t for the duration of the call.
# Only that type: as Ptr{T} or Ptr{Cvoid} a Tensor is an array and passes its data.
Base.cconvert(::Type{_TensorHandle}, t::Tensor) = t
Base.unsafe_convert(::Type{_TensorHandle}, t::Tensor) = handle(t)

# A vector of tensors for a `const ct_tensor *const *` (ct_cat, ct_stack): an array of their
# handles, with the tensors rooted for the call.
struct _Handles
    ptrs::Vector{_TensorHandle}
    roots::Vector{Any}
end
Base.cconvert(::Type{Ptr{_TensorHandle}}, v::Vector{<:Tensor}) =
    _Handles(_TensorHandle[handle(t) for t in v], Any[t for t in v])
Base.unsafe_convert(::Type{Ptr{_TensorHandle}}, h::_Handles) = pointer(h.ptrs)

# ---- AbstractArray ------------------------------------------------------------------------

Base.size(t::Tensor) = t.dims
Base.IndexStyle(::Type{<:Tensor}) = IndexCartesian()

@inline function _elptr(t::Tensor{T,N}, I::NTuple{N,Int}) where {T,N}
    off = 0
    @inbounds for k in 1:N
        off += (I[k] - 1) * t.strides[k]
    end
    return t.data + off * sizeof(T)
end

@noinline _throw_closed() = _julia_error(L.CT_ERR_INVALID_ARGUMENT, "tensor is closed")
@noinline _throw_read_only() = _julia_error(L.CT_ERR_READ_ONLY,
    "cannot write to a tensor whose storage is read-only")

Base.@propagate_inbounds function Base.getindex(t::Tensor{T,N}, I::Vararg{Int,N}) where {T,N}
    @boundscheck checkbounds(t, I...)
    t.data == C_NULL && _throw_closed()
    v = GC.@preserve t unsafe_load(_elptr(t, I))
    return t.math_bits == 0x00 ? v : _read_through_bits(v, t.math_bits)
end

# A conj or neg view's element as torch reads it: the stored value conjugated or negated.
_read_through_bits(v::Complex, bits::UInt8) = (x = (bits & 0x01) != 0 ? conj(v) : v; (bits & 0x02) != 0 ? -x : x)
_read_through_bits(v, bits::UInt8) = (bits & 0x02) != 0 ? -v : v

# An element write: ct_copy_ from a 0-dim tensor holding x into the 0-dim view of the element
# (torch: x[i, j] = v), so the library checks it, counts it and records it.
Base.@propagate_inbounds function Base.setindex!(t::Tensor{T,N}, v, I::Vararg{Int,N}) where {T,N}
    @boundscheck checkbounds(t, I...)
    isclosed(t) && _throw_closed()
    t.read_only && _throw_read_only()
    x = convert(T, v)
    off = t.offset
    for k in 1:N
        off += (I[k] - 1) * t.strides[k]
    end
    el = own_handle(() -> L.ct_as_strided(t, 0, C_NULL, C_NULL, Int64(off)))
    try
        _copy_value!(el, x)
    finally
        close(el)
    end
    return t
end

# A new 0-dim tensor holding x (its bytes copied by ct_from_data).
_scalar_tensor(x::T) where {T} = own_handle(() -> L.ct_from_data(Ref(x), 0, C_NULL, dtype(T)))

# dst .= x through the library: ct_copy_ broadcasts the 0-dim source.
function _copy_value!(dst::Tensor{T}, x::T) where {T}
    src = _scalar_tensor(x)
    try
        _status(() -> L.ct_copy_(dst, src))
    finally
        close(src)
    end
    return dst
end

# f(w) with w a tensor on A's memory (ct_from_blob without a deleter) for the duration of
# the call only: A is preserved around it and w is released before it ends.  For library
# copies from or into A: ct_copy_ keeps no reference to either tensor (its backward node,
# CopyBackwards, saves none).  Unlike wrap_array it roots nothing, so A stays an ordinary
# Array (on Julia 1.10 wrap_array makes it unresizable).
function _with_array_tensor(f, A::Array{T,N}) where {T,N}
    dt = dtype(T)
    sizes = _csizes(size(A))
    strides = _csizes(Base.strides(A))
    r = GC.@preserve A begin
        w = own_handle(L.ct_from_blob(pointer(A), N, sizes, strides, dt, C_NULL, C_NULL))
        try
            f(w)
        finally
            close(w)
        end
    end
    return r
end

# dst .= A (same size) through the library: one ct_copy_ from a tensor on A's memory.
# Julia's conversions were done already: A has dst's type.
function _copy_from_array!(dst::Tensor{T,N}, A::Array{T,N}) where {T,N}
    size(A) == size(dst) || throw(DimensionMismatch(
        "cannot copy an array of size $(size(A)) into a tensor of size $(size(dst))"))
    isempty(A) && return dst
    _with_array_tensor(src -> _status(() -> L.ct_copy_(dst, src)), A)
    return dst
end

"""
    fill!(t::Tensor, v) -> t

Sets every element of `t` to `v` converted to its element type by Julia's rules (an
`InexactError` for `fill!(Int tensor, 3.7)`), in one library write (`ct_copy_`): refused
where the library refuses writes, counted once by `version(t)`, recorded by autograd.
"""
function Base.fill!(t::Tensor{T}, v) where {T}
    isclosed(t) && _throw_closed()
    return _copy_value!(t, convert(T, v))
end

# ---- The strided-array interface (Julia manual, "Interfaces: Strided Arrays") ------------
# Base.stride(t, k) for k > ndims(t) is Base's generic method (past the last element).

Base.strides(t::Tensor) = t.strides
Base.elsize(::Type{<:Tensor{T}}) where {T} = sizeof(T)

# The data pointer handed out to Julia code: refused for a closed tensor (instead of NULL)
# and for a read-only storage (a pointer is a way to write).
@inline function _checked_data(t::Tensor)
    isclosed(t) && _throw_closed()
    t.read_only && _julia_error(L.CT_ERR_READ_ONLY,
        "the tensor's storage is read-only: no writable pointer to it is handed out " *
        "(data_address(t) is its address, Array(t) a copy)")
    return t.data
end

"""
    pointer(t::Tensor{T}) -> Ptr{T}

Address of element `t[1, 1, ...]` (C's `ct_tensor_data`): `C_NULL` when `t` has no
elements.  Valid while `t`, or any tensor on its storage, is alive: use `GC.@preserve t`.
Throws for a closed tensor, and for a read-only storage (use `data_address(t)` to compare
addresses).  Writes through the pointer bypass the library, as writes through
`ct_tensor_data` in C do.
"""
Base.pointer(t::Tensor) = _checked_data(t)
Base.unsafe_convert(::Type{Ptr{T}}, t::Tensor{T}) where {T<:CTElType} = _checked_data(t)

"""
    data_address(t::Tensor) -> UInt

The address of element `t[1, 1, ...]` as a number (0 when `t` has no elements or is
closed): to compare where tensors' elements are, read-only ones included, without a pointer
to write through.
"""
data_address(t::Tensor) = UInt(t.data)

# ---- Aliasing, copying, similar ---------------------------------------------------------

# Julia's own aliasing checks (broadcast, copyto!, ...) compare dataids.  A tensor's are its
# storage's address, which every view of the storage shares (and which two storages wrapping
# the same foreign memory share), and the address of its first element.  dataids(wrap_array(A))
# meets dataids(A).  An Array from unsafe_wrap(Array, t): on Julia 1.11+ its dataids are its
# Memory's, which starts at the storage's address; on Julia 1.10 they are its first
# element's address, which every tensor on that storage adds to its own (_wrapped_ids,
# foreign.jl) while the Array lives.
function Base.dataids(t::Tensor)
    t.storage_data == C_NULL && t.data == C_NULL && return ()
    return (UInt(t.storage_data), UInt(t.data), _wrapped_ids(t.storage_id)...)
end
# Internal copy (Julia unaliasing a broadcast source): no graph.
Base.unaliascopy(t::Tensor{T,N}) where {T,N} = no_grad(() -> clone(t))::Tensor{T,N}
Base.copy(t::Tensor) = clone(t)

# similar: a new (uninitialized, contiguous) tensor when ctensor has the element type.
Base.similar(t::Tensor, ::Type{S}, dims::Dims) where {S} = _similar(S, dims)
_similar(::Type{S}, dims::Dims) where {S<:CTElType} = Tensor{S}(undef, dims)
_similar(::Type{S}, dims::Dims) where {S} = Array{S}(undef, dims)

"""
    copyto!(dst::Tensor, src::Tensor) -> dst
    copyto!(dst::Tensor, src::Array) -> dst

Of one size: one library write of `src` into `dst`, converting elements by JULIA's rules (a
non-integral float into an integer tensor is an `InexactError`).  Same element types and
float-to-float conversions take the library's copy directly (correct when `src` and `dst`
overlap); other conversions are done in Julia first.  `copy_into!` converts as C and torch
do instead (truncation).  Other sizes: Julia's linear-index copy, element by element.
"""
function Base.copyto!(dst::Tensor{T}, src::Tensor{S}) where {T,S}
    size(dst) == size(src) || return invoke(copyto!, Tuple{AbstractArray,AbstractArray}, dst, src)
    if T === S || (T <: AbstractFloat && S <: AbstractFloat)
        _status(() -> L.ct_copy_(dst, src))
    else
        _copy_from_array!(dst, Array{T}(src))
    end
    return dst
end

function Base.copyto!(dst::Tensor{T}, src::Array) where {T}
    size(dst) == size(src) || return invoke(copyto!, Tuple{AbstractArray,AbstractArray}, dst, src)
    _copy_from_array!(dst, src isa Array{T} ? src : Array{T}(src))
    return dst
end

"""
    map!(f, dst::Tensor, As...) -> dst

Computes in Julia into a temporary array, then writes `dst` in one library copy.
"""
function Base.map!(f::F, dst::Tensor{T,N}, A::AbstractArray) where {F,T,N}
    tmp = size(A) == size(dst) ? Array{T,N}(undef, size(dst)) : Array(dst)
    map!(f, tmp, A)
    return _copy_from_array!(dst, tmp)
end
function Base.map!(f::F, dst::Tensor{T,N}, A::AbstractArray, B::AbstractArray) where {F,T,N}
    tmp = size(A) == size(B) == size(dst) ? Array{T,N}(undef, size(dst)) : Array(dst)
    map!(f, tmp, A, B)
    return _copy_from_array!(dst, tmp)
end
function Base.map!(f::F, dst::Tensor{T,N}, A::AbstractArray, B::AbstractArray, C::AbstractArray,
                   Ds::AbstractArray...) where {F,T,N}
    same = all(X -> size(X) == size(dst), (A, B, C, Ds...))
    tmp = same ? Array{T,N}(undef, size(dst)) : Array(dst)
    map!(f, tmp, A, B, C, Ds...)
    return _copy_from_array!(dst, tmp)
end

# ---- Broadcasting ---------------------------------------------------------------------------
# t .+ 1, t .* A, ... give a Tensor when ctensor has the result's element type (an Array
# otherwise).  The values are computed by Julia (no autograd graph), then written into the
# new tensor in one library copy.  dst .= expr: the same into an existing tensor.

"""
    CTensor.TensorStyle{N} <: Broadcast.AbstractArrayStyle{N}

The broadcast style of `Tensor`s: a broadcast involving a `Tensor` (and arrays, numbers)
returns a new `Tensor`.
"""
struct TensorStyle{N} <: Broadcast.AbstractArrayStyle{N} end
TensorStyle(::Val{M}) where {M} = TensorStyle{M}()
TensorStyle{N}(::Val{M}) where {N,M} = TensorStyle{M}()
Base.BroadcastStyle(::Type{<:Tensor{T,N}}) where {T,N} = TensorStyle{N}()

Base.similar(bc::Broadcast.Broadcasted{TensorStyle{N}}, ::Type{S}) where {N,S} =
    _similar(S, map(length, axes(bc)))

function Base.copyto!(dst::Tensor{T,N}, bc::Broadcast.Broadcasted{Nothing}) where {T,N}
    axes(dst) == axes(bc) || throw(DimensionMismatch(
        "array could not be broadcast to match destination: $(axes(bc)) into $(axes(dst))"))
    tmp = Array{T,N}(undef, size(dst))
    copyto!(tmp, bc)          # fresh memory: no aliasing with the sources
    return _copy_from_array!(dst, tmp)
end

# ---- Metadata ---------------------------------------------------------------------------

"""
    storage_offset(t) -> Int

Offset of `t[1, 1, ...]` in its storage, in elements (0-based, as in C and PyTorch).
"""
storage_offset(t::Tensor) = t.offset

"""
    is_contiguous(t; memory_format=:contiguous_format) -> Bool

Whether `t`'s elements are laid out in C (row-major) order without gaps, by PyTorch's rule
(dimensions of size 1 are ignored; an empty tensor is contiguous).  A Julia `Array` wrapped
by `wrap_array` is column-major, so it is contiguous only when it has at most one dimension
of size above 1.  With `memory_format` (`:channels_last`, `:channels_last_3d`,
`:preserve_format`): whether the strides are exactly that format's (torch's
`t.is_contiguous(memory_format=...)`).
"""
is_contiguous(t::Tensor; memory_format::Symbol = :contiguous_format) =
    memory_format === :contiguous_format ? check_bool(L.ct_tensor_is_contiguous(t)) :
    _is_contiguous_format(t, memory_format)

"""
    torch_repr(t) -> String

PyTorch's repr of `t` (`"tensor([[0., 1.], [2., 3.]])"`), from `ct_tensor_to_string`.
"""
function torch_repr(t::Tensor)
    n = check_nonneg(L.ct_tensor_to_string(t, Ptr{UInt8}(C_NULL), 0))
    buf = Vector{UInt8}(undef, n + 1)
    m = check_nonneg(L.ct_tensor_to_string(t, buf, n + 1))
    return String(buf[1:min(m, n)])
end

function Base.summary(io::IO, t::Tensor{T}) where {T}
    print(io, Base.dims2string(size(t)), " CTensor.Tensor{", T, "} (strides ", t.strides,
          ", offset ", t.offset, ", storage ", Int(t.storage_id), ")")
end

# ---- Copies of tensors as values: deepcopy and Serialization ------------------------------

"""
    deepcopy(t::Tensor)

A new tensor with `t`'s values in a new storage (made under no-grad), requiring grad if `t`
does, with a deep copy of its `grad`: torch's `copy.deepcopy`.  Only leaves can be copied
(torch's "Only Tensors created explicitly by the user (graph leaves) support the deepcopy
protocol at the moment").
"""
function Base.deepcopy_internal(t::Tensor{T,N}, dict::IdDict) where {T,N}
    haskey(dict, t) && return dict[t]::Tensor{T,N}
    isclosed(t) && _throw_closed()
    rg = requires_grad(t)
    rg && !isleaf(t) && _julia_error(L.CT_ERR_INVALID_ARGUMENT,
        "Only Tensors created explicitly by the user (graph leaves) support the deepcopy " *
        "protocol at the moment")
    c = no_grad(() -> clone(t))::Tensor{T,N}
    dict[t] = c
    rg && requires_grad!(c)
    g = grad(t)
    g === nothing || grad!(c, Base.deepcopy_internal(g, dict))
    return c
end

# Serialization sends the values (and whether the tensor requires grad), never a handle: the
# receiver makes a new tensor.
function Serialization.serialize(s::Serialization.AbstractSerializer, t::Tensor)
    isclosed(t) && _throw_closed()
    Serialization.serialize_type(s, typeof(t))
    Serialization.serialize(s, Array(t))
    Serialization.serialize(s, requires_grad(t))
    return nothing
end

function Serialization.deserialize(s::Serialization.AbstractSerializer, ::Type{Tensor{T,N}}) where {T,N}
    A = Serialization.deserialize(s)::Array{T,N}
    rg = Serialization.deserialize(s)::Bool
    t = Tensor{T,N}(A)
    rg && requires_grad!(t)
    return t
end
