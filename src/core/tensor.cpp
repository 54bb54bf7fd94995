#include "tensor.h"

#include <cstdlib>
#include <new>

#include "error.h"
#include "live_count.h"
#include "shape.h"
#include "small_blocks.h"

namespace ct {

static_assert(sizeof(Tensor) <= 128, "Note [Tensor layout]: a Tensor fits in 128 bytes");

namespace {
constexpr int64_t kObjectBytes = 128;  // Note [Tensor objects]: one small_blocks class
}

void* Tensor::operator new(size_t bytes) {
  CT_CHECK(int64_t(bytes) <= kObjectBytes, Internal, "tensor: object of " << bytes << " bytes");
  return small_blocks::new_block(kObjectBytes);
}

void Tensor::operator delete(void* p) noexcept {
  if (p) small_blocks::give(static_cast<char*>(p), kObjectBytes);
}

namespace {
// The checks of a geometry, one at a time (check_geometry makes them all; make_with_new_dim
// only those a new dim can fail).
void check_ndim(int ndim) {
  CT_CHECK(ndim <= kMaxDims, InvalidArgument, "tensor: ndim must be at most " << kMaxDims << ", got " << ndim);
}
// With elements, byte strides and the byte offset must fit int64: every kernel and printer
// scales by the item size.  Only hostile geometries get here (a huge stride on a size-1 dim,
// which as_strided, from_blob and DLPack accept as torch does, since it is never stepped).
// Empty tensors keep theirs (torch.empty(0, 2**62, 4) has such strides) and are never read,
// so callers check only when numel > 0.
void check_stride_bytes(int64_t stride, int dim, int64_t item) {
  int64_t bytes = 0;
  CT_CHECK(!__builtin_mul_overflow(stride, item, &bytes), InvalidArgument,
           "tensor: stride " << stride << " of dimension " << dim << " times the item size " << item
                             << " overflows int64");
}

// The checks every geometry passes (make, set_geometry); returns numel.
int64_t check_geometry(DType dtype, IntList sizes, IntList strides, int64_t offset) {
  const int ndim = int(sizes.size());
  check_ndim(ndim);
  const int64_t numel = checked_numel(sizes, "tensor");  // views of expanded tensors can overflow
  const int64_t item = ct::itemsize(dtype);
  int64_t bytes = 0;
  CT_CHECK(numel == 0 || !__builtin_mul_overflow(offset, item, &bytes), InvalidArgument,
           "tensor: storage offset " << offset << " times the item size " << item << " overflows int64");
  for (int i = 0; i < ndim && numel > 0; ++i) check_stride_bytes(strides[size_t(i)], i, item);
  return numel;
}
}  // namespace

Ref<Tensor> Tensor::make(Storage* storage, DType dtype, IntList sizes, IntList strides,
                         int64_t offset, Tensor* base, const Tensor* counter_from) {
  const int64_t numel = check_geometry(dtype, sizes, strides, offset);
  return make_checked(storage, dtype, sizes, strides, offset, base, counter_from, numel,
                      compute_contiguous(sizes, strides));
}

Ref<Tensor> Tensor::make_rearranged(const Tensor& of, IntList sizes, IntList strides, Tensor* base) {
  return make_checked(of.storage(), of.dtype(), sizes, strides, of.offset(), base, nullptr, of.numel(),
                      compute_contiguous(sizes, strides));
}

Ref<Tensor> Tensor::make_narrowed(const Tensor& of, IntList sizes, IntList strides, int64_t offset, int64_t numel,
                                  Tensor* base) {
  return make_checked(of.storage(), of.dtype(), sizes, strides, offset, base, nullptr, numel,
                      compute_contiguous(sizes, strides));
}

Ref<Tensor> Tensor::make_with_new_dim(const Tensor& of, IntList sizes, IntList strides, int64_t offset,
                                      int64_t numel, int new_dim, Tensor* base) {
  check_ndim(int(sizes.size()));
  if (numel > 0) check_stride_bytes(strides[size_t(new_dim)], new_dim, of.itemsize());
  return make_checked(of.storage(), of.dtype(), sizes, strides, offset, base, nullptr, numel,
                      compute_contiguous(sizes, strides));
}

Ref<Tensor> Tensor::make_contiguous_view(const Tensor& of, IntList sizes, IntList strides, Tensor* base) {
  return make_checked(of.storage(), of.dtype(), sizes, strides, of.offset(), base, nullptr, of.numel(), true);
}

Ref<Tensor> Tensor::make_alias(const Tensor& of) {
  Ref<Tensor> a = make_checked(of.storage(), of.dtype(), of.sizes(), of.strides(), of.offset(), nullptr, &of,
                               of.numel(), of.is_contiguous());
  a->set_math_bits(of.math_bits());
  return a;
}

Ref<Tensor> Tensor::make_checked(Storage* storage, DType dtype, IntList sizes, IntList strides, int64_t offset,
                                 Tensor* base, const Tensor* counter_from, int64_t numel, bool contiguous,
                                 bool takes_storage) {
  const int ndim = int(sizes.size());
  // Note [Inference tensors]: whether the result is one, and whether it has no counter.
  bool inference = false, no_counter = false;
  if (base) {
    if (__builtin_expect(base->is_inference(), 0)) {
      inference = no_counter = true;
      base = nullptr;  // a view of an inference tensor is not a view (torch's as_view)
    }
  } else if (counter_from) {
    if (__builtin_expect(counter_from->is_inference(), 0)) {
      inference = true;
      no_counter = inference_mode_enabled();
      counter_from = nullptr;
    }
  } else {
    inference = no_counter = inference_mode_enabled();
  }
  // The shared counter first: creating it lazily may throw, and nothing is allocated yet.
  // A view reads its base's counter (Tensor::version_counter); only a non-view that shares
  // one (ct_alias) holds a reference.
  VersionCounter* const counter = counter_from && !base ? counter_from->version_counter() : nullptr;
  // Default-initialized, not value-initialized: `new Tensor()` zeroes all 128 bytes first with
  // a `rep stos` (perf: about a third of Tensor::make's samples); the members have
  // initializers, and only the first 2 * ndim entries of inline_ are ever read.
  Tensor* t = new Tensor;
  if (ndim > kInlineDims) {
    t->heap_ = new (std::nothrow) int64_t[size_t(2 * ndim)];
    if (!t->heap_) {
      delete t;  // ndim_ is still 0: nothing to free
      CT_FAIL(OutOfMemory, "tensor: out of memory for " << ndim << " dims");
    }
  }
  t->ndim_ = int8_t(ndim);
  t->dtype_ = dtype;
  t->offset_ = offset;
  int64_t* dims = t->dims();
  for (int i = 0; i < ndim; ++i) {
    dims[i] = sizes[size_t(i)];
    dims[ndim + i] = strides[size_t(i)];
  }
  t->numel_ = numel;
  t->contiguous_ = contiguous;
  // Nothing below throws: the references are the tensor's.  Note [Views lent by their root]:
  // a view of a root on the root's own storage borrows both; a tensor on a fresh storage is
  // its root.
  t->storage_ = storage;
  if (base) {
    t->base_ = base;
    if (base->is_root() && base->home_ == storage && !takes_storage) {
      storage->lend_view();
      t->math_bits_ = kBorrowsBit;
    } else {
      storage->retain();
      base->retain();
    }
  } else if (takes_storage) {
    storage->start_group();  // the storage is new: its reference becomes the group's
    t->home_ = storage;
    t->math_bits_ = kRootBit;
  } else {
    storage->retain();
  }
  if (counter) {
    // Note [Counters kept by the storage]: the storage holding it is held by the tensor.
    if (counter != storage->kept_counter()) counter->retain();
    t->version_.store(counter, std::memory_order_relaxed);
  }
  if (__builtin_expect(inference, 0)) {
    t->math_bits_ |= kInferenceBit;
    if (no_counter) t->version_.store(disabled_counter(), std::memory_order_relaxed);
  }
  live_add(LiveKind::Tensor, 1);
  return Ref<Tensor>::adopt(t);
}

VersionCounter Tensor::disabled_counter_;

void Tensor::bump_inference_version() const {
  if (!tracks_version()) {  // no counter: nothing to bump inside inference mode, refused outside
    CT_CHECK(inference_mode_enabled(), InvalidArgument, kInplaceMessage);
    return;
  }
  if (inference_mode_enabled()) return;  // inference tensors bump nothing in inference mode
  version_counter()->bump();  // detach()/.data of one, taken outside: its own counter
}

Ref<Tensor> Tensor::make_data_of(const Tensor& t) {
  if (t.is_inference())  // detach()'s rule (Note [Inference tensors])
    return make(t.storage(), t.dtype(), t.sizes(), t.strides(), t.offset(), nullptr, &t);
  Ref<Tensor> d = make(t.storage(), t.dtype(), t.sizes(), t.strides(), t.offset(), nullptr);
  if (d->is_inference()) {  // made in inference mode, but .data of a normal tensor is normal
    d->math_bits_ = 0;
    d->version_.store(nullptr, std::memory_order_relaxed);
  }
  return d;
}

VersionCounter* Tensor::version_counter() const {
  if (base_) return base_->version_counter();
  VersionCounter* v = version_.load(std::memory_order_acquire);
  if (__builtin_expect(v != nullptr, 1)) return v;
  VersionCounter* fresh = new VersionCounter;
  // Note [Counters kept by the storage]: offered to the storage before anyone can see it, so
  // no tensor ever held a reference on a counter that its storage then came to keep.
  const bool kept = storage_ && storage_->keep_counter(fresh);
  if (version_.compare_exchange_strong(v, fresh, std::memory_order_acq_rel, std::memory_order_acquire)) return fresh;
  if (!kept) delete fresh;  // another thread published one first: v is it (a kept one dies with the storage)
  return v;
}

void Tensor::set_geometry(Storage* storage, DType dtype, IntList sizes, IntList strides, int64_t offset) {
  const int ndim = int(sizes.size());
  const int64_t numel = check_geometry(dtype, sizes, strides, offset);
  // sizes/strides may point into this tensor's own dims: copy them before reusing them.
  int64_t staged[2 * (kMaxDims + 1)];
  std::copy(sizes.begin(), sizes.end(), staged);
  std::copy(strides.begin(), strides.end(), staged + ndim);
  int64_t* heap = nullptr;
  if (ndim > kInlineDims) {
    heap = new (std::nothrow) int64_t[size_t(2 * ndim)];
    CT_CHECK(heap != nullptr, OutOfMemory, "tensor: out of memory for " << ndim << " dims");
  }
  if (ndim_ > kInlineDims) delete[] heap_;
  ndim_ = int8_t(ndim);
  if (heap) heap_ = heap;
  std::copy(staged, staged + 2 * ndim, dims());
  dtype_ = dtype;
  offset_ = offset;
  numel_ = numel;
  contiguous_ = compute_contiguous(this->sizes(), this->strides());
  if (storage != storage_) {
    // Note [Counters kept by the storage]: a reference on the counter exactly when the new
    // storage does not keep it, taken before the old storage (which may keep it) is released.
    VersionCounter* const v = version_.load(std::memory_order_relaxed);
    const bool counted = v && v != disabled_counter();
    const bool held_before = counted && v != storage_->kept_counter();
    const bool held_after = counted && v != storage->kept_counter();
    if (held_after && !held_before) v->retain();
    // Note [Views lent by their root]: a root holds its home through its group, and any other
    // storage with a reference; a view that leaves the storage its base lent takes ordinary
    // references (the base's first, so that giving back the lent unit cannot end the group).
    if (is_root()) {
      if (storage != home_) storage->retain();
      if (storage_ != home_) storage_->release();
      home_->set_root_away(storage != home_);
    } else if (borrows()) {
      base_->retain();
      storage->retain();
      (void)storage_->return_view();
      math_bits_ = uint8_t(math_bits_ & ~kBorrowsBit);
    } else {
      storage->retain();
      storage_->release();
    }
    storage_ = storage;
    if (held_before && !held_after) v->release();  // the new storage keeps it: never the last
  }
}

Ref<Tensor> Tensor::empty(IntList sizes, DType dtype, const char* op) {
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  const int64_t numel = checked_numel(sizes, op);
  const int64_t nbytes = checked_nbytes(numel, ct::itemsize(dtype), op);
  Ref<Storage> storage = Ref<Storage>::adopt(Storage::allocate(nbytes, op));
  const DimBuf strides = contiguous_strides_buf(sizes);
  // check_geometry's checks hold by construction: ndim and numel were checked above; in a
  // non-empty tensor no contiguous stride exceeds numel, whose byte count fit int64, and an
  // empty one's strides are never scaled (check_geometry skips them too).
  // The new storage's one reference passes to the tensor: a retain here and a release of
  // `storage` were two locked instructions for every new tensor (perf).  If make_checked
  // throws, `storage` still holds it and frees it.
  Ref<Tensor> t = make_checked(storage.get(), dtype, sizes, strides, 0, nullptr, nullptr, numel, true, true);
  (void)storage.release();
  return t;
}

Ref<Tensor> Tensor::empty_strided(IntList sizes, IntList strides, DType dtype, const char* op) {
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  const int64_t numel = checked_numel(sizes, op);
  int64_t span = 0;
  if (numel > 0) {
    const Extent e = element_extent(sizes, strides, 0, op);
    CT_CHECK(e.lo >= 0, Internal, op << ": negative strides " << list_str(strides));
    span = e.hi + 1;
  }
  const int64_t nbytes = checked_nbytes(span, ct::itemsize(dtype), op);
  Ref<Storage> storage = Ref<Storage>::adopt(Storage::allocate(nbytes, op));
  (void)check_geometry(dtype, sizes, strides, 0);  // the strides are the caller's
  // As in empty: the storage's one reference becomes the tensor's.
  Ref<Tensor> t = make_checked(storage.get(), dtype, sizes, strides, 0, nullptr, nullptr, numel,
                               compute_contiguous(sizes, strides), true);
  (void)storage.release();
  return t;
}

Tensor::~Tensor() {
  // Note [Counters kept by the storage]: asked before the storage may go.
  VersionCounter* const v = version_.load(std::memory_order_relaxed);
  const bool holds_counter = v && v != disabled_counter() && !(storage_ && v == storage_->kept_counter());
  if (storage_) {
    live_add(LiveKind::Tensor, -1);
    // Note [Views lent by their root]: a borrowing view gives back its storage with its base
    // (below); a root's group has ended, and gives back the reference the group held on home.
    if (is_root()) {
      if (storage_ != home_) {
        storage_->release();
        home_->set_root_away(false);
      }
      home_->release();
    } else if (!borrows()) {
      storage_->release();
    }
  }
  if (autograd_) autograd::destroy_meta(autograd_);
  if (base_) {
    if (!borrows()) base_->release();
    else if (storage_->return_view()) delete base_;  // the last view of a released root
  }
  if (holds_counter) v->release();
  if (ndim_ > kInlineDims) delete[] heap_;
  magic_ = 0;
}

int64_t live_tensors() { return live_total(LiveKind::Tensor); }

}  // namespace ct
