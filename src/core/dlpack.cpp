#include "dlpack.h"

#include <cstdint>
#include <memory>
#include <string>

#include "shape.h"
#include "small_blocks.h"
// DLPack's ABI structs.  This header also declares the ct_* C API, which the core never
// calls: it is included only for the struct layouts.
#include "ctensor_dlpack.h"

namespace ct {
namespace {

// ---- dtype mapping ------------------------------------------------------------------------

const char* code_name(uint8_t code) {
  switch (code) {
    case kDLInt: return "kDLInt";
    case kDLUInt: return "kDLUInt";
    case kDLFloat: return "kDLFloat";
    case kDLOpaqueHandle: return "kDLOpaqueHandle";
    case kDLBfloat: return "kDLBfloat";
    case kDLComplex: return "kDLComplex";
    case kDLBool: return "kDLBool";
    default: return code >= kDLFloat8_e3m4 && code <= kDLFloat4_e2m1fn ? "a float8/6/4 code" : "unknown";
  }
}

DType dtype_from_dl(DLDataType t, const char* op) {
  CT_CHECK(t.lanes == 1, DType,
           op << ": vector dtypes are not supported (dtype code " << int(t.code) << " (" << code_name(t.code)
              << "), bits " << int(t.bits) << ", lanes " << t.lanes << "; lanes must be 1)");
  switch (t.code) {
    case kDLBool:
      if (t.bits == 8) return DType::Bool;
      break;
    case kDLUInt:
      if (t.bits == 8) return DType::UInt8;
      break;
    case kDLInt:
      switch (t.bits) {
        case 8: return DType::Int8;
        case 16: return DType::Int16;
        case 32: return DType::Int32;
        case 64: return DType::Int64;
      }
      break;
    case kDLFloat:
      switch (t.bits) {
        case 16: return DType::Float16;
        case 32: return DType::Float32;
        case 64: return DType::Float64;
      }
      break;
    case kDLBfloat:
      if (t.bits == 16) return DType::BFloat16;
      break;
    case kDLComplex:
      if (t.bits == 64) return DType::Complex64;
      if (t.bits == 128) return DType::Complex128;
      break;
  }
  CT_FAIL(DType, op << ": unsupported DLPack dtype (code " << int(t.code) << " (" << code_name(t.code) << "), bits "
                    << int(t.bits) << ", lanes " << t.lanes
                    << "); supported: kDLBool 8, kDLUInt 8, kDLInt 8/16/32/64, kDLFloat 16/32/64, kDLBfloat 16, kDLComplex 64/128");
}

DLDataType dtype_to_dl(DType d) {
  DLDataType t;
  t.lanes = 1;
  t.bits = uint8_t(itemsize(d) * 8);
  switch (d) {
    case DType::Bool: t.code = kDLBool; break;
    case DType::UInt8: t.code = kDLUInt; break;
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64: t.code = kDLInt; break;
    case DType::Float16:
    case DType::Float32:
    case DType::Float64: t.code = kDLFloat; break;
    case DType::BFloat16: t.code = kDLBfloat; break;
    case DType::Complex64:
    case DType::Complex128: t.code = kDLComplex; break;
  }
  return t;
}

// ---- import -------------------------------------------------------------------------------

// What the storage deleter needs to hand m back to its producer.  It is allocated before the
// storage and "armed" only once the tensor exists, so that a failure after Storage::wrap
// (Tensor::make running out of memory) frees the context without calling the producer's
// deleter: ownership then stays with the caller, as promised.
struct ImportContext {
  void* managed;
  void (*give_back)(void* managed);
  bool armed = false;
};

void release_import(void* /*data*/, void* ctx) {
  std::unique_ptr<ImportContext> c(static_cast<ImportContext*>(ctx));
  if (c->armed) c->give_back(c->managed);
}

template <class M>
void call_deleter(void* managed) {
  M* m = static_cast<M*>(managed);
  if (m->deleter) m->deleter(m);
}

template <class M>
Ref<Tensor> import(M* m, bool read_only, const char* op) {
  const DLTensor& dl = m->dl_tensor;
  CT_CHECK(dl.ndim >= 0 && dl.ndim <= kMaxDims, InvalidArgument,
           op << ": ndim must be in [0, " << kMaxDims << "], got " << dl.ndim);
  CT_CHECK(dl.ndim == 0 || dl.shape != nullptr, InvalidArgument, op << ": shape is NULL but ndim is " << dl.ndim);
  CT_CHECK(dl.device.device_type == kDLCPU, InvalidArgument,
           op << ": only CPU tensors can be imported (device type kDLCPU = " << int(kDLCPU) << "), got device type "
              << int(dl.device.device_type) << " with device id " << dl.device.device_id);
  const DType dtype = dtype_from_dl(dl.dtype, op);
  const int64_t isize = itemsize(dtype);

  const IntList sizes(dl.shape, size_t(dl.ndim));
  const int64_t numel = checked_numel(sizes, op);
  Shape strides;
  if (dl.strides == nullptr) {
    strides = contiguous_strides(sizes);
  } else {
    strides.assign(dl.strides, dl.strides + dl.ndim);
    for (int64_t s : strides) {
      CT_CHECK(s >= 0, InvalidArgument, op << ": negative strides are not supported, got strides " << list_str(strides));
    }
  }

  char* start = nullptr;
  int64_t nbytes = 0;
  if (numel > 0) {
    CT_CHECK(dl.data != nullptr, InvalidArgument,
             op << ": data is NULL but the tensor has " << numel << " elements (shape " << list_str(sizes) << ")");
    const auto base = reinterpret_cast<uintptr_t>(dl.data);
    CT_CHECK(dl.byte_offset <= UINTPTR_MAX - base, InvalidArgument,
             op << ": byte_offset " << dl.byte_offset << " moves data past the end of the address space");
    const uintptr_t addr = base + uintptr_t(dl.byte_offset);
    CT_CHECK(addr % uintptr_t(isize) == 0, InvalidArgument,
             op << ": data + byte_offset (" << reinterpret_cast<void*>(addr) << ") is not aligned to the " << isize
                << "-byte size of " << dtype_name(dtype));
    const Extent e = element_extent(sizes, strides, 0, op);
    CT_CHECK(!__builtin_add_overflow(e.hi, 1, &nbytes) && !__builtin_mul_overflow(nbytes, isize, &nbytes), Shape,
             op << ": shape " << list_str(sizes) << " with strides " << list_str(strides) << " spans more than 2^63 bytes");
    CT_CHECK(uint64_t(nbytes) <= UINTPTR_MAX - addr, InvalidArgument,
             op << ": shape " << list_str(sizes) << " with strides " << list_str(strides)
                << " reaches past the end of the address space");
    start = reinterpret_cast<char*>(addr);
  }

  // From here on nothing may call m->deleter unless the whole import succeeds.
  auto ctx = std::make_unique<ImportContext>(ImportContext{m, &call_deleter<M>});
  Ref<Storage> storage = Ref<Storage>::adopt(Storage::wrap(start, nbytes, &release_import, ctx.get(), read_only));
  ImportContext* held = ctx.release();  // the storage frees it now, armed or not
  Ref<Tensor> t = Tensor::make(storage.get(), dtype, sizes, strides, 0, nullptr);
  held->armed = true;
  return t;
}

// ---- export -------------------------------------------------------------------------------

// What an export owns: the managed struct (first member: its address is the one handed out
// and manager_ctx points back at the whole), the reference that keeps the memory alive, and
// the copies of sizes and strides the DLTensor points to.  The storage, not the tensor: a
// reference to the tensor would make a cycle no count can break once the tensor is pointed at
// the storage of its own round trip (t.set_(from_dlpack(to_dlpack(t))), found by the fuzzer).
template <class M>
struct Export {
  M managed{};
  // The storage exported: the tensor's may change later (set_), and while the export lives
  // the memory may not move (Storage::resizable).
  // Holds a reference and an export, taken together (Note [Exports in the reference count]).
  const Storage* storage = nullptr;
  // sizes then strides: inline up to kInlineExportDims dims (one allocation per export, not
  // two: np.from_dlpack of a small tensor is an allocation-bound round trip), else on the heap
  static constexpr int kInlineExportDims = 6;
  int64_t inline_dims[2 * kInlineExportDims + 1];  // never a zero-length array
  std::unique_ptr<int64_t[]> heap_dims;
  int64_t* dims(int ndim) {
    if (ndim <= kInlineExportDims) return inline_dims;
    if (!heap_dims) heap_dims = std::make_unique<int64_t[]>(size_t(2 * ndim));
    return heap_dims.get();
  }

