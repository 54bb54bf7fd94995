// Reductions.  See reduce.h for the semantics.
//
// Note [Reduction engine]
// A reduction is laid out as two lists of dims, both ordered outer -> inner and coalesced:
//   K: the kept dims (input stride, output stride), M = product of their sizes (outputs);
//   R: the reduced dims (input stride),             N = product of their sizes.
// Size-1 dims are dropped.  K is sorted by input stride, and so is R for sum/mean/prod/
// amax/amin, so that the innermost loop walks the smallest stride whatever the view
// (a transposed or permuted tensor is read in memory order).  argmax/argmin keep R in
// logical order so that the flat index of an element is its position along the dim.
//
// Two shapes of work:
//   INNER: the innermost reduced dim has the smallest stride (sum of a contiguous tensor,
//          sum over the last dim): each output is a long reduction of its own, computed by
//          a row kernel with several independent accumulators (explicit SSE vectors for
//          float32/float64 sum, mean, amax and amin).
//   OUTER: a kept dim has the smallest stride (sum over dim 0), or the reduced rows are
//          short: a tile of up to 64 neighbouring outputs is reduced at once, one
//          accumulator per output, so that rows are read contiguously and the inner loop
//          vectorises across outputs.
//
// Accuracy and determinism.  The N reduced elements of an output are cut into fixed
// blocks (INNER: 4096 elements, OUTER: 64 positions); each block is reduced into one
// value, and blocks are combined by a pairwise tree (split [b0, b1) at b0 + (b1 - b0) / 2),
// in the spirit of torch's cascade sum: the rounding error grows with log N rather than N,
// and summing 10^7 float32 ones is exact.  Threads take either whole outputs, or, when
// there are few outputs, whole subtrees of that same tree (the "frontier": subtrees of at
// most max(16, nb / 64) blocks) whose values are then combined in the tree's own order.
// Block boundaries and the tree depend on N only, so every output is bit-for-bit the same
// whatever the thread count and whichever of the two strategies was chosen.
#include "core/ops/reduce.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "core/error.h"
#include "core/copy.h"
#include "core/complex_views.h"
#include "core/ops/complex_math.h"
#include "core/ops/elementwise.h"
#include "core/ops/promote.h"
#include "core/parallel.h"
#include "core/shape.h"

namespace ct {
namespace {

enum class Kind { Sum, Mean, Prod, Max, Min, ArgMax, ArgMin };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Sum: return "sum";
    case Kind::Mean: return "mean";
    case Kind::Prod: return "prod";
    case Kind::Max: return "amax";
    case Kind::Min: return "amin";
    case Kind::ArgMax: return "argmax";
    case Kind::ArgMin: return "argmin";
  }
  return "reduce";
}

constexpr int64_t kInnerLeaf = 4096;    // elements per block (INNER)
constexpr int64_t kOuterLeaf = 64;      // reduced positions per block (OUTER)
constexpr int kTile = 64;               // outputs per OUTER tile
constexpr int64_t kMinNodeBlocks = 16;  // smallest subtree handed to a thread
constexpr int64_t kGrain = 32768;       // elements of work worth a thread
constexpr int64_t kShortRow = 16;       // reduced rows shorter than this go OUTER
constexpr int64_t kPrefetchRows = 16;   // OUTER: rows prefetched ahead

template <class T>
inline bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}

// ---- operations ------------------------------------------------------------------------
// An Op says how to fold elements into an accumulator:
//   identity(), reduce(acc, x, flat_index), combine(left, right), project(acc, N) -> out.
// combine is only ever called with `left` covering earlier elements than `right`.

// sum/prod/mean types: bool and integers accumulate in uint64 (modular arithmetic, as
// int64 wraps in torch) and give int64; float16/bfloat16 accumulate in float.
template <class In> struct SumTypes { using acc = uint64_t; using out = int64_t; };
template <> struct SumTypes<Half> { using acc = float; using out = Half; };
template <> struct SumTypes<BFloat16> { using acc = float; using out = BFloat16; };
template <> struct SumTypes<float> { using acc = float; using out = float; };
template <> struct SumTypes<double> { using acc = double; using out = double; };
template <class P> struct SumTypes<std::complex<P>> { using acc = std::complex<P>; using out = std::complex<P>; };

template <class Acc, class In>
inline Acc widen(In x) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    return static_cast<uint64_t>(static_cast<int64_t>(x));
  } else if constexpr (std::is_same_v<In, Half> || std::is_same_v<In, BFloat16>) {
    return Acc(float(x));
  } else {
    return static_cast<Acc>(x);
  }
}

template <class Out, class Acc>
inline Out narrow_to(Acc a) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    return static_cast<int64_t>(a);
  } else {
    return convert<Out>(a);
  }
}

template <class In>
struct SumOp {
  using in_t = In;
  using acc_t = typename SumTypes<In>::acc;
  using out_t = typename SumTypes<In>::out;
  // float32/float64 sums of contiguous rows take the explicit-vector kernel.
  static constexpr bool kFastSum = std::is_same_v<In, acc_t> && std::is_floating_point_v<In>;
  static constexpr bool kFastExtreme = false;
  static acc_t identity() { return acc_t(0); }
  static acc_t reduce(acc_t a, In x, int64_t) { return a + widen<acc_t>(x); }
  static acc_t combine(acc_t a, acc_t b) { return a + b; }
  static out_t project(acc_t a, int64_t) { return narrow_to<out_t>(a); }
};

// mean = sum rounded to the dtype, then divided by N in the dtype's arithmetic, exactly as
// torch's sum(...).div_(N); float16/bfloat16 as torch 2.x (ReduceOps.cpp: mean_out): the sum
// and the division in float32, rounded once (torch 1.13 rounded the sum first: inf for
// [60000, 60000] in float16).
template <class In>
struct MeanOp : SumOp<In> {
  using typename SumOp<In>::acc_t;
  using typename SumOp<In>::out_t;
  static out_t project(acc_t a, int64_t n) {
    if constexpr (is_complex_v<out_t>) {  // torch's sum.div_(N): a complex division by (N, 0)
      using P = typename out_t::value_type;
      return cdiv(a, out_t(P(n), P(0)));
    } else if constexpr (std::is_same_v<out_t, double>) {
      return narrow_to<out_t>(a) / double(n);
    } else if constexpr (std::is_same_v<out_t, float>) {
      return narrow_to<out_t>(a) / float(n);
    } else {
      return out_t(float(a) / float(n));
    }
  }
};

// prod accumulates as sum does, except float16/bfloat16: torch 2.x's prod kernel
// (ReduceOpsKernel.cpp: prod_kernel_impl) multiplies in the dtype itself, each product
// computed in float and rounded back (torch 1.13 had no such kernel), in order along a row
// shorter than its vectors (kSequential: one accumulator, so the roundings are torch's).
template <class In> struct ProdTypes : SumTypes<In> {};
template <> struct ProdTypes<Half> { using acc = Half; using out = Half; };
template <> struct ProdTypes<BFloat16> { using acc = BFloat16; using out = BFloat16; };

