/* util.c - the build-style test program, part 2 of 3: hashing and a jump
 * table. `mix` is local and not inlined: when ThinLTO imports util_hash
 * into hot.c's module, it promotes `mix` to a global `mix.llvm.<hash>`,
 * the name its map, the cluster profile and the symbol order then use. */
#include "hot.h"

__attribute__((noinline)) static unsigned mix(unsigned h, unsigned c) {
  h ^= c;
  h *= 16777619u;
  return h ^ (h >> 15);
}

unsigned util_hash(const char *s, unsigned seed) {
  unsigned h = seed ^ 2166136261u;
  for (; *s; s++) {
    if (*s == '\\' && s[1]) {
      h = mix(h, (unsigned char)s[1] | 0x100u);
      s++;
      continue;
    }
    h = mix(h, (unsigned char)*s);
  }
  return h;
}

int util_classify(int c) {
  switch (c % 11) {
  case 0:
    return 3;
  case 1:
    return c * 7;
  case 2:
    return c - 5;
  case 3:
    return c ^ 0x55;
  case 4:
    return c << 2;
  case 5:
    return c / 3;
  case 6:
    return 17;
  case 7:
    return c + 100;
  case 8:
    return c & 0x0f;
  case 9:
    return c * c;
  default:
    return -c;
  }
}
