#include "small_blocks.h"

#include <pthread.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace ct::small_blocks {
namespace detail {
__thread Cache* t_cache __attribute__((tls_model("initial-exec"))) = nullptr;
}  // namespace detail

namespace {
using detail::Cache;
using detail::kClasses;
using detail::t_cache;

// What t_cache holds once the thread's cache is freed (detail::usable is false for it), so
// that a later give (from another key destructor) frees at once.
Cache* const kExited = reinterpret_cast<Cache*>(uintptr_t(1));

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

void detail::give_slow(char* block, int64_t bytes) noexcept {
  // t_cache is null (this thread's first give: make its cache), kExited (free), or a cache
  // whose class is full (free).
  if (kEnabled && t_cache == nullptr && register_thread() != nullptr) {
    give(block, bytes);
    return;
  }
  std::free(block);
}

}  // namespace ct::small_blocks
