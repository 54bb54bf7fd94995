// Reductions, matmul and random numbers through the C header only: result dtypes and
// shapes, values on small tensors and views, argument checks (NULL handles, bad ndim, NULL
// dims) and PyTorch's errors with exact statuses (generated table at the end:
// tests/tools/gen_reduce_cases.py), ownership (new references on new storages, nothing
// leaked).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::CtTest;
using ctt::TensorRef;

class ComputeReduce : public CtTest {};

using ReduceFn = ct_tensor* (*)(const ct_tensor*, int, const int*, int);

struct NamedReduce {
  const char* name;
  ReduceFn fn;
};
const NamedReduce kReductions[] = {{"sum", ct_sum},   {"mean", ct_mean}, {"prod", ct_prod},
                                   {"amax", ct_amax}, {"amin", ct_amin}};

ReduceFn reduce_fn(const std::string& name) {
  for (const NamedReduce& r : kReductions) {
    if (name == r.name) return r.fn;
  }
  return nullptr;
}

// A (2, 3) tensor of dtype d holding 1 2 3 / 4 5 6 (bool: 1 0 1 / 1 1 1).
ct_tensor* small(ct_dtype d) {
  TensorRef f(ctt::make_iota_f32({2, 3}));
  TensorRef one(ctt::full({2, 3}, 1.0));
  TensorRef v(ct_add(f, one));
  if (d == CT_BOOL) {
    const uint8_t b[6] = {1, 0, 1, 1, 1, 1};
    return ctt::make_from(std::vector<uint8_t>(b, b + 6), {2, 3}, CT_BOOL);
  }
  return ct_to(v, d);
}

TEST_F(ComputeReduce, SumMeanProdAmaxAminValuesAndDTypes) {
  const ct_dtype dtypes[] = {CT_BOOL,    CT_UINT8,    CT_INT8,    CT_INT16,  CT_INT32,
                             CT_INT64,   CT_FLOAT16,  CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64};
  for (ct_dtype d : dtypes) {
    SCOPED_TRACE(ct_dtype_name(d));
    CT_MAKE(t, small(d));
    const bool is_float = d >= CT_FLOAT16;
    const bool is_bool = d == CT_BOOL;
    const int d0[] = {0}, d1[] = {-1};
    {
      CT_MAKE(s, ct_sum(t, 0, nullptr, 0));
      EXPECT_EQ(ct_tensor_dtype(s), is_float ? d : CT_INT64);
      EXPECT_TRUE(ctt::sizes_are(s, {}));
      EXPECT_EQ(ctt::values(s), std::vector<double>{is_bool ? 5.0 : 21.0});
      CT_MAKE(s0, ct_sum(t, 1, d0, 1));
      EXPECT_TRUE(ctt::sizes_are(s0, {1, 3}));
      EXPECT_EQ(ctt::values(s0), is_bool ? (std::vector<double>{2, 1, 2}) : (std::vector<double>{5, 7, 9}));
    }
    {
      CT_MAKE(p, ct_prod(t, 1, d1, 0));
      EXPECT_EQ(ct_tensor_dtype(p), is_float ? d : CT_INT64);
      EXPECT_EQ(ctt::values(p), is_bool ? (std::vector<double>{0, 1}) : (std::vector<double>{6, 120}));
    }
    {
      CT_MAKE(mx, ct_amax(t, 1, d0, 0));
      EXPECT_EQ(ct_tensor_dtype(mx), d);
      EXPECT_EQ(ctt::values(mx), is_bool ? (std::vector<double>{1, 1, 1}) : (std::vector<double>{4, 5, 6}));
      CT_MAKE(mn, ct_amin(t, 0, nullptr, 1));
      EXPECT_TRUE(ctt::sizes_are(mn, {1, 1}));
      EXPECT_EQ(ctt::values(mn), std::vector<double>{is_bool ? 0.0 : 1.0});
    }
    if (is_float) {
      CT_MAKE(m, ct_mean(t, 1, d1, 0));
      EXPECT_EQ(ct_tensor_dtype(m), d);
      EXPECT_EQ(ctt::values(m), (std::vector<double>{2, 5}));
    } else {
      CT_EXPECT_NULL(ct_mean(t, 0, nullptr, 0), CT_ERR_DTYPE, "mean(): could not infer output dtype");
    }
  }
}

