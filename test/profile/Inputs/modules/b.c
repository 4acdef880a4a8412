/* b.c - the other local helper and scale (see a.c), with other CFGs and hot
   paths. */
__attribute__((noinline)) static int helper(int x) {
  int s = 1;
  while (x > 1) {
    if (x & 1) x = 3 * x + 1; else x /= 2;
    s++;
    if (s > 100000) return -1;
  }
  return s;
}
__attribute__((noinline)) static int scale(int x) {
  if (x % 7 == 0)
    return x;
  return x % 2 ? x * 5 : x - 1;
}
int fb(int n) {
  int t = 0;
  for (int i = 1; i < n; i++)
    t += scale(helper(i));
  return t;
}
