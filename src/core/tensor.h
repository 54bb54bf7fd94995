// Tensor: a view of a Storage (dtype, sizes, strides in elements, offset), plus a pointer
// to its autograd state (nullptr unless it takes part in autograd) and one to its family's
// version counter (Note [Version counters] in version_counter.h).
//
// Note [Tensor layout]
// A Tensor is one allocation for up to 4 dims: sizes and strides live in inline_; more
// dims go to a heap array whose pointer takes inline_'s place (heap_; ndim_ says which one
// is live, dims() picks it).  The object is 128 bytes.
//
// Note [Mutable metadata]
// The geometry (storage, dtype, sizes, strides, offset) changes only through the in-place
// metadata ops torch has (set_, resize_, as_strided_, t_, transpose_, squeeze_, unsqueeze_,
// `x.data = y`), which call set_geometry().  As in torch, changing a tensor's metadata while
// another thread uses the same tensor is the caller's data race; other tensors, views taken
// before included, never change, so handles to them may be shared freely.  Besides that,
// only the refcount, the autograd state behind autograd_ and the lazily created version
// counter change after make().
//
// Note [Math bits]
// math_bits_ holds torch's conjugate and negative bits (its Conjugate/Negative dispatch keys):
// a conj view of a complex tensor shares its storage and reads every element conjugated; a
// neg view (the imag of a conj view) reads every element negated.  The bytes are never
// changed by setting a bit.  Views, detach and .data inherit the bits (make_view, alias,
// data_of); a fresh result has none; the copy engine applies the difference of the bits
// between destination and source (copy.cpp), and every op that reads values gets its inputs
// resolved at the C boundary (value_arg in src/capi/guard.h).  math_bits.h has the ops.
//
// Note [Views and bases]
// base_ is the root tensor of a view (PyTorch's _base): the tensor that is not itself a
// view.  A view of a view gets the same base, never the intermediate one, so a chain of
// views keeps exactly one extra object alive.  An alias (detach) has no base.  A view of a
// tensor made on a fresh storage is counted by that storage instead of holding references on
// it and on its base (Note [Views lent by their root] in storage.h).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "dtype.h"
#include "inference_mode.h"
#include "ref.h"
#include "storage.h"
#include "version_counter.h"

namespace ct {

namespace autograd {
struct AutogradMeta;
void destroy_meta(AutogradMeta* m);
}  // namespace autograd

using IntList = std::span<const int64_t>;
using Shape = std::vector<int64_t>;

constexpr int kMaxDims = 64;
constexpr int kInlineDims = 4;
static_assert(kMaxDims <= 127, "Tensor::ndim_ is one signed byte");

// A fixed-capacity list of sizes or strides on the stack: view ops build their geometry in
// these, so taking a view costs no allocation beyond the Tensor itself.
class DimBuf {
 public:
  DimBuf() = default;
  // Up to six dims by plain assignments: the memmove call that std::copy (or any copy loop,
  // which the compiler turns into one) makes costs more than the copy itself (8% of a C
  // view, by perf).
  explicit DimBuf(IntList src) : n_(src.size()) {
    const int64_t* s = src.data();
    switch (n_) {
      case 6: v_[5] = s[5]; [[fallthrough]];
      case 5: v_[4] = s[4]; [[fallthrough]];
      case 4: v_[3] = s[3]; [[fallthrough]];
      case 3: v_[2] = s[2]; [[fallthrough]];
      case 2: v_[1] = s[1]; [[fallthrough]];
      case 1: v_[0] = s[0]; [[fallthrough]];
      case 0: break;
      default: std::copy(src.begin(), src.end(), v_);
    }
  }
  size_t size() const { return n_; }
  void resize(size_t n) { n_ = n; }
  int64_t& operator[](size_t i) { return v_[i]; }
  int64_t operator[](size_t i) const { return v_[i]; }
  void push_back(int64_t x) { v_[n_++] = x; }
  void erase(size_t i) {
    std::copy(v_ + i + 1, v_ + n_, v_ + i);
    --n_;
  }
  void insert(size_t i, int64_t x) {
    std::copy_backward(v_ + i, v_ + n_, v_ + n_ + 1);
    v_[i] = x;
    ++n_;
  }
  operator IntList() const { return {v_, n_}; }

