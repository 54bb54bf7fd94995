// Tensor: an immutable view of a Storage (dtype, sizes, strides in elements, offset),
// plus a pointer to its autograd state (nullptr unless it takes part in autograd).
//
// Note [Tensor layout]
// A Tensor is one allocation for up to 4 dims: sizes and strides live in inline_ and
// dims_ points at them; more dims go to a heap array.  The object is 128 bytes.  Nothing in
// it changes after make() except the refcount and the autograd state behind autograd_, so handles may be shared across threads.
//
// Note [Views and bases]
// base_ is the root tensor of a view (PyTorch's _base): the tensor that is not itself a
// view.  A view of a view gets the same base, never the intermediate one, so a chain of
// views keeps exactly one extra object alive.  An alias (detach) has no base.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "dtype.h"
#include "ref.h"
#include "storage.h"

namespace ct {

namespace autograd {
struct AutogradMeta;
void destroy_meta(AutogradMeta* m);
}  // namespace autograd

using IntList = std::span<const int64_t>;
using Shape = std::vector<int64_t>;

constexpr int kMaxDims = 64;
constexpr int kInlineDims = 4;

// A fixed-capacity list of sizes or strides on the stack: view ops build their geometry in
// these, so taking a view costs no allocation beyond the Tensor itself.
class DimBuf {
 public:
  DimBuf() = default;
  explicit DimBuf(IntList src) : n_(src.size()) { std::copy(src.begin(), src.end(), v_); }
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
  // nothing: callers (shape.h, views.h) validate the geometry first.
  static Ref<Tensor> make(Storage* storage, DType dtype, IntList sizes, IntList strides,
                          int64_t offset, Tensor* base);
  // A new contiguous tensor on a new uninitialized storage; checks sizes (negative, overflow).
  static Ref<Tensor> empty(IntList sizes, DType dtype, const char* op);
  // A new tensor on a new storage just large enough for (sizes, strides); strides >= 0.
  static Ref<Tensor> empty_strided(IntList sizes, IntList strides, DType dtype, const char* op);

  void retain() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // A sole owner skips the atomic decrement: with a count of 1 held by the caller, no other
  // thread holds a reference it could retain or release concurrently.
  void release() const {
    if (refcount_.load(std::memory_order_acquire) == 1 ||
        refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete this;
    }
  }
  int64_t refcount() const { return refcount_.load(std::memory_order_relaxed); }
  bool valid() const { return magic_ == kMagic; }

  int ndim() const { return ndim_; }
  IntList sizes() const { return {dims_, size_t(ndim_)}; }
  IntList strides() const { return {dims_ + ndim_, size_t(ndim_)}; }
  int64_t size(int d) const { return dims_[d]; }
  int64_t stride(int d) const { return dims_[ndim_ + d]; }
  int64_t offset() const { return offset_; }
  int64_t numel() const { return numel_; }
  DType dtype() const { return dtype_; }
  int64_t itemsize() const { return ct::itemsize(dtype_); }
  bool is_contiguous() const { return contiguous_; }

  Storage* storage() const { return storage_; }
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

  static constexpr uint32_t kMagic = 0x7e450c75u;
  mutable std::atomic<int64_t> refcount_{1};
  Storage* storage_ = nullptr;  // owned reference
  Tensor* base_ = nullptr;      // owned reference, or nullptr
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  int64_t* dims_ = inline_;     // sizes [0, ndim), strides [ndim, 2 ndim)
  mutable autograd::AutogradMeta* autograd_ = nullptr;  // owned; see autograd()
  uint32_t magic_ = kMagic;
  int16_t ndim_ = 0;
  DType dtype_ = DType::Float32;
  bool contiguous_ = true;
  int64_t inline_[2 * kInlineDims];
};

int64_t live_tensors();

}  // namespace ct
