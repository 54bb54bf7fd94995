# Tests of the Julia package, with the seed scenarios of the C tests and one test set per
# item of issue 22.  Run them with Pkg.test (README, "Tests"), with an absolute library path:
#   CTENSOR_LIB=$PWD/build/libctensor.so julia --project=bindings/julia/CTensor -e 'using Pkg; Pkg.test()'
# Indices are 1-based: x[i, j] is C's x[i-1][j-1].  The README's julia blocks are in here
# line for line (test sets "README: ..."), their `using` lines at the top of this file:
# bindings/julia/check/julia_check.py checks both.

using Test
using LinearAlgebra
using Serialization
using Statistics
using CTensor, Test
using CTensor: clone, base, version      # generic names: public, not exported
using CTensor: LibCTensor, own_handle, grad
using CTensor: handle, dtype, eltype_of, ELTYPES, nbytes, storage, drain_foreign_roots!,
               foreign_roots, last_error, status_name, BFloat16
import Aqua
import BFloat16s

const L = LibCTensor

# Finalizers run at the end of a full collection; several passes catch objects that the first
# pass only made unreachable (a view released -> its base released).
function full_gc()
    for _ in 1:4
        GC.gc(true)
    end
    return nothing
end

# The 3x4 float32 grid 0..11 and its root: x[i, j] == 4(i - 1) + (j - 1).
function grid()
    root = tensor_arange(Float32, 12)
    return reshape_view(root, 3, 4), root
end

caught(f) = try
    f()
    nothing
catch e
    e
end

# Compute ops have no Julia layer yet: the autograd tests call the raw layer and own results.
_op(h) = own_handle(h)
_mul(a, b) = _op(L.ct_mul(a, b))
_mulk(a, k) = _op(L.ct_mul_scalar(a, Float64(k)))
_sumall(a) = _op(L.ct_sum(a, 0, C_NULL, 0))

# A read-only tensor on src's memory: src exported through DLPack (versioned), the export
# marked read-only (DLPACK_FLAG_BITMASK_READ_ONLY in `flags`, which follows the 8-byte
# version, manager_ctx and deleter: include/ctensor_dlpack.h), and imported back.
function read_only_view_of(src::Tensor)
    m = L.ct_to_dlpack_versioned(src)
    m == C_NULL && throw(last_error())
    flags = Ptr{UInt64}(m + 24)
    unsafe_store!(flags, unsafe_load(flags) | 0x1)
    return own_handle(L.ct_from_dlpack_versioned(m))
end

@testset "CTensor" begin

@testset "README: views, writes through a view, view vs copy" begin
    x = reshape_view(tensor_arange(Float32, 12), 3, 4)   # x[i, j] == 4(i-1) + (j-1)
    t = transpose_view(x)                                 # a view: strides (1, 4)
    t[2, 1] = 100                                         # writes x[1, 2], through the library
    @test (shares_storage(t, x), strides(t), is_contiguous(t)) == (true, (1, 4), false)
    @test x[1, 2] == 100 && version(x) == 1               # the write was counted
    @test same_tensor(base(t), base(x))                   # two views of one root
    @test_throws CTensorError reshape_view(t, 12)         # CT_ERR_NOT_VIEWABLE: view size is not
                                                          # compatible with input tensor's size and stride
    r = reshape_view_or_copy(t, 12)                       # a copy, since a view is impossible
    @test !shares_storage(r, x) && r == vec(Array(x))     # t's row-major order is x's column-major one
    c = clone(x)                                          # always a copy
    @test !shares_storage(c, x) && c == x
end

@testset "README: writes go through the library" begin
    v = tensor_zeros(Float32, 2, 3)
    v[1, 2] = 5                                           # one library write
    fill!(v, 1)                                           # one more
    v .= v .* 2 .+ Float32[1 2 3; 4 5 6]                  # computed by Julia, written once
    @test version(v) == 3 && v == Float32[3 4 5; 6 7 8]
    @test (v .+ 1) isa Tensor{Float32,2}                  # broadcasting gives a Tensor
    @test_throws InexactError copyto!(tensor_zeros(Int64, 2), Tensor([1.5, 2.0]))
end

@testset "README: BLAS" begin
    m = Tensor(Float64[1 2; 3 4])                         # a row-major copy, same indexing
    col = select_view(m, 2, 1)                            # m[:, 1] == [1, 3], stride 2
    @test BLAS.dot(2, col, 2, col, 2) == 10.0             # BLAS, through the pointer and stride
    @test m * m == [7 10; 15 22]                          # Julia's generic matmul
    mt = unsafe_wrap(Array, permute_view(m, 2, 1))        # an Array on m's memory: mt[j, i] == m[i, j]
    @test transpose(mt) * transpose(mt) == [7 10; 15 22]  # BLAS (gemm)
end

@testset "README: sharing memory with Julia arrays" begin
    A = Float64[1 2 3; 4 5 6]
    w = wrap_array(A)                                     # no copy: A's memory, strides (1, 2)
    w[2, 3] = -6                                          # seen through A
    @test A[2, 3] == -6 && data_address(w) == UInt(pointer(A))
    @test Base.mightalias(w, A)                           # Julia's aliasing checks see the sharing
    B = unsafe_wrap(Array, w)                             # no copy back: w is column-major
    B[1, 1] = 10
    @test A[1, 1] == 10 && Base.mightalias(B, w)
    @test Array(w) == A && !Base.mightalias(Array(w), w)  # Array(w) copies
end

@testset "README: autograd" begin
    x = requires_grad!(Tensor(Float32[1 2 3; 4 5 6]))
    y = own_handle(LibCTensor.ct_mul(x, x))              # compute ops: the raw layer, for now
    @test grad_fn_name(y) == "MulBackward0"
    backward!(y, tensor_ones(Float32, 2, 3))
    @test Array(grad(x)) == Float32[2 4 6; 8 10 12]      # 2x
    @test_throws CTensorError (x[1, 1] = 0)              # a leaf that requires grad: refused
    d = detach(x)                                         # Base.detach: same memory, no graph
    @test !requires_grad(d) && data_address(d) == data_address(x)
end


@testset "library and raw layer" begin
    @test CTensor.version_string() == L.CT_VERSION_STRING
    @test isfile(L.libctensor())
    @test L.CT_FLOAT32 == 8 && L.CT_ERR_NOT_VIEWABLE == 5
    @test status_name(L.CT_ERR_SHAPE) == "CT_ERR_SHAPE"
    @test L.ct_live_tensors() isa Int64
end

@testset "dtypes map to Julia element types" begin
    for (i, T) in enumerate(ELTYPES)
        @test dtype(T) == i - 1
        @test eltype_of(i - 1) === T
        @test L.ct_dtype_itemsize(dtype(T)) == sizeof(T)
        z = tensor_zeros(T, 2, 3)
        @test z isa Tensor{T,2}
        @test all(iszero, z)
        o = tensor_ones(T, 4)
        @test o isa Tensor{T,1}
        @test all(==(one(T)), o)
    end
    @test CTensor.dtype_name(Float32) == "float32"
    @test CTensor.dtype_name(BFloat16) == "bfloat16"
    @test CTensor.dtype_name(Bool) == "bool"
    e = caught(() -> tensor_zeros(ComplexF64, 2))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE
end

@testset "BFloat16 (Core.BFloat16 on Julia 1.11+, with BFloat16s.jl's arithmetic)" begin
    @test sizeof(BFloat16) == 2
    @test BFloat16 === (isdefined(Core, :BFloat16) ? Core.BFloat16 : CTensor.BFloat16)
    @test Float32(BFloat16(1.5f0)) == 1.5f0
    @test Float32(BFloat16(1.00390625f0)) == 1.0f0        # halfway: to even
    @test Float32(BFloat16(1.01171875f0)) == 1.015625f0   # halfway: to even
    @test isnan(BFloat16(NaN32))
    @test BFloat16(2) + BFloat16(3) == BFloat16(5)
    b = tensor_full(BFloat16, 1.5, 3)
    @test all(==(BFloat16(1.5)), b)
    f = to_eltype_or_self(tensor_arange(Float32, 4), BFloat16)
    @test f isa Tensor{BFloat16,1}
    @test [Float32(v) for v in f] == [0, 1, 2, 3]
end

@testset "1-based indices reach the element C reaches with [i-1, j-1]" begin
    x, root = grid()
    @test size(x) == (3, 4)
    @test strides(x) == (4, 1)
    @test storage_offset(x) == 0
    @test is_contiguous(x)
    for i in 1:3, j in 1:4
        @test x[i, j] == 4(i - 1) + (j - 1)
        # the address C computes: data + (stride . index) * itemsize
        p = Ptr{Float32}(L.ct_tensor_data(x)) + ((i - 1) * 4 + (j - 1)) * sizeof(Float32)
        @test GC.@preserve x unsafe_load(p) == x[i, j]
    end
    @test_throws BoundsError x[4, 1]
    @test_throws BoundsError x[1, 0]
    @test x[CartesianIndex(2, 3)] == 6
    @test collect(x) == Float32[4(i - 1) + (j - 1) for i in 1:3, j in 1:4]
    @test Array(x) == collect(x)
    @test Tensor(Array(x)) == x
    r = torch_repr(x)
    @test startswith(r, "tensor([[ 0.,  1.,  2.,  3.],")
    @test occursin("11.]])", r)
end

@testset "slicing then writing through the view changes the original" begin
    x, root = grid()
    s = slice_view(x, 2, 2:3)                 # Python: x[:, 1:3]
    @test size(s) == (3, 2)
    @test strides(s) == (4, 1)
    @test storage_offset(s) == 1
    @test shares_storage(s, x) && storage_id(s) == storage_id(x)
    @test is_view(s)
    @test same_tensor(base(s), root)          # the root, never an intermediate view
    @test same_tensor(base(x), root)
    @test base(root) === nothing
    s[1, 1] = 100
    @test x[1, 2] == 100
    x[3, 3] = -1
    @test s[3, 2] == -1
    r = select_view(x, 1, 2)                  # Python: x[1]
    @test size(r) == (4,) && storage_offset(r) == 4
    r[4] = 77
    @test x[2, 4] == 77
    n = narrow_view(x, 1, 2, 2)               # Python: x.narrow(0, 1, 2)
    @test size(n) == (2, 4) && storage_offset(n) == 4
    e = slice_view(x, 2, 1:2:4)               # Python: x[:, 0:4:2]
    @test strides(e) == (4, 2)
    @test [e[1, k] for k in 1:2] == [x[1, 1], x[1, 3]]
end

@testset "transpose shares memory" begin
    x, root = grid()
    t = transpose_view(x, 1, 2)
    @test size(t) == (4, 3)
    @test strides(t) == (1, 4)
    @test shares_storage(t, x) && pointer(t) == pointer(x)
    @test !is_contiguous(t)
    @test overlaps(t, x) && may_overlap(t, x)
    @test all(t[j, i] == x[i, j] for i in 1:3, j in 1:4)
    t[2, 1] = 42
    @test x[1, 2] == 42
    @test version(t) == version(x)
    tt = t_view(x)
    @test size(tt) == (4, 3) && strides(tt) == (1, 4) && pointer(tt) == pointer(x)
    p = permute_view(x, 2, 1)
    @test strides(p) == (1, 4) && pointer(p) == pointer(x)
end

@testset "index_select copies" begin
    x, root = grid()
    r = index_select_copy(x, 1, [3, 1])
    @test size(r) == (2, 4)
    @test !shares_storage(r, x) && !overlaps(r, x)
    @test !is_view(r) && base(r) === nothing
    @test [r[1, j] for j in 1:4] == [x[3, j] for j in 1:4]
    @test [r[2, j] for j in 1:4] == [x[1, j] for j in 1:4]
    r[1, 1] = 1000
    @test x[3, 1] == 8
    e = caught(() -> index_select_copy(x, 1, [4]))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
end

