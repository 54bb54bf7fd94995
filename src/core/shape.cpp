#include "shape.h"

#include <algorithm>

namespace ct {

int64_t wrap_index(int64_t i, int64_t n) {
  const int64_t lo = -n, hi = n - 1;
  CT_CHECK(i >= lo && i <= hi, Index,
           "Dimension out of range (expected to be in range of [" << lo << ", " << hi << "], but got " << i << ")");
  return i < 0 ? i + n : i;
}

int wrap_dim_slow(int64_t dim, int ndim, bool scalar_ok) {
  CT_CHECK(ndim > 0 || scalar_ok, Index, "dimension specified as " << dim << " but tensor has no dimensions");
  return int(wrap_index(dim, std::max(ndim, 1)));
}

int64_t checked_numel(IntList sizes, const char* op) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    CT_CHECK(s >= 0, Shape,
             op << ": Trying to create tensor with negative dimension " << s << ": " << list_str(sizes));
  }
  bool overflow = false;
  for (int64_t s : sizes) {
    if (s == 0) return 0;  // a zero anywhere wins, whatever the other sizes are
    overflow = overflow || __builtin_mul_overflow(n, s, &n);
  }
  CT_CHECK(!overflow, Shape, op << ": the number of elements of shape " << list_str(sizes) << " overflows int64");
  return n;
}

int64_t checked_nbytes(int64_t numel, int64_t itemsize, const char* op) {
  int64_t n;
  CT_CHECK(!__builtin_mul_overflow(numel, itemsize, &n), OutOfMemory,
           op << ": " << numel << " elements of " << itemsize << " bytes overflow the byte count");
  return n;
}

DimBuf contiguous_strides_buf(IntList sizes) {
  DimBuf strides;
  strides.resize(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    // Saturating: callers have already checked numel, but with a zero size the product of
    // the others may still overflow.
    const int64_t m = std::max<int64_t>(sizes[i], 1);
    if (__builtin_mul_overflow(s, m, &s)) s = INT64_MAX;
  }
  return strides;
}

Shape contiguous_strides(IntList sizes) {
  const DimBuf b = contiguous_strides_buf(sizes);  // named: a span of a temporary would dangle
  const IntList s = b;
  return Shape(s.begin(), s.end());
}

std::vector<int> layout_permutation(IntList sizes, std::span<const IntList> operand_strides) {
  std::vector<int> perm(sizes.size());
  layout_permutation_into(sizes, operand_strides, perm.data());
  return perm;
}

