// In-place metadata ops (torch's set_, resize_, as_strided_, t_, transpose_, squeeze_,
// unsqueeze_, `x.data = y`, detach_): they change what a tensor looks at and keep its
// identity, base, autograd state and version counter (Note [Mutable metadata] in tensor.h).
// Version bumps, checks and messages are torch 2.13's.
//
// Autograd, as torch 2.13 with grad mode on: check_inplace runs first (a leaf requiring grad,
// a view of one, a view made in no_grad mode or by a multi-output op are refused with torch's
// messages).  A non-leaf that requires grad then records torch's node: t_ TBackward1,
// transpose_ TransposeBackward1, squeeze_ SqueezeBackward3 / SqueezeBackward4 (with a dim),
// unsqueeze_ UnsqueezeBackward1, as_strided_ AsStridedBackward1 — each becomes self's own
// grad_fn, a view's base keeping its history — and set_ the NotImplemented node (also when
// only the source requires grad), recorded as an ordinary in-place op (CopySlices on a view's
// base); backward through it fails.  resize_ refuses any tensor that requires grad.
#pragma once

#include <optional>

#include "core/memory_format.h"
#include "core/tensor.h"

namespace ct {

// x.set_(source): source's storage, offset, sizes and strides (same dtype); no-op but a bump
// when source is x.
void set_(Tensor& self, const Tensor& source);
// x.set_(storage, offset, sizes, strides): grows a resizable storage that is too small.
// strides empty with sizes given: contiguous.
void set_storage_(Tensor& self, Storage& storage, int64_t offset, IntList sizes, const int64_t* strides);
// x.set_(storage): 1-D over the whole storage (nbytes / itemsize elements), offset 0.
void set_storage_whole_(Tensor& self, Storage& storage);
// x.set_(): an empty resizable storage, sizes [0], strides [1].
void set_empty_(Tensor& self);
bool is_set_to(const Tensor& self, const Tensor& other);

// fmt: torch's memory_format= (nullopt: not given).  Equal sizes keep the strides unless a
// format is given (then restrided to it, still without a bump, as torch 2.13); new sizes get
// the format's strides (contiguous when not given) and a bump.  Preserve and a format of the
// wrong rank are refused before anything changes (torch resizes first, then fails).
void resize_(Tensor& self, IntList sizes, std::optional<MemoryFormat> fmt = std::nullopt);
void resize_as_(Tensor& self, const Tensor& other);
void as_strided_(Tensor& self, IntList sizes, IntList strides, int64_t offset);
void t_(Tensor& self);
void transpose_(Tensor& self, int64_t dim0, int64_t dim1);
void squeeze_(Tensor& self);
void squeeze_dim_(Tensor& self, int64_t dim);
void unsqueeze_(Tensor& self, int64_t dim);

// `self.data = src`: src's storage and geometry (any dtype), no bump, self keeps its counter.
void set_data(Tensor& self, const Tensor& src);
// torch's detach_(): refuses views; clears requires_grad and grad_fn; no bump.
void detach_(Tensor& self);

}  // namespace ct
