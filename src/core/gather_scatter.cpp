// gather, scatter, index_add/copy/fill, take, put and index_put (gather_scatter.h).
//
// Every op is one walk over the positions of its index (or of the indexed region) that reads
// an index and moves one element per position; walk() computes the strided offsets of up to
// three operands, so no operand is ever made contiguous first.  Only gather runs on several
// threads: its writes never collide.  The writing ops run serially, in C order of the index,
// which makes duplicates deterministic (the last write wins, accumulations add in order).
// Indexes are checked before the first write, so a failing in-place op leaves self unchanged.
#include "gather_scatter.h"

#include <array>
#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "copy.h"
#include "error.h"
#include "overlap.h"
#include "ops/promote.h"
#include "parallel.h"
#include "shape.h"
#include "views.h"
#include "wrapping.h"

namespace ct {
namespace {

using Dims = std::vector<int64_t>;

// Sizes and strides with a 0-dim tensor read as 1-D of one element (torch's
// ensure_nonempty_dim / ensure_nonempty_size for the dim ops).
Dims sizes1(const Tensor& t) { return t.ndim() == 0 ? Dims{1} : Dims(t.sizes().begin(), t.sizes().end()); }
Dims strides1(const Tensor& t) { return t.ndim() == 0 ? Dims{0} : Dims(t.strides().begin(), t.strides().end()); }

// Calls f(offsets) for every position of `sizes` in C order, offsets[k] = sum of the position's
// coordinates times strides[k].  The last dim is the inner loop; rows may go to threads.
template <size_t M, class F>
void walk(const Dims& sizes, const std::array<Dims, M>& strides, bool parallel, F&& f) {
  const int nd = int(sizes.size());
  if (nd == 0) {
    std::array<int64_t, M> off{};
    f(off);
    return;
  }
  const int64_t inner = sizes[size_t(nd - 1)];
  int64_t rows = 1;
  for (int i = 0; i < nd - 1; ++i) rows *= sizes[size_t(i)];
  if (rows == 0 || inner == 0) return;
  auto run = [&](int64_t r0, int64_t r1) {
    Dims coord(size_t(nd), 0);
    for (int64_t i = nd - 2, rem = r0; i >= 0; --i) {
      coord[size_t(i)] = rem % sizes[size_t(i)];
      rem /= sizes[size_t(i)];
    }
    std::array<int64_t, M> step;
    for (size_t k = 0; k < M; ++k) step[k] = strides[k][size_t(nd - 1)];
    for (int64_t r = r0; r < r1; ++r) {
      std::array<int64_t, M> off{};
      for (int i = 0; i < nd - 1; ++i)
        for (size_t k = 0; k < M; ++k) off[k] += coord[size_t(i)] * strides[k][size_t(i)];
      for (int64_t j = 0; j < inner; ++j) {
        f(off);
        for (size_t k = 0; k < M; ++k) off[k] += step[k];
      }
      for (int i = nd - 2; i >= 0; --i) {
        if (++coord[size_t(i)] < sizes[size_t(i)]) break;
        coord[size_t(i)] = 0;
      }
    }
  };
  if (parallel) {
    parallel_for(rows, std::max<int64_t>(1, 32768 / inner), run);
  } else {
    run(0, rows);
  }
}

// An int64 index: index itself, or an int32 index converted.
Ref<Tensor> as_int64(const Tensor& index) {
  return index.dtype() == DType::Int64 ? Ref<Tensor>::retain(const_cast<Tensor*>(&index))
                                       : copy_to_new(index, DType::Int64);
}

// The i-th element (C order) of an int64 tensor; for the rare slow paths (messages).
std::vector<int64_t> index_values(const Tensor& idx) {
  const Ref<Tensor> c = contiguous(*as_int64(idx));
  const int64_t* p = reinterpret_cast<const int64_t*>(c->raw_data());
  return std::vector<int64_t>(p, p + c->numel());
}

// First index value outside [lo, hi), or false.
bool first_out_of_range(const Tensor& idx, int64_t lo, int64_t hi, int64_t* bad) {
  for (int64_t v : index_values(idx)) {
    if (v < lo || v >= hi) {
      *bad = v;
      return true;
    }
  }
  return false;
}

// The written-to tensor: no element sharing memory with another, not read-only.
void check_writable(const Tensor& self, const char* op) {
  CT_CHECK(!has_internal_overlap(self), Overlap,
           kInternalOverlapMessage);
  CT_CHECK(!self.storage()->read_only(), ReadOnly,
           op << ": cannot write into a tensor whose storage is read-only (it wraps memory that was "
                 "shared as read-only)");
}

// torch's assert_no_overlap for an input read while self is written.
void check_no_overlap(const Tensor& self, const Tensor& input) {
  if (self.numel() == 0 || input.numel() == 0 || !may_overlap(self, input)) return;
  CT_CHECK(overlaps(self, input) == 0, Overlap,
           kPartialOverlapMessage);
}

// Integers wrap on overflow (wrapping.h), as torch's kernels do: index_put_ with accumulate of
// two large int64 values was signed overflow (the fuzzer, under UBSan).
template <class T>
inline T add_values(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return T(float(a) + float(b));
  else if constexpr (std::is_integral_v<T>) return wrap_add(a, b);
  else return static_cast<T>(a + b);
}
template <class T>
inline T mul_values(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return T(float(a) * float(b));
  else if constexpr (std::is_integral_v<T>) return wrap_mul(a, b);
  else return static_cast<T>(a * b);
}

template <class T>
T* at(const Tensor& t) {
  return reinterpret_cast<T*>(t.raw_data());
}

// A copy of self on a new storage: C order (torch 2.13's scatter, scatter_add, index_add and
// index_copy results) or laid out as clone() (index_fill, put and index_put).
Ref<Tensor> fresh_copy(const Tensor& self, bool c_order) {
  return c_order ? copy_to_new(self, self.dtype()) : clone(self);
}

// ---- gather / scatter ------------------------------------------------------------------

void check_index_dtype_32_64(const Tensor& index, const char* op) {
  CT_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32, DType,
           op << "(): Expected dtype int32/int64 for index");
}

// torch's scatter_gather shape checks; src == nullptr for gather and the value scatter.
void check_scatter_shapes(const Tensor& self, int d, const Tensor& index, const Tensor* src, bool is_gather) {
  const Dims is = sizes1(index), ss = sizes1(self);
  CT_CHECK(is.size() == ss.size(), Shape,
           "Index tensor must have the same number of dimensions as " << (is_gather ? "input" : "self") << " tensor");
  if (src) {
    CT_CHECK(is.size() == sizes1(*src).size(), Shape,
             "Index tensor must have the same number of dimensions as src tensor");
  }
  if (index.numel() == 0) return;
  const Dims srcs = src ? sizes1(*src) : Dims();
  for (size_t i = 0; i < is.size(); ++i) {
    const bool too_big = (int(i) != d && is[i] > ss[i]) || (src && is[i] > srcs[i]);
    if (!too_big) continue;
    if (is_gather) {
      CT_FAIL(Shape, "Size does not match at dimension " << i << " expected index " << list_str(index.sizes())
                                                          << " to be no larger than self " << list_str(self.sizes())
                                                          << " apart from dimension " << d);
    }
    CT_FAIL(Shape, "Expected index " << list_str(index.sizes()) << " to be no larger than self "
                                     << list_str(self.sizes()) << " apart from dimension " << d
                                     << (src ? " and to be no larger size than src " + list_str(src->sizes()) : ""));
  }
}

void check_scatter_indices(const Tensor& index, int d, int64_t size) {
  int64_t bad;
  CT_CHECK(!first_out_of_range(index, 0, size, &bad), Index,
           "index " << bad << " is out of bounds for dimension " << d << " with size " << size);
}

// The writing walk of scatter: self (dim d's stride taken from the index) and src/value.
void scatter_kernel(const Tensor& self, int d, const Tensor& idx, const Tensor* src, double value,
                    ScatterReduce reduce) {
  Dims self_strides = strides1(self);
  const int64_t sd = self_strides[size_t(d)];
  self_strides[size_t(d)] = 0;
  const std::array<Dims, 3> strides{self_strides, strides1(idx), src ? strides1(*src) : Dims(sizes1(idx).size(), 0)};
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* out = at<scalar_t>(self);
    const int64_t* ip = at<const int64_t>(idx);
    const scalar_t* sp = src ? at<const scalar_t>(*src) : nullptr;
    const scalar_t v = convert<scalar_t>(value);
    walk(sizes1(idx), strides, false, [&](const std::array<int64_t, 3>& o) {
      scalar_t& dst = out[o[0] + ip[o[1]] * sd];
      const scalar_t s = sp ? sp[o[2]] : v;
      switch (reduce) {
        case ScatterReduce::None: dst = s; break;
        case ScatterReduce::Add: dst = add_values(dst, s); break;
        case ScatterReduce::Multiply: dst = mul_values(dst, s); break;
      }
    });
  });
}

