// matmul: ct_matmul of two 1024 x 1024 float32 matrices against a direct cblas_sgemm call
// in the same binary (into a preallocated result).  Target: within 10% (issue: matmul).
//
// The ct_matmul row runs the direct call on every iteration too (untimed) and reports
//   vs_blas = median(direct sgemm time) / median(ct_matmul time)
// so the comparison is between runs taken side by side.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "ctensor.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

ct_tensor* random_matrix(int64_t rows, int64_t cols, ct_dtype d) {
  const int64_t s[2] = {rows, cols};
  return ct_rand(2, s, d);
}

void BM_cblas_sgemm(benchmark::State& state) {
  const int n = int(state.range(0));
  ct_tensor* a = random_matrix(n, n, CT_FLOAT32);
  ct_tensor* b = random_matrix(n, n, CT_FLOAT32);
  std::vector<float> c(size_t(n) * size_t(n));
  const float* pa = static_cast<const float*>(ct_tensor_data(a));
  const float* pb = static_cast<const float*>(ct_tensor_data(b));
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, pa, n, pb, n, 0.0f, c.data(), n);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * n * n * double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
  ct_tensor_release(a);
  ct_tensor_release(b);
}
BENCHMARK(BM_cblas_sgemm)->Arg(1024)->UseRealTime()->Unit(benchmark::kMillisecond);

// state.range(1): 0 = b as is, 1 = b a transposed view (passed to BLAS as CblasTrans).
void BM_capi_matmul_f32(benchmark::State& state) {
  const int n = int(state.range(0));
  ct_tensor* a = random_matrix(n, n, CT_FLOAT32);
  ct_tensor* b0 = random_matrix(n, n, CT_FLOAT32);
  ct_tensor* b = state.range(1) ? ct_transpose(b0, 0, 1) : ct_tensor_retain(b0);
  std::vector<float> c(size_t(n) * size_t(n));
  const float* pa = static_cast<const float*>(ct_tensor_data(a));
  const float* pb = static_cast<const float*>(ct_tensor_data(b0));
  const CBLAS_TRANSPOSE tb = state.range(1) ? CblasTrans : CblasNoTrans;
  std::vector<double> ours, direct;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    ct_tensor* r = ct_matmul(a, b);
    const double dt = seconds_since(t0);
    benchmark::DoNotOptimize(r);
    ct_tensor_release(r);
    state.SetIterationTime(dt);
    ours.push_back(dt);
    t0 = std::chrono::steady_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, tb, n, n, n, 1.0f, pa, n, pb, n, 0.0f, c.data(), n);
    benchmark::ClobberMemory();
    direct.push_back(seconds_since(t0));
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * n * n * double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["vs_blas"] = median(direct) / median(ours);
  ct_tensor_release(a);
  ct_tensor_release(b);
  ct_tensor_release(b0);
}
BENCHMARK(BM_capi_matmul_f32)->Args({1024, 0})->Args({1024, 1})->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_capi_matmul(benchmark::State& state) {
  const int n = int(state.range(0));
  const ct_dtype d = ct_dtype(state.range(1));
  ct_tensor* a = random_matrix(n, n, CT_FLOAT32);
  ct_tensor* b = random_matrix(n, n, CT_FLOAT32);
  ct_tensor* x = ct_to(a, d);
  ct_tensor* y = ct_to(b, d);
  for (auto _ : state) {
    ct_tensor* r = ct_matmul(x, y);
    benchmark::DoNotOptimize(r);
    ct_tensor_release(r);
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * n * n * double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
  for (ct_tensor* t : {a, b, x, y}) ct_tensor_release(t);
}
// float64 through BLAS; int32 and bfloat16 through the own loop.
BENCHMARK(BM_capi_matmul)
    ->Args({512, CT_FLOAT64})
    ->Args({256, CT_INT32})
    ->Args({256, CT_BFLOAT16})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Many small products: (1000, 8, 8) @ (1000, 8, 8), one BLAS call per batch.
void BM_capi_matmul_batched_small(benchmark::State& state) {
  const int64_t s[3] = {1000, 8, 8};
  ct_tensor* a = ct_rand(3, s, CT_FLOAT32);
  ct_tensor* b = ct_rand(3, s, CT_FLOAT32);
  for (auto _ : state) {
    ct_tensor* r = ct_matmul(a, b);
    benchmark::DoNotOptimize(r);
    ct_tensor_release(r);
  }
  ct_tensor_release(a);
  ct_tensor_release(b);
}
BENCHMARK(BM_capi_matmul_batched_small)->UseRealTime()->Unit(benchmark::kMicrosecond);

// Small products (issue 26): 20 ct_matmul calls of (n x k) @ (k x p) float32 an iteration (the
// time shown is for 20), against 20 direct cblas_sgemm calls on the same buffers alternated with
// them; vs_blas = median(direct) / median(ct_matmul), where ct_matmul also allocates its result.
// Up to kSmallGemmWork (64^3) multiply-adds ct_matmul runs its own kernel (src/core/ops/
// small_gemm), above it BLAS; state.range(3) = 1 passes b as a transposed view (the backward's
// dZ @ W^T), which the own kernel first copies into a contiguous panel.
void BM_small_matmul(benchmark::State& state) {
  const int n = int(state.range(0)), k = int(state.range(1)), p = int(state.range(2));
  const bool bt = state.range(3) != 0;
  ct_tensor* a = random_matrix(n, k, CT_FLOAT32);
  ct_tensor* b0 = bt ? random_matrix(p, k, CT_FLOAT32) : random_matrix(k, p, CT_FLOAT32);
  ct_tensor* b = bt ? ct_transpose(b0, 0, 1) : ct_tensor_retain(b0);
  std::vector<float> c(size_t(n) * size_t(p));
  const float* pa = static_cast<const float*>(ct_tensor_data(a));
  const float* pb = static_cast<const float*>(ct_tensor_data(b0));
  std::vector<double> ours, direct;
  for (auto _ : state) {
    // 20 calls a sample: one small product is about a microsecond, near the clock's resolution
    auto t0 = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 20; ++rep) {
      ct_tensor* r = ct_matmul(a, b);
      benchmark::DoNotOptimize(r);
      ct_tensor_release(r);
    }
    const double dt = seconds_since(t0);
    state.SetIterationTime(dt);
    ours.push_back(dt);
    t0 = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 20; ++rep) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, bt ? CblasTrans : CblasNoTrans, n, p, k, 1.0f, pa, k, pb, bt ? k : p,
                  0.0f, c.data(), p);
      benchmark::ClobberMemory();
    }
    direct.push_back(seconds_since(t0));
  }
  state.counters["vs_blas"] = median(direct) / median(ours);
  ct_tensor_release(a);
  ct_tensor_release(b);
  ct_tensor_release(b0);
}
BENCHMARK(BM_small_matmul)
    ->Args({8, 32, 32, 0})
    ->Args({8, 32, 32, 1})
    ->Args({32, 8, 32, 0})
    ->Args({16, 16, 16, 0})
    ->Args({32, 32, 32, 0})
    ->Args({48, 48, 48, 0})
    ->Args({64, 64, 64, 0})
    ->Args({64, 64, 64, 1})
    ->Args({80, 80, 80, 0})
    ->Args({128, 128, 128, 0})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
