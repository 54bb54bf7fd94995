// Tests of src/core/overlap: may_overlap, overlaps (exact), has_internal_overlap (exact),
// checked against a brute force that enumerates every byte address of every element.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#include "core/overlap.h"
#include "core/shape.h"
#include "core/storage.h"
#include "core/tensor.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Shape;
using ct::Storage;
using ct::Tensor;

Ref<Storage> owned_storage(int64_t nbytes) {
  return Ref<Storage>::adopt(Storage::allocate(nbytes, "test_overlap"));
}

Ref<Tensor> view(Storage* s, DType dt, Shape sizes, Shape strides, int64_t offset) {
  return Tensor::make(s, dt, sizes, strides, offset, nullptr);
}

// Every byte address (as an integer) of every element, with multiplicity.
std::vector<uint64_t> byte_addresses(const Tensor& t) {
  std::vector<uint64_t> out;
  for (int64_t n : t.sizes()) {
    if (n <= 0) return out;
  }
  const int nd = t.ndim();
  std::vector<int64_t> idx(size_t(nd), 0);
  const uint64_t base = uint64_t(uintptr_t(t.storage()->data()));
  const int64_t isz = t.itemsize();
  out.reserve(size_t(t.numel() * isz));
  for (;;) {
    int64_t e = t.offset();
    for (int d = 0; d < nd; ++d) e += idx[size_t(d)] * t.stride(d);
    for (int64_t y = 0; y < isz; ++y) out.push_back(base + uint64_t(e * isz + y));
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < t.size(d)) break;
      idx[size_t(d)] = 0;
    }
    if (d < 0) break;
  }
  return out;
}

// One flag per byte address in [lo, lo + size): a bitmap over the bytes of some tensors.
struct ByteMap {
  uint64_t lo = 0;
  std::vector<uint8_t> hits;
  explicit ByteMap(const std::vector<const std::vector<uint64_t>*>& sets) {
    uint64_t hi = 0;
    bool any = false;
    for (const auto* v : sets) {
      for (uint64_t x : *v) {
        lo = any ? std::min(lo, x) : x;
        hi = any ? std::max(hi, x) : x;
        any = true;
      }
    }
    hits.assign(any ? size_t(hi - lo + 1) : 0, 0);
  }
  uint8_t& at(uint64_t x) { return hits[size_t(x - lo)]; }
};

int brute_overlaps(const Tensor& a, const Tensor& b) {
  const std::vector<uint64_t> x = byte_addresses(a), y = byte_addresses(b);
  ByteMap map({&x, &y});
  for (uint64_t p : x) map.at(p) = 1;
  for (uint64_t p : y) {
    if (map.at(p)) return 1;
  }
  return 0;
}

bool brute_may_overlap(const Tensor& a, const Tensor& b) {
  std::vector<uint64_t> x = byte_addresses(a), y = byte_addresses(b);
  if (x.empty() || y.empty()) return false;
  auto [xl, xh] = std::minmax_element(x.begin(), x.end());
  auto [yl, yh] = std::minmax_element(y.begin(), y.end());
  return *xl <= *yh && *yl <= *xh;
}

bool brute_internal(const Tensor& t) {
  const std::vector<uint64_t> x = byte_addresses(t);
  ByteMap map({&x});
  for (uint64_t p : x) {
    if (map.at(p)++) return true;
  }
  return false;
}

const DType kDTypes[] = {DType::UInt8, DType::Int16, DType::Float32, DType::Float64};

struct RandomGeometry {
  int max_ndim = 4;
  int64_t max_size = 5;
  int64_t max_stride = 12;
  int64_t max_offset = 20;
  bool negative_strides = false;
};

// A random tensor on s whose every element lies inside s (s must be big enough).
Ref<Tensor> random_tensor(std::mt19937_64& rng, Storage* s, const RandomGeometry& g) {
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const DType dt = kDTypes[uni(0, 3)];
  const int nd = int(uni(0, g.max_ndim));
  Shape sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd));
  int64_t offset = uni(0, g.max_offset);
  for (int d = 0; d < nd; ++d) {
    sizes[size_t(d)] = uni(0, g.max_size);
    strides[size_t(d)] = uni(g.negative_strides ? -g.max_stride : 0, g.max_stride);
    // Keep the lowest element at or above the storage start.
    if (strides[size_t(d)] < 0 && sizes[size_t(d)] > 0) offset += -strides[size_t(d)] * (sizes[size_t(d)] - 1);
  }
  return view(s, dt, sizes, strides, offset);
}

