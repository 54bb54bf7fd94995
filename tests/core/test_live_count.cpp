// Per-thread live counters (live_count.h): exact totals when tensors are created on one
// thread and released on another, and after the threads that made them have exited.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/live_count.h"
#include "core/tensor.h"

namespace ct {
namespace {

Ref<Tensor> small_tensor() { return Tensor::empty(Shape{2, 3}, DType::Float32, "test_live_count"); }

TEST(LiveCount, CountsTensorsAndStorages) {
  const int64_t t0 = live_tensors(), s0 = live_storages();
  {
    Ref<Tensor> a = small_tensor();
    EXPECT_EQ(live_tensors(), t0 + 1);
    EXPECT_EQ(live_storages(), s0 + 1);
  }
  EXPECT_EQ(live_tensors(), t0);
  EXPECT_EQ(live_storages(), s0);
}

TEST(LiveCount, CreatedOnExitedThreadsReleasedHere) {
  const int64_t t0 = live_tensors(), s0 = live_storages();
  std::vector<Ref<Tensor>> made(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) threads.emplace_back([&made, i] { made[size_t(i)] = small_tensor(); });
  for (std::thread& th : threads) th.join();  // their slots are retired with +1 each
  EXPECT_EQ(live_tensors(), t0 + 8);
  EXPECT_EQ(live_storages(), s0 + 8);
  made.clear();  // -8 in this thread's slot
  EXPECT_EQ(live_tensors(), t0);
  EXPECT_EQ(live_storages(), s0);
}

TEST(LiveCount, CreatedHereReleasedOnOtherThreads) {
  const int64_t t0 = live_tensors();
  std::vector<Ref<Tensor>> made;
  for (int i = 0; i < 8; ++i) made.push_back(small_tensor());
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([t = std::move(made[size_t(i)])]() mutable { t = Ref<Tensor>(); });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(live_tensors(), t0);
}

TEST(LiveCount, ManyThreadsChurning) {
  const int64_t t0 = live_tensors();
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([] {
      for (int k = 0; k < 2000; ++k) {
        Ref<Tensor> a = small_tensor();
        Ref<Tensor> b = small_tensor();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(live_tensors(), t0);
}

}  // namespace
}  // namespace ct
