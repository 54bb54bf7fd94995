// The split family and the other composite views (core/autograd/view_family.h), and the
// unsafe_* splits.  Multi-output functions follow the header's "Multi-output views" rules.
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/autograd/view_family.h"
#include "core/shape.h"
#include "core/views.h"

using namespace ct;
using namespace ct::capi;

namespace {

// An (n, array) pair of int64 values that are not dims (indices, lengths): any n >= 0.
IntList values_arg(int64_t n, const int64_t* p, const char* op, const char* what) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": n must be >= 0, got " << n);
  CT_CHECK(n == 0 || p != nullptr, InvalidArgument, op << ": " << what << " is NULL with n = " << n);
  return IntList(p, size_t(n));
}

// The header's output-array protocol: count(x) checks and counts, make(x) makes the views.
// out == NULL: only the count; cap < count: fails before any work; on error -1, out untouched.
template <class Count, class Make>
int64_t outputs_call(const char* op, ct_tensor** out, int64_t cap, Count&& count, Make&& make) {
  return guard<int64_t>(-1, [&]() -> int64_t {
    const int64_t n = count();
    if (!out) return n;
    CT_CHECK(cap >= n, InvalidArgument, op << ": " << n << " outputs do not fit in cap " << cap);
    std::vector<Ref<Tensor>> views = make();
    CT_CHECK(int64_t(views.size()) == n, Internal, op << ": made " << views.size() << " outputs, counted " << n);
    for (int64_t i = 0; i < n; ++i) out[i] = to_handle(std::move(views[size_t(i)]));
    return n;
  });
}

template <class Count, class Make>
int64_t tensor_outputs(const ct_tensor* t, const char* op, ct_tensor** out, int64_t cap, Count&& count, Make&& make) {
  return outputs_call(op, out, cap, [&] { return count(tensor_arg(t, op)); }, [&] { return make(tensor_arg(t, op)); });
}

int64_t directional_sections(const ct_tensor* t, char which, int64_t sections, const char* op, ct_tensor** out,
                             int64_t cap) {
  return tensor_outputs(
      t, op, out, cap,
      [&](const Tensor& x) {
        ag::check_directional_sections(x, which, sections);
        return ag::tensor_split_sections_count(x, sections, ag::directional_split_dim(x, which));
      },
      [&](const Tensor& x) { return ag::tensor_split_sections(x, sections, ag::directional_split_dim(x, which)); });
}

int64_t directional_indices(const ct_tensor* t, char which, int64_t n, const int64_t* indices, const char* op,
                            ct_tensor** out, int64_t cap) {
  return tensor_outputs(
      t, op, out, cap,
      [&](const Tensor& x) {
        const int d = ag::directional_split_dim(x, which);
        return ag::tensor_split_indices_count(x, values_arg(n, indices, op, "indices"), d);
      },
      [&](const Tensor& x) {
        return ag::tensor_split_indices(x, values_arg(n, indices, op, "indices"), ag::directional_split_dim(x, which));
      });
}

ct_tensor* single(const ct_tensor* t, const char* op, auto&& f) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(f(tensor_arg(t, op))); });
}

std::vector<const Tensor*> tensors_arg(int n, const ct_tensor* const* tensors, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": n must be >= 0, got " << n);
  CT_CHECK(n == 0 || tensors != nullptr, InvalidArgument, op << ": tensors is NULL with n = " << n);
  std::vector<const Tensor*> list;
  for (int i = 0; i < n; ++i) list.push_back(&tensor_arg(tensors[i], op, "tensors[i]"));
  return list;
}

}  // namespace

