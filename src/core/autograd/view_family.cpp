#include "core/autograd/view_family.h"

#include <algorithm>
#include <cstring>

#include "core/autograd/functions.h"
#include "core/dtype.h"
#include "core/ops/promote.h"
#include "core/shape.h"

namespace ct::ag {
namespace {

void check_split_rank(const Tensor& t) {
  CT_CHECK(t.ndim() > 0, InvalidArgument,
           "tensor_split expected at least a 1-dimensional tensor, but got a tensor with " << t.ndim() << " dims");
}

const char* directional_name(char which) {
  return which == 'h' ? "torch.hsplit" : which == 'v' ? "torch.vsplit" : "torch.dsplit";
}

}  // namespace

// ---- tensor_split (torch's tensor_split_sections_symint / tensor_split_indices) ------------

int64_t tensor_split_sections_count(const Tensor& t, int64_t sections, int64_t dim) {
  check_split_rank(t);
  wrap_dim(dim, t.ndim());
  CT_CHECK(sections > 0, InvalidArgument, "number of sections must be larger than 0, got " << sections);
  return sections;
}

std::vector<Ref<Tensor>> tensor_split_sections(const Tensor& t, int64_t sections, int64_t dim) {
  tensor_split_sections_count(t, sections, dim);
  const int d = wrap_dim(dim, t.ndim());
  const int64_t size = t.size(d), min_len = size / sections, longer = size % sections;
  std::vector<Ref<Tensor>> out;
  out.reserve(size_t(sections));
  int64_t start = 0;  // never past size: no overflow
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = min_len + (i < longer ? 1 : 0);
    out.push_back(slice(t, d, start, start + len, 1));
    start += len;
  }
  return out;
}

int64_t tensor_split_indices_count(const Tensor& t, IntList indices, int64_t dim) {
  check_split_rank(t);
  wrap_dim(dim, t.ndim());
  return int64_t(indices.size()) + 1;
}

std::vector<Ref<Tensor>> tensor_split_indices(const Tensor& t, IntList indices, int64_t dim) {
  tensor_split_indices_count(t, indices, dim);
  const int d = wrap_dim(dim, t.ndim());
  std::vector<Ref<Tensor>> out;
  out.reserve(indices.size() + 1);
  int64_t start = 0;
  for (int64_t end : indices) {  // torch's slice: each bound wraps once and clamps
    out.push_back(slice(t, d, start, end, 1));
    start = end;
  }
  out.push_back(slice(t, d, start, t.size(d), 1));
  return out;
}

bool tensor_split_spec(const Tensor& spec, int64_t& sections, std::vector<int64_t>& indices) {
  CT_CHECK(spec.dtype() == DType::Int64, InvalidArgument,
           "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
               << torch_scalar_type_name(spec.dtype()));
  CT_CHECK(spec.ndim() <= 1, InvalidArgument,
           "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but "
           "got a tensor with "
               << spec.ndim() << " dims");
  const char* base = spec.raw_data();
  auto at = [&](int64_t i) {
    int64_t v;
    std::memcpy(&v, base + i * spec.stride(0) * int64_t(sizeof v), sizeof v);
    return v;
  };
  if (spec.ndim() == 0) {
    std::memcpy(&sections, base, sizeof sections);
    return true;
  }
  indices.resize(size_t(spec.size(0)));
  for (int64_t i = 0; i < spec.size(0); ++i) indices[size_t(i)] = at(i);
  return false;
}

int directional_split_dim(const Tensor& t, char which) {
  const int need = which == 'h' ? 1 : which == 'v' ? 2 : 3;
  CT_CHECK(t.ndim() >= need, InvalidArgument,
           directional_name(which) << " requires a tensor with at least " << need << " dimension"
                                   << ", but got a tensor with " << t.ndim()
                                   << " dimensions!");
  return which == 'h' ? (t.ndim() == 1 ? 0 : 1) : which == 'v' ? 0 : 2;
}

void check_directional_sections(const Tensor& t, char which, int64_t sections) {
  const int d = directional_split_dim(t, which);
  CT_CHECK(sections != 0 && t.size(d) % sections == 0, InvalidArgument,
           directional_name(which) << " attempted to split along dimension " << d << ", but the size of the dimension "
                                   << t.size(d) << " is not divisible by the split_size " << sections << "!");
}

// ---- single views ---------------------------------------------------------------------------

Ref<Tensor> unflatten(const Tensor& t, int64_t dim, IntList sizes) {
  const int d = wrap_dim(dim, t.ndim());
  CT_CHECK(!sizes.empty(), InvalidArgument, "unflatten: sizes must be non-empty");
  // torch catches infer_size's error: a product that does not fit gets unflatten's own
  // message, anything else (two -1, a negative size, a 0-dim t) is passed on as "unexpected"
  CT_CHECK(t.ndim() > 0, InvalidArgument,
           "unflatten got an unexpected error:\nDimension specified as " << d << " but tensor has no dimensions");
  const int64_t size = t.size(d);
  Shape inferred;
  try {
    inferred = infer_size(sizes, size, "unflatten");
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.find("is invalid for input of size") != std::string::npos)
      CT_FAIL(InvalidArgument, "unflatten: Provided sizes " << list_str(sizes) << " don't multiply up to the size of dim "
                                                           << d << " (" << size << ") in the input tensor");
    const std::string prefix = "unflatten: ";
    CT_FAIL(InvalidArgument, "unflatten got an unexpected error:\n"
                                 << (msg.rfind(prefix, 0) == 0 ? msg.substr(prefix.size()) : msg));
  }
  CT_CHECK(t.ndim() - 1 + int64_t(inferred.size()) <= kMaxDims, Shape,
           "unflatten: the result would have " << t.ndim() - 1 + int64_t(inferred.size()) << " dimensions, more than "
                                               << kMaxDims);
  Shape shape(t.sizes().begin(), t.sizes().end());
  shape.erase(shape.begin() + d);
  shape.insert(shape.begin() + d, inferred.begin(), inferred.end());
  return view(t, shape);
}

