// libFuzzer harness for the C API: fuzz bytes become a sequence of ct_* calls with hostile
// arguments on a small pool of live handles, and every step is followed by invariant checks.
//
// What one input does
//   A pool of up to kSlots tensor handles and kStorageSlots storage handles.  Each step reads
//   an opcode and its arguments from the bytes and calls the C API: creation (hostile sizes,
//   dtypes, ndim), from_blob and DLPack imports over memory this harness allocated to the
//   exact byte, views with hostile dims/steps/strides/offsets, multi-output views, copies,
//   compute, autograd (requires_grad, backward, grads, grad mode), relations,
//   retain/release, NULL handles.  A new handle joins the pool; a full pool releases one.
//
// What is checked after each step (a violation prints why and traps)
//   - every pooled tensor: 0 <= ndim <= CT_MAX_DIMS, sizes >= 0, numel == product of sizes,
//     a valid dtype, refcount >= 1, data == storage data + offset * itemsize, a view's base is
//     not a view and shares its storage, and the lowest and highest reachable element lie
//     inside the storage's bytes; both are then read, so ASan flags a storage that is
//     smaller than it claims;
//   - a call that fails (NULL / non-zero status / -1) leaves ct_last_status() != CT_OK and a
//     non-empty ct_last_error();
//   - a call the harness knows is invalid (overflowing sizes, negative strides in from_blob,
//     out-of-bounds as_strided) fails.
// At the end of each input every handle is released; the live tensor and storage counts must
// be back where they started and every foreign deleter must have run exactly once.
//
// Sizes are hostile but bounded: a request that would genuinely allocate more than
// kBudgetBytes (as opposed to one whose byte count overflows, which must fail before
// allocating) is shrunk, and compute ops only run on operands of modest size, so that an
// input is about API misuse and not about the machine's memory.
#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ctensor.h"
#include "ctensor_dlpack.h"

namespace {

constexpr int kSlots = 12;
constexpr int kStorageSlots = 4;
constexpr int kMaxSteps = 64;
constexpr int64_t kBudgetBytes = 1 << 16;
constexpr int64_t kComputeElems = 1 << 12;
constexpr int kArgArray = 1100;  // hostile ndim up to 1000 gets a real array of that length

// Figures for the closing report, printed at exit.
uint64_t g_inputs = 0, g_steps = 0, g_calls = 0, g_failed_calls = 0;

// Counts every C API call the harness makes.
// CT_FUZZ_TRACE=2 also prints every C API call with the live tensor count after it (to find
// which call of a reproducer leaks or breaks an invariant).
bool g_trace_calls = false;
struct CallTrace {  // prints at the end of the full expression that made the call
  const char* text;
  int line;
  ~CallTrace() {
    if (g_trace_calls) std::fprintf(stderr, "    %d: %s -> live %lld\n", line, text, (long long)ct_live_tensors());
  }
};
#define CT(call) (++g_calls, (void)CallTrace{#call, __LINE__}, (call))

[[noreturn]] void violated(const char* what, long long a = 0, long long b = 0) {
  std::fprintf(stderr, "ctensor fuzz: invariant violated: %s (%lld, %lld); last error %s: %s\n", what, a, b,
               ct_status_name(ct_last_status()), ct_last_error());
  __builtin_trap();
}
#define REQUIRE(cond, ...) \
  do {                     \
    if (!(cond)) violated(#cond, ##__VA_ARGS__); \
  } while (0)

void print_figures() {
  std::fprintf(stderr, "ctensor fuzz figures: %llu inputs, %llu steps, %llu C API calls, %llu failed calls (all with a status and message)\n",
               (unsigned long long)g_inputs, (unsigned long long)g_steps, (unsigned long long)g_calls,
               (unsigned long long)g_failed_calls);
}

// A failed call must say why.
void expect_error_recorded() {
  ++g_failed_calls;
  REQUIRE(ct_last_status() != CT_OK);
  const char* msg = ct_last_error();
  REQUIRE(msg != nullptr && msg[0] != '\0');
}

bool valid_dtype(int d) { return d >= CT_BOOL && d <= CT_COMPLEX128; }
int64_t itemsize_of(int d) {
  static const int64_t sz[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
  return valid_dtype(d) ? sz[d] : 8;
}

// acc += v, saturating at +-2^100: sums of up to 64 products of two int64 would overflow even
// __int128, and anything beyond 2^63 is simply "too far" here.
void sat_add(__int128& acc, __int128 v) {
  const __int128 cap = __int128(1) << 100;
  if (v > cap) v = cap;
  if (v < -cap) v = -cap;
  acc += v;
  if (acc > cap) acc = cap;
  if (acc < -cap) acc = -cap;
}

// ---- hostile values --------------------------------------------------------------------

int64_t hostile_i64(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return INT64_MAX - in.ConsumeIntegralInRange<int64_t>(0, 2);
    case 1: return INT64_MIN + in.ConsumeIntegralInRange<int64_t>(0, 2);
    case 2: return (int64_t(1) << in.ConsumeIntegralInRange<int>(0, 62)) + in.ConsumeIntegralInRange<int64_t>(-1, 1);
    case 3: return in.ConsumeIntegral<int64_t>();
    case 4: return -in.ConsumeIntegralInRange<int64_t>(1, 5);
    case 5: return INT32_MAX + in.ConsumeIntegralInRange<int64_t>(0, 2);
    default: return in.ConsumeIntegralInRange<int64_t>(0, 6);  // mostly small and valid
  }
}

int hostile_int(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: return INT_MAX;
    case 1: return INT_MIN;
    case 2: return in.ConsumeIntegral<int>();
    case 3: return 64 + in.ConsumeIntegralInRange<int>(0, 2);
    default: return in.ConsumeIntegralInRange<int>(-4, 4);
  }
}

int hostile_ndim(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return -in.ConsumeIntegralInRange<int>(1, 3);
    case 1: return 1000;
    case 2: return CT_MAX_DIMS + in.ConsumeIntegralInRange<int>(-1, 1);
    case 3: return INT_MAX;
    default: return in.ConsumeIntegralInRange<int>(0, 4);
  }
}

ct_dtype hostile_dtype(FuzzedDataProvider& in) {
  int raw;
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: raw = -1; break;
    case 1: raw = 12 + in.ConsumeIntegralInRange<int>(0, 3); break;
    case 2: raw = in.ConsumeIntegral<int>(); break;
    default: raw = in.ConsumeIntegralInRange<int>(0, 11);
  }
  // C may pass any int as a ct_dtype; the library reads it as raw bits.
  ct_dtype d;
  std::memcpy(&d, &raw, sizeof d);
  return d;
}
int dtype_raw(ct_dtype d) {
  int raw;
  std::memcpy(&raw, &d, sizeof raw);
  return raw;
}

double hostile_double(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: return __builtin_nan("");
    case 1: return __builtin_inf();
    case 2: return -__builtin_inf();
    case 3: return 1e300;
    case 4: return in.ConsumeFloatingPoint<double>();
    default: return double(in.ConsumeIntegralInRange<int>(-3, 300));
  }
}

// An int64 array of `n` hostile values (n clamped to kArgArray: a larger ndim is passed with
// this many entries, which the library must refuse before reading past CT_MAX_DIMS).
std::vector<int64_t> hostile_list(FuzzedDataProvider& in, int n) {
  std::vector<int64_t> v(size_t(n < 0 ? 0 : n > kArgArray ? kArgArray : n), 1);
  const size_t filled = v.size() > 70 ? 70 : v.size();
  for (size_t i = 0; i < filled; ++i) v[i] = hostile_i64(in);
  return v;
}

// Elements of a shape; -1 if any size is negative, -2 if the count or bytes overflow.
int64_t shape_numel(const std::vector<int64_t>& s, int ndim, int64_t itemsize) {
  if (ndim < 0 || ndim > CT_MAX_DIMS) return -1;
  __int128 n = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; ++i) {
    if (s[size_t(i)] < 0) return -1;
  }
  for (int i = 0; i < ndim; ++i) {
    if (s[size_t(i)] == 0) return 0;
  }
  for (int i = 0; i < ndim; ++i) {
    n *= s[size_t(i)];
    if (n * itemsize > INT64_MAX) overflow = true;
    if (overflow) break;
  }
  return overflow ? -2 : int64_t(n);
}

// Shrinks sizes that are valid but would allocate more than the budget (keeps the hostile
// ones: negative, overflowing, too many dims).
void bound_shape(std::vector<int64_t>& s, int ndim, int64_t itemsize) {
  int64_t n = shape_numel(s, ndim, itemsize);
  if (n > 0 && n * itemsize > kBudgetBytes) {
    for (int i = 0; i < ndim; ++i) s[size_t(i)] = s[size_t(i)] % 4;
    // Many dims of up to 3 still multiply past the budget (2^32 bytes from 32 dims of 2: found
    // by the long run): ones from the last dim on.  A count that overflows is kept (-2): it
    // must fail before allocating.
    for (int i = ndim - 1; i >= 0; --i) {
      n = shape_numel(s, ndim, itemsize);
      if (n <= 0 || n * itemsize <= kBudgetBytes) break;
      s[size_t(i)] = std::min<int64_t>(s[size_t(i)], 1);
    }
  }
}

// CT_FUZZ_TRACE=1: prints each step's opcode and the pool's shapes (to read a reproducer).
bool g_trace = false;

// ---- foreign memory with counted deleters ----------------------------------------------

int64_t g_blobs_made = 0, g_blobs_freed = 0;
void blob_deleter(void* data, void* ctx) {
  REQUIRE(ctx == &g_blobs_made);
  std::free(data);
  ++g_blobs_freed;
}

struct HarnessDL {  // a DLManagedTensor made by the harness, with the arrays it points to
  DLManagedTensor m;
  std::vector<int64_t> shape, strides;  // as long as ndim says (up to kArgArray)
  void* mem;
};
int64_t g_dl_made = 0, g_dl_freed = 0;
void harness_dl_deleter(DLManagedTensor* m) {
  HarnessDL* h = static_cast<HarnessDL*>(m->manager_ctx);
  std::free(h->mem);
  delete h;
  ++g_dl_freed;
}

// ---- the pool ----------------------------------------------------------------------------

struct Pool {
  ct_tensor* t[kSlots] = {};
  ct_storage* s[kStorageSlots] = {};
  // Set once an in-place op has rebound a tensor to another storage (set_, x.data = y): as in
  // torch, a view keeps its base when either of them is rebound (and views taken later from a
  // rebound view get the same base), but the two no longer share memory, so check_tensor stops
  // requiring that for the rest of this input.
  bool views_rebound = false;

  ct_tensor* pick(FuzzedDataProvider& in) {
    const int i = in.ConsumeIntegralInRange<int>(0, kSlots);  // kSlots: NULL on purpose
    return i == kSlots ? nullptr : t[i];
  }
  void put(ct_tensor* x) {
    if (!x) return;
    for (auto& slot : t) {
      if (!slot) {
        slot = x;
        return;
      }
    }
    const int victim = int(g_steps % kSlots);
    CT(ct_tensor_release(t[victim]));
    t[victim] = x;
  }
  void put_storage(ct_storage* x, int i) {
    CT(ct_storage_release(s[i]));
    s[i] = x;
  }
  void clear() {
    for (auto& x : t) CT(ct_tensor_release(std::exchange(x, nullptr)));
    for (auto& x : s) CT(ct_storage_release(std::exchange(x, nullptr)));
  }
};

// The sub-operation of a step, in [0, n]; CT_FUZZ_TRACE prints it.
int pick_case(FuzzedDataProvider& in, int n, const char* group) {
  const int k = in.ConsumeIntegralInRange<int>(0, n);
  if (g_trace) std::fprintf(stderr, "  %s case %d\n", group, k);
  return k;
}

// Whether an in-place write a op= b from this b is left out.  With b requiring grad, the write
// puts b in a's graph; if b holds a (b is a view of a, or b wraps a's memory through a DLPack
// export of a), that is a reference cycle torch has too (the header's Autograd section), which
// the end-of-input live counts would report.  Found by the long run.
bool inplace_source_may_cycle(ct_tensor* b) { return CT(ct_requires_grad(b)) == 1; }

// Records a new handle (or the error of a failed call).
void take(Pool& p, ct_tensor* r) {
  if (r) p.put(r);
  else expect_error_recorded();
}
void status_ok_or_error(ct_status st) {
  if (st != CT_OK) expect_error_recorded();
}

int64_t numel_or_big(const ct_tensor* t) {
  if (!t) return 0;
  const int64_t n = CT(ct_tensor_numel(t));
  return n < 0 ? INT64_MAX : n;
}
bool small(const ct_tensor* t, int64_t limit = kComputeElems) { return numel_or_big(t) <= limit; }

// The elements t would have if its empty dims had size 1: what bounds the output of a compute
// op, which can be large for an operand without elements (a sum over the empty dim of a
// [0, 2^31] tensor is 2^31 zeros; found by the long run, where libFuzzer's malloc limit
// reported the 8 GiB request as out-of-memory).
int64_t extent_or_big(const ct_tensor* t) {
  if (!t) return 0;
  const int nd = CT(ct_tensor_ndim(t));
  int64_t n = 1;
  for (int d = 0; d < nd; ++d) {
    const int64_t s = CT(ct_tensor_size(t, d));
    if (s != 0 && __builtin_mul_overflow(n, s, &n)) return INT64_MAX;
  }
  return n;
}
bool small_output(const ct_tensor* t, int64_t limit) { return small(t, limit) && extent_or_big(t) <= limit; }

// ---- invariants -----------------------------------------------------------------------------

volatile unsigned char g_sink;

