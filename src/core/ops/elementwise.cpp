#include "core/ops/elementwise.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <type_traits>

#include "core/copy.h"
#include "core/copy_kernels.h"
#include "core/default_dtype.h"
#include "core/iter.h"
#include "core/ops/complex_math.h"
#include "core/memory_format.h"
#include "core/ops/promote.h"
#include "core/overlap.h"
#include "core/shape.h"
#include "core/views.h"
#include "core/wrapping.h"

namespace ct {
namespace {

template <class T>
struct TypeTag {
  using type = T;
};
// Runs f(TypeTag<T>{}) with T the C++ type of dtype d, complex included.  f is a generic lambda,
// so its body is a template and `if constexpr` discards the branches T cannot compile (in the
// plain lambdas of CT_DISPATCH_* both branches must compile for every type).
template <class F>
decltype(auto) dispatch_tagged(DType d, F&& f) {
  return CT_DISPATCH_WITH_COMPLEX(d, [&] { return f(TypeTag<scalar_t>{}); });
}

// ---- arithmetic in the "accumulate" type acc_t<T> (dtype.h): float for float16/bfloat16 ------

template <class T>
inline acc_t<T> to_acc(T v) { return static_cast<acc_t<T>>(v); }
template <class T>
inline T from_acc(acc_t<T> v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) return T(v);
  else return static_cast<T>(v);
}

// ---- the loops -----------------------------------------------------------------------------

// Writes o[i] = gen(i) for i in [0, n) with non-temporal (streaming) stores: values are made
// a block at a time in a small aligned buffer (the computing loop vectorises as usual) and
// streamed out, so the destination lines are never read first and do not evict the inputs.
// For fresh outputs too large to stay in cache (the copy engine's rule, streaming_bytes()).
template <class O, class G>
inline void stream_row(O* o, int64_t n, G gen) {
#if defined(__SSE2__)
  constexpr int64_t kBlock = 1024 / int64_t(sizeof(O));  // 1 KiB: L1-resident
  int64_t i = 0;
  for (; i < n && (reinterpret_cast<uintptr_t>(o + i) & 15) != 0; ++i) o[i] = gen(i);
  alignas(64) O buf[kBlock];
  for (; i + kBlock <= n; i += kBlock) {
    for (int64_t j = 0; j < kBlock; ++j) buf[j] = gen(i + j);
    char* d = reinterpret_cast<char*>(o + i);
    const char* b = reinterpret_cast<const char*>(buf);
    for (int64_t k = 0; k < kBlock * int64_t(sizeof(O)); k += 64) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + k), _mm_load_si128(reinterpret_cast<const __m128i*>(b + k)));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + k + 16),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(b + k + 16)));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + k + 32),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(b + k + 32)));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + k + 48),
                       _mm_load_si128(reinterpret_cast<const __m128i*>(b + k + 48)));
    }
  }
  for (; i < n; ++i) o[i] = gen(i);
  _mm_sfence();
#else
  for (int64_t i = 0; i < n; ++i) o[i] = gen(i);
#endif
}

// A contiguous output row: plain stores, or streaming ones.
template <class O, class G>
inline void write_row(O* o, int64_t n, bool stream, G gen) {
  if (stream && n >= 256) {
    stream_row(o, n, gen);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = gen(i);
  }
}

// out[i] = f(a[i], b[i]) with O the output's and T the inputs' storage type; f works on
// acc_t<T> values and returns the output's acc value (or bool).  stream: the output is a
// fresh tensor of at least streaming_bytes() (see stream_row).
// fs: the function for rows whose operands are strided (neither unit nor zero stride), where
// torch runs its scalar loop instead of its vectorised one (complex mul rounds differently
// there); f everywhere else.
template <class O, class T, class F, class Fs>
void run_binary_split(const ElementwiseIter& it, F f, Fs fs, bool stream = false) {
  it.for_each([&](char** p, const int64_t* s, int64_t n) {
    O* o = reinterpret_cast<O*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    auto store = [](acc_t<O> v) { return from_acc<O>(v); };
    if constexpr (std::is_same_v<O, T>) {
      // In place (self op= other): output and first input are the same row.  Separate loops
      // leave the compiler one aliasing question instead of two.
      if (p[0] == p[1] && s[0] == sizeof(T) && s[1] == sizeof(T)) {
        if (s[2] == sizeof(T)) {
          for (int64_t i = 0; i < n; ++i) o[i] = store(f(to_acc(load<T>(o + i)), to_acc(load<T>(b + i))));
          return;
        }
        if (s[2] == 0) {
          const acc_t<T> bv = to_acc(load<T>(b));
          for (int64_t i = 0; i < n; ++i) o[i] = store(f(to_acc(load<T>(o + i)), bv));
          return;
        }
      }
    }
    if (s[0] == sizeof(O) && s[1] == sizeof(T) && s[2] == sizeof(T)) {
      write_row(o, n, stream, [&](int64_t i) { return store(f(to_acc(load<T>(a + i)), to_acc(load<T>(b + i)))); });
    } else if (s[0] == sizeof(O) && s[1] == sizeof(T) && s[2] == 0) {
      const acc_t<T> bv = to_acc(load<T>(b));
      write_row(o, n, stream, [&](int64_t i) { return store(f(to_acc(load<T>(a + i)), bv)); });
    } else if (s[0] == sizeof(O) && s[1] == 0 && s[2] == sizeof(T)) {
      const acc_t<T> av = to_acc(load<T>(a));
      write_row(o, n, stream, [&](int64_t i) { return store(f(av, to_acc(load<T>(b + i)))); });
    } else {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<O*>(p[0] + i * s[0]) =
            store(fs(to_acc(load<T>(p[1] + i * s[1])),
                    to_acc(load<T>(p[2] + i * s[2]))));
      }
    }
  });
}

template <class O, class T, class F>
void run_binary(const ElementwiseIter& it, F f, bool stream = false) {
  run_binary_split<O, T>(it, f, f, stream);
}

template <class T, class F>
void run_unary(const ElementwiseIter& it, F f, bool stream = false) {
  it.for_each([&](char** p, const int64_t* s, int64_t n) {
    T* o = reinterpret_cast<T*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    if (s[0] == sizeof(T) && s[1] == sizeof(T) && p[0] != p[1]) {
      write_row(o, n, stream, [&](int64_t i) { return from_acc<T>(f(to_acc(load<T>(a + i)))); });
    } else if (s[0] == sizeof(T) && s[1] == sizeof(T)) {  // in place
      for (int64_t i = 0; i < n; ++i) o[i] = from_acc<T>(f(to_acc(load<T>(o + i))));
    } else {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<T*>(p[0] + i * s[0]) = from_acc<T>(f(to_acc(load<T>(p[1] + i * s[1]))));
      }
    }
  });
}

// A fresh output this large is written with streaming stores (the copy engine's threshold).
bool should_stream(const Tensor& fresh_out) {
  return fresh_out.numel() * fresh_out.itemsize() >= kernels::streaming_bytes();
}

// ---- operands, promotion, outputs -----------------------------------------------------------

OperandType type_of(Operand x) {
  if (!x.tensor) {
    return x.is_complex ? OperandType{DType::Complex128, OperandKind::PythonComplex}
                        : OperandType{DType::Float64, OperandKind::PythonFloat};
  }
  return {x.tensor->dtype(), x.tensor->ndim() == 0 ? OperandKind::ZeroDim : OperandKind::Dimensioned};
}

