// The strided copy engine (copy.h, copy_kernels.h): every dtype pair, random geometries
// against an element-by-element reference, transposes of awkward sizes on every SIMD
// level, aliasing, error messages, thread-count independence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/copy.h"
#include "core/copy_kernels.h"
#include "core/error.h"
#include "core/shape.h"
#include "core/storage.h"
#include "core/tensor.h"

namespace ct {
namespace {

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

// ---- helpers ------------------------------------------------------------------------------

// Restores the engine's global knobs at the end of a test.
struct KnobGuard {
  ~KnobGuard() {
    set_num_threads(0);
    kernels::set_grain_bytes(0);
    kernels::set_streaming_bytes(0);
    kernels::set_isa(kernels::detected_isa());
  }
};

Ref<Tensor> empty(Shape sizes, DType dtype) { return Tensor::empty(sizes, dtype, "test"); }

Ref<Tensor> view(const Ref<Tensor>& base, Shape sizes, Shape strides, int64_t offset) {
  return Tensor::make(base->storage(), base->dtype(), sizes, strides, offset, base->view_root());
}

void fill_random(const Tensor& t, std::mt19937_64& rng) {
  char* p = t.storage()->data();
  const int64_t n = t.storage()->nbytes();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t v = rng();
    std::memcpy(p + i, &v, 8);
  }
  for (; i < n; ++i) p[i] = char(rng());
}

void fill_iota(const Tensor& t) {  // distinct small values, exact in every dtype
  const int64_t n = t.storage()->nbytes() / t.itemsize();
  CT_DISPATCH_ALL(t.dtype(), [&] {
    for (int64_t i = 0; i < n; ++i) {
      const scalar_t v = convert<scalar_t>(double(i % 97));
      std::memcpy(t.storage()->data() + i * sizeof(scalar_t), &v, sizeof(scalar_t));
    }
  });
}

std::vector<char> storage_bytes(const Tensor& t) {
  return std::vector<char>(t.storage()->data(), t.storage()->data() + t.storage()->nbytes());
}

// One element, reference semantics: same dtype moves the bytes; otherwise ct::convert, with
// a bool source being any non-zero byte (bool -> bool writes 0/1, as torch's copy kernel).
template <class To, class From>
void ref_element(char* d, const char* s) {
  From v;
  if constexpr (std::is_same_v<From, bool>) {
    uint8_t b;
    std::memcpy(&b, s, 1);
    v = b != 0;
  } else {
    std::memcpy(&v, s, sizeof(From));
  }
  const To r = convert<To>(v);
  std::memcpy(d, &r, sizeof(To));
}

using RefFn = void (*)(char*, const char*);
RefFn ref_fn(DType to, DType from) {
  return CT_DISPATCH_ALL(to, [&]() -> RefFn {
    using To = scalar_t;
    return CT_DISPATCH_ALL(from, [&]() -> RefFn { return &ref_element<To, scalar_t>; });
  });
}

// Naive element-by-element copy of src (broadcast to dst's shape) into dst, as the
// reference.  Writes into `out`, an image of dst's storage bytes.
void reference_copy(std::vector<char>& out, const Tensor& dst, const Tensor& src) {
  const int n = dst.ndim();
  Shape sstr(size_t(n), 0);
  for (int i = 0; i < src.ndim(); ++i) {
    const int j = n - src.ndim() + i;
    sstr[size_t(j)] = src.size(i) == 1 ? 0 : src.stride(i);
  }
  if (dst.numel() == 0) return;
  const bool same = dst.dtype() == src.dtype() && dst.dtype() != DType::Bool;
  const RefFn fn = ref_fn(dst.dtype(), src.dtype());
  const int64_t wd = dst.itemsize(), ws = src.itemsize();
  std::vector<int64_t> idx(size_t(n), 0);
  for (int64_t e = 0; e < dst.numel(); ++e) {
    int64_t od = dst.offset(), os = src.offset();
    for (int i = 0; i < n; ++i) {
      od += idx[size_t(i)] * dst.stride(i);
      os += idx[size_t(i)] * sstr[size_t(i)];
    }
    char* d = out.data() + od * wd;
    const char* s = src.storage()->data() + os * ws;
    if (same) {
      std::memcpy(d, s, size_t(wd));
    } else {
      fn(d, s);
    }
    for (int i = n - 1; i >= 0; --i) {
      if (++idx[size_t(i)] < dst.size(i)) break;
      idx[size_t(i)] = 0;
    }
  }
}

// A view with the given sizes of a fresh base: dims permuted, sliced with steps and start
// offsets; with `broadcast`, some dims get stride 0 (an expand).  Never internally
// overlapping without `broadcast`.
Ref<Tensor> random_view(std::mt19937_64& rng, const Shape& sizes, DType dtype, bool broadcast) {
  const size_t n = sizes.size();
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Shape base_sizes(n), start(n), step(n);
  for (size_t i = 0; i < n; ++i) {
    step[i] = rng() % 4 == 0 ? 1 + int64_t(rng() % 3) : 1;
    start[i] = rng() % 3 == 0 ? int64_t(rng() % 3) : 0;
    const int64_t span = sizes[i] == 0 ? 0 : (sizes[i] - 1) * step[i] + 1;
    base_sizes[size_t(perm[i])] = start[i] + span + int64_t(rng() % 2);
  }
  Ref<Tensor> base = empty(base_sizes, dtype);
  fill_random(*base, rng);
  const Shape bs = contiguous_strides(base_sizes);
  Shape strides(n);
  int64_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    strides[i] = bs[size_t(perm[i])] * step[i];
    offset += start[i] * bs[size_t(perm[i])];
    if (broadcast && rng() % 4 == 0) strides[i] = 0;
  }
  return view(base, sizes, strides, offset);
}

