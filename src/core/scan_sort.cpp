// cumsum, cumprod, sort, topk and clamp.  Scans and sorts work row by row: a row is the line
// of elements along `dim` through one index of the other dims; rows are independent, so they
// are split across threads (parallel_for) and every element is computed by one thread, in an
// order fixed by the data alone (results do not depend on the thread count).
#include "scan_sort.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <type_traits>
#include <vector>

#include "copy.h"
#include "error.h"
#include "iter.h"
#include "memory_format.h"
#include "ops/complex_math.h"
#include "ops/elementwise.h"
#include "ops/promote.h"
#include "parallel.h"
#include "shape.h"

namespace ct {
namespace {

// The rows of tensors of one shape along dim d: the other dims' sizes, and a row's offset
// (in elements) in a tensor with given strides.
struct Rows {
  Shape sizes;     // the other dims, in order
  int64_t count = 1;
  int64_t length = 1;  // elements per row (size of d; 1 for a 0-dim tensor)
  int d = 0;

  Rows(IntList all, int dim) : d(dim) {
    for (int i = 0; i < int(all.size()); ++i) {
      if (i == dim) length = all[size_t(i)];
      else sizes.push_back(all[size_t(i)]);
    }
    for (int64_t s : sizes) count *= s;
  }
  Shape other_strides(const Tensor& t) const {
    Shape st;
    for (int i = 0; i < t.ndim(); ++i)
      if (i != d) st.push_back(t.stride(i));
    return st;
  }
  int64_t along(const Tensor& t) const { return t.ndim() == 0 ? 1 : t.stride(d); }
  int64_t offset(int64_t r, const Shape& st) const {
    int64_t off = 0;
    for (size_t i = sizes.size(); i-- > 0;) {
      off += (r % sizes[i]) * st[i];
      r /= sizes[i];
    }
    return off;
  }
};

int64_t rows_grain(int64_t length) { return std::max<int64_t>(1, 16384 / std::max<int64_t>(length, 1)); }

template <class T> T* at(const Tensor& t, int64_t elem) { return reinterpret_cast<T*>(t.data()) + elem; }

// The accumulator of a scan, as torch's CPU cum kernels (at::acc_type<T, false>): complex
// values accumulate in complex<double>.
template <class T>
using scan_acc_t = std::conditional_t<
    is_complex_v<T>, std::complex<double>,
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float,
                       std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>>>;

// One element of a scan: acc takes the element at src, dst the new acc.
template <class T, class A>
inline void scan_step(A& acc, const T* src, T* dst, bool product) {
  if constexpr (is_complex_v<A>) {
    const A v = A(load<T>(src));
    acc = product ? cmul_fused(acc, v) : acc + v;  // c10::complex's *, as torch's build fuses it
    *dst = convert<T>(acc);
  } else if constexpr (std::is_same_v<A, uint64_t>) {
    const A v = A(int64_t(load<T>(src)));  // unsigned: wraps modulo 2^64 like torch's int64, defined
    acc = product ? A(acc * v) : A(acc + v);
    *dst = T(int64_t(acc));
  } else {
    const A v = A(load<T>(src));
    acc = product ? A(acc * v) : A(acc + v);
    *dst = convert<T>(acc);
  }
}

Ref<Tensor> scan(const Tensor& t, int64_t dim, std::optional<DType> dtype, bool product) {
  const char* name = product ? "cumprod" : "cumsum";
  const int d = wrap_dim(dim, t.ndim());
  const DType out_dt = dtype ? *dtype : (is_integral(t.dtype(), true) ? DType::Int64 : t.dtype());
  CT_CHECK(out_dt != DType::Bool, DType, '"' << name << "_out_cpu\" not implemented for 'Bool'");
  const Ref<Tensor> x = to_dtype(t, out_dt);
  Ref<Tensor> out = Tensor::empty(t.sizes(), out_dt, name);
  if (out->numel() == 0) return out;
  const Rows rows(t.sizes(), d);
  const Shape xs = rows.other_strides(*x), os = rows.other_strides(*out);
  const int64_t xa = rows.along(*x), oa = rows.along(*out), n = rows.length;
  CT_DISPATCH_WITH_COMPLEX(out_dt, [&] {
    using T = scalar_t;
    if constexpr (!std::is_same_v<T, bool>) {
      using A = scan_acc_t<T>;
      parallel_for(rows.count, rows_grain(n), [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T* src = at<const T>(*x, rows.offset(r, xs));
          T* dst = at<T>(*out, rows.offset(r, os));
          A acc = product ? A(1) : A(0);
          for (int64_t k = 0; k < n; ++k) {
            scan_step<T, A>(acc, src + k * xa, dst + k * oa, product);
          }
        }
      });
    }
  });
  return out;
}

void scan_(const Tensor& self, int64_t dim, std::optional<DType> dtype, bool product) {
  const char* name = product ? "cumprod_" : "cumsum_";
  if (dtype && *dtype != self.dtype()) {
    CT_FAIL(DType, "Bad in-place call: input tensor dtype " << torch_scalar_type_name(self.dtype())
                       << " and output tensor dtype " << torch_scalar_type_name(*dtype) << " should match");
  }
  check_writable_no_overlap(self, name);  // computed aside: torch's reads what it wrote
  Ref<Tensor> r = scan(self, dim, self.dtype(), product);
  copy_into(self, *r, name);
}

// a before b in ascending order, NaN last (largest).
template <class T>
bool less_nan_last(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return !a && b;
  } else if constexpr (std::is_integral_v<T>) {
    return a < b;
  } else {
    const auto fa = acc_t<T>(a), fb = acc_t<T>(b);
    return fa < fb || (!std::isnan(fa) && std::isnan(fb));
  }
}

}  // namespace

