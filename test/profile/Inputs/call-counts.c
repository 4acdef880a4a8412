/* call-counts.c - functions run different numbers of times, for the
 * function orders of layouts (test/profile/layout-function-order.test).
 * In address order: rarely() (10 calls), often() (100000 calls), never()
 * (no call), sometimes() (1000 calls), main(). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned rarely(unsigned s) { return s * 3 + 1; }

__attribute__((noinline)) unsigned often(unsigned s) { return s ^ (s >> 3); }

__attribute__((noinline)) unsigned never(unsigned s) { return s - 5; }

__attribute__((noinline)) unsigned sometimes(unsigned s) { return s + 7; }

int main(int argc, char **argv) {
  unsigned s = argc;
  for (unsigned i = 0; i < 100000; i++) {
    s = often(s);
    if (i % 100 == 0)
      s = sometimes(s);
    if (i % 10000 == 0)
      s = rarely(s);
  }
  if (argc > 5)
    s = never(s);
  printf("%u\n", s);
  (void)argv;
  return 0;
}
