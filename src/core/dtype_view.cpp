// Note [dtype views]
// torch's view_dtype (aten/src/ATen/native/TensorConversions.cpp) reinterprets the bytes of
// a tensor as another dtype.  Equal item sizes keep sizes, strides and offset.  Otherwise
// the last dim must have stride 1 and is the one that changes length: r = ratio of the item
// sizes; a smaller item multiplies size(-1), the offset and every other stride by r, a
// larger one divides them, and each must divide exactly (checked in torch's order, which
// decides which message wins).  The result covers exactly the bytes t covered, so it stays
// inside the storage.  It is output_differentiability [False] in derivatives.yaml: torch
// makes it with make_variable_non_differentiable_view, a new TensorImpl with the base's
// version counter, no view meta (_is_view() False, _base None) and no autograd state
// (requires_grad False even when t requires grad).  Tensor::make with counter_from = t
// and no base is exactly that.
#include "dtype_view.h"

#include "error.h"
#include "ops/promote.h"

namespace ct {
namespace {

// a * r for the downsize rule; only hostile geometries (as_strided's huge stride on a
// size-1 dim, an empty tensor's huge offset) overflow: refuse them.
int64_t times(int64_t a, int64_t r, DType from, DType to) {
  int64_t out = 0;
  CT_CHECK(!__builtin_mul_overflow(a, r, &out), InvalidArgument,
           "view(dtype): viewing " << torch_scalar_type_name(from) << " as " << torch_scalar_type_name(to)
                                   << " scales " << a << " by " << r << ", which overflows int64");
  return out;
}

}  // namespace

Ref<Tensor> view_dtype(const Tensor& t, DType dtype) {
  // Note [Math bits]: reinterpreted bytes cannot carry a conjugation or negation.  torch 2.13
  // checks before comparing dtypes, so a conj tensor viewed as its own dtype is refused too.
  CT_CHECK(!t.is_conj(), InvalidArgument,
           "torch.Tensor.view is not supported for conjugate view tensors when converting to a different dtype.");
  CT_CHECK(!t.is_neg(), InvalidArgument,
           "torch.Tensor.view is not supported for tensors with negative bit set when converting to a different "
           "dtype.");
  const int64_t old_size = t.itemsize(), new_size = itemsize(dtype);
  const int n = t.ndim();
  DimBuf sizes(t.sizes()), strides(t.strides());
  int64_t offset = t.offset();
  if (old_size != new_size) {
    const char* from = torch_scalar_type_name(t.dtype());
    const char* to = torch_scalar_type_name(dtype);
    CT_CHECK(n > 0, Shape, "self.dim() cannot be 0 to view " << from << " as " << to << " (different element sizes)");
    const size_t last = size_t(n - 1);
    if (old_size > new_size) {
      const int64_t r = old_size / new_size;
      CT_CHECK(t.stride(n - 1) == 1, Shape,
               "self.stride(-1) must be 1 to view " << from << " as " << to << " (different element sizes), but got "
                                                    << t.stride(n - 1));
      for (size_t d = 0; d < last; ++d) strides[d] = times(strides[d], r, t.dtype(), dtype);
      sizes[last] = times(sizes[last], r, t.dtype(), dtype);
      offset = times(offset, r, t.dtype(), dtype);
    } else {
      const int64_t r = new_size / old_size;
      CT_CHECK(t.size(n - 1) % r == 0, Shape,
               "self.size(-1) must be divisible by " << r << " to view " << from << " as " << to
                                                     << " (different element sizes), but got " << t.size(n - 1));
      CT_CHECK(offset % r == 0, Shape,
               "self.storage_offset() must be divisible by " << r << " to view " << from << " as " << to
                                                             << " (different element sizes), but got " << offset);
      CT_CHECK(t.stride(n - 1) == 1, Shape,
               "self.stride(-1) must be 1 to view " << from << " as " << to << " (different element sizes), but got "
                                                    << t.stride(n - 1));
      for (size_t d = 0; d < last; ++d) {
        CT_CHECK(strides[d] % r == 0, Shape,
                 "self.stride(" << d << ") must be divisible by " << r << " to view " << from << " as " << to
                                << " (different element sizes), but got " << strides[d]);
        strides[d] /= r;
      }
      sizes[last] /= r;
      offset /= r;
    }
    strides[last] = 1;
  }
  // torch makes it a new tensor that keeps t's counter, except (Note [Inference tensors]) in
  // inference mode, where it is an inference tensor, and for an inference t outside, where
  // it is a normal tensor with a fresh counter.
  const bool fresh = inference_mode_enabled() || t.is_inference();
  return Tensor::make(t.storage(), dtype, sizes, strides, offset, nullptr, fresh ? nullptr : &t);
}

bool check_matrix_transpose(const Tensor& t) {
  const int n = t.ndim();
  CT_CHECK(n >= 2 || n == 0, Shape,
           "tensor.mT is only supported on matrices or batches of matrices. Got " << n << "-D tensor.");
  return n == 0;
}

}  // namespace ct
