// The rest of torch's view family, composed from the recorded view ops of functions.h as
// torch composes them (its CompositeImplicitAutograd kernels), so each result records the
// node torch records: tensor_split / hsplit / vsplit / dsplit (SliceBackward0 per piece,
// ordinary views), unflatten and view_as (ViewBackward0), reshape_as (as reshape), movedim
// (PermuteBackward0; AliasBackward0 on a 0-dim tensor), swapaxes / swapdims
// (TransposeBackward0), expand_as / broadcast_to / broadcast_tensors (ExpandBackward0),
// atleast_1d/2d/3d (ViewBackward0 from 0-dim, UnsqueezeBackward0 from lower ranks, the
// input itself otherwise).  Errors and messages are torch 2.13's.
#pragma once

#include <span>
#include <vector>

#include "core/tensor.h"

namespace ct::ag {

// tensor_split into `sections` pieces (the first size % sections one longer), or at the
// given indices (Python slice rules per piece: clamped, possibly empty).  The *_count
// functions check and count without making views (the C API's count-first call).
int64_t tensor_split_sections_count(const Tensor& t, int64_t sections, int64_t dim);
std::vector<Ref<Tensor>> tensor_split_sections(const Tensor& t, int64_t sections, int64_t dim);
int64_t tensor_split_indices_count(const Tensor& t, IntList indices, int64_t dim);
std::vector<Ref<Tensor>> tensor_split_indices(const Tensor& t, IntList indices, int64_t dim);

// torch's tensor_split(Tensor indices_or_sections): an int64 tensor, 0-dim (a number of
// sections) or 1-D (indices, any stride).  Fills sections (returns true) or indices.
bool tensor_split_spec(const Tensor& spec, int64_t& sections, std::vector<int64_t>& indices);

// hsplit (dim 1, or 0 for a 1-D t), vsplit (dim 0, t at least 2-D), dsplit (dim 2, t at
// least 3-D): which is 'h', 'v' or 'd'.  Checks the rank and returns the dim.  The sections
// form also requires the dim's size to be divisible by sections.
int directional_split_dim(const Tensor& t, char which);
void check_directional_sections(const Tensor& t, char which, int64_t sections);

Ref<Tensor> unflatten(const Tensor& t, int64_t dim, IntList sizes);
Ref<Tensor> movedim(const Tensor& t, IntList source, IntList destination);
Ref<Tensor> expand_as(const Tensor& t, const Tensor& other);
Ref<Tensor> view_as(const Tensor& t, const Tensor& other);
Ref<Tensor> reshape_as(const Tensor& t, const Tensor& other);
Ref<Tensor> broadcast_to(const Tensor& t, IntList sizes);
// torch's broadcast_tensors: the common shape of all (its message names the first tensor
// that does not fit as b); a tensor already of that shape is returned itself.
Shape broadcast_tensors_shape(std::span<const Tensor* const> ts);
std::vector<Ref<Tensor>> broadcast_tensors(std::span<const Tensor* const> ts);
// torch.broadcast_shapes (torch._refs._broadcast_shapes): the common shape of shapes.
Shape broadcast_shapes(std::span<const IntList> shapes);
// rank 1, 2 or 3 at least; t itself when its rank is already enough.
Ref<Tensor> atleast(const Tensor& t, int rank);

}  // namespace ct::ag
