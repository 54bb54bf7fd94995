/* Seed question: "What is the difference between reshape, view and permute, and what does
   contiguous mean?"  (examples/seeds/reshape_view_permute.py asks it in Python.)

   view and reshape regroup the elements in their memory order; permute/transpose keep the
   memory and change the reading order by swapping strides.  view never copies and fails when
   the strides forbid the shape; reshape is a view whenever view works (so reshape of a
   contiguous tensor keeps the data pointer) and a copy otherwise. */
#include "seed_util.h"

static void row(const char *name, const ct_tensor *t, const ct_tensor *x) {
  printf("%-16s strides ", name);
  print_dims(ct_tensor_strides(t), ct_tensor_ndim(t));
  printf("  contiguous %-3s  same data pointer as x %-3s  is a view %s\n", yes_no(ct_tensor_is_contiguous(t)),
         yes_no(ct_tensor_data(t) == ct_tensor_data(x)), yes_no(ct_tensor_is_view(t)));
}

int main(void) {
  const int64_t shape[2] = {2, 3}, three_two[2] = {3, 2}, six = 6;
  const int perm[2] = {1, 0};
  ct_tensor *r = ok(ct_arange(0, 6, 1, CT_FLOAT32), "arange");
  ct_tensor *x = ok(ct_view(r, 2, shape), "view");
  print_tensor("x", x);

  printf("\n1. Same shape (3, 2), three different things\n");
  ct_tensor *v = ok(ct_view(x, 2, three_two), "view");
  ct_tensor *re = ok(ct_reshape(x, 2, three_two), "reshape");
  ct_tensor *p = ok(ct_permute(x, 2, perm), "permute");
  row("x.view(3, 2)", v, x);
  row("x.reshape(3, 2)", re, x);
  row("x.permute(1, 0)", p, x);
  print_tensor("x.view(3, 2)", v);
  print_tensor("x.permute(1, 0)", p);

  printf("\n2. view fails where the strides forbid it; reshape then copies\n");
  ct_tensor *bad = ct_view(p, 1, &six);
  printf("p.view(6): %s, %s: %s\n", bad ? "a tensor" : "NULL", ct_status_name(ct_last_status()), ct_last_error());
  printf("reshape of p would be a view: %s\n", yes_no(ct_reshape_is_view(p, 1, &six)));
  ct_tensor *q = ok(ct_reshape(p, 1, &six), "reshape");
  print_tensor("q = p.reshape(6)", q);
  printf("q shares x's storage: %s; q is a view: %s\n", yes_no(ct_shares_storage(q, x)), yes_no(ct_tensor_is_view(q)));

  printf("\n3. contiguous() copies p into memory order\n");
  ct_tensor *c = ok(ct_contiguous(p), "contiguous");
  row("p.contiguous()", c, x);

  printf("\n4. v[0].fill_(10) (a view) reaches x; q.fill_(99) (a copy) does not\n");
  ct_tensor *v_row0 = ok(ct_select(v, 0, 0), "select"); /* v[0] */
  ok_status(ct_fill_(v_row0, 10), "fill_");
  ct_tensor_release(v_row0);
  ok_status(ct_fill_(q, 99), "fill_");
  print_tensor("x", x);

  printf("\n5. ct_explain(x, x.permute(1, 0))\n");
  explain(x, p);

  ct_tensor_release(c);
  ct_tensor_release(q);
  ct_tensor_release(p);
  ct_tensor_release(re);
  ct_tensor_release(v);
  ct_tensor_release(x);
  ct_tensor_release(r);
  printf("\ntensors alive at the end: %lld\n", (long long)ct_live_tensors());
  return 0;
}
