// OpenMP when the build has it (CT_OPENMP=ON, the default), a serial stand-in otherwise.
// ThreadSanitizer does not understand libgomp's synchronisation, so the TSan build turns
// OpenMP off: the `#pragma omp` lines are then ignored and these functions describe one
// thread, which makes parallel_for and the copy engine run serially on the caller's thread.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#else
#include <thread>
inline int omp_get_num_procs() { return int(std::thread::hardware_concurrency()); }
inline int omp_in_parallel() { return 0; }
inline int omp_get_thread_num() { return 0; }
inline int omp_get_num_threads() { return 1; }
#endif
