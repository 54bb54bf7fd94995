#include "buffer_cache.h"

#include <cstdlib>
#include <mutex>

#include "small_blocks.h"

namespace ct {
namespace {

// Enough for the intermediate buffers of a training step (activations, gradients and their
// temporaries); a take() scans them all under the mutex, which is still far below the cost
// of touching one 64 KiB buffer.
constexpr int kMaxBuffers = 64;

int64_t limit_from_environment() {
  const char* s = std::getenv("CTENSOR_BUFFER_CACHE_BYTES");
  if (!s || !*s) return int64_t(256) << 20;
  char* end = nullptr;
  const long long v = std::strtoll(s, &end, 10);
  return (end && *end == '\0' && v >= 0) ? int64_t(v) : int64_t(256) << 20;
}

struct State {
  std::mutex mutex;
  Buffer buffers[kMaxBuffers];  // oldest first
  int count = 0;
  int64_t bytes = 0;
  const int64_t limit = limit_from_environment();

  void remove(int i) {
    bytes -= buffers[i].capacity;
    for (int j = i; j + 1 < count; ++j) buffers[j] = buffers[j + 1];
    --count;
  }
};

// Never destroyed: a storage may be released from another library's exit handler, after
// this library's static destructors would have run.  Cached buffers stay reachable from it,
// so leak checkers do not report them.
State& state() {
  static State* s = new State;
  return *s;
}

}  // namespace

Buffer BufferCache::take(int64_t nbytes) {
  if (nbytes < kMinBytes) return {};
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  int best = -1;
  for (int i = 0; i < st.count; ++i) {
    const int64_t cap = st.buffers[i].capacity;
    if (cap >= nbytes && cap - nbytes <= nbytes / 8 &&
        (best < 0 || cap < st.buffers[best].capacity)) {
      best = i;
    }
  }
  if (best < 0) return {};
  Buffer b = st.buffers[best];
  st.remove(best);
  b.reused = true;
  return b;
}

void BufferCache::give(Buffer b) {
  if (!b.data) return;
  if (b.capacity < kMinBytes) {  // first, without the shared state: most storages are small
    if (small_blocks::is_block_size(b.capacity)) {
      small_blocks::give(b.data, b.capacity);
    } else {
      std::free(b.data);
    }
    return;
  }
  State& st = state();
  if (b.capacity <= st.limit) {
    std::lock_guard<std::mutex> lock(st.mutex);
    while (st.count > 0 && (st.count == kMaxBuffers || st.bytes + b.capacity > st.limit)) {
      std::free(st.buffers[0].data);
      st.remove(0);
    }
    st.buffers[st.count++] = b;
    st.bytes += b.capacity;
    return;
  }
  std::free(b.data);
}

void BufferCache::clear() {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  while (st.count > 0) {
    std::free(st.buffers[0].data);
    st.remove(0);
  }
}

int64_t BufferCache::cached_bytes() {
  State& st = state();
  std::lock_guard<std::mutex> lock(st.mutex);
  return st.bytes;
}

int64_t BufferCache::limit() { return state().limit; }

}  // namespace ct
