// A small cache of freed large buffers, so that a repeated out-of-place op on big tensors
// reuses memory whose pages are already mapped instead of asking the kernel for fresh,
// zero-filled pages each time (about 4 ms per 64 MiB here, as long as the op itself).
//
// Only buffers above small_blocks' largest class (64 KiB) are cached: smaller ones have that
// per-thread cache, and at these sizes the mutex costs nothing relative to the bytes the op
// moves.  Buffers from 64 KiB to a few MiB matter too: glibc returns such freed memory to the
// kernel (heap trimming, mmap above its threshold), so a training step's 256 KiB gradients
// took fresh, zero-filled pages every step (about 34 page faults a step, most of them in
// OpenBLAS zeroing a new GEMM output, before this cache took them).
// The cache holds at most limit() bytes (CTENSOR_BUFFER_CACHE_BYTES, default 256 MiB; 0
// disables it); the oldest buffers are freed first when it is full.  Buffers handed out are
// uninitialized, exactly as from malloc.
#pragma once

#include <cstdint>

namespace ct {

struct Buffer {
  char* data = nullptr;
  int64_t capacity = 0;  // bytes actually allocated (>= the bytes asked for)
  bool reused = false;   // handed out by the cache: pages already mapped and touched
};

class BufferCache {
 public:
  static constexpr int64_t kMinBytes = (int64_t(64) << 10) + 1;

  // A cached buffer of at least nbytes and at most 1/8 more, or {nullptr, 0}.
  static Buffer take(int64_t nbytes);
  // Keeps b for reuse, or frees it when it is small or does not fit under the limit.
  static void give(Buffer b);
  // Frees every cached buffer.
  static void clear();
  static int64_t cached_bytes();
  static int64_t limit();
};

}  // namespace ct
