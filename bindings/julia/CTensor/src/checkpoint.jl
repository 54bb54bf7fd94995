# checkpoint: safetensors files and file-backed storages (ct_safetensors_open/_save,
# ct_storage_from_file; include/ctensor.h, "Files").

const _FILE_MODES = Dict(:read_only => L.CT_FILE_READ_ONLY, :copy_on_write => L.CT_FILE_COPY_ON_WRITE,
                         :shared => L.CT_FILE_SHARED, :copy => L.CT_FILE_COPY)

function _file_mode(mode::Symbol)
    haskey(_FILE_MODES, mode) && return _FILE_MODES[mode]
    throw(ArgumentError("mode :$mode is not one of :read_only, :copy_on_write, :shared, :copy"))
end

"""
    load_safetensors(path; mode = :copy_on_write) -> Dict{String,Tensor}

Every tensor of the safetensors file at `path`, by name.  Zero-copy: the file is mapped once
and every tensor is a VIEW of that one storage (`shares_storage` is true for any two), in C
(row-major) order as written.  `mode`: `:copy_on_write` (writable, writes never reach the
file), `:read_only` (writes throw), `:shared` (writes reach the file), `:copy` (the file is
read into memory).  A hostile or broken file throws a `CTensorError` naming the file and what
is wrong; nothing stays mapped then.
"""
function load_safetensors(path::AbstractString; mode::Symbol = :copy_on_write)
    h = L.ct_safetensors_open(String(path), _file_mode(mode))
    h == C_NULL && throw(last_error())
    try
        n = check_nonneg(L.ct_checkpoint_count(h))
        out = Dict{String,Tensor}()
        for i in 0:n-1
            name = L.ct_checkpoint_name(h, i)
            name == C_NULL && throw(last_error())
            out[unsafe_string(name)] = own_handle(L.ct_checkpoint_tensor(h, i))
        end
        return out
    finally
        L.ct_checkpoint_release(h)
    end
end

"""
    safetensors_metadata(path) -> Union{Dict{String,String},Nothing}

The `"__metadata__"` strings of the safetensors file at `path`, or `nothing` if it has none.
"""
function safetensors_metadata(path::AbstractString)
    h = L.ct_safetensors_open(String(path), L.CT_FILE_READ_ONLY)
    h == C_NULL && throw(last_error())
    try
        check_nonneg(L.ct_checkpoint_has_metadata(h)) == 1 || return nothing
        n = check_nonneg(L.ct_checkpoint_metadata_count(h))
        return Dict{String,String}(unsafe_string(L.ct_checkpoint_metadata_key(h, i)) =>
                                   unsafe_string(L.ct_checkpoint_metadata_value(h, i)) for i in 0:n-1)
    finally
        L.ct_checkpoint_release(h)
    end
end

"""
    save_safetensors(path, tensors::AbstractDict; metadata = nothing, copy_shared = false)

Writes COPIES of the tensors' bytes (C order, whatever their strides) to a safetensors file,
byte for byte what the Python package writes.  Tensors whose memory overlaps are refused
unless `copy_shared` (then each is written with its own bytes).  `metadata`: `nothing` or a
dictionary of strings.
"""
function save_safetensors(path::AbstractString, tensors::AbstractDict; metadata = nothing, copy_shared::Bool = false)
    names = String[String(k) for k in keys(tensors)]
    ts = Tensor[tensors[k] for k in keys(tensors)]
    keys_ = metadata === nothing ? String[] : String[String(k) for k in keys(metadata)]
    vals = metadata === nothing ? String[] : String[String(metadata[k]) for k in keys(metadata)]
    nmeta = metadata === nothing ? -1 : length(keys_)
    flags = copy_shared ? Cint(L.CT_SAVE_COPY_SHARED) : Cint(0)
    GC.@preserve names keys_ vals begin
        np = Ptr{UInt8}[pointer(s) for s in names]
        kp = Ptr{UInt8}[pointer(s) for s in keys_]
        vp = Ptr{UInt8}[pointer(s) for s in vals]
        _status(() -> L.ct_safetensors_save(String(path), length(names), np, ts, nmeta, kp, vp, flags))
    end
    return nothing
end

"""
    storage_from_file(path; offset = 0, nbytes = -1, mode = :read_only) -> Storage

A storage that is a mapping of bytes `[offset, offset + nbytes)` of the file (`nbytes < 0`: to
its end); `mode` is `:read_only`, `:copy_on_write` or `:shared`.
"""
function storage_from_file(path::AbstractString; offset::Integer = 0, nbytes::Integer = -1, mode::Symbol = :read_only)
    h = L.ct_storage_from_file(String(path), Int64(offset), Int64(nbytes), _file_mode(mode))
    h == C_NULL && throw(last_error())
    return Storage(h)
end

# PyTorch checkpoints (ct_torch_load; include/ctensor.h, "Files").

const _JSON_ESCAPES = Dict('n' => '\n', 't' => '\t', 'r' => '\r', 'b' => '\b', 'f' => '\f', '"' => '"',
                          '\\' => '\\', '/' => '/')

