/* A training step written in C against the header, and the GEMMs it does called directly
   through cblas: the C rows of bench/compare_training.py (issue 26).

     train_step BATCH WIDTH SECONDS [--gemms] [--zero-in-place]

   The model is bench/compare_training.py's: a 3-layer MLP (three WIDTH x WIDTH float32
   weights with biases, ReLU after the first two), an MSE loss against a fixed target, backward,
   and torch.optim.SGD's update under no-grad: p += -lr * grad in place (ct_add_alpha_), then
   the gradients set to none (zero_grad()'s default since torch 2.0), one thread.  With
   --zero-in-place the update of older code instead: p -= grad * lr through a temporary, and
   the gradients zeroed in place (zero_grad(set_to_none=False)).  Prints one
   line: "step_ns N" (the minimum over rounds of the mean time per step), and with --gemms a
   second line "gemms_ns N": the time of the eight sgemm calls that step performs (three
   forward; two per layer backward, but none for the input, which needs no gradient), on
   buffers of the same sizes, through OpenBLAS's cblas with one thread, and a third line
   "gemms_memset_ns N": the same calls with C zeroed by memset and beta = 1, as ctensor's
   matmul makes them (OpenBLAS's ZEN kernels zero C for beta = 0 one float at a time), so that
   the ratio to the plain calls can be told apart from that workaround. */
#define _POSIX_C_SOURCE 199309L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "best_ns.h"
#include "ctensor.h"

extern void openblas_set_num_threads(int num_threads);

enum { LAYERS = 3 };

static ct_tensor *must(ct_tensor *t, const char *what) {
  if (!t) {
    fprintf(stderr, "train_step: %s failed: %s\n", what, ct_last_error());
    exit(1);
  }
  return t;
}

static void must_ok(ct_status s, const char *what) {
  if (s != CT_OK) {
    fprintf(stderr, "train_step: %s failed: %s\n", what, ct_last_error());
    exit(1);
  }
}

struct model {
  ct_tensor *w[LAYERS], *b[LAYERS];
  ct_tensor *x, *y;
};

/* Releases a and returns b: lets a chain of ops drop each intermediate as it goes. */
static ct_tensor *then(ct_tensor *a, ct_tensor *b) {
  ct_tensor_release(a);
  return b;
}

static int zero_in_place = 0;

static void step(struct model *m, double lr) {
  ct_tensor *h = ct_tensor_retain(m->x);
  for (int l = 0; l < LAYERS; ++l) {
    ct_tensor *z = must(ct_matmul(h, m->w[l]), "matmul");
    h = then(h, must(ct_add(z, m->b[l]), "add"));
    ct_tensor_release(z);
    if (l < LAYERS - 1) h = then(h, must(ct_relu(h), "relu"));
  }
  ct_tensor *diff = must(ct_sub(h, m->y), "sub");
  ct_tensor *sq = must(ct_mul(diff, diff), "mul");
  ct_tensor *loss = must(ct_mean(sq, 0, NULL, 0), "mean");
  must_ok(ct_backward(loss, NULL, 0), "backward");
  ct_tensor_release(loss);
  ct_tensor_release(sq);
  ct_tensor_release(diff);
  ct_tensor_release(h);
  const int prev = ct_set_grad_enabled(0);
  for (int l = 0; l < LAYERS; ++l) {
    ct_tensor *params[2] = {m->w[l], m->b[l]};
    for (int k = 0; k < 2; ++k) {
      ct_tensor *g = must(ct_grad(params[k]), "grad");
      if (zero_in_place) {
        ct_tensor *scaled = must(ct_mul_scalar(g, lr), "mul_scalar");
        must_ok(ct_sub_(params[k], scaled), "sub_");
        must_ok(ct_zero_(g), "zero_");
        ct_tensor_release(scaled);
      } else {
        must_ok(ct_add_alpha_(params[k], g, -lr), "add_alpha_");
        must_ok(ct_set_grad(params[k], NULL), "set_grad");
      }
      ct_tensor_release(g);
    }
  }
  ct_set_grad_enabled(prev);
}

struct step_arg {
  struct model *m;
};
static void run_step(void *p) { step(((struct step_arg *)p)->m, 1e-3); }

/* The sgemm calls of one step, row-major as ctensor's tensors: forward Z = H W (three),
   backward dW = H^T dZ (three) and dH = dZ W^T (two: the input takes no gradient). */
