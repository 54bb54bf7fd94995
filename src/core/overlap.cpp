// Memory relations between tensors: extent test, exact overlap, exact internal overlap.
//
// Note [Overlap as a bounded Diophantine equation]
// A byte p belongs to tensor t when, for some index tuple x and some byte y of the element,
//
//     p = L_t + sum_i |s_i| * isz_t * x_i + y,    0 <= x_i <= n_i - 1,  0 <= y <= isz_t - 1
//
// where L_t is the address of the first byte of t's lowest element (a negative stride is
// turned positive by counting its index from the other end, x_i -> n_i - 1 - x_i, which
// moves the origin to the lowest element).  Counting b's variables from their upper ends
// instead (z -> ub - z) makes b's byte set H_b - sum(...), with H_b b's highest byte, so
// "a and b share a byte" becomes one equation with non-negative coefficients only:
//
//     sum over the dims of a and b of |s| * isz * x   +   y_a + y_b   ==   H_b - L_a
//
// with every variable in [0, its bound].  Swapping the roles of a and b gives the same
// terms with right-hand side H_a - L_b; both are >= 0 exactly when the byte extents
// intersect, and we solve the one with the smaller right-hand side (smaller right-hand
// sides let more bounds be trimmed).  The itemsize bytes are just two more terms of
// coefficient 1, so mixed dtypes need nothing special.
//
// Deciding such an equation is NP-hard in general (it is a knapsack), but the equations
// that real views produce are easy after simplification, and the rest are searched with a
// work budget, as NumPy's solve_may_share_memory does (its mem_overlap.c cites
// Ramachandran 2006 for the gcd-pruned search).  This file's solver differs in its details:
//
//  1. Simplify (Solver::simplify), each step keeping the set of solvable instances:
//     - trim each bound to rhs / coef (no non-negative solution can use more);
//     - drop variables whose bound is 0 (they are 0 in every solution);
//     - absorb: if coef_big = q * coef_small and bound_small >= q - 1, then
//       coef_small * x_small + coef_big * x_big takes exactly the values
//       coef_small * [0, bound_small + q * bound_big] (consecutive blocks of the small
//       variable touch), so the pair is one variable.  Equal coefficients are the case
//       q = 1.  This collapses contiguous blocks, itemsize bytes under a unit stride,
//       transposes and most slices to one or two terms before any search starts.
//     - reflect: x_i -> bound_i - x_i maps rhs to reach - rhs (reach = sum coef * bound);
//       the smaller of the two is kept.
//  2. Search (Solver::search): coefficients sorted from largest to smallest; the variable
//     of level k is enumerated over the values that keep the remainder r - coef_k * x_k
//     (a) within [0, reach of the levels below] and (b) divisible by the gcd of the
//     coefficients below.  (b) is a congruence, x_k = x0 (mod step_k), solved with a
//     modular inverse precomputed per level, so the candidates form an arithmetic
//     progression and each one costs O(1).  Invariants (a) and (b) make the last level
//     always solvable, so reaching level n - 1 is a solution and the search is exact.
//     Every candidate tried is one unit of work; past max_work the answer is -2.
//
// Internal overlap (has_internal_overlap) needs two *different* index tuples x != x' with
// sum s_i (x_i - x'_i) == 0 (strides are in elements, so two elements of one tensor share
// a byte only when they start at the same byte: itemsize drops out).  With d = x - x',
// |d_i| <= u_i = n_i - 1, we need d != 0.  Order the dims by |stride|, largest first,
// and let k be the first dim with d_k != 0; flipping the sign of d if needed, d_k >= 1.
// Substituting d_k = 1 + e (0 <= e <= u_k - 1) and d_i = w_i - u_i for i > k
// (0 <= w_i <= 2 u_i) gives, for each k, an ordinary equation of the form above:
//
//     |s_k| * e + sum_{i>k} |s_i| * w_i == sum_{i>k} |s_i| u_i - |s_k|
//
// so the same solver decides it exactly, with no "non-trivial solution" side condition
// (NumPy's formulation needs one, which forbids simplifying).  A right-hand side < 0
// rules k out at once; for the layouts views produce (each stride larger than everything
// the smaller strides can reach) every k is ruled out that way.
//
// Integers: all quantities are __int128.  Byte extents of any tensor with int64 sizes,
// strides and offset are computed with overflow checks; the solver only runs when its
// right-hand side is below 2^118, so every sum it forms (at most 2 * kMaxDims + 2 terms,
// each at most about the right-hand side after trimming) stays far below 2^127, and
// products of residues use a 128-bit mulmod.  Geometries beyond that cannot address real
// memory; for them the answer is -2 (overlaps) or the conservative true.
#include "overlap.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ct {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

