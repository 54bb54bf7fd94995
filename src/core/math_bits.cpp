#include "math_bits.h"

#include <cstring>

#include "copy.h"
#include "error.h"
#include "ops/elementwise.h"
#include "views.h"

namespace ct {
namespace {

Ref<Tensor> with_bits_toggled(const Tensor& t, uint8_t bits) {
  Ref<Tensor> v = alias_view(t);  // a view: base, storage and counter shared, t's bits kept
  v->set_math_bits(uint8_t(t.math_bits() ^ bits));
  return v;
}

// XORs the sign bit of every element of the strided block (base, item bytes, sizes,
// strides in items).  One loop per innermost row; an odometer over the outer dims.
template <class U>
void flip_sign_bits(char* base, int ndim, const int64_t* sizes, const int64_t* strides) {
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  U* const p0 = reinterpret_cast<U*>(base);
  if (ndim == 0) {
    *p0 ^= sign;
    return;
  }
  const int inner = ndim - 1;
  const int64_t n = sizes[inner], step = strides[inner];
  int64_t index[kMaxDims + 1] = {};
  for (;;) {
    int64_t at = 0;
    for (int d = 0; d < inner; ++d) at += index[d] * strides[d];
    U* p = p0 + at;
    if (step == 1) {
      for (int64_t i = 0; i < n; ++i) p[i] ^= sign;
    } else {
      for (int64_t i = 0; i < n; ++i) p[i * step] ^= sign;
    }
    int d = inner - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

void flip_signs(const Tensor& parts) {
  if (parts.numel() == 0) return;
  char* base = parts.data();
  const int n = parts.ndim();
  const int64_t* sizes = parts.sizes().data();
  const int64_t* strides = parts.strides().data();
  switch (parts.itemsize()) {
    case 2: flip_sign_bits<uint16_t>(base, n, sizes, strides); break;
    case 4: flip_sign_bits<uint32_t>(base, n, sizes, strides); break;
    case 8: flip_sign_bits<uint64_t>(base, n, sizes, strides); break;
    default: CT_FAIL(Internal, "apply_math_bits: no sign bit to flip in items of " << parts.itemsize() << " bytes");
  }
}

// The real parts (part 0) or imaginary parts (part 1) of a complex t, or both (part -1), as
// a float tensor over the same bytes, without bits or checks (a scratch view for the kernel).
Ref<Tensor> complex_parts(const Tensor& t, int part) {
  DimBuf sizes(t.sizes()), strides(t.strides());
  for (size_t d = 0; d < sizes.size(); ++d) strides[d] *= 2;
  int64_t offset = t.offset() * 2;
  if (part < 0) {
    sizes.push_back(2);
    strides.push_back(1);
  } else {
    offset += part;
  }
  return Tensor::make(t.storage(), real_part_dtype(t.dtype()), sizes, strides, offset, nullptr);
}

}  // namespace

void apply_math_bits(const Tensor& dst, uint8_t bits) {
  // Nothing to flip; and an empty tensor's strides are never checked (torch keeps hostile
  // ones), so complex_parts could not double them.
  if (dst.numel() == 0) return;
  const bool neg = bits & Tensor::kNegBit;
  if (is_complex(dst.dtype())) {
    // (a, b) -> conj: (a, -b); neg: (-a, -b); both: (-a, b)
    const bool flip_real = neg, flip_imag = neg != bool(bits & Tensor::kConjBit);
    if (flip_real && flip_imag) flip_signs(*complex_parts(dst, -1));
    else if (flip_real) flip_signs(*complex_parts(dst, 0));
    else if (flip_imag) flip_signs(*complex_parts(dst, 1));
    return;
  }
  if (!neg) return;  // the conjugate of a real value is itself
  CT_CHECK(is_floating(dst.dtype()), Internal,
           "apply_math_bits: a negative bit on a " << dtype_name(dst.dtype()) << " tensor");
  flip_signs(dst);
}

Ref<Tensor> conj_view(const Tensor& t) {
  if (!is_complex(t.dtype())) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return with_bits_toggled(t, Tensor::kConjBit);
}

Ref<Tensor> neg_view(const Tensor& t) {
  CT_CHECK(is_floating(t.dtype()) || is_complex(t.dtype()), DType,
           "_neg_view: only floating point and complex tensors can carry the negative bit in ctensor, got "
               << dtype_name(t.dtype()));
  return with_bits_toggled(t, Tensor::kNegBit);
}

Ref<Tensor> resolve_conj(const Tensor& t) {
  if (!t.is_conj()) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return clone(t);
}

Ref<Tensor> resolve_neg(const Tensor& t) {
  if (!t.is_neg()) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return clone(t);
}

Ref<Tensor> resolve_math_bits(const Tensor& t) {
  if (!t.math_bits()) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  return clone(t);
}

Ref<Tensor> conj_physical(const Tensor& t) {
  if (!is_complex(t.dtype())) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  // a conj view's conjugate is its stored values: clone the view with the bit cleared
  if (t.is_conj()) return clone(*with_bits_toggled(t, Tensor::kConjBit));
  Ref<Tensor> out = clone(t);
  apply_math_bits(*out, Tensor::kConjBit);
  return out;
}

void conj_physical_(const Tensor& t) {
  CT_CHECK(!t.math_bits(), Internal, "conj_physical_: the C boundary resolves math bits first");
  check_writable(t, "conj_physical_");
  if (is_complex(t.dtype())) apply_math_bits(t, Tensor::kConjBit);
  t.bump_version();
}

}  // namespace ct