void scatter_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
                  ScatterReduce reduce, const char* op, bool check_memory) {
  const int d = wrap_dim(dim, self.ndim());
  check_index_dtype_32_64(index, op);
  if (src) {
    CT_CHECK(src->dtype() == self.dtype(), DType, "scatter(): Expected self.dtype to be equal to src.dtype");
  } else {
    check_scalar_fits(value, self.dtype());
  }
  check_scatter_shapes(self, d, index, src, false);
  if (check_memory) {
    check_writable(self, op);
    check_no_overlap(self, index);
    if (src) check_no_overlap(self, *src);
  }
  if (index.numel() == 0) return;
  check_scatter_indices(index, d, sizes1(self)[size_t(d)]);
  scatter_kernel(self, d, *as_int64(index), src, value, reduce);
}

// ---- index_add / index_copy / index_fill ------------------------------------------------

// Positions of self's slices along d, one per index element, written from the matching slices
// of source (or value).  Walks the source's (or self's) shape with dim d at the index.
template <class Body>
void slice_walk(const Tensor& self, int d, const std::vector<int64_t>& picks, const Tensor* source, Body&& body) {
  Dims sizes = sizes1(self), ss = strides1(self);
  const int64_t sd = ss[size_t(d)];
  ss[size_t(d)] = 0;
  sizes[size_t(d)] = int64_t(picks.size());
  Dims srcs = source ? strides1(*source) : Dims(sizes.size(), 0);
  const int64_t srcd = srcs[size_t(d)];
  srcs[size_t(d)] = 0;
  // Walk the index dim outermost, so the element moves of one slice are one walk.
  Dims slice_sizes = sizes;
  slice_sizes[size_t(d)] = 1;
  for (size_t i = 0; i < picks.size(); ++i) {
    const int64_t self_base = picks[i] * sd, src_base = int64_t(i) * srcd;
    walk(slice_sizes, std::array<Dims, 2>{ss, srcs}, false,
         [&](const std::array<int64_t, 2>& o) { body(self_base + o[0], src_base + o[1]); });
  }
}

// torch's index_add/index_copy source-shape rule: equal sizes apart from dim.
bool same_apart_from(const Tensor& self, const Tensor& source, int d) {
  Dims a(self.sizes().begin(), self.sizes().end()), b(source.sizes().begin(), source.sizes().end());
  if (self.ndim() > 0 && source.ndim() > 0) {
    a.erase(a.begin() + d);
    if (size_t(d) < b.size()) b.erase(b.begin() + d);
    else return false;
  }
  return a == b;
}

