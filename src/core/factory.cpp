#include "factory.h"

#include <cmath>
#include <cstring>

#include "copy.h"
#include "shape.h"

namespace ct {

void fill_elements(const Tensor& t, double value) {
  if (t.numel() == 0) return;
  CT_DISPATCH_WITH_COMPLEX(t.dtype(), [&] {
    const scalar_t v = convert<scalar_t>(value);
    // Dense and non-overlapping (contiguous, channels-last, any permutation): the elements are
    // exactly the numel slots from element [0,...,0] on (strides are never negative).
    if (t.is_contiguous() || is_non_overlapping_and_dense(t.sizes(), t.strides())) {
      scalar_t* p = reinterpret_cast<scalar_t*>(t.data());
      std::fill(p, p + t.numel(), v);
      return;
    }
    // Strided: odometer over the dims.
    const int n = t.ndim();
    std::vector<int64_t> idx(size_t(n), 0);
    for (int64_t k = 0; k < t.numel(); ++k) {
      int64_t off = 0;
      for (int d = 0; d < n; ++d) off += idx[size_t(d)] * t.stride(d);
      reinterpret_cast<scalar_t*>(t.data())[off] = v;
      for (int d = n - 1; d >= 0; --d) {
        if (++idx[size_t(d)] < t.size(d)) break;
        idx[size_t(d)] = 0;
      }
    }
  });
}

Ref<Tensor> full(IntList sizes, double value, DType dtype, const char* op) {
  check_scalar_fits(value, dtype);
  Ref<Tensor> t = Tensor::empty(sizes, dtype, op);
  fill_elements(*t, value);
  return t;
}

Ref<Tensor> arange(double start, double end, double step, DType dtype) {
  CT_CHECK(dtype != DType::Bool && !is_complex(dtype), DType,
           "\"arange_cpu\" not implemented for '" << torch_scalar_type_name(dtype) << "'");
  CT_CHECK(std::isfinite(start) && std::isfinite(end), InvalidArgument,
           "unsupported range: " << start << " -> " << end);
  CT_CHECK(step != 0, InvalidArgument, "step must be nonzero");
  CT_CHECK(std::isfinite(step), InvalidArgument, "arange: step must be finite, got " << step);
  const bool integral = !is_floating(dtype);
  // PyTorch computes integer ranges in int64 (the bounds are truncated first); int64's
  // element count also comes from the truncated bounds, other dtypes' from the doubles.
  auto trunc64 = [](double v, const char* what) {
    CT_CHECK(v > -9223372036854775808.0 && v < 9223372036854775808.0, InvalidArgument,
             "arange: " << what << " " << v << " does not fit int64");
    return int64_t(v);
  };
  double count;
  if (integral) {
    const int64_t s = trunc64(start, "start"), e = trunc64(end, "end"), st = trunc64(step, "step");
    CT_CHECK(st != 0, InvalidArgument, "step must be nonzero");
    count = dtype == DType::Int64 ? std::ceil(double(e - s) / double(st)) : std::ceil((end - start) / step);
  } else {
    count = std::ceil((end - start) / step);
  }
  CT_CHECK((step > 0 && end >= start) || (step < 0 && end <= start), InvalidArgument,
           "upper bound and lower bound inconsistent with step sign");
  CT_CHECK(count >= 0 && count < 9.2e18, InvalidArgument,
           "invalid size, possible overflow? start=" << start << " end=" << end << " step=" << step);
  const int64_t n = int64_t(count);
  Ref<Tensor> t = Tensor::empty(Shape{n}, dtype, "arange");
  CT_DISPATCH_ALL(dtype, [&] {
    scalar_t* p = reinterpret_cast<scalar_t*>(t->data());
    if (integral) {
      const int64_t s = int64_t(start), st = int64_t(step);
      for (int64_t i = 0; i < n; ++i) p[i] = convert<scalar_t>(s + st * i);
    } else if (dtype == DType::Float64 || dtype == DType::Float32) {
      for (int64_t i = 0; i < n; ++i) p[i] = convert<scalar_t>(start + step * double(i));
    } else {  // float16/bfloat16 accumulate in float, as PyTorch
      for (int64_t i = 0; i < n; ++i) p[i] = convert<scalar_t>(float(start) + float(step) * float(i));
    }
  });
  return t;
}

Ref<Tensor> from_data(const void* data, IntList sizes, DType dtype) {
  Ref<Tensor> t = Tensor::empty(sizes, dtype, "from_data");
  if (t->numel() == 0) return t;
  CT_CHECK(data != nullptr, InvalidArgument, "from_data: data is NULL but the shape " << list_str(sizes) << " has "
                                                                                      << t->numel() << " elements");
  const size_t nbytes = size_t(t->numel() * t->itemsize());
  if (dtype == DType::Bool) {  // any non-zero byte is true; a bool byte must be 0 or 1
    const unsigned char* src = static_cast<const unsigned char*>(data);
    unsigned char* dst = reinterpret_cast<unsigned char*>(t->data());
    for (size_t i = 0; i < nbytes; ++i) dst[i] = src[i] != 0;
  } else {
    std::memcpy(t->data(), data, nbytes);
  }
  return t;
}

Ref<Tensor> from_blob(void* data, IntList sizes, IntList strides, DType dtype, Storage::Deleter deleter,
                      void* ctx) {
  CT_CHECK(sizes.size() <= size_t(kMaxDims), InvalidArgument,
           "from_blob: ndim must be in [0, " << kMaxDims << "], got " << sizes.size());
  const int64_t numel = checked_numel(sizes, "from_blob");
  const Shape strides_used = strides.empty() ? contiguous_strides(sizes) : Shape(strides.begin(), strides.end());
  // Negative strides are refused with or without elements (as DLPack imports and as_strided
  // do): the views of an empty tensor with a negative stride got negative storage offsets
  // (found by the fuzzer).
  for (int64_t s : strides_used) {
    CT_CHECK(s >= 0, InvalidArgument,
             "from_blob: negative strides are not supported, got strides " << list_str(strides_used));
  }
  int64_t nbytes = 0;
  if (numel > 0) {
    CT_CHECK(data != nullptr, InvalidArgument, "from_blob: data is NULL but the shape has " << numel << " elements");
    const Extent e = element_extent(sizes, strides_used, 0, "from_blob");
    CT_CHECK(!__builtin_add_overflow(e.hi, 1, &nbytes) && !__builtin_mul_overflow(nbytes, itemsize(dtype), &nbytes),
             OutOfMemory, "from_blob: sizes " << list_str(sizes) << " with strides " << list_str(strides_used)
                                              << " span more than 2^63 bytes");
    const auto addr = reinterpret_cast<uintptr_t>(data);
    CT_CHECK(UINTPTR_MAX - addr >= uint64_t(nbytes), InvalidArgument,
             "from_blob: sizes and strides reach past the end of the address space");
  }
  // On any failure the deleter must not run: the memory stays the caller's, as documented.
  Ref<Storage> storage = Ref<Storage>::adopt(Storage::wrap(data, nbytes, deleter, ctx, false));
  try {
    return Tensor::make(storage.get(), dtype, sizes, strides_used, 0, nullptr);
  } catch (...) {
    storage->disarm_deleter();
    throw;
  }
}

Ref<Tensor> index_select(const Tensor& t, int64_t dim, const Tensor& index) {
  const int d = wrap_dim(dim, t.ndim());
  CT_CHECK(index.ndim() <= 1, Shape, "index_select(): Index is supposed to be a vector");
  CT_CHECK(index.dtype() == DType::Int64 || index.dtype() == DType::Int32, DType,
           "index_select(): Expected dtype int32 or int64 for index");
  const int64_t n = index.numel();
  const int64_t dim_size = t.ndim() == 0 ? 1 : t.size(d);
  const int64_t istride = index.ndim() == 0 ? 0 : index.stride(0);
  std::vector<int64_t> picks(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = index.dtype() == DType::Int64 ? reinterpret_cast<const int64_t*>(index.data())[i * istride]
                                              : reinterpret_cast<const int32_t*>(index.data())[i * istride];
    CT_CHECK(v >= 0 && v < dim_size, Index,
             "index out of range in self (index " << v << " for dimension " << d << " of size " << dim_size << ")");
    picks[size_t(i)] = v;
  }
  CT_CHECK(t.ndim() > 0 || n == 1, Index,
           "index_select(): Index to scalar can have only 1 value, got " << n << " value(s)");
  Shape out_sizes(t.sizes().begin(), t.sizes().end());
  if (t.ndim() > 0) out_sizes[size_t(d)] = n;
  Ref<Tensor> out = Tensor::empty(out_sizes, t.dtype(), "index_select");
  if (out->numel() == 0) return out;
  // On a contiguous source, each pick is `inner` consecutive elements per outer index.
  const Ref<Tensor> src = contiguous(t);
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < d; ++i) outer *= t.size(i);
  for (int i = d + 1; i < t.ndim(); ++i) inner *= t.size(i);
  const size_t run = size_t(inner * t.itemsize());
  const char* from = src->data();
  char* to = out->data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(to + size_t((o * n + i)) * run, from + size_t(o * dim_size + picks[size_t(i)]) * run, run);
    }
  }
  return out;
}

}  // namespace ct
