// View creation + release: through the C ABI (what every binding pays) and through the
// core (the floor).  Target: <= 50 ns per C ABI view (issue: foundation).
#include <benchmark/benchmark.h>

#include "core/views.h"
#include "ctensor.h"
#include "ctensor_dlpack.h"

namespace {

const int64_t kShape[2] = {64, 64};

// Makes a view of a 64 x 64 tensor of dtype with make(x) and releases it, each iteration:
// the create+release cost every binding pays for one view.
template <class MakeView>
void time_capi_view(benchmark::State& state, ct_dtype dtype, MakeView make) {
  ct_tensor* x = ct_zeros(2, kShape, dtype);
  for (auto _ : state) {
    ct_tensor* v = make(x);
    benchmark::DoNotOptimize(v);
    ct_tensor_release(v);
  }
  ct_tensor_release(x);
}

void BM_capi_transpose(benchmark::State& state) {
  time_capi_view(state, CT_FLOAT32, [](ct_tensor* x) { return ct_transpose(x, 0, 1); });
}
BENCHMARK(BM_capi_transpose);

void BM_capi_slice(benchmark::State& state) {
  time_capi_view(state, CT_FLOAT32, [](ct_tensor* x) { return ct_slice(x, 1, 1, 3, 1); });
}
BENCHMARK(BM_capi_slice);

// detach(): an alias, not a view (no base), sharing x's storage and version counter; the
// counter is the one x's storage keeps (Note [Counters kept by the storage]).
void BM_capi_alias(benchmark::State& state) {
  time_capi_view(state, CT_FLOAT32, [](ct_tensor* x) { return ct_alias(x); });
}
BENCHMARK(BM_capi_alias);

// Issue 19: a conj view (the conjugate bit; nothing copied) through the C ABI, <= 50 ns.
void BM_capi_conj(benchmark::State& state) {
  time_capi_view(state, CT_COMPLEX64, [](ct_tensor* x) { return ct_conj(x); });
}
BENCHMARK(BM_capi_conj);

void BM_capi_view(benchmark::State& state) {
  time_capi_view(state, CT_FLOAT32, [](ct_tensor* x) {
    const int64_t shape[3] = {16, 4, 64};
    return ct_view(x, 3, shape);
  });
}
BENCHMARK(BM_capi_view);

void BM_capi_reshape_view(benchmark::State& state) {
  time_capi_view(state, CT_FLOAT32, [](ct_tensor* x) {
    const int64_t shape[2] = {-1, 32};
    return ct_reshape(x, 2, shape);
  });
}
BENCHMARK(BM_capi_reshape_view);

void BM_core_transpose(benchmark::State& state) {
  ct::Ref<ct::Tensor> x = ct::Tensor::empty(ct::Shape{64, 64}, ct::DType::Float32, "bench");
  for (auto _ : state) {
    ct::Ref<ct::Tensor> v = ct::transpose(*x, 0, 1);
    benchmark::DoNotOptimize(v.get());
  }
  state.counters["tensor_bytes"] = double(sizeof(ct::Tensor));  // target: <= 128 (Note [Tensor layout])
}
BENCHMARK(BM_core_transpose);

// DLPack round trip through the C ABI: export (ct_to_dlpack), import the capsule back
// (ct_from_dlpack: a new storage over the same memory), release both ends.  The zero-copy
// exchange every other library's from_dlpack pays for.
void BM_capi_dlpack_roundtrip(benchmark::State& state) {
  ct_tensor* x = ct_zeros(2, kShape, CT_FLOAT32);
  for (auto _ : state) {
    DLManagedTensor* m = ct_to_dlpack(x);
    ct_tensor* y = ct_from_dlpack(m);
    benchmark::DoNotOptimize(y);
    ct_tensor_release(y);  // runs m's deleter
  }
  ct_tensor_release(x);
}
BENCHMARK(BM_capi_dlpack_roundtrip);

// Wrapping foreign memory without a copy (what from_numpy does below Python).
void BM_capi_from_blob(benchmark::State& state) {
  static float data[64 * 64];
  for (auto _ : state) {
    ct_tensor* y = ct_from_blob(data, 2, kShape, nullptr, CT_FLOAT32, nullptr, nullptr);
    benchmark::DoNotOptimize(y);
    ct_tensor_release(y);
  }
}
BENCHMARK(BM_capi_from_blob);

// Baseline: one malloc/free pair of a Tensor's size, the unavoidable part of a view.
void BM_baseline_malloc128(benchmark::State& state) {
  for (auto _ : state) {
    void* p = ::operator new(128);
    benchmark::DoNotOptimize(p);
    ::operator delete(p);
  }
}
BENCHMARK(BM_baseline_malloc128);

}  // namespace

BENCHMARK_MAIN();
