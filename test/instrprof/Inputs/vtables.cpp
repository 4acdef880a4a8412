// vtables.cpp - virtual calls for vtable value profiling (LLVM 19+).
#include <cstdio>
struct B { virtual int f(int) = 0; virtual ~B() {} };
struct D1 : B { int f(int x) override { return x + 1; } };
struct D2 : B { int f(int x) override { return x * 2; } };
int main(int argc, char **) {
  B *objs[] = {new D1, new D2, new D1};
  int acc = argc;
  for (int i = 0; i < 30; ++i) acc = objs[i % 3]->f(acc) & 0xffff;
  printf("%d\n", acc & 1);
  return 0;
}
