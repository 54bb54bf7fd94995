// repeat, tile, flip and roll as single passes of the strided copy engine (copy_kernels.h):
// no per-op loops.  repeat writes the input, broadcast with stride 0, into the output viewed
// as [r0, s0, r1, s1, ...]; flip reads the input through negated strides starting at its
// last element; roll writes two narrowed blocks per rolled dim.
#include "repeat_flip_roll.h"

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#include <xmmintrin.h>
#endif

#include "copy.h"
#include "copy_kernels.h"
#include "error.h"
#include "memory_format.h"
#include "parallel.h"
#include "shape.h"
#include "views.h"

namespace ct {
namespace {

// dst (just created here) = src read at src_data with src_strides over dst's sizes.
void engine_copy(const Tensor& dst, const char* src_data, DType src_dtype, int ndim, const int64_t* sizes,
                 const int64_t* dst_strides, const int64_t* src_strides) {
  kernels::CopyArgs a;
  a.dst = dst.data();
  a.dst_dtype = dst.dtype();
  a.src = src_data;
  a.src_dtype = src_dtype;
  a.ndim = ndim;
  a.sizes = sizes;
  a.dst_strides = dst_strides;
  a.src_strides = src_strides;
  a.dst_is_new = true;
  a.dst_recycled = dst.storage()->recycled();
  kernels::run_copy(a, get_num_threads());
}

// clone()'s layout (PyTorch's preserve_format) for t's sizes.
Ref<Tensor> empty_like_preserve(const Tensor& t, const char* op) {
  const Shape strides = is_non_overlapping_and_dense(t.sizes(), t.strides())
                            ? Shape(t.strides().begin(), t.strides().end())
                            : dense_strides_like(t.sizes(), t.strides());
  return Tensor::empty_strided(t.sizes(), strides, t.dtype(), op);
}

}  // namespace

Ref<Tensor> repeat(const Tensor& t, IntList reps) {
  const int nd = t.ndim();
  CT_CHECK(int64_t(reps.size()) >= nd, Shape,
           "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  CT_CHECK(reps.size() <= size_t(kMaxDims), Shape, "repeat(): at most " << kMaxDims << " dims, got " << reps.size());
  const int n = int(reps.size()), pad = n - nd;
  Shape out_sizes(static_cast<size_t>(n));
  bool overflow = false;
  for (int i = 0; i < n; ++i) {
    const int64_t s = i < pad ? 1 : t.size(i - pad);
    overflow = __builtin_mul_overflow(s, reps[size_t(i)], &out_sizes[size_t(i)]) || overflow;
  }
  CT_CHECK(!overflow, Shape, "Storage size calculation overflowed with sizes=" << list_str(out_sizes));
  // torch's own check (computeStorageNbytes) and message, before the allocation's: the byte
  // count of a non-empty result must fit in int64.  Negative sizes are left to empty().
  bool any_zero_or_negative = false;
  int64_t nbytes = t.itemsize();
  for (int64_t s : out_sizes) {
    any_zero_or_negative = any_zero_or_negative || s <= 0;
    overflow = __builtin_mul_overflow(nbytes, s, &nbytes) || overflow;
  }
  CT_CHECK(any_zero_or_negative || !overflow, Shape,
           "Storage size calculation overflowed with sizes=" << list_str(out_sizes));
  Ref<Tensor> out = Tensor::empty(out_sizes, t.dtype(), "repeat");
  if (out->numel() == 0) return out;
  // Output dim i of stride S splits into (reps[i], s_i) with strides (s_i * S, S) when both
  // exceed 1; the source has stride 0 on the repeat part.
  std::vector<int64_t> sizes, dst_strides, src_strides;
  for (int i = 0; i < n; ++i) {
    const int64_t s = i < pad ? 1 : t.size(i - pad), r = reps[size_t(i)], S = out->stride(i);
    const int64_t st = i < pad || s == 1 ? 0 : t.stride(i - pad);
    if (r != 1 && s != 1) {
      sizes.push_back(r), dst_strides.push_back(s * S), src_strides.push_back(0);
      sizes.push_back(s), dst_strides.push_back(S), src_strides.push_back(st);
    } else {
      sizes.push_back(r * s), dst_strides.push_back(S), src_strides.push_back(r != 1 ? 0 : st);
    }
  }
  // Both factors >= 2 on a split dim, so more than kMaxDims dims means > 2^64 elements,
  // which empty() above could not have allocated.
  CT_CHECK(sizes.size() <= size_t(kMaxDims), OutOfMemory, "repeat(): result too large");
  engine_copy(*out, t.data(), t.dtype(), int(sizes.size()), sizes.data(), dst_strides.data(), src_strides.data());
  return out;
}

Ref<Tensor> tile(const Tensor& t, IntList reps) {
  if (int64_t(reps.size()) >= t.ndim()) return repeat(t, reps);
  Shape padded(size_t(t.ndim()) - reps.size(), 1);
  padded.insert(padded.end(), reps.begin(), reps.end());
  return repeat(t, padded);
}

namespace {
// Row kernels of flip_rows.  With `stream` (the result's buffer was recycled, so its pages are
// mapped: Note in copy_kernels.h, CopyArgs::dst_recycled) 16-byte non-temporal stores skip
// reading the destination lines first, as the copy engine's flat copies do; the rows of a
// 64 MiB flip then run at memcpy's bandwidth instead of 0.6-0.7 of it.
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

#if defined(__SSE2__)
bool have_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

// n bytes (a multiple of 32, d 32-byte aligned) with 32-byte non-temporal stores (AVX2).
__attribute__((target("avx2"))) void stream_copy32_avx2(char* d, const char* s, size_t n) {
  for (size_t i = 0; i < n; i += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i)));
  }
}
#endif

