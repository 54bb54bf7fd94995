// Autograd-aware versions of the core ops: each calls the core op of the same name and,
// when grad mode is on and an input requires grad, records the backward node torch 2.13
// records (same name), saving what backward needs.  When no input has autograd state the
// extra cost is one well-predicted branch per input (needs_grad in meta.h).  The C API
// calls these; the core ops themselves never record anything (backward uses them).
#pragma once

#include <complex>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/ops/binary_math.h"
#include "core/ops/elementwise.h"
#include "core/ops/reduce.h"
#include "core/gather_scatter.h"
#include "core/memory_format.h"
#include "core/tensor.h"

namespace ct::ag {

Ref<Tensor> binary(BinaryOp op, Operand a, Operand b);
void binary_(BinaryOp op, const Tensor& self, Operand other);
// add / sub with alpha (ct::add_scaled): AddBackward0 / SubBackward0, other's gradient
// scaled by alpha (torch's maybe_multiply).
Ref<Tensor> add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha);
void add_scaled_(BinaryOp op, const Tensor& self, const Tensor& other, double alpha);
Ref<Tensor> unary(UnaryOp op, const Tensor& a);
void unary_(UnaryOp op, const Tensor& self);
Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);
void fill_(const Tensor& self, double value);
void fill_(const Tensor& self, const Tensor& value);  // torch's fill_(Tensor): FillBackward3
// torch's fill_ with a complex number (FillBackward2); a real self takes one whose imaginary
// part is 0 (torch's message otherwise).
void fill_complex_(const Tensor& self, std::complex<double> value);
void zero_(const Tensor& self);
Ref<Tensor> cat(std::span<const Tensor* const> tensors, int64_t dim);
Ref<Tensor> stack(std::span<const Tensor* const> tensors, int64_t dim);

Ref<Tensor> sum(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> mean(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> prod(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> amax(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
Ref<Tensor> amin(const Tensor& t, std::span<const int64_t> dims, bool keepdim);
// torch's t.max() / t.min() (MaxBackward1 / MinBackward1), t.max(dim) / t.min(dim)
// (values record MaxBackward0 / MinBackward0), torch.maximum / minimum.
Ref<Tensor> max_all(const Tensor& t, bool max);
ValuesIndices max_dim(const Tensor& t, int64_t dim, bool keepdim, bool max);
Ref<Tensor> maximum(const Tensor& a, const Tensor& b, bool max);
// pow (PowBackward0/1/2), remainder (RemainderBackward0/1), fmod (FmodBackward0/1) and
// floor_divide (torch's NotImplemented node, kNotImplementedNode: backward through it refuses).
Ref<Tensor> math_binary(MathOp op, Operand a, Operand b);
void math_binary_(MathOp op, const Tensor& self, Operand other);
Ref<Tensor> pow_int(const Tensor& a, int64_t exponent);
void pow_int_(const Tensor& self, int64_t exponent);
Ref<Tensor> matmul(const Tensor& a, const Tensor& b);
Ref<Tensor> vdot(const Tensor& a, const Tensor& b);  // complex a, b (VdotBackward0)

Ref<Tensor> view(const Tensor& t, IntList shape);
Ref<Tensor> transpose(const Tensor& t, int64_t dim0, int64_t dim1);
Ref<Tensor> t(const Tensor& self);
Ref<Tensor> permute(const Tensor& t, std::span<const int> dims);
// x.T: permute with the dims reversed (PermuteBackward0, as torch's numpy_T).
Ref<Tensor> numpy_T(const Tensor& t);
Ref<Tensor> slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step);
// n slices (dims 0 .. n-1) in one view; recording a graph, n slice() calls (SliceBackward0
// each, as torch has no fused op); n == 0: alias_view.
Ref<Tensor> slice_dims(const Tensor& t, IntList starts, IntList stops, IntList steps);
Ref<Tensor> narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Ref<Tensor> select(const Tensor& t, int64_t dim, int64_t index);
Ref<Tensor> expand(const Tensor& t, IntList sizes);
Ref<Tensor> squeeze(const Tensor& t, int64_t dim);
Ref<Tensor> squeeze_all(const Tensor& t);
Ref<Tensor> squeeze_dims(const Tensor& t, std::span<const int> dims);
Ref<Tensor> unsqueeze(const Tensor& t, int64_t dim);
Ref<Tensor> diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);
Ref<Tensor> unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step);
Ref<Tensor> as_strided(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset);
Ref<Tensor> alias_view(const Tensor& t);  // AliasBackward0
// Multi-output views (Note [Multi-output views] in functions.cpp).
std::vector<Ref<Tensor>> unbind(const Tensor& t, int64_t dim);
std::vector<Ref<Tensor>> split(const Tensor& t, int64_t split_size, int64_t dim);
std::vector<Ref<Tensor>> split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim);
std::vector<Ref<Tensor>> chunk(const Tensor& t, int64_t chunks, int64_t dim);
// torch's unsafe_* forms: the same pieces, not views (Note in functions.cpp).
std::vector<Ref<Tensor>> unsafe_split(const Tensor& t, int64_t split_size, int64_t dim);
std::vector<Ref<Tensor>> unsafe_split_with_sizes(const Tensor& t, IntList split_sizes, int64_t dim);
std::vector<Ref<Tensor>> unsafe_chunk(const Tensor& t, int64_t chunks, int64_t dim);
Ref<Tensor> reshape(const Tensor& t, IntList shape);
Ref<Tensor> flatten(const Tensor& t, int64_t start_dim, int64_t end_dim);