template <class In>
struct ProdOp {
  using in_t = In;
  using acc_t = typename ProdTypes<In>::acc;
  using out_t = typename ProdTypes<In>::out;
  static constexpr bool kFastSum = false;
  static constexpr bool kFastExtreme = false;
  static constexpr bool kSequential = std::is_same_v<acc_t, Half> || std::is_same_v<acc_t, BFloat16>;
  static acc_t mul(acc_t a, acc_t b) {
    if constexpr (std::is_same_v<acc_t, Half> || std::is_same_v<acc_t, BFloat16>) return acc_t(float(a) * float(b));
    else if constexpr (is_complex_v<acc_t>) return cmul(a, b);
    else return a * b;
  }
  static acc_t identity() { return acc_t(1); }
  static acc_t reduce(acc_t a, In x, int64_t) {
    if constexpr (std::is_same_v<acc_t, In>) return mul(a, x);
    else return a * widen<acc_t>(x);
  }
  static acc_t combine(acc_t a, acc_t b) { return mul(a, b); }
  static out_t project(acc_t a, int64_t) {
    if constexpr (std::is_same_v<acc_t, out_t>) return a;
    else return narrow_to<out_t>(a);
  }
};

// Values compared by max/min/argmax/argmin: float for the 16-bit floats.
template <class In> struct Cmp { using type = In; };
template <> struct Cmp<Half> { using type = float; };
template <> struct Cmp<BFloat16> { using type = float; };

template <class V, bool kMax>
constexpr V worst() {
  if constexpr (std::is_same_v<V, bool>) {
    return !kMax;
  } else if constexpr (std::is_floating_point_v<V>) {
    return kMax ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::infinity();
  } else {
    return kMax ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
  }
}

// amax/amin: NaN wins (propagates), as torch.
template <class In, bool kMax>
struct ExtremeOp {
  static constexpr bool kIsMax = kMax;
  using in_t = In;
  using acc_t = typename Cmp<In>::type;
  using out_t = In;
  static constexpr bool kFastSum = false;
  // float32/float64 amax/amin of contiguous rows take the explicit-vector kernel.
  static constexpr bool kFastExtreme = std::is_floating_point_v<In>;
  static acc_t identity() { return worst<acc_t, kMax>(); }
  static acc_t pick(acc_t a, acc_t v) {
    if constexpr (kMax) {
      return (v > a || is_nan(v)) ? v : a;
    } else {
      return (v < a || is_nan(v)) ? v : a;
    }
  }
  static acc_t reduce(acc_t a, In x, int64_t) { return pick(a, acc_t(x)); }
  static acc_t combine(acc_t a, acc_t b) { return pick(a, b); }
  static out_t project(acc_t a, int64_t) { return convert<out_t>(a); }
};

// argmax/argmin: (value, index); NaN beats every number; ties go to the smaller index, so
// the answer does not depend on the order in which elements are visited.
template <class In, bool kMax>
struct ArgOp {
  using in_t = In;
  using value_t = typename Cmp<In>::type;
  struct acc_t {
    value_t v;
    int64_t i;
  };
  using out_t = int64_t;
  static constexpr bool kFastSum = false;
  static constexpr bool kFastExtreme = false;
  static acc_t identity() { return {worst<value_t, kMax>(), std::numeric_limits<int64_t>::max()}; }
  // Whether b should replace a.
  static bool better(const acc_t& a, const acc_t& b) {
    if (is_nan(b.v)) return !is_nan(a.v) || b.i < a.i;
    if (is_nan(a.v)) return false;
    if constexpr (kMax) {
      return b.v > a.v || (b.v == a.v && b.i < a.i);
    } else {
      return b.v < a.v || (b.v == a.v && b.i < a.i);
    }
  }
  // Elements reach an accumulator in increasing index order, so a tie never replaces it;
  // the identity (index INT64_MAX) gives way to anything.
  static acc_t reduce(acc_t a, In x, int64_t idx) {
    const value_t v = value_t(x);
    bool take;
    if constexpr (kMax) {
      take = v > a.v;
    } else {
      take = v < a.v;
    }
    take = take || (is_nan(v) && !is_nan(a.v)) || a.i == std::numeric_limits<int64_t>::max();
    return take ? acc_t{v, idx} : a;
  }
  static acc_t combine(acc_t a, acc_t b) { return better(a, b) ? b : a; }
  static out_t project(acc_t a, int64_t) { return a.i; }
};

// ---- geometry --------------------------------------------------------------------------

struct Dim {
  int64_t size;
  int64_t in;   // input stride (elements)
  int64_t out;  // output stride (elements); unused for reduced dims
};

// A list of at most kMaxDims dims on the stack: every reduction builds two (no allocation).
class DimList {
 public:
  DimList() = default;
  DimList(const Dim* first, const Dim* last) : n_(size_t(last - first)) { std::copy(first, last, v_); }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  void push_back(const Dim& d) { v_[n_++] = d; }
  void resize(size_t n) { n_ = n; }
  Dim& operator[](size_t i) { return v_[i]; }
  const Dim& operator[](size_t i) const { return v_[i]; }
  Dim& back() { return v_[n_ - 1]; }
  const Dim& back() const { return v_[n_ - 1]; }
  Dim* begin() { return v_; }
  Dim* end() { return v_ + n_; }
  const Dim* begin() const { return v_; }
  const Dim* end() const { return v_ + n_; }

 private:
  Dim v_[kMaxDims];
  size_t n_ = 0;
};

struct Geo {
  DimList K, R;  // outer -> inner
  int64_t M = 1, N = 1;
};

// Merges neighbours that line up, in place (the write position never passes the read one).
void coalesce(DimList& v, bool with_out) {
  size_t w = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const Dim d = v[i];
    if (w > 0 && v[w - 1].in == d.in * d.size && (!with_out || v[w - 1].out == d.out * d.size)) {
      v[w - 1].size *= d.size;
      v[w - 1].in = d.in;
      v[w - 1].out = d.out;
    } else {
      v[w++] = d;
    }
  }
  v.resize(w);
}

