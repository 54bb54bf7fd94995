// torch.matmul.  See matmul.h.
//
// Note [matmul: checks, then one batched product]
// torch.matmul (2.13, aten/src/ATen/native/LinearAlgebra.cpp: _matmul_impl) calls one of
// four kernels depending on the operands' dims (and, for 3+-D times 1/2-D, on strides):
// dot, mv, mm, or bmm after broadcasting and flattening the batch dims; a >= 3-D operand
// times a 1-D or 2-D one is folded into one mm/mv when its batch dims flatten without a copy
// (should_fold).  Each kernel checks shapes and dtypes in its own order and words (Blas.cpp:
// dot_check, addmv's meta; addmm_impl_cpu_; bmm's meta and bmm_out_or_baddbmm_), and a few
// return early on empty inputs before looking at dtypes (so an empty bmm of float32 and
// float64 "works" and has batch2's dtype).  check_plan() replays exactly that sequence to
// produce torch's error or result dtype.
//
// The computation itself ignores the path: every case is
//   C[batch..., n, p] = A[batch..., n, k] @ B[batch..., k, p]
// with a 1-D A as a 1 x k row and a 1-D B as a k x 1 column, batch dims broadcast with
// stride 0, and C contiguous.  Trailing batch dims that B is broadcast over and along which
// A is evenly strided fold into A's rows (one big GEMM, as torch's fold).  Each remaining
// 2-D product goes to BLAS (float32/float64: gemm, gemv for a vector side, dot for 1 x 1)
// when BLAS accepts the operand's strides (row-major or column-major with a leading
// dimension), packing an operand into a contiguous buffer only when it does not; a small
// float32/float64 gemm (at most 64^3 multiply-adds) goes to the own kernel of small_gemm.h
// instead, which costs less than BLAS's call for such sizes; other
// dtypes use a blocked loop parallel over rows (integers wrap in 64 bits, which equals
// torch's wrapping arithmetic in the narrower type; float16/bfloat16 accumulate in float).
#include "core/ops/matmul.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/copy.h"
#include "core/dtype.h"
#include "core/ops/complex_math.h"
#include "core/ops/small_gemm.h"
#include "core/error.h"
#include "core/ops/promote.h"
#include "core/parallel.h"
#include "core/shape.h"

extern "C" void openblas_set_num_threads(int num_threads);

