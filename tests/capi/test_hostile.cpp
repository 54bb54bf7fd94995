// Hostile arguments: every one gets a clear error (status + message naming the operation or
// the values), never a crash, a wrapped size or a view that reaches outside its storage.
// The cases already covered elsewhere (negative sizes in creation, DLPack's malformed
// tensors in test_dlpack.cpp, as_strided's negative and huge strides in test_views.cpp) are
// not repeated; this file adds what the fuzzer (fuzz/) and the list asked for:
// overflowing products and byte counts, 1000-dim requests, NULL arrays, out-of-enum values,
// and the geometries whose arithmetic used to overflow (found by fuzz/fuzz_capi.cpp).
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "test_helpers.h"

using ctt::TensorRef;

namespace {

class Hostile : public ctt::CtTest {};

constexpr int64_t kMax = INT64_MAX;

ct_dtype raw_dtype(int v) {
  ct_dtype d;
  std::memcpy(&d, &v, sizeof d);
  return d;
}

// ---- size products and byte counts that overflow int64 ----------------------------------

TEST_F(Hostile, ElementCountOverflow) {
  const int64_t three[] = {int64_t(1) << 32, int64_t(1) << 32, 4};
  CT_EXPECT_NULL(ct_zeros(3, three, CT_FLOAT32), CT_ERR_SHAPE, "overflows");
  CT_EXPECT_NULL(ct_rand(3, three, CT_FLOAT32), CT_ERR_SHAPE, "overflows");
  CT_EXPECT_NULL(ct_from_data(nullptr, 3, three, CT_INT8), CT_ERR_SHAPE, "overflows");
}

TEST_F(Hostile, ByteCountOverflow) {
  // 2^62 elements fit int64; 2^62 * 4 bytes do not.
  const int64_t n[] = {int64_t(1) << 62};
  CT_EXPECT_NULL(ct_empty(1, n, CT_FLOAT32), CT_ERR_OUT_OF_MEMORY, "");
  CT_EXPECT_NULL(ct_full(1, n, 1.0, CT_FLOAT64), CT_ERR_OUT_OF_MEMORY, "");
  // INT64_MAX bytes of uint8: the count fits, the allocation cannot exist.
  const int64_t m[] = {kMax};
  CT_EXPECT_NULL(ct_empty(1, m, CT_UINT8), CT_ERR_OUT_OF_MEMORY, "");
}

TEST_F(Hostile, FromBlobExtentOverflow) {
  float buf[4] = {};
  const int64_t sizes[] = {3, 2};
  const int64_t strides[] = {kMax / 2 + 1, 1};  // (3 - 1) * strides[0] overflows
  CT_EXPECT_NULL(ct_from_blob(buf, 2, sizes, strides, CT_FLOAT32, nullptr, nullptr), CT_ERR_SHAPE,
                 "int64 range");
  const int64_t big[] = {kMax / 2};
  const int64_t unit[] = {1};
  // Elements fit int64, their bytes (x4) do not.
  CT_EXPECT_NULL(ct_from_blob(buf, 1, big, unit, CT_FLOAT32, nullptr, nullptr), CT_ERR_OUT_OF_MEMORY, "2^63 bytes");
}

TEST_F(Hostile, ExpandToOverflowingCount) {
  CT_MAKE(one, ct_zeros(2, std::vector<int64_t>{1, 1}.data(), CT_FLOAT32));
  const int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 40};
  CT_EXPECT_NULL(ct_expand(one, 2, huge), CT_ERR_SHAPE, "overflows");
}

