/* The timing loop of the training-step programs (bench/train_step.c in C,
   bench/libtorch/train_step_libtorch.cpp in C++), so that both report the same statistic:
   the mean ns per call of fn over `seconds`, the best of 5 rounds (other load only adds time). */
#ifndef CT_BENCH_BEST_NS_H
#define CT_BENCH_BEST_NS_H

#include <time.h>

static double best_ns_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double best_ns(void (*fn)(void *), void *arg, double seconds) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    long n = 0;
    const double start = best_ns_now(), stop = start + seconds / 5 * 1e9;
    double t;
    do {
      fn(arg);
      ++n;
    } while ((t = best_ns_now()) < stop);
    if ((t - start) / n < best) best = (t - start) / n;
  }
  return best;
}

#endif
