#include "memory_format.h"

#include <algorithm>
#include <initializer_list>

#include "copy.h"
#include "factory.h"
#include "shape.h"

namespace ct {
namespace {

// The dims of a channels-last layout, innermost first (c10's walk order).
constexpr int kOrder2d[4] = {1, 3, 2, 0};
constexpr int kOrder3d[5] = {1, 4, 3, 2, 0};

void check_rank(IntList sizes, MemoryFormat f) {
  if (f == MemoryFormat::ChannelsLast) {
    CT_CHECK(sizes.size() == 4, InvalidArgument, "required rank 4 tensor to use channels_last format");
  } else if (f == MemoryFormat::ChannelsLast3d) {
    CT_CHECK(sizes.size() == 5, InvalidArgument, "required rank 5 tensor to use channels_last_3d format");
  }
}

// c10's is_channels_last_strides_{2d_s4,3d_s5}, for one walk order.
bool strides_like_order(IntList sizes, IntList strides, const int* order, int n) {
  if (strides[1] == 0) return false;  // a broadcast channel: default to NCHW
  int64_t min = 0;
  for (int i = 0; i < n; ++i) {
    const size_t d = size_t(order[i]);
    if (sizes[d] == 0) return false;
    if (strides[d] < min) return false;
    // The batch dim at the channel's stride: N111 or N11W-sliced tensors, ambiguous; NCHW wins.
    if (d == 0 && min == strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1 && __builtin_mul_overflow(min, sizes[d], &min)) min = INT64_MAX;
  }
  return true;
}

// Writes value into the numel slots of a fresh dense tensor (any dim order).
Ref<Tensor> filled(Ref<Tensor> t, double value) {
  fill_elements(*t, value);
  return t;
}

}  // namespace

MemoryFormat checked_memory_format(int raw, const char* op) {
  CT_CHECK(raw >= 0 && raw <= 3, InvalidArgument,
           op << ": invalid memory format " << raw
              << " (expected CT_CONTIGUOUS_FORMAT, CT_CHANNELS_LAST, CT_CHANNELS_LAST_3D or CT_PRESERVE_FORMAT)");
  return static_cast<MemoryFormat>(raw);
}

const char* memory_format_name(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous: return "contiguous_format";
    case MemoryFormat::ChannelsLast: return "channels_last";
    case MemoryFormat::ChannelsLast3d: return "channels_last_3d";
    case MemoryFormat::Preserve: return "preserve_format";
  }
  return "?";
}

Shape format_strides(IntList sizes, MemoryFormat f) {
  CT_CHECK(f != MemoryFormat::Preserve, InvalidArgument, "unsupported memory format Preserve");
  check_rank(sizes, f);
  if (f == MemoryFormat::Contiguous) return contiguous_strides(sizes);
  const int* order = f == MemoryFormat::ChannelsLast ? kOrder2d : kOrder3d;
  Shape strides(sizes.size());
  int64_t s = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {  // raw sizes, as c10's get_channels_last_strides
    strides[size_t(order[i])] = s;
    // Only an empty tensor gets past int64 here (its sizes' product is 0); torch refuses it when
    // it first gives the tensor contiguous strides, with this message.  (A saturated stride
    // would not be channels-last.)
    if (i + 1 < sizes.size()) {
      CT_CHECK(!__builtin_mul_overflow(s, sizes[size_t(order[i])], &s), Shape, "Stride calculation overflowed");
    }
  }
  return strides;
}

bool is_contiguous_as(IntList sizes, IntList strides, MemoryFormat f) {
  if (f == MemoryFormat::Contiguous || f == MemoryFormat::Preserve) return compute_contiguous(sizes, strides);
  const size_t n = f == MemoryFormat::ChannelsLast ? 4 : 5;
  if (sizes.size() != n) return false;
  const int* order = n == 4 ? kOrder2d : kOrder3d;
  int64_t expected = 1;
  bool past_int64 = false;  // an empty tensor's other sizes may multiply past int64: no stride matches
  for (size_t i = 0; i < n; ++i) {
    const size_t d = size_t(order[i]);
    if (sizes[d] == 1) continue;
    if (past_int64 || strides[d] != expected) return false;
    past_int64 = __builtin_mul_overflow(expected, sizes[d], &expected);
  }
  return true;
}

