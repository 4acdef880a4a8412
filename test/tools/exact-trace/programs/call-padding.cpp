// Calls that end their blocks (the normal continuations of calls that may
// throw are blocks of their own), each followed by alignment padding when
// built with -mllvm -align-all-blocks=5: returns land in the padding and
// the run falls through it into the next block.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static unsigned Seed = 1;

__attribute__((noinline)) void step(unsigned X) {
  Seed = Seed * 33 + X;
  if (Seed == 7)
    throw std::runtime_error("seven");
}

__attribute__((noinline)) unsigned work(unsigned Rounds) {
  unsigned Sum = 0;
  for (unsigned R = 0; R < Rounds; ++R) {
    try {
      step(R);
      Sum += Seed;
      step(Sum);
    } catch (const std::exception &) {
      Sum = 0;
    }
  }
  return Sum;
}

int main(int Argc, char **Argv) {
  std::printf("%u\n", work(Argc > 1 ? std::atoi(Argv[1]) : 300));
  return 0;
}
