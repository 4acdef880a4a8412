/* a.c - one of two files with a local function named helper (b.c has the
   other): layout-modules.test lays both out apart through `m` lines. */
__attribute__((noinline)) static int helper(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += (i % 3 == 0) ? i * 2 : (i % 5 == 0 ? -i : 1);
  return s;
}
int fa(int n) { return helper(n) + (n > 1000000 ? helper(n / 2) : 0); }