void check_tensor(const ct_tensor* t, bool views_rebound) {
  const int ndim = CT(ct_tensor_ndim(t));
  REQUIRE(ndim >= 0 && ndim <= CT_MAX_DIMS, ndim);
  const int d = dtype_raw(CT(ct_tensor_dtype(t)));
  REQUIRE(valid_dtype(d), d);
  const int64_t item = itemsize_of(d);
  REQUIRE(CT(ct_dtype_itemsize(ct_tensor_dtype(t))) == item);
  const int64_t* sizes = CT(ct_tensor_sizes(t));
  const int64_t* strides = CT(ct_tensor_strides(t));
  REQUIRE(sizes && strides);
  const int64_t offset = CT(ct_tensor_offset(t));
  REQUIRE(offset >= 0, offset);
  REQUIRE(CT(ct_tensor_refcount(t)) >= 1);

  __int128 numel = 1, lo = offset, hi = offset;
  for (int i = 0; i < ndim; ++i) {
    REQUIRE(sizes[i] >= 0, i, sizes[i]);
    REQUIRE(CT(ct_tensor_size(t, i)) == sizes[i]);
    REQUIRE(CT(ct_tensor_stride(t, i)) == strides[i]);
    if (sizes[i] == 0) numel = 0;
  }
  for (int i = 0; i < ndim && numel != 0; ++i) {
    numel *= sizes[i];
    REQUIRE(numel <= INT64_MAX, i);  // a tensor's element count fits int64
  }
  REQUIRE(CT(ct_tensor_numel(t)) == int64_t(numel), int64_t(numel));

  ct_storage* s = CT(ct_tensor_storage(t));
  REQUIRE(s != nullptr);
  const int64_t nbytes = CT(ct_storage_nbytes(s));
  char* base = static_cast<char*>(CT(ct_storage_data(s)));
  REQUIRE(nbytes >= 0 && CT(ct_storage_refcount(s)) >= 2);  // the tensor's + this handle
  const uint64_t sid = CT(ct_storage_id(s));
  REQUIRE(sid != 0 && sid == CT(ct_tensor_storage_id(t)));

  if (numel > 0) {
    for (int i = 0; i < ndim; ++i) {
      const __int128 span = __int128(sizes[i] - 1) * strides[i];
      if (span < 0) sat_add(lo, span);
      else sat_add(hi, span);
    }
    // Every reachable element lies inside the storage.
    REQUIRE(lo >= 0, int64_t(lo));
    REQUIRE((hi + 1) * item <= nbytes, int64_t(hi), nbytes);
    REQUIRE(base != nullptr);
    char* data = static_cast<char*>(CT(ct_tensor_data(t)));
    REQUIRE(data == base + offset * item);
    // Touch the extremes: ASan reports a storage whose real memory is smaller than nbytes.
    g_sink = static_cast<unsigned char>(base[int64_t(lo) * item]);
    g_sink = static_cast<unsigned char>(base[int64_t(hi + 1) * item - 1]);
  } else {
    REQUIRE(CT(ct_tensor_data(t)) == nullptr);
  }

  if (CT(ct_tensor_is_view(t)) == 1) {
    ct_tensor* b = CT(ct_tensor_base(t));
    REQUIRE(b != nullptr);
    REQUIRE(CT(ct_tensor_is_view(b)) == 0);
    if (!views_rebound) REQUIRE(CT(ct_shares_storage(t, b)) == 1);
    CT(ct_tensor_release(b));
  } else {
    REQUIRE(CT(ct_tensor_base(t)) == nullptr);
  }
  CT(ct_storage_release(s));
}

void check_pool(const Pool& p) {
  for (const ct_tensor* t : p.t) {
    if (t) check_tensor(t, p.views_rebound);
  }
  for (const ct_storage* s : p.s) {
    if (!s) continue;
    const int64_t n = CT(ct_storage_nbytes(s));
    REQUIRE(n >= 0 && CT(ct_storage_refcount(s)) >= 1);
    if (n > 0) {
      const char* data = static_cast<const char*>(CT(ct_storage_data(s)));
      g_sink = static_cast<unsigned char>(data[0]);
      g_sink = static_cast<unsigned char>(data[n - 1]);
    }
  }
}

// ---- the operations ------------------------------------------------------------------------

void op_create(FuzzedDataProvider& in, Pool& p) {
  const int ndim = hostile_ndim(in);
  const ct_dtype dt = hostile_dtype(in);
  std::vector<int64_t> sizes = hostile_list(in, ndim);
  bound_shape(sizes, ndim, itemsize_of(dtype_raw(dt)));
  const int64_t expect = shape_numel(sizes, ndim, itemsize_of(dtype_raw(dt)));
  const bool null_sizes = in.ConsumeIntegralInRange<int>(0, 15) == 0;
  const int64_t* arg = null_sizes ? nullptr : sizes.data();
  ct_tensor* r = nullptr;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      // Uninitialized bool bytes are not bools (reading them is undefined, as in torch).
      r = dtype_raw(dt) == CT_BOOL ? CT(ct_zeros(ndim, arg, dt)) : CT(ct_empty(ndim, arg, dt));
      break;
    case 1: r = CT(ct_zeros(ndim, arg, dt)); break;
    case 2: r = CT(ct_ones(ndim, arg, dt)); break;
    case 3: r = CT(ct_full(ndim, arg, hostile_double(in), dt)); break;
    case 4: r = CT(ct_rand(ndim, arg, dt)); break;
    case 5: r = CT(ct_randn(ndim, arg, dt)); break;
    case 6: r = CT(ct_randint(hostile_i64(in), hostile_i64(in), ndim, arg, dt)); break;
    case 7: {
      // from_data reads numel * itemsize bytes: give it exactly that many.
      const int64_t bytes = expect > 0 ? expect * itemsize_of(dtype_raw(dt)) : 0;
      std::vector<unsigned char> src(static_cast<size_t>(bytes));
      for (auto& b : src) b = in.ConsumeIntegral<unsigned char>();
      if (dtype_raw(dt) == CT_BOOL) {
        for (auto& b : src) b &= 1;  // a bool byte is 0 or 1 (numpy, torch and DLPack agree)
      }
      r = CT(ct_from_data(bytes ? src.data() : nullptr, ndim, arg, dt));
      break;
    }
  }
  // Overflowing or negative shapes, too many dims and unknown dtypes must be refused.
  if (expect < 0 || (ndim > 0 && null_sizes) || !valid_dtype(dtype_raw(dt))) REQUIRE(r == nullptr, expect, ndim * 100 + dtype_raw(dt));
  take(p, r);
}

void op_arange(FuzzedDataProvider& in, Pool& p) {
  const double start = hostile_double(in), end = hostile_double(in), step = hostile_double(in);
  // Bound the element count of valid requests (|end - start| / |step|).
  const double count = (end - start) / step;
  if (count == count && count > double(kBudgetBytes / 8) && count < 1e30) return;
  take(p, CT(ct_arange(start, end, step, hostile_dtype(in))));
}

// linspace and eye: hostile bounds and dtypes, sizes bounded like arange's (a negative or
// huge one must be refused, not allocated).
void op_linspace_eye(FuzzedDataProvider& in, Pool& p) {
  const int64_t n = hostile_i64(in), m = hostile_i64(in);
  if (in.ConsumeBool()) {
    if (n > int64_t(kBudgetBytes / 8)) return;
    take(p, CT(ct_linspace(hostile_double(in), hostile_double(in), n, hostile_dtype(in))));
  } else {
    if (n > 0 && m > 0 && (n > int64_t(kBudgetBytes / 8) || m > int64_t(kBudgetBytes / 8) / n)) return;
    take(p, CT(ct_eye(n, m, hostile_dtype(in))));
  }
}

void op_from_blob(FuzzedDataProvider& in, Pool& p) {
  const int ndim = hostile_ndim(in);
  const ct_dtype dt = hostile_dtype(in);
  const int64_t item = itemsize_of(dtype_raw(dt));
  std::vector<int64_t> sizes = hostile_list(in, ndim);
  bound_shape(sizes, ndim, item);
  std::vector<int64_t> strides = hostile_list(in, ndim);
  const bool null_strides = in.ConsumeBool();
  // The byte extent the library must find: -1 when it has to refuse the shape.
  __int128 extent = 0;
  bool refuse = ndim < 0 || ndim > CT_MAX_DIMS || !valid_dtype(dtype_raw(dt));
  if (!refuse) {
    // The element count must fit int64; the bytes are the extent the strides reach (a
    // stride-0 shape may have more elements than bytes).
    const int64_t n = shape_numel(sizes, ndim, 1);
    if (n < 0) refuse = true;
    else if (n > 0) {
      __int128 hi = 0;
      for (int i = 0; i < ndim; ++i) {
        const int64_t st = null_strides ? 0 : strides[size_t(i)];
        if (st < 0) refuse = true;
        sat_add(hi, __int128(sizes[size_t(i)] - 1) * st);
      }
      if (null_strides) hi = n - 1;
      extent = (hi + 1) * item;
      if (extent > INT64_MAX) refuse = true;
    }
  }
  if (!refuse && extent > kBudgetBytes) return;  // valid but too big to back with memory
  const size_t bytes = refuse ? 16 : size_t(extent);
  void* mem = std::malloc(bytes ? bytes : 1);
  std::memset(mem, dtype_raw(dt) == CT_BOOL ? 0x01 : 0x5a, bytes ? bytes : 1);
  ct_tensor* r = CT(ct_from_blob(mem, ndim, sizes.data(), null_strides ? nullptr : strides.data(), dt,
                                 blob_deleter, &g_blobs_made));
  if (refuse) REQUIRE(r == nullptr, int64_t(extent));
  if (r) {
    ++g_blobs_made;  // the deleter now owns mem
    p.put(r);
  } else {
    expect_error_recorded();
    std::free(mem);  // on failure the memory stays ours
  }
}

// as_strided: the harness computes whether the view stays inside the storage; the library
// must agree (refuse exactly when it does not fit, or when sizes/strides are invalid).
void op_as_strided(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const int ndim = hostile_ndim(in);
  std::vector<int64_t> sizes = hostile_list(in, ndim), strides = hostile_list(in, ndim);
  const int64_t offset = hostile_i64(in);
  ct_tensor* r = CT(ct_as_strided(t, ndim, sizes.data(), strides.data(), offset));
  if (!t || ndim < 0 || ndim > CT_MAX_DIMS || offset < 0) REQUIRE(r == nullptr);
  if (r && t) {
    // Success implies containment; check_pool verifies it for the result.
    REQUIRE(CT(ct_shares_storage(r, t)) == 1);
  }
  take(p, r);
}

void op_view(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const int a = hostile_int(in), b = hostile_int(in);
  ct_tensor* r = nullptr;
  switch (pick_case(in, 15, "view")) {
    case 0: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> shape = hostile_list(in, n);
      r = CT(ct_view(t, n, in.ConsumeBool() ? shape.data() : nullptr));
      break;
    }
    case 1: r = CT(ct_transpose(t, a, b)); break;
    case 2: {
      const int n = hostile_ndim(in);
      std::vector<int> dims(size_t(n < 0 ? 0 : n > kArgArray ? kArgArray : n));
      for (auto& x : dims) x = hostile_int(in);
      r = CT(ct_permute(t, n, dims.data()));
      break;
    }
    case 3: r = CT(ct_slice(t, a, hostile_i64(in), hostile_i64(in), hostile_i64(in))); break;
    case 4: r = CT(ct_narrow(t, a, hostile_i64(in), hostile_i64(in))); break;
    case 5: r = CT(ct_select(t, a, hostile_i64(in))); break;
    case 6: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> sizes = hostile_list(in, n);
      r = CT(ct_expand(t, n, sizes.data()));
      break;
    }
    case 7: r = CT(ct_squeeze(t, a)); break;
    case 8:
      if (in.ConsumeBool()) {
        r = CT(ct_squeeze_all(t));
      } else {  // a list of dims, repeats and out-of-range ones included
        const int n = hostile_ndim(in);
        std::vector<int> dims(size_t(n < 0 ? 0 : n > kArgArray ? kArgArray : n));
        for (auto& x : dims) x = in.ConsumeIntegralInRange<int>(-5, 5);
        r = CT(ct_squeeze_dims(t, n, dims.data()));
      }
      break;
    case 9: r = CT(ct_unsqueeze(t, a)); break;
    case 10: r = CT(ct_diagonal(t, hostile_i64(in), a, b)); break;
    case 11: r = CT(ct_unfold(t, a, hostile_i64(in), hostile_i64(in))); break;
    case 12: r = CT(ct_alias(t)); break;
    case 13: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> shape = hostile_list(in, n);
      if (!small(t)) return;  // may copy
      const int is_view = CT(ct_reshape_is_view(t, n, shape.data()));
      if (is_view < 0) expect_error_recorded();
      r = CT(ct_reshape(t, n, shape.data()));
      // Geometry alone decides ct_reshape_is_view; ct_reshape can still fail where the shape
      // fits, as torch does: a view of a multi-output view whose base was written in place.
      if (is_view < 0) REQUIRE(r == nullptr);
      else if (!r) expect_error_recorded();
      if (r && is_view == 1) REQUIRE(CT(ct_shares_storage(r, t)) == 1);
      break;
    }
    case 14:
      if (!small(t)) return;
      r = CT(ct_flatten(t, a, b));
      break;
    case 15:
      if (!small(t)) return;
      r = CT(ct_contiguous(t));
      if (r) REQUIRE(CT(ct_tensor_is_contiguous(r)) == 1);
      break;
  }
  if (!t) REQUIRE(r == nullptr);
  if (r && t && CT(ct_tensor_is_view(r)) == 1) REQUIRE(CT(ct_shares_storage(r, t)) == 1);
  take(p, r);
}

// unbind / split / split_with_sizes / chunk: count first (out NULL), a short array (must fail
// and write nothing), or a large enough one (every output a view sharing t's storage).
void op_multi_view(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const int dim = hostile_int(in);
  const int kind = in.ConsumeIntegralInRange<int>(0, 3);
  const int64_t arg = hostile_i64(in);
  const int n_sizes = hostile_ndim(in);
  std::vector<int64_t> sizes = hostile_list(in, n_sizes);
  const int64_t* sizes_arg = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : sizes.data();
  if (g_trace) std::fprintf(stderr, "  multi-view kind %d dim %d arg %lld n %d\n", kind, dim, (long long)arg, n_sizes);
  auto call = [&](ct_tensor** out, int64_t cap) -> int64_t {
    switch (kind) {
      case 0: return CT(ct_unbind(t, dim, out, cap));
      case 1: return CT(ct_split(t, arg, dim, out, cap));
      // split_with_sizes reads n lengths (n is not a dim count, so it may be large): the
      // array must really hold them (hostile_ndim's INT_MAX does not fit hostile_list's).
      case 2: return CT(ct_split_with_sizes(t, n_sizes < 0 ? n_sizes : int64_t(sizes.size()), sizes_arg, dim, out, cap));
      default: return CT(ct_chunk(t, arg, dim, out, cap));
    }
  };
  const int64_t n = call(nullptr, 0);
  if (n < 0) {
    expect_error_recorded();
    return;
  }
  if (n > 64) return;  // a real request, but not one this pool can hold
  std::vector<ct_tensor*> out(size_t(n) + 1, reinterpret_cast<ct_tensor*>(&p));
  const int64_t cap = in.ConsumeBool() ? n : in.ConsumeIntegralInRange<int64_t>(-2, n);
  const int64_t m = call(out.data(), cap);
  if (cap < n) {
    REQUIRE(m == -1, m, n);
    expect_error_recorded();
    for (ct_tensor* x : out) REQUIRE(x == reinterpret_cast<ct_tensor*>(&p));
    return;
  }
  if (m < 0) {
    // Making a view can fail where counting did not: a huge stride on an empty tensor whose
    // view offset would overflow int64 is refused.  Then nothing is written.
    expect_error_recorded();
    for (ct_tensor* x : out) REQUIRE(x == reinterpret_cast<ct_tensor*>(&p));
    return;
  }
  REQUIRE(m == n, m, n);  // the same call as the count
  REQUIRE(out[size_t(n)] == reinterpret_cast<ct_tensor*>(&p));  // nothing past n
  for (int64_t i = 0; i < n; ++i) {
    REQUIRE(out[size_t(i)] != nullptr && CT(ct_shares_storage(out[size_t(i)], t)) == 1);
    REQUIRE(CT(ct_tensor_is_view(out[size_t(i)])) == 1);
  }
  // Only then into the pool: a full pool releases a handle, which may be t's last reference.
  for (int64_t i = 0; i < n; ++i) p.put(out[size_t(i)]);
}

