// The strided copy engine: planning (Note [Copy plan] in copy_kernels.h), element loops with
// dtype conversion, the SIMD transpose tiles, and the split across threads.
#include "copy_kernels.h"

#include "omp_compat.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define CT_COPY_X86 1
#else
#define CT_COPY_X86 0
#endif

namespace ct::kernels {
namespace {

constexpr int64_t kLine = 64;  // cache line bytes: the transpose tiles are one line wide

std::atomic<int64_t> g_grain{0};
std::atomic<int64_t> g_streaming{0};
std::atomic<int> g_isa{-1};


inline int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

// ---- element loops ----------------------------------------------------------------------
//
// Every loop has the same signature so that the n-d walker and the 2-d tiler can drive any
// of them: n elements, dst advancing by ds bytes, src by ss bytes.  Loads and stores go
// through memcpy (one mov each): foreign memory may be misaligned for its dtype.

using InnerFn = void (*)(char* d, int64_t ds, const char* s, int64_t ss, int64_t n);

template <class T>
inline T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void store(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Same dtype: moves the bytes (a bool byte other than 0/1 is copied as is, as memcpy would).
template <class U>
void move_loop(char* __restrict d, int64_t ds, const char* __restrict s, int64_t ss, int64_t n) {
  constexpr int64_t w = sizeof(U);
  if (ds == w && ss == w) {
    std::memcpy(d, s, size_t(n * w));
  } else if (ss == 0) {
    const U v = load<U>(s);
    if (ds == w) {
      for (int64_t i = 0; i < n; ++i) store<U>(d + i * w, v);
    } else {
      for (int64_t i = 0; i < n; ++i) store<U>(d + i * ds, v);
    }
  } else if (ds == w) {
    for (int64_t i = 0; i < n; ++i) store<U>(d + i * w, load<U>(s + i * ss));
  } else {
    for (int64_t i = 0; i < n; ++i) store<U>(d + i * ds, load<U>(s + i * ss));
  }
}

// A bool read from memory is any non-zero byte (reading it as C++ bool would be UB).
template <class From>
inline From load_value(const char* p) {
  if constexpr (std::is_same_v<From, bool>) {
    return load<uint8_t>(p) != 0;
  } else {
    return load<From>(p);
  }
}

#if CT_COPY_X86
// float32 -> float16 with the F16C instruction: round to nearest even, NaN kept quiet with
// its payload truncated, overflow to inf; bit for bit what float_to_half_bits computes
// (checked for all 2^32 inputs).
// (The other direction is not used: vcvtph2ps quiets signaling NaNs, half.h keeps them.)
__attribute__((target("avx,f16c"))) void float_to_half_f16c(char* d, const char* s, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(reinterpret_cast<const float*>(s + i * 4));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i * 2), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; i < n; ++i) store<Half>(d + i * 2, Half(load<float>(s + i * 4)));
}

bool have_f16c() {
  static const bool yes = [] {
    // F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports has no "f16c".
    unsigned a = 0, b = 0, c = 0, d = 0;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && f16c;
  }();
  return yes;
}
#endif

template <class To, class From>
void convert_loop(char* __restrict d, int64_t ds, const char* __restrict s, int64_t ss, int64_t n) {
  constexpr int64_t wd = sizeof(To), ws = sizeof(From);
#if CT_COPY_X86
  if constexpr (std::is_same_v<To, Half> && std::is_same_v<From, float>) {
    if (ds == wd && ss == ws && have_f16c() && active_isa() >= Isa::Avx2) {
      float_to_half_f16c(d, s, n);
      return;
    }
  }
#endif
  if (ds == wd && ss == ws) {
    for (int64_t i = 0; i < n; ++i) store<To>(d + i * wd, convert<To>(load_value<From>(s + i * ws)));
  } else if (ss == 0) {
    const To v = convert<To>(load_value<From>(s));
    for (int64_t i = 0; i < n; ++i) store<To>(d + i * ds, v);
  } else if (ds == wd) {
    for (int64_t i = 0; i < n; ++i) store<To>(d + i * wd, convert<To>(load_value<From>(s + i * ss)));
  } else {
    for (int64_t i = 0; i < n; ++i) store<To>(d + i * ds, convert<To>(load_value<From>(s + i * ss)));
  }
}

InnerFn move_fn(int64_t width) {
  switch (width) {
    case 1: return &move_loop<uint8_t>;
    case 2: return &move_loop<uint16_t>;
    case 4: return &move_loop<uint32_t>;
    case 8: return &move_loop<uint64_t>;
    case 16: return &move_loop<Bytes16>;
  }
  CT_FAIL(Internal, "copy: no element loop for width " << width);
}

template <class To>
InnerFn convert_fn_to(DType from) {
  return CT_DISPATCH_WITH_COMPLEX(from, [&]() -> InnerFn { return &convert_loop<To, scalar_t>; });
}

// A copy whose bytes cannot simply move: a conversion, or bool -> bool writing 0/1.
bool moves_bytes(const CopyArgs& a) {
  return a.dst_dtype == a.src_dtype && !(a.normalize_bool && a.dst_dtype == DType::Bool);
}

InnerFn element_fn(const CopyArgs& a) {
  const DType to = a.dst_dtype, from = a.src_dtype;
  if (moves_bytes(a)) return move_fn(itemsize(to));
  return CT_DISPATCH_WITH_COMPLEX(to, [&]() -> InnerFn { return convert_fn_to<scalar_t>(from); });
}

// ---- threads ------------------------------------------------------------------------------

// Chunks per thread: enough that a thread the OS delays (this library shares machines)
// leaves most of its share to the others, few enough that claiming one costs nothing.
constexpr int64_t kChunksPerThread = 4;

// Runs f(begin, end) over [0, total) items, cut into chunks that are whole multiples of
// `align` items (except the last).  With several threads the chunks are claimed
// dynamically; each item is processed exactly once by whoever claims its chunk, so results
// do not depend on the thread count or on scheduling.
template <class F>
void parallel_chunks(int nthreads, int64_t total, int64_t align, F&& f) {
  if (total <= 0) return;
  if (nthreads <= 1) {
    f(int64_t(0), total);
    return;
  }
  const int64_t units = (total + align - 1) / align;
  const int64_t nchunks = std::min<int64_t>(units, int64_t(nthreads) * kChunksPerThread);
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
  for (int64_t k = 0; k < nchunks; ++k) {
    const int64_t b = std::min(total, units * k / nchunks * align);
    const int64_t e = std::min(total, units * (k + 1) / nchunks * align);
    if (b < e) f(b, e);
  }
}

inline void store_fence() {
#if CT_COPY_X86
  _mm_sfence();
#endif
}

// ---- the n-d walker -----------------------------------------------------------------------

// Runs fn over the linear index range [begin, end) of dims (outermost first, strides in
// bytes), one call per stretch along the innermost dim.  ndim == 0 is one element.
void walk(int ndim, const int64_t* size, const int64_t* ds, const int64_t* ss, char* d, const char* s,
          int64_t begin, int64_t end, InnerFn fn) {
  if (begin >= end) return;
  if (ndim == 0) {
    fn(d, 0, s, 0, 1);
    return;
  }
  int64_t idx[kMaxDims];
  int64_t od = 0, os = 0;
  int64_t rem = begin;
  for (int k = ndim - 1; k >= 0; --k) {
    idx[k] = rem % size[k];
    rem /= size[k];
    od += idx[k] * ds[k];
    os += idx[k] * ss[k];
  }
  const int in = ndim - 1;
  int64_t left = end - begin;
  for (;;) {
    const int64_t run = std::min(size[in] - idx[in], left);
    fn(d + od, ds[in], s + os, ss[in], run);
    left -= run;
    if (left == 0) return;
    // The inner dim is finished: back to its start, then carry into the outer dims.
    od -= idx[in] * ds[in];
    os -= idx[in] * ss[in];
    idx[in] = 0;
    for (int k = in - 1; k >= 0; --k) {
      if (++idx[k] < size[k]) {
        od += ds[k];
        os += ss[k];
        break;
      }
      od -= (size[k] - 1) * ds[k];
      os -= (size[k] - 1) * ss[k];
      idx[k] = 0;
    }
  }
}

// Offsets of outer index `i` over the dims listed in `dims` (outermost first).
inline void outer_offsets(int64_t i, int nouter, const int* dims, const CopyPlan& p, int64_t* od, int64_t* os) {
  int64_t d = 0, s = 0;
  for (int k = nouter - 1; k >= 0; --k) {
    const int dim = dims[k];
    const int64_t v = i % p.sizes[dim];
    i /= p.sizes[dim];
    d += v * p.dst_strides[dim];
    s += v * p.src_strides[dim];
  }
  *od = d;
  *os = s;
}

// ---- SIMD transpose tiles -----------------------------------------------------------------
//
// Note [Transpose tiles]
// Geometry: dst(x, y) = src(x, y) with dst unit stride along x and src unit stride along y;
// sx = src stride of x and dy = dst stride of y, in bytes.  A tile is L x L elements,
// L = 64 / width, so that it reads L whole src lines (one per x) and writes L whole dst lines
// (one per y).  Writing whole lines matters twice: rows of a big matrix are often a multiple
// of 4 KiB apart and map onto the same cache sets, so a line must be finished before the
// next row is touched; and streaming stores only pay off when a write-combining buffer is
// filled completely at once.
//
// A strip covers yt * L rows y and runs along x: at each x step it transposes the yt tiles
// stacked in y, so it reads yt consecutive lines of each of L src rows (DRAM pages and the
// hardware prefetchers like runs much better than single lines 16 KiB apart), and it
// prefetches the lines of the next x step.  One call per strip keeps the dispatch out of
// the inner loop.
//
// Register-level transposes work on 16-byte sub-tiles of S = 16 / width rows, with log2(S)
// rounds of unpacklo/unpackhi of rows i and i + S/2 (each round rotates the bits of the
// (row, col) index by one; log2(S) rounds swap them).  256- and 512-bit registers hold 2 or 4
// independent sub-tiles side by side, one per 128-bit lane, so the same rounds transpose them
// all.  Sub-tiles go to an L1 buffer and each buffer line is then stored (or streamed) whole.
// On AVX-512, 4-byte tiles are transposed entirely in 16 registers and stored directly.

using StripFn = void (*)(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt);

// Tiles stacked in y per strip (Note [Transpose tiles]).  Measured on the 2-core Zen 5 VM,
// 4096 x 4096 float32 transposed into a reused buffer with streaming stores: 2 threads,
// 1 -> 3.9 ms, 4 -> 3.8 ms, 8 -> 3.4 ms, 8 with the prefetch -> 2.5 ms (memcpy: 3.3 ms);
// 1 thread, 1 -> 6.5 ms, 4 or 8 with the prefetch -> 4.3-5.1 ms.
// Issue 26 (2026-11-27, docs/performance.md): 16 tiles, in groups of kGroupTiles x steps
// with the prefetches into L2 rather than L1, took the worst 3-D/4-D permutation from 0.32
// to 0.74-0.78 of memcpy on one thread, and the 2-D transposes from about 0.7 to 1.0.
constexpr int kStripTiles = 16;

// x steps per group.  A strip walks its tiles group by group, y inside x-in-group, so each
// dst row receives kGroupTiles consecutive lines per visit instead of one (scattered single
// lines 64 KiB apart were what kept the 3-D (n, 256, 256) copies at a third of memcpy), while
// the next group's src lines are prefetched into L2 a few per tile, in address order.  L1 is
// the wrong target: src rows a power of two apart (32 KiB in NCHW -> NHWC) share a handful
// of L1 sets, and the prefetched lines evicted each other before use.
constexpr int kGroupTiles = 4;

// Prefetches lines [first, first + count) of a block of src rows yt lines long, numbered
// row by row (so a block is fetched in address order, a run of yt lines per row).
inline void prefetch_lines(const char* s, int64_t sx, int yt, int64_t first, int64_t count) {
#if CT_COPY_X86
  for (int64_t i = first; i < first + count; ++i) _mm_prefetch(s + (i / yt) * sx + (i % yt) * kLine, _MM_HINT_T1);
#else
  (void)s, (void)sx, (void)yt, (void)first, (void)count;
#endif
}

// The loop shared by every strip: tile(src of tile, dst of tile) for each of the ntiles x
// steps and each of the yt tiles in y, each tile prefetching L src lines of what comes next
// (spread over the tiles rather than all at once: a burst of hundreds of prefetches stalls
// the loads that the current tile needs), into L2 (kGroupTiles):
//   more than kGroupTiles x steps: groups of kGroupTiles steps, y inside x-in-group, each
//     group prefetching the next group, the last one the first group of the next strip in y;
//   one or two x steps (NCHW -> NHWC with few channels: dst rows of one or two lines): the
//     next strip in y (src + yt lines), which is what the caller's next work unit usually
//     reads; otherwise each such strip would start cold, on L src lines 2^k bytes apart;
//   otherwise: x step by x step, each prefetching the next one.
// (A prefetch past the end of src is harmless: prefetches never fault.)
#define CT_STRIP_LOOP(L, TILE)                                                          \
  if (ntiles > kGroupTiles) {                                                           \
    for (int64_t g = 0; g < ntiles; g += kGroupTiles) {                                 \
      const int64_t gn = std::min<int64_t>(kGroupTiles, ntiles - g);                    \
      const bool last = g + gn == ntiles;                                               \
      const int64_t nn = last ? std::min<int64_t>(kGroupTiles, ntiles)                  \
                              : std::min<int64_t>(kGroupTiles, ntiles - g - gn);        \
      const char* next = last ? s + yt * kLine : s + (g + gn) * (L) * sx;               \
      int64_t k = 0;                                                                    \
      for (int q = 0; q < yt; ++q) {                                                    \
        for (int64_t t = g; t < g + gn; ++t, ++k) {                                     \
          if (pf && nn > 0) prefetch_lines(next, sx, yt, k * nn * (L) / gn, nn * (L) / gn); \
          TILE(s + t * (L) * sx + q * kLine, d + t * kLine + q * (L) * dy);             \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
  } else if (ntiles <= 2) {                                                             \
    for (int64_t t = 0, k = 0; t < ntiles; ++t) {                                       \
      for (int q = 0; q < yt; ++q, ++k) {                                               \
        if (pf) prefetch_lines(s + yt * kLine, sx, yt, k * (L), (L));                   \
        TILE(s + t * (L) * sx + q * kLine, d + t * kLine + q * (L) * dy);               \
      }                                                                                 \
    }                                                                                   \
  } else {                                                                              \
    for (int64_t t = 0; t < ntiles; ++t) {                                              \
      const char* st = s + t * (L) * sx;                                                \
      char* dt = d + t * kLine;                                                         \
      for (int q = 0; q < yt; ++q) {                                                    \
        if (pf && t + 1 < ntiles) prefetch_lines(st + (L) * sx, sx, yt, q * (L), (L));  \
        TILE(st + q * kLine, dt + q * (L) * dy);                                        \
      }                                                                                 \
    }                                                                                   \
  }

template <int W>
void strip_scalar(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool) {
  constexpr int L = int(kLine / W);
  using U = std::conditional_t<W == 1, uint8_t, std::conditional_t<W == 2, uint16_t, std::conditional_t<W == 4, uint32_t, uint64_t>>>;
  const bool pf = false;
  auto tile = [&](const char* ts, char* td) {
    for (int y = 0; y < L; ++y) {
      for (int x = 0; x < L; ++x) store<U>(td + y * dy + x * W, load<U>(ts + x * sx + y * W));
    }
  };
  CT_STRIP_LOOP(L, tile)
}

#if CT_COPY_X86

// The in-register transpose of S = 16 / W sub-tiles of 16 bytes for one vector width (BITS
// 128, 256 or 512; PREFIX the intrinsics' _mm, _mm256 or _mm512): log2(S) rounds of unpacking
// pairs of registers, each lane of a wider register a sub-tile of its own.  A macro rather than
// one template over the vector type, because each width's functions must carry that width's
// target attribute (TARGET, empty for SSE2): a template compiled for AVX-512 could put
// AVX-512 encodings into code an AVX2 machine runs.
#define CT_TRANSPOSE_ROUNDS(BITS, PREFIX, TARGET)                                   \
  template <int W>                                                                  \
  TARGET inline __m##BITS##i unpacklo##BITS(__m##BITS##i a, __m##BITS##i b) {       \
    if constexpr (W == 1) return PREFIX##_unpacklo_epi8(a, b);                      \
    if constexpr (W == 2) return PREFIX##_unpacklo_epi16(a, b);                     \
    if constexpr (W == 4) return PREFIX##_unpacklo_epi32(a, b);                     \
    if constexpr (W == 8) return PREFIX##_unpacklo_epi64(a, b);                     \
  }                                                                                 \
  template <int W>                                                                  \
  TARGET inline __m##BITS##i unpackhi##BITS(__m##BITS##i a, __m##BITS##i b) {       \
    if constexpr (W == 1) return PREFIX##_unpackhi_epi8(a, b);                      \
    if constexpr (W == 2) return PREFIX##_unpackhi_epi16(a, b);                     \
    if constexpr (W == 4) return PREFIX##_unpackhi_epi32(a, b);                     \
    if constexpr (W == 8) return PREFIX##_unpackhi_epi64(a, b);                     \
  }                                                                                 \
  template <int W>                                                                  \
  TARGET inline void transpose_rounds##BITS(__m##BITS##i* r) {                      \
    constexpr int S = 16 / W;                                                       \
    _Pragma("GCC unroll 4") for (int round = 1; round < S; round *= 2) {            \
      __m##BITS##i t[S];                                                            \
      _Pragma("GCC unroll 16") for (int i = 0; i < S / 2; ++i) {                    \
        t[2 * i] = unpacklo##BITS<W>(r[i], r[i + S / 2]);                           \
        t[2 * i + 1] = unpackhi##BITS<W>(r[i], r[i + S / 2]);                       \
      }                                                                             \
      _Pragma("GCC unroll 16") for (int i = 0; i < S; ++i) r[i] = t[i];             \
    }                                                                               \
  }

// -- SSE2: one sub-tile per register --

CT_TRANSPOSE_ROUNDS(128, _mm, )

inline void flush_line_sse2(char* d, const char* b, bool nt) {
  const __m128i v0 = _mm_load_si128(reinterpret_cast<const __m128i*>(b));
  const __m128i v1 = _mm_load_si128(reinterpret_cast<const __m128i*>(b + 16));
  const __m128i v2 = _mm_load_si128(reinterpret_cast<const __m128i*>(b + 32));
  const __m128i v3 = _mm_load_si128(reinterpret_cast<const __m128i*>(b + 48));
  if (nt) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(d), v0);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), v1);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), v2);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), v3);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), v0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 16), v1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 32), v2);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 48), v3);
  }
}

