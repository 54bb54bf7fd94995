// Reductions (src/core/ops/reduce): every op and dtype against a reference loop, over
// contiguous, transposed, step-sliced, expanded and permuted inputs; result dtypes, errors
// and NaN/tie/wrap-around values against PyTorch 2.13 (generated tables at the end of the
// file: tests/tools/gen_reduce_cases.py); thread-count independence; accuracy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/copy.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/ops/reduce.h"
#include "core/tensor.h"
#include "core/views.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Shape;
using ct::Tensor;

// ---- building and reading tensors --------------------------------------------------------

// One element of any dtype, as the value it stands for: exact integers and doubles.
struct Value {
  bool is_int = false;
  int64_t i = 0;
  double d = 0;
};

void store(DType dt, char* p, const Value& v) {
  CT_DISPATCH_ALL(dt, [&] {
    scalar_t x;
    if (v.is_int) {
      x = ct::convert<scalar_t>(v.i);
    } else {
      x = ct::convert<scalar_t>(v.d);
    }
    std::memcpy(p, &x, sizeof x);
  });
}

Value load(DType dt, const char* p) {
  Value v;
  CT_DISPATCH_ALL(dt, [&] {
    scalar_t x;
    std::memcpy(&x, p, sizeof x);
    if constexpr (std::is_integral_v<scalar_t>) {
      v.is_int = true;
      v.i = int64_t(x);
      v.d = double(x);
    } else {
      v.d = double(float(x));
      if constexpr (std::is_same_v<scalar_t, double>) v.d = x;
    }
  });
  return v;
}

Ref<Tensor> make(DType dt, Shape sizes, const std::vector<Value>& vals) {
  Ref<Tensor> t = Tensor::empty(sizes, dt, "test");
  EXPECT_EQ(size_t(t->numel()), vals.size());
  char* p = t->raw_data();
  for (size_t i = 0; i < vals.size(); ++i) store(dt, p + int64_t(i) * t->itemsize(), vals[i]);
  return t;
}

std::vector<Value> parse_values(DType dt, const char* text) {
  std::vector<Value> out;
  std::istringstream is(text);
  std::string tok;
  while (is >> tok) {
    Value v;
    if (ct::is_floating(dt)) {
      v.d = std::strtod(tok.c_str(), nullptr);
    } else {
      v.is_int = true;
      v.i = std::strtoll(tok.c_str(), nullptr, 10);
      v.d = double(v.i);
    }
    out.push_back(v);
  }
  return out;
}

void for_each_index(ct::IntList sizes, const std::function<void(const std::vector<int64_t>&)>& f) {
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  std::vector<int64_t> idx(sizes.size(), 0);
  while (true) {
    f(idx);
    int d = int(sizes.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < sizes[size_t(d)]) break;
      idx[size_t(d)] = 0;
    }
    if (d < 0) return;
  }
}

const char* elem(const Tensor& t, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t i = 0; i < idx.size(); ++i) off += idx[i] * t.stride(int(i));
  return t.raw_data() + off * t.itemsize();
}

// Every element in C order.
std::vector<Value> values_of(const Tensor& t) {
  std::vector<Value> out;
  // (A 0-dim tensor has one index: the empty one.)
  for_each_index(t.sizes(), [&](const std::vector<int64_t>& idx) { out.push_back(load(t.dtype(), elem(t, idx))); });
  return out;
}

std::string shape_str(ct::IntList s) { return ct::list_str(s); }

// ---- the reference -------------------------------------------------------------------------

enum class Op { Sum, Mean, Prod, Max, Min, ArgMax, ArgMin };
const char* op_name(Op op) {
  static const char* names[] = {"sum", "mean", "prod", "amax", "amin", "argmax", "argmin"};
  return names[int(op)];
}
Op op_from(const std::string& s) {
  for (int i = 0; i < 7; ++i) {
    if (s == op_name(Op(i))) return Op(i);
  }
  ADD_FAILURE() << "unknown op " << s;
  return Op::Sum;
}

Ref<Tensor> run(Op op, const Tensor& t, const std::vector<int64_t>& dims, bool all, bool keepdim) {
  switch (op) {
    case Op::Sum: return ct::sum(t, dims, keepdim);
    case Op::Mean: return ct::mean(t, dims, keepdim);
    case Op::Prod: return ct::prod(t, dims, keepdim);
    case Op::Max: return ct::amax(t, dims, keepdim);
    case Op::Min: return ct::amin(t, dims, keepdim);
    case Op::ArgMax: return ct::argmax(t, all ? std::nullopt : std::optional<int64_t>(dims.at(0)), keepdim);
    case Op::ArgMin: return ct::argmin(t, all ? std::nullopt : std::optional<int64_t>(dims.at(0)), keepdim);
  }
  return {};
}

// What an output element should be.
struct Expect {
  // integer results: exact (sum/prod of integers wrap modulo 2^64, then int64)
  uint64_t u = 0;
  // floating results: the exact-ish value and a scale for the tolerance
  long double x = 0;
  long double abs_sum = 0;
  int64_t count = 0;
  int64_t index = -1;  // arg ops
  bool any = false;
};

bool isnan_ld(long double v) { return v != v; }

// Reduces t over mask (all dims when mask is all true) in logical order.
std::vector<Expect> reference(Op op, const Tensor& t, const std::vector<bool>& mask) {
  const int nd = t.ndim();
  Shape keep;
  for (int i = 0; i < nd; ++i) keep.push_back(mask[size_t(i)] ? 1 : t.size(i));
  int64_t nout = 1;
  for (int64_t s : keep) nout *= s;
  std::vector<Expect> out(static_cast<size_t>(nout));
  const bool integer_acc = !ct::is_floating(t.dtype());
  for (auto& e : out) {
    if (op == Op::Prod) {
      e.u = 1;
      e.x = 1;
    }
  }
  // Flat index along the reduced dims, in logical order (for arg ops).
  auto visit = [&](const std::vector<int64_t>& idx) {
    int64_t o = 0, r = 0;
    for (int i = 0; i < nd; ++i) {
      o = o * keep[size_t(i)] + (mask[size_t(i)] ? 0 : idx[size_t(i)]);
      if (mask[size_t(i)]) r = r * t.size(i) + idx[size_t(i)];
    }
    Expect& e = out[size_t(o)];
    const Value v = load(t.dtype(), nd ? elem(t, idx) : t.raw_data());
    switch (op) {
      case Op::Sum:
      case Op::Mean:
        if (integer_acc) {
          e.u += uint64_t(v.i);
        } else {
          e.x += v.d;
          e.abs_sum += std::fabs(v.d);
        }
        break;
      case Op::Prod:
        if (integer_acc) {
          e.u *= uint64_t(v.i);
        } else {
          e.x *= v.d;
        }
        break;
      case Op::Max:
      case Op::Min:
      case Op::ArgMax:
      case Op::ArgMin: {
        const bool mx = op == Op::Max || op == Op::ArgMax;
        const long double x = integer_acc ? (long double)v.i : (long double)v.d;
        bool take;
        if (!e.any) {
          take = true;
        } else if (isnan_ld(e.x)) {
          take = false;
        } else if (isnan_ld(x)) {
          take = true;
        } else {
          take = mx ? x > e.x : x < e.x;
        }
        if (take) {
          e.x = x;
          e.u = uint64_t(v.i);
          e.index = r;
        }
        e.any = true;
        break;
      }
    }
    ++e.count;
  };
  if (nd == 0) {
    visit({});
  } else {
    for_each_index(t.sizes(), visit);
  }
  return out;
}