namespace ct {
namespace {

const char* tn(DType d) { return torch_scalar_type_name(d); }

// torch's CPU dot/mv/mm/bmm dispatch every type but bool (2.x added float16).
bool has_kernel(DType d) { return d != DType::Bool; }

// ---- torch's checks ----------------------------------------------------------------------

struct Plan {
  DimBuf out_shape;  // on the stack: every product makes a plan
  DType dtype;
};

DimBuf dims_of(std::initializer_list<int64_t> l) { return DimBuf(IntList(l.begin(), l.size())); }

DType check_dot(const Tensor& x, const Tensor& y) {
  CT_CHECK(x.dtype() == y.dtype(), DType,
           "matmul(): dot : expected both vectors to have same dtype, but found " << tn(x.dtype()) << " and "
                                                                                  << tn(y.dtype()));
  CT_CHECK(x.numel() == y.numel(), Shape,
           "matmul(): inconsistent tensor size, expected tensor [" << x.numel() << "] and src [" << y.numel()
               << "] to have the same number of elements, but got " << x.numel() << " and " << y.numel()
               << " elements respectively");
  CT_CHECK(has_kernel(x.dtype()), DType, "matmul(): \"dot\" not implemented for '" << tn(x.dtype()) << "'");
  return x.dtype();
}

// Products of sizes, as counts of work.  Sizes of tensors without elements may be anything
// (a [6, 2**63-1, 0] tensor is legal), so a plain product can overflow (found by the fuzzer):
// a zero factor gives 0 whatever the others are, otherwise the product saturates at
// INT64_MAX.  A result that is really that large fails when it is allocated.
int64_t product(IntList s) {
  for (int64_t v : s)
    if (v == 0) return 0;
  int64_t n = 1;
  for (int64_t v : s)
    if (__builtin_mul_overflow(n, v, &n)) return INT64_MAX;
  return n;
}
int64_t product(std::initializer_list<int64_t> s) { return product(IntList(s.begin(), s.size())); }

// mv(mat (rows x cols), vec (len)) = addmv_(empty(rows, vec's dtype), mat, vec): the result
// has vec's dtype.
DType check_mv(int64_t rows, int64_t cols, DType dm, int64_t len, DType dv) {
  CT_CHECK(cols == len, Shape,
           "matmul(): size mismatch, got input (" << rows << "), mat (" << rows << "x" << cols << "), vec (" << len
                                                  << ")");
  CT_CHECK(dm == dv, DType,
           "matmul(): addmv input tensors must have the same dtype, but got " << tn(dv) << ", " << tn(dm) << ", and "
                                                                              << tn(dv));
  if (product({rows, cols}) == 0) return dv;
  CT_CHECK(has_kernel(dm), DType, "matmul(): \"addmv_impl_cpu\" not implemented for '" << tn(dm) << "'");
  return dv;
}

// addmm_impl_cpu_'s dtype check, in the C++ type names of the dtypes' TypeMeta.
void check_mm_dtypes(DType d1, DType d2) {
  CT_CHECK(d1 == d2, DType,
           "matmul(): expected m1 and m2 to have the same dtype, but got: " << cpp_type_name(d1)
                                                                            << " != " << cpp_type_name(d2));
}

// mm(mat1 (r1 x c1), mat2 (r2 x c2)): the result has mat1's dtype.
DType check_mm(int64_t r1, int64_t c1, DType d1, int64_t r2, int64_t c2, DType d2) {
  CT_CHECK(c1 == r2, Shape,
           "matmul(): mat1 and mat2 shapes cannot be multiplied (" << r1 << "x" << c1 << " and " << r2 << "x"
                                                                   << c2 << ")");
  check_mm_dtypes(d1, d2);
  if (product({r1, c2}) == 0 || c1 == 0) return d1;
  CT_CHECK(has_kernel(d1), DType, "matmul(): \"addmm_impl_cpu_\" not implemented for '" << tn(d1) << "'");
  return d1;
}

// bmm(batch1 (bs x n x m1), batch2 (bs x m2 x p)): the result has batch2's dtype.  Small
// products run torch's own loop ("bmm", dispatching on batch1, reading the result as
// batch1's type); larger float32/float64 results whose batch items BLAS can read go to one
// batched gemm (dispatching on the result and reading batch1 as its type); the rest call
// addmm per batch.  gemm_layouts: both operands' items are contiguous or transposed.
DType check_bmm(int64_t bs, int64_t n, int64_t m1, DType d1, int64_t m2, int64_t p, DType d2, bool gemm_layouts) {
  CT_CHECK(m1 == m2, Shape,
           "matmul(): Expected size for first two dimensions of batch2 tensor to be: [" << bs << ", " << m1
               << "] but got: [" << bs << ", " << m2 << "].");
  if (product({bs, n, p}) == 0 || m1 == 0) return d2;
  if (product({m1, n, p}) < 400) {
    CT_CHECK(has_kernel(d1), DType, "matmul(): \"bmm\" not implemented for '" << tn(d1) << "'");
    CT_CHECK(d1 == d2, DType, "matmul(): expected scalar type " << tn(d1) << " but found " << tn(d2));
  } else if ((d2 == DType::Float32 || d2 == DType::Float64) && gemm_layouts) {
    CT_CHECK(d1 == d2, DType, "matmul(): expected scalar type " << tn(d2) << " but found " << tn(d1));
  } else {
    check_mm_dtypes(d1, d2);
    CT_CHECK(has_kernel(d2), DType, "matmul(): \"addmm_impl_cpu_\" not implemented for '" << tn(d2) << "'");
  }
  return d2;
}

// torch 2.13's should_fold (without out= and with no operand requiring grad): the larger
// operand t1 (>= 3-D; b.mT() when it is b) times a 1-D or 2-D one becomes one mm/mv, unless a
// is a matrix (2-D @ N-D), or t1's batch dims do not flatten into its rows without a copy.
bool should_fold(const Tensor& a, const Tensor& b) {
  const int da = a.ndim(), db = b.ndim();
  const bool a_larger = da >= db;
  const Tensor& t = a_larger ? a : b;
  const int d1 = t.ndim();
  if (!(d1 >= 3 && std::min(da, db) <= 2)) return false;
  if (da == 2) return false;
  if (t.numel() == 0) return true;
  Shape sizes(t.sizes().begin(), t.sizes().end()), strides(t.strides().begin(), t.strides().end());
  if (!a_larger) {  // t1 = b.mT()
    std::swap(sizes[size_t(d1 - 1)], sizes[size_t(d1 - 2)]);
    std::swap(strides[size_t(d1 - 1)], strides[size_t(d1 - 2)]);
  }
  for (int i = 0; i < d1 - 2; ++i) {
    if (strides[size_t(i)] != strides[size_t(i + 1)] * sizes[size_t(i + 1)]) return false;
  }
  return true;
}

// The strides of the last two dims of t expanded to batch + [rows, cols] and reshaped to
// [batch product, rows, cols] (a view when the batch dims merge, else a contiguous copy), as
// bmm sees its operand.  vector: t is 1-D, expanded to batch + [rows] and unsqueezed.
std::pair<int64_t, int64_t> bmm_item_strides(const Tensor& t, IntList batch, int64_t rows, int64_t cols,
                                             bool vector) {
  const int nd = t.ndim(), item = vector ? 1 : std::min(nd, 2);
  Shape sizes(batch.begin(), batch.end()), strides;
  const int lead = int(batch.size()) - (nd - item);
  for (size_t i = 0; i < batch.size(); ++i) {
    const int d = int(i) - lead;
    strides.push_back(d < 0 || t.size(d) != batch[i] ? 0 : t.stride(d));
  }
  // the item dims: a 1-D first operand is a 1 x k row (the new dim has stride 0)
  if (vector) {
    sizes.push_back(rows);
    strides.push_back(t.stride(nd - 1));
  } else if (nd == 1) {
    sizes.insert(sizes.end(), {rows, cols});
    strides.insert(strides.end(), {0, t.stride(0)});
  } else {
    sizes.insert(sizes.end(), {rows, cols});
    strides.insert(strides.end(), {t.stride(nd - 2), t.stride(nd - 1)});
  }
  Shape flat = {product(batch), rows};
  if (!vector) flat.push_back(cols);
  std::optional<Shape> v = view_strides(sizes, strides, flat);
  const Shape st = v ? *v : contiguous_strides(flat);
  if (vector) return {st[1], 1};  // unsqueeze(2) at the end: stride 1
  return {st[1], st[2]};
}

// bmm's batch_items_contiguous_or_transposed (strides of size-1 dims do not matter).
bool item_contiguous_or_transposed(int64_t rows, int64_t cols, std::pair<int64_t, int64_t> s) {
  return (s.second == 1 && (rows == 1 || s.first >= cols)) || (s.first == 1 && (cols == 1 || s.second >= rows));
}

Plan check_plan(const Tensor& a, const Tensor& b) {
  const int da = a.ndim(), db = b.ndim();
  CT_CHECK(da != 0 && db != 0, Shape,
           "both arguments to matmul need to be at least 1D, but they are " << da << "D and " << db << "D");
  const IntList sa = a.sizes(), sb = b.sizes();
  if (da == 1 && db == 1) return {DimBuf(), check_dot(a, b)};
  if (da == 2 && db == 1) return {dims_of({sa[0]}), check_mv(sa[0], sa[1], a.dtype(), sb[0], b.dtype())};
  if (da == 1 && db == 2) return {dims_of({sb[1]}), check_mm(1, sa[0], a.dtype(), sb[0], sb[1], b.dtype())};
  if (da == 2 && db == 2) {
    return {dims_of({sa[0], sb[1]}), check_mm(sa[0], sa[1], a.dtype(), sb[0], sb[1], b.dtype())};
  }
  if (should_fold(a, b)) {
    // t1 = the >= 3-D operand (b.mT() when it is b), t2 = the other (1-D: a itself).
    const bool transpose = db > da;
    Shape s1(transpose ? sb.begin() : sa.begin(), transpose ? sb.end() : sa.end());
    DType d1 = transpose ? b.dtype() : a.dtype();
    if (transpose) std::swap(s1[s1.size() - 1], s1[s1.size() - 2]);
    Shape s2(transpose ? sa.begin() : sb.begin(), transpose ? sa.end() : sb.end());
    DType d2 = transpose ? a.dtype() : b.dtype();
    Shape out(s1.begin(), s1.end() - 1);
    const int64_t rows = product(out), k = s1.back();
    Plan plan;
    if (s2.size() == 2) {
      plan.dtype = check_mm(rows, k, d1, s2[0], s2[1], d2);
      out.push_back(s2[1]);
    } else {
      plan.dtype = check_mv(rows, k, d1, s2[0], d2);
    }
    plan.out_shape = DimBuf(out);
    return plan;
  }
  // Batched: the operands' batch dims broadcast and flatten; a 1-D operand is a row (a) or a
  // column (b) of each batch item.
  const int64_t n = da > 1 ? sa[size_t(da - 2)] : 1, m1 = sa.back();
  const int64_t m2 = db > 1 ? sb[size_t(db - 2)] : sb[0], p = db > 1 ? sb.back() : 1;
  // torch's infer_size (from the last dim, so the error names the dim torch names)
  const Shape batch = broadcast_shapes(sa.first(size_t(std::max(da - 2, 0))), sb.first(size_t(std::max(db - 2, 0))),
                                       "matmul()");
  const bool gemm_layouts =
      item_contiguous_or_transposed(n, m1, bmm_item_strides(a, batch, n, m1, false)) &&
      item_contiguous_or_transposed(m2, p, bmm_item_strides(b, batch, m2, p, db == 1));
  Plan plan;
  plan.dtype = check_bmm(product(batch), n, m1, a.dtype(), m2, p, b.dtype(), gemm_layouts);
  plan.out_shape = DimBuf(batch);
  if (da > 1) plan.out_shape.push_back(n);
  if (db > 1) plan.out_shape.push_back(p);
  return plan;
}

// ---- 2-D kernels ---------------------------------------------------------------------------

// An n x k (or k x p) operand: element (i, j) at base[i * rs + j * cs].
template <class T>
struct Mat {
  const T* base;
  int64_t rows, cols, rs, cs;
};

struct BlasLayout {
  bool trans;
  int64_t ld;
};

// How BLAS can read a rows x cols matrix in place (row-major API): as is (NoTrans, unit
// column stride) or as the transpose of a row-major matrix (Trans, unit row stride).
// Strides of size-1 dims do not matter.
std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const auto fits = [](int64_t v) { return v >= 1 && v <= INT_MAX; };
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols))) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(1, cols) : rs;
    if (fits(ld)) return BlasLayout{false, ld};
  }
  if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows))) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(1, rows) : cs;
    if (fits(ld)) return BlasLayout{true, ld};
  }
  return std::nullopt;
}

