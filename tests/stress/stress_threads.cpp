// Threads sharing tensors and storages: the stress test for the threading rules of the header
// ("Threads." in include/ctensor.h).  Built into every test build (a short run in ctest) and,
// with -DCT_SANITIZE=thread, run longer by scripts/sanitize.sh so that ThreadSanitizer
// watches every shared access.
//
//   stress_threads [threads] [operations per thread]
//
// Shared by all threads, never written: a few root tensors (owned memory, foreign memory from
// ct_from_blob with a counted deleter, a transposed view) and storage handles.  Each thread,
// in a loop, retains and releases them, takes views of them and of views, copies them
// (clone, contiguous, to, reshape), reads them (sum, equal, item, to_string, overlap and
// storage queries), hands views to other threads through a mailbox (so the last reference of
// a view, and of the foreign storage, is often dropped on a thread that did not create it),
// and writes only into its own row of a shared "canvas" storage (distinct views of one
// storage, written concurrently) and into tensors it made itself.  At the end: the values
// read were always the expected ones, each row of the canvas holds its thread's writes, the
// version counter counted every write, and every tensor, storage and deleter is accounted for.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "ctensor.h"

namespace {

std::atomic<int> g_failures{0};
std::atomic<int> g_deleter_runs{0};
std::atomic<int64_t> g_canvas_writes{0};  // fill_ calls on rows of the shared canvas

#define CHECK(cond)                                                                                   \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      if (g_failures.fetch_add(1) < 10)                                                               \
        std::fprintf(stderr, "stress: %s failed at line %d (%s)\n", #cond, __LINE__, ct_last_error()); \
    }                                                                                                 \
  } while (0)

constexpr int64_t kRows = 64, kCols = 32;  // root tensors are kRows x kCols float32

void count_deleter(void* data, void* ctx) {
  CHECK(ctx == &g_deleter_runs);
  std::free(data);
  g_deleter_runs.fetch_add(1);
}

// What every thread shares.
struct Shared {
  ct_tensor* roots[3];        // owned [kRows, kCols] (values i), foreign (values i), a transpose
  double root_sums[3];
  uint64_t root_storage_ids[3];
  ct_storage* storages[2];
  ct_tensor* canvas;          // [threads, kCols] float64; row i is written by thread i only
  std::atomic<ct_tensor*> mailbox[8];
};

ct_tensor* make_roots(Shared& s) {
  const int64_t sizes[] = {kRows, kCols};
  std::vector<float> values(size_t(kRows * kCols));
  for (size_t i = 0; i < values.size(); ++i) values[i] = float(i % 97);
  s.roots[0] = ct_from_data(values.data(), 2, sizes, CT_FLOAT32);
  float* foreign = static_cast<float*>(std::malloc(values.size() * sizeof(float)));
  std::memcpy(foreign, values.data(), values.size() * sizeof(float));
  s.roots[1] = ct_from_blob(foreign, 2, sizes, nullptr, CT_FLOAT32, count_deleter, &g_deleter_runs);
  s.roots[2] = ct_transpose(s.roots[0], 0, 1);
  for (int i = 0; i < 3; ++i) {
    CHECK(s.roots[i] != nullptr);
    ct_tensor* sum = ct_sum(s.roots[i], 0, nullptr, 0);
    CHECK(ct_item(sum, &s.root_sums[i]) == CT_OK);
    ct_tensor_release(sum);
    s.root_storage_ids[i] = ct_tensor_storage_id(s.roots[i]);
  }
  s.storages[0] = ct_tensor_storage(s.roots[0]);
  s.storages[1] = ct_tensor_storage(s.roots[1]);
  return s.roots[0];
}

// A view of t chosen by k; always valid for a [kRows, kCols] or [kCols, kRows] tensor.
ct_tensor* some_view(const ct_tensor* t, unsigned k) {
  const int64_t flat[] = {-1};
  const int64_t sz[] = {4, 4};
  const int64_t st[] = {kCols, 1};
  switch (k % 9) {
    case 0: return ct_transpose(t, 0, 1);
    case 1: return ct_slice(t, 0, 1, INT64_MAX, 2);
    case 2: return ct_select(t, 1, int64_t(k % 8));
    case 3: return ct_narrow(t, 0, 2, 3);
    case 4: return ct_unsqueeze(t, 0);
    case 5: return ct_unfold(t, 1, 2, 2);
    case 6: return ct_alias(t);
    case 7: return ct_as_strided(t, 2, sz, st, int64_t(k % 16));
    default: return ct_tensor_is_contiguous(t) == 1 ? ct_view(t, 1, flat) : ct_diagonal(t, 0, 0, 1);
  }
}

