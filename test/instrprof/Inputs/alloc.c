// alloc.c - heap allocations of a few sizes from a function that is not
// inlined: the memory profile (clang -fmemory-profile) has its call stack.
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *get(int n) { return malloc(n); }

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 0; i < 1000; ++i) {
    char *p = get(64 + i % 5);
    memset(p, i, 64);
    sum += p[argc];
    free(p);
  }
  return sum == 7;
}
