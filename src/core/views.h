// View operations: each returns a new Tensor on the same Storage whose base is the root
// tensor (Note [Views and bases] in tensor.h), plus reshape/flatten which view when they can.
#pragma once

#include <span>
#include <vector>

#include "tensor.h"

namespace ct {

Ref<Tensor> view(const Tensor& t, IntList shape);            // throws NotViewable
Ref<Tensor> transpose(const Tensor& t, int64_t dim0, int64_t dim1);
Ref<Tensor> t(const Tensor& self);  // torch.t: <= 2-D; 0-D and 1-D unchanged (still a view)
Ref<Tensor> permute(const Tensor& t, std::span<const int> dims);
// numpy's a.T, torch's x.T: the dims reversed (permute(t, [n-1, ..., 0]), with nothing to check).
Ref<Tensor> reverse_dims(const Tensor& t);
Ref<Tensor> slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step);
// slice of dims 0 .. n-1 (n = starts.size(), the three lists of one length) in one view: the
// geometry, checks and errors of n slice() calls, dim after dim, without the n - 1 views
// between (Python's t[a:b, c:d]).
Ref<Tensor> slice_dims(const Tensor& t, IntList starts, IntList stops, IntList steps);
Ref<Tensor> narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Ref<Tensor> select(const Tensor& t, int64_t dim, int64_t index);
Ref<Tensor> expand(const Tensor& t, IntList sizes);
Ref<Tensor> squeeze(const Tensor& t, int64_t dim);
Ref<Tensor> squeeze_all(const Tensor& t);
// torch 2.x's squeeze(dims): each listed dim of size 1 removed (others kept), in one view;
// a dim listed twice fails ("dim 0 appears multiple times in the list of dims").
Ref<Tensor> squeeze_dims(const Tensor& t, std::span<const int> dims);
Ref<Tensor> unsqueeze(const Tensor& t, int64_t dim);
Ref<Tensor> diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);
Ref<Tensor> unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step);
Ref<Tensor> as_strided(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset);
// detach(): same storage, metadata and version counter, not a view (no base).
Ref<Tensor> alias(const Tensor& t);
// torch's x.data: same storage and metadata, not a view, with a fresh version counter.
Ref<Tensor> data_of(const Tensor& t);
// torch's aten::alias (x[...], x[()]): a view with t's geometry (base = t's root).
Ref<Tensor> alias_view(const Tensor& t);

// Multi-output views (torch's unbind, split, split_with_sizes, chunk): views of t along dim,
// in order.  unbind selects every index; split cuts pieces of split_size (the last may be
// shorter; one piece if split_size exceeds the dim, or if both are 0); split_with_sizes cuts
// the given lengths, which must be >= 0 and sum to the dim's size; chunk splits into pieces
// of ceil(size / chunks) (split_with_sizes of `chunks` empty pieces when the dim is empty).
// Errors and messages are torch 1.13's.
// The *_count functions make the same checks and return how many views the op would make,
// without making any (the C API's count-first call, and its cap check before any work: an
// empty [2^40, 0] tensor unbinds into 2^40 views).
int64_t unbind_count(const Tensor& t, int64_t dim);
int64_t split_count(const Tensor& t, int64_t split_size, int64_t dim);
int64_t split_with_sizes_count(const Tensor& t, IntList split_sizes, int64_t dim);
int64_t chunk_count(const Tensor& t, int64_t chunks, int64_t dim);
std::vector<Ref<Tensor>> unbind(const Tensor& t, int64_t dim);
std::vector<Ref<Tensor>> split(const Tensor& t, int64_t split_size, int64_t dim);
std::vector<Ref<Tensor>> split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim);
// Whether chunk(t, chunks, dim) is torch's split_with_sizes (empty dim) rather than split;
// sets split_size to the piece length of the split case.
bool chunk_is_split_with_sizes(const Tensor& t, int64_t chunks, int64_t dim, int64_t& split_size);
std::vector<Ref<Tensor>> chunk(const Tensor& t, int64_t chunks, int64_t dim);

// A view when view_strides() allows one, else a contiguous copy.
Ref<Tensor> reshape(const Tensor& t, IntList shape);
bool reshape_is_view(const Tensor& t, IntList shape);
Ref<Tensor> flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);

// A view of t with new geometry on t's storage (base = t's root).  No checks.
Ref<Tensor> make_view(const Tensor& t, IntList sizes, IntList strides, int64_t offset);

}  // namespace ct