constexpr int kTooHard = -2;
constexpr i128 kSolverLimit = i128(1) << 118;

i128 gcd128(i128 a, i128 b) {
  while (b != 0) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// (x * y) mod m, for 0 <= x, y < m < 2^126.
i128 mulmod(i128 x, i128 y, i128 m) {
  if (m <= (i128(1) << 63)) return i128((u128(x) * u128(y)) % u128(m));
  u128 acc = 0, ux = u128(x);
  const u128 um = u128(m);
  for (u128 uy = u128(y); uy != 0; uy >>= 1) {
    if (uy & 1) {
      acc += ux;
      if (acc >= um) acc -= um;
    }
    ux += ux;
    if (ux >= um) ux -= um;
  }
  return i128(acc);
}

// t in [0, m) with a * t == 1 (mod m); a and m > 0 coprime.
i128 inverse_mod(i128 a, i128 m) {
  if (m == 1) return 0;
  i128 r0 = m, r1 = a % m, t0 = 0, t1 = 1;
  while (r1 != 0) {
    const i128 q = r0 / r1;
    const i128 r2 = r0 - q * r1;
    r0 = r1;
    r1 = r2;
    const i128 t2 = t0 - q * t1;  // |t| stays <= m
    t0 = t1;
    t1 = t2;
  }
  t0 %= m;
  return t0 < 0 ? t0 + m : t0;
}

// Any size <= 0 (a negative one cannot come from a checked path; treat it as empty).
bool has_elements(const Tensor& t) {
  for (int64_t n : t.sizes()) {
    if (n <= 0) return false;
  }
  return true;
}

// Address of element [0, ..., 0] as an integer (no pointer arithmetic, so any offset is fine).
i128 origin_address(const Tensor& t) {
  return i128(uintptr_t(t.storage()->data())) + i128(t.offset()) * t.itemsize();
}

// First and last byte (inclusive) that a non-empty tensor touches.
struct ByteSpan {
  i128 first;
  i128 last;
};

// False when the span does not fit in an i128 (only for absurd as_strided geometries).
bool byte_span(const Tensor& t, ByteSpan& out) {
  i128 lo = 0, hi = 0;  // element offsets relative to element [0, ..., 0]
  for (int d = 0; d < t.ndim(); ++d) {
    const i128 reach = i128(t.stride(d)) * (t.size(d) - 1);  // |reach| < 2^126
    if (__builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi)) return false;
  }
  const i128 isz = t.itemsize();
  const i128 origin = origin_address(t);
  return !(__builtin_mul_overflow(lo, isz, &lo) || __builtin_mul_overflow(hi, isz, &hi) ||
           __builtin_add_overflow(origin, lo, &out.first) ||
           __builtin_add_overflow(origin, hi, &out.last) ||
           __builtin_add_overflow(out.last, isz - 1, &out.last));
}

// One variable of the equation: coef * x with 0 <= x <= bound.
struct Term {
  i128 coef;
  i128 bound;
};

// Decides sum(coef_i * x_i) == rhs, 0 <= x_i <= bound_i, coef_i > 0 (Note [Overlap as a
// bounded Diophantine equation]).  One Solver may decide several equations; they share
// its work budget.
class Solver {
 public:
  explicit Solver(int64_t max_work) : budget_(max_work < 0 ? 0 : max_work) {}