 private:
  int64_t v_[kMaxDims + 1];  // + 1: unsqueeze/unfold add one dim to a kMaxDims tensor before the check
  size_t n_ = 0;
};

class Tensor {
 public:
  // A new tensor on `storage` (takes its own reference to storage and base).  Checks
  // nothing: callers (shape.h, views.h) validate the geometry first.  It shares the version
  // counter of counter_from, or else of base (a view), or else gets a fresh one.  Inference
  // tensors (Note [Inference tensors]): a base that is one is dropped and the result is one,
  // without a counter; a counter_from that is one makes the result one, with a fresh counter
  // outside inference mode and none inside; with neither, inference mode decides.
  static Ref<Tensor> make(Storage* storage, DType dtype, IntList sizes, IntList strides,
                          int64_t offset, Tensor* base, const Tensor* counter_from = nullptr);
  // A view of `of` over the same elements, rearranged: (sizes, strides) are of's own pairs
  // permuted, with dims of size 1 dropped (transpose, permute, squeeze, an alias).  Its numel
  // is of's, and every stride already passed make's checks, so there is nothing to check again.
  static Ref<Tensor> make_rearranged(const Tensor& of, IntList sizes, IntList strides, Tensor* base);
  // A view of `of` over some of its elements (select, slice): numel of them, every one an
  // element of `of`, whose geometry passed make's checks, so there is nothing to check again
  // (an empty `of` gives an empty view, which make does not check either).
  static Ref<Tensor> make_narrowed(const Tensor& of, IntList sizes, IntList strides, int64_t offset, int64_t numel,
                                   Tensor* base);
  // A view of numel of `of`'s elements whose dims are of's, or some of them, plus one new dim
  // at new_dim (unsqueeze, diagonal): of make's checks only those the new dim can fail (the
  // dim limit, its stride's bytes), with make's messages; of's own geometry passed the rest.
  static Ref<Tensor> make_with_new_dim(const Tensor& of, IntList sizes, IntList strides, int64_t offset,
                                       int64_t numel, int new_dim, Tensor* base);
  // A view of all of `of`'s elements in their order when of's strides are exactly the
  // contiguous strides of its sizes and it is not empty: new sizes of the same numel, with
  // their own contiguous strides (view, reshape).  Contiguous, and no stride exceeds numel,
  // whose bytes fit: nothing to check again.
  static Ref<Tensor> make_contiguous_view(const Tensor& of, IntList sizes, IntList strides, Tensor* base);
  // A non-view tensor with of's geometry and math bits on its storage, sharing its version
  // counter (ct_alias, a saved tensor): make's counter_from = &of, with nothing to check again.
  static Ref<Tensor> make_alias(const Tensor& of);
  // A new contiguous tensor on a new uninitialized storage; checks sizes (negative, overflow).
  static Ref<Tensor> empty(IntList sizes, DType dtype, const char* op);
  // A new tensor on a new storage just large enough for (sizes, strides); strides >= 0.
  static Ref<Tensor> empty_strided(IntList sizes, IntList strides, DType dtype, const char* op);

  // Note [Tensor objects]: a Tensor's 128 bytes come from small_blocks' per-thread cache,
  // so that a view created and released in a loop (the C view benchmark, every Python view)
  // reuses one block instead of a malloc and a free each (about a fifth of such a view, by
  // perf).  Under ASan and TSan the cache is off, so that they still see every free.
  static void* operator new(size_t bytes);
  static void operator delete(void* p) noexcept;

