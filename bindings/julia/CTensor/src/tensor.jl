# Tensor{T,N}: one owned reference to a ctensor tensor, as a Julia AbstractArray.
#
# Index mapping.  ctensor is row-major with explicit strides (in elements), like PyTorch and
# NumPy.  A Tensor keeps ctensor's dimension order: size(t) == the C sizes, strides(t) ==
# the C strides, and t[i, j, ...] is the element C and Python reach with [i-1, j-1, ...]:
#     address = data + sum((i_k - 1) * stride_k) * sizeof(T)
# which is exactly Julia's strided-array rule, so the Tensor is a strided AbstractArray
# (strides, pointer, elsize) that BLAS-backed code and broadcasting can use.  1-based to
# 0-based conversion happens here and in _cdim/_cindex (views.jl), nowhere else.
#
# Metadata (sizes, strides, offset, dtype, storage) never changes after creation, so it is
# read once, when the Tensor is made.  Only the bytes change.

struct _Own end  # marks the constructor that takes ownership of a handle

"""
    Tensor{T,N} <: AbstractArray{T,N}

One owned reference to a ctensor tensor (a `ct_tensor *` handle).  `T` is the element type
(see `CTensor.ELTYPES`), `N` the number of dimensions.  The reference is released by a
finalizer, or at once by `close(t)`; both are idempotent and never throw.

`size`, `strides`, `t[i, j]`, `pointer(t)` follow ctensor's (= PyTorch's) dimension order,
1-based: `t[i, j]` is the element `[i-1, j-1]` of C and Python.  Passing `t` to `ccall`
as `Ptr{Cvoid}` passes its handle and keeps `t` alive for the call; as `Ptr{T}`, its data.

Make one with `Tensor{T}(undef, dims...)`, `Tensor(A)` (a copy of an array),
`tensor_zeros`, `tensor_ones`, `tensor_full`, `tensor_arange`, or without copying from a
Julia `Array` with `wrap_array(A)`.  Views and copies: see the package README.
"""
mutable struct Tensor{T,N} <: AbstractArray{T,N}
    @atomic handle::Ptr{Cvoid}
    data::Ptr{T}                 # element [0,...,0]; C_NULL when empty or closed
    # Never reassigned (the metadata is immutable).  Not declared `const` (Julia >= 1.8)
    # because tree-sitter-julia, which checks these files where Julia is absent, cannot
    # parse const fields.
    dims::NTuple{N,Int}
    strides::NTuple{N,Int}
    offset::Int                  # storage offset, in elements
    storage_id::UInt64
    storage_data::Ptr{Cvoid}     # start of the storage's bytes (for dataids)
    read_only::Bool

    # Takes ownership of h, one reference to a tensor of dtype T with N dimensions.
    function Tensor{T,N}(::_Own, h::Ptr{Cvoid}) where {T,N}
        sz = L.ct_tensor_sizes(h)
        st = L.ct_tensor_strides(h)
        dims = ntuple(k -> Int(unsafe_load(sz, k)), Val(N))
        strides = ntuple(k -> Int(unsafe_load(st, k)), Val(N))
        s = L.ct_tensor_storage(h)
        sid = L.ct_storage_id(s)
        sdata = L.ct_storage_data(s)
        ro = L.ct_storage_is_read_only(s) == 1
        L.ct_storage_release(s)
        t = new{T,N}(h, Ptr{T}(L.ct_tensor_data(h)), dims, strides,
                     Int(L.ct_tensor_offset(h)), sid, sdata, ro)
        return finalizer(_release!, t)
    end
end

# The finalizer (and close): swaps the handle out first, so a second call does nothing.
function _release!(t::Tensor{T}) where {T}
    h = @atomicswap t.handle = C_NULL
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
    own_handle(h::Ptr{Cvoid}) -> Tensor

Takes ownership of `h`, a new reference returned by a `LibCTensor.ct_*` function, and
returns the `Tensor` owning it (element type and dimensions read from the handle).  Throws
the last `CTensorError` if `h` is NULL, so `own_handle(L.ct_clone(t))` is the whole error check.
"""
function own_handle(h::Ptr{Cvoid})
    h == C_NULL && throw(last_error())
    n = Int(L.ct_tensor_ndim(h))
    d = Int(L.ct_tensor_dtype(h))
    if n < 0 || !(0 <= d < length(ELTYPES))
        L.ct_tensor_release(h)
        _julia_error(L.CT_ERR_INTERNAL, "libctensor returned a tensor with ndim $n, dtype $d")
    end
    return Tensor{ELTYPES[d + 1], n}(_Own(), h)
end

"""
    close(t::Tensor)

