// Elementwise add against a raw C++ loop.
//
// Rows (float32 throughout; N elements per operand; the last argument t of a ct row is
// ct_set_num_threads(t), 0 = the default of one per core; raw loops run on one thread):
//   Raw/N                  c[i] = a[i] + b[i] into a reused buffer: the floor for ct_add
//   RawInplace/N           c[i] += b[i]: the floor for ct_add_
//   CtAddNew/N/t           ct_add(a, b): a new tensor every iteration (allocation included)
//   CtAddInplace/N/t       ct_add_(c, b): in place, into a preallocated output
//   CoreAddInplace/N/t     ct::binary_ through the core, without the C boundary
//   CoreAddNew/N/s         ct::binary into a new tensor through the core, streaming stores
//                          for the large fresh output on (s = 1, the default) or off (s = 0)
//   RawRow/n, CtRow/n/t    (n, n) + (1, n): row broadcast, raw c[i][j] = a[i][j] + r[j]
//   RawRowInplace/n, CtRowInplace/n/t   c += row into a preallocated (n, n) c
//   RawCol/n, CtCol/n/t    (n, n) + (n, 1): column broadcast, raw c[i][j] = a[i][j] + k[i]
//   RawColInplace/n, CtColInplace/n/t   c += col
//   RawStrided/n, CtStrided/n/t         a + b.t() on (n, n), raw c[i][j] = a[i][j] + b[j][i]
// N = 2^24 is a 64 MiB operand: CtAddNew/16777216 against CtAddInplace/16777216 is the
// out-of-place vs preallocated comparison.  SetBytesProcessed counts every operand byte read
// and written (3 * 4 * N for a contiguous add).  Counter vs_raw = this row's rate / the rate
// of the raw loop doing the same thing (measured once per size at start-up, median of 7).
// Every ct tensor wraps the raw loops' buffers (ct_from_blob), so both touch the same memory.
//
// Run: bench_elementwise --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Buffers are made once per size and shared by every row, so a smoke run
// (--benchmark_min_time=0.001) costs little beyond one pass per row.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/copy.h"
#include "core/copy_kernels.h"
#include "core/ops/elementwise.h"
#include "core/tensor.h"
#include "ctensor.h"

namespace {

// ---- shared buffers -----------------------------------------------------------------------

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float[], FreeDeleter>;

Buffer make_buffer(int64_t n, float value) {
  const size_t bytes = (size_t(n) * sizeof(float) + 4095) / 4096 * 4096;
  Buffer b(static_cast<float*>(std::aligned_alloc(4096, bytes)));
  std::fill_n(b.get(), n, value);
  return b;
}

// Raw operands a, b, c of n floats, made once per n.
struct RawSet {
  Buffer a, b, c;
};
RawSet& raw(int64_t n) {
  static std::map<int64_t, RawSet> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    RawSet s{make_buffer(n, 1.0f), make_buffer(n, 2.0f), make_buffer(n, 0.0f)};
    it = cache.emplace(n, std::move(s)).first;
  }
  return it->second;
}

// Tensors over the raw buffers (ct_from_blob: no copy), so the C ABI rows and the raw loops
// read and write the very same memory, and setup allocates every buffer once.  which: 'a',
// 'b' or 'c' of raw(numel of sizes, or of the first operand for a broadcast row/column).
ct_tensor* tensor(std::vector<int64_t> sizes, char which, int64_t buffer_numel = -1) {
  static std::map<std::pair<std::vector<int64_t>, char>, ct_tensor*> cache;  // lives until exit
  auto key = std::make_pair(sizes, which);
  auto it = cache.find(key);
  if (it == cache.end()) {
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    RawSet& r = raw(buffer_numel < 0 ? numel : buffer_numel);
    float* data = which == 'a' ? r.a.get() : which == 'b' ? r.b.get() : r.c.get();
    ct_tensor* t = ct_from_blob(data, int(sizes.size()), sizes.data(), nullptr, CT_FLOAT32, nullptr, nullptr);
    it = cache.emplace(key, t).first;
  }
  return it->second;
}

// ---- raw loops ---------------------------------------------------------------------------

