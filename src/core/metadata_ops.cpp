#include "core/metadata_ops.h"

#include "core/autograd/meta.h"
#include "core/autograd/nodes.h"
#include "core/error.h"
#include "core/ops/promote.h"
#include "core/shape.h"
#include "core/views.h"

namespace ct {
namespace {

// Whether an in-place metadata op on self must be recorded in the graph (grad mode on and
// self, or the tensor it is set to, requiring grad); torch's check_inplace runs first, so a
// leaf requiring grad, a view of one, and views made in no_grad mode or by a multi-output op
// are refused with torch's messages before anything changes.
bool must_record(const Tensor& self, const Tensor* source = nullptr) {
  const bool self_needs = autograd::needs_grad(self);
  if (self_needs) autograd::check_inplace(self);
  return self_needs || (source && autograd::needs_grad(*source));
}

// set_'s record step: torch has no derivative for it and records its NotImplemented node
// (edges to self's old history and to source's), as an ordinary in-place op: on a view the
// base's grad_fn becomes CopySlices.  `node` was made before self changed.
void record_set(const Tensor& self, std::shared_ptr<autograd::Node> node) {
  if (node) autograd::rebase_history(self, std::move(node));
}
std::shared_ptr<autograd::Node> set_node(const Tensor& self, const Tensor* source = nullptr) {
  if (!must_record(self, source)) return nullptr;
  if (source) return autograd::make_not_implemented("set_", {&self, source});
  return autograd::make_not_implemented("set_", {&self});
}

// torch's setStrided/checkSetStorage bounds: every element inside the storage.
void check_in_bounds(const Storage& storage, DType dtype, IntList sizes, IntList strides, int64_t offset) {
  const int64_t numel = checked_numel(sizes, "setStorage");
  if (numel == 0) return;
  const int64_t item = itemsize(dtype);
  const Extent e = element_extent(sizes, strides, offset, "setStorage");
  __int128 need = (__int128(e.hi) + 1) * item;
  if (need > storage.nbytes()) {
    CT_FAIL(Index, "setStorage: sizes " << list_str(sizes) << ", strides " << list_str(strides)
                                        << ", storage offset " << offset << ", and itemsize " << item
                                        << " requiring a storage size of " << int64_t(need)
                                        << " are out of bounds for storage of size " << storage.nbytes());
  }
}

// New geometry over self's own storage, with a bump; recorded as torch's `node_name`
// (TBackward1, ...) when `record` (must_record, asked before the op's own checks as torch
// does): the gradient flows back through the positions self reached before.
void restride_in_place(Tensor& self, bool record, const char* node_name, IntList sizes, IntList strides,
                       int64_t offset) {
  std::shared_ptr<autograd::Node> node;
  if (record) node = autograd::make_strided_backward(node_name, self, sizes, strides, offset);
  self.set_geometry(self.storage(), self.dtype(), sizes, strides, offset);
  self.bump_version();
  if (node) autograd::set_inplace_view_history(self, std::move(node));
}

// The geometry of a view op applied to self, then made self's own.
template <class MakeView>
void inplace_view(Tensor& self, const char* node_name, MakeView&& make) {
  const bool record = must_record(self);
  Ref<Tensor> r = make(static_cast<const Tensor&>(self));
  restride_in_place(self, record, node_name, r->sizes(), r->strides(), r->offset());
}

// The bytes (offset + numel) elements need, or fails as torch's resize does.
int64_t bytes_needed(IntList sizes, IntList strides, int64_t offset, DType dtype, const char* op) {
  const int64_t numel = checked_numel(sizes, op);
  if (numel == 0) return 0;
  const Extent e = element_extent(sizes, strides, offset, op);
  int64_t elems = 0, bytes = 0;
  CT_CHECK(!__builtin_add_overflow(e.hi, int64_t(1), &elems) &&
               !__builtin_mul_overflow(elems, itemsize(dtype), &bytes),
           InvalidArgument, op << ": Storage size calculation overflowed with sizes=" << list_str(sizes));
  return bytes;
}

}  // namespace

void set_storage_(Tensor& self, Storage& storage, int64_t offset, IntList sizes, const int64_t* strides) {
  const char* op = "set_";
  std::shared_ptr<autograd::Node> node = set_node(self);
  CT_CHECK(offset >= 0, InvalidArgument, "Tensor: invalid storage offset " << offset);
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  const Shape st = strides ? Shape(strides, strides + sizes.size()) : contiguous_strides(sizes);
  for (size_t i = 0; i < st.size(); ++i)
    CT_CHECK(st[i] >= 0, InvalidArgument, op << ": negative strides are not supported, got " << list_str(st));
  const int64_t need = bytes_needed(sizes, st, offset, self.dtype(), op);
  storage.grow_to(need, op);  // torch: resize_impl_cpu_(resize_storage=true)
  self.set_geometry(&storage, self.dtype(), sizes, st, offset);
  self.bump_version();
  record_set(self, std::move(node));
}

void set_storage_whole_(Tensor& self, Storage& storage) {
  const int64_t n = storage.nbytes() / self.itemsize();
  set_storage_(self, storage, 0, IntList(&n, 1), nullptr);
}

void set_(Tensor& self, const Tensor& source) {
  std::shared_ptr<autograd::Node> node = set_node(self, &source);
  if (&self == &source) {  // torch's set_tensor_: nothing changes, but the op still bumps
    self.bump_version();
    record_set(self, std::move(node));
    return;
  }
  CT_CHECK(self.dtype() == source.dtype(), InvalidArgument,
           "Could not set tensor of type " << cpp_type_name(source.dtype()) << " to a tensor of type "
                                           << cpp_type_name(self.dtype()));
  // source's geometry is valid for its storage: no growth, no bounds check needed
  self.set_geometry(source.storage(), self.dtype(), source.sizes(), source.strides(), source.offset());
  self.bump_version();
  record_set(self, std::move(node));
}

void set_empty_(Tensor& self) {
  std::shared_ptr<autograd::Node> node = set_node(self);
  Ref<Storage> fresh = Ref<Storage>::adopt(Storage::allocate(0, "set_"));
  const int64_t zero = 0, one = 1;
  self.set_geometry(fresh.get(), self.dtype(), IntList(&zero, 1), IntList(&one, 1), 0);
  self.bump_version();
  record_set(self, std::move(node));
}

bool is_set_to(const Tensor& self, const Tensor& other) {
  if (self.storage() != other.storage() || self.offset() != other.offset() || self.ndim() != other.ndim())
    return false;
  for (int d = 0; d < self.ndim(); ++d)
    if (self.size(d) != other.size(d) || self.stride(d) != other.stride(d)) return false;
  return true;
}

void resize_(Tensor& self, IntList sizes, std::optional<MemoryFormat> fmt) {
  const char* op = "resize_";
  CT_CHECK(!autograd::requires_grad(self), InvalidArgument, "cannot resize variables that require grad");
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  for (int64_t s : sizes)
    CT_CHECK(s >= 0, InvalidArgument,
             "Trying to create tensor with negative dimension " << s << ": " << list_str(sizes));
  CT_CHECK(fmt != MemoryFormat::Preserve, InvalidArgument, "Unsupported memory formatPreserve");  // torch's text
  const bool same = sizes.size() == size_t(self.ndim()) && std::equal(sizes.begin(), sizes.end(), self.sizes().begin());
  if (same && !fmt) return;  // torch: no restride, no bump
  const Shape strides = format_strides(sizes, fmt.value_or(MemoryFormat::Contiguous));  // checks the rank
  // Equal sizes with a format: torch restrides without checking the storage (an expanded
  // tensor would then reach past it); here the storage grows like for new sizes.
  const int64_t need = bytes_needed(sizes, strides, self.offset(), self.dtype(), op);
  self.storage()->grow_to(need, op);  // numel 0 needs 0 bytes: never touches the storage
  self.set_geometry(self.storage(), self.dtype(), sizes, strides, self.offset());
  if (!same) self.bump_version();  // torch 2.x: only when the sizes changed
}

void resize_as_(Tensor& self, const Tensor& other) { resize_(self, other.sizes()); }

void as_strided_(Tensor& self, IntList sizes, IntList strides, int64_t offset) {
  const bool record = must_record(self);
  CT_CHECK(sizes.size() == strides.size(), Shape, "mismatch in length of strides and shape");
  for (int64_t s : strides)
    CT_CHECK(s >= 0, InvalidArgument,
             "as_strided: Negative strides are not supported at the moment, got strides: " << list_str(strides));
  CT_CHECK(offset >= 0, InvalidArgument, "Tensor: invalid storage offset " << offset);
  check_in_bounds(*self.storage(), self.dtype(), sizes, strides, offset);
  restride_in_place(self, record, "AsStridedBackward1", sizes, strides, offset);
}

void t_(Tensor& self) {
  CT_CHECK(self.ndim() <= 2, Shape, "t_() expects a tensor with <= 2 dimensions, but self is " << self.ndim() << "D");
  inplace_view(self, "TBackward1", [](const Tensor& x) { return ct::t(x); });
}
void transpose_(Tensor& self, int64_t dim0, int64_t dim1) {
  inplace_view(self, "TransposeBackward1", [&](const Tensor& x) { return ct::transpose(x, dim0, dim1); });
}
void squeeze_(Tensor& self) {
  inplace_view(self, "SqueezeBackward3", [](const Tensor& x) { return ct::squeeze_all(x); });
}
void squeeze_dim_(Tensor& self, int64_t dim) {
  inplace_view(self, "SqueezeBackward4", [&](const Tensor& x) { return ct::squeeze(x, dim); });
}
void unsqueeze_(Tensor& self, int64_t dim) {
  inplace_view(self, "UnsqueezeBackward1", [&](const Tensor& x) { return ct::unsqueeze(x, dim); });
}

void set_data(Tensor& self, const Tensor& src) {
  if (&self == &src) return;
  self.set_geometry(src.storage(), src.dtype(), src.sizes(), src.strides(), src.offset());
  self.set_inference(src.is_inference());  // Note [Inference tensors]
}

void detach_(Tensor& self) {
  CT_CHECK(!self.is_view(), InvalidArgument,
           "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
           "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
           "detach_() cannot be called on these gradients. To fix this error, please refer to the "
           "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
  autograd::detach_in_place(self);
}

}  // namespace ct
