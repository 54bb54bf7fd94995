// BufferCache (buffer_cache.h) behind Storage::allocate: large freed buffers come back to the
// next storage of about the same size; those small_blocks serves never enter; the byte limit
// holds.
#include <gtest/gtest.h>

#include <vector>

#include "core/buffer_cache.h"
#include "core/ref.h"
#include "core/storage.h"

namespace ct {
namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

Ref<Storage> storage_of(int64_t nbytes) {
  return Ref<Storage>::adopt(Storage::allocate(nbytes, "test_buffer_cache"));
}

class BufferCacheTest : public ::testing::Test {
 protected:
  void SetUp() override { BufferCache::clear(); }
  void TearDown() override { BufferCache::clear(); }
};

TEST_F(BufferCacheTest, LargeBufferIsReusedBySameSize) {
  char* first;
  {
    Ref<Storage> a = storage_of(64 * kMiB);
    first = a->data();
  }
  EXPECT_EQ(BufferCache::cached_bytes(), 64 * kMiB);
  Ref<Storage> b = storage_of(64 * kMiB);
  EXPECT_EQ(b->data(), first);
  EXPECT_EQ(b->nbytes(), 64 * kMiB);
  EXPECT_EQ(BufferCache::cached_bytes(), 0);
}

TEST_F(BufferCacheTest, ReuseGivesANewStorageId) {
  uint64_t first_id;
  { first_id = storage_of(8 * kMiB)->id(); }
  Ref<Storage> b = storage_of(8 * kMiB);
  EXPECT_GT(b->id(), first_id);  // ids are never reused, even when memory is
}

TEST_F(BufferCacheTest, SlightlySmallerRequestReusesWithinOneEighth) {
  char* first;
  {
    Ref<Storage> a = storage_of(64 * kMiB);
    first = a->data();
  }
  Ref<Storage> b = storage_of(60 * kMiB);  // 4 MiB of 60 wasted: under 1/8
  EXPECT_EQ(b->data(), first);
  EXPECT_EQ(b->nbytes(), 60 * kMiB);
}

TEST_F(BufferCacheTest, MuchSmallerRequestDoesNotTakeABigBuffer) {
  { storage_of(64 * kMiB); }
  Ref<Storage> b = storage_of(8 * kMiB);
  EXPECT_EQ(BufferCache::cached_bytes(), 64 * kMiB);
}

TEST_F(BufferCacheTest, SmallBuffersAreNotCached) {
  { storage_of(64 << 10); }  // small_blocks' largest class: that cache's, not this one's
  EXPECT_EQ(BufferCache::cached_bytes(), 0);
}

TEST_F(BufferCacheTest, MidSizeBufferIsReused) {
  char* first;
  {
    Ref<Storage> a = storage_of(256 << 10);  // a 256 x 256 float32 gradient
    first = a->data();
  }
  EXPECT_EQ(BufferCache::cached_bytes(), 256 << 10);
  Ref<Storage> b = storage_of(256 << 10);
  EXPECT_EQ(b->data(), first);
  EXPECT_TRUE(b->recycled());
  EXPECT_EQ(BufferCache::cached_bytes(), 0);
}

TEST_F(BufferCacheTest, NeverHoldsMoreThanTheLimit) {
  const int64_t limit = BufferCache::limit();
  {
    std::vector<Ref<Storage>> many;
    for (int i = 0; i < 24; ++i) many.push_back(storage_of(32 * kMiB));
  }
  EXPECT_LE(BufferCache::cached_bytes(), limit);
  EXPECT_GT(BufferCache::cached_bytes(), 0);
}

TEST_F(BufferCacheTest, ClearFreesEverything) {
  { storage_of(16 * kMiB); }
  BufferCache::clear();
  EXPECT_EQ(BufferCache::cached_bytes(), 0);
}

}  // namespace
}  // namespace ct
