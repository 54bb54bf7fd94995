// torch's *_copy ops (ctensor.h, "Copies of views"): each is its view op followed by a
// contiguous copy, recorded for autograd as torch's "<view node>_copy" (ag::copy_of_view).
#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/copy.h"
#include "core/dtype_view.h"
#include "core/shape.h"
#include "core/view_copies.h"
#include "core/views.h"

#include <memory>
#include <vector>

using namespace ct;
using namespace ct::capi;

namespace {
using ViewFn = std::function<Ref<Tensor>(const Tensor&)>;

IntList list_arg(int ndim, const int64_t* p, const char* op, const char* what) {
  check_dims_array(ndim, p, op, what);
  return IntList(p, size_t(ndim));
}

// The copy of the view `f` makes of t, recorded as `node`.
ct_tensor* copy_call(const ct_tensor* t, const char* op, const char* node, const ViewFn& f) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::copy_of_view(node, value_arg(t, op), f)); });
}

// The multi-output copies (unbind_copy, split_copy, split_with_sizes_copy): output i is the
// copy of view i, with its own node of torch's name whose backward replays view i (so the
// gradients of all outputs add up at the input, as through torch's one node).  count(x)
// checks the arguments first; out/cap as the multi-output views of ctensor.h.
template <class Count, class Views>
int64_t multi_copy_call(const ct_tensor* t, const char* op, const char* node, ct_tensor** out, int64_t cap,
                        Count&& count, Views&& views) {
  return guard<int64_t>(-1, [&]() -> int64_t {
    const Tensor& x = value_arg(t, op);
    const int64_t n = count(x);
    if (!out) return n;
    CT_CHECK(cap >= n, InvalidArgument, op << ": " << n << " outputs do not fit in cap " << cap);
    std::vector<Ref<Tensor>> made;
    made.reserve(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      made.push_back(ag::copy_of_view(node, x, [views, i](const Tensor& y) { return std::move(views(y)[size_t(i)]); }));
    }
    for (int64_t i = 0; i < n; ++i) out[i] = to_handle(std::move(made[size_t(i)]));
    return n;
  });
}

IntList lengths_arg(int64_t n, const int64_t* p, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": n must be >= 0, got " << n);
  CT_CHECK(n == 0 || p != nullptr, InvalidArgument, op << ": split_sizes is NULL with n = " << n);
  return IntList(p, size_t(n));
}
}  // namespace

extern "C" {

ct_tensor* ct_view_copy(const ct_tensor* t, int ndim, const int64_t* shape) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_view_copy");
    const Shape s = infer_size(list_arg(ndim, shape, "ct_view_copy", "shape"), x.numel(), "view_copy");
    // torch's view_copy reshapes (copies) where the strides forbid a view: it never fails on them
    return to_handle(ag::copy_of_view("ViewBackward0_copy", x, [s](const Tensor& y) { return ct::reshape(y, s); }));
  });
}

ct_tensor* ct_view_dtype_copy(const ct_tensor* t, ct_dtype dtype) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_view_dtype_copy");
    Ref<Tensor> v = view_dtype(x, dtype_arg(dtype, "ct_view_dtype_copy"));
    return to_handle(copy_to_new(*v, v->dtype()));  // not differentiable, as view(dtype)
  });
}

ct_tensor* ct_permute_copy(const ct_tensor* t, int ndim, const int* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    check_dims_array(ndim, dims, "ct_permute_copy", "dims");
    std::vector<int> p(dims, dims + ndim);
    return to_handle(ag::copy_of_view("PermuteBackward0_copy", value_arg(t, "ct_permute_copy"),
                                      [p](const Tensor& y) { return ct::permute(y, p); }));
  });
}

ct_tensor* ct_transpose_copy(const ct_tensor* t, int dim0, int dim1) {
  return copy_call(t, "ct_transpose_copy", "TransposeBackward0_copy",
                   [=](const Tensor& y) { return ct::transpose(y, dim0, dim1); });
}

ct_tensor* ct_t_copy(const ct_tensor* t) {
  return copy_call(t, "ct_t_copy", "TBackward0_copy", [](const Tensor& y) { return ct::t(y); });
}

ct_tensor* ct_diagonal_copy(const ct_tensor* t, int64_t offset, int dim1, int dim2) {
  return copy_call(t, "ct_diagonal_copy", "DiagonalBackward0_copy",
                   [=](const Tensor& y) { return ct::diagonal(y, offset, dim1, dim2); });
}

ct_tensor* ct_expand_copy(const ct_tensor* t, int ndim, const int64_t* sizes) {
  return guard<ct_tensor*>(nullptr, [&] {
    const IntList l = list_arg(ndim, sizes, "ct_expand_copy", "sizes");
    const Shape s(l.begin(), l.end());
    return to_handle(ag::copy_of_view("ExpandBackward0_copy", value_arg(t, "ct_expand_copy"),
                                      [s](const Tensor& y) { return ct::expand(y, s); }));
  });
}

