"""Names Julia exports, for julia_check.py's name-resolution pass (no Julia runtime here).

BASE_EXPORTS and CORE_EXPORTS: what `names(Base)` and `names(Core)` list on Julia 1.10 / 1.11
(base/exports.jl and the export list of base/boot.jl, with the names of either version: a
superset is what a clash check needs).  STDLIB_EXPORTS: the exports of the standard libraries
(and of the two test dependencies, Aqua.jl and BFloat16s.jl), for the clash check and for
resolving `using M` in the README, the tests and the examples.  Macros are spelled with `@`.
"""

BASE_EXPORTS = frozenset("""
    Meta StackTraces Sys Libc Docs Threads Iterators Broadcast MathConstants
    AbstractChannel AbstractIrrational AbstractMatrix AbstractRange AbstractSet
    AbstractSlices AbstractUnitRange AbstractVector AbstractVecOrMat Array AbstractMatch
    AbstractPattern AbstractDict BigFloat BigInt BitArray BitMatrix BitVector
    CartesianIndex CartesianIndices LinearIndices Channel Cmd Colon Complex ComplexF64
    ComplexF32 ComplexF16 ComposedFunction ColumnSlices DenseMatrix DenseVecOrMat
    DenseVector Dict Dims Enum ExponentialBackOff IndexCartesian IndexLinear IndexStyle
    InsertionSort BitSet IOBuffer IOStream LinRange Irrational LazyString Matrix MergeSort
    Missing NTuple IdDict OrdinalRange Pair PartialQuickSort PermutedDimsArray QuickSort
    Rational Regex RegexMatch Returns RoundFromZero RoundDown RoundingMode RoundNearest
    RoundNearestTiesAway RoundNearestTiesUp RoundToZero RoundUp RowSlices Set Some Slices
    StepRange StepRangeLen StridedArray StridedMatrix StridedVecOrMat StridedVector
    SubArray SubString SubstitutionString Timer UnitRange Val VecOrMat Vector VersionNumber
    WeakKeyDict Cchar Cdouble Cfloat Cint Cintmax_t Clong Clonglong Cptrdiff_t Cshort
    Csize_t Cssize_t Cuchar Cuint Cuintmax_t Culong Culonglong Cushort Cwchar_t Cstring
    Cwstring CanonicalIndexError CapturedException CompositeException DimensionMismatch
    EOFError InvalidStateException KeyError MissingException ProcessFailedException
    TaskFailedException SystemError StringIndexError ARGS C_NULL DEPOT_PATH ENDIAN_BOM ENV
    LOAD_PATH PROGRAM_FILE stderr stdin stdout VERSION devnull Inf Inf16 Inf32 Inf64 NaN
    NaN16 NaN32 NaN64 im π pi ℯ xor nand nor @evalpoly evalpoly abs abs2 acos acosd acosh
    acot acotd acoth acsc acscd acsch angle asec asecd asech asin asind asinh atan atand
    atanh big binomial bitreverse bitrotate bswap cbrt fourthroot ceil cis cispi clamp cld
    cmp complex conj copysign cos cosc cosd cosh cospi cot cotd coth count_ones count_zeros
    csc cscd csch deg2rad denominator div divrem eps exp exp10 exp2 expm1 exponent
    factorial fld fld1 fldmod fldmod1 flipsign float tryparse floor fma frexp gcd gcdx
    hypot imag inv invmod isapprox iseven isfinite isinf isinteger isnan isodd ispow2 isqrt
    isreal issubnormal iszero isone lcm ldexp leading_ones leading_zeros log log10 log1p
    log2 maxintfloat mod mod1 modf mod2pi muladd nextfloat nextpow nextprod numerator one
    oneunit powermod prevfloat prevpow rad2deg rationalize real floatmax floatmin reim
    reinterpret rem rem2pi round sec secd sech sign signbit signed significand sin sinc
    sincos sincosd sincospi sind sinh sinpi sqrt tan tand tanh tanpi trailing_ones
    trailing_zeros trunc unsafe_trunc typemax typemin unsigned widemul zero axes broadcast!
    broadcast cat checkbounds checkindex circcopy! circshift circshift! clamp! conj! copy!
    copyto! diff cumprod cumprod! cumsum cumsum! accumulate accumulate! eachcol eachindex
    eachrow eachslice extrema! extrema fill! fill first hcat hvcat hvncat indexin argmax
    argmin invperm invpermute! isassigned isperm issorted last mapslices max maximum!
    maximum min minimum! minimum minmax ndims ones parent parentindices partialsort
    partialsort! partialsortperm partialsortperm! permute! permutedims permutedims! prod!
    prod promote_shape range reshape reverse! reverse rot180 rotl90 rotr90 size selectdim
    sort! sort sortperm sortperm! sortslices dropdims stack step stride strides sum! sum
    to_indices vcat vec view zeros contains eachmatch endswith findall findfirst findlast
    findmax findmin findmin! findmax! findnext findprev match occursin searchsorted
    searchsortedfirst searchsortedlast insorted startswith adjoint transpose kron kron!
    falses trues append! insert! pop! popat! prepend! push! resize! popfirst! pushfirst!
    all! all allequal allunique any! any firstindex collect count! count delete! deleteat!
    keepat! eltype empty! empty lastindex filter! filter foldl foldr foreach get get!
    getindex getkey haskey in intersect! intersect isdisjoint isempty issubset issetequal
    keys keytype length map! map mapfoldl mapfoldr mapreduce merge! mergewith! merge
    mergewith pairs reduce setdiff! setdiff setindex! similar sizehint! splice! symdiff!
    symdiff union! union unique! unique values valtype ∈ ∉ ∋ ∌ ⊆ ⊈ ⊊ ⊇ ⊉ ⊋ ∩ ∪ ascii
    bitstring bytes2hex chomp chop chopprefix chopsuffix codepoint codeunit codeunits
    digits digits! eachsplit eachrsplit escape_string hex2bytes hex2bytes! isascii iscntrl
    isdigit isletter islowercase isnumeric isprint ispunct isspace isuppercase isxdigit
    lowercase lowercasefirst isvalid join lpad lstrip ncodeunits ndigits nextind prevind
    repeat replace replace! repr reverseind rpad rsplit rstrip split string strip textwidth
    thisind titlecase transcode unescape_string uppercase uppercasefirst IOContext
    displaysize dump print println printstyled show showerror sprint summary with @with
    ScopedValue @debug @info @warn @error precision rounding setprecision setrounding
    get_zero_subnormals set_zero_subnormals iterate enumerate zip only copy deepcopy hash
    identity isbits isequal ismutable ismutabletype isless isunordered ifelse objectid
    sizeof Condition current_task islocked istaskdone istaskstarted istaskfailed lock @lock
    notify ReentrantLock schedule task_local_storage trylock unlock yield yieldto wait
    timedwait asyncmap asyncmap! errormonitor take! put! isready fetch bind coalesce
    @coalesce ismissing missing skipmissing @something something isnothing nonmissingtype
    sleep time time_ns backtrace catch_backtrace current_exceptions error rethrow retry
    systemerror stacktrace convert getproperty setproperty! swapproperty! modifyproperty!
    replaceproperty! fieldoffset fieldname fieldnames fieldcount fieldtypes hasfield
    propertynames hasproperty isabstracttype isbitstype isprimitivetype isstructtype
    isconcretetype isdispatchtuple oftype promote promote_rule promote_type instances
    supertype typeintersect typejoin widen esc gensym @kwdef macroexpand @macroexpand1
    @macroexpand parse code_typed code_lowered fullname functionloc isconst isinteractive
    hasmethod methods nameof parentmodule pathof pkgdir pkgversion names which @isdefined
    @invoke invokelatest @invokelatest __precompile__ evalfile include_string
    include_dependency GC finalizer finalize precompile atexit atreplinit exit ntuple splat
    close closewrite countlines eachline readeach eof fd fdio flush gethostname htol hton
    ismarked isopen isreadonly ltoh mark bytesavailable ntoh open peek pipeline Pipe
    PipeBuffer position RawFD read read! readavailable readbytes! readchomp readdir
    readline readlines readuntil copyuntil copyline redirect_stdio redirect_stderr
    redirect_stdin redirect_stdout reset seek seekend seekstart skip skipchars truncate
    unmark unsafe_read unsafe_write write AbstractDisplay display displayable TextDisplay
    istextmime MIME @MIME_str popdisplay pushdisplay redisplay showable HTML Text abspath
    basename dirname expanduser contractuser homedir isabspath isdirpath joinpath normpath
    realpath relpath splitdir splitdrive splitext splitpath cd chmod chown cp ctime
    diskstat download filemode filesize gperm hardlink isblockdev ischardev isdir isfifo
    isfile islink ismount ispath isreadable issetgid issetuid issocket issticky iswritable
    lstat mkdir mkpath mktemp mktempdir mtime mv operm pwd readlink rm samefile stat
    symlink tempdir tempname touch uperm walkdir detach getpid ignorestatus kill
    process_exited process_running run setenv addenv setcpuaffinity success withenv
    @cfunction @ccall cglobal disable_sigint pointer pointer_from_objref unsafe_wrap
    unsafe_string reenable_sigint unsafe_copyto! unsafe_load unsafe_modify!
    unsafe_pointer_to_objref unsafe_replace! unsafe_store! unsafe_swap! rand randn
    @__FILE__ @__DIR__ @__LINE__ @__MODULE__ @int128_str @uint128_str @big_str @cmd @b_str
    @r_str @s_str @v_str @raw_str @NamedTuple @Kwargs @lazy_str @text_str @html_str @doc
    @show @time @showtime @timed @timev @elapsed @allocated @allocations @sync @async @task
    @threadcall @generated @gensym @eval @deprecate @boundscheck @inbounds @fastmath @simd
    @inline @noinline @nospecialize @specialize @polly @assert @atomic @atomicswap
    @atomicreplace @__dot__ @enum @label @goto @view @views @static @main Memory MemoryRef
    memoryref AtomicMemory
""".split())