// The split family and the other composite views (ctensor.h, "The split family and other
// composite views"): the multi-output ones under the same protocol checks as op_multi_view
// (count, short array, full array; the unsafe splits share the storage without being views,
// broadcast_tensors may return an input itself), the single ones on hostile dims and lists.
void op_view_family(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* u = p.pick(in);
  const int dim = hostile_int(in);
  const int64_t arg = hostile_i64(in);
  const int n_list = hostile_ndim(in);
  std::vector<int64_t> list = hostile_list(in, n_list);
  const int64_t n_values = n_list < 0 ? n_list : int64_t(list.size());  // what the array holds
  const int64_t* list_arg = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : list.data();
  const int kind = pick_case(in, 22, "view family");
  // tensor_split's tensor form reads every index of u: a huge (expanded) u would be a huge
  // allocation, which libFuzzer's malloc limit reports as a crash
  if (kind == 2 && !small(u)) return;
  if (kind <= 13) {
    const ct_tensor* pair[2] = {t, u};
    auto call = [&](ct_tensor** out, int64_t cap) -> int64_t {
      switch (kind) {
        case 0: return CT(ct_tensor_split(t, arg, dim, out, cap));
        case 1: return CT(ct_tensor_split_indices(t, n_values, list_arg, dim, out, cap));
        case 2: return CT(ct_tensor_split_tensor(t, u, dim, out, cap));
        case 3: return CT(ct_hsplit(t, arg, out, cap));
        case 4: return CT(ct_vsplit(t, arg, out, cap));
        case 5: return CT(ct_dsplit(t, arg, out, cap));
        case 6: return CT(ct_hsplit_indices(t, n_values, list_arg, out, cap));
        case 7: return CT(ct_vsplit_indices(t, n_values, list_arg, out, cap));
        case 8: return CT(ct_dsplit_indices(t, n_values, list_arg, out, cap));
        case 9: return CT(ct_unsafe_split(t, arg, dim, out, cap));
        case 10: return CT(ct_unsafe_split_with_sizes(t, n_values, list_arg, dim, out, cap));
        case 11: return CT(ct_unsafe_chunk(t, arg, dim, out, cap));
        case 12: return CT(ct_broadcast_tensors(2, pair, out, cap));
        default: return CT(ct_broadcast_tensors(in.ConsumeIntegralInRange<int>(-1, 1), pair, out, cap));
      }
    };
    // kind 13 consumes input per call: decide its n once
    const int64_t n = call(nullptr, 0);
    if (n < 0) {
      expect_error_recorded();
      return;
    }
    if (n > 64 || kind == 13) return;  // a real request, but not one this pool can hold
    if (kind == 12 && !(small(t) && small(u))) return;
    std::vector<ct_tensor*> out(size_t(n) + 1, reinterpret_cast<ct_tensor*>(&p));
    const int64_t cap = in.ConsumeBool() ? n : in.ConsumeIntegralInRange<int64_t>(-2, n);
    const int64_t m = call(out.data(), cap);
    if (cap < n || m < 0) {
      REQUIRE(m == -1, m, n);
      expect_error_recorded();
      for (ct_tensor* x : out) REQUIRE(x == reinterpret_cast<ct_tensor*>(&p));
      return;
    }
    REQUIRE(m == n, m, n);
    REQUIRE(out[size_t(n)] == reinterpret_cast<ct_tensor*>(&p));
    for (int64_t i = 0; i < n; ++i) {
      ct_tensor* o = out[size_t(i)];
      REQUIRE(o != nullptr);
      const ct_tensor* src = kind == 12 ? pair[i] : t;
      REQUIRE(CT(ct_shares_storage(o, src)) == 1);
      if (kind >= 9 && kind <= 11) REQUIRE(CT(ct_tensor_is_view(o)) == 0);
      else if (kind != 12) REQUIRE(CT(ct_tensor_is_view(o)) == 1);
      else REQUIRE(o == src || CT(ct_tensor_is_view(o)) == 1);
    }
    for (int64_t i = 0; i < n; ++i) p.put(out[size_t(i)]);
    return;
  }
  ct_tensor* r = nullptr;
  switch (kind) {
    case 14: r = CT(ct_unflatten(t, dim, n_list, list_arg)); break;
    case 15: {
      std::vector<int> src(list.size()), dst(list.size());
      for (size_t i = 0; i < list.size(); ++i) {
        src[i] = int(list[i] % 70);
        dst[i] = int((list[i] / 3) % 70);
      }
      r = CT(ct_movedim(t, n_list, list_arg ? src.data() : nullptr, dst.data()));
      break;
    }
    case 16: r = CT(in.ConsumeBool() ? ct_swapaxes(t, dim, int(arg)) : ct_swapdims(t, dim, int(arg))); break;
    case 17: r = CT(ct_expand_as(t, u)); break;
    case 18: r = CT(ct_view_as(t, u)); break;
    case 19:
      if (!small(t)) return;  // may copy
      r = CT(ct_reshape_as(t, u));
      break;
    case 20: r = CT(ct_broadcast_to(t, n_list, list_arg)); break;
    case 21: {
      const int rank = in.ConsumeIntegralInRange<int>(1, 3);
      r = CT(rank == 1 ? ct_atleast_1d(t) : rank == 2 ? ct_atleast_2d(t) : ct_atleast_3d(t));
      if (r) REQUIRE(CT(ct_tensor_ndim(r)) >= rank);
      break;
    }
    default: {
      const int64_t* shapes[3] = {list_arg, list_arg, list_arg};
      int nd[3] = {n_list, t ? CT(ct_tensor_ndim(t)) : 0, u ? CT(ct_tensor_ndim(u)) : 0};
      if (t) shapes[1] = CT(ct_tensor_sizes(t));
      if (u) shapes[2] = CT(ct_tensor_sizes(u));
      int64_t res[CT_MAX_DIMS];
      const int k = in.ConsumeIntegralInRange<int>(0, 3);
      const int got = CT(ct_broadcast_shapes(k, nd, shapes, res, CT_MAX_DIMS));
      if (got < 0) expect_error_recorded();
      else REQUIRE(got <= CT_MAX_DIMS);
      return;
    }
  }
  if (!t) REQUIRE(r == nullptr);
  if (r && t && CT(ct_tensor_is_view(r)) == 1) REQUIRE(CT(ct_shares_storage(r, t)) == 1);
  take(p, r);
}

// Autograd on the pool: requires_grad (refused for non-floating dtypes and non-leaves),
// retain_grad, backward with or without a gradient (shapes and dtypes from the pool: mostly
// wrong), grad / set_grad, detach, node names, grad mode, autograd.grad (with create_graph),
// backward restricted to some inputs, inference mode (scoped to one step).  Compute and view steps after
// these record graphs; the live counts at the end of the input check that graphs, retained
// gradients and saved tensors are all freed with their tensors.
// A custom op out = t * 1 whose backward multiplies by its saved output read back through
// ct_custom_op_saved_output (at a fuzzed index: 0 is right, others must fail cleanly).
struct FuzzCustom {
  ct_tensor* saved;  // ct_detach(out): never out itself (a cycle through the node)
  int index;
};
ct_status fuzz_custom_backward(void* ud, int, const ct_tensor* const* go, int, ct_tensor** gi) {
  auto* d = static_cast<FuzzCustom*>(ud);
  if (!go[0]) return CT_OK;
  ct_tensor* s = ct_custom_op_saved_output(d->saved, d->index);
  if (!s) return ct_last_status();
  gi[0] = ct_mul(go[0], s);
  ct_tensor_release(s);
  return gi[0] ? CT_OK : ct_last_status();
}
void fuzz_custom_release(void* ud) {
  auto* d = static_cast<FuzzCustom*>(ud);
  ct_tensor_release(d->saved);
  delete d;
}

void op_autograd(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* u = p.pick(in);
  switch (pick_case(in, 12, "autograd")) {
    case 0:
      // Not on views: a view of a plain tensor made to require grad and then written into its
      // own base (base.copy_(view)) puts itself in the base's graph, a reference cycle torch
      // has too (the header's Autograd section says so; found by the long run).
      if (CT(ct_tensor_is_view(t)) == 1) return;
      status_ok_or_error(CT(ct_set_requires_grad(t, in.ConsumeIntegral<int>())));
      break;
    case 1: status_ok_or_error(CT(ct_retain_grad(t))); break;
    case 2:
      if (!small_output(t, 512) || !small_output(u, 512)) return;  // backward computes on t's graph
      status_ok_or_error(CT(ct_backward(t, in.ConsumeBool() ? u : nullptr, in.ConsumeIntegral<int>())));
      break;
    case 3: {
      ct_tensor* g = CT(ct_grad(t));
      if (g) p.put(g);  // NULL without an error is "no gradient"
      break;
    }
    case 4: {
      // t.grad = t is refused; any other grad that holds t alive (a view of t, a result of t
      // that records a graph, two tensors each the other's grad) is a reference cycle in torch
      // as here (the header says so), so the grad is a copy made with grad mode off, or t
      // itself to check the refusal.
      const int k = in.ConsumeIntegralInRange<int>(0, 2);
      if (k == 0 || !small(u)) {
        status_ok_or_error(CT(ct_set_grad(t, nullptr)));
      } else if (k == 1) {
        REQUIRE(CT(ct_set_grad(t, t)) != CT_OK);
        expect_error_recorded();
      } else {
        const int prev = CT(ct_set_grad_enabled(0));  // no graph back to t either
        ct_tensor* g = CT(ct_clone(u));
        CT(ct_set_grad_enabled(prev));
        if (!g) expect_error_recorded();
        status_ok_or_error(CT(ct_set_grad(t, g)));
        CT(ct_tensor_release(g));
      }
      break;
    }
    case 5: take(p, CT(ct_detach(t))); break;
    case 6: {
      const char* name = CT(ct_grad_fn_name(t));
      if (name) REQUIRE(std::strlen(name) < 256);
      const int leaf = CT(ct_is_leaf(t)), rg = CT(ct_requires_grad(t)), rt = CT(ct_retains_grad(t));
      if (!t) REQUIRE(leaf == -1 && rg == -1 && rt == -1);
      break;
    }
    case 7: CT(ct_set_grad_enabled(in.ConsumeIntegral<int>())); break;
    case 8: {
      // autograd.grad of t for (t, u), with or without a graph of the gradients: the results
      // go to the pool (their graphs are freed with them; grad touches no .grad, so no cycle)
      if (!small_output(t, 512) || !small_output(u, 512)) return;
      const ct_tensor* outs[1] = {t};
      const ct_tensor* gouts[1] = {in.ConsumeBool() ? u : nullptr};
      const ct_tensor* ins[2] = {t, u};
      ct_tensor* res[2] = {nullptr, nullptr};
      const int64_t n_in = in.ConsumeIntegralInRange<int64_t>(0, 2);
      const ct_status st = CT(ct_autograd_grad(outs, 1, gouts, ins, n_in, in.ConsumeBool(), in.ConsumeBool(),
                                               in.ConsumeBool(), res));
      status_ok_or_error(st);
      for (ct_tensor* r : res) {
        if (st != CT_OK) REQUIRE(r == nullptr);
        if (r) p.put(r);
      }
      break;
    }
    case 9: {
      // backward restricted to some inputs; no create_graph: a leaf's .grad with a graph of
      // itself is a reference cycle in torch as here (the header says so)
      if (!small_output(t, 512) || !small_output(u, 512)) return;
      const ct_tensor* roots[1] = {t};
      const ct_tensor* ins[1] = {u};
      status_ok_or_error(CT(ct_autograd_backward(roots, 1, nullptr, ins, in.ConsumeIntegralInRange<int64_t>(0, 1),
                                                 in.ConsumeBool(), 0)));
      break;
    }
    case 10: {
      // inference mode around a view, a clone and an in-place write of t: the clone is an
      // inference tensor (no version counter), the view of normal t stays normal; both stay
      // out of the pool, whose invariants (versions, views) are those of normal tensors; outside
      // the mode again, an in-place write to the clone is refused (torch refuses after writing)
      const int state = CT(ct_set_inference_mode(1));
      REQUIRE(CT(ct_is_inference_mode_enabled()) == 1);
      ct_tensor* v = CT(ct_alias_view(t));
      ct_tensor* c = small(t) ? CT(ct_clone(t)) : nullptr;
      if (t && small(t)) status_ok_or_error(CT(ct_zero_(t)));
      REQUIRE(CT(ct_restore_inference_mode(state)) == CT_OK);
      if (v) REQUIRE(CT(ct_tensor_is_inference(v)) == 0);  // a view of a normal tensor stays normal
      if (c) {
        REQUIRE(CT(ct_tensor_is_inference(c)) == 1);
        REQUIRE(CT(ct_tensor_version(c)) == -1);
        expect_error_recorded();
        REQUIRE(CT(ct_zero_(c)) != CT_OK);
        expect_error_recorded();
      }
      CT(ct_tensor_release(c));
      CT(ct_tensor_release(v));
      const int inf = CT(ct_tensor_is_inference(t));
      REQUIRE(inf == (t ? 0 : -1));
      break;
    }
    case 11: {
      // a custom op of t, its backward differentiable or not (create_graph then goes through
      // it, or refuses), into the pool for later backward and grad calls
      if (!t || !small(t)) return;
      const int prev = CT(ct_set_grad_enabled(0));
      ct_tensor* out = CT(ct_mul_scalar(t, 1.0));
      CT(ct_set_grad_enabled(prev));
      if (!out) {
        expect_error_recorded();
        return;
      }
      auto* d = new FuzzCustom{CT(ct_detach(out)), in.ConsumeIntegralInRange<int>(-1, 1) == 1 ? 2 : 0};
      int flags = in.ConsumeBool() ? CT_CUSTOM_DIFFERENTIABLE_BACKWARD : 0;
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) flags |= CT_CUSTOM_NON_DIFFERENTIABLE;
      ct_tensor* ins[1] = {t};
      // release runs exactly once, also on failure
      status_ok_or_error(CT(ct_custom_op_apply("Fuzz", 1, ins, 1, &out, &flags, in.ConsumeBool(),
                                               fuzz_custom_backward, d, fuzz_custom_release)));
      p.put(out);
      break;
    }
    default: break;
  }
}

void op_copy(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* u = p.pick(in);
  if (!small(t) || !small(u)) return;
  switch (pick_case(in, 5, "copy")) {
    case 0: take(p, CT(ct_clone(t))); break;
    case 1: take(p, CT(ct_to(t, hostile_dtype(in)))); break;
    case 2:
      if (!small(t, 512) || !small(u, 256)) return;  // output: numel(t) * numel(index)
      take(p, CT(ct_index_select(t, hostile_int(in), u)));
      break;
    case 3:
      if (inplace_source_may_cycle(u)) return;
      status_ok_or_error(CT(ct_copy_(t, u)));
      break;
    case 4:
    case 5: {
      const int n = in.ConsumeIntegralInRange<int>(-1, 4);
      const ct_tensor* list[4] = {t, u, p.pick(in), p.pick(in)};
      for (const ct_tensor* x : list) {
        if (!small(x, 256)) return;
      }
      const bool null_list = in.ConsumeIntegralInRange<int>(0, 7) == 0;
      const int dim = hostile_int(in);
      ct_tensor* r = CT(in.ConsumeBool() ? ct_cat(n, null_list ? nullptr : list, dim)
                                         : ct_stack(n, null_list ? nullptr : list, dim));
      take(p, r);
      break;
    }
  }
}