// dst = src for n bytes.
void copy_run(char* __restrict dst, const char* __restrict src, size_t n, bool stream, const char* next) {
#if defined(__SSE2__)
  // The next run's source is prefetched alongside: runs follow each other backwards in memory
  // when an outer dim is flipped, a pattern the hardware prefetcher does not follow (flip(0) of
  // 4096^2 float32 took twice a forward copy's time without this).
  if (next) {
    for (size_t i = 0; i < n; i += 64) _mm_prefetch(next + i, _MM_HINT_T0);
  }
  if (stream) {
    size_t i = 0;
    if (have_avx2()) {
      const size_t head = (32 - (reinterpret_cast<uintptr_t>(dst) & 31)) & 31;
      if (head >= n) return void(std::memcpy(dst, src, n));
      std::memcpy(dst, src, head);
      const size_t body = (n - head) & ~size_t(31);
      stream_copy32_avx2(dst + head, src + head, body);
      i = head + body;
      if (i < n) std::memcpy(dst + i, src + i, n - i);
      return;
    }
    const size_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
    if (head >= n) return void(std::memcpy(dst, src, n));
    std::memcpy(dst, src, head);
    for (i = head; i + 16 <= n; i += 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
    }
    if (i < n) std::memcpy(dst + i, src + i, n - i);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

#if defined(__SSE2__)
// 4-byte elements reversed 8 at a time with 32-byte non-temporal stores (AVX2, chosen at run
// time): half the instructions of the 16-byte loop below per cache line written.  d is
// 32-byte aligned; returns how many elements it wrote.
__attribute__((target("avx2"))) int64_t reverse_run4_avx2(uint32_t* d, const uint32_t* s, int64_t n) {
  const __m256i rev = _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s - i - 7));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), _mm256_permutevar8x32_epi32(v, rev));
  }
  return i;
}
#endif

// dst[i] = src_last[-i] for i in [0, n) elements of T.
template <class T>
void reverse_run(char* dst, const char* src_last, int64_t n, bool stream, const char* next_last) {
#if defined(__SSE2__)
  if (next_last) {
    for (int64_t i = 0; i < n * int64_t(sizeof(T)); i += 64) _mm_prefetch(next_last - i, _MM_HINT_T0);
  }
#endif
  T* d = reinterpret_cast<T*>(dst);
  const T* s = reinterpret_cast<const T*>(src_last);
  int64_t i = 0;
#if defined(__SSE2__)
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if (stream && (reinterpret_cast<uintptr_t>(dst) % sizeof(T)) == 0) {
      if constexpr (sizeof(T) == 4) {
        if (have_avx2()) {
          for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 31) != 0; ++i) d[i] = s[-i];
          i += reverse_run4_avx2(reinterpret_cast<uint32_t*>(d + i), reinterpret_cast<const uint32_t*>(s - i), n - i);
        }
      }
      for (; i < n && (reinterpret_cast<uintptr_t>(d + i) & 15) != 0; ++i) d[i] = s[-i];
      constexpr int64_t k = 16 / int64_t(sizeof(T));
      for (; i + k <= n; i += k) {
        // the k elements s[-i-k+1 .. -i], reversed
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s - i - (k - 1)));
        v = sizeof(T) == 4 ? _mm_shuffle_epi32(v, 0x1B) : _mm_shuffle_epi32(v, 0x4E);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), v);
      }
    }
  }