// mask[i]: dim i is reduced.  out_strides: strides of the (keepdim-shaped) output.
Geo make_geo(const Tensor& t, const DimMask& mask, bool sort_reduced) {
  Geo g;
  const int nd = t.ndim();
  DimBuf keep;
  keep.resize(size_t(nd));
  for (int i = 0; i < nd; ++i) keep[size_t(i)] = mask[size_t(i)] ? 1 : t.size(i);
  const DimBuf ostr = contiguous_strides_buf(keep);
  for (int i = 0; i < nd; ++i) {
    if (t.size(i) == 1) continue;
    const Dim d{t.size(i), t.stride(i), ostr[size_t(i)]};
    (mask[size_t(i)] ? g.R : g.K).push_back(d);
  }
  // Stable insertion sorts by decreasing input stride (std::stable_sort would allocate a
  // buffer; there are at most kMaxDims dims).
  auto by_stride = [](DimList& v) {
    for (size_t i = 1; i < v.size(); ++i) {
      const Dim d = v[i];
      size_t j = i;
      for (; j > 0 && v[j - 1].in < d.in; --j) v[j] = v[j - 1];
      v[j] = d;
    }
  };
  by_stride(g.K);
  if (sort_reduced) by_stride(g.R);
  coalesce(g.K, true);
  coalesce(g.R, false);
  for (const Dim& d : g.K) g.M *= d.size;
  for (const Dim& d : g.R) g.N *= d.size;
  return g;
}

// Calls f(offset, count, flat) for each run of consecutive positions along the innermost
// dim of D within flat positions [lo, hi): the run's first element is at input offset
// `offset` and has flat index `flat`.  An empty D is a single position at offset 0.
template <class F>
void for_each_run(const DimList& D, int64_t lo, int64_t hi, F&& f) {
  const int nd = int(D.size());
  if (nd == 0) {
    if (lo < hi) f(int64_t(0), int64_t(1), lo);
    return;
  }
  int64_t idx[kMaxDims];
  int64_t off = 0, rem = lo;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % D[size_t(d)].size;
    rem /= D[size_t(d)].size;
    off += idx[d] * D[size_t(d)].in;
  }
  const Dim& inner = D[size_t(nd - 1)];
  int64_t flat = lo;
  while (flat < hi) {
    const int64_t cnt = std::min(inner.size - idx[nd - 1], hi - flat);
    f(off, cnt, flat);
    flat += cnt;
    if (flat >= hi) break;
    // cnt reached the end of the row: back to its start, then carry into the outer dims.
    off -= idx[nd - 1] * inner.in;
    idx[nd - 1] = 0;
    for (int d = nd - 2; d >= 0; --d) {
      off += D[size_t(d)].in;
      if (++idx[d] < D[size_t(d)].size) break;
      off -= D[size_t(d)].in * D[size_t(d)].size;
      idx[d] = 0;
    }
  }
}

// Walks output positions of K in order, tracking input and output offsets.
struct KCursor {
  const DimList& K;
  int64_t idx[kMaxDims];
  int64_t in = 0, out = 0;
  KCursor(const DimList& k, int64_t start) : K(k) {
    int64_t rem = start;
    for (int d = int(K.size()) - 1; d >= 0; --d) {
      idx[d] = rem % K[size_t(d)].size;
      rem /= K[size_t(d)].size;
      in += idx[d] * K[size_t(d)].in;
      out += idx[d] * K[size_t(d)].out;
    }
  }
  void next() {
    for (int d = int(K.size()) - 1; d >= 0; --d) {
      const Dim& k = K[size_t(d)];
      in += k.in;
      out += k.out;
      if (++idx[d] < k.size) return;
      in -= k.in * k.size;
      out -= k.out * k.size;
      idx[d] = 0;
    }
  }
};

// ---- the pairwise tree -----------------------------------------------------------------

template <class Val, class Leaf, class Comb>
Val tree(int64_t b0, int64_t b1, const Leaf& leaf, const Comb& comb) {
  if (b1 - b0 == 1) return leaf(b0);
  const int64_t mid = b0 + (b1 - b0) / 2;
  Val l = tree<Val>(b0, mid, leaf, comb);
  Val r = tree<Val>(mid, b1, leaf, comb);
  return comb(l, r);
}

// The same value as tree(0, nb), with the subtrees of the frontier computed by threads.
template <class Val, class Leaf, class Comb>
Val tree_parallel(int64_t nb, const Leaf& leaf, const Comb& comb) {
  const int64_t cap = std::max<int64_t>(kMinNodeBlocks, (nb + 63) / 64);
  if (nb <= cap) return tree<Val>(0, nb, leaf, comb);
  std::vector<std::pair<int64_t, int64_t>> nodes;
  struct Walk {
    int64_t cap;
    std::vector<std::pair<int64_t, int64_t>>& nodes;
    void collect(int64_t b0, int64_t b1) {
      if (b1 - b0 <= cap) {
        nodes.emplace_back(b0, b1);
        return;
      }
      const int64_t mid = b0 + (b1 - b0) / 2;
      collect(b0, mid);
      collect(mid, b1);
    }
  } walk{cap, nodes};
  walk.collect(0, nb);
  std::vector<Val> vals(nodes.size());
  parallel_for(int64_t(nodes.size()), 1, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      vals[size_t(i)] = tree<Val>(nodes[size_t(i)].first, nodes[size_t(i)].second, leaf, comb);
    }
  });
  size_t next = 0;
  struct Rebuild {
    int64_t cap;
    std::vector<Val>& vals;
    size_t& next;
    const Comb& comb;
    Val run(int64_t b0, int64_t b1) {
      if (b1 - b0 <= cap) return vals[next++];
      const int64_t mid = b0 + (b1 - b0) / 2;
      Val l = run(b0, mid);
      Val r = run(mid, b1);
      return comb(l, r);
    }
  } rebuild{cap, vals, next, comb};
  return rebuild.run(0, nb);
}

// ---- INNER kernels ---------------------------------------------------------------------

// 16-byte vectors: native on every x86-64 (SSE2), so the accumulators stay in registers
// (wider GCC vectors without AVX enabled are lowered through the stack).
template <class T>
struct Vec;
template <>
struct Vec<float> {
  typedef float type __attribute__((vector_size(16)));
  static constexpr int kLanes = 4;
};
template <>
struct Vec<double> {
  typedef double type __attribute__((vector_size(16)));
  static constexpr int kLanes = 2;
};

// Eight vector accumulators (32 float or 16 double lanes).  Element t of a run goes to lane
// t mod (8 * kLanes); lanes are combined pairwise at the end of the block.
template <class T>
struct SumLanes {
  using V = typename Vec<T>::type;
  static constexpr int kL = Vec<T>::kLanes;
  static constexpr int kAcc = 8;
  static constexpr int kAll = kAcc * kL;
  V a[kAcc];

