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
//  2. Search (class Search): terms sorted by coefficient; a node is a contiguous range of
//     them with its own right-hand side r.  The node enumerates, whichever gives the
//     fewest candidates: the value of its first or of its last variable, or the sum v of
//     the low part of a split of the range into two parts.  Each enumeration keeps only
//     values that leave the rest within its reach and divisible by the gcd of its
//     coefficients, a congruence solved with a precomputed modular inverse, so the
//     candidates form an arithmetic progression and cost O(1) each; an empty progression
//     proves the node infeasible.  A split leaves two independent problems per value of
//     v, which is what makes slices of one tensor cheap (the low dims of both tensors
//     reach less than twice the gcd of the high ones, so v takes one or two values).
//     Two variables are decided in O(1): a non-empty progression is a solution.  Every
//     candidate tried is one unit of work; past max_work the answer is -2.
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
// Integers: byte extents of any tensor with int64 sizes, strides and offset are computed
// in __int128 with overflow checks.  The solver only runs when its right-hand side is
// below 2^118, so every sum it forms (at most 2 * kMaxDims + 2 terms, each at most the
// right-hand side after trimming) stays far below 2^127, and products of residues use a
// 128-bit mulmod.  The search itself runs in int64_t when the total reach is below 2^62
// (every tensor in real memory), in __int128 otherwise.  Geometries beyond 2^118 bytes
// cannot address real memory; for them the answer is -2 (overlaps) or true.
#include "overlap.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "shape.h"

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

// Candidates for one branching choice: first, first + step, ..., up to last.
template <class Int>
struct Progression {
  Int first, last, step;
  Int count() const { return first > last ? Int(0) : (last - first) / step + 1; }
};

inline int64_t mulmod_any(int64_t x, int64_t y, int64_t m) {
  if (m <= (int64_t(1) << 31)) return x * y % m;
  return int64_t(u128(x) * u128(y) % u128(m));
}
inline i128 mulmod_any(i128 x, i128 y, i128 m) { return mulmod(x, y, m); }

// Smallest value >= lo that is congruent to residue modulo step (0 <= residue < step).
template <class Int>
Int first_from(Int lo, Int residue, Int step) {
  return lo + (residue - lo % step + step) % step;
}