// The operand as a tensor of dtype d: a scalar becomes a 0-dim tensor (torch's wrapped
// number, converted to d as torch converts it), a tensor of another dtype a converted copy
// that keeps its layout (to_dtype is torch's .to() with preserve_format: the layout matters,
// TensorIterator lays the result out like the converted operands), a tensor of dtype d itself,
// borrowed.
MaybeOwned<Tensor> as_dtype(Operand x, DType d) {
  if (!x.tensor) {
    Ref<Tensor> t = Tensor::empty(Shape{}, d, "scalar");
    const std::complex<double> z(x.scalar, x.imag);
    CT_DISPATCH_WITH_COMPLEX(d, [&] {
      *reinterpret_cast<scalar_t*>(t->data()) = x.is_complex ? convert<scalar_t>(z) : convert<scalar_t>(x.scalar);
    });
    return MaybeOwned<Tensor>::owned(std::move(t));
  }
  return to_dtype_borrowed(*x.tensor, d);
}

IntList shape_of(Operand x) { return x.tensor ? x.tensor->sizes() : IntList(); }

// A plain loop: std::equal on int64 becomes a memcmp call, dearer than the few dims compared.
bool same_sizes(IntList a, IntList b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// Strides of a new output of `sizes` whose inputs are `inputs` (already converted to the
// compute dtype, as torch converts them before laying out the output), by the rules of
// PyTorch's TensorIterator:
//  - fast setup: when every input has exactly the output's shape, and all are contiguous
//    (-> contiguous), or all channels-last (-> channels-last), or all non-overlapping and
//    dense with one common stride vector (-> those strides, verbatim);
//  - otherwise reorder_dimensions: dims sorted by the inputs' strides (stride 0 on broadcast
//    dims is ambiguous; a size-1 dim of the output keeps the input's stride), then the
//    output is dense in that order (contiguous when the order is C order).  x.t() + 1 is
//    laid out like x.t(); zeros(4, 3) + x.t() like zeros(4, 3).
//
// Returns false for contiguous strides, leaving `out` alone (most outputs: the caller makes
// them with Tensor::empty, which has less to check), else true with the strides in `out`.
bool output_strides(IntList sizes, std::span<const Tensor* const> inputs, DimBuf& out) {
  const size_t n = sizes.size();
  bool same_shape = !inputs.empty();
  for (const Tensor* t : inputs) same_shape = same_shape && same_sizes(t->sizes(), sizes);
  if (same_shape) {
    bool contiguous = true;
    for (const Tensor* t : inputs) contiguous = contiguous && t->is_contiguous();
    if (contiguous) return false;  // before the other layouts' tests, which cost more
    bool channels_last = true, dense = true;
    for (const Tensor* t : inputs) {
      channels_last = channels_last && is_contiguous_as(t->sizes(), t->strides(), MemoryFormat::ChannelsLast);
      dense = dense && is_non_overlapping_and_dense(t->sizes(), t->strides());
    }
    if (channels_last) {
      out = DimBuf(format_strides(sizes, MemoryFormat::ChannelsLast));
      return true;
    }
    if (dense) {
      const Tensor* last = inputs.back();
      bool same_strides = true;
      for (const Tensor* t : inputs) same_strides = same_strides && same_sizes(t->strides(), last->strides());
      if (same_strides) {
        out = DimBuf(last->strides());
        return true;
      }
    }
  }
  // Contiguous inputs broadcast only by missing leading dims (a bias added to a batch), none
  // of size 1: each one's strides fall strictly from dim to dim, so no comparison of
  // reorder_dimensions below ever swaps two dims, and the layout is C order.
  bool suffixes = true;
  for (const Tensor* t : inputs) {
    const size_t lead = n - size_t(t->ndim());
    suffixes = suffixes && t->is_contiguous() && size_t(t->ndim()) <= n;
    for (int d = 0; suffixes && d < t->ndim(); ++d) suffixes = t->size(d) >= 2 && t->size(d) == sizes[lead + size_t(d)];
  }
  if (suffixes) return false;
  // The inputs' strides over the output's dims, on the stack for the usual few inputs
  // (this runs for every op with a broadcast input: no allocation there).
  constexpr size_t kOnStack = 4;
  std::array<DimBuf, kOnStack> local;
  std::vector<DimBuf> heap(inputs.size() > kOnStack ? inputs.size() : 0);
  DimBuf* strides = inputs.size() > kOnStack ? heap.data() : local.data();
  std::array<IntList, kOnStack> local_views;
  std::vector<IntList> heap_views(heap.size());
  IntList* views = inputs.size() > kOnStack ? heap_views.data() : local_views.data();
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor* t = inputs[k];
    DimBuf& s = strides[k];
    s.resize(n);
    const size_t lead = n - size_t(t->ndim());
    for (size_t d = 0; d < lead; ++d) s[d] = 0;
    for (int d = 0; d < t->ndim(); ++d) {
      const bool broadcast = t->size(d) == 1 && sizes[lead + size_t(d)] != 1;
      s[lead + size_t(d)] = broadcast ? 0 : t->stride(d);
    }
    views[k] = s;
  }
  std::array<int, kMaxDims> perm;
  layout_permutation_into(sizes, std::span<const IntList>(views, inputs.size()), perm.data());
  bool c_order = true;
  for (size_t j = 0; j < n; ++j) c_order = c_order && perm[j] == int(n - 1 - j);
  if (c_order) return false;
  out.resize(n);
  int64_t stride = 1;
  for (size_t j = 0; j < n; ++j) {  // TensorIterator's compatible_stride: sizes 0 and 1 multiply too
    const int d = perm[j];
    out[size_t(d)] = stride;
    // Saturating, as contiguous_strides: an empty output's other sizes may overflow.
    if (__builtin_mul_overflow(stride, sizes[size_t(d)], &stride)) stride = INT64_MAX;
  }
  return true;
}

Ref<Tensor> new_output(IntList sizes, std::span<const Tensor* const> inputs, DType dtype, const char* op) {
  checked_numel(sizes, op);  // before the strides, which assume a valid shape
  DimBuf strides;
  if (!output_strides(sizes, inputs, strides)) return Tensor::empty(sizes, dtype, op);
  return Tensor::empty_strided(sizes, strides, dtype, op);
}

const char* binary_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
  }
  return "?";
}

