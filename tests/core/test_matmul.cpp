// matmul (src/core/ops/matmul): shapes, dtypes and errors against PyTorch 2.13 (generated
// table at the end: tests/tools/gen_reduce_cases.py); values against a naive loop for every
// dtype, every torch path (dot, mv, mm, folded, batched with broadcasting) and operand
// layouts BLAS takes as they are (row/column-major, with a leading dimension) or needs
// packed (strided columns, broadcast rows); thread-count independence of the own loop.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/copy.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/factory.h"
#include "core/ops/matmul.h"
#include "core/shape.h"
#include "core/tensor.h"
#include "core/views.h"

namespace {

using ct::DType;
using ct::Ref;
using ct::Shape;
using ct::Tensor;

std::string shape_str(ct::IntList s) { return ct::list_str(s); }

// Fills t (any layout without internal overlap) with random values: small integers (so
// that sums wrap in the narrow types only through the products we choose), or floats.
void fill_random(const Tensor& t, std::mt19937_64& rng, int64_t lo = -9, int64_t hi = 9) {
  if (t.numel() == 0) return;
  std::vector<int64_t> idx(size_t(t.ndim()), 0);
  std::uniform_real_distribution<double> u(-1, 1);
  while (true) {
    int64_t off = 0;
    for (int i = 0; i < t.ndim(); ++i) off += idx[size_t(i)] * t.stride(i);
    char* p = t.raw_data() + off * t.itemsize();
    CT_DISPATCH_ALL(t.dtype(), [&] {
      scalar_t x;
      if constexpr (std::is_integral_v<scalar_t>) {
        x = ct::convert<scalar_t>(lo + int64_t(rng() % uint64_t(hi - lo + 1)));
      } else {
        x = ct::convert<scalar_t>(u(rng) * 4);
      }
      std::memcpy(p, &x, sizeof x);
    });
    int d = t.ndim() - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < t.size(d)) break;
      idx[size_t(d)] = 0;
    }
    if (d < 0) return;
  }
}

// The element at `off` elements from t's first one, as a long double (and as an integer).
long double get_at(const Tensor& t, int64_t off, int64_t* as_int) {
  const char* p = t.raw_data() + off * t.itemsize();
  long double v = 0;
  CT_DISPATCH_ALL(t.dtype(), [&] {
    scalar_t x;
    std::memcpy(&x, p, sizeof x);
    if constexpr (std::is_integral_v<scalar_t>) {
      *as_int = int64_t(x);
      v = (long double)x;
    } else if constexpr (std::is_same_v<scalar_t, double>) {
      v = x;
    } else {
      v = float(x);
    }
  });
  return v;
}

// Naive torch.matmul on logical indices; checks r against it.
void check_against_loop(const Tensor& a, const Tensor& b, const Tensor& r, const std::string& what) {
  SCOPED_TRACE(what + ": " + ct::dtype_name(a.dtype()) + " " + shape_str(a.sizes()) + "/" + shape_str(a.strides()) +
               " @ " + shape_str(b.sizes()) + "/" + shape_str(b.strides()));
  const int da = a.ndim(), db = b.ndim();
  const int64_t n = da == 1 ? 1 : a.size(da - 2), k = a.size(da - 1), p = db == 1 ? 1 : b.size(db - 1);
  const Shape ba(a.sizes().begin(), a.sizes().end() - std::min(da, 2));
  const Shape bb(b.sizes().begin(), b.sizes().end() - std::min(db, 2));
  const Shape batch = ct::broadcast_shapes(ba, bb, "test");
  Shape want_shape = batch;
  if (da > 1) want_shape.push_back(n);
  if (db > 1) want_shape.push_back(p);
  ASSERT_EQ(shape_str(r.sizes()), shape_str(want_shape));
  ASSERT_EQ(r.dtype(), a.dtype());
  ASSERT_TRUE(r.is_contiguous());
  const bool integer = !ct::is_floating(a.dtype());
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  // Strides of the logical (batch..., n, k) and (batch..., k, p) views, 0 where broadcast.
  const int64_t a_rs = da > 1 ? a.stride(da - 2) : 0, a_cs = a.stride(da - 1);
  const int64_t b_rs = b.stride(db > 1 ? db - 2 : 0), b_cs = db > 1 ? b.stride(db - 1) : 0;
  std::vector<int64_t> a_bs(batch.size(), 0), b_bs(batch.size(), 0);
  for (size_t d = 0; d < ba.size(); ++d) {
    if (ba[d] != 1) a_bs[d + batch.size() - ba.size()] = a.stride(int(d));
  }
  for (size_t d = 0; d < bb.size(); ++d) {
    if (bb[d] != 1) b_bs[d + batch.size() - bb.size()] = b.stride(int(d));
  }
  std::vector<int64_t> bi(batch.size(), 0);
  int64_t flat = 0;
  int failures = 0;
  for (int64_t it = 0; it < nb; ++it) {
    int64_t a0 = 0, b0 = 0;
    for (size_t d = 0; d < batch.size(); ++d) {
      a0 += bi[d] * a_bs[d];
      b0 += bi[d] * b_bs[d];
    }
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < p; ++j, ++flat) {
        uint64_t iacc = 0;
        long double facc = 0, scale = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          int64_t xi = 0, yi = 0;
          const long double x = get_at(a, a0 + i * a_rs + kk * a_cs, &xi);
          const long double y = get_at(b, b0 + kk * b_rs + j * b_cs, &yi);
          iacc += uint64_t(xi) * uint64_t(yi);
          facc += x * y;
          scale += std::fabs(x * y);
        }
        // r is contiguous: element `flat` in C order is at offset flat.
        int64_t gi = 0;
        const long double g = get_at(r, flat, &gi);
        if (integer) {
          int64_t want = 0;
          CT_DISPATCH_ALL(a.dtype(), [&] { want = int64_t(ct::convert<scalar_t>(int64_t(iacc))); });
          if (gi != want && failures++ < 5) ADD_FAILURE() << "element " << flat << ": got " << gi << ", want " << want;
        } else {
          long double tol;
          switch (a.dtype()) {
            case DType::Float64: tol = 1e-13L * scale; break;
            case DType::Float32: tol = 1e-5L * scale; break;
            default: tol = std::ldexp(1.0L, -8) * std::fabs(facc) + 1e-5L * scale; break;
          }
          if (!(std::fabs(double(g - facc)) <= double(tol) + 1e-30) && failures++ < 5) {
            ADD_FAILURE() << "element " << flat << ": got " << double(g) << ", want " << double(facc);
          }
        }
      }
    }
    for (int d = int(batch.size()) - 1; d >= 0; --d) {
      if (++bi[size_t(d)] < batch[size_t(d)]) break;
      bi[size_t(d)] = 0;
    }
  }
}

Ref<Tensor> random_tensor(Shape sizes, DType dt, std::mt19937_64& rng) {
  Ref<Tensor> t = Tensor::empty(sizes, dt, "test");
  fill_random(*t, rng);
  return t;
}

const DType kComputeDTypes[] = {DType::UInt8, DType::Int8,     DType::Int16,   DType::Int32,
                                DType::Int64, DType::BFloat16, DType::Float32, DType::Float64};

// ---- every torch path, with broadcasting --------------------------------------------------------