template <int W>
void strip_sse2(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt) {
  constexpr int L = int(kLine / W);
  constexpr int S = 16 / W;
  const bool pf = yt > 1;  // a lone tile row: the hardware prefetchers do as well
  // Two buffers: a tile is flushed while the next one is being transposed, so its line
  // loads never wait on the narrower stores that filled it (a store-forwarding stall).
  alignas(64) char bufs[2][L * kLine];
  int cur = 0;
  char* pending = nullptr;
  auto fill = [&](const char* ts, char* buf) {
    for (int bx = 0; bx < 4; ++bx) {
      for (int by = 0; by < 4; ++by) {
        __m128i r[S];
#pragma GCC unroll 16
        for (int i = 0; i < S; ++i) {
          r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ts + (bx * S + i) * sx + by * 16));
        }
        transpose_rounds128<W>(r);
#pragma GCC unroll 16
        for (int j = 0; j < S; ++j) {
          _mm_store_si128(reinterpret_cast<__m128i*>(buf + (by * S + j) * kLine + bx * 16), r[j]);
        }
      }
    }
  };
  auto flush = [&](const char* buf, char* td) {
    for (int j = 0; j < L; ++j) flush_line_sse2(td + j * dy, buf + j * kLine, nt);
  };
  auto tile = [&](const char* ts, char* td) {
    fill(ts, bufs[cur]);
    if (pending) flush(bufs[cur ^ 1], pending);
    pending = td;
    cur ^= 1;
  };
  CT_STRIP_LOOP(L, tile)
  if (pending) flush(bufs[cur ^ 1], pending);
}