CORE_EXPORTS = frozenset("""
    Any DataType Vararg NTuple Tuple Type UnionAll TypeVar Union Nothing Cvoid
    AbstractArray DenseArray NamedTuple Pair Function Method Module Symbol Task Array
    UndefInitializer undef WeakRef VecElement Number Real Integer Bool Ref Ptr
    AbstractFloat Float16 Float32 Float64 Signed Int Int8 Int16 Int32 Int64 Int128 Unsigned
    UInt UInt8 UInt16 UInt32 UInt64 UInt128 AbstractChar Char AbstractString String IO
    ErrorException BoundsError DivideError DomainError Exception InterruptException
    InexactError OutOfMemoryError ReadOnlyMemoryError OverflowError StackOverflowError
    SegmentationFault UndefRefError UndefVarError TypeError ArgumentError MethodError
    AssertionError LoadError InitError UndefKeywordError ConcurrencyViolationError Expr
    QuoteNode LineNumberNode GlobalRef fieldtype getfield setfield! swapfield! modifyfield!
    replacefield! nfields throw tuple === isdefined eval getglobal setglobal! <: typeof isa
    typeassert applicable invoke nothing Main
""".split())

STDLIB_EXPORTS = {
    "LinearAlgebra": frozenset("""
        BLAS LAPACK Adjoint Bidiagonal BunchKaufman Cholesky CholeskyPivoted ColumnNorm
        Diagonal Eigen Factorization GeneralizedEigen GeneralizedSVD GeneralizedSchur
        Hermitian Hessenberg LDLt LQ LU LowerTriangular NoPivot QR QRPivoted RowMaximum
        RowNonZero SVD Schur SymTridiagonal Symmetric Transpose Tridiagonal UniformScaling
        UnitLowerTriangular UnitUpperTriangular UpperHessenberg UpperTriangular adjoint!
        axpby! axpy! bunchkaufman! bunchkaufman cholesky! cholesky cond condskeel
        copy_adjoint! copy_transpose! copytrito! cross det diag diagind diagm diagview dot
        eigen! eigen eigmax eigmin eigvals! eigvals eigvecs factorize givens hermitianpart!
        hermitianpart hessenberg! hessenberg isdiag ishermitian isposdef! isposdef
        issuccess issymmetric istril istriu ldiv! ldlt! ldlt lmul! logabsdet logdet
        lowrankdowndate! lowrankdowndate lowrankupdate! lowrankupdate lq! lq lu! lu lyap
        mul! norm normalize! normalize nullspace opnorm ordschur! ordschur pinv qr! qr rank
        rdiv! reflect! rmul! rotate! schur! schur svd! svd svdvals! svdvals sylvester tr
        transpose! tril! tril triu! triu I ⋅ × peakflops
    """.split()),
    "Test": frozenset("""
        @testset @test @test_throws @test_broken @test_skip @test_warn @test_nowarn
        @test_logs @test_deprecated @inferred detect_ambiguities detect_unbound_args
        GenericString GenericSet GenericDict GenericArray GenericOrder TestSetException
    """.split()),
    "Serialization": frozenset("""
        serialize deserialize AbstractSerializer Serializer
    """.split()),
    "Libdl": frozenset("""
        dlopen dlopen_e dlsym dlsym_e dlclose dlext dllist dlpath find_library
        RTLD_DEEPBIND RTLD_FIRST RTLD_GLOBAL RTLD_LAZY RTLD_LOCAL RTLD_NODELETE RTLD_NOLOAD
        RTLD_NOW
    """.split()),
    "Random": frozenset("""
        rand! randn! randexp randexp! bitrand randstring randsubseq randsubseq! shuffle
        shuffle! randperm randperm! randcycle randcycle! AbstractRNG MersenneTwister
        RandomDevice TaskLocalRNG Xoshiro
    """.split()),
    "Statistics": frozenset("""
        cor cov std stdm var varm mean! mean median! median middle quantile! quantile
    """.split()),
    "Printf": frozenset("""
        @printf @sprintf
    """.split()),
    "InteractiveUtils": frozenset("""
        apropos edit less code_warntype code_llvm code_native methodswith varinfo
        versioninfo subtypes supertypes @which @edit @less @functionloc @code_warntype
        @code_typed @code_lowered @code_llvm @code_native clipboard
    """.split()),
    "Dates": frozenset("""
        Period DatePeriod TimePeriod Year Quarter Month Week Day Hour Minute Second
        Millisecond Microsecond Nanosecond TimeZone UTC TimeType DateTime Date Time
        CompoundPeriod DateFormat @dateformat_str year month week day hour minute second
        millisecond microsecond nanosecond quarterofyear dayofquarter yearmonthday
        yearmonth monthday dayofweek dayname dayabbr monthname monthabbr daysinmonth
        daysinyear isleapyear dayofyear dayofmonth dayofweekofmonth daysofweekinmonth
        firstdayofweek lastdayofweek firstdayofmonth lastdayofmonth firstdayofyear
        lastdayofyear firstdayofquarter lastdayofquarter tonext toprev tofirst tolast now
        today unix2datetime datetime2unix rata2datetime datetime2rata julian2datetime
        datetime2julian canonicalize adjust
    """.split()),
    "SparseArrays": frozenset("""
        AbstractSparseArray AbstractSparseMatrix AbstractSparseVector SparseMatrixCSC
        SparseVector blockdiag droptol! dropzeros! dropzeros issparse nonzeros nzrange
        rowvals sparse sparsevec spdiagm sprand sprandn spzeros nnz findnz permute spzeros!
    """.split()),
    "Distributed": frozenset("""
        addprocs nprocs nworkers workers myid procs rmprocs remotecall remotecall_fetch
        remotecall_wait remote_do @spawnat @distributed @everywhere @fetch @fetchfrom pmap
        RemoteChannel Future WorkerPool CachingPool AbstractWorkerPool default_worker_pool
        interrupt clear! process_messages init_worker launch manage kill check_same_host
        ClusterManager WorkerConfig cluster_cookie remoteref_id channel_from_id
        worker_id_from_socket redirect_worker_output start_worker
    """.split()),
    "Logging": frozenset("""
        @logmsg LogLevel Debug Info Warn Error BelowMinLevel AboveMaxLevel AbstractLogger
        NullLogger ConsoleLogger SimpleLogger current_logger global_logger with_logger
        disable_logging min_enabled_level shouldlog handle_message catch_exceptions
    """.split()),
    "Sockets": frozenset("""
        connect listen accept IPv4 IPv6 @ip_str getaddrinfo getalladdrinfo getnameinfo
        getipaddr getipaddrs islinklocaladdr getpeername getsockname listenany recv
        recvfrom send join_multicast_group leave_multicast_group TCPSocket UDPSocket IPAddr
        DNSError
    """.split()),
    "UUIDs": frozenset("""
        uuid1 uuid4 uuid5 uuid_version UUID
    """.split()),
    "Base64": frozenset("""
        base64encode base64decode Base64EncodePipe Base64DecodePipe stringmime
    """.split()),
    "SharedArrays": frozenset("""
        SharedArray SharedMatrix SharedVector indexpids localindices sdata
    """.split()),
    "Profile": frozenset("""
        @profile
    """.split()),
    "DelimitedFiles": frozenset("""
        readdlm writedlm
    """.split()),
    "Downloads": frozenset("""
        download request
    """.split()),
    "FileWatching": frozenset("""
        watch_file watch_folder unwatch_folder poll_fd poll_file FileMonitor FolderMonitor
        PollingFileWatcher FDWatcher
    """.split()),
    "Markdown": frozenset("""
        @md_str @doc_str html latex
    """.split()),
    "Pkg": frozenset("""
        @pkg_str PackageSpec PackageMode UpgradeLevel PKGMODE_PROJECT PKGMODE_MANIFEST
        UPLEVEL_MAJOR UPLEVEL_MINOR UPLEVEL_PATCH UPLEVEL_FIXED
    """.split()),
    "Aqua": frozenset("""
    """.split()),
    "BFloat16s": frozenset("""
        BFloat16 LowPrecArray ExpandingArray
    """.split()),
}

# Names too generic for a package to export (issue 22): public, not exported.
GENERIC_NAMES = frozenset("base version storage clone grad data value handle gradient params".split())


def clash_names():
    """Every name Base, Core or a library above exports: no exported name of the package may be one."""
    out = set(BASE_EXPORTS) | set(CORE_EXPORTS)
    for names in STDLIB_EXPORTS.values():
        out |= names
    return out
