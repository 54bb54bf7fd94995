#include "views.h"

#include <algorithm>
#include <limits>

#include "copy.h"
#include "shape.h"

namespace ct {
namespace {

// a * b + c for view geometry.  Only hostile geometries overflow (a huge stride on a dim of
// size 1 or on an empty tensor, which as_strided and from_blob accept): refuse them, as slice
// does, rather than compute a wrapped (undefined) stride or offset.
int64_t geometry(const char* op, int64_t a, int64_t b, int64_t c = 0) {
  int64_t r = 0;
  CT_CHECK(!__builtin_mul_overflow(a, b, &r) && !__builtin_add_overflow(r, c, &r), InvalidArgument,
           op << ": sizes, strides and offsets overflow int64 (" << a << " * " << b << " + " << c << ")");
  return r;
}

}  // namespace

Ref<Tensor> make_view(const Tensor& t, IntList sizes, IntList strides, int64_t offset) {
  Ref<Tensor> v = Tensor::make(t.storage(), t.dtype(), sizes, strides, offset, t.view_root());
  v->set_math_bits(t.math_bits());  // Note [Math bits]: views read what t reads
  return v;
}

namespace {
// make_view for the views over t's own elements, rearranged (Tensor::make_rearranged): a
// permutation of t's dims, or t's dims less some of size 1.  Nothing can fail, so nothing is
// checked: these are the views that are created most often.
Ref<Tensor> rearranged_view(const Tensor& t, IntList sizes, IntList strides) {
  Ref<Tensor> v = Tensor::make_rearranged(t, sizes, strides, t.view_root());
  v->set_math_bits(t.math_bits());
  return v;
}

// make_view for the views over some of t's elements (select, slice): Tensor::make_narrowed.
Ref<Tensor> narrowed_view(const Tensor& t, IntList sizes, IntList strides, int64_t offset, int64_t numel) {
  Ref<Tensor> v = Tensor::make_narrowed(t, sizes, strides, offset, numel, t.view_root());
  v->set_math_bits(t.math_bits());
  return v;
}

// Whether t's strides are exactly the contiguous strides of its sizes, size-1 dims included,
// and t is not empty (stricter than is_contiguous, which ignores size-1 dims).  Then torch's
// computeStride finds one chunk of base stride 1, and every view of t's elements in order
// (view, reshape) gets the contiguous strides of its own sizes.  A contiguous t whose size-1
// dims have other strides does not qualify: computeStride keeps some of those (a (12, 1)
// tensor of strides (1, 5) viewed as (12, 1) keeps (1, 5)).
bool has_contiguous_strides(const Tensor& t) {
  if (!t.is_contiguous() || t.numel() == 0) return false;
  int64_t expected = 1;
  for (int i = t.ndim() - 1; i >= 0; --i) {
    if (t.stride(i) != expected) return false;
    expected *= t.size(i);
  }
  return true;
}

// view and reshape of such a t (has_contiguous_strides) to sizes of its numel: no stride walk,
// no checks (Tensor::make_contiguous_view).  A third of a C view(), by callgrind.
Ref<Tensor> contiguous_view(const Tensor& t, IntList sizes) {
  const DimBuf strides = contiguous_strides_buf(sizes);
  Ref<Tensor> v = Tensor::make_contiguous_view(t, sizes, strides, t.view_root());
  v->set_math_bits(t.math_bits());
  return v;
}

// make_view for unsqueeze and diagonal: Tensor::make_with_new_dim.
Ref<Tensor> view_with_new_dim(const Tensor& t, IntList sizes, IntList strides, int64_t offset, int64_t numel,
                              int new_dim) {
  Ref<Tensor> v = Tensor::make_with_new_dim(t, sizes, strides, offset, numel, new_dim, t.view_root());
  v->set_math_bits(t.math_bits());
  return v;
}
}  // namespace

Ref<Tensor> view(const Tensor& t, IntList shape) {
  if (shape.size() > size_t(kMaxDims)) {  // refused by Tensor::make, after the shape checks
    const Shape sizes = infer_size(shape, t.numel(), "view");
    const auto strides = view_strides(t.sizes(), t.strides(), sizes);
    CT_CHECK(strides.has_value(), NotViewable,
             "view size is not compatible with input tensor's size and stride (at least one dimension spans "
             "across two contiguous subspaces). Use .reshape(...) instead.");
    return make_view(t, sizes, *strides, t.offset());
  }
  DimBuf sizes, strides;
  infer_size_into(shape, t.numel(), "view", sizes);
  if (has_contiguous_strides(t)) return contiguous_view(t, sizes);
  CT_CHECK(view_strides_into(t.sizes(), t.strides(), sizes, strides), NotViewable,
           "view size is not compatible with input tensor's size and stride (at least one dimension spans "
           "across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(t, sizes, strides, t.offset());
}

Ref<Tensor> transpose(const Tensor& t, int64_t dim0, int64_t dim1) {
  const int n = t.ndim();
  const int d0 = wrap_dim(dim0, n), d1 = wrap_dim(dim1, n);
  DimBuf sizes(t.sizes()), strides(t.strides());
  if (n > 0) {
    std::swap(sizes[size_t(d0)], sizes[size_t(d1)]);
    std::swap(strides[size_t(d0)], strides[size_t(d1)]);
  }
  return rearranged_view(t, sizes, strides);
}

Ref<Tensor> t(const Tensor& self) {
  const int n = self.ndim();
  CT_CHECK(n <= 2, Shape, "t() expects a tensor with <= 2 dimensions, but self is " << n << "D");
  if (n == 2) return transpose(self, 0, 1);
  return rearranged_view(self, self.sizes(), self.strides());
}

Ref<Tensor> permute(const Tensor& t, std::span<const int> dims) {
  const int n = t.ndim();
  CT_CHECK(int64_t(dims.size()) == n, Shape,
           "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
           "desired ordering of dimensions i.e. input.dim() = "
               << n << " is not equal to len(dims) = " << dims.size());
  DimBuf sizes, strides;
  bool seen[kMaxDims] = {};
  for (int i = 0; i < n; ++i) {
    const int d = wrap_dim(dims[size_t(i)], n);
    CT_CHECK(!seen[size_t(d)], InvalidArgument, "permute(): duplicate dims are not allowed.");
    seen[size_t(d)] = true;
    sizes.push_back(t.size(d));
    strides.push_back(t.stride(d));
  }
  return rearranged_view(t, sizes, strides);
}

Ref<Tensor> reverse_dims(const Tensor& t) {
  const int n = t.ndim();
  DimBuf sizes, strides;
  for (int d = n - 1; d >= 0; --d) {
    sizes.push_back(t.size(d));
    strides.push_back(t.stride(d));
  }
  return rearranged_view(t, sizes, strides);
}

namespace {
// torch's slice() of one dim of a geometry, in place: start and stop clamped to [0, size]
// (negatives count from the end), the dim's size and stride and the offset updated.  The
// clamped bounds lie inside the dim, so the result needs no storage check.
void slice_dim(int64_t& size, int64_t& stride, int64_t& offset, int64_t start, int64_t stop, int64_t step) {
  CT_CHECK(step > 0, InvalidArgument, "slice step must be positive, got " << step);
  auto clamp = [size](int64_t i) {
    if (i < 0) i = i < -size ? 0 : i + size;  // written to avoid overflow near INT64_MIN
    return std::min(i, size);
  };
  start = clamp(start);
  stop = std::max(clamp(stop), start);
  // Only hostile geometries (as_strided with a huge stride on a size-1 dim) overflow here.
  int64_t new_stride = 0, shift = 0;
  const bool overflow = __builtin_mul_overflow(stride, step, &new_stride) ||
                        __builtin_mul_overflow(start, stride, &shift) || __builtin_add_overflow(shift, offset, &shift);
  CT_CHECK(!overflow, InvalidArgument,
           "slice: start " << start << " and step " << step << " with stride " << stride << " overflow int64");
  size = stop > start ? (stop - start - 1) / step + 1 : 0;
  stride = new_stride;
  offset = shift;
}
}  // namespace

Ref<Tensor> slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  CT_CHECK(t.ndim() > 0, Index, "slice() cannot be applied to a 0-dim tensor.");
  const int d = wrap_dim(dim, t.ndim());
  const int64_t size = t.size(d);
  DimBuf sizes(t.sizes()), strides(t.strides());
  int64_t offset = t.offset();
  slice_dim(sizes[size_t(d)], strides[size_t(d)], offset, start, stop, step);
  // A step > 1 makes a new stride, which make checks (its bytes may overflow on a size-1 dim).
  if (step != 1) return make_view(t, sizes, strides, offset);
  return narrowed_view(t, sizes, strides, offset, size == 0 ? 0 : t.numel() / size * sizes[size_t(d)]);
}

Ref<Tensor> slice_dims(const Tensor& t, IntList starts, IntList stops, IntList steps) {
  const size_t n = starts.size();
  DimBuf sizes(t.sizes()), strides(t.strides());
  int64_t offset = t.offset(), numel = t.numel();
  bool unit_steps = true;
  // the checks of slice(t, d, ...), in its order, for each dim in turn
  CT_CHECK(n == 0 || t.ndim() > 0, Index, "slice() cannot be applied to a 0-dim tensor.");
  for (size_t d = 0; d < n; ++d) {
    if (d >= size_t(t.ndim())) wrap_dim(int64_t(d), t.ndim());  // throws torch's "Dimension out of range"
    const int64_t size = sizes[d];
    slice_dim(sizes[d], strides[d], offset, starts[d], stops[d], steps[d]);
    numel = size == 0 ? 0 : numel / size * sizes[d];
    unit_steps = unit_steps && steps[d] == 1;
  }
  if (!unit_steps) return make_view(t, sizes, strides, offset);
  return narrowed_view(t, sizes, strides, offset, numel);
}

Ref<Tensor> narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  // torch 2.x's order (TensorShape.cpp: narrow_symint): 0-dim, length, dim, start range, end.
  CT_CHECK(t.ndim() > 0, Index, "narrow() cannot be applied to a 0-dim tensor.");
  CT_CHECK(length >= 0, Shape, "narrow(): length must be non-negative.");
  const int d = wrap_dim(dim, t.ndim());
  const int64_t size = t.size(d);
  CT_CHECK(start >= -size && start <= size, Index,
           "start out of range (expected to be in range of [" << -size << ", " << size << "], but got " << start
                                                              << ")");
  if (start < 0) start += size;
  CT_CHECK(start <= size - length, Shape,
           "start (" << start << ") + length (" << length << ") exceeds dimension size (" << size << ").");
  return slice(t, d, start, start + length, 1);
}