// -- AVX2: two sub-tiles per register (lanes = sub-tiles by and by + 1) --

#define CT_AVX2 __attribute__((target("avx2")))

CT_TRANSPOSE_ROUNDS(256, _mm256, CT_AVX2)

CT_AVX2 inline void flush_line_avx2(char* d, const char* b, bool nt) {
  const __m256i v0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i v1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(b + 32));
  if (nt) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d), v0);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + 32), v1);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), v0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 32), v1);
  }
}

// Tiles whose lines a dst row receives together (AVX2 strip).  Consecutive tiles of a
// group (CT_STRIP_LOOP: same y, next x) write the next line of the same L dst rows; they are
// transposed into one buffer, kFlushTiles lines per row, and each row is then streamed as one
// run of kFlushTiles lines.  Flushing tile by tile sent every dst row one line, then 63 other
// rows (64 KiB apart in the 3-D case) before its next line: perf on Zen 3 put half of the
// 1-byte 3-D row in the flush's streaming stores.
constexpr int kFlushTiles = 4;

// G: tiles per run (1: each tile flushed on its own).
template <int W, int G>
CT_AVX2 void strip_avx2_runs(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt) {
  constexpr int L = int(kLine / W);
  constexpr int S = 16 / W;
  constexpr int64_t RS = G * kLine;  // buffer row stride
  const bool pf = yt > 1;  // a lone tile row: the hardware prefetchers do as well
  // Two buffers: one is filled while the other (the previous run of tiles) is flushed, a
  // slice of rows after each tile, so the flush's line loads never wait on the narrower
  // stores that filled them (a store-forwarding stall) and stores overlap the shuffles.
  alignas(64) char bufs[2][L * RS];
  int cur = 0;
  auto fill = [&](const char* ts, char* buf) __attribute__((target("avx2"))) {
    for (int bx = 0; bx < 4; ++bx) {
      for (int by = 0; by < 4; by += 2) {
        __m256i r[S];
#pragma GCC unroll 16
        for (int i = 0; i < S; ++i) {
          r[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ts + (bx * S + i) * sx + by * 16));
        }
        transpose_rounds256<W>(r);
#pragma GCC unroll 16
        for (int j = 0; j < S; ++j) {
          _mm_store_si128(reinterpret_cast<__m128i*>(buf + (by * S + j) * RS + bx * 16),
                          _mm256_castsi256_si128(r[j]));
          _mm_store_si128(reinterpret_cast<__m128i*>(buf + ((by + 1) * S + j) * RS + bx * 16),
                          _mm256_extracti128_si256(r[j], 1));
        }
      }
    }
  };
  if constexpr (G == 1) {  // each tile flushed while the next one is transposed
    auto flush_tile = [&](const char* buf, char* td) __attribute__((target("avx2"))) {
      for (int j = 0; j < L; ++j) flush_line_avx2(td + j * dy, buf + j * kLine, nt);
    };
    char* pending = nullptr;
    auto tile = [&](const char* ts, char* td) __attribute__((target("avx2"))) {
      fill(ts, bufs[cur]);
      if (pending) flush_tile(bufs[cur ^ 1], pending);
      pending = td;
      cur ^= 1;
    };
    CT_STRIP_LOOP(L, tile)
    if (pending) flush_tile(bufs[cur ^ 1], pending);
  } else {
    char* fill_d = nullptr;  // dst of the run being filled into bufs[cur], fill_n tiles so far
    int fill_n = 0;
    char* pend_d = nullptr;  // dst of the run in bufs[cur ^ 1], pend_n tiles, rows [0, pend_done) flushed
    int pend_n = 0, pend_done = L;
    // Flushes rows [pend_done, upto) of the pending run.
    auto flush = [&](int upto) __attribute__((target("avx2"))) {
      const char* buf = bufs[cur ^ 1];
      for (int j = pend_done; j < upto; ++j) {
        for (int k = 0; k < pend_n; ++k) flush_line_avx2(pend_d + j * dy + k * kLine, buf + j * RS + k * kLine, nt);
      }
      if (upto > pend_done) pend_done = upto;
    };
    auto tile = [&](const char* ts, char* td) __attribute__((target("avx2"))) {
      if (fill_n > 0 && (fill_n == G || td != fill_d + fill_n * kLine)) {  // the run is complete
        flush(L);
        pend_d = fill_d;
        pend_n = fill_n;
        pend_done = 0;
        cur ^= 1;
        fill_n = 0;
      }
      if (fill_n == 0) fill_d = td;
      fill(ts, bufs[cur] + fill_n * kLine);
      ++fill_n;
      flush(L * fill_n / G);
    };
    CT_STRIP_LOOP(L, tile)
    flush(L);
    if (fill_n > 0) {
      pend_d = fill_d;
      pend_n = fill_n;
      pend_done = 0;
      cur ^= 1;
      flush(L);
    }
  }
}