void index_add_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha,
                    bool check_memory) {
  const int d = wrap_dim(dim, self.ndim());
  CT_CHECK(index.ndim() <= 1, Index,
           "index_add_(): Index is supposed to be a vector, but got dim: "
               << index.ndim() << " with type: " << torch_scalar_type_name(index.dtype())
               << " and size: " << list_str(index.sizes()));
  CT_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32, DType,
           "index_add_(): Expected dtype int32/int64 for index but got: " << torch_scalar_type_name(index.dtype()));
  CT_CHECK(source.dtype() == self.dtype(), DType,
           "index_add_(): self (" << torch_scalar_type_name(self.dtype()) << ") and source ("
                                  << torch_scalar_type_name(source.dtype()) << ") must have the same scalar type");
  const int64_t slices = source.ndim() > 0 && d < source.ndim() ? source.size(d) : 1;
  CT_CHECK(index.numel() == slices, Shape,
           "index_add_(): Number of indices (" << index.numel() << ") should be equal to source.size(dim): ("
                                               << slices << "), for dim: " << d);
  CT_CHECK(same_apart_from(self, source, d), Shape,
           "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = "
               << list_str(self.sizes()) << " source.shape = " << list_str(source.sizes()));
  check_scalar_fits(alpha, self.dtype());
  if (check_memory) {
    check_writable(self, "index_add_");
    check_no_overlap(self, index);
    check_no_overlap(self, source);
  }
  const int64_t n = sizes1(self)[size_t(d)];
  const std::vector<int64_t> picks = index_values(index);
  for (int64_t v : picks) CT_CHECK(v >= 0 && v < n, Index, "index " << v << " is out of bounds for dimension " << d << " with size " << n);
  if (self.numel() == 0 || source.numel() == 0) return;
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* out = at<scalar_t>(self);
    const scalar_t* src = at<const scalar_t>(source);
    const scalar_t a = convert<scalar_t>(alpha);
    const bool unit = alpha == 1.0;
    slice_walk(self, d, picks, &source, [&](int64_t o, int64_t s) {
      out[o] = add_values(out[o], unit ? src[s] : mul_values(src[s], a));
    });
  });
}

void index_copy_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, bool check_memory) {
  const int d = wrap_dim(dim, self.ndim());
  CT_CHECK(index.ndim() <= 1, Index, "index_copy_(): Index should have dimension 1 or 0 (got " << index.ndim() << ")");
  CT_CHECK(index.dtype() == DType::Int64, DType,
           "index_copy_(): Expected a long tensor for index, but got " << torch_scalar_type_name(index.dtype()));
  CT_CHECK(source.dtype() == self.dtype(), DType,
           "index_copy_(): self and source expected to have the same dtype, but got (self) "
               << torch_scalar_type_name(self.dtype()) << " and (source) " << torch_scalar_type_name(source.dtype()));
  CT_CHECK(source.ndim() == 0 || self.ndim() == 0 || source.ndim() == self.ndim(), Index,
           "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
           "dimensionality ("
               << source.ndim() << "), destination dimensionality (" << self.ndim() << ")");
  {
    Dims a(self.sizes().begin(), self.sizes().end()), b(source.sizes().begin(), source.sizes().end());
    if (!a.empty()) a.erase(a.begin() + d);
    if (!b.empty()) b.erase(b.begin() + d);
    auto joined = [](const Dims& v) {
      std::string s;
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
      return s;
    };
    CT_CHECK(a == b, Shape,
             "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
                 << joined(a) << " at dimension " << d << " and source slice shape: " << joined(b)
                 << " at dimension 0.");
  }
  const int64_t slices = source.ndim() > 0 ? source.size(d) : 1;
  CT_CHECK(index.numel() == slices, Index,
           "index_copy_(): Number of indices (" << index.numel() << ") should be equal to source.size(dim) ("
                                                << slices << ")");
  if (check_memory) {
    check_writable(self, "index_copy_");
    check_no_overlap(self, index);
    check_no_overlap(self, source);
  }
  const int64_t n = sizes1(self)[size_t(d)];
  const std::vector<int64_t> picks = index_values(index);
  for (int64_t v : picks) {
    CT_CHECK(v >= 0 && v < n, Index,
             "index_copy_(): index " << v << " is out of bounds for dimension " << d << " with size " << n);
  }
  if (self.numel() == 0 || source.numel() == 0) return;
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* out = at<scalar_t>(self);
    const scalar_t* src = at<const scalar_t>(source);
    slice_walk(self, d, picks, &source, [&](int64_t o, int64_t s) { out[o] = src[s]; });
  });
}

void index_fill_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number,
                     bool check_memory) {
  const int d = wrap_dim(dim, self.ndim());
  CT_CHECK(index.ndim() <= 1, Shape, "Index has to be a vector/scalar");
  CT_CHECK(index.dtype() == DType::Int64, Index, "index_fill_(): Expected dtype int64 for index.");
  if (value) {
    CT_CHECK(value->ndim() == 0, InvalidArgument,
             "index_fill_ only supports a 0-dimensional value tensor, but got tensor with " << value->ndim()
                                                                                             << " dimension(s).");
  } else {
    check_scalar_fits(number, self.dtype());
  }
  if (check_memory) {
    check_writable(self, "index_fill_");
    check_no_overlap(self, index);
  }
  const int64_t n = sizes1(self)[size_t(d)];
  std::vector<int64_t> picks = index_values(index);
  for (int64_t& v : picks) {
    CT_CHECK(v >= -n && v < n, Index, "index " << v << " is out of bounds for dimension " << d << " with size " << n);
    if (v < 0) v += n;
  }
  if (self.numel() == 0) return;
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t fill;
    if (value) {  // converted as copy_ converts
      const Ref<Tensor> one = copy_to_new(*value, self.dtype());
      fill = at<const scalar_t>(*one)[0];
    } else {
      fill = convert<scalar_t>(number);
    }
    scalar_t* out = at<scalar_t>(self);
    slice_walk(self, d, picks, nullptr, [&](int64_t o, int64_t) { out[o] = fill; });
  });
}

// ---- take / put --------------------------------------------------------------------------

// The storage offsets of self's elements in C order at the given flat indices (negatives
// wrap), or torch's out-of-range error.
std::vector<int64_t> flat_offsets(const Tensor& self, const Tensor& index) {
  const int64_t numel = self.numel();
  std::vector<int64_t> v = index_values(index);
  const Dims sizes = sizes1(self), strides = strides1(self);
  for (int64_t& i : v) {
    CT_CHECK(i >= -numel && i < numel, Index,
             "out of range: tried to access index " << i << " on a tensor of " << numel << " elements.");
    int64_t rem = i < 0 ? i + numel : i, off = 0;
    for (int k = int(sizes.size()) - 1; k >= 0; --k) {
      off += (rem % sizes[size_t(k)]) * strides[size_t(k)];
      rem /= sizes[size_t(k)];
    }
    i = off;
  }
  return v;
}