TEST(Matmul, ShapesAndBroadcastingAgainstALoop) {
  const std::pair<Shape, Shape> cases[] = {
      {{5}, {5}},          {{1}, {1}},          {{3, 5}, {5}},          {{5}, {5, 4}},
      {{3, 5}, {5, 4}},    {{1, 5}, {5, 1}},    {{2, 3, 5}, {5, 4}},    {{2, 3, 5}, {5}},
      {{5}, {2, 5, 4}},    {{3, 5}, {2, 5, 4}}, {{2, 3, 5}, {2, 5, 4}}, {{2, 1, 3, 4}, {5, 4, 2}},
      {{5, 4, 3, 2}, {2, 6}}, {{1, 2, 3}, {4, 3, 5}}, {{6, 1, 4, 5}, {1, 3, 5, 2}}, {{3, 2, 2, 3}, {3, 1, 3, 2}},
      {{2, 2, 1, 3}, {3, 1}}, {{1, 1, 3}, {1, 3, 1}},
  };
  std::mt19937_64 rng(1);
  for (DType dt : kComputeDTypes) {
    for (const auto& [sa, sb] : cases) {
      Ref<Tensor> a = random_tensor(sa, dt, rng), b = random_tensor(sb, dt, rng);
      check_against_loop(*a, *b, *ct::matmul(*a, *b), "broadcast");
    }
  }
}

// ---- layouts ------------------------------------------------------------------------------------

// A (rows x cols) matrix in one of several layouts, filled with random values.
Ref<Tensor> matrix(int64_t rows, int64_t cols, int layout, DType dt, std::mt19937_64& rng) {
  Ref<Tensor> t;
  switch (layout) {
    case 0:  // row-major
      t = Tensor::empty(Shape{rows, cols}, dt, "test");
      break;
    case 1:  // column-major (a transposed row-major matrix)
      t = ct::transpose(*Tensor::empty(Shape{cols, rows}, dt, "test"), 0, 1);
      break;
    case 2:  // rows with a leading dimension larger than cols, at an offset
      t = ct::narrow(*Tensor::empty(Shape{rows, cols + 3}, dt, "test"), 1, 2, cols);
      break;
    case 3:  // every second column: no unit stride, BLAS needs a packed copy
      t = ct::slice(*Tensor::empty(Shape{rows, 2 * cols}, dt, "test"), 1, 0, 2 * cols, 2);
      break;
    case 4:  // one row broadcast (stride 0): packed too
      t = ct::expand(*Tensor::empty(Shape{1, cols}, dt, "test"), Shape{rows, cols});
      break;
    default:  // column-major with a leading dimension
      t = ct::transpose(*ct::narrow(*Tensor::empty(Shape{cols, rows + 5}, dt, "test"), 1, 1, rows), 0, 1);
      break;
  }
  if (layout == 4) {
    // Fill the one real row.
    Ref<Tensor> row = ct::select(*t, 0, 0);
    fill_random(*row, rng);
  } else {
    fill_random(*t, rng);
  }
  return t;
}

TEST(Matmul, BlasLayoutsAndPacking) {
  std::mt19937_64 rng(2);
  const int64_t dims[] = {1, 2, 7, 33};
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::BFloat16}) {
    for (int64_t n : dims) {
      for (int64_t k : dims) {
        for (int64_t p : dims) {
          for (int la = 0; la < 6; ++la) {
            for (int lb = 0; lb < 6; ++lb) {
              if ((la == 4 || lb == 4) && (n + k + p) % 2) continue;  // keep the sweep short
              Ref<Tensor> a = matrix(n, k, la, dt, rng), b = matrix(k, p, lb, dt, rng);
              check_against_loop(*a, *b, *ct::matmul(*a, *b),
                                 "layouts " + std::to_string(la) + "," + std::to_string(lb));
            }
          }
        }
      }
    }
  }
}

TEST(Matmul, StridedVectors) {
  std::mt19937_64 rng(3);
  for (DType dt : {DType::Float32, DType::Float64, DType::Int64}) {
    Ref<Tensor> v = ct::slice(*random_tensor({21}, dt, rng), 0, 0, 21, 3);  // 7 elements, stride 3
    Ref<Tensor> e = ct::expand(*random_tensor({1}, dt, rng), Shape{7});    // stride 0
    Ref<Tensor> m = random_tensor({7, 4}, dt, rng);
    Ref<Tensor> mt = ct::transpose(*random_tensor({7, 4}, dt, rng), 0, 1);  // 4 x 7, column-major
    for (const Tensor* x : {v.get(), e.get()}) {
      for (const Tensor* y : {v.get(), e.get()}) check_against_loop(*x, *y, *ct::matmul(*x, *y), "dot");
      check_against_loop(*x, *m, *ct::matmul(*x, *m), "vector @ matrix");
      check_against_loop(*mt, *x, *ct::matmul(*mt, *x), "matrix @ vector");
    }
  }
}

TEST(Matmul, BatchedLayouts) {
  std::mt19937_64 rng(4);
  for (DType dt : {DType::Float32, DType::Float64, DType::Int16}) {
    // A batch of transposed matrices (torch does not fold this one), a step-sliced batch,
    // an expanded batch, and a permuted 4-D tensor.
    Ref<Tensor> t1 = ct::transpose(*random_tensor({3, 5, 4}, dt, rng), 1, 2);    // (3, 4, 5)
    Ref<Tensor> t2 = ct::slice(*random_tensor({6, 5, 2}, dt, rng), 0, 0, 6, 2);  // (3, 5, 2)
    Ref<Tensor> t3 = ct::expand(*random_tensor({1, 5, 2}, dt, rng), Shape{3, 5, 2});
    const int perm[] = {1, 3, 2, 0};
    Ref<Tensor> t4 = ct::permute(*random_tensor({5, 4, 2, 3}, dt, rng), perm);  // (4, 3, 2, 5)
    Ref<Tensor> m = random_tensor({5, 2}, dt, rng);
    check_against_loop(*t1, *t2, *ct::matmul(*t1, *t2), "transposed @ sliced");
    check_against_loop(*t1, *t3, *ct::matmul(*t1, *t3), "transposed @ expanded");
    check_against_loop(*t1, *m, *ct::matmul(*t1, *m), "transposed batch @ matrix");
    check_against_loop(*t4, *m, *ct::matmul(*t4, *m), "permuted 4-D @ matrix");
    check_against_loop(*t4, *t2, *ct::matmul(*t4, *t2), "permuted 4-D @ batch");
    Ref<Tensor> v = random_tensor({5}, dt, rng);
    check_against_loop(*t4, *v, *ct::matmul(*t4, *v), "permuted 4-D @ vector");
    Ref<Tensor> w = random_tensor({4}, dt, rng);
    check_against_loop(*w, *t1, *ct::matmul(*w, *t1), "vector @ transposed batch");
  }
}

TEST(Matmul, LargerProducts) {
  std::mt19937_64 rng(5);
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::BFloat16}) {
    Ref<Tensor> a = random_tensor({130, 70}, dt, rng), b = random_tensor({70, 90}, dt, rng);
    check_against_loop(*a, *b, *ct::matmul(*a, *b), "130x70 @ 70x90");
    Ref<Tensor> bt = ct::transpose(*random_tensor({90, 70}, dt, rng), 0, 1);
    check_against_loop(*a, *bt, *ct::matmul(*a, *bt), "130x70 @ (90x70)^T");
  }
}

// matmul zeroes the result itself and has BLAS add the product into it (beta = 1: OpenBLAS's
// own zeroing is one scalar store at a time on some CPUs).  A result buffer that held NaN
// before (the buffer cache hands back a freed one of the same size) must come out right; and
// an empty sum (k = 0) gives zeros.
TEST(Matmul, BlasResultOverwritesWhatTheBufferHeld) {
  std::mt19937_64 rng(7);
  for (DType dt : {DType::Float32, DType::Float64}) {
    Ref<Tensor> a = random_tensor({100, 80}, dt, rng), b = random_tensor({80, 120}, dt, rng);
    // 100 x 120 results are over the cache's 64 KiB floor: the NaN buffer released here is
    // the one the product gets
    (void)ct::full(Shape{100, 120}, std::nan(""), dt);  // released at once
    check_against_loop(*a, *b, *ct::matmul(*a, *b), "after a NaN buffer");
    (void)ct::full(Shape{100, 120}, std::nan(""), dt);  // released at once
    Ref<Tensor> empty_a = random_tensor({100, 0}, dt, rng), empty_b = random_tensor({0, 120}, dt, rng);
    Ref<Tensor> z = ct::matmul(*empty_a, *empty_b);
    ASSERT_EQ(z->numel(), 100 * 120);
    std::vector<unsigned char> bytes(size_t(z->numel() * ct::itemsize(dt)), 1);
    std::memcpy(bytes.data(), z->data(), bytes.size());
    for (unsigned char c : bytes) ASSERT_EQ(c, 0) << ct::dtype_name(dt) << ": k = 0 gives zeros";
  }
}