// Runs only form in the grouped order (more than kGroupTiles x steps), and only pay when dst
// rows are a page or more apart (the 3-D case); when they are closer, a tile's lines already
// fill a few pages (NCHW -> NHWC: 64 rows 512 B apart), and runs there measured 0.45-0.62
// against 0.64-0.84 for the 1-byte row (one thread).  There each tile is flushed alone with
// the smaller buffers, as before.
template <int W>
CT_AVX2 void strip_avx2(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt) {
  if (ntiles > kGroupTiles && abs64(dy) >= 4096) {
    strip_avx2_runs<W, kFlushTiles>(s, sx, d, dy, ntiles, yt, nt);
  } else {
    strip_avx2_runs<W, 1>(s, sx, d, dy, ntiles, yt, nt);
  }
}

// -- AVX-512: four sub-tiles per register (a whole src line), or a whole tile in registers --

#define CT_AVX512 __attribute__((target("avx512f,avx512bw")))

// GCC 12 reports its own _mm512_undefined_epi32() (used inside the intrinsics) as "maybe
// uninitialized"; the warning is spurious.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

CT_TRANSPOSE_ROUNDS(512, _mm512, CT_AVX512)

CT_AVX512 inline void store_line_avx512(char* d, __m512i v, bool nt) {
  if (nt) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(d), v);
  } else {
    _mm512_storeu_si512(d, v);
  }
}

