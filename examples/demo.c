/* demo.c - the example the README's first command builds with the plugin:
   a loop, a switch lowered to a jump table, a call and a noreturn path. */
#include <stdio.h>
#include <stdlib.h>

static int cost(int op) {
  switch (op) {
  case 0: return 1;
  case 1: return 4;
  case 2: return 9;
  case 3: return 16;
  case 4: return 25;
  default: return 0;
  }
}

__attribute__((noreturn)) static void usage(const char *argv0) {
  fprintf(stderr, "usage: %s N\n", argv0);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc > 2)
    usage(argv[0]);
  int n = argc == 2 ? atoi(argv[1]) : 10, total = 0;
  for (int i = 0; i < n; ++i)
    total += cost(i % 6);
  printf("total cost of %d steps: %d\n", n, total);
  return 0;
}