// A contiguous row-major copy of m.
template <class T>
Mat<T> pack(const Mat<T>& m, std::vector<T>& buf) {
  buf.resize(size_t(m.rows * m.cols));
  T* d = buf.data();
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j) d[i * m.cols + j] = m.base[i * m.rs + j * m.cs];
  }
  return {d, m.rows, m.cols, m.cols, 1};
}

void sync_blas_threads() {
  static std::atomic<int> configured{-1};
  const int want = get_num_threads();
  // a load first: an exchange is a locked write on every product (perf), and two threads
  // that both see a change both set the same count, which is harmless
  if (configured.load(std::memory_order_relaxed) == want) return;
  configured.store(want, std::memory_order_relaxed);
  openblas_set_num_threads(want);
}

// The BLAS routines of T (s, d, c, z): dot (unconjugated for complex, as torch.dot), gemv, and
// gemm_add: C += A @ B (beta = 1; blas_product zeroes C first, see there).  Complex routines take
// alpha and beta by address.
template <class T>
struct Blas;
template <>
struct Blas<float> {
  static float dot(int n, const float* x, int ix, const float* y, int iy) { return cblas_sdot(n, x, ix, y, iy); }
  static void gemv(CBLAS_TRANSPOSE t, int r, int c, const float* a, int lda, const float* x, int ix, float* y, int iy) {
    cblas_sgemv(CblasRowMajor, t, r, c, 1.0f, a, lda, x, ix, 0.0f, y, iy);
  }
  static void gemm_add(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int p, int k, const float* a, int lda,
                       const float* b, int ldb, float* c, int ldc) {
    cblas_sgemm(CblasRowMajor, ta, tb, n, p, k, 1.0f, a, lda, b, ldb, 1.0f, c, ldc);
  }
};
template <>
struct Blas<double> {
  static double dot(int n, const double* x, int ix, const double* y, int iy) { return cblas_ddot(n, x, ix, y, iy); }
  static void gemv(CBLAS_TRANSPOSE t, int r, int c, const double* a, int lda, const double* x, int ix, double* y,
                   int iy) {
    cblas_dgemv(CblasRowMajor, t, r, c, 1.0, a, lda, x, ix, 0.0, y, iy);
  }
  static void gemm_add(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int p, int k, const double* a, int lda,
                       const double* b, int ldb, double* c, int ldc) {
    cblas_dgemm(CblasRowMajor, ta, tb, n, p, k, 1.0, a, lda, b, ldb, 1.0, c, ldc);
  }
};
template <class P>
struct BlasComplex {
  using T = std::complex<P>;
  static constexpr bool kSingle = std::is_same_v<P, float>;
  static T dot(int n, const T* x, int ix, const T* y, int iy) {
    T r;
    if constexpr (kSingle) cblas_cdotu_sub(n, x, ix, y, iy, &r);
    else cblas_zdotu_sub(n, x, ix, y, iy, &r);
    return r;
  }
  static T dotc(int n, const T* x, int ix, const T* y, int iy) {  // conj(x) . y
    T r;
    if constexpr (kSingle) cblas_cdotc_sub(n, x, ix, y, iy, &r);
    else cblas_zdotc_sub(n, x, ix, y, iy, &r);
    return r;
  }
  static void gemv(CBLAS_TRANSPOSE t, int r, int c, const T* a, int lda, const T* x, int ix, T* y, int iy) {
    const T one(1), zero(0);
    if constexpr (kSingle) cblas_cgemv(CblasRowMajor, t, r, c, &one, a, lda, x, ix, &zero, y, iy);
    else cblas_zgemv(CblasRowMajor, t, r, c, &one, a, lda, x, ix, &zero, y, iy);
  }
  static void gemm_add(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int n, int p, int k, const T* a, int lda,
                       const T* b, int ldb, T* c, int ldc) {
    const T one(1);
    if constexpr (kSingle) cblas_cgemm(CblasRowMajor, ta, tb, n, p, k, &one, a, lda, b, ldb, &one, c, ldc);
    else cblas_zgemm(CblasRowMajor, ta, tb, n, p, k, &one, a, lda, b, ldb, &one, c, ldc);
  }
};
template <>
struct Blas<std::complex<float>> : BlasComplex<float> {};
template <>
struct Blas<std::complex<double>> : BlasComplex<double> {};

