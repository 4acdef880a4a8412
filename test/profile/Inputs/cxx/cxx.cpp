// cxx.cpp - C++ shapes a layout must name and split as clang does:
// constructors and destructors, which clang emits once (C2, D2) with the
// complete-object names (C1, D1) as aliases at the same address, and a
// function with two landing pads of which only one ever runs.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

static long Destroyed = 0;

struct Counter {
  std::vector<int> Values;
  std::string Name;
  Counter(const char *N, int K);
  ~Counter();
  int sum() const {
    int S = 0;
    for (int V : Values)
      S += V;
    return S;
  }
};

// Out of line, so that clang emits C1 and D1 as aliases.
__attribute__((noinline)) Counter::Counter(const char *N, int K) : Name(N) {
  for (int I = 0; I < K; ++I)
    Values.push_back(I * 3 % 7);
}
__attribute__((noinline)) Counter::~Counter() { Destroyed += Values.size(); }

__attribute__((noinline)) int check(int I) {
  if (I % 1000 == 999)
    throw std::runtime_error("bad");
  return I & 3;
}

// A's cleanup runs when check throws; B's never does (I is never negative).
__attribute__((noinline)) int work(int I) {
  Counter A("a", I % 5);
  int R = check(I) + A.sum();
  if (I < 0) {
    Counter B("b", 1);
    R += check(-I) + B.sum();
  }
  return R;
}

int main(int Argc, char **Argv) {
  int N = Argc > 1 ? std::atoi(Argv[1]) : 5000;
  long Total = 0;
  int Caught = 0;
  for (int I = 0; I < N; ++I) {
    try {
      Total += work(I);
    } catch (const std::exception &) {
      ++Caught;
    }
  }
  std::printf("%ld %d %ld\n", Total, Caught, Destroyed);
  return 0;
}
