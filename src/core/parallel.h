// Splitting work across threads (OpenMP), honouring set_num_threads().
#pragma once

#include "omp_compat.h"

#include <algorithm>
#include <cstdint>

#include "copy.h"  // get_num_threads

namespace ct {

// Calls f(begin, end) over contiguous chunks of [0, n).  Uses one thread (the caller's,
// without entering OpenMP) when n < 2 * grain or one thread is configured, so small work
// never pays for a parallel region.  Chunks are fixed by n and the thread count only.
template <class F>
void parallel_for(int64_t n, int64_t grain, F&& f) {
  if (n <= 0) return;
  const int threads = int(std::min<int64_t>(get_num_threads(), n / std::max<int64_t>(grain, 1)));
  if (threads <= 1 || omp_in_parallel()) {
    f(int64_t(0), n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const int64_t k = omp_get_thread_num(), p = omp_get_num_threads();
    const int64_t begin = n * k / p, end = n * (k + 1) / p;
    if (begin < end) f(begin, end);
  }
}

}  // namespace ct
