/* Seed question: "I indexed a tensor twice and both results have the same id().  Are they the
   same tensor?  Do they share memory?"  (examples/seeds/same_id.py asks it in Python.)

   In C the "id" of a tensor is its handle, the address of the tensor object.  Like Python's
   id(), it names the object, not the data, and the allocator may give a released object's
   address to the next one: never compare handles of tensors that are gone.  Storage ids are
   never reused, and data pointers say where the elements are.  x[0] and x[1] (ct_select) are
   two tensor objects on x's storage; an index list (ct_index_select, Python's x[[0, 2]]) copies. */
#include "seed_util.h"

int main(void) {
  const int64_t shape[2] = {3, 4};
  ct_tensor *r = ok(ct_arange(0, 12, 1, CT_FLOAT32), "arange");
  ct_tensor *x = ok(ct_view(r, 2, shape), "view");
  print_tensor("x", x);

  printf("\n1. Two selects, two tensor objects\n");
  ct_tensor *a = ok(ct_select(x, 0, 0), "select"); /* x[0] */
  ct_tensor *b = ok(ct_select(x, 0, 1), "select"); /* x[1] */
  printf("a = x[0]; b = x[1]; same handle: %s\n", yes_no(a == b));
  printf("same storage: %s (storage ids are never reused, unlike handle addresses)\n",
         yes_no(ct_shares_storage(a, b)));

  printf("\n2. Where the elements are\n");
  const char *px = ct_tensor_data(x), *pa = ct_tensor_data(a), *pb = ct_tensor_data(b);
  printf("data(a) - data(x): %td bytes; data(b) - data(x): %td bytes\n", pa - px, pb - px);
  printf("storage offsets: a %lld, b %lld\n", (long long)ct_tensor_offset(a), (long long)ct_tensor_offset(b));
  printf("a and b overlap: %s; a and x overlap: %s\n", yes_no(ct_overlaps(a, b)), yes_no(ct_overlaps(a, x)));

  printf("\n3. Writing through b changes x\n");
  ok_status(ct_fill_(b, -1), "fill_");
  print_tensor("after b.fill_(-1): x[1]", b);
  printf("x's version: %lld\n", (long long)ct_tensor_version(x));

  printf("\n4. An index list copies\n");
  const int64_t rows[2] = {0, 2}, two = 2;
  ct_tensor *idx = ok(ct_from_data(rows, 1, &two, CT_INT64), "from_data");
  ct_tensor *y = ok(ct_index_select(x, 0, idx), "index_select"); /* x[[0, 2]] */
  printf("y = index_select(x, 0, [0, 2]): same storage as x: %s; is a view: %s\n",
         yes_no(ct_shares_storage(x, y)), yes_no(ct_tensor_is_view(y)));
  ok_status(ct_fill_(y, 100), "fill_");
  print_tensor("after y.fill_(100): x", x);

  printf("\n5. ct_explain(x[0], x[1])\n");
  explain(a, b);

  ct_tensor_release(y);
  ct_tensor_release(idx);
  ct_tensor_release(b);
  ct_tensor_release(a);
  ct_tensor_release(x);
  ct_tensor_release(r);
  printf("\ntensors alive at the end: %lld\n", (long long)ct_live_tensors());
  return 0;
}
