// Process-unique numbers, increasing within each thread, without an atomic read-modify-write
// per number: a thread reserves a block of them from the shared counter and hands them out
// in order.  Storage ids and the autograd nodes' creation order take one for every storage
// and node; a lock-prefixed add each was a visible part of a small training step (perf).
// Numbers from two threads interleave in blocks, not one by one: torch's node sequence
// numbers are per thread too.
#pragma once

#include <atomic>
#include <cstdint>

namespace ct {

// One thread's reserved numbers: next to hand out, end of the block.  Trivial, so that it can
// be a `__thread` (initial-exec: a %fs-relative access, no TLS call).
struct IdBlock {
  uint64_t next = 0, end = 0;
};

inline uint64_t take_id(std::atomic<uint64_t>& shared, IdBlock& mine) {
  constexpr uint64_t kBlock = 1024;
  if (__builtin_expect(mine.next == mine.end, 0)) {
    mine.next = shared.fetch_add(kBlock, std::memory_order_relaxed);
    mine.end = mine.next + kBlock;
  }
  return mine.next++;
}

}  // namespace ct
