/* Loads libctensor ONLY through dlopen/dlsym (no link-time dependency), as any FFI does, and
   checks the view/copy basics through the raw C ABI.

     usage: ct_dlopen_check /path/to/libctensor.so

   Prints each check; returns 0 if all pass, 1 if any fails, 2 if the library or a symbol
   cannot be loaded.  Strict C99 + POSIX. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctensor.h" /* types and enum values only: no function of it is linked */

typedef const char *(*str_void_fn)(void);
typedef ct_status (*status_void_fn)(void);
typedef int64_t (*i64_void_fn)(void);
typedef ct_tensor *(*arange_fn)(double, double, double, ct_dtype);
typedef ct_tensor *(*shape_fn)(const ct_tensor *, int, const int64_t *);
typedef ct_tensor *(*transpose_fn)(const ct_tensor *, int, int);
typedef ct_tensor *(*slice_fn)(const ct_tensor *, int, int64_t, int64_t, int64_t);
typedef ct_tensor *(*unary_fn)(const ct_tensor *);
typedef void (*release_fn)(ct_tensor *);
typedef int (*int_t_fn)(const ct_tensor *);
typedef int (*int_tt_fn)(const ct_tensor *, const ct_tensor *);
typedef int64_t (*i64_t_int_fn)(const ct_tensor *, int);
typedef int64_t (*i64_t_fn)(const ct_tensor *);
typedef void *(*ptr_t_fn)(const ct_tensor *);
typedef uint64_t (*u64_t_fn)(const ct_tensor *);
typedef ct_status (*copy_fn)(ct_tensor *, const ct_tensor *);
typedef void (*void_fn)(void);

static struct {
  str_void_fn version, last_error;
  status_void_fn last_status;
  void_fn clear_error;
  i64_void_fn live_tensors, live_storages;
  arange_fn arange;
  shape_fn view, reshape;
  transpose_fn transpose;
  slice_fn slice;
  unary_fn clone, base;
  release_fn release;
  int_t_fn ndim, is_view, is_contiguous;
  int_tt_fn shares_storage;
  i64_t_int_fn stride, size;
  i64_t_fn offset;
  ptr_t_fn data;
  u64_t_fn storage_id;
  copy_fn copy_;
} api;

static int failures = 0;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) failures++;
}

/* dlsym returns an object pointer; converting it to a function pointer with memcpy is the
   portable way that -pedantic accepts (POSIX guarantees the representations agree). */
static int load(void *lib, const char *name, void *slot, size_t size) {
  void *sym = dlsym(lib, name);
  if (sym == NULL) {
    fprintf(stderr, "dlsym(%s) failed: %s\n", name, dlerror());
    return 0;
  }
  memcpy(slot, &sym, size);
  return 1;
}
#define LOAD(field, name) ok = load(lib, name, &api.field, sizeof api.field) && ok

static int values_equal(const ct_tensor *t, const float *want, int n) {
  /* reads a 1-D or 2-D float32 tensor through its data pointer and strides */
  const float *p = (const float *)api.data(t);
  int nd = api.ndim(t), i = 0;
  int64_t r, c, rows = nd == 2 ? api.size(t, 0) : 1, cols = api.size(t, nd - 1);
  int64_t rs = nd == 2 ? api.stride(t, 0) : 0, cs = api.stride(t, nd - 1);
  if (p == NULL || rows * cols != n) return 0;
  for (r = 0; r < rows; ++r)
    for (c = 0; c < cols; ++c, ++i)
      if (p[r * rs + c * cs] != want[i]) return 0;
  return 1;
}

