/* Seed question: "Does conj() copy?  Why did writing into x.conj() change x?"
   (examples/seeds/conj_view.py asks it in Python.)

   ct_conj of a complex tensor copies nothing: it returns a view of the same storage carrying
   the conjugate bit (ct_tensor_is_conj), read conjugated.  A copy into the view stores the
   conjugate of what is written, in x's memory.  ct_imag of the view carries the negative bit.
   ct_resolve_conj / ct_clone give a plain copy; ct_view_as_real and DLPack refuse the view. */
#include <complex.h>
#include <string.h>

#include "seed_util.h"

int main(void) {
  const int64_t two = 2;
  const float _Complex data[2] = {1.0f + 2.0f * I, 3.0f - 4.0f * I};
  ct_tensor *x = ok(ct_from_data(data, 1, &two, CT_COMPLEX64), "from_data");
  print_tensor("x", x);

  printf("\n1. ct_conj copies nothing: a view with the conjugate bit\n");
  ct_tensor *c = ok(ct_conj(x), "conj");
  print_tensor("c = conj(x)", c);
  printf("is_conj: %s; is a view: %s; same data pointer: %s\n", yes_no(ct_tensor_is_conj(c)),
         yes_no(ct_tensor_is_view(c)), yes_no(ct_tensor_data(c) == ct_tensor_data(x)));
  float _Complex stored;
  memcpy(&stored, ct_tensor_data(c), sizeof stored);
  printf("the bytes under c[0]: %g%+gi (x's own value)\n", crealf(stored), cimagf(stored));

  printf("\n2. A copy into the conj view stores the conjugate in x\n");
  const float _Complex five_six = 5.0f + 6.0f * I;
  ct_tensor *v = ok(ct_from_data(&five_six, 0, NULL, CT_COMPLEX64), "from_data");
  ct_tensor *c0 = ok(ct_select(c, 0, 0), "select");
  ok_status(ct_copy_(c0, v), "copy_");
  print_tensor("c[0] = 5+6j -> x", x);
  print_tensor("c", c);
  printf("version of x: %lld\n", (long long)ct_tensor_version(x));

  printf("\n3. The imaginary parts of a conj view: a negative view\n");
  ct_tensor *im = ok(ct_imag(c), "imag");
  print_tensor("imag(c)", im);
  printf("is_neg: %s; is_conj: %s; same storage as x: %s\n", yes_no(ct_tensor_is_neg(im)),
         yes_no(ct_tensor_is_conj(im)), yes_no(ct_shares_storage(im, x)));

  printf("\n4. ct_resolve_conj copies the values as read, without the bit\n");
  ct_tensor *r = ok(ct_resolve_conj(c), "resolve_conj");
  print_tensor("resolve_conj(c)", r);
  printf("is_conj: %s; same storage as x: %s\n", yes_no(ct_tensor_is_conj(r)), yes_no(ct_shares_storage(r, x)));

  printf("\n5. What refuses a conj view\n");
  if (!ct_view_as_real(c)) printf("ct_view_as_real: %s\n", ct_status_name(ct_last_status()));
  if (!ct_to_dlpack(c)) printf("ct_to_dlpack: %s: %s\n", ct_status_name(ct_last_status()), ct_last_error());

  printf("\n");
  explain(c, NULL);

  ct_tensor_release(r);
  ct_tensor_release(im);
  ct_tensor_release(c0);
  ct_tensor_release(v);
  ct_tensor_release(c);
  ct_tensor_release(x);
  printf("\nlive tensors after release: %lld\n", (long long)ct_live_tensors());
  return 0;
}