// torch 2.x multiplies float16/bfloat16 in the dtype, rounding each product (torch 1.13 had no
// such kernel): torch.full((2, 3), 1.1, dtype=torch.bfloat16).prod() is 1.78125, where one
// rounding of the float product gives 1.7890625.
TEST_F(ComputeReduce, Float16AndBFloat16ProdRoundEachProductAsInTorch) {
  for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16}) {
    CT_MAKE(t, ctt::full({2, 3}, 1.1, d));
    CT_MAKE(p, ct_prod(t, 0, nullptr, 0));
    EXPECT_EQ(ct_tensor_dtype(p), d);
    EXPECT_EQ(ctt::values(p), std::vector<double>{d == CT_FLOAT16 ? 1.767578125 : 1.78125});
    const int d1[] = {1};
    CT_MAKE(p1, ct_prod(t, 1, d1, 0));
    EXPECT_EQ(ctt::values(p1), (std::vector<double>(2, d == CT_FLOAT16 ? 1.3291015625 : 1.3359375)));
    CT_MAKE(e, ctt::full({0, 3}, 1.0, d));  // no elements: the empty product
    CT_MAKE(pe, ct_prod(e, 0, nullptr, 0));
    EXPECT_EQ(ctt::values(pe), std::vector<double>{1.0});
  }
}

TEST_F(ComputeReduce, ViewsAreReducedThroughTheirStrides) {
  CT_MAKE(base, ctt::make_iota_f32({4, 6}));
  CT_MAKE(tt, ct_transpose(base, 0, 1));             // (6, 4)
  CT_MAKE(sl, ct_slice(tt, 0, 1, 6, 2));             // rows 1, 3, 5 of the transpose
  const int d1[] = {1};
  CT_MAKE(s, ct_sum(sl, 1, d1, 0));
  // row j of the transpose = column j of base: j + 6 i for i < 4
  EXPECT_EQ(ctt::values(s), (std::vector<double>{4 + 36, 12 + 36, 20 + 36}));
  CT_MAKE(am, ct_argmax(sl, 0, 0));
  EXPECT_EQ(ct_tensor_dtype(am), CT_INT64);
  EXPECT_EQ(ctt::values(am), (std::vector<double>{2, 2, 2, 2}));
  CT_MAKE(ex, ctt::expand(base, {3, 4, 6}));
  CT_MAKE(se, ct_sum(ex, 0, nullptr, 0));
  EXPECT_EQ(ctt::values(se), std::vector<double>{3 * 276.0});
  // The result is a new contiguous tensor, not a view of anything.
  EXPECT_TRUE(ctt::is_not_view(s));
  EXPECT_EQ(ct_tensor_is_contiguous(s), 1);
  EXPECT_EQ(ct_shares_storage(s, base), 0);
  EXPECT_EQ(ct_tensor_refcount(s), 1);
}

