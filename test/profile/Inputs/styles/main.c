/* main.c - the build-style test program, part 3 of 3: runs the number of
 * rounds its argument asks for (default 200) and prints the result. */
#include "hot.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 200;
  printf("%u\n", hot_run(rounds));
  return 0;
}
