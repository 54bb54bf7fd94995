// The strided copy engine against memcpy.
//
// Every row copies (about) 64 MiB so rates are comparable; SetBytesProcessed counts the
// bytes written once (read bytes are not added), as for memcpy.  Counters:
//   vs_memcpy        rate / rate of glibc memcpy between two reused 64 MiB buffers
//   vs_memcpy_fresh  rate / rate of memcpy into a newly allocated 64 MiB tensor (what any
//                    copy that returns a new tensor pays: with the buffer cache the memory
//                    of the previous iteration's tensor; with CTENSOR_BUFFER_CACHE_BYTES=0,
//                    fresh pages and their first-touch faults)
// Both baselines are measured once at start-up (median of 11 runs).
//
// Run: bench_copy --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
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

// Median wall time of fn over 21 runs (after one warm-up run), src and dst being tensor
// buffers like the engine's (2 MiB aligned, huge pages); fresh: dst is a new tensor each run.
double median_seconds(void (*fn)(char*, const char*, int64_t), bool fresh) {
  static const Ref<Tensor> src = filled({kBytes}, DType::UInt8);
  static const Ref<Tensor> dst = filled({kBytes}, DType::UInt8);
  std::vector<double> t;
  for (int i = 0; i < 22; ++i) {
    Ref<Tensor> out;
    char* d = dst->data();
    const auto t0 = std::chrono::steady_clock::now();
    if (fresh) {
      out = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
      d = out->data();
    }
    fn(d, src->data(), kBytes);
    benchmark::DoNotOptimize(d);
    benchmark::ClobberMemory();
    if (i > 0) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void do_memcpy(char* d, const char* s, int64_t n) { std::memcpy(d, s, size_t(n)); }

double memcpy_rate() {  // bytes per second
  static const double r = double(kBytes) / median_seconds(&do_memcpy, false);
  return r;
}
double memcpy_fresh_rate() {
  static const double r = double(kBytes) / median_seconds(&do_memcpy, true);
  return r;
}

// Times the benchmark loop itself (wall clock), so the ratio counters are plain numbers.
class LoopTimer {
 public:
  LoopTimer() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  std::chrono::steady_clock::time_point t0_;
};

// Measures the baselines (once) before a benchmark's own clock starts.
LoopTimer start_timing() {
  memcpy_rate();
  memcpy_fresh_rate();
  return LoopTimer();
}

void finish(benchmark::State& state, int64_t bytes_per_iter, const LoopTimer& timer) {
  const double seconds = timer.seconds();
  const double bytes = double(bytes_per_iter) * double(state.iterations());
  state.SetBytesProcessed(int64_t(bytes));
  if (seconds > 0) {
    state.counters["vs_memcpy"] = bytes / seconds / memcpy_rate();
    state.counters["vs_memcpy_fresh"] = bytes / seconds / memcpy_fresh_rate();
  }
}

// ---- baselines ----------------------------------------------------------------------------

void BM_Memcpy(benchmark::State& state) {  // between two reused tensor buffers
  Ref<Tensor> src = filled({kBytes}, DType::UInt8), dst = filled({kBytes}, DType::UInt8);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    std::memcpy(dst->data(), src->data(), size_t(kBytes));
    benchmark::DoNotOptimize(dst->data());
    benchmark::ClobberMemory();
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_Memcpy)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_MemcpyIntoNewTensor(benchmark::State& state) {
  Ref<Tensor> src = filled({kBytes}, DType::UInt8);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> out = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
    std::memcpy(out->data(), src->data(), size_t(kBytes));
    benchmark::DoNotOptimize(out->data());
    benchmark::ClobberMemory();
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_MemcpyIntoNewTensor)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_StreamingCopy(benchmark::State& state) {  // non-temporal stores, one thread
  Ref<Tensor> src = filled({kBytes}, DType::UInt8), dst = filled({kBytes}, DType::UInt8);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    ct::kernels::stream_copy(dst->data(), src->data(), kBytes);
    benchmark::DoNotOptimize(dst->data());
    benchmark::ClobberMemory();
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_StreamingCopy)->UseRealTime()->Unit(benchmark::kMillisecond);

// STREAM's triad, a[i] = b[i] + 3 c[i] over float32 64 MiB arrays, one thread: the bandwidth
// ceiling of a loop that reads two streams and writes one (bytes counted: all three).
void BM_Triad(benchmark::State& state) {
  Ref<Tensor> a = filled({kBytes / 4}, DType::Float32), b = filled({kBytes / 4}, DType::Float32),
              c = filled({kBytes / 4}, DType::Float32);
  float* pa = reinterpret_cast<float*>(a->data());
  const float* pb = reinterpret_cast<const float*>(b->data());
  const float* pc = reinterpret_cast<const float*>(c->data());
  const int64_t n = kBytes / 4;
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    for (int64_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0f * pc[i];
    benchmark::DoNotOptimize(pa);
    benchmark::ClobberMemory();
  }
  finish(state, 3 * kBytes, timer);
}
BENCHMARK(BM_Triad)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- allocation of large tensors ------------------------------------------------------------
// A new 64 MiB buffer, written once, then freed: with malloc (glibc maps and unmaps it each
// time, so every page is a fresh zeroed page) and as a ctensor tensor (the buffer cache hands
// back the previous one).  The gap is what every out-of-place op on big tensors saves.
void BM_AllocWriteFree_malloc(benchmark::State& state) {
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    char* p = static_cast<char*>(std::malloc(size_t(kBytes)));
    std::memset(p, 1, size_t(kBytes));
    benchmark::DoNotOptimize(p);
    benchmark::ClobberMemory();
    std::free(p);
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_AllocWriteFree_malloc)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_AllocWriteFree_tensor(benchmark::State& state) {
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> t = Tensor::empty(ct::Shape{kBytes}, DType::UInt8, "bench");
    std::memset(t->data(), 1, size_t(kBytes));
    benchmark::DoNotOptimize(t->data());
    benchmark::ClobberMemory();
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_AllocWriteFree_tensor)->UseRealTime()->Unit(benchmark::kMillisecond);

// ---- the engine through the core --------------------------------------------------------------

// clone of a contiguous tensor: the flat path (threads + streaming stores), new storage.
void BM_CloneContiguous(benchmark::State& state) {
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> c = ct::clone(*a);
    benchmark::DoNotOptimize(c->data());
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_CloneContiguous)->UseRealTime()->Unit(benchmark::kMillisecond);

// contiguous() of a transposed matrix of 64 MiB: rows x cols of the given dtype.
void BM_ContiguousTransposed(benchmark::State& state, DType dtype, int64_t rows, int64_t cols) {
  Ref<Tensor> a = filled({rows, cols}, dtype);
  Ref<Tensor> t = transposed(a);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> c = ct::contiguous(*t);
    benchmark::DoNotOptimize(c->data());
  }
  finish(state, rows * cols * a->itemsize(), timer);
}
BENCHMARK_CAPTURE(BM_ContiguousTransposed, float32_4096x4096, DType::Float32, 4096, 4096)
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, uint8_8192x8192, DType::UInt8, 8192, 8192)
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, int16_4096x8192, DType::Int16, 4096, 8192)
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ContiguousTransposed, float64_2048x4096, DType::Float64, 2048, 4096)
    ->UseRealTime()->Unit(benchmark::kMillisecond);

