// Pure shape rules (src/core/shape.h) against values read off PyTorch 1.13.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/shape.h"

using ct::Shape;

namespace {

std::optional<Shape> vs(Shape sizes, Shape strides, Shape new_sizes) {
  return ct::view_strides(sizes, strides, new_sizes);
}

ct::ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ct::Error& e) {
    return e.kind();
  }
  return ct::ErrorKind::Internal;  // "no error" shows up as a mismatch
}

}  // namespace

TEST(ViewStrides, MatchesTorch) {
  // (sizes, strides, new shape) -> torch's x.view(new).stride(), or an error.
  EXPECT_EQ(vs({3, 4}, {4, 1}, {2, 6}), (Shape{6, 1}));
  EXPECT_FALSE(vs({4, 3}, {1, 4}, {12}).has_value());
  EXPECT_EQ(vs({4, 3}, {1, 4}, {4, 3, 1}), (Shape{1, 4, 4}));
  EXPECT_EQ(vs({2, 3, 4}, {12, 4, 1}, {6, 4}), (Shape{4, 1}));
  EXPECT_FALSE(vs({2, 3, 4}, {12, 1, 3}, {6, 4}).has_value());
  EXPECT_FALSE(vs({2, 3, 4}, {12, 1, 3}, {2, 12}).has_value());
  EXPECT_EQ(vs({2, 1, 4}, {4, 100, 1}, {8}), (Shape{1}));
  EXPECT_EQ(vs({3, 4}, {8, 1}, {3, 2, 2}), (Shape{8, 2, 1}));
  EXPECT_FALSE(vs({3, 4}, {8, 1}, {12}).has_value());
  EXPECT_EQ(vs({}, {}, {1, 1}), (Shape{1, 1}));
  EXPECT_EQ(vs({0, 3}, {3, 1}, {3, 0}), (Shape{1, 1}));
}

TEST(InferSize, OneMinusOne) {
  EXPECT_EQ(ct::infer_size(Shape{-1, 4}, 12, "view"), (Shape{3, 4}));
  EXPECT_EQ(ct::infer_size(Shape{2, -1, 2}, 12, "view"), (Shape{2, 3, 2}));
  EXPECT_EQ(kind_of([] { ct::infer_size(Shape{-1, -1}, 12, "view"); }), ct::ErrorKind::Shape);
  EXPECT_EQ(kind_of([] { ct::infer_size(Shape{5}, 12, "view"); }), ct::ErrorKind::Shape);
  EXPECT_EQ(kind_of([] { ct::infer_size(Shape{0, -1}, 0, "view"); }), ct::ErrorKind::Shape);
  try {
    ct::infer_size(Shape{2, 5}, 12, "view");
    FAIL();
  } catch (const ct::Error& e) {
    EXPECT_STREQ(e.what(), "shape '[2, 5]' is invalid for input of size 12");
  }
}

TEST(Numel, RefusesNegativeAndOverflow) {
  EXPECT_EQ(ct::checked_numel(Shape{2, 3, 4}, "t"), 24);
  EXPECT_EQ(ct::checked_numel(Shape{int64_t(1) << 62, 4, 0}, "t"), 0);
  EXPECT_EQ(kind_of([] { ct::checked_numel(Shape{int64_t(1) << 62, 4}, "t"); }), ct::ErrorKind::Shape);
  EXPECT_EQ(kind_of([] { ct::checked_numel(Shape{2, -1}, "t"); }), ct::ErrorKind::Shape);
  EXPECT_EQ(kind_of([] { ct::checked_nbytes(int64_t(1) << 61, 8, "t"); }), ct::ErrorKind::OutOfMemory);
}

