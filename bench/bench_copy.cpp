// The strided copy engine against memcpy.
//
// Every row copies (about) 64 MiB so rates are comparable; SetBytesProcessed counts the
// bytes written once (read bytes are not added), as for memcpy.  Counters:
//   vs_memcpy        rate / rate of glibc memcpy between two reused 64 MiB buffers
//   vs_memcpy_fresh  rate / rate of memcpy into a newly allocated 64 MiB tensor (what any
//                    copy that returns a new tensor pays: with the buffer cache the memory
//                    of the previous iteration's tensor; with CTENSOR_BUFFER_CACHE_BYTES=0,
//                    fresh pages and their first-touch faults)
//   vs_memcpy_cpu    as vs_memcpy, in thread CPU time instead of wall time (1-thread rows)
// The baselines run after every iteration of every row (untimed for the row), and the
// ratios are of medians over the same iterations: baseline and row share the machine's load.
//
// Run: bench_copy --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "core/copy.h"
#include "core/copy_kernels.h"
#include "core/tensor.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Tensor;

constexpr int64_t kBytes = int64_t(64) << 20;

Ref<Tensor> filled(ct::Shape sizes, DType dtype) {
  Ref<Tensor> t = Tensor::empty(sizes, dtype, "bench");
  std::memset(t->data(), 0x5a, size_t(t->numel() * t->itemsize()));
  return t;
}

// Transposed view (rows x cols matrix seen as cols x rows) of a contiguous tensor.
Ref<Tensor> transposed(const Ref<Tensor>& a) {
  const int64_t r = a->size(0), c = a->size(1);
  const int64_t sizes[] = {c, r};
  const int64_t strides[] = {1, c};
  return Tensor::make(a->storage(), a->dtype(), sizes, strides, 0, a->view_root());
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of the calling thread: unlike wall time, it does not count the time the thread
// waits while the OS runs other processes on its core (the 1-thread rows on a shared machine).
double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The baselines, run after every iteration of a row (untimed for the row itself): memcpy of
// 64 MiB between two reused tensor buffers (2 MiB aligned, huge pages, already touched), and
// memcpy into a new 64 MiB tensor.  A row reports its rate over the medians of these, taken
// in the same seconds, so a change of the machine's load moves both sides alike.
struct Baselines {
  std::vector<double> row, memcpy_reused, memcpy_fresh, row_cpu, memcpy_cpu;

  void run_once() {
    static const Ref<Tensor> src = filled({kBytes}, DType::UInt8);
    static const Ref<Tensor> dst = filled({kBytes}, DType::UInt8);
    const double c0 = thread_cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst->data(), src->data(), size_t(kBytes));
    benchmark::ClobberMemory();
    memcpy_reused.push_back(seconds_since(t0));
    memcpy_cpu.push_back(thread_cpu_seconds() - c0);
    t0 = std::chrono::steady_clock::now();
    {
      Ref<Tensor> out = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
      std::memcpy(out->data(), src->data(), size_t(kBytes));
      benchmark::DoNotOptimize(out->data());
      benchmark::ClobberMemory();
    }
    memcpy_fresh.push_back(seconds_since(t0));
  }
};

// Runs op once per iteration, timed (manual time), each followed by the baselines.
template <class F>
void timed_rows(benchmark::State& state, int64_t bytes_per_iter, F&& op) {
  Baselines b;
  b.run_once();  // warm-up: the baselines' buffers exist before the first timed iteration
  b.memcpy_reused.clear();
  b.memcpy_fresh.clear();
  b.memcpy_cpu.clear();
  for (auto _ : state) {
    const double c0 = thread_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    op();
    benchmark::ClobberMemory();
    const double dt = seconds_since(t0);
    b.row_cpu.push_back(thread_cpu_seconds() - c0);
    state.SetIterationTime(dt);
    b.row.push_back(dt);
    b.run_once();
  }
  state.SetBytesProcessed(int64_t(double(bytes_per_iter) * double(state.iterations())));
  const double rate = double(bytes_per_iter) / median(b.row);
  state.counters["vs_memcpy"] = rate / (double(kBytes) / median(b.memcpy_reused));
  state.counters["vs_memcpy_fresh"] = rate / (double(kBytes) / median(b.memcpy_fresh));
  // The same ratio in thread CPU time: meaningful for 1-thread rows (a multi-threaded row's
  // other threads are not counted), and steadier than wall time when the cores are shared.
  state.counters["vs_memcpy_cpu"] =
      double(bytes_per_iter) / median(b.row_cpu) / (double(kBytes) / median(b.memcpy_cpu));
}