// 1-byte elements (the template works for any width): each src line holds 4 sub-tiles
// (by = 0..3), one per lane.
template <int W>
CT_AVX512 void strip_avx512_lanes(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt) {
  constexpr int L = int(kLine / W);
  constexpr int S = 16 / W;
  const bool pf = yt > 1;  // a lone tile row: the hardware prefetchers do as well
  // Two buffers: a tile is flushed while the next one is being transposed, so its line
  // loads never wait on the narrower stores that filled it (a store-forwarding stall).
  alignas(64) char bufs[2][L * kLine];
  int cur = 0;
  char* pending = nullptr;
  auto fill = [&](const char* ts, char* buf) __attribute__((target("avx512f,avx512bw"))) {
    for (int bx = 0; bx < 4; ++bx) {
      __m512i r[S];
#pragma GCC unroll 16
      for (int i = 0; i < S; ++i) r[i] = _mm512_loadu_si512(ts + (bx * S + i) * sx);
      transpose_rounds512<W>(r);
#pragma GCC unroll 16
      for (int j = 0; j < S; ++j) {
        _mm_store_si128(reinterpret_cast<__m128i*>(buf + (0 * S + j) * kLine + bx * 16), _mm512_extracti32x4_epi32(r[j], 0));
        _mm_store_si128(reinterpret_cast<__m128i*>(buf + (1 * S + j) * kLine + bx * 16), _mm512_extracti32x4_epi32(r[j], 1));
        _mm_store_si128(reinterpret_cast<__m128i*>(buf + (2 * S + j) * kLine + bx * 16), _mm512_extracti32x4_epi32(r[j], 2));
        _mm_store_si128(reinterpret_cast<__m128i*>(buf + (3 * S + j) * kLine + bx * 16), _mm512_extracti32x4_epi32(r[j], 3));
      }
    }
  };
  auto flush = [&](const char* buf, char* td) __attribute__((target("avx512f,avx512bw"))) {
    for (int j = 0; j < L; ++j) store_line_avx512(td + j * dy, _mm512_load_si512(buf + j * kLine), nt);
  };
  auto tile = [&](const char* ts, char* td) __attribute__((target("avx512f,avx512bw"))) {
    fill(ts, bufs[cur]);
    if (pending) flush(bufs[cur ^ 1], pending);
    pending = td;
    cur ^= 1;
  };
  CT_STRIP_LOOP(L, tile)
  if (pending) flush(bufs[cur ^ 1], pending);
}

