// Small float/double matrix products on AVX2 + FMA.  See small_gemm.h.
//
// The kernel: C is cut into tiles of R rows by V vectors of columns.  A tile's R * V
// accumulators stay in registers while k runs: each step loads V vectors of B's row k,
// broadcasts A's R elements of column k and does R * V fused multiply-adds.  R = 4, V = 2 holds
// 8 accumulators + 2 B vectors + 1 broadcast, within the 16 AVX registers.  Columns left
// over after whole vectors are done one at a time by scalar fma, in the same order.  B's rows
// must be contiguous for the vector loads; a B with another column stride (a transposed
// weight, in a linear layer's backward) is first copied into a contiguous panel on the stack.
#include "core/ops/small_gemm.h"

#include <cmath>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#define CT_SMALL_GEMM_X86 1
#else
#define CT_SMALL_GEMM_X86 0
#endif

namespace ct {

#if CT_SMALL_GEMM_X86
namespace {

#define CT_FMA __attribute__((target("avx2,fma"), always_inline)) inline

// The AVX operations on one vector of T: the same five for float (ps) and double (pd).
template <class T>
struct Vec;
#define CT_SMALL_GEMM_VEC(T, VT, LANES, SFX)                                                      \
  template <>                                                                                     \
  struct Vec<T> {                                                                                 \
    using V = VT;                                                                                 \
    static constexpr int kLanes = LANES;                                                          \
    CT_FMA static V zero() { return _mm256_setzero_##SFX(); }                                     \
    CT_FMA static V load(const T* p) { return _mm256_loadu_##SFX(p); }                            \
    CT_FMA static V splat(T x) { return _mm256_set1_##SFX(x); }                                   \
    CT_FMA static V fma(V a, V b, V c) { return _mm256_fmadd_##SFX(a, b, c); }                    \
    CT_FMA static void store_plus_zero(T* p, V x) {                                               \
      _mm256_storeu_##SFX(p, _mm256_add_##SFX(x, zero()));                                        \
    }                                                                                             \
  };
CT_SMALL_GEMM_VEC(float, __m256, 8, ps)
CT_SMALL_GEMM_VEC(double, __m256d, 4, pd)
#undef CT_SMALL_GEMM_VEC

// The operands as the kernel reads them: B's rows contiguous (row stride brs).
template <class T>
struct Operands {
  const T* a;
  int64_t ars, acs;
  const T* b;
  int64_t brs;
  int64_t k;
  T* c;
  int64_t ldc;
};

// C[i0 .. i0+R, j0 .. j0 + V * lanes] by R x V accumulators.
template <int R, int V, class T>
CT_FMA void tile(const Operands<T>& o, int64_t i0, int64_t j0) {
  using W = Vec<T>;
  typename W::V acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) acc[r][v] = W::zero();
  const T* arow = o.a + i0 * o.ars;
  const T* bcol = o.b + j0;
  // Two steps of k per loop trip: the trip's own instructions (pointer steps, compare, branch)
  // were 3 of every 17 (callgrind); the order of each accumulator's fmas is unchanged.
#pragma GCC unroll 2
  for (int64_t kk = 0; kk < o.k; ++kk) {
    typename W::V bv[V];
    for (int v = 0; v < V; ++v) bv[v] = W::load(bcol + kk * o.brs + v * W::kLanes);
    for (int r = 0; r < R; ++r) {
      const typename W::V av = W::splat(arow[r * o.ars + kk * o.acs]);
      for (int v = 0; v < V; ++v) acc[r][v] = W::fma(av, bv[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) W::store_plus_zero(o.c + (i0 + r) * o.ldc + j0 + v * W::kLanes, acc[r][v]);
}

// Rows i0 .. i1 of C, columns j0 .. p: whole vectors in pairs, then one, then single columns.
template <int R, class T>
CT_FMA void rows(const Operands<T>& o, int64_t i0, int64_t i1, int64_t p) {
  constexpr int64_t L = Vec<T>::kLanes;
  for (int64_t i = i0; i + R <= i1; i += R) {
    int64_t j = 0;
    for (; j + 2 * L <= p; j += 2 * L) tile<R, 2>(o, i, j);
    for (; j + L <= p; j += L) tile<R, 1>(o, i, j);
    for (; j < p; ++j) {
      for (int r = 0; r < R; ++r) {
        T acc = 0;
        for (int64_t kk = 0; kk < o.k; ++kk)
          acc = std::fma(o.a[(i + r) * o.ars + kk * o.acs], o.b[kk * o.brs + j], acc);
        o.c[(i + r) * o.ldc + j] = acc + T(0);
      }
    }
  }
}

// 8 x 8 floats (4 x 4 doubles) from src's rows (stride ss) into dst's columns (dst rows
// stride ds), in registers.
CT_FMA void transpose_block(const float* src, int64_t ss, float* dst, int64_t ds) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * ss);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(dst + i * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(dst + (i + 4) * ds, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}
CT_FMA void transpose_block(const double* src, int64_t ss, double* dst, int64_t ds) {
  __m256d r[4];
  for (int i = 0; i < 4; ++i) r[i] = _mm256_loadu_pd(src + i * ss);
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  _mm256_storeu_pd(dst, _mm256_permute2f128_pd(t0, t2, 0x20));
  _mm256_storeu_pd(dst + ds, _mm256_permute2f128_pd(t1, t3, 0x20));
  _mm256_storeu_pd(dst + 2 * ds, _mm256_permute2f128_pd(t0, t2, 0x31));
  _mm256_storeu_pd(dst + 3 * ds, _mm256_permute2f128_pd(t1, t3, 0x31));
}

// B (k x p, element (kk, j) at b[kk * brs + j * bcs]) into the contiguous k x p panel.  When
// B's columns are contiguous rows in memory (brs == 1: a transposed row-major weight), whole
// blocks are transposed in registers; the edges and any other layout go element by element.
template <class T>
__attribute__((target("avx2,fma"))) void pack_rows(const T* b, int64_t brs, int64_t bcs, int64_t k, int64_t p,
                                                    T* panel) {
  constexpr int64_t L = Vec<T>::kLanes;
  int64_t k_done = 0, p_done = 0;
  if (brs == 1) {
    k_done = k - k % L;
    p_done = p - p % L;
    for (int64_t j = 0; j < p_done; j += L)
      for (int64_t kk = 0; kk < k_done; kk += L) transpose_block(b + j * bcs + kk, bcs, panel + kk * p + j, p);
  }
  for (int64_t kk = 0; kk < k; ++kk) {
    const int64_t j0 = kk < k_done ? p_done : 0;  // the blocks did columns < p_done of these rows
    for (int64_t j = j0; j < p; ++j) panel[kk * p + j] = b[kk * brs + j * bcs];
  }
}

template <class T>
__attribute__((target("avx2,fma"))) void run(const Operands<T>& o, int64_t n, int64_t p) {
  constexpr int R = 4;
  const int64_t whole = n - n % R;
  rows<R>(o, 0, whole, p);
  rows<1>(o, whole, n, p);
}

bool cpu_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

}  // namespace

template <class T>
bool small_gemm(const T* a, int64_t ars, int64_t acs, const T* b, int64_t brs, int64_t bcs, int64_t n, int64_t k,
                int64_t p, T* c, int64_t ldc) {
  int64_t work = 0;  // n * k * p, which may overflow for sizes BLAS takes
  if (n < 2 || p < 2 || k < 1 || __builtin_mul_overflow(n, k, &work) || __builtin_mul_overflow(work, p, &work) ||
      work > kSmallGemmWork || !cpu_has_avx2_fma())
    return false;
  // A B that is not row-contiguous is copied to a contiguous panel; the work limit bounds
  // k * p by kSmallGemmWork / 2 elements only, so the panel has its own limit.
  constexpr int64_t kPanel = 4096;
  T panel[kPanel];
  if (bcs != 1) {
    if (k * p > kPanel) return false;
    pack_rows(b, brs, bcs, k, p, panel);
    b = panel;
    brs = p;
  }
  run(Operands<T>{a, ars, acs, b, brs, k, c, ldc}, n, p);
  return true;
}

#else  // not x86-64: BLAS does every product

template <class T>
bool small_gemm(const T*, int64_t, int64_t, const T*, int64_t, int64_t, int64_t, int64_t, int64_t, T*, int64_t) {
  return false;
}

#endif

template bool small_gemm<float>(const float*, int64_t, int64_t, const float*, int64_t, int64_t, int64_t, int64_t,
                                int64_t, float*, int64_t);
template bool small_gemm<double>(const double*, int64_t, int64_t, const double*, int64_t, int64_t, int64_t, int64_t,
                                 int64_t, double*, int64_t);

}  // namespace ct