  // 1 (solvable), 0 (not), or kTooHard.  Requires rhs < kSolverLimit and every
  // coef * bound representable (both hold for terms built from int64 geometry).
  int solve(std::vector<Term> terms, i128 rhs) {
    if (rhs < 0) return 0;
    terms_.clear();
    for (const Term& e : terms) {
      if (e.coef > 0 && e.bound > 0) terms_.push_back(e);
    }
    // Simplify, then reflect while that makes the right-hand side smaller (each round
    // trims more); a handful of rounds is all it ever takes.
    for (int round = 0; round < 4; ++round) {
      simplify(rhs);
      i128 reach = 0;
      for (const Term& e : terms_) reach += e.coef * e.bound;
      if (rhs > reach) return 0;
      if (reach - rhs >= rhs) break;
      rhs = reach - rhs;
    }
    const size_t n = terms_.size();
    if (n == 0) return rhs == 0 ? 1 : 0;

    gcd_.assign(n, 0);
    reach_.assign(n + 1, 0);
    for (size_t k = n; k-- > 0;) {
      gcd_[k] = k + 1 < n ? gcd128(terms_[k].coef, gcd_[k + 1]) : terms_[k].coef;
      reach_[k] = reach_[k + 1] + terms_[k].coef * terms_[k].bound;
    }
    if (rhs % gcd_[0] != 0 || rhs > reach_[0]) return 0;
    if (n == 1) return 1;  // rhs is a multiple of the one coefficient, within its reach

    // Per level k < n - 1: coef_k x == r (mod gcd_{k+1}) <=> (coef_k / gcd_k) x == r / gcd_k
    // (mod gcd_{k+1} / gcd_k), solved with a modular inverse.
    std::vector<Level<i128>> levels(n - 1);
    for (size_t k = 0; k + 1 < n; ++k) {
      Level<i128>& l = levels[k];
      l.coef = terms_[k].coef;
      l.bound = terms_[k].bound;
      l.gcd = gcd_[k];
      l.below = reach_[k + 1];
      l.step = gcd_[k + 1] / gcd_[k];
      l.inv = inverse_mod((l.coef / l.gcd) % l.step, l.step);
    }
    // Every value the search forms is at most reach_[0]; with 64-bit integers a step costs
    // a few times less than with 128-bit ones.
    if (reach_[0] < (i128(1) << 62)) {
      std::vector<Level<int64_t>> narrow(levels.size());
      for (size_t k = 0; k < levels.size(); ++k) {
        const Level<i128>& l = levels[k];
        narrow[k] = {int64_t(l.coef), int64_t(l.bound), int64_t(l.gcd), int64_t(l.below),
                     int64_t(l.step), int64_t(l.inv)};
      }
      return search<int64_t>(narrow, 0, int64_t(rhs));
    }
    return search<i128>(levels, 0, rhs);
  }

 private:
  // Trims bounds, drops fixed variables and absorbs divisible pairs until nothing changes.
  // Leaves terms_ sorted by coefficient, largest first.
  void simplify(i128 rhs) {
    for (;;) {
      size_t n = 0;
      for (Term e : terms_) {
        e.bound = std::min(e.bound, rhs / e.coef);
        if (e.bound > 0) terms_[n++] = e;
      }
      terms_.resize(n);
      std::sort(terms_.begin(), terms_.end(),
                [](const Term& x, const Term& y) { return x.coef > y.coef; });
      bool changed = false;
      // Small coefficients (late in the order) absorb the larger multiples of themselves.
      // A term with bound 0 below has been absorbed in this pass and is removed next pass.
      for (size_t j = n; j-- > 1;) {
        if (terms_[j].bound == 0) continue;
        for (size_t i = 0; i < j; ++i) {
          if (terms_[i].bound == 0 || terms_[i].coef % terms_[j].coef != 0) continue;
          const i128 q = terms_[i].coef / terms_[j].coef;
          if (terms_[j].bound < q - 1) continue;
          terms_[j].bound += q * terms_[i].bound;  // <= rhs / coef_j per absorbed term
          terms_[i].bound = 0;
          changed = true;
        }
      }
      if (!changed) return;
    }
  }

  // One level of the search, in the integer type it runs with.
  template <class Int>
  struct Level {
    Int coef, bound;
    Int gcd;    // gcd of this coefficient and all below it
    Int below;  // reach of the levels below: sum of coef * bound
    Int step;   // candidates for this level's variable are congruent modulo step...
    Int inv;    // ...to (r / gcd) * inv
  };

  // Invariant: 0 <= r <= coef_k * bound_k + below_k and r % gcd_k == 0, which makes the
  // last level solvable whatever r is, so reaching it is a solution.
  template <class Int>
  int search(const std::vector<Level<Int>>& levels, size_t k, Int r) {
    if (k == levels.size()) return 1;
    const Level<Int>& l = levels[k];
    const Int a = l.coef, m = l.step;
    const Int over = r - l.below;
    const Int lo = over <= 0 ? 0 : (over + a - 1) / a;
    const Int hi = std::min(l.bound, r / a);
    if (lo > hi) return 0;
    const Int residue = mulmod_small((r / l.gcd) % m, l.inv, m);
    Int x = lo + (residue - lo % m + m) % m;  // first candidate >= lo
    for (; x <= hi; x += m) {
      if (++work_ > budget_) return kTooHard;
      const int res = search(levels, k + 1, r - a * x);
      if (res != 0) return res;
    }
    return 0;
  }

  static int64_t mulmod_small(int64_t x, int64_t y, int64_t m) {
    if (m <= (int64_t(1) << 31)) return x * y % m;
    return int64_t(u128(x) * u128(y) % u128(m));
  }
  static i128 mulmod_small(i128 x, i128 y, i128 m) { return mulmod(x, y, m); }