# One JSON scalar as ct_checkpoint_metadata_value writes it: null, true, false, an integer, a
# float (NaN, Infinity, -Infinity too) or a string literal.
function _json_scalar(text::AbstractString)
    text == "null" && return nothing
    text == "true" && return true
    text == "false" && return false
    text == "NaN" && return NaN
    text == "Infinity" && return Inf
    text == "-Infinity" && return -Inf
    if startswith(text, '"')
        io = IOBuffer()
        s = collect(text[nextind(text, 1):prevind(text, lastindex(text))])
        i = 1
        while i <= length(s)
            c = s[i]
            if c == '\\'
                e = s[i+1]
                if e == 'u'
                    cp = parse(UInt32, String(s[i+2:i+5]); base = 16)
                    i += 4
                    if 0xd800 <= cp <= 0xdbff  # a surrogate pair: \uD8xx\uDCxx
                        lo = parse(UInt32, String(s[i+4:i+7]); base = 16)
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
                        i += 6
                    end
                    print(io, Char(cp))
                else
                    print(io, _JSON_ESCAPES[e])
                end
                i += 2
            else
                print(io, c)
                i += 1
            end
        end
        return String(take!(io))
    end
    v = tryparse(Int64, text)
    v === nothing || return v
    return parse(Float64, text)
end

"""
    load_torch(path; mode = :copy) -> Dict{String,Any}

What `torch.save` wrote to `path` (a zip archive, read as `torch.load(path, weights_only=true)`
reads it, no pickled code ever runs), flattened: each leaf of the saved dicts, lists and
tuples by its key path, the keys from the root joined with `.` (`"enc.w"` for
`{"enc": {"w": t}}`, `"layers.0"` for the first item of a list).  Tensors are `Tensor`s that
share storages exactly as the saved tensors did (tied weights and views: `shares_storage` is
true, strides and offsets kept; one tensor saved under two keys is the same `Tensor`);
other leaves are `nothing`, `Bool`, `Int64`, `Float64` or `String`.  `mode`: `:copy` (every
storage read into memory, as `torch.load`), `:copy_on_write` (mapped, as
`torch.load(mmap=true)`: no copy, writes stay in memory), `:read_only`, `:shared`.  A hostile
or broken file throws a `CTensorError` naming the file and what is wrong.
"""
function load_torch(path::AbstractString; mode::Symbol = :copy)
    h = L.ct_torch_load(String(path), _file_mode(mode))
    h == C_NULL && throw(last_error())
    try
        out = Dict{String,Any}()
        seen = Dict{Ptr{Cvoid},Tensor}()  # one Tensor per tensor object
        for i in 0:check_nonneg(L.ct_checkpoint_count(h))-1
            name = L.ct_checkpoint_name(h, i)
            name == C_NULL && throw(last_error())
            t = L.ct_checkpoint_tensor(h, i)
            t == C_NULL && throw(last_error())
            key = Ptr{Cvoid}(t)
            if haskey(seen, key)
                L.ct_tensor_release(t)
                out[unsafe_string(name)] = seen[key]
            else
                out[unsafe_string(name)] = seen[key] = own_handle(t)
            end
        end
        for i in 0:check_nonneg(L.ct_checkpoint_metadata_count(h))-1
            out[unsafe_string(L.ct_checkpoint_metadata_key(h, i))] =
                _json_scalar(unsafe_string(L.ct_checkpoint_metadata_value(h, i)))
        end
        return out
    finally
        L.ct_checkpoint_release(h)
    end
end

# A JSON string literal (the escapes ct_torch_save's JSON reader takes).
function _json_string(s::AbstractString)
    io = IOBuffer()
    print(io, '"')
    for c in s
        if c == '"' || c == '\\'
            print(io, '\\', c)
        elseif c < ' '
            print(io, "\\u", string(UInt16(c); base = 16, pad = 4))
        else
            print(io, c)
        end
    end
    print(io, '"')
    return String(take!(io))
end

"""
    save_torch(path, tensors::AbstractDict)

Writes `tensors` (name => `Tensor`) as a PyTorch checkpoint that `torch.load(path,
weights_only=True)` reads as a dict of tensors (and `load_torch` as the same `Dict`).  Each
storage is written once, whole: tensors that share a storage here (views, tied weights) share
one after loading, with their strides and offsets; the same `Tensor` under two names is one
tensor object there.  Throws a `CTensorError` for two tensors of different dtypes on one
storage or a file that cannot be written.
"""
function save_torch(path::AbstractString, tensors::AbstractDict)
    ts = Tensor[]
    index = IdDict{Tensor,Int}()
    items = String[]
    for (k, t) in tensors
        i = get!(index, t) do
            push!(ts, t)
            length(ts) - 1
        end
        push!(items, "[" * _json_string(String(k)) * ", {\"tensor\": $i}]")
    end
    structure = "{\"dict\": [" * join(items, ", ") * "]}"
    _status(() -> L.ct_torch_save(String(path), structure, length(ts), ts))
    return nothing
end
