/* loops-switch.c - exact-trace self-check program: nested loops with
 * data-dependent exits and a dense switch that clang lowers to a jump
 * table. */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 12345;

static unsigned next(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

__attribute__((noinline)) static int classify(unsigned v) {
  switch (v % 11) {
  case 0: return 3;
  case 1: return v & 7;
  case 2: return (int)(v >> 3) - 5;
  case 3: return 17;
  case 4: return (int)(v * 3) & 31;
  case 5: return -2;
  case 6: return (int)(v % 13);
  case 7: return 40;
  case 8: return (int)(v ^ 0x55) & 63;
  case 9: return 1;
  default: return 0;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300;
  long sum = 0;
  for (int i = 0; i < n; i++) {
    unsigned v = next();
    int j = 0;
    while (j < (int)(v % 17)) {
      sum += classify(v + (unsigned)j);
      if (sum % 97 == 13)
        break;
      j++;
    }
    if (v & 1)
      continue;
    for (int k = i % 5; k > 0; k--)
      sum -= k;
  }
  printf("%ld\n", sum);
  return 0;
}
