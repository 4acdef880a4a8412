// C++ exceptions: landing pads (IsEHPad), cleanups, rethrow, noexcept.
// Differential: in-tree map vs bbmap plugin (IDs renumbered), and code vs a
// build without any map, for every flag set of the acceptance matrix.
// RUN: %differential-clang %s -O0 | FileCheck %s
// RUN: %differential-clang %s -O2 | FileCheck %s
// RUN: %differential-clang %s -O2 -g | FileCheck %s
// RUN: %differential-clang %s -O2 -ffunction-sections | FileCheck %s
// RUN: %differential-clang %s -O2 -fbasic-block-sections=all | FileCheck %s
// RUN: %differential-clang %s -Os -fPIC | FileCheck %s
// RUN: %differential-clang %s -O3 | FileCheck %s
// CHECK: map: identical ({{[1-9][0-9]*}} functions, {{[0-9]+}} blocks)
// CHECK: text: identical

#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
  int *p;
  ~Guard() { ++*p; }
};

int may_throw(int x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x * 2;
}

int catch_it(int x) {
  int cleanups = 0;
  try {
    Guard g{&cleanups};
    return may_throw(x) + cleanups;
  } catch (const std::runtime_error &e) {
    return -static_cast<int>(std::string(e.what()).size());
  } catch (...) {
    throw;
  }
}

std::vector<std::string> build(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i)
    v.push_back(std::to_string(i));
  return v;
}

int safe(int x) noexcept { return x + 1; }
