// DLPack through the public headers only: ct_from_dlpack*, ct_to_dlpack*, ownership, and the
// refusal of every malformed input without touching the producer's deleter.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ctensor.h"
#include "ctensor_dlpack.h"
#include "test_helpers.h"

// The layout of ctensor_dlpack.h's structs is DLPack's ABI (sizes and offsets on LP64).
static_assert(sizeof(DLDeviceType) == 4 && sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(sizeof(void*) != 8 || (sizeof(DLTensor) == 48 && offsetof(DLTensor, ndim) == 16 &&
                                     offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
                                     offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40));
static_assert(sizeof(void*) != 8 || (sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, manager_ctx) == 48 &&
                                     offsetof(DLManagedTensor, deleter) == 56));
static_assert(sizeof(void*) != 8 ||
              (sizeof(DLManagedTensorVersioned) == 80 && offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
               offsetof(DLManagedTensorVersioned, deleter) == 16 && offsetof(DLManagedTensorVersioned, flags) == 24 &&
               offsetof(DLManagedTensorVersioned, dl_tensor) == 32));
static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLCUDAHost == 3 && kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 &&
              kDLBfloat == 4 && kDLComplex == 5 && kDLBool == 6 && DLPACK_MAJOR_VERSION == 1);
static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2);

namespace {

// Deleter calls of the fake producers below, across the whole test.
int g_deleter_calls = 0;

// A producer: owns a 64-byte aligned buffer, its shape and strides, and the managed struct
// handed out.  Its deleter counts the call and frees everything.
template <class M>
struct Producer {
  M managed{};
  std::vector<int64_t> shape, strides;
  void* buffer = nullptr;