void check_bool_sub(BinaryOp op, DType a, DType b) {
  if (op != BinaryOp::Sub) return;
  CT_CHECK(!(a == DType::Bool && b == DType::Bool), DType,
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
           "operator instead.");
  CT_CHECK(a != DType::Bool && b != DType::Bool, DType,
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.");
}

// Runs the binary kernel of op in dtype `compute` into out (same dtype), inputs already in it.
// stream: out is fresh (see should_stream).
void binary_kernel(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, bool stream = false) {
  const Tensor* ops[3] = {&out, &a, &b};
  ElementwiseIter it(ops);
  dispatch_tagged(out.dtype(), [&](auto tag) {
    using scalar_t = typename decltype(tag)::type;
    using T = scalar_t;
    using A = acc_t<T>;
    if constexpr (is_complex_v<T>) {  // complex_math.h: rounded as torch's kernels
      switch (op) {
        case BinaryOp::Add: run_binary<T, T>(it, [](A x, A y) { return x + y; }, stream); break;
        case BinaryOp::Sub: run_binary<T, T>(it, [](A x, A y) { return x - y; }, stream); break;
        case BinaryOp::Mul:
          run_binary_split<T, T>(it, [](A x, A y) { return cmul(x, y); }, [](A x, A y) { return cmul_fused(x, y); },
                                 stream);
          break;
        case BinaryOp::Div: run_binary<T, T>(it, [](A x, A y) { return cdiv(x, y); }, stream); break;
      }
      return;
    } else
    switch (op) {
      case BinaryOp::Add:
        if constexpr (std::is_same_v<T, bool>) run_binary<T, T>(it, [](A x, A y) { return bool(x || y); }, stream);
        else run_binary<T, T>(it, [](A x, A y) { return wrap_add<A>(x, y); }, stream);
        break;
      case BinaryOp::Sub:
        if constexpr (std::is_same_v<T, bool>) run_binary<T, T>(it, [](A x, A y) { return bool(x != y); }, stream);
        else run_binary<T, T>(it, [](A x, A y) { return wrap_sub<A>(x, y); }, stream);
        break;
      case BinaryOp::Mul:
        if constexpr (std::is_same_v<T, bool>) run_binary<T, T>(it, [](A x, A y) { return bool(x && y); }, stream);
        else run_binary<T, T>(it, [](A x, A y) { return wrap_mul<A>(x, y); }, stream);
        break;
      case BinaryOp::Div:
        if constexpr (std::is_floating_point_v<A>) run_binary<T, T>(it, [](A x, A y) { return x / y; }, stream);
        else CT_FAIL(Internal, "div: integer compute dtype");
        break;
    }
  });
}

// torch 2.x's mul and true-division kernels (BinaryOpsKernel.cpp: mul_kernel, div_true_kernel)
// for a float16/bfloat16 result whose second operand is one broadcast value (a Python scalar, a
// 0-dim or one-element tensor): the value is read from the operand as it was before conversion
// (original_scalar_value), in float, and never rounded to the reduced dtype first.  So
// float16 * 0.1 multiplies by 0.1f, not by 0.0999755859375, and 0 * 2**40 is 0, not nan.
// add and sub round the scalar to the reduced dtype (their kernels have no such path).
bool reduced_scalar_operand(BinaryOp op, DType compute, Operand b, float* value) {
  if ((op != BinaryOp::Mul && op != BinaryOp::Div) || (compute != DType::Float16 && compute != DType::BFloat16)) {
    return false;
  }
  if (!b.tensor) {
    *value = static_cast<float>(b.scalar);
    return true;
  }
  if (b.tensor->numel() != 1) return false;
  CT_DISPATCH_ALL(b.tensor->dtype(), [&] {
    *value = static_cast<float>(to_acc(load<scalar_t>(b.tensor->data())));
  });
  return true;
}

// out = a * s or a / s in float, rounded once to out's dtype (float16/bfloat16; a in it).
void reduced_scalar_kernel(BinaryOp op, const Tensor& out, const Tensor& a, float s, bool stream = false) {
  const Tensor* ops[2] = {&out, &a};
  ElementwiseIter it(ops);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    if (op == BinaryOp::Mul) run_unary<T>(it, [s](float x) { return x * s; }, stream);
    else run_unary<T>(it, [s](float x) { return x / s; }, stream);
  };
  if (out.dtype() == DType::Float16) run(Half{});
  else run(BFloat16{});
}

// Clones `input` when it overlaps `out` in any way other than element-for-element identity,
// so writing out never changes an input element before it is read.
// An input sharing memory with an out whose own elements share memory (unfold, as_strided).
void refuse_partial_overlap(const Tensor& out) {
  CT_CHECK(out.is_contiguous() || !has_internal_overlap(out), Overlap,
           kPartialOverlapMessage);
}

MaybeOwned<Tensor> unalias(const Tensor& out, MaybeOwned<Tensor> input) {
  if (input->ndim() != 0 && input->storage() == out.storage() && input->offset() == out.offset() &&
      std::equal(input->sizes().begin(), input->sizes().end(), out.sizes().begin(), out.sizes().end()) &&
      std::equal(input->strides().begin(), input->strides().end(), out.strides().begin(), out.strides().end())) {
    // x.add_(x): each element reads itself before it is written, unless x's elements share
    // memory: then some read what others wrote (x.fmod_(x) on an unfold would meet a divisor
    // turned 0 mid-way), so that is refused as below
    refuse_partial_overlap(out);
    return input;
  }
  if (input->numel() == 0 || out.numel() == 0) return input;
  // Two storages that own their bytes are distinct allocations: no overlap to look for.
  // (Foreign storages may wrap the same memory: those are compared by address.)
  if (input->storage() != out.storage() && input->storage()->owns_memory() && out.storage()->owns_memory()) {
    return input;
  }
  if (!may_overlap(out, *input)) return input;
  if (overlaps(out, *input) == 0) return input;
  // torch reads such an input live while writing an out whose elements share memory (both
  // TooHard to its checks), values a copy made aside would not reproduce: refused instead
  refuse_partial_overlap(out);
  return MaybeOwned<Tensor>::owned(clone(*input));
}

// The dtype an op computes in, given the promoted dtype of its operands.
DType binary_compute_dtype(BinaryOp op, DType common) {
  if (op == BinaryOp::Div && !is_floating(common) && !is_complex(common)) return default_float_dtype();  // true division
  return common;
}

}  // namespace

OperandType operand_type(Operand x) { return type_of(x); }
MaybeOwned<Tensor> operand_as(Operand x, DType d) { return as_dtype(x, d); }
Ref<Tensor> elementwise_output(IntList sizes, std::span<const Tensor* const> inputs, DType d, const char* op) {
  return new_output(sizes, inputs, d, op);
}
MaybeOwned<Tensor> unaliased(const Tensor& out, MaybeOwned<Tensor> input) { return unalias(out, std::move(input)); }

namespace {
void refuse_overlap(bool overlaps) {
  CT_CHECK(!overlaps, Overlap,
           kInternalOverlapMessage);
}
}  // namespace

void check_writable(const Tensor& self, const char* op) {
  CT_CHECK(!self.storage()->read_only(), ReadOnly,
           op << ": the tensor's storage is read-only (it was imported as a read-only DLPack tensor)");
  refuse_overlap(!self.is_contiguous() && torch_internal_overlap(self));  // contiguous: never overlaps
}

void check_writable_no_overlap(const Tensor& self, const char* op) {
  check_writable(self, op);
  refuse_overlap(!self.is_contiguous() && has_internal_overlap(self));
}

Ref<Tensor> binary(BinaryOp op, Operand a, Operand b) {
  if (op == BinaryOp::Div && !a.tensor && b.tensor) {
    // s / t: torch's Tensor.__rtruediv__ is `t.reciprocal() * s`, two roundings (so
    // 3.0 / tensor([7.]) is 0.42857146, where the true quotient rounds to 0.42857143).
    // The dtypes are those of a true division.
    const Ref<Tensor> r = unary(UnaryOp::Reciprocal, *b.tensor);
    return binary(BinaryOp::Mul, Operand::of(*r), a);
  }
  const OperandType types[2] = {type_of(a), type_of(b)};
  check_bool_sub(op, types[0].dtype, types[1].dtype);
  const DType compute = binary_compute_dtype(op, result_type(types));
  DimBuf shape;
  broadcast_shapes_into(shape_of(a), shape_of(b), binary_name(op), shape);
  const MaybeOwned<Tensor> ta = as_dtype(a, compute), tb = as_dtype(b, compute);
  const Tensor* layout[2] = {ta.get(), tb.get()};
  Ref<Tensor> out = new_output(shape, std::span<const Tensor* const>(layout, 2), compute, binary_name(op));
  float s = 0;
  if (reduced_scalar_operand(op, compute, b, &s)) reduced_scalar_kernel(op, *out, *ta, s, should_stream(*out));
  else binary_kernel(op, *out, *ta, *tb, should_stream(*out));
  return out;
}

