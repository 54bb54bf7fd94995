// ctensor (through its C ABI) and libtorch (ATen, Debian's libtorch-dev) on the same shapes,
// in one binary, row after row: BM_<op>/ctensor next to BM_<op>/libtorch.  Both use the
// same number of threads (ctensor's, set on ATen with at::set_num_threads).
//
// Built only when libtorch is found at configure time (bench/CMakeLists.txt).
// Run: bench_libtorch --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>

#include "ctensor.h"

namespace {

ct_tensor* ct_filled(std::initializer_list<int64_t> sizes) {
  ct_tensor* t = ct_full(int(sizes.size()), sizes.begin(), 1.5, CT_FLOAT32);
  if (!t) std::abort();
  return t;
}

void same_threads() { at::set_num_threads(ct_get_num_threads()); }

// ---- view create + release -------------------------------------------------------------------
void BM_view_transpose_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({3, 4});
  for (auto _ : state) {
    ct_tensor* v = ct_transpose(a, 0, 1);
    benchmark::DoNotOptimize(v);
    ct_tensor_release(v);
  }
  ct_tensor_release(a);
}
void BM_view_transpose_libtorch(benchmark::State& state) {
  at::Tensor a = at::full({3, 4}, 1.5);
  for (auto _ : state) {
    at::Tensor v = a.transpose(0, 1);
    benchmark::DoNotOptimize(v.unsafeGetTensorImpl());
  }
}
BENCHMARK(BM_view_transpose_ctensor);
BENCHMARK(BM_view_transpose_libtorch);

// ---- contiguous() of a transposed 4096^2 float32 ------------------------------------------------
void BM_contiguous_transposed_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({4096, 4096});
  ct_tensor* t = ct_transpose(a, 0, 1);
  for (auto _ : state) {
    ct_tensor* c = ct_contiguous(t);
    benchmark::DoNotOptimize(c);
    ct_tensor_release(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 4096 * 4096 * 4);
  ct_tensor_release(t);
  ct_tensor_release(a);
}
void BM_contiguous_transposed_libtorch(benchmark::State& state) {
  same_threads();
  at::Tensor t = at::full({4096, 4096}, 1.5).t();
  for (auto _ : state) {
    at::Tensor c = t.contiguous();
    benchmark::DoNotOptimize(c.data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 4096 * 4096 * 4);
}
BENCHMARK(BM_contiguous_transposed_ctensor)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_contiguous_transposed_libtorch)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- add: new result and in place, 16M float32 (64 MiB per operand) --------------------------
void BM_add_new_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({int64_t(1) << 24});
  ct_tensor* b = ct_filled({int64_t(1) << 24});
  for (auto _ : state) {
    ct_tensor* c = ct_add(a, b);
    benchmark::DoNotOptimize(c);
    ct_tensor_release(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 3 * (int64_t(4) << 24));
  ct_tensor_release(a);
  ct_tensor_release(b);
}
void BM_add_new_libtorch(benchmark::State& state) {
  same_threads();
  at::Tensor a = at::full({int64_t(1) << 24}, 1.5), b = at::full({int64_t(1) << 24}, 1.5);
  for (auto _ : state) {
    at::Tensor c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 3 * (int64_t(4) << 24));
}
BENCHMARK(BM_add_new_ctensor)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_new_libtorch)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_add_inplace_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({int64_t(1) << 24});
  ct_tensor* b = ct_filled({int64_t(1) << 24});
  for (auto _ : state) {
    if (ct_add_(a, b) != CT_OK) std::abort();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 3 * (int64_t(4) << 24));
  ct_tensor_release(a);
  ct_tensor_release(b);
}
void BM_add_inplace_libtorch(benchmark::State& state) {
  same_threads();
  at::Tensor a = at::full({int64_t(1) << 24}, 1.5), b = at::full({int64_t(1) << 24}, 1.5);
  for (auto _ : state) a.add_(b);
  state.SetBytesProcessed(int64_t(state.iterations()) * 3 * (int64_t(4) << 24));
}
BENCHMARK(BM_add_inplace_ctensor)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_inplace_libtorch)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- sum of 16M float32 ---------------------------------------------------------------------
void BM_sum_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({int64_t(1) << 24});
  for (auto _ : state) {
    ct_tensor* s = ct_sum(a, 0, nullptr, 0);
    benchmark::DoNotOptimize(s);
    ct_tensor_release(s);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * (int64_t(4) << 24));
  ct_tensor_release(a);
}
void BM_sum_libtorch(benchmark::State& state) {
  same_threads();
  at::Tensor a = at::full({int64_t(1) << 24}, 1.5);
  for (auto _ : state) {
    at::Tensor s = a.sum();
    benchmark::DoNotOptimize(s.data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * (int64_t(4) << 24));
}
BENCHMARK(BM_sum_ctensor)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sum_libtorch)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- matmul 1024^2 float32 ------------------------------------------------------------------
void BM_matmul_ctensor(benchmark::State& state) {
  ct_tensor* a = ct_filled({1024, 1024});
  ct_tensor* b = ct_filled({1024, 1024});
  for (auto _ : state) {
    ct_tensor* c = ct_matmul(a, b);
    benchmark::DoNotOptimize(c);
    ct_tensor_release(c);
  }
  ct_tensor_release(a);
  ct_tensor_release(b);
}
void BM_matmul_libtorch(benchmark::State& state) {
  same_threads();
  at::Tensor a = at::full({1024, 1024}, 1.5), b = at::full({1024, 1024}, 1.5);
  for (auto _ : state) {
    at::Tensor c = at::matmul(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
}
BENCHMARK(BM_matmul_ctensor)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matmul_libtorch)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
