// C++ input for the dumper tests: a function template and an inline member
// function (COMDAT groups, one map section each), a namespace and a throw.
#include <stdexcept>

template <typename T> __attribute__((noinline)) T twice(T X) {
  return X > 100 ? X : X * 2;
}

struct Counter {
  __attribute__((noinline)) int step(int A) {
    for (int I = 0; I < A; ++I)
      Value += I % 3 ? twice(I) : -I;
    return Value;
  }
  int Value = 0;
};

namespace app {
int run(int N) {
  if (N > 1000)
    throw std::runtime_error("too big");
  Counter C;
  return C.step(N) + static_cast<int>(twice<long>(N));
}
} // namespace app

int main(int Argc, char **) {
  try {
    return app::run(Argc);
  } catch (const std::exception &) {
    return 1;
  }
}
