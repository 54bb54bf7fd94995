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
const int64_t kThirtyTwo[] = {32};

char* fresh(int64_t bytes) { return static_cast<char*>(std::aligned_alloc(64, size_t(bytes))); }

// On a thread of its own (an empty cache): gives n fresh blocks of `bytes`, then takes blocks of
// that size back until none is left, and returns how many came back.
int kept_of(int64_t bytes, int n) {
  int taken = 0;
  std::thread([&] {
    std::vector<char*> blocks;
    for (int i = 0; i < n; ++i) blocks.push_back(fresh(bytes));
    for (char* p : blocks) small_blocks::give(p, bytes);  // those beyond the class's room are freed at once
    while (char* p = small_blocks::take(bytes)) {
      std::free(p);
      ++taken;
    }
  }).join();
  return taken;
}

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
  EXPECT_EQ(small_blocks::capacity_of(1024), 32);  // the class budget, 32 KiB
  EXPECT_EQ(kept_of(1024, 32 + 5), kCaching ? 32 : 0);
  EXPECT_EQ(small_blocks::capacity_of(4096), small_blocks::kPerClass);  // at least kPerClass
  EXPECT_EQ(kept_of(4096, small_blocks::kPerClass + 5), kCaching ? small_blocks::kPerClass : 0);
}

TEST(SmallBlocks, KeepsManyOfTheObjectClasses) {
  // Tensor objects are 128 bytes: a small training step frees well over a hundred at once
  EXPECT_EQ(small_blocks::capacity_of(128), small_blocks::kMaxPerClass);
  EXPECT_EQ(kept_of(128, small_blocks::kMaxPerClass + 7), kCaching ? small_blocks::kMaxPerClass : 0);
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

TEST(SmallBlocks, ClassesAreMultiplesOf64UpTo1KiBThenPowersOfTwoUpTo64KiB) {
  EXPECT_EQ(small_blocks::block_size(1), 64);
  EXPECT_EQ(small_blocks::block_size(64), 64);
  EXPECT_EQ(small_blocks::block_size(65), 128);
  EXPECT_EQ(small_blocks::block_size(1024), 1024);
  EXPECT_EQ(small_blocks::block_size(1025), 2048);
  EXPECT_EQ(small_blocks::block_size(4096), 4096);
  EXPECT_EQ(small_blocks::block_size(4097), 8192);
  EXPECT_EQ(small_blocks::block_size(65536), 65536);
  EXPECT_TRUE(small_blocks::is_block_size(960));
  EXPECT_TRUE(small_blocks::is_block_size(32768));
  EXPECT_FALSE(small_blocks::is_block_size(1088));  // a multiple of 64 above 1 KiB is not a class
  EXPECT_FALSE(small_blocks::is_block_size(3072));
  EXPECT_FALSE(small_blocks::is_block_size(131072));
  EXPECT_FALSE(small_blocks::is_block_size(0));
}

TEST(SmallBlocks, StoragesOfOneClassShareBlocksAboveOneKiB) {
  std::thread([] {
    const int64_t n1100[] = {275}, n2000[] = {500}, n4096[] = {1024};  // float32: 1100, 2000, 4096 bytes
    const char* block = nullptr;
    {
      Ref<Tensor> t = Tensor::empty(n1100, DType::Float32, "test");
      EXPECT_EQ(t->storage()->nbytes(), 1100);
      block = t->storage()->data();
      EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 64, 0u);
    }
    Ref<Tensor> u = Tensor::empty(n2000, DType::Float32, "test");  // the same 2 KiB class
    if (kCaching) EXPECT_EQ(u->storage()->data(), block);
    u = Ref<Tensor>();
    const char* four = nullptr;
    for (int i = 0; i < 3; ++i) {  // a 32 x 32 float32 gradient, again and again
      Ref<Tensor> g = Tensor::empty(n4096, DType::Float32, "test");
      if (i == 0) four = g->storage()->data();
      else if (kCaching) EXPECT_EQ(g->storage()->data(), four);
    }
  }).join();
}

TEST(SmallBlocks, KeepsFewerOfTheLargeClasses) {
  EXPECT_EQ(small_blocks::capacity_of(65536), small_blocks::kPerLargeClass);
  EXPECT_EQ(kept_of(65536, small_blocks::kPerLargeClass + 3), kCaching ? small_blocks::kPerLargeClass : 0);
}

TEST(SmallBlocks, BlocksFreedOnAnotherThreadGoToThatThreadsCache) {
  // 256 bytes: not the class of Tensor objects (128), which die after their storage
  Ref<Tensor> t = Tensor::empty(kThirtyTwo, DType::Float64, "test");
  const char* block = t->storage()->data();
  std::thread([&] {
    t = Ref<Tensor>();  // the last reference dies here
    if (kCaching) {
      char* p = small_blocks::take(256);
      EXPECT_EQ(p, block);
      std::free(p);
    }
  }).join();
}

TEST(SmallBlocks, TensorObjectsAreReusedByTheNextTensor) {  // Note [Tensor objects]
  std::thread([] {
    Ref<Tensor> base = Tensor::empty(kThreeByFour, DType::Float32, "test");
    const void* first = nullptr;
    for (int i = 0; i < 3; ++i) {
      Ref<Tensor> v = Tensor::make_rearranged(*base, base->sizes(), base->strides(), base.get());
      if (i == 0) first = v.get();
      else if (kCaching) EXPECT_EQ(static_cast<const void*>(v.get()), first);  // the same 128 bytes
      EXPECT_EQ(v->storage(), base->storage());
    }
  }).join();
}

}  // namespace
}  // namespace ct
