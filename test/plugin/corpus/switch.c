// Jump tables and switch lowering: blocks reached only through a table.
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

int classify(int x) {
  switch (x) {
  case 0: return 11;
  case 1: return 23;
  case 2: return 37;
  case 3: return 41;
  case 4: return 53;
  case 5: return 67;
  case 6: return 79;
  case 7: return 83;
  default: return -1;
  }
}

const char *name(unsigned k) {
  switch (k) {
  case 10: return "ten";
  case 11: return "eleven";
  case 12: return "twelve";
  case 13: return "thirteen";
  case 14: return "fourteen";
  case 100: return "hundred";
  default: return 0;
  }
}

int sum_classes(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += classify(i & 7) + (name(i) != 0);
  return s;
}
