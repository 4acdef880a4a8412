// A jump table with calls that do not return: each digit of argv[1] picks a
// case; a sum over 100 or under -100, or the digit 9, ends the program
// through die(). The three calls of die() end main, one after the other.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noreturn)) static void die(int Code) {
  printf("die %d\n", Code);
  exit(Code);
}

int main(int argc, char **argv) {
  int Sum = 0;
  for (const char *P = argv[argc > 1]; *P; ++P) {
    if (Sum > 100)
      die(8);
    if (Sum < -100)
      die(7);
    switch (*P - '0') {
    case 0: Sum += 3; break;
    case 1: Sum ^= 5; break;
    case 2: Sum *= 7; break;
    case 3: Sum -= 11; break;
    case 4: Sum += Sum >> 1; break;
    case 5: Sum = ~Sum; break;
    case 6: Sum += 13; break;
    case 7: Sum |= 0x40; break;
    case 8: Sum &= 0xff; break;
    case 9: die(9);
    default: Sum -= 2; break;
    }
  }
  printf("%d\n", Sum);
  return 0;
}
