/* ThinLTO input, module 2 of 2. */
__attribute__((noinline)) int scale(int x) {
  switch (x & 3) {
  case 0: return x * 3;
  case 1: return x + 7;
  case 2: return x - 1;
  default: return x << 2;
  }
}
