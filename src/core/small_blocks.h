// A per-thread cache of freed small storage buffers (64-byte aligned, 64 bytes to 64 KiB), so
// that the small tensors of an eager loop (x + x on a 3 x 4 tensor, the 32 x 32 weight
// gradients of a small training step) reuse a block instead of going through glibc's
// memalign, which splits a larger chunk for every aligned request and consolidates the
// fragments on free (about a quarter of such a loop, by perf).  NumPy keeps a cache of small
// data blocks for the same reason (its GIL makes one cache enough; here each thread has its
// own, so no lock is taken).
//
// Sizes come in classes (block_size): every multiple of 64 bytes up to 1 KiB, then powers of
// two up to 64 KiB, so that a 1.1 KiB request takes a 2 KiB block (at most twice the bytes,
// as any power-of-two allocator) and blocks of one class serve every request rounding to it.
// A block may be freed on another thread than the one that took it: it goes to that thread's
// cache, which is fine because every block is a plain aligned_alloc block.  Each thread keeps
// at most capacity_of(bytes) blocks of a class: about kClassBudget bytes of it, at least
// kPerClass blocks up to 4 KiB and kPerLargeClass above, at most kMaxPerClass (about 1.1 MiB
// per thread when every class is full); a thread's blocks are freed when it exits.  The small
// classes keep many: Tensor and Storage objects and graph nodes are 64-256 bytes, and a small
// training step holds over a hundred of them at its peak (forward results, saved tensors,
// nodes) and frees them all each step; with 16 kept, half of them went back to glibc each
// step (perf: memalign and free were a tenth of the step).  Under
// AddressSanitizer and ThreadSanitizer nothing is cached, so that they still see every free
// and malloc (a use after free of a storage stays visible).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace ct::small_blocks {

constexpr int64_t kAlignment = 64;
constexpr int64_t kLinearMax = 1024;       // classes every 64 bytes up to here,
constexpr int64_t kMaxBytes = 64 << 10;    // then powers of two up to here
constexpr int64_t kClassBudget = 32 << 10;  // bytes kept per class, roughly:
constexpr int kPerClass = 16;               // at least this many blocks up to 4 KiB,
constexpr int kPerLargeClass = 4;           // and this many above,
constexpr int kMaxPerClass = 256;           // at most this many

// How many freed blocks of a class (is_block_size) a thread keeps.
constexpr int capacity_of(int64_t bytes) {
  const int64_t floor = bytes <= 4096 ? kPerClass : kPerLargeClass;
  const int64_t n = kClassBudget / bytes;
  return int(n < floor ? floor : n > kMaxPerClass ? kMaxPerClass : n);
}

// The class (block size) serving a request of 1 to kMaxBytes bytes.
constexpr int64_t block_size(int64_t bytes) {
  if (bytes <= kLinearMax) return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return int64_t(1) << (64 - __builtin_clzll(uint64_t(bytes - 1)));
}
// Whether `bytes` is a class, i.e. a block of that size may be given to the cache.
inline bool is_block_size(int64_t bytes) {
  return bytes > 0 && bytes <= kMaxBytes && block_size(bytes) == bytes;
}

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

