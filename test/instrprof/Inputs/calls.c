// calls.c - the instrumented program of test/instrprof: indirect calls
// through a function-pointer table (one target never instrumented: ext_op
// of ext.c), memcpy of varying sizes, loops, a local and an unused function.
#include <stdlib.h>
#include <string.h>

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
int never(int a, int b) { return a / (b + 1); }

typedef int (*binop)(int, int);
int ext_op(int, int);
binop table[] = {add, sub, mul, add, ext_op};

char buf[256], dst[256];

int main(int argc, char **argv) {
  int acc = argc;
  for (int i = 0; i < 100; ++i) {
    acc = table[i % 5](acc, i);
    if (i % 7 == 0)
      memcpy(dst, buf, (size_t)(i % 3) * 8 + argc);
    if (argc > 5 && i > 3)
      acc = never(acc, i);
  }
  for (int j = 0; j < 3; ++j)
    memcpy(dst, buf, 64 + argc);
  return acc & 1;
}
