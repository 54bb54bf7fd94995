// masked_select / masked_fill / masked_scatter, nonzero, rot90 and the index side of
// repeat_interleave (mask_ops.h).  These ops move few elements per call in typical use, so
// they walk their operands serially in C order through one odometer (walk below); rot90 is
// the flip kernel plus a stride swap, as in torch.
#include "mask_ops.h"

#include <cstdint>
#include <cstring>

#include "copy.h"
#include "dtype.h"
#include "error.h"
#include "ops/promote.h"
#include "overlap.h"
#include "repeat_flip_roll.h"
#include "shape.h"
#include "views.h"

namespace ct {
namespace {

// Calls f(p) for every element of the common shape `sizes` in C order, p[k] pointing at the
// element of ops[k] (each op already expanded to sizes).
template <size_t N, class F>
void walk(IntList sizes, const Tensor* const (&ops)[N], F&& f) {
  const int nd = int(sizes.size());
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  if (n == 0) return;
  char* p[N];
  int64_t step[N][kMaxDims + 1];
  int64_t idx[kMaxDims + 1] = {};
  for (size_t k = 0; k < N; ++k) {
    p[k] = ops[k]->raw_data();
    for (int d = 0; d < nd; ++d) step[k][d] = ops[k]->stride(d) * ops[k]->itemsize();
  }
  for (int64_t i = 0; i < n; ++i) {
    f(p);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < sizes[size_t(d)]) {
        for (size_t k = 0; k < N; ++k) p[k] += step[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) p[k] -= step[k][d] * (sizes[size_t(d)] - 1);
      idx[d] = 0;
    }
  }
}

void check_writable(const Tensor& self, const char* op) {
  CT_CHECK(!self.storage()->read_only(), ReadOnly,
           op << ": the tensor's storage is read-only (it was imported as a read-only DLPack tensor)");
}

// mask as a bool tensor expanded to self's shape, as torch's in-place masked ops broadcast it
// (expand_inplace: torch's "The size of tensor a (self) must match ... b (mask)" and "output
// with shape ... doesn't match the broadcast shape ..." messages).  A mask sharing self's
// storage is copied first, so that writing self never changes a mask element still to be read.
Ref<Tensor> mask_for(const Tensor& self, const Tensor& mask) {
  const Shape b = broadcast_shapes(self.sizes(), mask.sizes(), "masked_fill_");
  CT_CHECK(std::equal(b.begin(), b.end(), self.sizes().begin(), self.sizes().end()), Shape,
           "output with shape " << list_str(self.sizes()) << " doesn't match the broadcast shape " << list_str(b));
  Ref<Tensor> m = expand(mask, self.sizes());
  return m->storage() == self.storage() ? clone(*m) : m;
}

// torch's overflow check of an integer Scalar (c10::overflows<To, int64_t>): an unsigned
// target also takes negatives down to -max (they wrap, as NumPy's do), Half refuses
// |v| > 65504; the other floating types and int64 take any int64.
void check_int_fits(int64_t v, DType d) {
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  switch (d) {
    case DType::UInt8: lo = -255, hi = 255; break;
    case DType::Int8: lo = -128, hi = 127; break;
    case DType::Int16: lo = -32768, hi = 32767; break;
    case DType::Int32: lo = INT32_MIN, hi = INT32_MAX; break;
    case DType::Float16: lo = -65504, hi = 65504; break;
    default: break;
  }
  CT_CHECK(v >= lo && v <= hi, InvalidArgument,
           "value cannot be converted to type " << (d == DType::Int32 ? "int" : d == DType::Float16 ? "c10::Half"
                                                    : d == DType::UInt8 ? "uint8_t" : d == DType::Int8 ? "int8_t"
                                                                                                        : "int16_t")
                                                << " without overflow");
}

// self[mask] = value, value already converted to self's dtype (its bytes at v).
void fill_where(const Tensor& self, const Tensor& mask, const char* v) {
  const size_t item = size_t(self.itemsize());
  const Tensor* ops[2] = {&self, &mask};
  walk(self.sizes(), ops, [&](char** p) {
    if (load<bool>(p[1])) std::memcpy(p[0], v, item);
  });
  self.bump_version();
}

// torch's check of a mask's dtype in masked_fill_ (C++ type names: "unsigned char").
void check_fill_mask(const Tensor& mask) {
  CT_CHECK(mask.dtype() == DType::Bool, DType,
           "masked_fill_ only supports boolean masks, but got mask with dtype " << cpp_type_name(mask.dtype()));
}

// self expanded with mask to their common shape (a = mask, b = self in torch's message),
// copied in C order: the start of the out-of-place masked ops.
Ref<Tensor> broadcast_copy(const Tensor& t, const Tensor& mask, const char* op) {
  const Shape b = broadcast_shapes(mask.sizes(), t.sizes(), op);
  Ref<Tensor> out = Tensor::empty(b, t.dtype(), op);
  copy_elements(*out, *expand(t, b));
  return out;
}

}  // namespace

