// Random tensors from one process-wide, counter-based generator.
//
// Every element is a pure function of (seed, counter): element i of a call gets the
// Philox4x32-10 block for counter (offset + i), where offset is how many counters earlier
// calls since the last seed consumed.  So results are identical whatever the thread count
// and elements can be generated in parallel; successive calls continue the stream.  Values
// differ from torch's (a different generator), but their distributions do not.
#pragma once

#include <cstdint>

#include "core/tensor.h"

namespace ct {

// Restarts the stream: seed, counter 0.  The stream before any seed is seed 67280421310721
// (c10's default).
void manual_seed(uint64_t seed);

// Uniform on [0, 1) (an integer multiple of 2^-digits of the dtype, so float16/bfloat16
// never round up to 1) / standard normal (Box-Muller in double, rounded once).  Floating
// dtypes only: DType error with torch's message otherwise.
Ref<Tensor> rand(IntList sizes, DType dtype);
Ref<Tensor> randn(IntList sizes, DType dtype);

// Integers uniform on [low, high) in any dtype (bool too, as torch); low < high and both
// ends representable in the dtype (InvalidArgument with torch's messages otherwise).
Ref<Tensor> randint(int64_t low, int64_t high, IntList sizes, DType dtype);

// Philox4x32-10 of a 128-bit counter (c0..c3) under a 64-bit key: four 32-bit outputs.
// Exposed for tests (known-answer vectors of Salmon et al., Random123).
void philox4x32_10(const uint32_t counter[4], uint64_t key, uint32_t out[4]);

}  // namespace ct