template <class T>
inline constexpr bool kHasBlas = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                 std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// C (n x p, row stride ldc, unit column stride) = A (n x k) @ B (k x p), float, double or complex.
template <class T>
void blas_product(Mat<T> A, Mat<T> B, T* C, int64_t ldc) {
  static_assert(kHasBlas<T>);
  const int64_t n = A.rows, k = A.cols, p = B.cols;
  std::vector<T> abuf, bbuf;
  if (n == 1 && p == 1) {  // dot
    if (A.cs == 0 || A.cs > INT_MAX) A = pack(A, abuf);
    if (B.rs == 0 || B.rs > INT_MAX) B = pack(B, bbuf);
    const int kk = int(k), ia = int(k == 1 ? 1 : A.cs), ib = int(k == 1 ? 1 : B.rs);
    C[0] = Blas<T>::dot(kk, A.base, ia, B.base, ib);
    return;
  }
  // Small products (n and p at least 2) skip BLAS's per-call overhead (small_gemm.h).
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (small_gemm(A.base, A.rs, A.cs, B.base, B.rs, B.cs, n, k, p, C, ldc)) return;
  }
  std::optional<BlasLayout> la = blas_layout(A.rows, A.cols, A.rs, A.cs);
  if (!la) {
    A = pack(A, abuf);
    la = blas_layout(A.rows, A.cols, A.rs, A.cs);
  }
  std::optional<BlasLayout> lb = blas_layout(B.rows, B.cols, B.rs, B.cs);
  if (!lb) {
    B = pack(B, bbuf);
    lb = blas_layout(B.rows, B.cols, B.rs, B.cs);
  }
  const auto tr = [](bool t) { return t ? CblasTrans : CblasNoTrans; };
  if (p == 1) {  // C (n) = A @ b, b a column of B with stride B.rs
    if (B.rs == 0 || B.rs > INT_MAX) {
      B = pack(B, bbuf);
    }
    const int incb = int(k == 1 ? 1 : B.rs), incc = int(std::max<int64_t>(1, ldc));
    // Row-major gemv reads A as stored: NoTrans = rows x cols; Trans = the stored cols x rows.
    const int sr = int(la->trans ? k : n), sc = int(la->trans ? n : k);
    Blas<T>::gemv(tr(la->trans), sr, sc, A.base, int(la->ld), B.base, incb, C, incc);
    return;
  }
  if (n == 1) {  // C (p) = a @ B = B^T a, a the row of A with stride A.cs
    if (A.cs == 0 || A.cs > INT_MAX) A = pack(A, abuf);
    const int inca = int(k == 1 ? 1 : A.cs);
    const int sr = int(lb->trans ? p : k), sc = int(lb->trans ? k : p);
    Blas<T>::gemv(tr(!lb->trans), sr, sc, B.base, int(lb->ld), A.base, inca, C, 1);
    return;
  }
  // C = 0, then C += A @ B.  Called with beta = 0, BLAS zeroes C itself before it accumulates,
  // and OpenBLAS 0.3.21's ZEN kernels (and its generic x86-64 ones, for every type) do it one
  // scalar store at a time: a tenth of a 64 x 256 x 256 product, 8x slower than memset.  The
  // values are the same bits: each element is 0 + its accumulation either way.
  if (ldc == p) {
    std::memset(static_cast<void*>(C), 0, sizeof(T) * size_t(n * p));
  } else {
    for (int64_t i = 0; i < n; ++i) std::memset(static_cast<void*>(C + i * ldc), 0, sizeof(T) * size_t(p));
  }
  Blas<T>::gemm_add(tr(la->trans), tr(lb->trans), int(n), int(p), int(k), A.base, int(la->ld), B.base, int(lb->ld), C,
                    int(ldc));
}