// Views whose stride or offset arithmetic overflowed int64 (undefined behaviour found by the
// fuzzer): a huge stride on a size-1 dim, or on an empty tensor, is accepted by as_strided
// and from_blob as torch does as long as it still fits int64 in bytes (a larger one is
// refused on purpose: ByteStrideOverflowRefused), and the views derived from it must not wrap.
TEST_F(Hostile, DerivedViewArithmeticDoesNotWrap) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{8}.data(), CT_FLOAT32));
  const int64_t one_sizes[] = {1, 1};
  const int64_t max_strides[] = {kMax / 4, kMax / 4};  // times itemsize 4 still fits
  CT_MAKE(odd, ct_as_strided(x, 2, one_sizes, max_strides, 0));  // 1x1: only element 0 reachable
  // diagonal: stride(d1) + stride(d2) fits int64 but not once scaled to bytes.
  CT_EXPECT_NULL(ct_diagonal(odd, 0, 0, 1), CT_ERR_INVALID_ARGUMENT, "times the item size 4 overflows int64");
  CT_MAKE(un, ct_unsqueeze(odd, 0));  // size * stride of the dim it precedes: fits
  EXPECT_EQ(ct_tensor_stride(un, 0), kMax / 4);
  // unfold with a huge step on a size-1 result: step * stride overflows.
  CT_EXPECT_NULL(ct_unfold(odd, 0, 1, kMax), CT_ERR_INVALID_ARGUMENT, "overflow int64");

  // An empty tensor whose other sizes multiply past int64.
  const int64_t empty_sizes[] = {0, kMax, 1};
  CT_MAKE(e, ct_zeros(3, empty_sizes, CT_FLOAT32));
  EXPECT_EQ(ct_tensor_numel(e), 0);
  CT_MAKE(flat, ct_flatten(e, 0, 2));  // 0 * INT64_MAX * 1: no overflow
  EXPECT_EQ(ct_tensor_size(flat, 0), 0);
  CT_MAKE(e3, ct_zeros(3, std::vector<int64_t>{kMax, 2, 0}.data(), CT_FLOAT32));
  CT_EXPECT_NULL(ct_flatten(e3, 0, 1), CT_ERR_INVALID_ARGUMENT, "flatten");  // INT64_MAX * 2
  CT_MAKE(e2, ct_zeros(3, std::vector<int64_t>{0, kMax, 2}.data(), CT_FLOAT32));
  const ct_tensor* both[] = {e2, e2};
  CT_EXPECT_NULL(ct_cat(2, both, 1), CT_ERR_SHAPE, "cat");
  // Elementwise ops on it produce an empty result instead of wrapping strides.
  CT_MAKE(sum, ct_add(e2, e2));
  EXPECT_EQ(ct_tensor_numel(sum), 0);
}

// Empty tensors whose other sizes are huge (found by the fuzzer: signed overflow, undefined
// behaviour, in unfold's window count and in the view-stride computation of view/reshape).
TEST_F(Hostile, EmptyTensorsWithHugeSizes) {
  // unfold(size 0, step 1) over a dim of INT64_MAX: INT64_MAX + 1 windows do not fit int64.
  CT_MAKE(e, ct_zeros(2, std::vector<int64_t>{0, kMax}.data(), CT_FLOAT32));
  CT_EXPECT_NULL(ct_unfold(e, 1, 0, 1), CT_ERR_INVALID_ARGUMENT, "unfold: sizes, strides and offsets overflow int64");
  CT_MAKE(halves, ct_unfold(e, 1, 0, 2));  // INT64_MAX / 2 + 1 windows: fits
  EXPECT_EQ(ct_tensor_size(halves, 1), kMax / 2 + 1);
  EXPECT_EQ(ct_tensor_size(halves, 2), 0);
  EXPECT_EQ(ct_tensor_numel(halves), 0);
  CT_MAKE(ones, ct_unfold(e, 1, 1, 1));  // INT64_MAX windows of 1
  EXPECT_EQ(ct_tensor_size(ones, 1), kMax);

  // view/reshape of [INT64_MAX, INT64_MAX, 0]: the product of all sizes is 0, not a wrap.
  CT_MAKE(h, ct_zeros(3, std::vector<int64_t>{kMax, kMax, 0}.data(), CT_INT8));
  const int64_t flat[] = {0};
  CT_MAKE(v, ct_view(h, 1, flat));
  EXPECT_EQ(ct_tensor_numel(v), 0);
  EXPECT_EQ(ct_shares_storage(v, h), 1);
  EXPECT_EQ(ct_reshape_is_view(h, 1, flat), 1);
  CT_MAKE(r, ct_reshape(h, 1, flat));
  EXPECT_EQ(ct_tensor_size(r, 0), 0);
  const int64_t same[] = {kMax, kMax, 0};
  CT_MAKE(s, ct_view(h, 3, same));  // the same shape keeps the strides
  EXPECT_EQ(ct_tensor_stride(s, 0), ct_tensor_stride(h, 0));
  const int64_t infer[] = {-1};  // torch.zeros(5, 0).view(-1): shape [0]
  CT_MAKE(f, ct_view(h, 1, infer));
  EXPECT_EQ(ct_tensor_size(f, 0), 0);
  const int64_t bad[] = {-1, 0};  // torch.zeros(5, 0).view(-1, 0): ambiguous
  CT_EXPECT_NULL(ct_view(h, 2, bad), CT_ERR_SHAPE, "ambiguous");
}