  SumLanes() {
    for (auto& v : a) v = V{};
  }
  static V load(const T* p) {
    V x;
    std::memcpy(&x, p, sizeof(V));
    return x;
  }
  void run(const T* p, int64_t stride, int64_t n) {
    int64_t i = 0;
    if (stride == 1) {
      V a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5], a6 = a[6], a7 = a[7];
      for (; i + kAll <= n; i += kAll) {
        a0 += load(p + i);
        a1 += load(p + i + kL);
        a2 += load(p + i + 2 * kL);
        a3 += load(p + i + 3 * kL);
        a4 += load(p + i + 4 * kL);
        a5 += load(p + i + 5 * kL);
        a6 += load(p + i + 6 * kL);
        a7 += load(p + i + 7 * kL);
      }
      a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3, a[4] = a4, a[5] = a5, a[6] = a6, a[7] = a7;
    }
    if (i == n) return;
    T lanes[kAll];
    std::memcpy(lanes, a, sizeof(lanes));
    for (int64_t t = 0; i < n; ++i, ++t) lanes[t % kAll] += p[i * stride];
    std::memcpy(a, lanes, sizeof(lanes));
  }
  T finish() const {
    const V v = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
    T l[kL];
    std::memcpy(l, &v, sizeof(l));
    for (int w = kL / 2; w >= 1; w /= 2) {
      for (int j = 0; j < w; ++j) l[j] = l[j] + l[j + w];
    }
    return l[0];
  }
};

// The same for amax/amin: eight vector accumulators, NaN-propagating max/min per lane.
template <class T, bool kMax>
struct ExtremeLanes {
  using V = typename Vec<T>::type;
  static constexpr int kL = Vec<T>::kLanes;
  static constexpr int kAcc = 8;
  static constexpr int kAll = kAcc * kL;
  V a[kAcc];

  ExtremeLanes() {
    const T w = worst<T, kMax>();
    for (auto& v : a) {
      for (int j = 0; j < kL; ++j) v[j] = w;
    }
  }
  // x where x beats a (or is NaN), else a: lane by lane.
  static V pick(V a, V x) {
    if constexpr (kMax) {
      return ((x > a) | (x != x)) ? x : a;
    } else {
      return ((x < a) | (x != x)) ? x : a;
    }
  }
  void run(const T* p, int64_t stride, int64_t n) {
    int64_t i = 0;
    if (stride == 1) {
      V a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5], a6 = a[6], a7 = a[7];
      for (; i + kAll <= n; i += kAll) {
        a0 = pick(a0, SumLanes<T>::load(p + i));
        a1 = pick(a1, SumLanes<T>::load(p + i + kL));
        a2 = pick(a2, SumLanes<T>::load(p + i + 2 * kL));
        a3 = pick(a3, SumLanes<T>::load(p + i + 3 * kL));
        a4 = pick(a4, SumLanes<T>::load(p + i + 4 * kL));
        a5 = pick(a5, SumLanes<T>::load(p + i + 5 * kL));
        a6 = pick(a6, SumLanes<T>::load(p + i + 6 * kL));
        a7 = pick(a7, SumLanes<T>::load(p + i + 7 * kL));
      }
      a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3, a[4] = a4, a[5] = a5, a[6] = a6, a[7] = a7;
    }
    if (i == n) return;
    T lanes[kAll];
    std::memcpy(lanes, a, sizeof(lanes));
    for (int64_t t = 0; i < n; ++i, ++t) {
      T& l = lanes[t % kAll];
      l = ExtremeOp<T, kMax>::pick(l, p[i * stride]);
    }
    std::memcpy(a, lanes, sizeof(lanes));
  }
  T finish() const {
    const V v = pick(pick(pick(a[0], a[1]), pick(a[2], a[3])), pick(pick(a[4], a[5]), pick(a[6], a[7])));
    T l[kL];
    std::memcpy(l, &v, sizeof(l));
    for (int w = kL / 2; w >= 1; w /= 2) {
      for (int j = 0; j < w; ++j) l[j] = ExtremeOp<T, kMax>::pick(l[j], l[j + w]);
    }
    return l[0];
  }
};

// Does Op fold a row into one accumulator, in order (Op::kSequential, false when absent)?
template <class Op>
constexpr bool sequential() {
  if constexpr (requires { Op::kSequential; }) return Op::kSequential;
  else return false;
}

template <class Op>
typename Op::acc_t inner_block(const Op& op, const char* base, const Geo& g, int64_t lo, int64_t hi) {
  using in_t = typename Op::in_t;
  using acc_t = typename Op::acc_t;
  const in_t* p0 = reinterpret_cast<const in_t*>(base);
  const int64_t s = g.R.empty() ? 0 : g.R.back().in;
  if constexpr (Op::kFastSum) {
    SumLanes<in_t> lanes;
    for_each_run(g.R, lo, hi, [&](int64_t off, int64_t cnt, int64_t) { lanes.run(p0 + off, s, cnt); });
    return lanes.finish();
  } else if constexpr (Op::kFastExtreme) {
    ExtremeLanes<in_t, Op::kIsMax> lanes;
    for_each_run(g.R, lo, hi, [&](int64_t off, int64_t cnt, int64_t) { lanes.run(p0 + off, s, cnt); });
    return lanes.finish();
  } else if constexpr (sequential<Op>()) {
    acc_t a = op.identity();
    for_each_run(g.R, lo, hi, [&](int64_t off, int64_t cnt, int64_t flat) {
      for (int64_t i = 0; i < cnt; ++i) a = op.reduce(a, load<in_t>(p0 + off + i * s), flat + i);
    });
    return a;
  } else {
    constexpr int kL = 8;
    acc_t l[kL];
    for (auto& x : l) x = op.identity();
    for_each_run(g.R, lo, hi, [&](int64_t off, int64_t cnt, int64_t flat) {
      const in_t* p = p0 + off;
      int64_t i = 0;
      if (s == 1) {
        for (; i + kL <= cnt; i += kL) {
          for (int j = 0; j < kL; ++j) l[j] = op.reduce(l[j], load<in_t>(p + i + j), flat + i + j);
        }
      } else {
        for (; i + kL <= cnt; i += kL) {
          for (int j = 0; j < kL; ++j) l[j] = op.reduce(l[j], load<in_t>(p + (i + j) * s), flat + i + j);
        }
      }
      for (int j = 0; i < cnt; ++i, ++j) l[j] = op.reduce(l[j], load<in_t>(p + i * s), flat + i);
    });
    for (int w = kL / 2; w >= 1; w /= 2) {
      for (int j = 0; j < w; ++j) l[j] = op.combine(l[j], l[j + w]);
    }
    return l[0];
  }
}