Ref<Tensor> masked_select(const Tensor& t, const Tensor& mask) {
  CT_CHECK(mask.dtype() == DType::Bool, DType, "masked_select: expected BoolTensor for mask");
  const Shape b = broadcast_shapes(mask.sizes(), t.sizes(), "masked_select");
  Ref<Tensor> m = expand(mask, b), x = expand(t, b);
  int64_t count = 0;
  {
    const Tensor* ops[1] = {m.get()};
    walk(b, ops, [&](char** p) { count += load<bool>(p[0]) ? 1 : 0; });
  }
  const int64_t size[1] = {count};
  Ref<Tensor> out = Tensor::empty(IntList(size, 1), t.dtype(), "masked_select");
  char* dst = out->raw_data();
  const size_t item = size_t(t.itemsize());
  const Tensor* ops[2] = {m.get(), x.get()};
  if (t.dtype() == DType::Bool) {  // bool bytes are read as true/false and written 0/1, as torch
    walk(b, ops, [&](char** p) {
      if (load<bool>(p[0])) *dst++ = char(load<bool>(p[1]));
    });
  } else {
    walk(b, ops, [&](char** p) {
      if (load<bool>(p[0])) std::memcpy(dst, p[1], item), dst += item;
    });
  }
  return out;
}

void masked_fill_(const Tensor& self, const Tensor& mask, double value) {
  check_fill_mask(mask);
  Ref<Tensor> m = mask_for(self, mask);
  check_scalar_fits(value, self.dtype());
  check_writable(self, "masked_fill_");
  alignas(16) char v[16];  // one element of any dtype (complex128: 16 bytes)
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    const scalar_t x = convert<scalar_t>(value);
    std::memcpy(v, &x, sizeof x);
  });
  fill_where(self, *m, v);
}

void masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  CT_CHECK(value.ndim() == 0, InvalidArgument,
           "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " << value.ndim()
                                                                                           << " dimension(s).");
  check_fill_mask(mask);
  Ref<Tensor> m = mask_for(self, mask);
  // torch fills with value.item(): the overflow check of a Python number of that kind (an
  // integer value: int_fits; a floating one: check_scalar_fits); the element itself converts
  // directly (an int64 value keeps all its digits).
  CT_CHECK(!is_complex(value.dtype()) || is_complex(self.dtype()), DType,
           "value cannot be converted to type " << cpp_type_name(self.dtype()) << " without overflow");
  if (is_complex(value.dtype())) {
    // a complex value into a complex tensor: nothing to check beyond the dtype
  } else if (is_floating(value.dtype())) {
    check_scalar_fits(CT_DISPATCH_WITH_COMPLEX(value.dtype(), [&] { return convert<double>(load<scalar_t>(value.raw_data())); }),
                      self.dtype());
  } else {
    check_int_fits(CT_DISPATCH_WITH_COMPLEX(value.dtype(), [&] { return convert<int64_t>(load<scalar_t>(value.raw_data())); }),
                   self.dtype());
  }
  check_writable(self, "masked_fill_");
  Ref<Tensor> v = to_dtype(value, self.dtype());
  alignas(16) char bytes[16];  // one element of any dtype
  std::memcpy(bytes, v->raw_data(), size_t(self.itemsize()));
  fill_where(self, *m, bytes);
}

Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, double value) {
  Ref<Tensor> out = broadcast_copy(t, mask, "masked_fill");
  masked_fill_(*out, mask, value);
  return out;
}

Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, const Tensor& value) {
  Ref<Tensor> out = broadcast_copy(t, mask, "masked_fill");
  masked_fill_(*out, mask, value);
  return out;
}

void masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  CT_CHECK(self.dtype() == source.dtype(), DType,
           "masked_scatter: expected self and source to have same dtypes but got"
               << torch_scalar_type_name(self.dtype()) << " and " << torch_scalar_type_name(source.dtype()));
  CT_CHECK(mask.dtype() == DType::Bool, DType,
           "masked_scatter_ only supports boolean masks, but got mask with dtype "
               << torch_scalar_type_name(mask.dtype()));
  // torch expands the mask to self (expand's messages, with torch's type name in the first).
  CT_CHECK(mask.ndim() <= self.ndim(), Shape,
           "expand(CPUBoolType{" << list_str(mask.sizes()) << "}, size=" << list_str(self.sizes())
                                 << "): the number of sizes provided (" << self.ndim()
                                 << ") must be greater or equal to the number of dimensions in the tensor ("
                                 << mask.ndim() << ")");
  Ref<Tensor> m = expand(mask, self.sizes());
  if (m->storage() == self.storage()) m = clone(*m);
  int64_t count = 0;
  {
    const Tensor* ops[1] = {m.get()};
    walk(self.sizes(), ops, [&](char** p) { count += load<bool>(p[0]) ? 1 : 0; });
  }
  CT_CHECK(source.numel() >= count, InvalidArgument, "Number of elements of source < number of ones in mask");
  CT_CHECK(!has_internal_overlap(self), Overlap,
           kInternalOverlapMessage);
  check_writable(self, "masked_scatter_");
  // source read in C order from a private contiguous copy when it shares self's storage.
  Ref<Tensor> src = source.storage() == self.storage() ? clone(source) : contiguous(source);
  Ref<Tensor> flat = contiguous(*src);
  const char* next = flat->raw_data();
  const size_t item = size_t(self.itemsize());
  const Tensor* ops[2] = {&self, m.get()};
  walk(self.sizes(), ops, [&](char** p) {
    if (load<bool>(p[1])) std::memcpy(p[0], next, item), next += item;
  });
  self.bump_version();
}

Ref<Tensor> masked_scatter(const Tensor& t, const Tensor& mask, const Tensor& source) {
  Ref<Tensor> out = broadcast_copy(t, mask, "masked_scatter");
  masked_scatter_(*out, mask, source);
  return out;
}

Ref<Tensor> nonzero(const Tensor& t) {
  const int nd = t.ndim();
  int64_t count = 0;
  const Tensor* ops[1] = {&t};
  CT_DISPATCH_WITH_COMPLEX(t.dtype(), [&] {
    walk(t.sizes(), ops, [&](char** p) { count += convert<bool>(load<scalar_t>(p[0])) ? 1 : 0; });
  });
  // torch fills a (ndim, count) C-order buffer and returns its transpose.
  const int64_t sizes[2] = {count, nd}, strides[2] = {1, count};
  Ref<Tensor> out = Tensor::empty_strided(IntList(sizes, 2), IntList(strides, 2), DType::Int64, "nonzero");
  if (count == 0 || nd == 0) return out;
  int64_t* dst = reinterpret_cast<int64_t*>(out->raw_data());
  int64_t idx[kMaxDims + 1] = {};
  int64_t row = 0;
  CT_DISPATCH_WITH_COMPLEX(t.dtype(), [&] {
    walk(t.sizes(), ops, [&](char** p) {
      if (convert<bool>(load<scalar_t>(p[0]))) {
        for (int d = 0; d < nd; ++d) dst[d * count + row] = idx[d];
        ++row;
      }
      for (int d = nd - 1; d >= 0; --d) {  // the same odometer as walk's, for the indices
        if (++idx[d] < t.size(d)) break;
        idx[d] = 0;
      }
    });
  });
  return out;
}

void rot90_dims(const Tensor& t, IntList dims, int& d0, int& d1) {
  CT_CHECK(dims.size() == 2, InvalidArgument, "expected total rotation dims == 2, but got dims = " << dims.size());
  CT_CHECK(t.ndim() >= 2, InvalidArgument, "expected total dims >= 2, but got total dims = " << t.ndim());
  d0 = wrap_dim(dims[0], t.ndim());
  d1 = wrap_dim(dims[1], t.ndim());
  CT_CHECK(d0 != d1, InvalidArgument,
           "expected rotation dims to be different, but got dim0 = " << dims[0] << " and dim1 = " << dims[1]);
}

Ref<Tensor> rot90(const Tensor& t, int64_t k, IntList dims) {
  int d0 = 0, d1 = 0;
  rot90_dims(t, dims, d0, d1);
  const int64_t turns = ((k % 4) + 4) % 4;
  if (turns == 0) {  // torch: clone(contiguous_format), a copy even of a contiguous t
    Ref<Tensor> out = Tensor::empty(t.sizes(), t.dtype(), "rot90");
    copy_elements(*out, t);
    return out;
  }
  if (turns == 2) {
    const int64_t both[2] = {d0, d1};
    return flip(t, IntList(both, 2));
  }
  // torch: flip(dims[1]).transpose_(dims[0], dims[1]) for one turn, flip(dims[0]) for three.
  const int64_t one[1] = {turns == 1 ? d1 : d0};
  Ref<Tensor> f = flip(t, IntList(one, 1));
  Shape sizes(f->sizes().begin(), f->sizes().end()), strides(f->strides().begin(), f->strides().end());
  std::swap(sizes[size_t(d0)], sizes[size_t(d1)]);
  std::swap(strides[size_t(d0)], strides[size_t(d1)]);
  return Tensor::make(f->storage(), f->dtype(), sizes, strides, f->offset(), nullptr);
}