TEST_F(ComputeReduce, ArgmaxArgmin) {
  const float v[] = {1, NAN, 3, NAN, 3, -1};
  CT_MAKE(t, ctt::make_from(std::vector<float>(v, v + 6), {2, 3}, CT_FLOAT32));
  CT_MAKE(a, ct_argmax_all(t));
  EXPECT_TRUE(ctt::sizes_are(a, {}));
  EXPECT_EQ(ct_tensor_dtype(a), CT_INT64);
  EXPECT_EQ(ctt::values(a), std::vector<double>{1});  // the first NaN
  CT_MAKE(b, ct_argmin_all(t));
  EXPECT_EQ(ctt::values(b), std::vector<double>{1});  // NaN is also the "minimum", as torch
  const float w[] = {3, 1, 3, 1, 1, 0};
  CT_MAKE(u, ctt::make_from(std::vector<float>(w, w + 6), {2, 3}, CT_FLOAT32));
  CT_MAKE(c, ct_argmax(u, 1, 1));
  EXPECT_TRUE(ctt::sizes_are(c, {2, 1}));
  EXPECT_EQ(ctt::values(c), (std::vector<double>{0, 0}));  // first of the ties
  CT_MAKE(e, ct_argmin(u, -2, 0));
  EXPECT_EQ(ctt::values(e), (std::vector<double>{1, 0, 1}));
  CT_MAKE(s, ctt::full({}, 5.0));
  CT_MAKE(f, ct_argmax(s, 0, 1));
  EXPECT_TRUE(ctt::sizes_are(f, {}));
  CT_EXPECT_NULL(ct_argmax(u, 2, 0), CT_ERR_INDEX, "Dimension out of range");
  CT_MAKE(bo, ctt::full({3}, 1.0, CT_BOOL));
  CT_EXPECT_NULL(ct_argmax(bo, 0, 0), CT_ERR_DTYPE, "argmax(): does not support bool input");
  CT_MAKE(em, ctt::zeros({0, 2}));
  CT_EXPECT_NULL(ct_argmin_all(em), CT_ERR_INDEX, "argmin(): Expected reduction dim to be specified");
}

TEST_F(ComputeReduce, EmptyReductions) {
  CT_MAKE(e, ctt::zeros({0, 3}));
  CT_MAKE(s, ct_sum(e, 0, nullptr, 0));
  EXPECT_EQ(ctt::values(s), std::vector<double>{0});
  const int d0[] = {0}, d1[] = {1};
  CT_MAKE(m, ct_mean(e, 1, d0, 0));
  ASSERT_EQ(ct_tensor_numel(m), 3);
  for (double x : ctt::values(m)) EXPECT_TRUE(std::isnan(x));
  CT_MAKE(p, ct_prod(e, 1, d0, 1));
  EXPECT_TRUE(ctt::sizes_are(p, {1, 3}));
  EXPECT_EQ(ctt::values(p), (std::vector<double>{1, 1, 1}));
  CT_MAKE(mx, ct_amax(e, 1, d1, 0));  // reduces a non-empty dim: fine, no elements
  EXPECT_TRUE(ctt::sizes_are(mx, {0}));
  CT_EXPECT_NULL(ct_amax(e, 1, d0, 0), CT_ERR_INDEX, "amax(): Expected reduction dim 0 to have non-zero size.");
  CT_EXPECT_NULL(ct_amin(e, 0, nullptr, 0), CT_ERR_SHAPE,
                 "amin(): Expected reduction dim to be specified for input.numel() == 0.");
}