Ref<Tensor> select(const Tensor& t, int64_t dim, int64_t index) {
  CT_CHECK(t.ndim() > 0, Index, "select() cannot be applied to a 0-dim tensor.");
  const int d = wrap_dim(dim, t.ndim());
  const int64_t size = t.size(d);
  CT_CHECK(index >= -size && index < size, Index,
           "select(): index " << index << " out of range for tensor of size " << list_str(t.sizes())
                              << " at dimension " << d);
  if (index < 0) index += size;
  // t's dims but d, copied in one pass (DimBuf::erase is a memmove call) with their element
  // count (a 64-bit division by size cost more than these multiplications).  The product
  // cannot overflow once it is known that no size is 0: it divides t.numel().
  DimBuf sizes, strides;
  int64_t numel = 1;
  for (int i = 0; i < t.ndim(); ++i) {
    if (i == d) continue;
    sizes.push_back(t.size(i));
    strides.push_back(t.stride(i));
    numel *= t.numel() == 0 ? 0 : t.size(i);
  }
  return narrowed_view(t, sizes, strides, geometry("select", index, t.stride(d), t.offset()), numel);
}

Ref<Tensor> expand(const Tensor& t, IntList target) {
  const int64_t n = int64_t(target.size()), tn = t.ndim();
  CT_CHECK(n >= tn, Shape,
           "expand(ctensor." << dtype_name(t.dtype()) << "{" << list_str(t.sizes()) << "}, size=" << list_str(target)
                             << "): the number of sizes provided (" << n
                             << ") must be greater or equal to the number of dimensions in the tensor (" << tn
                             << ")");
  DimBuf sizes, strides;
  sizes.resize(size_t(n));
  strides.resize(size_t(n));
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t ti = i - (n - tn);
    int64_t want = target[size_t(i)];
    if (ti < 0) {
      CT_CHECK(want >= 0, Shape,
               "The expanded size of the tensor (" << want << ") isn't allowed in a leading, non-existing dimension "
                                                   << i);
      sizes[size_t(i)] = want;
      // As torch: a new dim of size 1 gets the stride it would have in a dense layout of
      // the dims after it; a new dim of any other size is broadcast (stride 0).
      strides[size_t(i)] = want == 1 && i + 1 < n ? geometry("expand", sizes[size_t(i + 1)], strides[size_t(i + 1)]) : 0;
      continue;
    }
    const int64_t have = t.size(int(ti));
    if (want == -1) want = have;
    CT_CHECK(want >= 0, Shape, "expand: invalid size " << want << " at dimension " << i);
    if (have == want) {
      sizes[size_t(i)] = have;
      strides[size_t(i)] = t.stride(int(ti));
    } else {
      CT_CHECK(have == 1, Shape,
               "The expanded size of the tensor (" << want << ") must match the existing size (" << have
                                                   << ") at non-singleton dimension " << i << ".  Target sizes: "
                                                   << list_str(target) << ".  Tensor sizes: " << list_str(t.sizes()));
      sizes[size_t(i)] = want;
      strides[size_t(i)] = 0;
    }
  }
  checked_numel(sizes, "expand");
  return make_view(t, sizes, strides, t.offset());
}