namespace {

// The checks of self op= other in torch's order: sub()'s bool check, then TensorIterator's
// memory overlap, shape, and finally the cast of the result into self.  Gives the dtype the
// op computes in.
DType check_inplace_binary(BinaryOp op, const Tensor& self, Operand other) {
  const char* name = binary_name(op);
  const OperandType types[2] = {{self.dtype(), self.ndim() == 0 ? OperandKind::ZeroDim : OperandKind::Dimensioned},
                                type_of(other)};
  check_bool_sub(op, types[0].dtype, types[1].dtype);
  check_writable(self, name);
  DimBuf shape;
  broadcast_shapes_into(self.sizes(), shape_of(other), name, shape);
  CT_CHECK(same_sizes(shape, self.sizes()), Shape,
           "output with shape " << list_str(self.sizes()) << " doesn't match the broadcast shape " << list_str(IntList(shape)));
  // self is an input like any other (a 0-dim self counts as 0-dim: a 0-dim float16 self with
  // a 0-dim float32 other computes in float32, as torch).
  const DType compute = binary_compute_dtype(op, result_type(types));
  CT_CHECK(can_cast(compute, self.dtype()), DType,
           "result type " << torch_scalar_type_name(compute) << " can't be cast to the desired output type "
                          << torch_scalar_type_name(self.dtype()));
  return compute;
}

// Runs kernel(out, other) for self op= other computing in `compute`: on self itself, or on a
// copy in `compute` written back converted (int32 += int64: one version bump either way).
template <class Kernel>
void write_inplace(BinaryOp op, const Tensor& self, Operand other, DType compute, Kernel kernel) {
  const MaybeOwned<Tensor> tother = unalias(self, as_dtype(other, compute));
  if (compute == self.dtype()) {
    kernel(self, *tother);
    self.bump_version();
  } else {
    Ref<Tensor> tself = to_dtype(self, compute);
    kernel(*tself, *tother);
    copy_into(self, *tself, binary_name(op));
  }
}

}  // namespace

void binary_(BinaryOp op, const Tensor& self, Operand other) {
  const DType compute = check_inplace_binary(op, self, other);
  float s = 0;
  if (compute == self.dtype() && reduced_scalar_operand(op, compute, other, &s)) {
    reduced_scalar_kernel(op, self, self, s);
    self.bump_version();
    return;
  }
  write_inplace(op, self, other, compute,
                [op](const Tensor& out, const Tensor& b) { binary_kernel(op, out, out, b); });
}

namespace {

// torch's alpha_check (an integer or bool result takes an integral alpha), then alpha's
// conversion to the compute dtype (Scalar::to, which refuses an overflow).
void check_alpha(DType compute, double alpha) {
  CT_CHECK(is_floating(compute) || is_complex(compute) || std::nearbyint(alpha) == alpha, InvalidArgument,
           "For integral input tensors, argument alpha must not be a floating point number.");
  // c10's overflow check lets a negative integer wrap into an unsigned type: uint8 takes -255
  check_scalar_fits(compute == DType::UInt8 && alpha < 0 ? -alpha : alpha, compute);
}

// One row of o = x + a * y with one rounding, for float and double (strides in bytes: o, x,
// y).  The library is built for baseline x86-64, where std::fma is a libm call per element;
// the same loop compiled for FMA hardware is vectorized to vfmadd (a CPU without it, before
// 2013, takes the plain one: the same values, slower).
#define CT_SCALED_ADD_ROW(NAME, ATTR)                                                              \
  template <class A>                                                                               \
  ATTR void NAME(char* o, const char* x, const char* y, const int64_t* s, int64_t n, A a) {        \
    if (s[0] == sizeof(A) && s[1] == sizeof(A) && s[2] == sizeof(A)) {                             \
      A* out = reinterpret_cast<A*>(o);                                                            \
      const A* xs = reinterpret_cast<const A*>(x);                                                 \
      const A* ys = reinterpret_cast<const A*>(y);                                                 \
      for (int64_t i = 0; i < n; ++i) out[i] = std::fma(a, ys[i], xs[i]);                          \
      return;                                                                                      \
    }                                                                                              \
    for (int64_t i = 0; i < n; ++i)                                                                \
      *reinterpret_cast<A*>(o + i * s[0]) =                                                        \
          std::fma(a, *reinterpret_cast<const A*>(y + i * s[2]), *reinterpret_cast<const A*>(x + i * s[1])); \
  }
CT_SCALED_ADD_ROW(scaled_add_row_fma, __attribute__((target("avx2,fma"))))
CT_SCALED_ADD_ROW(scaled_add_row_plain, )
#undef CT_SCALED_ADD_ROW

// out = a + alpha * b in out's dtype (a real one; inputs already in it).
void add_scaled_kernel(const Tensor& out, const Tensor& a, const Tensor& b, double alpha, bool stream = false) {
  const Tensor* ops[3] = {&out, &a, &b};
  ElementwiseIter it(ops);
  dispatch_tagged(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = acc_t<T>;
    if constexpr (is_complex_v<T>) {
      CT_FAIL(Internal, "add_scaled_kernel: complex dtype");
    } else if constexpr (std::is_same_v<T, bool>) {
      const bool s = alpha != 0;
      run_binary<T, T>(it, [s](A x, A y) { return bool(x || (s && y)); }, stream);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      static const bool has_fma = __builtin_cpu_supports("fma");
      const T s = T(alpha);
      it.for_each([&](char** p, const int64_t* st, int64_t n) {
        if (has_fma) scaled_add_row_fma<T>(p[0], p[1], p[2], st, n, s);
        else scaled_add_row_plain<T>(p[0], p[1], p[2], st, n, s);
      });
    } else if constexpr (std::is_floating_point_v<A>) {
      // float16, bfloat16: torch's vectorised loop converts to float and fuses (rounded once);
      // its scalar loop, which strided rows take, computes in the reduced type: the product
      // rounded to it, then the sum
      const T st = from_acc<T>(A(alpha));  // alpha in T first: float16(0.1) for float16
      const A s = to_acc(st);
      run_binary_split<T, T>(
          it, [s](A x, A y) { return std::fma(s, y, x); },
          [s](A x, A y) { return to_acc(from_acc<T>(s * y)) + x; }, stream);
    } else {
      const A s = A(int64_t(alpha));
      run_binary<T, T>(it, [s](A x, A y) { return wrap_add<A>(x, wrap_mul<A>(s, y)); }, stream);
    }
  });
}

// torch's complex fmadd is a * b + c: b * alpha rounded as ct_mul does, then the sum.
Ref<Tensor> complex_scaled(const Tensor& b, DType compute, double alpha) {
  return binary(BinaryOp::Mul, Operand::of(*to_dtype(b, compute)), Operand::of(std::complex<double>(alpha, 0)));
}

}  // namespace

// Checks in torch's order (add.out's meta): sub's bool check, TensorIterator's, then alpha_check.
Ref<Tensor> add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha) {
  CT_CHECK(op == BinaryOp::Add || op == BinaryOp::Sub, Internal, "add_scaled: op is not add or sub");
  if (alpha == 1) return binary(op, Operand::of(a), Operand::of(b));
  const OperandType types[2] = {type_of(Operand::of(a)), type_of(Operand::of(b))};
  check_bool_sub(op, types[0].dtype, types[1].dtype);
  DimBuf shape;
  broadcast_shapes_into(a.sizes(), b.sizes(), binary_name(op), shape);
  const DType compute = result_type(types);
  check_alpha(compute, alpha);
  if (is_complex(compute)) return binary(op, Operand::of(a), Operand::of(*complex_scaled(b, compute, alpha)));
  const MaybeOwned<Tensor> ta = as_dtype(Operand::of(a), compute), tb = as_dtype(Operand::of(b), compute);
  const Tensor* layout[2] = {ta.get(), tb.get()};
  Ref<Tensor> out = new_output(shape, std::span<const Tensor* const>(layout, 2), compute, binary_name(op));
  add_scaled_kernel(*out, *ta, *tb, op == BinaryOp::Sub ? -alpha : alpha, should_stream(*out));
  return out;
}