TEST(Matmul, IntegersWrapLikeTheNarrowType) {
  // int8: 100 * 100 * 3 = 30000 -> 30000 mod 256 as int8 (torch computes in int8).
  std::vector<int8_t> x(3, 100);
  Ref<Tensor> v = ct::from_data(x.data(), Shape{3}, DType::Int8);
  Ref<Tensor> r = ct::matmul(*v, *v);
  EXPECT_EQ(r->dtype(), DType::Int8);
  EXPECT_EQ(int(*reinterpret_cast<const int8_t*>(r->data())), int(int8_t(30000 & 0xff)));
  std::vector<int64_t> y{int64_t(1) << 62, 4};
  Ref<Tensor> w = ct::from_data(y.data(), Shape{2}, DType::Int64);
  EXPECT_EQ(*reinterpret_cast<const int64_t*>(ct::matmul(*w, *w)->data()), 16);  // 2^124 wraps to 0
}

TEST(Matmul, ResultIsANewContiguousTensorAndInputsAreUntouched) {
  std::mt19937_64 rng(6);
  Ref<Tensor> a = random_tensor({4, 3}, DType::Float32, rng);
  Ref<Tensor> at = ct::transpose(*a, 0, 1);
  Ref<Tensor> r = ct::matmul(*at, *a);
  EXPECT_TRUE(r->is_contiguous());
  EXPECT_FALSE(r->is_view());
  EXPECT_NE(r->storage(), a->storage());
  EXPECT_EQ(a->version(), 0);
}

class MatmulThreads : public ::testing::Test {
 protected:
  void TearDown() override { ct::set_num_threads(0); }
};

TEST_F(MatmulThreads, OwnLoopDoesNotDependOnTheThreadCount) {
  std::mt19937_64 rng(7);
  for (DType dt : {DType::Int64, DType::BFloat16, DType::Int8}) {
    Ref<Tensor> a = random_tensor({300, 40}, dt, rng), b = random_tensor({40, 50}, dt, rng);
    std::vector<char> first;
    for (int threads : {1, 2, 3}) {
      ct::set_num_threads(threads);
      Ref<Tensor> r = ct::matmul(*a, *b);
      std::vector<char> bytes(size_t(r->numel() * r->itemsize()));
      std::memcpy(bytes.data(), r->data(), bytes.size());
      if (threads == 1) {
        first = bytes;
      } else {
        EXPECT_TRUE(bytes == first) << ct::dtype_name(dt) << " with " << threads << " threads";
      }
    }
  }
}

// ---- generated from PyTorch 2.13 ----------------------------------------------------------------

struct Case {
  Shape a_base;
  std::vector<int> a_perm;
  int64_t a_step;
  int a_dtype;
  Shape b_base;
  std::vector<int> b_perm;
  int64_t b_step;
  int b_dtype;
  Shape out_sizes;
  int out_dtype;  // -1: error
  const char* kind;
  const char* message;
};