Ref<Tensor> squeeze(const Tensor& t, int64_t dim) {
  const int d = wrap_dim(dim, t.ndim());
  DimBuf sizes(t.sizes()), strides(t.strides());
  if (t.ndim() > 0 && sizes[size_t(d)] == 1) {
    sizes.erase(size_t(d));
    strides.erase(size_t(d));
  }
  return rearranged_view(t, sizes, strides);
}

Ref<Tensor> squeeze_dims(const Tensor& t, std::span<const int> dims) {
  const int n = t.ndim();
  std::vector<bool> listed(size_t(std::max(n, 1)), false);
  for (const int dim : dims) {
    const int d = wrap_dim(dim, n);
    CT_CHECK(!listed[size_t(d)], InvalidArgument, "dim " << d << " appears multiple times in the list of dims");
    listed[size_t(d)] = true;
  }
  DimBuf sizes, strides;
  for (int i = 0; i < n; ++i) {
    if (listed[size_t(i)] && t.size(i) == 1) continue;
    sizes.push_back(t.size(i));
    strides.push_back(t.stride(i));
  }
  return rearranged_view(t, sizes, strides);
}

Ref<Tensor> squeeze_all(const Tensor& t) {
  DimBuf sizes, strides;
  for (int i = 0; i < t.ndim(); ++i) {
    if (t.size(i) != 1) {
      sizes.push_back(t.size(i));
      strides.push_back(t.stride(i));
    }
  }
  return rearranged_view(t, sizes, strides);
}