  static void deleter(M* self) {
    ++g_deleter_calls;
    auto* p = static_cast<Producer*>(self->manager_ctx);
    std::free(p->buffer);
    delete p;
  }
};

struct Spec {
  uint8_t code = kDLFloat, bits = 32;
  uint16_t lanes = 1;
  std::vector<int64_t> shape{2, 3};
  std::vector<int64_t> strides;  // empty: NULL strides
  bool null_strides = true;
  size_t buffer_bytes = 256;
  uint64_t byte_offset = 0;
};

template <class M>
M* make_managed(const Spec& s) {
  auto* p = new Producer<M>();
  p->shape = s.shape;
  p->strides = s.strides;
  p->buffer = std::aligned_alloc(64, (s.buffer_bytes + 63) / 64 * 64);
  std::memset(p->buffer, 0, s.buffer_bytes);
  DLTensor& dl = p->managed.dl_tensor;
  dl.data = p->buffer;
  dl.device = DLDevice{kDLCPU, 0};
  dl.ndim = int32_t(s.shape.size());
  dl.dtype = DLDataType{s.code, s.bits, s.lanes};
  dl.shape = p->shape.data();
  dl.strides = s.null_strides ? nullptr : p->strides.data();
  dl.byte_offset = s.byte_offset;
  p->managed.manager_ctx = p;
  p->managed.deleter = &Producer<M>::deleter;
  return &p->managed;
}

DLManagedTensor* make_legacy(const Spec& s = Spec()) { return make_managed<DLManagedTensor>(s); }
DLManagedTensorVersioned* make_versioned(const Spec& s = Spec(), uint64_t flags = 0, uint32_t major = 1) {
  DLManagedTensorVersioned* m = make_managed<DLManagedTensorVersioned>(s);
  m->version = DLPackVersion{major, 0};
  m->flags = flags;
  return m;
}

// A handle (or managed struct) from a call that must succeed; prints the last error if not.
// (Plain pointers rather than ctt::TensorRef: these tests release by hand, to check exactly
// when the producer's deleter runs.)
#define ASSERT_HANDLE(h) ASSERT_NE((h), nullptr) << #h << ": " << ::ctt::last_error_str()

// Live tensors and storages back to baseline after each test (ctt::CtTest), and the
// deleter count of the fake producers reset.
class DLPack : public ::ctt::CtTest {
 protected:
  void SetUp() override {
    ::ctt::CtTest::SetUp();
    g_deleter_calls = 0;
  }
};

struct DTypeCase {
  ct_dtype dtype;
  uint8_t code, bits;
};
const DTypeCase kDTypes[] = {
    {CT_BOOL, kDLBool, 8},      {CT_UINT8, kDLUInt, 8},     {CT_INT8, kDLInt, 8},
    {CT_INT16, kDLInt, 16},     {CT_INT32, kDLInt, 32},     {CT_INT64, kDLInt, 64},
    {CT_FLOAT16, kDLFloat, 16}, {CT_BFLOAT16, kDLBfloat, 16}, {CT_FLOAT32, kDLFloat, 32},
    {CT_FLOAT64, kDLFloat, 64},
};

// A 2x3 tensor of `dtype` whose bytes are a recognizable pattern (0/1 for bool).
ct_tensor* patterned(ct_dtype dtype, std::vector<unsigned char>& bytes) {
  const int64_t sizes[] = {2, 3};
  const int64_t isize = ct_dtype_itemsize(dtype);
  bytes.resize(size_t(6 * isize));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = dtype == CT_BOOL ? (i % 2) : (unsigned char)(17 * i + 3);
  return ct_from_data(bytes.data(), 2, sizes, dtype);
}

void expect_dl_matches(const DLTensor& dl, const ct_tensor* t, const DTypeCase& c) {
  EXPECT_EQ(dl.device.device_type, kDLCPU);
  EXPECT_EQ(dl.device.device_id, 0);
  EXPECT_EQ(dl.dtype.code, c.code);
  EXPECT_EQ(dl.dtype.bits, c.bits);
  EXPECT_EQ(dl.dtype.lanes, 1);
  ASSERT_EQ(dl.ndim, ct_tensor_ndim(t));
  for (int d = 0; d < dl.ndim; ++d) {
    EXPECT_EQ(dl.shape[d], ct_tensor_size(t, d));
    EXPECT_EQ(dl.strides[d], ct_tensor_stride(t, d));
  }
  EXPECT_EQ(dl.data, ct_tensor_data(t));
  EXPECT_EQ(dl.byte_offset, 0u);
}

// ---- round trips -----------------------------------------------------------------------

TEST_F(DLPack, LegacyRoundTripEveryDType) {
  for (const DTypeCase& c : kDTypes) {
    SCOPED_TRACE(ct_dtype_name(c.dtype));
    std::vector<unsigned char> bytes;
    ct_tensor* t = patterned(c.dtype, bytes);
    ASSERT_HANDLE(t);
    DLManagedTensor* m = ct_to_dlpack(t);
    ASSERT_HANDLE(m);
    expect_dl_matches(m->dl_tensor, t, c);
    ct_tensor* u = ct_from_dlpack(m);
    ASSERT_HANDLE(u);
    EXPECT_EQ(ct_tensor_dtype(u), c.dtype);
    EXPECT_EQ(ct_tensor_ndim(u), 2);
    EXPECT_EQ(ct_tensor_size(u, 0), 2);
    EXPECT_EQ(ct_tensor_size(u, 1), 3);
    EXPECT_EQ(ct_tensor_data(u), ct_tensor_data(t));
    EXPECT_EQ(std::memcmp(ct_tensor_data(u), bytes.data(), bytes.size()), 0);
    EXPECT_EQ(ct_tensor_is_view(u), 0);
    ct_tensor_release(t);
    ct_tensor_release(u);
  }
}

TEST_F(DLPack, VersionedRoundTripEveryDType) {
  for (const DTypeCase& c : kDTypes) {
    SCOPED_TRACE(ct_dtype_name(c.dtype));
    std::vector<unsigned char> bytes;
    ct_tensor* t = patterned(c.dtype, bytes);
    ASSERT_HANDLE(t);
    DLManagedTensorVersioned* m = ct_to_dlpack_versioned(t);
    ASSERT_HANDLE(m);
    EXPECT_EQ(m->version.major, 1u);
    EXPECT_EQ(m->version.minor, unsigned(DLPACK_MINOR_VERSION));
    EXPECT_EQ(m->flags, 0u);
    expect_dl_matches(m->dl_tensor, t, c);
    ct_tensor* u = ct_from_dlpack_versioned(m);
    ASSERT_HANDLE(u);
    EXPECT_EQ(ct_tensor_dtype(u), c.dtype);
    EXPECT_EQ(ct_tensor_data(u), ct_tensor_data(t));
    EXPECT_EQ(std::memcmp(ct_tensor_data(u), bytes.data(), bytes.size()), 0);
    ct_storage* s = ct_tensor_storage(u);
    EXPECT_EQ(ct_storage_is_read_only(s), 0);
    ct_storage_release(s);
    ct_tensor_release(u);
    ct_tensor_release(t);
  }
}

TEST_F(DLPack, OwnExportImportSharesDataNotStorage) {
  const float v[] = {1, 2, 3, 4};
  const int64_t n = 4;
  ct_tensor* t = ct_from_data(v, 1, &n, CT_FLOAT32);
  ASSERT_HANDLE(t);
  ct_tensor* u = ct_from_dlpack(ct_to_dlpack(t));
  ASSERT_HANDLE(u);
  EXPECT_EQ(ct_tensor_data(u), ct_tensor_data(t));
  // A new storage over the same bytes, as torch.from_dlpack(torch.to_dlpack(x)) makes.
  EXPECT_EQ(ct_shares_storage(t, u), 0);
  EXPECT_NE(ct_tensor_storage_id(t), ct_tensor_storage_id(u));
  EXPECT_EQ(ct_may_overlap(t, u), 1);
  // Writes through one are seen through the other.
  const float nine[] = {9};
  const int64_t one = 1;
  ct_tensor* src = ct_from_data(nine, 1, &one, CT_FLOAT32);
  CT_ASSERT_OK(ct_copy_(u, src));
  EXPECT_EQ(static_cast<float*>(ct_tensor_data(t))[3], 9.0f);
  ct_tensor_release(src);
  // u keeps t's memory (its storage, not the tensor) alive after t is released.
  const int64_t live = ct_live_tensors(), storages = ct_live_storages();
  ct_tensor_release(t);
  EXPECT_EQ(ct_live_tensors(), live - 1);
  EXPECT_EQ(ct_live_storages(), storages) << "the export still holds t's storage";
  EXPECT_EQ(static_cast<float*>(ct_tensor_data(u))[0], 9.0f);
  ct_tensor_release(u);
}

// ---- non-contiguous exports ------------------------------------------------------------

TEST_F(DLPack, ExportTransposed) {
  const int32_t v[] = {0, 1, 2, 3, 4, 5};
  const int64_t sizes[] = {2, 3};
  ct_tensor* t = ct_from_data(v, 2, sizes, CT_INT32);
  ct_tensor* tt = ct_transpose(t, 0, 1);
  ASSERT_HANDLE(tt);
  DLManagedTensor* m = ct_to_dlpack(tt);
  ASSERT_HANDLE(m);
  ct_tensor_release(tt);
  ct_tensor_release(t);
  const DLTensor& dl = m->dl_tensor;
  ASSERT_EQ(dl.ndim, 2);
  EXPECT_EQ(dl.shape[0], 3);
  EXPECT_EQ(dl.shape[1], 2);
  EXPECT_EQ(dl.strides[0], 1);
  EXPECT_EQ(dl.strides[1], 3);
  // The memory outlived both handles: the export holds it.
  const int32_t* p = static_cast<const int32_t*>(dl.data);
  EXPECT_EQ(p[2 * dl.strides[0] + 1 * dl.strides[1]], 5);
  ct_tensor* u = ct_from_dlpack(m);
  ASSERT_HANDLE(u);
  EXPECT_EQ(ct_tensor_stride(u, 0), 1);
  EXPECT_EQ(ct_tensor_stride(u, 1), 3);
  EXPECT_EQ(ct_tensor_is_contiguous(u), 0);
  EXPECT_EQ(ct_tensor_offset(u), 0);
  // The imported storage spans exactly the reachable bytes.
  ct_storage* s = ct_tensor_storage(u);
  EXPECT_EQ(ct_storage_nbytes(s), 6 * 4);
  ct_storage_release(s);
  ct_tensor* c = ct_contiguous(u);
  ASSERT_HANDLE(c);
  const int32_t expect[] = {0, 3, 1, 4, 2, 5};
  EXPECT_EQ(std::memcmp(ct_tensor_data(c), expect, sizeof expect), 0);
  ct_tensor_release(c);
  ct_tensor_release(u);
}

TEST_F(DLPack, ExportSliceWithOffset) {
  const int64_t v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int64_t n = 10;
  ct_tensor* a = ct_from_data(v, 1, &n, CT_INT64);
  ct_tensor* s = ct_slice(a, 0, 3, 9, 2);  // 3, 5, 7 at offset 3, stride 2
  ASSERT_HANDLE(s);
  ASSERT_EQ(ct_tensor_offset(s), 3);
  DLManagedTensorVersioned* m = ct_to_dlpack_versioned(s);
  ASSERT_HANDLE(m);
  EXPECT_EQ(m->dl_tensor.data, static_cast<char*>(ct_tensor_data(a)) + 3 * 8);
  EXPECT_EQ(m->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(m->dl_tensor.shape[0], 3);
  EXPECT_EQ(m->dl_tensor.strides[0], 2);
  ct_tensor* u = ct_from_dlpack_versioned(m);
  ASSERT_HANDLE(u);
  const int64_t* p = static_cast<const int64_t*>(ct_tensor_data(u));
  EXPECT_EQ(p[0], 3);
  EXPECT_EQ(p[2], 5);
  EXPECT_EQ(p[4], 7);
  ct_storage* st = ct_tensor_storage(u);
  EXPECT_EQ(ct_storage_nbytes(st), 5 * 8);  // elements 3..7 of a
  ct_storage_release(st);
  ct_tensor_release(u);
  ct_tensor_release(s);
  ct_tensor_release(a);
}

TEST_F(DLPack, ExportScalarAndEmpty) {
  const double x = 2.5;
  ct_tensor* scalar = ct_from_data(&x, 0, nullptr, CT_FLOAT64);
  ASSERT_HANDLE(scalar);
  DLManagedTensor* m = ct_to_dlpack(scalar);
  ASSERT_HANDLE(m);
  EXPECT_EQ(m->dl_tensor.ndim, 0);
  ct_tensor* u = ct_from_dlpack(m);
  ASSERT_HANDLE(u);
  EXPECT_EQ(ct_tensor_ndim(u), 0);
  EXPECT_EQ(*static_cast<double*>(ct_tensor_data(u)), 2.5);
  ct_tensor_release(u);
  ct_tensor_release(scalar);

  const int64_t sizes[] = {3, 0};
  ct_tensor* e = ct_empty(2, sizes, CT_FLOAT32);
  ASSERT_HANDLE(e);
  m = ct_to_dlpack(e);
  ASSERT_HANDLE(m);
  EXPECT_EQ(m->dl_tensor.data, nullptr);  // the spec's advice for tensors without elements
  u = ct_from_dlpack(m);
  ASSERT_HANDLE(u);
  EXPECT_EQ(ct_tensor_numel(u), 0);
  EXPECT_EQ(ct_tensor_size(u, 0), 3);
  ct_tensor_release(u);
  ct_tensor_release(e);
}

TEST_F(DLPack, ExportKeepsStorageAliveUntilDeleter) {
  const int64_t n = 4;
  ct_tensor* t = ct_zeros(1, &n, CT_FLOAT32);
  ASSERT_EQ(ct_tensor_refcount(t), 1);
  DLManagedTensor* m = ct_to_dlpack(t);
  ASSERT_HANDLE(m);
  EXPECT_EQ(ct_tensor_refcount(t), 1) << "the export holds the storage, not the tensor";
  const int64_t storages = ct_live_storages();
  ct_tensor_release(t);
  EXPECT_EQ(ct_live_storages(), storages);
  static_cast<float*>(m->dl_tensor.data)[3] = 1.0f;  // still valid memory
  m->deleter(m);
  EXPECT_EQ(ct_live_storages(), storages - 1);
}

// Note [Exports in the reference count] (storage.h): an export takes a reference and marks a
// live export in one word.  ct_storage_refcount reports the references alone, and the storage
// may grow again once the last export is gone.
TEST_F(DLPack, ExportIsOneReferenceAndPinsTheMemoryUntilItsDeleter) {
  const int64_t n = 4;
  ct_tensor* t = ct_zeros(1, &n, CT_FLOAT32);
  ct_storage* s = ct_tensor_storage(t);
  EXPECT_EQ(ct_storage_refcount(s), 2);  // t and s
  EXPECT_EQ(ct_storage_is_resizable(s), 1);
  DLManagedTensorVersioned* a = ct_to_dlpack_versioned(t);
  DLManagedTensor* b = ct_to_dlpack(t);
  ASSERT_HANDLE(a);
  ASSERT_HANDLE(b);
  EXPECT_EQ(ct_storage_refcount(s), 4);
  EXPECT_EQ(ct_storage_is_resizable(s), 0);
  a->deleter(a);
  EXPECT_EQ(ct_storage_refcount(s), 3);
  EXPECT_EQ(ct_storage_is_resizable(s), 0);
  b->deleter(b);
  EXPECT_EQ(ct_storage_refcount(s), 2);
  EXPECT_EQ(ct_storage_is_resizable(s), 1);
  ct_storage_release(s);
  ct_tensor_release(t);
}

// t.set_(from_dlpack(to_dlpack(t))): t ends on the storage whose deleter holds the export.  Had
// the export held t itself, t -> storage -> export -> t would be a cycle never freed (the
// fuzzer found it); the export holds only the old storage, so everything goes.
TEST_F(DLPack, SetToItsOwnRoundTripFreesEverything) {
  const int64_t tensors = ct_live_tensors(), storages = ct_live_storages();
  const int64_t n = 3;
  ct_tensor* t = ct_ones(1, &n, CT_FLOAT32);
  ASSERT_HANDLE(t);
  ct_tensor* u = ct_from_dlpack_versioned(ct_to_dlpack_versioned(t));
  ASSERT_HANDLE(u);
  CT_ASSERT_OK(ct_set_(t, u));
  EXPECT_EQ(ct_shares_storage(t, u), 1);
  ct_tensor_release(u);
  EXPECT_EQ(static_cast<float*>(ct_tensor_data(t))[2], 1.0f);
  ct_tensor_release(t);
  EXPECT_EQ(ct_live_tensors(), tensors);
  EXPECT_EQ(ct_live_storages(), storages);
}

TEST_F(DLPack, ExportBadHandle) {
  EXPECT_EQ(ct_to_dlpack(nullptr), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT, "to_dlpack"));
  EXPECT_EQ(ct_to_dlpack_versioned(nullptr), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT, "to_dlpack_versioned"));
  CT_EXPECT_FAIL(ct_storage_is_read_only(nullptr), -1, CT_ERR_INVALID_ARGUMENT, "NULL");
}

