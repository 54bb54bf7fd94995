// Storage: a block of bytes shared by every tensor that views it.
//
// Invariants:
//  - id_ is unique in the process and never reused (a counter, not an address), so
//    comparing ids is safe even after a storage is freed and its memory reused.
//  - refcount_ counts tensors on this storage plus storage handles held by users (a DLPack
//    export is one of those) in its low 40 bits, and the live DLPack exports above them
//    (Note [Exports in the reference count]).  The views its root lends it (Note [Views lent
//    by their root]) are counted in group_ instead; refcount() adds both.
//  - the version counter is not here: it belongs to a tensor family (version_counter.h); the
//    storage may keep one alive for its tensors (Note [Counters kept by the storage]).
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

class VersionCounter;

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
  // Tensors on it (torch's use_count of the StorageImpl) and storage handles: the references
  // in refcount_, plus the views group_ counts, less the root when it has moved away.
  int64_t refcount() const {
    return (refcount_.load(std::memory_order_relaxed) & (kExportUnit - 1)) + views_lent() -
           (root_away_.load(std::memory_order_relaxed) ? 1 : 0);
  }

  // Note [Views lent by their root]
  // A view holds its storage and its base, and both are counted (torch counts one reference
  // for each, and so do ct_storage_refcount and ct_tensor_refcount).  Taking a reference on
  // each and giving both back is four locked instructions, some 4-5 ns each on Zen 5: half of
  // a view from C (perf, BM_capi_transpose 34.5 ns; 18 ns with plain increments instead).
  //
  // So a tensor made on a fresh storage (Tensor::empty, empty_strided: every op result) is its
  // storage's *root*, and its references are counted here, in group_, next to those of the
  // views of it made on this storage: root references in the low 32 bits, views above.  A view
  // of the root on this storage takes one unit of group_ (lend_view) instead of a reference on
  // the storage and one on the root: one locked instruction to make it and one to free it.
  // While group_ is not zero the group holds one reference in refcount_ (the root's own, which
  // it took when it was made), so the storage outlives every view it lends; whoever brings
  // group_ to zero (the root's last release, or the last lent view's) destroys the root, which
  // gives that reference back.  The counts users see are unchanged: the root's is group_'s root
  // references plus its lent views (ct_tensor_refcount), the storage's adds the lent views.
  //
  // The root may move to another storage (set_, `x.data = y`) while views it lent live: it then
  // keeps its group here (its references stay counted here until it dies) and holds the new
  // storage with an ordinary reference; root_away_ takes it out of this storage's count.  Views
  // of it made on the new storage, and every view of a tensor that is not a root (an alias,
  // a tensor from from_blob or DLPack), take the two ordinary references as before.
  // 2^32 references to one root would overflow into the views: ct_tensor_retain refuses the
  // 2^31st (Tensor::kMaxReferences); any other reference is an object in memory.
  void retain_root() const { group_.fetch_add(1, std::memory_order_relaxed); }
  // Gives back a reference to the root; true when that ended the group (destroy the root).
  // A sole owner (one reference, no view lent) skips the locked instruction, as release().
  bool release_root() const { return group_end(1); }
  void lend_view() const { group_.fetch_add(kViewUnit, std::memory_order_relaxed); }
  // Gives back a lent view; true when that ended the group (destroy the view's base, the root).
  bool return_view() const { return group_end(kViewUnit); }
  // The root's references plus the views lent (the root's ct_tensor_refcount), in one load.
  int64_t root_refcount() const {
    const int64_t g = group_.load(std::memory_order_relaxed);
    return (g & (kViewUnit - 1)) + g / kViewUnit;
  }
  int64_t views_lent() const { return group_.load(std::memory_order_relaxed) / kViewUnit; }
  // The root's storage is another one (set by the root's set_geometry; cleared when it dies).
  void set_root_away(bool away) const { root_away_.store(away, std::memory_order_relaxed); }
  // A root starts its group: only on a storage nobody else has seen (Tensor::make_checked).
  void start_group() const { group_.store(1, std::memory_order_relaxed); }

  // Note [Counters kept by the storage]
  // A detach() (ct_alias) shares its source's version counter, and holding a reference to it
  // was two more locked instructions per alias, besides the storage's: about 8 of a 42 ns
  // Python x.detach() on Zen 5 (perf), where NumPy's x.view() takes 35 ns.
  //
  // So a storage may keep one counter: the first counter made lazily by a tensor on it
  // (Tensor::version_counter) goes into kept_counter_ before anyone else can see it, and the
  // storage holds that counter's reference until it dies.  A tensor whose counter is the one its
  // storage keeps holds no reference on the counter: its reference on the storage keeps both.
  // Every other tensor holds one, as before.  kept_counter_ is written once (null to a counter
  // nobody has seen yet), so whether a tensor holds a reference is fixed while its storage
  // stays the same; when the storage changes (set_geometry) the reference is taken or given
  // back.  Which counter a tensor shares is unchanged (Note [Version counters]): only who keeps
  // it alive is.
  VersionCounter* kept_counter() const { return kept_counter_.load(std::memory_order_acquire); }
  // Makes the storage keep c, a counter nobody else has seen, with the reference it was
  // created with; false (c untouched) when it already keeps one.
  bool keep_counter(VersionCounter* c) const {
    VersionCounter* none = nullptr;
    return kept_counter_.compare_exchange_strong(none, c, std::memory_order_acq_rel, std::memory_order_acquire);
  }

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
  static constexpr int64_t kViewUnit = int64_t(1) << 32;    // Note [Views lent by their root]
  // Subtracts unit from group_; true when the group ended.  When group_ is exactly unit, the
  // caller holds the only reference to the group: nobody else can change it, so a plain store
  // (no lock) ends it.
  bool group_end(int64_t unit) const {
    if (group_.load(std::memory_order_acquire) == unit) {
      group_.store(0, std::memory_order_relaxed);
      return true;
    }
    return group_.fetch_sub(unit, std::memory_order_acq_rel) == unit;
  }
  mutable std::atomic<int64_t> refcount_{1};
  mutable std::atomic<int64_t> group_{0};  // Note [Views lent by their root]
  mutable std::atomic<VersionCounter*> kept_counter_{nullptr};  // Note [Counters kept by the storage]
  mutable std::atomic<bool> root_away_{false};
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
