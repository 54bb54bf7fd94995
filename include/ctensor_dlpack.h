/*
 * ctensor_dlpack.h: the DLPack exchange structs, for users of ct_from_dlpack() and
 * ct_to_dlpack() (declared in ctensor.h, which this header includes).
 *
 * DLPack (https://github.com/dmlc/dlpack) is the de-facto ABI through which array libraries
 * (NumPy, PyTorch, JAX, CuPy, ...) lend each other tensors without copying.  Its structs are
 * declared here from the public specification, version 1.1, so that no dlpack.h needs to be
 * installed (Debian's is 0.6, older than the versioned struct).  The layout is the ABI: every
 * field below has the type, order and meaning the specification gives it.
 *
 * Coexisting with an official dlpack.h
 *   - If a dlpack.h of version 1.0 or later was included first (DLPACK_MAJOR_VERSION is
 *     defined), this header declares nothing of its own and uses that one.
 *   - If a pre-1.0 dlpack.h was included first (DLPACK_VERSION defined, as in PyTorch's
 *     ATen/dlpack.h), this header adds only what that one lacks: DLPackVersion,
 *     DLManagedTensorVersioned and the DLPACK_FLAG_* masks.
 *   - An official dlpack.h included AFTER this header redefines the structs and fails to
 *     compile: include it first.
 *
 * Ownership, in one paragraph: a DLManagedTensor(Versioned) is lent by its producer to one
 * consumer, which calls `deleter(self)` exactly once when it no longer needs the memory (the
 * deleter may be NULL: then there is nothing to call).  ct_from_dlpack*() makes ctensor the
 * consumer; ct_to_dlpack*() makes ctensor the producer and the caller (or the library the
 * caller hands the struct to) the consumer.
 */
#ifndef CTENSOR_DLPACK_H
#define CTENSOR_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#include "ctensor.h"

#if !defined(DLPACK_MAJOR_VERSION)
/* No dlpack.h of version 1.0+ came first: the versioned struct is ours to declare. */
#define CTENSOR_DLPACK_DECLARES_VERSIONED 1
#endif

#if !defined(DLPACK_MAJOR_VERSION) && !defined(DLPACK_VERSION)
/* ---- No dlpack.h was included: declare DLPack 1.1 in full ---------------------------- */

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* Where the memory lives.  ctensor produces and accepts kDLCPU only. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /* ordinary host memory */
  kDLCUDA = 2,         /* CUDA device memory */
  kDLCUDAHost = 3,     /* host memory pinned with cudaMallocHost */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,          /* Verilog simulator buffer */
  kDLROCM = 10,        /* AMD GPU memory */
  kDLROCMHost = 11,    /* host memory pinned with hipMallocHost */
  kDLExtDev = 12,      /* reserved for experiments; meaning depends on the implementation */
  kDLCUDAManaged = 13, /* CUDA unified memory (cudaMallocManaged) */
  kDLOneAPI = 14,      /* oneAPI unified shared memory */
  kDLWebGPU = 15,
  kDLHexagon = 16,     /* Qualcomm Hexagon DSP */
  kDLMAIA = 17         /* Microsoft MAIA */
} DLDeviceType;

/* A device: its type, and its index among devices of that type (0 for host memory). */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* Kinds of element, stored in DLDataType.code (a uint8_t, not this enum, to keep the struct
   at four bytes). */
typedef enum {
  kDLInt = 0U,          /* two's complement signed integer */
  kDLUInt = 1U,         /* unsigned integer */
  kDLFloat = 2U,        /* IEEE 754 binary floating point */
  kDLOpaqueHandle = 3U, /* opaque handles, for testing between consenting libraries */
  kDLBfloat = 4U,       /* bfloat16: the upper half of a float32 */
  kDLComplex = 5U,      /* a pair (real, imaginary) of floats, bits counting both */
  kDLBool = 6U,         /* boolean, one byte per element (bits 8) */
  /* 8-, 6- and 4-bit floating-point formats (DLPack 1.1); ctensor accepts none of them. */
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U,
  kDLFloat6_e3m2fn = 16U,
  kDLFloat4_e2m1fn = 17U
} DLDataTypeCode;

/* An element type, in native byte order.  float32 is {kDLFloat, 32, 1}; bool is
   {kDLBool, 8, 1}; lanes > 1 describes short vectors (ctensor accepts lanes == 1 only). */
typedef struct {
  uint8_t code;   /* a DLDataTypeCode */
  uint8_t bits;   /* bits per lane: 8, 16, 32, 64 */
  uint16_t lanes; /* lanes per element */
} DLDataType;

/* A strided array that does not own its memory.
   Element [i0, ..., i(ndim-1)] is at byte
     (char *)data + byte_offset + (i0 * strides[0] + ... ) * (bits * lanes / 8).
   The specification wants data 256-byte aligned and the start expressed through
   byte_offset, but most producers (PyTorch, NumPy, ctensor) give the address of the first
   element in data and byte_offset 0; PyTorch 1.x ignores byte_offset when it imports. */
typedef struct {
  void *data;          /* base address; may be NULL when the tensor has no elements */
  DLDevice device;
  int32_t ndim;        /* number of dimensions; 0 for a scalar */
  DLDataType dtype;
  int64_t *shape;      /* ndim sizes */
  int64_t *strides;    /* ndim strides, in ELEMENTS (not bytes).  Before DLPack 1.0, NULL
                          meant C-contiguous; ctensor still accepts NULL, and always
                          produces an array. */
  uint64_t byte_offset; /* bytes from data to element [0, ..., 0] */
} DLTensor;

/* The pre-1.0 ("legacy") managed tensor, still what NumPy < 2 and PyTorch < 2.4 exchange in
   "dltensor" capsules.  deleter(self) releases manager_ctx and frees self. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;                             /* the producer's; may be NULL */
  void (*deleter)(struct DLManagedTensor *self); /* may be NULL */
} DLManagedTensor;

#ifdef __cplusplus
}
#endif

#endif /* no dlpack.h at all */

#ifdef CTENSOR_DLPACK_DECLARES_VERSIONED
/* ---- The versioned struct (DLPack 1.0+): declared here unless a 1.x dlpack.h did ------- */

#ifdef __cplusplus
extern "C" {
#endif

/* A major version change means a different layout of DLManagedTensorVersioned after its
   `flags` field; a minor one only adds enumerators.  A consumer refuses majors it does not
   know (ctensor: anything but 1). */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Bits of DLManagedTensorVersioned.flags. */
/* The consumer must not write through the tensor. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/* The producer made a copy for this exchange: the consumer is its only user. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/* Sub-byte elements (4- and 6-bit floats) are padded to a byte rather than packed. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/* The managed tensor of DLPack 1.0+.  Fields up to and including `flags` keep their layout
   in every future version, so that a consumer can always read the version and call the
   deleter.  deleter(self) releases manager_ctx and frees self. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;                                  /* of the producer */
  void *manager_ctx;                                      /* the producer's; may be NULL */
  void (*deleter)(struct DLManagedTensorVersioned *self); /* may be NULL */
  uint64_t flags;                                         /* DLPACK_FLAG_BITMASK_* */
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif

#endif /* versioned struct */

#endif /* CTENSOR_DLPACK_H */