std::string describe(const Tensor& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " itemsize %lld offset %lld addr %p", (long long)t.itemsize(),
                (long long)t.offset(), (void*)t.storage()->data());
  return "sizes " + ct::list_str(t.sizes()) + " strides " + ct::list_str(t.strides()) + buf;
}

// Checks one pair against the brute force; returns the exact answer.
int check_pair(const Tensor& a, const Tensor& b) {
  const int want = brute_overlaps(a, b);
  const int got = ct::overlaps(a, b);
  EXPECT_EQ(got, want) << "a: " << describe(a) << "\nb: " << describe(b);
  EXPECT_EQ(ct::overlaps(b, a), want) << "a: " << describe(a) << "\nb: " << describe(b);
  EXPECT_EQ(ct::may_overlap(a, b), brute_may_overlap(a, b)) << "a: " << describe(a) << "\nb: " << describe(b);
  if (got == 1) { EXPECT_TRUE(ct::may_overlap(a, b)); }
  return want;
}

void check_internal(const Tensor& t) {
  EXPECT_EQ(ct::has_internal_overlap(t), brute_internal(t)) << describe(t);
}

// ---------------------------------------------------------------------------------------
// Random geometries against the brute force.

TEST(MemOverlap, RandomSmallSameStorage) {
  std::mt19937_64 rng(12345);
  Ref<Storage> s = owned_storage(4096);
  RandomGeometry g;
  int yes = 0, no = 0;
  for (int it = 0; it < 6000; ++it) {
    Ref<Tensor> a = random_tensor(rng, s.get(), g), b = random_tensor(rng, s.get(), g);
    (check_pair(*a, *b) ? yes : no)++;
    check_internal(*a);
    if (HasFailure()) break;
  }
  // Both answers are well represented, so the comparison means something.
  EXPECT_GT(yes, 800);
  EXPECT_GT(no, 1000);
}

TEST(MemOverlap, RandomSmallNegativeStrides) {
  std::mt19937_64 rng(777);
  Ref<Storage> s = owned_storage(8192);
  RandomGeometry g;
  g.negative_strides = true;
  for (int it = 0; it < 4000; ++it) {
    Ref<Tensor> a = random_tensor(rng, s.get(), g), b = random_tensor(rng, s.get(), g);
    check_pair(*a, *b);
    check_internal(*a);
    if (HasFailure()) break;
  }
}

// Two storages wrapping the same foreign bytes, one of them shifted by a few bytes: only
// real addresses can tell what overlaps.
TEST(MemOverlap, RandomForeignMemoryShifted) {
  std::mt19937_64 rng(4242);
  std::vector<char> buf(8192);
  for (int shift : {0, 1, 3, 8, 13}) {
    Ref<Storage> s1 = Ref<Storage>::adopt(Storage::wrap(buf.data(), 4096, nullptr, nullptr, false));
    Ref<Storage> s2 = Ref<Storage>::adopt(Storage::wrap(buf.data() + shift, 4096, nullptr, nullptr, false));
    ASSERT_NE(s1->id(), s2->id());
    RandomGeometry g;
    for (int it = 0; it < 1000; ++it) {
      Ref<Tensor> a = random_tensor(rng, s1.get(), g), b = random_tensor(rng, s2.get(), g);
      check_pair(*a, *b);
      if (HasFailure()) return;
    }
  }
}

// Bigger sizes and strides: deeper searches, still small enough for the brute force.
TEST(MemOverlap, RandomMedium) {
  std::mt19937_64 rng(99);
  Ref<Storage> s = owned_storage(1 << 17);
  RandomGeometry g;
  g.max_ndim = 3;
  g.max_size = 24;
  g.max_stride = 90;
  g.max_offset = 200;
  int yes = 0, no = 0;
  for (int it = 0; it < 1500; ++it) {
    Ref<Tensor> a = random_tensor(rng, s.get(), g), b = random_tensor(rng, s.get(), g);
    (check_pair(*a, *b) ? yes : no)++;
    check_internal(*a);
    if (HasFailure()) break;
  }
  EXPECT_GT(yes, 200);
  EXPECT_GT(no, 200);
}

