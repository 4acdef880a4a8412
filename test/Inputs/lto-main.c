/* ThinLTO input, module 1 of 2. */
#include <stdio.h>
int scale(int x);
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; ++i)
    s += scale(i);
  printf("sum = %d\n", s);
  return 0;
}