void check_long_index(const Tensor& index, const char* op) {
  CT_CHECK(index.dtype() == DType::Int64, DType,
           op << "(): Expected a long tensor for index, but got " << torch_scalar_type_name(index.dtype()));
}

void put_into(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate, bool check_memory) {
  check_long_index(index, "put_");
  CT_CHECK(source.dtype() == self.dtype(), DType,
           "put_(): self and source expected to have the same dtype, but got self.dtype = "
               << torch_scalar_type_name(self.dtype()) << " and source.dtype = "
               << torch_scalar_type_name(source.dtype()));
  CT_CHECK(source.numel() == index.numel(), Index,
           "put_(): Expected source and index to have the same number of elements, but got source.numel() = "
               << source.numel() << ", index.numel() = " << index.numel());
  if (check_memory) {
    check_writable(self, "put_");
    check_no_overlap(self, index);
    check_no_overlap(self, source);
  }
  if (index.numel() == 0) return;
  const std::vector<int64_t> offs = flat_offsets(self, index);
  const Ref<Tensor> src = contiguous(source);
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* base = reinterpret_cast<scalar_t*>(self.storage()->data()) + self.offset();
    const scalar_t* s = at<const scalar_t>(*src);
    for (size_t i = 0; i < offs.size(); ++i) {
      scalar_t& dst = base[offs[i]];
      dst = accumulate ? add_values(dst, s[i]) : s[i];
    }
  });
}

// ---- index_put ---------------------------------------------------------------------------

// The index tensors of an index_put, one int64 tensor per indexed leading dim of self.
struct Advanced {
  std::vector<Ref<Tensor>> idx;  // broadcast to `b` (views), int64
  Dims b;                        // their broadcast shape
  Dims rest;                     // self's sizes after the indexed dims
};

// The int64 coordinate columns of a mask's true positions (torch's expandTensors), one per
// mask dim, after checking that the mask's sizes match self's from dim at_dim on.
std::vector<Ref<Tensor>> mask_columns(const Tensor& self, const Tensor& ix, int at_dim) {
  CT_CHECK(ix.ndim() > 0, InvalidArgument, "index_put_: a 0-dim bool index is not supported");
  CT_CHECK(at_dim + ix.ndim() <= self.ndim(), Index,
           "too many indices for tensor of dimension " << self.ndim() << " (got " << at_dim + ix.ndim() << ")");
  for (int j = 0; j < ix.ndim(); ++j) {
    CT_CHECK(ix.size(j) == self.size(at_dim + j), Index,
             "The shape of the mask " << list_str(ix.sizes()) << " at index " << j
                                      << " does not match the shape of the indexed tensor "
                                      << list_str(self.sizes()) << " at index " << at_dim + j);
  }
  const Ref<Tensor> m = copy_to_new(ix, DType::Bool);
  // Read through the bytes: a bool mask may hold any byte (from NumPy, from_blob), and loading
  // one other than 0/1 as a C++ bool is undefined behaviour.
  const unsigned char* mp = at<const unsigned char>(*m);
  const int md = ix.ndim();
  std::vector<Dims> coords(static_cast<size_t>(md));
  Dims c(size_t(md), 0);
  for (int64_t k = 0; k < m->numel(); ++k) {
    if (mp[k] != 0)
      for (int j = 0; j < md; ++j) coords[size_t(j)].push_back(c[size_t(j)]);
    for (int j = md - 1; j >= 0; --j) {
      if (++c[size_t(j)] < ix.size(j)) break;
      c[size_t(j)] = 0;
    }
  }
  std::vector<Ref<Tensor>> out;
  for (int j = 0; j < md; ++j) {
    const int64_t len = int64_t(coords[size_t(j)].size());
    out.push_back(Tensor::empty(IntList(&len, 1), DType::Int64, "index_put_"));
    std::copy(coords[size_t(j)].begin(), coords[size_t(j)].end(), at<int64_t>(*out.back()));
  }
  return out;
}

// indices: one int64/int32 tensor per leading dim of self (masks already expanded).
Advanced prepare_indices(const Tensor& self, std::span<const Tensor* const> indices) {
  std::vector<Ref<Tensor>> longs;
  for (const Tensor* ix : indices) longs.push_back(as_int64(*ix));
  Advanced a;
  bool mismatch = false;
  for (const Ref<Tensor>& t : longs) {
    const Dims s(t->sizes().begin(), t->sizes().end());
    Dims out(std::max(a.b.size(), s.size()), 1);
    for (size_t i = 0; i < out.size(); ++i) {
      const int64_t x = i < out.size() - a.b.size() ? 1 : a.b[i - (out.size() - a.b.size())];
      const int64_t y = i < out.size() - s.size() ? 1 : s[i - (out.size() - s.size())];
      mismatch = mismatch || (x != y && x != 1 && y != 1);
      out[i] = x == 1 ? y : x;
    }
    a.b = out;
  }
  if (mismatch) {
    std::string shapes;
    for (size_t i = 0; i < longs.size(); ++i) shapes += (i ? ", " : "") + list_str(longs[i]->sizes());
    CT_FAIL(Index, "shape mismatch: indexing tensors could not be broadcast together with shapes " << shapes);
  }
  for (size_t k = 0; k < longs.size(); ++k) {
    const int64_t n = self.size(int(k));
    for (int64_t v : index_values(*longs[k])) {
      CT_CHECK(v >= -n && v < n, Index, "index " << v << " is out of bounds for dimension " << k << " with size " << n);
    }
  }
  a.idx = std::move(longs);
  a.rest.assign(self.sizes().begin() + int64_t(a.idx.size()), self.sizes().end());
  return a;
}

// torch's index list, with holes: entry i indexes the dims from the one after the previous
// entry's; nullptr stands for a whole dim (a ':'), a k-dim bool/uint8 mask for k dims (its
// coordinate columns).  As torch's transposeToFront, self is permuted so that the indexed dims
// lead; the result's index dims (B) then go where the first indexed dim was when the indexed
// dims are adjacent (`before` dims ahead of them), else first (before == 0).
struct Plan {
  Ref<Tensor> self;                  // self, or a permuted view of it
  std::vector<Ref<Tensor>> columns;  // one index per leading dim of `self`
  Advanced a;
  int before = 0;
  Dims region;  // the indexing result's sizes: self's `before` leading sizes, B, the rest
};