// The exact search of Note [Overlap as a bounded Diophantine equation], on simplified terms
// sorted by coefficient, largest first.  A node is a contiguous range [i, j) of the terms
// with its own right-hand side r; it is decided by enumerating, whichever has the fewest
// candidates,
//   - the first variable of the range (then [i + 1, j) remains), or the last one (then
//     [i, j - 1) remains): values keeping the remainder within the reach of the rest and
//     divisible by the gcd of the rest (a congruence, so an arithmetic progression);
//   - the sum v of the low part [h, j) of a split: v is a multiple of the low part's gcd,
//     congruent to r modulo the high part's gcd M, and within both parts' reach.  Each v
//     leaves two independent problems, [h, j) = v and [i, h) = r - v.  This is what makes
//     slices of a larger tensor cheap: their low dims (the columns of both tensors, say)
//     reach less than 2 M, so at most a couple of values of v are possible.
// Int is int64_t when every value fits (reach < 2^62, a few times faster), else i128.
template <class Int>
class Search {
 public:
  Search(const std::vector<Term>& terms, int64_t& work, int64_t budget)
      : n_(int(terms.size())), work_(work), budget_(budget) {
    const size_t cells = size_t(n_ + 1) * size_t(n_ + 1);
    coef_.resize(size_t(n_));
    bound_.resize(size_t(n_));
    prefix_.assign(size_t(n_) + 1, 0);
    std::vector<i128> wide_prefix(size_t(n_) + 1, 0), wide_gcd(cells, 0);
    for (int k = 0; k < n_; ++k) {
      coef_[size_t(k)] = Int(terms[size_t(k)].coef);
      bound_[size_t(k)] = Int(terms[size_t(k)].bound);
      wide_prefix[size_t(k) + 1] = wide_prefix[size_t(k)] + terms[size_t(k)].coef * terms[size_t(k)].bound;
      prefix_[size_t(k) + 1] = Int(wide_prefix[size_t(k) + 1]);
    }
    for (int i = 0; i < n_; ++i) {
      i128 g = 0;
      for (int j = i + 1; j <= n_; ++j) wide_gcd[at(i, j)] = g = gcd128(g, terms[size_t(j - 1)].coef);
    }
    auto G = [&](int i, int j) { return wide_gcd[at(i, j)]; };
    auto R = [&](int i, int j) { return wide_prefix[size_t(j)] - wide_prefix[size_t(i)]; };
    gcd_.assign(cells, 0);
    inv_first_.assign(cells, 0);
    inv_last_.assign(cells, 0);
    split_.assign(cells, -1);
    inv_split_.assign(cells, 0);
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j <= n_; ++j) {
        const i128 g = G(i, j);
        gcd_[at(i, j)] = Int(g);
        if (j - i < 2) continue;
        const i128 step_first = G(i + 1, j) / g, step_last = G(i, j - 1) / g;
        inv_first_[at(i, j)] = Int(inverse_mod(terms[size_t(i)].coef / g % step_first, step_first));
        inv_last_[at(i, j)] = Int(inverse_mod(terms[size_t(j - 1)].coef / g % step_last, step_last));
        if (j - i < 3 || n_ > kMaxSplitTerms) continue;
        // The split with the fewest low sums, whatever r is: at most
        // min(reach of either part) / lcm(M, gL) + 1 of them.
        i128 best = -1;
        for (int h = i + 1; h < j; ++h) {
          const i128 low_units = std::min(R(h, j), R(i, h)) / G(h, j);
          const i128 est = low_units / (G(i, h) / g) + 1;
          if (best < 0 || est < best) {
            best = est;
            split_[at(i, j)] = h;
          }
        }
        const int h = split_[at(i, j)];
        const i128 mod = G(i, h) / g;
        inv_split_[at(i, j)] = Int(inverse_mod(G(h, j) / g % mod, mod));
      }
    }
  }

  // 1, 0 or kTooHard for sum over [i, j) of coef * x == r.
  int decide(int i, int j, Int r) {
    const Int total = prefix_[size_t(j)] - prefix_[size_t(i)];
    const Int g = gcd_[at(i, j)];
    if (r < 0 || r > total || r % g != 0) return 0;
    if (j - i == 1) return 1;
    if (total - r < r) r = total - r;  // x -> bound - x for every variable in the range

    const Progression<Int> first = peel(i, i + 1, j, g, inv_first_[at(i, j)], r);
    if (j - i == 2) return first.count() > 0 ? 1 : 0;  // the last variable always fits
    const Progression<Int> last = peel(j - 1, i, j - 1, g, inv_last_[at(i, j)], r);
    const int h = split_[at(i, j)];
    Progression<Int> split{1, 0, 1};
    if (h >= 0) {
      const Int low_gcd = gcd_[at(h, j)], mod = gcd_[at(i, h)] / g;
      const Int over = r - (prefix_[size_t(h)] - prefix_[size_t(i)]);
      const Int v_lo = over > 0 ? over : Int(0);
      const Int v_hi = std::min(r, prefix_[size_t(j)] - prefix_[size_t(h)]);
      const Int w_lo = (v_lo + low_gcd - 1) / low_gcd;
      const Int residue = mulmod_any(r / g % mod, inv_split_[at(i, j)], mod);
      split = {first_from(w_lo, residue, mod), v_hi / low_gcd, mod};
    }

    const Int cf = first.count(), cl = last.count();
    const Int cs = h >= 0 ? split.count() : cf + 1;
    if (cf == 0 || cl == 0 || (h >= 0 && cs == 0)) return 0;  // every solution is a candidate
    if (h >= 0 && cs <= cf && cs <= cl) {
      const Int low_gcd = gcd_[at(h, j)];
      for (Int w = split.first; w <= split.last; w += split.step) {
        if (++work_ > budget_) return kTooHard;
        const Int v = low_gcd * w;
        const int low = decide(h, j, v);
        if (low != 1) {
          if (low == kTooHard) return kTooHard;
          continue;
        }
        const int high = decide(i, h, r - v);
        if (high != 0) return high;
      }
      return 0;
    }
    const bool use_first = cf <= cl;
    const Progression<Int>& p = use_first ? first : last;
    const Int a = coef_[size_t(use_first ? i : j - 1)];
    for (Int x = p.first; x <= p.last; x += p.step) {
      if (++work_ > budget_) return kTooHard;
      const int res = use_first ? decide(i + 1, j, r - a * x) : decide(i, j - 1, r - a * x);
      if (res != 0) return res;
    }
    return 0;
  }

 private:
  // Splits stop being searched for above this many terms (choosing them costs n^3).
  static constexpr int kMaxSplitTerms = 40;

  size_t at(int i, int j) const { return size_t(i) * size_t(n_ + 1) + size_t(j); }

  // Values of variable k such that r - coef_k * x stays within the reach of [ri, rj) (the
  // rest of the range) and divisible by its gcd.
  Progression<Int> peel(int k, int ri, int rj, Int g, Int inv, Int r) const {
    const Int a = coef_[size_t(k)];
    const Int rest = prefix_[size_t(rj)] - prefix_[size_t(ri)];
    const Int lo = r > rest ? (r - rest + a - 1) / a : Int(0);
    const Int hi = std::min(bound_[size_t(k)], r / a);
    const Int step = gcd_[at(ri, rj)] / g;
    const Int residue = mulmod_any(r / g % step, inv, step);
    return {first_from(lo, residue, step), hi, step};
  }

  int n_;
  int64_t& work_;
  int64_t budget_;
  std::vector<Int> coef_, bound_, prefix_;
  // Indexed by at(i, j), for the range [i, j).
  std::vector<Int> gcd_, inv_first_, inv_last_, inv_split_;
  std::vector<int> split_;
};

