// Counts of live Tensor and Storage objects (ct_live_tensors, ct_live_storages) and of version
// counters (live_version_counters, for the core's tests), kept per thread so that creating and
// releasing a view costs no atomic read-modify-write for them.
//
// Each thread adds to its own slot with a relaxed load and store (only that thread writes
// it); live_total() sums every slot under a mutex, plus what exited threads left behind.  A
// tensor created on one thread and released on another is +1 in one slot and -1 in the
// other: the total stays exact whenever no thread is between the two.
#pragma once

#include <atomic>
#include <cstdint>

namespace ct {

enum class LiveKind : int { Tensor = 0, Storage = 1, VersionCounter = 2 };
constexpr int kLiveKinds = 3;

namespace live_detail {
// The calling thread's counts, or nullptr until its first live_add (and again once the
// thread's slot is retired at exit).  initial-exec: a plain %fs-relative load even in a
// shared library.
extern thread_local std::atomic<int64_t>* t_counts __attribute__((tls_model("initial-exec")));
// Registers the thread's slot, then adds (or adds to a shared fallback if it cannot).
void add_slow(LiveKind kind, int64_t delta) noexcept;
}  // namespace live_detail

// Inline: it is part of every view's creation and release.
inline void live_add(LiveKind kind, int64_t delta) noexcept {
  std::atomic<int64_t>* const counts = live_detail::t_counts;
  if (__builtin_expect(counts == nullptr, 0)) return live_detail::add_slow(kind, delta);
  std::atomic<int64_t>& c = counts[int(kind)];
  c.store(c.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
}
int64_t live_total(LiveKind kind);

}  // namespace ct