// ---- import: ownership -----------------------------------------------------------------

TEST_F(DLPack, DeleterRunsOnceAfterLastViewAndStorageHandle) {
  Spec s;
  s.shape = {4, 4};
  DLManagedTensor* m = make_legacy(s);
  float* buf = static_cast<float*>(m->dl_tensor.data);
  for (int i = 0; i < 16; ++i) buf[i] = float(i);
  ct_tensor* t = ct_from_dlpack(m);
  ASSERT_HANDLE(t);
  EXPECT_EQ(ct_tensor_data(t), buf);
  ct_tensor* tt = ct_transpose(t, 0, 1);
  ct_tensor* row = ct_select(t, 0, 2);
  ASSERT_HANDLE(tt);
  ASSERT_HANDLE(row);
  ct_tensor_release(t);
  EXPECT_EQ(g_deleter_calls, 0);
  ct_tensor_release(tt);
  EXPECT_EQ(g_deleter_calls, 0);
  EXPECT_EQ(static_cast<float*>(ct_tensor_data(row))[1], 9.0f);
  ct_storage* st = ct_tensor_storage(row);
  ct_tensor_release(row);
  EXPECT_EQ(g_deleter_calls, 0) << "a storage handle keeps the memory";
  ct_storage_release(st);
  EXPECT_EQ(g_deleter_calls, 1);
}

