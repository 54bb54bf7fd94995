/* Seed question: "How do I keep PyTorch from modifying my variable?"
   (examples/seeds/keep_unmodified.py asks it in Python.)

   Another handle to the same tensor (ct_tensor_retain: Python's b = a), a view, and an alias
   (ct_alias: torch's detach()) all write into the same memory.  Only a copy (ct_clone, or an
   out-of-place operation) protects the original: clone() is not detach().  And a view never
   modifies its input in place: ct_view returns a new tensor and leaves a's shape alone. */
#include "seed_util.h"

static void set(ct_tensor *t, int64_t i, double value) {
  ct_tensor *e = ok(ct_select(t, 0, i), "select");
  ok_status(ct_fill_(e, value), "fill_");
  ct_tensor_release(e);
}

int main(void) {
  const int64_t four = 4, two_two[2] = {2, 2};
  ct_tensor *a = ok(ct_zeros(1, &four, CT_FLOAT32), "zeros");
  print_tensor("a", a);

  printf("\n1. Another handle to a (Python: b = a) is the same tensor\n");
  ct_tensor *b = ct_tensor_retain(a);
  set(b, 0, 1);
  print_tensor("b[0] = 1 -> a", a);

  printf("\n2. A view shares a's memory\n");
  ct_tensor *v = ok(ct_view(a, 2, two_two), "view");
  ct_tensor *v0 = ok(ct_select(v, 0, 0), "select");
  set(v0, 1, 2);
  ct_tensor_release(v0);
  print_tensor("v = a.view(2, 2); v[0, 1] = 2 -> a", a);

  printf("\n3. An alias (torch's detach()) is NOT a copy\n");
  ct_tensor *d = ok(ct_alias(a), "alias");
  set(d, 2, 3);
  print_tensor("d = a.detach(); d[2] = 3 -> a", a);
  printf("same data pointer: %s; d is a view: %s; shares a's version counter: %s\n",
         yes_no(ct_tensor_data(d) == ct_tensor_data(a)), yes_no(ct_tensor_is_view(d)),
         yes_no(ct_tensor_version(d) == ct_tensor_version(a)));

  printf("\n4. A clone is a copy: the only one of the four that protects a\n");
  ct_tensor *c = ok(ct_clone(a), "clone");
  set(c, 3, 4);
  print_tensor("c = a.clone(); c[3] = 4 -> a", a);
  print_tensor("c", c);
  printf("same storage: %s; versions: a %lld, c %lld\n", yes_no(ct_shares_storage(a, c)),
         (long long)ct_tensor_version(a), (long long)ct_tensor_version(c));

  printf("\n5. Out of place vs in place\n");
  ct_tensor *a1 = ok(ct_add_scalar(a, 1), "add_scalar"); /* a + 1: a new tensor */
  print_tensor("a + 1", a1);
  print_tensor("a after a + 1", a);
  ok_status(ct_add_scalar_(a, 1), "add_scalar_"); /* a += 1 / a.add_(1): writes a */
  print_tensor("a after a.add_(1)", a);

  printf("\n6. view() never modifies in place\n");
  printf("a's shape after a.view(2, 2): ");
  print_dims(ct_tensor_sizes(a), ct_tensor_ndim(a));
  printf("\n");

  printf("\n7. ct_explain(a, d)\n");
  explain(a, d);

  ct_tensor_release(a1);
  ct_tensor_release(c);
  ct_tensor_release(d);
  ct_tensor_release(v);
  ct_tensor_release(b);
  ct_tensor_release(a);
  printf("\ntensors alive at the end: %lld\n", (long long)ct_live_tensors());
  return 0;
}
