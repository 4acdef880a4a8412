// Computed goto: indirect branches and address-taken blocks.
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

int interpret(const unsigned char *code, int acc) {
  static void *ops[] = {&&op_inc, &&op_dec, &&op_dbl, &&op_halt};
  const unsigned char *pc = code;
#define NEXT goto *ops[*pc++ & 3]
  NEXT;
op_inc:
  acc += 1;
  NEXT;
op_dec:
  acc -= 1;
  NEXT;
op_dbl:
  acc *= 2;
  NEXT;
op_halt:
  return acc;
}
