// Counts of live Tensor and Storage objects (ct_live_tensors, ct_live_storages), kept per
// thread so that creating and releasing a view costs no atomic read-modify-write for them.
//
// Each thread adds to its own slot with a relaxed load and store (only that thread writes
// it); live_total() sums every slot under a mutex, plus what exited threads left behind.  A
// tensor created on one thread and released on another is +1 in one slot and -1 in the
// other: the total stays exact whenever no thread is between the two.
#pragma once

#include <cstdint>

namespace ct {

enum class LiveKind : int { Tensor = 0, Storage = 1 };

void live_add(LiveKind kind, int64_t delta) noexcept;
int64_t live_total(LiveKind kind);

}  // namespace ct
