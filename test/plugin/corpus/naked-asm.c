// Naked functions and inline assembly.
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

__attribute__((naked)) int naked_add(int a, int b) {
  __asm__ volatile("leal (%rdi,%rsi), %eax\n\tret");
}

int with_asm(int x) {
  int y;
  __asm__("imull $3, %1, %0" : "=r"(y) : "r"(x));
  if (y > 100)
    __asm__ volatile("nop; nop; nop");
  return y;
}
