/* demo: which results share memory with their input, and which are copies.
   Build and run: see README.md (first command). */
#include <stdio.h>
#include <stdlib.h>

#include "ctensor.h"

/* Stops the demo with ctensor's own message if a call fails. */
static ct_tensor *ok(ct_tensor *t, const char *what) {
  if (!t) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, ct_last_error(), ct_status_name(ct_last_status()));
    exit(1);
  }
  return t;
}

static void show(const char *expr, const ct_tensor *x, const ct_tensor *result) {
  ct_tensor *base = ct_tensor_base(result);
  const char *memory = result == x                    ? "x itself"
                       : ct_shares_storage(x, result) ? "shares x's storage"
                                                      : "new storage (copy)";
  printf("%-26s %-19s is_view %d  base is x %-3s  offset %-2lld strides (", expr, memory,
         ct_tensor_is_view(result), base == x ? "yes" : "no", (long long)ct_tensor_offset(result));
  for (int d = 0; d < ct_tensor_ndim(result); ++d) {
    printf(d ? ", %lld" : "%lld", (long long)ct_tensor_stride(result, d));
  }
  printf(")%s\n", ct_tensor_is_contiguous(result) ? "" : "  non-contiguous");
  ct_tensor_release(base);
}

int main(void) {
  const int64_t shape[2] = {3, 4};
  ct_tensor *r = ok(ct_arange(0, 12, 1, CT_FLOAT32), "arange");
  ct_tensor *x = ok(ct_view(r, 2, shape), "view");
  ct_tensor *root = ok(ct_clone(x), "clone"); /* a fresh root tensor, not a view */
  ct_tensor_release(x);
  ct_tensor_release(r);
  x = root;

  char buf[512];
  ct_tensor_to_string(x, buf, sizeof buf);
  printf("x = %s\n\n", buf);

  const int64_t flat[1] = {12}, six_two[2] = {6, 2};
  const int64_t idx_data[2] = {2, 0};
  ct_tensor *idx = ok(ct_from_data(idx_data, 1, (const int64_t[]){2}, CT_INT64), "from_data");

  struct { const char *expr; ct_tensor *t; } results[] = {
      {"x.view(12)", ok(ct_view(x, 1, flat), "view")},
      {"x.reshape(6, 2)", ok(ct_reshape(x, 2, six_two), "reshape")},
      {"x.t()", ok(ct_transpose(x, 0, 1), "transpose")},
      {"x[1]", ok(ct_select(x, 0, 1), "select")},
      {"x[:, 1:3]", ok(ct_slice(x, 1, 1, 3, 1), "slice")},
      {"x[:, ::2]", ok(ct_slice(x, 1, 0, INT64_MAX, 2), "slice")},
      {"x.diagonal()", ok(ct_diagonal(x, 0, 0, 1), "diagonal")},
      {"x.detach()", ok(ct_alias(x), "alias")},
      {"x.contiguous()", ok(ct_contiguous(x), "contiguous")},
      {"x.clone()", ok(ct_clone(x), "clone")},
      {"x.index_select(0, [2, 0])", ok(ct_index_select(x, 0, idx), "index_select")},
  };
  for (size_t i = 0; i < sizeof results / sizeof results[0]; ++i) show(results[i].expr, x, results[i].t);

  /* reshape of a transposed tensor cannot be a view: it copies; view refuses. */
  ct_tensor *xt = ok(ct_transpose(x, 0, 1), "transpose");
  ct_tensor *v = ct_view(xt, 1, flat);
  printf("\nx.t().view(12) -> NULL, %s:\n  %s\n", ct_status_name(ct_last_status()), v ? "" : ct_last_error());
  ct_tensor *rs = ok(ct_reshape(xt, 1, flat), "reshape");
  show("x.t().reshape(12)", x, rs);

  /* A write through a view is seen through x, and the shared version counter moves. */
  ct_tensor *row = ok(ct_select(x, 0, 1), "select");
  ct_tensor *hundred = ok(ct_full(0, NULL, 100, CT_FLOAT32), "full");
  printf("\nversion of x before x[1].copy_(100): %lld\n", (long long)ct_tensor_version(x));
  ct_copy_(row, hundred);
  ct_tensor_to_string(x, buf, sizeof buf);
  printf("after: version %lld\nx = %s\n", (long long)ct_tensor_version(x), buf);

  for (size_t i = 0; i < sizeof results / sizeof results[0]; ++i) ct_tensor_release(results[i].t);
  ct_tensor_release(hundred);
  ct_tensor_release(row);
  ct_tensor_release(rs);
  ct_tensor_release(v);
  ct_tensor_release(xt);
  ct_tensor_release(idx);
  ct_tensor_release(x);
  printf("\nlive tensors after releasing everything: %lld\n", (long long)ct_live_tensors());
  return ct_live_tensors() == 0 ? 0 : 1;
}
