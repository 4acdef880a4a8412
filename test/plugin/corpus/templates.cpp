// Inline functions and templates: COMDAT text sections and their maps.
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

template <typename T> T clamp_to(T v, T lo, T hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

template <typename T> struct Acc {
  T total{};
  void add(T v) {
    if (v > 0)
      total += v;
    else
      total -= v;
  }
};

inline int twice(int x) { return x > 0 ? 2 * x : -2 * x; }

int use_templates(int a, double b) {
  Acc<int> ai;
  Acc<double> ad;
  for (int i = 0; i < a; ++i) {
    ai.add(clamp_to(i - 5, -3, 3));
    ad.add(clamp_to(b * i, -1.0, 1.0));
  }
  return ai.total + static_cast<int>(ad.total) + twice(a);
}

// Not inlined at -O0 and kept out of line by the address taken below.
int (*twice_ptr)(int) = &twice;
