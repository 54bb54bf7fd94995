/* Small helpers shared by the seed examples: stop with ctensor's message on a failed call,
   print a tensor, a yes/no, a list of sizes or strides, and ct_explain's text. */
#ifndef SEED_UTIL_H
#define SEED_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "ctensor.h"

/* Stops the program with ctensor's own message if a call returned NULL. */
static inline ct_tensor *ok(ct_tensor *t, const char *what) {
  if (!t) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, ct_last_error(), ct_status_name(ct_last_status()));
    exit(1);
  }
  return t;
}

/* The same for a call returning ct_status. */
static inline void ok_status(ct_status s, const char *what) {
  if (s != CT_OK) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, ct_last_error(), ct_status_name(s));
    exit(1);
  }
}

static inline const char *yes_no(int v) { return v == 1 ? "yes" : v == 0 ? "no" : "error"; }

/* "label = tensor([...])" with PyTorch's repr. */
static inline void print_tensor(const char *label, const ct_tensor *t) {
  char buf[1024];
  if (ct_tensor_to_string(t, buf, sizeof buf) < 0) {
    fprintf(stderr, "ct_tensor_to_string failed: %s\n", ct_last_error());
    exit(1);
  }
  printf("%s = %s\n", label, buf);
}

/* "(2, 3)": sizes or strides as Python prints a tuple. */
static inline void print_dims(const int64_t *v, int n) {
  printf("(");
  for (int i = 0; i < n; ++i) printf(i ? ", %lld" : "%lld", (long long)v[i]);
  printf(n == 1 ? ",)" : ")");
}

/* ct_explain(a, b): asks for the length first, then fills a buffer of that size. */
static inline void explain(const ct_tensor *a, const ct_tensor *b) {
  const int64_t n = ct_explain(a, b, NULL, 0);
  if (n < 0) {
    fprintf(stderr, "ct_explain failed: %s\n", ct_last_error());
    exit(1);
  }
  char *text = malloc((size_t)n + 1);
  if (!text) exit(1);
  ct_explain(a, b, text, n + 1);
  fputs(text, stdout);
  free(text);
}

#endif /* SEED_UTIL_H */
