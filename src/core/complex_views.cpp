#include "complex_views.h"

#include "error.h"
#include "views.h"

namespace ct {
namespace {

int64_t doubled(int64_t v, const char* op) {
  int64_t r = 0;
  CT_CHECK(!__builtin_mul_overflow(v, int64_t(2), &r), InvalidArgument,
           op << ": a stride or offset of " << v << " doubled overflows int64");
  return r;
}

// view_as_real's geometry for a complex t, carrying `bits` (Note [Math bits]).
Ref<Tensor> real_pairs(const Tensor& t, uint8_t bits) {
  const int n = t.ndim();
  DimBuf sizes(t.sizes()), strides(t.strides());
  for (int d = 0; d < n; ++d) strides[size_t(d)] = doubled(strides[size_t(d)], "view_as_real");
  sizes.push_back(2);
  strides.push_back(1);
  Ref<Tensor> v = Tensor::make(t.storage(), real_part_dtype(t.dtype()), sizes, strides,
                               doubled(t.offset(), "view_as_real"), t.view_root());
  v->set_math_bits(bits);
  return v;
}

}  // namespace

Ref<Tensor> view_as_real(const Tensor& t) {
  CT_CHECK(is_complex(t.dtype()), DType, "view_as_real is only supported for complex tensors");
  // a float view cannot carry a conjugation; torch's words, double space included
  CT_CHECK(!t.is_conj(), InvalidArgument,
           "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate tensor so you "
           "can view it as real, use self.resolve_conj(); however, be warned that the resulting tensor will NOT "
           "alias the original.");
  return real_pairs(t, t.math_bits());  // the neg bit stays: negated pairs
}

Ref<Tensor> view_as_complex(const Tensor& t) {
  const DType d = t.dtype();
  CT_CHECK(d == DType::Float32 || d == DType::Float64 || d == DType::Float16, DType,
           "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: "
               << torch_scalar_type_name(d));
  CT_CHECK(d != DType::Float16, DType,
           "view_as_complex: a half tensor would give complex32 (ComplexHalf), a dtype ctensor does not have");
  const int n = t.ndim();
  CT_CHECK(n > 0, Shape, "Input tensor must have one or more dimensions");
  CT_CHECK(t.size(n - 1) == 2, Shape, "Tensor must have a last dimension of size 2");
  CT_CHECK(t.stride(n - 1) == 1, Shape, "Tensor must have a last dimension with stride 1");
  DimBuf sizes(t.sizes()), strides(t.strides());
  sizes.resize(size_t(n - 1));
  strides.resize(size_t(n - 1));
  for (int k = 0; k < n - 1; ++k) {
    CT_CHECK(strides[size_t(k)] % 2 == 0, Shape, "Tensor must have a stride divisible by 2 for all but last dimension");
    strides[size_t(k)] /= 2;
  }
  CT_CHECK(t.offset() % 2 == 0, Shape, "Tensor must have a storage_offset divisible by 2");
  Ref<Tensor> v = Tensor::make(t.storage(), complex_of(d), sizes, strides, t.offset() / 2, t.view_root());
  v->set_math_bits(t.math_bits());  // the neg bit stays (a float tensor has no conj bit)
  return v;
}

Ref<Tensor> real_view(const Tensor& t) {
  if (!is_complex(t.dtype())) {
    return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  }
  // torch reads the parts of conj(t)'s storage: the real part of a conjugate is unchanged
  return select(*real_pairs(t, t.math_bits() & ~Tensor::kConjBit), -1, 0);
}

Ref<Tensor> imag_view(const Tensor& t) {
  CT_CHECK(is_complex(t.dtype()), DType, "imag is not implemented for tensors with non-complex dtypes.");
  // The imaginary part of a conjugate is the stored one negated: torch gives a neg view
  // (view_as_real(t._conj())._neg_view()), not a conj view, so the bit changes kind here.
  const uint8_t bits = t.is_conj() ? uint8_t((t.math_bits() & ~Tensor::kConjBit) ^ Tensor::kNegBit) : t.math_bits();
  return select(*real_pairs(t, bits), -1, 1);
}

}  // namespace ct
