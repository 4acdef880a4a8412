/* b.c - the other local helper (see a.c), with another CFG and hot path. */
__attribute__((noinline)) static int helper(int x) {
  int s = 1;
  while (x > 1) {
    if (x & 1) x = 3 * x + 1; else x /= 2;
    s++;
    if (s > 100000) return -1;
  }
  return s;
}
int fb(int n) { int t = 0; for (int i = 1; i < n; i++) t += helper(i); return t; }
