/* rare-blocks.c - a loop with three rarely taken blocks, for the cold
 * fraction of layouts (test/profile/layout-cold-fraction.test). kernel()
 * runs 1000 times, its loop 100000 times in all; one of those iterations
 * calls once() (a 100000th, below bbmap-profile's default --cold-fraction
 * of 0.00003), 20 call seldom() (a 5000th) and 500 call sometimes() (a
 * 200th). */
#include <stdio.h>
#include <stdlib.h>

static unsigned iteration;

__attribute__((noinline)) void seldom(unsigned *s) { *s += 7; }

__attribute__((noinline)) void sometimes(unsigned *s) { *s ^= 3; }

__attribute__((noinline)) void once(unsigned *s) { *s += 11; }

__attribute__((noinline)) unsigned kernel(unsigned s, unsigned n) {
  for (unsigned i = 0; i < n; i++, iteration++) {
    s = s * 31 + i;
    if (iteration % 5000 == 0)
      seldom(&s);
    if (iteration % 200 == 1)
      sometimes(&s);
    if (iteration == 54321)
      once(&s);
  }
  return s;
}

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  unsigned s = 0;
  for (unsigned r = 0; r < rounds; r++)
    s = kernel(s, 100);
  printf("%u\n", s);
  return 0;
}