Ref<Tensor> clone(const Tensor& t);
Ref<Tensor> contiguous(const Tensor& t);
Ref<Tensor> to_dtype(const Tensor& t, DType dtype);
Ref<Tensor> clone_format(const Tensor& t, MemoryFormat f);       // CloneBackward0
Ref<Tensor> contiguous_format(const Tensor& t, MemoryFormat f);  // CloneBackward0 when it copies
Ref<Tensor> to_format(const Tensor& t, DType dtype, MemoryFormat f, bool copy);  // ToCopyBackward0
Ref<Tensor> index_select(const Tensor& t, int64_t dim, const Tensor& index);
void copy_into(const Tensor& dst, const Tensor& src, const char* op = "copy_");

// torch's *_copy ops (view_copy, permute_copy, ...; Note [Copies of views] in functions.cpp):
// what view(t) returns, as a new contiguous tensor on a new storage.  Autograd records
// `name`, torch's "<view's node>_copy", whose backward is the view's.
Ref<Tensor> copy_of_view(const char* name, const Tensor& t, const std::function<Ref<Tensor>(const Tensor&)>& view);
Ref<Tensor> as_strided_copy(const Tensor& t, IntList sizes, IntList strides, int64_t storage_offset);
// torch's detach_copy: a copy of t that requires grad when t does, with the node torch
// records, NotImplemented (backward through it fails: torch has no derivative for it).
Ref<Tensor> detach_copy(const Tensor& t);
// std / var (StdBackward0 / VarBackward0); std_mean / var_mean return {std or var, mean},
// each output with its own StdMeanBackward0 / VarMeanBackward0 node (torch records one node
// with two outputs; the engine here runs single-output nodes, and the two gradients add up
// to torch's, as in Note [Multi-output views]); linalg.vector_norm (LinalgVectorNormBackward0,
// torch's norm_backward, with its subgradient 0 where the norm is 0).
Ref<Tensor> var(const Tensor& t, std::span<const int64_t> dims, double correction, bool keepdim, bool take_sqrt);
std::pair<Ref<Tensor>, Ref<Tensor>> var_mean(const Tensor& t, std::span<const int64_t> dims, double correction,
                                             bool keepdim, bool take_sqrt);
Ref<Tensor> vector_norm(const Tensor& t, double ord, std::span<const int64_t> dims, bool keepdim,
                        std::optional<DType> dtype);
// repeat / tile (RepeatBackward0), flip (FlipBackward0), roll (RollBackward0).
Ref<Tensor> repeat(const Tensor& t, IntList reps);
Ref<Tensor> tile(const Tensor& t, IntList reps);
Ref<Tensor> flip(const Tensor& t, IntList dims);
Ref<Tensor> roll(const Tensor& t, IntList shifts, IntList dims);

