// Input program of the BAT tests: rare() is called on one iteration in
// seven, and its two printf branches never run; a profile that only marks
// entry blocks hot makes BOLT split every function into hot and cold parts.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int rare(int x) {
  if (x > 1000) {
    printf("big %d\n", x);
    return x * 3;
  }
  if (x < -1000) {
    printf("small %d\n", x);
    return -x;
  }
  return x + 1;
}

__attribute__((noinline)) int hot(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 7 == 0)
      s += rare(i);
    else if (i % 3 == 0)
      s -= i;
    else
      s ^= i;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  printf("%d\n", hot(n));
  return 0;
}