const Case kCases[] = {
    // BEGIN GENERATED matmul_cases (tests/tools/gen_reduce_cases.py)
    {{3}, {}, 1, 8, {3}, {}, 1, 8, {}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {3}, {}, 1, 8, {2}, 8, nullptr, nullptr},
    {{3}, {}, 1, 8, {3, 2}, {}, 1, 8, {2}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {3, 4}, {}, 1, 8, {2, 4}, 8, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 8, {3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{3}, {}, 1, 8, {2, 3, 4}, {}, 1, 8, {2, 4}, 8, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 8, {3}, {}, 1, 8, {2, 2}, 8, nullptr, nullptr},
    {{2, 1, 3, 4}, {}, 1, 8, {5, 4, 2}, {}, 1, 8, {2, 5, 3, 2}, 8, nullptr, nullptr},
    {{3, 2, 2, 3}, {}, 1, 8, {4, 1, 3, 2}, {}, 1, 8, {}, -1, "Shape", "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"},
    {{2, 2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 8, {4}, {}, 1, 8, {}, -1, "Shape", "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively"},
    {{2, 3}, {}, 1, 8, {4}, {}, 1, 8, {}, -1, "Shape", "size mismatch, got input (2), mat (2x3), vec (4)"},
    {{3}, {}, 1, 8, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"},
    {{2, 2, 3}, {}, 1, 8, {3, 4, 5}, {}, 1, 8, {}, -1, "Shape", "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"},
    {{2, 2, 3}, {}, 1, 8, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)"},
    {{2, 3}, {}, 1, 8, {2, 4, 5}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."},
    {{2, 2, 3}, {}, 1, 8, {3, 3, 2}, {}, 1, 8, {}, -1, "Shape", "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"},
    {{2, 2, 3}, {}, 1, 8, {4}, {}, 1, 8, {}, -1, "Shape", "size mismatch, got input (4), mat (4x3), vec (4)"},
    {{3}, {}, 1, 8, {2, 4, 5}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."},
    {{2, 2, 3}, {}, 1, 8, {2, 4, 5}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."},
    {{3, 2, 2, 3}, {}, 1, 8, {4, 1, 3, 2}, {}, 1, 8, {}, -1, "Shape", "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"},
    {{2, 2, 2, 3}, {}, 1, 8, {3, 3, 3, 2}, {}, 1, 8, {}, -1, "Shape", "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"},
    {{}, {}, 1, 8, {3}, {}, 1, 8, {}, -1, "Shape", "both arguments to matmul need to be at least 1D, but they are 0D and 1D"},
    {{3}, {}, 1, 8, {}, {}, 1, 8, {}, -1, "Shape", "both arguments to matmul need to be at least 1D, but they are 1D and 0D"},
    {{}, {}, 1, 8, {}, {}, 1, 8, {}, -1, "Shape", "both arguments to matmul need to be at least 1D, but they are 0D and 0D"},
    {{2, 2, 3}, {0, 2, 1}, 1, 8, {4, 5}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 2] but got: [2, 4]."},
    {{2, 2, 3}, {0, 2, 1}, 1, 8, {2, 5}, {}, 1, 8, {2, 3, 5}, 8, nullptr, nullptr},
    {{2, 2, 3}, {0, 2, 1}, 1, 8, {3}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 2] but got: [2, 3]."},
    {{4, 5}, {}, 1, 8, {2, 2, 3}, {0, 2, 1}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 3]."},
    {{2, 3, 4}, {}, 2, 8, {5, 5}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5]."},
    {{2, 3, 5, 4}, {0, 1, 3, 2}, 1, 8, {6, 7}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [6, 5] but got: [6, 6]."},
    {{2, 4, 3}, {2, 1, 0}, 1, 8, {6, 7}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [3, 2] but got: [3, 6]."},
    {{2, 3, 2}, {0, 2, 1}, 1, 8, {2, 4}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 2]."},
    {{0}, {}, 1, 8, {0}, {}, 1, 8, {}, 8, nullptr, nullptr},
    {{2, 0}, {}, 1, 8, {0, 3}, {}, 1, 8, {2, 3}, 8, nullptr, nullptr},
    {{0, 3}, {}, 1, 8, {3, 4}, {}, 1, 8, {0, 4}, 8, nullptr, nullptr},
    {{2, 0, 3}, {}, 1, 8, {3, 4}, {}, 1, 8, {2, 0, 4}, 8, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 8, {1, 3, 4}, {}, 1, 8, {0, 2, 4}, 8, nullptr, nullptr},
    {{3, 4}, {}, 1, 8, {2, 0, 3}, {}, 1, 8, {}, -1, "Shape", "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 0]."},
    {{5, 0}, {}, 1, 8, {0, 3}, {}, 1, 8, {5, 3}, 8, nullptr, nullptr},
    {{2, 3, 0}, {}, 1, 8, {0, 3}, {}, 1, 8, {2, 3, 3}, 8, nullptr, nullptr},
    {{2, 3, 0}, {}, 1, 8, {0}, {}, 1, 8, {2, 3}, 8, nullptr, nullptr},
    {{2, 3, 0}, {}, 1, 8, {1}, {}, 1, 8, {}, -1, "Shape", "size mismatch, got input (6), mat (6x0), vec (1)"},
    {{0, 3, 0}, {}, 1, 8, {1, 3}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (0x0 and 1x3)"},
    {{3, 4}, {}, 1, 8, {0, 4, 3}, {}, 1, 8, {0, 3, 3}, 8, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 8, {2, 0, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0, 2}, {}, 1, 8, {2}, {}, 1, 8, {0}, 8, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 8, {3, 0, 2}, {}, 1, 8, {3, 2, 2}, 8, nullptr, nullptr},
    {{3}, {}, 1, 0, {3}, {}, 1, 0, {}, -1, "DType", "\"dot\" not implemented for 'Bool'"},
    {{2, 3}, {}, 1, 0, {3}, {}, 1, 0, {}, -1, "DType", "\"addmv_impl_cpu\" not implemented for 'Bool'"},
    {{3}, {}, 1, 0, {3, 2}, {}, 1, 0, {}, -1, "DType", "\"addmm_impl_cpu_\" not implemented for 'Bool'"},
    {{2, 3}, {}, 1, 0, {3, 2}, {}, 1, 0, {}, -1, "DType", "\"addmm_impl_cpu_\" not implemented for 'Bool'"},
    {{2, 2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 0, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{2, 8, 8}, {}, 1, 0, {2, 8, 7}, {}, 1, 0, {}, -1, "DType", "\"addmm_impl_cpu_\" not implemented for 'Bool'"},
    {{2, 2, 3}, {}, 1, 0, {3, 2}, {}, 1, 0, {}, -1, "DType", "\"addmm_impl_cpu_\" not implemented for 'Bool'"},
    {{2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 0, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{0}, {}, 1, 0, {0}, {}, 1, 0, {}, -1, "DType", "\"dot\" not implemented for 'Bool'"},
    {{2, 0}, {}, 1, 0, {0, 2}, {}, 1, 0, {2, 2}, 0, nullptr, nullptr},
    {{0, 2}, {}, 1, 0, {2}, {}, 1, 0, {0}, 0, nullptr, nullptr},
    {{2, 0}, {}, 1, 0, {0}, {}, 1, 0, {2}, 0, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 0, {2, 0, 2}, {}, 1, 0, {2, 2, 2}, 0, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 0, {0, 3, 2}, {}, 1, 0, {0, 2, 2}, 0, nullptr, nullptr},
    {{0, 3}, {}, 1, 0, {3, 2}, {}, 1, 0, {0, 2}, 0, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 0, {0, 2}, {}, 1, 0, {3, 2, 2}, 0, nullptr, nullptr},
    {{3}, {}, 1, 1, {3}, {}, 1, 1, {}, 1, nullptr, nullptr},
    {{2, 3}, {}, 1, 1, {3}, {}, 1, 1, {2}, 1, nullptr, nullptr},
    {{3}, {}, 1, 1, {3, 2}, {}, 1, 1, {2}, 1, nullptr, nullptr},
    {{2, 3}, {}, 1, 1, {3, 2}, {}, 1, 1, {2, 2}, 1, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 1, {2, 3, 2}, {}, 1, 1, {2, 2, 2}, 1, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 1, {2, 8, 7}, {}, 1, 1, {2, 8, 7}, 1, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 1, {3, 2}, {}, 1, 1, {2, 2, 2}, 1, nullptr, nullptr},
    {{2, 3}, {}, 1, 1, {2, 3, 2}, {}, 1, 1, {2, 2, 2}, 1, nullptr, nullptr},
    {{0}, {}, 1, 1, {0}, {}, 1, 1, {}, 1, nullptr, nullptr},
    {{2, 0}, {}, 1, 1, {0, 2}, {}, 1, 1, {2, 2}, 1, nullptr, nullptr},
    {{0, 2}, {}, 1, 1, {2}, {}, 1, 1, {0}, 1, nullptr, nullptr},
    {{2, 0}, {}, 1, 1, {0}, {}, 1, 1, {2}, 1, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 1, {2, 0, 2}, {}, 1, 1, {2, 2, 2}, 1, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 1, {0, 3, 2}, {}, 1, 1, {0, 2, 2}, 1, nullptr, nullptr},
    {{0, 3}, {}, 1, 1, {3, 2}, {}, 1, 1, {0, 2}, 1, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 1, {0, 2}, {}, 1, 1, {3, 2, 2}, 1, nullptr, nullptr},
    {{3}, {}, 1, 2, {3}, {}, 1, 2, {}, 2, nullptr, nullptr},
    {{2, 3}, {}, 1, 2, {3}, {}, 1, 2, {2}, 2, nullptr, nullptr},
    {{3}, {}, 1, 2, {3, 2}, {}, 1, 2, {2}, 2, nullptr, nullptr},
    {{2, 3}, {}, 1, 2, {3, 2}, {}, 1, 2, {2, 2}, 2, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 2, {2, 3, 2}, {}, 1, 2, {2, 2, 2}, 2, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 2, {2, 8, 7}, {}, 1, 2, {2, 8, 7}, 2, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 2, {3, 2}, {}, 1, 2, {2, 2, 2}, 2, nullptr, nullptr},
    {{2, 3}, {}, 1, 2, {2, 3, 2}, {}, 1, 2, {2, 2, 2}, 2, nullptr, nullptr},
    {{0}, {}, 1, 2, {0}, {}, 1, 2, {}, 2, nullptr, nullptr},
    {{2, 0}, {}, 1, 2, {0, 2}, {}, 1, 2, {2, 2}, 2, nullptr, nullptr},
    {{0, 2}, {}, 1, 2, {2}, {}, 1, 2, {0}, 2, nullptr, nullptr},
    {{2, 0}, {}, 1, 2, {0}, {}, 1, 2, {2}, 2, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 2, {2, 0, 2}, {}, 1, 2, {2, 2, 2}, 2, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 2, {0, 3, 2}, {}, 1, 2, {0, 2, 2}, 2, nullptr, nullptr},
    {{0, 3}, {}, 1, 2, {3, 2}, {}, 1, 2, {0, 2}, 2, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 2, {0, 2}, {}, 1, 2, {3, 2, 2}, 2, nullptr, nullptr},
    {{3}, {}, 1, 3, {3}, {}, 1, 3, {}, 3, nullptr, nullptr},
    {{2, 3}, {}, 1, 3, {3}, {}, 1, 3, {2}, 3, nullptr, nullptr},
    {{3}, {}, 1, 3, {3, 2}, {}, 1, 3, {2}, 3, nullptr, nullptr},
    {{2, 3}, {}, 1, 3, {3, 2}, {}, 1, 3, {2, 2}, 3, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 3, {2, 3, 2}, {}, 1, 3, {2, 2, 2}, 3, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 3, {2, 8, 7}, {}, 1, 3, {2, 8, 7}, 3, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 3, {3, 2}, {}, 1, 3, {2, 2, 2}, 3, nullptr, nullptr},
    {{2, 3}, {}, 1, 3, {2, 3, 2}, {}, 1, 3, {2, 2, 2}, 3, nullptr, nullptr},
    {{0}, {}, 1, 3, {0}, {}, 1, 3, {}, 3, nullptr, nullptr},
    {{2, 0}, {}, 1, 3, {0, 2}, {}, 1, 3, {2, 2}, 3, nullptr, nullptr},
    {{0, 2}, {}, 1, 3, {2}, {}, 1, 3, {0}, 3, nullptr, nullptr},
    {{2, 0}, {}, 1, 3, {0}, {}, 1, 3, {2}, 3, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 3, {2, 0, 2}, {}, 1, 3, {2, 2, 2}, 3, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 3, {0, 3, 2}, {}, 1, 3, {0, 2, 2}, 3, nullptr, nullptr},
    {{0, 3}, {}, 1, 3, {3, 2}, {}, 1, 3, {0, 2}, 3, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 3, {0, 2}, {}, 1, 3, {3, 2, 2}, 3, nullptr, nullptr},
    {{3}, {}, 1, 4, {3}, {}, 1, 4, {}, 4, nullptr, nullptr},
    {{2, 3}, {}, 1, 4, {3}, {}, 1, 4, {2}, 4, nullptr, nullptr},
    {{3}, {}, 1, 4, {3, 2}, {}, 1, 4, {2}, 4, nullptr, nullptr},
    {{2, 3}, {}, 1, 4, {3, 2}, {}, 1, 4, {2, 2}, 4, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 4, {2, 8, 7}, {}, 1, 4, {2, 8, 7}, 4, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 4, {3, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{0}, {}, 1, 4, {0}, {}, 1, 4, {}, 4, nullptr, nullptr},
    {{2, 0}, {}, 1, 4, {0, 2}, {}, 1, 4, {2, 2}, 4, nullptr, nullptr},
    {{0, 2}, {}, 1, 4, {2}, {}, 1, 4, {0}, 4, nullptr, nullptr},
    {{2, 0}, {}, 1, 4, {0}, {}, 1, 4, {2}, 4, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 4, {2, 0, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 4, {0, 3, 2}, {}, 1, 4, {0, 2, 2}, 4, nullptr, nullptr},
    {{0, 3}, {}, 1, 4, {3, 2}, {}, 1, 4, {0, 2}, 4, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 4, {0, 2}, {}, 1, 4, {3, 2, 2}, 4, nullptr, nullptr},
    {{3}, {}, 1, 5, {3}, {}, 1, 5, {}, 5, nullptr, nullptr},
    {{2, 3}, {}, 1, 5, {3}, {}, 1, 5, {2}, 5, nullptr, nullptr},
    {{3}, {}, 1, 5, {3, 2}, {}, 1, 5, {2}, 5, nullptr, nullptr},
    {{2, 3}, {}, 1, 5, {3, 2}, {}, 1, 5, {2, 2}, 5, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 5, {2, 3, 2}, {}, 1, 5, {2, 2, 2}, 5, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 5, {2, 8, 7}, {}, 1, 5, {2, 8, 7}, 5, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 5, {3, 2}, {}, 1, 5, {2, 2, 2}, 5, nullptr, nullptr},
    {{2, 3}, {}, 1, 5, {2, 3, 2}, {}, 1, 5, {2, 2, 2}, 5, nullptr, nullptr},
    {{0}, {}, 1, 5, {0}, {}, 1, 5, {}, 5, nullptr, nullptr},
    {{2, 0}, {}, 1, 5, {0, 2}, {}, 1, 5, {2, 2}, 5, nullptr, nullptr},
    {{0, 2}, {}, 1, 5, {2}, {}, 1, 5, {0}, 5, nullptr, nullptr},
    {{2, 0}, {}, 1, 5, {0}, {}, 1, 5, {2}, 5, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 5, {2, 0, 2}, {}, 1, 5, {2, 2, 2}, 5, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 5, {0, 3, 2}, {}, 1, 5, {0, 2, 2}, 5, nullptr, nullptr},
    {{0, 3}, {}, 1, 5, {3, 2}, {}, 1, 5, {0, 2}, 5, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 5, {0, 2}, {}, 1, 5, {3, 2, 2}, 5, nullptr, nullptr},
    {{3}, {}, 1, 6, {3}, {}, 1, 6, {}, 6, nullptr, nullptr},
    {{2, 3}, {}, 1, 6, {3}, {}, 1, 6, {2}, 6, nullptr, nullptr},
    {{3}, {}, 1, 6, {3, 2}, {}, 1, 6, {2}, 6, nullptr, nullptr},
    {{2, 3}, {}, 1, 6, {3, 2}, {}, 1, 6, {2, 2}, 6, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 6, {2, 8, 7}, {}, 1, 6, {2, 8, 7}, 6, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 6, {3, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{0}, {}, 1, 6, {0}, {}, 1, 6, {}, 6, nullptr, nullptr},
    {{2, 0}, {}, 1, 6, {0, 2}, {}, 1, 6, {2, 2}, 6, nullptr, nullptr},
    {{0, 2}, {}, 1, 6, {2}, {}, 1, 6, {0}, 6, nullptr, nullptr},
    {{2, 0}, {}, 1, 6, {0}, {}, 1, 6, {2}, 6, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 6, {2, 0, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 6, {0, 3, 2}, {}, 1, 6, {0, 2, 2}, 6, nullptr, nullptr},
    {{0, 3}, {}, 1, 6, {3, 2}, {}, 1, 6, {0, 2}, 6, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 6, {0, 2}, {}, 1, 6, {3, 2, 2}, 6, nullptr, nullptr},
    {{3}, {}, 1, 7, {3}, {}, 1, 7, {}, 7, nullptr, nullptr},
    {{2, 3}, {}, 1, 7, {3}, {}, 1, 7, {2}, 7, nullptr, nullptr},
    {{3}, {}, 1, 7, {3, 2}, {}, 1, 7, {2}, 7, nullptr, nullptr},
    {{2, 3}, {}, 1, 7, {3, 2}, {}, 1, 7, {2, 2}, 7, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 7, {2, 3, 2}, {}, 1, 7, {2, 2, 2}, 7, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 7, {2, 8, 7}, {}, 1, 7, {2, 8, 7}, 7, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 7, {3, 2}, {}, 1, 7, {2, 2, 2}, 7, nullptr, nullptr},
    {{2, 3}, {}, 1, 7, {2, 3, 2}, {}, 1, 7, {2, 2, 2}, 7, nullptr, nullptr},
    {{0}, {}, 1, 7, {0}, {}, 1, 7, {}, 7, nullptr, nullptr},
    {{2, 0}, {}, 1, 7, {0, 2}, {}, 1, 7, {2, 2}, 7, nullptr, nullptr},
    {{0, 2}, {}, 1, 7, {2}, {}, 1, 7, {0}, 7, nullptr, nullptr},
    {{2, 0}, {}, 1, 7, {0}, {}, 1, 7, {2}, 7, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 7, {2, 0, 2}, {}, 1, 7, {2, 2, 2}, 7, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 7, {0, 3, 2}, {}, 1, 7, {0, 2, 2}, 7, nullptr, nullptr},
    {{0, 3}, {}, 1, 7, {3, 2}, {}, 1, 7, {0, 2}, 7, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 7, {0, 2}, {}, 1, 7, {3, 2, 2}, 7, nullptr, nullptr},
    {{3}, {}, 1, 8, {3}, {}, 1, 8, {}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {3}, {}, 1, 8, {2}, 8, nullptr, nullptr},
    {{3}, {}, 1, 8, {3, 2}, {}, 1, 8, {2}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {3, 2}, {}, 1, 8, {2, 2}, 8, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 8, {2, 8, 7}, {}, 1, 8, {2, 8, 7}, 8, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 8, {3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0}, {}, 1, 8, {0}, {}, 1, 8, {}, 8, nullptr, nullptr},
    {{2, 0}, {}, 1, 8, {0, 2}, {}, 1, 8, {2, 2}, 8, nullptr, nullptr},
    {{0, 2}, {}, 1, 8, {2}, {}, 1, 8, {0}, 8, nullptr, nullptr},
    {{2, 0}, {}, 1, 8, {0}, {}, 1, 8, {2}, 8, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 8, {2, 0, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 8, {0, 3, 2}, {}, 1, 8, {0, 2, 2}, 8, nullptr, nullptr},
    {{0, 3}, {}, 1, 8, {3, 2}, {}, 1, 8, {0, 2}, 8, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 8, {0, 2}, {}, 1, 8, {3, 2, 2}, 8, nullptr, nullptr},
    {{3}, {}, 1, 9, {3}, {}, 1, 9, {}, 9, nullptr, nullptr},
    {{2, 3}, {}, 1, 9, {3}, {}, 1, 9, {2}, 9, nullptr, nullptr},
    {{3}, {}, 1, 9, {3, 2}, {}, 1, 9, {2}, 9, nullptr, nullptr},
    {{2, 3}, {}, 1, 9, {3, 2}, {}, 1, 9, {2, 2}, 9, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{2, 8, 8}, {}, 1, 9, {2, 8, 7}, {}, 1, 9, {2, 8, 7}, 9, nullptr, nullptr},
    {{2, 2, 3}, {}, 1, 9, {3, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{0}, {}, 1, 9, {0}, {}, 1, 9, {}, 9, nullptr, nullptr},
    {{2, 0}, {}, 1, 9, {0, 2}, {}, 1, 9, {2, 2}, 9, nullptr, nullptr},
    {{0, 2}, {}, 1, 9, {2}, {}, 1, 9, {0}, 9, nullptr, nullptr},
    {{2, 0}, {}, 1, 9, {0}, {}, 1, 9, {2}, 9, nullptr, nullptr},
    {{2, 2, 0}, {}, 1, 9, {2, 0, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 9, {0, 3, 2}, {}, 1, 9, {0, 2, 2}, 9, nullptr, nullptr},
    {{0, 3}, {}, 1, 9, {3, 2}, {}, 1, 9, {0, 2}, 9, nullptr, nullptr},
    {{3, 2, 0}, {}, 1, 9, {0, 2}, {}, 1, 9, {3, 2, 2}, 9, nullptr, nullptr},
    {{3}, {}, 1, 8, {3}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and Double"},
    {{2, 3}, {}, 1, 8, {3}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Float, and Double"},
    {{3}, {}, 1, 8, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{2, 3}, {}, 1, 8, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{2, 2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "expected scalar type Float but found Double"},
    {{2, 8, 8}, {}, 1, 8, {2, 8, 7}, {}, 1, 9, {}, -1, "DType", "expected scalar type Double but found Float"},
    {{2, 2, 3}, {}, 1, 8, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "expected scalar type Float but found Double"},
    {{0}, {}, 1, 8, {0}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and Double"},
    {{2, 0}, {}, 1, 8, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{0, 2}, {}, 1, 8, {2}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Float, and Double"},
    {{2, 0}, {}, 1, 8, {0}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Float, and Double"},
    {{2, 2, 0}, {}, 1, 8, {2, 0, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 8, {0, 3, 2}, {}, 1, 9, {0, 2, 2}, 9, nullptr, nullptr},
    {{0, 3}, {}, 1, 8, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{3, 2, 0}, {}, 1, 8, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != double"},
    {{2, 3}, {}, 1, 8, {4, 5}, {}, 1, 9, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 9, {3}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Float"},
    {{2, 3}, {}, 1, 9, {3}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Double, and Float"},
    {{3}, {}, 1, 9, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{2, 3}, {}, 1, 9, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{2, 2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type Double but found Float"},
    {{2, 8, 8}, {}, 1, 9, {2, 8, 7}, {}, 1, 8, {}, -1, "DType", "expected scalar type Float but found Double"},
    {{2, 2, 3}, {}, 1, 9, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type Double but found Float"},
    {{0}, {}, 1, 9, {0}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Float"},
    {{2, 0}, {}, 1, 9, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{0, 2}, {}, 1, 9, {2}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Double, and Float"},
    {{2, 0}, {}, 1, 9, {0}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Double, and Float"},
    {{2, 2, 0}, {}, 1, 9, {2, 0, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 9, {0, 3, 2}, {}, 1, 8, {0, 2, 2}, 8, nullptr, nullptr},
    {{0, 3}, {}, 1, 9, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{3, 2, 0}, {}, 1, 9, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != float"},
    {{2, 3}, {}, 1, 9, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 4, {3}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Float"},
    {{2, 3}, {}, 1, 4, {3}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Int, and Float"},
    {{3}, {}, 1, 4, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{2, 3}, {}, 1, 4, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{2, 2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type Int but found Float"},
    {{2, 8, 8}, {}, 1, 4, {2, 8, 7}, {}, 1, 8, {}, -1, "DType", "expected scalar type Float but found Int"},
    {{2, 2, 3}, {}, 1, 4, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type Int but found Float"},
    {{0}, {}, 1, 4, {0}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Float"},
    {{2, 0}, {}, 1, 4, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{0, 2}, {}, 1, 4, {2}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Int, and Float"},
    {{2, 0}, {}, 1, 4, {0}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, Int, and Float"},
    {{2, 2, 0}, {}, 1, 4, {2, 0, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 4, {0, 3, 2}, {}, 1, 8, {0, 2, 2}, 8, nullptr, nullptr},
    {{0, 3}, {}, 1, 4, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{3, 2, 0}, {}, 1, 4, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != float"},
    {{2, 3}, {}, 1, 4, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 8, {3}, {}, 1, 4, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and Int"},
    {{2, 3}, {}, 1, 8, {3}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Float, and Int"},
    {{3}, {}, 1, 8, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{2, 3}, {}, 1, 8, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{2, 2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 4, {}, -1, "DType", "expected scalar type Float but found Int"},
    {{2, 8, 8}, {}, 1, 8, {2, 8, 7}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{2, 2, 3}, {}, 1, 8, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 4, {}, -1, "DType", "expected scalar type Float but found Int"},
    {{0}, {}, 1, 8, {0}, {}, 1, 4, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and Int"},
    {{2, 0}, {}, 1, 8, {0, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{0, 2}, {}, 1, 8, {2}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Float, and Int"},
    {{2, 0}, {}, 1, 8, {0}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Float, and Int"},
    {{2, 2, 0}, {}, 1, 8, {2, 0, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 8, {0, 3, 2}, {}, 1, 4, {0, 2, 2}, 4, nullptr, nullptr},
    {{0, 3}, {}, 1, 8, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{3, 2, 0}, {}, 1, 8, {0, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != int"},
    {{2, 3}, {}, 1, 8, {4, 5}, {}, 1, 4, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 0, {3}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Bool and Double"},
    {{2, 3}, {}, 1, 0, {3}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Bool, and Double"},
    {{3}, {}, 1, 0, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{2, 3}, {}, 1, 0, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{2, 2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{2, 8, 8}, {}, 1, 0, {2, 8, 7}, {}, 1, 9, {}, -1, "DType", "expected scalar type Double but found Bool"},
    {{2, 2, 3}, {}, 1, 0, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{0}, {}, 1, 0, {0}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Bool and Double"},
    {{2, 0}, {}, 1, 0, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{0, 2}, {}, 1, 0, {2}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Bool, and Double"},
    {{2, 0}, {}, 1, 0, {0}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Bool, and Double"},
    {{2, 2, 0}, {}, 1, 0, {2, 0, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 0, {0, 3, 2}, {}, 1, 9, {0, 2, 2}, 9, nullptr, nullptr},
    {{0, 3}, {}, 1, 0, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{3, 2, 0}, {}, 1, 0, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != double"},
    {{2, 3}, {}, 1, 0, {4, 5}, {}, 1, 9, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 9, {3}, {}, 1, 0, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Bool"},
    {{2, 3}, {}, 1, 9, {3}, {}, 1, 0, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Bool, Double, and Bool"},
    {{3}, {}, 1, 9, {3, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{2, 3}, {}, 1, 9, {3, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{2, 2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 0, {}, -1, "DType", "expected scalar type Double but found Bool"},
    {{2, 8, 8}, {}, 1, 9, {2, 8, 7}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{2, 2, 3}, {}, 1, 9, {3, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 0, {}, -1, "DType", "expected scalar type Double but found Bool"},
    {{0}, {}, 1, 9, {0}, {}, 1, 0, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Bool"},
    {{2, 0}, {}, 1, 9, {0, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{0, 2}, {}, 1, 9, {2}, {}, 1, 0, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Bool, Double, and Bool"},
    {{2, 0}, {}, 1, 9, {0}, {}, 1, 0, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Bool, Double, and Bool"},
    {{2, 2, 0}, {}, 1, 9, {2, 0, 2}, {}, 1, 0, {2, 2, 2}, 0, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 9, {0, 3, 2}, {}, 1, 0, {0, 2, 2}, 0, nullptr, nullptr},
    {{0, 3}, {}, 1, 9, {3, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{3, 2, 0}, {}, 1, 9, {0, 2}, {}, 1, 0, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != bool"},
    {{2, 3}, {}, 1, 9, {4, 5}, {}, 1, 0, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 6, {3}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Half and Double"},
    {{2, 3}, {}, 1, 6, {3}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Half, and Double"},
    {{3}, {}, 1, 6, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{2, 3}, {}, 1, 6, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{2, 2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "expected scalar type Half but found Double"},
    {{2, 8, 8}, {}, 1, 6, {2, 8, 7}, {}, 1, 9, {}, -1, "DType", "expected scalar type Double but found Half"},
    {{2, 2, 3}, {}, 1, 6, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 9, {}, -1, "DType", "expected scalar type Half but found Double"},
    {{0}, {}, 1, 6, {0}, {}, 1, 9, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Half and Double"},
    {{2, 0}, {}, 1, 6, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{0, 2}, {}, 1, 6, {2}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Half, and Double"},
    {{2, 0}, {}, 1, 6, {0}, {}, 1, 9, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Double, Half, and Double"},
    {{2, 2, 0}, {}, 1, 6, {2, 0, 2}, {}, 1, 9, {2, 2, 2}, 9, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 6, {0, 3, 2}, {}, 1, 9, {0, 2, 2}, 9, nullptr, nullptr},
    {{0, 3}, {}, 1, 6, {3, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{3, 2, 0}, {}, 1, 6, {0, 2}, {}, 1, 9, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != double"},
    {{2, 3}, {}, 1, 6, {4, 5}, {}, 1, 9, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 9, {3}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Half"},
    {{2, 3}, {}, 1, 9, {3}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Double, and Half"},
    {{3}, {}, 1, 9, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{2, 3}, {}, 1, 9, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{2, 2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "expected scalar type Double but found Half"},
    {{2, 8, 8}, {}, 1, 9, {2, 8, 7}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{2, 2, 3}, {}, 1, 9, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{2, 3}, {}, 1, 9, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "expected scalar type Double but found Half"},
    {{0}, {}, 1, 9, {0}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Double and Half"},
    {{2, 0}, {}, 1, 9, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{0, 2}, {}, 1, 9, {2}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Double, and Half"},
    {{2, 0}, {}, 1, 9, {0}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Double, and Half"},
    {{2, 2, 0}, {}, 1, 9, {2, 0, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 9, {0, 3, 2}, {}, 1, 6, {0, 2, 2}, 6, nullptr, nullptr},
    {{0, 3}, {}, 1, 9, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{3, 2, 0}, {}, 1, 9, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: double != c10::Half"},
    {{2, 3}, {}, 1, 9, {4, 5}, {}, 1, 6, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 4, {3}, {}, 1, 5, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Long"},
    {{2, 3}, {}, 1, 4, {3}, {}, 1, 5, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Long, Int, and Long"},
    {{3}, {}, 1, 4, {3, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{2, 3}, {}, 1, 4, {3, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{2, 2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 5, {}, -1, "DType", "expected scalar type Int but found Long"},
    {{2, 8, 8}, {}, 1, 4, {2, 8, 7}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{2, 2, 3}, {}, 1, 4, {3, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 5, {}, -1, "DType", "expected scalar type Int but found Long"},
    {{0}, {}, 1, 4, {0}, {}, 1, 5, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Long"},
    {{2, 0}, {}, 1, 4, {0, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{0, 2}, {}, 1, 4, {2}, {}, 1, 5, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Long, Int, and Long"},
    {{2, 0}, {}, 1, 4, {0}, {}, 1, 5, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Long, Int, and Long"},
    {{2, 2, 0}, {}, 1, 4, {2, 0, 2}, {}, 1, 5, {2, 2, 2}, 5, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 4, {0, 3, 2}, {}, 1, 5, {0, 2, 2}, 5, nullptr, nullptr},
    {{0, 3}, {}, 1, 4, {3, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{3, 2, 0}, {}, 1, 4, {0, 2}, {}, 1, 5, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != long int"},
    {{2, 3}, {}, 1, 4, {4, 5}, {}, 1, 5, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 7, {3}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found BFloat16 and Float"},
    {{2, 3}, {}, 1, 7, {3}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, BFloat16, and Float"},
    {{3}, {}, 1, 7, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{2, 3}, {}, 1, 7, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{2, 2, 3}, {}, 1, 7, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type BFloat16 but found Float"},
    {{2, 8, 8}, {}, 1, 7, {2, 8, 7}, {}, 1, 8, {}, -1, "DType", "expected scalar type Float but found BFloat16"},
    {{2, 2, 3}, {}, 1, 7, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{2, 3}, {}, 1, 7, {2, 3, 2}, {}, 1, 8, {}, -1, "DType", "expected scalar type BFloat16 but found Float"},
    {{0}, {}, 1, 7, {0}, {}, 1, 8, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found BFloat16 and Float"},
    {{2, 0}, {}, 1, 7, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{0, 2}, {}, 1, 7, {2}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, BFloat16, and Float"},
    {{2, 0}, {}, 1, 7, {0}, {}, 1, 8, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Float, BFloat16, and Float"},
    {{2, 2, 0}, {}, 1, 7, {2, 0, 2}, {}, 1, 8, {2, 2, 2}, 8, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 7, {0, 3, 2}, {}, 1, 8, {0, 2, 2}, 8, nullptr, nullptr},
    {{0, 3}, {}, 1, 7, {3, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{3, 2, 0}, {}, 1, 7, {0, 2}, {}, 1, 8, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"},
    {{2, 3}, {}, 1, 7, {4, 5}, {}, 1, 8, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 8, {3}, {}, 1, 7, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and BFloat16"},
    {{2, 3}, {}, 1, 8, {3}, {}, 1, 7, {}, -1, "DType", "addmv input tensors must have the same dtype, but got BFloat16, Float, and BFloat16"},
    {{3}, {}, 1, 8, {3, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{2, 3}, {}, 1, 8, {3, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{2, 2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 7, {}, -1, "DType", "expected scalar type Float but found BFloat16"},
    {{2, 8, 8}, {}, 1, 8, {2, 8, 7}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{2, 2, 3}, {}, 1, 8, {3, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{2, 3}, {}, 1, 8, {2, 3, 2}, {}, 1, 7, {}, -1, "DType", "expected scalar type Float but found BFloat16"},
    {{0}, {}, 1, 8, {0}, {}, 1, 7, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Float and BFloat16"},
    {{2, 0}, {}, 1, 8, {0, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{0, 2}, {}, 1, 8, {2}, {}, 1, 7, {}, -1, "DType", "addmv input tensors must have the same dtype, but got BFloat16, Float, and BFloat16"},
    {{2, 0}, {}, 1, 8, {0}, {}, 1, 7, {}, -1, "DType", "addmv input tensors must have the same dtype, but got BFloat16, Float, and BFloat16"},
    {{2, 2, 0}, {}, 1, 8, {2, 0, 2}, {}, 1, 7, {2, 2, 2}, 7, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 8, {0, 3, 2}, {}, 1, 7, {0, 2, 2}, 7, nullptr, nullptr},
    {{0, 3}, {}, 1, 8, {3, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{3, 2, 0}, {}, 1, 8, {0, 2}, {}, 1, 7, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: float != c10::BFloat16"},
    {{2, 3}, {}, 1, 8, {4, 5}, {}, 1, 7, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 0, {3}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Bool and Half"},
    {{2, 3}, {}, 1, 0, {3}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Bool, and Half"},
    {{3}, {}, 1, 0, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{2, 3}, {}, 1, 0, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{2, 2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{2, 8, 8}, {}, 1, 0, {2, 8, 7}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{2, 2, 3}, {}, 1, 0, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{2, 3}, {}, 1, 0, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "\"bmm\" not implemented for 'Bool'"},
    {{0}, {}, 1, 0, {0}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Bool and Half"},
    {{2, 0}, {}, 1, 0, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{0, 2}, {}, 1, 0, {2}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Bool, and Half"},
    {{2, 0}, {}, 1, 0, {0}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Bool, and Half"},
    {{2, 2, 0}, {}, 1, 0, {2, 0, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 0, {0, 3, 2}, {}, 1, 6, {0, 2, 2}, 6, nullptr, nullptr},
    {{0, 3}, {}, 1, 0, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{3, 2, 0}, {}, 1, 0, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: bool != c10::Half"},
    {{2, 3}, {}, 1, 0, {4, 5}, {}, 1, 6, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 4, {3}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Half"},
    {{2, 3}, {}, 1, 4, {3}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Int, and Half"},
    {{3}, {}, 1, 4, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{2, 3}, {}, 1, 4, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{2, 2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "expected scalar type Int but found Half"},
    {{2, 8, 8}, {}, 1, 4, {2, 8, 7}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{2, 2, 3}, {}, 1, 4, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{2, 3}, {}, 1, 4, {2, 3, 2}, {}, 1, 6, {}, -1, "DType", "expected scalar type Int but found Half"},
    {{0}, {}, 1, 4, {0}, {}, 1, 6, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Int and Half"},
    {{2, 0}, {}, 1, 4, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{0, 2}, {}, 1, 4, {2}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Int, and Half"},
    {{2, 0}, {}, 1, 4, {0}, {}, 1, 6, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Half, Int, and Half"},
    {{2, 2, 0}, {}, 1, 4, {2, 0, 2}, {}, 1, 6, {2, 2, 2}, 6, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 4, {0, 3, 2}, {}, 1, 6, {0, 2, 2}, 6, nullptr, nullptr},
    {{0, 3}, {}, 1, 4, {3, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{3, 2, 0}, {}, 1, 4, {0, 2}, {}, 1, 6, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: int != c10::Half"},
    {{2, 3}, {}, 1, 4, {4, 5}, {}, 1, 6, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    {{3}, {}, 1, 6, {3}, {}, 1, 4, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Half and Int"},
    {{2, 3}, {}, 1, 6, {3}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Half, and Int"},
    {{3}, {}, 1, 6, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{2, 3}, {}, 1, 6, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{2, 2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 4, {}, -1, "DType", "expected scalar type Half but found Int"},
    {{2, 8, 8}, {}, 1, 6, {2, 8, 7}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{2, 2, 3}, {}, 1, 6, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{2, 3}, {}, 1, 6, {2, 3, 2}, {}, 1, 4, {}, -1, "DType", "expected scalar type Half but found Int"},
    {{0}, {}, 1, 6, {0}, {}, 1, 4, {}, -1, "DType", "dot : expected both vectors to have same dtype, but found Half and Int"},
    {{2, 0}, {}, 1, 6, {0, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{0, 2}, {}, 1, 6, {2}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Half, and Int"},
    {{2, 0}, {}, 1, 6, {0}, {}, 1, 4, {}, -1, "DType", "addmv input tensors must have the same dtype, but got Int, Half, and Int"},
    {{2, 2, 0}, {}, 1, 6, {2, 0, 2}, {}, 1, 4, {2, 2, 2}, 4, nullptr, nullptr},
    {{0, 2, 3}, {}, 1, 6, {0, 3, 2}, {}, 1, 4, {0, 2, 2}, 4, nullptr, nullptr},
    {{0, 3}, {}, 1, 6, {3, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{3, 2, 0}, {}, 1, 6, {0, 2}, {}, 1, 4, {}, -1, "DType", "expected m1 and m2 to have the same dtype, but got: c10::Half != int"},
    {{2, 3}, {}, 1, 6, {4, 5}, {}, 1, 4, {}, -1, "Shape", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
    // END GENERATED matmul_cases
};

// The operand torch built: a contiguous tensor of base (dim 0 times step), every step-th
// entry along dim 0, then permuted.
Ref<Tensor> operand(const Shape& base, const std::vector<int>& perm, int64_t step, DType dt, std::mt19937_64& rng) {
  Shape full = base;
  if (!full.empty()) full[0] *= step;
  Ref<Tensor> t = random_tensor(full, dt, rng);
  if (step != 1) t = ct::slice(*t, 0, 0, full[0], step);
  if (!perm.empty()) t = ct::permute(*t, perm);
  return t;
}

std::string kind_name(ct::ErrorKind k) {
  switch (k) {
    case ct::ErrorKind::InvalidArgument: return "InvalidArgument";
    case ct::ErrorKind::Shape: return "Shape";
    case ct::ErrorKind::DType: return "DType";
    case ct::ErrorKind::Index: return "Index";
    default: return "other(" + std::to_string(int(k)) + ")";
  }
}

TEST(MatmulTorch, ShapesDTypesAndErrors) {
  std::mt19937_64 rng(8);
  for (const Case& c : kCases) {
    Ref<Tensor> a = operand(c.a_base, c.a_perm, c.a_step, DType(c.a_dtype), rng);
    Ref<Tensor> b = operand(c.b_base, c.b_perm, c.b_step, DType(c.b_dtype), rng);
    SCOPED_TRACE(std::string(ct::dtype_name(a->dtype())) + shape_str(a->sizes()) + "/" + shape_str(a->strides()) +
                 " @ " + ct::dtype_name(b->dtype()) + shape_str(b->sizes()) + "/" + shape_str(b->strides()));
    if (c.out_dtype >= 0) {
      Ref<Tensor> r = ct::matmul(*a, *b);
      EXPECT_EQ(shape_str(r->sizes()), shape_str(c.out_sizes));
      EXPECT_EQ(r->dtype(), DType(c.out_dtype));
      EXPECT_TRUE(r->is_contiguous());
      if (r->numel() > 0 && a->dtype() == b->dtype()) check_against_loop(*a, *b, *r, "torch case");
      if (r->numel() > 0 && a->size(a->ndim() - 1) == 0) {
        for (int64_t i = 0; i < r->numel() * r->itemsize(); ++i) ASSERT_EQ(r->data()[i], 0);
      }
    } else {
      try {
        ct::matmul(*a, *b);
        ADD_FAILURE() << "did not fail; torch says: " << c.message;
      } catch (const ct::Error& e) {
        EXPECT_EQ(kind_name(e.kind()), c.kind) << e.what();
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