template <class Op>
void run_inner(const Op& op, const Tensor& in, const Tensor& out, const Geo& g) {
  using in_t = typename Op::in_t;
  using acc_t = typename Op::acc_t;
  using out_t = typename Op::out_t;
  const in_t* ib = reinterpret_cast<const in_t*>(in.data());
  out_t* ob = reinterpret_cast<out_t*>(out.data());
  const int64_t N = g.N, M = g.M;
  const int64_t nb = (N + kInnerLeaf - 1) / kInnerLeaf;
  auto comb = [&op](const acc_t& a, const acc_t& b) { return op.combine(a, b); };
  auto reduce_one = [&](const in_t* base, bool parallel) {
    const char* cb = reinterpret_cast<const char*>(base);
    auto leaf = [&](int64_t b) {
      return inner_block<Op>(op, cb, g, b * kInnerLeaf, std::min(N, (b + 1) * kInnerLeaf));
    };
    return parallel ? tree_parallel<acc_t>(nb, leaf, comb) : tree<acc_t>(0, nb, leaf, comb);
  };
  const int threads = get_num_threads();
  if (M >= 4 * int64_t(threads) || nb <= 2 * kMinNodeBlocks) {
    parallel_for(M, std::max<int64_t>(1, kGrain / N), [&](int64_t u0, int64_t u1) {
      KCursor c(g.K, u0);
      for (int64_t u = u0; u < u1; ++u, c.next()) ob[c.out] = op.project(reduce_one(ib + c.in, false), N);
    });
  } else {
    KCursor c(g.K, 0);
    for (int64_t u = 0; u < M; ++u, c.next()) ob[c.out] = op.project(reduce_one(ib + c.in, true), N);
  }
}

// ---- OUTER kernels ---------------------------------------------------------------------

template <class Op>
using TileAcc = std::array<typename Op::acc_t, kTile>;

// Asks for the cache lines of one tile row ahead of use.  Tile rows are short (256 bytes for
// float32) and far apart, which hardware prefetchers do not follow; without this the loop
// waits on memory latency with few misses in flight.
template <class T>
inline void prefetch_row(const T* p, int w) {
  const char* c = reinterpret_cast<const char*>(p);
  for (int64_t b = 0; b < int64_t(w) * int64_t(sizeof(T)); b += 64) __builtin_prefetch(c + b);
}

// a[j] = reduce(a[j], row[j]) for j < w over `cnt` rows p, p + rs, ... (each row contiguous),
// with explicit SSE vectors for the ops that have them (float32/float64 sum, amax, amin).
// Eight vectors of outputs stay in registers over all the rows, then the next eight: the
// accumulators no longer go through memory for every row, and a tile narrower than kTile (a
// bias of 32, summed in a small step's backward) is no longer reduced one scalar at a time.
// Each output still takes the rows in order: the same arithmetic as the scalar loop.
template <class Op>
void vector_rows(const Op& op, typename Op::acc_t* a, const typename Op::in_t* p, int64_t rs, int64_t cnt, int w,
                 int64_t flat) {
  using T = typename Op::in_t;
  using V = typename Vec<T>::type;
  constexpr int kL = Vec<T>::kLanes;
  constexpr int kRegs = 8;
  auto step = [](V acc, V x) {
    if constexpr (Op::kFastSum) {
      return acc + x;
    } else {
      return ExtremeLanes<T, Op::kIsMax>::pick(acc, x);
    }
  };
  auto lanes = [&](int j, auto regs) {  // outputs [j, j + regs * kL) over every row
    constexpr int n = decltype(regs)::value;
    V v[n];
    for (int i = 0; i < n; ++i) std::memcpy(&v[i], a + j + i * kL, sizeof(V));
    for (int64_t r = 0; r < cnt; ++r) {
      const T* q = p + r * rs + j;
      if (j == 0 && r + kPrefetchRows < cnt) prefetch_row(q + kPrefetchRows * rs, w);
      for (int i = 0; i < n; ++i) {
        V x;
        std::memcpy(&x, q + i * kL, sizeof(V));
        v[i] = step(v[i], x);
      }
    }
    for (int i = 0; i < n; ++i) std::memcpy(a + j + i * kL, &v[i], sizeof(V));
  };
  int j = 0;
  for (; j + kRegs * kL <= w; j += kRegs * kL) lanes(j, std::integral_constant<int, kRegs>{});
  for (; j + kL <= w; j += kL) lanes(j, std::integral_constant<int, 1>{});
  for (; j < w; ++j)
    for (int64_t r = 0; r < cnt; ++r) a[j] = op.reduce(a[j], load<T>(p + r * rs + j), flat + r);
}

// Reduces positions [lo, hi) of R for the w outputs at base, base + sk, ...
template <class Op>
TileAcc<Op> tile_block(const Op& op, const typename Op::in_t* base, int64_t sk, int w, const Geo& g, int64_t lo,
                       int64_t hi) {
  using in_t = typename Op::in_t;
  using acc_t = typename Op::acc_t;
  alignas(64) acc_t a[kTile];
  for (auto& x : a) x = op.identity();
  const int64_t rs = g.R.empty() ? 0 : g.R.back().in;
  for_each_run(g.R, lo, hi, [&](int64_t off, int64_t cnt, int64_t flat) {
    if constexpr (Op::kFastSum || Op::kFastExtreme) {
      if (sk == 1) return vector_rows<Op>(op, a, base + off, rs, cnt, w, flat);
    }
    for (int64_t r = 0; r < cnt; ++r) {
      const in_t* p = base + off + r * rs;
      const int64_t f = flat + r;
      if (sk == 1 && r + kPrefetchRows < cnt) prefetch_row(p + kPrefetchRows * rs, w);
      if (sk == 1) {
        for (int j = 0; j < w; ++j) a[j] = op.reduce(a[j], load<in_t>(p + j), f);
      } else {
        for (int j = 0; j < w; ++j) a[j] = op.reduce(a[j], load<in_t>(p + j * sk), f);
      }
    }
  });
  TileAcc<Op> out;
  for (int j = 0; j < kTile; ++j) out[size_t(j)] = a[j];
  return out;
}

template <class Op>
void run_outer(const Op& op, const Tensor& in, const Tensor& out, const Geo& g) {
  using in_t = typename Op::in_t;
  using out_t = typename Op::out_t;
  using Val = TileAcc<Op>;
  const in_t* ib = reinterpret_cast<const in_t*>(in.data());
  out_t* ob = reinterpret_cast<out_t*>(out.data());
  const int64_t N = g.N;
  const Dim k0 = g.K.back();
  const DimList Ko(g.K.begin(), g.K.end() - 1);
  const int64_t ntiles = (k0.size + kTile - 1) / kTile;
  const int64_t units = (g.M / k0.size) * ntiles;
  const int64_t nb = (N + kOuterLeaf - 1) / kOuterLeaf;
  auto comb = [&op](const Val& a, const Val& b) {
    Val r;
    for (size_t j = 0; j < size_t(kTile); ++j) r[j] = op.combine(a[j], b[j]);
    return r;
  };
  auto do_unit = [&](int64_t u, bool parallel) {
    const int64_t tile = u % ntiles;
    const KCursor c(Ko, u / ntiles);
    const int w = int(std::min<int64_t>(kTile, k0.size - tile * kTile));
    const in_t* base = ib + c.in + tile * kTile * k0.in;
    auto leaf = [&](int64_t b) {
      return tile_block<Op>(op, base, k0.in, w, g, b * kOuterLeaf, std::min(N, (b + 1) * kOuterLeaf));
    };
    const Val acc = parallel ? tree_parallel<Val>(nb, leaf, comb) : tree<Val>(0, nb, leaf, comb);
    out_t* o = ob + c.out + tile * kTile * k0.out;
    for (int j = 0; j < w; ++j) o[j * k0.out] = op.project(acc[size_t(j)], N);
  };
  const int threads = get_num_threads();
  if (units >= 4 * int64_t(threads) || nb <= 2 * kMinNodeBlocks) {
    parallel_for(units, std::max<int64_t>(1, kGrain / (N * kTile)), [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) do_unit(u, false);
    });
  } else {
    for (int64_t u = 0; u < units; ++u) do_unit(u, true);
  }
}

