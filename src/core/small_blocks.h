// A per-thread cache of freed small storage buffers (64-byte aligned, 64 to 1024 bytes), so
// that the small tensors of an eager loop (x + x on a 3 x 4 tensor) reuse a block instead of
// going through glibc's memalign, which splits a larger chunk for every aligned request and
// consolidates the fragments on free (about a quarter of such a loop, by perf).  NumPy keeps a
// cache of small data blocks for the same reason (its GIL makes one cache enough; here each
// thread has its own, so no lock is taken).
//
// A block may be freed on another thread than the one that took it: it goes to that thread's
// cache, which is fine because every block is a plain aligned_alloc block.  Each thread keeps
// at most kPerClass blocks of each size; a thread's blocks are freed when it exits.  Under
// AddressSanitizer and ThreadSanitizer nothing is cached, so that they still see every free
// and malloc (a use after free of a storage stays visible).
#pragma once

#include <cstdint>

namespace ct::small_blocks {

constexpr int64_t kAlignment = 64;
constexpr int64_t kMaxBytes = 1024;
constexpr int kPerClass = 16;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kEnabled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kEnabled = false;
#else
constexpr bool kEnabled = true;
#endif
#else
constexpr bool kEnabled = true;
#endif

// A cached block of exactly `bytes` (a multiple of kAlignment, at most kMaxBytes), or nullptr.
char* take(int64_t bytes) noexcept;
// Keeps the block (of exactly `bytes`, as above) for reuse by this thread, or frees it.
void give(char* block, int64_t bytes) noexcept;

}  // namespace ct::small_blocks