Ref<Tensor> cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype) { return scan(t, dim, dtype, false); }
Ref<Tensor> cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype) { return scan(t, dim, dtype, true); }
void cumsum_(const Tensor& self, int64_t dim, std::optional<DType> dtype) { scan_(self, dim, dtype, false); }
void cumprod_(const Tensor& self, int64_t dim, std::optional<DType> dtype) { scan_(self, dim, dtype, true); }

// One row of t along the sorted dim read into key (as T) and idx set to 0..n-1: what sort and
// topk order; and the first m of the ordered idx written out as values and indices.
template <class T>
void load_row(const Tensor& t, const char* src, int64_t along, std::vector<T>& key, std::vector<int64_t>& idx) {
  for (size_t k = 0; k < key.size(); ++k) key[k] = load<T>(src + int64_t(k) * along * t.itemsize());
  std::iota(idx.begin(), idx.end(), int64_t(0));
}
template <class T>
void store_row(const std::vector<T>& key, const std::vector<int64_t>& idx, int64_t m, T* vdst, int64_t va,
               int64_t* idst, int64_t ia) {
  for (int64_t k = 0; k < m; ++k) {
    vdst[k * va] = key[size_t(idx[size_t(k)])];
    idst[k * ia] = idx[size_t(k)];
  }
}

ValuesIndices sort(const Tensor& t, int64_t dim, bool descending, bool /*stable*/) {
  const int d = wrap_dim(dim, t.ndim());
  CT_CHECK(!is_complex(t.dtype()), DType, "Sort does not support complex dtypes on CPU");
  ValuesIndices r;
  r.values = empty_like(t, t.dtype(), MemoryFormat::Preserve, "sort");
  r.indices = empty_like(t, DType::Int64, MemoryFormat::Preserve, "sort");
  if (t.numel() == 0) return r;
  const Rows rows(t.sizes(), d);
  const Shape xs = rows.other_strides(t), vs = rows.other_strides(*r.values), is = rows.other_strides(*r.indices);
  const int64_t xa = rows.along(t), va = rows.along(*r.values), ia = rows.along(*r.indices), n = rows.length;
  CT_DISPATCH_ALL(t.dtype(), [&] {
    using T = scalar_t;
    parallel_for(rows.count, rows_grain(n), [&](int64_t begin, int64_t end) {
      std::vector<T> key(static_cast<size_t>(n));
      std::vector<int64_t> idx(static_cast<size_t>(n));
      for (int64_t row = begin; row < end; ++row) {
        load_row<T>(t, t.data() + rows.offset(row, xs) * t.itemsize(), xa, key, idx);
        // Stable: equal keys keep their order, in both directions (torch's descending stable
        // sort is not a reversed ascending one).
        if (descending) {
          std::stable_sort(idx.begin(), idx.end(),
                           [&](int64_t a, int64_t b) { return less_nan_last<T>(key[size_t(b)], key[size_t(a)]); });
        } else {
          std::stable_sort(idx.begin(), idx.end(),
                           [&](int64_t a, int64_t b) { return less_nan_last<T>(key[size_t(a)], key[size_t(b)]); });
        }
        store_row<T>(key, idx, n, at<T>(*r.values, rows.offset(row, vs)), va,
                     at<int64_t>(*r.indices, rows.offset(row, is)), ia);
      }
    });
  });
  return r;
}