// Sets the core's thread count for a row (0: the default, one per core) and restores it.
struct Threads {
  explicit Threads(int64_t n) { ct::set_num_threads(int(n)); }
  ~Threads() { ct::set_num_threads(0); }
};

// ---- baselines ----------------------------------------------------------------------------
// Each baseline row is timed like any other row, so its vs_memcpy is the noise floor of the
// method (about 1.0 for BM_Memcpy).

void BM_Memcpy(benchmark::State& state) {  // between two reused tensor buffers
  Ref<Tensor> src = filled({kBytes}, DType::UInt8), dst = filled({kBytes}, DType::UInt8);
  timed_rows(state, kBytes, [&] {
    std::memcpy(dst->data(), src->data(), size_t(kBytes));
    benchmark::DoNotOptimize(dst->data());
  });
}
BENCHMARK(BM_Memcpy)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_MemcpyIntoNewTensor(benchmark::State& state) {
  Ref<Tensor> src = filled({kBytes}, DType::UInt8);
  timed_rows(state, kBytes, [&] {
    Ref<Tensor> out = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
    std::memcpy(out->data(), src->data(), size_t(kBytes));
    benchmark::DoNotOptimize(out->data());
  });
}
BENCHMARK(BM_MemcpyIntoNewTensor)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_StreamingCopy(benchmark::State& state) {  // non-temporal stores, one thread
  Ref<Tensor> src = filled({kBytes}, DType::UInt8), dst = filled({kBytes}, DType::UInt8);
  timed_rows(state, kBytes, [&] {
    ct::kernels::stream_copy(dst->data(), src->data(), kBytes);
    benchmark::DoNotOptimize(dst->data());
  });
}
BENCHMARK(BM_StreamingCopy)->UseManualTime()->Unit(benchmark::kMillisecond);

// STREAM's triad, a[i] = b[i] + 3 c[i] over float32 64 MiB arrays, one thread: the bandwidth
// ceiling of a loop that reads two streams and writes one (bytes counted: all three).
void BM_Triad(benchmark::State& state) {
  Ref<Tensor> a = filled({kBytes / 4}, DType::Float32), b = filled({kBytes / 4}, DType::Float32),
              c = filled({kBytes / 4}, DType::Float32);
  float* pa = reinterpret_cast<float*>(a->data());
  const float* pb = reinterpret_cast<const float*>(b->data());
  const float* pc = reinterpret_cast<const float*>(c->data());
  const int64_t n = kBytes / 4;
  timed_rows(state, 3 * kBytes, [&] {
    for (int64_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0f * pc[i];
    benchmark::DoNotOptimize(pa);
  });
}
BENCHMARK(BM_Triad)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- allocation of large tensors ------------------------------------------------------------
// A new 64 MiB buffer, written once, then freed: with malloc (glibc maps and unmaps it each
// time, so every page is a fresh zeroed page) and as a ctensor tensor (the buffer cache hands
// back the previous one).  The gap is what every out-of-place op on big tensors saves.
void BM_AllocWriteFree_malloc(benchmark::State& state) {
  timed_rows(state, kBytes, [&] {
    char* p = static_cast<char*>(std::malloc(size_t(kBytes)));
    std::memset(p, 1, size_t(kBytes));
    benchmark::DoNotOptimize(p);
    benchmark::ClobberMemory();
    std::free(p);
  });
}
BENCHMARK(BM_AllocWriteFree_malloc)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_AllocWriteFree_tensor(benchmark::State& state) {
  timed_rows(state, kBytes, [&] {
    Ref<Tensor> t = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
    std::memset(t->data(), 1, size_t(kBytes));
    benchmark::DoNotOptimize(t->data());
  });
}
BENCHMARK(BM_AllocWriteFree_tensor)->UseManualTime()->Unit(benchmark::kMillisecond);

// ---- the engine through the core --------------------------------------------------------------
// Rows with a "threads" argument run with ct::set_num_threads(threads), 0 = the default (one
// per core); the memcpy baseline is one thread either way.  On a loaded machine the 1-thread
// rows are the steadier measure of the kernel.

// clone of a contiguous tensor: the flat path (threads + streaming stores), new storage.
void BM_CloneContiguous(benchmark::State& state) {
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  timed_rows(state, kBytes, [&] {
    Ref<Tensor> c = ct::clone(*a);
    benchmark::DoNotOptimize(c->data());
  });
}
BENCHMARK(BM_CloneContiguous)->UseManualTime()->Unit(benchmark::kMillisecond);

// contiguous() of a transposed matrix of 64 MiB: rows x cols of the given dtype.
void BM_ContiguousTransposed(benchmark::State& state, DType dtype, int64_t rows, int64_t cols) {
  Threads threads(state.range(0));
  Ref<Tensor> a = filled({rows, cols}, dtype);
  Ref<Tensor> t = transposed(a);
  timed_rows(state, rows * cols * a->itemsize(), [&] {
    Ref<Tensor> c = ct::contiguous(*t);
    benchmark::DoNotOptimize(c->data());
  });
}
BENCHMARK_CAPTURE(BM_ContiguousTransposed, float32_4096x4096, DType::Float32, 4096, 4096)
    ->ArgName("threads")->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, uint8_8192x8192, DType::UInt8, 8192, 8192)
    ->ArgName("threads")->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, int16_4096x8192, DType::Int16, 4096, 8192)
    ->ArgName("threads")->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, float64_2048x4096, DType::Float64, 2048, 4096)
    ->ArgName("threads")->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond);

