// Note [Math bits at the boundary] (guard.h): the clones that stand in for tensors with
// math bits during one C call, and their write-back.
#include <vector>

#include "capi/guard.h"
#include "core/autograd/functions.h"
#include "core/autograd/meta.h"
#include "core/copy.h"
#include "core/metadata_ops.h"
#include "core/shape.h"

namespace ct::capi {

std::atomic<int> g_resolutions_pending{0};

namespace {

struct Resolution {
  const Tensor* original;  // borrowed: the caller's handle outlives the call
  Ref<Tensor> clone;
  int64_t version;  // the clone's version when made
};

// This thread's clones, innermost call last (a callback may call the API again).
std::vector<Resolution>& resolutions() {
  thread_local std::vector<Resolution> r;
  return r;
}

bool same_sizes(IntList a, IntList b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

}  // namespace

const Tensor& resolve_for_call(const Tensor& t) {
  std::vector<Resolution>& r = resolutions();
  // resolves both bits (Note [Math bits]); a tensor in a graph is cloned in the graph
  // (CloneBackward0), so the op's gradient reaches t through its conj/neg view's node
  // The copy keeps a version counter even in inference mode: its version tells whether the
  // op wrote it (Note [Inference tensors]: an inference copy would never bump).
  Ref<Tensor> c = [&] {
    const InferenceFlagOff normal_copy;
    return autograd::needs_grad(t) ? ag::clone(t) : clone(t);
  }();
  const int64_t version = c->version();
  r.push_back({&t, std::move(c), version});
  g_resolutions_pending.fetch_add(1, std::memory_order_relaxed);
  return *r.back().clone;
}

size_t resolutions_mark_slow() { return resolutions().size(); }

void finish_resolutions(size_t mark, ct_tensor** result) {
  std::vector<Resolution>& r = resolutions();
  if (r.size() <= mark) return;
  // Taken off the list first: the copies below are calls of their own.
  std::vector<Resolution> mine(std::make_move_iterator(r.begin() + std::ptrdiff_t(mark)),
                               std::make_move_iterator(r.end()));
  r.resize(mark);
  g_resolutions_pending.fetch_sub(int(mine.size()), std::memory_order_relaxed);
  try {
    for (Resolution& x : mine) {
      if (x.clone->version() != x.version) {  // written by the op: write the values back
        Tensor& original = const_cast<Tensor&>(*x.original);
        if (!same_sizes(original.sizes(), x.clone->sizes())) resize_(original, x.clone->sizes());
        // recorded when either side is in a graph: the write-back is the op's result
        ag::copy_into(original, *x.clone, "copy_");
      }
      if (result && *result && from_handle(*result) == x.clone.get()) {  // the op returned its input
        x.original->retain();
        x.clone->release();  // the reference the op handed out
        *result = reinterpret_cast<ct_tensor*>(const_cast<Tensor*>(x.original));
      }
    }
  } catch (...) {  // a failed write-back fails the call: the result handle must not leak
    if (result && *result) {
      from_handle(*result)->release();
      *result = nullptr;
    }
    throw;
  }
}

void drop_resolutions(size_t mark) noexcept {
  std::vector<Resolution>& r = resolutions();
  if (r.size() <= mark) return;
  g_resolutions_pending.fetch_sub(int(r.size() - mark), std::memory_order_relaxed);
  r.resize(mark);
}

}  // namespace ct::capi