// Strides drawn as small multiples of a few bases: lots of shared factors, which is where
// the gcd pruning and the absorption of terms do their work.
TEST(MemOverlap, RandomCommensurate) {
  std::mt19937_64 rng(2024);
  Ref<Storage> s = owned_storage(1 << 16);
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const int64_t bases[] = {1, 2, 3, 4, 6, 12};
  auto make_one = [&]() {
    const DType dt = kDTypes[uni(0, 3)];
    const int nd = int(uni(1, 4));
    Shape sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) {
      sizes[size_t(d)] = uni(1, 8);
      strides[size_t(d)] = bases[uni(0, 5)] * uni(0, 6);
    }
    return view(s.get(), dt, sizes, strides, uni(0, 40));
  };
  for (int it = 0; it < 4000; ++it) {
    Ref<Tensor> a = make_one(), b = make_one();
    check_pair(*a, *b);
    check_internal(*a);
    if (HasFailure()) break;
  }
}

// Internal overlap on geometries chosen to make it likely but not certain.
TEST(MemOverlap, RandomInternal) {
  std::mt19937_64 rng(31337);
  Ref<Storage> s = owned_storage(1 << 16);
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  int yes = 0, no = 0;
  for (int it = 0; it < 5000; ++it) {
    const int nd = int(uni(1, 4));
    Shape sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) {
      sizes[size_t(d)] = uni(1, 7);
      strides[size_t(d)] = uni(1, 30);
    }
    Ref<Tensor> t = view(s.get(), kDTypes[uni(0, 3)], sizes, strides, uni(0, 5));
    const bool want = brute_internal(*t);
    (want ? yes : no)++;
    ASSERT_EQ(ct::has_internal_overlap(*t), want) << describe(*t);
  }
  EXPECT_GT(yes, 500);
  EXPECT_GT(no, 500);
}

// With a tiny budget the answer is the exact one or -2, never a wrong 0/1.
TEST(MemOverlap, SmallBudgetIsExactOrTooHard) {
  std::mt19937_64 rng(5);
  Ref<Storage> s = owned_storage(1 << 17);
  RandomGeometry g;
  g.max_ndim = 4;
  g.max_size = 12;
  g.max_stride = 60;
  g.max_offset = 100;
  int too_hard = 0;
  for (int it = 0; it < 2000; ++it) {
    Ref<Tensor> a = random_tensor(rng, s.get(), g), b = random_tensor(rng, s.get(), g);
    const int want = brute_overlaps(*a, *b);
    for (int64_t budget : {int64_t(-1), int64_t(0), int64_t(1), int64_t(3), int64_t(10)}) {
      const int got = ct::overlaps(*a, *b, budget);
      too_hard += got == -2;
      ASSERT_TRUE(got == want || got == -2)
          << "budget " << budget << " got " << got << " want " << want << "\na: " << describe(*a)
          << "\nb: " << describe(*b);
    }
  }
  EXPECT_GT(too_hard, 0);  // some problems do need a search
}