// The transpose kernel alone: copy_ into a preallocated (already touched) destination.
void BM_CopyIntoTransposed(benchmark::State& state) {
  Threads threads(state.range(0));
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  Ref<Tensor> t = transposed(a);
  Ref<Tensor> dst = filled({4096, 4096}, DType::Float32);
  timed_rows(state, kBytes, [&] {
    ct::copy_into(*dst, *t);
    benchmark::DoNotOptimize(dst->data());
  });
}
BENCHMARK(BM_CopyIntoTransposed)->ArgName("threads")->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond);

// contiguous() of a permuted 64 MiB tensor, for each item size (state.range(1) bytes):
//   3-d: (256, 256, n) permuted (2, 0, 1)
//   4-d: (32, 64, 64, n) permuted (0, 2, 3, 1): NCHW -> NHWC
// with n chosen so the tensor is 64 MiB.
void BM_ContiguousPermute(benchmark::State& state) {
  const int ndim = int(state.range(0));
  const int64_t item = state.range(1);
  Threads threads(state.range(2));
  const DType dtype = item == 1 ? DType::UInt8 : item == 2 ? DType::Int16 : item == 4 ? DType::Float32 : DType::Float64;
  const int64_t elems = kBytes / item;
  ct::Shape sizes = ndim == 3 ? ct::Shape{256, 256, elems / 65536} : ct::Shape{32, 64, 64, elems / 131072};
  const std::vector<int> perm = ndim == 3 ? std::vector<int>{2, 0, 1} : std::vector<int>{0, 2, 3, 1};
  Ref<Tensor> a = filled(sizes, dtype);
  ct::Shape psizes, pstrides;
  for (int d : perm) {
    psizes.push_back(a->size(d));
    pstrides.push_back(a->stride(d));
  }
  Ref<Tensor> p = Tensor::make(a->storage(), dtype, psizes, pstrides, 0, a->view_root());
  timed_rows(state, kBytes, [&] {
    Ref<Tensor> c = ct::contiguous(*p);
    benchmark::DoNotOptimize(c->data());
  });
}
BENCHMARK(BM_ContiguousPermute)
    ->ArgNames({"ndim", "itemsize", "threads"})
    ->ArgsProduct({{3, 4}, {1, 2, 4, 8}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// float32 -> float16 of a contiguous tensor (the element loop with conversion).
void BM_ToFloat16(benchmark::State& state) {
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  timed_rows(state, kBytes, [&] {  // bytes read
    Ref<Tensor> c = ct::to_dtype(*a, DType::Float16);
    benchmark::DoNotOptimize(c->data());
  });
}
BENCHMARK(BM_ToFloat16)->UseManualTime()->Unit(benchmark::kMillisecond);

// Small and medium transposes: below the grain size no parallel region is entered (8, 64,
// 256); 512 (1 MiB) and 1024 (4 MiB) use the threads, from cache.
void BM_ContiguousTransposedSmall(benchmark::State& state) {
  const int64_t n = state.range(0);
  Ref<Tensor> a = filled({n, n}, DType::Float32);
  Ref<Tensor> t = transposed(a);
  for (auto _ : state) {
    Ref<Tensor> c = ct::contiguous(*t);
    benchmark::DoNotOptimize(c->data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * n * n * 4);
}
BENCHMARK(BM_ContiguousTransposedSmall)->Arg(8)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