  ~Export() {
    if (storage) storage->release_export();
  }
  // From small_blocks, as Tensor and Storage objects are (Note [Tensor objects] in tensor.h):
  // np.from_dlpack(t) of a small tensor makes and frees one, and malloc and free were a tenth
  // of it (perf).  The deleter may run on another thread: its cache takes the block.
  // (sizeof(Export), a few hundred bytes, is a class size of small_blocks once rounded.)
  static void* operator new(size_t bytes) { return small_blocks::new_block(small_blocks::block_size(int64_t(bytes))); }
  static void operator delete(void* p, size_t bytes) noexcept {
    if (p) small_blocks::give(static_cast<char*>(p), small_blocks::block_size(int64_t(bytes)));
  }
  static void destroy(M* self) { delete static_cast<Export*>(self->manager_ctx); }
};

static_assert(sizeof(Export<DLManagedTensorVersioned>) <= size_t(small_blocks::kMaxBytes), "a small_blocks class");

template <class M>
M* export_tensor(const Tensor& t) {
  // torch's __dlpack__: a consumer reads the stored bytes, which are not a conj view's values.
  // The neg bit is not checked, as torch does not (Note [Math bits]).
  CT_CHECK(!t.is_conj(), InvalidArgument, "to_dlpack: Can't export tensors with the conjugate bit set");
  auto e = std::make_unique<Export<M>>();
  const int ndim = t.ndim();
  int64_t* dims = e->dims(ndim);
  for (int i = 0; i < ndim; ++i) {
    dims[i] = t.size(i);
    dims[ndim + i] = t.stride(i);
  }
  DLTensor& dl = e->managed.dl_tensor;
  dl.data = t.data();  // element [0, ..., 0]; NULL when there are no elements (as the spec asks)
  dl.device.device_type = kDLCPU;
  dl.device.device_id = 0;
  dl.ndim = int32_t(ndim);
  dl.dtype = dtype_to_dl(t.dtype());
  dl.shape = dims;
  dl.strides = dims + ndim;
  dl.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = &Export<M>::destroy;
  t.storage()->retain_export();  // last: nothing below throws
  e->storage = t.storage();
  return &e.release()->managed;
}

}  // namespace

Ref<Tensor> from_dlpack(DLManagedTensor* m) {
  CT_CHECK(m != nullptr, InvalidArgument, "from_dlpack: the DLManagedTensor is NULL");
  return import(m, false, "from_dlpack");
}

Ref<Tensor> from_dlpack_versioned(DLManagedTensorVersioned* m) {
  CT_CHECK(m != nullptr, InvalidArgument, "from_dlpack_versioned: the DLManagedTensorVersioned is NULL");
  CT_CHECK(m->version.major == DLPACK_MAJOR_VERSION, InvalidArgument,
           "from_dlpack_versioned: DLPack major version " << m->version.major << "." << m->version.minor
               << " is not supported (ctensor reads major version " << DLPACK_MAJOR_VERSION << ")");
  return import(m, (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0, "from_dlpack_versioned");
}

DLManagedTensor* to_dlpack(const Tensor& t) {
  CT_CHECK(!t.storage()->read_only(), ReadOnly,
           "to_dlpack: the tensor's storage is read-only, which a legacy DLManagedTensor cannot express; "
           "use the versioned export (it sets DLPACK_FLAG_BITMASK_READ_ONLY)");
  return export_tensor<DLManagedTensor>(t);
}

DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& t) {
  DLManagedTensorVersioned* m = export_tensor<DLManagedTensorVersioned>(t);
  m->version.major = DLPACK_MAJOR_VERSION;
  m->version.minor = DLPACK_MINOR_VERSION;
  m->flags = t.storage()->read_only() ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  return m;
}

}  // namespace ct