TEST_F(DLPack, VersionedDeleterRunsOnce) {
  ct_tensor* t = ct_from_dlpack_versioned(make_versioned());
  ASSERT_HANDLE(t);
  ct_tensor* c = ct_clone(t);  // a copy does not hold the producer's memory
  ct_tensor_release(t);
  EXPECT_EQ(g_deleter_calls, 1);
  ct_tensor_release(c);
  EXPECT_EQ(g_deleter_calls, 1);
}

TEST_F(DLPack, NullDeleterIsAllowed) {
  alignas(8) float buf[4] = {1, 2, 3, 4};
  int64_t shape = 4;
  DLManagedTensor m{};
  m.dl_tensor.data = buf;
  m.dl_tensor.device = DLDevice{kDLCPU, 0};
  m.dl_tensor.ndim = 1;
  m.dl_tensor.dtype = DLDataType{kDLFloat, 32, 1};
  m.dl_tensor.shape = &shape;
  ct_tensor* t = ct_from_dlpack(&m);
  ASSERT_HANDLE(t);
  EXPECT_EQ(ct_tensor_data(t), buf);
  ct_tensor_release(t);
}

TEST_F(DLPack, ByteOffsetIsHonoured) {
  Spec s;
  s.shape = {4};
  s.byte_offset = 8;
  DLManagedTensor* m = make_legacy(s);
  float* buf = static_cast<float*>(m->dl_tensor.data);
  for (int i = 0; i < 8; ++i) buf[i] = float(i);
  ct_tensor* t = ct_from_dlpack(m);
  ASSERT_HANDLE(t);
  EXPECT_EQ(ct_tensor_data(t), buf + 2);
  EXPECT_EQ(ct_tensor_offset(t), 0);
  ct_storage* st = ct_tensor_storage(t);
  EXPECT_EQ(ct_storage_data(st), buf + 2);
  EXPECT_EQ(ct_storage_nbytes(st), 16);
  ct_storage_release(st);
  EXPECT_EQ(static_cast<float*>(ct_tensor_data(t))[0], 2.0f);
  ct_tensor_release(t);
  EXPECT_EQ(g_deleter_calls, 1);
}