using Binary = ct_tensor* (*)(const ct_tensor*, const ct_tensor*);
using BinaryInPlace = ct_status (*)(ct_tensor*, const ct_tensor*);
using Scalar = ct_tensor* (*)(const ct_tensor*, double);
using ScalarInPlace = ct_status (*)(ct_tensor*, double);
using Unary = ct_tensor* (*)(const ct_tensor*);
using UnaryInPlace = ct_status (*)(ct_tensor*);
using Reduce = ct_tensor* (*)(const ct_tensor*, int, const int*, int);

// alpha: fractional (refused for integer results), integral and negative (uint8 wraps it),
// out of float16's and int8's range
const Binary kBinary[] = {ct_add, ct_sub, ct_mul, ct_div, ct_eq, ct_ne, ct_lt, ct_le, ct_gt, ct_ge, ct_matmul,
                          ct_maximum, ct_minimum, ct_pow, ct_floor_divide, ct_remainder, ct_fmod,
                          [](const ct_tensor* a, const ct_tensor* b) { return ct_add_alpha(a, b, 2.5); },
                          [](const ct_tensor* a, const ct_tensor* b) { return ct_sub_alpha(a, b, -3); },
                          [](const ct_tensor* a, const ct_tensor* b) { return ct_add_alpha(a, b, 1e6); }};
const BinaryInPlace kBinaryInPlace[] = {ct_add_, ct_sub_, ct_mul_, ct_div_, ct_fill_tensor_,
                                        ct_pow_, ct_floor_divide_, ct_remainder_, ct_fmod_,
                                        [](ct_tensor* s, const ct_tensor* o) { return ct_add_alpha_(s, o, -0.001); },
                                        [](ct_tensor* s, const ct_tensor* o) { return ct_sub_alpha_(s, o, 200); }};
const Scalar kScalar[] = {ct_add_scalar, ct_sub_scalar, ct_mul_scalar, ct_div_scalar, ct_rsub_scalar,
                          ct_rdiv_scalar, ct_eq_scalar, ct_ne_scalar, ct_lt_scalar, ct_le_scalar,
                          ct_gt_scalar, ct_ge_scalar, ct_pow_scalar, ct_rpow_scalar, ct_floor_divide_scalar,
                          ct_rfloor_divide_scalar, ct_remainder_scalar, ct_rremainder_scalar, ct_fmod_scalar};
const ScalarInPlace kScalarInPlace[] = {ct_add_scalar_, ct_sub_scalar_, ct_mul_scalar_, ct_div_scalar_, ct_fill_,
                                        ct_pow_scalar_, ct_floor_divide_scalar_, ct_remainder_scalar_,
                                        ct_fmod_scalar_};
const Unary kUnary[] = {ct_neg,        ct_abs,        ct_exp,     ct_log,     ct_sqrt,      ct_sin,
                        ct_cos,        ct_tanh,       ct_sigmoid, ct_relu,    ct_reciprocal, ct_sgn,
                        ct_sign,       ct_angle,      ct_argmax_all, ct_argmin_all, ct_max_all, ct_min_all,
                        ct_alias_view};
const UnaryInPlace kUnaryInPlace[] = {ct_neg_, ct_abs_,  ct_exp_,     ct_log_,        ct_sqrt_, ct_sin_, ct_cos_,
                                      ct_tanh_, ct_sigmoid_, ct_relu_, ct_reciprocal_, ct_sgn_, ct_sign_, ct_zero_};
const Reduce kReduce[] = {ct_sum, ct_mean, ct_prod, ct_amax, ct_amin};

template <class T, size_t N>
T pick_fn(FuzzedDataProvider& in, const T (&fns)[N]) {
  return fns[in.ConsumeIntegralInRange<size_t>(0, N - 1)];
}

void op_compute(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* a = p.pick(in);
  ct_tensor* b = p.pick(in);
  // Broadcasting output is at most numel(a) * numel(b) elements (or max of them if either
  // is 1-element); matmul costs at most about that much too.
  if (!small_output(a, 512) || !small_output(b, 512)) return;
  switch (pick_case(in, 10, "compute")) {
    case 0: take(p, CT(pick_fn(in, kBinary)(a, b))); break;
    case 1:
      if (inplace_source_may_cycle(b)) return;
      status_ok_or_error(CT(pick_fn(in, kBinaryInPlace)(a, b)));
      break;
    case 2:
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) take(p, CT(ct_pow_int(a, hostile_i64(in))));  // a Python-int exponent
      else take(p, CT(pick_fn(in, kScalar)(a, hostile_double(in))));
      break;
    case 3:
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) status_ok_or_error(CT(ct_pow_int_(a, hostile_i64(in))));
      else status_ok_or_error(CT(pick_fn(in, kScalarInPlace)(a, hostile_double(in))));
      break;
    case 4: take(p, CT(pick_fn(in, kUnary)(a))); break;
    case 5: status_ok_or_error(CT(pick_fn(in, kUnaryInPlace)(a))); break;
    case 6: {
      const int n = hostile_ndim(in);
      std::vector<int> dims(size_t(n < 0 ? 0 : n > kArgArray ? kArgArray : n));
      for (auto& x : dims) x = hostile_int(in);
      const bool null_dims = in.ConsumeIntegralInRange<int>(0, 7) == 0;
      take(p, CT(pick_fn(in, kReduce)(a, n, null_dims ? nullptr : dims.data(), in.ConsumeIntegral<int>())));
      break;
    }
    case 7:
      switch (in.ConsumeIntegralInRange<int>(0, 2)) {
        case 0:
          take(p, CT(in.ConsumeBool() ? ct_argmax(a, hostile_int(in), in.ConsumeIntegral<int>())
                                      : ct_argmin(a, hostile_int(in), in.ConsumeIntegral<int>())));
          break;
        default: {
          // values and (optionally) indices in one call; *indices written only on success
          ct_tensor* idx = reinterpret_cast<ct_tensor*>(&p);  // a sentinel it must not touch on failure
          ct_tensor** want = in.ConsumeBool() ? &idx : nullptr;
          const int dim = hostile_int(in), keep = in.ConsumeIntegral<int>();
          ct_tensor* v = CT(in.ConsumeBool() ? ct_max_dim(a, dim, keep, want) : ct_min_dim(a, dim, keep, want));
          if (!v) REQUIRE(idx == reinterpret_cast<ct_tensor*>(&p));
          if (v && want) {
            REQUIRE(idx != nullptr && CT(ct_tensor_dtype(idx)) == CT_INT64);
            const int64_t ni = CT(ct_tensor_numel(idx)), nv = CT(ct_tensor_numel(v));
            REQUIRE(ni == nv, ni, nv);
            p.put(idx);
          }
          take(p, v);
          break;
        }
      }
      break;
    case 8: {
      ct_tensor* c = p.pick(in);
      if (!small_output(a, 64) || !small_output(b, 64) || !small_output(c, 64)) return;  // output up to the product
      take(p, CT(ct_where(c, a, b)));
      break;
    }
    case 9: {
      const int r = CT(in.ConsumeBool() ? ct_equal(a, b)
                                        : ct_allclose(a, b, hostile_double(in), hostile_double(in)));
      if (r < 0) expect_error_recorded();
      else REQUIRE(r == 0 || r == 1, r);
      if (in.ConsumeBool() && small_output(a, 64) && small_output(b, 64)) {  // the broadcast is at most their product
        ct_tensor* close = CT(ct_isclose(a, b, hostile_double(in), hostile_double(in), in.ConsumeBool()));
        if (close) REQUIRE(ct_tensor_dtype(close) == CT_BOOL, ct_tensor_dtype(close));
        take(p, close);
      }
      break;
    }
    case 10: {
      double v = 0;
      const bool null_out = in.ConsumeIntegralInRange<int>(0, 7) == 0;
      status_ok_or_error(CT(ct_item(a, null_out ? nullptr : &v)));
      break;
    }
  }
}

void op_introspect(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const int dim = hostile_int(in);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: {
      const int64_t s = CT(ct_tensor_size(t, dim));
      if (s < 0) expect_error_recorded();
      break;
    }
    case 1: {
      const int64_t s = CT(ct_tensor_stride(t, dim));
      if (s < 0) expect_error_recorded();
      break;
    }
    case 2: {
      if (!small(t, 1 << 14)) return;
      char buf[256];
      int64_t cap;
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: cap = 0; break;
        case 1: cap = -in.ConsumeIntegralInRange<int64_t>(1, 3); break;
        default: cap = in.ConsumeIntegralInRange<int64_t>(1, sizeof buf);
      }
      const bool null_buf = in.ConsumeBool();
      std::memset(buf, 0x7f, sizeof buf);
      const int64_t n = CT(ct_tensor_to_string(t, null_buf ? nullptr : buf, cap));
      if (n < 0) {
        expect_error_recorded();
      } else if (!null_buf && cap > 0) {
        // snprintf rules: NUL-terminated within cap, nothing written past it.
        const int64_t written = n < cap ? n : cap - 1;
        REQUIRE(buf[written] == '\0', written);
        if (cap < int64_t(sizeof buf)) REQUIRE(buf[cap] == 0x7f, cap);
      }
      break;
    }
    case 3: {
      const int c = CT(ct_tensor_is_contiguous(t));
      if (c < 0) expect_error_recorded();
      break;
    }
    case 4: {
      const int64_t v = CT(ct_tensor_version(t));
      if (v < 0) expect_error_recorded();
      break;
    }
  }
}

void op_lifetime(FuzzedDataProvider& in, Pool& p) {
  const int i = in.ConsumeIntegralInRange<int>(0, kSlots - 1);
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:  // the same tensor in two slots, two references
      if (p.t[i]) p.put(CT(ct_tensor_retain(p.t[i])));
      break;
    case 1:
      CT(ct_tensor_release(p.t[i]));
      p.t[i] = nullptr;
      break;
    case 2: {
      ct_storage* s = CT(ct_tensor_storage(p.t[i]));
      if (!s && !p.t[i]) expect_error_recorded();
      p.put_storage(s, in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1));
      break;
    }
    case 3: {
      const int j = in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1);
      if (p.s[j]) p.put_storage(CT(ct_storage_retain(p.s[j])), (j + 1) % kStorageSlots);
      break;
    }
    case 4: {
      const int j = in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1);
      p.put_storage(nullptr, j);
      break;
    }
  }
}

void op_relations(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* a = p.pick(in);
  ct_tensor* b = p.pick(in);
  int r = 0;
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: r = CT(ct_shares_storage(a, b)); break;
    case 1: r = CT(ct_may_overlap(a, b)); break;
    case 2:
      r = CT(ct_overlaps(a, b));
      if (r == -2) r = -1;  // search bound: documented as an error with a message
      break;
    case 3: r = CT(ct_has_internal_overlap(a)); break;
  }
  if (r < 0) expect_error_recorded();
  else REQUIRE(r == 0 || r == 1, r);
}

// DLPack: export and re-import, export and drop, and hand-made hostile managed tensors.
void op_dlpack(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: {
      DLManagedTensor* m = CT(ct_to_dlpack(t));
      if (!m) {
        expect_error_recorded();
        return;
      }
      if (in.ConsumeBool()) {
        ct_tensor* r = CT(ct_from_dlpack(m));
        if (!r) {
          expect_error_recorded();
          m->deleter(m);
        }
        p.put(r);
      } else {
        m->deleter(m);
      }
      break;
    }
    case 1: {
      DLManagedTensorVersioned* m = CT(ct_to_dlpack_versioned(t));
      if (!m) {
        expect_error_recorded();
        return;
      }
      if (in.ConsumeBool()) {
        ct_tensor* r = CT(ct_from_dlpack_versioned(m));
        if (!r) {
          expect_error_recorded();
          m->deleter(m);
        }
        p.put(r);
      } else {
        m->deleter(m);
      }
      break;
    }
    case 2:
    case 3: {
      // A hand-made legacy tensor: hostile ndim, shape, strides, dtype, device, alignment.
      HarnessDL* h = new HarnessDL();
      const int ndim = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? hostile_ndim(in) : in.ConsumeIntegralInRange<int>(0, 3);
      const int nd_array = ndim < 0 ? 0 : ndim > kArgArray ? kArgArray : ndim;
      h->shape.assign(size_t(nd_array), 1);
      h->strides.assign(size_t(nd_array), 1);
      for (int i = 0; i < nd_array && i < 8; ++i) {
        h->shape[size_t(i)] = hostile_i64(in);
        h->strides[size_t(i)] = hostile_i64(in);
      }
      DLTensor& dl = h->m.dl_tensor;
      dl.ndim = ndim;
      dl.shape = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : h->shape.data();
      dl.strides = in.ConsumeBool() ? nullptr : h->strides.data();
      dl.dtype.code = in.ConsumeIntegralInRange<uint8_t>(0, 7);
      dl.dtype.bits = uint8_t(8 << in.ConsumeIntegralInRange<int>(0, 3));
      if (in.ConsumeIntegralInRange<int>(0, 15) == 0) dl.dtype.bits = in.ConsumeIntegral<uint8_t>();
      dl.dtype.lanes = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<uint16_t>() : 1;
      const bool cuda = in.ConsumeIntegralInRange<int>(0, 7) == 0;
      dl.device.device_type = cuda ? kDLCUDA : kDLCPU;
      dl.device.device_id = 0;
      // Memory for the extent the library will compute when it accepts the tensor.
      const int64_t item = (int64_t(dl.dtype.bits) * dl.dtype.lanes + 7) / 8;
      __int128 hi = 0, numel = 1;
      bool bad = ndim < 0 || ndim > CT_MAX_DIMS || (ndim > 0 && dl.shape == nullptr) || cuda;
      for (int i = 0; !bad && i < ndim; ++i) {
        if (h->shape[size_t(i)] < 0) bad = true;
        if (h->shape[size_t(i)] == 0) numel = 0;  // a zero anywhere: no elements, no overflow
      }
      for (int i = 0; !bad && numel != 0 && i < ndim; ++i) {
        numel *= h->shape[size_t(i)];
        if (numel > INT64_MAX) bad = true;
      }
      if (!bad && numel > 0) {
        if (dl.strides) {
          for (int i = 0; i < ndim; ++i) {
            if (h->strides[size_t(i)] < 0) bad = true;
            sat_add(hi, __int128(h->shape[size_t(i)] - 1) * h->strides[size_t(i)]);
          }
        } else {
          hi = numel - 1;
        }
      }
      const __int128 extent = bad || numel == 0 ? 0 : (hi + 1) * (item ? item : 1);
      if (!bad && extent > kBudgetBytes) {  // valid but too big to back with memory
        delete h;
        return;
      }
      const int misalign = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? 1 : 0;
      h->mem = std::malloc(size_t(extent) + 32);  // room for misalignment + small byte_offset
      std::memset(h->mem, 0, size_t(extent) + 32);
      const bool null_data = in.ConsumeIntegralInRange<int>(0, 15) == 0;
      dl.data = null_data ? nullptr : static_cast<char*>(h->mem) + misalign;
      if (null_data && numel > 0) bad = true;
      // byte_offset: 0, a small one inside the padding (alignment), or one that wraps around.
      switch (in.ConsumeIntegralInRange<int>(0, 15)) {
        case 0: dl.byte_offset = in.ConsumeIntegralInRange<uint64_t>(1, 16); break;
        case 1: dl.byte_offset = UINT64_MAX - in.ConsumeIntegralInRange<uint64_t>(0, 8); break;
        default: dl.byte_offset = 0;
      }
      h->m.manager_ctx = h;
      h->m.deleter = harness_dl_deleter;
      ++g_dl_made;
      if (g_trace) {
        std::fprintf(stderr, "dlpack: ndim %d shape %p strides %p code %d bits %d lanes %d cuda %d data %p off %llu bad %d\n",
                     ndim, (void*)dl.shape, (void*)dl.strides, dl.dtype.code, dl.dtype.bits, dl.dtype.lanes, cuda,
                     dl.data, (unsigned long long)dl.byte_offset, bad);
        for (int i = 0; i < nd_array && i < 8; ++i) std::fprintf(stderr, "  %lld/%lld\n", (long long)h->shape[size_t(i)], (long long)h->strides[size_t(i)]);
      }
      ct_tensor* r = CT(ct_from_dlpack(&h->m));
      if (bad) REQUIRE(r == nullptr);
      if (!r) {
        expect_error_recorded();
        harness_dl_deleter(&h->m);  // ownership stays with the caller on failure
      }
      p.put(r);
      break;
    }
  }
}