extern "C" {

// ---- tensor_split, hsplit, vsplit, dsplit -----------------------------------------------------

int64_t ct_tensor_split(const ct_tensor* t, int64_t sections, int dim, ct_tensor** out, int64_t cap) {
  return tensor_outputs(
      t, "ct_tensor_split", out, cap, [&](const Tensor& x) { return ag::tensor_split_sections_count(x, sections, dim); },
      [&](const Tensor& x) { return ag::tensor_split_sections(x, sections, dim); });
}

int64_t ct_tensor_split_indices(const ct_tensor* t, int64_t n, const int64_t* indices, int dim, ct_tensor** out,
                                int64_t cap) {
  const char* op = "ct_tensor_split_indices";
  return tensor_outputs(
      t, op, out, cap,
      [&](const Tensor& x) { return ag::tensor_split_indices_count(x, values_arg(n, indices, op, "indices"), dim); },
      [&](const Tensor& x) { return ag::tensor_split_indices(x, values_arg(n, indices, op, "indices"), dim); });
}

int64_t ct_tensor_split_tensor(const ct_tensor* t, const ct_tensor* indices_or_sections, int dim, ct_tensor** out,
                               int64_t cap) {
  const char* op = "ct_tensor_split_tensor";
  int64_t sections = 0;
  std::vector<int64_t> indices;
  bool is_sections = false;
  auto read = [&] {
    is_sections = ag::tensor_split_spec(tensor_arg(indices_or_sections, op, "indices_or_sections"), sections, indices);
  };
  return tensor_outputs(
      t, op, out, cap,
      [&](const Tensor& x) {
        read();
        return is_sections ? ag::tensor_split_sections_count(x, sections, dim)
                           : ag::tensor_split_indices_count(x, indices, dim);
      },
      [&](const Tensor& x) {
        return is_sections ? ag::tensor_split_sections(x, sections, dim) : ag::tensor_split_indices(x, indices, dim);
      });
}

int64_t ct_hsplit(const ct_tensor* t, int64_t sections, ct_tensor** out, int64_t cap) {
  return directional_sections(t, 'h', sections, "ct_hsplit", out, cap);
}
int64_t ct_vsplit(const ct_tensor* t, int64_t sections, ct_tensor** out, int64_t cap) {
  return directional_sections(t, 'v', sections, "ct_vsplit", out, cap);
}
int64_t ct_dsplit(const ct_tensor* t, int64_t sections, ct_tensor** out, int64_t cap) {
  return directional_sections(t, 'd', sections, "ct_dsplit", out, cap);
}
int64_t ct_hsplit_indices(const ct_tensor* t, int64_t n, const int64_t* indices, ct_tensor** out, int64_t cap) {
  return directional_indices(t, 'h', n, indices, "ct_hsplit_indices", out, cap);
}
int64_t ct_vsplit_indices(const ct_tensor* t, int64_t n, const int64_t* indices, ct_tensor** out, int64_t cap) {
  return directional_indices(t, 'v', n, indices, "ct_vsplit_indices", out, cap);
}
int64_t ct_dsplit_indices(const ct_tensor* t, int64_t n, const int64_t* indices, ct_tensor** out, int64_t cap) {
  return directional_indices(t, 'd', n, indices, "ct_dsplit_indices", out, cap);
}

// ---- unsafe splits ----------------------------------------------------------------------------

int64_t ct_unsafe_split(const ct_tensor* t, int64_t split_size, int dim, ct_tensor** out, int64_t cap) {
  return tensor_outputs(
      t, "ct_unsafe_split", out, cap, [&](const Tensor& x) { return split_count(x, split_size, dim); },
      [&](const Tensor& x) { return ag::unsafe_split(x, split_size, dim); });
}

int64_t ct_unsafe_split_with_sizes(const ct_tensor* t, int64_t n, const int64_t* split_sizes, int dim,
                                   ct_tensor** out, int64_t cap) {
  const char* op = "ct_unsafe_split_with_sizes";
  return tensor_outputs(
      t, op, out, cap,
      [&](const Tensor& x) { return split_with_sizes_count(x, values_arg(n, split_sizes, op, "split_sizes"), dim); },
      [&](const Tensor& x) { return ag::unsafe_split_with_sizes(x, values_arg(n, split_sizes, op, "split_sizes"), dim); });
}

int64_t ct_unsafe_chunk(const ct_tensor* t, int64_t chunks, int dim, ct_tensor** out, int64_t cap) {
  return tensor_outputs(
      t, "ct_unsafe_chunk", out, cap, [&](const Tensor& x) { return chunk_count(x, chunks, dim); },
      [&](const Tensor& x) { return ag::unsafe_chunk(x, chunks, dim); });
}

// ---- single views -----------------------------------------------------------------------------

ct_tensor* ct_unflatten(const ct_tensor* t, int dim, int ndim, const int64_t* sizes) {
  return single(t, "ct_unflatten", [&](const Tensor& x) {
    check_dims_array(ndim, sizes, "ct_unflatten", "sizes");
    return ag::unflatten(x, dim, IntList(sizes, size_t(ndim)));
  });
}

ct_tensor* ct_movedim(const ct_tensor* t, int n, const int* source, const int* destination) {
  return single(t, "ct_movedim", [&](const Tensor& x) {
    check_dims_array(n, source, "ct_movedim", "source");
    check_dims_array(n, destination, "ct_movedim", "destination");
    std::vector<int64_t> s(source, source + n), d(destination, destination + n);
    return ag::movedim(x, s, d);
  });
}

ct_tensor* ct_moveaxis(const ct_tensor* t, int n, const int* source, const int* destination) {
  return ct_movedim(t, n, source, destination);
}

ct_tensor* ct_swapaxes(const ct_tensor* t, int axis0, int axis1) {
  return single(t, "ct_swapaxes", [&](const Tensor& x) { return ag::transpose(x, axis0, axis1); });
}

ct_tensor* ct_swapdims(const ct_tensor* t, int dim0, int dim1) {
  return single(t, "ct_swapdims", [&](const Tensor& x) { return ag::transpose(x, dim0, dim1); });
}

ct_status ct_swapaxes_(ct_tensor* self, int axis0, int axis1) { return ct_transpose_(self, axis0, axis1); }
ct_status ct_swapdims_(ct_tensor* self, int dim0, int dim1) { return ct_transpose_(self, dim0, dim1); }

ct_tensor* ct_expand_as(const ct_tensor* t, const ct_tensor* other) {
  return single(t, "ct_expand_as",
                [&](const Tensor& x) { return ag::expand_as(x, tensor_arg(other, "ct_expand_as", "other")); });
}

ct_tensor* ct_view_as(const ct_tensor* t, const ct_tensor* other) {
  return single(t, "ct_view_as", [&](const Tensor& x) { return ag::view_as(x, tensor_arg(other, "ct_view_as", "other")); });
}

ct_tensor* ct_reshape_as(const ct_tensor* t, const ct_tensor* other) {
  return single(t, "ct_reshape_as",
                [&](const Tensor& x) { return ag::reshape_as(x, tensor_arg(other, "ct_reshape_as", "other")); });
}

ct_tensor* ct_broadcast_to(const ct_tensor* t, int ndim, const int64_t* sizes) {
  return single(t, "ct_broadcast_to", [&](const Tensor& x) {
    check_dims_array(ndim, sizes, "ct_broadcast_to", "sizes");
    return ag::broadcast_to(x, IntList(sizes, size_t(ndim)));
  });
}

int64_t ct_broadcast_tensors(int n, const ct_tensor* const* tensors, ct_tensor** out, int64_t cap) {
  const char* op = "ct_broadcast_tensors";
  std::vector<const Tensor*> list;
  return outputs_call(
      op, out, cap,
      [&] {
        list = tensors_arg(n, tensors, op);
        ag::broadcast_tensors_shape(list);
        return int64_t(n);
      },
      [&] { return ag::broadcast_tensors(list); });
}

int ct_broadcast_shapes(int n, const int* ndims, const int64_t* const* shapes, int64_t* out, int cap) {
  return guard<int>(-1, [&] {
    const char* op = "ct_broadcast_shapes";
    CT_CHECK(n >= 0, InvalidArgument, op << ": n must be >= 0, got " << n);
    CT_CHECK(n == 0 || (ndims && shapes), InvalidArgument, op << ": ndims or shapes is NULL with n = " << n);
    std::vector<IntList> list;
    for (int i = 0; i < n; ++i) {
      check_dims_array(ndims[i], shapes[i], op, "shapes[i]");
      list.emplace_back(shapes[i], size_t(ndims[i]));
    }
    const Shape r = ag::broadcast_shapes(list);
    if (!out) return int(r.size());
    CT_CHECK(int64_t(r.size()) <= cap, InvalidArgument, op << ": " << r.size() << " dims do not fit in cap " << cap);
    for (size_t i = 0; i < r.size(); ++i) out[i] = r[i];
    return int(r.size());
  });
}

ct_tensor* ct_atleast_1d(const ct_tensor* t) {
  return single(t, "ct_atleast_1d", [&](const Tensor& x) { return ag::atleast(x, 1); });
}
ct_tensor* ct_atleast_2d(const ct_tensor* t) {
  return single(t, "ct_atleast_2d", [&](const Tensor& x) { return ag::atleast(x, 2); });
}
ct_tensor* ct_atleast_3d(const ct_tensor* t) {
  return single(t, "ct_atleast_3d", [&](const Tensor& x) { return ag::atleast(x, 3); });
}

}  // extern "C"