// gather (GatherBackward0), scatter (ScatterBackward0 with src, ScatterBackward1 with a value,
// torch's NotImplemented node with reduce=), scatter_add (ScatterAddBackward0), index_add /
// index_copy / index_fill (IndexAddBackward0, IndexCopyBackward0, IndexFillBackward0 / 1 for
// a tensor value), take (TakeBackward0), put (PutBackward0), index_put (IndexPutBackward0).
// `inplace` writes into self and returns it (retained); otherwise a new tensor.
Ref<Tensor> gather(const Tensor& self, int64_t dim, const Tensor& index);
Ref<Tensor> scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, double value,
                    ScatterReduce reduce, bool is_add, bool inplace);
Ref<Tensor> index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, double alpha,
                      bool inplace);
Ref<Tensor> index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, bool inplace);
Ref<Tensor> index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value, double number,
                       bool inplace);
Ref<Tensor> take(const Tensor& self, const Tensor& index);
Ref<Tensor> put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate, bool inplace);
Ref<Tensor> index_put(const Tensor& self, std::span<const Tensor* const> indices, const Tensor& values,
                      bool accumulate, bool inplace);
// scatter_reduce / scatter_reduce_ (ScatterReduceBackward0, torch's gradient for every reduce;
// reduce as core's scatter_reduce_op, and backward refuses "max" / "min" as torch does).
Ref<Tensor> scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const char* reduce,
                           bool include_self, bool inplace);
// advanced indexing's read, self[indices] (IndexBackward0); indices as core's index_get (nullptr:
// a whole dim).
Ref<Tensor> index(const Tensor& self, std::span<const Tensor* const> indices);

// Complex views and math bits (Note [Complex autograd] in meta.cpp), with torch 2.13's
// nodes: conj (ConjBackward0), _neg_view (NegViewBackward0), view_as_real
// (ViewAsRealBackward0), view_as_complex (ViewAsComplexBackward0), conj_physical
// (ConjPhysicalBackward0), resolve_conj / resolve_neg (CloneBackward0 when they copy), and
// real / imag as torch composes them (view_as_real of t, or of t's _conj for a conj t, then
// select: SelectBackward0; imag of a conj t through _neg_view).
Ref<Tensor> conj(const Tensor& t);
Ref<Tensor> neg_view(const Tensor& t);
Ref<Tensor> view_as_real(const Tensor& t);
Ref<Tensor> view_as_complex(const Tensor& t);
Ref<Tensor> conj_physical(const Tensor& t);
void conj_physical_(const Tensor& self);  // on a tensor without bits, as core's
Ref<Tensor> resolve_conj(const Tensor& t);
Ref<Tensor> resolve_neg(const Tensor& t);
Ref<Tensor> real(const Tensor& t);
Ref<Tensor> imag(const Tensor& t);

}  // namespace ct::ag

// ---- scans, sort, topk, clamp (core/scan_sort.h) ----------------------------------------------
namespace ct { struct ClampBound; }
namespace ct::ag {
// cumsum / cumprod (CumsumBackward0 / CumprodBackward0, exact with zeros) and their in-place
// forms; sort (SortBackward0 on the values), topk (TopkBackward0); clamp with scalar bounds
// (ClampBackward1), tensor bounds (ClampBackward0), clamp_min / clamp_max (ClampMinBackward0 /
// ClampMaxBackward0 for a scalar, ...Backward1 for a tensor).  `op` is the torch op name:
// "clamp", "clamp_min" or "clamp_max" (the last two take one bound, in lo or hi).
Ref<Tensor> cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype);
Ref<Tensor> cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype);
void cumsum_(const Tensor& self, int64_t dim, std::optional<DType> dtype);
void cumprod_(const Tensor& self, int64_t dim, std::optional<DType> dtype);
ValuesIndices sort(const Tensor& t, int64_t dim, bool descending, bool stable);
ValuesIndices topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted);
Ref<Tensor> clamp(const Tensor& t, const ClampBound& lo, const ClampBound& hi, const char* op);
void clamp_(const Tensor& self, const ClampBound& lo, const ClampBound& hi, const char* op);
}  // namespace ct::ag
