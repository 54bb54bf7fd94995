// Copies people pair with views (issue #20): masked_select / masked_fill / masked_scatter,
// nonzero, rot90 and repeat_interleave, as torch 2.13 computes them (values, result layout,
// errors).  Results are always on a NEW storage; the *_ forms write self in place (one version
// bump).  No autograd here: core/autograd/mask_ops.h records the nodes.
#pragma once

#include <optional>

#include "tensor.h"

namespace ct {

// torch.masked_select: the elements of t where mask (bool) is true, mask and t broadcast
// together, in C order of the broadcast shape, as a new 1-D tensor.
Ref<Tensor> masked_select(const Tensor& t, const Tensor& mask);
// torch's masked_fill_: value written into self where mask (bool, broadcast to self) is true.
// A tensor value must be 0-dim; either value must fit self's dtype (torch's overflow check).
void masked_fill_(const Tensor& self, const Tensor& mask, double value);
void masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value);
// torch's masked_fill: self and mask broadcast together, copied in C order, then filled.
Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, double value);
Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, const Tensor& value);
// torch's masked_scatter_: where mask (bool, broadcast to self) is true, self takes the next
// element of source (C order); source has self's dtype and at least as many elements.
void masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source);
Ref<Tensor> masked_scatter(const Tensor& t, const Tensor& mask, const Tensor& source);
// torch.nonzero: int64 (count, ndim) of the indices of non-zero elements in C order, laid
// out column-major (strides (1, count)) as torch lays it out.
Ref<Tensor> nonzero(const Tensor& t);
// torch.rot90: a copy; k mod 4 == 1 or 3 gives a flip with dims transposed in its strides.
Ref<Tensor> rot90(const Tensor& t, int64_t k, IntList dims);
// The checks of rot90, with the wrapped dims (used by autograd for the backward k).
void rot90_dims(const Tensor& t, IntList dims, int& d0, int& d1);
// torch.repeat_interleave(repeats): 1-D int32/int64 counts -> each index i repeated counts[i]
// times, in the counts' dtype.
Ref<Tensor> repeat_interleave_counts(const Tensor& repeats, std::optional<int64_t> output_size);
// The first checks of Tensor.repeat_interleave(int repeats, dim): returns dim wrapped (0 when
// absent: the repeat then runs along the flattened input).
int repeat_interleave_int_dim(const Tensor& t, int64_t repeats, std::optional<int64_t> dim);
// The 1-D int64 counts Tensor.repeat_interleave(Tensor repeats, dim) index_selects with:
// repeats expanded (0-dim or one element) or checked against input.size(dim), then the counts form.
Ref<Tensor> repeat_interleave_index(const Tensor& repeats, const Tensor& input, int64_t dim,
                                    std::optional<int64_t> output_size);

}  // namespace ct