Ref<Tensor> repeat_interleave_counts(const Tensor& repeats, std::optional<int64_t> output_size) {
  CT_CHECK(repeats.dtype() == DType::Int64 || repeats.dtype() == DType::Int32, DType,
           "\"repeat_interleave_cpu\" not implemented for '" << torch_scalar_type_name(repeats.dtype()) << "'");
  CT_CHECK(repeats.ndim() == 1, InvalidArgument, "repeat_interleave only accept 1D vector as repeat");
  const int64_t n = repeats.size(0);
  if (n == 0) return Tensor::empty(repeats.sizes(), repeats.dtype(), "repeat_interleave");
  std::vector<int64_t> counts;
  counts.resize(size_t(n));
  int64_t total = 0;
  bool overflow = false;
  for (int64_t i = 0; i < n; ++i) {
    const char* p = repeats.raw_data() + i * repeats.stride(0) * repeats.itemsize();
    counts[size_t(i)] = repeats.dtype() == DType::Int64 ? load<int64_t>(p) : int64_t(load<int32_t>(p));
    CT_CHECK(counts[size_t(i)] >= 0, InvalidArgument, "repeats can not be negative");
    overflow = __builtin_add_overflow(total, counts[size_t(i)], &total) || overflow;
  }
  CT_CHECK(!overflow, Shape, "repeat_interleave: the sum of repeats overflows int64");
  const int64_t want = output_size.value_or(total);
  const int64_t size[1] = {want};
  // torch allocates output_size first (a negative one fails there), then compares; compared
  // first here so that a huge wrong output_size is not allocated.
  if (want < 0) Tensor::empty(IntList(size, 1), repeats.dtype(), "repeat_interleave");
  CT_CHECK(want == total, InvalidArgument, "allocated size does not match required size");
  Ref<Tensor> out = Tensor::empty(IntList(size, 1), repeats.dtype(), "repeat_interleave");
  char* dst = out->raw_data();
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t r = 0; r < counts[size_t(i)]; ++r) {
      if (repeats.dtype() == DType::Int64) {
        const int64_t v = i;
        std::memcpy(dst, &v, sizeof v), dst += sizeof v;
      } else {
        const int32_t v = int32_t(i);
        std::memcpy(dst, &v, sizeof v), dst += sizeof v;
      }
    }
  }
  return out;
}

int repeat_interleave_int_dim(const Tensor& t, int64_t repeats, std::optional<int64_t> dim) {
  const int d = wrap_dim(dim.value_or(0), t.ndim());
  CT_CHECK(repeats >= 0, InvalidArgument, "Repeats must be non-negative");
  return d;
}

Ref<Tensor> repeat_interleave_index(const Tensor& repeats, const Tensor& input, int64_t dim,
                                    std::optional<int64_t> output_size) {
  Ref<Tensor> r = Ref<Tensor>::retain(const_cast<Tensor*>(&repeats));
  // torch reads input.size(dim) (its message for a 0-dim input, capitalised unlike wrap_dim's)
  CT_CHECK(repeats.ndim() > 1 || input.ndim() > 0, Index,
           "Dimension specified as " << dim << " but tensor has no dimensions");
  if (repeats.ndim() == 0 || (repeats.ndim() == 1 && repeats.size(0) == 1)) {
    const int64_t size[1] = {input.size(wrap_dim(dim, input.ndim(), false))}, one[1] = {1};
    r = expand(*reshape(repeats, IntList(one, 1)), IntList(size, 1));
  } else if (repeats.ndim() == 1) {
    const int64_t have = input.size(wrap_dim(dim, input.ndim(), false));
    CT_CHECK(repeats.size(0) == have, InvalidArgument,
             "repeats must have the same size as input along dim, but got repeats.size(0) = "
                 << repeats.size(0) << " and input.size(" << dim << ") = " << have);
  } else {
    CT_FAIL(InvalidArgument, "repeats must be 0-dim or 1-dim tensor");
  }
  return repeat_interleave_counts(*r, output_size);
}

}  // namespace ct