ValuesIndices topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool /*sorted*/) {
  const int d = wrap_dim(dim, t.ndim());
  CT_CHECK(t.dtype() != DType::Bool, DType, "topk does not support bool dtypes on CPU");
  CT_CHECK(!is_complex(t.dtype()), DType, "topk does not support complex dtypes on CPU");
  const int64_t n = t.ndim() == 0 ? 1 : t.size(d);
  CT_CHECK(k >= 0 && k <= n, InvalidArgument, "selected index k out of range");
  Shape out_sizes(t.sizes().begin(), t.sizes().end());
  if (t.ndim() > 0) out_sizes[size_t(d)] = k;
  ValuesIndices r;
  r.values = Tensor::empty(out_sizes, t.dtype(), "topk");
  r.indices = Tensor::empty(out_sizes, DType::Int64, "topk");
  if (r.values->numel() == 0) return r;
  // A 0-dim result has its one element even for k == 0 (torch's topk(0) of a 0-dim tensor
  // returns the value): select that many.
  if (t.ndim() == 0) k = 1;
  const Rows rows(t.sizes(), d);
  const Shape xs = rows.other_strides(t), os = rows.other_strides(*r.values);
  const int64_t xa = rows.along(t), oa = rows.along(*r.values);
  CT_DISPATCH_ALL(t.dtype(), [&] {
    using T = scalar_t;
    parallel_for(rows.count, rows_grain(n), [&](int64_t begin, int64_t end) {
      std::vector<T> key(static_cast<size_t>(n));
      std::vector<int64_t> idx(static_cast<size_t>(n));
      for (int64_t row = begin; row < end; ++row) {
        load_row<T>(t, t.data() + rows.offset(row, xs) * t.itemsize(), xa, key, idx);
        // Ties broken by index, so the selection is deterministic.
        auto before = [&](int64_t a, int64_t b) {
          const T ka = key[size_t(a)], kb = key[size_t(b)];
          if (largest ? less_nan_last<T>(kb, ka) : less_nan_last<T>(ka, kb)) return true;
          if (largest ? less_nan_last<T>(ka, kb) : less_nan_last<T>(kb, ka)) return false;
          return a < b;
        };
        std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), before);
        store_row<T>(key, idx, k, at<T>(*r.values, rows.offset(row, os)), oa,
                     at<int64_t>(*r.indices, rows.offset(row, os)), oa);
      }
    });
  });
  return r;
}

// ---- clamp ----------------------------------------------------------------------------------

namespace {

OperandType bound_type(const ClampBound& b) {
  if (b.tensor) return {b.tensor->dtype(), b.tensor->ndim() == 0 ? OperandKind::ZeroDim : OperandKind::Dimensioned};
  return {b.integral ? DType::Int64 : DType::Float64, b.integral ? OperandKind::PythonInt : OperandKind::PythonFloat};
}

DType clamp_dtype(const Tensor& t, const ClampBound& lo, const ClampBound& hi) {
  std::vector<OperandType> types{{t.dtype(), t.ndim() == 0 ? OperandKind::ZeroDim : OperandKind::Dimensioned}};
  if (lo.present()) types.push_back(bound_type(lo));
  if (hi.present()) types.push_back(bound_type(hi));
  return result_type(types);
}

// c10's checked conversion of a scalar bound to dtype d (torch's c10::overflows rules: an
// unsigned type also takes negatives down to -max, which wrap; infinities pass for floats).
void clamp_bound_fits(double v, DType d) {
  double lo = 0, hi = 0;
  const char* cpp = "";
  switch (d) {
    case DType::Bool: return;
    case DType::UInt8: lo = -255, hi = 255, cpp = "uint8_t"; break;
    case DType::Int8: lo = -128, hi = 127, cpp = "int8_t"; break;
    case DType::Int16: lo = -32768, hi = 32767, cpp = "int16_t"; break;
    case DType::Int32: lo = -2147483648.0, hi = 2147483647.0, cpp = "int"; break;  // torch prints "int"
    case DType::Int64: lo = -9223372036854775808.0, hi = 9223372036854775807.0, cpp = "int64_t"; break;
    case DType::Float16: lo = -65504, hi = 65504, cpp = "c10::Half"; break;
    case DType::BFloat16: lo = -3.3895313892515355e38, hi = 3.3895313892515355e38, cpp = "c10::BFloat16"; break;
    case DType::Float32: lo = -3.4028234663852886e38, hi = 3.4028234663852886e38, cpp = "float"; break;
    case DType::Float64:
    case DType::Complex64:  // clamp refuses complex tensors before it converts a bound
    case DType::Complex128: return;
  }
  if (is_floating(d) && !std::isfinite(v)) return;
  // int64's max is not a double: 2^63 itself must fail (converting it would be undefined).
  const bool fits = d == DType::Int64 ? v >= lo && v < 9223372036854775808.0 : v >= lo && v <= hi;
  CT_CHECK(fits, InvalidArgument, "value cannot be converted to type " << cpp << " without overflow");
}

Ref<Tensor> bound_as(const ClampBound& b, DType d) {
  if (b.tensor) return to_dtype(*b.tensor, d);
  clamp_bound_fits(b.scalar, d);
  Ref<Tensor> s = Tensor::empty(Shape{}, d, "clamp");
  CT_DISPATCH_ALL(d, [&] {
    using T = scalar_t;
    // an integer bound wraps into an unsigned dtype as torch's cast does (-1 -> 255)
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) *at<T>(*s, 0) = T(int64_t(b.scalar));
    else *at<T>(*s, 0) = convert<T>(b.scalar);
  });
  return s;
}