bool strides_like_channels_last(IntList sizes, IntList strides) {
  return sizes.size() == 4 && strides_like_order(sizes, strides, kOrder2d, 4);
}

bool strides_like_channels_last_3d(IntList sizes, IntList strides) {
  return sizes.size() == 5 && strides_like_order(sizes, strides, kOrder3d, 5);
}

MemoryFormat suggest_memory_format(const Tensor& t) {
  if (strides_like_channels_last(t.sizes(), t.strides())) return MemoryFormat::ChannelsLast;
  if (strides_like_channels_last_3d(t.sizes(), t.strides())) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

Shape like_strides(const Tensor& t, MemoryFormat f) {
  if (f != MemoryFormat::Preserve) return format_strides(t.sizes(), f);
  if (is_non_overlapping_and_dense(t.sizes(), t.strides())) return Shape(t.strides().begin(), t.strides().end());
  return dense_strides_like(t.sizes(), t.strides());
}

Ref<Tensor> empty_format(IntList sizes, DType dtype, MemoryFormat f, const char* op) {
  checked_numel(sizes, op);
  return Tensor::empty_strided(sizes, format_strides(sizes, f), dtype, op);
}

Ref<Tensor> empty_like(const Tensor& t, DType dtype, MemoryFormat f, const char* op) {
  return Tensor::empty_strided(t.sizes(), like_strides(t, f), dtype, op);
}

Ref<Tensor> full_like(const Tensor& t, double value, DType dtype, MemoryFormat f, const char* op) {
  check_scalar_fits(value, dtype);
  return filled(empty_like(t, dtype, f, op), value);
}

Ref<Tensor> empty_strided_checked(IntList sizes, IntList strides, DType dtype, const char* op) {
  checked_numel(sizes, op);
  CT_CHECK(sizes.size() == strides.size(), InvalidArgument,
           "dimensionality of sizes (" << sizes.size() << ") must match dimensionality of strides ("
                                       << strides.size() << ")");
  // c10's computeStorageNbytes, in unsigned arithmetic: a negative stride wraps and overflows.
  bool empty = false, overflow = false;
  uint64_t bytes = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) empty = true;
    uint64_t span = 0;
    overflow = overflow || __builtin_mul_overflow(uint64_t(strides[i]), uint64_t(sizes[i] - 1), &span);
    overflow = overflow || __builtin_add_overflow(bytes, span, &bytes);
  }
  overflow = overflow || __builtin_mul_overflow(bytes, uint64_t(ct::itemsize(dtype)), &bytes) ||
             bytes > uint64_t(INT64_MAX);
  CT_CHECK(empty || !overflow, InvalidArgument,
           "Storage size calculation overflowed with sizes=" << list_str(sizes) << " and strides=" << list_str(strides));
  Shape st(strides.begin(), strides.end());
  for (size_t i = st.size(); i-- > 0;) {
    if (st[i] >= 0) continue;
    if (i + 1 == st.size()) st[i] = 1;
    else if (__builtin_mul_overflow(std::max<int64_t>(sizes[i + 1], 1), st[i + 1], &st[i])) st[i] = INT64_MAX;
  }
  return Tensor::empty_strided(sizes, st, dtype, op);
}

Ref<Tensor> clone_format(const Tensor& t, MemoryFormat f) {
  if (f == MemoryFormat::Preserve) return clone(t);
  Ref<Tensor> out = empty_like(t, t.dtype(), f, "clone");
  copy_elements(*out, t);
  return out;
}

Ref<Tensor> contiguous_format(const Tensor& t, MemoryFormat f) {
  if (is_contiguous_as(t.sizes(), t.strides(), f)) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  CT_CHECK(f != MemoryFormat::Preserve, InvalidArgument,
           "preserve memory format is unsupported by the contiguous operator");
  return clone_format(t, f);
}

bool to_format_aliases(const Tensor& t, DType dtype, MemoryFormat f, bool copy) {
  return dtype == t.dtype() && !copy && (f == MemoryFormat::Preserve || suggest_memory_format(t) == f);
}

Ref<Tensor> to_format(const Tensor& t, DType dtype, MemoryFormat f, bool copy) {
  if (to_format_aliases(t, dtype, f, copy)) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  if (f != MemoryFormat::Preserve) check_rank(t.sizes(), f);
  Ref<Tensor> out = empty_like(t, dtype, f, "to");
  copy_elements(*out, t);
  return out;
}

}  // namespace ct
