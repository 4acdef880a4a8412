// Calls, tail calls, noreturn calls, recursion, varargs and empty functions.
// Differential: in-tree map vs bbmap plugin (IDs renumbered), and code vs a
// build without any map, for every flag set of the acceptance matrix.
// RUN: %differential-clang %s -O0 | FileCheck %s
// RUN: %differential-clang %s -O2 | FileCheck %s
// RUN: %differential-clang %s -O2 -g | FileCheck %s
// RUN: %differential-clang %s -O2 -ffunction-sections | FileCheck %s
// RUN: %differential-clang %s -O2 -fbasic-block-sections=all | FileCheck %s
// RUN: %differential-clang %s -Os -fPIC | FileCheck %s
// RUN: %differential-clang %s -O3 | FileCheck %s
// CHECK: map: identical ({{[1-9][0-9]*}} functions, {{[0-9]+}} blocks)
// CHECK: text: identical

#include <stdarg.h>
#include <stdlib.h>

void log_value(int);
__attribute__((noreturn)) void fatal(const char *);

int tail(int x) {
  if (x > 3)
    return abs(x - 10); /* tail call at -O2 */
  log_value(x);
  return x;
}

int checked_div(int a, int b) {
  if (b == 0)
    fatal("division by zero");
  return a / b;
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

void nothing(void) {}

__attribute__((noreturn)) void never(void) { __builtin_unreachable(); }

int use_alloca(int n) {
  char *p = __builtin_alloca(n + 1);
  for (int i = 0; i <= n; ++i)
    p[i] = (char)i;
  log_value(p[n / 2]);
  return p[n];
}