void add_scaled_(BinaryOp op, const Tensor& self, const Tensor& other, double alpha) {
  CT_CHECK(op == BinaryOp::Add || op == BinaryOp::Sub, Internal, "add_scaled_: op is not add or sub");
  if (alpha == 1) return binary_(op, self, Operand::of(other));
  const DType compute = check_inplace_binary(op, self, Operand::of(other));
  check_alpha(compute, alpha);
  if (is_complex(compute)) return binary_(op, self, Operand::of(*complex_scaled(other, compute, alpha)));
  const double signed_alpha = op == BinaryOp::Sub ? -alpha : alpha;
  write_inplace(op, self, Operand::of(other), compute, [signed_alpha](const Tensor& out, const Tensor& b) {
    add_scaled_kernel(out, out, b, signed_alpha);
  });
}

Ref<Tensor> compare(CompareOp op, Operand a, Operand b) {
  const OperandType types[2] = {type_of(a), type_of(b)};
  const DType compute = result_type(types);
  DimBuf shape;
  broadcast_shapes_into(shape_of(a), shape_of(b), "comparison", shape);
  const MaybeOwned<Tensor> ta = as_dtype(a, compute), tb = as_dtype(b, compute);
  const Tensor* layout[2] = {ta.get(), tb.get()};
  if (is_complex(compute) && op != CompareOp::Eq && op != CompareOp::Ne) {
    static const char* const kernel[] = {"", "", "lt_cpu", "le_cpu", "gt_cpu", "ge_cpu"};
    CT_FAIL(DType, "\"" << kernel[int(op)] << "\" not implemented for '" << torch_scalar_type_name(compute) << "'");
  }
  Ref<Tensor> out = new_output(shape, std::span<const Tensor* const>(layout, 2), DType::Bool, "comparison");
  const Tensor* ops[3] = {out.get(), ta.get(), tb.get()};
  ElementwiseIter it(ops);
  dispatch_tagged(compute, [&](auto tag) {
    using scalar_t = typename decltype(tag)::type;
    using A = acc_t<scalar_t>;
    if constexpr (is_complex_v<A>) {
      if (op == CompareOp::Eq) run_binary<bool, scalar_t>(it, [](A x, A y) { return x == y; });
      else run_binary<bool, scalar_t>(it, [](A x, A y) { return x != y; });
      return;
    } else
    switch (op) {
      case CompareOp::Eq: run_binary<bool, scalar_t>(it, [](A x, A y) { return x == y; }); break;
      case CompareOp::Ne: run_binary<bool, scalar_t>(it, [](A x, A y) { return x != y; }); break;
      case CompareOp::Lt: run_binary<bool, scalar_t>(it, [](A x, A y) { return x < y; }); break;
      case CompareOp::Le: run_binary<bool, scalar_t>(it, [](A x, A y) { return x <= y; }); break;
      case CompareOp::Gt: run_binary<bool, scalar_t>(it, [](A x, A y) { return x > y; }); break;
      case CompareOp::Ge: run_binary<bool, scalar_t>(it, [](A x, A y) { return x >= y; }); break;
    }
  });
  return out;
}

namespace {

const char* unary_name(UnaryOp op) {
  static const char* const names[] = {"neg",  "abs",  "exp",        "log", "sqrt", "sin",  "cos",
                                      "tanh", "sigmoid", "relu", "reciprocal", "sgn", "sign", "angle"};
  return names[int(op)];
}

// Refusals torch makes before looking at the output (neg's and relu's own checks).
void unary_precheck(UnaryOp op, DType in) {
  if (op == UnaryOp::Neg) {
    CT_CHECK(in != DType::Bool, DType,
             "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.");
  } else if (op == UnaryOp::Relu) {
    CT_CHECK(in != DType::Bool, DType, "Boolean inputs not supported for relu");
  } else if (op == UnaryOp::Sign) {
    CT_CHECK(!is_complex(in), DType,
             "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
  }
}

// neg/abs/relu/sgn/sign keep the dtype; the rest compute integer and bool inputs in the default
// dtype.  abs of bool is refused by torch's kernel dispatch, i.e. after the output checks.
DType unary_result_dtype(UnaryOp op, DType in) {
  unary_precheck(op, in);
  switch (op) {
    case UnaryOp::Sgn:
    case UnaryOp::Sign: return in;
    case UnaryOp::Neg:
    case UnaryOp::Relu:
      CT_CHECK(!(op == UnaryOp::Relu && is_complex(in)), DType, "clamp is not supported for complex types");
      return in;
    case UnaryOp::Abs:
      CT_CHECK(in != DType::Bool, DType, "\"abs_cpu\" not implemented for 'Bool'");
      return in;
    default:
      return is_floating(in) || is_complex(in) ? in : default_float_dtype();
  }
}

// exp, log, sqrt, sin, cos, tanh of elements of type T computed in A (a real accumulator, or
// std::complex itself: the C library's complex functions, which c10::complex calls too).
// Returns false for the other ops.
template <class T, class A>
bool run_std_math(UnaryOp op, const ElementwiseIter& it, bool stream) {
  switch (op) {
    case UnaryOp::Exp: run_unary<T>(it, [](A x) { return std::exp(x); }, stream); return true;
    case UnaryOp::Log: run_unary<T>(it, [](A x) { return std::log(x); }, stream); return true;
    case UnaryOp::Sqrt: run_unary<T>(it, [](A x) { return std::sqrt(x); }, stream); return true;
    case UnaryOp::Sin: run_unary<T>(it, [](A x) { return std::sin(x); }, stream); return true;
    case UnaryOp::Cos: run_unary<T>(it, [](A x) { return std::cos(x); }, stream); return true;
    case UnaryOp::Tanh: run_unary<T>(it, [](A x) { return std::tanh(x); }, stream); return true;
    default: return false;
  }
}

template <class T>
void unary_kernel_typed(UnaryOp op, const ElementwiseIter& it, bool stream) {
  using A = acc_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    // sign and sgn of a bool are the bool itself (torch's kernel); the other ops never compute in bool
    CT_CHECK(op == UnaryOp::Sgn || op == UnaryOp::Sign, Internal, "unary op on bool");
    run_unary<T>(it, [](bool x) { return x; }, stream);
  } else if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case UnaryOp::Sgn:
      case UnaryOp::Sign: run_unary<T>(it, [](A x) { return A((A(0) < x) - (x < A(0))); }, stream); break;
      case UnaryOp::Neg: run_unary<T>(it, [](A x) { return wrap_sub<A>(A(0), x); }, stream); break;
      case UnaryOp::Abs:
        run_unary<T>(
            it,
            [](A x) {
              if constexpr (std::is_signed_v<A>) return x < 0 ? wrap_sub<A>(A(0), x) : x;
              else return x;
            },
            stream);
        break;
      case UnaryOp::Relu: run_unary<T>(it, [](A x) { return x > 0 ? x : A(0); }, stream); break;
      default: CT_FAIL(Internal, "float op on an integer compute dtype");
    }
  } else {
    if (run_std_math<T, A>(op, it, stream)) return;
    switch (op) {
      case UnaryOp::Neg: run_unary<T>(it, [](A x) { return -x; }, stream); break;
      case UnaryOp::Abs: run_unary<T>(it, [](A x) { return std::abs(x); }, stream); break;
      case UnaryOp::Sigmoid: run_unary<T>(it, [](A x) { return A(1) / (A(1) + std::exp(-x)); }, stream); break;
      // torch's relu is clamp_min(x, 0): NaN and -0.0 pass through unchanged
      case UnaryOp::Relu: run_unary<T>(it, [](A x) { return x < A(0) ? A(0) : x; }, stream); break;
      case UnaryOp::Reciprocal: run_unary<T>(it, [](A x) { return A(1) / x; }, stream); break;
      // torch's sign: (0 < x) - (x < 0), so NaN and -0.0 give 0
      case UnaryOp::Sgn:
      case UnaryOp::Sign: run_unary<T>(it, [](A x) { return A((A(0) < x) - (x < A(0))); }, stream); break;
      case UnaryOp::Angle:
        run_unary<T>(it, [](A x) { return std::isnan(x) ? x : x < A(0) ? A(M_PI) : A(0); }, stream);
        break;
      default: break;  // exp, log, sqrt, sin, cos, tanh: run_std_math
    }
  }
}