// ---- driver ----------------------------------------------------------------------------

template <class Op>
// op: the operation, an object so that it can carry parameters (var's correction, a norm's order).
void execute(const Tensor& in, const Tensor& out, const DimMask& mask, bool sort_reduced, const Op& op = Op{}) {
  using out_t = typename Op::out_t;
  if (out.numel() == 0) return;
  if (in.numel() == 0) {  // empty reduction: the identity (sum 0, prod 1, mean 0/0 = nan)
    const out_t v = op.project(op.identity(), 0);
    out_t* o = reinterpret_cast<out_t*>(out.data());
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = v;
    return;
  }
  const Geo g = make_geo(in, mask, sort_reduced);
  bool inner;
  if (g.K.empty()) {
    inner = true;
  } else if (g.R.empty()) {
    inner = false;
  } else {
    inner = g.R.back().size >= kShortRow && g.R.back().in <= g.K.back().in;
  }
  if (inner) {
    run_inner<Op>(op, in, out, g);
  } else {
    run_outer<Op>(op, in, out, g);
  }
}

DType result_dtype(Kind k, DType in) {
  switch (k) {
    case Kind::Sum:
    case Kind::Prod:
      return is_floating(in) || is_complex(in) ? in : DType::Int64;
    case Kind::Mean:
    case Kind::Max:
    case Kind::Min:
      return in;
    case Kind::ArgMax:
    case Kind::ArgMin:
      return DType::Int64;
  }
  return in;
}

template <class T>
void dispatch_typed(Kind k, const Tensor& in, const Tensor& out, const DimMask& mask) {
  if constexpr (is_complex_v<T>) {  // reduce_dims / arg_reduce refused the others
    switch (k) {
      case Kind::Sum: execute<SumOp<T>>(in, out, mask, true); return;
      case Kind::Prod: execute<ProdOp<T>>(in, out, mask, true); return;
      case Kind::Mean: execute<MeanOp<T>>(in, out, mask, true); return;
      default: CT_FAIL(Internal, kind_name(k) << " of a complex dtype reached the kernel");
    }
  } else
  switch (k) {
    case Kind::Sum: execute<SumOp<T>>(in, out, mask, true); return;
    case Kind::Prod: execute<ProdOp<T>>(in, out, mask, true); return;
    case Kind::Max: execute<ExtremeOp<T, true>>(in, out, mask, true); return;
    case Kind::Min: execute<ExtremeOp<T, false>>(in, out, mask, true); return;
    case Kind::Mean:
      if constexpr (std::is_same_v<typename SumTypes<T>::acc, uint64_t>) {
        CT_FAIL(Internal, "mean of an integer dtype reached the kernel");
      } else {
        execute<MeanOp<T>>(in, out, mask, true);
      }
      return;
    case Kind::ArgMax:
    case Kind::ArgMin:
      if constexpr (std::is_same_v<T, bool>) {
        CT_FAIL(Internal, "argmax of bool reached the kernel");
      } else if (k == Kind::ArgMax) {
        execute<ArgOp<T, true>>(in, out, mask, false);
      } else {
        execute<ArgOp<T, false>>(in, out, mask, false);
      }
      return;
  }
}

void dispatch(Kind k, const Tensor& in, const Tensor& out, const DimMask& mask) {
  CT_DISPATCH_WITH_COMPLEX(in.dtype(), [&] { dispatch_typed<scalar_t>(k, in, out, mask); });
}

// Wraps a dim, naming the op in the message.
int wrap(int64_t dim, int ndim, const char* name) {
  try {
    return wrap_dim(dim, ndim, /*scalar_ok=*/true);
  } catch (const Error& e) {
    raise(e.kind(), std::string(name) + "(): " + e.what());
  }
}

// Which dims are reduced; empty dims: all.  torch's make_dim_mask.
DimMask dim_mask(const Tensor& t, std::span<const int64_t> dims, const char* name) {
  const int nd = t.ndim();
  DimMask seen(size_t(std::max(nd, 1)), dims.empty());
  for (int64_t d : dims) {
    const int w = wrap(d, nd, name);
    CT_CHECK(!seen[size_t(w)], InvalidArgument,
             name << "(): dim " << w << " appears multiple times in the list of dims");
    seen[size_t(w)] = true;
  }
  seen.resize(size_t(nd));
  return seen;
}

Ref<Tensor> reduce(Kind k, const Tensor& t, const DimMask& mask, bool keepdim) {
  DimBuf out_sizes;
  for (int i = 0; i < t.ndim(); ++i) {
    if (!mask[size_t(i)]) {
      out_sizes.push_back(t.size(i));
    } else if (keepdim) {
      out_sizes.push_back(1);
    }
  }
  Ref<Tensor> out = Tensor::empty(out_sizes, result_dtype(k, t.dtype()), kind_name(k));
  dispatch(k, t, *out, mask);
  return out;
}