Plan plan_indices(const Tensor& self, std::span<const Tensor* const> indices) {
  Plan p;
  std::vector<Ref<Tensor>> slots;  // one per dim of self from 0 (null: not indexed)
  int at_dim = 0;
  for (const Tensor* ix : indices) {
    if (ix == nullptr) {
      CT_CHECK(at_dim + 1 <= self.ndim(), Index,
               "too many indices for tensor of dimension " << self.ndim() << " (got " << at_dim + 1 << ")");
      slots.emplace_back(), ++at_dim;
      continue;
    }
    const DType t = ix->dtype();
    CT_CHECK(t == DType::Int64 || t == DType::Int32 || t == DType::Bool || t == DType::UInt8, Index,
             "tensors used as indices must be long, int, byte or bool tensors");
    if (t == DType::Bool || t == DType::UInt8) {
      for (Ref<Tensor>& c : mask_columns(self, *ix, at_dim)) slots.push_back(std::move(c)), ++at_dim;
    } else {
      CT_CHECK(at_dim + 1 <= self.ndim(), Index,
               "too many indices for tensor of dimension " << self.ndim() << " (got " << at_dim + 1 << ")");
      slots.push_back(Ref<Tensor>::retain(const_cast<Tensor*>(ix))), ++at_dim;
    }
  }
  slots.resize(size_t(self.ndim()));
  std::vector<int> defined, others;
  for (int d = 0; d < self.ndim(); ++d) (slots[size_t(d)] ? defined : others).push_back(d);
  const bool adjacent = defined.empty() || defined.back() - defined.front() + 1 == int(defined.size());
  p.before = adjacent && !defined.empty() ? defined.front() : 0;
  std::vector<int> perm = defined;
  perm.insert(perm.end(), others.begin(), others.end());
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == int(i);
  p.self = identity ? Ref<Tensor>::retain(const_cast<Tensor*>(&self)) : permute(self, perm);
  std::vector<const Tensor*> cols;
  for (int d : defined) p.columns.push_back(slots[size_t(d)]), cols.push_back(p.columns.back().get());
  p.a = prepare_indices(*p.self, cols);
  const size_t lead = size_t(p.before);
  p.region.assign(p.a.rest.begin(), p.a.rest.begin() + int64_t(lead));
  p.region.insert(p.region.end(), p.a.b.begin(), p.a.b.end());
  p.region.insert(p.region.end(), p.a.rest.begin() + int64_t(lead), p.a.rest.end());
  return p;
}

// The permutation taking a tensor laid out as B + before + after to before + B + after
// (its inverse when `inverse`).
std::vector<int> region_perm(size_t nb, size_t before, size_t ndim, bool inverse) {
  std::vector<int> perm;  // position i of before + B + after reads dim perm[i] of B + before + after
  for (size_t i = 0; i < before; ++i) perm.push_back(int(nb + i));
  for (size_t i = 0; i < nb; ++i) perm.push_back(int(i));
  for (size_t i = nb + before; i < ndim; ++i) perm.push_back(int(i));
  if (!inverse) return perm;
  std::vector<int> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int(i);
  return inv;
}

// Strides of t broadcast (right-aligned) to sizes.
Dims broadcast_strides_to(const Tensor& t, const Dims& sizes) {
  Dims st(sizes.size(), 0);
  const size_t lead = sizes.size() - size_t(t.ndim());
  for (int i = 0; i < t.ndim(); ++i) st[lead + size_t(i)] = t.size(i) == 1 ? 0 : t.stride(i);
  return st;
}

// Calls f(self_offset, region_position_strided...) over B + rest: the self offset of each
// position of the indexed region and the offset of `other` (values or the result) there.
template <class F>
void region_walk(const Tensor& self, const Advanced& a, const Dims& other_strides, F&& f) {
  const size_t nb = a.b.size(), ni = a.idx.size();
  std::vector<Dims> idx_strides;
  std::vector<const int64_t*> idx_data;
  for (const Ref<Tensor>& t : a.idx) {
    idx_strides.push_back(broadcast_strides_to(*t, a.b));
    idx_data.push_back(at<const int64_t>(*t));
  }
  Dims rest_self(self.strides().begin() + int64_t(ni), self.strides().end());
  const Dims other_b(other_strides.begin(), other_strides.begin() + int64_t(nb));
  const Dims other_rest(other_strides.begin() + int64_t(nb), other_strides.end());
  int64_t bcount = 1;
  for (int64_t s : a.b) bcount *= s;
  Dims coord(nb, 0);
  for (int64_t p = 0; p < bcount; ++p) {
    int64_t base = 0, other = 0;
    for (size_t k = 0; k < ni; ++k) {
      int64_t io = 0;
      for (size_t i = 0; i < nb; ++i) io += coord[i] * idx_strides[k][i];
      int64_t v = idx_data[k][io];
      if (v < 0) v += self.size(int(k));
      base += v * self.stride(int(k));
    }
    for (size_t i = 0; i < nb; ++i) other += coord[i] * other_b[i];
    walk(a.rest, std::array<Dims, 2>{rest_self, other_rest}, false,
         [&](const std::array<int64_t, 2>& o) { f(base + o[0], other + o[1]); });
    for (int64_t i = int64_t(nb) - 1; i >= 0; --i) {
      if (++coord[size_t(i)] < a.b[size_t(i)]) break;
      coord[size_t(i)] = 0;
    }
  }
}

