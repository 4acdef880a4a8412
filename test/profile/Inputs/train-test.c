/* train-test.c - a program whose training run leaves code unseen, for the
 * layout policy tests (test/profile/layout-policy.test). `train-test train`
 * runs the kernel on small inputs; `train-test test` runs it on larger ones,
 * which reach a block of kernel() (the call of rare()) and two functions
 * (rare() and report()) that the training run never executes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned state = 7;

static unsigned next(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

__attribute__((noinline)) static long rare(long x) {
  long s = 0;
  for (long i = 0; i < x % 13; i++)
    s += (x >> i) ^ i;
  return s;
}

__attribute__((noinline)) static long mix(long x) {
  return (x * 2654435761u) >> 7;
}

__attribute__((noinline)) static long kernel(long n, unsigned limit) {
  long sum = 0;
  for (long i = 0; i < n; i++) {
    unsigned v = next();
    sum += mix(v);
    if (v > limit)
      sum += rare(v);
    if (v % 1000 == 999)
      sum ^= v;
  }
  return sum;
}

__attribute__((noinline)) static void report(long sum) {
  printf("large: %ld\n", sum % 1000003);
}

int main(int argc, char **argv) {
  int test = argc > 1 && strcmp(argv[1], "test") == 0;
  long sum = kernel(test ? 200000 : 20000, test ? 30000 : 0x7fff);
  if (test)
    report(sum);
  printf("sum: %ld\n", sum % 1000003);
  return 0;
}
