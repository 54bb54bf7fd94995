// The indexed copies torch pairs with views: gather / scatter / scatter_add along a dim,
// index_add / index_copy / index_fill of whole slices, take / put on the flattened tensor,
// and index_put with a tuple of index tensors (advanced indexing's write).  Checks, messages
// and error kinds follow torch 2.13 (the C API documents them).
//
// The in-place forms (ending in _) write into self: they refuse a self whose elements share
// memory (CT_ERR_OVERLAP) or a read-only one, refuse a source or index that shares memory
// with self (torch's "some elements of the input tensor and the written-to tensor refer to a
// single memory location"), check every index before writing anything (so a failure leaves
// self unchanged), and bump self's version once.  The out-of-place forms are a copy of self
// (on a new storage, laid out as torch lays out each op's result) written in place.
#pragma once

#include <span>

#include "tensor.h"

namespace ct {

enum class ScatterReduce { None, Add, Multiply };

// torch.gather: out[p] = self[p with p[dim] replaced by index[p]]; index int64 or int32, of
// self's ndim, no larger than self apart from dim.  Result: index's sizes, C order.
Ref<Tensor> gather(const Tensor& self, int64_t dim, const Tensor& index);

// torch's scatter_ / scatter_(reduce=) / scatter_add_: self[p with p[dim] = index[p]] =
// (or += or *=) src[p] (src == nullptr: the number value).  `op` names the op in messages
// ("scatter", "scatter_add").
void scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
              ScatterReduce reduce, const char* op);
Ref<Tensor> scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
                    ScatterReduce reduce, const char* op);

// Slices of self along dim picked by a 0-D or 1-D index: index_add (self[.., index[i], ..] +=
// alpha * source[.., i, ..]), index_copy (= source slice), index_fill (= value; the tensor
// form takes a 0-dim value, converted as copy_ converts).
void index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha);
Ref<Tensor> index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha);
void index_copy_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Ref<Tensor> index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
void index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number);
Ref<Tensor> index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number);

// torch.take: self read as if flattened in C order at index (int64; negatives count from
// the end).  Result: index's sizes, C order.
Ref<Tensor> take(const Tensor& self, const Tensor& index);
// torch's put_: self's C-order element index[i] = (or += with accumulate) source's i-th.
void put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
Ref<Tensor> put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);

// torch's index_put_: indices (int64, int32, bool or uint8 masks; a k-dim mask stands for the
// k index tensors of its nonzero positions; nullptr for a whole dim, as a ':' in x[:, i]) index
// self's dims from the first; they broadcast together to B, and values broadcasts to the
// indexing result's sizes (below).  accumulate adds (duplicates add up), otherwise the last
// write of a duplicate wins.
void index_put_(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values, bool accumulate);
Ref<Tensor> index_put(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values,
                      bool accumulate);
// self[indices] (advanced indexing's read with the same indices), C order: B in place of the
// indexed dims when they are adjacent (x[:, i] of [4, 3, 5] with i of [2]: [4, 2, 5]), else B
// followed by the dims not indexed (torch's transposeToFront).
Ref<Tensor> index_get(const Tensor& self, std::span<const Tensor* const> indices);

// torch's scatter_reduce_(dim, index, src, reduce, include_self): self[p with p[dim] =
// index[p]] combined with src[p] by sum, prod, mean, amax or amin (NaN wins for amax/amin);
// without include_self the positions written start from the reduction's identity instead of
// self's value.  mean divides each written position by its count of contributions (+1 with
// include_self), flooring for integer dtypes; not for bool (torch's NotImplementedError
// message).  Index int64 or int32; the shapes, dtype and index checks and messages are
// scatter's.  The out-of-place form writes into a C-order copy of self.
enum class ScatterReduceOp { Sum, Prod, Mean, Amax, Amin };
// "sum", "prod", "mean", "amax", "amin", or torch's undocumented "max" / "min" (amax / amin);
// torch's message for anything else.
ScatterReduceOp scatter_reduce_op(const char* reduce);
void scatter_reduce_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduceOp op,
                     bool include_self);
Ref<Tensor> scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           ScatterReduceOp op, bool include_self);

}  // namespace ct