// Elementwise ops on an empty 4-d tensor whose sizes and strides multiply past int64 (found by
// the fuzzer: the channels-last layout test overflowed, undefined behaviour).
TEST_F(Hostile, ElementwiseOnEmptyTensorWithHugeGeometry) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{0}.data(), CT_INT8));
  const int64_t sizes[] = {0, 1, 3, kMax};
  const int64_t strides[] = {kMax, kMax, kMax, 1};  // dims 3, 2 look channels-last, then overflow
  CT_MAKE(e, ct_as_strided(x, 4, sizes, strides, 0));
  CT_MAKE(sum, ct_add_scalar(e, 1.0));
  EXPECT_EQ(ct_tensor_numel(sum), 0);
  EXPECT_EQ(ct_tensor_size(sum, 3), kMax);
  CT_MAKE(prod, ct_mul(e, e));
  EXPECT_EQ(ct_tensor_numel(prod), 0);
  CT_MAKE(neg, ct_neg(e));
  EXPECT_EQ(ct_tensor_numel(neg), 0);
}

// An empty tensor may carry any storage offset (no element is reachable); its byte offset
// overflowed int64 (UB) when the elementwise engine and explain took its address (found by
// the fuzzer: ct_add of an empty int16 tensor at offset INT64_MAX).
TEST_F(Hostile, EmptyTensorWithHugeOffset) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{4}.data(), CT_INT16));
  const int64_t sizes[] = {0};
  const int64_t strides[] = {1};
  CT_MAKE(e, ct_as_strided(x, 1, sizes, strides, kMax));
  EXPECT_EQ(ct_tensor_offset(e), kMax);
  CT_MAKE(sum, ct_add(e, e));
  EXPECT_EQ(ct_tensor_numel(sum), 0);
  CT_MAKE(c, ct_clone(e));
  EXPECT_EQ(ct_tensor_numel(c), 0);
  EXPECT_EQ(ct_copy_(e, e), CT_OK);
  std::vector<char> buf(4096);
  ASSERT_GT(ct_explain(e, x, buf.data(), int64_t(buf.size())), 0) << ct_last_error();
  // 2 * INT64_MAX bytes, printed exactly
  EXPECT_NE(std::string(buf.data()).find("(18446744073709551614 bytes)"), std::string::npos) << buf.data();
}

TEST_F(Hostile, ByteStrideOverflowRefused) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{8}.data(), CT_FLOAT64));
  // A stride on a size-1 dim that is in bounds in elements but not in bytes (x8).
  const int64_t sizes[] = {1, 2};
  const int64_t strides[] = {kMax / 2, 1};
  CT_EXPECT_NULL(ct_as_strided(x, 2, sizes, strides, 0), CT_ERR_INVALID_ARGUMENT, "times the item size 8");
  // Same through from_blob (the memory is never reached: the call fails first).
  double buf[2] = {};
  CT_EXPECT_NULL(ct_from_blob(buf, 2, sizes, strides, CT_FLOAT64, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT,
                 "overflows int64");
}

// ---- negative sizes, steps, lengths ----------------------------------------------------------