void worker(Shared& s, int id, int ops, std::atomic<int64_t>& done) {
  std::mt19937 rng(unsigned(id) * 7919u + 1u);
  ct_tensor* row = ct_select(s.canvas, 0, id);  // this thread's row of the shared canvas
  CHECK(row != nullptr);
  const int64_t mine_sizes[] = {kCols};
  ct_tensor* mine = ct_zeros(1, mine_sizes, CT_FLOAT64);
  double row_value = 0;
  for (int op = 0; op < ops; ++op) {
    const unsigned k = unsigned(rng());
    const int r = int(k % 3);
    ct_tensor* root = s.roots[r];
    switch ((k >> 4) % 15) {
      case 0: {  // retain / release a shared handle
        ct_tensor* again = ct_tensor_retain(root);
        CHECK(ct_tensor_refcount(again) >= 2);
        ct_tensor_release(again);
        break;
      }
      case 1: {  // a view of a view; same storage, base is the root's root
        ct_tensor* v = some_view(root, k >> 8);
        CHECK(v != nullptr);
        ct_tensor* w = v ? some_view(v, k >> 12) : nullptr;
        if (w) {
          CHECK(ct_tensor_storage_id(w) == s.root_storage_ids[r]);
          ct_tensor* b = ct_tensor_base(w);  // the root; none for an alias (detach)
          CHECK(ct_tensor_is_view(w) == 1 ? b != nullptr && ct_tensor_is_view(b) == 0 : b == nullptr);
          ct_tensor_release(b);
        }
        ct_tensor_release(w);
        ct_tensor_release(v);
        break;
      }
      case 2: {  // copies read the shared memory
        ct_tensor* c = (k >> 8) % 2 ? ct_clone(root) : ct_contiguous(root);
        CHECK(c != nullptr && ct_equal(c, root) == 1);
        ct_tensor_release(c);
        break;
      }
      case 3: {  // conversion and reduction
        ct_tensor* d = ct_to(root, CT_FLOAT64);
        ct_tensor* sum = ct_sum(d, 0, nullptr, 0);
        double v = -1;
        CHECK(ct_item(sum, &v) == CT_OK && v == s.root_sums[r]);
        ct_tensor_release(sum);
        ct_tensor_release(d);
        break;
      }
      case 4: {  // storage handles shared between threads
        ct_storage* st = ct_storage_retain(s.storages[(k >> 8) % 2]);
        CHECK(ct_storage_refcount(st) >= 2 && ct_storage_nbytes(st) == kRows * kCols * 4);
        ct_storage* again = ct_tensor_storage(root);
        CHECK(ct_storage_id(again) == s.root_storage_ids[r]);
        ct_storage_release(again);
        ct_storage_release(st);
        break;
      }
      case 5: {  // hand a view to another thread; release whatever was in the slot
        ct_tensor* v = some_view(s.roots[1], k >> 8);  // often on the foreign storage
        ct_tensor* old = s.mailbox[(k >> 12) % 8].exchange(v);
        if (old) CHECK(ct_tensor_ndim(old) >= 1);
        ct_tensor_release(old);
        break;
      }
      case 6: {  // relations and metadata
        CHECK(ct_shares_storage(root, s.roots[0]) == (r != 1));
        CHECK(ct_may_overlap(root, s.roots[(r + 1) % 3]) >= 0);
        CHECK(ct_overlaps(s.roots[0], s.roots[2]) == 1);
        CHECK(ct_tensor_numel(root) == kRows * kCols);
        break;
      }
      case 7: {  // printing reads every element shown
        char buf[128];
        CHECK(ct_tensor_to_string(root, buf, sizeof buf) > 0);
        break;
      }
      case 8: {  // write this thread's row (a view of the shared canvas storage)
        row_value += 1;
        CHECK(ct_fill_(row, row_value) == CT_OK);
        break;
      }
      case 9: {  // write a tensor of its own from shared data
        ct_tensor* col = ct_select(s.roots[0], 0, int64_t(k >> 8) % kRows);
        CHECK(ct_copy_(mine, col) == CT_OK);
        CHECK(ct_add_(mine, col) == CT_OK);
        ct_tensor_release(col);
        break;
      }
      case 10: {  // reshape: a view of a contiguous root, a copy of the transpose
        const int64_t shape[] = {-1};
        ct_tensor* f = ct_reshape(root, 1, shape);
        CHECK(f != nullptr && ct_tensor_numel(f) == kRows * kCols);
        ct_tensor_release(f);
        break;
      }
      case 11: {  // the one process-wide generator, drawn from concurrently
        const int64_t n[] = {16};
        ct_tensor* u = ct_rand(1, n, CT_FLOAT32);
        ct_tensor* below = ct_lt_scalar(u, 0.0);  // uniform in [0, 1): none below 0
        ct_tensor* count = ct_sum(below, 0, nullptr, 0);
        double c = -1;
        CHECK(u != nullptr && ct_item(count, &c) == CT_OK && c == 0);
        ct_tensor_release(count);
        ct_tensor_release(below);
        ct_tensor_release(u);
        break;
      }
      case 12:
      case 13: {  // in-place metadata ops on a handle of its own over a shared storage, while
                  // other threads read views of that storage: only this handle changes
        ct_tensor* own = ct_data(root);
        ct_tensor* v = some_view(root, k >> 8);
        CHECK(own != nullptr && v != nullptr);
        const int64_t v_offset = ct_tensor_offset(v), v_numel = ct_tensor_numel(v);
        CHECK(ct_set_(own, v) == CT_OK && ct_is_set_to(own, v) == 1);
        CHECK(ct_tensor_version(own) == 1 && ct_same_version_counter(own, root) == 0);
        if (ct_tensor_ndim(own) <= 2) CHECK(ct_t_(own) == CT_OK);
        CHECK(ct_unsqueeze_(own, 0) == CT_OK && ct_squeeze_(own) == CT_OK);
        const int64_t shrink[] = {2, 3};  // fits any root's storage: never reallocates it
        CHECK(ct_resize_(own, 2, shrink) == CT_OK || ct_last_status() == CT_ERR_INVALID_ARGUMENT);
        ct_clear_error();
        const int64_t sz[] = {4, 4}, st[] = {1, 4};
        CHECK(ct_as_strided_(own, 2, sz, 2, st, int64_t(k % 32)) == CT_OK);
        CHECK(ct_set_storage_strided_(own, s.storages[r == 1 ? 1 : 0], int64_t(k % 64), 2, sz, 2, st) == CT_OK);
        ct_tensor* sum = ct_sum(own, 0, nullptr, 0);  // reads the shared memory
        CHECK(sum != nullptr);
        ct_tensor_release(sum);
        CHECK(ct_tensor_offset(v) == v_offset && ct_tensor_numel(v) == v_numel);  // untouched
        // A tensor of its own storage grows (the memory moves) and is set_ back to nothing.
        ct_tensor* priv = ct_clone(v);
        const int64_t grow[] = {kRows * kCols * 2};
        CHECK(priv != nullptr && ct_resize_(priv, 1, grow) == CT_OK && ct_set_empty_(priv) == CT_OK);
        ct_tensor_release(priv);
        ct_tensor_release(v);
        ct_tensor_release(own);
        break;
      }
      default: {  // errors are per thread
        CHECK(ct_select(root, 0, 1000) == nullptr && ct_last_status() == CT_ERR_INDEX);
        ct_clear_error();
        CHECK(ct_last_status() == CT_OK);
        break;
      }
    }
  }
  // The row holds the last value this thread wrote (nobody else writes it).
  ct_tensor* got = ct_select(row, 0, kCols - 1);
  double v = -1;
  CHECK(ct_item(got, &v) == CT_OK && v == row_value);
  g_canvas_writes.fetch_add(int64_t(row_value));  // one fill_ per increment of row_value
  ct_tensor_release(got);
  ct_tensor_release(row);
  ct_tensor_release(mine);
  done.fetch_add(ops);
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 4;
  const int ops = argc > 2 ? std::atoi(argv[2]) : 2000;
  if (threads < 1 || threads > 64 || ops < 1) {
    std::fprintf(stderr, "usage: %s [threads 1..64] [operations per thread]\n", argv[0]);
    return 2;
  }
  const int64_t tensors0 = ct_live_tensors(), storages0 = ct_live_storages();
  Shared s{};
  make_roots(s);
  const int64_t canvas_sizes[] = {threads, kCols};
  s.canvas = ct_zeros(2, canvas_sizes, CT_FLOAT64);
  const int64_t version0 = ct_tensor_version(s.canvas);

  std::atomic<int64_t> done{0};
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker, std::ref(s), i, ops, std::ref(done));
  for (auto& t : pool) t.join();

  // Every fill_ of a row bumped the one version counter of the canvas storage, exactly once,
  // although the threads wrote their rows at the same time.
  CHECK(ct_tensor_version(s.canvas) == version0 + g_canvas_writes.load());
  for (auto& m : s.mailbox) ct_tensor_release(m.exchange(nullptr));
  for (ct_storage* st : s.storages) ct_storage_release(st);
  for (ct_tensor* t : s.roots) ct_tensor_release(t);
  ct_tensor_release(s.canvas);
  CHECK(ct_live_tensors() == tensors0);
  CHECK(ct_live_storages() == storages0);
  CHECK(g_deleter_runs.load() == 1);

  std::printf("stress_threads: %d threads x %d operations = %" PRId64 " operations, %d failures\n", threads, ops,
              done.load(), g_failures.load());
  return g_failures.load() == 0 ? 0 : 1;
}