// Accumulator of the blocked loop: integers in unsigned (modular) arithmetic, 32 bits wide
// for types up to int32 (vectorisable) and 64 for int64, which equals torch's wrapping
// arithmetic in the narrow type; float for bfloat16/float16.
template <class T> struct LoopAcc { using type = uint32_t; };
template <> struct LoopAcc<int64_t> { using type = uint64_t; };
template <> struct LoopAcc<Half> { using type = float; };
template <> struct LoopAcc<BFloat16> { using type = float; };
template <> struct LoopAcc<float> { using type = float; };
template <> struct LoopAcc<double> { using type = double; };
template <class P> struct LoopAcc<std::complex<P>> { using type = std::complex<P>; };

template <class Acc, class T>
inline Acc to_acc(T x) {
  if constexpr (std::is_integral_v<Acc>) {
    return static_cast<Acc>(static_cast<int64_t>(x));
  } else if constexpr (is_complex_v<Acc>) {
    return x;
  } else {
    return Acc(float(x));
  }
}

template <class T, class Acc>
inline T from_acc(Acc a) {
  if constexpr (std::is_same_v<Acc, uint32_t>) {
    return convert<T>(static_cast<int64_t>(static_cast<int32_t>(a)));
  } else if constexpr (std::is_same_v<Acc, uint64_t>) {
    return convert<T>(static_cast<int64_t>(a));
  } else {
    return convert<T>(a);
  }
}

