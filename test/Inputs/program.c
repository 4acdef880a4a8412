/* A small program with calls, a jump table, a loop and a noreturn path; it
   prints a checksum so tests can check that the linked binary still runs. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int weight(int x) {
  switch (x % 7) {
  case 0: return 3;
  case 1: return 5;
  case 2: return 8;
  case 3: return 13;
  case 4: return 21;
  case 5: return 34;
  default: return 55;
  }
}

__attribute__((noinline, noreturn)) void die(const char *msg) {
  fprintf(stderr, "%s\n", msg);
  exit(2);
}

__attribute__((noinline)) long checksum(int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 31 + weight(i);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  if (n < 0)
    die("negative");
  printf("checksum(%d) = %ld\n", n, checksum(n));
  return 0;
}