TEST_F(Hostile, NegativeStepsAndLengths) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{6}.data(), CT_FLOAT32));
  CT_EXPECT_NULL(ct_slice(x, 0, 0, 6, 0), CT_ERR_INVALID_ARGUMENT, "step must be positive");
  CT_EXPECT_NULL(ct_slice(x, 0, 0, 6, -1), CT_ERR_INVALID_ARGUMENT, "step must be positive");
  CT_EXPECT_NULL(ct_slice(x, 0, 0, 6, INT64_MIN), CT_ERR_INVALID_ARGUMENT, "step must be positive");
  CT_EXPECT_NULL(ct_unfold(x, 0, 2, 0), CT_ERR_INVALID_ARGUMENT, "step is 0");
  CT_EXPECT_NULL(ct_unfold(x, 0, -1, 1), CT_ERR_INVALID_ARGUMENT, "size is -1");
  CT_EXPECT_NULL(ct_narrow(x, 0, 0, -1), CT_ERR_SHAPE, "narrow(): length must be non-negative.");
  CT_EXPECT_NULL(ct_narrow(x, 0, 2, kMax), CT_ERR_SHAPE, "exceeds dimension size");
  CT_EXPECT_NULL(ct_select(x, 0, INT64_MIN), CT_ERR_INDEX, "out of range");
  const int64_t neg[] = {-2, 3};
  CT_EXPECT_NULL(ct_view(x, 2, neg), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_expand(x, 2, neg), CT_ERR_SHAPE, "");
  CT_EXPECT_NULL(ct_arange(0, 10, -1, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_arange(0, 10, 0, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_randint(5, 5, 1, std::vector<int64_t>{2}.data(), CT_INT64), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- 1000 dims, and ndim out of range --------------------------------------------------------

TEST_F(Hostile, ThousandDims) {
  const std::vector<int64_t> ones(1000, 1);
  const std::vector<int> dims(1000, 0);
  CT_EXPECT_NULL(ct_zeros(1000, ones.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "got 1000");
  CT_EXPECT_NULL(ct_from_data(ones.data(), 1000, ones.data(), CT_INT8), CT_ERR_INVALID_ARGUMENT, "got 1000");
  CT_EXPECT_NULL(ct_from_blob(const_cast<int64_t*>(ones.data()), 1000, ones.data(), ones.data(), CT_INT64,
                              nullptr, nullptr),
                 CT_ERR_INVALID_ARGUMENT, "1000");
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{1}.data(), CT_FLOAT32));
  CT_EXPECT_NULL(ct_view(x, 1000, ones.data()), CT_ERR_INVALID_ARGUMENT, "1000");
  CT_EXPECT_NULL(ct_reshape(x, 1000, ones.data()), CT_ERR_INVALID_ARGUMENT, "1000");
  CT_EXPECT_NULL(ct_expand(x, 1000, ones.data()), CT_ERR_INVALID_ARGUMENT, "1000");
  CT_EXPECT_NULL(ct_as_strided(x, 1000, ones.data(), ones.data(), 0), CT_ERR_INVALID_ARGUMENT, "1000");
  CT_EXPECT_NULL(ct_permute(x, 1000, dims.data()), CT_ERR_INVALID_ARGUMENT, "1000");
  CT_EXPECT_NULL(ct_sum(x, 1000, dims.data(), 0), CT_ERR_INVALID_ARGUMENT, "1000");
  // One more than the limit, and the limit itself (which works).
  CT_EXPECT_NULL(ct_zeros(CT_MAX_DIMS + 1, ones.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_MAKE(max_dims, ct_zeros(CT_MAX_DIMS, ones.data(), CT_FLOAT32));
  EXPECT_EQ(ct_tensor_ndim(max_dims), CT_MAX_DIMS);
  // A view may not add a dimension past the limit.
  CT_EXPECT_NULL(ct_unsqueeze(max_dims, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_unfold(max_dims, 0, 1, 1), CT_ERR_INVALID_ARGUMENT, "");
  // INT_MAX and INT_MIN dims are refused before any array is read.
  CT_EXPECT_NULL(ct_zeros(INT_MAX, ones.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_NULL(ct_zeros(INT_MIN, ones.data(), CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "");
}

// ---- NULL arrays with ndim > 0 -------------------------------------------------------------

TEST_F(Hostile, NullArrays) {
  CT_MAKE(x, ct_zeros(2, std::vector<int64_t>{2, 3}.data(), CT_FLOAT32));
  const int64_t two[] = {2, 3};
  CT_EXPECT_NULL(ct_empty(2, nullptr, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_full(1, nullptr, 0.0, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_randint(0, 3, 1, nullptr, CT_INT64), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_view(x, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_reshape(x, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_expand(x, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_permute(x, 2, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_as_strided(x, 2, two, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_stack(2, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "");
  CT_EXPECT_FAIL(ct_reshape_is_view(x, 2, nullptr), -1, CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_FAIL(ct_item(x, nullptr), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
}

// ---- values outside the enums -----------------------------------------------------------------

TEST_F(Hostile, DtypeOutsideEnum) {
  const int64_t s[] = {2};
  for (int v : {-1, 12, 13, 255, INT_MAX, INT_MIN}) {
    const ct_dtype d = raw_dtype(v);
    CT_EXPECT_NULL(ct_zeros(1, s, d), CT_ERR_DTYPE, "invalid dtype");
    CT_EXPECT_NULL(ct_full(1, s, 1.0, d), CT_ERR_DTYPE, "invalid dtype");
    CT_EXPECT_NULL(ct_arange(0, 2, 1, d), CT_ERR_DTYPE, "invalid dtype");
    CT_EXPECT_NULL(ct_randint(0, 2, 1, s, d), CT_ERR_DTYPE, "invalid dtype");
    float buf[2] = {};
    CT_EXPECT_NULL(ct_from_data(buf, 1, s, d), CT_ERR_DTYPE, "invalid dtype");
    CT_EXPECT_NULL(ct_from_blob(buf, 1, s, nullptr, d, nullptr, nullptr), CT_ERR_DTYPE, "invalid dtype");
    CT_MAKE(x, ct_zeros(1, s, CT_FLOAT32));
    CT_EXPECT_NULL(ct_to(x, d), CT_ERR_DTYPE, "invalid dtype");
    ct_clear_error();
    EXPECT_EQ(ct_dtype_name(d), nullptr);
    EXPECT_TRUE(ctt::expect_error(CT_ERR_DTYPE, "invalid dtype"));
    EXPECT_EQ(ct_dtype_itemsize(d), -1);
  }
}

TEST_F(Hostile, StatusOutsideEnum) {
  // Read as raw bits: switching on an out-of-range enum was undefined behaviour (UBSan).
  for (int v : {-1, 10, 1000, INT_MAX, INT_MIN}) {
    ct_status s;
    std::memcpy(&s, &v, sizeof s);
    EXPECT_STREQ(ct_status_name(s), "CT_UNKNOWN_STATUS") << v;
  }
  EXPECT_STREQ(ct_status_name(CT_ERR_INTERNAL), "CT_ERR_INTERNAL");
}

// ---- as_strided and from_blob reaching outside their memory ---------------------------------

TEST_F(Hostile, AsStridedOutsideStorage) {
  CT_MAKE(x, ct_zeros(1, std::vector<int64_t>{6}.data(), CT_FLOAT32));
  const int64_t sizes[] = {2, 3};
  const int64_t strides[] = {3, 1};
  CT_MAKE(ok, ct_as_strided(x, 2, sizes, strides, 0));  // exactly the storage
  CT_EXPECT_NULL(ct_as_strided(x, 2, sizes, strides, 1), CT_ERR_INDEX, "out of bounds for storage of size 24");
  const int64_t far[] = {1};
  CT_EXPECT_NULL(ct_as_strided(x, 1, far, far, 6), CT_ERR_INDEX, "out of bounds");
  CT_EXPECT_NULL(ct_as_strided(x, 1, far, far, kMax), CT_ERR_INDEX, "");
  // A view of a view is checked against the storage, not against the view.
  CT_MAKE(tail, ct_slice(x, 0, 3, 6, 1));
  CT_MAKE(back, ct_as_strided(tail, 1, std::vector<int64_t>{6}.data(), std::vector<int64_t>{1}.data(), 0));
  EXPECT_EQ(ct_tensor_data(back), ct_tensor_data(x));
  CT_EXPECT_NULL(ct_as_strided(tail, 1, std::vector<int64_t>{7}.data(), std::vector<int64_t>{1}.data(), 0),
                 CT_ERR_INDEX, "");
}

TEST_F(Hostile, FromBlobPastTheAddressSpace) {
  // The library cannot know the caller's buffer length; it can refuse shapes no buffer has.
  void* top = reinterpret_cast<void*>(UINTPTR_MAX - 15);
  const int64_t s[] = {8};
  CT_EXPECT_NULL(ct_from_blob(top, 1, s, nullptr, CT_FLOAT64, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT,
                 "address space");
  const int64_t neg_stride[] = {-1};
  float buf[8] = {};
  CT_EXPECT_NULL(ct_from_blob(buf, 1, s, neg_stride, CT_FLOAT32, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT,
                 "negative strides");
}

// matmul of tensors without elements whose other sizes are huge (found by the fuzzer: the
// batch and row counts were multiplied in int64 and overflowed): an empty result of the
// right shape, or, where that shape's count overflows, a clear error.
TEST_F(Hostile, MatmulOfEmptyTensorsWithHugeSizes) {
  const int64_t batched[] = {6, kMax, 0, 0};
  CT_MAKE(a, ct_empty(4, batched, CT_FLOAT64));
  CT_MAKE(r, ct_matmul(a, a));
  ASSERT_EQ(ct_tensor_ndim(r), 4);
  for (int d = 0; d < 4; ++d) EXPECT_EQ(ct_tensor_size(r, d), batched[d]);
  EXPECT_EQ(ct_tensor_numel(r), 0);
  // rows x 0 times 0 x cols: the (rows, cols) result has 2^124 elements.
  const int64_t tall[] = {int64_t(1) << 62, 0}, wide[] = {0, int64_t(1) << 62};
  CT_MAKE(t, ct_empty(2, tall, CT_FLOAT32));
  CT_MAKE(w, ct_empty(2, wide, CT_FLOAT32));
  CT_EXPECT_NULL(ct_matmul(t, w), CT_ERR_SHAPE, "overflows");
  // 3-D folded into one mm: a [2^62, 2^62, 0] operand times a [0, 3] matrix.
  const int64_t cube[] = {int64_t(1) << 62, int64_t(1) << 62, 0}, mat[] = {0, 3};
  CT_MAKE(c, ct_empty(3, cube, CT_FLOAT32));
  CT_MAKE(m, ct_empty(2, mat, CT_FLOAT32));
  CT_EXPECT_NULL(ct_matmul(c, m), CT_ERR_SHAPE, "overflows");
}

// narrow's start is checked against [-size, size] in int64: a start past 2^31 on a larger dim
// is valid (found by the fuzzer through chunk/split, which narrow).
TEST_F(Hostile, NarrowStartBeyondInt32) {
  const int64_t sizes[] = {int64_t(1) << 40, 0};
  CT_MAKE(e, ct_empty(2, sizes, CT_FLOAT32));
  CT_MAKE(n, ct_narrow(e, 0, int64_t(1) << 35, 5));
  EXPECT_EQ(ct_tensor_size(n, 0), 5);
  CT_MAKE(m, ct_narrow(e, 0, -(int64_t(1) << 35), 7));
  EXPECT_EQ(ct_tensor_size(m, 0), 7);
  CT_EXPECT_NULL(ct_narrow(e, 0, (int64_t(1) << 40) + 1, 0), CT_ERR_INDEX,
                 "start out of range (expected to be in range of [-1099511627776, 1099511627776], but got 1099511627777)");
  ct_tensor* out[3] = {};
  ASSERT_EQ(ct_chunk(e, 3, 0, out, 3), 3);
  EXPECT_EQ(ct_tensor_size(out[2], 0), (int64_t(1) << 40) - 2 * ((int64_t(1) << 40) / 3 + 1));
  for (ct_tensor* o : out) ct_tensor_release(o);
}

// from_blob refuses negative strides also without elements (its views got negative storage
// offsets: found by the fuzzer).
TEST_F(Hostile, FromBlobEmptyWithNegativeStride) {
  const int64_t sizes[] = {5, 0}, strides[] = {-1, 1};
  CT_EXPECT_NULL(ct_from_blob(nullptr, 2, sizes, strides, CT_INT8, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT,
                 "negative strides");
}

}  // namespace