// The bytes of one vector of torch's kernels on this CPU, as its DispatchStub chooses them by
// default (compute_cpu_capability): 64 with AVX-512 (F, BW, VL and DQ), 32 with AVX2 and FMA,
// 0 without (its DEFAULT kernels: this width then splits nothing).  Where a kernel of torch
// rounds differently in its vector loop and in its tail, the split depends on this width.
// (torch's ATEN_CPU_CAPABILITY, which lowers the choice, is not followed.)
int torch_vector_bytes() {
  static const int bytes = [] {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
      return 64;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 32 : 0;
  }();
  return bytes;
}

void unary_kernel(UnaryOp op, const Tensor& out, const Tensor& in, bool stream = false) {
  const Tensor* ops[2] = {&out, &in};
  ElementwiseIter it(ops);
  if (is_complex(in.dtype()) && op != UnaryOp::Relu) {
    dispatch_tagged(in.dtype(), [&](auto tag) {
      using scalar_t = typename decltype(tag)::type;
      if constexpr (is_complex_v<scalar_t>) {
        using R = typename scalar_t::value_type;
        if (run_std_math<scalar_t, scalar_t>(op, it, stream)) return;
        if (op == UnaryOp::Sigmoid) {  // as torch writes it: 1 / (1 + exp(-z)), c10's division
          run_unary<scalar_t>(it, [](scalar_t x) { return cdiv(scalar_t(1), scalar_t(1) + std::exp(-x)); }, stream);
        } else if (op == UnaryOp::Neg) {
          run_unary<scalar_t>(it, [](scalar_t x) { return -x; }, stream);
        } else if (op == UnaryOp::Reciprocal) {
          run_unary<scalar_t>(it, [](scalar_t x) { return creciprocal(x); }, stream);
        } else if (op == UnaryOp::Sgn) {
          // torch's kernel rounds two ways: its vector loop divides each part by |z| (the first
          // n - n % w elements of a contiguous row, w two of its vectors: 16 complex64 or 8
          // complex128 with AVX-512, 8 or 4 with AVX2: torch_vector_bytes), its scalar
          // loop (the rest, and strided rows) is c10's division z / (|z| + 0i), which differs in
          // the last bit and for infinities and signed zeros.  0 at 0 in both.
          const int64_t w = 2 * torch_vector_bytes() / int64_t(sizeof(scalar_t));
          it.for_each([&](char** p, const int64_t* s, int64_t n) {
            const bool dense = s[0] == int64_t(sizeof(scalar_t)) && s[1] == int64_t(sizeof(scalar_t));
            const int64_t body = dense && w > 0 ? n - n % w : 0;
            for (int64_t i = 0; i < n; ++i) {
              const scalar_t x = load<scalar_t>(p[1] + i * s[1]);
              const R a = cabs(x);
              scalar_t r = 0;
              if (i < body) r = a == R(0) ? r : scalar_t(x.real() / a, x.imag() / a);
              else r = x == scalar_t(0) ? r : cdiv(x, scalar_t(a, R(0)));
              *reinterpret_cast<scalar_t*>(p[0] + i * s[0]) = r;
            }
          });
        } else {  // abs, angle: out has the real dtype: complex in, real out
          const bool angle = op == UnaryOp::Angle;
          it.for_each([&](char** p, const int64_t* s, int64_t n) {
            for (int64_t i = 0; i < n; ++i) {
              const scalar_t z = load<scalar_t>(p[1] + i * s[1]);
              *reinterpret_cast<R*>(p[0] + i * s[0]) = angle ? std::atan2(z.imag(), z.real()) : cabs(z);
            }
          });
        }
      }
    });
    return;
  }
  CT_DISPATCH_ALL(out.dtype(), [&] { unary_kernel_typed<scalar_t>(op, it, stream); });
}

}  // namespace

Ref<Tensor> unary(UnaryOp op, const Tensor& a) {
  const DType d = unary_result_dtype(op, a.dtype());
  const MaybeOwned<Tensor> in = to_dtype_borrowed(a, d);
  const Tensor* layout[1] = {in.get()};
  // abs and angle of a complex tensor are real (complex64 -> float32), laid out as the input
  const DType od = op == UnaryOp::Abs || op == UnaryOp::Angle ? real_part_dtype(d) : d;
  Ref<Tensor> out = new_output(a.sizes(), layout, od, unary_name(op));
  unary_kernel(op, *out, *in, should_stream(*out));
  return out;
}

void unary_(UnaryOp op, const Tensor& self) {
  unary_precheck(op, self.dtype());
  CT_CHECK(!(op == UnaryOp::Abs && is_complex(self.dtype())), DType, "In-place abs is not supported for complex tensors.");
  check_writable(self, unary_name(op));
  const DType d = unary_result_dtype(op, self.dtype());
  CT_CHECK(d == self.dtype(), DType,
           "result type " << torch_scalar_type_name(d) << " can't be cast to the desired output type "
                          << torch_scalar_type_name(self.dtype()));
  unary_kernel(op, self, self);
  self.bump_version();
}


Ref<Tensor> maximum(const Tensor& a, const Tensor& b, bool max) {
  broadcast_shapes(a.sizes(), b.sizes(), max ? "maximum" : "minimum");  // names this op in the error
  CT_CHECK(!is_complex(a.dtype()) && !is_complex(b.dtype()), DType,
           (max ? "maximum" : "minimum") << " not implemented for complex tensors.");
  Ref<Tensor> pick = compare(max ? CompareOp::Gt : CompareOp::Lt, Operand::of(a), Operand::of(b));
  Ref<Tensor> r = where(*pick, a, b);
  // Comparisons with NaN are false, so where picked b: put the NaNs back, a's last so that
  // they win (the values differ only in NaN payload, as torch).
  Ref<Tensor> b_nan = compare(CompareOp::Ne, Operand::of(b), Operand::of(b));
  r = where(*b_nan, *to_dtype(b, r->dtype()), *r);
  Ref<Tensor> a_nan = compare(CompareOp::Ne, Operand::of(a), Operand::of(a));
  return where(*a_nan, *to_dtype(a, r->dtype()), *r);
}

Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  CT_CHECK(cond.dtype() == DType::Bool || cond.dtype() == DType::UInt8, DType,
           "where expected condition to be a boolean tensor, but got a tensor with dtype "
               << torch_scalar_type_name(cond.dtype()));
  const OperandType types[2] = {type_of(Operand::of(a)), type_of(Operand::of(b))};
  const DType d = result_type(types);
  DimBuf ca, shape;
  broadcast_shapes_into(cond.sizes(), a.sizes(), "where", ca);
  broadcast_shapes_into(ca, b.sizes(), "where", shape);
  const MaybeOwned<Tensor> ta = to_dtype_borrowed(a, d), tb = to_dtype_borrowed(b, d);
  const Tensor* layout[3] = {&cond, ta.get(), tb.get()};
  Ref<Tensor> out = new_output(shape, layout, d, "where");
  const Tensor* ops[4] = {out.get(), &cond, ta.get(), tb.get()};
  ElementwiseIter it(ops);
  CT_DISPATCH_WITH_COMPLEX(d, [&] {
    using T = scalar_t;
    // Both values are read and one is kept (a select, not a branch): a mask such as
    // relu's backward (x > 0) is random, and a branch on it mispredicted half the time
    // (about 4 ns an element, by perf).  Every operand spans the whole shape, so both reads
    // are in bounds.
    // (GCC turns `c ? x : y` back into a branch, hence the two-entry table.)
    it.for_each([&](char** p, const int64_t* s, int64_t n) {
      if (s[0] == sizeof(T) && s[1] == 1 && s[2] == sizeof(T) && (s[3] == sizeof(T) || s[3] == 0)) {
        // the common case (relu's backward: a mask, a gradient, a scalar zero), vectorized
        T* o = reinterpret_cast<T*>(p[0]);
        const uint8_t* c = reinterpret_cast<const uint8_t*>(p[1]);
        const T* x = reinterpret_cast<const T*>(p[2]);
        const T* y = reinterpret_cast<const T*>(p[3]);
        const int64_t ys = s[3] == 0 ? 0 : 1;
        for (int64_t i = 0; i < n; ++i) {
          // both read (GCC may then blend instead of branching), through load (bool bytes)
          const T a = load<T>(x + i), b = load<T>(y + i * ys);
          o[i] = c[i] ? a : b;
        }
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        const T v[2] = {load<T>(p[3] + i * s[3]), load<T>(p[2] + i * s[2])};
        *reinterpret_cast<T*>(p[0] + i * s[0]) = v[load<uint8_t>(p[1] + i * s[1]) != 0];
      }
    });
  });
  return out;
}