// The transpose kernel alone: copy_ into a preallocated (already touched) destination.
void BM_CopyIntoTransposed(benchmark::State& state) {
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  Ref<Tensor> t = transposed(a);
  Ref<Tensor> dst = filled({4096, 4096}, DType::Float32);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    ct::copy_into(*dst, *t);
    benchmark::DoNotOptimize(dst->data());
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_CopyIntoTransposed)->UseRealTime()->Unit(benchmark::kMillisecond);

// contiguous() of a permuted 64 MiB tensor, for each item size (state.range(1) bytes):
//   3-d: (256, 256, n) permuted (2, 0, 1)
//   4-d: (32, 64, 64, n) permuted (0, 2, 3, 1): NCHW -> NHWC
// with n chosen so the tensor is 64 MiB.
void BM_ContiguousPermute(benchmark::State& state) {
  const int ndim = int(state.range(0));
  const int64_t item = state.range(1);
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
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> c = ct::contiguous(*p);
    benchmark::DoNotOptimize(c->data());
  }
  finish(state, kBytes, timer);
}
BENCHMARK(BM_ContiguousPermute)
    ->ArgNames({"ndim", "itemsize"})
    ->ArgsProduct({{3, 4}, {1, 2, 4, 8}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// float32 -> float16 of a contiguous tensor (the element loop with conversion).
void BM_ToFloat16(benchmark::State& state) {
  Ref<Tensor> a = filled({4096, 4096}, DType::Float32);
  const LoopTimer timer = start_timing();
  for (auto _ : state) {
    Ref<Tensor> c = ct::to_dtype(*a, DType::Float16);
    benchmark::DoNotOptimize(c->data());
  }
  finish(state, kBytes, timer);  // bytes read
}
BENCHMARK(BM_ToFloat16)->UseRealTime()->Unit(benchmark::kMillisecond);

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
