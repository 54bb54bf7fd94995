#include "small_blocks.h"

#include <pthread.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace ct::small_blocks {
namespace {

// 64, 128, ..., 1024 bytes, then 2, 4, ..., 64 KiB.
constexpr int kLinearClasses = int(kLinearMax / kAlignment);
constexpr int kClasses = kLinearClasses + (__builtin_ctzll(uint64_t(kMaxBytes)) - __builtin_ctzll(uint64_t(kLinearMax)));

// The class index of a block size (is_block_size).
inline int class_of(int64_t bytes) {
  if (bytes <= kLinearMax) return int(bytes / kAlignment) - 1;
  return kLinearClasses - 1 + (__builtin_ctzll(uint64_t(bytes)) - __builtin_ctzll(uint64_t(kLinearMax)));
}

// The block size of class k (class_of's inverse).
constexpr int64_t size_of_class(int k) {
  return k < kLinearClasses ? int64_t(k + 1) * kAlignment : kLinearMax << (k - kLinearClasses + 1);
}

// capacity_of each class, as a table: give() runs for every small object freed, and the
// division capacity_of makes cost more than the rest of it (perf).
constexpr std::array<int, kClasses> kCapacity = [] {
  std::array<int, kClasses> c{};
  for (int k = 0; k < kClasses; ++k) c[size_t(k)] = capacity_of(size_of_class(k));
  return c;
}();
static_assert(size_of_class(kClasses - 1) == kMaxBytes && kCapacity[0] == kMaxPerClass);

struct Cache {
  char* blocks[kClasses][kMaxPerClass] = {};
  int count[kClasses] = {};
};

// The calling thread's cache: made at its first give, freed with its blocks when the thread
// exits (key destructor), then kExited, so that a later give (from another key destructor)
// frees at once.  One pointer of static TLS, initial-exec: a %fs-relative load even in a
// shared library.
Cache* const kExited = reinterpret_cast<Cache*>(uintptr_t(1));
thread_local Cache* t_cache __attribute__((tls_model("initial-exec"))) = nullptr;

void free_all(void* p) {
  Cache* c = static_cast<Cache*>(p);
  for (int k = 0; k < kClasses; ++k) {
    while (c->count[k] > 0) std::free(c->blocks[k][--c->count[k]]);
  }
  delete c;
  t_cache = kExited;  // key destructors run on the exiting thread itself
}

Cache* register_thread() noexcept {
  static pthread_key_t key;
  static const bool has_key = pthread_key_create(&key, free_all) == 0;  // never deleted
  if (!has_key) return nullptr;
  Cache* c = new (std::nothrow) Cache;
  if (c && pthread_setspecific(key, c) != 0) {
    delete c;
    c = nullptr;
  }
  t_cache = c;
  return c;
}

}  // namespace

char* take(int64_t bytes) noexcept {
  Cache* c = t_cache;
  if (!kEnabled || !c || c == kExited) return nullptr;
  const int k = class_of(bytes);
  return c->count[k] > 0 ? c->blocks[k][--c->count[k]] : nullptr;
}

void give(char* block, int64_t bytes) noexcept {
  Cache* c = t_cache;
  if (kEnabled && !c) c = register_thread();
  const int k = class_of(bytes);
  if (kEnabled && c && c != kExited && c->count[k] < kCapacity[size_t(k)]) {
    c->blocks[k][c->count[k]++] = block;
    return;
  }
  std::free(block);
}

}  // namespace ct::small_blocks
