#include "tensor.h"

#include <new>

#include "live_count.h"
#include "shape.h"

namespace ct {

static_assert(sizeof(Tensor) <= 128, "Note [Tensor layout]: a Tensor fits in 128 bytes");

Ref<Tensor> Tensor::make(Storage* storage, DType dtype, IntList sizes, IntList strides,
                         int64_t offset, Tensor* base) {
  const int ndim = int(sizes.size());
  CT_CHECK(ndim <= kMaxDims, InvalidArgument, "tensor: ndim must be at most " << kMaxDims << ", got " << ndim);
  const int64_t numel = checked_numel(sizes, "tensor");  // views of expanded tensors can overflow
  // With elements, byte strides and the byte offset must fit int64: every kernel and printer
  // scales by the item size.  Only hostile geometries get here (a huge stride on a size-1 dim,
  // which as_strided, from_blob and DLPack accept as torch does, since it is never stepped).
  // Empty tensors keep theirs (torch.empty(0, 2**62, 4) has such strides) and are never read.
  const int64_t item = ct::itemsize(dtype);
  int64_t bytes = 0;
  CT_CHECK(numel == 0 || !__builtin_mul_overflow(offset, item, &bytes), InvalidArgument,
           "tensor: storage offset " << offset << " times the item size " << item << " overflows int64");
  for (int i = 0; i < ndim && numel > 0; ++i) {
    CT_CHECK(!__builtin_mul_overflow(strides[size_t(i)], item, &bytes), InvalidArgument,
             "tensor: stride " << strides[size_t(i)] << " of dimension " << i << " times the item size " << item
                               << " overflows int64");
  }
  // Default-initialized, not value-initialized: `new Tensor()` zeroes all 128 bytes first with
  // a `rep stos` (perf: about a third of Tensor::make's samples); the members have
  // initializers, and only the first 2 * ndim entries of inline_ are ever read.
  Tensor* t = new Tensor;
  if (ndim > kInlineDims) {
    t->dims_ = new (std::nothrow) int64_t[size_t(2 * ndim)];
    if (!t->dims_) {
      t->dims_ = t->inline_;
      delete t;
      CT_FAIL(OutOfMemory, "tensor: out of memory for " << ndim << " dims");
    }
  }
  t->ndim_ = int16_t(ndim);
  t->dtype_ = dtype;
  t->offset_ = offset;
  for (int i = 0; i < ndim; ++i) {
    t->dims_[i] = sizes[size_t(i)];
    t->dims_[ndim + i] = strides[size_t(i)];
  }
  t->numel_ = numel;
  t->contiguous_ = compute_contiguous(sizes, strides);
  storage->retain();
  t->storage_ = storage;
  if (base) {
    base->retain();
    t->base_ = base;
  }
  live_add(LiveKind::Tensor, 1);
  return Ref<Tensor>::adopt(t);
}

Ref<Tensor> Tensor::empty(IntList sizes, DType dtype, const char* op) {
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  const int64_t numel = checked_numel(sizes, op);
  const int64_t nbytes = checked_nbytes(numel, ct::itemsize(dtype), op);
  Ref<Storage> storage = Ref<Storage>::adopt(Storage::allocate(nbytes, op));
  const Shape strides = contiguous_strides(sizes);
  return make(storage.get(), dtype, sizes, strides, 0, nullptr);
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
  return make(storage.get(), dtype, sizes, strides, 0, nullptr);
}

Tensor::~Tensor() {
  if (storage_) {
    live_add(LiveKind::Tensor, -1);
    storage_->release();
  }
  if (autograd_) autograd::destroy_meta(autograd_);
  if (base_) base_->release();
  if (dims_ != inline_) delete[] dims_;
  magic_ = 0;
}

int64_t live_tensors() { return live_total(LiveKind::Tensor); }

}  // namespace ct
