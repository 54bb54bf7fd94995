// Explaining tensors: everything about one tensor's memory, or two tensors' memory relation,
// in words (ct_explain, ctensor.explain, CTensor.explain).
//
// Note [Counting shared elements]
// "How many elements do a and b share" is answered exactly by walking memory in runs, not
// element by element.  A tensor's elements are the byte ranges [addr, addr + itemsize) with
// addr = start + itemsize * (offset + sum_i stride_i * x_i).  Dims of size 1 or stride 0 do not
// add addresses; a negative stride reaches the same addresses as its absolute value from the
// other end; dims whose stride equals the next smaller stride times its size fold into it
// (what makes a contiguous tensor, or a slice of rows, a handful of runs).  If the smallest
// remaining stride is 1, that dim becomes the run length; the other dims are enumerated and
// each index tuple gives one run of consecutive elements.  All addresses of one tensor are
// congruent modulo its itemsize, so two of its elements either coincide or are disjoint:
// sorting the runs and merging those that meet leaves disjoint intervals whose element count
// is the number of distinct memory locations.  The shared count of a is then the number of
// a's elements that share at least one byte with an interval of b, found in one sweep over
// both sorted lists.  The only limit is the number of runs (kExplainMaxRuns per tensor):
// beyond it the count is reported as unknown rather than guessed.
#pragma once

#include <cstdint>
#include <string>

#include "tensor.h"

namespace ct {

inline constexpr int64_t kExplainMaxRuns = int64_t(1) << 20;

struct SharedElements {
  bool known = false;       // false: a tensor needed more than max_runs runs
  int64_t distinct_a = 0;   // distinct memory locations (elements) of a
  int64_t distinct_b = 0;
  int64_t shared_a = 0;     // elements of a that share a byte with an element of b
  int64_t shared_b = 0;     // elements of b that share a byte with an element of a
  bool same_locations = false;  // same itemsize and exactly the same element addresses
};

// Distinct memory locations of t (an expanded dim counts once); -1 if t needs more than
// max_runs runs to enumerate.
int64_t count_distinct_elements(const Tensor& t, int64_t max_runs = kExplainMaxRuns);

// Exact counts of Note [Counting shared elements]; works across storages (compares addresses).
SharedElements count_shared_elements(const Tensor& a, const Tensor& b, int64_t max_runs = kExplainMaxRuns);

// The explanation of a (b == nullptr) or of a, b and their relation: multi-line text, each
// line ending in '\n'.  Tensor blocks start with "a:" / "b:", the relation with "a and b:".
std::string explain(const Tensor& a, const Tensor* b);

}  // namespace ct