int main(int argc, char **argv) {
  void *lib;
  int ok = 1;
  ct_tensor *flat, *x, *t, *v, *c, *b, *r, *col;
  const int64_t shape34[2] = {3, 4}, shape12[1] = {12};
  const float transposed[12] = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};
  const float after_write[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const char *msg;
  int64_t live0;

  if (argc < 2) {
    fprintf(stderr, "usage: %s /path/to/libctensor.so\n", argv[0]);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen(%s) failed: %s\n", argv[1], dlerror());
    return 2;
  }
  LOAD(version, "ct_version");
  LOAD(last_error, "ct_last_error");
  LOAD(last_status, "ct_last_status");
  LOAD(clear_error, "ct_clear_error");
  LOAD(live_tensors, "ct_live_tensors");
  LOAD(live_storages, "ct_live_storages");
  LOAD(arange, "ct_arange");
  LOAD(view, "ct_view");
  LOAD(reshape, "ct_reshape");
  LOAD(transpose, "ct_transpose");
  LOAD(slice, "ct_slice");
  LOAD(clone, "ct_clone");
  LOAD(base, "ct_tensor_base");
  LOAD(release, "ct_tensor_release");
  LOAD(ndim, "ct_tensor_ndim");
  LOAD(is_view, "ct_tensor_is_view");
  LOAD(is_contiguous, "ct_tensor_is_contiguous");
  LOAD(shares_storage, "ct_shares_storage");
  LOAD(stride, "ct_tensor_stride");
  LOAD(size, "ct_tensor_size");
  LOAD(offset, "ct_tensor_offset");
  LOAD(data, "ct_tensor_data");
  LOAD(storage_id, "ct_tensor_storage_id");
  LOAD(copy_, "ct_copy_");
  if (!ok) return 2;
  printf("library version %s (header %s)\n", api.version(), CT_VERSION_STRING);
  check(strcmp(api.version(), CT_VERSION_STRING) == 0, "ct_version() matches the header");
  live0 = api.live_tensors();

  /* x = torch.arange(12.).view(3, 4) */
  flat = api.arange(0, 12, 1, CT_FLOAT32);
  check(flat != NULL, "ct_arange(0, 12, 1, float32)");
  if (flat == NULL) return 1;
  x = api.view(flat, 2, shape34);
  check(x != NULL, "ct_view(flat, [3, 4])");
  if (x == NULL) return 1;
  check(api.stride(x, 0) == 4 && api.stride(x, 1) == 1, "x strides (4, 1)");
  check(api.is_view(x) == 1 && api.shares_storage(x, flat) == 1, "x is a view of flat");
  b = api.base(x);
  check(b == flat, "base of x is flat");
  api.release(b);

  /* A view: transpose shares storage, swaps strides. */
  t = api.transpose(x, 0, 1);
  check(t != NULL, "ct_transpose(x, 0, 1)");
  if (t == NULL) return 1;
  check(api.size(t, 0) == 4 && api.size(t, 1) == 3, "t sizes (4, 3)");
  check(api.stride(t, 0) == 1 && api.stride(t, 1) == 4, "t strides (1, 4)");
  check(api.shares_storage(t, x) == 1 && api.storage_id(t) == api.storage_id(x), "t shares x's storage");
  check(api.data(t) == api.data(x), "t has x's data pointer");
  check(api.is_contiguous(t) == 0, "t is not contiguous");
  check(values_equal(t, transposed, 12), "t reads x transposed");

  /* The impossible view, with PyTorch's message. */
  api.clear_error();
  v = api.view(t, 1, shape12);
  msg = api.last_error();
  check(v == NULL, "ct_view(t, [12]) fails");
  check(api.last_status() == CT_ERR_NOT_VIEWABLE, "status CT_ERR_NOT_VIEWABLE");
  check(msg != NULL && strstr(msg, "view size is not compatible with input tensor's size and stride") != NULL,
        "message: view size is not compatible with input tensor's size and stride");
  printf("      (message: \"%s\")\n", msg ? msg : "(null)");
  api.release(v);

  /* reshape copies instead; clone copies. */
  r = api.reshape(t, 1, shape12);
  check(r != NULL && api.shares_storage(r, x) == 0 && api.is_view(r) == 0, "ct_reshape(t, [12]) is a copy");
  check(r != NULL && values_equal(r, transposed, 12), "the copy holds t's values in order");
  c = api.clone(x);
  check(c != NULL && api.shares_storage(c, x) == 0 && api.data(c) != api.data(x), "ct_clone(x) is a copy");
  check(c != NULL && api.is_view(c) == 0 && api.is_contiguous(c) == 1, "the clone is contiguous, not a view");

  /* Writing through a view changes x; writing the copy does not. */
  col = api.slice(x, 1, 1, 2, 1); /* x[:, 1:2] */
  check(col != NULL && api.offset(col) == 1 && api.stride(col, 0) == 4, "x[:, 1:2] offset 1, stride 4");
  if (col != NULL && c != NULL) {
    ct_tensor *first_col = api.slice(c, 1, 0, 1, 1); /* clone[:, 0:1] = 0, 4, 8 */
    check(api.copy_(col, first_col) == CT_OK, "ct_copy_(x[:, 1:2], clone[:, 0:1])");
    {
      const float want[12] = {0, 0, 2, 3, 4, 4, 6, 7, 8, 8, 10, 11};
      check(values_equal(x, want, 12), "x changed through its view");
    }
    check(values_equal(c, after_write, 12), "the clone did not change");
    api.release(first_col);
  }

  api.release(col);
  api.release(c);
  api.release(r);
  api.release(t);
  api.release(x);
  api.release(flat);
  check(api.live_tensors() == live0, "ct_live_tensors() back to its starting value");
  check(api.live_tensors() == 0, "ct_live_tensors() == 0");
  check(api.live_storages() == 0, "ct_live_storages() == 0");

  dlclose(lib);
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