namespace detail {
// 64, 128, ..., 1024 bytes, then 2, 4, ..., 64 KiB.
constexpr int kLinearClasses = int(kLinearMax / kAlignment);
constexpr int kClasses = kLinearClasses + (__builtin_ctzll(uint64_t(kMaxBytes)) - __builtin_ctzll(uint64_t(kLinearMax)));

// The class index of a block size (is_block_size).
constexpr int class_of(int64_t bytes) {
  if (bytes <= kLinearMax) return int(bytes / kAlignment) - 1;
  return kLinearClasses - 1 + (__builtin_ctzll(uint64_t(bytes)) - __builtin_ctzll(uint64_t(kLinearMax)));
}

// The block size of class k (class_of's inverse).
constexpr int64_t size_of_class(int k) {
  return k < kLinearClasses ? int64_t(k + 1) * kAlignment : kLinearMax << (k - kLinearClasses + 1);
}

// capacity_of each class, as a table: give() runs for every small object freed, and the
// division capacity_of makes cost more than the rest of it (perf).
inline constexpr std::array<int, kClasses> kCapacity = [] {
  std::array<int, kClasses> c{};
  for (int k = 0; k < kClasses; ++k) c[size_t(k)] = capacity_of(size_of_class(k));
  return c;
}();
static_assert(size_of_class(kClasses - 1) == kMaxBytes && kCapacity[0] == kMaxPerClass);

struct Cache {
  char* blocks[kClasses][kMaxPerClass] = {};
  int count[kClasses] = {};
};

// The calling thread's cache: null until its first give, the address 1 (kExited in
// small_blocks.cpp) once the thread's key destructor freed it.  `__thread`, not
// `thread_local`: a thread_local declared extern is reached through a wrapper call (it might
// have a dynamic initializer); this is one %fs-relative load, initial-exec as the library's
// other thread-locals.
extern __thread Cache* t_cache __attribute__((tls_model("initial-exec")));
inline bool usable(const Cache* c) { return uintptr_t(c) > uintptr_t(1); }

// give() when this thread has no usable cache: makes it on the first call, frees otherwise.
void give_slow(char* block, int64_t bytes) noexcept;
}  // namespace detail

// Inline, with the class folded for the constant sizes of Tensor, Storage and node objects:
// a small training step takes and gives about 250 blocks (callgrind: as calls, 8% of the
// step's instructions).

// A cached block of exactly `bytes` (a class: is_block_size), or nullptr.
inline char* take(int64_t bytes) noexcept {
  if constexpr (!kEnabled) return nullptr;
  detail::Cache* const c = detail::t_cache;
  if (!detail::usable(c)) return nullptr;
  const int k = detail::class_of(bytes);
  int& n = c->count[k];
  return n > 0 ? c->blocks[k][--n] : nullptr;
}

// Keeps the block (of exactly `bytes`, a class) for reuse by this thread, or frees it.
inline void give(char* block, int64_t bytes) noexcept {
  detail::Cache* const c = detail::t_cache;
  if (kEnabled && detail::usable(c)) {
    const int k = detail::class_of(bytes);
    int& n = c->count[k];
    if (n < detail::kCapacity[size_t(k)]) {
      c->blocks[k][n++] = block;
      return;
    }
  }
  detail::give_slow(block, bytes);
}

// A block of class `bytes` (is_block_size): a cached one, else a fresh one; nullptr when
// memory is exhausted.  What the class operator new of Tensor, Storage and VersionCounter
// and the Allocator below hand out.
inline char* block_or_fresh(int64_t bytes) noexcept {
  if (char* block = take(bytes)) return block;
  return static_cast<char*>(std::aligned_alloc(size_t(kAlignment), size_t(bytes)));
}
// The same, throwing std::bad_alloc (a class operator new).
inline char* new_block(int64_t bytes) {
  char* p = block_or_fresh(bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

// An allocator drawing on the cache, for std::allocate_shared: the graph nodes an op records
// (its node and a leaf's AccumulateGrad, object and control block in one block) are made and
// freed every step of an eager training loop.  Requests above kMaxBytes go to operator new.
template <class T>
struct Allocator {
  using value_type = T;
  Allocator() = default;
  template <class U>
  Allocator(const Allocator<U>&) noexcept {}
  static_assert(alignof(T) <= kAlignment, "small_blocks: alignment");
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes == 0 || bytes > size_t(kMaxBytes)) return static_cast<T*>(::operator new(bytes));
    return reinterpret_cast<T*>(new_block(block_size(int64_t(bytes))));
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes == 0 || bytes > size_t(kMaxBytes)) return ::operator delete(p);
    give(reinterpret_cast<char*>(p), block_size(int64_t(bytes)));
  }
  template <class U>
  bool operator==(const Allocator<U>&) const noexcept { return true; }
};

}  // namespace ct::small_blocks