  // A root's references are counted by its storage (Note [Views lent by their root] in
  // storage.h), every other tensor's in refcount_.
  void retain() const {
    if (is_root()) return home_->retain_root();
    refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  // A sole owner skips the atomic decrement: with a count of 1 held by the caller, no other
  // thread holds a reference it could retain or release concurrently.
  void release() const {
    if (is_root()) {
      if (home_->release_root()) delete this;
      return;
    }
    if (refcount_.load(std::memory_order_acquire) == 1 ||
        refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete this;
    }
  }
  // The most references one tensor may have: a root's count has 32 bits (Note [Views lent by
  // their root]), and ct_tensor_retain refuses more.
  static constexpr int64_t kMaxReferences = int64_t(1) << 31;
  // References to this tensor: handles, plus the views whose base it is (torch's use_count).
  int64_t refcount() const {
    if (is_root()) return home_->root_refcount();
    return refcount_.load(std::memory_order_relaxed);
  }
  bool valid() const { return magic_ == kMagic; }

  int ndim() const { return ndim_; }
  IntList sizes() const { return {dims(), size_t(ndim_)}; }
  IntList strides() const { return {dims() + ndim_, size_t(ndim_)}; }
  int64_t size(int d) const { return dims()[d]; }
  int64_t stride(int d) const { return dims()[ndim_ + d]; }
  int64_t offset() const { return offset_; }
  int64_t numel() const { return numel_; }
  DType dtype() const { return dtype_; }
  int64_t itemsize() const { return ct::itemsize(dtype_); }
  bool is_contiguous() const { return contiguous_; }
  // Note [Math bits]: kConjBit | kNegBit, or 0.
  static constexpr uint8_t kConjBit = 1, kNegBit = 2;
  uint8_t math_bits() const { return math_bits_ & (kConjBit | kNegBit); }
  bool is_conj() const { return math_bits_ & kConjBit; }
  bool is_neg() const { return math_bits_ & kNegBit; }
  // Only on a tensor nobody else has seen yet (a view just made), or by the in-place ops
  // that torch lets change them (none today beyond those).  Keeps the inference bit.
  void set_math_bits(uint8_t bits) { math_bits_ = uint8_t((math_bits_ & ~(kConjBit | kNegBit)) | bits); }
  // Note [Inference tensors]: made in inference mode, or derived from such a tensor.
  bool is_inference() const { return math_bits_ & kInferenceBit; }
  // Only for `x.data = y`, which takes y's inference state and keeps x's counter (torch copies
  // the dispatch keys): x may then be a normal tensor without a counter, or the reverse.
  void set_inference(bool on) { math_bits_ = uint8_t((math_bits_ & ~kInferenceBit) | (on ? kInferenceBit : 0)); }
  // Whether the tensor has a version counter (false: an inference tensor without one).
  bool tracks_version() const { return base_ || version_.load(std::memory_order_relaxed) != disabled_counter(); }
  // The counter of tensors that have none (Note [Inference tensors]): never counts, never freed.
  static VersionCounter* disabled_counter() { return &disabled_counter_; }
  // .data of this tensor (torch's variable_data): its storage and geometry, no base, a fresh
  // counter; an inference tensor's follows detach()'s rule instead (Note [Inference tensors]).
  static Ref<Tensor> make_data_of(const Tensor& t);

  Storage* storage() const { return storage_; }

  // The version of this tensor's family (Note [Version counters]); 0 before any write, and
  // for a tensor without a counter (check tracks_version() where torch refuses to read it).
  // A view uses its base's counter (Note [Version counters]): it holds no reference of its
  // own, so taking a view costs no atomic operation on the counter.
  int64_t version() const {
    if (base_) return base_->version();
    const VersionCounter* v = version_.load(std::memory_order_acquire);
    return v ? v->value() : 0;
  }
  // Called after an in-place write.  An inference tensor bumps nothing inside inference mode;
  // a tensor without a counter refuses outside (after the write, as torch's bump).
  void bump_version() const {
    VersionCounter* const v = version_counter();
    if (__builtin_expect(is_inference() || v == disabled_counter(), 0)) return bump_inference_version();
    v->bump();
  }
  // This tensor's counter, created on first use (thread-safe: the first to publish one wins).
  VersionCounter* version_counter() const;
  // Whether a and b share one version counter (tensors without one share none).
  static bool same_version_counter(const Tensor& a, const Tensor& b) {
    return a.tracks_version() && b.tracks_version() && a.version_counter() == b.version_counter();
  }

  // Note [Mutable metadata]: replaces storage, dtype and geometry, keeping identity, base,
  // autograd state and version counter.  Checks what make() checks (ndim, numel and byte
  // overflow); callers check bounds.  Strong guarantee: on failure nothing changed.
  void set_geometry(Storage* storage, DType dtype, IntList sizes, IntList strides, int64_t offset);
  // Root tensor of this view, or nullptr if this is not a view.
  Tensor* base() const { return base_; }
  bool is_view() const { return base_ != nullptr; }
  // The tensor a new view of this one should name as its base.
  Tensor* view_root() const { return base_ ? base_ : const_cast<Tensor*>(this); }

  // Address of element [0,...,0] (nullptr for a tensor with no elements).
  char* data() const { return numel_ == 0 ? nullptr : storage_->data() + offset_ * itemsize(); }
  // Same address, even for empty tensors (the storage start + offset).  An empty tensor may
  // carry any offset (as_strided, from_blob, DLPack; found by the fuzzer: INT64_MAX), so its
  // byte offset is taken in address arithmetic, which wraps instead of overflowing; such an
  // address is only compared or printed, never read.
  char* raw_data() const {
    char* const start = storage_->data();
    if (!start) return nullptr;
    if (numel_ > 0) return start + offset_ * itemsize();  // make() checked that it fits
    return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(start) + uint64_t(offset_) * uint64_t(itemsize()));
  }

