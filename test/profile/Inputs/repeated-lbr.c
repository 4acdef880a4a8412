/* repeated-lbr.c - a loop whose body calls a function and holds code that
 * never runs: a repeated newest LBR entry of its back edge implies a run
 * over the whole body, which crosses the call and the code that never ran
 * (test/profile/lbr-repeated.test). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int work(int x) { return x * 3 + 1; }

int main(int argc, char **argv) {
  int n = argc > 5 ? atoi(argv[1]) : 3000;
  unsigned acc = 0;
  for (int i = 0; i < n; i++) {
    if (__builtin_expect(argc > 7, 1)) {
      acc ^= (unsigned)atoi(argv[i % argc]);
      if (acc & 1)
        acc += 17;
    }
    acc += (unsigned)work(i);
  }
  printf("%u\n", acc);
  return 0;
}