// Decides sum(coef_i * x_i) == rhs, 0 <= x_i <= bound_i, coef_i > 0.  One Solver may
// decide several equations; they share its work budget.
class Solver {
 public:
  explicit Solver(int64_t max_work) : budget_(max_work < 0 ? 0 : max_work) {}

  // 1 (solvable), 0 (not), or kTooHard.  Requires 0 <= coef and bound < 2^127 / coef
  // after trimming, which holds for rhs < kSolverLimit.
  int solve(const std::vector<Term>& terms, i128 rhs) {
    if (rhs < 0) return 0;
    terms_.clear();
    for (const Term& e : terms) {
      if (e.coef > 0 && e.bound > 0) terms_.push_back(e);
    }
    // Simplify, then reflect while that makes the right-hand side smaller (each round
    // trims more); a handful of rounds is all it ever takes.
    i128 reach = 0;
    for (int round = 0; round < 4; ++round) {
      simplify(rhs);
      reach = 0;
      for (const Term& e : terms_) reach += e.coef * e.bound;
      if (rhs > reach) return 0;
      if (reach - rhs >= rhs) break;
      rhs = reach - rhs;
    }
    const size_t n = terms_.size();
    if (n == 0) return rhs == 0 ? 1 : 0;
    if (n == 1) return rhs % terms_[0].coef == 0 ? 1 : 0;  // and rhs <= reach
    if (reach < (i128(1) << 62)) {
      return Search<int64_t>(terms_, work_, budget_).decide(0, int(n), int64_t(rhs));
    }
    return Search<i128>(terms_, work_, budget_).decide(0, int(n), rhs);
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

  int64_t budget_;
  int64_t work_ = 0;
  std::vector<Term> terms_;
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
  return Solver(max_work).solve(terms, rhs);
}

// When the search runs out of budget (only for as_strided geometries with several large
// strides that have no common structure) the answer is true: this query guards in-place
// writes and element-by-element output, where a wrong "no" silently corrupts results and
// a wrong "yes" only costs an error or a temporary copy.  (PyTorch reports such tensors as
// "too hard" and lets the write proceed; here the exact search decides nearly all of them.)
bool has_internal_overlap(const Tensor& t) {
  if (!has_elements(t)) return false;
  // With elements, a contiguous tensor has no stride-0 dim of size > 1: nothing to build
  if (t.is_contiguous()) return false;
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

bool torch_internal_overlap(const Tensor& t) {
  if (is_non_overlapping_and_dense(t.sizes(), t.strides())) return false;
  for (int d = 0; d < t.ndim(); ++d)
    if (t.size(d) > 1 && t.stride(d) == 0) return true;
  return false;
}

}  // namespace ct