Ref<Tensor> unsqueeze(const Tensor& t, int64_t dim) {
  const int d = wrap_dim(dim, t.ndim() + 1);
  // PyTorch: the new dim's stride is size*stride of the dim it precedes (1 at the end).
  const int64_t stride = d >= t.ndim() ? 1 : geometry("unsqueeze", t.size(d), t.stride(d));
  // t's dims with the new one at d, in one pass (DimBuf::insert is a memmove call per list).
  DimBuf sizes, strides;
  for (int i = 0; i < t.ndim(); ++i) {
    if (i == d) {
      sizes.push_back(1);
      strides.push_back(stride);
    }
    sizes.push_back(t.size(i));
    strides.push_back(t.stride(i));
  }
  if (d == t.ndim()) {
    sizes.push_back(1);
    strides.push_back(stride);
  }
  return view_with_new_dim(t, sizes, strides, t.offset(), t.numel(), d);
}

Ref<Tensor> diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  const int n = t.ndim();
  const int d1 = wrap_dim(dim1, n), d2 = wrap_dim(dim2, n);  // a 1-D t fails here, as in torch
  CT_CHECK(d1 != d2, InvalidArgument, "diagonal dimensions cannot be identical " << dim1 << ", " << dim2);
  const int64_t s1 = t.size(d1), s2 = t.size(d2);
  int64_t diag = 0, start = t.offset();
  // Sizes are at most INT64_MAX, so clamp the offset first to keep the arithmetic in range.
  if (offset >= 0) {
    diag = offset >= s2 ? 0 : std::min(s1, s2 - offset);
    if (diag > 0) start = geometry("diagonal", offset, t.stride(d2), start);
  } else {
    diag = offset <= -s1 ? 0 : std::min(s1 + offset, s2);
    if (diag > 0) start = geometry("diagonal", -offset, t.stride(d1), start);  // offset > -s1: no overflow
  }
  // t's dims but d1 and d2, then the diagonal's; numel as select counts it (the product
  // divides t.numel() unless some size is 0).
  DimBuf sizes, strides;
  int64_t numel = diag;
  for (int i = 0; i < n; ++i) {
    if (i == d1 || i == d2) continue;
    sizes.push_back(t.size(i));
    strides.push_back(t.stride(i));
    numel *= t.numel() == 0 ? 0 : t.size(i);
  }
  sizes.push_back(diag);
  strides.push_back(geometry("diagonal", 1, t.stride(d1), t.stride(d2)));
  return view_with_new_dim(t, sizes, strides, start, numel, n - 2);
}