// 4-byte elements: a 16 x 16 tile in 16 registers.  Rounds 1-2 transpose the 4 x 4 blocks
// inside each lane; rounds 3-4 transpose the 4 x 4 grid of 128-bit lanes.
CT_AVX512 inline void tile_avx512_w4(const char* st, int64_t sx, char* dt, int64_t dy, bool nt) {
  __m512i r[16], u[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_si512(st + i * sx);
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    u[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    u[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    r[4 * i] = _mm512_unpacklo_epi64(u[4 * i], u[4 * i + 2]);
    r[4 * i + 1] = _mm512_unpackhi_epi64(u[4 * i], u[4 * i + 2]);
    r[4 * i + 2] = _mm512_unpacklo_epi64(u[4 * i + 1], u[4 * i + 3]);
    r[4 * i + 3] = _mm512_unpackhi_epi64(u[4 * i + 1], u[4 * i + 3]);
  }
  // r[4i + k] (lane q) = column 4q + k of rows 4i..4i+3.
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    u[k] = _mm512_shuffle_i32x4(r[k], r[4 + k], 0x88);      // lanes: r[k].0 r[k].2 r[4+k].0 r[4+k].2
    u[4 + k] = _mm512_shuffle_i32x4(r[k], r[4 + k], 0xDD);  // lanes: r[k].1 r[k].3 r[4+k].1 r[4+k].3
    u[8 + k] = _mm512_shuffle_i32x4(r[8 + k], r[12 + k], 0x88);
    u[12 + k] = _mm512_shuffle_i32x4(r[8 + k], r[12 + k], 0xDD);
  }
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    // Column c = 4q + k gathers lane q of r[k], r[4+k], r[8+k], r[12+k].
    store_line_avx512(dt + (0 + k) * dy, _mm512_shuffle_i32x4(u[k], u[8 + k], 0x88), nt);
    store_line_avx512(dt + (8 + k) * dy, _mm512_shuffle_i32x4(u[k], u[8 + k], 0xDD), nt);
    store_line_avx512(dt + (4 + k) * dy, _mm512_shuffle_i32x4(u[4 + k], u[12 + k], 0x88), nt);
    store_line_avx512(dt + (12 + k) * dy, _mm512_shuffle_i32x4(u[4 + k], u[12 + k], 0xDD), nt);
  }
}

CT_AVX512 void strip_avx512_w4(const char* s, int64_t sx, char* d, int64_t dy, int64_t ntiles, int yt, bool nt) {
  const bool pf = yt > 1;  // a lone tile row: the hardware prefetchers do as well
  auto tile = [&](const char* ts, char* td) __attribute__((target("avx512f,avx512bw"))) {
    tile_avx512_w4(ts, sx, td, dy, nt);
  };
  CT_STRIP_LOOP(16, tile)
}

#pragma GCC diagnostic pop

// -- streaming copy of a contiguous range --

CT_AVX2 void stream_copy_avx2(char* d, const char* s, int64_t n) {
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 64));
    const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 96), e);
  }
  if (i < n) std::memcpy(d + i, s + i, size_t(n - i));
}

void stream_copy_sse2(char* d, const char* s, int64_t n) {
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
  if (i < n) std::memcpy(d + i, s + i, size_t(n - i));
}

#endif  // CT_COPY_X86

Isa detect() {
#if CT_COPY_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return Isa::Avx512;
  if (__builtin_cpu_supports("avx2")) return Isa::Avx2;
  return Isa::Sse2;
#else
  return Isa::Scalar;
#endif
}

StripFn strip_fn(Isa isa, int64_t w) {
#if CT_COPY_X86
  switch (isa) {
    case Isa::Avx512:
      // Measured here (Zen 5): AVX-512 wins for 1- and 4-byte elements; for 2 and 8 bytes
      // the AVX2 strips are as fast from memory and faster from cache.
      switch (w) {
        case 1: return &strip_avx512_lanes<1>;
        case 2: return &strip_avx2<2>;
        case 4: return &strip_avx512_w4;
        case 8: return &strip_avx2<8>;
      }
      break;
    case Isa::Avx2:
      switch (w) {
        case 1: return &strip_avx2<1>;
        case 2: return &strip_avx2<2>;
        case 4: return &strip_avx2<4>;
        case 8: return &strip_avx2<8>;
      }
      break;
    case Isa::Sse2:
      switch (w) {
        case 1: return &strip_sse2<1>;
        case 2: return &strip_sse2<2>;
        case 4: return &strip_sse2<4>;
        case 8: return &strip_sse2<8>;
      }
      break;
    case Isa::Scalar:
      break;
  }
#endif
  switch (w) {
    case 1: return &strip_scalar<1>;
    case 2: return &strip_scalar<2>;
    case 4: return &strip_scalar<4>;
    case 8: return &strip_scalar<8>;
  }
  CT_FAIL(Internal, "copy: no transpose kernel for width " << w);
}

// Copies n contiguous bytes, streaming when asked and available.  No fence.
void copy_bytes(char* d, const char* s, int64_t n, bool nt, Isa isa) {
  if (n <= 0) return;  // nothing to copy, and an empty buffer's pointer may be NULL (memcpy's UB)
#if CT_COPY_X86
  if (nt && n >= 256 && isa >= Isa::Sse2) {
    // Head up to a line boundary of dst, so the streaming stores are aligned.
    const int64_t head = std::min(n, int64_t((kLine - (reinterpret_cast<uintptr_t>(d) & (kLine - 1))) & (kLine - 1)));
    std::memcpy(d, s, size_t(head));
    if (isa >= Isa::Avx2) {
      stream_copy_avx2(d + head, s + head, n - head);
    } else {
      stream_copy_sse2(d + head, s + head, n - head);
    }
    return;
  }
#endif
  (void)nt;
  (void)isa;
  std::memcpy(d, s, size_t(n));
}

// ---- the paths --------------------------------------------------------------------------

struct Context {
  const CopyPlan& p;
  char* d;
  const char* s;
  int64_t wd, ws;
  bool nt;
  Isa isa;
};

void run_flat(const Context& c, int nthreads) {
  const int64_t total = c.p.numel * c.wd;
  parallel_chunks(nthreads, total, kLine, [&](int64_t b, int64_t e) {
    copy_bytes(c.d + b, c.s + b, e - b, c.nt, c.isa);
    if (c.nt) store_fence();
  });
}

void run_walk(const Context& c, int nthreads, InnerFn fn) {
  const CopyPlan& p = c.p;
  parallel_chunks(nthreads, p.numel, 1, [&](int64_t b, int64_t e) {
    walk(p.ndim, p.sizes, p.dst_strides, p.src_strides, c.d, c.s, b, e, fn);
  });
}

// Dims other than x (innermost) and y, outermost first.
int outer_dims(const CopyPlan& p, int* dims, int64_t* count) {
  int n = 0;
  int64_t cnt = 1;
  for (int k = 0; k < p.ndim - 1; ++k) {
    if (k == p.y) continue;
    dims[n++] = k;
    cnt *= p.sizes[k];
  }
  *count = cnt;
  return n;
}