#endif
  for (; i < n; ++i) d[i] = s[-i];
}

// flip of a C-contiguous t into a C-contiguous out (the common case, issue 20's benchmark), as
// row copies: the trailing dims that are not flipped form one contiguous run per row, copied
// with memcpy; when the last dim is flipped each row is one reversed run.  Rows are split
// across threads.  The generic engine walks such a flip element by element with a negative
// stride, at a quarter of memcpy's bandwidth.
void flip_rows(const Tensor& out, const Tensor& t, const std::vector<bool>& flipped) {
  const int nd = t.ndim();
  const int64_t item = t.itemsize();
  const bool reverse = flipped[size_t(nd - 1)];
  int first_run_dim = nd - 1;  // the run: dims [first_run_dim, nd)
  if (!reverse) {
    while (first_run_dim > 0 && !flipped[size_t(first_run_dim - 1)]) --first_run_dim;
  }
  int64_t run = 1;
  for (int i = first_run_dim; i < nd; ++i) run *= t.size(i);
  const int64_t rows = t.numel() / run;
  const char* src = t.data();
  char* dst = out.data();
  const bool stream = out.storage()->recycled() && t.numel() * item >= kernels::streaming_bytes();
  parallel_for(rows, std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(run, 1)), [&](int64_t r0, int64_t r1) {
    int64_t idx[kMaxDims + 1] = {};
    int64_t rem = r0;
    for (int i = first_run_dim - 1; i >= 0; --i) idx[i] = rem % t.size(i), rem /= t.size(i);
    // source element offset of the run of row idx[] (outer dims flipped as asked)
    auto offset_of = [&](const int64_t* at) {
      int64_t off = 0;
      for (int i = 0; i < first_run_dim; ++i) off += (flipped[size_t(i)] ? t.size(i) - 1 - at[i] : at[i]) * t.stride(i);
      return off;
    };
    int64_t off = offset_of(idx);
    for (int64_t r = r0; r < r1; ++r) {
      for (int i = first_run_dim - 1; i >= 0; --i) {  // idx: the next row
        if (++idx[i] < t.size(i)) break;
        idx[i] = 0;
      }
      const int64_t next = r + 1 < r1 ? offset_of(idx) : -1;
      char* d = dst + r * run * item;
      if (!reverse) {
        copy_run(d, src + off * item, size_t(run * item), stream, next >= 0 ? src + next * item : nullptr);
      } else {
        const char* last = src + (off + run - 1) * item;
        const char* next_last = next >= 0 ? src + (next + run - 1) * item : nullptr;
        switch (item) {
          case 1: reverse_run<uint8_t>(d, last, run, stream, next_last); break;
          case 2: reverse_run<uint16_t>(d, last, run, stream, next_last); break;
          case 4: reverse_run<uint32_t>(d, last, run, stream, next_last); break;
          case 8: reverse_run<uint64_t>(d, last, run, stream, next_last); break;
          default: reverse_run<Bytes16>(d, last, run, stream, next_last); break;  // complex128
        }
      }
      off = next;
    }
    if (stream) stream_fence();
  });
}
}  // namespace

