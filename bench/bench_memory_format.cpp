// Channels-last through the C API, against baselines in the same binary (issue 18's rows):
//   BM_ContiguousChannelsLast  ct_contiguous_format(x, CT_CHANNELS_LAST) of a contiguous
//                              [32, 64, 56, 56] float32 x (a new 103 MB tensor each time)
//   BM_AddChannelsLast         ct_add(a, b) of two channels-last tensors of that size
// Counters (ratios of medians over the same iterations, so the machine's load falls on both):
//   vs_memcpy   the row's bytes written per second / those of memcpy of the same bytes into a
//               reused buffer (1.0 would be a copy as fast as memcpy)
//   vs_raw      (add only) time of a raw loop c[i] = a[i] + b[i] over the same elements into a
//               reused buffer / the row's time
// The library's own thread count (ct_get_num_threads, one per core) is used throughout; the
// baselines are single-threaded, as glibc's memcpy is.  Python-side ratios against torch and
// NumPy: bench/compare_memory_format.py.
//
// Run: bench_memory_format --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "ctensor.h"

namespace {

constexpr int64_t kSizes[4] = {32, 64, 56, 56};
constexpr int64_t kNumel = 32 * 64 * 56 * 56;
constexpr int64_t kBytes = kNumel * 4;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

ct_tensor* random_tensor() { return ct_rand(4, kSizes, CT_FLOAT32); }

// Runs op once per iteration (manual time), each followed by the baselines (untimed for the row).
template <class F>
void timed_rows(benchmark::State& state, bool with_raw_add, F&& op) {
  static std::vector<float> a = std::vector<float>(size_t(kNumel), 1.f);
  static std::vector<float> b = std::vector<float>(size_t(kNumel), 2.f);
  static std::vector<float> c = std::vector<float>(size_t(kNumel), 0.f);
  std::vector<double> row, mem, raw;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    op();
    benchmark::ClobberMemory();
    const double dt = seconds_since(t0);
    state.SetIterationTime(dt);
    row.push_back(dt);
    t0 = std::chrono::steady_clock::now();
    std::memcpy(c.data(), a.data(), size_t(kBytes));
    benchmark::ClobberMemory();
    mem.push_back(seconds_since(t0));
    if (with_raw_add) {
      t0 = std::chrono::steady_clock::now();
      for (int64_t i = 0; i < kNumel; ++i) c[size_t(i)] = a[size_t(i)] + b[size_t(i)];
      benchmark::DoNotOptimize(c.data());
      benchmark::ClobberMemory();
      raw.push_back(seconds_since(t0));
    }
  }
  state.SetBytesProcessed(int64_t(double(kBytes) * double(state.iterations())));
  state.counters["vs_memcpy"] = median(mem) / median(row);
  if (with_raw_add) state.counters["vs_raw"] = median(raw) / median(row);
}

void BM_ContiguousChannelsLast(benchmark::State& state) {
  ct_tensor* x = random_tensor();
  timed_rows(state, false, [&] {
    ct_tensor* r = ct_contiguous_format(x, CT_CHANNELS_LAST);
    if (!r) state.SkipWithError(ct_last_error());
    benchmark::DoNotOptimize(r);
    ct_tensor_release(r);
  });
  ct_tensor_release(x);
}
BENCHMARK(BM_ContiguousChannelsLast)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_AddChannelsLast(benchmark::State& state) {
  ct_tensor* x = random_tensor();
  ct_tensor* y = random_tensor();
  ct_tensor* a = ct_contiguous_format(x, CT_CHANNELS_LAST);
  ct_tensor* b = ct_contiguous_format(y, CT_CHANNELS_LAST);
  timed_rows(state, true, [&] {
    ct_tensor* r = ct_add(a, b);
    if (!r || ct_is_contiguous_format(r, CT_CHANNELS_LAST) != 1) state.SkipWithError("add: not channels-last");
    benchmark::DoNotOptimize(r);
    ct_tensor_release(r);
  });
  for (ct_tensor* t : {x, y, a, b}) ct_tensor_release(t);
}
BENCHMARK(BM_AddChannelsLast)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