// Strided slices (any start, step 1-5 per dim, dims permuted) of one big contiguous parent
// that is never materialized.  Two such views share an element exactly when, in every
// parent dim, their index progressions meet: an exact reference for geometries far too
// big for the brute force.  These are the overlaps real programs ask about, and the
// search must decide them within a few dozen steps.
TEST(MemOverlap, SlicesOfOneParentAreExactAndCheap) {
  std::mt19937_64 rng(8);
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  Ref<Storage> s = owned_storage(64);
  struct Slice {
    Shape start, step, count;
  };
  int yes = 0, no = 0;
  for (int it = 0; it < 4000; ++it) {
    const int nd = int(uni(1, 4));
    const DType dt = kDTypes[uni(0, 3)];
    Shape parent(static_cast<size_t>(nd));
    for (int64_t& n : parent) n = uni(1, 3000);
    const Shape cstrides = ct::contiguous_strides(parent);
    auto make_slice = [&](Slice& sl) {
      sl = {Shape(parent.size()), Shape(parent.size()), Shape(parent.size())};
      Shape sizes(parent.size()), strides(parent.size());
      int64_t offset = 0;
      for (size_t d = 0; d < parent.size(); ++d) {
        sl.start[d] = uni(0, parent[d] - 1);
        sl.step[d] = uni(1, 5);
        sl.count[d] = uni(1, (parent[d] - sl.start[d] + sl.step[d] - 1) / sl.step[d]);
        offset += sl.start[d] * cstrides[d];
      }
      std::vector<size_t> perm(parent.size());
      for (size_t d = 0; d < perm.size(); ++d) perm[d] = d;
      std::shuffle(perm.begin(), perm.end(), rng);
      for (size_t d = 0; d < perm.size(); ++d) {
        sizes[d] = sl.count[perm[d]];
        strides[d] = cstrides[perm[d]] * sl.step[perm[d]];
      }
      return view(s.get(), dt, sizes, strides, offset);
    };
    Slice sa, sb;
    Ref<Tensor> a = make_slice(sa), b = make_slice(sb);
    bool want = true;
    for (size_t d = 0; d < parent.size() && want; ++d) {
      bool meet = false;
      for (int64_t i = 0; i < sa.count[d] && !meet; ++i) {
        const int64_t diff = sa.start[d] + i * sa.step[d] - sb.start[d];
        meet = diff >= 0 && diff % sb.step[d] == 0 && diff / sb.step[d] < sb.count[d];
      }
      want = meet;
    }
    (want ? yes : no)++;
    ASSERT_EQ(ct::overlaps(*a, *b, 64), int(want)) << "a: " << describe(*a) << "\nb: " << describe(*b);
    ASSERT_FALSE(ct::has_internal_overlap(*a)) << describe(*a);
    if (want) {
      ASSERT_TRUE(ct::may_overlap(*a, *b));
    }
  }
  EXPECT_GT(yes, 400);
  EXPECT_GT(no, 400);
}

// ---------------------------------------------------------------------------------------
// Classic cases.

TEST(MemOverlap, EmptyTensorsOverlapNothing) {
  Ref<Tensor> x = Tensor::empty(Shape{4, 5}, DType::Float32, "t");
  Ref<Tensor> e = view(x->storage(), DType::Float32, {0, 5}, {5, 1}, 0);
  Ref<Tensor> e2 = view(x->storage(), DType::Float32, {3, 0}, {0, 0}, 0);
  EXPECT_EQ(ct::overlaps(*x, *e), 0);
  EXPECT_EQ(ct::overlaps(*e, *e), 0);
  EXPECT_FALSE(ct::may_overlap(*x, *e));
  EXPECT_FALSE(ct::may_overlap(*e2, *x));
  EXPECT_FALSE(ct::has_internal_overlap(*e));
  EXPECT_FALSE(ct::has_internal_overlap(*e2));
  Ref<Tensor> none = Tensor::empty(Shape{0}, DType::Float64, "t");  // storage without bytes
  EXPECT_EQ(ct::overlaps(*none, *none), 0);
  EXPECT_FALSE(ct::may_overlap(*none, *none));
}

TEST(MemOverlap, SelfScalarsAndCopies) {
  Ref<Tensor> x = Tensor::empty(Shape{3, 4}, DType::Float32, "t");
  Ref<Tensor> y = Tensor::empty(Shape{3, 4}, DType::Float32, "t");
  EXPECT_EQ(ct::overlaps(*x, *x), 1);
  EXPECT_EQ(ct::overlaps(*x, *y), 0);
  EXPECT_FALSE(ct::may_overlap(*x, *y));
  Ref<Tensor> s0 = view(x->storage(), DType::Float32, {}, {}, 5);
  Ref<Tensor> s1 = view(x->storage(), DType::Float32, {}, {}, 5);
  Ref<Tensor> s2 = view(x->storage(), DType::Float32, {}, {}, 6);
  EXPECT_EQ(ct::overlaps(*s0, *s1), 1);
  EXPECT_EQ(ct::overlaps(*s0, *s2), 0);
  EXPECT_EQ(ct::overlaps(*s0, *x), 1);
  EXPECT_FALSE(ct::has_internal_overlap(*s0));
}