// Handles that are NULL, arguments that are NULL.
void op_nulls(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: REQUIRE(CT(ct_add(nullptr, t)) == nullptr); expect_error_recorded(); break;
    case 1: REQUIRE(CT(ct_copy_(nullptr, t)) != CT_OK); expect_error_recorded(); break;
    case 2: REQUIRE(CT(ct_tensor_ndim(nullptr)) == -1); expect_error_recorded(); break;
    case 3: REQUIRE(CT(ct_storage_nbytes(nullptr)) == -1); expect_error_recorded(); break;
    case 4: REQUIRE(CT(ct_from_dlpack(nullptr)) == nullptr); expect_error_recorded(); break;
    case 5: {
      const int64_t one = 1;
      REQUIRE(CT(ct_as_strided(t, 1, nullptr, &one, 0)) == nullptr);
      expect_error_recorded();
      break;
    }
  }
}

// Tensor identity: .data, x.data = y, detach_ and the in-place metadata ops, with hostile
// arguments.  Growth is bounded like creation (bound_shape), and only from small offsets: a
// grown storage is a real allocation.
void op_identity(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* o = p.pick(in);
  const int a = hostile_int(in), b = hostile_int(in);
  const int64_t off = t ? CT(ct_tensor_offset(t)) : 0;
  const bool may_grow = off >= 0 && off <= kBudgetBytes / 16;
  const int n = hostile_ndim(in);
  std::vector<int64_t> sizes = hostile_list(in, n);
  bound_shape(sizes, n, 8);
  const int64_t* sz = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : sizes.data();
  const int64_t v0 = t ? CT(ct_tensor_version(t)) : -1;
  ct_status st = CT_OK;
  bool rebinds = true;  // cases 1 and 3-6 may point t at another storage
  switch (pick_case(in, 17, "identity")) {
    case 0: {
      ct_tensor* d = CT(ct_data(t));
      if (d) REQUIRE(CT(ct_same_version_counter(d, t)) == 0 && CT(ct_tensor_version(d)) == 0);
      take(p, d);
      return;
    }
    case 1: st = CT(ct_set_data(t, o)); break;
    case 2: st = CT(ct_detach_(t)); rebinds = false; break;
    case 3: st = CT(ct_set_(t, o)); break;
    case 4: {
      ct_storage* s = p.s[in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1)];
      if (s && CT(ct_storage_nbytes(s)) > kBudgetBytes) return;
      st = CT(ct_set_storage_(t, s));
      break;
    }
    case 5: {
      ct_storage* s = p.s[in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1)];
      std::vector<int64_t> strides = hostile_list(in, n);
      for (auto& x : strides) x = x % 5;  // bounded: the storage may grow to fit them
      const int64_t soff = in.ConsumeBool() ? hostile_i64(in) : in.ConsumeIntegralInRange<int64_t>(0, 64);
      if (soff > 64) return;  // a large offset would be a large allocation
      st = CT(ct_set_storage_strided_(t, s, soff, n, sz, in.ConsumeBool() ? -1 : n, strides.data()));
      break;
    }
    case 6: st = CT(ct_set_empty_(t)); break;
    case 7: {
      const int r = CT(ct_is_set_to(t, o));
      if (r < 0) expect_error_recorded();
      if (r == 1) REQUIRE(CT(ct_shares_storage(t, o)) == 1);
      return;
    }
    case 8:
      if (!may_grow) return;
      rebinds = false;  // resize_ grows the same storage
      st = CT(ct_resize_(t, n, sz));
      break;
    case 9:
      if (!may_grow || !small(o, kBudgetBytes / 8)) return;
      rebinds = false;
      st = CT(ct_resize_as_(t, o));
      break;
    case 10: {
      rebinds = false;
      std::vector<int64_t> strides = hostile_list(in, n);
      st = CT(ct_as_strided_(t, n, sz, in.ConsumeBool() ? n : hostile_ndim(in), strides.data(), hostile_i64(in)));
      break;
    }
    case 11: st = CT(ct_t_(t)); rebinds = false; break;
    case 12: st = CT(ct_transpose_(t, a, b)); rebinds = false; break;
    case 13: st = CT(ct_squeeze_(t)); rebinds = false; break;
    case 14: st = CT(ct_squeeze_dim_(t, a)); rebinds = false; break;
    case 15: st = CT(ct_unsqueeze_(t, a)); rebinds = false; break;
    case 17: {
      if (!may_grow) return;
      rebinds = false;  // the same storage, grown if need be
      const int raw = in.ConsumeIntegralInRange<int>(-1, 4);  // the four formats and two bad values
      ct_memory_format f;
      std::memcpy(&f, &raw, sizeof f);
      st = CT(ct_resize_format_(t, n, sz, f));
      if (st == CT_OK && (raw == 1 || raw == 2)) REQUIRE(CT(ct_is_contiguous_format(t, f)) == 1);
      break;
    }
    case 16: {
      ct_storage* s = p.s[in.ConsumeIntegralInRange<int>(0, kStorageSlots - 1)];
      const int r = CT(ct_storage_is_resizable(s));
      if (r < 0) expect_error_recorded();
      if (s && in.ConsumeIntegralInRange<int>(0, 7) == 0) {
        REQUIRE(CT(ct_storage_disable_resize(s)) == CT_OK);
        REQUIRE(CT(ct_storage_is_resizable(s)) == 0);
      }
      return;
    }
  }
  status_ok_or_error(st);
  // A failed op changes nothing, not even the version (the strong guarantee of the header).
  if (st != CT_OK && t) REQUIRE(CT(ct_tensor_version(t)) == v0);
  if (st == CT_OK && rebinds) p.views_rebound = true;
}

// view(dtype), T / mT and the copies of views (torch's *_copy ops).  A dtype view shares t's
// storage and covers exactly t's bytes, and is no view (no base); a copy is contiguous on a
// new storage, with the same elements as its view (equal counts).
void op_dtype_views(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const int a = hostile_int(in), b = hostile_int(in);
  const ct_dtype dt = hostile_dtype(in);
  ct_tensor* r = nullptr;
  bool copy = true;
  const int k = pick_case(in, 12, "dtype_views");  // cases 0..12
  if (k >= 3 && !small(t)) return;  // the copies copy
  switch (k) {
    case 0:
      copy = false;
      r = CT(ct_view_dtype(t, dt));
      if (r) {
        REQUIRE(CT(ct_shares_storage(r, t)) == 1 && CT(ct_tensor_is_view(r)) == 0);
        // the same bytes: same first address, same byte count
        const void* rd = CT(ct_tensor_data(r));
        const void* td = CT(ct_tensor_data(t));
        if (CT(ct_tensor_numel(t)) > 0) REQUIRE(rd == td);
        const int64_t rn = CT(ct_tensor_numel(r)), ri = CT(ct_dtype_itemsize(dt));
        const int64_t tn = CT(ct_tensor_numel(t)), ti = CT(ct_dtype_itemsize(ct_tensor_dtype(t)));
        REQUIRE(rn * ri == tn * ti, rn, tn);
      }
      break;
    case 1: copy = false; r = CT(ct_matrix_transpose(t)); break;
    case 2: copy = false; r = CT(ct_numpy_T(t)); break;
    case 3: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> shape = hostile_list(in, n);
      r = CT(ct_view_copy(t, n, in.ConsumeBool() ? shape.data() : nullptr));
      break;
    }
    case 4: r = CT(ct_view_dtype_copy(t, dt)); break;
    case 5: r = CT(ct_transpose_copy(t, a, b)); break;
    case 6: r = CT(ct_narrow_copy(t, a, hostile_i64(in), hostile_i64(in))); break;
    case 7: r = CT(ct_slice_copy(t, a, hostile_i64(in), hostile_i64(in), hostile_i64(in))); break;
    case 8:
      if (in.ConsumeBool()) {
        r = CT(ct_diagonal_copy(t, hostile_i64(in), a, b));
      } else {
        const int dims[2] = {a, b};
        r = CT(ct_squeeze_dims_copy(t, in.ConsumeIntegralInRange<int>(-1, 2), dims));
      }
      break;
    case 9: r = CT(ct_unfold_copy(t, a, hostile_i64(in), hostile_i64(in))); break;
    case 10: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> sizes = hostile_list(in, n);
      if (!small_output(t, kComputeElems)) return;
      ct_tensor* v = CT(ct_expand(t, n, sizes.data()));  // the copy is as large as the view
      if (!v) {
        expect_error_recorded();
        return;
      }
      const bool fits = small(v);
      CT(ct_tensor_release(v));
      if (!fits) return;
      r = CT(ct_expand_copy(t, n, sizes.data()));
      break;
    }
    case 11: r = in.ConsumeBool() ? CT(ct_detach_copy(t)) : CT(ct_alias_copy(t)); break;
    case 12: {
      ct_tensor* out[4] = {};
      const int64_t n = in.ConsumeBool() ? CT(ct_unbind_copy(t, a, out, 4)) : CT(ct_split_copy(t, hostile_i64(in), a, out, 4));
      if (n < 0) {
        expect_error_recorded();
        for (ct_tensor* x : out) REQUIRE(x == nullptr);
        return;
      }
      for (int64_t i = 0; i < n && i < 4; ++i) {
        REQUIRE(out[i] && CT(ct_tensor_is_view(out[i])) == 0 && CT(ct_tensor_is_contiguous(out[i])) == 1);
        REQUIRE(CT(ct_shares_storage(out[i], t)) != 1);
        p.put(out[i]);
      }
      return;
    }
  }
  if (r && copy) {
    REQUIRE(CT(ct_tensor_is_view(r)) == 0 && CT(ct_tensor_is_contiguous(r)) == 1);
    REQUIRE(CT(ct_shares_storage(r, t)) != 1 && CT(ct_tensor_version(r)) == 0);
  }
  if (!t) REQUIRE(r == nullptr);
  take(p, r);
}

// ct_var / ct_std / ct_var_mean / ct_std_mean / ct_vector_norm: hostile dims, corrections
// (nan, inf), orders and dtypes (-1: t's own); *mean is written only on success; results
// keep t's dtype unless a dtype was asked for.
void op_std_norm(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* a = p.pick(in);
  if (!small_output(a, 4096)) return;
  const int n = hostile_ndim(in);
  std::vector<int> dims(size_t(n < 0 ? 0 : n > kArgArray ? kArgArray : n));
  for (auto& x : dims) x = hostile_int(in);
  const int* d = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : dims.data();
  const int keep = in.ConsumeIntegral<int>();
  const double x = hostile_double(in);  // the correction or the order
  ct_tensor* r = nullptr;
  int dt = -1;
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: r = CT((in.ConsumeBool() ? ct_var : ct_std)(a, n, d, x, keep)); break;
    case 1: {
      ct_tensor* m = reinterpret_cast<ct_tensor*>(&p);  // a sentinel it must not touch on failure
      ct_tensor** want = in.ConsumeBool() ? &m : nullptr;
      r = CT((in.ConsumeBool() ? ct_var_mean : ct_std_mean)(a, n, d, x, keep, want));
      if (!r) REQUIRE(m == reinterpret_cast<ct_tensor*>(&p));
      if (r && want) {
        REQUIRE(m != nullptr);
        const int64_t nm = CT(ct_tensor_numel(m)), nr = CT(ct_tensor_numel(r));
        REQUIRE(nm == nr, nm, nr);
        const ct_dtype dm = CT(ct_tensor_dtype(m)), da = CT(ct_tensor_dtype(a));
        REQUIRE(dm == da, dm, da);  // the mean keeps a's dtype (complex too); the spread: below
        p.put(m);
      }
      break;
    }
    default: {
      if (in.ConsumeBool()) {
        const ct_dtype want = hostile_dtype(in);
        std::memcpy(&dt, &want, sizeof dt);
      }
      r = CT(ct_vector_norm(a, x, n, d, keep, dt));
      break;
    }
  }
  if (r && dt == -1) {
    // a's dtype, or for a complex a its real counterpart (var, std and norms of complex values
    // are real, as torch's)
    const ct_dtype dr = CT(ct_tensor_dtype(r)), da = CT(ct_tensor_dtype(a));
    const ct_dtype want = da == CT_COMPLEX64 ? CT_FLOAT32 : da == CT_COMPLEX128 ? CT_FLOAT64 : da;
    REQUIRE(dr == want, dr, da);
  }
  if (r) REQUIRE(CT(ct_shares_storage(r, a)) == 0);
  take(p, r);
}

// Memory formats: hostile format values (outside the enum too), the format factories over
// hostile shapes and strides, and the copies that take a format.  What each result must be:
// laid out in the format asked for (a contiguous_format / channels-last copy is contiguous in
// it), a *_like result of t's sizes, never a view.
ct_memory_format hostile_format(FuzzedDataProvider& in) {
  int raw;
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: raw = in.ConsumeIntegral<int>(); break;
    case 1: raw = -1; break;
    case 2: raw = 4; break;
    default: raw = in.ConsumeIntegralInRange<int>(0, 3); break;
  }
  ct_memory_format f;
  std::memcpy(&f, &raw, sizeof f);
  return f;
}