TEST_F(DLPack, StridesAndShapes) {
  {  // explicit strides: a column-major 2x3
    Spec s;
    s.null_strides = false;
    s.strides = {1, 2};
    ct_tensor* t = ct_from_dlpack(make_legacy(s));
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_tensor_stride(t, 0), 1);
    EXPECT_EQ(ct_tensor_stride(t, 1), 2);
    ct_tensor_release(t);
  }
  {  // NULL strides: C-contiguous
    ct_tensor* t = ct_from_dlpack(make_legacy());
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_tensor_stride(t, 0), 3);
    EXPECT_EQ(ct_tensor_stride(t, 1), 1);
    EXPECT_EQ(ct_tensor_is_contiguous(t), 1);
    ct_tensor_release(t);
  }
  {  // stride 0 (a broadcast, as NumPy exports): one element of storage
    Spec s;
    s.shape = {5};
    s.null_strides = false;
    s.strides = {0};
    ct_tensor* t = ct_from_dlpack(make_legacy(s));
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_has_internal_overlap(t), 1);
    ct_storage* st = ct_tensor_storage(t);
    EXPECT_EQ(ct_storage_nbytes(st), 4);
    ct_storage_release(st);
    ct_tensor_release(t);
  }
  {  // no elements: data may be NULL
    int64_t shape[] = {0, 7};
    DLManagedTensor* m = make_legacy();
    m->dl_tensor.shape = shape;
    m->dl_tensor.data = nullptr;
    ct_tensor* t = ct_from_dlpack(m);
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_tensor_numel(t), 0);
    EXPECT_EQ(ct_tensor_size(t, 1), 7);
    ct_tensor_release(t);
  }
  {  // a scalar, with NULL shape
    Spec s;
    s.shape = {};
    DLManagedTensor* m = make_legacy(s);
    static_cast<float*>(m->dl_tensor.data)[0] = 4.0f;
    m->dl_tensor.shape = nullptr;
    ct_tensor* t = ct_from_dlpack(m);
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_tensor_ndim(t), 0);
    EXPECT_EQ(ct_tensor_numel(t), 1);
    ct_tensor_release(t);
  }
  EXPECT_EQ(g_deleter_calls, 5);
}

