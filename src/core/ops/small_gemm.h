// Small float/double matrix products without BLAS's per-call overhead.
//
// For an 8 x 32 x 32 product OpenBLAS executes about as many instructions around its kernel
// as in it (callgrind: 6.6 thousand a call, 3.1 in the kernel): zeroing C for beta = 0, one
// memset per row; packing both operands into panels; dispatch.  A training step of small
// layers does eight such products (issue 26), so products up to kSmallGemmWork multiply-adds
// are computed here, on CPUs with AVX2 and FMA, straight from the operands.
//
// The arithmetic: each C element is one accumulator that takes a[i,k] * b[k,j] by a fused
// multiply-add for k = 0, 1, ... in order, starting from +0, and is stored as acc + 0 (as a
// BLAS kernel's "alpha * acc + C" over the C that beta = 0 cleared: an underflowed -0 becomes
// +0).  An element's value therefore depends only on its row of A and column of B: not on
// n, p, the tile it falls in, or either operand's strides (a transposed B is copied to a
// contiguous panel first, not read by another loop).  OpenBLAS's kernels split k into partial
// sums from k = 8 on, so the last bits can differ from BLAS's, as torch's MKL results differ
// from both.
#pragma once

#include <cstdint>

namespace ct {

// The largest n * k * p computed here (a 64^3 product; B's panel, at most 64 x 64 when it is
// copied, stays in L1).  bench_matmul's BM_small_matmul rows: at 64^3 this path took 0.7x the
// time of one direct cblas_sgemm call on Zen 3; larger products go to BLAS, which blocks for
// the caches and can use threads.
inline constexpr int64_t kSmallGemmWork = 64 * 64 * 64;

// C (n x p, row stride ldc, unit column stride) = A (n x k) @ B (k x p), where A's element
// (i, k) is a[i * ars + k * acs] and B's element (k, j) is b[k * brs + j * bcs].  Returns
// false, touching nothing, when the product is too large for this path, when the CPU lacks
// AVX2 or FMA, or when n or p is 1 (BLAS's gemv is the better path for a vector).
template <class T>
bool small_gemm(const T* a, int64_t ars, int64_t acs, const T* b, int64_t brs, int64_t bcs, int64_t n, int64_t k,
                int64_t p, T* c, int64_t ldc);

}  // namespace ct