void op_memory_format(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const ct_memory_format f = hostile_format(in);
  int raw;
  std::memcpy(&raw, &f, sizeof raw);
  const bool exact_format = raw >= 0 && raw <= 2;  // a format a layout can be checked against
  ct_tensor* r = nullptr;
  const int k = pick_case(in, 7, "memory_format");
  switch (k) {
    case 0: {
      const int c = CT(ct_is_contiguous_format(t, f));
      if (c < 0) expect_error_recorded();
      const int s = CT(ct_suggest_memory_format(t));
      if (s < 0) expect_error_recorded();
      else REQUIRE(s <= 2, s);
      const char* name = CT(ct_memory_format_name(f));
      if (!name) expect_error_recorded();
      return;
    }
    case 1: {
      const int ndim = hostile_ndim(in);
      const ct_dtype dt = hostile_dtype(in);
      std::vector<int64_t> sizes = hostile_list(in, ndim);
      bound_shape(sizes, ndim, itemsize_of(dtype_raw(dt)));
      const ct_dtype safe = dtype_raw(dt) == CT_BOOL ? CT_UINT8 : dt;  // uninitialized bytes are not bools
      r = CT(ct_empty_format(ndim, sizes.data(), safe, f));
      // (an empty tensor whose other sizes multiply past int64 has saturated strides)
      if (r && exact_format && extent_or_big(r) < INT64_MAX) REQUIRE(CT(ct_is_contiguous_format(r, f)) == 1);
      break;
    }
    case 2: {
      const int ndim = in.ConsumeIntegralInRange<int>(-1, 4);
      std::vector<int64_t> sizes = hostile_list(in, ndim);
      std::vector<int64_t> strides = hostile_list(in, ndim);
      // Bound the storage the strides reach, as the other factories bound their elements.
      int64_t reach = 1;
      for (int d = 0; d < ndim && d < int(sizes.size()); ++d) {
        if (sizes[size_t(d)] < 0 || sizes[size_t(d)] > 64) sizes[size_t(d)] = in.ConsumeIntegralInRange<int64_t>(0, 4);
        if (strides[size_t(d)] > 64) strides[size_t(d)] = in.ConsumeIntegralInRange<int64_t>(0, 64);
        reach += sizes[size_t(d)] > 0 ? (sizes[size_t(d)] - 1) * std::max<int64_t>(strides[size_t(d)], 0) : 0;
      }
      if (reach > kComputeElems * 4) return;
      r = CT(ct_empty_strided(ndim, sizes.data(), strides.data(), CT_UINT8));
      break;
    }
    case 3:
      if (!small(t)) return;
      r = CT(ct_contiguous_format(t, f));
      if (r && exact_format) REQUIRE(CT(ct_is_contiguous_format(r, f)) == 1);
      break;
    case 4:
      if (!small(t)) return;
      r = CT(ct_clone_format(t, f));
      if (r && exact_format) REQUIRE(CT(ct_is_contiguous_format(r, f)) == 1);
      if (r) REQUIRE(CT(ct_shares_storage(r, t)) == 0);
      break;
    case 5:
      if (!small(t)) return;
      r = CT(ct_to_format(t, hostile_dtype(in), f, in.ConsumeBool()));
      break;
    case 6:
    case 7: {
      if (!small(t)) return;
      const ct_dtype dt = hostile_dtype(in);
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: r = CT(ct_empty_like(t, dtype_raw(dt) == CT_BOOL ? CT_UINT8 : dt, f)); break;
        case 1: r = CT(ct_zeros_like(t, dt, f)); break;
        case 2: r = CT(ct_ones_like(t, dt, f)); break;
        default: r = CT(ct_full_like(t, hostile_double(in), dt, f)); break;
      }
      if (r) {
        const int nd = CT(ct_tensor_ndim(t));
        const int64_t numel = CT(ct_tensor_numel(t));
        REQUIRE(CT(ct_tensor_ndim(r)) == nd);
        REQUIRE(CT(ct_tensor_numel(r)) == numel);
        REQUIRE(CT(ct_tensor_is_view(r)) == 0);
        if (exact_format) REQUIRE(CT(ct_is_contiguous_format(r, f)) == 1);
      }
      break;
    }
  }
  if (k >= 3 && !t) REQUIRE(r == nullptr);  // cases 3-7 take t
  take(p, r);
}

// An index argument for the indexed ops: a pool tensor (any dtype and layout; false, skip the
// op, when it is too large), or small int64 values, negative and out of range included, in a
// new tensor that *made owns (the caller releases it).
bool index_arg(FuzzedDataProvider& in, Pool& p, ct_tensor** index, ct_tensor** made) {
  if (in.ConsumeBool()) {
    *index = p.pick(in);
    return small(*index);
  }
  const int nd = in.ConsumeIntegralInRange<int>(0, 3);
  std::vector<int64_t> sizes(static_cast<size_t>(nd));
  int64_t n = 1;
  for (auto& s : sizes) n *= (s = in.ConsumeIntegralInRange<int64_t>(0, 4));
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = in.ConsumeIntegralInRange<int64_t>(-3, 6);
  *made = CT(ct_from_data(v.data(), nd, sizes.data(), CT_INT64));
  *index = *made;
  return true;
}

// ct_repeat, ct_tile, ct_flip, ct_fliplr, ct_flipud, ct_roll: hostile counts, dims and
// shifts.  A result is always a new storage.  Repeats whose result would have between 2^16
// and 2^56 elements are left out: they may allocate (or fail to) slowly, and prove nothing
// the small and the impossible ones do not.
void op_rearrange(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  if (!small(t)) return;
  ct_tensor* r = nullptr;
  switch (pick_case(in, 5, "rearrange")) {
    case 0:
    case 1: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> reps = hostile_list(in, n);
      if (t && n >= 0 && n <= CT_MAX_DIMS) {
        const int nd = int(CT(ct_tensor_ndim(t)));
        const bool tile = in.ConsumeBool();
        __int128 out = 1;
        bool negative = false, zero = false;
        const int m = std::max(n, nd);
        for (int i = 0; i < m; ++i) {
          const int ri = i - (m - n), si = i - (m - nd);
          const __int128 rv = ri >= 0 ? reps[size_t(ri)] : 1, sv = si >= 0 ? CT(ct_tensor_size(t, si)) : 1;
          const __int128 o = rv * sv;
          negative = negative || o < 0;
          zero = zero || o == 0;
          // saturate at 2^60 (past the range tested below): no product overflows __int128
          if (o > 0 && out < (__int128(1) << 60)) out *= std::min(o, __int128(1) << 60);
        }
        if (!negative && !zero && out > (1 << 16) && out < (__int128(1) << 56)) return;
        r = tile ? CT(ct_tile(t, n, reps.data())) : CT(ct_repeat(t, n, reps.data()));
      } else {
        r = CT(ct_repeat(t, n, reps.data()));
      }
      break;
    }
    case 2: {
      const int n = hostile_ndim(in);
      std::vector<int64_t> dims(size_t(std::clamp(n, 0, int(kArgArray))));
      for (auto& d : dims) d = hostile_int(in);
      r = CT(ct_flip(t, n, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : dims.data()));
      break;
    }
    case 3: r = CT(in.ConsumeBool() ? ct_fliplr(t) : ct_flipud(t)); break;
    case 4:
    case 5: {
      const int ns = in.ConsumeIntegralInRange<int>(0, 3) == 0 ? hostile_ndim(in) : in.ConsumeIntegralInRange<int>(0, 3);
      const int nd = in.ConsumeIntegralInRange<int>(0, 3) == 0 ? hostile_ndim(in) : in.ConsumeIntegralInRange<int>(0, 3);
      std::vector<int64_t> shifts = hostile_list(in, ns);
      std::vector<int64_t> dims(size_t(std::clamp(nd, 0, int(kArgArray))));
      for (auto& d : dims) d = hostile_int(in);
      r = CT(ct_roll(t, ns, shifts.data(), nd, dims.data()));
      break;
    }
  }
  if (r && t) REQUIRE(CT(ct_shares_storage(r, t)) == 0);
  if (r && t) REQUIRE(CT(ct_tensor_is_view(r)) == 0);
  take(p, r);
}

// gather, scatter, index_add/copy/fill, take, put, index_put (and their _ forms) on pool
// tensors, with an index from the pool (any dtype and layout) or made of small int64 values,
// negative and out of range included.  Copies never share memory with self.
void op_gather_scatter(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* src = p.pick(in);
  if (!small(t) || !small(src)) return;
  ct_tensor* made = nullptr;
  ct_tensor* index = nullptr;
  if (!index_arg(in, p, &index, &made)) return;
  const int dim = in.ConsumeIntegralInRange<int>(-4, 4);
  const double value = in.ConsumeIntegralInRange<int>(-300, 300) / 4.0;
  static const char* const reduces[4] = {nullptr, "add", "multiply", "mean"};
  const char* reduce = reduces[in.ConsumeIntegralInRange<int>(0, 3)];
  const int acc = in.ConsumeIntegralInRange<int>(0, 1);
  const ct_tensor* list[2] = {index, src};
  const int nlist = in.ConsumeIntegralInRange<int>(0, 2);
  ct_tensor* r = nullptr;
  const int k = pick_case(in, 9, "gather_scatter");
  switch (k) {
    case 0: r = CT(ct_gather(t, dim, index)); break;
    case 1: r = CT(ct_scatter(t, dim, index, src, reduce)); break;
    case 2: r = CT(ct_scatter_value(t, dim, index, value, reduce)); break;
    case 3: r = CT(ct_scatter_add(t, dim, index, src)); break;
    case 4: r = CT(ct_index_add(t, dim, index, src, value)); break;
    case 5: r = CT(acc ? ct_index_copy(t, dim, index, src) : ct_index_fill(t, dim, index, value)); break;
    case 6: r = CT(acc ? ct_take(t, index) : ct_index_fill_tensor(t, dim, index, src)); break;
    case 7: r = CT(in.ConsumeBool() ? ct_put(t, index, src, acc) : ct_index_put(t, nlist, list, src, acc)); break;
    default: {  // the in-place forms, on self = t
      ct_status st = CT_OK;
      switch (in.ConsumeIntegralInRange<int>(0, 8)) {
        case 0: st = CT(ct_scatter_(t, dim, index, src, reduce)); break;
        case 1: st = CT(ct_scatter_value_(t, dim, index, value, reduce)); break;
        case 2: st = CT(ct_scatter_add_(t, dim, index, src)); break;
        case 3: st = CT(ct_index_add_(t, dim, index, src, value)); break;
        case 4: st = CT(ct_index_copy_(t, dim, index, src)); break;
        case 5: st = CT(ct_index_fill_(t, dim, index, value)); break;
        case 6: st = CT(ct_index_fill_tensor_(t, dim, index, src)); break;
        case 7: st = CT(ct_put_(t, index, src, acc)); break;
        default: st = CT(ct_index_put_(t, nlist, list, src, acc)); break;
      }
      status_ok_or_error(st);
      CT(ct_tensor_release(made));
      return;
    }
  }
  if (r && t) REQUIRE(CT(ct_shares_storage(r, t)) == 0);
  if (r) REQUIRE(CT(ct_tensor_is_view(r)) == 0);
  take(p, r);
  CT(ct_tensor_release(made));
}

// masked_select / masked_fill / masked_scatter, nonzero, argwhere, rot90, repeat_interleave.
// Inputs are pool tensors; masks are pool tensors converted to bool most of the time (a raw
// one tests the dtype errors).  Every result is a new storage; in-place forms keep t's.
void op_masks(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* other = p.pick(in);
  if (!small(t) || !small(other)) return;
  ct_tensor* mask = nullptr;
  const bool raw_mask = in.ConsumeIntegralInRange<int>(0, 7) == 0;
  if (other && !raw_mask) {
    mask = CT(ct_to(other, CT_BOOL));
    if (!mask) return expect_error_recorded();
  } else {
    mask = other ? CT(ct_tensor_retain(other)) : nullptr;
  }
  ct_tensor* r = nullptr;
  bool in_place = false, view_of_own_clone = false;
  ct_status st = CT_OK;
  const uint64_t id_before = t ? CT(ct_tensor_storage_id(t)) : 0;
  switch (pick_case(in, 7, "masks")) {
    case 0: r = CT(ct_masked_select(t, mask)); break;
    case 1: {
      const double v = in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeFloatingPoint<double>()
                                                                  : double(in.ConsumeIntegralInRange<int>(-2, 300));
      if ((in_place = in.ConsumeBool())) st = CT(ct_masked_fill_(t, mask, v));
      else r = CT(ct_masked_fill(t, mask, v));
      break;
    }
    case 2: {
      ct_tensor* v = p.pick(in);
      if ((in_place = in.ConsumeBool())) st = CT(ct_masked_fill_tensor_(t, mask, v));
      else r = CT(ct_masked_fill_tensor(t, mask, v));
      break;
    }
    case 3: {
      ct_tensor* src = p.pick(in);
      if ((in_place = in.ConsumeBool())) st = CT(ct_masked_scatter_(t, mask, src));
      else r = CT(ct_masked_scatter(t, mask, src));
      break;
    }
    case 4: r = CT(in.ConsumeBool() ? ct_nonzero(t) : ct_argwhere(t)); break;
    case 5: {
      const int n = in.ConsumeIntegralInRange<int>(0, 5) == 0 ? hostile_ndim(in) : 2;
      std::vector<int64_t> dims = hostile_list(in, n);
      for (auto& d : dims) d = in.ConsumeBool() ? d : in.ConsumeIntegralInRange<int64_t>(-4, 4);
      r = CT(ct_rot90(t, in.ConsumeIntegral<int64_t>(), n, dims.data()));
      break;
    }
    case 6: {
      const int64_t reps = in.ConsumeIntegralInRange<int64_t>(-2, 4);
      const int64_t dim = in.ConsumeIntegralInRange<int64_t>(-5, 5);
      const int64_t out_size = in.ConsumeIntegralInRange<int64_t>(-2, 64);
      r = CT(ct_repeat_interleave(t, reps, in.ConsumeBool() ? &dim : nullptr, in.ConsumeBool() ? &out_size : nullptr));
      view_of_own_clone = true;  // as torch: a flatten view of a clone it made
      break;
    }
    case 7: {
      // counts from the input, bounded so the result stays small; a raw pool tensor otherwise
      const int64_t n = in.ConsumeIntegralInRange<int64_t>(0, 6);
      std::vector<int64_t> counts(static_cast<size_t>(n), 0);
      for (auto& c : counts) c = in.ConsumeIntegralInRange<int64_t>(-1, 3);
      // a pool tensor as counts only when it cannot be int32/int64 (its values are not
      // bounded): the dtype error path
      const bool raw = in.ConsumeIntegralInRange<int>(0, 4) == 0 && other &&
                       CT(ct_tensor_dtype(other)) != CT_INT64 && CT(ct_tensor_dtype(other)) != CT_INT32;
      ct_tensor* rep = raw ? CT(ct_tensor_retain(other)) : CT(ct_from_data(counts.data(), 1, &n, CT_INT64));
      const int64_t dim = in.ConsumeIntegralInRange<int64_t>(-3, 3);
      const int64_t out_size = in.ConsumeIntegralInRange<int64_t>(-1, 20);
      if (in.ConsumeBool()) {
        r = CT(ct_repeat_interleave_repeats(rep, in.ConsumeBool() ? &out_size : nullptr));
      } else {
        r = CT(ct_repeat_interleave_tensor(t, rep, in.ConsumeBool() ? &dim : nullptr,
                                           in.ConsumeBool() ? &out_size : nullptr));
      }
      ct_tensor_release(rep);
      break;
    }
  }
  ct_tensor_release(mask);
  if (in_place) {
    if (st != CT_OK) expect_error_recorded();
    else REQUIRE(CT(ct_tensor_storage_id(t)) == id_before);
    return;
  }
  if (r && t) REQUIRE(CT(ct_shares_storage(r, t)) == 0);
  if (r && !view_of_own_clone) REQUIRE(CT(ct_tensor_is_view(r)) == 0);
  take(p, r);
}

