// Public face of the copy engine: checks, broadcasting, aliasing, versions, threads.
// The engine itself (planning and kernels) is copy_kernels.cpp.
#include "copy.h"

#include "omp_compat.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "copy_kernels.h"
#include "iter.h"
#include "math_bits.h"
#include "overlap.h"
#include "shape.h"

namespace ct {

Ref<Tensor> copy_preserving_layout(const Tensor& t, DType dtype, const char* op);  // below

namespace {

std::atomic<int> g_num_threads{0};  // 0: the default (one per processor)

int default_num_threads() {
  static const int n = std::max(1, omp_get_num_procs());
  return n;
}

// Sizes equal, element for element.
bool same_sizes(IntList a, IntList b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

// src's strides when broadcast to dst's sizes (dims it lacks or has of size 1 get stride 0),
// written into out[0, dst.ndim()).  Callers have checked that src broadcasts to dst.
void broadcast_strides(const Tensor& src, const Tensor& dst, int64_t* out) {
  const int n = dst.ndim(), m = src.ndim();
  for (int j = 0; j < n - m; ++j) out[j] = 0;
  for (int i = 0; i < m; ++i) out[n - m + i] = src.size(i) == 1 ? 0 : src.stride(i);
}

// Runs the engine: dst = src broadcast to dst's shape (src_strides already broadcast).
// dst_is_new: dst was just created by this library (see kernels::CopyArgs::dst_is_new).
// normalize_bool: bool bytes are written as 0/1 (torch's copy kernel) or moved as they are
// (torch's cat and index_select; see kernels::CopyArgs::normalize_bool).
//
// Note [Math bits] in tensor.h: the stored values are copied, then the difference of the
// two tensors' bits is applied to dst (a conj view written from a plain tensor stores the
// conjugates; a plain tensor written from a conj view stores resolved values).  A source with
// bits that also changes dtype is resolved first, so that a negation never meets a conversion.
void engine(const Tensor& dst, const Tensor& src, const int64_t* src_strides, bool dst_is_new,
            bool normalize_bool = true) {
  if (src.math_bits() && src.dtype() != dst.dtype()) {
    // torch converts, then negates in dst's dtype, which a bool dst cannot do (it fails after
    // writing; ctensor fails before)
    CT_CHECK(dst.dtype() != DType::Bool || !(src.is_neg() != dst.is_neg()), DType,
             "\"neg_cpu\" not implemented for 'Bool'");
    const Ref<Tensor> resolved = copy_to_new(src, src.dtype());
    int64_t strides[kMaxDims];
    broadcast_strides(*resolved, dst, strides);
    engine(dst, *resolved, strides, dst_is_new, normalize_bool);
    return;
  }
  kernels::CopyArgs a;
  a.dst = dst.data();
  a.dst_dtype = dst.dtype();
  a.src = src.data();
  a.src_dtype = src.dtype();
  a.ndim = dst.ndim();
  a.sizes = dst.sizes().data();
  a.dst_strides = dst.strides().data();
  a.src_strides = src_strides;
  a.dst_is_new = dst_is_new;
  a.dst_recycled = dst.storage()->recycled();
  a.normalize_bool = normalize_bool;
  kernels::run_copy(a, get_num_threads());
  if (const uint8_t bits = uint8_t(dst.math_bits() ^ src.math_bits())) apply_math_bits(dst, bits);
}

// A dst whose elements share memory (unfold, as_strided: torch's overlap check lets it
// through as TooHard), written by one thread, one index tuple after another in
// ElementwiseIter's order, which is TensorIterator's: the last write to a location is the one
// torch makes.  That order depends on src's strides too, so the values to store, when they
// must be made aside (another dtype, math bits, memory shared with dst), keep src's layout.
void write_overlapping(const Tensor& dst, const Tensor& src);

Ref<Tensor> stored_values(const Tensor& dst, const Tensor& src) {
  // torch reads a src sharing dst's memory live as it writes, which a copy made aside would
  // not reproduce: refused instead
  CT_CHECK(!may_overlap(dst, src) || overlaps(dst, src) == 0, Overlap,
           kPartialOverlapMessage);
  if (src.dtype() == dst.dtype() && !src.math_bits() && !dst.math_bits())
    return Ref<Tensor>::retain(const_cast<Tensor*>(&src));
  Ref<Tensor> values = copy_preserving_layout(src, dst.dtype(), "copy_");  // resolved values
  if (dst.math_bits()) apply_math_bits(*values, dst.math_bits());           // what dst reads back
  return values;
}

void write_overlapping(const Tensor& dst, const Tensor& src) {
  const Ref<Tensor> values = stored_values(dst, src);
  const Tensor* ops[2] = {&dst, values.get()};
  ElementwiseIter it(ops);
  const size_t item = size_t(dst.itemsize());
  it.for_each([&](char** p, const int64_t* s, int64_t n) {  // serial: out_overlaps_ or below the grain
    for (int64_t i = 0; i < n; ++i) std::memcpy(p[0] + i * s[0], p[1] + i * s[1], item);
  });
}

}  // namespace

void copy_into(const Tensor& dst, const Tensor& src, const char* op) {
  // Shape: src must broadcast to exactly dst's shape (torch's copy_ never resizes dst).
  if (!same_sizes(dst.sizes(), src.sizes())) {
    const Shape shape = broadcast_shapes(dst.sizes(), src.sizes(), op);
    CT_CHECK(same_sizes(shape, dst.sizes()), Shape,
             op << ": output with shape " << list_str(dst.sizes()) << " doesn't match the broadcast shape "
                << list_str(shape));
  }
  CT_CHECK(!torch_internal_overlap(dst), Overlap,
           kInternalOverlapMessage);
  CT_CHECK(!dst.storage()->read_only(), ReadOnly,
           op << ": cannot write into a tensor whose storage is read-only (it wraps memory that was "
                 "shared as read-only)");

  if (dst.numel() > 0) {
    const bool identical = dst.raw_data() == src.raw_data() && dst.dtype() == src.dtype() &&
                           dst.math_bits() == src.math_bits() &&
                           same_sizes(dst.sizes(), src.sizes()) && same_sizes(dst.strides(), src.strides());
    if (!identical && has_internal_overlap(dst)) {
      write_overlapping(dst, src);
    } else if (!identical) {  // copying a tensor onto itself changes nothing (torch skips it too)
      int64_t strides[kMaxDims];
      // When src and dst share bytes, writing dst could change src before it is read:
      // copy src aside first, so the result is that of the un-aliased copy.  (-2, "too
      // hard to decide", counts as overlapping.)
      if (may_overlap(dst, src) && overlaps(dst, src) != 0) {
        const Ref<Tensor> tmp = copy_to_new(src, src.dtype());
        broadcast_strides(*tmp, dst, strides);
        engine(dst, *tmp, strides, false);
      } else {
        broadcast_strides(src, dst, strides);
        engine(dst, src, strides, false);
      }
    }
  }
  dst.bump_version();
}

Ref<Tensor> copy_to_new(const Tensor& t, DType dtype) {
  Ref<Tensor> out = Tensor::empty(t.sizes(), dtype, dtype == t.dtype() ? "clone" : "to");
  if (t.numel() > 0) engine(*out, t, t.strides().data(), true);
  return out;
}

namespace {
void fresh_copy(const Tensor& dst, const Tensor& src, bool normalize_bool) {
  if (dst.numel() == 0) return;
  int64_t strides[kMaxDims];
  broadcast_strides(src, dst, strides);
  engine(dst, src, strides, true, normalize_bool);
}
}  // namespace

void copy_elements(const Tensor& dst, const Tensor& src) { fresh_copy(dst, src, true); }
void move_elements(const Tensor& dst, const Tensor& src) { fresh_copy(dst, src, false); }

// PyTorch's preserve_format: a dense, non-overlapping t keeps its strides (a transpose stays
// transposed); anything else becomes dense in the order of t's strides.
Ref<Tensor> copy_preserving_layout(const Tensor& t, DType dtype, const char* op) {
  const Shape strides = is_non_overlapping_and_dense(t.sizes(), t.strides())
                            ? Shape(t.strides().begin(), t.strides().end())
                            : dense_strides_like(t.sizes(), t.strides());
  Ref<Tensor> out = Tensor::empty_strided(t.sizes(), strides, dtype, op);
  if (t.numel() > 0) engine(*out, t, t.strides().data(), true);
  return out;
}

Ref<Tensor> copied_from(const Tensor& src, Ref<Tensor> out) {
  if (__builtin_expect(src.is_inference(), 0) && out.get() != &src && !out->is_inference()) out->bump_version();
  return out;
}

Ref<Tensor> clone(const Tensor& t) { return copy_preserving_layout(t, t.dtype(), "clone"); }

Ref<Tensor> contiguous(const Tensor& t) {
  if (t.is_contiguous()) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return copy_to_new(t, t.dtype());
}

Ref<Tensor> to_dtype(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return copy_preserving_layout(t, dtype, "to");
}

void set_num_threads(int n) { g_num_threads.store(n > 0 ? n : 0, std::memory_order_relaxed); }

int get_num_threads() {
  const int n = g_num_threads.load(std::memory_order_relaxed);
  return n > 0 ? n : default_num_threads();
}

}  // namespace ct