__attribute__((noinline)) void raw_add(float* __restrict c, const float* __restrict a, const float* __restrict b,
                                       int64_t n) {
  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
__attribute__((noinline)) void raw_add_inplace(float* __restrict a, const float* __restrict b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) a[i] += b[i];
}
__attribute__((noinline)) void raw_row(float* __restrict c, const float* __restrict a, const float* __restrict r,
                                       int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = a[i * n + j] + r[j];
}
__attribute__((noinline)) void raw_col(float* __restrict c, const float* __restrict a, const float* __restrict k,
                                       int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = a[i * n + j] + k[i];
}
__attribute__((noinline)) void raw_row_inplace(float* __restrict c, const float* __restrict r, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * n + j] += r[j];
}
__attribute__((noinline)) void raw_col_inplace(float* __restrict c, const float* __restrict k, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * n + j] += k[i];
}
__attribute__((noinline)) void raw_strided(float* __restrict c, const float* __restrict a, const float* __restrict b,
                                           int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * n + j] = a[i * n + j] + b[j * n + i];
}

enum class RawKind { Add, Inplace, Row, RowInplace, Col, ColInplace, Strided };

void run_raw(RawKind kind, int64_t n) {  // n: elements (Add/Inplace) or the side (others)
  RawSet& s = raw(kind == RawKind::Add || kind == RawKind::Inplace ? n : n * n);
  switch (kind) {
    case RawKind::Add: raw_add(s.c.get(), s.a.get(), s.b.get(), n); break;
    case RawKind::Inplace: raw_add_inplace(s.c.get(), s.b.get(), n); break;
    case RawKind::Row: raw_row(s.c.get(), s.a.get(), s.b.get(), n); break;
    case RawKind::RowInplace: raw_row_inplace(s.c.get(), s.b.get(), n); break;
    case RawKind::Col: raw_col(s.c.get(), s.a.get(), s.b.get(), n); break;
    case RawKind::ColInplace: raw_col_inplace(s.c.get(), s.b.get(), n); break;
    case RawKind::Strided: raw_strided(s.c.get(), s.a.get(), s.b.get(), n); break;
  }
  benchmark::DoNotOptimize(s.c.get());
  benchmark::ClobberMemory();
}

// Bytes read and written by one pass.
int64_t pass_bytes(RawKind kind, int64_t n) {
  switch (kind) {
    case RawKind::Add:
    case RawKind::Inplace: return 3 * 4 * n;
    case RawKind::Row:
    case RawKind::RowInplace:
    case RawKind::Col:
    case RawKind::ColInplace: return 2 * 4 * n * n + 4 * n;
    case RawKind::Strided: return 3 * 4 * n * n;
  }
  return 0;
}

