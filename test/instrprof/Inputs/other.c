/* other.c - a program with other functions than calls.c: its binary is
   "another binary" for binary.test (no function of it has a record of
   calls.c's profile, and calls.c's functions are not in it). */
#include <stdio.h>
static int twice(int x) { return 2 * x; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += twice(i);
  printf("%d\n", s);
  return 0;
}