// Checks copy_into(dst, src) against the reference, including bytes outside dst's view.
void expect_copy_matches(const Tensor& dst, const Tensor& src, const std::string& what) {
  std::vector<char> expected = storage_bytes(dst);
  reference_copy(expected, dst, src);
  copy_into(dst, src);
  const std::vector<char> got = storage_bytes(dst);
  ASSERT_EQ(got.size(), expected.size());
  if (got != expected) {
    size_t i = 0;
    while (got[i] == expected[i]) ++i;
    FAIL() << what << ": first differing byte " << i << " of " << got.size() << " (got "
           << int(uint8_t(got[i])) << ", expected " << int(uint8_t(expected[i])) << ")";
  }
}

std::string geometry(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + list_str(t.sizes()) + "/" + list_str(t.strides()) + "+" +
         std::to_string(t.offset());
}

template <class T>
T element(const Tensor& t, int64_t i) {  // i-th element of a contiguous tensor
  T v;
  std::memcpy(&v, t.data() + i * sizeof(T), sizeof(T));
  return v;
}

std::vector<kernels::Isa> isa_levels() {
  std::vector<kernels::Isa> out;
  for (int i = 0; i <= int(kernels::detected_isa()); ++i) out.push_back(kernels::Isa(i));
  return out;
}

// ---- dtype conversion -----------------------------------------------------------------------

const double kValues[] = {0.0, 1.0, -1.0, 2.5, -2.5, 2.7, -2.7, 0.1, 127.0, 127.9, 128.0, -128.0, -129.0,
                          255.0, 256.0, 300.5, -300.5, 32767.0, 32768.0, -32769.0, 65504.0, 65520.0,
                          1e10, -1e10, 3e38, 1e-8, -0.0, 1.00048828125, 1.00146484375, 1.00390625,
                          std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};

TEST(CopyDtype, EveryPairContiguousStridedAndBroadcast) {
  const int64_t n = int64_t(std::size(kValues));
  for (DType from : kAll) {
    // The source values: kValues converted to `from`.
    Ref<Tensor> src = empty({n}, from);
    CT_DISPATCH_ALL(from, [&] {
      for (int64_t i = 0; i < n; ++i) {
        const scalar_t v = convert<scalar_t>(kValues[i]);
        std::memcpy(src->data() + i * sizeof(scalar_t), &v, sizeof(scalar_t));
      }
    });
    for (DType to : kAll) {
      SCOPED_TRACE(std::string(dtype_name(from)) + " -> " + dtype_name(to));
      // Contiguous: to_dtype.
      Ref<Tensor> out = to_dtype(*src, to);
      EXPECT_EQ(out->dtype(), to);
      std::vector<char> expected(size_t(n * itemsize(to)));
      const RefFn fn = ref_fn(to, from);
      for (int64_t i = 0; i < n; ++i) {
        if (to == from) {
          std::memcpy(expected.data() + i * itemsize(to), src->data() + i * itemsize(from), size_t(itemsize(to)));
        } else {
          fn(expected.data() + i * itemsize(to), src->data() + i * itemsize(from));
        }
      }
      EXPECT_EQ(0, std::memcmp(out->data(), expected.data(), expected.size()));
      // Strided destination (every other element of a bigger tensor), reversed-order source.
      Ref<Tensor> big = empty({2 * n}, to);
      std::mt19937_64 rng(uint64_t(int(from) * 10 + int(to)));
      fill_random(*big, rng);
      Ref<Tensor> dst = view(big, {n}, {2}, 1);
      expect_copy_matches(*dst, *src, "strided");
      // Broadcast: one element to a 2-d destination, and a row to every row.
      Ref<Tensor> dst2 = empty({3, n}, to);
      expect_copy_matches(*dst2, *view(src, {1}, {1}, 5), "broadcast scalar");
      expect_copy_matches(*dst2, *src, "broadcast row");
      // A transposed destination with conversion (the tiled path).
      Ref<Tensor> m = empty({40, 3 * n}, from);
      fill_random(*m, rng);
      Ref<Tensor> dt = empty({3 * n, 40}, to);
      expect_copy_matches(*dt, *view(m, {3 * n, 40}, {1, 3 * n}, 0), "transposed convert");
    }
  }
}