template <class T>
bool is_nan_value(T v) {
  if constexpr (std::is_integral_v<T>) return false;
  else return std::isnan(acc_t<T>(v));
}

}  // namespace

Ref<Tensor> clamp(const Tensor& t, const ClampBound& lo, const ClampBound& hi, const char* op) {
  CT_CHECK(lo.present() || hi.present(), InvalidArgument, "torch.clamp: At least one of 'min' or 'max' must not be None");
  const DType d = clamp_dtype(t, lo, hi);
  Shape shape(t.sizes().begin(), t.sizes().end());
  if (lo.tensor) shape = broadcast_shapes(shape, lo.tensor->sizes(), op);
  if (hi.tensor) shape = broadcast_shapes(shape, hi.tensor->sizes(), op);
  const Ref<Tensor> x = to_dtype(t, d);
  const Ref<Tensor> l = lo.present() ? bound_as(lo, d) : Ref<Tensor>();
  const Ref<Tensor> h = hi.present() ? bound_as(hi, d) : Ref<Tensor>();
  std::vector<const Tensor*> inputs{x.get()};
  if (l) inputs.push_back(l.get());
  if (h) inputs.push_back(h.get());
  Ref<Tensor> out = elementwise_output(shape, inputs, d, op);
  if (out->numel() == 0) return out;
  std::vector<const Tensor*> ops{out.get()};
  ops.insert(ops.end(), inputs.begin(), inputs.end());
  ElementwiseIter it(ops);
  const bool has_lo = bool(l), has_hi = bool(h);
  CT_DISPATCH_ALL(d, [&] {
    using T = scalar_t;
    using A = std::conditional_t<std::is_same_v<T, bool>, bool, acc_t<T>>;
    it.for_each([&](char** p, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const T xv = load<T>(p[1] + i * s[1]);
        T v = xv;
        int slot = 2;
        if (!is_nan_value(xv)) {
          if (has_lo) {
            const T lv = load<T>(p[slot] + i * s[slot]);
            if (is_nan_value(lv) || A(v) < A(lv)) v = lv;
            ++slot;
          }
          if (has_hi && !is_nan_value(v)) {
            const T hv = load<T>(p[slot] + i * s[slot]);
            if (is_nan_value(hv) || A(v) > A(hv)) v = hv;
          }
        }
        *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
      }
    });
  });
  return out;
}

