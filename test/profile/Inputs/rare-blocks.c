/* rare-blocks.c - a loop with two rarely taken blocks, for the cold
 * fraction of layouts (test/profile/layout-cold-fraction.test). kernel()
 * runs 1000 times, its loop 100000 times in all; 20 of those iterations
 * call seldom() (a 5000th, below bbmap-profile's default --cold-fraction
 * of 0.003) and 500 call sometimes() (a 200th, above it). */
#include <stdio.h>
#include <stdlib.h>

static unsigned iteration;

__attribute__((noinline)) void seldom(unsigned *s) { *s += 7; }

__attribute__((noinline)) void sometimes(unsigned *s) { *s ^= 3; }

__attribute__((noinline)) unsigned kernel(unsigned s, unsigned n) {
  for (unsigned i = 0; i < n; i++, iteration++) {
    s = s * 31 + i;
    if (iteration % 5000 == 0)
      seldom(&s);
    if (iteration % 200 == 1)
      sometimes(&s);
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
