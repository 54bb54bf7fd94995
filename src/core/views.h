// View operations: each returns a new Tensor on the same Storage whose base is the root
// tensor (Note [Views and bases] in tensor.h), plus reshape/flatten which view when they can.
#pragma once

#include <span>

#include "tensor.h"

namespace ct {

Ref<Tensor> view(const Tensor& t, IntList shape);            // throws NotViewable
Ref<Tensor> transpose(const Tensor& t, int64_t dim0, int64_t dim1);
Ref<Tensor> t(const Tensor& self);  // torch.t: <= 2-D; 0-D and 1-D unchanged (still a view)
Ref<Tensor> permute(const Tensor& t, std::span<const int> dims);
Ref<Tensor> slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step);
Ref<Tensor> narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Ref<Tensor> select(const Tensor& t, int64_t dim, int64_t index);
Ref<Tensor> expand(const Tensor& t, IntList sizes);
Ref<Tensor> squeeze(const Tensor& t, int64_t dim);
Ref<Tensor> squeeze_all(const Tensor& t);
Ref<Tensor> unsqueeze(const Tensor& t, int64_t dim);
Ref<Tensor> diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);
Ref<Tensor> unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step);
Ref<Tensor> as_strided(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset);
// detach(): same storage and metadata, not a view (no base).
Ref<Tensor> alias(const Tensor& t);

// A view when view_strides() allows one, else a contiguous copy.
Ref<Tensor> reshape(const Tensor& t, IntList shape);
bool reshape_is_view(const Tensor& t, IntList shape);
Ref<Tensor> flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);

// A view of t with new geometry on t's storage (base = t's root).  No checks.
Ref<Tensor> make_view(const Tensor& t, IntList sizes, IntList strides, int64_t offset);

}  // namespace ct