// The export keeps sizes and strides inline up to 6 dims and on the heap beyond: both, at
// the boundary, for the legacy and the versioned structs, permuted so strides are not C order.
TEST_F(DLPack, ExportShapesInlineAndOnTheHeap) {
  for (int ndim : {0, 1, 6, 7, 12}) {
    std::vector<int64_t> sizes(size_t(ndim), 2);
    if (ndim > 0) sizes[0] = 3;
    CT_MAKE(base, ct_zeros(ndim, sizes.data(), CT_FLOAT32));
    std::vector<int> perm(static_cast<size_t>(ndim));
    for (int i = 0; i < ndim; ++i) perm[size_t(i)] = ndim - 1 - i;
    CT_MAKE(t, ct_permute(base.get(), ndim, perm.data()));
    for (int versioned = 0; versioned < 2; ++versioned) {
      DLManagedTensor* legacy = versioned ? nullptr : ct_to_dlpack(t.get());
      DLManagedTensorVersioned* v = versioned ? ct_to_dlpack_versioned(t.get()) : nullptr;
      ASSERT_TRUE(legacy || v) << ctt::last_error_str();
      const DLTensor& dl = legacy ? legacy->dl_tensor : v->dl_tensor;
      ASSERT_EQ(dl.ndim, ndim);
      for (int i = 0; i < ndim; ++i) {
        EXPECT_EQ(dl.shape[i], ct_tensor_size(t.get(), i)) << ndim << " dims, dim " << i;
        EXPECT_EQ(dl.strides[i], ct_tensor_stride(t.get(), i)) << ndim << " dims, dim " << i;
      }
      if (legacy) legacy->deleter(legacy);
      else v->deleter(v);
    }
  }
}

TEST_F(DLPack, ImportDTypes) {
  for (const DTypeCase& c : kDTypes) {
    SCOPED_TRACE(ct_dtype_name(c.dtype));
    Spec s;
    s.code = c.code;
    s.bits = c.bits;
    ct_tensor* t = ct_from_dlpack(make_legacy(s));
    ASSERT_HANDLE(t);
    EXPECT_EQ(ct_tensor_dtype(t), c.dtype);
    ct_tensor_release(t);
  }
  // Bytes that were uint8 in the producer, labelled kDLBool: bool.
  Spec s;
  s.code = kDLBool;
  s.bits = 8;
  DLManagedTensor* m = make_legacy(s);
  static_cast<uint8_t*>(m->dl_tensor.data)[4] = 1;
  ct_tensor* t = ct_from_dlpack(m);
  ASSERT_HANDLE(t);
  EXPECT_EQ(ct_tensor_dtype(t), CT_BOOL);
  ct_tensor* sum = ct_to(t, CT_INT64);
  ASSERT_HANDLE(sum);
  EXPECT_EQ(static_cast<int64_t*>(ct_tensor_data(sum))[4], 1);
  ct_tensor_release(sum);
  ct_tensor_release(t);
}

// ---- read-only -------------------------------------------------------------------------

