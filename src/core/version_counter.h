// VersionCounter: the count of in-place writes shared by a tensor family (torch's
// c10::VariableVersion).
//
// Note [Version counters]
// The counter belongs to a tensor, not to its storage: a tensor, every view of it
// (differentiable or not) and its detach() (ct_alias) share one counter object; `.data`
// (ct_data), a tensor made by from_blob/DLPack/NumPy, and every new tensor have their own,
// even on a shared storage.  set_ and `x.data = y` change what x looks at but keep x's
// counter.  A view's counter is always its base's (a view shares its source's, and the
// source of a view is either its base or another view of it), so Tensor::make takes it from
// the base.
//
// The object is allocated lazily, the first time a tensor is viewed, aliased or written in
// place (Tensor::version_counter()): out-of-place results never pay for it, and taking a
// view costs nothing (it uses its base's counter), not even an atomic increment.  A
// tensor without one reads version 0.  A view holds no reference: it reads its base's.
// Nor does a tensor whose storage keeps its counter (Note [Counters kept by the storage] in
// storage.h): the first counter made for a tensor on a storage, so a detach() of a tensor
// costs no atomic operation on the counter either.
// An inference tensor may have no counter at all (Tensor::disabled_counter(): Note
// [Inference tensors] in inference_mode.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <new>

#include "live_count.h"
#include "small_blocks.h"

namespace ct {

class VersionCounter {
 public:
  VersionCounter() = default;
  VersionCounter(const VersionCounter&) = delete;
  VersionCounter& operator=(const VersionCounter&) = delete;
  // One block of the per-thread cache: every alias, detach and saved tensor of a training
  // step shares a counter made at its first view or alias (a dozen a small step).
  static void* operator new(size_t bytes) {
    static_assert(sizeof(VersionCounter) <= kBlock);
    (void)bytes;
    void* p = small_blocks::new_block(kBlock);
    live_add(LiveKind::VersionCounter, 1);
    return p;
  }
  static void operator delete(void* p) noexcept {
    if (!p) return;
    small_blocks::give(static_cast<char*>(p), kBlock);
    live_add(LiveKind::VersionCounter, -1);
  }

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  // A sole owner skips the locked decrement, as Storage::release: with one reference, held by
  // the caller, nobody can retain it concurrently (a tensor holding no reference because its
  // storage keeps the counter implies a second one, the storage's: storage.h).
  void release() {
    if (refs_.load(std::memory_order_acquire) == 1 || refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }
  void bump() { value_.fetch_add(1, std::memory_order_relaxed); }

 private:
  static constexpr int64_t kBlock = small_blocks::kAlignment;  // the smallest class
  std::atomic<int64_t> refs_{1};
  std::atomic<int64_t> value_{0};
};

// Version counters alive in the process (live_count.h): lets tests see that every counter
// is freed exactly once, whoever keeps it (Note [Counters kept by the storage]).
inline int64_t live_version_counters() { return live_total(LiveKind::VersionCounter); }

}  // namespace ct
