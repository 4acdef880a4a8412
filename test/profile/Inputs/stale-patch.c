/* stale-patch.c - a program and a small patch of it: -DPATCH adds a check
   to the hot loop of checksum() and an early return to lookup(), as a week
   of development would, without changing what the program prints; the
   other functions stay the same. The
   stale-profile tests profile the unpatched build and carry the profile to
   the patched one (stale-match.test). */
#include <stdio.h>
#include <string.h>

static unsigned table[256];
#ifdef PATCH
unsigned saturated;
#endif

__attribute__((noinline)) void fill(unsigned seed) {
  for (int i = 0; i < 256; ++i) {
    seed = seed * 1103515245u + 12345u;
    table[i] = seed >> 8;
  }
}

__attribute__((noinline)) unsigned checksum(const unsigned char *p, int n) {
  unsigned s = 0;
  for (int i = 0; i < n; ++i) {
#ifdef PATCH
    if (p[i] == 0xff)
      ++saturated;
#endif
    if (p[i] & 1)
      s = (s << 3) ^ table[p[i]];
    else
      s = s * 31 + p[i];
  }
  return s;
}

__attribute__((noinline)) int lookup(unsigned key) {
#ifdef PATCH
  if (key == ~0u)
    return -1;
#endif
  int lo = 0, hi = 255;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if ((table[mid] & 0xffff) == (key & 0xffff))
      return mid;
    if ((table[mid] & 0xff) < (key & 0xff))
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -2;
}

__attribute__((noinline)) unsigned classify(unsigned x) {
  switch (x % 7) {
  case 0:
    return x / 3;
  case 1:
    return x ^ 0x55;
  case 2:
  case 3:
    return x + 11;
  case 4:
    return x * 5;
  default:
    return x >> 2;
  }
}

int main(void) {
  unsigned char buf[512];
  unsigned total = 0;
  fill(7);
  for (int round = 0; round < 400; ++round) {
    for (int i = 0; i < (int)sizeof(buf); ++i)
      buf[i] = (unsigned char)(table[(i + round) & 255] >> (round & 7));
    total += checksum(buf, 64 + round % 300);
    total += (unsigned)lookup(table[round & 255] + (round & 3));
    total += classify(total);
  }
  printf("%u\n", total);
  return 0;
}