Ref<Tensor> threshold_backward(const Tensor& grad, const Tensor& result) {
  CT_CHECK(grad.dtype() == result.dtype() && !is_complex(grad.dtype()) && grad.dtype() != DType::Bool, Internal,
           "threshold_backward: dtypes " << torch_scalar_type_name(grad.dtype()) << " and "
                                         << torch_scalar_type_name(result.dtype()));
  DimBuf shape;
  broadcast_shapes_into(grad.sizes(), result.sizes(), "threshold_backward", shape);
  const Tensor* layout[2] = {&grad, &result};
  Ref<Tensor> out = new_output(shape, layout, grad.dtype(), "threshold_backward");
  const Tensor* ops[3] = {out.get(), &grad, &result};
  ElementwiseIter it(ops);
  dispatch_tagged(grad.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_complex_v<T> && !std::is_same_v<T, bool>) {
      using A = acc_t<T>;
      // a select, not a branch (the mask is random: see where); NaN <= 0 is false
      run_binary<T, T>(it, [](A g, A r) { return r <= A(0) ? A(0) : g; });
    }
  });
  return out;
}

void fill_(const Tensor& self, double value) {
  check_scalar_fits(value, self.dtype());
  // torch's fill_ skips the internal-overlap check ("fill is idempotent"): filling an
  // expanded tensor writes the value once into each memory location it reaches.
  CT_CHECK(!self.storage()->read_only(), ReadOnly,
           "fill_: the tensor's storage is read-only (it was imported as a read-only DLPack tensor)");
  // Collapse broadcast (stride-0) dims so that no location is written twice, let alone by
  // two threads; anything else overlapping (as_strided) is filled by one thread.
  // A contiguous self has none of either: filled as it is (no view made: zero_ of every
  // gradient in a training step comes here).
  const bool dense = self.is_contiguous();
  Ref<Tensor> target;
  if (!dense) {
    Shape sizes(self.sizes().begin(), self.sizes().end());
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (self.stride(int(d)) == 0 && sizes[d] > 1) sizes[d] = 1;
    }
    target = make_view(self, sizes, self.strides(), self.offset());
  }
  const bool serial = !dense && has_internal_overlap(*target);
  const Tensor* ops[1] = {dense ? &self : target.get()};
  ElementwiseIter it(ops);
  CT_DISPATCH_WITH_COMPLEX(self.dtype(), [&] {  // a complex self gets (value, 0)
    const scalar_t v = convert<scalar_t>(value);
    it.for_each(
        [&](char** p, const int64_t* s, int64_t n) {
          if (s[0] == sizeof(scalar_t)) {
            std::fill_n(reinterpret_cast<scalar_t*>(p[0]), n, v);
          } else {
            for (int64_t i = 0; i < n; ++i) *reinterpret_cast<scalar_t*>(p[0] + i * s[0]) = v;
          }
        },
        serial ? INT64_MAX : int64_t(1) << 16);
  });
  self.bump_version();
}

bool equal(const Tensor& a, const Tensor& b) {
  if (!std::equal(a.sizes().begin(), a.sizes().end(), b.sizes().begin(), b.sizes().end())) return false;
  Ref<Tensor> same = compare(CompareOp::Eq, Operand::of(a), Operand::of(b));
  const Tensor* ops[1] = {same.get()};
  ElementwiseIter it(ops);
  bool all = true;
  it.for_each(
      [&](char** p, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) all = all && load<bool>(p[0] + i * s[0]);
      },
      INT64_MAX);  // serial: `all` is shared
  return all;
}

namespace {

// One element of torch's isclose in the dtype T it computes in (torch 1.13, equal_nan=False):
//   close = a == b  ||  (isfinite(|a - b|) && |a - b| <= atol + |rtol * b|)
// where every operation rounds to T (rtol and atol are Python floats: converted to T first).
// Integer and bool inputs compute the error terms in float32 (torch casts them to the default
// dtype).  Zero tolerances degenerate to a == b.
template <class T>
struct IsClose {
  using A = acc_t<T>;
  static A round(A v) { return to_acc(from_acc<T>(v)); }
  A rtol, atol;
  IsClose(double r, double a) : rtol(to_acc(convert<T>(r))), atol(to_acc(convert<T>(a))) {}
  bool operator()(T x, T y) const {
    const A u = to_acc(x), v = to_acc(y);
    if (u == v) return true;
    const A allowed = round(atol + std::abs(round(rtol * v)));
    const A actual = std::abs(round(u - v));
    return std::isfinite(actual) && actual <= allowed;
  }
};

// torch's isclose of complex values: a == b || (isfinite(|a - b|) && |a - b| <= atol + |rtol * b|),
// the error terms real (of the parts' dtype), rtol * b a complex product.
template <class T>
struct IsCloseComplex {
  using R = typename T::value_type;
  R rtol, atol;
  IsCloseComplex(double r, double a) : rtol(R(r)), atol(R(a)) {}
  bool operator()(T x, T y) const {
    if (x == y) return true;
    const R allowed = atol + cabs(cmul(T(rtol, R(0)), y));
    const R actual = cabs(T(x - y));
    return std::isfinite(actual) && actual <= allowed;
  }
};

// isclose of one pair of elements of dtype T; exact: zero tolerances, equality alone.  A NaN
// facing a NaN is close when equal_nan (a complex value is NaN when either part is).
template <class T>
auto close_predicate(bool exact, bool equal_nan, double rtol, double atol) {
  if constexpr (is_complex_v<T>) {
    return [exact, equal_nan, f = IsCloseComplex<T>(rtol, atol)](T x, T y) {
      auto nan = [](T z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
      return (exact ? x == y : f(x, y)) || (equal_nan && nan(x) && nan(y));
    };
  } else if constexpr (std::is_floating_point_v<acc_t<T>>) {
    return [exact, equal_nan, f = IsClose<T>(rtol, atol)](T x, T y) {
      const auto u = to_acc(x), v = to_acc(y);
      return (exact ? u == v : f(x, y)) || (equal_nan && std::isnan(u) && std::isnan(v));
    };
  } else {  // zero tolerances on integers and bools (others compute in a floating dtype)
    return [](T x, T y) { return x == y; };
  }
}

// The checks and operands isclose and allclose share: a and b in the dtype the comparison
// runs in, expanded to the broadcast shape.
struct CloseOperands {
  DType dtype;
  bool exact;
  Ref<Tensor> a, b, ea, eb;
  CloseOperands(const Tensor& x, const Tensor& y, double rtol, double atol, const char* op) {
    // torch's order: the dtypes (equal only: ct_equal promotes, as torch.equal does), then the tolerances
    CT_CHECK(x.dtype() == y.dtype(), DType,
             torch_scalar_type_name(x.dtype()) << " did not match " << torch_scalar_type_name(y.dtype()));
    CT_CHECK(rtol >= 0, InvalidArgument, "rtol must be greater than or equal to zero, but got " << rtol);
    CT_CHECK(atol >= 0, InvalidArgument, "atol must be greater than or equal to zero, but got " << atol);
    const Shape shape = broadcast_shapes(x.sizes(), y.sizes(), op);
    exact = rtol == 0 && atol == 0;
    // integers and bools compute the error terms in the default dtype, as torch's
    const DType common = x.dtype();
    dtype = is_floating(common) || is_complex(common) || exact ? common : default_float_dtype();
    a = to_dtype(x, dtype);
    b = to_dtype(y, dtype);
    ea = expand(*a, shape);
    eb = expand(*b, shape);
  }
};

}  // namespace

Ref<Tensor> isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan, const char* op) {
  const CloseOperands c(a, b, rtol, atol, op);
  const Tensor* layout[2] = {c.a.get(), c.b.get()};
  Ref<Tensor> out = elementwise_output(c.ea->sizes(), layout, DType::Bool, op);
  const Tensor* ops[3] = {out.get(), c.ea.get(), c.eb.get()};
  ElementwiseIter it(ops);
  CT_DISPATCH_WITH_COMPLEX(c.dtype, [&] {
    const auto close = close_predicate<scalar_t>(c.exact, equal_nan, rtol, atol);
    it.for_each([&](char** p, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<bool*>(p[0] + i * s[0]) = close(load<scalar_t>(p[1] + i * s[1]), load<scalar_t>(p[2] + i * s[2]));
    });
  });
  return out;
}