void layout_permutation_into(IntList sizes, std::span<const IntList> operand_strides, int* perm) {
  const int n = int(sizes.size());
  for (int i = 0; i < n; ++i) perm[size_t(i)] = n - 1 - i;  // C order: last dim innermost
  auto should_swap = [&](int d0, int d1) {
    for (IntList strides : operand_strides) {
      const int64_t s0 = strides[size_t(d0)], s1 = strides[size_t(d1)];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (sizes[size_t(d0)] > sizes[size_t(d1)]) return 1;
    }
    return 0;
  };
  // Insertion sort that tolerates ambiguous (0) comparisons, as PyTorch's.
  for (int i = 1; i < n; ++i) {
    int d1 = i;
    for (int d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[size_t(d0)], perm[size_t(d1)]);
      if (c > 0) {
        std::swap(perm[size_t(d0)], perm[size_t(d1)]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
}

Shape dense_strides_like(IntList sizes, IntList strides) {
  const IntList ops[1] = {strides};
  const std::vector<int> perm = layout_permutation(sizes, ops);
  Shape out(sizes.size());
  int64_t stride = 1;
  for (int d : perm) {
    out[size_t(d)] = stride;
    if (sizes[size_t(d)] > 1) stride *= sizes[size_t(d)];
  }
  return out;
}

bool is_non_overlapping_and_dense(IntList sizes, IntList strides) {
  if (compute_contiguous(sizes, strides)) return true;  // as torch: includes every empty tensor
  const size_t n = sizes.size();
  if (n == 1) return sizes[0] < 2 || strides[0] == 1;
  // The dim order on the stack (a tensor has at most kMaxDims dims; longer lists from
  // elsewhere go to the heap).  Any order of tied dims gives the same answer.
  size_t local[kMaxDims + 1];
  std::vector<size_t> heap(n > size_t(kMaxDims + 1) ? n : 0);
  size_t* const perm = heap.empty() ? local : heap.data();
  for (size_t i = 0; i < n; ++i) perm[i] = i;
  std::sort(perm, perm + n, [&](size_t a, size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t required = 1;
  for (size_t j = 0; j < n; ++j) {
    const size_t d = perm[j];
    if (sizes[d] < 2) return true;
    if (strides[d] != required) return false;
    required *= sizes[d];
  }
  return true;
}

bool compute_contiguous(IntList sizes, IntList strides) {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
  }
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

// One implementation for the vector and the DimBuf results: Out is Shape or DimBuf, sized by
// the caller to the number of dims.
template <class Out>
void infer_size_impl(IntList shape, int64_t numel, const char* op, Out& out) {
  for (size_t i = 0; i < shape.size(); ++i) out[i] = shape[i];
  int infer = -1;
  int64_t product = 1;
  bool overflow = false, has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      CT_CHECK(infer < 0, Shape, op << ": only one dimension can be inferred");
      infer = int(i);
    } else {
      CT_CHECK(shape[i] >= 0, Shape,
               op << ": invalid shape dimension " << shape[i] << " at index " << i << " of shape "
                  << list_str(shape));
      overflow = overflow || __builtin_mul_overflow(product, shape[i], &product);
      has_zero = has_zero || shape[i] == 0;
    }
  }
  // A zero size makes the product 0 whatever the other sizes multiply to ([INT64_MAX,
  // INT64_MAX, 0] has 0 elements): an overflow among them is not one of the product.
  if (has_zero) {
    product = 0;
    overflow = false;
  }
  const bool ok = !overflow && (numel == product || (infer >= 0 && product > 0 && numel % product == 0));
  CT_CHECK(ok, Shape, "shape '" << list_str(shape) << "' is invalid for input of size " << numel);
  if (infer >= 0) {
    // A -1 next to a zero size is ambiguous (any value fits): PyTorch refuses it.
    CT_CHECK(product != 0, Shape,
             "cannot reshape tensor of 0 elements into shape " << list_str(shape)
                 << " because the unspecified dimension size -1 can be any value and is ambiguous");
    out[size_t(infer)] = numel / product;
  }
}

Shape infer_size(IntList shape, int64_t numel, const char* op) {
  Shape out(shape.size());
  infer_size_impl(shape, numel, op, out);
  return out;
}

void infer_size_into(IntList shape, int64_t numel, const char* op, DimBuf& out) {
  CT_CHECK(shape.size() <= size_t(kMaxDims) + 1, Internal, op << ": " << shape.size() << " dims");
  out.resize(shape.size());
  infer_size_impl(shape, numel, op, out);
}

// Follows PyTorch's computeStride: walk the old dims from the back, grouping those that are
// contiguous with each other ("chunks"); each chunk must be exactly covered by new dims.
// out has new_sizes.size() entries.
template <class Out>
bool view_strides_impl(IntList sizes, IntList strides, IntList new_sizes, Out& out) {
  // An empty tensor's other sizes may multiply past int64 ([INT64_MAX, INT64_MAX, 0]); a
  // non-empty tensor's element count always fits.
  int64_t numel = 1;
  if (std::find(sizes.begin(), sizes.end(), int64_t(0)) != sizes.end()) numel = 0;
  else for (int64_t s : sizes) numel *= s;
  if (sizes.empty()) {  // a scalar: every new dim has stride 1
    for (size_t i = 0; i < new_sizes.size(); ++i) out[i] = 1;
    return true;
  }
  if (numel == 0) {
    if (std::equal(sizes.begin(), sizes.end(), new_sizes.begin(), new_sizes.end())) {
      for (size_t i = 0; i < strides.size(); ++i) out[i] = strides[i];
      return true;
    }
    const Shape c = contiguous_strides(new_sizes);
    for (size_t i = 0; i < c.size(); ++i) out[i] = c[i];
    return true;
  }
  int64_t view_d = int64_t(new_sizes.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[size_t(d)];
    if (d == 0 || (sizes[size_t(d - 1)] != 1 && strides[size_t(d - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[size_t(view_d)] == 1)) {
        out[size_t(view_d)] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[size_t(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (d > 0) {
        chunk_base_stride = strides[size_t(d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

std::optional<Shape> view_strides(IntList sizes, IntList strides, IntList new_sizes) {
  Shape out(new_sizes.size());
  if (!view_strides_impl(sizes, strides, new_sizes, out)) return std::nullopt;
  return out;
}

bool view_strides_into(IntList sizes, IntList strides, IntList new_sizes, DimBuf& out) {
  CT_CHECK(new_sizes.size() <= size_t(kMaxDims) + 1, Internal, "view: " << new_sizes.size() << " dims");
  out.resize(new_sizes.size());
  return view_strides_impl(sizes, strides, new_sizes, out);
}

Shape broadcast_shapes(IntList a, IntList b, const char* op) {
  DimBuf out;
  broadcast_shapes_into(a, b, op, out);
  const IntList r = out;
  return Shape(r.begin(), r.end());
}

void broadcast_shapes_into(IntList a, IntList b, const char* op, DimBuf& out) {
  const size_t n = std::max(a.size(), b.size());
  out.resize(n);
  for (size_t i = n; i-- > 0;) {  // from the last dim, so errors name the one torch names
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    CT_CHECK(da == db || da == 1 || db == 1, Shape,
             op << ": The size of tensor a (" << da << ") must match the size of tensor b (" << db
                << ") at non-singleton dimension " << i);
    out[i] = da == 1 ? db : da;
  }
}

Extent element_extent(IntList sizes, IntList strides, int64_t offset, const char* op) {
  int64_t lo = offset, hi = offset;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t reach;
    overflow = overflow || __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach);
    if (reach < 0) {
      overflow = overflow || __builtin_add_overflow(lo, reach, &lo);
    } else {
      overflow = overflow || __builtin_add_overflow(hi, reach, &hi);
    }
  }
  CT_CHECK(!overflow, Shape,
           op << ": sizes " << list_str(sizes) << " with strides " << list_str(strides)
              << " reach beyond the int64 range of element offsets");
  return {lo, hi};
}

void check_in_bounds(IntList sizes, IntList strides, int64_t offset, int64_t itemsize,
                     int64_t storage_nbytes, const char* op) {
  CT_CHECK(offset >= 0, Index, op << ": Tensor: invalid storage offset " << offset);
  for (int64_t s : strides) {
    CT_CHECK(s >= 0, Index,
             op << ": Negative strides are not supported at the moment, got strides: " << list_str(strides));
  }
  if (checked_numel(sizes, op) == 0) return;
  const Extent e = element_extent(sizes, strides, offset, op);
  int64_t need = 0;
  const bool overflow = __builtin_add_overflow(e.hi, 1, &need) || __builtin_mul_overflow(need, itemsize, &need);
  CT_CHECK(!overflow && need <= storage_nbytes, Index,
           op << ": setStorage: sizes " << list_str(sizes) << ", strides " << list_str(strides)
              << ", storage offset " << offset << ", and itemsize " << itemsize
              << " requiring a storage size of "
              << (overflow ? std::string("more than 2^63") : std::to_string(need))
              << " are out of bounds for storage of size " << storage_nbytes);
}

void check_dims_array(int ndim, const void* array, const char* op, const char* what) {
  CT_CHECK(ndim >= 0 && ndim <= kMaxDims, InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << ndim);
  CT_CHECK(ndim == 0 || array != nullptr, InvalidArgument,
           op << ": " << what << " is NULL but ndim is " << ndim);
}

}  // namespace ct
