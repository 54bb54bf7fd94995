// Autograd-recording forms of core/mask_ops.h, with torch 2.13's nodes: MaskedSelectBackward0,
// MaskedFillBackward0 (number value) / MaskedFillBackward1 (tensor value), MaskedScatterBackward0,
// Rot90Backward0; repeat_interleave records torch's composite graph (int repeats:
// ViewBackward0 <- CloneBackward0 <- ExpandBackward0 <- UnsqueezeBackward0; tensor repeats:
// IndexSelectBackward0).  nonzero has no gradient (int64 result).
#pragma once

#include <optional>

#include "core/tensor.h"

namespace ct::ag {

Ref<Tensor> masked_select(const Tensor& t, const Tensor& mask);
void masked_fill_(const Tensor& self, const Tensor& mask, double value);
void masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value);
Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, double value);
Ref<Tensor> masked_fill(const Tensor& t, const Tensor& mask, const Tensor& value);
void masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source);
Ref<Tensor> masked_scatter(const Tensor& t, const Tensor& mask, const Tensor& source);
Ref<Tensor> rot90(const Tensor& t, int64_t k, IntList dims);
Ref<Tensor> repeat_interleave_int(const Tensor& t, int64_t repeats, std::optional<int64_t> dim,
                                  std::optional<int64_t> output_size);
Ref<Tensor> repeat_interleave_tensor(const Tensor& t, const Tensor& repeats, std::optional<int64_t> dim,
                                     std::optional<int64_t> output_size);

}  // namespace ct::ag