struct gemm_arg {
  int batch, width;
  int zero_by_memset;
  float *h[LAYERS + 1], *w[LAYERS], *dz[LAYERS], *dw[LAYERS], *dh[LAYERS];
};
/* C = 0 when zeroing by memset, and the beta that goes with it. */
static float zeroed(const struct gemm_arg *g, float *c, size_t n) {
  if (!g->zero_by_memset) return 0.f;
  memset(c, 0, n * sizeof *c);
  return 1.f;
}
static void run_gemms(void *p) {
  struct gemm_arg *g = p;
  const int B = g->batch, W = g->width;
  const size_t act = (size_t)B * W, weight = (size_t)W * W;
  for (int l = 0; l < LAYERS; ++l) {
    const float beta = zeroed(g, g->h[l + 1], act);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, W, W, 1.f, g->h[l], W, g->w[l], W, beta, g->h[l + 1], W);
  }
  for (int l = LAYERS - 1; l >= 0; --l) {
    const float beta_w = zeroed(g, g->dw[l], weight);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, W, W, B, 1.f, g->h[l], W, g->dz[l], W, beta_w, g->dw[l], W);
    if (l > 0) {
      const float beta_h = zeroed(g, g->dh[l], act);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, B, W, W, 1.f, g->dz[l], W, g->w[l], W, beta_h, g->dh[l], W);
    }
  }
}

static float *filled(size_t n) {
  float *p = malloc(n * sizeof *p);
  if (!p) exit(1);
  for (size_t i = 0; i < n; ++i) p[i] = (float)((i * 2654435761u) % 1000) / 1000.f - 0.5f;
  return p;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: train_step BATCH WIDTH SECONDS [--gemms] [--zero-in-place]\n");
    return 2;
  }
  const int B = atoi(argv[1]), W = atoi(argv[2]);
  const double seconds = atof(argv[3]);
  int gemms = 0;
  for (int i = 4; i < argc; ++i) {
    if (strcmp(argv[i], "--gemms") == 0) {
      gemms = 1;
    } else if (strcmp(argv[i], "--zero-in-place") == 0) {
      zero_in_place = 1;
    } else {
      fprintf(stderr, "train_step: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (B <= 0 || W <= 0 || seconds <= 0) {
    fprintf(stderr, "train_step: BATCH, WIDTH and SECONDS must be positive\n");
    return 2;
  }
  ct_set_num_threads(1);
  openblas_set_num_threads(1);

  struct model m;
  const int64_t wsz[2] = {W, W}, bsz[1] = {W}, xsz[2] = {B, W};
  for (int l = 0; l < LAYERS; ++l) {
    m.w[l] = must(ct_randn(2, wsz, CT_FLOAT32), "randn");
    must_ok(ct_mul_scalar_(m.w[l], 0.1), "mul_scalar_");
    m.b[l] = must(ct_zeros(1, bsz, CT_FLOAT32), "zeros");
    must_ok(ct_set_requires_grad(m.w[l], 1), "requires_grad");
    must_ok(ct_set_requires_grad(m.b[l], 1), "requires_grad");
  }
  m.x = must(ct_randn(2, xsz, CT_FLOAT32), "randn");
  m.y = must(ct_randn(2, xsz, CT_FLOAT32), "randn");
  struct step_arg sa = {&m};
  for (int i = 0; i < 20; ++i) run_step(&sa); /* warm up: grads allocated, caches filled */
  printf("step_ns %.1f\n", best_ns(run_step, &sa, seconds));

  if (gemms) {
    struct gemm_arg g = {.batch = B, .width = W};
    for (int l = 0; l <= LAYERS; ++l) g.h[l] = filled((size_t)B * W);
    for (int l = 0; l < LAYERS; ++l) {
      g.w[l] = filled((size_t)W * W);
      g.dw[l] = filled((size_t)W * W);
      g.dz[l] = filled((size_t)B * W);
      g.dh[l] = filled((size_t)B * W);
    }
    run_gemms(&g);
    printf("gemms_ns %.1f\n", best_ns(run_gemms, &g, seconds));
    g.zero_by_memset = 1;
    printf("gemms_memset_ns %.1f\n", best_ns(run_gemms, &g, seconds));
    for (int l = 0; l <= LAYERS; ++l) free(g.h[l]);
    for (int l = 0; l < LAYERS; ++l) {
      free(g.w[l]);
      free(g.dw[l]);
      free(g.dz[l]);
      free(g.dh[l]);
    }
  }
  for (int l = 0; l < LAYERS; ++l) {
    ct_tensor_release(m.w[l]);
    ct_tensor_release(m.b[l]);
  }
  ct_tensor_release(m.x);
  ct_tensor_release(m.y);
  return 0;
}