// C (n x p, row stride ldc) = A @ B by rows: B is converted once into a contiguous Acc panel;
// each output row accumulates a_ik * B[k, j0:j0+256] over k (the inner loop runs along a
// contiguous row and vectorises), so each output element sees the same sequence of
// operations whatever the thread count.
template <class T>
void loop_product(const Mat<T>& A, const Mat<T>& B, T* C, int64_t ldc) {
  using Acc = typename LoopAcc<T>::type;
  const int64_t n = A.rows, k = A.cols, p = B.cols;
  std::vector<Acc> panel(static_cast<size_t>(k * p));
  for (int64_t kk = 0; kk < k; ++kk) {
    for (int64_t j = 0; j < p; ++j) panel[size_t(kk * p + j)] = to_acc<Acc>(B.base[kk * B.rs + j * B.cs]);
  }
  const Acc* bp = panel.data();
  // Accumulators live on the stack (nothing may throw inside the parallel region), for a
  // block of up to 256 output columns at a time.
  constexpr int64_t kCols = 256;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, k * p));
  parallel_for(n, grain, [&](int64_t i0, int64_t i1) {
    Acc acc[kCols];
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t j0 = 0; j0 < p; j0 += kCols) {
        const int64_t w = std::min(kCols, p - j0);
        std::fill(acc, acc + w, Acc(0));
        for (int64_t kk = 0; kk < k; ++kk) {
          const Acc a = to_acc<Acc>(A.base[i * A.rs + kk * A.cs]);
          const Acc* b = bp + kk * p + j0;
          for (int64_t j = 0; j < w; ++j) acc[j] += a * b[j];
        }
        T* c = C + i * ldc + j0;
        for (int64_t j = 0; j < w; ++j) c[j] = from_acc<T>(acc[j]);
      }
    }
  });
}

