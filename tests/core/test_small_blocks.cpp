// The per-thread cache of small storage buffers (src/core/small_blocks.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/small_blocks.h"
#include "core/storage.h"
#include "core/tensor.h"

namespace ct {
namespace {

constexpr bool kCaching = small_blocks::kEnabled;  // not under ASan (use-after-free stays visible)

const int64_t kThreeByFour[] = {3, 4};  // 48 bytes of float32: a 64-byte block
const int64_t kSixteen[] = {16};

char* fresh(int64_t bytes) { return static_cast<char*>(std::aligned_alloc(64, size_t(bytes))); }

TEST(SmallBlocks, AGivenBlockIsTakenBackBySizeOnly) {
  std::thread([] {  // a thread of its own: its cache starts empty
    EXPECT_EQ(small_blocks::take(128), nullptr);
    char* a = fresh(128);
    char* b = fresh(256);
    small_blocks::give(a, 128);
    small_blocks::give(b, 256);
    if (!kCaching) {
      EXPECT_EQ(small_blocks::take(128), nullptr);
      return;
    }
    EXPECT_EQ(small_blocks::take(64), nullptr);  // no block of another size is handed out
    EXPECT_EQ(small_blocks::take(256), b);
    EXPECT_EQ(small_blocks::take(128), a);
    EXPECT_EQ(small_blocks::take(128), nullptr);
    std::free(a);
    std::free(b);
  }).join();
}

TEST(SmallBlocks, KeepsAtMostPerClassAndFreesTheRest) {
  std::thread([] {
    std::vector<char*> blocks;
    for (int i = 0; i < small_blocks::kPerClass + 5; ++i) blocks.push_back(fresh(1024));
    for (char* p : blocks) small_blocks::give(p, 1024);  // the last 5 are freed at once
    int taken = 0;
    while (char* p = small_blocks::take(1024)) {
      std::free(p);
      ++taken;
    }
    EXPECT_EQ(taken, kCaching ? small_blocks::kPerClass : 0);
  }).join();
}

TEST(SmallBlocks, SmallStoragesReuseBlocksAndStayAligned) {
  std::thread([] {
    const char* first = nullptr;
    for (int i = 0; i < 3; ++i) {
      Ref<Tensor> t = Tensor::empty(kThreeByFour, DType::Float32, "test");
      const auto address = reinterpret_cast<uintptr_t>(t->storage()->data());
      EXPECT_EQ(address % 64, 0u);
      if (i == 0) first = t->storage()->data();
      else if (kCaching) EXPECT_EQ(t->storage()->data(), first);  // the same block, again
    }
  }).join();
}

TEST(SmallBlocks, BlocksFreedOnAnotherThreadGoToThatThreadsCache) {
  Ref<Tensor> t = Tensor::empty(kSixteen, DType::Float64, "test");  // 128 bytes
  const char* block = t->storage()->data();
  std::thread([&] {
    t = Ref<Tensor>();  // the last reference dies here
    if (kCaching) {
      char* p = small_blocks::take(128);
      EXPECT_EQ(p, block);
      std::free(p);
    }
  }).join();
}

}  // namespace
}  // namespace ct