TEST(CopyDtype, SpecificValues) {
  auto from_floats = [](std::vector<float> v) {
    Ref<Tensor> t = empty({int64_t(v.size())}, DType::Float32);
    std::memcpy(t->data(), v.data(), v.size() * 4);
    return t;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Ref<Tensor> f = from_floats({2.7f, -2.7f, 0.5f, -0.5f, 300.5f, -1.5f, nan, 0.0f, -0.0f});
  // float -> integer truncates toward zero, then wraps.
  Ref<Tensor> i32 = to_dtype(*f, DType::Int32);
  EXPECT_EQ(element<int32_t>(*i32, 0), 2);
  EXPECT_EQ(element<int32_t>(*i32, 1), -2);
  EXPECT_EQ(element<int32_t>(*i32, 2), 0);
  EXPECT_EQ(element<int32_t>(*i32, 3), 0);
  EXPECT_EQ(element<int32_t>(*i32, 4), 300);
  EXPECT_EQ(element<int32_t>(*i32, 5), -1);
  Ref<Tensor> u8 = to_dtype(*f, DType::UInt8);
  EXPECT_EQ(element<uint8_t>(*u8, 4), 44);   // 300 mod 256
  EXPECT_EQ(element<uint8_t>(*u8, 5), 255);  // -1 wraps
  Ref<Tensor> i64 = to_dtype(*f, DType::Int64);
  EXPECT_EQ(element<int64_t>(*i64, 6), std::numeric_limits<int64_t>::min());  // NaN, as x86
  // to bool: x != 0, and NaN is true.
  Ref<Tensor> b = to_dtype(*f, DType::Bool);
  const uint8_t bools[] = {1, 1, 1, 1, 1, 1, 1, 0, 0};
  EXPECT_EQ(0, std::memcmp(b->data(), bools, 9));
  Ref<Tensor> nan16 = to_dtype(*f, DType::Float16);
  EXPECT_EQ(element<uint8_t>(*to_dtype(*nan16, DType::Bool), 6), 1);
  // float16: round to nearest even; overflow to inf; NaN stays NaN.
  Ref<Tensor> h = to_dtype(*from_floats({1.00048828125f, 1.00146484375f, 65504.0f, 65520.0f, -65520.0f, nan,
                                         5.9604644775390625e-08f, 2.98023223876953125e-08f}),
                           DType::Float16);
  EXPECT_EQ(element<uint16_t>(*h, 0), 0x3C00);  // 1 + 2^-11: tie, to even (1.0)
  EXPECT_EQ(element<uint16_t>(*h, 1), 0x3C02);  // 1 + 3 * 2^-11: tie, to even
  EXPECT_EQ(element<uint16_t>(*h, 2), 0x7BFF);  // largest half
  EXPECT_EQ(element<uint16_t>(*h, 3), 0x7C00);  // rounds to inf
  EXPECT_EQ(element<uint16_t>(*h, 4), 0xFC00);
  EXPECT_EQ(element<uint16_t>(*h, 5) & 0x7C00, 0x7C00);
  EXPECT_NE(element<uint16_t>(*h, 5) & 0x03FF, 0);
  EXPECT_EQ(element<uint16_t>(*h, 6), 0x0001);  // smallest subnormal
  EXPECT_EQ(element<uint16_t>(*h, 7), 0x0000);  // half of it: tie, to even (0)
  // bfloat16: round to nearest even.
  Ref<Tensor> bf = to_dtype(*from_floats({1.00390625f, 1.01171875f, nan, -3.0f}), DType::BFloat16);
  EXPECT_EQ(element<uint16_t>(*bf, 0), 0x3F80);  // 1 + 2^-8: tie, to even
  EXPECT_EQ(element<uint16_t>(*bf, 1), 0x3F82);  // 1 + 3 * 2^-8: tie, to even
  EXPECT_EQ(element<uint16_t>(*bf, 2) & 0x7F80, 0x7F80);
  EXPECT_NE(element<uint16_t>(*bf, 2) & 0x007F, 0);
  EXPECT_EQ(element<uint16_t>(*bf, 3), 0xC040);
  // Half -> float is exact; int64 -> int8 wraps; bool source bytes other than 1 are true.
  Ref<Tensor> back = to_dtype(*h, DType::Float32);
  EXPECT_EQ(element<float>(*back, 1), 1.001953125f);
  Ref<Tensor> big = empty({2}, DType::Int64);
  const int64_t bigv[] = {300, -129};
  std::memcpy(big->data(), bigv, 16);
  Ref<Tensor> i8 = to_dtype(*big, DType::Int8);
  EXPECT_EQ(element<int8_t>(*i8, 0), 44);
  EXPECT_EQ(element<int8_t>(*i8, 1), 127);
  Ref<Tensor> odd_bool = empty({3}, DType::Bool);
  const uint8_t raw[] = {0, 2, 255};
  std::memcpy(odd_bool->data(), raw, 3);
  Ref<Tensor> as_int = to_dtype(*odd_bool, DType::Int32);
  EXPECT_EQ(element<int32_t>(*as_int, 0), 0);
  EXPECT_EQ(element<int32_t>(*as_int, 1), 1);
  EXPECT_EQ(element<int32_t>(*as_int, 2), 1);
}

TEST(CopyDtype, Float16FastPathMatchesScalar) {
  // Contiguous float32 -> float16 may use F16C; it must agree bit for bit with half.h on
  // every kind of input (random bit patterns cover NaNs, subnormals, infinities).
  KnobGuard guard;
  std::mt19937_64 rng(11);
  Ref<Tensor> f = empty({1 << 20}, DType::Float32);
  fill_random(*f, rng);
  Ref<Tensor> fast = to_dtype(*f, DType::Float16);
  kernels::set_isa(kernels::Isa::Scalar);
  Ref<Tensor> slow = to_dtype(*f, DType::Float16);
  EXPECT_EQ(storage_bytes(*fast), storage_bytes(*slow));
  for (int64_t i = 0; i < f->numel(); i += 4099) {
    ASSERT_EQ(element<uint16_t>(*fast, i), float_to_half_bits(element<float>(*f, i))) << i;
  }
}

// ---- random geometries ----------------------------------------------------------------------

void random_geometries(uint64_t seed, int cases, bool threaded) {
  KnobGuard guard;
  if (threaded) {
    set_num_threads(2);
    kernels::set_grain_bytes(64);  // split even tiny copies
  }
  std::mt19937_64 rng(seed);
  for (int c = 0; c < cases; ++c) {
    const int ndim = int(rng() % 6);
    Shape sizes = Shape(size_t(ndim));
    for (auto& s : sizes) s = rng() % 12 == 0 ? 0 : 1 + int64_t(rng() % 7);
    if (rng() % 3 == 0 && ndim > 0) sizes[size_t(rng() % ndim)] = 20 + int64_t(rng() % 60);
    const DType dd = kAll[rng() % 10];
    const DType sd = rng() % 2 ? dd : kAll[rng() % 10];
    Ref<Tensor> dst = random_view(rng, sizes, dd, false);
    // src: the same sizes, or broadcastable ones (fewer leading dims, size-1 dims).
    Shape ssizes = sizes;
    if (rng() % 3 == 0) {
      const size_t drop = ndim > 0 ? size_t(rng() % (ndim + 1)) : 0;
      ssizes.erase(ssizes.begin(), ssizes.begin() + long(drop));
      for (auto& s : ssizes) {
        if (rng() % 3 == 0) s = 1;
      }
    }
    Ref<Tensor> src = random_view(rng, ssizes, sd, true);
    SCOPED_TRACE("case " + std::to_string(c) + ": dst " + geometry(*dst) + " src " + geometry(*src));
    expect_copy_matches(*dst, *src, "random geometry");
    if (::testing::Test::HasFatalFailure()) return;
    // The same source through clone / to_dtype (a fresh contiguous destination).
    Ref<Tensor> cl = copy_to_new(*src, dd);
    std::vector<char> expected = storage_bytes(*cl);
    reference_copy(expected, *cl, *src);
    ASSERT_EQ(storage_bytes(*cl), expected);
  }
}

TEST(CopyRandom, GeometriesAgainstReference) { random_geometries(1234, 3000, false); }
TEST(CopyRandom, GeometriesAgainstReferenceThreaded) { random_geometries(99, 400, true); }

TEST(CopyRandom, GeometriesEveryIsa) {
  KnobGuard guard;
  for (kernels::Isa isa : isa_levels()) {
    kernels::set_isa(isa);
    SCOPED_TRACE(int(isa));
    random_geometries(7 + uint64_t(isa), 400, false);
  }
}

TEST(CopyRandom, ZeroDimAndEmpty) {
  Ref<Tensor> s = empty({}, DType::Float64);
  const double v = 3.75;
  std::memcpy(s->data(), &v, 8);
  Ref<Tensor> d = empty({}, DType::Int16);
  const int64_t before = d->version();
  copy_into(*d, *s);
  EXPECT_EQ(element<int16_t>(*d, 0), 3);
  EXPECT_EQ(d->version(), before + 1);
  // A 0-dim source broadcasts anywhere.
  Ref<Tensor> m = empty({3, 4}, DType::Float32);
  copy_into(*m, *s);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(element<float>(*m, i), 3.75f);
  // Empty tensors: nothing to copy, still valid, still a write (version moves).
  Ref<Tensor> e = empty({0, 5}, DType::Float32);
  Ref<Tensor> es = empty({5}, DType::Int8);
  const int64_t ev = e->version();
  copy_into(*e, *es);
  EXPECT_EQ(e->version(), ev + 1);
  copy_into(*e, *empty({0, 1}, DType::Float32));
  Ref<Tensor> ce = clone(*e);
  EXPECT_EQ(ce->numel(), 0);
  EXPECT_EQ(list_str(ce->sizes()), "[0, 5]");
  Ref<Tensor> c0 = clone(*s);
  EXPECT_EQ(c0->ndim(), 0);
  EXPECT_EQ(element<double>(*c0, 0), 3.75);
}

// ---- transposes -----------------------------------------------------------------------------

// contiguous() of a transposed (rows x cols) matrix, and copies into misaligned and
// padded destinations, for one dtype, on the current ISA and streaming setting.
void check_transposes(DType dtype, int64_t rows, int64_t cols) {
  std::mt19937_64 rng(uint64_t(rows * 7919 + cols));
  Ref<Tensor> a = empty({rows, cols}, dtype);
  fill_random(*a, rng);
  Ref<Tensor> t = view(a, {cols, rows}, {1, cols}, 0);
  const std::string what = std::string(dtype_name(dtype)) + " " + std::to_string(rows) + "x" + std::to_string(cols);
  {
    kernels::CopyArgs args;
    const Shape dst_strides = contiguous_strides(t->sizes());
    args.dst_dtype = args.src_dtype = dtype;
    args.ndim = 2;
    args.sizes = t->sizes().data();
    args.dst_strides = dst_strides.data();
    args.src_strides = t->strides().data();
    if (rows > 1 && cols > 1) {  // bool -> bool writes 0/1: an element loop, not a byte move
      if (dtype == DType::Bool) EXPECT_NE(kernels::plan_copy(args).path, kernels::CopyPath::Transpose) << what;
      else EXPECT_EQ(kernels::plan_copy(args).path, kernels::CopyPath::Transpose) << what;
    }
  }
  Ref<Tensor> c = contiguous(*t);
  EXPECT_TRUE(c->is_contiguous());
  if (c.get() != t.get()) {  // 1 x n: t is contiguous already and comes back as is
    std::vector<char> expected = storage_bytes(*c);
    reference_copy(expected, *c, *t);
    EXPECT_EQ(storage_bytes(*c), expected) << what << " contiguous";
  }
  // dst one element off alignment, inside a padded buffer (row stride cols' = rows + 3).
  Ref<Tensor> pad = empty({cols, rows + 3}, dtype);
  fill_random(*pad, rng);
  expect_copy_matches(*view(pad, {cols, rows}, {rows + 3, 1}, 1), *t, what + " padded");
  // Transposed destination from a contiguous source (the mirror case).
  Ref<Tensor> b = empty({cols, rows}, dtype);
  fill_random(*b, rng);
  Ref<Tensor> a2 = empty({rows, cols}, dtype);
  expect_copy_matches(*view(a2, {cols, rows}, {1, cols}, 0), *b, what + " into transposed");
}

TEST(CopyTranspose, AwkwardSizesEveryWidthEveryIsa) {
  KnobGuard guard;
  const std::pair<int64_t, int64_t> shapes[] = {{1023, 1025}, {1, 4096}, {4096, 3}, {3, 4096}, {17, 33},
                                                {64, 64},     {65, 63},  {128, 200}, {2, 2},   {8, 8}};
  const DType widths[] = {DType::UInt8, DType::Int16, DType::Float32, DType::Float64};
  const DType more[] = {DType::UInt8, DType::Int16, DType::Float32, DType::Float64, DType::Bool, DType::BFloat16};
  for (kernels::Isa isa : isa_levels()) {
    kernels::set_isa(isa);
    for (int streaming = 0; streaming < 2; ++streaming) {
      kernels::set_streaming_bytes(streaming ? 1 : 0);
      // Every element width on every level; two more dtypes on the level in use.
      const bool best = isa == kernels::detected_isa();
      for (DType dt : std::span<const DType>(best ? more : widths, best ? std::size(more) : std::size(widths))) {
        for (auto [r, c] : shapes) {
          SCOPED_TRACE("isa " + std::to_string(int(isa)) + " streaming " + std::to_string(streaming));
          check_transposes(dt, r, c);
        }
      }
    }
  }
}

TEST(CopyTranspose, BatchedAndPermuted3d) {
  KnobGuard guard;
  std::mt19937_64 rng(5);
  for (kernels::Isa isa : isa_levels()) {
    kernels::set_isa(isa);
    for (DType dt : {DType::UInt8, DType::Int16, DType::Float32, DType::Int64}) {
      // (n0, n1, n2) permuted (2, 0, 1): coalesces to one 2-d transpose.
      Ref<Tensor> a = empty({40, 33, 70}, dt);
      fill_random(*a, rng);
      Ref<Tensor> p = view(a, {70, 40, 33}, {1, 33 * 70, 70}, 0);
      Ref<Tensor> c = contiguous(*p);
      std::vector<char> expected = storage_bytes(*c);
      reference_copy(expected, *c, *p);
      EXPECT_EQ(storage_bytes(*c), expected);
      // A batch of transposes (outer dim kept) into an existing tensor, streaming stores on.
      kernels::set_streaming_bytes(1);
      Ref<Tensor> bt = view(a, {40, 70, 33}, {33 * 70, 1, 70}, 0);
      Ref<Tensor> c2 = empty({40, 70, 33}, dt);
      fill_random(*c2, rng);
      expect_copy_matches(*c2, *bt, "batched transpose");
      kernels::set_streaming_bytes(0);
    }
  }
}

// The permuted view of a fresh contiguous base of `base_sizes`: dims in `perm` order; dims in
// `flip` walked backwards (negative strides), and the view starts `skip` elements into a
// base with that many extra leading elements.
Ref<Tensor> permuted(std::mt19937_64& rng, const Shape& base_sizes, const std::vector<int>& perm,
                     const std::vector<int>& flip, DType dtype, int64_t skip) {
  int64_t numel = 1;
  for (int64_t s : base_sizes) numel *= s;
  Ref<Tensor> flat = empty({numel + skip}, dtype);
  fill_random(*flat, rng);
  const Shape bs = contiguous_strides(base_sizes);
  Shape sizes, strides;
  int64_t offset = skip;
  for (int d : perm) {
    sizes.push_back(base_sizes[size_t(d)]);
    const bool back = std::find(flip.begin(), flip.end(), d) != flip.end() && base_sizes[size_t(d)] > 0;
    strides.push_back(back ? -bs[size_t(d)] : bs[size_t(d)]);
    if (back) offset += (base_sizes[size_t(d)] - 1) * bs[size_t(d)];
  }
  return view(flat, sizes, strides, offset);
}

// 3-D, 4-D and 5-D permutations -> contiguous and into existing (misaligned) tensors, for every
// element width on every SIMD level, with and without streaming stores, on 1 and 2 threads
// with a tiny grain (so the transpose path cuts work units in x as well as in y).  Sizes are
// chosen around the tile geometry of width w (L = 64 / w elements per line): 10 tiles and a
// tail in x (two whole groups of 4 tiles and one short group), 16 tiles and a tail in y
// (a whole strip), and sizes 1 and 0.  Every result is compared byte for byte against the
// element-by-element reference, including the bytes around a destination view.
TEST(CopyTranspose, PermutationsEveryWidthAgainstReference) {
  KnobGuard guard;
  std::mt19937_64 rng(26);
  struct Case {
    const char* name;
    std::function<Shape(int64_t)> base;  // base sizes for L
    std::vector<int> perm, flip;
  };
  const std::vector<Case> cases = {
      {"3d (a,b,n)->(n,a,b)", [](int64_t L) { return Shape{2, 5 * L + 1, 16 * L + 5}; }, {2, 0, 1}, {}},
      // x of 67 and 65 whole tiles (dst rows over 4 KiB apart): the AVX2 strip streams a dst
      // row's lines in runs of up to 4 tiles (kFlushTiles), so these end on runs of 3 and 1.
      {"3d x 67 tiles", [](int64_t L) { return Shape{67, L, 2 * L + 1}; }, {2, 0, 1}, {}},
      {"3d x 65 tiles", [](int64_t L) { return Shape{65, L, L + 1}; }, {2, 0, 1}, {}},
      {"3d y short", [](int64_t L) { return Shape{5, 2 * L + 3, L + 1}; }, {2, 0, 1}, {}},
      {"4d NCHW->NHWC", [](int64_t L) { return Shape{2, 9 * L + 3, 3, L + 3}; }, {0, 2, 3, 1}, {}},
      {"4d NCHW->NHWC, one line of channels", [](int64_t L) { return Shape{2, L, 5, 2 * L + 1}; }, {0, 2, 3, 1}, {}},
      {"4d NHWC->NCHW", [](int64_t L) { return Shape{2, 3, L + 3, 2 * L + 5}; }, {0, 3, 1, 2}, {}},
      {"5d", [](int64_t L) { return Shape{2, 3, L + 1, 4, 2 * L + 1}; }, {0, 3, 4, 1, 2}, {}},
      {"5d scrambled", [](int64_t L) { return Shape{3, 5, L + 2, 2, 7}; }, {4, 2, 0, 3, 1}, {}},
      {"4d flipped outer", [](int64_t L) { return Shape{3, 2 * L + 1, 2, L + 2}; }, {0, 2, 3, 1}, {0}},
      {"3d flipped x", [](int64_t L) { return Shape{3, 3 * L + 1, 4 * L + 5}; }, {2, 0, 1}, {0, 1}},
      {"3d flipped y", [](int64_t L) { return Shape{2, 2 * L + 1, 2 * L + 5}; }, {2, 0, 1}, {2}},
      {"size-1 dims", [](int64_t L) { return Shape{1, 4 * L + 3, 1, 2 * L + 1}; }, {0, 3, 2, 1}, {}},
      {"size 0", [](int64_t L) { return Shape{3, 0, L + 1}; }, {2, 0, 1}, {}},
      {"one row", [](int64_t L) { return Shape{1, 9 * L + 1}; }, {1, 0}, {}},
  };
  const DType widths[] = {DType::UInt8, DType::Int16, DType::Float32, DType::Float64};
  int checked = 0;
  for (kernels::Isa isa : isa_levels()) {
    kernels::set_isa(isa);
    for (DType dt : widths) {
      const int64_t L = 64 / itemsize(dt);
      for (const Case& c : cases) {
        for (int threads : {1, 2}) {
          set_num_threads(threads);
          kernels::set_grain_bytes(threads > 1 ? 64 : 0);
          for (int streaming = 0; streaming < 2; ++streaming) {
            kernels::set_streaming_bytes(streaming ? 1 : 0);
            const std::string what = std::string(c.name) + " " + dtype_name(dt) + " isa " + std::to_string(int(isa)) +
                                     " threads " + std::to_string(threads) + " streaming " + std::to_string(streaming);
            SCOPED_TRACE(what);
            Ref<Tensor> p = permuted(rng, c.base(L), c.perm, c.flip, dt, streaming ? 3 : 0);
            // A new tensor (contiguous) ...
            Ref<Tensor> got = contiguous(*p);
            ASSERT_TRUE(got->is_contiguous());
            std::vector<char> expected = storage_bytes(*got);
            reference_copy(expected, *got, *p);
            ASSERT_EQ(storage_bytes(*got), expected);
            // ... and an existing one whose rows start one element off a line boundary
            // (the head and tail edges of the transpose path).
            const Shape sizes(p->sizes().begin(), p->sizes().end());
            Ref<Tensor> buf = empty({p->numel() + 2}, dt);
            fill_random(*buf, rng);
            expect_copy_matches(*view(buf, sizes, contiguous_strides(sizes), 1), *p, what + " into existing");
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(CopyPlan, CoalescesAndChoosesPaths) {
  auto plan = [](Shape sizes, Shape ds, Shape ss, DType d = DType::Float32, DType s = DType::Float32) {
    kernels::CopyArgs a;
    a.dst_dtype = d;
    a.src_dtype = s;
    a.ndim = int(sizes.size());
    a.sizes = sizes.data();
    a.dst_strides = ds.data();
    a.src_strides = ss.data();
    return kernels::plan_copy(a);
  };
  using kernels::CopyPath;
  // Contiguous 3-d: one flat run of 24 elements.
  auto p = plan({2, 3, 4}, {12, 4, 1}, {12, 4, 1});
  EXPECT_EQ(p.path, CopyPath::Flat);
  EXPECT_EQ(p.ndim, 1);
  EXPECT_EQ(p.sizes[0], 24);
  // Size-1 dims vanish, whatever their strides.
  p = plan({1, 5, 1}, {99, 1, 7}, {3, 1, 0});
  EXPECT_EQ(p.path, CopyPath::Flat);
  // Rows of a column slice: memcpy per row.
  p = plan({4, 3}, {3, 1}, {10, 1});
  EXPECT_EQ(p.path, CopyPath::Rows);
  EXPECT_EQ(p.ndim, 2);
  // 256^3 permuted (2, 0, 1) merges into a single 256 x 65536 transpose.
  p = plan({256, 256, 256}, {65536, 256, 1}, {1, 65536, 256});
  EXPECT_EQ(p.path, CopyPath::Transpose);
  EXPECT_EQ(p.ndim, 2);
  EXPECT_EQ(p.sizes[1], 65536);
  EXPECT_EQ(p.src_strides[1], 256 * 4);
  // Dims ordered by dst: a transposed dst with a contiguous src is a transpose too.
  p = plan({8, 9}, {1, 8}, {9, 1});
  EXPECT_EQ(p.path, CopyPath::Transpose);
  // Broadcast along the inner dim: element loop with a zero src stride.
  p = plan({8, 9}, {9, 1}, {1, 0});
  EXPECT_EQ(p.path, CopyPath::Strided);
  // Conversion: contiguous stays a flat element loop; a transposed one is tiled.
  p = plan({8, 9}, {9, 1}, {9, 1}, DType::Float64, DType::Float32);
  EXPECT_EQ(p.path, CopyPath::Strided);
  EXPECT_EQ(p.ndim, 1);
  p = plan({80, 90}, {90, 1}, {1, 80}, DType::Float64, DType::Float32);
  EXPECT_EQ(p.path, CopyPath::Tiled);
  // Empty.
  EXPECT_EQ(plan({3, 0}, {0, 1}, {0, 1}).path, CopyPath::Empty);
}

// ---- aliasing ---------------------------------------------------------------------------------

TEST(CopyOverlap, ShiftedSlicesBothDirections) {
  for (DType dt : {DType::Float32, DType::UInt8, DType::Float64}) {
    for (int64_t n : {int64_t(10), int64_t(1000), int64_t(100000)}) {
      for (int64_t shift : {int64_t(1), int64_t(3), int64_t(64)}) {
        if (shift >= n) continue;
        for (int dir = 0; dir < 2; ++dir) {
          Ref<Tensor> base = empty({n}, dt);
          fill_iota(*base);
          // dir 0: dst = base[shift:], src = base[:-shift]; dir 1: the other way round.
          Ref<Tensor> lo = view(base, {n - shift}, {1}, 0);
          Ref<Tensor> hi = view(base, {n - shift}, {1}, shift);
          const Tensor& dst = dir == 0 ? *hi : *lo;
          const Tensor& src = dir == 0 ? *lo : *hi;
          // Expected: the copy from an unaliased snapshot of src.
          Ref<Tensor> snapshot = clone(src);
          std::vector<char> expected = storage_bytes(dst);
          reference_copy(expected, dst, *snapshot);
          copy_into(dst, src);
          EXPECT_EQ(storage_bytes(dst), expected) << dtype_name(dt) << " n=" << n << " shift=" << shift << " dir=" << dir;
        }
      }
    }
  }
}

TEST(CopyOverlap, SquareTransposeIntoItself) {
  KnobGuard guard;
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (int64_t n : {int64_t(5), int64_t(64), int64_t(301)}) {
      for (DType dt : {DType::Float32, DType::Int16, DType::Float64}) {
        Ref<Tensor> a = empty({n, n}, dt);
        fill_iota(*a);
        std::mt19937_64 rng{uint64_t(n)};
        fill_random(*a, rng);
        Ref<Tensor> orig = clone(*a);
        Ref<Tensor> t = view(a, {n, n}, {1, n}, 0);
        copy_into(*a, *t);  // a = a.T, in place
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            ASSERT_EQ(0, std::memcmp(a->data() + (i * n + j) * a->itemsize(), orig->data() + (j * n + i) * a->itemsize(),
                                     size_t(a->itemsize())))
                << n << " " << i << "," << j;
          }
        }
      }
    }
  }
}

TEST(CopyOverlap, InterleavedViewsAndSelfCopy) {
  // dst = even elements, src = a window that covers both even and odd ones.
  Ref<Tensor> base = empty({40}, DType::Int32);
  fill_iota(*base);
  Ref<Tensor> dst = view(base, {10}, {2}, 0);
  Ref<Tensor> src = view(base, {10}, {1}, 5);
  Ref<Tensor> snap = clone(*src);
  std::vector<char> expected = storage_bytes(*dst);
  reference_copy(expected, *dst, *snap);
  copy_into(*dst, *src);
  EXPECT_EQ(storage_bytes(*dst), expected);
  // A tensor copied onto itself: unchanged, but a write (the version moves once).
  const std::vector<char> before = storage_bytes(*base);
  const int64_t v = base->version();
  copy_into(*base, *base);
  EXPECT_EQ(storage_bytes(*base), before);
  EXPECT_EQ(base->version(), v + 1);
  // A broadcast source overlapping its destination.
  Ref<Tensor> m = empty({4, 4}, DType::Float32);
  fill_iota(*m);
  Ref<Tensor> row = view(m, {4}, {1}, 4);  // row 1
  Ref<Tensor> snap_row = clone(*row);
  std::vector<char> exp_m = storage_bytes(*m);
  reference_copy(exp_m, *m, *snap_row);
  copy_into(*m, *row);
  EXPECT_EQ(storage_bytes(*m), exp_m);
}

// ---- errors -----------------------------------------------------------------------------------

TEST(CopyErrors, InternalOverlapRefusedWithTorchMessage) {
  Ref<Tensor> base = empty({4}, DType::Float32);
  Ref<Tensor> expanded = view(base, {3, 4}, {0, 1}, 0);
  const int64_t v = base->version();
  try {
    copy_into(*expanded, *empty({3, 4}, DType::Float32));
    FAIL() << "expected an Overlap error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Overlap);
    EXPECT_STREQ(e.what(),
                 "unsupported operation: more than one element of the written-to tensor refers to a single "
                 "memory location. Please clone() the tensor before performing the operation.");
  }
  EXPECT_EQ(base->version(), v);
}

TEST(CopyErrors, ShapeMessages) {
  Ref<Tensor> dst = empty({2, 3}, DType::Float32);
  try {
    copy_into(*dst, *empty({2, 4}, DType::Float32));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Shape);
    EXPECT_STREQ(e.what(), "copy_: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
  try {
    copy_into(*empty({3}, DType::Float32), *empty({2, 3}, DType::Float32));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Shape);
    EXPECT_STREQ(e.what(), "copy_: output with shape [3] doesn't match the broadcast shape [2, 3]");
  }
  try {
    copy_into(*dst, *empty({3, 1}, DType::Float32), "index_put_");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "index_put_: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  }
  EXPECT_EQ(dst->version(), 0);
}

TEST(CopyErrors, ReadOnlyDestination) {
  std::vector<float> mem(6, 1.0f);
  Ref<Storage> st = Ref<Storage>::adopt(Storage::wrap(mem.data(), 24, nullptr, nullptr, true));
  const Shape sizes{2, 3};
  Ref<Tensor> ro = Tensor::make(st.get(), DType::Float32, sizes, contiguous_strides(sizes), 0, nullptr);
  try {
    copy_into(*ro, *empty({3}, DType::Float32));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ReadOnly);
    EXPECT_NE(std::string(e.what()).find("copy_"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ro->version(), 0);
  EXPECT_EQ(mem[0], 1.0f);
  // Reading from read-only memory is fine.
  Ref<Tensor> c = clone(*ro);
  EXPECT_EQ(element<float>(*c, 5), 1.0f);
}

// ---- semantics of the public functions --------------------------------------------------------

TEST(CopySemantics, CloneContiguousToAndVersions) {
  Ref<Tensor> a = empty({3, 4}, DType::Float32);
  fill_iota(*a);
  const int64_t v = a->version();
  // contiguous of a contiguous tensor: the tensor itself, one more reference.
  const int64_t rc = a->refcount();
  {
    Ref<Tensor> same = contiguous(*a);
    EXPECT_EQ(same.get(), a.get());
    EXPECT_EQ(a->refcount(), rc + 1);
  }
  EXPECT_EQ(a->refcount(), rc);
  Ref<Tensor> same_dtype = to_dtype(*a, DType::Float32);
  EXPECT_EQ(same_dtype.get(), a.get());
  // clone: new storage, contiguous, offset 0, no base, same values.
  Ref<Tensor> c = clone(*a);
  EXPECT_NE(c->storage(), a->storage());
  EXPECT_TRUE(c->is_contiguous());
  EXPECT_EQ(c->offset(), 0);
  EXPECT_FALSE(c->is_view());
  EXPECT_EQ(0, std::memcmp(c->data(), a->data(), 48));
  // contiguous of a transposed view: a copy with the transposed values.
  Ref<Tensor> t = view(a, {4, 3}, {1, 4}, 0);
  Ref<Tensor> ct = contiguous(*t);
  EXPECT_NE(ct->storage(), a->storage());
  EXPECT_EQ(list_str(ct->strides()), "[3, 1]");
  EXPECT_EQ(element<float>(*ct, 1), element<float>(*a, 4));
  // None of these wrote to a.
  EXPECT_EQ(a->version(), v);
  EXPECT_EQ(c->version(), 0);
  // copy_ bumps exactly once, seen through every view.
  copy_into(*t, *ct);
  EXPECT_EQ(a->version(), v + 1);
  EXPECT_EQ(t->version(), v + 1);
}

TEST(CopySemantics, CloneAndToKeepLayoutContiguousGivesCOrder) {
  // preserve_format (ct_clone in ctensor.h): a dense permutation keeps its strides; an
  // expanded or stepped tensor becomes dense in the order of its strides.
  Ref<Tensor> a = empty({3, 4, 5}, DType::Int16);
  fill_iota(*a);
  Ref<Tensor> p = view(a, {5, 3, 4}, {1, 20, 5}, 0);  // permute(2, 0, 1)
  Ref<Tensor> c = clone(*p);
  EXPECT_EQ(list_str(c->strides()), list_str(p->strides()));
  EXPECT_NE(c->storage(), a->storage());
  std::vector<char> expected = storage_bytes(*c);
  reference_copy(expected, *c, *p);
  EXPECT_EQ(storage_bytes(*c), expected);
  Ref<Tensor> f = to_dtype(*p, DType::Float32);
  EXPECT_EQ(list_str(f->strides()), list_str(p->strides()));
  std::vector<char> expected_f = storage_bytes(*f);
  reference_copy(expected_f, *f, *p);
  EXPECT_EQ(storage_bytes(*f), expected_f);
  Ref<Tensor> cc = contiguous(*p);
  EXPECT_EQ(list_str(cc->strides()), "[12, 4, 1]");
  Ref<Tensor> stepped = view(a, {3, 2}, {20, 2}, 1);  // a[:, 0, 1::2]
  Ref<Tensor> cs = clone(*stepped);
  EXPECT_TRUE(cs->is_contiguous());
  std::vector<char> expected_s = storage_bytes(*cs);
  reference_copy(expected_s, *cs, *stepped);
  EXPECT_EQ(storage_bytes(*cs), expected_s);
  Ref<Tensor> expanded = view(a, {4, 5}, {0, 1}, 0);
  Ref<Tensor> ce = clone(*expanded);
  EXPECT_TRUE(ce->is_contiguous());
  std::vector<char> expected_e = storage_bytes(*ce);
  reference_copy(expected_e, *ce, *expanded);
  EXPECT_EQ(storage_bytes(*ce), expected_e);
}

TEST(CopySemantics, CopyElementsWritesWithoutVersionBump) {
  Ref<Tensor> dst = empty({2, 3}, DType::Float64);
  Ref<Tensor> src = empty({3}, DType::Int8);
  const int8_t v[] = {1, -2, 3};
  std::memcpy(src->data(), v, 3);
  copy_elements(*dst, *src);
  EXPECT_EQ(dst->version(), 0);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(element<double>(*dst, i), double(v[i % 3]));
  copy_elements(*empty({0, 3}, DType::Float64), *src);  // empty: nothing to do
}

TEST(CopyThreads, SettingAndDefault) {
  KnobGuard guard;
  const int def = get_num_threads();
  EXPECT_GE(def, 1);
  set_num_threads(3);
  EXPECT_EQ(get_num_threads(), 3);
  set_num_threads(0);
  EXPECT_EQ(get_num_threads(), def);
  set_num_threads(1);
  set_num_threads(-5);
  EXPECT_EQ(get_num_threads(), def);
}

TEST(CopyThreads, ResultIndependentOfThreadCount) {
  KnobGuard guard;
  std::mt19937_64 rng(42);
  Ref<Tensor> a = empty({700, 900}, DType::Float32);
  fill_random(*a, rng);
  Ref<Tensor> b16 = empty({1000, 1300}, DType::Int16);
  fill_random(*b16, rng);
  Ref<Tensor> c3 = empty({30, 40, 50}, DType::Float64);
  fill_random(*c3, rng);
  struct Case {
    std::string name;
    std::function<Ref<Tensor>()> run;
  };
  const std::vector<Case> cases = {
      {"transpose f32", [&] { return contiguous(*view(a, {900, 700}, {1, 900}, 0)); }},
      {"transpose i16", [&] { return contiguous(*view(b16, {1300, 1000}, {1, 1300}, 0)); }},
      {"flat clone", [&] { return clone(*a); }},
      {"convert", [&] { return to_dtype(*a, DType::Float16); }},
      {"tiled convert", [&] { return copy_to_new(*view(a, {900, 700}, {1, 900}, 0), DType::Float64); }},
      {"to keeps layout", [&] { return to_dtype(*view(a, {900, 700}, {1, 900}, 0), DType::Int32); }},
      {"permute 3d", [&] { return contiguous(*view(c3, {50, 30, 40}, {1, 2000, 50}, 0)); }},
      {"step slice", [&] { return contiguous(*view(a, {350, 300}, {1800, 3}, 2)); }},
      {"transpose into existing, streaming", [&] {
         Ref<Tensor> d = empty({900, 700}, DType::Float32);
         kernels::set_streaming_bytes(1);
         copy_into(*d, *view(a, {900, 700}, {1, 900}, 0));
         kernels::set_streaming_bytes(0);
         return d;
       }},
      {"flat into existing, streaming", [&] {
         Ref<Tensor> d = empty({700, 900}, DType::Float32);
         kernels::set_streaming_bytes(1);
         copy_into(*d, *a);
         kernels::set_streaming_bytes(0);
         return d;
       }},
      {"broadcast", [&] {
         Ref<Tensor> d = empty({500, 900}, DType::Float64);
         copy_into(*d, *view(a, {900}, {1}, 0));
         return d;
       }},
  };
  for (const Case& c : cases) {
    std::vector<std::vector<char>> results;
    for (int threads : {1, 2, 3}) {
      set_num_threads(threads);
      for (int64_t grain : {int64_t(0), int64_t(4096)}) {
        kernels::set_grain_bytes(grain);
        results.push_back(storage_bytes(*c.run()));
      }
    }
    for (size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[i], results[0]) << c.name << " run " << i;
  }
}

TEST(CopyStream, StreamCopyMatchesMemcpy) {
  std::mt19937_64 rng(3);
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(63), int64_t(64), int64_t(255), int64_t(4097), int64_t(100003)}) {
    for (int64_t off : {int64_t(0), int64_t(1), int64_t(17)}) {
      std::vector<char> src(size_t(n + off)), dst(size_t(n + off + 64), 'x');
      for (auto& c : src) c = char(rng());
      kernels::stream_copy(dst.data() + off, src.data() + off, n);
      EXPECT_TRUE(n == 0 || 0 == std::memcmp(dst.data() + off, src.data() + off, size_t(n)));  // memcmp(NULL, ...) is UB
      EXPECT_EQ(dst[size_t(n + off)], 'x');
    }
  }
}

}  // namespace
}  // namespace ct