TEST(MemOverlap, Transpose) {
  Ref<Tensor> x = Tensor::empty(Shape{3, 4}, DType::Float32, "t");
  Ref<Tensor> xt = view(x->storage(), DType::Float32, {4, 3}, {1, 4}, 0);
  EXPECT_EQ(ct::overlaps(*x, *xt), 1);
  EXPECT_TRUE(ct::may_overlap(*x, *xt));
  EXPECT_FALSE(ct::has_internal_overlap(*xt));
  // x[:, 0] (elements 0, 4, 8) against x.T[1:, 1:] (elements 5, 6, 7, 9, 10, 11): the
  // extents meet, the elements do not.
  Ref<Tensor> col0 = view(x->storage(), DType::Float32, {3}, {4}, 0);
  Ref<Tensor> rest = view(x->storage(), DType::Float32, {3, 2}, {1, 4}, 5);
  EXPECT_TRUE(ct::may_overlap(*col0, *rest));
  EXPECT_EQ(check_pair(*col0, *rest), 0);
}

TEST(MemOverlap, EvenOddSlices) {
  for (DType dt : kDTypes) {
    Ref<Tensor> x = Tensor::empty(Shape{10}, dt, "t");
    Ref<Tensor> even = view(x->storage(), dt, {5}, {2}, 0);
    Ref<Tensor> odd = view(x->storage(), dt, {5}, {2}, 1);
    EXPECT_EQ(ct::overlaps(*even, *odd), 0);
    EXPECT_TRUE(ct::may_overlap(*even, *odd));
    EXPECT_EQ(ct::overlaps(*even, *x), 1);
    EXPECT_EQ(ct::overlaps(*odd, *x), 1);
  }
}

TEST(MemOverlap, InterleavedColumns) {
  Ref<Tensor> x = Tensor::empty(Shape{4, 6}, DType::Float64, "t");
  Storage* s = x->storage();
  Ref<Tensor> c02 = view(s, DType::Float64, {4, 3}, {6, 2}, 0);  // x[:, ::2]
  Ref<Tensor> c12 = view(s, DType::Float64, {4, 3}, {6, 2}, 1);  // x[:, 1::2]
  Ref<Tensor> c03 = view(s, DType::Float64, {4, 2}, {6, 3}, 0);  // x[:, ::3]
  Ref<Tensor> c13 = view(s, DType::Float64, {4, 2}, {6, 3}, 1);  // x[:, 1::3]
  Ref<Tensor> row1 = view(s, DType::Float64, {6}, {1}, 6);       // x[1]
  EXPECT_EQ(check_pair(*c02, *c12), 0);
  EXPECT_EQ(check_pair(*c02, *c03), 1);
  EXPECT_EQ(check_pair(*c12, *c03), 1);  // column 3
  EXPECT_EQ(check_pair(*c02, *c13), 1);  // column 4
  EXPECT_EQ(check_pair(*c12, *c13), 1);  // column 1
  EXPECT_EQ(check_pair(*row1, *c13), 1);
  // NumPy's example: x = int8 (4, 20); x[:, ::7] and x[:, 3::3] never meet.
  Ref<Tensor> y = Tensor::empty(Shape{4, 20}, DType::Int8, "t");
  Ref<Tensor> a = view(y->storage(), DType::Int8, {4, 3}, {20, 7}, 0);
  Ref<Tensor> b = view(y->storage(), DType::Int8, {4, 6}, {20, 3}, 3);
  EXPECT_EQ(check_pair(*a, *b), 0);
}

