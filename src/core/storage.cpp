#include "storage.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "buffer_cache.h"
#include "error.h"
#include "id_block.h"
#include "live_count.h"
#include "small_blocks.h"
#include "version_counter.h"

namespace ct {
namespace {

std::atomic<uint64_t> g_next_id{1};  // 0 is the C API's error value
__thread IdBlock t_ids __attribute__((tls_model("initial-exec")));

constexpr int64_t kAlignment = 64;
constexpr int64_t kHugePage = int64_t(2) << 20;
constexpr int64_t kHugeThreshold = int64_t(4) << 20;  // as NumPy: advise above 4 MiB

Buffer allocate_bytes(int64_t nbytes, const char* op) {
  if (nbytes == 0) return {};
  const int64_t align = nbytes >= kHugeThreshold ? kHugePage : kAlignment;
  if (nbytes > INT64_MAX - align) {
    CT_FAIL(OutOfMemory, op << ": cannot allocate " << nbytes << " bytes");
  }
  int64_t rounded = (nbytes + align - 1) / align * align;
  if (rounded <= small_blocks::kMaxBytes) {  // a block of its class, so that it can be reused
    rounded = small_blocks::block_size(rounded);
    if (char* block = small_blocks::take(rounded)) return {block, rounded, true};
  }
  Buffer cached = BufferCache::take(rounded);
  if (cached.data) return cached;
  void* p = std::aligned_alloc(size_t(align), size_t(rounded));
  if (!p) {
    CT_FAIL(OutOfMemory, op << ": DefaultCPUAllocator: not enough memory: you tried to allocate "
                            << nbytes << " bytes.");
  }
#ifdef MADV_HUGEPAGE
  if (align == kHugePage) madvise(p, size_t(rounded), MADV_HUGEPAGE);
#endif
  return {static_cast<char*>(p), rounded};
}

// Note [Tensor objects] in tensor.h: one small_blocks class for the object.
constexpr int64_t kObjectBytes = small_blocks::block_size(int64_t(sizeof(Storage)));

}  // namespace

void* Storage::operator new(size_t bytes, const std::nothrow_t&) noexcept {
  if (int64_t(bytes) > kObjectBytes) return nullptr;
  return small_blocks::block_or_fresh(kObjectBytes);
}

void* Storage::operator new(size_t bytes) {
  void* p = operator new(bytes, std::nothrow);
  if (!p) throw std::bad_alloc();
  return p;
}

void Storage::operator delete(void* p) noexcept {
  if (p) small_blocks::give(static_cast<char*>(p), kObjectBytes);
}

Storage::Storage(char* data, int64_t nbytes, Deleter deleter, void* ctx, bool foreign, bool read_only)
    : read_only_(read_only),
      foreign_(foreign),
      id_(take_id(g_next_id, t_ids)),
      data_(data),
      nbytes_(nbytes),
      deleter_(deleter),
      ctx_(ctx) {
  live_add(LiveKind::Storage, 1);
}

Storage::~Storage() {
  if (VersionCounter* c = kept_counter_.load(std::memory_order_relaxed)) c->release();
  if (!foreign_) {
    BufferCache::give({data_, capacity_});
  } else if (deleter_) {
    deleter_(data_, ctx_);
  }
  magic_ = 0;
  live_add(LiveKind::Storage, -1);
}

Storage* Storage::allocate(int64_t nbytes, const char* op) {
  CT_CHECK(nbytes >= 0, Internal, op << ": negative byte count " << nbytes);
  const Buffer buffer = allocate_bytes(nbytes, op);
  Storage* s = new (std::nothrow) Storage(buffer.data, nbytes, nullptr, nullptr, false, false);
  if (!s) {
    BufferCache::give(buffer);
    CT_FAIL(OutOfMemory, op << ": out of memory allocating a storage");
  }
  s->capacity_ = buffer.capacity;
  s->recycled_ = buffer.reused;
  return s;
}

Storage* Storage::wrap(void* data, int64_t nbytes, Deleter deleter, void* ctx, bool read_only) {
  return new Storage(static_cast<char*>(data), nbytes, deleter, ctx, true, read_only);
}

void Storage::grow_to(int64_t nbytes, const char* op) {
  if (nbytes <= nbytes_) return;
  if (!resizable()) {
    const char* why = foreign_     ? "its memory is foreign (from_blob, DLPack or NumPy)"
                      : read_only_ ? "it is read-only"
                      : live_exports() > 0
                          ? "a DLPack export of it is alive"
                          : "its memory was handed to NumPy";
    CT_FAIL(InvalidArgument, op << ": Trying to resize storage that is not resizable (" << why << ")");
  }
  if (nbytes <= capacity_) {  // the rounded-up allocation already has room
    nbytes_ = nbytes;
    return;
  }
  const Buffer buffer = allocate_bytes(nbytes, op);
  if (nbytes_ > 0) std::memcpy(buffer.data, data_, size_t(nbytes_));
  BufferCache::give({data_, capacity_});
  data_ = buffer.data;
  nbytes_ = nbytes;
  capacity_ = buffer.capacity;
  recycled_ = false;
}

int64_t live_storages() { return live_total(LiveKind::Storage); }

}  // namespace ct
