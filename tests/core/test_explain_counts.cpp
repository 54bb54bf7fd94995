// Tests of src/core/explain: the exact shared-element counts (Note [Counting shared
// elements]) against a brute force over every element's bytes, and the explanation text.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/explain.h"
#include "core/overlap.h"
#include "core/storage.h"
#include "core/tensor.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Shape;
using ct::Storage;
using ct::Tensor;

Ref<Storage> owned_storage(int64_t nbytes) {
  return Ref<Storage>::adopt(Storage::allocate(nbytes, "test_explain"));
}

Ref<Tensor> on(Storage* s, DType dt, Shape sizes, Shape strides, int64_t offset, Tensor* base = nullptr) {
  return Tensor::make(s, dt, sizes, strides, offset, base);
}

// Start address of every element (distinct).
std::set<int64_t> element_starts(const Tensor& t) {
  std::set<int64_t> out;
  if (t.numel() == 0) return out;
  std::vector<int64_t> idx(size_t(t.ndim()), 0);
  const int64_t base = int64_t(uintptr_t(t.storage()->data()));
  for (;;) {
    int64_t e = t.offset();
    for (int d = 0; d < t.ndim(); ++d) e += idx[size_t(d)] * t.stride(d);
    out.insert(base + e * t.itemsize());
    int d = t.ndim() - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < t.size(d)) break;
      idx[size_t(d)] = 0;
    }
    if (d < 0) break;
  }
  return out;
}

// Elements of x (by start address) sharing a byte with some element of y.
int64_t brute_touched(const Tensor& x, const Tensor& y) {
  std::set<int64_t> ybytes;
  for (int64_t s : element_starts(y)) {
    for (int64_t k = 0; k < y.itemsize(); ++k) ybytes.insert(s + k);
  }
  int64_t n = 0;
  for (int64_t s : element_starts(x)) {
    for (int64_t k = 0; k < x.itemsize(); ++k) {
      if (ybytes.count(s + k)) {
        ++n;
        break;
      }
    }
  }
  return n;
}

TEST(ExplainCounts, ViewsOfOneMatrix) {
  auto s = owned_storage(12 * 4);
  auto x = on(s.get(), DType::Float32, {3, 4}, {4, 1}, 0);
  auto row1 = on(s.get(), DType::Float32, {4}, {1}, 4, x.get());
  auto col2 = on(s.get(), DType::Float32, {3}, {4}, 2, x.get());
  auto xt = on(s.get(), DType::Float32, {4, 3}, {1, 4}, 0, x.get());

  auto r = ct::count_shared_elements(*x, *row1);
  EXPECT_TRUE(r.known);
  EXPECT_EQ(r.distinct_a, 12);
  EXPECT_EQ(r.distinct_b, 4);
  EXPECT_EQ(r.shared_a, 4);
  EXPECT_EQ(r.shared_b, 4);

  r = ct::count_shared_elements(*row1, *col2);  // they cross at x[1, 2]
  EXPECT_EQ(r.shared_a, 1);
  EXPECT_EQ(r.shared_b, 1);

  r = ct::count_shared_elements(*x, *xt);  // a transpose covers the same memory
  EXPECT_EQ(r.shared_a, 12);
  EXPECT_EQ(r.shared_b, 12);
}

TEST(ExplainCounts, ExpandCountsEachLocationOnce) {
  auto s = owned_storage(3 * 8);
  auto v = on(s.get(), DType::Float64, {3}, {1}, 0);
  auto e = on(s.get(), DType::Float64, {4, 3}, {0, 1}, 0, v.get());
  EXPECT_EQ(ct::count_distinct_elements(*e), 3);
  EXPECT_EQ(ct::count_distinct_elements(*v), 3);
  const auto r = ct::count_shared_elements(*e, *v);
  EXPECT_EQ(r.distinct_a, 3);
  EXPECT_EQ(r.shared_a, 3);
  EXPECT_EQ(r.shared_b, 3);
}

TEST(ExplainCounts, MixedItemsizesCountFromEachSide) {
  auto s = owned_storage(16);
  auto f = on(s.get(), DType::Float32, {4}, {1}, 0);     // 4 elements of 4 bytes
  auto b = on(s.get(), DType::UInt8, {3}, {5}, 1);       // bytes 1, 6, 11
  const auto r = ct::count_shared_elements(*f, *b);
  EXPECT_EQ(r.shared_a, 3);  // floats 0, 1, 2
  EXPECT_EQ(r.shared_b, 3);
  auto h = on(s.get(), DType::Float16, {2}, {1}, 1);     // bytes 2..5: floats 0 and 1
  const auto q = ct::count_shared_elements(*f, *h);
  EXPECT_EQ(q.shared_a, 2);
  EXPECT_EQ(q.shared_b, 2);
}

TEST(ExplainCounts, SameLocationsNeedsTheSameAddressesNotJustCounts) {
  auto s = owned_storage(64);
  auto x = on(s.get(), DType::Float32, {2, 3}, {3, 1}, 0);
  auto xt = on(s.get(), DType::Float32, {3, 2}, {1, 3}, 0, x.get());
  EXPECT_TRUE(ct::count_shared_elements(*x, *xt).same_locations);
  // Foreign memory: two float32 tensors 2 bytes apart.  Every element of each touches the
  // other's, yet no element starts at the same address.
  alignas(8) static char buf[24];
  auto w1 = Ref<Storage>::adopt(Storage::wrap(buf, 16, nullptr, nullptr, false));
  auto w2 = Ref<Storage>::adopt(Storage::wrap(buf + 2, 16, nullptr, nullptr, false));
  auto p = on(w1.get(), DType::Float32, {4}, {1}, 0);
  auto q = on(w2.get(), DType::Float32, {4}, {1}, 0);
  const auto r = ct::count_shared_elements(*p, *q);
  EXPECT_EQ(r.shared_a, 4);
  EXPECT_EQ(r.shared_b, 4);
  EXPECT_FALSE(r.same_locations);
  // The same 24 bytes as 3 float64: same memory, different elements.
  EXPECT_FALSE(ct::count_shared_elements(*x, *on(s.get(), DType::Float64, {3}, {1}, 0)).same_locations);
}

