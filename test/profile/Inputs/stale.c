/* stale.c - a program of which two builds differ in one function:
   classify() is rewritten with -DV2, main(), mix() and score() stay the
   same. layout-errors.test profiles the first build and lays out the
   second, for which the profile is stale in classify() alone. */
#include <stdio.h>

__attribute__((noinline)) unsigned mix(unsigned x) {
  for (int i = 0; i < 3; ++i)
    x = (x ^ (x >> 7)) * 0x9e3779b1u;
  return x;
}

__attribute__((noinline)) int classify(unsigned x) {
#ifdef V2
  unsigned sevens = 0;
  while (x > 9) {
    if (x % 10 == 7)
      ++sevens;
    x /= 10;
  }
  if (sevens > 2)
    return 3;
  return sevens == 0 ? 0 : (int)(x & 1) + 1;
#else
  if (x % 3 == 0)
    return 0;
  if (x % 5 == 0)
    return 1;
  return 2 + (int)(x & 1);
#endif
}

__attribute__((noinline)) unsigned score(unsigned x) {
  unsigned s = 0;
  while (x) {
    s += (x & 3) == 3 ? 5 : 1;
    x >>= 2;
  }
  return s;
}

int main(void) {
  unsigned classes[4] = {0, 0, 0, 0};
  unsigned total = 0;
  for (unsigned i = 0; i < 3000; ++i) {
    unsigned h = mix(i);
    ++classes[classify(h)];
    total += score(h);
  }
  printf("%u %u %u %u %u\n", classes[0], classes[1], classes[2], classes[3],
         total);
  return 0;
}