Ref<Tensor> unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step) {
  const int n = t.ndim();
  const int d = wrap_dim(dim, n);
  const int64_t dim_size = n == 0 ? 1 : t.size(d);
  const int64_t dim_stride = n == 0 ? 1 : t.stride(d);
  CT_CHECK(size >= 0, InvalidArgument, "size is " << size << " but must be >= 0");
  CT_CHECK(size <= dim_size, Shape,
           "maximum size for tensor at dimension " << d << " is " << dim_size << " but size is " << size);
  CT_CHECK(step > 0, InvalidArgument, "step is " << step << " but must be > 0");
  DimBuf sizes(t.sizes()), strides(t.strides());
  if (n > 0) {
    sizes[size_t(d)] = geometry("unfold", (dim_size - size) / step, 1, 1);  // [0, INT64_MAX]: size 0, step 1
    strides[size_t(d)] = geometry("unfold", step, dim_stride);
  }
  sizes.push_back(size);
  strides.push_back(dim_stride);
  return make_view(t, sizes, strides, t.offset());
}

Ref<Tensor> as_strided(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset) {
  CT_CHECK(sizes.size() == strides.size(), Shape,
           "mismatch in length of strides and shape: " << sizes.size() << " sizes, " << strides.size() << " strides");
  check_in_bounds(sizes, strides, storage_offset, t.itemsize(), t.storage()->nbytes(), "as_strided");
  return make_view(t, sizes, strides, storage_offset);
}

// ---- multi-output views (torch's aten/src/ATen/native/TensorShape.cpp) --------------------

int64_t unbind_count(const Tensor& t, int64_t dim) {
  CT_CHECK(t.ndim() > 0, Index, "Dimension specified as " << dim << " but tensor has no dimensions");
  return t.size(wrap_dim(dim, t.ndim()));
}

std::vector<Ref<Tensor>> unbind(const Tensor& t, int64_t dim) {
  const int64_t n = unbind_count(t, dim);
  const int d = wrap_dim(dim, t.ndim());
  std::vector<Ref<Tensor>> out;
  out.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(select(t, d, i));
  return out;
}

int64_t split_count(const Tensor& t, int64_t split_size, int64_t dim) {
  CT_CHECK(t.ndim() > 0, InvalidArgument, "split expects at least a 1-dimensional tensor");
  CT_CHECK(split_size >= 0, InvalidArgument, "split expects split_size be non-negative, but got split_size=" << split_size);
  const int64_t size = t.size(wrap_dim(dim, t.ndim()));
  CT_CHECK(split_size > 0 || size == 0, InvalidArgument,
           "split_size can only be 0 if dimension size is 0, but got dimension size of " << size);
  // As torch: at least one piece, so a split_size past the end (or 0 on an empty dim) gives
  // the whole dim.  Written as a division of size, never size + split_size (no overflow).
  return split_size == 0 ? 1 : std::max<int64_t>(size / split_size + (size % split_size != 0), 1);
}

std::vector<Ref<Tensor>> split(const Tensor& t, int64_t split_size, int64_t dim) {
  const int64_t pieces = split_count(t, split_size, dim);
  const int d = wrap_dim(dim, t.ndim());
  const int64_t size = t.size(d);
  std::vector<Ref<Tensor>> out;
  out.reserve(size_t(pieces));
  for (int64_t i = 0; i < pieces; ++i) {
    const int64_t start = i * split_size;  // < size, or 0
    out.push_back(narrow(t, d, start, std::min(split_size, size - start)));
  }
  return out;
}