::testing::AssertionResult close_to(long double got, long double want, long double tol) {
  if (isnan_ld(want) || isnan_ld(got)) {
    if (isnan_ld(want) && isnan_ld(got)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << double(got) << ", want " << double(want);
  }
  if (std::isinf(double(want)) || std::isinf(double(got))) {
    if (got == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << double(got) << ", want " << double(want);
  }
  if (std::fabs(double(got - want)) <= double(tol)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << double(got) << ", want " << double(want) << " (tolerance "
                                       << double(tol) << ")";
}

// Relative precision of a floating dtype (unit roundoff).
long double eps_of(DType d) {
  switch (d) {
    case DType::Float16: return std::ldexp(1.0L, -11);
    case DType::BFloat16: return std::ldexp(1.0L, -8);
    case DType::Float32: return std::ldexp(1.0L, -24);
    default: return std::ldexp(1.0L, -53);
  }
}

DType expected_dtype(Op op, DType in) {
  switch (op) {
    case Op::Sum:
    case Op::Prod: return ct::is_floating(in) ? in : DType::Int64;
    case Op::ArgMax:
    case Op::ArgMin: return DType::Int64;
    default: return in;
  }
}

// Checks op(t, dims, keepdim) against the reference loop.
void check_op(Op op, const Tensor& t, const std::vector<int64_t>& dims, bool all, bool keepdim,
              const std::string& where) {
  SCOPED_TRACE(where + " op=" + op_name(op) + " dtype=" + ct::dtype_name(t.dtype()) + " sizes=" +
               shape_str(t.sizes()) + " strides=" + shape_str(t.strides()) + " dims=" + shape_str(dims) +
               (all ? " (all)" : "") + " keepdim=" + std::to_string(keepdim));
  const int nd = t.ndim();
  std::vector<bool> mask(size_t(nd), all);
  for (int64_t d : dims) {
    if (nd) mask[size_t(d < 0 ? d + nd : d)] = true;
  }
  Shape want_shape;
  for (int i = 0; i < nd; ++i) {
    if (!mask[size_t(i)]) {
      want_shape.push_back(t.size(i));
    } else if (keepdim) {
      want_shape.push_back(1);
    }
  }
  Ref<Tensor> r = run(op, t, dims, all, keepdim);
  ASSERT_EQ(shape_str(r->sizes()), shape_str(want_shape));
  ASSERT_TRUE(r->is_contiguous());
  ASSERT_EQ(r->dtype(), expected_dtype(op, t.dtype()));
  ASSERT_NE(r->storage(), t.storage());
  const std::vector<Expect> want = reference(op, t, mask);
  const std::vector<Value> got = values_of(*r);
  ASSERT_EQ(got.size(), want.size());
  const DType od = r->dtype();
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("output element " + std::to_string(i));
    const Expect& e = want[i];
    switch (op) {
      case Op::ArgMax:
      case Op::ArgMin:
        EXPECT_EQ(got[i].i, e.index);
        break;
      case Op::Max:
      case Op::Min:
        if (ct::is_floating(od)) {
          EXPECT_TRUE(close_to(got[i].d, e.x, 0));
        } else {
          EXPECT_EQ((long double)got[i].i, e.x);
        }
        break;
      case Op::Sum:
      case Op::Prod:
      case Op::Mean:
        if (!ct::is_floating(od)) {
          EXPECT_EQ(got[i].i, int64_t(e.u));
        } else if (op == Op::Prod) {
          // float prod: every test value is a power of two, so the product is exact unless it
          // over/underflows the dtype; allow the final rounding anyway.
          EXPECT_TRUE(close_to(got[i].d, e.x, std::fabs(e.x) * eps_of(od) * 2));
        } else {
          long double w = e.x, scale = e.abs_sum;
          if (op == Op::Mean) {
            w = e.count ? w / e.count : NAN;
            scale = e.count ? scale / e.count : 0;
          }
          // sum accumulates in float for float32/16/bfloat16 (pairwise: error ~ log N), then
          // rounds once to the dtype; mean rounds the sum, then the quotient.
          const long double acc_eps = od == DType::Float64 ? eps_of(DType::Float64) : eps_of(DType::Float32);
          const long double tol = 64 * acc_eps * scale + 2.5L * eps_of(od) * std::fabs(w) + 1e-30L;
          EXPECT_TRUE(close_to(got[i].d, w, tol));
        }
        break;
    }
  }
}

// ---- value generators ------------------------------------------------------------------------

// Values for sum/mean/amax/... : integers over the whole range of small dtypes (sums and
// products wrap in 64 bits), moderate ones for int32/int64, normal floats.
std::vector<Value> random_values(DType dt, int64_t n, std::mt19937_64& rng, bool special) {
  std::vector<Value> v(static_cast<size_t>(n));
  std::uniform_real_distribution<double> unif(-1, 1);
  for (auto& x : v) {
    if (ct::is_floating(dt)) {
      if (special) {
        // Small set with ties, signed zeros and infinities... and NaN now and then.
        const int k = int(rng() % 100);
        if (k == 0) {
          x.d = NAN;
        } else if (k == 1) {
          x.d = (rng() & 1) ? INFINITY : -INFINITY;
        } else {
          x.d = double(int(rng() % 7) - 3);
        }
      } else {
        x.d = unif(rng) * 100;
      }
      // Round to the dtype so that the reference sees the stored value.
      char buf[8];
      store(dt, buf, x);
      x = load(dt, buf);
    } else {
      x.is_int = true;
      switch (dt) {
        case DType::Bool: x.i = int64_t(rng() & 1); break;
        case DType::UInt8: x.i = int64_t(rng() % 256); break;
        case DType::Int8: x.i = int64_t(rng() % 256) - 128; break;
        case DType::Int16: x.i = int64_t(rng() % 65536) - 32768; break;
        case DType::Int32: x.i = int64_t(int32_t(uint32_t(rng()))); break;
        default: x.i = int64_t(rng()); break;  // int64: sums wrap
      }
      if (special) x.i = int64_t(rng() % 5) - 2 + (dt == DType::UInt8 || dt == DType::Bool ? 2 : 0);
      if (dt == DType::Bool) x.i = x.i != 0;
      x.d = double(x.i);
    }
  }
  return v;
}

// Values for float prod: mostly +-1, sometimes +-2 or +-0.5, so products are exact powers of
// two well inside float32's range.
std::vector<Value> prod_values(DType dt, int64_t n, std::mt19937_64& rng) {
  std::vector<Value> v(static_cast<size_t>(n));
  for (auto& x : v) {
    const int k = int(rng() % 40);
    x.d = k == 0 ? 2.0 : k == 1 ? 0.5 : 1.0;
    if (rng() & 1) x.d = -x.d;
    if (!ct::is_floating(dt)) {
      x.is_int = true;
      x.i = int64_t(rng() % 5) - 2;
      if (dt == DType::UInt8) x.i = int64_t(rng() % 4);
      if (dt == DType::Bool) x.i = int64_t(rng() & 1);
      x.d = double(x.i);
    }
  }
  return v;
}

// A layout of a logical shape: the tensor handed to the op, and its origin for messages.
struct Layout {
  std::string name;
  Ref<Tensor> t;
};

// Builds `sizes` in several layouts, every one holding `vals` in logical C order.
std::vector<Layout> layouts(DType dt, const Shape& sizes, const std::vector<Value>& vals) {
  std::vector<Layout> out;
  const int nd = int(sizes.size());
  out.push_back({"contiguous", make(dt, sizes, vals)});
  if (nd >= 2) {
    // Transposed: a contiguous tensor of the swapped shape, viewed back with swapped strides.
    Shape sw = sizes;
    std::swap(sw[size_t(nd - 1)], sw[size_t(nd - 2)]);
    std::vector<Value> tv(vals.size());
    const int64_t r = sizes[size_t(nd - 2)], c = sizes[size_t(nd - 1)];
    const int64_t mat = r * c;
    for (size_t i = 0; i < vals.size(); ++i) {
      const int64_t b = int64_t(i) / std::max<int64_t>(mat, 1), rc = int64_t(i) % std::max<int64_t>(mat, 1);
      const int64_t ii = rc / std::max<int64_t>(c, 1), jj = rc % std::max<int64_t>(c, 1);
      tv[size_t(b * mat + jj * r + ii)] = vals[i];
    }
    out.push_back({"transposed", ct::transpose(*make(dt, sw, tv), nd - 2, nd - 1)});
  }
  if (nd >= 1) {
    // Every second element along dim 0 of a tensor twice as long (odd ones are garbage).
    Shape big = sizes;
    big[0] *= 2;
    std::vector<Value> bv;
    const int64_t inner = sizes[0] ? int64_t(vals.size()) / sizes[0] : 0;
    Value junk;
    junk.is_int = !ct::is_floating(dt);
    junk.i = 1;
    junk.d = 12345;
    for (int64_t i = 0; i < sizes[0]; ++i) {
      for (int64_t j = 0; j < inner; ++j) bv.push_back(vals[size_t(i * inner + j)]);
      for (int64_t j = 0; j < inner; ++j) bv.push_back(junk);
    }
    out.push_back({"step-sliced", ct::slice(*make(dt, big, bv), 0, 0, big[0], 2)});
    // Reversed dims: permute a contiguous tensor of the reversed shape.
    if (nd >= 3) {
      Shape rev(sizes.rbegin(), sizes.rend());
      std::vector<Value> rv(vals.size());
      std::vector<int> perm;
      for (int i = nd - 1; i >= 0; --i) perm.push_back(i);
      Ref<Tensor> base = Tensor::empty(rev, dt, "test");
      Ref<Tensor> p = ct::permute(*base, perm);
      size_t k = 0;
      for_each_index(sizes, [&](const std::vector<int64_t>& idx) {
        store(dt, const_cast<char*>(elem(*p, idx)), vals[k++]);
      });
      out.push_back({"permuted", p});
    }
  }
  return out;
}

// ---- the randomised sweep --------------------------------------------------------------------

struct SweepCase {
  Shape sizes;
};

std::vector<std::vector<int64_t>> dim_sets(int nd) {
  std::vector<std::vector<int64_t>> s;
  s.push_back({});  // all
  for (int d = 0; d < nd; ++d) s.push_back({d});
  if (nd >= 1) s.push_back({-1});
  for (int a = 0; a < nd; ++a) {
    for (int b = a + 1; b < nd; ++b) s.push_back({b, a - nd});
  }
  if (nd >= 3) {
    std::vector<int64_t> every;
    for (int d = nd - 1; d >= 0; --d) every.push_back(d);
    s.push_back(every);
  }
  return s;
}

const DType kAllDTypes[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                            DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

void sweep(const Shape& sizes, DType dt, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  const auto general = random_values(dt, n, rng, false);
  const auto special = random_values(dt, n, rng, true);
  const auto pv = prod_values(dt, n, rng);
  const auto lg = layouts(dt, sizes, general), ls = layouts(dt, sizes, special), lp = layouts(dt, sizes, pv);
  const int nd = int(sizes.size());
  for (size_t li = 0; li < lg.size(); ++li) {
    for (const auto& dims : dim_sets(nd)) {
      const bool all = dims.empty();
      bool any_empty_reduced = false;
      for (int i = 0; i < nd; ++i) {
        bool red = all;
        for (int64_t d : dims) red = red || (d < 0 ? d + nd : d) == i;
        if (red && sizes[size_t(i)] == 0) any_empty_reduced = true;
      }
      for (bool keepdim : {false, true}) {
        check_op(Op::Sum, *lg[li].t, dims, all, keepdim, lg[li].name);
        if (ct::is_floating(dt)) check_op(Op::Mean, *lg[li].t, dims, all, keepdim, lg[li].name);
        if (dt != DType::Float16 && dt != DType::BFloat16) {
          check_op(Op::Prod, *lp[li].t, dims, all, keepdim, lp[li].name);
        }
        if (!any_empty_reduced && !(all && n == 0)) {
          check_op(Op::Max, *ls[li].t, dims, all, keepdim, ls[li].name);
          check_op(Op::Min, *lg[li].t, dims, all, keepdim, lg[li].name);
          if (dt != DType::Bool && dims.size() <= 1) {
            check_op(Op::ArgMax, *ls[li].t, dims, all, keepdim, ls[li].name);
            check_op(Op::ArgMin, *ls[li].t, dims, all, keepdim, ls[li].name);
          }
        }
      }
    }
  }
}

class ReduceSweep : public ::testing::TestWithParam<DType> {};

TEST_P(ReduceSweep, SmallShapesEveryLayoutAndDimSet) {
  const Shape shapes[] = {{}, {1}, {7}, {3, 4}, {1, 5}, {2, 3, 4}, {4, 1, 6}, {3, 0, 2}, {2, 3, 2, 5}};
  uint64_t seed = 1;
  for (const Shape& s : shapes) sweep(s, GetParam(), seed++);
}

TEST_P(ReduceSweep, LargerShapes) {
  // Long rows (INNER kernels with several blocks), short rows (OUTER), tiles wider than 64.
  const Shape shapes[] = {{9000}, {130, 70}, {4100, 3}, {5, 17, 33}};
  uint64_t seed = 100;
  for (const Shape& s : shapes) sweep(s, GetParam(), seed++);
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, ReduceSweep, ::testing::ValuesIn(kAllDTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(ct::dtype_name(info.param));
                         });

TEST(Reduce, ExpandedInputs) {
  // Stride-0 dims, reduced and kept.
  std::mt19937_64 rng(7);
  for (DType dt : {DType::Float32, DType::Int32, DType::Float64, DType::BFloat16}) {
    const auto vals = random_values(dt, 6, rng, false);
    Ref<Tensor> base = make(dt, {1, 6}, vals);
    Ref<Tensor> e = ct::expand(*base, Shape{5, 6});
    Ref<Tensor> u = ct::unsqueeze(*make(dt, {6}, vals), 1);
    Ref<Tensor> e2 = ct::expand(*u, Shape{6, 40});
    for (const Tensor* t : {e.get(), e2.get()}) {
      for (const auto& dims : dim_sets(2)) {
        for (bool keepdim : {false, true}) {
          check_op(Op::Sum, *t, dims, dims.empty(), keepdim, "expanded");
          check_op(Op::Max, *t, dims, dims.empty(), keepdim, "expanded");
          if (dims.size() <= 1) check_op(Op::ArgMin, *t, dims, dims.empty(), keepdim, "expanded");
        }
      }
    }
  }
}

TEST(Reduce, AsStridedOverlappingWindows) {
  // Windows that share elements (unfold-like), reduced in every direction.
  std::mt19937_64 rng(11);
  const auto vals = random_values(DType::Float32, 50, rng, false);
  Ref<Tensor> base = make(DType::Float32, {50}, vals);  // the windows reach element 49
  Ref<Tensor> w = ct::as_strided(*base, Shape{9, 7, 3}, Shape{4, 1, 5}, 1);
  for (const auto& dims : dim_sets(3)) {
    for (bool keepdim : {false, true}) {
      check_op(Op::Sum, *w, dims, dims.empty(), keepdim, "as_strided");
      check_op(Op::Min, *w, dims, dims.empty(), keepdim, "as_strided");
      if (dims.size() <= 1) check_op(Op::ArgMax, *w, dims, dims.empty(), keepdim, "as_strided");
    }
  }
}

// ---- accuracy, determinism -------------------------------------------------------------------

float sum_f32(const Tensor& t) { return *reinterpret_cast<const float*>(ct::sum(t, {}, false)->data()); }

TEST(Reduce, TenMillionOnesSumExactly) {
  Ref<Tensor> t = ct::full(Shape{10000000}, 1.0, DType::Float32);
  EXPECT_EQ(sum_f32(*t), 10000000.0f);
  // The same through a 2-D split and over dim 0 (OUTER) and dim 1 (INNER).
  Ref<Tensor> m = ct::view(*t, Shape{1000, 10000});
  const int64_t d0[] = {0}, d1[] = {1};
  Ref<Tensor> s0 = ct::sum(*m, d0, false), s1 = ct::sum(*m, d1, false);
  for (int64_t i = 0; i < 10000; ++i) ASSERT_EQ(reinterpret_cast<const float*>(s0->data())[i], 1000.0f);
  for (int64_t i = 0; i < 1000; ++i) ASSERT_EQ(reinterpret_cast<const float*>(s1->data())[i], 10000.0f);
}

TEST(Reduce, Float32SumIsPairwiseAccurate) {
  // A naive float loop over 10^7 x 0.1f drifts by ~9%; the pairwise tree stays within a few
  // ulps of the exact sum.
  Ref<Tensor> t = ct::full(Shape{10000000}, 0.1, DType::Float32);
  const double exact = 10000000.0 * double(0.1f);
  EXPECT_NEAR(sum_f32(*t), exact, exact * 2e-6);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(3000000);
  double ref = 0;
  for (float& x : v) {
    x = u(rng);
    ref += x;
  }
  Ref<Tensor> r = ct::from_data(v.data(), Shape{3000000}, DType::Float32);
  EXPECT_NEAR(sum_f32(*r), ref, ref * 1e-6);
}

// Over dim 0 of a contiguous (rows, width) tensor, the outer kernel keeps each column's
// accumulator in a vector lane: within one leaf (at most 64 rows) a column is the in-order
// float sum of its rows, whatever the width (full vectors of 8 lanes, single vectors, a
// scalar tail), and amax/amin propagate a NaN in any column.
TEST(Reduce, OuterOverNarrowAndWideTilesIsInOrderPerColumn) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int64_t d0[] = {0};
  for (int64_t rows : {1, 2, 7, 33, 64}) {
    for (int64_t width : {2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 100, 130}) {
      std::vector<float> v(size_t(rows * width));
      for (float& x : v) x = u(rng);
      const int64_t nan_col = (rows * 7 + width) % width;
      Ref<Tensor> t = ct::from_data(v.data(), Shape{rows, width}, DType::Float32);
      Ref<Tensor> s = ct::sum(*t, d0, false);
      std::vector<float> want(size_t(width), 0.0f);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < width; ++j) want[size_t(j)] += v[size_t(r * width + j)];
      v[size_t((rows - 1) * width + nan_col)] = std::numeric_limits<float>::quiet_NaN();
      Ref<Tensor> tn = ct::from_data(v.data(), Shape{rows, width}, DType::Float32);
      Ref<Tensor> mx = ct::amax(*tn, d0, false), mn = ct::amin(*tn, d0, false);
      const float* sp = reinterpret_cast<const float*>(s->data());
      const float* xp = reinterpret_cast<const float*>(mx->data());
      const float* np = reinterpret_cast<const float*>(mn->data());
      for (int64_t j = 0; j < width; ++j) {
        float hi = -INFINITY, lo = INFINITY;
        for (int64_t r = 0; r < rows; ++r) {
          hi = std::max(hi, v[size_t(r * width + j)]);
          lo = std::min(lo, v[size_t(r * width + j)]);
        }
        ASSERT_EQ(sp[j], want[size_t(j)]) << rows << " x " << width << ", column " << j;
        if (j == nan_col) {
          ASSERT_TRUE(std::isnan(xp[j]) && std::isnan(np[j])) << rows << " x " << width << ", column " << j;
        } else {
          ASSERT_EQ(xp[j], hi) << rows << " x " << width << ", column " << j;
          ASSERT_EQ(np[j], lo) << rows << " x " << width << ", column " << j;
        }
      }
    }
  }
}

TEST(Reduce, Float16SumAccumulatesInFloat) {
  // 5000 x 1.0 in float16: a float16 accumulator would stop at 2048.
  Ref<Tensor> t = ct::full(Shape{5000}, 1.0, DType::Float16);
  Ref<Tensor> s = ct::sum(*t, {}, false);
  EXPECT_EQ(s->dtype(), DType::Float16);
  EXPECT_EQ(float(*reinterpret_cast<const ct::Half*>(s->data())), 5000.0f);
  Ref<Tensor> b = ct::full(Shape{5000}, 1.0, DType::BFloat16);
  EXPECT_EQ(float(*reinterpret_cast<const ct::BFloat16*>(ct::sum(*b, {}, false)->data())), 4992.0f);  // torch
}

std::vector<char> bytes_of(const Tensor& t) {
  std::vector<char> b(size_t(t.numel() * t.itemsize()));
  if (!b.empty()) std::memcpy(b.data(), t.data(), b.size());
  return b;
}

class ThreadRestore : public ::testing::Test {
 protected:
  void TearDown() override { ct::set_num_threads(0); }
};

TEST_F(ThreadRestore, ResultsDoNotDependOnTheThreadCount) {
  std::mt19937_64 rng(5);
  struct Case {
    Shape sizes;
    std::vector<int64_t> dims;
  };
  // Few outputs with long reductions (threads split the tree), many outputs (threads split
  // the outputs), OUTER tiles, and a transposed view.
  const Case cases[] = {{{300000}, {}},      {{4, 200000}, {1}},  {{100000, 4}, {0}},
                        {{600, 500}, {0}},    {{600, 500}, {1}},   {{60, 50, 40}, {0, 2}}};
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16, DType::Int32}) {
    for (const Case& c : cases) {
      int64_t n = 1;
      for (int64_t s : c.sizes) n *= s;
      std::vector<Value> vals = random_values(dt, n, rng, false);
      Ref<Tensor> t = make(dt, c.sizes, vals);
      std::vector<Ref<Tensor>> inputs{t};
      if (c.sizes.size() >= 2) inputs.push_back(ct::transpose(*t, 0, int(c.sizes.size()) - 1));
      for (const auto& in : inputs) {
        std::vector<std::vector<char>> results[4];
        for (int threads : {1, 2, 3, 4}) {
          ct::set_num_threads(threads);
          auto& r = results[threads - 1];
          r.push_back(bytes_of(*ct::sum(*in, c.dims, false)));
          if (ct::is_floating(dt)) r.push_back(bytes_of(*ct::mean(*in, c.dims, true)));
          r.push_back(bytes_of(*ct::amax(*in, c.dims, false)));
          if (dt != DType::Float16) r.push_back(bytes_of(*ct::prod(*in, c.dims, false)));
          if (c.dims.size() <= 1) {
            std::optional<int64_t> d;
            if (!c.dims.empty()) d = c.dims[0];
            r.push_back(bytes_of(*ct::argmax(*in, d, false)));
          }
        }
        for (int threads = 2; threads <= 4; ++threads) {
          EXPECT_TRUE(results[threads - 1] == results[0])
              << ct::dtype_name(dt) << " " << shape_str(in->sizes()) << " strides " << shape_str(in->strides())
              << " dims " << shape_str(c.dims) << ": " << threads << " threads differ from 1";
        }
      }
    }
  }
}

