// Storage: a block of bytes shared by every tensor that views it.
//
// Invariants:
//  - id_ is unique in the process and never reused (a counter, not an address), so
//    comparing ids is safe even after a storage is freed and its memory reused.
//  - refcount_ counts tensors on this storage plus storage handles held by users (a DLPack
//    export is one of those) in its low 40 bits, and the live DLPack exports above them
//    (Note [Exports in the reference count]).
//  - the version counter is not here: it belongs to a tensor family (version_counter.h).
//  - data_ and nbytes_ change only in resize_bytes() (torch's resize_/set_ growing a
//    resizable storage): every tensor on the storage then sees the new memory.  Doing that
//    while another thread uses the storage is the caller's data race, as in torch.
//  - owned memory is 64-byte aligned; buffers of several MiB are 2 MiB aligned and advised
//    as huge pages, so first touch costs one fault per 2 MiB instead of per 4 KiB, and are
//    recycled through BufferCache (buffer_cache.h) when their storage dies.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

namespace ct {

class Storage {
 public:
  using Deleter = void (*)(void* data, void* ctx);

  // A new storage of nbytes owned bytes (uninitialized), with one reference.
  static Storage* allocate(int64_t nbytes, const char* op);
  // A new storage over foreign memory; deleter(data, ctx) runs once when it dies.
  static Storage* wrap(void* data, int64_t nbytes, Deleter deleter, void* ctx, bool read_only);

  // The object itself comes from small_blocks' per-thread cache, as a Tensor's (Note [Tensor
  // objects] in tensor.h): every new result makes one, so a malloc and a free each otherwise.
  static void* operator new(size_t bytes);
  static void* operator new(size_t bytes, const std::nothrow_t&) noexcept;
  static void operator delete(void* p) noexcept;

  void retain() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // A sole owner skips the atomic decrement: with a count of 1 held by the caller, no other
  // thread holds a reference it could retain or release concurrently.  (A live export keeps
  // the word above 1: its reference is counted, and so is the export.)
  void release() const {
    if (refcount_.load(std::memory_order_acquire) == 1 ||
        refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete this;
    }
  }
  int64_t refcount() const { return refcount_.load(std::memory_order_relaxed) & (kExportUnit - 1); }

  // Note [Exports in the reference count]
  // A DLPack export holds a reference and must keep the memory from moving while it lives
  // (resizable()).  Both are one word, so that an export takes and gives back both with one
  // locked instruction each instead of two: np.from_dlpack(t) of a small tensor is a round
  // trip of some 140 ns, and every locked instruction about 5 ns of it on Zen 5.  2^23 live
  // exports of one storage at once would overflow into the sign bit; nothing holds that many.
  void retain_export() const { refcount_.fetch_add(1 + kExportUnit, std::memory_order_relaxed); }
  void release_export() const {
    if (refcount_.fetch_sub(1 + kExportUnit, std::memory_order_acq_rel) == 1 + kExportUnit) delete this;
  }

  uint64_t id() const { return id_; }
  char* data() const { return data_; }
  int64_t nbytes() const { return nbytes_; }
  bool read_only() const { return read_only_; }
  bool owns_memory() const { return !foreign_; }
  // The owned buffer came from BufferCache: its pages are mapped and were written before, so
  // a first write need not fault them in (the copy engine streams into such memory).
  bool recycled() const { return recycled_; }
  bool valid() const { return magic_ == kMagic; }

  // Forgets the deleter of a foreign storage nobody else holds yet, so that a failure while
  // building its first tensor leaves the memory with its owner (ct_from_blob's promise).
  void disarm_deleter() { deleter_ = nullptr; }
  // Who frees foreign memory: lets an owner recognise its own storages (mapped_file.h
  // describes a file mapping this way for explain).
  Deleter deleter() const { return deleter_; }
  void* deleter_ctx() const { return ctx_; }

  // torch's StorageImpl::resizable(): owned memory that was never handed to NumPy
  // (disable_resize, as torch's Tensor.numpy()) and has no live DLPack export.
  bool resizable() const {
    return !foreign_ && !read_only_ && !resize_disabled_.load(std::memory_order_relaxed) && live_exports() == 0;
  }
  void disable_resize() const { resize_disabled_.store(true, std::memory_order_relaxed); }
  // DLPack exports alive: while any is, the memory may not move.
  int64_t live_exports() const { return refcount_.load(std::memory_order_relaxed) / kExportUnit; }
  // Grows the memory to nbytes (never shrinks: torch's resize_bytes_cpu via
  // maybe_resize_storage_cpu), copying the old bytes; the new tail is uninitialized.  Fails
  // with InvalidArgument ("Trying to resize storage that is not resizable", naming why) or
  // OutOfMemory; on failure nothing changed.
  void grow_to(int64_t nbytes, const char* op);

 private:
  Storage(char* data, int64_t nbytes, Deleter deleter, void* ctx, bool foreign, bool read_only);
  ~Storage();

  static constexpr uint32_t kMagic = 0x5a0a6e5u;
  uint32_t magic_ = kMagic;
  bool read_only_;
  bool foreign_;
  bool recycled_ = false;
  static constexpr int64_t kExportUnit = int64_t(1) << 40;  // Note [Exports in the reference count]
  mutable std::atomic<int64_t> refcount_{1};
  mutable std::atomic<bool> resize_disabled_{false};
  uint64_t id_;
  char* data_;
  int64_t nbytes_;
  int64_t capacity_ = 0;  // owned memory: the bytes allocated (nbytes_ rounded up)
  Deleter deleter_;
  void* ctx_;
};

int64_t live_storages();

}  // namespace ct