template <class T>
void product_2d(const Mat<T>& A, const Mat<T>& B, T* C, int64_t ldc) {
  if constexpr (kHasBlas<T>) {
    const int64_t lim = INT_MAX;
    if (A.rows <= lim && A.cols <= lim && B.cols <= lim && ldc <= lim) {
      blas_product(A, B, C, ldc);
      return;
    }
  }
  loop_product(A, B, C, ldc);
}

// ---- batching ------------------------------------------------------------------------------

struct BatchDim {
  int64_t size, sa, sb, sc;
};

template <class T>
void run_typed(const Tensor& a, const Tensor& b, const Tensor& out) {
  const int da = a.ndim(), db = b.ndim();
  // A as (batch..., n, k), B as (batch..., k, p).
  int64_t n = 1, k, p = 1, ars = 0, acs, brs, bcs = 0;
  if (da == 1) {
    k = a.size(0);
    acs = a.stride(0);
  } else {
    n = a.size(da - 2);
    k = a.size(da - 1);
    ars = a.stride(da - 2);
    acs = a.stride(da - 1);
  }
  if (db == 1) {
    brs = b.stride(0);
  } else {
    p = b.size(db - 1);
    brs = b.stride(db - 2);
    bcs = b.stride(db - 1);
  }
  const int nba = std::max(da - 2, 0), nbb = std::max(db - 2, 0);
  const int nbatch = std::max(nba, nbb);
  std::vector<BatchDim> dims;
  int64_t cstride = n * p;
  std::vector<BatchDim> all(static_cast<size_t>(nbatch));
  for (int i = nbatch - 1; i >= 0; --i) {
    const int ia = i - (nbatch - nba), ib = i - (nbatch - nbb);
    const int64_t za = ia >= 0 ? a.size(ia) : 1, zb = ib >= 0 ? b.size(ib) : 1;
    const int64_t size = std::max(za, zb);
    all[size_t(i)] = {size, za == 1 ? 0 : a.stride(ia), zb == 1 ? 0 : b.stride(ib), cstride};
    cstride *= size;
  }
  for (const BatchDim& d : all) {
    if (d.size != 1) dims.push_back(d);
  }
  // Fold trailing batch dims over which B is broadcast into A's rows.
  while (!dims.empty()) {
    const BatchDim& d = dims.back();
    if (d.sb != 0 || d.sc != n * p) break;
    if (n == 1) {
      ars = d.sa;
    } else if (d.sa != n * ars) {
      break;
    }
    n *= d.size;
    dims.pop_back();
  }
  const T* ab = reinterpret_cast<const T*>(a.data());
  const T* bb = reinterpret_cast<const T*>(b.data());
  T* cb = reinterpret_cast<T*>(out.data());
  const int nd = int(dims.size());
  int64_t count = 1;
  for (const BatchDim& d : dims) count *= d.size;
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  int64_t oa = 0, ob = 0, oc = 0;
  for (int64_t it = 0; it < count; ++it) {
    product_2d<T>({ab + oa, n, k, ars, acs}, {bb + ob, k, p, brs, bcs}, cb + oc, p);
    for (int d = nd - 1; d >= 0; --d) {
      const BatchDim& bd = dims[size_t(d)];
      oa += bd.sa, ob += bd.sb, oc += bd.sc;
      if (++idx[size_t(d)] < bd.size) break;
      oa -= bd.sa * bd.size, ob -= bd.sb * bd.size, oc -= bd.sc * bd.size;
      idx[size_t(d)] = 0;
    }
  }
}