@testset "repeat, tile, flip, roll copies" begin
    x, root = grid()                          # x[i, j] == 4(i - 1) + (j - 1)
    r = repeat_copy(x, 2, 1)
    @test size(r) == (6, 4) && !shares_storage(r, x) && !is_view(r)
    @test [r[i + 3, j] for i in 1:3, j in 1:4] == [x[i, j] for i in 1:3, j in 1:4]
    @test size(repeat_copy(x, 2, 1, 3)) == (2, 3, 12)
    @test size(tile_copy(x, 2)) == (3, 8)
    e = caught(() -> repeat_copy(x, 2))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
    f = flip_copy(x, 1)
    @test !shares_storage(f, x) && [f[i, j] for i in 1:3, j in 1:4] == [x[4 - i, j] for i in 1:3, j in 1:4]
    @test [fliplr_copy(x)[i, j] for i in 1:3, j in 1:4] == [x[i, 5 - j] for i in 1:3, j in 1:4]
    @test [flipud_copy(x)[i, j] for i in 1:3, j in 1:4] == [x[4 - i, j] for i in 1:3, j in 1:4]
    e = caught(() -> flip_copy(x, 1, 1))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
    e = caught(() -> flip_copy(x, 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    g = roll_copy(x, [1], [2])
    @test !shares_storage(g, x) && [g[i, mod(j, 4) + 1] for i in 1:3, j in 1:4] == [x[i, j] for i in 1:3, j in 1:4]
    h = roll_copy(x, 1)                       # row-major flattened: element 12 comes first
    @test h[1, 1] == x[3, 4] && h[1, 2] == x[1, 1]
    e = caught(() -> roll_copy(x, [1, 2], [1]))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
end

@testset "indexed copies: gather, scatter, index_*, take, put, index_put" begin
    x, root = grid()                          # x[i, j] == 4(i-1) + (j-1)
    g = gather_copy(x, 2, [3 1; 2 2; 4 4])
    @test !shares_storage(g, x) && size(g) == (3, 2)
    @test [g[i, j] for i in 1:3, j in 1:2] == Float32[2 0; 5 5; 11 11]
    e = caught(() -> gather_copy(x, 2, [5 1; 1 1; 1 1]))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    src = Tensor(Float32[10 20; 30 40; 50 60])
    s = scatter_copy(x, 2, [2 2; 1 1; 4 3], src)
    @test [s[1, j] for j in 1:4] == Float32[0, 20, 2, 3]
    @test [s[3, j] for j in 1:4] == Float32[8, 9, 60, 50]
    a = scatter_add_copy(x, 2, [2 2; 1 1; 4 3], src)
    @test a[1, 2] == 1 + 10 + 20
    @test scatter_copy(x, 1, [1 1 1 1], 7.0; reduce = :multiply)[1, 2] == 7
    y = Tensor(zeros(Float32, 3, 4))
    @test scatter!(y, 1, [3 3 3 3], 1.5) === y && y[3, 4] == 1.5f0
    @test index_add_copy(x, 1, [3, 3], Tensor(ones(Float32, 2, 4)); alpha = 2)[3, 1] == 8 + 4
    @test index_copy_copy(x, 1, [2], Tensor(fill(9f0, 1, 4)))[2, 3] == 9
    f = index_fill_copy(x, 2, [1, 4], -1)
    @test [f[2, j] for j in 1:4] == Float32[-1, 5, 6, -1]
    @test take_copy(x, [1, 12, 5])[2] == 11     # row-major: element 12 is x[3, 4]
    p = put_copy(x, [2, 2], Tensor(Float32[1, 2]); accumulate = true)
    @test p[1, 2] == 1 + 1 + 2
    q = index_put_copy(x, ([1, 3], [2, 2]), Tensor(Float32[100, 200]))
    @test q[1, 2] == 100 && q[3, 2] == 200 && !shares_storage(q, x)
    m = index_put_copy(x, ([true, false, true],), Tensor(fill(0f0)))
    @test [m[i, 1] for i in 1:3] == Float32[0, 4, 0]
    z = Tensor(zeros(Float32, 4))
    @test index_put!(z, ([2, 2, 2],), Tensor(fill(1f0)); accumulate = true) === z && z[2] == 3
    @test put_flat!(z, [4], Tensor(Float32[5])) === z && z[4] == 5
    e = caught(() -> index_fill_copy(x, 1, [4], 0))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
end

@testset "masked copies, nonzero, rot90, repeat_interleave" begin
    x, root = grid()                          # x[i, j] == 4(i - 1) + (j - 1)
    m = Tensor(Bool[true, false, true, false])
    s = masked_select_copy(x, m)
    @test size(s) == (6,) && !shares_storage(s, x) && [s[i] for i in 1:6] == Float32[0, 2, 4, 6, 8, 10]
    f = masked_fill_copy(x, m, -1)
    @test !shares_storage(f, x) && f[1, 1] == -1 && f[1, 2] == 1 && x[1, 1] == 0
    y = clone(x)
    v = version(y)
    @test masked_fill!(y, m, 7) === y && y[2, 3] == 7 && y[2, 2] == 5 && version(y) == v + 1
    e = caught(() -> masked_fill!(y, Tensor(Int64[1, 0, 1, 0]), 1))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE
    src = tensor_arange(Float32, 6)
    z = masked_scatter_copy(x, m, src)
    @test z[1, 1] == 0 && z[1, 3] == 1 && z[3, 3] == 5 && z[3, 4] == x[3, 4]
    e = caught(() -> masked_scatter!(clone(x), m, tensor_arange(Float32, 2)))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    nz = nonzero_copy(x)
    @test size(nz) == (11, 2) && strides(nz) == (1, 11) && nz[1, 1] == 0 && nz[1, 2] == 1
    r = rot90_copy(x)
    @test size(r) == (4, 3) && !shares_storage(r, x) && !is_view(r)
    @test [r[i, j] for i in 1:4, j in 1:3] == [x[j, 5 - i] for i in 1:4, j in 1:3]
    @test [rot90_copy(x, 4)[i, j] for i in 1:3, j in 1:4] == [x[i, j] for i in 1:3, j in 1:4]
    e = caught(() -> rot90_copy(x, 1, (1, 1)))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    ri = repeat_interleave_copy(x, 2; dim = 2)
    @test size(ri) == (3, 8) && ri[2, 3] == x[2, 2] && ri[2, 4] == x[2, 2]
    @test size(repeat_interleave_copy(x, 2)) == (24,)
    rt = repeat_interleave_copy(x, Tensor(Int64[0, 2, 1]); dim = 1)
    @test size(rt) == (3, 4) && rt[1, 1] == x[2, 1] && rt[3, 1] == x[3, 1]
    idx = repeat_interleave_indices(Tensor(Int64[1, 2]))
    @test [idx[i] for i in 1:3] == [0, 1, 1]
    e = caught(() -> repeat_interleave_copy(x, 2; dim = 1, output_size = 5))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
end

@testset "reshape of a contiguous tensor keeps the data pointer" begin
    x, root = grid()
    @test reshape_is_view(x, 2, 6)
    y = reshape_view_or_copy(x, 2, 6)
    @test size(y) == (2, 6) && strides(y) == (6, 1)
    @test pointer(y) == pointer(x) && shares_storage(y, x) && is_view(y)
    @test y[2, 1] == x[2, 3]                  # row-major element 6
    f = flatten_view_or_copy(x)
    @test size(f) == (12,) && pointer(f) == pointer(x)
    v = reshape_view(x, 6, -1)
    @test size(v) == (6, 2) && pointer(v) == pointer(x)
    c = contiguous_or_self(x)
    @test same_tensor(c, x)
end

@testset "clone copies; alias (detach) shares storage and version but is no view" begin
    x, root = grid()
    c = clone(x)
    @test c == x
    @test !shares_storage(c, x) && storage_id(c) != storage_id(x) && pointer(c) != pointer(x)
    @test !is_view(c) && base(c) === nothing
    @test is_contiguous(c)
    a = alias(x)
    @test shares_storage(a, x) && pointer(a) == pointer(x)
    @test !is_view(a) && base(a) === nothing
    v0 = version(x)
    copy_into!(a, tensor_full(Float32, 100, 3, 4))
    @test version(x) > v0
    @test version(a) == version(x) == version(root)
    @test all(==(100), x)
    @test c[3, 4] == 11                       # the clone kept the old values
    @test version(c) == 0
    @test copy(x) isa Tensor{Float32,2} && !shares_storage(copy(x), x)
    ct = clone(transpose_view(x))             # preserve_format: a transpose stays transposed
    @test strides(ct) == (1, 4) && !shares_storage(ct, x) && ct == transpose_view(x)
end

@testset "view of a transposed tensor fails with PyTorch's message; reshape copies" begin
    x, root = grid()
    t = transpose_view(x)
    e = caught(() -> reshape_view(t, 12))
    @test e isa CTensorError
    @test e.status == L.CT_ERR_NOT_VIEWABLE
    @test occursin("view size is not compatible with input tensor's size and stride", e.message)
    @test occursin("CT_ERR_NOT_VIEWABLE", sprint(showerror, e))
    @test last_error().status == L.CT_ERR_NOT_VIEWABLE
    @test !reshape_is_view(t, 12)
    r = reshape_view_or_copy(t, 12)
    @test !shares_storage(r, t) && is_contiguous(r)
    @test collect(r) == vec(Array(x))         # t's row-major order is x's column-major order
    c = contiguous_or_self(t)
    @test !shares_storage(c, t) && is_contiguous(c) && c == t
end

@testset "more views: expand, squeeze, unsqueeze, diagonal, unfold, as_strided" begin
    x, root = grid()
    r = reshape_view(x, 1, 12)
    e = expand_view(r, 3, 12)
    @test size(e) == (3, 12) && strides(e) == (0, 1)
    @test has_internal_overlap(e) && !has_internal_overlap(x)
    @test size(squeeze_view(r)) == (12,)
    @test size(squeeze_view(r, 1)) == (12,)
    @test size(unsqueeze_view(x, 3)) == (3, 4, 1)
    d = diagonal_view(x)
    @test size(d) == (3,) && [d[k] for k in 1:3] == [0, 5, 10]
    d1 = diagonal_view(x; offset = 1)
    @test [d1[k] for k in 1:3] == [1, 6, 11]
    u = unfold_view(tensor_arange(Float32, 6), 1, 3, 1)
    @test size(u) == (4, 3) && strides(u) == (1, 1)
    s = as_strided_view(x, (2, 2), (1, 4), 1)
    @test [s[i, j] for i in 1:2, j in 1:2] == [1 5; 2 6]
    e2 = caught(() -> as_strided_view(x, (100,), (1,), 0))
    @test e2 isa CTensorError && e2.status == L.CT_ERR_INDEX
end

@testset "memory formats (keyword memory_format=, torch's strides)" begin
    x = tensor_zeros(Float32, 2, 3, 4, 5)
    cl = contiguous_or_self(x; memory_format = :channels_last)
    @test strides(cl) == (60, 1, 15, 3)
    @test is_contiguous(cl; memory_format = :channels_last) && !is_contiguous(cl)
    @test suggest_memory_format(cl) == :channels_last && suggest_memory_format(x) == :contiguous_format
    @test same_tensor(contiguous_or_self(cl; memory_format = :channels_last), cl)
    @test strides(clone(cl)) == (60, 1, 15, 3)                              # preserve
    @test strides(clone(cl; memory_format = :contiguous_format)) == (60, 20, 5, 1)
    @test strides(to_eltype_or_self(x, Float64; memory_format = :channels_last)) == (60, 1, 15, 3)
    @test strides(Tensor{Float32}(undef, 2, 3, 4, 5; memory_format = :channels_last)) == (60, 1, 15, 3)
    @test strides(tensor_empty_like(permute_view(tensor_zeros(Float32, 2, 3, 4), 3, 1, 2))) == (1, 12, 4)
    @test strides(tensor_zeros_like(cl; eltype = Int64)) == (60, 1, 15, 3)
    @test eltype(tensor_ones_like(cl; eltype = Int64)) == Int64
    @test all(==(2.5f0), tensor_full_like(cl, 2.5))
    @test strides(tensor_empty_strided(Float32, (2, 3), (1, 2))) == (1, 2)
    e = caught(() -> contiguous_or_self(tensor_zeros(Float32, 2, 3); memory_format = :channels_last))
    @test e isa CTensorError && occursin("required rank 4 tensor to use channels_last format", e.message)
    e = caught(() -> clone(x; memory_format = :nchw))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
end

@testset "errors carry the C status and message" begin
    x, root = grid()
    e = caught(() -> reshape_view(x, 5))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
    @test e.message == unsafe_string(L.ct_last_error())
    e = caught(() -> select_view(x, 1, 4))     # checked on the Julia side
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    e = caught(() -> transpose_view(x, 1, 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    e = caught(() -> copy_into!(expand_view(reshape_view(x, 1, 12), 2, 12), x))
    @test e isa CTensorError
    CTensor.clear_error()
    @test last_error().status == 0 && last_error().message == ""
end

@testset "close and the finalizer are idempotent and never throw" begin
    t = tensor_zeros(Float32, 2)
    v = slice_view(t, 1, 1:1)
    @test refcount(t) == 2                    # its handle + the view's base reference
    close(t)
    close(t)
    finalize(t)
    @test handle(t) == C_NULL
    @test_throws CTensorError t[1]
    @test_throws CTensorError is_contiguous(t)
    @test v[1] == 0                           # a view keeps its storage alive
    @test refcount(v) == 1
    close(v)
    @test v.data == C_NULL
end

@testset "storage handles" begin
    x, root = grid()
    s = storage(x)
    @test storage_id(s) == storage_id(x)
    @test nbytes(s) == 12 * 4
    @test pointer(s) == pointer(root)
    @test CTensor.refcount(s) >= 2
    @test !CTensor.is_read_only(s)
    close(s)
    close(s)
end

@testset "strided-array interface, BLAS and broadcasting" begin
    m = Tensor(Float64[1 2; 3 4])             # a row-major copy, same indexing
    @test strides(m) == (2, 1) && stride(m, 1) == 2
    @test Base.unsafe_convert(Ptr{LibCTensor.ct_tensor}, m) == handle(m)
    @test Base.elsize(typeof(m)) == 8
    @test Base.unsafe_convert(Ptr{Float64}, m) == pointer(m)
    col = select_view(m, 2, 1)                # m[:, 1] == [1, 3], stride 2
    @test strides(col) == (2,)
    @test BLAS.dot(2, col, 2, col, 2) == 10.0  # ccall with Ptr{Float64}: pointer and stride
    @test m * m == [7 10; 15 22]
    @test m .+ 1 == [2 3; 4 5] && (m .+ 1) isa Tensor{Float64,2}
    @test Base.mightalias(m, transpose_view(m))   # dataids: the storage's address
    @test !Base.mightalias(m, Tensor(Float64[1 2; 3 4]))
    m .= transpose_view(m) .* 1               # computed aside, then written once
    @test m == [1 3; 2 4]
    m .= transpose_view(m)                    # identity broadcast: computed aside too
    @test m == [1 2; 3 4]
    @test !Base.mightalias(m, clone(m))
    v0 = version(m)
    m .= 0                                    # fill!: one library write
    @test all(iszero, m) && version(m) == v0 + 1
    s = similar(m)
    @test s isa Tensor{Float64,2} && size(s) == (2, 2)
end

function wrap_scenario(A)
    t = wrap_array(A)
    @test size(t) == size(A)
    @test strides(t) == (1, size(A, 1))
    @test pointer(t) == pointer(A)
    @test t == A
    t[2, 3] = -5
    @test A[2, 3] == -5
    A[1, 4] = 99
    @test t[1, 4] == 99
    @test !is_contiguous(t)
    @test is_contiguous(transpose_view(t))    # the row-major view of a column-major Array
    @test Base.mightalias(t, A)               # Julia's aliasing check sees the sharing
    @test UInt(pointer(A)) in Base.dataids(t)
    @test foreign_roots() >= 1
    fetch(Threads.@spawn close(t))            # the last reference may go on any thread
    return nothing
end

@testset "zero-copy from a Julia Array; unrooted once every tensor is gone" begin
    full_gc()
    r0 = foreign_roots()
    A = Float64[10i + j for i in 1:3, j in 1:4]
    wrap_scenario(A)
    full_gc()
    @test foreign_roots() == r0
    @test A[2, 3] == -5 && A[1, 4] == 99
    e = caught(() -> wrap_array(ComplexF64[1, 2]))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE
end

@testset "zero-copy to a Julia Array (column-major tensors) and Array copies" begin
    x, root = grid()
    p = permute_view(x, 2, 1)                 # strides (1, 4): Julia's layout for 4x3
    @test is_column_major(p)
    B = unsafe_wrap(Array, p)
    @test B isa Matrix{Float32} && size(B) == (4, 3) && pointer(B) == pointer(x)
    @test all(B[j, i] == x[i, j] for i in 1:3, j in 1:4)
    B[1, 2] = 55
    @test x[2, 1] == 55
    e = caught(() -> unsafe_wrap(Array, x))
    @test e isa CTensorError
    C = Array(x)
    @test C == collect(x)
    C[1, 1] = -9
    @test x[1, 1] == 0
    @test Array(transpose_view(x)) == permutedims(Array(x), (2, 1))
    @test Array(tensor_arange(Int32, 3)) == Int32[0, 1, 2]
end

function leak_scenario()
    x, root = grid()
    views = (transpose_view(x), slice_view(x, 2, 2:3), select_view(x, 1, 1), alias(x),
             reshape_view_or_copy(transpose_view(x), 12), index_select_copy(x, 2, [1, 1]),
             clone(x), base(x), expand_view(reshape_view(x, 1, 12), 2, 12))
    A = zeros(Float32, 5)
    w = wrap_array(A)
    v = slice_view(w, 1, 2:3)
    caught(() -> reshape_view(transpose_view(x), 12))
    return length(views) + length(v)
end

@testset "no leaks: live tensors and storages return to their count after GC" begin
    full_gc()
    foreign_roots()
    nt, ns, nr = live_tensors(), live_storages(), foreign_roots()
    @test leak_scenario() == 11
    full_gc()
    @test live_tensors() == nt
    @test live_storages() == ns
    @test foreign_roots() == nr
end

@testset "explain: ct_explain's text, for one tensor and for a pair" begin
    x, root = grid()
    single = sprint(explain, x)
    @test startswith(single, "a: tensor of shape [3, 4], dtype float32, 12 elements\n")
    @test occursin("  strides: [4, 1] elements\n", single) && !occursin("a and b:", single)
    r = select_view(x, 1, 2)                  # Python: x[1]
    pair = sprint(explain, x, r)
    @test occursin("b: tensor of shape [4], dtype float32, 4 elements\n", pair)
    @test occursin("  storage offset: 4 elements (16 bytes)\n", pair)
    @test occursin("  same storage: yes (id $(Int(storage_id(x))))\n", pair)
    @test occursin("  shared elements: 4 of a's 12 distinct, 4 of b's 4 distinct\n", pair)
    c = clone(x)
    @test occursin("  elements overlap (exact): no\n", sprint(explain, x, c))
    e = caught(() -> explain(devnull, (close(c); c)))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
end

@testset "autograd: requires_grad!, backward!, grad, isleaf, grad_fn_name" begin
    x = Tensor(Float32[1 2 3; 4 5 6])               # Python: tensor([[1., 2., 3.], [4., 5., 6.]])
    @test !requires_grad(x) && isleaf(x) && grad(x) === nothing && grad_fn_name(x) === nothing
    @test requires_grad!(x) === x
    @test requires_grad(x) && isleaf(x)
    @test torch_repr(x) == "tensor([[1., 2., 3.],\n        [4., 5., 6.]], requires_grad=True)"
    y = _mul(x, x)                                   # x * x
    @test requires_grad(y) && !isleaf(y) && grad_fn_name(y) == "MulBackward0"
    @test endswith(torch_repr(y), "grad_fn=<MulBackward0>)")
    s = _sumall(y)
    @test grad_fn_name(s) == "SumBackward0" && size(s) == ()
    backward!(s; retain_graph = true)
    g = grad(x)
    @test g isa Tensor{Float32,2} && size(g) == (2, 3)
    @test Array(g) == Float32[2 4 6; 8 10 12]        # d(sum x^2)/dx = 2x
    @test !requires_grad(g) && grad(y) === nothing   # non-leaf tensors keep no grad
    backward!(s)                                      # accumulates into the same tensor
    @test Array(g) == Float32[4 8 12; 16 20 24] && same_tensor(grad(x), g)
    e = caught(() -> backward!(s))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT &&
          startswith(e.message, "Trying to backward through the graph a second time")
    grad!(x, nothing)
    @test grad(x) === nothing
    grad!(x, tensor_zeros(Float32, 2, 3))
    backward!(_mulk(x, 3), tensor_ones(Float32, 2, 3))   # a gradient for a non-scalar output
    @test Array(grad(x)) == fill(3.0f0, 2, 3)
    # views of x record the view ops torch records
    @test grad_fn_name(select_view(x, 1, 2)) == "SelectBackward0"
    @test grad_fn_name(slice_view(x, 2, 2:3)) == "SliceBackward0"
    @test grad_fn_name(transpose_view(x)) == "TransposeBackward0"
    @test grad_fn_name(t_view(x)) == "TBackward0"
    @test grad_fn_name(reshape_view(x, 6)) == "ViewBackward0"
    @test grad_fn_name(clone(x)) == "CloneBackward0"
    # torch's errors
    e = caught(() -> backward!(_mulk(x, 2)))
    @test e isa CTensorError && e.message == "grad can be implicitly created only for scalar outputs"
    e = caught(() -> L.ct_add_scalar_(x, 1.0) == 0 || throw(last_error()))
    @test e isa CTensorError &&
          e.message == "a leaf Variable that requires grad is being used in an in-place operation."
    e = caught(() -> requires_grad!(tensor_arange(Int64, 3)))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE &&
          e.message == "only Tensors of floating point dtype can require gradients"
    e = caught(() -> requires_grad!(y, false))
    @test e isa CTensorError && startswith(e.message, "you can only change requires_grad flags of leaf variables.")
    e = caught(() -> grad!(x, tensor_zeros(Float32, 3)))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
    e = caught(() -> grad!(x, tensor_zeros(Float64, 2, 3)))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE
    e = caught(() -> backward!(tensor_zeros(Float32)))
    @test e isa CTensorError && e.message == "element 0 of tensors does not require grad and does not have a grad_fn"
end

@testset "multi-output views: unbind, split, chunk" begin
    x, root = grid()
    cols = unbind_views(x, 2)                 # Python: x.unbind(1)
    @test length(cols) == 4 && all(c -> c isa Tensor{Float32,1}, cols)
    @test size(cols[3]) == (3,) && strides(cols[3]) == (4,) && storage_offset(cols[3]) == 2
    @test all(c -> is_view(c) && same_tensor(base(c), root) && shares_storage(c, x), cols)
    cols[2][3] = -5                            # nothing requires grad: writable
    @test x[3, 2] == -5 && version(cols[1]) == version(x)
    p = split_views(x, 2, 3)                  # Python: x.split(3, 1): sizes (3, 3), (3, 1)
    @test size.(p) == [(3, 3), (3, 1)] && storage_offset(p[2]) == 3
    q = split_views(x, 1, [1, 0, 2])          # Python: x.split([1, 0, 2], 0)
    @test size.(q) == [(1, 4), (0, 4), (2, 4)] && storage_offset(q[3]) == 4
    @test size.(chunk_views(x, 2, 3)) == [(3, 2), (3, 2)]   # Python: x.chunk(3, 1)
    e = caught(() -> split_views(x, 2, [1, 2]))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT &&
          e.message == "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at " *
                       "dimension 1), but got split_sizes=[1, 2]"
    e = caught(() -> chunk_views(x, 1, 0))
    @test e isa CTensorError && e.message == "chunk expects `chunks` to be greater than 0, got: 0"
    e = caught(() -> unbind_views(x, 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    # autograd: torch's node names, and in-place writes refused
    a = requires_grad!(tensor_ones(Float32, 2, 3))
    y = _mulk(a, 2)
    rows = unbind_views(y, 1)
    @test grad_fn_name.(rows) == ["UnbindBackward0", "UnbindBackward0"]
    @test grad_fn_name.(split_views(y, 2, 2)) == ["SplitBackward0", "SplitBackward0"]
    @test grad_fn_name.(split_views(y, 2, [2, 1])) == ["SplitWithSizesBackward0", "SplitWithSizesBackward0"]
    av = alias_view(y)                         # Python: y[...]
    @test is_view(av) && same_tensor(base(av), y) && grad_fn_name(av) == "AliasBackward0"
    e = caught(() -> L.ct_mul_scalar_(rows[2], 2.0) == 0 || throw(last_error()))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT &&
          startswith(e.message, "Output 1 of Unbind is a view and is being modified inplace. " *
                                "This view is the output of a function that returns multiple views.")
    backward!(_sumall(_mulk(rows[2], 3)))
    @test Array(grad(a)) == Float32[0 0 0; 6 6 6]
end

@testset "the split family and the other composite views" begin
    x, root = grid()                           # Python: x = torch.arange(12.).view(3, 4)
    p = tensor_split_views(x, 2, 3)            # Python: x.tensor_split(3, 1): lengths 2, 1, 1
    @test size.(p) == [(3, 2), (3, 1), (3, 1)] && storage_offset.(p) == [0, 2, 3]
    @test all(v -> is_view(v) && same_tensor(base(v), root), p)
    q = tensor_split_views(x, 2, [1, 3])       # Python: x.tensor_split([1, 3], 1)
    @test size.(q) == [(3, 1), (3, 2), (3, 1)]
    @test size.(hsplit_views(x, 2)) == [(3, 2), (3, 2)]
    @test size.(vsplit_views(x, [1])) == [(1, 4), (2, 4)]
    e = caught(() -> hsplit_views(x, 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT &&
          e.message == "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 " *
                       "is not divisible by the split_size 3!"
    e = caught(() -> dsplit_views(x, 2))
    @test e isa CTensorError && startswith(e.message, "torch.dsplit requires a tensor with at least 3 dimension")
    u = unsafe_split_shared(x, 2, 3)           # Python: x.unsafe_split(3, 1)
    @test size.(u) == [(3, 3), (3, 1)] && !any(is_view, u) && all(v -> shares_storage(v, x), u)
    @test all(v -> version(v) == 0, u)
    @test size.(unsafe_split_shared(x, 1, [2, 1])) == [(2, 4), (1, 4)]
    @test size.(unsafe_chunk_shared(x, 1, 2)) == [(2, 4), (1, 4)]
    f = unflatten_view(x, 2, 2, -1)            # Python: x.unflatten(1, (2, -1))
    @test f isa Tensor{Float32,3} && size(f) == (3, 2, 2) && strides(f) == (4, 2, 1)
    e = caught(() -> unflatten_view(x, 2, 3, 3))
    @test e isa CTensorError && e.message ==
          "unflatten: Provided sizes [3, 3] don't multiply up to the size of dim 1 (4) in the input tensor"
    c = reshape_view(root, 2, 3, 2)
    m = movedim_view(c, 1, 3)                  # Python: c.movedim(0, 2)
    @test size(m) == (3, 2, 2) && strides(m) == (2, 1, 6)
    @test size(movedim_view(c, (1, 2), (3, 1))) == (3, 2, 2)
    @test size(swapdims_view(c, 1, 3)) == (2, 3, 2) && strides(swapdims_view(c, 1, 3)) == (1, 2, 6)
    @test size(expand_as_view(slice_view(x, 1, 1:1), x)) == (3, 4)
    @test size(view_as_view(x, c)) == (2, 3, 2)
    @test size(reshape_as_view_or_copy(transpose_view(x), c)) == (2, 3, 2)
    b = broadcast_to_view(x, 2, 3, 4)
    @test size(b) == (2, 3, 4) && strides(b) == (0, 4, 1)
    bs = broadcast_views(x, slice_view(x, 1, 1:1))
    @test same_tensor(bs[1], x) && size(bs[2]) == (3, 4) && strides(bs[2]) == (0, 1)
    @test broadcast_dims((2, 1), (3,)) == (2, 3) && broadcast_dims() == ()
    e = caught(() -> broadcast_dims((2, 3), (4,)))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE && startswith(e.message, "Attempting to broadcast a dimension of length 4")
    s = select_view(select_view(x, 1, 2), 1, 3)   # a 0-D view: x[1, 2] in Python
    @test size(atleast_1d_view(s)) == (1,) && size(atleast_2d_view(s)) == (1, 1)
    @test size(atleast_3d_view(select_view(x, 1, 1))) == (1, 4, 1)
    @test same_tensor(atleast_2d_view(x), x)
    # autograd node names, as torch records them
    a = requires_grad!(tensor_ones(Float32, 2, 3))
    y = _mulk(a, 2)
    @test grad_fn_name.(tensor_split_views(y, 2, 2)) == ["SliceBackward0", "SliceBackward0"]
    @test grad_fn_name.(unsafe_chunk_shared(y, 2, 2)) == ["UnsafeSplitBackward0", "UnsafeSplitBackward0"]
    @test grad_fn_name(unflatten_view(y, 2, 3, 1)) == "ViewBackward0"
    @test grad_fn_name(movedim_view(y, 1, 2)) == "PermuteBackward0"
    @test grad_fn_name(broadcast_to_view(y, 4, 2, 3)) == "ExpandBackward0"
end

@testset "autograd: retain_grad! keeps a non-leaf's gradient" begin
    x = requires_grad!(Tensor(Float32[1, 2, 3]))
    y = _mulk(x, 2)
    @test !retains_grad(y) && retain_grad!(y) === y && retains_grad(y) && !retains_grad(x)
    backward!(_sumall(_mul(y, y)))                     # d(sum y^2)/dy = 2y
    @test Array(grad(y)) == Float32[4, 8, 12] && Array(grad(x)) == Float32[8, 16, 24]
    e = caught(() -> retain_grad!(tensor_ones(Float32, 2)))
    @test e isa CTensorError && e.message == "can't retain_grad on Tensor that has requires_grad=False"
end

@testset "autograd: detach shares memory and cuts the graph, clone copies and stays in it" begin
    x = requires_grad!(Tensor(Float32[1, 2, 3]))
    d = detach(x)
    c = clone(x)
    @test shares_storage(d, x) && !is_view(d) && pointer(d) == pointer(x)
    @test !requires_grad(d) && isleaf(d) && grad_fn_name(d) === nothing
    @test !shares_storage(c, x) && requires_grad(c) && grad_fn_name(c) == "CloneBackward0"
    d[1] = 10                                          # seen through x: the same memory
    @test Array(x) == Float32[10, 2, 3] && Array(c) == Float32[1, 2, 3]
    backward!(_sumall(_mul(c, d)))                      # d is a constant
    @test Array(grad(x)) == Float32[10, 2, 3]
    @test grad(d) === nothing
end

@testset "autograd: no_grad / enable_grad do-blocks, set_grad_enabled!" begin
    x = requires_grad!(tensor_ones(Float32, 2))
    @test is_grad_enabled()
    y = no_grad() do
        @test !is_grad_enabled()
        inner = enable_grad() do
            @test is_grad_enabled()
            _mulk(x, 2)
        end
        @test requires_grad(inner) && !is_grad_enabled()
        _mulk(x, 2)
    end
    @test is_grad_enabled()
    @test !requires_grad(y) && isleaf(y) && grad_fn_name(y) === nothing
    @test no_grad(() -> 42) == 42
    e = caught(() -> no_grad(() -> error("inside")))
    @test e isa ErrorException && is_grad_enabled()    # restored when f throws
    @test set_grad_enabled!(false) == true
    @test !is_grad_enabled() && !requires_grad(_mulk(x, 2))
    @test set_grad_enabled!(true) == false
    @test requires_grad(_mulk(x, 2))
end

@testset "autograd: inference_mode do-blocks, inference tensors" begin
    x = tensor_ones(Float32, 3)
    @test !is_inference_mode_enabled()
    a, v = inference_mode() do
        @test is_inference_mode_enabled() && !is_grad_enabled()
        inference_mode(false) do                        # torch: grad mode on inside
            @test !is_inference_mode_enabled() && is_grad_enabled()
        end
        @test is_inference_mode_enabled() && !is_grad_enabled()
        t = tensor_ones(Float32, 3)
        t[1] = 5                                        # allowed inside
        (t, select_view(x, 1, 2))
    end
    @test !is_inference_mode_enabled() && is_grad_enabled()
    @test is_inference(a) && !is_inference(x) && !is_inference(v)
    @test is_view(v) && version(x) == 0                 # a view of a normal tensor stays one
    e = caught(() -> version(a))
    @test e isa CTensorError && occursin("Inference tensors do not track version counter.", e.message)
    av = select_view(a, 1, 1)
    @test is_inference(av) && !is_view(av) && base(av) === nothing
    e = caught(() -> (a[2] = 7))
    @test e isa CTensorError && occursin("Inplace update to inference tensor outside InferenceMode", e.message)
    @test a[2] == 7                                     # torch writes, then refuses
    e = caught(() -> requires_grad!(a))
    @test e isa CTensorError && occursin("Setting requires_grad=True on inference tensor", e.message)
    w = requires_grad!(tensor_ones(Float32, 3))
    e = caught(() -> _mul(w, a))
    @test e isa CTensorError && occursin("Inference tensors cannot be saved for backward", e.message)
    c = clone(a)
    @test !is_inference(c) && version(c) == 1
    e = caught(() -> inference_mode(() -> error("inside")))
    @test e isa ErrorException && !is_inference_mode_enabled() && is_grad_enabled()
    @test inference_mode(() -> 42) == 42
end

function autograd_leak_scenario()
    x = requires_grad!(tensor_ones(Float32, 3, 4))
    y = _mul(x, x)
    v = select_view(y, 1, 2)
    s = _sumall(_mulk(v, 2))
    backward!(s; retain_graph = true)
    t = _sumall(_mul(x, transpose_view(transpose_view(x))))   # a graph never run
    return grad(x) !== nothing && t !== nothing
end

@testset "autograd: graphs are freed with their outputs" begin
    full_gc()
    nt, ns = live_tensors(), live_storages()
    @test autograd_leak_scenario()
    full_gc()
    @test live_tensors() == nt
    @test live_storages() == ns
end


# ---- Autograd callbacks written in Julia (issue 21): hooks and custom ops --------------------

@testset "autograd: register_hook sees and replaces gradients, in registration order" begin
    x = requires_grad!(tensor_ones(Float32, 3))
    y = _mulk(x, 2)
    seen = String[]
    h1 = register_hook(g -> (push!(seen, "first"); _mulk(g, 10)), y)
    h2 = register_hook(g -> (push!(seen, "second $(Array(g))"); nothing), y)
    @test hook_id(h2) > hook_id(h1)
    backward!(_sumall(y))
    @test seen == ["first", "second Float32[10.0, 10.0, 10.0]"]
    @test Array(grad(x)) == Float32[20, 20, 20]          # torch: the hook's gradient flows on
    remove!(h1)
    remove!(h1)                                          # twice: nothing
    empty!(seen)
    z = _mulk(x, 3)
    hz = register_hook(g -> error("stop here"), z)
    e = caught(() -> backward!(_sumall(z)))
    @test e isa CTensorError && occursin("stop here", e.message)
    e = caught(() -> register_hook(identity, tensor_ones(Float32, 2)))
    @test e isa CTensorError && e.message == "cannot register a hook on a tensor that doesn't require gradient"
    e = caught(() -> begin
        w = _mulk(x, 1)
        register_hook(g -> tensor_ones(Float32, 2), w)
        backward!(_sumall(w))
    end)
    @test e isa CTensorError && occursin("hook has changed the size of value", e.message)
end

function cube(x)
    return custom_op(t -> _mul(_mul(t, t), t), g -> _mul(_mul(_mulk(g, 3), x), x), "Cube", x)
end

@testset "autograd: custom_op takes part in a graph with its Julia backward" begin
    x = requires_grad!(Tensor(Float32[0.5 -1.0 2.0; 1.5 0.0 -2.0]))
    a = _mulk(x, 2)
    y = cube(a)
    @test grad_fn_name(y) == "CubeBackward"
    @test Array(y) == Array(a) .^ 3
    backward!(_sumall(y))
    @test Array(grad(x)) == 24 .* Array(x) .^ 2        # torch: x.grad for (2x)^3
    # several outputs, one not differentiable; a backward that returns nothing for an input
    u = requires_grad!(tensor_ones(Float32, 2))
    v = tensor_ones(Float32, 2)
    p, q = custom_op((s, t) -> (_mulk(s, 2), _mulk(t, 1)), (gp, gq) -> (_mulk(gp, 2), nothing), "Two", u, v;
                     non_differentiable = (2,))
    @test grad_fn_name(p) == "TwoBackward" && !requires_grad(q)
    backward!(_sumall(p))
    @test Array(grad(u)) == Float32[2, 2]
    # errors in backward, and wrong results, reach backward! as CTensorErrors
    bad = custom_op(t -> _mulk(t, 1), g -> (g, g), "Bad", u)
    e = caught(() -> backward!(_sumall(bad)))
    @test e isa CTensorError && occursin("returned 2 gradients, expected 1", e.message)
    e = caught(() -> custom_op(t -> 1.0, g -> g, "NotATensor", u))
    @test e isa CTensorError && occursin("forward must return a Tensor", e.message)
end

@testset "autograd: autograd_grad and backward! with inputs / create_graph" begin
    x = requires_grad!(Tensor(Float32[1, 2, 3]))
    s = _sumall(_mul(_mul(x, x), x))
    g = only(autograd_grad(s, x; create_graph = true))   # torch: 3x^2, with a graph
    @test Array(g) == Float32[3, 12, 27]
    @test grad_fn_name(g) !== nothing
    h = only(autograd_grad(_sumall(g), x))               # torch: 6x
    @test Array(h) == Float32[6, 12, 18]
    @test grad(x) === nothing                            # grad touches no .grad
    w = requires_grad!(tensor_ones(Float32, 2))
    r = autograd_grad(_sumall(_mulk(x, 2)), [x, w]; allow_unused = true)
    @test Array(r[1]) == Float32[2, 2, 2] && r[2] === nothing
    e = caught(() -> autograd_grad(_sumall(_mulk(x, 2)), [x, w]))
    @test e isa CTensorError && occursin("appears to not have been used in the graph", e.message)
    # backward! into some inputs only
    a = requires_grad!(tensor_ones(Float32, 2))
    b = requires_grad!(tensor_ones(Float32, 2))
    backward!(_sumall(_mul(a, _mulk(b, 3))); inputs = [a])
    @test Array(grad(a)) == Float32[3, 3] && grad(b) === nothing
end

@testset "autograd: a custom_op's second derivative, with and without differentiable_backward" begin
    x = requires_grad!(Tensor(Float32[1, 2, 3]))
    # backward computed with library ops from g and the captured input x: torch's d2/dx2 x^3 = 6x
    y = custom_op(t -> _mul(_mul(t, t), t), g -> _mul(_mul(_mulk(g, 3), x), x), "Cube3", x;
                  differentiable_backward = true)
    g = only(autograd_grad(_sumall(y), x; create_graph = true))
    @test Array(g) == Float32[3, 12, 27]
    @test Array(only(autograd_grad(_sumall(g), x))) == Float32[6, 12, 18]
    # a backward that reads its output (exp): through saved_output, d2/dx2 exp(x) = exp(x)
    saved = Ref{Any}(nothing)
    ex = custom_op(t -> begin
                       out = _op(L.ct_exp(t))
                       saved[] = detach(out)
                       out
                   end, g -> _mul(g, saved_output(saved[], 1)), "Exp", x; differentiable_backward = true)
    ge = only(autograd_grad(_sumall(ex), x; create_graph = true))
    @test Array(ge) ≈ exp.(Float32[1, 2, 3])
    @test Array(only(autograd_grad(_sumall(ge), x))) ≈ exp.(Float32[1, 2, 3])
    # without the flag (torch's once_differentiable) the second derivative is refused, never zero
    z = cube(x)
    gz = only(autograd_grad(_sumall(z), x; create_graph = true))
    e = caught(() -> autograd_grad(_sumall(gz), x))
    @test e isa CTensorError && occursin("derivative for CubeBackward is not implemented", e.message)
end

function callback_scenario()
    x = requires_grad!(tensor_ones(Float32, 4))
    y = cube(_mulk(x, 2))
    h = register_hook(g -> nothing, y)
    backward!(_sumall(y))
    return grad(x) !== nothing
end

@testset "autograd: Julia callbacks are released with their graph" begin
    full_gc()
    nt, nc = live_tensors(), live_callbacks()
    @test callback_scenario()
    full_gc()
    @test live_callbacks() == nc
    @test live_tensors() == nt
end

# ---- Issue 22: correct on first contact with a real Julia 1.10 / 1.11 ------------------------

@testset "issue 22.1: no exported name clashes with Base, Core or a standard library" begin
    ours = setdiff(names(CTensor), [:CTensor])
    theirs = union(names(Base), names(Core), names(LinearAlgebra), names(Test), names(Serialization))
    @test isempty(intersect(ours, theirs))
    for generic in (:base, :version, :storage, :clone, :grad, :detach)
        @test !(generic in ours)                  # too generic to export
    end
    t = tensor_ones(Float32, 2)
    d = detach(t)                                 # Base.detach, extended: no UndefVarError
    @test parentmodule(detach) === Base && d isa Tensor{Float32,1} && shares_storage(d, t)
    @test CTensor.clone === clone && CTensor.version === version
end

@testset "issue 22.2: a relative CTENSOR_LIB is made absolute when the library is loaded" begin
    lib = L.libctensor()
    @test isabspath(lib)
    mktempdir() do dir
        cd(dir) do
            withenv("CTENSOR_LIB" => relpath(lib, dir)) do
                @test realpath(L.load_library()) == realpath(lib)
                @test isabspath(L.libctensor())
            end
            withenv("CTENSOR_LIB" => joinpath("no", "such", "libctensor.so")) do
                e = caught(L.load_library)
                @test e isa ErrorException
                @test occursin("a relative path", e.msg) && occursin(pwd(), e.msg)
                @test occursin("no such file", e.msg) && occursin("absolute path", e.msg)
            end
        end
    end
    L.load_library()                              # the library of this run again
    @test realpath(L.libctensor()) == realpath(lib)
end

@testset "issue 22.3: README examples import what they use" begin
    # Test set "README: autograd" is the README's example; it runs with the imports of its
    # own `using` line (checked statically by julia_check.py: LibCTensor is not exported).
    @test !(:LibCTensor in names(CTensor)) && isdefined(CTensor, :LibCTensor)
    @test !(:own_handle in names(CTensor)) && CTensor.own_handle === own_handle
end

@testset "issue 22.4: a package depending on CTensor precompiles without the library" begin
    mktempdir() do dir
        dep = joinpath(dir, "DependsOnCTensor")
        mkpath(joinpath(dep, "src"))
        write(joinpath(dep, "Project.toml"), """
            name = "DependsOnCTensor"
            uuid = "0d7a9e7c-4b1e-4c52-9a8b-3f0c6e2d1a55"
            version = "0.1.0"

            [deps]
            CTensor = "5f2d9c1e-7b43-4f6a-9e0d-3a8c2b71d4e6"
            """)
        write(joinpath(dep, "src", "DependsOnCTensor.jl"), "module DependsOnCTensor\nusing CTensor\nend\n")
        env = joinpath(dir, "env")
        setup = """
            using Pkg
            Pkg.activate($(repr(env)); io = devnull)
            Pkg.develop([PackageSpec(path = $(repr(pkgdir(CTensor)))), PackageSpec(path = $(repr(dep)))]; io = devnull)
            """
        missing_lib = joinpath(dir, "missing", "libctensor.so")
        julia = Base.julia_cmd()
        run_julia(code) = addenv(`$julia --startup-file=no -e $code`, "CTENSOR_LIB" => missing_lib,
                                 "JULIA_PKG_PRECOMPILE_AUTO" => "0")
        # Precompiling runs CTensor.__init__ while output is generated: no library, no error.
        @test success(pipeline(run_julia(setup * """
            Base.compilecache(Base.identify_package("DependsOnCTensor"))
            """); stdout = devnull))
        # Loading it for real says what is missing.
        out = IOBuffer()
        ok = success(pipeline(run_julia(setup * "using DependsOnCTensor"); stderr = out))
        @test !ok && occursin("cannot load libctensor", String(take!(out)))
    end
end

@testset "issue 22.5: writes go through the library (refused, counted, recorded)" begin
    t = tensor_zeros(Float32, 2, 2)
    v0 = version(t)
    t[1, 1] = 1
    @test version(t) == v0 + 1 && t[1, 1] == 1
    fill!(t, 2)
    @test version(t) == v0 + 2 && all(==(2), t)
    t .= 3
    t .= t .+ 1
    map!(x -> 2x, t, t)
    copyto!(t, Float32[1 2; 3 4])
    @test version(t) == v0 + 6 && t == [1 2; 3 4]
    # a leaf that requires grad: every write refused, nothing written
    x = requires_grad!(tensor_ones(Float32, 3))
    for write in (() -> (x[1] = 2), () -> fill!(x, 2), () -> (x .= 2), () -> (x .= x .* 2),
                  () -> map!(identity, x, Float32[1, 2, 3]), () -> copyto!(x, Float32[1, 2, 3]))
        e = caught(write)
        @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    end
    @test Array(x) == [1, 1, 1] && version(x) == 0
    # an element write into a tensor with history is recorded (torch: y[0] = 0)
    y = _mulk(x, 2)
    y[1] = 0
    @test grad_fn_name(y) == "CopySlices"
    backward!(_sumall(y))
    @test Array(grad(x)) == [0, 2, 2]
    # a tensor saved for backward, changed by an element write: backward refuses
    a = requires_grad!(tensor_ones(Float32, 3))
    ea = _op(L.ct_exp(a))                         # exp saves its result
    s = _sumall(ea)
    ea[1] = 5
    e = caught(() -> backward!(s))
    @test e isa CTensorError && occursin("modified by an inplace operation", e.message)
    # an expanded tensor (internal overlap): a bulk write is refused as the library refuses it;
    # one element is a write of one memory location (torch allows ex[0, 0] = 1 too)
    ex = expand_view(reshape_view(tensor_zeros(Float32, 3), 1, 3), 2, 3)
    e = caught(() -> fill!(ex, 1))
    @test e isa CTensorError && e.status == L.CT_ERR_OVERLAP
    ex[1, 1] = 1
    @test ex[2, 1] == 1
end

@testset "issue 22.6: dataids see unsafe_wrap arrays of tensors with a storage offset" begin
    root = tensor_arange(Float64, 12)
    m = permute_view(reshape_view(root, 3, 4), 2, 1)  # 4x3, strides (1, 4): column-major
    v = slice_view(m, 2, 2:3)                          # columns 2:3: offset 4, column-major
    @test storage_offset(v) == 4 && is_column_major(v)
    A = unsafe_wrap(Array, v)
    @test A == [4 8; 5 9; 6 10; 7 11]
    @test Base.mightalias(A, v) && Base.mightalias(A, m) && Base.mightalias(A, root)
    # A's columns are m's columns 2:3; the source's are m's columns 1:2.  Without the aliasing
    # seen, writing A's first column would overwrite the source's second before it is read.
    A .= slice_view(m, 2, 1:2) .+ 0
    @test A == [0 4; 1 5; 2 6; 3 7]
end

@testset "issue 22.7: copyto! between tensors converts by Julia's rules" begin
    @test_throws InexactError copyto!(tensor_zeros(Int64, 2), Tensor([3.7, 1.0]))
    @test_throws InexactError copyto!(tensor_zeros(Int8, 1), Tensor([300]))
    @test_throws InexactError copyto!(tensor_zeros(Bool, 1), Tensor([2]))
    @test_throws InexactError copyto!(tensor_zeros(Int64, 2), [3.7, 1.0])
    @test copyto!(tensor_zeros(Int64, 2), Tensor([3.0, 4.0])) == [3, 4]
    @test copyto!(tensor_zeros(Float32, 2), Tensor([1.5, 2.25])) == Float32[1.5, 2.25]
    @test copy_into!(tensor_zeros(Int64, 1), Tensor([3.7]))[1] == 3   # C's (torch's) rule
    x, root = grid()
    copyto!(x, transpose_view(transpose_view(x)) .* 1)                # same type: one C copy
    @test x == [4(i - 1) + (j - 1) for i in 1:3, j in 1:4]
end

@testset "issue 22.8: stride(t, k > ndims) is Base's" begin
    x, root = grid()
    @test which(stride, Tuple{typeof(x), Int}).module === Base
    @test stride(x, 3) == stride(x, 4) == sum(size(x) .* strides(x))  # past the last element
    @test stride(x, 3) >= length(x)
end

@testset "issue 22.9: empty narrow at the end; unsafe_wrap of an empty tensor" begin
    x, root = grid()
    n = narrow_view(x, 1, 4, 0)                   # torch: x.narrow(0, 3, 0)
    @test size(n) == (0, 4) && is_view(n)
    @test size(narrow_view(x, 2, 5, 0)) == (3, 0)
    e = caught(() -> narrow_view(x, 1, 5, 0))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    @test caught(() -> narrow_view(x, 1, 4, 1)) isa CTensorError
    z = tensor_zeros(Float32, 0, 3)
    @test is_column_major(z)
    E = unsafe_wrap(Array, z)
    @test E isa Matrix{Float32} && size(E) == (0, 3)
end

function wrapped_reshape()
    x = permute_view(reshape_view(tensor_arange(Float64, 6), 2, 3), 2, 1)  # 3x2 column-major
    return reshape(unsafe_wrap(Array, x), 6)     # derived from the wrapper, which is dropped
end

# Storages alive while only R (a reshape of the unsafe_wrap Array) is kept, and R's values.
function wrapped_reshape_lifetime()
    full_gc()
    n0 = live_storages()
    R = wrapped_reshape()
    full_gc()
    alive = live_storages() - n0
    values = R == 0:5
    R = nothing
    return n0, alive, values
end

@testset "issue 22.10: memory of unsafe_wrap and wrap_array arrays (Julia 1.10 and 1.11)" begin
    n0, alive, values = wrapped_reshape_lifetime()
    @test alive == 1 && values                    # the tensor lives while R uses its memory
    full_gc()
    @test live_storages() == n0                   # and goes with R
    # copies to and from Arrays use a temporary tensor that roots nothing: the Arrays stay
    # resizable on Julia 1.10 too
    B = Float32[1, 2, 3]
    copyto!(tensor_zeros(Float32, 3), B)
    push!(B, 4)
    C = Array(tensor_ones(Float32, 2))
    push!(C, 5)
    @test B == [1, 2, 3, 4] && C == [1, 1, 5]
    A = Float64[1, 2, 3]
    w = wrap_array(A)
    @static if isdefined(Base, :Memory)
        push!(A, 4)                               # Julia 1.11+: allowed; w keeps its memory
        resize!(A, 100_000)
        @test w == [1, 2, 3]
    else
        @test_throws ErrorException push!(A, 4)   # Julia 1.10: "cannot resize array with shared data"
        @test w == [1, 2, 3] && length(A) == 3
    end
end

@testset "issue 22.11: deepcopy clones; serialization sends the values" begin
    full_gc()
    nt = live_tensors()
    let
        x = requires_grad!(Tensor(Float32[1, 2, 3]))
        backward!(_sumall(_mulk(x, 2)))
        c = deepcopy(x)
        @test c isa Tensor{Float32,1} && c == x && !shares_storage(c, x) && handle(c) != handle(x)
        @test requires_grad(c) && isleaf(c) && grad_fn_name(c) === nothing
        @test Array(grad(c)) == [2, 2, 2] && !shares_storage(grad(c), grad(x))
        close(c)
        @test x == [1, 2, 3] && !isempty(torch_repr(x))   # x's handle is its own
        v = deepcopy([x, x])
        @test v[1] === v[2] && !shares_storage(v[1], x)
        e = caught(() -> deepcopy(_mulk(x, 1)))
        @test e isa CTensorError && startswith(e.message, "Only Tensors created explicitly by the user")
        @test caught(() -> deepcopy(storage(x))) isa CTensorError
        io = IOBuffer()
        serialize(io, (x, reshape_view(tensor_arange(Int32, 6), 2, 3)))
        seekstart(io)
        y, z = deserialize(io)
        @test y isa Tensor{Float32,1} && y == x && !shares_storage(y, x) && requires_grad(y)
        @test z isa Tensor{Int32,2} && z == Int32[0 1 2; 3 4 5]
        @test caught(() -> serialize(IOBuffer(), storage(x))) isa CTensorError
    end
    full_gc()
    @test live_tensors() == nt
end

@testset "issue 22.12: handles are their own pointer type; vectors of tensors" begin
    t = Tensor(Float64[1, 2, 3])
    @test Base.unsafe_convert(Ptr{L.ct_tensor}, Base.cconvert(Ptr{L.ct_tensor}, t)) == handle(t)
    # as Ptr{Cvoid}, a Tensor is what any array is: its data
    @test Base.unsafe_convert(Ptr{Cvoid}, Base.cconvert(Ptr{Cvoid}, t)) == Ptr{Cvoid}(pointer(t))
    a = tensor_ones(Float32, 2)
    b = tensor_zeros(Float32, 3)
    c = own_handle(() -> L.ct_cat(2, [a, b], 0))  # const ct_tensor *const *: the handles
    @test c == Float32[1, 1, 0, 0, 0]
    s = own_handle(() -> L.ct_stack(2, [a, a], 0))
    @test size(s) == (2, 2) && all(==(1), s)
end

@testset "issue 22.13: read-only and closed tensors hand out no pointer" begin
    src = Tensor(Float32[1, 2, 3])
    ro = read_only_view_of(src)
    @test CTensor.is_read_only(ro) && ro == src && data_address(ro) == data_address(src)
    for f in (() -> pointer(ro), () -> Base.unsafe_convert(Ptr{Float32}, ro),
              () -> unsafe_wrap(Array, ro), () -> (ro[1] = 5), () -> fill!(ro, 0), () -> (ro .= 0),
              () -> pointer(storage(ro)))
        e = caught(f)
        @test e isa CTensorError && e.status == L.CT_ERR_READ_ONLY
    end
    @test Array(ro) == [1, 2, 3] && src == [1, 2, 3]
    c = Tensor(Float32[1, 2])
    close(c)
    for f in (() -> pointer(c), () -> Base.unsafe_convert(Ptr{Float32}, c),
              () -> BLAS.dot(2, c, 1, c, 1), () -> unsafe_wrap(Array, c), () -> Array(c))
        e = caught(f)
        @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    end
end

@testset "issue 22.14: out of memory: collect, retry once" begin
    n = CTensor.OOM_RETRIES[]
    e = caught(() -> Tensor{Float64}(undef, 2^61))   # 2^64 bytes: more than any allocator has
    @test e isa CTensorError && e.status == L.CT_ERR_OUT_OF_MEMORY
    @test CTensor.OOM_RETRIES[] == n + 1
    @test tensor_zeros(Float64, 4) == zeros(4)       # and nothing else retried
    @test CTensor.OOM_RETRIES[] == n + 1
end

@testset "issue 22.15: broadcasting, BFloat16s.jl, constructors, no-grad internal copies" begin
    t = Tensor(Float32[1 2; 3 4])
    @test (t .+ 1) isa Tensor{Float32,2} && t .+ 1 == [2 3; 4 5]
    @test (t .> 2) isa Tensor{Bool,2} && (t .> 2) == [false false; true true]
    @test (t .* [1 0; 0 1]) isa Tensor{Float32,2}
    @test (t .+ 1im) isa Matrix{ComplexF32}          # no such dtype: an Array
    # BFloat16s.jl: one type on Julia 1.11+, converted both ways on 1.10
    b = BFloat16s.BFloat16(1.5)
    c = convert(CTensor.BFloat16, b)
    @test c isa CTensor.BFloat16 && convert(BFloat16s.BFloat16, c) == b
    bt = Tensor(BFloat16s.BFloat16[1, 2])
    @test bt isa Tensor{CTensor.BFloat16,1} && CTensor.dtype_name(eltype(bt)) == "bfloat16"
    # constructors
    @test Tensor{Float32,2}(undef, (2, 3)) isa Tensor{Float32,2}
    @test size(Tensor{Int16,3}(undef, 1, 2, 3)) == (1, 2, 3)
    @test tensor_zeros(Float32, (2, 3)) == zeros(2, 3) && tensor_ones(Int64, (2,)) == [1, 1]
    @test tensor_full(Float64, 2.5, (1, 2)) == [2.5 2.5]
    f = Tensor{Float64,2}(Float32[1 2; 3 4])
    @test f isa Tensor{Float64,2} && f == [1 2; 3 4] && is_contiguous(f) && version(f) == 0
    @test Tensor(1:3) == [1, 2, 3] && Tensor(fill(7)) isa Tensor{Int64,0}
    @test_throws InexactError Tensor{Int8}([1.5])
    # internal copies run under no-grad
    x = requires_grad!(tensor_ones(Float32, 2))
    u = Base.unaliascopy(x)
    @test !requires_grad(u) && !shares_storage(u, x)
    @test Array(x) == [1, 1] && is_grad_enabled()
end

@testset "identity: version counters, tensor_data, detach!" begin
    x = tensor_zeros(Float32, 4, 3)
    v = select_view(x, 1, 2)
    a = alias(x)
    d = CTensor.tensor_data(x)
    @test same_version_counter(x, v) && same_version_counter(x, a)
    @test !same_version_counter(x, d) && shares_storage(x, d) && !is_view(d)
    fill!(v, 1f0)
    @test CTensor.version(x) == CTensor.version(a) == 1 && CTensor.version(d) == 0
    fill!(d, 2f0)                       # same memory, its own counter
    @test CTensor.version(x) == 1 && CTensor.version(d) == 1 && x[1, 1] == 2f0
    w = tensor_ones(Float32, 3)
    requires_grad!(w, true)
    y = w .* 2f0
    @test detach!(y) === y && !requires_grad(y)
    @test_throws CTensorError detach!(slice_view(w, 1, 2:3))
end

@testset "identity: in-place metadata ops" begin
    x = tensor_arange(Float32, 0, 6)
    y = reshape_view(tensor_arange(Float32, 0, 6), 2, 3)
    t!(y)
    @test size(y) == (3, 2) && strides(y) == (1, 3) && CTensor.version(y) == 1
    @test y[2, 1] == 1f0
    swapdims!(y, 1, 2)
    @test size(y) == (2, 3) && CTensor.version(y) == 2
    as_strided!(y, (2, 2), (1, 2), 1)
    @test size(y) == (2, 2) && storage_offset(y) == 1 && y[1, 2] == 3f0
    y = unsqueeze!(y, 1)
    @test size(y) == (1, 2, 2) && CTensor.version(y) == 4
    y = squeeze!(y)
    @test size(y) == (2, 2)
    src = tensor_arange(Float32, 1, 5)
    CTensor.set!(x, src)
    @test is_set_to(x, src) && Base.mightalias(x, src) && CTensor.version(src) == 0
    @test CTensor.version(x) == 1 && collect(x) == Float32[1, 2, 3, 4]
    z = tensor_zeros(Float32, 3)
    resize!(z, 1000)                    # grows: the memory moves, z sees it
    @test size(z) == (1000,) && CTensor.version(z) == 1 && !isempty(Base.dataids(z))
    z[1000] = 7f0
    @test z[1000] == 7f0
    shared = tensor_zeros(Float32, 3)
    keep = slice_view(shared, 1, 1:2)
    @test_throws CTensorError resize!(shared, 100)   # a view's base: its storage may not change
    @test_throws CTensorError CTensor.set!(shared, src)
    @test size(keep) == (2,)
    p = tensor_zeros(Float32, 2)
    CTensor.set_data!(p, src)
    @test is_set_to(p, src) && CTensor.version(p) == 0
    w = tensor_ones(Float32, 3)
    requires_grad!(w, true)
    @test_throws CTensorError resize!(w, 4)
    c = tensor_zeros(Float32, 2, 3, 4, 5)
    resize!(c, 2, 3, 4, 5; memory_format = :channels_last)   # equal sizes: restrided, no bump
    @test strides(c) == (60, 1, 15, 3) && CTensor.version(c) == 0
    @test_throws CTensorError resize!(c, 2, 3, 4, 5; memory_format = :preserve_format)
    @test_throws CTensorError t!(w)                 # a leaf that requires grad
    y2 = _mul(w, w)                                 # a non-leaf: recorded as torch records it
    t!(y2)
    @test grad_fn_name(y2) == "TBackward1"
    backward!(_sumall(y2))
    @test Array(grad(w)) == Float32[2, 2, 2]
end

@testset "dtype views (view_dtype), T / mT, copies of views" begin
    x = tensor_arange(Float32, 0, 6)                  # Python: torch.arange(6.)
    m = reshape_view(x, 2, 3)
    v = view_dtype(m, Int32)                          # Python: m.view(torch.int32)
    @test v isa Tensor{Int32,2} && size(v) == (2, 3) && strides(v) == strides(m)
    @test !is_view(v) && CTensor.base(v) === nothing && shares_storage(v, x)
    @test v[1, 2] == reinterpret(Int32, 1f0)
    h = view_dtype(m, Float16)                        # the LAST dim grows, unlike reinterpret
    @test size(h) == (2, 6) && strides(h) == (6, 1)
    d = view_dtype(reshape_view(tensor_arange(Float32, 0, 8), 2, 4), Float64)
    @test size(d) == (2, 2) && strides(d) == (2, 1)
    e = caught(() -> view_dtype(m, Float64))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE &&
          e.message == "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3"
    e = caught(() -> view_dtype(transpose_view(m), Int16))
    @test e isa CTensorError && e.message ==
          "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3"
    v0 = CTensor.version(x)
    v[1, 1] = 7
    @test CTensor.version(x) == v0 + 1                # one version counter
    a = requires_grad!(tensor_ones(Float32, 4))
    @test !requires_grad(view_dtype(a, Int32))
    c = view_dtype_copy(m, Int32)
    @test !shares_storage(c, x) && collect(c) == collect(v)
    b = tensor_zeros(Float32, 2, 3, 4)
    @test size(matrix_transpose_view(b)) == (2, 4, 3) && is_view(matrix_transpose_view(b))
    e = caught(() -> matrix_transpose_view(tensor_zeros(Float32, 3)))
    @test e isa CTensorError && e.message ==
          "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
    @test size(reverse_dims_view(m)) == (3, 2)
    @test size(@test_logs (:warn,) match_mode = :any reverse_dims_view(b)) == (4, 3, 2)
    g = requires_grad!(tensor_ones(Float32, 2, 3))
    @test grad_fn_name(reverse_dims_view(g)) == "PermuteBackward0"
    for (f, node) in ((t -> reshape_copy(t, 3, 2), "ViewBackward0_copy"),
                      (t -> transpose_copy(t), "TransposeBackward0_copy"),
                      (t -> permute_copy(t, 2, 1), "PermuteBackward0_copy"),
                      (t -> narrow_copy(t, 2, 2, 2), "NarrowCopyBackward0"),
                      (t -> select_copy(t, 1, 2), "SelectBackward0_copy"),
                      (t -> expand_copy(t, 4, 2, 3), "ExpandBackward0_copy"),
                      (t -> alias_copy(t), "AliasBackward0_copy"),
                      (t -> t_copy(t), "TBackward0_copy"),
                      (t -> slice_copy(t, 2, 1:2:3), "SliceBackward0_copy"),
                      (t -> squeeze_copy(unsqueeze_view(t, 1)), "SqueezeBackward0_copy"),
                      (t -> squeeze_copy(unsqueeze_view(t, 1), 1), "SqueezeBackward1_copy"),
                      (t -> squeeze_copy(unsqueeze_view(t, 1), (1, 2)), "SqueezeBackward2_copy"),
                      (t -> unsqueeze_copy(t, 3), "UnsqueezeBackward0_copy"),
                      (t -> diagonal_copy(t; offset = 1), "DiagonalBackward0_copy"),
                      (t -> unfold_copy(t, 2, 2, 1), "UnfoldBackward0_copy"),
                      (t -> as_strided_copy(t, (2, 2), (1, 2), 0), "AsStridedBackward0_copy"),
                      (t -> unbind_copy(t, 1)[2], "UnbindBackward0_copy"),
                      (t -> split_copy(t, 2, 2)[1], "SplitBackward0_copy"),
                      (t -> split_copy(t, 2, [1, 2])[2], "SplitWithSizesBackward0_copy"),
                      (t -> detach_copy(t), "torch::autograd::NotImplemented"))
        r = f(g)
        @test !is_view(r) && !shares_storage(r, g) && is_contiguous(r) && grad_fn_name(r) == node
    end
    @test collect(narrow_copy(m, 2, 2, 2)) == collect(narrow_view(m, 2, 2, 2))
    for (c, v) in ((t_copy(m), t_view(m)), (slice_copy(m, 2, 1:2:3), slice_view(m, 2, 1:2:3)),
                   (unsqueeze_copy(m, 1), unsqueeze_view(m, 1)), (diagonal_copy(m), diagonal_view(m)),
                   (unfold_copy(m, 2, 2, 1), unfold_view(m, 2, 2, 1)),
                   (as_strided_copy(m, (2, 2), (1, 2), 1), as_strided_view(m, (2, 2), (1, 2), 1)))
        @test size(c) == size(v) && collect(c) == collect(v) && !shares_storage(c, m) && !is_view(c)
    end
    sq = squeeze_view(unsqueeze_view(g, 1), (1, 2))
    @test size(sq) == (2, 3) && is_view(sq) && shares_storage(sq, g) && grad_fn_name(sq) == "SqueezeBackward2"
    e = caught(() -> squeeze_view(m, (1, 1)))
    @test e isa CTensorError && e.message == "dim 0 appears multiple times in the list of dims"
    pieces = split_copy(m, 2, [1, 2])
    @test length(pieces) == 2 && size(pieces[2]) == (2, 2) && !shares_storage(pieces[2], m)
    @test [collect(u) for u in unbind_copy(m, 1)] == [collect(u) for u in unbind_views(m, 1)]
    e = caught(() -> squeeze_copy(m, 3))
    @test e isa CTensorError
end

@testset "^, fld, mod, rem: torch's pow, floor_divide, remainder, fmod" begin
    a = Tensor(Int64[-7, 7, -8])
    @test a ^ 2 isa Tensor{Int64,1} && Array(a ^ 2) == [49, 49, 64]      # an Integer keeps the dtype
    @test Array(a ^ 0.5) isa Vector{Float32}                             # a float: float32, as torch
    @test Array(2 ^ Tensor(Int64[0, 3])) == [1, 8]
    @test Array(Tensor(Float32[1 2; 3 4]) ^ 2) == Float32[1 4; 9 16]     # elementwise, not matrix power
    @test_throws CTensorError a ^ -1                                     # integers to negative powers
    @test Array(fld(a, 2)) == fld.([-7, 7, -8], 2) == [-4, 3, -4]        # floor_divide is fld, not div
    @test Array(mod(a, 2)) == mod.([-7, 7, -8], 2) == [1, 1, 0]          # remainder: sign of the divisor
    @test Array(rem(a, 2)) == rem.([-7, 7, -8], 2) == [-1, 1, 0]         # fmod: sign of the dividend
    @test Array(mod(a, Tensor(Int64[-2, -2, 3]))) == mod.([-7, 7, -8], [-2, -2, 3])
    @test Array(fld(7, Tensor(Int64[2, -2]))) == [3, -4]
    @test Array(mod(Tensor(Float32[-7.5]), 2.0)) == Float32[0.5]
    @test Array(rem(Tensor(Float64[-7.5]), 2.0)) == [-1.5]
    e = caught(() -> fld(a, 0))
    @test e isa CTensorError && occursin("ZeroDivisionError", e.message)
    x = requires_grad!(Tensor(Float64[1, 2, 3]))
    y = x ^ 2
    @test grad_fn_name(y) == "PowBackward0" && grad_fn_name(mod(x, 2.0)) == "RemainderBackward0"
    backward!(_sumall(y))
    @test Array(grad(x)) == [2.0, 4.0, 6.0]
    z = Tensor(ComplexF32[1 + 2im, 0.5 - 1im])        # Python: z ** 2, z ** (1 + 1j), (1 + 2j) ** z
    @test z ^ 2 isa Tensor{ComplexF32,1} && Array(z ^ 2)[1] == ComplexF32(-3 + 4im)
    @test Tensor(Float32[1, 2]) ^ (0.5 + 1im) isa Tensor{ComplexF32,1}   # a complex exponent: complex64
    @test Array(Tensor(Float64[4]) ^ (0.5 + 0im)) == ComplexF64[2]       # the sqrt shortcut, as torch
    @test isapprox(Array((1 + 2im) ^ z), (1 + 2im) .^ ComplexF32[1 + 2im, 0.5 - 1im]; rtol=1e-5)
end

@testset "std, var, norm: torch.std / var / var_mean / linalg.vector_norm" begin
    x = Tensor(Float64[1 2 3; 4 5 6])
    v = tensor_var(x)
    @test v isa Tensor{Float64,0} && v[] ≈ 3.5 && tensor_var(x; corrected = false)[] ≈ 17.5 / 6
    @test tensor_var(x; correction = 0.5)[] ≈ 17.5 / 5.5
    s = tensor_std(x; dims = 2)
    @test size(s) == (2, 1) && Array(s) ≈ reshape([1.0, 1.0], 2, 1)
    @test Statistics.var(x) ≈ Statistics.var(Float64[1 2 3; 4 5 6])       # a number, as for an Array
    @test Array(Statistics.std(x; dims = 1)) ≈ Statistics.std(Float64[1 2 3; 4 5 6]; dims = 1)
    @test Statistics.std(x; corrected = false) ≈ Statistics.std(Float64[1 2 3; 4 5 6]; corrected = false)
    sv, m = tensor_std_mean(x; dims = 1)
    @test Array(m) ≈ [2.5 3.5 4.5] && Array(sv) ≈ Statistics.std(Float64[1 2 3; 4 5 6]; dims = 1)
    @test isnan(tensor_var(Tensor(Float32[5]))[])                          # no degrees of freedom
    e = caught(() -> tensor_var(Tensor(Int64[1, 2])))
    @test e isa CTensorError && e.message == "std and var only support floating point and complex dtypes"
    @test_throws CTensorError tensor_var(x; dims = 3)
    @test LinearAlgebra.norm(x) ≈ LinearAlgebra.norm(Float64[1 2 3; 4 5 6])
    for p in (1, 2, 3, 0.5, Inf, -Inf, 0)
        @test LinearAlgebra.norm(x, p) ≈ LinearAlgebra.norm(Float64[1 2 3; 4 5 6], p)
    end
    @test size(tensor_norm(x, 2; dims = 1)) == (1, 3)
    g = requires_grad!(Tensor(Float64[3, 4]))
    n = tensor_norm(g)
    @test grad_fn_name(n) == "LinalgVectorNormBackward0" && n[] == 5.0
    backward!(n)
    @test Array(grad(g)) ≈ [0.6, 0.8]
    w = requires_grad!(Tensor(Float64[1, 2, 4, 0]))
    @test grad_fn_name(tensor_std(w)) == "StdBackward0"
    vw, mw = tensor_var_mean(w)
    @test grad_fn_name(vw) == "VarMeanBackward0" && grad_fn_name(mw) == "VarMeanBackward0"
    backward!(tensor_var(w))
    @test Array(grad(w)) ≈ (2 / 3) .* ([1, 2, 4, 0] .- 1.75)
end

@testset "cumsum, cumprod, sort, topk, clamp: torch.cumsum / sort / topk / clamp" begin
    x, _ = grid()                                          # x[i, j] == 4(i-1) + (j-1)
    c = tensor_cumsum(x, 2)
    @test c isa Tensor{Float32,2} && !shares_storage(c, x) && Array(c)[2, :] == cumsum(Float32[4, 5, 6, 7])
    @test Array(tensor_cumsum(x, 1)) == cumsum(Array(x); dims = 1)
    i = tensor_cumsum(Tensor(Int32[1, 2, 3]), 1)
    @test i isa Tensor{Int64,1} && Array(i) == [1, 3, 6]                 # ints promote to Int64
    @test Array(tensor_cumprod(Tensor(Float64[2, 0, 3]), 1)) == [2.0, 0.0, 0.0]
    @test tensor_cumsum(x, 1; dtype = Float64) isa Tensor{Float64,2}
    e = caught(() -> tensor_cumsum(x, 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    y = Tensor(Float32[1, 2, 3])
    v0 = L.ct_tensor_version(y)
    @test tensor_cumsum!(y, 1) === y && Array(y) == [1, 3, 6] && L.ct_tensor_version(y) == v0 + 1
    s, ix = tensor_sort(Tensor(Float32[3, NaN, 1, 3]))
    @test Array(s)[1:3] == [1, 3, 3] && isnan(Array(s)[4]) && Array(ix) == [2, 0, 3, 1]   # NaN largest, stable
    s, ix = tensor_sort(Tensor(Float32[3, NaN, 1, 3]); rev = true)
    @test isnan(Array(s)[1]) && Array(ix) == [1, 0, 3, 2]
    @test Array(tensor_argsort(x; dim = 1, rev = true))[:, 1] == [2, 1, 0]
    v, ix = tensor_topk(Tensor(Float64[5, 1, 4, 2]), 2)
    @test Array(v) == [5.0, 4.0] && Array(ix) == [0, 2]
    v, _ = tensor_topk(Tensor(Float64[5, 1, 4, 2]), 1; largest = false)
    @test Array(v) == [1.0]
    e = caught(() -> tensor_topk(Tensor(Float64[5, 1]), 3))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    k = tensor_clamp(Tensor(Int32[-3, 0, 7]); min = 0, max = 4)
    @test k isa Tensor{Int32,1} && Array(k) == [0, 0, 4]
    @test tensor_clamp(Tensor(Int32[-3, 0, 7]); min = 0.5) isa Tensor{Float32,1}  # a float bound promotes
    @test Array(tensor_clamp(Tensor(Float64[1, 5]); min = 3, max = 2)) == [2.0, 2.0]  # max wins
    @test Array(tensor_clamp(Tensor(Float64[1, 5]); max = Tensor(Float64[0, 9]))) == [0.0, 5.0]
    e = caught(() -> tensor_clamp(Tensor(Float64[1])))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    z = Tensor(Float64[-1, 2])
    @test tensor_clamp!(z; min = 0) === z && Array(z) == [0.0, 2.0]
    e = caught(() -> tensor_clamp!(Tensor(Int32[1]); min = 0.5))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE
end

@testset "complex tensors: view_as_real, view_as_complex, real, imag" begin
    z = tensor_zeros(ComplexF32, 2, 3)                # Python: torch.zeros(2, 3, dtype=torch.cfloat)
    @test z isa Tensor{ComplexF32,2} && CTensor.dtype_name(ComplexF32) == "complex64"
    z[1, 2] = 1f0 + 2f0im
    r = view_as_real(z)                               # Python: torch.view_as_real(z)
    @test r isa Tensor{Float32,3} && size(r) == (2, 3, 2) && strides(r) == (6, 2, 1)
    @test is_view(r) && shares_storage(r, z) && r[1, 2, 1] == 1f0 && r[1, 2, 2] == 2f0
    im_ = imag_view(z)                                # Python: z.imag
    @test size(im_) == (2, 3) && strides(im_) == (6, 2) && im_[1, 2] == 2f0
    v0 = CTensor.version(z)
    im_[2, 3] = 5f0                                   # a write through the part reaches z
    @test z[2, 3] == 5f0im && CTensor.version(z) == v0 + 1
    @test real_view(z)[1, 2] == 1f0
    x = tensor_ones(Float32, 3)
    @test real_view(x) === x
    e = caught(() -> imag_view(x))
    @test e isa CTensorError && e.status == L.CT_ERR_DTYPE &&
          e.message == "imag is not implemented for tensors with non-complex dtypes."
    c = view_as_complex(reshape_view(tensor_arange(Float64, 0, 6), 3, 2))
    @test c isa Tensor{ComplexF64,1} && c[2] == 2.0 + 3.0im
    e = caught(() -> view_as_complex(tensor_zeros(Float32, 3)))
    @test e isa CTensorError && e.message == "Tensor must have a last dimension of size 2"
end

@testset "conj views: the conjugate and negative bits" begin
    z = tensor_zeros(ComplexF32, 2)                   # Python: z = torch.zeros(2, dtype=torch.cfloat)
    z[1] = 1f0 + 2f0im
    z[2] = 3f0 - 4f0im
    c = conj_view(z)                                  # Python: c = z.conj()
    @test is_conj(c) && !is_conj(z) && is_view(c) && shares_storage(c, z)
    @test pointer(c) == pointer(z)                    # nothing copied
    @test c[1] == 1f0 - 2f0im && c[2] == 3f0 + 4f0im  # read conjugated
    @test Array(c) == ComplexF32[1 - 2im, 3 + 4im]
    im_ = imag_view(c)                                # Python: c.imag
    @test is_neg(im_) && !is_conj(im_) && im_[1] == -2f0
    v0 = CTensor.version(z)
    c[1] = 5f0 + 6f0im                                # a write through the conj view...
    @test z[1] == 5f0 - 6f0im                         # ...stores the conjugate in z
    @test CTensor.version(z) == v0 + 1
    r = resolve_conj(c)
    @test !is_conj(r) && !shares_storage(r, z) && r[2] == 3f0 + 4f0im
    @test resolve_conj(z) === z && conj_view(tensor_ones(Float32, 2)) isa Tensor{Float32,1}
    p = conj_physical(z)
    @test !is_conj(p) && p[2] == 3f0 + 4f0im
    conj_physical!(c)                                 # conjugates what c reads: z's bytes
    @test z[2] == 3f0 + 4f0im
    e = caught(() -> unsafe_wrap(Array, c))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    e = caught(() -> view_dtype(c, ComplexF32))
    @test e isa CTensorError && occursin("conjugate view tensors", e.message)
    m = tensor_zeros(ComplexF64, 2, 3)
    a = adjoint_view(m)                               # Python: m.mH
    @test is_conj(a) && size(a) == (3, 2)
    e = caught(() -> adjoint_view(tensor_zeros(ComplexF64, 3)))
    @test e isa CTensorError && e.status == L.CT_ERR_SHAPE
end

@testset "scatter_reduce: torch.scatter_reduce" begin
    x, root = grid()                          # x[i, j] == 4(i-1) + (j-1)
    src = Tensor(Float32[10 20; 30 40; 50 60])
    s = scatter_reduce_copy(x, 2, [2 2; 1 1; 4 3], src, :sum)
    @test !shares_storage(s, x) && size(s) == (3, 4)
    @test s[1, 2] == 1 + 10 + 20 && s[2, 1] == 4 + 30 + 40 && s[3, 4] == 11 + 50
    @test scatter_reduce_copy(x, 2, [2 2; 1 1; 4 3], src, :prod; include_self = false)[1, 2] == 200
    @test scatter_reduce_copy(x, 2, [2 2; 1 1; 4 3], src, :amax; include_self = false)[3, 3] == 60
    @test scatter_reduce_copy(x, 2, [2 2; 1 1; 4 3], src, :amin)[2, 1] == 4
    y = Tensor(zeros(Float32, 3, 4))
    @test scatter_reduce!(y, 1, [3 3 3 3], Tensor(ones(Float32, 1, 4)), :mean) === y && y[3, 4] == 0.5f0
    e = caught(() -> scatter_reduce_copy(x, 2, [5 1; 1 1; 1 1], src, :sum))
    @test e isa CTensorError && e.status == L.CT_ERR_INDEX
    e = caught(() -> scatter_reduce_copy(x, 2, [1 1; 1 1; 1 1], src, :max))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
end

@testset "safetensors: load_safetensors / save_safetensors (safetensors.torch)" begin
    dir = mktempdir()
    path = joinpath(dir, "m.safetensors")
    w = Tensor(Float32[1 2 3; 4 5 6])
    b = Tensor(Int64[7, 8])
    save_safetensors(path, Dict("w" => w, "b" => b, "wt" => transpose_view(w, 1, 2)); metadata = Dict("k" => "v"),
                     copy_shared = true)
    d = load_safetensors(path)
    @test sort(collect(keys(d))) == ["b", "w", "wt"]
    @test Array(d["w"]) == Array(w) && Array(d["b"]) == [7, 8] && Array(d["wt"]) == permutedims(Array(w))
    @test shares_storage(d["w"], d["b"])     # one mapped storage for the whole file
    @test safetensors_metadata(path) == Dict("k" => "v")
    d["w"][1, 1] = 100f0                      # copy-on-write: the file keeps its bytes
    @test load_safetensors(path)["w"][1, 1] == 1f0
    r = load_safetensors(path; mode = :read_only)
    e = caught(() -> fill!(r["w"], 0))
    @test e isa CTensorError && e.status == L.CT_ERR_READ_ONLY
    e = caught(() -> save_safetensors(path, Dict("a" => w, "b" => w)))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT
    bad = joinpath(dir, "bad.safetensors")
    write(bad, UInt8[4, 0, 0, 0, 0, 0, 0, 0, UInt8('{'), UInt8('}')])
    e = caught(() -> load_safetensors(bad))
    @test e isa CTensorError && occursin(bad, e.message)
    s = storage_from_file(path; offset = 8, nbytes = 4)
    @test nbytes(s) == 4
    @test_throws ArgumentError load_safetensors(path; mode = :write)
end

@testset "PyTorch checkpoints: load_torch (torch.load(weights_only=True))" begin
    # test/data/tied.pt: torch.save({"enc": {"w": w, "wt": w.t()}, "head": w, "layers": [tensor([7, 8])],
    #                                "n": 5, "lr": 0.5, "name": "tied\"x", "flag": True, "none": None})
    # with w = arange(6, dtype=float32).reshape(2, 3)
    path = joinpath(@__DIR__, "data", "tied.pt")
    for mode in (:copy, :copy_on_write, :read_only)
        d = load_torch(path; mode = mode)
        @test sort(collect(keys(d))) == ["enc.w", "enc.wt", "flag", "head", "layers.0", "lr", "n", "name", "none"]
        @test Array(d["enc.w"]) == Float32[0 1 2; 3 4 5]
        @test Array(d["enc.wt"]) == Float32[0 3; 1 4; 2 5]
        @test shares_storage(d["enc.w"], d["enc.wt"])   # a view stays a view of the same storage
        @test d["head"] === d["enc.w"]                  # one object saved twice
        @test !shares_storage(d["enc.w"], d["layers.0"])
        @test Array(d["layers.0"]) == [7, 8]
        @test d["n"] === 5 && d["lr"] === 0.5 && d["name"] == "tied\"x" && d["flag"] === true && d["none"] === nothing
    end
    r = load_torch(path; mode = :read_only)
    e = caught(() -> fill!(r["enc.w"], 0))
    @test e isa CTensorError && e.status == L.CT_ERR_READ_ONLY
    bad = joinpath(mktempdir(), "bad.pt")
    write(bad, read(path)[1:100])
    e = caught(() -> load_torch(bad))
    @test e isa CTensorError && e.status == L.CT_ERR_INVALID_ARGUMENT && occursin(bad, e.message)
    @test_throws ArgumentError load_torch(path; mode = :write)
    out = joinpath(mktempdir(), "out.pt")
    save_torch(out, Dict("w" => d["enc.w"], "wt" => d["enc.wt"], "head" => d["enc.w"], "l" => d["layers.0"]))
    d2 = load_torch(out)
    @test Array(d2["wt"]) == Float32[0 3; 1 4; 2 5]
    @test shares_storage(d2["w"], d2["wt"]) && d2["head"] === d2["w"]
    @test !shares_storage(d2["w"], d2["l"]) && Array(d2["l"]) == [7, 8]
end

@testset "Aqua.jl" begin
    Aqua.test_all(CTensor; ambiguities = (recursive = false,))
end

end # @testset "CTensor"
