// eh.cpp - exceptions through a program built with a section per block
// (layout-relink-eh.test). rethrower's `throw;` leaves an empty block (the
// invoke's normal destination, only `unreachable`), which without
// -mllvm -trap-unreachable gets a section of no bytes; middle has a cleanup
// (a landing pad), so its FDEs share rethrower's CIE and come after them.
#include <cstdio>
#include <stdexcept>

struct Counter {
  int &N;
  ~Counter() { ++N; }
};

__attribute__((noinline)) void thrower(int X) {
  if (X > 2)
    throw std::runtime_error("big");
}

__attribute__((noinline)) int rethrower(int X) {
  try {
    thrower(X);
  } catch (...) {
    if (X > 100)
      return -1;
    throw;
  }
  return X;
}

int Cleanups = 0;

__attribute__((noinline)) int middle(int X) {
  Counter C{Cleanups};
  return rethrower(X) + 1;
}

int main() {
  int Caught = 0;
  for (int I = 0; I < 10; ++I) {
    try {
      middle(I);
    } catch (const std::exception &) {
      ++Caught;
    }
  }
  std::printf("caught %d, cleanups %d\n", Caught, Cleanups);
  return 0;
}