TEST(ExplainCounts, BoundGivesUnknownNotAGuess) {
  auto s = owned_storage(1000 * 4);
  auto every_other = on(s.get(), DType::Float32, {500}, {2}, 0);  // 500 runs of one element
  auto all = on(s.get(), DType::Float32, {1000}, {1}, 0);          // one run
  EXPECT_TRUE(ct::count_shared_elements(*every_other, *all, 500).known);
  EXPECT_FALSE(ct::count_shared_elements(*every_other, *all, 499).known);
  EXPECT_EQ(ct::count_shared_elements(*every_other, *all, 500).shared_b, 500);
}

TEST(ExplainCounts, ContiguousTensorsAreOneRunWhateverTheirSize) {
  // 2^26 elements but one run: counted exactly, instantly, under the default bound.
  auto s = owned_storage((int64_t(1) << 26) * 4);
  auto x = on(s.get(), DType::Float32, {1 << 13, 1 << 13}, {1 << 13, 1}, 0);
  auto rows = on(s.get(), DType::Float32, {100, 1 << 13}, {1 << 13, 1}, 5 << 13, x.get());
  const auto r = ct::count_shared_elements(*x, *rows);
  EXPECT_TRUE(r.known);
  EXPECT_EQ(r.shared_a, 100 << 13);
  EXPECT_EQ(r.distinct_a, int64_t(1) << 26);
}

TEST(ExplainCounts, RandomGeometriesMatchBruteForce) {
  std::mt19937_64 rng(20261122);
  const DType dtypes[] = {DType::UInt8, DType::Int16, DType::Float32, DType::Float64};
  const int64_t nbytes = 512;
  auto s = owned_storage(nbytes);
  auto random_tensor = [&]() {
    const DType dt = dtypes[rng() % 4];
    const int64_t isz = ct::itemsize(dt);
    const int nd = int(rng() % 4);
    Shape sizes, strides;
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < nd; ++d) {
      const int64_t n = int64_t(rng() % 4) + 1;
      int64_t st = int64_t(rng() % 9) - 3;
      sizes.push_back(n);
      strides.push_back(st);
      (st < 0 ? lo : hi) += st * (n - 1);
    }
    const int64_t cap = nbytes / isz;
    int64_t off = -lo + int64_t(rng() % uint64_t(std::max<int64_t>(1, cap - (hi - lo))));
    if (off + hi >= cap) {  // does not fit: fall back to one element
      sizes.assign(size_t(nd), 1);
      off = 0;
    }
    return on(s.get(), dt, sizes, strides, off);
  };
  for (int iter = 0; iter < 3000; ++iter) {
    auto a = random_tensor();
    auto b = random_tensor();
    const auto r = ct::count_shared_elements(*a, *b);
    ASSERT_TRUE(r.known);
    ASSERT_EQ(r.distinct_a, int64_t(element_starts(*a).size()));
    ASSERT_EQ(r.distinct_b, int64_t(element_starts(*b).size()));
    ASSERT_EQ(r.shared_a, brute_touched(*a, *b)) << "iteration " << iter;
    ASSERT_EQ(r.shared_b, brute_touched(*b, *a)) << "iteration " << iter;
    ASSERT_EQ(r.shared_a > 0, ct::overlaps(*a, *b) == 1) << "iteration " << iter;
    ASSERT_EQ(ct::count_distinct_elements(*a), r.distinct_a);
  }
}

TEST(ExplainText, NamesEveryFact) {
  auto s = owned_storage(12 * 4);
  auto x = on(s.get(), DType::Float32, {3, 4}, {4, 1}, 0);
  auto row = on(s.get(), DType::Float32, {4}, {1}, 4, x.get());
  const std::string one = ct::explain(*x, nullptr);
  EXPECT_NE(one.find("a: tensor of shape [3, 4], dtype float32, 12 elements\n"), std::string::npos) << one;
  EXPECT_NE(one.find("  strides: [4, 1] elements\n"), std::string::npos) << one;
  EXPECT_NE(one.find("  contiguous: yes\n"), std::string::npos) << one;
  EXPECT_NE(one.find("  view: no"), std::string::npos) << one;
  EXPECT_EQ(one.find("b:"), std::string::npos) << one;

  const std::string two = ct::explain(*x, row.get());
  EXPECT_NE(two.find("b: tensor of shape [4], dtype float32, 4 elements\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  storage offset: 4 elements (16 bytes)\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  view: yes; base: tensor of shape [3, 4]"), std::string::npos) << two;
  EXPECT_NE(two.find("a and b:\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  same storage: yes (id " + std::to_string(s->id()) + ")\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  a is b's base: yes; b is a's base: no; same base: no\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  elements overlap (exact): yes\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  shared elements: 4 of a's 12 distinct, 4 of b's 4 distinct\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  same memory locations: no\n"), std::string::npos) << two;
}

}  // namespace