template <class T>
void run(const Tensor& a, const Tensor& b, const Tensor& out) {
  if constexpr (std::is_same_v<T, bool>) {
    CT_FAIL(Internal, "matmul of bool reached the kernel");
  } else {
    run_typed<T>(a, b, out);
  }
}

}  // namespace

Ref<Tensor> matmul(const Tensor& a, const Tensor& b) {
  const Plan plan = check_plan(a, b);
  Ref<Tensor> out = Tensor::empty(plan.out_shape, plan.dtype, "matmul");
  if (out->numel() == 0) return out;
  const int64_t k = a.size(a.ndim() - 1);
  if (k == 0) {  // an empty sum: zeros
    std::memset(out->data(), 0, size_t(out->numel() * out->itemsize()));
    return out;
  }
  if (plan.dtype == DType::Float32 || plan.dtype == DType::Float64 || is_complex(plan.dtype)) sync_blas_threads();
  CT_DISPATCH_WITH_COMPLEX(plan.dtype, [&] { run<scalar_t>(a, b, *out); });
  return out;
}

void check_vdot(const Tensor& a, const Tensor& b) {
  CT_CHECK(a.ndim() == 1 && b.ndim() == 1, Shape,
           "1D tensors expected, but got " << a.ndim() << "D and " << b.ndim() << "D tensors");
  CT_CHECK(a.dtype() == b.dtype(), DType,
           "vdot : expected both vectors to have same dtype, but found " << tn(a.dtype()) << " and " << tn(b.dtype()));
  CT_CHECK(a.numel() == b.numel(), Shape,
           "inconsistent tensor size, expected tensor [" << a.numel() << "] and src [" << b.numel()
               << "] to have the same number of elements, but got " << a.numel() << " and " << b.numel()
               << " elements respectively");
  CT_CHECK(has_kernel(a.dtype()), DType, "\"dot\" not implemented for '" << tn(a.dtype()) << "'");
}

Ref<Tensor> vdot(const Tensor& a, const Tensor& b) {
  check_vdot(a, b);
  if (!is_complex(a.dtype())) return matmul(a, b);  // real: vdot is dot
  Ref<Tensor> out = Tensor::empty(Shape{}, a.dtype(), "vdot");
  // BLAS wants increments that fit an int and are not 0: contiguous copies otherwise.
  const auto blas_ready = [](const Tensor& t) {
    return t.numel() <= 1 || (t.stride(0) >= 1 && t.stride(0) <= INT_MAX && t.numel() <= INT_MAX);
  };
  Ref<Tensor> ca = blas_ready(a) ? Ref<Tensor>::retain(const_cast<Tensor*>(&a)) : clone(a);
  Ref<Tensor> cb = blas_ready(b) ? Ref<Tensor>::retain(const_cast<Tensor*>(&b)) : clone(b);
  CT_CHECK(ca->numel() <= INT_MAX, InvalidArgument, "vdot: " << ca->numel() << " elements are more than BLAS takes");
  sync_blas_threads();
  const int n = int(ca->numel());
  const int ia = n <= 1 ? 1 : int(ca->stride(0)), ib = n <= 1 ? 1 : int(cb->stride(0));
  if (a.dtype() == DType::Complex64) {
    using T = std::complex<float>;
    *reinterpret_cast<T*>(out->data()) =
        n == 0 ? T(0) : Blas<T>::dotc(n, reinterpret_cast<const T*>(ca->data()), ia, reinterpret_cast<const T*>(cb->data()), ib);
  } else {
    using T = std::complex<double>;
    *reinterpret_cast<T*>(out->data()) =
        n == 0 ? T(0) : Blas<T>::dotc(n, reinterpret_cast<const T*>(ca->data()), ia, reinterpret_cast<const T*>(cb->data()), ib);
  }
  return out;
}

}  // namespace ct