// Streams the pairs and stops at the first one not close: no bool tensor is made.
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  const CloseOperands c(a, b, rtol, atol, "allclose");
  const Tensor* ops[2] = {c.ea.get(), c.eb.get()};
  ElementwiseIter it(ops);  // iterates over the broadcast shape; writes nothing
  std::atomic<bool> all{true};
  CT_DISPATCH_WITH_COMPLEX(c.dtype, [&] {
    const auto close = close_predicate<scalar_t>(c.exact, equal_nan, rtol, atol);
    it.for_each([&](char** p, const int64_t* s, int64_t n) {
      bool ok = all.load(std::memory_order_relaxed);
      for (int64_t i = 0; i < n && ok; ++i) ok = close(load<scalar_t>(p[0] + i * s[0]), load<scalar_t>(p[1] + i * s[1]));
      if (!ok) all.store(false, std::memory_order_relaxed);
    });
  });
  return all.load();
}

double item(const Tensor& t) {
  CT_CHECK(t.numel() == 1, InvalidArgument,
           "a Tensor with " << t.numel() << " elements cannot be converted to Scalar");
  CT_CHECK(!is_complex(t.dtype()), DType,
           "item: a " << torch_scalar_type_name(t.dtype()) << " value has two parts; ct_item_complex reads both");
  return CT_DISPATCH_ALL(t.dtype(), [&] { return convert<double>(load<scalar_t>(t.data())); });
}

std::complex<double> item_complex(const Tensor& t) {
  CT_CHECK(t.numel() == 1, InvalidArgument,
           "a Tensor with " << t.numel() << " elements cannot be converted to Scalar");
  return CT_DISPATCH_WITH_COMPLEX(
      t.dtype(), [&] { return convert<std::complex<double>>(load<scalar_t>(t.data())); });
}

Ref<Tensor> cat(std::span<const Tensor* const> tensors, int64_t dim) {
  CT_CHECK(!tensors.empty(), InvalidArgument, "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    CT_CHECK(tensors[i]->ndim() > 0, InvalidArgument,
             "zero-dimensional tensor (at position " << i << ") cannot be concatenated");
  }
  // PyTorch skips 1-D empty tensors (legacy behaviour) when deciding shapes.
  const Tensor* ref = nullptr;
  DType d = tensors[0]->dtype();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor* t = tensors[i];
    d = i == 0 ? t->dtype() : promote_types(d, t->dtype());
    if (!(t->ndim() == 1 && t->numel() == 0) && !ref) ref = t;
  }
  if (!ref) ref = tensors[0];
  const int dd = wrap_dim(dim, ref->ndim());
  Shape out_shape(ref->sizes().begin(), ref->sizes().end());
  out_shape[size_t(dd)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor* t = tensors[i];
    if (t->ndim() == 1 && t->numel() == 0) continue;
    CT_CHECK(t->ndim() == ref->ndim(), Shape,
             "Tensors must have same number of dimensions: got " << ref->ndim() << " and " << t->ndim());
    for (int k = 0; k < t->ndim(); ++k) {
      CT_CHECK(k == dd || t->size(k) == ref->size(k), Shape,
               "Sizes of tensors must match except in dimension " << dd << ". Expected size " << ref->size(k)
                                                                  << " but got size " << t->size(k)
                                                                  << " for tensor number " << i << " in the list.");
    }
    CT_CHECK(!__builtin_add_overflow(out_shape[size_t(dd)], t->size(dd), &out_shape[size_t(dd)]), Shape,
             "cat: the sizes of dimension " << dd << " add up to more than int64 can hold");  // empty inputs
  }
  // torch's cat_compute_output_memory_format, over every input (skipped ones included): the
  // inputs' common suggested format, contiguous when any is contiguous or two differ.
  MemoryFormat format = suggest_memory_format(*tensors[0]);
  for (const Tensor* t : tensors) {
    if (suggest_memory_format(*t) != format) format = MemoryFormat::Contiguous;
  }
  Ref<Tensor> out = empty_format(out_shape, d, format, "cat");
  int64_t at = 0;
  for (const Tensor* t : tensors) {
    if (t->ndim() == 1 && t->numel() == 0) continue;
    Ref<Tensor> part = narrow(*out, dd, at, t->size(dd));
    move_elements(*part, *t);  // a fresh result: no version bumps; bool bytes as they are
    at += t->size(dd);
  }
  return out;
}

Ref<Tensor> stack(std::span<const Tensor* const> tensors, int64_t dim) {
  CT_CHECK(!tensors.empty(), InvalidArgument, "stack expects a non-empty TensorList");
  const int d = wrap_dim(dim, tensors[0]->ndim() + 1);
  for (size_t i = 1; i < tensors.size(); ++i) {
    CT_CHECK(std::equal(tensors[i]->sizes().begin(), tensors[i]->sizes().end(), tensors[0]->sizes().begin(),
                        tensors[0]->sizes().end()),
             Shape,
             "stack expects each tensor to be equal size, but got " << list_str(tensors[0]->sizes())
                                                                   << " at entry 0 and " << list_str(tensors[i]->sizes())
                                                                   << " at entry " << i);
  }
  // torch's stack: for a dim inside the inputs, cat along it and split that dim in two with
  // view's strides (so the result keeps cat's layout, channels-last included; the split is
  // always viewable), but, like torch's, the result is not a view: a new tensor on cat's fresh
  // storage.  For the new last dim, cat of the inputs unsqueezed there.
  if (d < tensors[0]->ndim()) {
    Ref<Tensor> flat = cat(tensors, d);
    Shape sizes(tensors[0]->sizes().begin(), tensors[0]->sizes().end());
    sizes.insert(sizes.begin() + d, int64_t(tensors.size()));
    const std::optional<Shape> strides = view_strides(flat->sizes(), flat->strides(), sizes);
    CT_CHECK(strides.has_value(), Internal, "stack: cat's result cannot be split by a view");
    return Tensor::make(flat->storage(), flat->dtype(), sizes, *strides, flat->offset(), nullptr);
  }
  std::vector<Ref<Tensor>> parts;
  std::vector<const Tensor*> ptrs;
  for (const Tensor* t : tensors) {
    parts.push_back(unsqueeze(*t, d));
    ptrs.push_back(parts.back().get());
  }
  return cat(ptrs, d);
}

}  // namespace ct
