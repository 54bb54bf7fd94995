/* Seed question: "I run the same operation again and it allocates new memory every time.
   Why, and how do I reuse memory?"  (examples/seeds/repeated_op.py asks it in Python.)

   An out-of-place operation (ct_add_scalar, ct_clone, ct_contiguous of a non-contiguous tensor,
   ...) returns a NEW tensor on a NEW storage at every call: nothing is cached.  To reuse memory,
   write into a tensor you keep with an in-place operation (ct_add_scalar_, ct_copy_, ...): the
   data pointer stays, the version counter moves. */
#include "seed_util.h"

int main(void) {
  const int64_t shape[2] = {2, 3};
  ct_tensor *r = ok(ct_arange(0, 6, 1, CT_FLOAT32), "arange");
  ct_tensor *x = ok(ct_view(r, 2, shape), "view");
  print_tensor("x", x);

  printf("\n1. y = x + 1, three times: three new storages\n");
  ct_tensor *ys[3];
  for (int i = 0; i < 3; ++i) ys[i] = ok(ct_add_scalar(x, 1), "add_scalar");
  printf("same storage: y0/y1 %s, y1/y2 %s, y0/x %s\n", yes_no(ct_shares_storage(ys[0], ys[1])),
         yes_no(ct_shares_storage(ys[1], ys[2])), yes_no(ct_shares_storage(ys[0], x)));
  printf("live storages now: %lld (x's and the three results)\n", (long long)ct_live_storages());
  for (int i = 0; i < 3; ++i) ct_tensor_release(ys[i]);
  printf("after releasing them: %lld\n", (long long)ct_live_storages());

  printf("\n2. Copies of a transpose, twice\n");
  ct_tensor *t = ok(ct_transpose(x, 0, 1), "transpose");
  ct_tensor *a = ok(ct_contiguous(t), "contiguous");
  ct_tensor *b = ok(ct_contiguous(t), "contiguous");
  printf("a = contiguous(x.t()); b = contiguous(x.t()): same storage %s, same as x %s\n",
         yes_no(ct_shares_storage(a, b)), yes_no(ct_shares_storage(a, x)));
  ct_tensor *c = ok(ct_contiguous(x), "contiguous");
  printf("contiguous(x) of a contiguous x returns x itself: %s\n", yes_no(c == x));
  ct_tensor_release(c);

  printf("\n3. In place: the same memory every time\n");
  void *before = ct_tensor_data(x);
  for (int i = 0; i < 3; ++i) ok_status(ct_add_scalar_(x, 1), "add_scalar_");
  printf("x.add_(1) three times: same data pointer %s, version %lld\n", yes_no(ct_tensor_data(x) == before),
         (long long)ct_tensor_version(x));
  print_tensor("x", x);
  ct_tensor *out = ok(ct_empty(2, (const int64_t[]){3, 2}, CT_FLOAT32), "empty");
  before = ct_tensor_data(out);
  for (int i = 0; i < 3; ++i) ok_status(ct_copy_(out, t), "copy_");
  printf("out.copy_(x.t()) three times: same data pointer %s, version %lld\n",
         yes_no(ct_tensor_data(out) == before), (long long)ct_tensor_version(out));

  printf("\n4. ct_explain(a, b)\n");
  explain(a, b);

  ct_tensor_release(out);
  ct_tensor_release(b);
  ct_tensor_release(a);
  ct_tensor_release(t);
  ct_tensor_release(x);
  ct_tensor_release(r);
  printf("\ntensors alive at the end: %lld\n", (long long)ct_live_tensors());
  return 0;
}