void run_transpose(const Context& c, int nthreads) {
  const CopyPlan& p = c.p;
  const int64_t w = c.wd;
  const int X = p.ndim - 1, Y = p.y;
  const int64_t nx = p.sizes[X], ny = p.sizes[Y];
  const int64_t sx = p.src_strides[X], dy = p.dst_strides[Y];
  const int64_t L = kLine / w;
  int dims[kMaxDims];
  int64_t nouter_count;
  const int nouter = outer_dims(p, dims, &nouter_count);
  // Streaming stores need 64-byte aligned lines: every dst row must start at the same
  // offset within a line (dy a multiple of 64), and dst elements must be width-aligned.
  bool nt = c.nt && c.isa != Isa::Scalar && nx >= L && ny >= L && dy % kLine == 0 &&
            (reinterpret_cast<uintptr_t>(c.d) % uintptr_t(w)) == 0;
  for (int k = 0; k < nouter && nt; ++k) nt = p.dst_strides[dims[k]] % kLine == 0;
  // x elements before the first line boundary of a dst row (the same for every row when nt).
  const int64_t head = nt ? int64_t((kLine - (reinterpret_cast<uintptr_t>(c.d) & (kLine - 1))) & (kLine - 1)) / w : 0;
  const int64_t ntiles = nx >= head ? (nx - head) / L : 0;
  const int64_t tail_x0 = head + ntiles * L;
  const StripFn strip = strip_fn(c.isa, w);
  const InnerFn edge = move_fn(w);
  // Work units: strips of yt tiles in y (fewer when y is short), cut in x as well when
  // that leaves too few units for the threads (the 3-D (n, 256, 256) -> contiguous case:
  // y is short, x is 64 Ki elements); with a single tile in x, fewer tiles in y instead.
  int yt = kStripTiles;
  while (yt > 1 && yt / 2 >= ny / L) yt /= 2;
  const int64_t yblocks_full = (ny + yt * L - 1) / (yt * L);
  const int64_t want = nthreads > 1 ? kChunksPerThread * nthreads : 1;  // one thread: no cuts
  int64_t xblocks = 1;
  if (nouter_count * yblocks_full < want && ntiles > 1) {
    xblocks = std::min<int64_t>(ntiles, (want + nouter_count * yblocks_full - 1) / (nouter_count * yblocks_full));
  } else {
    while (yt > 1 && nouter_count * ((ny + yt * L - 1) / (yt * L)) < want) yt /= 2;
  }
  const int64_t rows = yt * L;
  const int64_t yblocks = (ny + rows - 1) / rows;
  const int64_t units = nouter_count * yblocks * xblocks;

  parallel_chunks(nthreads, units, 1, [&](int64_t ub, int64_t ue) {
    for (int64_t u = ub; u < ue; ++u) {
      const int64_t xb = u % xblocks, rest = u / xblocks;
      int64_t od, os;
      outer_offsets(rest / yblocks, nouter, dims, p, &od, &os);
      const int64_t y0 = (rest % yblocks) * rows;
      const int64_t ly = std::min(rows, ny - y0);
      char* d = c.d + od + y0 * dy;       // dst(0, y0)
      const char* s = c.s + os + y0 * w;  // src(0, y0)
      // This unit's tiles [t0, t1) in x; the first unit of a row also takes the head, the
      // last the tail.
      const int64_t t0 = ntiles * xb / xblocks, t1 = ntiles * (xb + 1) / xblocks;
      const int64_t xa = xb == 0 ? 0 : head + t0 * L;
      const int64_t xe = xb == xblocks - 1 ? nx : head + t1 * L;
      const int64_t tiled_rows = ntiles > 0 ? ly / L * L : 0;
      if (tiled_rows > 0) {
        // (The edges are skipped when empty: with dst rows of one line, NCHW -> NHWC with 64
        // one-byte channels, two empty calls per row cost a third of the copy.)
        if (xb == 0 && head > 0) {
          for (int64_t y = 0; y < tiled_rows; ++y) edge(d + y * dy, w, s + y * w, sx, head);
        }
        const int64_t x0 = head + t0 * L;
        strip(s + x0 * sx, sx, d + x0 * w, dy, t1 - t0, int(tiled_rows / L), nt);
        if (xb == xblocks - 1 && tail_x0 < nx) {
          for (int64_t y = 0; y < tiled_rows; ++y) {
            edge(d + y * dy + tail_x0 * w, w, s + y * w + tail_x0 * sx, sx, nx - tail_x0);
          }
        }
      }
      for (int64_t y = tiled_rows; y < ly; ++y) edge(d + y * dy + xa * w, w, s + y * w + xa * sx, sx, xe - xa);
    }
    if (nt) store_fence();
  });
}

// Element-wise loop over 2-d blocks of (x, y), for layouts where src walks y fastest.
void run_tiled(const Context& c, int nthreads, InnerFn fn) {
  const CopyPlan& p = c.p;
  constexpr int64_t B = 32;
  const int X = p.ndim - 1, Y = p.y;
  const int64_t nx = p.sizes[X], ny = p.sizes[Y];
  const int64_t dsx = p.dst_strides[X], ssx = p.src_strides[X];
  const int64_t dsy = p.dst_strides[Y], ssy = p.src_strides[Y];
  int dims[kMaxDims];
  int64_t nouter_count;
  const int nouter = outer_dims(p, dims, &nouter_count);
  const int64_t yblocks = (ny + B - 1) / B;
  const int64_t units = nouter_count * yblocks;
  parallel_chunks(nthreads, units, 1, [&](int64_t ub, int64_t ue) {
    for (int64_t u = ub; u < ue; ++u) {
      int64_t od, os;
      outer_offsets(u / yblocks, nouter, dims, p, &od, &os);
      const int64_t y0 = (u % yblocks) * B;
      const int64_t y1 = std::min(ny, y0 + B);
      for (int64_t x0 = 0; x0 < nx; x0 += B) {
        const int64_t bx = std::min(B, nx - x0);
        for (int64_t y = y0; y < y1; ++y) {
          fn(c.d + od + y * dsy + x0 * dsx, dsx, c.s + os + y * ssy + x0 * ssx, ssx, bx);
        }
      }
    }
  });
}

}  // namespace