TEST(MemOverlap, ForeignMemoryWrappedTwice) {
  alignas(64) static char buf[256];
  Ref<Storage> s1 = Ref<Storage>::adopt(Storage::wrap(buf, 256, nullptr, nullptr, false));
  Ref<Storage> s2 = Ref<Storage>::adopt(Storage::wrap(buf, 256, nullptr, nullptr, true));
  ASSERT_NE(s1->id(), s2->id());
  Ref<Tensor> a = view(s1.get(), DType::Float32, {8, 8}, {8, 1}, 0);
  Ref<Tensor> b = view(s2.get(), DType::Float32, {8, 8}, {8, 1}, 0);
  EXPECT_EQ(ct::overlaps(*a, *b), 1);
  EXPECT_TRUE(ct::may_overlap(*a, *b));
  Ref<Tensor> top = view(s1.get(), DType::Float32, {4, 8}, {8, 1}, 0);
  Ref<Tensor> bottom = view(s2.get(), DType::Float32, {4, 8}, {8, 1}, 32);
  EXPECT_EQ(ct::overlaps(*top, *bottom), 0);
  EXPECT_FALSE(ct::may_overlap(*top, *bottom));
  Ref<Tensor> bt = view(s2.get(), DType::Float32, {8, 8}, {1, 8}, 0);  // transpose, other storage
  EXPECT_EQ(check_pair(*top, *bt), 1);
  // A storage that starts 4 bytes in: its element 0 is float 1 of the first one.
  Ref<Storage> s3 = Ref<Storage>::adopt(Storage::wrap(buf + 4, 252, nullptr, nullptr, false));
  Ref<Tensor> even = view(s1.get(), DType::Float32, {32}, {2}, 0);
  Ref<Tensor> shifted_even = view(s3.get(), DType::Float32, {31}, {2}, 0);
  EXPECT_EQ(check_pair(*even, *shifted_even), 0);
  Ref<Tensor> shifted_odd = view(s3.get(), DType::Float32, {31}, {2}, 1);
  EXPECT_EQ(check_pair(*even, *shifted_odd), 1);
}

TEST(MemOverlap, DifferentDTypesSameBytes) {
  Ref<Tensor> f = Tensor::empty(Shape{4}, DType::Float32, "t");  // bytes 0..15
  Storage* s = f->storage();
  Ref<Tensor> byte3 = view(s, DType::UInt8, {1}, {1}, 3);
  Ref<Tensor> byte16 = view(s, DType::UInt8, {1}, {1}, 16);
  EXPECT_EQ(check_pair(*f, *byte3), 1);
  EXPECT_EQ(check_pair(*f, *byte16), 0);
  // float32 elements 0 and 2 (bytes 0-3, 8-11) against int16 halves 2 and 6 (bytes 4-5,
  // 12-13): disjoint; against int16 halves 1, 3, 5 (bytes 2-3, 6-7, 10-11): shared.
  Ref<Tensor> f_even = view(s, DType::Float32, {2}, {2}, 0);
  Ref<Tensor> h26 = view(s, DType::Int16, {2}, {4}, 2);
  Ref<Tensor> h135 = view(s, DType::Int16, {3}, {2}, 1);
  EXPECT_EQ(check_pair(*f_even, *h26), 0);
  EXPECT_EQ(check_pair(*f_even, *h135), 1);
  // A float64 over the same 8 bytes as two float32.
  Ref<Tensor> d = view(s, DType::Float64, {1}, {1}, 1);  // bytes 8..15
  Ref<Tensor> f_first = view(s, DType::Float32, {2}, {1}, 0);
  EXPECT_EQ(check_pair(*d, *f_first), 0);
  EXPECT_EQ(check_pair(*d, *f_even), 1);
}

TEST(MemOverlap, InternalOverlapCases) {
  Ref<Storage> s = owned_storage(1024);
  auto internal = [&](Shape sizes, Shape strides, DType dt = DType::Float32) {
    Ref<Tensor> t = view(s.get(), dt, sizes, strides, 0);
    const bool got = ct::has_internal_overlap(*t);
    EXPECT_EQ(got, brute_internal(*t)) << describe(*t);
    return got;
  };
  EXPECT_TRUE(internal({3, 4}, {0, 1}));      // expand
  EXPECT_TRUE(internal({4}, {0}));
  EXPECT_FALSE(internal({1, 4}, {0, 1}));     // size-1 stride-0 dim is harmless
  EXPECT_TRUE(internal({2, 2}, {1, 1}));
  EXPECT_FALSE(internal({3, 4}, {4, 1}));
  EXPECT_FALSE(internal({3, 2}, {2, 1}));
  EXPECT_TRUE(internal({3, 3}, {2, 1}));
  EXPECT_FALSE(internal({4, 3}, {1, 4}));     // transpose
  EXPECT_FALSE(internal({5}, {3}));
  EXPECT_TRUE(internal({4, 2}, {1, 3}));      // index (3, 0) and (0, 1)
  EXPECT_FALSE(internal({3, 2}, {1, 3}));
  EXPECT_TRUE(internal({3, 3, 3}, {6, 4, 1}, DType::Float64));  // 6 + 0 == 0*6 + 1*4 + 2*1
  EXPECT_FALSE(internal({2, 2, 2}, {7, 3, 1}, DType::Int16));
  EXPECT_TRUE(internal({2, 3, 2}, {7, 3, 1}, DType::Int16));    // 7 == 2*3 + 1
  // unfold(0, 3, 1) of a 6-vector: sliding windows share elements.
  EXPECT_TRUE(internal({4, 3}, {1, 1}));
  // unfold(0, 2, 2): windows side by side, no sharing.
  EXPECT_FALSE(internal({3, 2}, {2, 1}));
  // A negative stride changes nothing.
  Ref<Tensor> flipped = view(s.get(), DType::Float32, {3, 3}, {-2, 1}, 10);
  EXPECT_TRUE(ct::has_internal_overlap(*flipped));
  Ref<Tensor> flipped_ok = view(s.get(), DType::Float32, {3, 4}, {-4, 1}, 10);
  EXPECT_FALSE(ct::has_internal_overlap(*flipped_ok));
}

