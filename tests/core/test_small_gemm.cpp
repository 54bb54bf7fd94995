// small_gemm (src/core/ops/small_gemm): the products below BLAS's per-call overhead give,
// bit for bit, one chain of fused multiply-adds per element (whatever the tile: 4-row blocks
// and single rows; two vectors, one vector and single columns), and agree with OpenBLAS to
// rounding, with both operands as they are, transposed or strided, float and double; and it
// declines what it does not take.
#include <gtest/gtest.h>

#include <cblas.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/ops/small_gemm.h"

namespace {

template <class T>
void blas(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int p, int k, const T* a, int lda, const T* b, int ldb, T* c,
          int ldc) {
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, tb, n, p, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  else
    cblas_dgemm(CblasRowMajor, ta, tb, n, p, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}

bool cpu_has_avx2_fma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// Bits of x, so that -0 and +0 differ and equal NaNs compare equal.
template <class T>
auto bits(T x) {
  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> u;
  std::memcpy(&u, &x, sizeof x);
  return u;
}

// One product in each operand layout BLAS reads (as is or transposed), C with a leading
// dimension wider than p: bit for bit against a loop of fused multiply-adds over k in order,
// and against cblas on the same buffers to within rounding (OpenBLAS's kernels split k into
// partial sums from k = 8 on, so their last bits differ).
template <class T>
void check_against_blas(int n, int k, int p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int lda_pad = 3, ldb_pad = 5, ldc = p + 2;
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      // A stored n x k (lda = k + pad) or, transposed, k x n (lda = n + pad); B likewise.
      const int lda = (ta ? n : k) + lda_pad, ldb = (tb ? k : p) + ldb_pad;
      std::vector<T> a(size_t((ta ? k : n) * lda)), b(size_t((tb ? p : k) * ldb));
      for (T& x : a) x = T(u(rng));
      for (T& x : b) x = T(u(rng));
      std::vector<T> want(size_t(n * ldc), T(7)), got(size_t(n * ldc), T(7));
      blas<T>(ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, n, p, k, a.data(), lda, b.data(), ldb,
              want.data(), ldc);
      const int64_t ars = ta ? 1 : lda, acs = ta ? lda : 1, brs = tb ? 1 : ldb, bcs = tb ? ldb : 1;
      ASSERT_TRUE(ct::small_gemm<T>(a.data(), ars, acs, b.data(), brs, bcs, n, k, p, got.data(), ldc))
          << n << "x" << k << "x" << p;
      const double eps = std::numeric_limits<T>::epsilon();
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < ldc; ++j) {
          const size_t at = size_t(i * ldc + j);
          if (j >= p) {  // past the row: untouched
            ASSERT_EQ(got[at], T(7));
            continue;
          }
          T acc = 0;
          double scale = 0;
          for (int kk = 0; kk < k; ++kk) {
            const T x = a[size_t(i * ars + kk * acs)], y = b[size_t(kk * brs + j * bcs)];
            acc = std::fma(x, y, acc);
            scale += std::fabs(double(x) * double(y));
          }
          ASSERT_EQ(bits(got[at]), bits(T(acc + T(0))))
              << "T" << 8 * sizeof(T) << " n=" << n << " k=" << k << " p=" << p << " ta=" << ta << " tb=" << tb
              << " at " << i << "," << j << ": " << got[at] << " vs " << acc;
          ASSERT_LE(std::fabs(double(got[at]) - double(want[at])), 2 * k * eps * scale)
              << "T" << 8 * sizeof(T) << " n=" << n << " k=" << k << " p=" << p << " vs cblas at " << i << "," << j;
        }
      }
    }
  }
}