void clamp_(const Tensor& self, const ClampBound& lo, const ClampBound& hi, const char* op) {
  CT_CHECK(lo.present() || hi.present(), InvalidArgument, "torch.clamp: At least one of 'min' or 'max' must not be None");
  const DType d = clamp_dtype(self, lo, hi);
  // computed aside, then copied in: with scalar bounds that is what torch's in-place kernel
  // leaves on a self whose elements share memory (clamping twice is clamping once); with
  // tensor bounds it is not, so such a self is refused
  if (lo.tensor || hi.tensor) {
    check_writable_no_overlap(self, op);
  } else {
    check_writable(self, op);
  }
  Shape shape(self.sizes().begin(), self.sizes().end());
  if (lo.tensor) shape = broadcast_shapes(shape, lo.tensor->sizes(), op);
  if (hi.tensor) shape = broadcast_shapes(shape, hi.tensor->sizes(), op);
  CT_CHECK(std::equal(shape.begin(), shape.end(), self.sizes().begin(), self.sizes().end()), Shape,
           "output with shape " << list_str(self.sizes()) << " doesn't match the broadcast shape " << list_str(shape));
  // after the shape check, as torch's
  // torch names self's dtype as the tensor-bound kernels do ("Int") or, for scalar bounds, by
  // its C++ type ("int"), as its two checks do.
  const bool tensor_bounds = lo.tensor || hi.tensor;
  CT_CHECK(can_cast(d, self.dtype()), DType,
           "result type " << torch_scalar_type_name(d) << " can't be cast to the desired output type "
                          << (tensor_bounds ? torch_scalar_type_name(self.dtype()) : cpp_type_name(self.dtype())));
  Ref<Tensor> r = clamp(self, lo, hi, op);
  copy_into(self, *r, op);
}

// ---- backward helpers -----------------------------------------------------------------------

Ref<Tensor> scatter_along_dim(const Tensor& g, const Tensor& indices, int64_t dim, IntList in_sizes) {
  Ref<Tensor> z = Tensor::empty(in_sizes, DType::Float64, "backward");
  std::fill_n(at<double>(*z, 0), z->numel(), 0.0);
  if (g.numel() == 0) return z;
  const Ref<Tensor> g64 = contiguous(*to_dtype(g, DType::Float64));
  const Ref<Tensor> idx = contiguous(indices);
  const int d = wrap_dim(dim, int(in_sizes.size()));
  const Rows grows(g64->sizes(), d), zrows(in_sizes, d);
  const Shape gs = grows.other_strides(*g64), zs = zrows.other_strides(*z), is = grows.other_strides(*idx);
  const int64_t ga = grows.along(*g64), za = zrows.along(*z), ia = grows.along(*idx);
  for (int64_t r = 0; r < grows.count; ++r) {
    const double* gp = at<const double>(*g64, grows.offset(r, gs));
    const int64_t* ip = at<const int64_t>(*idx, grows.offset(r, is));
    double* zp = at<double>(*z, zrows.offset(r, zs));
    for (int64_t j = 0; j < grows.length; ++j) zp[ip[j * ia] * za] += gp[j * ga];
  }
  return z;
}

namespace {
// Conjugated for complex (the Wirtinger convention: each local derivative is conjugated).
inline double conj_if(double v) { return v; }
inline std::complex<double> conj_if(std::complex<double> v) { return std::conj(v); }

// cumprod's gradient along rows of contiguous T (double or complex double) tensors.
template <class T>
Ref<Tensor> cumprod_backward_as(const Tensor& g, const Tensor& x, int64_t dim, DType d) {
  const Ref<Tensor> xd = contiguous(*to_dtype(x, d));
  const Ref<Tensor> gd = contiguous(*to_dtype(g, d));
  Ref<Tensor> out = Tensor::empty(x.sizes(), d, "backward");
  if (out->numel() == 0) return out;
  const Rows rows(x.sizes(), wrap_dim(dim, x.ndim()));
  const Shape st = rows.other_strides(*out);  // all three are contiguous with x's sizes
  const int64_t a = rows.along(*out), n = rows.length;
  std::vector<T> S(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows.count; ++r) {
    const int64_t off = rows.offset(r, st);
    const T* xp = at<const T>(*xd, off);
    const T* gp = at<const T>(*gd, off);
    T* op = at<T>(*out, off);
    // S_i = g_i + x_{i+1} S_{i+1}: the gradient's suffix part, then times the prefix product
    // (no division, so zeros in x need no special case).
    T s = 0;
    for (int64_t i = n; i-- > 0;) {
      s = gp[i * a] + (i + 1 < n ? conj_if(xp[(i + 1) * a]) * s : T(0));
      S[size_t(i)] = s;
    }
    T prefix = 1;
    for (int64_t i = 0; i < n; ++i) {
      op[i * a] = prefix * S[size_t(i)];
      prefix *= conj_if(xp[i * a]);
    }
  }
  return out;
}
}  // namespace

Ref<Tensor> cumprod_backward(const Tensor& g, const Tensor& x, int64_t dim) {
  if (is_complex(x.dtype()) || is_complex(g.dtype()))
    return cumprod_backward_as<std::complex<double>>(g, x, dim, DType::Complex128);
  return cumprod_backward_as<double>(g, x, dim, DType::Float64);
}

}  // namespace ct