Ref<Tensor> reduce_dims(Kind k, const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  const char* name = kind_name(k);
  if (is_complex(t.dtype()) && (k == Kind::Max || k == Kind::Min)) {  // torch's kernel names
    CT_FAIL(DType, "\"" << (k == Kind::Max ? "max_values_cpu" : "min_values_cpu") << "\" not implemented for '"
                        << torch_scalar_type_name(t.dtype()) << "'");
  }
  if (k == Kind::Mean) {
    CT_CHECK(is_floating(t.dtype()) || is_complex(t.dtype()), DType,
             "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
             "dtype. Got: "
                 << torch_scalar_type_name(t.dtype()));
  }
  // amax/amin (torch's zero_numel_check_dims) look at empty dims before anything else, and
  // name each dim as given.
  if ((k == Kind::Max || k == Kind::Min) && t.numel() == 0) {
    CT_CHECK(!dims.empty(), Shape,
             name << "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                     "reduction dim with the 'dim' argument.");
    for (int64_t d : dims) {
      const int w = wrap(d, t.ndim(), name);
      CT_CHECK(t.size(w) != 0, Index, name << "(): Expected reduction dim " << d << " to have non-zero size.");
    }
  }
  const DimMask mask = dim_mask(t, dims, name);
  return reduce(k, t, mask, keepdim);
}

Ref<Tensor> arg_reduce(Kind k, const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  const char* name = kind_name(k);
  // torch 2.x refuses bool before looking at the dim or the elements (ReduceOps.cpp:
  // argmax_argmin_impl); 1.13 only failed in the kernel ("argmax_cpu" not implemented).
  CT_CHECK(t.dtype() != DType::Bool, DType, name << "(): does not support bool input");
  CT_CHECK(!is_complex(t.dtype()), DType, name << "(): does not support complex input");
  const int nd = t.ndim();
  DimMask mask(size_t(nd), true);
  if (dim) {
    const int w = wrap(*dim, nd, name);
    if (nd > 0) {
      CT_CHECK(t.numel() != 0 || t.size(w) != 0, Index,
               name << "(): Expected reduction dim " << w << " to have non-zero size.");
      for (int i = 0; i < nd; ++i) mask[size_t(i)] = i == w;
    }
  } else {
    CT_CHECK(t.numel() != 0, Index, name << "(): Expected reduction dim to be specified for input.numel() == 0.");
  }
  return reduce(k, t, mask, keepdim);
}

}  // namespace

Ref<Tensor> sum(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  return reduce_dims(Kind::Sum, t, dims, keepdim);
}
Ref<Tensor> mean(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  return reduce_dims(Kind::Mean, t, dims, keepdim);
}
Ref<Tensor> prod(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  return reduce_dims(Kind::Prod, t, dims, keepdim);
}
Ref<Tensor> amax(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  return reduce_dims(Kind::Max, t, dims, keepdim);
}
Ref<Tensor> amin(const Tensor& t, std::span<const int64_t> dims, bool keepdim) {
  return reduce_dims(Kind::Min, t, dims, keepdim);
}
Ref<Tensor> argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(Kind::ArgMax, t, dim, keepdim);
}
Ref<Tensor> argmin(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(Kind::ArgMin, t, dim, keepdim);
}

Ref<Tensor> max_all(const Tensor& t, bool max) {
  if (is_complex(t.dtype())) {
    CT_FAIL(DType, "\"" << (max ? "max_all" : "min_all") << "\" not implemented for '" << torch_scalar_type_name(t.dtype())
                        << "'");
  }
  CT_CHECK(t.numel() != 0, Shape,
           (max ? "max" : "min") << "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                    "reduction dim with the 'dim' argument.");
  return reduce_dims(max ? Kind::Max : Kind::Min, t, {}, false);
}

ValuesIndices max_dim(const Tensor& t, int64_t dim, bool keepdim, bool max) {
  CT_CHECK(!is_complex(t.dtype()), DType, (max ? "max" : "min") << "(): does not support complex input");
  const int w = wrap_dim(dim, t.ndim());
  CT_CHECK(t.ndim() == 0 || t.size(w) != 0, Index,
           (max ? "max" : "min") << "(): Expected reduction dim " << w << " to have non-zero size.");
  const int64_t dims[1] = {w};
  ValuesIndices r;
  r.values = reduce_dims(max ? Kind::Max : Kind::Min, t, dims, keepdim);
  // The same order as a uint8 copy of a bool t (false < true), which argmax accepts.
  Ref<Tensor> src = t.dtype() == DType::Bool ? to_dtype(t, DType::UInt8) : Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  r.indices = arg_reduce(max ? Kind::ArgMax : Kind::ArgMin, *src, w, keepdim);
  return r;
}

// ---- var / std and vector norms ------------------------------------------------------------
// Ops with parameters (the correction, the order), run by the same engine as sum.

namespace {

// Welford's running (count, mean, sum of squared deviations) in double, as torch's WelfordOps
// on CPU; partial results are merged with Chan et al.'s formula, so the pairwise tree and the
// lanes of the engine keep its accuracy.
template <class In>
struct VarOp {
  using in_t = In;
  struct acc_t {
    double n, mean, m2;
  };
  using out_t = In;
  static constexpr bool kFastSum = false;
  static constexpr bool kFastExtreme = false;
  double correction;
  bool take_sqrt;
  static acc_t identity() { return {0.0, 0.0, 0.0}; }
  static acc_t reduce(acc_t a, In x, int64_t) {
    const double v = convert<double>(x);
    a.n += 1.0;
    const double d = v - a.mean;
    a.mean += d / a.n;
    a.m2 += d * (v - a.mean);
    return a;
  }
  static acc_t combine(acc_t a, acc_t b) {
    if (a.n == 0.0) return b;
    if (b.n == 0.0) return a;
    const double n = a.n + b.n, d = b.mean - a.mean;
    return {n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * (b.n / n))};
  }
  out_t project(acc_t a, int64_t n) const {
    const double divisor = std::max(0.0, double(n) - correction);
    const double v = a.m2 / divisor;  // 0/0 = nan, x/0 = inf: torch's answer without dof
    return convert<out_t>(take_sqrt ? std::sqrt(v) : v);
  }
};

enum class NormKind { Zero, One, Two, Inf, NegInf, General };

template <class In, NormKind K>
struct NormOp {
  using in_t = In;
  using acc_t = ct::acc_t<In>;
  using out_t = In;
  static constexpr bool kFastSum = false;
  static constexpr bool kFastExtreme = false;
  acc_t p;  // the order (General)
  static acc_t identity() { return K == NormKind::NegInf ? std::numeric_limits<acc_t>::infinity() : acc_t(0); }
  acc_t reduce(acc_t a, In x, int64_t) const {
    const acc_t v = acc_t(x);
    if constexpr (K == NormKind::Zero) return a + acc_t(v != acc_t(0));
    else if constexpr (K == NormKind::One) return a + std::abs(v);
    else if constexpr (K == NormKind::Two) return a + v * v;
    else if constexpr (K == NormKind::General) return a + std::pow(std::abs(v), p);
    else return combine(a, std::abs(v));
  }
  static acc_t combine(acc_t a, acc_t b) {
    if constexpr (K == NormKind::Inf) return (is_nan(a) || b > a || is_nan(b)) ? (is_nan(a) ? a : b) : a;
    else if constexpr (K == NormKind::NegInf) return (is_nan(a) || b < a || is_nan(b)) ? (is_nan(a) ? a : b) : a;
    else return a + b;
  }
  out_t project(acc_t a, int64_t) const {
    if constexpr (K == NormKind::Two) return convert<out_t>(std::sqrt(a));
    else if constexpr (K == NormKind::General) return convert<out_t>(std::pow(a, acc_t(1) / p));
    else return convert<out_t>(a);
  }
};

Shape reduced_shape(const Tensor& t, const DimMask& mask, bool keepdim) {
  Shape out;
  for (int i = 0; i < t.ndim(); ++i) {
    if (!mask[size_t(i)]) out.push_back(t.size(i));
    else if (keepdim) out.push_back(1);
  }
  return out;
}

template <class Op>
Ref<Tensor> run_op(const Tensor& t, const DimMask& mask, bool keepdim, const Op& op, const char* name) {
  Ref<Tensor> out = Tensor::empty(reduced_shape(t, mask, keepdim), t.dtype(), name);
  execute<Op>(t, *out, mask, true, op);
  return out;
}

template <class T>
Ref<Tensor> norm_typed(const Tensor& t, NormKind k, double ord, const DimMask& mask, bool keepdim) {
  const char* name = "linalg.vector_norm";
  using A = acc_t<T>;
  switch (k) {
    case NormKind::Zero: return run_op(t, mask, keepdim, NormOp<T, NormKind::Zero>{}, name);
    case NormKind::One: return run_op(t, mask, keepdim, NormOp<T, NormKind::One>{}, name);
    case NormKind::Two: return run_op(t, mask, keepdim, NormOp<T, NormKind::Two>{}, name);
    case NormKind::Inf: return run_op(t, mask, keepdim, NormOp<T, NormKind::Inf>{}, name);
    case NormKind::NegInf: return run_op(t, mask, keepdim, NormOp<T, NormKind::NegInf>{}, name);
    case NormKind::General: return run_op(t, mask, keepdim, NormOp<T, NormKind::General>{A(ord)}, name);
  }
  CT_FAIL(Internal, "unknown norm kind");
}

}  // namespace