int64_t split_with_sizes_count(const Tensor& t, IntList split_sizes, int64_t dim) {
  CT_CHECK(t.ndim() > 0, InvalidArgument, "split expects at least a 1-dimensional tensor");
  const int64_t size = t.size(wrap_dim(dim, t.ndim()));
  int64_t total = 0;
  bool overflow = false;
  for (int64_t s : split_sizes) {
    CT_CHECK(s >= 0, InvalidArgument,
             "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes="
                 << list_str(split_sizes));
    overflow |= __builtin_add_overflow(total, s, &total);
  }
  CT_CHECK(!overflow && total == size, InvalidArgument,
           "split_with_sizes expects split_sizes to sum exactly to " << size << " (input tensor's size at dimension "
                                                                     << dim << "), but got split_sizes="
                                                                     << list_str(split_sizes));
  return int64_t(split_sizes.size());
}

std::vector<Ref<Tensor>> split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim) {
  split_with_sizes_count(t, split_sizes, dim);
  const int d = wrap_dim(dim, t.ndim());
  std::vector<Ref<Tensor>> out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(narrow(t, d, start, s));
    start += s;
  }
  return out;
}

bool chunk_is_split_with_sizes(const Tensor& t, int64_t chunks, int64_t dim, int64_t& split_size) {
  CT_CHECK(t.ndim() > 0, InvalidArgument, "chunk expects at least a 1-dimensional tensor");
  CT_CHECK(chunks > 0, InvalidArgument, "chunk expects `chunks` to be greater than 0, got: " << chunks);
  const int64_t size = t.size(wrap_dim(dim, t.ndim()));
  split_size = size / chunks + (size % chunks != 0);  // ceil, without overflow
  // torch: split would give one piece for an empty dim, so it asks split_with_sizes for
  // `chunks` empty pieces instead.
  return size == 0;
}

int64_t chunk_count(const Tensor& t, int64_t chunks, int64_t dim) {
  int64_t split_size = 0;
  if (chunk_is_split_with_sizes(t, chunks, dim, split_size)) return chunks;
  return split_count(t, split_size, dim);
}

std::vector<Ref<Tensor>> chunk(const Tensor& t, int64_t chunks, int64_t dim) {
  int64_t split_size = 0;
  if (!chunk_is_split_with_sizes(t, chunks, dim, split_size)) return split(t, split_size, dim);
  const std::vector<int64_t> zeros(size_t(chunks), 0);
  return split_with_sizes(t, zeros, dim);
}

Ref<Tensor> alias_view(const Tensor& t) { return rearranged_view(t, t.sizes(), t.strides()); }

Ref<Tensor> alias(const Tensor& t) { return Tensor::make_alias(t); }

Ref<Tensor> data_of(const Tensor& t) {
  Ref<Tensor> d = Tensor::make_data_of(t);
  d->set_math_bits(t.math_bits());
  return d;
}

Ref<Tensor> reshape(const Tensor& t, IntList shape) {
  if (shape.size() <= size_t(kMaxDims)) {  // the common case, without allocations
    DimBuf sizes, strides;
    infer_size_into(shape, t.numel(), "reshape", sizes);
    if (has_contiguous_strides(t)) return contiguous_view(t, sizes);
    if (view_strides_into(t.sizes(), t.strides(), sizes, strides)) return make_view(t, sizes, strides, t.offset());
  }
  const Shape sizes = infer_size(shape, t.numel(), "reshape");
  if (auto strides = view_strides(t.sizes(), t.strides(), sizes)) {
    return make_view(t, sizes, *strides, t.offset());
  }
  Ref<Tensor> copy = copy_to_new(t, t.dtype());  // contiguous, so the view below always exists
  return Tensor::make(copy->storage(), copy->dtype(), sizes, contiguous_strides(sizes), 0, nullptr);
}

bool reshape_is_view(const Tensor& t, IntList shape) {
  const Shape sizes = infer_size(shape, t.numel(), "reshape");
  return view_strides(t.sizes(), t.strides(), sizes).has_value();
}

Ref<Tensor> flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
  const int n = t.ndim();
  const int s = wrap_dim(start_dim, n), e = wrap_dim(end_dim, n);
  CT_CHECK(s <= e, InvalidArgument, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (n == 0) return reshape(t, Shape{1});
  if (s == e) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  Shape shape;
  for (int i = 0; i < s; ++i) shape.push_back(t.size(i));
  int64_t merged = 1;
  for (int i = s; i <= e; ++i) merged = geometry("flatten", merged, t.size(i));  // [0, 2^62, 4]
  shape.push_back(merged);
  for (int i = e + 1; i < n; ++i) shape.push_back(t.size(i));
  return reshape(t, shape);
}

}  // namespace ct
