/* a.c - one of two files with local functions named helper and scale (b.c
   has the others): layout-modules.test lays all four out apart through `m`
   lines. */
__attribute__((noinline)) static int helper(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += (i % 3 == 0) ? i * 2 : (i % 5 == 0 ? -i : 1);
  return s;
}
__attribute__((noinline)) static int scale(int x) {
  return x > 100 ? x / 3 : (x < -100 ? x * 2 : x + 7);
}
int fa(int n) {
  return scale(helper(n)) + (n > 1000000 ? helper(n / 2) : 0);
}
