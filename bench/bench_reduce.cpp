// Reductions: sum of a 64 MiB contiguous float32 tensor against the machine's read
// bandwidth, measured in the same binary by a raw read loop over the same buffer with the
// same number of threads.  Target: sum >= 0.8 x read bandwidth (issue: reductions).
//
// Each sum row runs the read loop on every iteration too (untimed) and reports
//   vs_read = median(read loop time) / median(sum time)
// so the ratio compares runs taken side by side, which matters on a shared machine.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/copy.h"
#include "core/ops/reduce.h"
#include "core/tensor.h"
#include "ctensor.h"

namespace {

constexpr int64_t kElems = int64_t(64) << 18;  // 64 MiB of float32
constexpr int64_t kBytes = kElems * 4;

typedef float v4f __attribute__((vector_size(16)));  // SSE2: the baseline of x86-64

v4f load4(const float* p) {
  v4f x;
  std::memcpy(&x, p, 16);
  return x;
}

// The floor: one pass over the bytes with 8 independent vector accumulators, as fast as a
// loop that reads every byte can go.
float read_block(const float* p, int64_t n) {
  v4f a0{}, a1{}, a2{}, a3{}, a4{}, a5{}, a6{}, a7{};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 += load4(p + i);
    a1 += load4(p + i + 4);
    a2 += load4(p + i + 8);
    a3 += load4(p + i + 12);
    a4 += load4(p + i + 16);
    a5 += load4(p + i + 20);
    a6 += load4(p + i + 24);
    a7 += load4(p + i + 28);
  }
  const v4f a = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  float s = a[0] + a[1] + a[2] + a[3];
  for (; i < n; ++i) s += p[i];
  return s;
}

float read_all(const float* p, int64_t n, int threads) {
  float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    const int64_t k = omp_get_thread_num(), t = omp_get_num_threads();
    total += read_block(p + n * k / t, n * (k + 1) / t - n * k / t);
  }
  return total;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

ct_tensor* make_input() {
  const int64_t n = kElems;
  return ct_full(1, &n, 1.0, CT_FLOAT32);
}

// threads: state.range(0); 0 = the library's default.
void BM_read_bandwidth(benchmark::State& state) {
  ct_tensor* x = make_input();
  const float* p = static_cast<const float*>(ct_tensor_data(x));
  const int threads = state.range(0) ? int(state.range(0)) : ct_get_num_threads();
  for (auto _ : state) benchmark::DoNotOptimize(read_all(p, kElems, threads));
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.counters["threads"] = threads;
  ct_tensor_release(x);
}
BENCHMARK(BM_read_bandwidth)->Arg(1)->Arg(0)->UseRealTime()->Unit(benchmark::kMillisecond);

// ct_sum through the C API, timed by hand so that the read loop can run alongside.
void BM_capi_sum_f32_64MiB(benchmark::State& state) {
  ct_tensor* x = make_input();
  const float* p = static_cast<const float*>(ct_tensor_data(x));
  ct_set_num_threads(int(state.range(0)));
  const int threads = ct_get_num_threads();
  std::vector<double> sum_t, read_t;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    ct_tensor* s = ct_sum(x, 0, nullptr, 0);
    const double dt = seconds_since(t0);
    benchmark::DoNotOptimize(s);
    ct_tensor_release(s);
    state.SetIterationTime(dt);
    sum_t.push_back(dt);
    t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(read_all(p, kElems, threads));
    read_t.push_back(seconds_since(t0));
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.counters["threads"] = threads;
  state.counters["vs_read"] = median(read_t) / median(sum_t);
  ct_set_num_threads(0);
  ct_tensor_release(x);
}
BENCHMARK(BM_capi_sum_f32_64MiB)->Arg(1)->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond);

// The core call (no C boundary), for the floor of the kernel itself.
void BM_core_sum_f32_64MiB(benchmark::State& state) {
  ct::Ref<ct::Tensor> x = ct::Tensor::empty(ct::Shape{kElems}, ct::DType::Float32, "bench");
  std::fill_n(reinterpret_cast<float*>(x->data()), kElems, 1.0f);
  for (auto _ : state) benchmark::DoNotOptimize(ct::sum(*x, {}, false));
  state.SetBytesProcessed(state.iterations() * kBytes);
}
BENCHMARK(BM_core_sum_f32_64MiB)->UseRealTime()->Unit(benchmark::kMillisecond);

// Other shapes of the same 64 MiB: over the last dim (INNER, many outputs), over the first
// (OUTER tiles), and the transposed view (read in memory order).
void BM_capi_sum_f32_rows(benchmark::State& state) {
  ct_tensor* x = make_input();
  const int64_t shape[2] = {4096, kElems / 4096};
  ct_tensor* m = ct_view(x, 2, shape);
  ct_tensor* in = state.range(1) ? ct_transpose(m, 0, 1) : ct_tensor_retain(m);
  const int dim = int(state.range(0));
  for (auto _ : state) {
    ct_tensor* s = ct_sum(in, 1, &dim, 0);
    benchmark::DoNotOptimize(s);
    ct_tensor_release(s);
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
  ct_tensor_release(in);
  ct_tensor_release(m);
  ct_tensor_release(x);
}
BENCHMARK(BM_capi_sum_f32_rows)
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({0, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_capi_amax_f32_64MiB(benchmark::State& state) {
  ct_tensor* x = make_input();
  for (auto _ : state) {
    ct_tensor* s = ct_amax(x, 0, nullptr, 0);
    benchmark::DoNotOptimize(s);
    ct_tensor_release(s);
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
  ct_tensor_release(x);
}
BENCHMARK(BM_capi_amax_f32_64MiB)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