  int64_t budget_;
  int64_t work_ = 0;
  std::vector<Term> terms_;
  std::vector<i128> gcd_, reach_;
};

// The dims that matter for a tensor's byte set: size > 1 and stride != 0.
void append_dims(const Tensor& t, std::vector<Term>& terms) {
  const i128 isz = t.itemsize();
  for (int d = 0; d < t.ndim(); ++d) {
    const i128 s = t.stride(d);
    if (t.size(d) > 1 && s != 0) terms.push_back({(s < 0 ? -s : s) * isz, i128(t.size(d)) - 1});
  }
  if (isz > 1) terms.push_back({1, isz - 1});
}

}  // namespace

bool may_overlap(const Tensor& a, const Tensor& b) {
  if (!has_elements(a) || !has_elements(b)) return false;
  ByteSpan sa, sb;
  if (!byte_span(a, sa) || !byte_span(b, sb)) return true;  // unknowable extent: "may"
  return sa.first <= sb.last && sb.first <= sa.last;
}

int overlaps(const Tensor& a, const Tensor& b, int64_t max_work) {
  if (!has_elements(a) || !has_elements(b)) return 0;
  // Both hold the bytes of element [0, ..., 0] when it starts at the same address; this
  // covers a tensor compared with itself and identical geometries.
  if (origin_address(a) == origin_address(b)) return 1;
  ByteSpan sa, sb;
  if (!byte_span(a, sa) || !byte_span(b, sb)) return kTooHard;
  if (sa.last < sb.first || sb.last < sa.first) return 0;
  // A contiguous tensor covers every byte of its extent, so two of them share a byte as
  // soon as their extents meet (which holds here).
  if (a.is_contiguous() && b.is_contiguous()) return 1;

  const i128 rhs = std::min(sb.last - sa.first, sa.last - sb.first);
  if (rhs >= kSolverLimit) return kTooHard;
  std::vector<Term> terms;
  terms.reserve(size_t(a.ndim() + b.ndim() + 2));
  append_dims(a, terms);
  append_dims(b, terms);
  return Solver(max_work).solve(std::move(terms), rhs);
}

// When the search runs out of budget (only for as_strided geometries with several large
// strides that have no common structure) the answer is true: this query guards in-place
// writes and element-by-element output, where a wrong "no" silently corrupts results and
// a wrong "yes" only costs an error or a temporary copy.  (PyTorch reports such tensors as
// "too hard" and lets the write proceed; here the exact search decides nearly all of them.)
bool has_internal_overlap(const Tensor& t) {
  if (!has_elements(t)) return false;
  struct Dim {
    i128 stride;  // |stride|, in elements: itemsize does not matter within one tensor
    i128 last;    // size - 1
  };
  std::vector<Dim> dims;
  for (int d = 0; d < t.ndim(); ++d) {
    if (t.size(d) <= 1) continue;
    if (t.stride(d) == 0) return true;
    const i128 s = t.stride(d);
    dims.push_back({s < 0 ? -s : s, i128(t.size(d)) - 1});
  }
  if (t.is_contiguous() || dims.size() < 2) return false;
  std::sort(dims.begin(), dims.end(), [](const Dim& x, const Dim& y) { return x.stride > y.stride; });

  // tail[k] = sum over i > k of stride_i * last_i: how far the dims after k reach.
  const size_t n = dims.size();
  std::vector<i128> tail(n, 0);
  for (size_t k = n - 1; k-- > 0;) {
    const i128 r = dims[k + 1].stride * dims[k + 1].last;  // < 2^126
    if (__builtin_add_overflow(tail[k + 1], r, &tail[k])) return true;  // beyond any memory
  }

  Solver solver(kDefaultOverlapWork);
  bool too_hard = false;
  std::vector<Term> terms;
  for (size_t k = 0; k + 1 < n; ++k) {
    // First dim (in this order) where the two index tuples differ is k.
    const i128 rhs = tail[k] - dims[k].stride;
    if (rhs < 0) continue;
    if (rhs >= kSolverLimit) {
      too_hard = true;
      continue;
    }
    terms.clear();
    terms.push_back({dims[k].stride, dims[k].last - 1});
    for (size_t i = k + 1; i < n; ++i) terms.push_back({dims[i].stride, 2 * dims[i].last});
    const int res = solver.solve(terms, rhs);
    if (res == 1) return true;
    if (res == kTooHard) too_hard = true;
  }
  return too_hard;
}

}  // namespace ct