TEST(Reduce, ResultIsANewContiguousTensor) {
  Ref<Tensor> t = ct::full(Shape{3, 4}, 2.0, DType::Float32);
  Ref<Tensor> tt = ct::transpose(*t, 0, 1);
  const int64_t d0[] = {0};
  for (const Ref<Tensor>& r : {ct::sum(*tt, d0, true), ct::amax(*tt, {}, false), ct::argmax(*tt, 1, false)}) {
    EXPECT_TRUE(r->is_contiguous());
    EXPECT_EQ(r->offset(), 0);
    EXPECT_FALSE(r->is_view());
    EXPECT_NE(r->storage(), t->storage());
  }
  EXPECT_EQ(t->version(), 0);  // inputs are only read
}

// ---- generated from PyTorch 2.13 ----------------------------------------------------------------

struct DtypeCase {
  const char* op;
  int in;
  int out;  // -1: error
  const char* kind;
  const char* message;
};

struct ErrorCase {
  const char* op;
  Shape sizes;
  int dtype;
  bool all;
  std::vector<int64_t> dims;
  bool keepdim;
  const char* kind;
  const char* message;
};

struct ValueCase {
  const char* op;
  Shape sizes;
  int dtype;
  const char* values;
  bool all;
  std::vector<int64_t> dims;
  bool keepdim;
  Shape out_sizes;
  int out_dtype;
  const char* expected;
};

