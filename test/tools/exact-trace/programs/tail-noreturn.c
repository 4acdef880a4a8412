/* tail-noreturn.c - exact-trace program: tail calls (direct, conditional
 * and through a function pointer), mutual recursion, and a noreturn path:
 * a checked division calls a noreturn function that longjmps back to main,
 * so the call's block has no fall-through. Portable C (no inline asm), so
 * it runs on every target the tests cross-build for. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf recover;
static unsigned long failures;

__attribute__((noinline, noreturn)) static void fail(unsigned long code) {
  failures += code;
  longjmp(recover, 1);
}

__attribute__((noinline)) static long checked_div(long a, long b) {
  if (b == 0)
    fail(1);
  return a / b;
}

__attribute__((noinline)) static long is_odd(long n);
__attribute__((noinline)) static long is_even(long n) {
  return n == 0 ? 1 : is_odd(n - 1); /* a tail call */
}
__attribute__((noinline)) static long is_odd(long n) {
  return n == 0 ? 0 : is_even(n - 1); /* a tail call */
}

__attribute__((noinline)) static long twice(long x) { return 2 * x + 1; }
__attribute__((noinline)) static long half(long x) { return x / 2 - 3; }
static long (*volatile pick[])(long) = {twice, half};

__attribute__((noinline)) static long dispatch(long x) {
  if (x & 4)
    return twice(x); /* a conditional tail call */
  return pick[x & 1](x); /* an indirect tail call */
}

int main(void) {
  long sum = 0;
  volatile long i;
  for (i = 0; i < 3000; i++) {
    if (setjmp(recover) == 0)
      sum += checked_div(100000, i % 7);
    sum += is_even(i % 37) + dispatch(i);
  }
  printf("sum %ld failures %lu\n", sum, failures);
  return 0;
}