// ---------------------------------------------------------------------------------------
// Huge geometries (built with make on a small storage; nothing is ever dereferenced):
// every call must return promptly with an answer that is right or -2.

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr int64_t P62 = int64_t(1) << 62;
constexpr int64_t P31 = int64_t(1) << 31;

TEST(MemOverlap, HugeGeometriesArePrompt) {
  Ref<Storage> s = owned_storage(64);
  double worst = 0;
  auto timed = [&](auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = f();
    worst = std::max(worst, seconds_since(t0));
    return r;
  };

  Ref<Tensor> whole = view(s.get(), DType::UInt8, {P62}, {1}, 0);
  Ref<Tensor> even = view(s.get(), DType::UInt8, {P62 / 2}, {2}, 0);
  Ref<Tensor> odd = view(s.get(), DType::UInt8, {P62 / 2}, {2}, 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*even, *odd); }), 0);
  EXPECT_EQ(timed([&] { return ct::overlaps(*even, *whole); }), 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*odd, *whole); }), 1);
  EXPECT_FALSE(timed([&] { return ct::has_internal_overlap(*even); }));

  // Float64 even/odd over 2^62 elements: byte extents beyond int64, still exact.
  Ref<Tensor> d_even = view(s.get(), DType::Float64, {P62 / 2}, {2}, 0);
  Ref<Tensor> d_odd = view(s.get(), DType::Float64, {P62 / 2}, {2}, 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*d_even, *d_odd); }), 0);
  // Odd bytes of the float64 array (1-byte view) against its elements: overlap.
  Ref<Tensor> odd_bytes = view(s.get(), DType::UInt8, {P62}, {2}, 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*d_even, *odd_bytes); }), 1);

  // 2-d: a huge matrix, its transpose, its diagonal, two interleaved column sets.
  Ref<Tensor> m = view(s.get(), DType::Float32, {P31, P31}, {P31, 1}, 0);
  Ref<Tensor> mt = view(s.get(), DType::Float32, {P31, P31}, {1, P31}, 0);
  Ref<Tensor> diag = view(s.get(), DType::Float32, {P31}, {P31 + 1}, 0);
  Ref<Tensor> cols_a = view(s.get(), DType::Float32, {P31, P31 / 2}, {P31, 2}, 0);
  Ref<Tensor> cols_b = view(s.get(), DType::Float32, {P31, P31 / 2}, {P31, 2}, 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*m, *mt); }), 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*diag, *mt); }), 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*cols_a, *cols_b); }), 0);
  EXPECT_EQ(timed([&] { return ct::overlaps(*diag, *cols_a); }), 1);
  EXPECT_EQ(timed([&] { return ct::overlaps(*diag, *cols_b); }), 1);  // (1, 1)
  EXPECT_FALSE(timed([&] { return ct::has_internal_overlap(*mt); }));
  EXPECT_FALSE(timed([&] { return ct::has_internal_overlap(*cols_b); }));
  Ref<Tensor> skew = view(s.get(), DType::Float32, {P31, P31}, {P31 - 1, 1}, 0);
  EXPECT_TRUE(timed([&] { return ct::has_internal_overlap(*skew); }));

  // NumPy's hard instance (non-overlapping): a correct 0, or -2, and quickly.
  Ref<Tensor> x1 = view(s.get(), DType::Int8, {1049, 1049, 1049}, {36674, 61119, 85569}, 0);
  Ref<Tensor> x2 = view(s.get(), DType::Int8, {1049, 1049, 1}, {12223, 12224, 1}, 64023025);
  const int hard = timed([&] { return ct::overlaps(*x1, *x2); });
  EXPECT_TRUE(hard == 0 || hard == -2) << hard;
  (void)timed([&] { return ct::has_internal_overlap(*x1); });  // either answer, promptly

  // Strides and sizes at the edge of int64: no overflow, no crash, no hang.
  const int64_t big = INT64_MAX;
  // (Tensor::make refuses element counts beyond int64, and strides or offsets whose byte
  // value overflows, so the extreme strides are on 1-byte dtypes.)
  Ref<Tensor> e1 = view(s.get(), DType::UInt8, {P31, P31}, {P62, P62 - 1}, 0);
  Ref<Tensor> e2 = view(s.get(), DType::UInt8, {P31, 3}, {big, big}, big);
  Ref<Tensor> e3 = view(s.get(), DType::Int8, {P31, 2, 2}, {INT64_MIN, big, -big}, INT64_MIN);
  Ref<Tensor> e4 = view(s.get(), DType::UInt8, {2, 2}, {big, INT64_MIN}, 0);
  std::vector<Tensor*> edge;
  for (Tensor* t : {e1.get(), e2.get(), e3.get(), e4.get(), whole.get(), m.get(), x1.get()}) edge.push_back(t);
  for (Tensor* p : edge) {
    for (Tensor* q : edge) {
      const int r = timed([&] { return ct::overlaps(*p, *q); });
      EXPECT_TRUE(r == 0 || r == 1 || r == -2);
      if (p == q) { EXPECT_EQ(r, 1); }
      if (r == 1) { EXPECT_TRUE(ct::may_overlap(*p, *q)); }
    }
    (void)timed([&] { return ct::has_internal_overlap(*p); });
  }
  EXPECT_TRUE(ct::has_internal_overlap(*e2));   // two dims with the same stride
  // e4: indices (1, 0) and (0, 1) are at +big and -2^63: different, no overlap.
  EXPECT_FALSE(ct::has_internal_overlap(*e4));

  // Geometries whose element count overflows, or with negative sizes, cannot be built at all.
  EXPECT_THROW(view(s.get(), DType::Float64, {P62, P62}, {1, 1}, 0), ct::Error);
  EXPECT_THROW(view(s.get(), DType::Float32, {-3, 4}, {4, 1}, 0), ct::Error);
  // Nor can those whose strides or offset in bytes overflow int64 (unless they are empty).
  EXPECT_THROW(view(s.get(), DType::Float64, {2, 2}, {big, 1}, 0), ct::Error);
  EXPECT_THROW(view(s.get(), DType::Int16, {2}, {1}, big), ct::Error);
  EXPECT_NO_THROW(view(s.get(), DType::Float64, {0, 2}, {big, 1}, 0));

  std::printf("[ worst huge-case time ] %.3f ms\n", worst * 1e3);
  EXPECT_LT(worst, 2.0);
}

// The budget bounds the time of the worst instance we know of (NumPy's), whatever the answer.
TEST(MemOverlap, HardInstanceTiming) {
  Ref<Storage> s = owned_storage(64);
  Ref<Tensor> x1 = view(s.get(), DType::Int8, {1049, 1049, 1049}, {36674, 61119, 85569}, 0);
  Ref<Tensor> x2 = view(s.get(), DType::Int8, {1049, 1049, 1}, {12223, 12224, 1}, 64023025);
  for (int64_t budget : {int64_t(1) << 10, int64_t(1) << 16, ct::kDefaultOverlapWork}) {
    const auto t0 = std::chrono::steady_clock::now();
    const int r = ct::overlaps(*x1, *x2, budget);
    const double dt = seconds_since(t0);
    std::printf("[ numpy hard instance ] budget %lld -> %d in %.3f ms\n", (long long)budget, r, dt * 1e3);
    EXPECT_TRUE(r == 0 || r == -2);
    EXPECT_LT(dt, 5.0);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool internal = ct::has_internal_overlap(*x1);
  std::printf("[ numpy hard instance ] has_internal_overlap -> %d in %.3f ms\n", int(internal),
              seconds_since(t0) * 1e3);
}

}  // namespace