const DtypeCase kDtypeCases[] = {
    // BEGIN GENERATED reduce_dtype_cases (tests/tools/gen_reduce_cases.py)
    {"sum", 0, 5, nullptr, nullptr},
    {"sum", 1, 5, nullptr, nullptr},
    {"sum", 2, 5, nullptr, nullptr},
    {"sum", 3, 5, nullptr, nullptr},
    {"sum", 4, 5, nullptr, nullptr},
    {"sum", 5, 5, nullptr, nullptr},
    {"sum", 6, 6, nullptr, nullptr},
    {"sum", 7, 7, nullptr, nullptr},
    {"sum", 8, 8, nullptr, nullptr},
    {"sum", 9, 9, nullptr, nullptr},
    {"mean", 0, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Bool"},
    {"mean", 1, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Byte"},
    {"mean", 2, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Char"},
    {"mean", 3, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Short"},
    {"mean", 4, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int"},
    {"mean", 5, -1, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"},
    {"mean", 6, 6, nullptr, nullptr},
    {"mean", 7, 7, nullptr, nullptr},
    {"mean", 8, 8, nullptr, nullptr},
    {"mean", 9, 9, nullptr, nullptr},
    {"prod", 0, 5, nullptr, nullptr},
    {"prod", 1, 5, nullptr, nullptr},
    {"prod", 2, 5, nullptr, nullptr},
    {"prod", 3, 5, nullptr, nullptr},
    {"prod", 4, 5, nullptr, nullptr},
    {"prod", 5, 5, nullptr, nullptr},
    {"prod", 6, 6, nullptr, nullptr},
    {"prod", 7, 7, nullptr, nullptr},
    {"prod", 8, 8, nullptr, nullptr},
    {"prod", 9, 9, nullptr, nullptr},
    {"amax", 0, 0, nullptr, nullptr},
    {"amax", 1, 1, nullptr, nullptr},
    {"amax", 2, 2, nullptr, nullptr},
    {"amax", 3, 3, nullptr, nullptr},
    {"amax", 4, 4, nullptr, nullptr},
    {"amax", 5, 5, nullptr, nullptr},
    {"amax", 6, 6, nullptr, nullptr},
    {"amax", 7, 7, nullptr, nullptr},
    {"amax", 8, 8, nullptr, nullptr},
    {"amax", 9, 9, nullptr, nullptr},
    {"amin", 0, 0, nullptr, nullptr},
    {"amin", 1, 1, nullptr, nullptr},
    {"amin", 2, 2, nullptr, nullptr},
    {"amin", 3, 3, nullptr, nullptr},
    {"amin", 4, 4, nullptr, nullptr},
    {"amin", 5, 5, nullptr, nullptr},
    {"amin", 6, 6, nullptr, nullptr},
    {"amin", 7, 7, nullptr, nullptr},
    {"amin", 8, 8, nullptr, nullptr},
    {"amin", 9, 9, nullptr, nullptr},
    {"argmax", 0, -1, "DType", "argmax(): does not support bool input"},
    {"argmax", 1, 5, nullptr, nullptr},
    {"argmax", 2, 5, nullptr, nullptr},
    {"argmax", 3, 5, nullptr, nullptr},
    {"argmax", 4, 5, nullptr, nullptr},
    {"argmax", 5, 5, nullptr, nullptr},
    {"argmax", 6, 5, nullptr, nullptr},
    {"argmax", 7, 5, nullptr, nullptr},
    {"argmax", 8, 5, nullptr, nullptr},
    {"argmax", 9, 5, nullptr, nullptr},
    {"argmin", 0, -1, "DType", "argmin(): does not support bool input"},
    {"argmin", 1, 5, nullptr, nullptr},
    {"argmin", 2, 5, nullptr, nullptr},
    {"argmin", 3, 5, nullptr, nullptr},
    {"argmin", 4, 5, nullptr, nullptr},
    {"argmin", 5, 5, nullptr, nullptr},
    {"argmin", 6, 5, nullptr, nullptr},
    {"argmin", 7, 5, nullptr, nullptr},
    {"argmin", 8, 5, nullptr, nullptr},
    {"argmin", 9, 5, nullptr, nullptr},
    // END GENERATED reduce_dtype_cases
};

const ErrorCase kErrorCases[] = {
    // BEGIN GENERATED reduce_error_cases (tests/tools/gen_reduce_cases.py)
    {"sum", {2, 3}, 8, false, {0, 0}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {1, -1}, false, "InvalidArgument", "dim 1 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {0, -2}, true, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"sum", {2, 3}, 8, false, {-3}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
    {"sum", {}, 8, false, {0, -1}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {}, 8, false, {1}, false, "Index", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"mean", {2, 3}, 4, false, {0, 0}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int"},
    {"mean", {2, 3}, 5, false, {5}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"},
    {"mean", {0, 3}, 1, false, {0}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Byte"},
    {"mean", {2, 3}, 0, true, {}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Bool"},
    {"mean", {2, 3}, 8, false, {0, 0}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"amax", {0, 3}, 8, true, {}, false, "Shape", "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
    {"amax", {0, 3}, 8, false, {0}, false, "Index", "amax(): Expected reduction dim 0 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {-2}, true, "Index", "amax(): Expected reduction dim -2 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {0, 0}, false, "Index", "amax(): Expected reduction dim 0 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {5}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
    {"amin", {3, 0, 0}, 4, false, {2, 1}, false, "Index", "amin(): Expected reduction dim 2 to have non-zero size."},
    {"amin", {3, 0, 0}, 4, false, {1, 2}, false, "Index", "amin(): Expected reduction dim 1 to have non-zero size."},
    {"amin", {0}, 9, true, {}, true, "Shape", "amin(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
    {"amax", {2, 3}, 8, false, {1, 1}, false, "InvalidArgument", "dim 1 appears multiple times in the list of dims"},
    {"prod", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"argmax", {0, 3}, 8, true, {}, false, "Index", "argmax(): Expected reduction dim to be specified for input.numel() == 0."},
    {"argmax", {0, 3}, 8, false, {0}, false, "Index", "argmax(): Expected reduction dim 0 to have non-zero size."},
    {"argmin", {0, 3}, 8, false, {-2}, true, "Index", "argmin(): Expected reduction dim 0 to have non-zero size."},
    {"argmax", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"argmin", {}, 8, false, {1}, false, "Index", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"argmax", {2, 3}, 0, false, {0}, false, "DType", "argmax(): does not support bool input"},
    {"argmin", {}, 0, true, {}, false, "DType", "argmin(): does not support bool input"},
    {"argmax", {0, 3}, 0, false, {0}, false, "DType", "argmax(): does not support bool input"},
    {"argmax", {0, 3}, 0, false, {5}, false, "DType", "argmax(): does not support bool input"},
    // END GENERATED reduce_error_cases
};

const ValueCase kValueCases[] = {
    // BEGIN GENERATED reduce_value_cases (tests/tools/gen_reduce_cases.py)
    {"sum", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 8, "nan"},
    {"sum", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 8, "nan"},
    {"sum", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 8, "nan"},
    {"sum", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 8, "nan"},
    {"sum", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 8, "nan"},
    {"sum", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 8, "nan"},
    {"mean", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 8, "nan"},
    {"prod", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 8, "nan"},
    {"amax", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 8, "nan"},
    {"amin", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 8, "nan"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 5, "1"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 5, "1"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 5, "1"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 5, "1"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 5, "1"},
    {"argmax", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", true, {}, false, {}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", true, {}, true, {1}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", false, {0}, false, {}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", false, {0}, true, {1}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, false, {}, 5, "1"},
    {"argmin", {4}, 8, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 5, "1"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 6, "nan"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 6, "nan"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 6, "nan"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 6, "nan"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 6, "nan"},
    {"sum", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 6, "nan"},
    {"mean", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 6, "nan"},
    {"prod", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 6, "nan"},
    {"amax", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 6, "nan"},
    {"amin", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 6, "nan"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 5, "1"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 5, "1"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 5, "1"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 5, "1"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 5, "1"},
    {"argmax", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", true, {}, false, {}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", true, {}, true, {1}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", false, {0}, false, {}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", false, {0}, true, {1}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, false, {}, 5, "1"},
    {"argmin", {4}, 6, "1.0 nan 3.0 nan", false, {-1}, true, {1}, 5, "1"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 7, "nan"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 7, "nan"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 7, "nan"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 7, "nan"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 7, "nan"},
    {"sum", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 7, "nan"},
    {"mean", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 7, "nan"},
    {"prod", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 7, "nan"},
    {"amax", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 7, "nan"},
    {"amin", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 7, "nan"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 5, "2"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 5, "2"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 5, "2"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 5, "2"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 5, "2"},
    {"argmax", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", true, {}, false, {}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", true, {}, true, {1}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, false, {}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", false, {0}, true, {1}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, false, {}, 5, "2"},
    {"argmin", {4}, 7, "-1.0 -inf nan 2.0", false, {-1}, true, {1}, 5, "2"},
    {"sum", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 9, "nan"},
    {"sum", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 9, "nan"},
    {"sum", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 9, "nan"},
    {"sum", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 9, "nan"},
    {"sum", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 9, "nan"},
    {"sum", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 9, "nan"},
    {"mean", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 9, "nan"},
    {"prod", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 9, "inf"},
    {"prod", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 9, "inf"},
    {"prod", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 9, "inf"},
    {"prod", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 9, "inf"},
    {"prod", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 9, "inf"},
    {"prod", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 9, "inf"},
    {"amax", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 9, "inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 9, "-inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 9, "-inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 9, "-inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 9, "-inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 9, "-inf"},
    {"amin", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 9, "-inf"},
    {"argmax", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 5, "2"},
    {"argmax", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 5, "2"},
    {"argmax", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 5, "2"},
    {"argmax", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 5, "2"},
    {"argmax", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 5, "2"},
    {"argmax", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 5, "2"},
    {"argmin", {4}, 9, "-inf -inf inf inf", true, {}, false, {}, 5, "0"},
    {"argmin", {4}, 9, "-inf -inf inf inf", true, {}, true, {1}, 5, "0"},
    {"argmin", {4}, 9, "-inf -inf inf inf", false, {0}, false, {}, 5, "0"},
    {"argmin", {4}, 9, "-inf -inf inf inf", false, {0}, true, {1}, 5, "0"},
    {"argmin", {4}, 9, "-inf -inf inf inf", false, {-1}, false, {}, 5, "0"},
    {"argmin", {4}, 9, "-inf -inf inf inf", false, {-1}, true, {1}, 5, "0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 8, "9.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 8, "9.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 8, "4.0 2.0 3.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 8, "4.0 2.0 3.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 8, "7.0 2.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 8, "7.0 2.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, false, {}, 8, "9.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, true, {1, 1}, 8, "9.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 8, "7.0 2.0"},
    {"sum", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 8, "7.0 2.0"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 8, "1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 8, "1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 8, "2.0 1.0 1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 8, "2.0 1.0 1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 8, "2.3333332538604736 0.6666666865348816"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 8, "2.3333332538604736 0.6666666865348816"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, false, {}, 8, "1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, true, {1, 1}, 8, "1.5"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 8, "2.3333332538604736 0.6666666865348816"},
    {"mean", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 8, "2.3333332538604736 0.6666666865348816"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 8, "0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 8, "0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 8, "3.0 1.0 0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 8, "3.0 1.0 0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 8, "9.0 0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 8, "9.0 0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 8, "9.0 0.0"},
    {"prod", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 8, "9.0 0.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 8, "3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 8, "3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 8, "3.0 1.0 3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 8, "3.0 1.0 3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 8, "3.0 1.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 8, "3.0 1.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, false, {}, 8, "3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, true, {1, 1}, 8, "3.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 8, "3.0 1.0"},
    {"amax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 8, "3.0 1.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 8, "0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 8, "0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 8, "1.0 1.0 0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 8, "1.0 1.0 0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 8, "1.0 0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 8, "1.0 0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, false, {}, 8, "0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0, 1}, true, {1, 1}, 8, "0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 8, "1.0 0.0"},
    {"amin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 8, "1.0 0.0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 5, "0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 5, "0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 5, "0 0 0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 5, "0 0 0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 5, "0 0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 5, "0 0"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, false, {}, 5, "5"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", true, {}, true, {1, 1}, 5, "5"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, false, {3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {0}, true, {1, 3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {-1}, true, {2, 1}, 5, "1 2"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 8, "3.0 1.0 3.0 1.0 1.0 0.0", false, {1}, true, {2, 1}, 5, "1 2"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 9, "nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 9, "nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 9, "nan nan 1.0"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 9, "nan nan 1.0"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 9, "nan nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 9, "nan nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, false, {}, 9, "nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, true, {1, 1}, 9, "nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 9, "nan nan"},
    {"sum", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 9, "nan nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 9, "nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 9, "nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 9, "nan nan 0.5"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 9, "nan nan 0.5"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 9, "nan nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 9, "nan nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, false, {}, 9, "nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, true, {1, 1}, 9, "nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 9, "nan nan"},
    {"mean", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 9, "nan nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 9, "nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 9, "nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 9, "nan nan -2.0"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 9, "nan nan -2.0"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 9, "nan nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 9, "nan nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 9, "nan nan"},
    {"prod", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 9, "nan nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 9, "nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 9, "nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 9, "nan nan 2.0"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 9, "nan nan 2.0"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 9, "nan nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 9, "nan nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, false, {}, 9, "nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, true, {1, 1}, 9, "nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 9, "nan nan"},
    {"amax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 9, "nan nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 9, "nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 9, "nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 9, "nan nan -1.0"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 9, "nan nan -1.0"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 9, "nan nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 9, "nan nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, false, {}, 9, "nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0, 1}, true, {1, 1}, 9, "nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 9, "nan nan"},
    {"amin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 9, "nan nan"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 5, "0"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 5, "0"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 5, "0 1 0"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 5, "0 1 0"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 5, "0 1"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 5, "0 1"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 5, "0 1"},
    {"argmax", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 5, "0 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, false, {}, 5, "0"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", true, {}, true, {1, 1}, 5, "0"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, false, {3}, 5, "0 1 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {0}, true, {1, 3}, 5, "0 1 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, false, {2}, 5, "0 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {-1}, true, {2, 1}, 5, "0 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, false, {2}, 5, "0 1"},
    {"argmin", {2, 3}, 9, "nan 1.0 2.0 5.0 nan -1.0", false, {1}, true, {2, 1}, 5, "0 1"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 5, "9"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 5, "9"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 5, "4 2 3"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 5, "4 2 3"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 5, "7 2"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 5, "7 2"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, false, {}, 5, "9"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, true, {1, 1}, 5, "9"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 5, "7 2"},
    {"sum", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 5, "7 2"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 5, "0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 5, "0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 5, "3 1 0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 5, "3 1 0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 5, "9 0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 5, "9 0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 5, "9 0"},
    {"prod", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 5, "9 0"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 4, "3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 4, "3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 4, "3 1 3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 4, "3 1 3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 4, "3 1"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 4, "3 1"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, false, {}, 4, "3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, true, {1, 1}, 4, "3"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 4, "3 1"},
    {"amax", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 4, "3 1"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 4, "0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 4, "0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 4, "1 1 0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 4, "1 1 0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 4, "1 0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 4, "1 0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, false, {}, 4, "0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {0, 1}, true, {1, 1}, 4, "0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 4, "1 0"},
    {"amin", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 4, "1 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 5, "0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 5, "0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 5, "0 0 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 5, "0 0 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 5, "0 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 5, "0 0"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", true, {}, false, {}, 5, "5"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", true, {}, true, {1, 1}, 5, "5"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, false, {3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {0}, true, {1, 3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {-1}, true, {2, 1}, 5, "1 2"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 4, "3 1 3 1 1 0", false, {1}, true, {2, 1}, 5, "1 2"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 5, "911"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 5, "911"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 5, "455 200 256"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 5, "455 200 256"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 5, "510 401"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 5, "510 401"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, false, {}, 5, "911"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, true, {1, 1}, 5, "911"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 5, "510 401"},
    {"sum", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 5, "510 401"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 5, "0"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 5, "0"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 5, "51000 0 255"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 5, "51000 0 255"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 5, "0 40000"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 5, "0 40000"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 5, "0 40000"},
    {"prod", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 5, "0 40000"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 1, "255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 1, "255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 1, "255 200 255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 1, "255 200 255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 1, "255 200"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 1, "255 200"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, false, {}, 1, "255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, true, {1, 1}, 1, "255"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 1, "255 200"},
    {"amax", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 1, "255 200"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 1, "0"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 1, "0"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 1, "200 0 1"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 1, "200 0 1"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 1, "0 1"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 1, "0 1"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, false, {}, 1, "0"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {0, 1}, true, {1, 1}, 1, "0"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 1, "0 1"},
    {"amin", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 1, "0 1"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 5, "0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 5, "0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 5, "0 1 0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 5, "0 1 0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 5, "0 0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 5, "0 0"},
    {"argmax", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 5, "0 0"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", true, {}, false, {}, 5, "1"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", true, {}, true, {1, 1}, 5, "1"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, false, {3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {0}, true, {1, 3}, 5, "1 0 1"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {-1}, true, {2, 1}, 5, "1 2"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, false, {2}, 5, "1 2"},
    {"argmin", {2, 3}, 1, "255 0 255 200 200 1", false, {1}, true, {2, 1}, 5, "1 2"},
    {"sum", {3}, 2, "100 100 100", true, {}, false, {}, 5, "300"},
    {"sum", {3}, 2, "100 100 100", true, {}, true, {1}, 5, "300"},
    {"sum", {3}, 2, "100 100 100", false, {0}, false, {}, 5, "300"},
    {"sum", {3}, 2, "100 100 100", false, {0}, true, {1}, 5, "300"},
    {"sum", {3}, 2, "100 100 100", false, {-1}, false, {}, 5, "300"},
    {"sum", {3}, 2, "100 100 100", false, {-1}, true, {1}, 5, "300"},
    {"prod", {3}, 2, "100 100 100", true, {}, false, {}, 5, "1000000"},
    {"prod", {3}, 2, "100 100 100", true, {}, true, {1}, 5, "1000000"},
    {"prod", {3}, 2, "100 100 100", false, {0}, false, {}, 5, "1000000"},
    {"prod", {3}, 2, "100 100 100", false, {0}, true, {1}, 5, "1000000"},
    {"prod", {3}, 2, "100 100 100", false, {-1}, false, {}, 5, "1000000"},
    {"prod", {3}, 2, "100 100 100", false, {-1}, true, {1}, 5, "1000000"},
    {"amax", {3}, 2, "100 100 100", true, {}, false, {}, 2, "100"},
    {"amax", {3}, 2, "100 100 100", true, {}, true, {1}, 2, "100"},
    {"amax", {3}, 2, "100 100 100", false, {0}, false, {}, 2, "100"},
    {"amax", {3}, 2, "100 100 100", false, {0}, true, {1}, 2, "100"},
    {"amax", {3}, 2, "100 100 100", false, {-1}, false, {}, 2, "100"},
    {"amax", {3}, 2, "100 100 100", false, {-1}, true, {1}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", true, {}, false, {}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", true, {}, true, {1}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", false, {0}, false, {}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", false, {0}, true, {1}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", false, {-1}, false, {}, 2, "100"},
    {"amin", {3}, 2, "100 100 100", false, {-1}, true, {1}, 2, "100"},
    {"argmax", {3}, 2, "100 100 100", true, {}, false, {}, 5, "0"},
    {"argmax", {3}, 2, "100 100 100", true, {}, true, {1}, 5, "0"},
    {"argmax", {3}, 2, "100 100 100", false, {0}, false, {}, 5, "0"},
    {"argmax", {3}, 2, "100 100 100", false, {0}, true, {1}, 5, "0"},
    {"argmax", {3}, 2, "100 100 100", false, {-1}, false, {}, 5, "0"},
    {"argmax", {3}, 2, "100 100 100", false, {-1}, true, {1}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", true, {}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", true, {}, true, {1}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", false, {0}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", false, {0}, true, {1}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", false, {-1}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "100 100 100", false, {-1}, true, {1}, 5, "0"},
    {"sum", {3}, 2, "-128 127 -128", true, {}, false, {}, 5, "-129"},
    {"sum", {3}, 2, "-128 127 -128", true, {}, true, {1}, 5, "-129"},
    {"sum", {3}, 2, "-128 127 -128", false, {0}, false, {}, 5, "-129"},
    {"sum", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 5, "-129"},
    {"sum", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 5, "-129"},
    {"sum", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 5, "-129"},
    {"prod", {3}, 2, "-128 127 -128", true, {}, false, {}, 5, "2080768"},
    {"prod", {3}, 2, "-128 127 -128", true, {}, true, {1}, 5, "2080768"},
    {"prod", {3}, 2, "-128 127 -128", false, {0}, false, {}, 5, "2080768"},
    {"prod", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 5, "2080768"},
    {"prod", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 5, "2080768"},
    {"prod", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 5, "2080768"},
    {"amax", {3}, 2, "-128 127 -128", true, {}, false, {}, 2, "127"},
    {"amax", {3}, 2, "-128 127 -128", true, {}, true, {1}, 2, "127"},
    {"amax", {3}, 2, "-128 127 -128", false, {0}, false, {}, 2, "127"},
    {"amax", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 2, "127"},
    {"amax", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 2, "127"},
    {"amax", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 2, "127"},
    {"amin", {3}, 2, "-128 127 -128", true, {}, false, {}, 2, "-128"},
    {"amin", {3}, 2, "-128 127 -128", true, {}, true, {1}, 2, "-128"},
    {"amin", {3}, 2, "-128 127 -128", false, {0}, false, {}, 2, "-128"},
    {"amin", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 2, "-128"},
    {"amin", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 2, "-128"},
    {"amin", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 2, "-128"},
    {"argmax", {3}, 2, "-128 127 -128", true, {}, false, {}, 5, "1"},
    {"argmax", {3}, 2, "-128 127 -128", true, {}, true, {1}, 5, "1"},
    {"argmax", {3}, 2, "-128 127 -128", false, {0}, false, {}, 5, "1"},
    {"argmax", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 5, "1"},
    {"argmax", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 5, "1"},
    {"argmax", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 5, "1"},
    {"argmin", {3}, 2, "-128 127 -128", true, {}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "-128 127 -128", true, {}, true, {1}, 5, "0"},
    {"argmin", {3}, 2, "-128 127 -128", false, {0}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "-128 127 -128", false, {0}, true, {1}, 5, "0"},
    {"argmin", {3}, 2, "-128 127 -128", false, {-1}, false, {}, 5, "0"},
    {"argmin", {3}, 2, "-128 127 -128", false, {-1}, true, {1}, 5, "0"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "-4611686018427387904"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "-4611686018427387904"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "-4611686018427387904"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "-4611686018427387904"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "-4611686018427387904"},
    {"sum", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "-4611686018427387904"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "0"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "0"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "0"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "0"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "0"},
    {"prod", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "0"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "4611686018427387904"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "4611686018427387904"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "4611686018427387904"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "4611686018427387904"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "4611686018427387904"},
    {"amax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "4611686018427387904"},
    {"amin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "4611686018427387904"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "0"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "0"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "0"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "0"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "0"},
    {"argmax", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, false, {}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", true, {}, true, {1}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, false, {}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {0}, true, {1}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, false, {}, 5, "0"},
    {"argmin", {3}, 5, "4611686018427387904 4611686018427387904 4611686018427387904", false, {-1}, true, {1}, 5, "0"},
    {"sum", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "2199023255552"},
    {"sum", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "2199023255552"},
    {"sum", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "2199023255552"},
    {"sum", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "2199023255552"},
    {"sum", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "2199023255552"},
    {"sum", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "2199023255552"},
    {"prod", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "0"},
    {"prod", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "0"},
    {"prod", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "0"},
    {"prod", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "0"},
    {"prod", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "0"},
    {"prod", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "0"},
    {"amax", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "1099511627776"},
    {"amax", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "1099511627776"},
    {"amax", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "1099511627776"},
    {"amax", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "1099511627776"},
    {"amax", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "1099511627776"},
    {"amax", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "1099511627776"},
    {"amin", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "1099511627776"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "0"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "0"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "0"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "0"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "0"},
    {"argmax", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", true, {}, false, {}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", true, {}, true, {1}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", false, {0}, false, {}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", false, {0}, true, {1}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", false, {-1}, false, {}, 5, "0"},
    {"argmin", {2}, 5, "1099511627776 1099511627776", false, {-1}, true, {1}, 5, "0"},
    {"sum", {2, 2}, 0, "1 0 1 1", true, {}, false, {}, 5, "3"},
    {"sum", {2, 2}, 0, "1 0 1 1", true, {}, true, {1, 1}, 5, "3"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {0}, false, {2}, 5, "2 1"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {0}, true, {1, 2}, 5, "2 1"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {-1}, false, {2}, 5, "1 2"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {-1}, true, {2, 1}, 5, "1 2"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {0, 1}, false, {}, 5, "3"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {0, 1}, true, {1, 1}, 5, "3"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {1}, false, {2}, 5, "1 2"},
    {"sum", {2, 2}, 0, "1 0 1 1", false, {1}, true, {2, 1}, 5, "1 2"},
    {"prod", {2, 2}, 0, "1 0 1 1", true, {}, false, {}, 5, "0"},
    {"prod", {2, 2}, 0, "1 0 1 1", true, {}, true, {1, 1}, 5, "0"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {0}, false, {2}, 5, "1 0"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {0}, true, {1, 2}, 5, "1 0"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {-1}, false, {2}, 5, "0 1"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {-1}, true, {2, 1}, 5, "0 1"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {1}, false, {2}, 5, "0 1"},
    {"prod", {2, 2}, 0, "1 0 1 1", false, {1}, true, {2, 1}, 5, "0 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", true, {}, false, {}, 0, "1"},
    {"amax", {2, 2}, 0, "1 0 1 1", true, {}, true, {1, 1}, 0, "1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {0}, false, {2}, 0, "1 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {0}, true, {1, 2}, 0, "1 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {-1}, false, {2}, 0, "1 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {-1}, true, {2, 1}, 0, "1 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {0, 1}, false, {}, 0, "1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {0, 1}, true, {1, 1}, 0, "1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {1}, false, {2}, 0, "1 1"},
    {"amax", {2, 2}, 0, "1 0 1 1", false, {1}, true, {2, 1}, 0, "1 1"},
    {"amin", {2, 2}, 0, "1 0 1 1", true, {}, false, {}, 0, "0"},
    {"amin", {2, 2}, 0, "1 0 1 1", true, {}, true, {1, 1}, 0, "0"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {0}, false, {2}, 0, "1 0"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {0}, true, {1, 2}, 0, "1 0"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {-1}, false, {2}, 0, "0 1"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {-1}, true, {2, 1}, 0, "0 1"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {0, 1}, false, {}, 0, "0"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {0, 1}, true, {1, 1}, 0, "0"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {1}, false, {2}, 0, "0 1"},
    {"amin", {2, 2}, 0, "1 0 1 1", false, {1}, true, {2, 1}, 0, "0 1"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 5, "90007"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 5, "90007"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 5, "30014 59993"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 5, "30014 59993"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 5, "0 30007 60000"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 5, "0 30007 60000"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, false, {2}, 5, "30014 59993"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, true, {1, 1, 2}, 5, "30014 59993"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 5, "7 -7 7 30000 30000 30000"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 5, "7 -7 7 30000 30000 30000"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, false, {1}, 5, "90007"},
    {"sum", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, true, {1, 1, 1}, 5, "90007"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 5, "-9261000000000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 5, "-9261000000000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 5, "1470000 -6300000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 5, "1470000 -6300000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 5, "-49 210000 900000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 5, "-49 210000 900000000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 5, "7 -7 7 30000 30000 30000"},
    {"prod", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 5, "7 -7 7 30000 30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 3, "30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 3, "30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 3, "30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 3, "30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 3, "7 30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 3, "7 30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, false, {2}, 3, "30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, true, {1, 1, 2}, 3, "30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 3, "7 -7 7 30000 30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 3, "7 -7 7 30000 30000 30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, false, {1}, 3, "30000"},
    {"amax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, true, {1, 1, 1}, 3, "30000"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 3, "-7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 3, "-7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 3, "7 -7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 3, "7 -7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 3, "-7 7 30000"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 3, "-7 7 30000"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, false, {2}, 3, "7 -7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0, 1}, true, {1, 1, 2}, 3, "7 -7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 3, "7 -7 7 30000 30000 30000"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 3, "7 -7 7 30000 30000 30000"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, false, {1}, 3, "-7"},
    {"amin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {2, 0}, true, {1, 1, 1}, 3, "-7"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 5, "3"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 5, "3"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 5, "2 1"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 5, "2 1"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 5, "0 1 0"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 5, "0 1 0"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 5, "0 0 0 0 0 0"},
    {"argmax", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 5, "0 0 0 0 0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, false, {}, 5, "1"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", true, {}, true, {1, 1, 1}, 5, "1"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, false, {1, 2}, 5, "0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {0}, true, {1, 1, 2}, 5, "0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, false, {3, 1}, 5, "1 0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {-1}, true, {3, 1, 1}, 5, "1 0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, false, {3, 2}, 5, "0 0 0 0 0 0"},
    {"argmin", {3, 1, 2}, 3, "7 -7 7 30000 30000 30000", false, {1}, true, {3, 1, 2}, 5, "0 0 0 0 0 0"},
    {"sum", {}, 8, "2.5", true, {}, false, {}, 8, "2.5"},
    {"sum", {}, 8, "2.5", true, {}, true, {}, 8, "2.5"},
    {"mean", {}, 8, "2.5", true, {}, false, {}, 8, "2.5"},
    {"mean", {}, 8, "2.5", true, {}, true, {}, 8, "2.5"},
    {"prod", {}, 8, "2.5", true, {}, false, {}, 8, "2.5"},
    {"prod", {}, 8, "2.5", true, {}, true, {}, 8, "2.5"},
    {"amax", {}, 8, "2.5", true, {}, false, {}, 8, "2.5"},
    {"amax", {}, 8, "2.5", true, {}, true, {}, 8, "2.5"},
    {"amin", {}, 8, "2.5", true, {}, false, {}, 8, "2.5"},
    {"amin", {}, 8, "2.5", true, {}, true, {}, 8, "2.5"},
    {"argmax", {}, 8, "2.5", true, {}, false, {}, 5, "0"},
    {"argmax", {}, 8, "2.5", true, {}, true, {}, 5, "0"},
    {"argmin", {}, 8, "2.5", true, {}, false, {}, 5, "0"},
    {"argmin", {}, 8, "2.5", true, {}, true, {}, 5, "0"},
    {"sum", {}, 4, "-4", true, {}, false, {}, 5, "-4"},
    {"sum", {}, 4, "-4", true, {}, true, {}, 5, "-4"},
    {"prod", {}, 4, "-4", true, {}, false, {}, 5, "-4"},
    {"prod", {}, 4, "-4", true, {}, true, {}, 5, "-4"},
    {"amax", {}, 4, "-4", true, {}, false, {}, 4, "-4"},
    {"amax", {}, 4, "-4", true, {}, true, {}, 4, "-4"},
    {"amin", {}, 4, "-4", true, {}, false, {}, 4, "-4"},
    {"amin", {}, 4, "-4", true, {}, true, {}, 4, "-4"},
    {"argmax", {}, 4, "-4", true, {}, false, {}, 5, "0"},
    {"argmax", {}, 4, "-4", true, {}, true, {}, 5, "0"},
    {"argmin", {}, 4, "-4", true, {}, false, {}, 5, "0"},
    {"argmin", {}, 4, "-4", true, {}, true, {}, 5, "0"},
    {"sum", {0, 3}, 8, "", true, {}, false, {}, 8, "0.0"},
    {"sum", {0, 3}, 8, "", true, {}, true, {1, 1}, 8, "0.0"},
    {"sum", {0, 3}, 8, "", false, {0}, false, {3}, 8, "0.0 0.0 0.0"},
    {"sum", {0, 3}, 8, "", false, {0}, true, {1, 3}, 8, "0.0 0.0 0.0"},
    {"sum", {0, 3}, 8, "", false, {-1}, false, {0}, 8, ""},
    {"sum", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 8, ""},
    {"sum", {0, 3}, 8, "", false, {0, 1}, false, {}, 8, "0.0"},
    {"sum", {0, 3}, 8, "", false, {0, 1}, true, {1, 1}, 8, "0.0"},
    {"sum", {0, 3}, 8, "", false, {1}, false, {0}, 8, ""},
    {"sum", {0, 3}, 8, "", false, {1}, true, {0, 1}, 8, ""},
    {"mean", {0, 3}, 8, "", true, {}, false, {}, 8, "nan"},
    {"mean", {0, 3}, 8, "", true, {}, true, {1, 1}, 8, "nan"},
    {"mean", {0, 3}, 8, "", false, {0}, false, {3}, 8, "nan nan nan"},
    {"mean", {0, 3}, 8, "", false, {0}, true, {1, 3}, 8, "nan nan nan"},
    {"mean", {0, 3}, 8, "", false, {-1}, false, {0}, 8, ""},
    {"mean", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 8, ""},
    {"mean", {0, 3}, 8, "", false, {0, 1}, false, {}, 8, "nan"},
    {"mean", {0, 3}, 8, "", false, {0, 1}, true, {1, 1}, 8, "nan"},
    {"mean", {0, 3}, 8, "", false, {1}, false, {0}, 8, ""},
    {"mean", {0, 3}, 8, "", false, {1}, true, {0, 1}, 8, ""},
    {"prod", {0, 3}, 8, "", true, {}, false, {}, 8, "1.0"},
    {"prod", {0, 3}, 8, "", true, {}, true, {1, 1}, 8, "1.0"},
    {"prod", {0, 3}, 8, "", false, {0}, false, {3}, 8, "1.0 1.0 1.0"},
    {"prod", {0, 3}, 8, "", false, {0}, true, {1, 3}, 8, "1.0 1.0 1.0"},
    {"prod", {0, 3}, 8, "", false, {-1}, false, {0}, 8, ""},
    {"prod", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 8, ""},
    {"prod", {0, 3}, 8, "", false, {1}, false, {0}, 8, ""},
    {"prod", {0, 3}, 8, "", false, {1}, true, {0, 1}, 8, ""},
    {"amax", {0, 3}, 8, "", false, {-1}, false, {0}, 8, ""},
    {"amax", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 8, ""},
    {"amax", {0, 3}, 8, "", false, {1}, false, {0}, 8, ""},
    {"amax", {0, 3}, 8, "", false, {1}, true, {0, 1}, 8, ""},
    {"amin", {0, 3}, 8, "", false, {-1}, false, {0}, 8, ""},
    {"amin", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 8, ""},
    {"amin", {0, 3}, 8, "", false, {1}, false, {0}, 8, ""},
    {"amin", {0, 3}, 8, "", false, {1}, true, {0, 1}, 8, ""},
    {"argmax", {0, 3}, 8, "", false, {-1}, false, {0}, 5, ""},
    {"argmax", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 5, ""},
    {"argmax", {0, 3}, 8, "", false, {1}, false, {0}, 5, ""},
    {"argmax", {0, 3}, 8, "", false, {1}, true, {0, 1}, 5, ""},
    {"argmin", {0, 3}, 8, "", false, {-1}, false, {0}, 5, ""},
    {"argmin", {0, 3}, 8, "", false, {-1}, true, {0, 1}, 5, ""},
    {"argmin", {0, 3}, 8, "", false, {1}, false, {0}, 5, ""},
    {"argmin", {0, 3}, 8, "", false, {1}, true, {0, 1}, 5, ""},
    {"sum", {2, 0}, 3, "", true, {}, false, {}, 5, "0"},
    {"sum", {2, 0}, 3, "", true, {}, true, {1, 1}, 5, "0"},
    {"sum", {2, 0}, 3, "", false, {0}, false, {0}, 5, ""},
    {"sum", {2, 0}, 3, "", false, {0}, true, {1, 0}, 5, ""},
    {"sum", {2, 0}, 3, "", false, {-1}, false, {2}, 5, "0 0"},
    {"sum", {2, 0}, 3, "", false, {-1}, true, {2, 1}, 5, "0 0"},
    {"sum", {2, 0}, 3, "", false, {0, 1}, false, {}, 5, "0"},
    {"sum", {2, 0}, 3, "", false, {0, 1}, true, {1, 1}, 5, "0"},
    {"sum", {2, 0}, 3, "", false, {1}, false, {2}, 5, "0 0"},
    {"sum", {2, 0}, 3, "", false, {1}, true, {2, 1}, 5, "0 0"},
    {"prod", {2, 0}, 3, "", true, {}, false, {}, 5, "1"},
    {"prod", {2, 0}, 3, "", true, {}, true, {1, 1}, 5, "1"},
    {"prod", {2, 0}, 3, "", false, {0}, false, {0}, 5, ""},
    {"prod", {2, 0}, 3, "", false, {0}, true, {1, 0}, 5, ""},
    {"prod", {2, 0}, 3, "", false, {-1}, false, {2}, 5, "1 1"},
    {"prod", {2, 0}, 3, "", false, {-1}, true, {2, 1}, 5, "1 1"},
    {"prod", {2, 0}, 3, "", false, {1}, false, {2}, 5, "1 1"},
    {"prod", {2, 0}, 3, "", false, {1}, true, {2, 1}, 5, "1 1"},
    {"amax", {2, 0}, 3, "", false, {0}, false, {0}, 3, ""},
    {"amax", {2, 0}, 3, "", false, {0}, true, {1, 0}, 3, ""},
    {"amin", {2, 0}, 3, "", false, {0}, false, {0}, 3, ""},
    {"amin", {2, 0}, 3, "", false, {0}, true, {1, 0}, 3, ""},
    {"argmax", {2, 0}, 3, "", false, {0}, false, {0}, 5, ""},
    {"argmax", {2, 0}, 3, "", false, {0}, true, {1, 0}, 5, ""},
    {"argmin", {2, 0}, 3, "", false, {0}, false, {0}, 5, ""},
    {"argmin", {2, 0}, 3, "", false, {0}, true, {1, 0}, 5, ""},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 6, "inf"},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 6, "inf"},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 6, "inf"},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 6, "inf"},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 6, "inf"},
    {"sum", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 6, "inf"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 6, "24000.0"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 6, "24000.0"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 6, "24000.0"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 6, "24000.0"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 6, "24000.0"},
    {"mean", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 6, "24000.0"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 6, "-inf"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 6, "-inf"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 6, "-inf"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 6, "-inf"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 6, "-inf"},
    {"prod", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 6, "-inf"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 6, "60000.0"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 6, "60000.0"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 6, "60000.0"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 6, "60000.0"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 6, "60000.0"},
    {"amax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 6, "60000.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 6, "-1.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 6, "-1.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 6, "-1.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 6, "-1.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 6, "-1.0"},
    {"amin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 6, "-1.0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 5, "0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 5, "0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 5, "0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 5, "0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 5, "0"},
    {"argmax", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 5, "0"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, false, {}, 5, "2"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", true, {}, true, {1}, 5, "2"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, false, {}, 5, "2"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {0}, true, {1}, 5, "2"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, false, {}, 5, "2"},
    {"argmin", {5}, 6, "60000.0 60000.0 -1.0 0.5 0.25", false, {-1}, true, {1}, 5, "2"},
    // END GENERATED reduce_value_cases
};

std::string kind_name(ct::ErrorKind k) {
  switch (k) {
    case ct::ErrorKind::InvalidArgument: return "InvalidArgument";
    case ct::ErrorKind::Shape: return "Shape";
    case ct::ErrorKind::DType: return "DType";
    case ct::ErrorKind::Index: return "Index";
    default: return "other(" + std::to_string(int(k)) + ")";
  }
}

TEST(ReduceTorch, ResultDTypes) {
  for (const DtypeCase& c : kDtypeCases) {
    SCOPED_TRACE(std::string(c.op) + " of " + ct::dtype_name(DType(c.in)));
    Ref<Tensor> t = ct::full(Shape{2, 3}, 1.0, DType(c.in));
    const Op op = op_from(c.op);
    if (c.out >= 0) {
      Ref<Tensor> r = run(op, *t, {}, true, false);
      EXPECT_EQ(r->dtype(), DType(c.out));
      EXPECT_EQ(r->ndim(), 0);
    } else {
      try {
        run(op, *t, {}, true, false);
        ADD_FAILURE() << "did not fail; torch says: " << c.message;
      } catch (const ct::Error& e) {
        EXPECT_EQ(kind_name(e.kind()), c.kind);
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      }
    }
  }
}

TEST(ReduceTorch, Errors) {
  for (const ErrorCase& c : kErrorCases) {
    SCOPED_TRACE(std::string(c.op) + " of " + ct::dtype_name(DType(c.dtype)) + shape_str(c.sizes) + " dims " +
                 shape_str(c.dims) + (c.all ? " (all)" : ""));
    Ref<Tensor> t = ct::full(c.sizes, 0.0, DType(c.dtype));
    try {
      run(op_from(c.op), *t, c.dims, c.all, c.keepdim);
      ADD_FAILURE() << "did not fail; torch says: " << c.message;
    } catch (const ct::Error& e) {
      EXPECT_EQ(kind_name(e.kind()), c.kind) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

TEST(ReduceTorch, Values) {
  for (const ValueCase& c : kValueCases) {
    const DType dt = DType(c.dtype), od = DType(c.out_dtype);
    SCOPED_TRACE(std::string(c.op) + " of " + ct::dtype_name(dt) + shape_str(c.sizes) + " [" + c.values +
                 "] dims " + shape_str(c.dims) + (c.all ? " (all)" : "") + " keepdim " + std::to_string(c.keepdim));
    Ref<Tensor> t = make(dt, c.sizes, parse_values(dt, c.values));
    Ref<Tensor> r = run(op_from(c.op), *t, c.dims, c.all, c.keepdim);
    EXPECT_EQ(shape_str(r->sizes()), shape_str(c.out_sizes));
    ASSERT_EQ(r->dtype(), od);
    const std::vector<Value> got = values_of(*r), want = parse_values(od, c.expected);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      if (ct::is_floating(od)) {
        // torch sums these few small values exactly too, except where it rounds to float16.
        EXPECT_TRUE(close_to(got[i].d, want[i].d, std::fabs(want[i].d) * eps_of(od))) << "element " << i;
      } else {
        EXPECT_EQ(got[i].i, want[i].i) << "element " << i;
      }
    }
  }
}

}  // namespace
