/* other.c - a program that shares only main() with stale.c, whose profile
   layout-errors.test applies to it (a profile of another binary). */
#include <stdio.h>
#include <string.h>

static const char Text[] = "the quick brown fox jumps over the lazy dog";

__attribute__((noinline)) int words(const char *s) {
  int n = 0, in = 0;
  for (; *s; ++s) {
    int space = *s == ' ';
    n += !space && !in;
    in = !space;
  }
  return n;
}

int main(int argc, char **argv) {
  (void)argv;
  int n = 0;
  for (int i = 0; i < argc * 100; ++i)
    n += words(Text + (i % 7));
  printf("%d %zu\n", n, strlen(Text));
  return 0;
}