TEST_F(DLPack, ReadOnlyVersionedImportRefusesWrites) {
  Spec s;
  s.shape = {4};
  DLManagedTensorVersioned* m = make_versioned(s, DLPACK_FLAG_BITMASK_READ_ONLY);
  float* buf = static_cast<float*>(m->dl_tensor.data);
  ct_tensor* t = ct_from_dlpack_versioned(m);
  ASSERT_HANDLE(t);
  ct_storage* st = ct_tensor_storage(t);
  EXPECT_EQ(ct_storage_is_read_only(st), 1);
  ct_storage_release(st);

  const int64_t one = 1;
  const float seven = 7;
  ct_tensor* src = ct_from_data(&seven, 1, &one, CT_FLOAT32);
  EXPECT_EQ(ct_copy_(t, src), CT_ERR_READ_ONLY);
  EXPECT_EQ(ct_last_status(), CT_ERR_READ_ONLY);
  ct_tensor* view = ct_slice(t, 0, 1, 3, 1);  // views share the refusal
  ASSERT_HANDLE(view);
  EXPECT_EQ(ct_copy_(view, src), CT_ERR_READ_ONLY);
  // Every in-place op refuses, not only copy_.
  EXPECT_EQ(ct_fill_(t, 1.0), CT_ERR_READ_ONLY);
  EXPECT_EQ(ct_zero_(view), CT_ERR_READ_ONLY);
  EXPECT_EQ(ct_add_(t, src), CT_ERR_READ_ONLY);
  EXPECT_EQ(ct_add_scalar_(view, 1.0), CT_ERR_READ_ONLY);
  EXPECT_EQ(ct_neg_(t), CT_ERR_READ_ONLY);
  EXPECT_EQ(buf[1], 0.0f);
  EXPECT_EQ(ct_tensor_version(t), 0);

  // Reading is fine, and so is copying out.
  ct_tensor* c = ct_clone(view);
  ASSERT_HANDLE(c);
  EXPECT_EQ(ct_copy_(c, src), CT_OK);

  // Re-export: the versioned struct carries the flag; the legacy one cannot, so it refuses.
  DLManagedTensorVersioned* again = ct_to_dlpack_versioned(view);
  ASSERT_HANDLE(again);
  EXPECT_EQ(again->flags & DLPACK_FLAG_BITMASK_READ_ONLY, uint64_t(DLPACK_FLAG_BITMASK_READ_ONLY));
  again->deleter(again);
  EXPECT_EQ(ct_to_dlpack(view), nullptr);
  EXPECT_EQ(ct_last_status(), CT_ERR_READ_ONLY);

  ct_tensor_release(c);
  ct_tensor_release(src);
  ct_tensor_release(view);
  ct_tensor_release(t);
  EXPECT_EQ(g_deleter_calls, 1);
}

TEST_F(DLPack, WritableVersionedImportWritesThrough) {
  Spec s;
  s.shape = {4};
  DLManagedTensorVersioned* m = make_versioned(s, DLPACK_FLAG_BITMASK_IS_COPIED);
  float* buf = static_cast<float*>(m->dl_tensor.data);
  ct_tensor* t = ct_from_dlpack_versioned(m);
  ASSERT_HANDLE(t);
  const int64_t one = 1;
  const float seven = 7;
  ct_tensor* src = ct_from_data(&seven, 1, &one, CT_FLOAT32);
  CT_ASSERT_OK(ct_copy_(t, src));
  EXPECT_EQ(buf[3], 7.0f);
  EXPECT_EQ(ct_tensor_version(t), 1);
  ct_tensor_release(src);
  ct_tensor_release(t);
}

// ---- import: hostile input -------------------------------------------------------------

struct Hostile {
  const char* name;
  ct_status status;
  const char* mention;  // a value the message must name
  void (*mutate)(DLTensor& dl);
};

int64_t g_neg_shape[] = {2, -3};
int64_t g_neg_strides[] = {3, -1};
int64_t g_huge_shape[] = {INT64_MAX / 2, 4};
int64_t g_huge_strides[] = {INT64_MAX, 1};