void index_put_into(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values,
                    bool accumulate, bool check_memory) {
  CT_CHECK(values.dtype() == self.dtype(), DType,
           "Index put requires the source and destination dtypes match, got "
               << torch_scalar_type_name(self.dtype()) << " for the destination and "
               << torch_scalar_type_name(values.dtype()) << " for the source.");
  const Plan p = plan_indices(self, indices);
  const Dims& region = p.region;
  bool fits = size_t(values.ndim()) <= region.size();
  for (int i = 0; fits && i < values.ndim(); ++i) {
    const int64_t r = region[region.size() - size_t(values.ndim()) + size_t(i)];
    fits = values.size(i) == 1 || values.size(i) == r;
  }
  CT_CHECK(fits, Shape,
           "shape mismatch: value tensor of shape " << list_str(values.sizes())
                                                    << " cannot be broadcast to indexing result of shape "
                                                    << list_str(region));
  if (check_memory) {
    check_writable(self, "index_put_");
    for (const Tensor* ix : indices)
      if (ix) check_no_overlap(self, *ix);
    check_no_overlap(self, values);
  }
  if (self.numel() == 0 || values.numel() == 0) return;
  // values' strides over B + self's remaining sizes (the region with B moved to the front).
  const Dims vs_region = broadcast_strides_to(values, region);
  const std::vector<int> to_region = region_perm(p.a.b.size(), size_t(p.before), region.size(), false);
  Dims vs(region.size());
  for (size_t i = 0; i < region.size(); ++i) vs[size_t(to_region[i])] = vs_region[i];
  const Tensor& dst = *p.self;
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* out = at<scalar_t>(dst);
    const scalar_t* v = at<const scalar_t>(values);
    if (accumulate) {
      region_walk(dst, p.a, vs, [&](int64_t o, int64_t s) { out[o] = add_values(out[o], v[s]); });
    } else {
      region_walk(dst, p.a, vs, [&](int64_t o, int64_t s) { out[o] = v[s]; });
    }
  });
}

// Merges adjacent outer dims (all but the last) that every operand walks as one: dims i and
// i + 1 merge when stride[i] == stride[i + 1] * size[i + 1] for each stride list.  A gather of
// contiguous operands then has one outer dim, and its loop keeps no coordinates.
void merge_outer_dims(Dims& sizes, std::array<Dims*, 3> strides) {
  const size_t nd = sizes.size();
  if (nd < 3) return;
  size_t kept = 0;  // the merged outer dims are written to [0, kept]
  for (size_t i = 1; i + 1 < nd; ++i) {
    bool joins = true;
    for (const Dims* st : strides) joins = joins && (*st)[kept] == (*st)[i] * sizes[i];
    if (joins) {
      sizes[kept] *= sizes[i];
      for (Dims* st : strides) (*st)[kept] = (*st)[i];
    } else {
      ++kept;
      sizes[kept] = sizes[i];
      for (Dims* st : strides) (*st)[kept] = (*st)[i];
    }
  }
  ++kept;
  sizes[kept] = sizes[nd - 1];
  for (Dims* st : strides) (*st)[kept] = (*st)[nd - 1];
  sizes.resize(kept + 1);
  for (Dims* st : strides) st->resize(kept + 1);
}

// One row of gather: `inner` positions along the index's last dim.  An index outside [0, n)
// reads element 0 instead and is reported through `seen`, so the loop has no branch to leave.
template <class T>
inline void gather_row(T* po, int64_t so, const int64_t* pi, int64_t si, const T* ps, int64_t ss, int64_t sd,
                       int64_t inner, int64_t n, bool& seen, bool stream) {
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>) {
    if (stream) {
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t v = pi[j * si];
        const bool ok = uint64_t(v) < uint64_t(n);
        seen |= !ok;
        const T x = load<T>(ps + j * ss + (ok ? v : 0) * sd);
        if constexpr (sizeof(T) == 4)
          _mm_stream_si32(reinterpret_cast<int*>(po + j), int(x));
        else
          _mm_stream_si64(reinterpret_cast<long long*>(po + j), (long long)(x));
      }
      return;
    }
  }
#endif
  (void)stream;
  if (so == 1 && si == 1) {
    for (int64_t j = 0; j < inner; ++j) {
      const int64_t v = pi[j];
      const bool ok = uint64_t(v) < uint64_t(n);
      seen |= !ok;
      po[j] = load<T>(ps + j * ss + (ok ? v : 0) * sd);
    }
  } else {
    for (int64_t j = 0; j < inner; ++j) {
      const int64_t v = pi[j * si];
      const bool ok = uint64_t(v) < uint64_t(n);
      seen |= !ok;
      po[j * so] = load<T>(ps + j * ss + (ok ? v : 0) * sd);
    }
  }
}

// gather's loop: rows of index's last dim, split across threads (no two positions write
// the same output element).  Returns whether some index was out of range.
template <class T>
bool gather_kernel(const Tensor& out, const Tensor& idx, const Tensor& self, Dims self_strides, int64_t sd,
                   int64_t n) {
  Dims sizes = sizes1(idx), os = strides1(out), is = strides1(idx);
  merge_outer_dims(sizes, {&os, &is, &self_strides});
  const int nd = int(sizes.size());
  const int64_t inner = sizes[size_t(nd - 1)];
  int64_t rows = 1;
  for (int i = 0; i < nd - 1; ++i) rows *= sizes[size_t(i)];
  T* const o = at<T>(out);
  const int64_t* const ip = at<const int64_t>(idx);
  const T* const sp = at<const T>(self);
  const int64_t so = os[size_t(nd - 1)], si = is[size_t(nd - 1)], ss = self_strides[size_t(nd - 1)];
  // The row offsets advance by each operand's stride of the last outer dim; the other outer
  // dims are only revisited when that dim wraps around.
  const int64_t os_last = nd >= 2 ? os[size_t(nd - 2)] : 0, is_last = nd >= 2 ? is[size_t(nd - 2)] : 0,
                ss_last = nd >= 2 ? self_strides[size_t(nd - 2)] : 0;
  const bool stream = so == 1 && os_last == inner && out.numel() * int64_t(sizeof(T)) > (8 << 20);
  std::atomic<bool> bad{false};
  parallel_for(rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(inner, 1)), [&](int64_t r0, int64_t r1) {
    bool seen = false;
    if (nd <= 2) {  // one outer dim (the common case once merged): no coordinates to keep
      for (int64_t r = r0; r < r1; ++r) {
        gather_row(o + r * os_last, so, ip + r * is_last, si, sp + r * ss_last, ss, sd, inner, n, seen, stream);
      }
    } else {
      Dims coord(size_t(nd), 0);
      for (int64_t i = nd - 2, rem = r0; i >= 0; --i) {
        coord[size_t(i)] = rem % sizes[size_t(i)];
        rem /= sizes[size_t(i)];
      }
      int64_t oo = 0, oi = 0, osf = 0;
      auto restart = [&] {
        oo = oi = osf = 0;
        for (int i = 0; i < nd - 1; ++i) {
          oo += coord[size_t(i)] * os[size_t(i)];
          oi += coord[size_t(i)] * is[size_t(i)];
          osf += coord[size_t(i)] * self_strides[size_t(i)];
        }
      };
      restart();
      const int64_t last_size = sizes[size_t(nd - 2)];
      int64_t last = coord[size_t(nd - 2)];
      for (int64_t r = r0; r < r1; ++r) {
        gather_row(o + oo, so, ip + oi, si, sp + osf, ss, sd, inner, n, seen, stream);
        if (++last < last_size) {
          oo += os_last, oi += is_last, osf += ss_last;
          continue;
        }
        last = 0;
        coord[size_t(nd - 2)] = 0;
        for (int i = nd - 3; i >= 0; --i) {
          if (++coord[size_t(i)] < sizes[size_t(i)]) break;
          coord[size_t(i)] = 0;
        }
        restart();
      }
    }
#if defined(__x86_64__)
    if (stream) _mm_sfence();
#endif
    if (seen) bad.store(true, std::memory_order_relaxed);
  });
  return bad.load();
}

}  // namespace

