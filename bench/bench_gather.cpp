// gather and index_select of 1M rows through the C API (issue 20's measurement; the
// comparison with PyTorch in the same run is bench/compare_gather.py).
//
//   BM_IndexSelectRows   x[1M, 16] f32, index a permutation of the 1M rows
//   BM_GatherRows        x[1M, 16] f32, index [1M, 16] of random rows
//   BM_GatherCols        x[1M, 16] f32, index [1M, 4] of random columns (dim 1)
// Bytes processed: the result's bytes written.
//
// Run: bench_gather --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ctensor.h"

namespace {

constexpr int64_t kRows = 1000000, kCols = 16;

ct_tensor* random_f32(int64_t rows, int64_t cols) {
  std::vector<float> v(size_t(rows * cols));
  std::mt19937 rng(0);
  for (float& x : v) x = float(rng() % 1000) / 7.0f;
  const int64_t sizes[2] = {rows, cols};
  return ct_from_data(v.data(), 2, sizes, CT_FLOAT32);
}

// [rows, cols] random values in [0, high), or (cols == 0) a 1-D permutation of [0, rows).
ct_tensor* random_index(int64_t rows, int64_t cols, int64_t high, bool permutation) {
  std::vector<int64_t> v(size_t(rows * std::max<int64_t>(cols, 1)));
  std::mt19937_64 rng(1);
  for (size_t i = 0; i < v.size(); ++i) v[i] = permutation ? int64_t(i) : int64_t(rng() % uint64_t(high));
  if (permutation) std::shuffle(v.begin(), v.end(), rng);
  const int64_t sizes[2] = {rows, cols};
  return ct_from_data(v.data(), cols == 0 ? 1 : 2, sizes, CT_INT64);
}

void run(benchmark::State& state, const ct_tensor* x, int dim, const ct_tensor* index, bool gather) {
  for (auto _ : state) {
    ct_tensor* r = gather ? ct_gather(x, dim, index) : ct_index_select(x, dim, index);
    if (!r) state.SkipWithError(ct_last_error());
    benchmark::DoNotOptimize(r);
    state.SetBytesProcessed(state.bytes_processed() + ct_tensor_numel(r) * 4);
    ct_tensor_release(r);
  }
}

void BM_IndexSelectRows(benchmark::State& state) {
  ct_tensor* x = random_f32(kRows, kCols);
  ct_tensor* perm = random_index(kRows, 0, kRows, true);
  run(state, x, 0, perm, false);
  ct_tensor_release(perm);
  ct_tensor_release(x);
}

void BM_GatherRows(benchmark::State& state) {
  ct_tensor* x = random_f32(kRows, kCols);
  ct_tensor* idx = random_index(kRows, kCols, kRows, false);
  run(state, x, 0, idx, true);
  ct_tensor_release(idx);
  ct_tensor_release(x);
}

void BM_GatherCols(benchmark::State& state) {
  ct_tensor* x = random_f32(kRows, kCols);
  ct_tensor* idx = random_index(kRows, 4, kCols, false);
  run(state, x, 1, idx, true);
  ct_tensor_release(idx);
  ct_tensor_release(x);
}

BENCHMARK(BM_IndexSelectRows)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GatherRows)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GatherCols)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