// Bytes per second of the raw loop, median of 7 timed passes after a warm-up.
double raw_rate(RawKind kind, int64_t n) {
  static std::map<std::pair<int, int64_t>, double> cache;
  const auto key = std::make_pair(int(kind), n);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  run_raw(kind, n);
  std::vector<double> t;
  for (int i = 0; i < 7; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run_raw(kind, n);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return cache[key] = double(pass_bytes(kind, n)) / t[3];
}

void finish(benchmark::State& state, RawKind kind, int64_t n) {
  const int64_t bytes = pass_bytes(kind, n);
  state.SetBytesProcessed(int64_t(state.iterations()) * bytes);
  state.counters["vs_raw"] = benchmark::Counter(double(bytes) / raw_rate(kind, n), benchmark::Counter::kIsIterationInvariantRate);
}

// Sets the thread count for a row (of the shared library and of the static core: the binary
// holds both) and restores the default afterwards.
struct Threads {
  explicit Threads(int64_t n) {
    ct_set_num_threads(int(n));
    ct::set_num_threads(int(n));
  }
  ~Threads() {
    ct_set_num_threads(0);
    ct::set_num_threads(0);
  }
};

// ---- rows --------------------------------------------------------------------------------

void BM_Raw(benchmark::State& state) {
  const int64_t n = state.range(0);
  for (auto _ : state) run_raw(RawKind::Add, n);
  finish(state, RawKind::Add, n);
}
void BM_RawInplace(benchmark::State& state) {
  const int64_t n = state.range(0);
  for (auto _ : state) run_raw(RawKind::Inplace, n);
  finish(state, RawKind::Inplace, n);
}

void BM_CtAddInplace(benchmark::State& state) {
  const int64_t n = state.range(0);
  Threads threads(state.range(1));
  ct_tensor* c = tensor({n}, 'c');
  ct_tensor* b = tensor({n}, 'b');
  for (auto _ : state) {
    if (ct_add_(c, b) != CT_OK) state.SkipWithError(ct_last_error());
    benchmark::ClobberMemory();
  }
  finish(state, RawKind::Inplace, n);
}

void BM_CtAddNew(benchmark::State& state) {
  const int64_t n = state.range(0);
  Threads threads(state.range(1));
  ct_tensor* a = tensor({n}, 'a');
  ct_tensor* b = tensor({n}, 'b');
  for (auto _ : state) {
    ct_tensor* c = ct_add(a, b);
    if (!c) state.SkipWithError(ct_last_error());
    benchmark::DoNotOptimize(c);
    ct_tensor_release(c);
  }
  finish(state, RawKind::Add, n);
}

void BM_CoreAddInplace(benchmark::State& state) {
  const int64_t n = state.range(0);
  Threads threads(state.range(1));
  // Core tensors (of the static core, not the shared library's) over the same raw buffers.
  auto wrap = [&](float* data) {
    ct::Storage* s = ct::Storage::wrap(data, n * 4, nullptr, nullptr, false);
    const int64_t sizes[1] = {n}, strides[1] = {1};
    ct::Ref<ct::Tensor> t = ct::Tensor::make(s, ct::DType::Float32, sizes, strides, 0, nullptr);
    s->release();  // the tensor holds its own reference
    return t;
  };
  const ct::Ref<ct::Tensor> c = wrap(raw(n).c.get()), b = wrap(raw(n).b.get());
  for (auto _ : state) {
    ct::binary_(ct::BinaryOp::Add, *c, ct::Operand::of(*b));
    benchmark::ClobberMemory();
  }
  finish(state, RawKind::Inplace, n);
}

// ct::binary through the static core into a new tensor, with the streaming stores for large
// fresh outputs on (the default, stream = 1) or off (stream = 0): the A/B of that choice.
void BM_CoreAddNew(benchmark::State& state) {
  const int64_t n = state.range(0);
  Threads threads(1);
  if (state.range(1) == 0) ct::kernels::set_streaming_bytes(INT64_MAX);
  auto wrap = [&](float* data) {
    ct::Storage* s = ct::Storage::wrap(data, n * 4, nullptr, nullptr, false);
    const int64_t sizes[1] = {n}, strides[1] = {1};
    ct::Ref<ct::Tensor> t = ct::Tensor::make(s, ct::DType::Float32, sizes, strides, 0, nullptr);
    s->release();
    return t;
  };
  const ct::Ref<ct::Tensor> a = wrap(raw(n).a.get()), b = wrap(raw(n).b.get());
  for (auto _ : state) {
    ct::Ref<ct::Tensor> c = ct::binary(ct::BinaryOp::Add, ct::Operand::of(*a), ct::Operand::of(*b));
    benchmark::DoNotOptimize(c->data());
  }
  ct::kernels::set_streaming_bytes(0);
  finish(state, RawKind::Add, n);
}

void BM_RawRow(benchmark::State& state) {
  for (auto _ : state) run_raw(RawKind::Row, state.range(0));
  finish(state, RawKind::Row, state.range(0));
}
void BM_RawRowInplace(benchmark::State& state) {
  for (auto _ : state) run_raw(RawKind::RowInplace, state.range(0));
  finish(state, RawKind::RowInplace, state.range(0));
}
void BM_RawColInplace(benchmark::State& state) {
  for (auto _ : state) run_raw(RawKind::ColInplace, state.range(0));
  finish(state, RawKind::ColInplace, state.range(0));
}
void BM_RawCol(benchmark::State& state) {
  for (auto _ : state) run_raw(RawKind::Col, state.range(0));
  finish(state, RawKind::Col, state.range(0));
}
void BM_RawStrided(benchmark::State& state) {
  for (auto _ : state) run_raw(RawKind::Strided, state.range(0));
  finish(state, RawKind::Strided, state.range(0));
}

// a op b into a new tensor, with b given by its sizes (and transposed for Strided).
void ct_pattern(benchmark::State& state, RawKind kind) {
  const int64_t n = state.range(0);
  Threads threads(state.range(1));
  ct_tensor* a = tensor({n, n}, 'a');
  ct_tensor* b = kind == RawKind::Row   ? tensor({1, n}, 'b', n * n)
                 : kind == RawKind::Col ? tensor({n, 1}, 'b', n * n)
                                        : tensor({n, n}, 'b');
  ct_tensor* bt = kind == RawKind::Strided ? ct_transpose(b, 0, 1) : ct_tensor_retain(b);
  for (auto _ : state) {
    ct_tensor* c = ct_add(a, bt);
    if (!c) state.SkipWithError(ct_last_error());
    benchmark::DoNotOptimize(c);
    ct_tensor_release(c);
  }
  ct_tensor_release(bt);
  finish(state, kind, n);
}
// The same patterns written in place into a preallocated (n, n) output: c += row, c += col.
void ct_pattern_inplace(benchmark::State& state, RawKind kind) {
  const int64_t n = state.range(0);
  Threads threads(state.range(1));
  ct_tensor* c = tensor({n, n}, 'c');
  ct_tensor* b = kind == RawKind::Row ? tensor({1, n}, 'b', n * n) : tensor({n, 1}, 'b', n * n);
  for (auto _ : state) {
    if (ct_add_(c, b) != CT_OK) state.SkipWithError(ct_last_error());
    benchmark::ClobberMemory();
  }
  finish(state, kind == RawKind::Row ? RawKind::RowInplace : RawKind::ColInplace, n);
}
void BM_CtRowInplace(benchmark::State& state) { ct_pattern_inplace(state, RawKind::Row); }
void BM_CtColInplace(benchmark::State& state) { ct_pattern_inplace(state, RawKind::Col); }
void BM_CtRow(benchmark::State& state) { ct_pattern(state, RawKind::Row); }
void BM_CtCol(benchmark::State& state) { ct_pattern(state, RawKind::Col); }
void BM_CtStrided(benchmark::State& state) { ct_pattern(state, RawKind::Strided); }

constexpr int64_t kSmall = int64_t(1) << 16;  // 256 KiB per operand: caches
constexpr int64_t kMid = int64_t(1) << 20;    // 4 MiB per operand
constexpr int64_t k64MiB = int64_t(1) << 24;  // 64 MiB per operand
constexpr int64_t kSide = 2048;               // (2048, 2048) float32: 16 MiB per operand

void sizes_1d(benchmark::internal::Benchmark* b) {
  for (int64_t n : {kSmall, kMid, k64MiB}) b->Args({n});
}
void sizes_1d_threads(benchmark::internal::Benchmark* b) {
  for (int64_t n : {kSmall, kMid, k64MiB})
    for (int64_t t : {1, 0}) b->Args({n, t});
}
void sizes_2d_threads(benchmark::internal::Benchmark* b) {
  for (int64_t t : {1, 0}) b->Args({kSide, t});
}

BENCHMARK(BM_Raw)->Apply(sizes_1d)->UseRealTime();
BENCHMARK(BM_RawInplace)->Apply(sizes_1d)->UseRealTime();
BENCHMARK(BM_CtAddInplace)->Apply(sizes_1d_threads)->UseRealTime();
BENCHMARK(BM_CtAddNew)->Apply(sizes_1d_threads)->UseRealTime();
BENCHMARK(BM_CoreAddInplace)->Apply(sizes_1d_threads)->UseRealTime();
BENCHMARK(BM_CoreAddNew)->Args({k64MiB, 1})->Args({k64MiB, 0})->UseRealTime();
BENCHMARK(BM_RawRow)->Arg(kSide)->UseRealTime();
BENCHMARK(BM_CtRow)->Apply(sizes_2d_threads)->UseRealTime();
BENCHMARK(BM_RawRowInplace)->Arg(kSide)->UseRealTime();
BENCHMARK(BM_CtRowInplace)->Apply(sizes_2d_threads)->UseRealTime();
BENCHMARK(BM_RawCol)->Arg(kSide)->UseRealTime();
BENCHMARK(BM_CtCol)->Apply(sizes_2d_threads)->UseRealTime();
BENCHMARK(BM_RawColInplace)->Arg(kSide)->UseRealTime();
BENCHMARK(BM_CtColInplace)->Apply(sizes_2d_threads)->UseRealTime();
BENCHMARK(BM_RawStrided)->Arg(kSide)->UseRealTime();
BENCHMARK(BM_CtStrided)->Apply(sizes_2d_threads)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