DimMask reduced_dims_mask(const Tensor& t, std::span<const int64_t> dims) {
  const int nd = t.ndim();
  DimMask seen(size_t(std::max(nd, 1)), dims.empty());
  for (int64_t d : dims) {
    const int w = wrap_dim(d, nd, /*scalar_ok=*/true);
    CT_CHECK(!seen[size_t(w)], InvalidArgument, "dim " << w << " appears multiple times in the list of dims");
    seen[size_t(w)] = true;
  }
  seen.resize(size_t(nd));
  return seen;
}

Ref<Tensor> var(const Tensor& t, std::span<const int64_t> dims, double correction, bool keepdim, bool take_sqrt,
                const char* name) {
  if (is_complex(t.dtype())) {
    // torch's std_var_out for complex: the variances of the real and the imaginary parts,
    // added, then the square root for std (a real result)
    Ref<Tensor> re = var(*real_view(t), dims, correction, keepdim, false, name);
    Ref<Tensor> im = var(*imag_view(t), dims, correction, keepdim, false, name);
    Ref<Tensor> v = binary(BinaryOp::Add, Operand::of(*re), Operand::of(*im));
    if (take_sqrt) unary_(UnaryOp::Sqrt, *v);
    return v;
  }
  if (name) {
    CT_CHECK(is_floating(t.dtype()), DType, name << " only support floating point and complex dtypes");
  } else {
    CT_CHECK(is_floating(t.dtype()), DType, "std and var only support floating point and complex dtypes");
  }
  const DimMask mask = reduced_dims_mask(t, dims);
  const char* op = name ? name : (take_sqrt ? "std" : "var");
  Ref<Tensor> r;
  CT_DISPATCH_ALL(t.dtype(), [&] {
    if constexpr (std::is_floating_point_v<acc_t<scalar_t>>) {
      r = run_op(t, mask, keepdim, VarOp<scalar_t>{correction, take_sqrt}, op);
    } else {
      CT_FAIL(Internal, "var of an integer dtype reached the kernel");
    }
  });
  return r;
}

Ref<Tensor> vector_norm(const Tensor& t, double ord, std::span<const int64_t> dims, bool keepdim,
                        std::optional<DType> dtype) {
  CT_CHECK(is_floating(t.dtype()) || is_complex(t.dtype()), DType,
           "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
               << torch_scalar_type_name(t.dtype()));
  if (t.numel() == 0 && (ord < 0.0 || ord == INFINITY)) {
    CT_CHECK(!dims.empty(), InvalidArgument,
             "linalg.vector_norm cannot compute the " << ord
                 << " norm on an empty tensor because the operation does not have an identity");
    for (int64_t d : dims) {
      const int w = wrap_dim(d, t.ndim(), /*scalar_ok=*/true);
      CT_CHECK(t.ndim() == 0 || t.size(w) != 0, InvalidArgument,
               "linalg.vector_norm cannot compute the "
                   << ord << " norm on the dimension " << d
                   << "because this dimension is empty and the operation does not have an identity");
    }
  }
  if (dtype) {
    CT_CHECK(is_floating(*dtype) || is_complex(*dtype), DType,
             "linalg.vector_norm: dtype should be floating point or complex, but got " << torch_scalar_type_name(*dtype));
    CT_CHECK(promote_types(t.dtype(), *dtype) == *dtype, DType,
             "linalg.vector_norm: the dtype of the input (" << torch_scalar_type_name(t.dtype())
                 << ") should be convertible without narrowing to the specified dtype ("
                 << torch_scalar_type_name(*dtype) << ")");
  }
  const DimMask mask = reduced_dims_mask(t, dims);
  Ref<Tensor> src = dtype && *dtype != t.dtype() ? to_dtype(t, *dtype) : Ref<Tensor>::retain(const_cast<Tensor*>(&t));
  // A complex input: the norm of |z| (torch's norm kernels take zabs of each element first);
  // the result has the real dtype.
  if (is_complex(src->dtype())) return vector_norm(*unary(UnaryOp::Abs, *src), ord, dims, keepdim, std::nullopt);
  // Reducing only size-1 dims is |x| (x != 0 for ord 0), exactly, as torch's shortcut.
  bool single = true;
  for (int i = 0; i < t.ndim(); ++i) single = single && (!mask[size_t(i)] || t.size(i) == 1);
  NormKind k = NormKind::General;
  if (ord == 0.0) k = NormKind::Zero;
  else if (single || ord == 1.0) k = NormKind::One;
  else if (ord == 2.0) k = NormKind::Two;
  else if (ord == INFINITY) k = NormKind::Inf;
  else if (ord == -INFINITY) k = NormKind::NegInf;
  Ref<Tensor> r;
  CT_DISPATCH_ALL(src->dtype(), [&] {
    if constexpr (std::is_floating_point_v<acc_t<scalar_t>>) {
      r = norm_typed<scalar_t>(*src, k, ord, mask, keepdim);
    } else {
      CT_FAIL(Internal, "vector_norm of an integer dtype reached the kernel");
    }
  });
  return r;
}

}  // namespace ct