// ---- public entry points -----------------------------------------------------------------

Ref<Tensor> gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const int d = wrap_dim(dim, self.ndim());
  check_index_dtype_32_64(index, "gather");
  check_scatter_shapes(self, d, index, nullptr, true);
  Ref<Tensor> out = Tensor::empty(index.sizes(), self.dtype(), "gather");
  if (out->numel() == 0) return out;
  const Ref<Tensor> idx = as_int64(index);
  const int64_t n = sizes1(self)[size_t(d)];
  Dims self_strides = strides1(self);
  const int64_t sd = self_strides[size_t(d)];
  self_strides[size_t(d)] = 0;
  // gather moves elements without looking at them: dispatch on the element size only, but for
  // bool, whose bytes are read as true/false and written 0/1 (torch's gather does the same).
  bool bad = false;
  if (self.dtype() == DType::Bool) {
    bad = gather_kernel<bool>(*out, *idx, self, std::move(self_strides), sd, n);
  } else switch (self.itemsize()) {
    case 1: bad = gather_kernel<uint8_t>(*out, *idx, self, std::move(self_strides), sd, n); break;
    case 2: bad = gather_kernel<uint16_t>(*out, *idx, self, std::move(self_strides), sd, n); break;
    case 4: bad = gather_kernel<uint32_t>(*out, *idx, self, std::move(self_strides), sd, n); break;
    case 8: bad = gather_kernel<uint64_t>(*out, *idx, self, std::move(self_strides), sd, n); break;
    default: bad = gather_kernel<Bytes16>(*out, *idx, self, std::move(self_strides), sd, n); break;  // complex128
  }
  if (bad) check_scatter_indices(*idx, d, n);
  return out;
}

void scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
              ScatterReduce reduce, const char* op) {
  scatter_into(self, dim, index, src, value, reduce, op, true);
  self.bump_version();
}

Ref<Tensor> scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
                    ScatterReduce reduce, const char* op) {
  Ref<Tensor> out = fresh_copy(self, true);
  scatter_into(*out, dim, index, src, value, reduce, op, false);
  return out;
}

void index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha) {
  index_add_into(self, dim, index, source, alpha, true);
  self.bump_version();
}
Ref<Tensor> index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha) {
  Ref<Tensor> out = fresh_copy(self, true);
  index_add_into(*out, dim, index, source, alpha, false);
  return out;
}
void index_copy_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  index_copy_into(self, dim, index, source, true);
  self.bump_version();
}
Ref<Tensor> index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  Ref<Tensor> out = fresh_copy(self, true);
  index_copy_into(*out, dim, index, source, false);
  return out;
}
void index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number) {
  index_fill_into(self, dim, index, value, number, true);
  self.bump_version();
}
Ref<Tensor> index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number) {
  Ref<Tensor> out = fresh_copy(self, false);
  index_fill_into(*out, dim, index, value, number, false);
  return out;
}

Ref<Tensor> take(const Tensor& self, const Tensor& index) {
  check_long_index(index, "take");
  Ref<Tensor> out = Tensor::empty(index.sizes(), self.dtype(), "take");
  if (out->numel() == 0) return out;
  const std::vector<int64_t> offs = flat_offsets(self, index);
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    const scalar_t* base = reinterpret_cast<const scalar_t*>(self.storage()->data()) + self.offset();
    scalar_t* o = at<scalar_t>(*out);
    for (size_t i = 0; i < offs.size(); ++i) o[i] = load<scalar_t>(base + offs[i]);  // bool bytes -> 0/1
  });
  return out;
}

void put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  put_into(self, index, source, accumulate, true);
  self.bump_version();
}
Ref<Tensor> put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  Ref<Tensor> out = fresh_copy(self, false);
  put_into(*out, index, source, accumulate, false);
  return out;
}

void index_put_(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values, bool accumulate) {
  index_put_into(self, indices, values, accumulate, true);
  self.bump_version();
}
Ref<Tensor> index_put(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values,
                      bool accumulate) {
  Ref<Tensor> out = fresh_copy(self, false);
  index_put_into(*out, indices, values, accumulate, false);
  return out;
}

Ref<Tensor> index_get(const Tensor& self, std::span<const Tensor* const> indices) {
  const Plan p = plan_indices(self, indices);
  Ref<Tensor> out = Tensor::empty(p.region, self.dtype(), "index");
  if (out->numel() == 0) return out;
  // The result is C-ordered over before + B + after; the walk goes over B + before + after.
  const std::vector<int> to_region = region_perm(p.a.b.size(), size_t(p.before), p.region.size(), false);
  Dims os(p.region.size());
  for (size_t i = 0; i < p.region.size(); ++i) os[size_t(to_region[i])] = out->stride(int(i));
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    const scalar_t* s = at<const scalar_t>(*p.self);
    scalar_t* o = at<scalar_t>(*out);
    region_walk(*p.self, p.a, os, [&](int64_t so, int64_t oo) { o[oo] = load<scalar_t>(s + so); });  // bool: 0/1
  });
  return out;
}

