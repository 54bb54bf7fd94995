// Note [Counters kept by the storage] (src/core/storage.h): the first version counter made for
// a tensor on a storage is kept alive by that storage, and a tensor whose counter is the one
// its storage keeps holds no reference on it.  Which counter each tensor shares must not
// change (Note [Version counters]), and every counter must live exactly as long as a tensor
// uses it: live_version_counters() sees one freed too early (the count drops while a tensor
// still reads it) or never (it stays up).  These tests walk the transitions: the source of an
// alias released first, an alias or a root moving to another storage and back, `.data` and
// `x.data = y`, and threads racing to make a tensor's first counter.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/metadata_ops.h"
#include "core/tensor.h"
#include "core/version_counter.h"
#include "core/views.h"

namespace ct {
namespace {

Ref<Tensor> fresh(int64_t n = 6) { return Tensor::empty(Shape{n}, DType::Float32, "test_kept_counters"); }

class KeptCounters : public ::testing::Test {
 protected:
  void SetUp() override {
    counters0_ = live_version_counters();
    storages0_ = live_storages();
    tensors0_ = live_tensors();
  }
  // Everything the test made is gone again.
  void TearDown() override {
    EXPECT_EQ(live_version_counters(), counters0_);
    EXPECT_EQ(live_storages(), storages0_);
    EXPECT_EQ(live_tensors(), tensors0_);
  }
  int64_t new_counters() const { return live_version_counters() - counters0_; }