TEST(SmallGemm, OneFusedChainPerElementAndCloseToOpenBlas) {
  if (!cpu_has_avx2_fma()) GTEST_SKIP() << "this CPU has no AVX2+FMA: small_gemm declines every product here";
  std::mt19937_64 rng(26);
  // rows: 4-row blocks and 1-3 left over; columns: pairs of vectors, one vector, single columns
  for (int n : {2, 3, 4, 5, 8, 9, 15}) {
    for (int k : {1, 2, 7, 8, 32, 33}) {
      for (int p : {2, 3, 7, 8, 9, 16, 17, 24, 31, 32, 40}) {
        check_against_blas<float>(n, k, p, rng);
        check_against_blas<double>(n, k, p, rng);
      }
    }
  }
  // the training step's shapes (issue 26) and the largest product taken
  check_against_blas<float>(8, 32, 32, rng);
  check_against_blas<float>(32, 8, 32, rng);
  check_against_blas<float>(64, 64, 64, rng);
  check_against_blas<double>(64, 64, 64, rng);
}

TEST(SmallGemm, StridedOperandsAndBroadcastRows) {
  if (!cpu_has_avx2_fma()) GTEST_SKIP() << "this CPU has no AVX2+FMA: small_gemm declines every product here";
  // A with both strides > 1 and B with column stride 2 (packed); B's rows all the same
  // (row stride 0, an expanded operand): against a plain loop of the same fused operations.
  const int n = 5, k = 6, p = 11;
  std::vector<double> a(size_t(n * k * 6)), b(size_t(p * 2));
  for (size_t i = 0; i < a.size(); ++i) a[i] = double(int(i % 13) - 6) / 8;
  for (size_t i = 0; i < b.size(); ++i) b[i] = double(int(i % 7) - 3) / 4;
  std::vector<double> c(size_t(n * p));
  ASSERT_TRUE(ct::small_gemm<double>(a.data(), 3 * k, 3, b.data(), 0, 2, n, k, p, c.data(), p));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < p; ++j) {
      double acc = 0;
      for (int kk = 0; kk < k; ++kk) acc = std::fma(a[size_t(i * 3 * k + kk * 3)], b[size_t(j * 2)], acc);
      EXPECT_EQ(c[size_t(i * p + j)], acc) << i << "," << j;
    }
  }
}

TEST(SmallGemm, ANegativeZeroSumIsStoredAsPositiveZero) {
  if (!cpu_has_avx2_fma()) GTEST_SKIP() << "this CPU has no AVX2+FMA: small_gemm declines every product here";
  // An accumulator starting at +0 turns -0 only through underflow: -1e-30 * 1e-30 rounds to
  // -0 in float.  BLAS stores acc + 0, which is +0; every column kind (vector and single) is
  // covered by p = 17.
  const int n = 4, k = 1, p = 17;
  std::vector<float> a(size_t(n * k), -1e-30f), b(size_t(k * p), 1e-30f), c(size_t(n * p), 5.0f);
  ASSERT_TRUE(ct::small_gemm<float>(a.data(), k, 1, b.data(), p, 1, n, k, p, c.data(), p));
  for (float x : c) EXPECT_FALSE(std::signbit(x));
}

TEST(SmallGemm, DeclinesVectorsLargeProductsAndLargePanels) {
  std::vector<float> a(size_t(1) << 16, 1.0f), b(size_t(1) << 16, 1.0f), c(size_t(1) << 16, 3.0f);
  // a vector on either side: BLAS's gemv
  EXPECT_FALSE(ct::small_gemm<float>(a.data(), 8, 1, b.data(), 8, 1, 1, 8, 8, c.data(), 8));
  EXPECT_FALSE(ct::small_gemm<float>(a.data(), 8, 1, b.data(), 1, 1, 8, 8, 1, c.data(), 1));
  // more multiply-adds than kSmallGemmWork
  EXPECT_FALSE(ct::small_gemm<float>(a.data(), 128, 1, b.data(), 128, 1, 64, 128, 64, c.data(), 64));
  // sizes whose product overflows int64 (BLAS takes each up to INT_MAX; nothing is read)
  EXPECT_FALSE(ct::small_gemm<float>(a.data(), 1, 1, b.data(), 1, 1, int64_t(1) << 31, int64_t(1) << 31,
                                     int64_t(1) << 31, c.data(), 1));
  // a strided B whose panel would not fit the stack buffer
  EXPECT_FALSE(ct::small_gemm<float>(a.data(), 256, 1, b.data(), 1, 256, 2, 256, 32, c.data(), 32));
  for (float x : c) ASSERT_EQ(x, 3.0f);  // nothing written
}

}  // namespace