TEST(Contiguity, TorchRules) {
  EXPECT_TRUE(ct::compute_contiguous(Shape{3, 4}, Shape{4, 1}));
  EXPECT_FALSE(ct::compute_contiguous(Shape{3, 4}, Shape{1, 3}));
  EXPECT_TRUE(ct::compute_contiguous(Shape{3, 1}, Shape{1, 7}));  // size-1 dims ignored
  EXPECT_TRUE(ct::compute_contiguous(Shape{0, 4}, Shape{9, 9}));  // no elements
  EXPECT_EQ(ct::contiguous_strides(Shape{2, 0, 3}), (Shape{3, 3, 1}));
}

TEST(Layout, DenseStridesLikeTorch) {
  // torch: x = zeros(4,3).t()[:, ::2] -> sizes (3, 2)... clone().stride() values below.
  EXPECT_EQ(ct::dense_strides_like(Shape{4, 2}, Shape{1, 8}), (Shape{1, 4}));
  EXPECT_EQ(ct::dense_strides_like(Shape{2, 3}, Shape{0, 1}), (Shape{3, 1}));       // expanded
  EXPECT_EQ(ct::dense_strides_like(Shape{4, 2, 2}, Shape{1, 12, 8}), (Shape{1, 8, 4}));
  EXPECT_EQ(ct::dense_strides_like(Shape{2, 4, 2}, Shape{12, 1, 4}), (Shape{8, 1, 4}));
  EXPECT_TRUE(ct::is_non_overlapping_and_dense(Shape{3, 4}, Shape{1, 3}));
  EXPECT_FALSE(ct::is_non_overlapping_and_dense(Shape{3, 2}, Shape{4, 2}));
  EXPECT_FALSE(ct::is_non_overlapping_and_dense(Shape{2, 3}, Shape{0, 1}));
  EXPECT_TRUE(ct::is_non_overlapping_and_dense(Shape{0, 3}, Shape{7, 9}));  // empty: contiguous
}

TEST(Broadcast, Shapes) {
  EXPECT_EQ(ct::broadcast_shapes(Shape{3, 1}, Shape{4}, "add"), (Shape{3, 4}));
  EXPECT_EQ(ct::broadcast_shapes(Shape{}, Shape{2, 0}, "add"), (Shape{2, 0}));
  try {
    ct::broadcast_shapes(Shape{3}, Shape{2}, "add");
    FAIL();
  } catch (const ct::Error& e) {
    EXPECT_EQ(e.kind(), ct::ErrorKind::Shape);
    EXPECT_NE(std::string(e.what()).find("The size of tensor a (3) must match the size of tensor b (2) at "
                                         "non-singleton dimension 0"),
              std::string::npos);
  }
}

TEST(WrapDim, Messages) {
  EXPECT_EQ(ct::wrap_dim(-1, 3), 2);
  EXPECT_EQ(ct::wrap_dim(0, 0), 0);  // a scalar accepts 0 and -1
  try {
    ct::wrap_dim(2, 2);
    FAIL();
  } catch (const ct::Error& e) {
    EXPECT_EQ(e.kind(), ct::ErrorKind::Index);
    EXPECT_STREQ(e.what(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
}

TEST(Bounds, AsStridedMessage) {
  try {
    ct::check_in_bounds(Shape{3, 3}, Shape{3, 1}, 1, 4, 36, "as_strided");
    FAIL();
  } catch (const ct::Error& e) {
    EXPECT_EQ(e.kind(), ct::ErrorKind::Index);
    EXPECT_NE(std::string(e.what()).find("requiring a storage size of 40 are out of bounds for storage of size 36"),
              std::string::npos);
  }
  EXPECT_NO_THROW(ct::check_in_bounds(Shape{3, 3}, Shape{3, 1}, 0, 4, 36, "as_strided"));
  EXPECT_EQ(kind_of([] { ct::check_in_bounds(Shape{2}, Shape{INT64_MAX}, 0, 4, 36, "as_strided"); }),
            ct::ErrorKind::Index);
  EXPECT_EQ(kind_of([] { ct::check_in_bounds(Shape{3}, Shape{INT64_MAX}, 0, 4, 36, "as_strided"); }),
            ct::ErrorKind::Shape);  // the element offsets themselves overflow
}