// Scans, sort, topk, clamp (ct_cumsum ... ct_clamp_max_tensor_): hostile dims, dtypes, k and
// bounds.  What must hold: a result is never a view and never shares t's storage; sort and
// topk hand out indices only on success (a sentinel stays put otherwise), with the values'
// element count; an in-place form keeps t's storage and geometry.
// The complex views and ct_item_complex: a view shares t's storage and is a view; the parts
// of a complex tensor are real tensors of half its item size.
void op_complex(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* r = nullptr;
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: r = CT(ct_view_as_real(t)); break;
    case 1: r = CT(ct_view_as_complex(t)); break;
    case 2: r = CT(ct_real(t)); break;
    case 3: r = CT(ct_imag(t)); break;
    default: {
      double re = 0, im = 0;
      status_ok_or_error(CT(ct_item_complex(t, in.ConsumeBool() ? &re : nullptr, &im)));
      return;
    }
  }
  if (r && r != t) {
    REQUIRE(CT(ct_shares_storage(r, t)) == 1 && CT(ct_tensor_is_view(r)) == 1);
  }
  take(p, r);
}

// The conjugate and negative bits: views that carry them go into the pool, so that every
// other op meets them (values are resolved at the C boundary; in-place ops write back).
void op_conj_bits(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* r = nullptr;
  bool view = false, resolve = false;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: r = CT(ct_conj(t)); view = true; break;
    case 1: r = CT(ct_neg_view(t)); view = true; break;
    case 2: r = CT(ct_adjoint(t)); view = true; break;
    case 3: r = CT(ct_resolve_conj(t)); resolve = true; break;
    case 4: r = CT(ct_resolve_neg(t)); resolve = true; break;
    case 5: r = CT(ct_conj_physical(t)); break;
    case 6: {
      if (t && !small_output(t, 4096)) return;
      const int64_t v0 = t ? CT(ct_tensor_version(t)) : -1;
      if (CT(ct_conj_physical_(t)) != CT_OK) {
        expect_error_recorded();
        return;
      }
      const int64_t v1 = CT(ct_tensor_version(t));
      REQUIRE(v1 == v0 + 1, v0, v1);
      return;
    }
    default: {
      const int c = CT(ct_tensor_is_conj(t)), n = CT(ct_tensor_is_neg(t));
      if (!t) {
        REQUIRE(c == -1 && n == -1);
        expect_error_recorded();
      } else if (c == 1) {
        const ct_dtype d = CT(ct_tensor_dtype(t));
        REQUIRE(d == CT_COMPLEX64 || d == CT_COMPLEX128, d);
      }
      return;
    }
  }
  if (!r) {
    expect_error_recorded();
    take(p, r);
    return;
  }
  if (view && r != t) REQUIRE(CT(ct_shares_storage(r, t)) == 1 && CT(ct_tensor_is_view(r)) == 1);
  if (resolve) {
    REQUIRE(CT(ct_tensor_is_conj(r)) == 0 || r == t);
    if (r != t) REQUIRE(CT(ct_tensor_is_conj(r)) == 0 && CT(ct_tensor_is_neg(r)) == 0);
  }
  take(p, r);
}

void op_scan_sort(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* a = p.pick(in);
  if (!small_output(a, 4096)) return;
  const int dim = hostile_int(in);
  ct_tensor* r = nullptr;
  ct_tensor* sentinel = reinterpret_cast<ct_tensor*>(&p);  // must not be touched on failure
  ct_tensor* idx = sentinel;
  ct_status st = CT_OK;
  bool in_place = false;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: case 1: {
      int dt = -1;
      if (in.ConsumeBool()) {
        const ct_dtype want = hostile_dtype(in);
        std::memcpy(&dt, &want, sizeof dt);
      }
      const bool prod = in.ConsumeBool();
      if (in.ConsumeBool()) {
        in_place = true;
        st = CT((prod ? ct_cumprod_ : ct_cumsum_)(a, dim, dt));
      } else {
        r = CT((prod ? ct_cumprod : ct_cumsum)(a, dim, dt));
      }
      break;
    }
    case 2: {
      ct_tensor** want = in.ConsumeBool() ? &idx : nullptr;
      r = CT(ct_sort(a, dim, in.ConsumeIntegral<int>(), in.ConsumeIntegral<int>(), want));
      break;
    }
    case 3:
      r = CT(ct_argsort(a, dim, in.ConsumeIntegral<int>(), in.ConsumeIntegral<int>()));
      break;
    case 4: {
      const int64_t k = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-1, 5) : int64_t(hostile_int(in));
      ct_tensor** want = in.ConsumeBool() ? &idx : nullptr;
      r = CT(ct_topk(a, k, dim, in.ConsumeIntegral<int>(), in.ConsumeIntegral<int>(), want));
      break;
    }
    case 5: {
      const int has_lo = in.ConsumeBool(), has_hi = in.ConsumeBool(), integral = in.ConsumeBool();
      const double lo = hostile_double(in), hi = hostile_double(in);
      if (in.ConsumeBool()) {
        in_place = true;
        st = CT(ct_clamp_(a, has_lo, lo, has_hi, hi, integral));
      } else {
        r = CT(ct_clamp(a, has_lo, lo, has_hi, hi, integral));
      }
      break;
    }
    default: {
      ct_tensor* lo = in.ConsumeBool() ? p.pick(in) : nullptr;
      ct_tensor* hi = in.ConsumeBool() ? p.pick(in) : nullptr;
      if ((lo && !small_output(lo, 4096)) || (hi && !small_output(hi, 4096))) return;
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: r = CT(ct_clamp_tensor(a, lo, hi)); break;
        case 1: in_place = true; st = CT(ct_clamp_tensor_(a, lo, hi)); break;
        case 2: r = CT((in.ConsumeBool() ? ct_clamp_min_tensor : ct_clamp_max_tensor)(a, lo)); break;
        default: in_place = true; st = CT((in.ConsumeBool() ? ct_clamp_min_tensor_ : ct_clamp_max_tensor_)(a, hi)); break;
      }
      break;
    }
  }
  if (in_place) {
    if (st != CT_OK) expect_error_recorded();
    return;
  }
  if (!r) {
    expect_error_recorded();
    REQUIRE(idx == sentinel);
    return;
  }
  REQUIRE(CT(ct_tensor_is_view(r)) == 0);
  REQUIRE(CT(ct_shares_storage(r, a)) == 0);
  if (idx != sentinel) {
    REQUIRE(idx != nullptr);
    const int64_t ni = CT(ct_tensor_numel(idx)), nr = CT(ct_tensor_numel(r));
    REQUIRE(ni == nr, ni, nr);
    const ct_dtype di = CT(ct_tensor_dtype(idx));
    REQUIRE(di == CT_INT64, di);
    p.put(idx);
  }
  take(p, r);
}

// out= variants (ct_*_out, ct_write_out): an out picked from the pool, possibly a view, an
// input, expanded or foreign.  On success out holds the result's shape and its version went up
// by exactly one; on failure an error is recorded.  Only outs whose offset keeps a resize
// within the budget are used.
void op_out_args(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* out = p.pick(in);
  ct_tensor* a = p.pick(in);
  ct_tensor* b = p.pick(in);
  if (out && !small_output(out, 4096)) return;
  if ((a && !small_output(a, 4096)) || (b && !small_output(b, 4096))) return;
  const int64_t off = out ? CT(ct_tensor_offset(out)) : 0;
  if (off < 0 || off > kBudgetBytes / 16) return;
  const int64_t v0 = out ? CT(ct_tensor_version(out)) : -1;
  const int dim = hostile_int(in);
  const int keepdim = in.ConsumeBool();
  const double s = hostile_double(in);
  ct_status st = CT_OK;
  bool two_outs = false;
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: {
      static ct_status (*const binary[])(ct_tensor*, const ct_tensor*, const ct_tensor*) = {
          ct_add_out, ct_sub_out, ct_mul_out, ct_div_out, ct_pow_out, ct_floor_divide_out, ct_remainder_out,
          ct_fmod_out, ct_maximum_out, ct_minimum_out, ct_eq_out, ct_ne_out, ct_lt_out, ct_le_out, ct_gt_out,
          ct_ge_out, ct_matmul_out};
      st = CT(binary[in.ConsumeIntegralInRange<size_t>(0, std::size(binary) - 1)](out, a, b));
      break;
    }
    case 1: {
      static ct_status (*const scalar[])(ct_tensor*, const ct_tensor*, double) = {
          ct_add_scalar_out, ct_sub_scalar_out, ct_mul_scalar_out, ct_div_scalar_out, ct_pow_scalar_out,
          ct_eq_scalar_out, ct_ne_scalar_out, ct_lt_scalar_out, ct_le_scalar_out, ct_gt_scalar_out, ct_ge_scalar_out};
      st = CT(scalar[in.ConsumeIntegralInRange<size_t>(0, std::size(scalar) - 1)](out, a, s));
      break;
    }
    case 2: {
      static ct_status (*const unary[])(ct_tensor*, const ct_tensor*) = {
          ct_neg_out, ct_abs_out, ct_exp_out, ct_log_out, ct_sqrt_out, ct_sin_out, ct_cos_out, ct_tanh_out,
          ct_sigmoid_out, ct_reciprocal_out, ct_sgn_out, ct_sign_out, ct_angle_out};
      st = CT(unary[in.ConsumeIntegralInRange<size_t>(0, std::size(unary) - 1)](out, a));
      break;
    }
    case 3: {
      static ct_status (*const reduce[])(ct_tensor*, const ct_tensor*, int, const int*, int) = {
          ct_sum_out, ct_prod_out, ct_mean_out, ct_amax_out, ct_amin_out};
      const int dims[2] = {dim, hostile_int(in)};
      st = CT(reduce[in.ConsumeIntegralInRange<size_t>(0, std::size(reduce) - 1)](out, a, in.ConsumeIntegralInRange<int>(0, 2), dims, keepdim));
      break;
    }
    case 4: {
      static ct_status (*const by_dim[])(ct_tensor*, const ct_tensor*, int, int) = {ct_argmax_out, ct_argmin_out};
      st = CT(by_dim[in.ConsumeBool()](out, a, dim, keepdim));
      break;
    }
    case 5:  // two outs: when b shares out's version counter both writes count
      if (!b) return;
      two_outs = true;
      st = CT((in.ConsumeBool() ? ct_max_dim_out : ct_min_dim_out)(out, b, a, dim, keepdim));
      break;
    case 6:
      st = CT((in.ConsumeBool() ? ct_cumsum_out : ct_cumprod_out)(out, a, dim));
      break;
    case 7: {
      const ct_tensor* list[3] = {a, b, out};
      const int n = in.ConsumeIntegralInRange<int>(0, 3);
      st = CT((in.ConsumeBool() ? ct_cat_out : ct_stack_out)(out, n, list, dim));
      break;
    }
    case 8:
      st = CT((in.ConsumeBool() ? ct_index_select_out : ct_gather_out)(out, a, dim, b));
      break;
    case 9: {
      const ct_tensor* cond = p.pick(in);
      if (cond && !small_output(cond, 4096)) return;
      if (in.ConsumeBool()) st = CT(ct_where_out(out, cond, a, b));
      else st = CT(ct_clamp_out(out, a, in.ConsumeBool(), s, in.ConsumeBool(), hostile_double(in), in.ConsumeBool()));
      break;
    }
    case 10: {
      const int n = in.ConsumeIntegralInRange<int>(0, 3);
      std::vector<int64_t> sizes = hostile_list(in, n);
      bound_shape(sizes, n, 8);
      switch (in.ConsumeIntegralInRange<int>(0, 8)) {
        case 0: st = CT(ct_zeros_out(out, n, sizes.data())); break;
        case 1: st = CT(ct_ones_out(out, n, sizes.data())); break;
        case 2: st = CT(ct_full_out(out, n, sizes.data(), s)); break;
        case 3: st = CT(ct_rand_out(out, n, sizes.data())); break;
        case 4: st = CT(ct_randn_out(out, n, sizes.data())); break;
        case 5: st = CT(ct_randint_out(out, in.ConsumeIntegralInRange<int64_t>(-5, 5), in.ConsumeIntegralInRange<int64_t>(-5, 10), n, sizes.data())); break;
        case 6: st = CT(ct_arange_out(out, in.ConsumeIntegralInRange<int>(-8, 8), in.ConsumeIntegralInRange<int>(-8, 8), in.ConsumeIntegralInRange<int>(-3, 3))); break;
        case 7: st = CT(ct_linspace_out(out, s, hostile_double(in), in.ConsumeIntegralInRange<int64_t>(-1, 64))); break;
        default: st = CT(ct_eye_out(out, in.ConsumeIntegralInRange<int64_t>(-1, 16), in.ConsumeIntegralInRange<int64_t>(-1, 16))); break;
      }
      break;
    }
    default: {
      ct_tensor* r = a ? CT(ct_clone(a)) : nullptr;
      if (a && !r) {
        expect_error_recorded();
        return;
      }
      const ct_tensor* ins[2] = {a, b};
      int warn = -1;
      const int raw = in.ConsumeIntegralInRange<int>(-1, 7);
      ct_out_rule rule;
      std::memcpy(&rule, &raw, sizeof rule);
      st = CT(ct_write_out(out, r, in.ConsumeIntegralInRange<int>(0, 2), ins, rule, in.ConsumeBool() ? "op" : nullptr, &warn));
      if (st == CT_OK) REQUIRE(warn == 0 || warn == 1, warn);
      ct_tensor_release(r);
      break;
    }
  }
  if (st != CT_OK) {
    expect_error_recorded();
    return;
  }
  REQUIRE(out != nullptr);
  const int64_t v1 = CT(ct_tensor_version(out));
  REQUIRE(v1 == v0 + 1 || (two_outs && v1 == v0 + 2), v0, v1);
}

void op_globals(FuzzedDataProvider& in) {
  const int raw = in.ConsumeIntegral<int>();
  ct_status st;
  std::memcpy(&st, &raw, sizeof st);
  REQUIRE(CT(ct_status_name(st)) != nullptr);
  ct_dtype d;
  std::memcpy(&d, &raw, sizeof d);
  const char* name = CT(ct_dtype_name(d));
  REQUIRE((name != nullptr) == valid_dtype(raw), raw);
  if (!name) expect_error_recorded();
  const int64_t item = CT(ct_dtype_itemsize(d));
  REQUIRE((item > 0) == valid_dtype(raw), raw);
  CT(ct_clear_error());
  REQUIRE(CT(ct_last_status()) == CT_OK);
  REQUIRE(CT(ct_last_error())[0] == '\0');
}

