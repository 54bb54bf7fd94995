/* Seed question: "Why does x.view(batch, -1) give a tensor that looks identical to x?"
   (examples/seeds/view_batch_minus_one.py asks it in Python.)

   -1 is inferred so that the element count matches.  If x is already (batch, features), the
   result has x's shape, strides, storage and values: a new tensor object that is a view, and
   nothing else.  It flattens only when there are dims after the batch one.  view works on a
   non-contiguous tensor as long as the dims it merges are adjacent in memory. */
#include "seed_util.h"

int main(void) {
  const int64_t two_four[2] = {2, 4}, batch_flat[2] = {2, -1}, img[3] = {2, 3, 4}, four_two[2] = {4, 2};
  const int64_t flat = -1;
  ct_tensor *r = ok(ct_arange(0, 8, 1, CT_FLOAT32), "arange");
  ct_tensor *x = ok(ct_view(r, 2, two_four), "view");
  ct_tensor *y = ok(ct_view(x, 2, batch_flat), "view");
  printf("x.shape ");
  print_dims(ct_tensor_sizes(x), 2);
  printf(" -> x.view(2, -1).shape ");
  print_dims(ct_tensor_sizes(y), 2);
  printf("; same strides: %s; same data pointer: %s; same handle: %s\n",
         yes_no(ct_tensor_stride(x, 0) == ct_tensor_stride(y, 0) && ct_tensor_stride(x, 1) == ct_tensor_stride(y, 1)),
         yes_no(ct_tensor_data(x) == ct_tensor_data(y)), yes_no(x == y));
  printf("x and y cover exactly the same memory: see \"same memory locations\" below\n");

  printf("\n1. With dims to flatten, the same call flattens them\n");
  ct_tensor *r24 = ok(ct_arange(0, 24, 1, CT_FLOAT32), "arange");
  ct_tensor *images = ok(ct_view(r24, 3, img), "view");
  ct_tensor *flat_images = ok(ct_view(images, 2, batch_flat), "view");
  printf("images.shape (2, 3, 4) -> view(2, -1).shape ");
  print_dims(ct_tensor_sizes(flat_images), 2);
  printf("\n");

  printf("\n2. A transposed (non-contiguous) tensor\n");
  ct_tensor *t42 = ok(ct_view(r, 2, four_two), "view");
  ct_tensor *t = ok(ct_transpose(t42, 0, 1), "transpose"); /* (2, 4), strides (1, 2) */
  ct_tensor *tv = ok(ct_view(t, 2, batch_flat), "view");
  printf("t.view(2, -1) works (nothing to merge), shape ");
  print_dims(ct_tensor_sizes(tv), 2);
  printf("\n");
  ct_tensor *bad = ct_view(t, 1, &flat);
  printf("t.view(-1): %s, %s: %s\n", bad ? "a tensor" : "NULL", ct_status_name(ct_last_status()), ct_last_error());

  printf("\n3. ct_explain(x, x.view(2, -1))\n");
  explain(x, y);

  ct_tensor_release(tv);
  ct_tensor_release(t);
  ct_tensor_release(t42);
  ct_tensor_release(flat_images);
  ct_tensor_release(images);
  ct_tensor_release(r24);
  ct_tensor_release(y);
  ct_tensor_release(x);
  ct_tensor_release(r);
  printf("\ntensors alive at the end: %lld\n", (long long)ct_live_tensors());
  return 0;
}
