#include "live_count.h"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <new>

namespace ct {
namespace {

struct Slot {
  std::atomic<int64_t> count[kLiveKinds] = {};
  Slot* prev = nullptr;
  Slot* next = nullptr;
};

struct Registry {
  std::mutex mutex;
  Slot* head = nullptr;
  int64_t retired[kLiveKinds] = {};      // left behind by exited threads (under mutex)
  std::atomic<int64_t> fallback[kLiveKinds] = {};  // used only if a slot cannot be allocated
  pthread_key_t key{};
  bool has_key = false;
};

// The calling thread's slot; live_detail::t_counts points at its counts.
thread_local Slot* t_slot __attribute__((tls_model("initial-exec"))) = nullptr;

// Never destroyed: tensors may die during or after static destruction.
Registry& registry() {
  static Registry* r = [] {
    Registry* reg = new Registry;
    reg->has_key = pthread_key_create(&reg->key, [](void* p) {
      Registry& g = registry();
      Slot* s = static_cast<Slot*>(p);
      std::lock_guard<std::mutex> lock(g.mutex);
      for (int k = 0; k < kLiveKinds; ++k) g.retired[k] += s->count[k].load(std::memory_order_relaxed);
      (s->prev ? s->prev->next : g.head) = s->next;
      if (s->next) s->next->prev = s->prev;
      delete s;
      t_slot = nullptr;  // key destructors run on the exiting thread itself
      live_detail::t_counts = nullptr;
    }) == 0;
    return reg;
  }();
  return *r;
}

Slot* register_thread() noexcept {
  Registry& g = registry();
  Slot* s = new (std::nothrow) Slot;
  if (!s || !g.has_key) {
    delete s;
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    s->next = g.head;
    if (g.head) g.head->prev = s;
    g.head = s;
  }
  // The key's destructor retires the slot when the thread exits.  If a tensor dies on this
  // thread after that (in a later TLS destructor), a new slot is registered the same way.
  pthread_setspecific(g.key, s);
  t_slot = s;
  live_detail::t_counts = s->count;
  return s;
}

}  // namespace

namespace live_detail {

thread_local std::atomic<int64_t>* t_counts __attribute__((tls_model("initial-exec"))) = nullptr;

void add_slow(LiveKind kind, int64_t delta) noexcept {
  const int k = int(kind);
  Slot* s = t_slot;
  if (!s) s = register_thread();
  if (!s) {
    registry().fallback[k].fetch_add(delta, std::memory_order_relaxed);
    return;
  }
  std::atomic<int64_t>& c = s->count[k];
  c.store(c.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
}

}  // namespace live_detail

int64_t live_total(LiveKind kind) {
  const int k = int(kind);
  Registry& g = registry();
  std::lock_guard<std::mutex> lock(g.mutex);
  int64_t total = g.retired[k] + g.fallback[k].load(std::memory_order_relaxed);
  for (Slot* s = g.head; s; s = s->next) total += s->count[k].load(std::memory_order_relaxed);
  return total;
}

}  // namespace ct