const char* copy_path_name(CopyPath p) {
  switch (p) {
    case CopyPath::Empty: return "empty";
    case CopyPath::Flat: return "flat";
    case CopyPath::Rows: return "rows";
    case CopyPath::Transpose: return "transpose";
    case CopyPath::Tiled: return "tiled";
    case CopyPath::Strided: return "strided";
  }
  return "?";
}

CopyPlan plan_copy(const CopyArgs& a) {
  CopyPlan p;
  const int64_t wd = itemsize(a.dst_dtype), ws = itemsize(a.src_dtype);
  // 1. Drop size-1 dims; a size-0 dim means nothing to copy.
  struct Dim {
    int64_t size, ds, ss;
  };
  Dim dims[kMaxDims];
  int n = 0;
  int64_t numel = 1;
  for (int i = 0; i < a.ndim; ++i) {
    const int64_t sz = a.sizes[i];
    if (sz == 0) {
      p.path = CopyPath::Empty;
      p.numel = 0;
      return p;
    }
    if (sz == 1) continue;
    dims[n++] = {sz, a.dst_strides[i] * wd, a.src_strides[i] * ws};
    numel *= sz;
  }
  p.numel = numel;
  // 2. Order by dst stride, outermost (largest) first; ties by src stride.  Stable.
  auto outer_of = [](const Dim& u, const Dim& v) {  // u goes before (outside) v
    if (abs64(u.ds) != abs64(v.ds)) return abs64(u.ds) > abs64(v.ds);
    return abs64(u.ss) > abs64(v.ss);
  };
  for (int i = 1; i < n; ++i) {
    const Dim cur = dims[i];
    int j = i;
    while (j > 0 && outer_of(cur, dims[j - 1])) {
      dims[j] = dims[j - 1];
      --j;
    }
    dims[j] = cur;
  }
  // 3. Merge neighbours that line up in both tensors.
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (m > 0) {
      Dim& o = dims[m - 1];
      const Dim& in = dims[i];
      if (o.ds == in.ds * in.size && o.ss == in.ss * in.size) {
        o = {o.size * in.size, in.ds, in.ss};
        continue;
      }
    }
    dims[m++] = dims[i];
  }
  p.ndim = m;
  for (int i = 0; i < m; ++i) {
    p.sizes[i] = dims[i].size;
    p.dst_strides[i] = dims[i].ds;
    p.src_strides[i] = dims[i].ss;
  }
  // 4. Choose the path.
  p.path = CopyPath::Strided;
  if (m == 0) return p;  // one element
  const bool same = moves_bytes(a);
  const int x = m - 1;
  if (same && p.dst_strides[x] == wd && p.src_strides[x] == ws) {
    p.path = m == 1 ? CopyPath::Flat : CopyPath::Rows;
    return p;
  }
  // The dim src walks fastest, if it is not x.
  int y = -1;
  for (int k = 0; k < x; ++k) {
    if (y < 0 || abs64(p.src_strides[k]) < abs64(p.src_strides[y])) y = k;
  }
  if (y < 0 || abs64(p.src_strides[y]) >= abs64(p.src_strides[x])) return p;
  if (same && wd <= 8 && p.dst_strides[x] == wd && p.src_strides[y] == ws) {  // tiles: widths 1-8
    p.path = CopyPath::Transpose;
    p.y = y;
  } else if (abs64(p.src_strides[x]) >= kLine && p.sizes[x] >= 4 && p.sizes[y] >= 4) {
    p.path = CopyPath::Tiled;
    p.y = y;
  }
  return p;
}

void run_copy(const CopyArgs& args, int max_threads) {
  const CopyPlan p = plan_copy(args);
  if (p.path == CopyPath::Empty) return;
  const int64_t wd = itemsize(args.dst_dtype), ws = itemsize(args.src_dtype);
  const int64_t bytes = p.numel * std::max(wd, ws);
  int nthreads = 1;
  if (max_threads > 1 && !omp_in_parallel()) {
    nthreads = int(std::min<int64_t>(max_threads, std::max<int64_t>(1, bytes / grain_bytes())));
  }
  // Streaming stores for a large dst, unless it is fresh memory (see CopyArgs::dst_is_new).
  const bool nt = (!args.dst_is_new || args.dst_recycled) && p.numel * wd >= streaming_bytes();
  const Context c{p, args.dst, args.src, wd, ws, nt, active_isa()};
  switch (p.path) {
    case CopyPath::Empty:
      return;
    case CopyPath::Flat:
      run_flat(c, nthreads);
      return;
    case CopyPath::Rows:
      run_walk(c, nthreads, move_fn(wd));
      return;
    case CopyPath::Transpose:
      run_transpose(c, nthreads);
      return;
    case CopyPath::Tiled:
      run_tiled(c, nthreads, element_fn(args));
      return;
    case CopyPath::Strided:
      run_walk(c, nthreads, element_fn(args));
      return;
  }
}

Isa detected_isa() {
  static const Isa isa = detect();
  return isa;
}

Isa active_isa() {
  const int v = g_isa.load(std::memory_order_relaxed);
  return v < 0 ? detected_isa() : Isa(v);
}

void set_isa(Isa isa) {
  g_isa.store(int(std::min(isa, detected_isa())), std::memory_order_relaxed);
}

void set_grain_bytes(int64_t bytes) { g_grain.store(bytes > 0 ? bytes : 0, std::memory_order_relaxed); }
void set_streaming_bytes(int64_t bytes) { g_streaming.store(bytes > 0 ? bytes : 0, std::memory_order_relaxed); }
int64_t grain_bytes() {
  const int64_t v = g_grain.load(std::memory_order_relaxed);
  return v > 0 ? v : kDefaultGrainBytes;
}
int64_t streaming_bytes() {
  const int64_t v = g_streaming.load(std::memory_order_relaxed);
  return v > 0 ? v : kDefaultStreamingBytes;
}

void stream_copy(char* dst, const char* src, int64_t n) {
  copy_bytes(dst, src, n, true, active_isa());
  store_fence();
}

}  // namespace ct::kernels
