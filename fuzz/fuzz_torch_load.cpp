// libFuzzer harness for the PyTorch checkpoint reader: fuzz bytes are a .pt archive, read by
// ct_torch_load_memory (zip directory, restricted unpickler, storages, flattening).
//
// What is checked (a violation prints why and traps):
//   - a failed load leaves ct_last_status() != CT_OK and a non-empty ct_last_error();
//   - a loaded checkpoint: every entry has a name and a tensor whose lowest and highest
//     reachable elements lie inside its storage, and both are read (ASan flags a storage
//     smaller than it claims); find(name) gives an entry of that name; metadata pairs and
//     the structure text are non-NULL strings;
//   - after each input, the live tensor and storage counts are back where they started.
// The seed corpus fuzz/corpus_pt holds small archives made by torch.save (every dtype,
// views, tied weights, nested containers, zip64-free and zip64 layouts torch writes).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ctensor.h"

namespace {

uint64_t g_inputs = 0, g_loaded = 0, g_tensors = 0;

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "fuzz_torch_load: %s (last error: %s)\n", why, ct_last_error());
  __builtin_trap();
}

void check_tensor(const ct_tensor* t) {
  ct_storage* s = ct_tensor_storage(t);
  if (!s) fail("a loaded tensor has no storage");
  const int64_t nbytes = ct_storage_nbytes(s);
  const char* base = static_cast<const char*>(ct_storage_data(s));
  const int64_t isz = ct_dtype_itemsize(ct_tensor_dtype(t));
  int64_t lo = ct_tensor_offset(t), hi = lo;
  bool empty = false;
  for (int d = 0; d < ct_tensor_ndim(t); ++d) {
    const int64_t n = ct_tensor_size(t, d), st = ct_tensor_stride(t, d);
    if (n == 0) empty = true;
    if (n > 0) (st < 0 ? lo : hi) += (n - 1) * st;
  }
  if (!empty) {
    if (lo < 0 || (hi + 1) * isz > nbytes) fail("a loaded tensor reaches outside its storage");
    volatile char sink = base[lo * isz] ^ base[(hi + 1) * isz - 1];
    (void)sink;
  }
  ct_storage_release(s);
}

void report() {
  std::fprintf(stderr, "ctensor pt fuzz figures: %llu inputs, %llu loaded, %llu tensors\n",
               (unsigned long long)g_inputs, (unsigned long long)g_loaded, (unsigned long long)g_tensors);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(report);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ++g_inputs;
  const int64_t t0 = ct_live_tensors(), s0 = ct_live_storages();
  ct_checkpoint* c = ct_torch_load_memory(data, int64_t(size));
  if (!c) {
    if (ct_last_status() == CT_OK || ct_last_error()[0] == '\0') fail("a failed load left no error");
  } else {
    ++g_loaded;
    const int64_t n = ct_checkpoint_count(c);
    if (n < 0) fail("count < 0 on a live checkpoint");
    for (int64_t i = 0; i < n; ++i) {
      const char* name = ct_checkpoint_name(c, i);
      if (!name) fail("an entry has no name");
      const int64_t k = ct_checkpoint_find(c, name);
      // a key holding a NUL byte is cut there in C strings: find may then miss, cleanly
      if (k >= 0 ? std::strcmp(ct_checkpoint_name(c, k), name) != 0 : ct_last_status() != CT_ERR_INDEX) {
        fail("find(name) gives another name");
      }
      ct_tensor* t = ct_checkpoint_tensor(c, i);
      if (!t) fail("an entry has no tensor");
      check_tensor(t);
      ++g_tensors;
      ct_tensor_release(t);
    }
    for (int64_t i = 0; i < ct_checkpoint_metadata_count(c); ++i) {
      if (!ct_checkpoint_metadata_key(c, i) || !ct_checkpoint_metadata_value(c, i)) fail("a NULL metadata string");
    }
    if (!ct_checkpoint_structure(c)) fail("no structure text");
    if (ct_checkpoint_tensor(c, n) != nullptr) fail("an out-of-range entry gave a tensor");
    ct_checkpoint_release(c);
  }
  if (ct_live_tensors() != t0 || ct_live_storages() != s0) fail("tensors or storages leaked");
  return 0;
}
