/* Seed question: "How do I add an op of my own, with its own backward?"
   (examples/seeds/custom_op.py asks it in Python, with torch.autograd.Function.)

   Compute the op's result yourself, with grad mode off, and hand it to ct_custom_op_apply
   with a backward callback and the data that callback needs.  The output's grad_fn is then a
   node named "<name>Backward" that calls the callback, so the op takes part in a graph like
   a built-in one: gradients flow through it to the leaves, and a hook registered with
   ct_tensor_register_hook sees the gradient on its way.  What the callback keeps (here a
   detached alias of the input, torch's saved tensor) is released by the release callback
   when the graph is freed: nothing is leaked. */
#include <string.h>

#include "seed_util.h"

/* The op y = x^3.  Its backward needs x: a ct_detach alias of it (same memory and version
   counter, no graph), so a write to x after forward is seen (and refused, below). */
struct cube_saved {
  ct_tensor *x;
  int64_t version; /* x's version at forward, as torch's saved tensors check it */
};

static int releases = 0; /* how many times release ran: once per recorded op */

static void cube_release(void *user_data) {
  struct cube_saved *s = user_data;
  ct_tensor_release(s->x);
  free(s);
  ++releases;
}

/* grad * 3 * x * x, evaluated in torch's order (custom_op.py's backward), so the bits match. */
static ct_status cube_backward(void *user_data, int n_outputs, const ct_tensor *const *grads, int n_inputs,
                               ct_tensor **grad_inputs) {
  (void)n_outputs;
  (void)n_inputs;
  struct cube_saved *s = user_data;
  if (ct_tensor_version(s->x) != s->version) {
    ct_set_error(CT_ERR_INVALID_ARGUMENT, "Cube: its input was modified by an inplace operation after forward");
    return CT_ERR_INVALID_ARGUMENT;
  }
  ct_tensor *g3 = ct_mul_scalar(grads[0], 3.0);
  ct_tensor *g3x = g3 ? ct_mul(g3, s->x) : NULL;
  grad_inputs[0] = g3x ? ct_mul(g3x, s->x) : NULL;
  ct_tensor_release(g3x);
  ct_tensor_release(g3);
  return grad_inputs[0] ? CT_OK : ct_last_status(); /* a failed call has set the error */
}

/* Cube(x): forward with grad mode off, then the node. */
static ct_tensor *cube(ct_tensor *x) {
  const int prev = ct_set_grad_enabled(0);
  ct_tensor *xx = ok(ct_mul(x, x), "mul");
  ct_tensor *y = ok(ct_mul(xx, x), "mul");
  ct_tensor_release(xx);
  ct_set_grad_enabled(prev);
  struct cube_saved *s = malloc(sizeof *s);
  if (!s) exit(1);
  s->x = ok(ct_detach(x), "detach");
  s->version = ct_tensor_version(x);
  ok_status(ct_custom_op_apply("Cube", 1, &x, 1, &y, NULL, 1, cube_backward, s, cube_release), "custom_op_apply");
  return y;
}

static ct_status print_gradient(void *user_data, const ct_tensor *grad, ct_tensor **replacement) {
  (void)replacement; /* left NULL: the gradient goes on unchanged */
  print_tensor(user_data, grad);
  return CT_OK;
}

int main(void) {
  const int64_t start = ct_live_tensors();
  const int64_t sizes[2] = {2, 3}, three = 3;
  const float xs[6] = {0.5f, -1.0f, 2.0f, 1.5f, 0.0f, -2.0f}, ws[3] = {1.0f, 0.5f, -1.0f};
  ct_tensor *x = ok(ct_from_data(xs, 2, sizes, CT_FLOAT32), "from_data");
  ok_status(ct_set_requires_grad(x, 1), "set_requires_grad");
  ct_tensor *w = ok(ct_from_data(ws, 1, &three, CT_FLOAT32), "from_data");
  print_tensor("x", x);

  printf("\n1. The custom op inside a graph: x -> a = 2x -> y = Cube(a) -> loss = sum(y * w)\n");
  ct_tensor *a = ok(ct_mul_scalar(x, 2.0), "mul_scalar");
  ct_tensor *y = cube(a);
  ct_tensor *yw = ok(ct_mul(y, w), "mul");
  ct_tensor *loss = ok(ct_sum(yw, 0, NULL, 0), "sum");
  print_tensor("y", y);
  printf("y.grad_fn: %s ; a.grad_fn: %s\n", ct_grad_fn_name(y), ct_grad_fn_name(a));
  print_tensor("loss", loss);

  printf("\n2. A hook on a sees the gradient Cube's backward sends it\n");
  ct_hook_handle *h = NULL;
  ok_status(ct_tensor_register_hook(a, print_gradient, "gradient reaching a", NULL, &h), "register_hook");
  ok_status(ct_backward(loss, NULL, 0), "backward");
  ct_tensor *g = ok(ct_grad(x), "grad");
  print_tensor("x.grad", g);
  ok_status(ct_hook_remove(h), "hook_remove");
  ct_hook_handle_release(h);

  printf("\n3. The saved input is checked: writing it in place breaks backward\n");
  ct_tensor *a2 = ok(ct_mul_scalar(x, 2.0), "mul_scalar");
  ct_tensor *y2 = cube(a2);
  ct_tensor *s2 = ok(ct_sum(y2, 0, NULL, 0), "sum");
  ok_status(ct_add_scalar_(a2, 1.0), "add_scalar_");
  if (ct_backward(s2, NULL, 0) != CT_OK) printf("%s: %s\n", ct_status_name(ct_last_status()), ct_last_error());

  printf("\n4. The graph goes with its last output\n");
  ct_tensor *all[] = {s2, y2, a2, g, loss, yw, y, a, w, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) ct_tensor_release(all[i]);
  printf("release ran %d times (once per Cube); tensors alive: %lld more than at the start\n", releases,
         (long long)(ct_live_tensors() - start));
  return 0;
}
