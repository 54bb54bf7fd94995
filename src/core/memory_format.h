// Memory formats: PyTorch's names for the dim orders a new tensor may be laid out in
// (c10/core/MemoryFormat.h), the rules that read a format off existing strides, and the
// copies and factories that take one.  The layout rule of elementwise outputs (TensorIterator)
// is elementwise.cpp's output_strides; reductions give contiguous outputs, as torch's.
#pragma once

#include "tensor.h"

namespace ct {

// The numbers are those of ct_memory_format (ABI).
enum class MemoryFormat : int { Contiguous = 0, ChannelsLast = 1, ChannelsLast3d = 2, Preserve = 3 };

// Validates a raw int from C; throws InvalidArgument naming op.
MemoryFormat checked_memory_format(int raw, const char* op);
// "contiguous_format", "channels_last", "channels_last_3d", "preserve_format".
const char* memory_format_name(MemoryFormat f);

// Strides of a new tensor of `sizes` in format f (Contiguous, ChannelsLast: 4-d only,
// ChannelsLast3d: 5-d only; torch's "required rank 4 tensor to use channels_last format"
// otherwise; Preserve: "unsupported memory format Preserve").  Channels-last strides use the
// raw sizes (a size-0 channel gives stride 0 elsewhere), contiguous ones max(size, 1).
Shape format_strides(IntList sizes, MemoryFormat f);

// torch's t.is_contiguous(f): f's dim order walked from the innermost dim, size-1 dims
// skipped, each stride the product of the sizes inside it.  Preserve reads as Contiguous;
// channels-last formats are false for other ranks.
bool is_contiguous_as(IntList sizes, IntList strides, MemoryFormat f);

// c10's is_channels_last_strides_2d/3d: strides that ORDER the dims as channels-last does,
// with or without gaps, and not ambiguously (N111 and N1H1-like ties go to contiguous).
bool strides_like_channels_last(IntList sizes, IntList strides);     // 4-d only
bool strides_like_channels_last_3d(IntList sizes, IntList strides);  // 5-d only

// torch's t.suggest_memory_format(): ChannelsLast / ChannelsLast3d when the strides are
// like them, else Contiguous.
MemoryFormat suggest_memory_format(const Tensor& t);

// Strides torch's empty_like(t, memory_format=f) gives: for Preserve, t's own strides when t
// is non-overlapping and dense, else dense strides in the order of t's (infer_dense_strides);
// for the others format_strides.
Shape like_strides(const Tensor& t, MemoryFormat f);

// Factories.  empty_format: torch.empty(sizes, memory_format=f).  empty_like / full_like:
// torch's empty_like / full_like (zeros_like, ones_like) with dtype and memory_format.
Ref<Tensor> empty_format(IntList sizes, DType dtype, MemoryFormat f, const char* op);
Ref<Tensor> empty_like(const Tensor& t, DType dtype, MemoryFormat f, const char* op);
Ref<Tensor> full_like(const Tensor& t, double value, DType dtype, MemoryFormat f, const char* op);

// torch.empty_strided(sizes, strides, dtype): the strides verbatim, a storage of the bytes they
// reach (none if a size is 0).  Checks in torch's order: a negative size ("Trying to create
// tensor with negative dimension"), unequal lengths ("dimensionality of sizes (2) must match
// dimensionality of strides (1)"), a byte count that overflows, negative strides included
// ("Storage size calculation overflowed with sizes=[2, 3] and strides=[-1, 1]").  A negative
// stride that survives (on a size-1 dim, or in an empty tensor) is replaced as c10's
// set_sizes_and_strides replaces it: 1 on the last dim, else the next dim's stride times its size.
Ref<Tensor> empty_strided_checked(IntList sizes, IntList strides, DType dtype, const char* op);

// Copies (no autograd; see autograd/functions.h).  clone_format: torch's t.clone(memory_format=f).
// contiguous_format: t itself (retained) if t.is_contiguous(f), else clone_format (Preserve
// then fails: "preserve memory format is unsupported by the contiguous operator").
// to_format: torch's t.to(dtype, memory_format=f, copy=copy): t itself when nothing changes
// (same dtype, no copy, and f is Preserve or t's suggested format), else a converted copy
// laid out as empty_like(t, f).
Ref<Tensor> clone_format(const Tensor& t, MemoryFormat f);
Ref<Tensor> contiguous_format(const Tensor& t, MemoryFormat f);
bool to_format_aliases(const Tensor& t, DType dtype, MemoryFormat f, bool copy);
Ref<Tensor> to_format(const Tensor& t, DType dtype, MemoryFormat f, bool copy);

}  // namespace ct