Ref<Tensor> flip(const Tensor& t, IntList dims) {
  const int nd = t.ndim();
  std::vector<bool> flipped(size_t(std::max(nd, 1)), false);
  for (int64_t d : dims) {
    const int w = wrap_dim(d, nd);
    CT_CHECK(!flipped[size_t(w)], Shape, "dim " << w << " appears multiple times in the list of dims");
    flipped[size_t(w)] = true;
  }
  Ref<Tensor> out = empty_like_preserve(t, "flip");
  if (out->numel() == 0) return out;
  // flip_rows moves bytes; bool bytes go through the copy engine, which writes them 0/1 (torch).
  if (t.ndim() > 0 && t.is_contiguous() && out->is_contiguous() && t.dtype() != DType::Bool) {
    flip_rows(*out, t, flipped);
    return out;
  }
  Shape src_strides(t.strides().begin(), t.strides().end());
  int64_t start = 0;  // element offset of the source's last element along flipped dims
  for (int i = 0; i < nd; ++i) {
    if (!flipped[size_t(i)]) continue;
    start += (t.size(i) - 1) * t.stride(i);
    src_strides[size_t(i)] = -t.stride(i);
  }
  engine_copy(*out, t.data() + start * t.itemsize(), t.dtype(), nd, t.sizes().data(), out->strides().data(),
              src_strides.data());
  return out;
}

namespace {
// The layout of torch 2.13's roll of t along one dim of size n (n > 0) by shift: a shift
// that is a multiple of n gives a C-order clone; otherwise an empty tensor in t's suggested
// memory format (torch's suggest_memory_format: channels_last when t's strides are ordered like
// channels_last, e.g. a 4-D channels_last t or a slice of one, else C order; size-1 dims take
// the format's strides, whatever t's are).  Several dims are rolled one after the other, each
// pass by this rule on the previous result.
Ref<Tensor> empty_for_roll(const Tensor& t, int64_t shift, int64_t n) {
  if (shift % n == 0) return Tensor::empty(t.sizes(), t.dtype(), "roll");
  return empty_format(t.sizes(), t.dtype(), suggest_memory_format(t), "roll");
}

// out = t rolled by shift along d: out[(i + shift) mod n] = t[i], as two block copies.
void roll_into(const Tensor& out, const Tensor& t, int64_t shift, int d) {
  const int64_t n = t.size(d);
  const int64_t s = ((shift % n) + n) % n;
  if (s == 0) {
    move_elements(out, t);
    return;
  }
  move_elements(*narrow(out, d, s, n - s), *narrow(t, d, 0, n - s));
  move_elements(*narrow(out, d, 0, s), *narrow(t, d, n - s, s));
}
}  // namespace

Ref<Tensor> roll(const Tensor& t, IntList shifts, IntList dims) {
  CT_CHECK(!shifts.empty(), Shape, "`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    // torch rolls t.flatten() and views the result back: always C order.
    Ref<Tensor> out = Tensor::empty(t.sizes(), t.dtype(), "roll");
    if (t.numel() == 0) return out;
    // The flattened roll: C-order element k goes to (k + shift) mod numel.
    const Ref<Tensor> flat_in = contiguous(t);
    const Ref<Tensor>& flat_out = out;
    const int64_t numel = t.numel();
    const int64_t size[1] = {numel}, unit[1] = {1};
    roll_into(*Tensor::make(flat_out->storage(), t.dtype(), IntList(size, 1), IntList(unit, 1), 0, nullptr),
              *Tensor::make(flat_in->storage(), t.dtype(), IntList(size, 1), IntList(unit, 1), flat_in->offset(),
                            nullptr),
              shifts[0], 0);
    return out;
  }
  CT_CHECK(shifts.size() == dims.size(), Shape,
           "shifts and dimensions must align. shifts: " << shifts.size() << ", dims:" << dims.size());
  std::vector<int> wrapped;
  for (int64_t d : dims) {
    CT_CHECK(t.ndim() > 0, Index, "Dimension specified as " << d << " but tensor has no dimensions");
    wrapped.push_back(wrap_dim(d, t.ndim()));
  }
  if (t.numel() == 0) return empty_like_preserve(t, "roll");  // torch: a clone of t
  Ref<Tensor> cur = Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  for (size_t k = 0; k < wrapped.size(); ++k) {
    Ref<Tensor> next = empty_for_roll(*cur, shifts[k], cur->size(wrapped[k]));
    roll_into(*next, *cur, shifts[k], wrapped[k]);
    cur = next;
  }
  return cur;
}

}  // namespace ct
