// The strided copy engine below copy.h: raw pointers, element strides, no Tensor objects, no
// checks.  copy.cpp validates and broadcasts; this file plans and runs the copy.
//
// Note [Copy plan]
// A copy of n-d geometry (sizes, dst strides, src strides) is first simplified:
//   1. dims of size 1 are dropped (a copy with a size-0 dim does nothing);
//   2. dims are ordered by dst stride, largest first, ties broken by src stride, so the
//      innermost dim is the one dst walks fastest;
//   3. adjacent dims merge when they line up in both tensors
//      (stride_outer == stride_inner * size_inner for dst and for src).
// Then one path is chosen, in this order:
//   Flat       one dim, same dtype, unit stride both sides: one memcpy (or a streaming
//              copy for large sizes), split in byte ranges across threads;
//   Rows       same dtype, innermost dim unit stride both sides: memcpy per row;
//   Transpose  same dtype of 1 to 8 bytes (complex128's 16 go Tiled), dst unit stride on the
//              innermost dim and src unit stride on another dim: cache-line tiles transposed in registers (SIMD per element
//              width 1, 2, 4, 8; Note [Transpose tiles] in copy_kernels.cpp), streaming
//              stores for large copies;
//   Tiled      any dtypes, the dim src walks fastest is not dst's innermost: the
//              element-wise loop runs over 2-d blocks so both sides stay in cache;
//   Strided    everything else: an element-wise loop (with dtype conversion) along the
//              innermost dim, nested in an n-d counter.
// "Same dtype" means bytes that may move as they are: a bool -> bool copy that writes 0/1
// (CopyArgs::normalize_bool) is a conversion and goes Tiled or Strided.
// Work above a grain size is cut into a few chunks per thread, claimed dynamically by OpenMP
// threads (a thread the OS delays leaves its chunks to the others).  Every path writes each
// destination element exactly once, so results do not depend on the thread count.  Copies
// into an existing destination of at least streaming_bytes() use non-temporal stores (the
// result cannot stay in cache anyway, and they skip reading the destination lines first);
// see CopyArgs::dst_is_new for new destinations.
#pragma once

#include <cstdint>

#include "dtype.h"
#include "tensor.h"

namespace ct::kernels {

// One copy: dst[i] = convert(src[i]) for every index i of `sizes`; strides in elements.
// dst and src must not overlap (copy.cpp makes a temporary first when they do).
struct CopyArgs {
  char* dst = nullptr;
  DType dst_dtype = DType::Float32;
  const char* src = nullptr;
  DType src_dtype = DType::Float32;
  int ndim = 0;
  const int64_t* sizes = nullptr;
  const int64_t* dst_strides = nullptr;
  const int64_t* src_strides = nullptr;
  // dst was just allocated (Tensor::empty) and never written.  Such memory is fresh pages
  // that the kernel zeroes on first touch through the cache, so ordinary stores then hit
  // cached lines, while streaming stores would first have to push those zeroes out: no
  // streaming stores for a new dst (measured: 4096^2 float32 transposed into a new tensor,
  // 6.6-7.0 ms with ordinary stores, 8.0 ms streaming; into a reused one, 3.6 ms streaming,
  // 5.1-5.7 ms ordinary).
  bool dst_is_new = false;
  // ... but its buffer was recycled by BufferCache (Storage::recycled()): the pages are
  // mapped and were written before, so streaming stores win as for an existing dst
  // (measured, 1 thread, minimum of 14 interleaved runs each on a loaded machine: 4096^2
  // float32 and 8192^2 uint8 transposes equal, 3-D/4-D 1- and 2-byte permutations 11-16%
  // faster than with ordinary stores).
  bool dst_recycled = false;
  // A bool -> bool copy writes 0 or 1 for every source byte (any non-zero byte is true), as
  // torch's copy kernel does behind clone, contiguous and copy_; false moves the bytes as they
  // are, as torch's cat and index_select do.  Only bytes other than 0/1 (from NumPy or a dtype
  // view) tell the two apart.
  bool normalize_bool = true;
};

enum class CopyPath { Empty, Flat, Rows, Transpose, Tiled, Strided };
const char* copy_path_name(CopyPath p);

// The simplified geometry and the chosen path (see Note [Copy plan]).  Dims are ordered
// outermost first; strides are in BYTES.  For Transpose and Tiled, x is the innermost dim
// (ndim - 1) and y is the dim src walks fastest.
struct CopyPlan {
  CopyPath path = CopyPath::Empty;
  int ndim = 0;
  int y = -1;
  int64_t numel = 0;
  int64_t sizes[kMaxDims];
  int64_t dst_strides[kMaxDims];
  int64_t src_strides[kMaxDims];
};
CopyPlan plan_copy(const CopyArgs& args);

// Runs the copy with at most max_threads threads (fewer for small copies; never more than
// one inside an OpenMP parallel region).
void run_copy(const CopyArgs& args, int max_threads);

// Instruction sets the SIMD kernels may use; chosen once from the CPU.  Tests lower it to
// exercise every variant on one machine.
enum class Isa { Scalar = 0, Sse2 = 1, Avx2 = 2, Avx512 = 3 };
Isa detected_isa();
Isa active_isa();
void set_isa(Isa isa);  // clamped to detected_isa()

// Tuning knobs (bytes), exposed so tests can force the threaded and streaming paths on
// small inputs.  A copy of B bytes uses min(max_threads, B / grain) threads.  Defaults:
// kDefaultGrainBytes, kDefaultStreamingBytes (a fixed size: the L3 size this VM reports
// through CPUID, 384 MiB, is not the cache a core can use).
inline constexpr int64_t kDefaultGrainBytes = int64_t(256) << 10;
inline constexpr int64_t kDefaultStreamingBytes = int64_t(8) << 20;
void set_grain_bytes(int64_t bytes);       // <= 0 restores the default
void set_streaming_bytes(int64_t bytes);   // <= 0 restores the default
int64_t grain_bytes();
int64_t streaming_bytes();

// A streaming (non-temporal) copy of n bytes, single-threaded; for benchmarks.
void stream_copy(char* dst, const char* src, int64_t n);

}  // namespace ct::kernels