Ref<Tensor> movedim(const Tensor& t, IntList src, IntList dst) {
  CT_CHECK(src.size() == dst.size(), InvalidArgument,
           "movedim: Invalid source or destination dims: source (" << list_str(src)
                                                                    << " dims) should contain the same number of dims "
                                                                       "as destination ("
                                                                    << list_str(dst) << " dims)");
  const int n = t.ndim();
  std::vector<int64_t> s(src.size()), e(dst.size());
  for (size_t i = 0; i < src.size(); ++i) s[i] = wrap_dim(src[i], n);
  for (size_t i = 0; i < dst.size(); ++i) e[i] = wrap_dim(dst[i], n);
  auto unique = [](std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  };
  CT_CHECK(unique(s), InvalidArgument, "movedim: repeated dim in `source` (" << list_str(src) << ")");
  CT_CHECK(unique(e), InvalidArgument, "movedim: repeated dim in `destination` (" << list_str(dst) << ")");
  if (n == 0) return alias_view(t);  // torch: self.alias()
  // Result dim e[i] is source dim s[i]; the other result dims take the other source dims in order.
  std::vector<int> order(size_t(n), -1);
  std::vector<bool> moved(size_t(n), false);
  for (size_t i = 0; i < s.size(); ++i) {
    order[size_t(e[i])] = int(s[i]);
    moved[size_t(s[i])] = true;
  }
  int next = 0;
  for (int& o : order) {
    if (o != -1) continue;
    while (moved[size_t(next)]) ++next;
    o = next++;
  }
  return permute(t, order);
}

Ref<Tensor> expand_as(const Tensor& t, const Tensor& other) { return expand(t, other.sizes()); }
Ref<Tensor> view_as(const Tensor& t, const Tensor& other) { return view(t, other.sizes()); }
Ref<Tensor> reshape_as(const Tensor& t, const Tensor& other) { return reshape(t, other.sizes()); }
Ref<Tensor> broadcast_to(const Tensor& t, IntList sizes) { return expand(t, sizes); }

Shape broadcast_tensors_shape(std::span<const Tensor* const> ts) {
  Shape common;
  for (const Tensor* x : ts) {  // torch's infer_size(a = the shape so far, b = the next tensor's)
    const IntList b = x->sizes();
    const size_t n = std::max(common.size(), b.size());
    Shape out(n);
    for (size_t i = n; i-- > 0;) {
      const int64_t da = i < n - common.size() ? 1 : common[i - (n - common.size())];
      const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
      CT_CHECK(da == db || da == 1 || db == 1, Shape,
               "The size of tensor a (" << da << ") must match the size of tensor b (" << db
                                        << ") at non-singleton dimension " << i);
      out[i] = da == 1 ? db : da;
    }
    common = std::move(out);
  }
  return common;
}

std::vector<Ref<Tensor>> broadcast_tensors(std::span<const Tensor* const> ts) {
  const Shape common = broadcast_tensors_shape(ts);
  std::vector<Ref<Tensor>> out;
  out.reserve(ts.size());
  for (const Tensor* x : ts) {
    if (std::equal(x->sizes().begin(), x->sizes().end(), common.begin(), common.end()))
      out.push_back(Ref<Tensor>::retain(const_cast<Tensor*>(x)));  // torch returns the tensor itself
    else
      out.push_back(expand(*x, common));
  }
  return out;
}

Shape broadcast_shapes(std::span<const IntList> shapes) {
  size_t rank = 0;
  for (IntList s : shapes) rank = std::max(rank, s.size());
  Shape common(rank, 1);
  for (size_t arg = 0; arg < shapes.size(); ++arg) {
    const IntList s = shapes[arg];
    for (size_t k = 1; k <= s.size(); ++k) {  // idx -k, from the last dim
      const int64_t v = s[s.size() - k];
      int64_t& c = common[rank - k];
      if (v == c) continue;
      if (c == 1) {
        CT_CHECK(v >= 0, InvalidArgument, "Attempting to broadcast a dimension with negative length!");
        c = v;
      }
      if (v == 1) continue;
      CT_CHECK(c == v, Shape,
               "Attempting to broadcast a dimension of length "
                   << v << " at -" << k << "! Mismatching argument at index " << arg << " had "
                   << (s.size() == 1 ? "(" + std::to_string(s[0]) + ",)"
                                     : "(" + list_str(s).substr(1, list_str(s).size() - 2) + ")")
                   << "; but expected shape should be broadcastable to " << list_str(common));
    }
  }
  return common;
}

Ref<Tensor> atleast(const Tensor& t, int rank) {
  const int n = t.ndim();
  if (n >= rank) return Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  if (n == 0) return reshape(t, Shape(size_t(rank), 1));   // ViewBackward0
  if (rank == 3 && n == 1) return unsqueeze(*unsqueeze(t, 0), -1);
  return unsqueeze(t, rank == 2 ? 0 : -1);  // 1-D to 2-D: a new first dim; 2-D to 3-D: a new last one
}

}  // namespace ct::ag