ct_tensor* ct_narrow_copy(const ct_tensor* t, int dim, int64_t start, int64_t length) {
  return guard<ct_tensor*>(nullptr, [&] {
    const Tensor& x = value_arg(t, "ct_narrow_copy");
    const int64_t d = check_narrow_copy(x, dim, start, length);
    return to_handle(ag::copy_of_view("NarrowCopyBackward0", x,
                                      [=](const Tensor& y) { return ct::narrow(y, d, start, length); }));
  });
}

ct_tensor* ct_select_copy(const ct_tensor* t, int dim, int64_t index) {
  return copy_call(t, "ct_select_copy", "SelectBackward0_copy",
                   [=](const Tensor& y) { return ct::select(y, dim, index); });
}

ct_tensor* ct_slice_copy(const ct_tensor* t, int dim, int64_t start, int64_t stop, int64_t step) {
  return copy_call(t, "ct_slice_copy", "SliceBackward0_copy",
                   [=](const Tensor& y) { return ct::slice(y, dim, start, stop, step); });
}

ct_tensor* ct_squeeze_copy(const ct_tensor* t, int dim) {
  return copy_call(t, "ct_squeeze_copy", "SqueezeBackward1_copy",
                   [=](const Tensor& y) { return ct::squeeze(y, dim); });
}

ct_tensor* ct_squeeze_all_copy(const ct_tensor* t) {
  return copy_call(t, "ct_squeeze_all_copy", "SqueezeBackward0_copy",
                   [](const Tensor& y) { return ct::squeeze_all(y); });
}

ct_tensor* ct_squeeze_dims_copy(const ct_tensor* t, int ndims, const int* dims) {
  return guard<ct_tensor*>(nullptr, [&] {
    check_dims_array(ndims, dims, "ct_squeeze_dims_copy", "dims");
    const std::vector<int> list(dims, dims + ndims);  // kept by the node, which replays the view
    return to_handle(ag::copy_of_view("SqueezeBackward2_copy", value_arg(t, "ct_squeeze_dims_copy"),
                                      [list](const Tensor& y) { return ct::squeeze_dims(y, list); }));
  });
}

ct_tensor* ct_unsqueeze_copy(const ct_tensor* t, int dim) {
  return copy_call(t, "ct_unsqueeze_copy", "UnsqueezeBackward0_copy",
                   [=](const Tensor& y) { return ct::unsqueeze(y, dim); });
}

ct_tensor* ct_unfold_copy(const ct_tensor* t, int dim, int64_t size, int64_t step) {
  return copy_call(t, "ct_unfold_copy", "UnfoldBackward0_copy",
                   [=](const Tensor& y) { return ct::unfold(y, dim, size, step); });
}

ct_tensor* ct_alias_copy(const ct_tensor* t) {
  return copy_call(t, "ct_alias_copy", "AliasBackward0_copy", [](const Tensor& y) { return ct::alias_view(y); });
}

ct_tensor* ct_as_strided_copy(const ct_tensor* t, int ndim, const int64_t* sizes, const int64_t* strides,
                              int64_t storage_offset) {
  return guard<ct_tensor*>(nullptr, [&] {
    return to_handle(ag::as_strided_copy(value_arg(t, "ct_as_strided_copy"),
                                         list_arg(ndim, sizes, "ct_as_strided_copy", "sizes"),
                                         list_arg(ndim, strides, "ct_as_strided_copy", "strides"), storage_offset));
  });
}

ct_tensor* ct_detach_copy(const ct_tensor* t) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(ag::detach_copy(value_arg(t, "ct_detach_copy"))); });
}

int64_t ct_unbind_copy(const ct_tensor* t, int dim, ct_tensor** out, int64_t cap) {
  return multi_copy_call(
      t, "ct_unbind_copy", "UnbindBackward0_copy", out, cap, [&](const Tensor& x) { return unbind_count(x, dim); },
      [dim](const Tensor& y) { return ct::unbind(y, dim); });
}

int64_t ct_split_copy(const ct_tensor* t, int64_t split_size, int dim, ct_tensor** out, int64_t cap) {
  return multi_copy_call(
      t, "ct_split_copy", "SplitBackward0_copy", out, cap,
      [&](const Tensor& x) { return split_count(x, split_size, dim); },
      [=](const Tensor& y) { return ct::split(y, split_size, dim); });
}

int64_t ct_split_with_sizes_copy(const ct_tensor* t, int64_t n, const int64_t* split_sizes, int dim,
                                 ct_tensor** out, int64_t cap) {
  // The lengths are read (and checked) inside the guard, when count runs first; shared, as
  // every output's backward replays the split with them after this call has returned.
  auto sizes = std::make_shared<std::vector<int64_t>>();
  return multi_copy_call(
      t, "ct_split_with_sizes_copy", "SplitWithSizesBackward0_copy", out, cap,
      [&](const Tensor& x) {
        const IntList l = lengths_arg(n, split_sizes, "ct_split_with_sizes_copy");
        sizes->assign(l.begin(), l.end());
        return split_with_sizes_count(x, *sizes, dim);
      },
      [sizes, dim](const Tensor& y) { return ct::split_with_sizes(y, *sizes, dim); });
}

}  // extern "C"
