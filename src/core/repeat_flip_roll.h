// Copies that rearrange elements: repeat/tile, flip, roll.  Each returns a tensor on a NEW
// storage (never a view, even when nothing moves), as PyTorch does.
#pragma once

#include "tensor.h"

namespace ct {

// torch's repeat: reps.size() >= t.ndim(); t is padded with leading size-1 dims.  Result C order.
Ref<Tensor> repeat(const Tensor& t, IntList reps);
// torch's tile: reps shorter than t.ndim() is padded with leading 1s, then repeat.
Ref<Tensor> tile(const Tensor& t, IntList reps);
// torch's flip over dims (wrapped, no duplicates).  Result laid out as clone().
Ref<Tensor> flip(const Tensor& t, IntList dims);
// torch's roll: dims empty rolls the flattened tensor (one shift).
Ref<Tensor> roll(const Tensor& t, IntList shifts, IntList dims);

}  // namespace ct