  // Autograd state (requires_grad, grad_fn, grad, view tracking): nullptr for a tensor that
  // never took part in autograd, which is the common case and costs nothing.  Unlike the
  // metadata above, it is mutable: see Note [Autograd state] in autograd/meta.h.
  autograd::AutogradMeta* autograd() const { return autograd_; }
  void set_autograd(autograd::AutogradMeta* m) const { autograd_ = m; }

  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

 private:
  Tensor() = default;
  ~Tensor();
  void bump_inference_version() const;
  static VersionCounter disabled_counter_;
  // make, once the geometry is known to be valid, to hold `numel` elements and to be
  // contiguous or not (compute_contiguous).  takes_storage: the caller's reference to storage
  // becomes the tensor's once make_checked returns (no retain; the caller then drops its
  // pointer without a release), instead of a new one.
  static Ref<Tensor> make_checked(Storage* storage, DType dtype, IntList sizes, IntList strides, int64_t offset,
                                  Tensor* base, const Tensor* counter_from, int64_t numel, bool contiguous,
                                  bool takes_storage = false);

  // Note [Views lent by their root] (storage.h): a root is counted by its home storage; a view
  // that borrows holds its storage and base through that count, not a reference on each.
  bool is_root() const { return math_bits_ & kRootBit; }
  bool borrows() const { return math_bits_ & kBorrowsBit; }

  static constexpr uint32_t kMagic = 0x7e450c75u;
  union {
    mutable std::atomic<int64_t> refcount_{1};  // a tensor that is not a root
    Storage* home_;  // a root: the storage it was made on, which counts its references
  };
  // Each an owned reference, except in a view that borrows() them both from its base's group
  // (Note [Views lent by their root] in storage.h); base_ is nullptr for a tensor not a view.
  Storage* storage_ = nullptr;
  Tensor* base_ = nullptr;
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  mutable autograd::AutogradMeta* autograd_ = nullptr;  // owned; see autograd()
  // Made lazily; an owned reference unless storage_ keeps it (Note [Counters kept by the storage]).
  mutable std::atomic<VersionCounter*> version_{nullptr};
  uint32_t magic_ = kMagic;
  int8_t ndim_ = 0;  // at most kMaxDims (64): one byte, so that the bits below fit the 128
  uint8_t math_bits_ = 0;  // Note [Math bits], kInferenceBit (Note [Inference tensors]), kRootBit, kBorrowsBit
  static constexpr uint8_t kInferenceBit = 0x80, kRootBit = 0x10, kBorrowsBit = 0x20;
  DType dtype_ = DType::Float32;
  bool contiguous_ = true;
  // sizes [0, ndim), strides [ndim, 2 ndim): inline_ up to kInlineDims dims, else heap_
  union {
    int64_t inline_[2 * kInlineDims];
    int64_t* heap_;
  };
  const int64_t* dims() const { return ndim_ > kInlineDims ? heap_ : inline_; }
  int64_t* dims() { return ndim_ > kInlineDims ? heap_ : inline_; }
};

int64_t live_tensors();

}  // namespace ct