// Process-wide defaults (ct_set_default_dtype, ct_set_print_option): raw dtypes and options,
// hostile values, then a repr and a float-producing op under them; everything is restored
// before returning, so that one input's outcome never depends on the inputs run before it.
void op_defaults(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  const ct_dtype saved_dtype = ct_get_default_dtype();
  const int raw_dtype = in.ConsumeIntegralInRange<int>(-2, 11);
  ct_dtype d;
  std::memcpy(&d, &raw_dtype, sizeof d);
  const ct_status ds = CT(ct_set_default_dtype(d));
  const bool floating = raw_dtype >= CT_FLOAT16 && raw_dtype <= CT_FLOAT64;
  REQUIRE((ds == CT_OK) == floating, raw_dtype);
  if (ds != CT_OK) expect_error_recorded();
  REQUIRE(dtype_raw(CT(ct_get_default_dtype())) == (floating ? raw_dtype : dtype_raw(saved_dtype)), raw_dtype);
  const double values[] = {0, 1, 2, 3, 4, 5, 80, 64, 65, -1, -2, 0.5, 1e300, -1e300, INFINITY, -INFINITY, NAN};
  for (int k = in.ConsumeIntegralInRange<int>(0, 3); k > 0; --k) {
    const int raw_opt = in.ConsumeIntegralInRange<int>(-1, 6);
    ct_print_option opt;
    std::memcpy(&opt, &raw_opt, sizeof opt);
    const double v = values[in.ConsumeIntegralInRange<size_t>(0, sizeof values / sizeof values[0] - 1)];
    const double before = CT(ct_get_print_option(opt));
    if (CT(ct_set_print_option(opt, v)) != CT_OK) {
      expect_error_recorded();
      const double after = CT(ct_get_print_option(opt));
      REQUIRE((std::isnan(before) && std::isnan(after)) || before == after, raw_opt);  // refused: unchanged
    } else {
      REQUIRE(CT(ct_get_print_option(opt)) == v, raw_opt);
    }
  }
  if (t && small(t, 1 << 12)) {
    const int64_t n = CT(ct_tensor_to_string(t, nullptr, 0));
    if (n < 0) expect_error_recorded();
    ct_tensor* r = CT(ct_mul_scalar(t, 0.5));  // an integer t gives the default dtype
    if (r) {
      const int in_dtype = dtype_raw(CT(ct_tensor_dtype(t)));
      const int out_dtype = dtype_raw(CT(ct_tensor_dtype(r)));
      const int default_dtype = dtype_raw(CT(ct_get_default_dtype()));
      if (in_dtype < CT_FLOAT16 && in_dtype != CT_BOOL) REQUIRE(out_dtype == default_dtype, in_dtype, out_dtype);
    }
    take(p, r);
  }
  REQUIRE(CT(ct_set_default_dtype(saved_dtype)) == CT_OK);
  const double defaults[] = {4, 1000, 3, 80, -1};
  for (int o = 0; o < 5; ++o) {
    ct_print_option opt;
    std::memcpy(&opt, &o, sizeof opt);
    REQUIRE(CT(ct_set_print_option(opt, defaults[o])) == CT_OK, o);
  }
}

void trace_pool(int op, const Pool& p) {
  std::fprintf(stderr, "step op %d: last %s %s (live tensors %lld, grad mode %d)\n", op, ct_status_name(ct_last_status()),
               ct_last_error(), (long long)ct_live_tensors(), ct_is_grad_enabled());
  for (int i = 0; i < kSlots; ++i) {
    if (!p.t[i]) continue;
    const int n = ct_tensor_ndim(p.t[i]);
    std::fprintf(stderr, "  [%d] dtype %d offset %lld sizes/strides", i, dtype_raw(ct_tensor_dtype(p.t[i])),
                 (long long)ct_tensor_offset(p.t[i]));
    for (int d = 0; d < n && d < 8; ++d) {
      std::fprintf(stderr, " %lld/%lld", (long long)ct_tensor_size(p.t[i], d), (long long)ct_tensor_stride(p.t[i], d));
    }
    std::fprintf(stderr, "\n");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* trace = std::getenv("CT_FUZZ_TRACE");
  g_trace = trace != nullptr;
  g_trace_calls = trace != nullptr && std::strcmp(trace, "2") == 0;
  ct_set_num_threads(1);  // one thread: reproducible, and the fuzzer's own timing is honest
  std::atexit(print_figures);
  return 0;
}

// safetensors: headers built from fuzz choices (real dtype codes and unknown ones, shapes,
// offsets right or wrong, metadata, nesting) or raw bytes, parsed from memory; every tensor
// of an accepted file joins the pool (all on one storage); sometimes pool tensors are saved to
// a file and read back mapped.  Refusals must record an error and leak nothing.
void op_safetensors(FuzzedDataProvider& in, Pool& p) {
  std::string bytes;
  if (in.ConsumeBool()) {
    static const char* const kCodes[] = {"BOOL", "U8", "I8", "I16", "I32", "I64", "F16", "BF16",
                                         "F32", "F64", "F8_E4M3", "C64", "X", ""};
    std::string header = "{";
    std::string data;
    const int n = in.ConsumeIntegralInRange<int>(0, 4);
    for (int i = 0; i < n; ++i) {
      const int code = in.ConsumeIntegralInRange<int>(0, 13);
      const int ndim = in.ConsumeIntegralInRange<int>(0, 3);
      int64_t numel = 1;
      std::string shape = "[";
      for (int d = 0; d < ndim; ++d) {
        const int64_t size = in.ConsumeIntegralInRange<int>(0, 5) == 0 ? hostile_i64(in) : in.ConsumeIntegralInRange<int>(0, 4);
        numel = size >= 0 && size < 1000 ? numel * size : 0;
        shape += (d ? "," : "") + std::to_string(size);
      }
      shape += "]";
      static const int kSize[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 1, 8, 1, 1};
      int64_t nbytes = numel * kSize[code];
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) nbytes += in.ConsumeIntegralInRange<int>(-2, 2);
      const int64_t begin = int64_t(data.size()) + (in.ConsumeIntegralInRange<int>(0, 7) == 0 ? -1 : 0);
      if (nbytes > 0 && nbytes < 4096) data.append(size_t(nbytes), char(in.ConsumeIntegral<uint8_t>()));
      header += (i ? ",\"t" : "\"t") + std::to_string(in.ConsumeIntegralInRange<int>(0, 3)) + "\":{\"dtype\":\"" +
                kCodes[code] + "\",\"shape\":" + shape + ",\"data_offsets\":[" + std::to_string(begin) + "," +
                std::to_string(begin + nbytes) + "]}";
    }
    if (in.ConsumeBool()) header += std::string(n ? "," : "") + "\"__metadata__\":{\"k\":\"v\\u00e9\"}";
    header += "}";
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) header = std::string(size_t(in.ConsumeIntegralInRange<int>(1, 200)), '[');
    header.append(size_t(in.ConsumeIntegralInRange<int>(0, 7)), ' ');
    uint64_t len = header.size();
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) len = in.ConsumeIntegral<uint64_t>();
    for (int k = 0; k < 8; ++k) bytes += char((len >> (8 * k)) & 0xFF);
    bytes += header + data;
  } else {
    bytes = in.ConsumeBytesAsString(in.ConsumeIntegralInRange<size_t>(0, 512));
  }
  if (g_trace) std::fprintf(stderr, "  safetensors %zu bytes\n", bytes.size());
  ct_checkpoint* c = CT(ct_safetensors_open_memory(bytes.data(), int64_t(bytes.size())));
  if (!c) {
    expect_error_recorded();
  } else {
    const int64_t n = CT(ct_checkpoint_count(c));
    REQUIRE(n >= 0, n, 0);
    for (int64_t i = 0; i < n; ++i) {
      const char* name = CT(ct_checkpoint_name(c, i));
      REQUIRE(name != nullptr, i, n);
      REQUIRE(CT(ct_checkpoint_find(c, name)) == i, i, n);
      take(p, CT(ct_checkpoint_tensor(c, i)));
    }
    const int64_t m = CT(ct_checkpoint_metadata_count(c));
    for (int64_t i = 0; i < m; ++i) REQUIRE(CT(ct_checkpoint_metadata_value(c, i)) != nullptr, i, m);
    REQUIRE(CT(ct_checkpoint_tensor(c, n)) == nullptr, n, 0);
    expect_error_recorded();
    CT(ct_checkpoint_release(c));
  }
  if (in.ConsumeIntegralInRange<int>(0, 7) != 0) return;
  // Round trip through a file: names t0..t2 of pool tensors, copies allowed or not.
  char path[] = "/tmp/ct_fuzz_safetensors_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return;
  close(fd);
  const int k = in.ConsumeIntegralInRange<int>(0, 3);
  const ct_tensor* ts[3];
  const char* names[3] = {"t0", "t1", "t2"};
  bool all_small = true;
  for (int i = 0; i < k; ++i) {
    ts[i] = p.pick(in);
    all_small = all_small && ts[i] && small(ts[i]);
  }
  if (all_small) {
    const ct_status st = CT(ct_safetensors_save(path, k, names, ts, -1, nullptr, nullptr, in.ConsumeIntegralInRange<int>(0, 1)));
    if (st != CT_OK) {
      expect_error_recorded();
    } else {
      ct_checkpoint* back = CT(ct_safetensors_open(path, CT_FILE_READ_ONLY));
      REQUIRE(back != nullptr, k, 0);
      REQUIRE(CT(ct_checkpoint_count(back)) == k, k, 0);
      for (int i = 0; i < k; ++i) {
        ct_tensor* t = CT(ct_checkpoint_tensor(back, CT(ct_checkpoint_find(back, names[i]))));
        REQUIRE(t != nullptr, i, k);
        REQUIRE(CT(ct_equal(t, ts[i])) == 1 || CT(ct_tensor_dtype(t)) >= CT_FLOAT16, i, k);  // NaN != NaN
        p.put(t);
      }
      CT(ct_checkpoint_release(back));
    }
  }
  unlink(path);
}

// scatter_reduce (all five reductions, both include_self) and its in-place form, ct_index and
// ct_index_put with NULL entries (whole dims) among the index tensors, on pool tensors with an
// index from the pool or made of small int64 values (negative and out of range included).
// Out-of-place results are new storages; a failed call records its error.
void op_scatter_reduce_index(FuzzedDataProvider& in, Pool& p) {
  ct_tensor* t = p.pick(in);
  ct_tensor* src = p.pick(in);
  if (!small(t) || !small(src)) return;
  ct_tensor* made = nullptr;
  ct_tensor* index = nullptr;
  if (!index_arg(in, p, &index, &made)) return;
  const int dim = in.ConsumeIntegralInRange<int>(-4, 4);
  static const char* const reduces[8] = {"sum", "prod", "mean", "amax", "amin", "max", "foo", nullptr};
  const char* reduce = reduces[in.ConsumeIntegralInRange<int>(0, 7)];
  const int include_self = in.ConsumeIntegralInRange<int>(0, 1);
  // up to three index entries, each NULL (a whole dim) or the index
  const ct_tensor* list[3] = {nullptr, nullptr, nullptr};
  const int nlist = in.ConsumeIntegralInRange<int>(0, 3);
  for (int k = 0; k < nlist; ++k) list[k] = in.ConsumeBool() ? index : nullptr;
  ct_tensor* r = nullptr;
  switch (pick_case(in, 3, "scatter_reduce_index")) {
    case 0: r = CT(ct_scatter_reduce(t, dim, index, src, reduce, include_self)); break;
    case 1: r = CT(ct_index(t, nlist, list)); break;
    case 2: r = CT(ct_index_put(t, nlist, list, src, include_self)); break;
    default: {  // in place, on self = t
      if (!inplace_source_may_cycle(src)) {
        status_ok_or_error(in.ConsumeBool() ? CT(ct_scatter_reduce_(t, dim, index, src, reduce, include_self))
                                            : CT(ct_index_put_(t, nlist, list, src, include_self)));
      }
      CT(ct_tensor_release(made));
      return;
    }
  }
  if (r && t) REQUIRE(CT(ct_shares_storage(r, t)) == 0);
  if (r) REQUIRE(CT(ct_tensor_is_view(r)) == 0);
  take(p, r);
  CT(ct_tensor_release(made));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  // Figures every million inputs too, so a long run stopped early still reports them.
  if (++g_inputs % 1000000 == 0) print_figures();
  const int64_t tensors0 = ct_live_tensors(), storages0 = ct_live_storages();
  const int64_t blobs0 = g_blobs_made - g_blobs_freed, dl0 = g_dl_made - g_dl_freed;
  ct_manual_seed(in.ConsumeIntegral<uint16_t>());
  Pool pool;
  for (int step = 0; step < kMaxSteps && in.remaining_bytes() > 0; ++step) {
    ++g_steps;
    const int op = in.ConsumeIntegralInRange<int>(0, 15);
    switch (op) {
      case 0: case 1: op_create(in, pool); break;
      case 2: in.ConsumeBool() ? op_arange(in, pool) : op_linspace_eye(in, pool); break;
      case 3: op_from_blob(in, pool); break;
      case 4: op_as_strided(in, pool); break;
      case 5: case 6: op_view(in, pool); break;
      case 7: op_copy(in, pool); break;
      case 8: op_compute(in, pool); break;
      case 9: op_introspect(in, pool); break;
      case 10: op_lifetime(in, pool); break;
      case 11: op_relations(in, pool); break;
      case 12: op_dlpack(in, pool); break;
      case 13:  // the newer op groups: adding one remaps saved inputs of this group only
        switch (in.ConsumeIntegralInRange<int>(0, 17)) {
          case 0: op_nulls(in, pool); break;
          case 1: op_globals(in); break;
          case 4: op_dtype_views(in, pool); break;
          case 5: op_std_norm(in, pool); break;
          case 6: op_view_family(in, pool); break;
          case 7: op_memory_format(in, pool); break;
          case 8: op_rearrange(in, pool); break;
          case 9: op_gather_scatter(in, pool); break;
          case 10: op_masks(in, pool); break;
          case 11: op_scan_sort(in, pool); break;
          case 12: op_out_args(in, pool); break;
          case 13: op_scatter_reduce_index(in, pool); break;
          case 14: op_defaults(in, pool); break;
          case 15: op_complex(in, pool); break;
          case 16: op_safetensors(in, pool); break;
          case 17: op_conj_bits(in, pool); break;
          default: op_identity(in, pool); break;  // 2 and 3
        }
        break;
      case 14: op_multi_view(in, pool); break;
      case 15: op_autograd(in, pool); break;
    }
    if (g_trace) trace_pool(op, pool);
    check_pool(pool);
  }
  pool.clear();
  CT(ct_set_grad_enabled(1));  // grad mode is per thread: the next input starts as the first
  // Everything released: no tensor, storage or foreign memory outlives its handles.
  REQUIRE(ct_live_tensors() == tensors0, ct_live_tensors(), tensors0);
  REQUIRE(ct_live_storages() == storages0, ct_live_storages(), storages0);
  REQUIRE(g_blobs_made - g_blobs_freed == blobs0, g_blobs_made, g_blobs_freed);
  REQUIRE(g_dl_made - g_dl_freed == dl0, g_dl_made, g_dl_freed);
  return 0;
}