Releases `t`'s reference now instead of at garbage collection.  Idempotent.  Afterwards
indexing `t` throws and every library call on it fails with `CT_ERR_INVALID_ARGUMENT`;
views and copies made from `t` stay valid (a view keeps its storage alive).
"""
Base.close(t::Tensor) = _release!(t)

"""
    handle(t) -> Ptr{Cvoid}

The `ct_tensor *` of `t` (borrowed: valid while `t` is alive; `C_NULL` after `close`).  Two
`Tensor`s with the same handle are the same C tensor object (e.g. `base(v)` and the tensor
`v` was viewed from).
"""
handle(t::Tensor) = @atomic :acquire t.handle

# ccall(..., (Ptr{Cvoid},), t) passes the handle and roots t for the duration of the call.
Base.cconvert(::Type{Ptr{Cvoid}}, t::Tensor) = t
Base.unsafe_convert(::Type{Ptr{Cvoid}}, t::Tensor) = handle(t)

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
    return GC.@preserve t unsafe_load(_elptr(t, I))
end

Base.@propagate_inbounds function Base.setindex!(t::Tensor{T,N}, v, I::Vararg{Int,N}) where {T,N}
    @boundscheck checkbounds(t, I...)
    t.data == C_NULL && _throw_closed()
    t.read_only && _throw_read_only()
    x = convert(T, v)
    GC.@preserve t unsafe_store!(_elptr(t, I), x)
    return t
end

# ---- The strided-array interface (Julia manual, "Interfaces: Strided Arrays") ------------

Base.strides(t::Tensor) = t.strides
Base.stride(t::Tensor{T,N}, k::Integer) where {T,N} =
    k <= N ? t.strides[k] : (N == 0 ? 1 : t.strides[N] * t.dims[N])
Base.elsize(::Type{<:Tensor{T}}) where {T} = sizeof(T)

"""
    pointer(t::Tensor{T}) -> Ptr{T}

Address of element `t[1, 1, ...]` (C's `ct_tensor_data`): `C_NULL` when `t` has no
elements.  Valid while `t`, or any tensor on its storage, is alive: use `GC.@preserve t`.
"""
Base.pointer(t::Tensor) = t.data
Base.unsafe_convert(::Type{Ptr{T}}, t::Tensor{T}) where {T} = t.data

# ---- Aliasing, copying, similar ---------------------------------------------------------

# Julia's own aliasing checks (broadcast, copyto!, ...) compare dataids.  A tensor's are its
# storage's address, which every view of the storage shares, which two storages wrapping the
# same foreign memory share, and which equals dataids(A) for the Array A of wrap_array(A).
Base.dataids(t::Tensor) = t.storage_data == C_NULL ? () : (UInt(t.storage_data),)
Base.unaliascopy(t::Tensor{T,N}) where {T,N} = clone(t)::Tensor{T,N}
Base.copy(t::Tensor) = clone(t)

# similar: a new (uninitialized, contiguous) tensor when ctensor has the element type.
Base.similar(t::Tensor, ::Type{S}, dims::Dims) where {S} = _similar(S, dims)
_similar(::Type{S}, dims::Dims) where {S<:CTElType} = Tensor{S}(undef, dims)
_similar(::Type{S}, dims::Dims) where {S} = Array{S}(undef, dims)

# copyto! between tensors of one shape: ct_copy_, which converts dtypes and is correct when
# source and destination overlap.
function Base.copyto!(dst::Tensor, src::Tensor)
    size(dst) == size(src) || return invoke(copyto!, Tuple{AbstractArray,AbstractArray}, dst, src)
    copy_into!(dst, src)
    return dst
end

# ---- Metadata ---------------------------------------------------------------------------

"""
    storage_offset(t) -> Int

Offset of `t[1, 1, ...]` in its storage, in elements (0-based, as in C and PyTorch).
"""
storage_offset(t::Tensor) = t.offset

"""
    is_contiguous(t) -> Bool

Whether `t`'s elements are laid out in C (row-major) order without gaps, by PyTorch's rule
(dimensions of size 1 are ignored; an empty tensor is contiguous).  A Julia `Array` wrapped
by `wrap_array` is column-major, so it is contiguous only when it has at most one dimension
of size above 1.
"""
is_contiguous(t::Tensor) = check_bool(L.ct_tensor_is_contiguous(t))

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
