/* strings-rep.c - exact-trace self-check program: rep string instructions
 * (inline asm rep stosb at a block start, clang's rep movsb from
 * __builtin_memcpy_inline), libc string calls, and setjmp/longjmp. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static char a[8192], b[8192];
static jmp_buf env;

__attribute__((noinline)) static void fill(char *p, unsigned long n, int c) {
  if (n % 3 == 1) {
    for (unsigned long i = 0; i < n; i++)
      p[i] = (char)(c + (int)i);
    return;
  }
  /* A block that starts with the rep instruction; n == 0 does no
   * iteration. */
  __asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(c) : "memory");
}

__attribute__((noinline)) static void copy_page(char *d, const char *s) {
  __builtin_memcpy_inline(d, s, 4096);
}

__attribute__((noinline)) static void maybe_jump(int i) {
  if (i % 7 == 3)
    longjmp(env, i);
}

int main(void) {
  unsigned long total = 0;
  for (int i = 0; i < 40; i++) {
    fill(a, (unsigned long)(i * 37) % 300, i);   /* i == 0: zero iterations */
    copy_page(b + (i & 3), a);
    memset(b + 4096, i, (size_t)i * 11);
    total += strlen(b) + (unsigned char)b[i];
    if (setjmp(env) == 0)
      maybe_jump(i);
    else
      total += 1000;
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%lu", total);
  puts(buf);
  return 0;
}
