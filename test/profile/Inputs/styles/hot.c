/* hot.c - the build-style test program, part 1 of 3: the rounds of work.
 * With util.c it is the shared library of layout-shared.test, and a
 * module of the PIE (layout-pie.test) and of the ThinLTO build
 * (layout-thinlto.test). libc's qsort calls back into it; a negative round
 * count takes a path that never runs. */
#include "hot.h"
#include <stdio.h>
#include <stdlib.h>

static const char *const words[] = {"alpha",   "beta",         "gamma\\tdelta",
                                    "epsilon", "zeta",         "eta",
                                    "theta",   "iota\\\\kappa"};

static int by_value(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static void report_bad(int rounds) {
  fprintf(stderr, "bad round count %d\n", rounds);
  exit(2);
}

unsigned hot_run(int rounds) {
  if (rounds < 0)
    report_bad(rounds);
  unsigned v[64], acc = 0;
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < 64; i++)
      v[i] = util_hash(words[(i + r) & 7], (unsigned)(r * 64 + i));
    qsort(v, 64, sizeof v[0], by_value);
    for (int i = 0; i < 64; i += 8)
      acc = acc * 31 + (unsigned)util_classify((int)(v[i] & 0xff)) + v[i];
  }
  return acc;
}