// ---- scatter_reduce ------------------------------------------------------------------------

namespace {

template <class T>
inline bool is_nan_value(T v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return std::isnan(float(v));
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

// a > b for every element type (Half and BFloat16 through float).
template <class T>
inline bool greater(T a, T b) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return float(a) > float(b);
  else return a > b;
}

// The identity a position written without include_self starts from.
template <class T>
T reduce_identity(ScatterReduceOp op) {
  switch (op) {
    case ScatterReduceOp::Prod: return convert<T>(1.0);
    case ScatterReduceOp::Amax:
      if constexpr (std::is_same_v<T, bool>) return false;
      else if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::lowest();
      else return convert<T>(-std::numeric_limits<double>::infinity());
    case ScatterReduceOp::Amin:
      if constexpr (std::is_same_v<T, bool>) return true;
      else if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::max();
      else return convert<T>(std::numeric_limits<double>::infinity());
    default: return convert<T>(0.0);
  }
}

template <class T>
inline T reduce_values(ScatterReduceOp op, T dst, T s) {
  switch (op) {
    case ScatterReduceOp::Prod: return mul_values(dst, s);
    case ScatterReduceOp::Amax:
    case ScatterReduceOp::Amin:
      if constexpr (is_complex_v<T>) {
        return dst;  // refused before the kernel: complex numbers have no order
      } else if (op == ScatterReduceOp::Amax) {
        return is_nan_value(dst) || (!is_nan_value(s) && !greater(s, dst)) ? dst : s;
      } else {
        return is_nan_value(dst) || (!is_nan_value(s) && !greater(dst, s)) ? dst : s;
      }
    default: return add_values(dst, s);
  }
}

// dst / count: true division for floating types, floor division for integers (torch's
// div_(count, "floor")).
template <class T>
inline T mean_of(T sum, int64_t count) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return T(float(sum) / float(count));
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(sum / static_cast<T>(count));
  else if constexpr (is_complex_v<T>) {
    // torch divides by a complex count with c10's scaled division: for a real divisor c that
    // is (a * (1/c), b * (1/c)), two roundings (5/3 gives 1.6666667f, not 1.6666666f)
    using V = typename T::value_type;
    const V scale = V(1) / V(count);
    return T(sum.real() * scale, sum.imag() * scale);
  }
  else {
    const int64_t a = int64_t(sum), q = a / count;
    return static_cast<T>((a % count != 0 && ((a < 0) != (count < 0))) ? q - 1 : q);
  }
}

void scatter_reduce_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduceOp op,
                         bool include_self, bool check_memory) {
  const int d = wrap_dim(dim, self.ndim());
  check_index_dtype_32_64(index, "scatter");
  CT_CHECK(src.dtype() == self.dtype(), DType, "scatter(): Expected self.dtype to be equal to src.dtype");
  check_scatter_shapes(self, d, index, &src, false);
  CT_CHECK(!(op == ScatterReduceOp::Mean && self.dtype() == DType::Bool), DType,
           "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  CT_CHECK(!((op == ScatterReduceOp::Amax || op == ScatterReduceOp::Amin) && is_complex(self.dtype())), DType,
           "\"scatter_gather_tensor_cpu_reduce_" << (op == ScatterReduceOp::Amax ? "amax" : "amin")
                                                 << "\" not implemented for '" << torch_scalar_type_name(self.dtype())
                                                 << "'");
  if (check_memory) {
    check_writable(self, "scatter_reduce_");
    check_no_overlap(self, index);
    check_no_overlap(self, src);
  }
  if (index.numel() == 0) return;
  check_scatter_indices(index, d, sizes1(self)[size_t(d)]);
  const Ref<Tensor> idx = as_int64(index);
  Dims self_strides = strides1(self);
  const int64_t sd = self_strides[size_t(d)];
  self_strides[size_t(d)] = 0;
  const std::array<Dims, 3> strides{self_strides, strides1(*idx), strides1(src)};
  const Dims isz = sizes1(*idx);
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {
    scalar_t* out = at<scalar_t>(self);
    const int64_t* ip = at<const int64_t>(*idx);
    const scalar_t* sp = at<const scalar_t>(src);
    auto target = [&](const std::array<int64_t, 3>& o) -> scalar_t& { return out[o[0] + ip[o[1]] * sd]; };
    if (!include_self) {  // the written positions start from the identity
      const scalar_t id = reduce_identity<scalar_t>(op);
      walk(isz, strides, false, [&](const std::array<int64_t, 3>& o) { target(o) = id; });
    }
    walk(isz, strides, false,
         [&](const std::array<int64_t, 3>& o) { target(o) = reduce_values(op, target(o), sp[o[2]]); });
    if (op == ScatterReduceOp::Mean) {
      // contributions per written position (self's own value counts once with include_self)
      std::unordered_map<int64_t, int64_t> count;
      walk(isz, strides, false, [&](const std::array<int64_t, 3>& o) { ++count[o[0] + ip[o[1]] * sd]; });
      for (const auto& [off, c] : count) out[off] = mean_of(out[off], c + (include_self ? 1 : 0));
    }
  });
}

}  // namespace

ScatterReduceOp scatter_reduce_op(const char* reduce) {
  const std::string r = reduce ? reduce : "";
  if (r == "sum") return ScatterReduceOp::Sum;
  if (r == "prod") return ScatterReduceOp::Prod;
  if (r == "mean") return ScatterReduceOp::Mean;
  if (r == "amax" || r == "max") return ScatterReduceOp::Amax;  // torch 2.13 takes "max" / "min" too
  if (r == "amin" || r == "min") return ScatterReduceOp::Amin;
  CT_FAIL(InvalidArgument, "reduce argument must be either sum, prod, mean, amax or amin, got " << r);
}

void scatter_reduce_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduceOp op,
                     bool include_self) {
  scatter_reduce_into(self, dim, index, src, op, include_self, true);
  self.bump_version();
}

Ref<Tensor> scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           ScatterReduceOp op, bool include_self) {
  Ref<Tensor> out = fresh_copy(self, true);
  scatter_reduce_into(*out, dim, index, src, op, include_self, false);
  return out;
}

}  // namespace ct