 private:
  int64_t counters0_ = 0, storages0_ = 0, tensors0_ = 0;
};

TEST_F(KeptCounters, AnAliasOutlivesItsSource) {
  Ref<Tensor> a = fresh();
  EXPECT_EQ(new_counters(), 0) << "made lazily";
  Ref<Tensor> d = alias(*a);
  EXPECT_EQ(new_counters(), 1);
  EXPECT_TRUE(Tensor::same_version_counter(*a, *d));
  a = Ref<Tensor>();  // d's storage keeps the counter, d keeps the storage
  EXPECT_EQ(new_counters(), 1);
  d->bump_version();
  EXPECT_EQ(d->version(), 1);
  Ref<Tensor> dd = alias(*d);  // an alias of an alias, on the same storage
  EXPECT_TRUE(Tensor::same_version_counter(*d, *dd));
  dd->bump_version();
  EXPECT_EQ(d->version(), 2);
  EXPECT_EQ(new_counters(), 1);
}

TEST_F(KeptCounters, AnAliasMovedToAnotherStorageKeepsItsCounter) {
  Ref<Tensor> a = fresh();
  Ref<Tensor> d = alias(*a);
  Ref<Tensor> b = fresh();
  set_(*d, *b);  // d now looks at b's storage, and still shares a's counter
  EXPECT_EQ(d->storage(), b->storage());
  EXPECT_TRUE(Tensor::same_version_counter(*a, *d));
  EXPECT_EQ(a->version(), 1) << "set_ bumps the family's counter";
  a = Ref<Tensor>();  // a's storage dies, and gives back the counter it kept
  EXPECT_EQ(new_counters(), 1) << "d holds a reference since it moved";
  d->bump_version();
  EXPECT_EQ(d->version(), 2);
  EXPECT_EQ(b->version(), 0) << "b's family is another";
  d = Ref<Tensor>();
  EXPECT_EQ(new_counters(), 0);
}

TEST_F(KeptCounters, ARootMovesAwayAndBack) {
  Ref<Tensor> a = fresh();
  Ref<Tensor> d = alias(*a);  // a's counter, kept by a's storage
  Ref<Tensor> other = fresh(3);
  Storage* const home = a->storage();
  set_(*a, *other);
  EXPECT_EQ(a->storage(), other->storage());
  set_(*a, *d);  // back on its own storage, which keeps its counter
  EXPECT_EQ(a->storage(), home);
  EXPECT_TRUE(Tensor::same_version_counter(*a, *d));
  EXPECT_EQ(d->version(), 2);
  d = Ref<Tensor>();
  other = Ref<Tensor>();
  EXPECT_EQ(new_counters(), 1);
  a->bump_version();
  EXPECT_EQ(a->version(), 3);
}

TEST_F(KeptCounters, ARootDiesAwayFromTheStorageThatKeepsItsCounter) {
  Ref<Tensor> a = fresh();
  Ref<Tensor> d = alias(*a);
  Ref<Tensor> other = fresh(3);
  set_(*a, *other);
  d = Ref<Tensor>();  // a's home storage lives on through a's group
  EXPECT_EQ(new_counters(), 1);
  a = Ref<Tensor>();
  EXPECT_EQ(new_counters(), 0);
  EXPECT_EQ(other->version(), 0);
}

TEST_F(KeptCounters, DataHasItsOwnCounterOnTheSameStorage) {
  Ref<Tensor> a = fresh();
  Ref<Tensor> data = data_of(*a);
  ASSERT_EQ(data->storage(), a->storage());
  data->bump_version();  // data's counter is made first: the storage keeps it
  Ref<Tensor> d = alias(*a);  // a's counter: not the kept one, so both hold a reference
  EXPECT_EQ(new_counters(), 2);
  EXPECT_FALSE(Tensor::same_version_counter(*a, *data));
  EXPECT_TRUE(Tensor::same_version_counter(*a, *d));
  EXPECT_EQ(a->version(), 0);
  EXPECT_EQ(data->version(), 1);
  a = Ref<Tensor>();
  d->bump_version();
  EXPECT_EQ(d->version(), 1);
  EXPECT_EQ(data->version(), 1);
  d = Ref<Tensor>();
  EXPECT_EQ(new_counters(), 1) << "data's, kept by the storage data holds";
}

TEST_F(KeptCounters, SettingDataKeepsTheCounter) {
  Ref<Tensor> x = fresh();
  Ref<Tensor> y = fresh(2);
  Ref<Tensor> xd = alias(*x);
  Ref<Tensor> yd = alias(*y);
  EXPECT_EQ(new_counters(), 2);
  set_data(*x, *y);  // x keeps its counter on y's storage, which keeps y's
  EXPECT_TRUE(Tensor::same_version_counter(*x, *xd));
  EXPECT_FALSE(Tensor::same_version_counter(*x, *yd));
  xd = Ref<Tensor>();  // x's old storage dies with its kept counter's reference
  x->bump_version();
  EXPECT_EQ(x->version(), 1);
  EXPECT_EQ(y->version(), 0);
  set_data(*x, *fresh(4));  // x moves again: its reference goes with it
  y = Ref<Tensor>();
  yd = Ref<Tensor>();
  EXPECT_EQ(new_counters(), 1);
  x->bump_version();
  EXPECT_EQ(x->version(), 2);
}

TEST_F(KeptCounters, ThreadsRaceToMakeTheFirstCounter) {
  constexpr int kThreads = 4, kRounds = 300;
  for (int round = 0; round < kRounds; ++round) {
    Ref<Tensor> a = fresh();
    std::vector<Ref<Tensor>> aliases(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&a, &aliases, i] {
        aliases[size_t(i)] = alias(*a);
        aliases[size_t(i)]->bump_version();
      });
    }
    for (std::thread& th : threads) th.join();
    for (const Ref<Tensor>& d : aliases) ASSERT_TRUE(Tensor::same_version_counter(*a, *d));
    ASSERT_EQ(a->version(), kThreads);
    // Two when one thread's counter went to the storage and another's was published first:
    // the storage keeps the loser unused until it dies.
    ASSERT_LE(new_counters(), 2);
    a = Ref<Tensor>();
    aliases.clear();
    ASSERT_EQ(new_counters(), 0) << "round " << round;
  }
}

}  // namespace
}  // namespace ct
