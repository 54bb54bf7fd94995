// Bool storages may hold any byte (ct_empty, ct_from_blob, DLPack).  Every op reads such a
// byte as "non-zero is true", as torch 2.13 does (torch.frombuffer(bytes, dtype=torch.bool)
// sums, compares, converts and indexes that way).  Each op here runs twice: on a bool tensor
// wrapping the bytes 0..255, and on one holding the same truth values as 0/1 bytes; the two
// results must agree.  Loading such a byte as C++ bool is undefined behaviour, so this file is
// also the one to run under UBSan (-fsanitize=undefined,bool): see scripts/sanitize.sh.
#include <functional>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

// The values of t as float64 in C order (the test's common ground for every dtype).
std::vector<double> values_of(const ct_tensor* t) {
  TensorRef wide(ct_to(t, CT_FLOAT64));
  TensorRef c(ct_contiguous(wide));
  const int64_t n = ct_tensor_numel(c);
  std::vector<double> v(size_t(n > 0 ? n : 0));
  if (n > 0) std::memcpy(v.data(), ct_tensor_data(c), size_t(n) * sizeof(double));
  return v;
}

// Same values, NaN matching NaN (0/0 from rdiv_scalar, log(0) - log(0), ...).
::testing::AssertionResult same_values(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << got.size() << " vs " << want.size() << " values";
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << got[i] << " vs " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<int64_t> sizes_of(const ct_tensor* t) {
  const int64_t* s = ct_tensor_sizes(t);
  return std::vector<int64_t>(s, s + ct_tensor_ndim(t));
}

// A bool result an op computed holds only the bytes 0 and 1.
::testing::AssertionResult canonical_bytes(const ct_tensor* t) {
  if (ct_tensor_dtype(t) != CT_BOOL) return ::testing::AssertionSuccess();
  TensorRef c(ct_contiguous(t));
  const auto* p = static_cast<const unsigned char*>(ct_tensor_data(c));
  for (int64_t i = 0; i < ct_tensor_numel(c); ++i) {
    if (p[i] > 1) return ::testing::AssertionFailure() << "bool byte " << int(p[i]) << " at " << i;
  }
  return ::testing::AssertionSuccess();
}

// The tensor an in-place op wrote into, or NULL (self released) if the op failed: lets an
// in-place op go through agree() like the others.
ct_tensor* written(ct_tensor* self, ct_status status) {
  if (status == CT_OK) return self;
  ct_tensor_release(self);
  return nullptr;
}

class BoolBytes : public ctt::CtTest {
 protected:
  void SetUp() override {
    CtTest::SetUp();
    for (int i = 0; i < 256; ++i) {
      raw_[size_t(i)] = static_cast<unsigned char>(i);
      truth_[size_t(i)] = i != 0;
    }
    const int64_t sizes[2] = {16, 16};
    blob_.reset(ct_from_blob(raw_, 2, sizes, nullptr, CT_BOOL, nullptr, nullptr));
    ref_.reset(ct_from_data(truth_, 2, sizes, CT_BOOL));
    ASSERT_NE(blob_.get(), nullptr) << ctt::last_error_str();
    ASSERT_NE(ref_.get(), nullptr) << ctt::last_error_str();
  }
  void TearDown() override {
    blob_.reset();
    ref_.reset();
    CtTest::TearDown();
  }

  // op on the raw bytes and on the canonical ones: same status, sizes, dtype and values.
  // computes: the op makes new bool values (not a view or byte copy), so they are 0/1.
  void agree(const std::string& name, const std::function<ct_tensor*(ct_tensor*)>& op, bool computes = true) {
    SCOPED_TRACE(name);
    ct_clear_error();
    TensorRef got(op(blob_));
    const ct_status got_status = ct_last_status();
    const std::string got_error = ct_last_error();
    ct_clear_error();
    TensorRef want(op(ref_));
    const ct_status want_status = ct_last_status();
    ASSERT_EQ(got.get() == nullptr, want.get() == nullptr) << got_error << " / " << ctt::last_error_str();
    if (!got) {
      EXPECT_EQ(got_status, want_status);
      EXPECT_EQ(got_error, std::string(ct_last_error()));
      return;
    }
    EXPECT_EQ(ct_tensor_dtype(got), ct_tensor_dtype(want));
    EXPECT_EQ(sizes_of(got), sizes_of(want));
    EXPECT_TRUE(same_values(values_of(got), values_of(want)));
    if (computes) EXPECT_TRUE(canonical_bytes(got));
  }

  unsigned char raw_[256];
  unsigned char truth_[256];
  TensorRef blob_, ref_;
};

TEST_F(BoolBytes, ConversionsAndCopies) {
  for (int d = 0; d < 10; ++d) {
    // To bool is x itself (as torch's .to(torch.bool)): the bytes are not rewritten.
    agree(std::string("to ") + ct_dtype_name(ct_dtype(d)), [d](ct_tensor* x) { return ct_to(x, ct_dtype(d)); },
          d != CT_BOOL);
  }
  // Copies by torch's copy kernel write 0/1 (conversions too); cat and roll move the bytes.
  agree("clone", [](ct_tensor* x) { return ct_clone(x); });
  agree("contiguous of t()", [](ct_tensor* x) {
    TensorRef t(ct_t(x));
    return ct_contiguous(t);
  });
  agree("cat", [](ct_tensor* x) {
    const ct_tensor* two[2] = {x, x};
    return ct_cat(2, two, 0);
  }, false);
  for (ct_dtype d : {CT_BOOL, CT_FLOAT32, CT_INT64, CT_UINT8, CT_FLOAT16, CT_BFLOAT16}) {
    agree(std::string("copy_ into ") + ct_dtype_name(d), [d](ct_tensor* x) {
      const int64_t sizes[2] = {16, 16};
      ct_tensor* out = ct_zeros(2, sizes, d);
      TensorRef t(ct_t(x));  // strided source
      return written(out, ct_copy_(out, t));
    });
  }
  agree("index_select", [](ct_tensor* x) {
    const int64_t picks[4] = {15, 0, 3, 3};
    const int64_t n = 4;
    TensorRef idx(ct_from_data(picks, 1, &n, CT_INT64));
    return ct_index_select(x, 1, idx);
  }, false);
  agree("cat", [](ct_tensor* x) {
    const ct_tensor* ts[2] = {x, x};
    return ct_cat(2, ts, 0);
  }, false);
  agree("stack", [](ct_tensor* x) {
    const ct_tensor* ts[2] = {x, x};
    return ct_stack(2, ts, 1);
  }, false);
}

TEST_F(BoolBytes, UnaryAndScalarOps) {
  using Unary = ct_tensor* (*)(const ct_tensor*);
  const std::pair<const char*, Unary> unary[] = {
      {"neg", ct_neg}, {"abs", ct_abs},   {"exp", ct_exp},   {"log", ct_log},         {"sqrt", ct_sqrt},
      {"sin", ct_sin}, {"cos", ct_cos},   {"tanh", ct_tanh}, {"sigmoid", ct_sigmoid}, {"relu", ct_relu},
  };
  for (const auto& [name, fn] : unary) agree(name, [fn](ct_tensor* x) { return fn(x); });
  using WithScalar = ct_tensor* (*)(const ct_tensor*, double);
  const std::pair<const char*, WithScalar> scalar[] = {
      {"add_scalar", ct_add_scalar}, {"sub_scalar", ct_sub_scalar},   {"mul_scalar", ct_mul_scalar},
      {"div_scalar", ct_div_scalar}, {"rsub_scalar", ct_rsub_scalar}, {"rdiv_scalar", ct_rdiv_scalar},
      {"eq_scalar", ct_eq_scalar},   {"ne_scalar", ct_ne_scalar},     {"lt_scalar", ct_lt_scalar},
      {"le_scalar", ct_le_scalar},   {"gt_scalar", ct_gt_scalar},     {"ge_scalar", ct_ge_scalar},
  };
  for (const auto& [name, fn] : scalar) {
    for (double s : {0.0, 1.0, 2.0}) {
      agree(std::string(name) + " " + std::to_string(s), [fn, s](ct_tensor* x) { return fn(x, s); });
    }
  }
}

TEST_F(BoolBytes, BinaryOps) {
  using Binary = ct_tensor* (*)(const ct_tensor*, const ct_tensor*);
  const std::pair<const char*, Binary> binary[] = {
      {"add", ct_add}, {"sub", ct_sub}, {"mul", ct_mul}, {"div", ct_div},         {"eq", ct_eq},
      {"ne", ct_ne},   {"lt", ct_lt},   {"le", ct_le},   {"gt", ct_gt},           {"ge", ct_ge},
      {"maximum", ct_maximum},          {"minimum", ct_minimum},                  {"matmul", ct_matmul},
  };
  const int64_t sizes[2] = {16, 16};
  TensorRef ones(ct_ones(2, sizes, CT_BOOL)), zeros(ct_zeros(2, sizes, CT_BOOL));
  TensorRef ints(ct_arange(0, 16, 1, CT_UINT8));
  for (const auto& [name, fn] : binary) {
    // Contiguous, strided and broadcast operands, both sides, and against other dtypes.
    agree(std::string(name) + " (x, x)", [fn](ct_tensor* x) { return fn(x, x); });
    agree(std::string(name) + " (x, x.t())", [fn](ct_tensor* x) {
      TensorRef t(ct_t(x));
      return fn(x, t);
    });
    agree(std::string(name) + " (x, row 3)", [fn](ct_tensor* x) {
      TensorRef row(ct_select(x, 0, 3));
      return fn(x, row);
    });
    agree(std::string(name) + " (ones, x)", [&](ct_tensor* x) { return fn(ones, x); });
    agree(std::string(name) + " (x, zeros)", [&](ct_tensor* x) { return fn(x, zeros); });
    agree(std::string(name) + " (x, uint8)", [&](ct_tensor* x) { return fn(x, ints); });
  }
  agree("equal (x, ones)", [&](ct_tensor* x) {
    return ct_full(0, nullptr, ct_equal(x, ones), CT_INT64);
  });
  agree("equal (x, canonical)", [&](ct_tensor* x) {
    TensorRef canon(ct_ne_scalar(x, 0));
    return ct_full(0, nullptr, ct_equal(x, canon), CT_INT64);
  });
  agree("allclose (x, canonical)", [&](ct_tensor* x) {
    TensorRef canon(ct_ne_scalar(x, 0));
    return ct_full(0, nullptr, ct_allclose(x, canon, 1e-5, 1e-8), CT_INT64);
  });
}

TEST_F(BoolBytes, WhereAndInPlace) {
  const int64_t sizes[2] = {16, 16};
  TensorRef a(ct_arange(0, 256, 1, CT_FLOAT32)), b(ct_full(0, nullptr, -1, CT_FLOAT32));
  TensorRef a2(ct_view(a, 2, sizes));
  agree("where condition", [&](ct_tensor* x) { return ct_where(x, a2, b); });
  agree("where condition strided", [&](ct_tensor* x) {
    TensorRef t(ct_t(x));
    return ct_where(t, a2, b);
  });
  TensorRef ones(ct_ones(2, sizes, CT_BOOL));
  TensorRef falses(ct_zeros(2, sizes, CT_BOOL));
  agree("where values", [&](ct_tensor* x) {
    TensorRef t(ct_t(x));
    return ct_where(ones, x, t);
  });
  agree("where values, other side", [&](ct_tensor* x) { return ct_where(falses, ones, x); });
  agree("index with the mask (x[mask])", [&](ct_tensor* x) {
    const ct_tensor* mask[1] = {x};
    return ct_index(a2, 1, mask);
  });
  // In place: self op= x, into a bool tensor of 0/1 bytes.
  using Inplace = ct_status (*)(ct_tensor*, const ct_tensor*);
  const std::pair<const char*, Inplace> inplace[] = {{"add_", ct_add_}, {"mul_", ct_mul_}, {"sub_", ct_sub_}};
  for (const auto& [name, fn] : inplace) {
    agree(name, [fn](ct_tensor* x) {
      const int64_t s[2] = {16, 16};
      ct_tensor* self = ct_zeros(2, s, CT_BOOL);
      return written(self, fn(self, x));
    });
  }
  agree("fill_tensor_ reads a bool value", [&](ct_tensor* x) {
    TensorRef one(ct_select(x, 0, 0));
    TensorRef elem(ct_select(one, 0, 7));
    ct_tensor* out = ct_zeros(1, sizes, CT_FLOAT32);
    return written(out, ct_fill_tensor_(out, elem));
  });
  agree("add_ on a byte copy of x", [&](ct_tensor* x) {
    ct_tensor* c = ct_clone(x);
    return written(c, ct_add_(c, falses));
  });
}

TEST_F(BoolBytes, Reductions) {
  const int d0[1] = {0}, d1[1] = {1};
  using Reduce = ct_tensor* (*)(const ct_tensor*, int, const int*, int);
  const std::pair<const char*, Reduce> reduce[] = {
      {"sum", ct_sum}, {"mean", ct_mean}, {"prod", ct_prod}, {"amax", ct_amax}, {"amin", ct_amin}};
  for (const auto& [name, fn] : reduce) {
    agree(std::string(name) + " all", [fn](ct_tensor* x) { return fn(x, 0, nullptr, 0); });
    agree(std::string(name) + " dim 0", [&, fn](ct_tensor* x) { return fn(x, 1, d0, 0); });
    agree(std::string(name) + " dim 1 keepdim", [&, fn](ct_tensor* x) { return fn(x, 1, d1, 1); });
    agree(std::string(name) + " of t() dim 1", [&, fn](ct_tensor* x) {
      TensorRef t(ct_t(x));
      return fn(t, 1, d1, 0);
    });
  }
  agree("max_all", [](ct_tensor* x) { return ct_max_all(x); });
  agree("min_all", [](ct_tensor* x) { return ct_min_all(x); });
  agree("argmax", [](ct_tensor* x) { return ct_argmax(x, 1, 0); });
  agree("argmax_all", [](ct_tensor* x) { return ct_argmax_all(x); });
  for (int dim : {0, 1}) {
    agree("max_dim values " + std::to_string(dim), [dim](ct_tensor* x) { return ct_max_dim(x, dim, 0, nullptr); });
    agree("min_dim indices " + std::to_string(dim), [dim](ct_tensor* x) {
      ct_tensor* idx = nullptr;
      TensorRef v(ct_min_dim(x, dim, 0, &idx));
      return idx;
    });
    agree("max_dim indices " + std::to_string(dim), [dim](ct_tensor* x) {
      ct_tensor* idx = nullptr;
      TensorRef v(ct_max_dim(x, dim, 0, &idx));
      return idx;
    });
  }
}

TEST_F(BoolBytes, ItemAndPrinting) {
  TensorRef flat_blob(ct_flatten(blob_, 0, 1)), flat_ref(ct_flatten(ref_, 0, 1));
  for (int64_t i = 0; i < 256; ++i) {
    TensorRef a(ct_select(flat_blob, 0, i)), b(ct_select(flat_ref, 0, i));
    double x = -1, y = -2;
    ASSERT_EQ(ct_item(a, &x), CT_OK);
    ASSERT_EQ(ct_item(b, &y), CT_OK);
    EXPECT_EQ(x, y) << "byte " << i;
    EXPECT_EQ(x, i != 0 ? 1.0 : 0.0);
  }
  const int64_t na = ct_tensor_to_string(blob_, nullptr, 0), nb = ct_tensor_to_string(ref_, nullptr, 0);
  ASSERT_EQ(na, nb);
  std::string sa(size_t(na) + 1, '\0'), sb(size_t(nb) + 1, '\0');
  ct_tensor_to_string(blob_, sa.data(), na + 1);
  ct_tensor_to_string(ref_, sb.data(), nb + 1);
  EXPECT_EQ(sa, sb);
}

TEST_F(BoolBytes, DLPackImportReadsBytesTheSameWay) {
  DLManagedTensor* m = ct_to_dlpack(blob_);
  ASSERT_NE(m, nullptr) << ctt::last_error_str();
  TensorRef back(ct_from_dlpack(m));
  ASSERT_NE(back.get(), nullptr) << ctt::last_error_str();
  TensorRef s(ct_sum(back, 0, nullptr, 0)), want(ct_sum(ref_, 0, nullptr, 0));
  EXPECT_EQ(values_of(s), values_of(want));
  EXPECT_EQ(values_of(s), std::vector<double>{255});
}

}  // namespace