const Hostile kHostile[] = {
    {"null data", CT_ERR_INVALID_ARGUMENT, "NULL", [](DLTensor& dl) { dl.data = nullptr; }},
    {"negative ndim", CT_ERR_INVALID_ARGUMENT, "-1", [](DLTensor& dl) { dl.ndim = -1; }},
    {"ndim 65", CT_ERR_INVALID_ARGUMENT, "65", [](DLTensor& dl) { dl.ndim = 65; }},
    {"null shape", CT_ERR_INVALID_ARGUMENT, "shape is NULL", [](DLTensor& dl) { dl.shape = nullptr; }},
    {"negative size", CT_ERR_SHAPE, "-3", [](DLTensor& dl) { dl.shape = g_neg_shape; }},
    {"cuda", CT_ERR_INVALID_ARGUMENT, "device type 2", [](DLTensor& dl) { dl.device.device_type = kDLCUDA; }},
    {"cuda host", CT_ERR_INVALID_ARGUMENT, "device type 3",
     [](DLTensor& dl) { dl.device.device_type = kDLCUDAHost; }},
    {"lanes 4", CT_ERR_DTYPE, "lanes 4", [](DLTensor& dl) { dl.dtype.lanes = 4; }},
    {"lanes 0", CT_ERR_DTYPE, "lanes 0", [](DLTensor& dl) { dl.dtype.lanes = 0; }},
    {"complex32", CT_ERR_DTYPE, "kDLComplex", [](DLTensor& dl) { dl.dtype = DLDataType{kDLComplex, 32, 1}; }},
    {"float8", CT_ERR_DTYPE, "bits 8", [](DLTensor& dl) { dl.dtype = DLDataType{kDLFloat, 8, 1}; }},
    {"float8_e4m3fn", CT_ERR_DTYPE, "code 10", [](DLTensor& dl) { dl.dtype = DLDataType{kDLFloat8_e4m3fn, 8, 1}; }},
    {"uint16", CT_ERR_DTYPE, "bits 16", [](DLTensor& dl) { dl.dtype = DLDataType{kDLUInt, 16, 1}; }},
    {"int1", CT_ERR_DTYPE, "bits 1", [](DLTensor& dl) { dl.dtype = DLDataType{kDLInt, 1, 1}; }},
    {"bool bits 1", CT_ERR_DTYPE, "kDLBool", [](DLTensor& dl) { dl.dtype = DLDataType{kDLBool, 1, 1}; }},
    {"bfloat32", CT_ERR_DTYPE, "kDLBfloat", [](DLTensor& dl) { dl.dtype = DLDataType{kDLBfloat, 32, 1}; }},
    {"opaque", CT_ERR_DTYPE, "kDLOpaqueHandle", [](DLTensor& dl) { dl.dtype = DLDataType{kDLOpaqueHandle, 64, 1}; }},
    {"unknown code", CT_ERR_DTYPE, "code 200", [](DLTensor& dl) { dl.dtype = DLDataType{200, 32, 1}; }},
    {"negative stride", CT_ERR_INVALID_ARGUMENT, "[3, -1]", [](DLTensor& dl) { dl.strides = g_neg_strides; }},
    {"misaligned data", CT_ERR_INVALID_ARGUMENT, "aligned",
     [](DLTensor& dl) { dl.data = static_cast<char*>(dl.data) + 1; }},
    {"misaligned byte_offset", CT_ERR_INVALID_ARGUMENT, "aligned", [](DLTensor& dl) { dl.byte_offset = 2; }},
    {"numel overflow", CT_ERR_SHAPE, "overflows", [](DLTensor& dl) { dl.shape = g_huge_shape; }},
    {"extent overflow", CT_ERR_SHAPE, "9223372036854775807", [](DLTensor& dl) { dl.strides = g_huge_strides; }},
    {"byte_offset past the address space", CT_ERR_INVALID_ARGUMENT, "byte_offset",
     [](DLTensor& dl) { dl.byte_offset = UINT64_MAX - 3; }},
};

template <class M>
void check_hostile(ct_tensor* (*import)(M*), M* (*make)(), const char* op) {
  for (const Hostile& h : kHostile) {
    SCOPED_TRACE(h.name);
    g_deleter_calls = 0;
    ct_clear_error();
    M* m = make();
    h.mutate(m->dl_tensor);
    EXPECT_EQ(import(m), nullptr);
    EXPECT_TRUE(ctt::expect_error(h.status, h.mention));
    EXPECT_TRUE(ctt::expect_error(h.status, op));
    EXPECT_EQ(g_deleter_calls, 0) << "ownership stays with the caller on failure";
    // Still the caller's: its deleter works and runs once.
    m->deleter(m);
    EXPECT_EQ(g_deleter_calls, 1);
  }
}

// Explicit strides, so that the stride cases have an array to replace.
Spec strided() {
  Spec s;
  s.null_strides = false;
  s.strides = {3, 1};
  return s;
}
DLManagedTensor* make_strided_legacy() { return make_legacy(strided()); }
DLManagedTensorVersioned* make_strided_versioned() { return make_versioned(strided()); }

TEST_F(DLPack, HostileLegacyInputs) {
  check_hostile(&ct_from_dlpack, &make_strided_legacy, "from_dlpack");
  CT_EXPECT_NULL(ct_from_dlpack(nullptr), CT_ERR_INVALID_ARGUMENT, "from_dlpack");
}

TEST_F(DLPack, HostileVersionedInputs) {
  check_hostile(&ct_from_dlpack_versioned, &make_strided_versioned, "from_dlpack_versioned");
  CT_EXPECT_NULL(ct_from_dlpack_versioned(nullptr), CT_ERR_INVALID_ARGUMENT, "from_dlpack_versioned");

  for (uint32_t major : {0u, 2u}) {
    SCOPED_TRACE(major);
    g_deleter_calls = 0;
    DLManagedTensorVersioned* m = make_versioned(Spec(), 0, major);
    CT_EXPECT_NULL(ct_from_dlpack_versioned(m), CT_ERR_INVALID_ARGUMENT,
                   ("major version " + std::to_string(major)).c_str());
    EXPECT_EQ(g_deleter_calls, 0);
    m->deleter(m);
  }
}

}  // namespace