TEST_F(ComputeReduce, BadArguments) {
  CT_MAKE(t, ctt::zeros({2, 3}));
  const int dims[] = {0, 1};
  for (const NamedReduce& r : kReductions) {
    SCOPED_TRACE(r.name);
    CT_EXPECT_NULL(r.fn(nullptr, 0, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "NULL");
    CT_EXPECT_NULL(r.fn(t, 1, nullptr, 0), CT_ERR_INVALID_ARGUMENT, "dims is NULL");
    CT_EXPECT_NULL(r.fn(t, -1, dims, 0), CT_ERR_INVALID_ARGUMENT, "ndim");
  }
  CT_EXPECT_NULL(ct_argmax(nullptr, 0, 0), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_argmin_all(nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_matmul(t, nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_matmul(nullptr, t), CT_ERR_INVALID_ARGUMENT, "NULL");
  CT_EXPECT_NULL(ct_rand(1, nullptr, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "sizes is NULL");
  CT_EXPECT_NULL(ct_randn(-1, nullptr, CT_FLOAT32), CT_ERR_INVALID_ARGUMENT, "ndim");
  const int64_t three = 3;
  CT_EXPECT_NULL(ct_rand(1, &three, (ct_dtype)42), CT_ERR_DTYPE, "");
  CT_EXPECT_NULL(ct_randint(0, 5, 1, &three, (ct_dtype)-1), CT_ERR_DTYPE, "");
}

// ---- matmul -------------------------------------------------------------------------------------

TEST_F(ComputeReduce, MatmulPaths) {
  CT_MAKE(a, ctt::make_iota_f32({2, 3}));  // 0 1 2 / 3 4 5
  CT_MAKE(at, ct_transpose(a, 0, 1));      // (3, 2), column-major
  CT_MAKE(mm, ct_matmul(a, at));
  EXPECT_TRUE(ctt::sizes_are(mm, {2, 2}));
  EXPECT_EQ(ctt::values(mm), (std::vector<double>{5, 14, 14, 50}));
  CT_MAKE(v, ctt::make_iota_f32({3}));
  CT_MAKE(dot, ct_matmul(v, v));
  EXPECT_TRUE(ctt::sizes_are(dot, {}));
  EXPECT_EQ(ctt::values(dot), std::vector<double>{5});
  CT_MAKE(mv, ct_matmul(a, v));
  EXPECT_EQ(ctt::values(mv), (std::vector<double>{5, 14}));
  CT_MAKE(vm, ct_matmul(v, at));
  EXPECT_EQ(ctt::values(vm), (std::vector<double>{5, 14}));
  CT_MAKE(b4, ctt::make_iota_f32({2, 1, 3, 4}));
  CT_MAKE(b3, ctt::make_iota_f32({5, 4, 2}));
  CT_MAKE(bb, ct_matmul(b4, b3));
  EXPECT_TRUE(ctt::sizes_are(bb, {2, 5, 3, 2}));
  EXPECT_EQ(ct_tensor_is_contiguous(bb), 1);
  EXPECT_TRUE(ctt::is_not_view(bb));
  // element [1, 4, 2, 1] = sum_k b4[1, 0, 2, k] * b3[4, k, 1]
  double want = 0;
  for (int k = 0; k < 4; ++k) want += (12 + 8 + k) * (32 + 2 * k + 1);
  EXPECT_EQ(ctt::values(bb)[size_t(((1 * 5 + 4) * 3 + 2) * 2 + 1)], want);
  for (ct_dtype d : {CT_INT32, CT_INT64, CT_UINT8, CT_BFLOAT16, CT_FLOAT64}) {
    CT_MAKE(x, ct_to(a, d));
    CT_MAKE(y, ct_to(at, d));
    CT_MAKE(r, ct_matmul(x, y));
    EXPECT_EQ(ct_tensor_dtype(r), d);
    EXPECT_EQ(ctt::values(r), (std::vector<double>{5, 14, 14, 50})) << ct_dtype_name(d);
  }
}

TEST_F(ComputeReduce, MatmulErrors) {
  CT_MAKE(a, ctt::zeros({2, 3}));
  CT_MAKE(b, ctt::zeros({4, 5}));
  CT_EXPECT_NULL(ct_matmul(a, b), CT_ERR_SHAPE, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  CT_MAKE(v3, ctt::zeros({3}));
  CT_MAKE(v4, ctt::zeros({4}));
  CT_EXPECT_NULL(ct_matmul(v3, v4), CT_ERR_SHAPE, "inconsistent tensor size");
  CT_EXPECT_NULL(ct_matmul(a, v4), CT_ERR_SHAPE, "size mismatch, got input (2), mat (2x3), vec (4)");
  CT_MAKE(s, ctt::zeros({}));
  CT_EXPECT_NULL(ct_matmul(s, v3), CT_ERR_SHAPE, "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  CT_MAKE(x, ctt::zeros({2, 2, 3}));
  CT_MAKE(y, ctt::zeros({3, 3, 2}));
  CT_EXPECT_NULL(ct_matmul(x, y), CT_ERR_SHAPE, "The size of tensor a (2) must match the size of tensor b (3)");
  CT_MAKE(d, ctt::zeros({3, 2}, CT_FLOAT64));
  CT_EXPECT_NULL(ct_matmul(a, d), CT_ERR_DTYPE, "expected m1 and m2 to have the same dtype, but got: float != double");
  CT_EXPECT_NULL(ct_matmul(v3, d), CT_ERR_DTYPE, "expected m1 and m2 to have the same dtype, but got: float != double");
  CT_MAKE(h, ctt::zeros({2, 3}, CT_FLOAT16));  // torch 2.x multiplies float16 matrices
  CT_MAKE(h2, ctt::zeros({3, 2}, CT_FLOAT16));
  CT_MAKE(hh, ct_matmul(h, h2));
  EXPECT_EQ(ct_tensor_dtype(hh), CT_FLOAT16);
  EXPECT_EQ(ctt::values(hh), std::vector<double>(4, 0.0));
  CT_MAKE(bo, ctt::zeros({3}, CT_BOOL));
  CT_EXPECT_NULL(ct_matmul(bo, bo), CT_ERR_DTYPE, "\"dot\" not implemented for 'Bool'");
}

// ---- random -------------------------------------------------------------------------------------

TEST_F(ComputeReduce, RandomThroughTheHeader) {
  const int64_t sizes[] = {4, 5};
  ct_manual_seed(123);
  CT_MAKE(a, ct_rand(2, sizes, CT_FLOAT32));
  CT_MAKE(b, ct_rand(2, sizes, CT_FLOAT32));
  ct_manual_seed(123);
  CT_MAKE(c, ct_rand(2, sizes, CT_FLOAT32));
  EXPECT_EQ(ctt::values(a), ctt::values(c));
  EXPECT_NE(ctt::values(a), ctt::values(b));
  EXPECT_TRUE(ctt::sizes_are(a, {4, 5}));
  EXPECT_EQ(ct_tensor_is_contiguous(a), 1);
  for (double x : ctt::values(a)) {
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
  CT_MAKE(n, ct_randn(0, nullptr, CT_FLOAT64));
  EXPECT_TRUE(ctt::sizes_are(n, {}));
  CT_MAKE(i, ct_randint(-3, 3, 2, sizes, CT_INT8));
  EXPECT_EQ(ct_tensor_dtype(i), CT_INT8);
  for (double x : ctt::values(i)) {
    EXPECT_GE(x, -3);
    EXPECT_LE(x, 2);
  }
  CT_EXPECT_NULL(ct_rand(2, sizes, CT_INT64), CT_ERR_DTYPE, "\"check_uniform_bounds\" not implemented for 'Long'");
  CT_EXPECT_NULL(ct_randn(2, sizes, CT_BOOL), CT_ERR_DTYPE, "\"normal_kernel_cpu\" not implemented for 'Bool'");
  CT_EXPECT_NULL(ct_randint(5, 5, 2, sizes, CT_INT64), CT_ERR_INVALID_ARGUMENT,
                 "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  CT_EXPECT_NULL(ct_randint(0, 300, 2, sizes, CT_UINT8), CT_ERR_INVALID_ARGUMENT,
                 "to - 1 is out of bounds for unsigned char");
  const int64_t neg[] = {-1};
  CT_EXPECT_NULL(ct_rand(1, neg, CT_FLOAT32), CT_ERR_SHAPE, "Trying to create tensor with negative dimension -1: [-1]");
}

// ---- generated from PyTorch 2.13 ----------------------------------------------------------------

struct ErrorCase {
  const char* op;
  std::vector<int64_t> sizes;
  int dtype;
  bool all;
  std::vector<int> dims;
  bool keepdim;
  const char* kind;
  const char* message;
};

const ErrorCase kErrorCases[] = {
    // BEGIN GENERATED capi_error_cases (tests/tools/gen_reduce_cases.py)
    {"sum", {2, 3}, 8, false, {0, 0}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {1, -1}, false, "InvalidArgument", "dim 1 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {0, -2}, true, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"sum", {2, 3}, 8, false, {-3}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
    {"sum", {}, 8, false, {0, -1}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"sum", {}, 8, false, {1}, false, "Index", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"mean", {2, 3}, 4, false, {0, 0}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int"},
    {"mean", {2, 3}, 5, false, {5}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"},
    {"mean", {0, 3}, 1, false, {0}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Byte"},
    {"mean", {2, 3}, 0, true, {}, false, "DType", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Bool"},
    {"mean", {2, 3}, 8, false, {0, 0}, false, "InvalidArgument", "dim 0 appears multiple times in the list of dims"},
    {"amax", {0, 3}, 8, true, {}, false, "Shape", "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
    {"amax", {0, 3}, 8, false, {0}, false, "Index", "amax(): Expected reduction dim 0 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {-2}, true, "Index", "amax(): Expected reduction dim -2 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {0, 0}, false, "Index", "amax(): Expected reduction dim 0 to have non-zero size."},
    {"amax", {0, 3}, 8, false, {5}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
    {"amin", {3, 0, 0}, 4, false, {2, 1}, false, "Index", "amin(): Expected reduction dim 2 to have non-zero size."},
    {"amin", {3, 0, 0}, 4, false, {1, 2}, false, "Index", "amin(): Expected reduction dim 1 to have non-zero size."},
    {"amin", {0}, 9, true, {}, true, "Shape", "amin(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
    {"amax", {2, 3}, 8, false, {1, 1}, false, "InvalidArgument", "dim 1 appears multiple times in the list of dims"},
    {"prod", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"argmax", {0, 3}, 8, true, {}, false, "Index", "argmax(): Expected reduction dim to be specified for input.numel() == 0."},
    {"argmax", {0, 3}, 8, false, {0}, false, "Index", "argmax(): Expected reduction dim 0 to have non-zero size."},
    {"argmin", {0, 3}, 8, false, {-2}, true, "Index", "argmin(): Expected reduction dim 0 to have non-zero size."},
    {"argmax", {2, 3}, 8, false, {2}, false, "Index", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"argmin", {}, 8, false, {1}, false, "Index", "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"argmax", {2, 3}, 0, false, {0}, false, "DType", "argmax(): does not support bool input"},
    {"argmin", {}, 0, true, {}, false, "DType", "argmin(): does not support bool input"},
    {"argmax", {0, 3}, 0, false, {0}, false, "DType", "argmax(): does not support bool input"},
    {"argmax", {0, 3}, 0, false, {5}, false, "DType", "argmax(): does not support bool input"},
    // END GENERATED capi_error_cases
};

ct_status status_of(const std::string& kind) {
  if (kind == "InvalidArgument") return CT_ERR_INVALID_ARGUMENT;
  if (kind == "Shape") return CT_ERR_SHAPE;
  if (kind == "DType") return CT_ERR_DTYPE;
  if (kind == "Index") return CT_ERR_INDEX;
  return CT_ERR_INTERNAL;
}

TEST_F(ComputeReduce, TorchErrorsWithExactStatuses) {
  for (const ErrorCase& c : kErrorCases) {
    SCOPED_TRACE(std::string(c.op) + " of " + ct_dtype_name(ct_dtype(c.dtype)) + ctt::list_str(c.sizes));
    CT_MAKE(t, ct_zeros(int(c.sizes.size()), c.sizes.data(), ct_dtype(c.dtype)));
    const std::string op = c.op;
    ct_clear_error();
    ct_tensor* r;
    if (op == "argmax" || op == "argmin") {
      if (c.all) {
        r = op == "argmax" ? ct_argmax_all(t) : ct_argmin_all(t);
      } else {
        r = (op == "argmax" ? ct_argmax : ct_argmin)(t, c.dims.at(0), c.keepdim);
      }
    } else {
      r = reduce_fn(op)(t, int(c.dims.size()), c.dims.data(), c.keepdim);
    }
    EXPECT_EQ(r, nullptr);
    ct_tensor_release(r);
    if (c.all && (op == "argmax" || op == "argmin") && c.keepdim) continue;  // (the _all forms have no keepdim)
    EXPECT_TRUE(ctt::expect_error(status_of(c.kind), c.message));
  }
}

}  // namespace
