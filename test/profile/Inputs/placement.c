// placement.c - for layout-placement.test: a hot loop whose code spans
// several periods of a small I-cache's sets and that runs the C library's
// snprintf and strlen on every iteration, so where the hot code starts
// decides which of its lines share sets with the library's hot lines.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIXER(NAME, A, B, C)                                                   \
  __attribute__((noinline)) static unsigned NAME(unsigned X, unsigned I) {     \
    switch (X % 8) {                                                           \
    case 0: return X * A + I;                                                  \
    case 1: return (X ^ (X >> 13)) * B + 7;                                    \
    case 2: return X + (I << 3) - (X >> 5) + C;                                \
    case 3: return (X << 7) ^ (X >> 9) ^ (I * A);                              \
    case 4: return X * 69069u + B;                                             \
    case 5: return (X | C) - (I & 0xff) * B;                                   \
    case 6: return X ^ (A + I * C);                                            \
    default: return X / 3 + I * B;                                             \
    }                                                                          \
  }
MIXER(mix_a, 2654435761u, 40503u, 0x1010u)
MIXER(mix_b, 2246822519u, 3266489917u, 0x2021u)
MIXER(mix_c, 668265263u, 374761393u, 0x7f4au)
MIXER(mix_d, 1597334677u, 2869860233u, 0x3c6eu)
MIXER(mix_e, 83492791u, 19349663u, 0x5bd1u)
MIXER(mix_f, 73856093u, 2166136261u, 0x9e37u)

__attribute__((noinline)) unsigned work(unsigned N) {
  unsigned H = 1;
  char Buf[32];
  for (unsigned I = 0; I < N; ++I) {
    H = mix_a(H, I);
    H = mix_b(H, I);
    H = mix_c(H, I);
    snprintf(Buf, sizeof Buf, "%u", H);
    H = mix_d(H, (unsigned)strlen(Buf));
    H = mix_e(H, I);
    H = mix_f(H, I);
  }
  return H;
}

int main(int argc, char **argv) {
  unsigned N = argc > 1 ? (unsigned)atoi(argv[1]) : 4000;
  printf("%u\n", work(N));
  return 0;
}
