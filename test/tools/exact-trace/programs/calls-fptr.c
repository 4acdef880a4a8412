/* calls-fptr.c - exact-trace self-check program: recursion, calls through
 * a function-pointer table, and libc calling back into the program (qsort
 * and bsearch comparators). */
#include <stdio.h>
#include <stdlib.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b % 1000003; }
static int (*const ops[])(int, int) = {add, sub, mul, add};

static int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200;
  int *v = malloc(sizeof(int) * (size_t)n);
  int acc = 1;
  for (int i = 0; i < n; i++) {
    v[i] = (i * 7919) % 1009;
    acc = ops[(v[i] ^ i) & 3](acc, v[i]);
  }
  qsort(v, (size_t)n, sizeof(int), cmp);
  int hits = 0;
  for (int k = 0; k < 1009; k += 3)
    hits += bsearch(&k, v, (size_t)n, sizeof(int), cmp) != NULL;
  printf("%d %d %d %d\n", fib(18), ack(2, 3), acc, hits);
  free(v);
  return 0;
}
