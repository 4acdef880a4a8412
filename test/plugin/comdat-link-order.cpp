// Each map section is SHF_LINK_ORDER to its text section and joins that text
// section's COMDAT group; section headers and groups equal the in-tree ones.
//
// RUN: clang++ -O2 -ffunction-sections -c %s -o %t.plugin.o -fpass-plugin=%plugin
// RUN: clang++ -O2 -ffunction-sections -c %s -o %t.intree.o -fbasic-block-address-map
// RUN: llvm-readelf -S -g %t.plugin.o > %t.plugin.txt
// RUN: llvm-readelf -S -g %t.intree.o > %t.intree.txt
// RUN: FileCheck %s < %t.plugin.txt
// RUN: sed -n '/COMDAT group/,$p' %t.plugin.txt > %t.plugin.groups
// RUN: sed -n '/COMDAT group/,$p' %t.intree.txt > %t.intree.groups
// RUN: diff %t.intree.groups %t.plugin.groups
// RUN: awk '/llvm_bb_addr_map/ {print $2, $3, $9, $10}' %t.plugin.txt > %t.plugin.flags
// RUN: awk '/llvm_bb_addr_map/ {print $2, $3, $9, $10}' %t.intree.txt > %t.intree.flags
// RUN: diff %t.intree.flags %t.plugin.flags
//
// Plain function: its own text section, map linked to it.
// CHECK: [ [[PLAIN:[0-9]+]]] .text._Z5plaini PROGBITS
// CHECK: .llvm_bb_addr_map LLVM_BB_ADDR_MAP {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 L [[PLAIN]] 0 1
// Template instance: COMDAT group holding text, map and its relocations.
// CHECK: COMDAT group section [{{ *[0-9]+}}] `.group' [_Z4pickIiET_S0_S0_] contains 4 sections:
// CHECK-NEXT: [Index] Name
// CHECK-NEXT: .text._Z4pickIiET_S0_S0_
// CHECK-NEXT: .rela.text._Z4pickIiET_S0_S0_
// CHECK-NEXT: .llvm_bb_addr_map
// CHECK-NEXT: .rela.llvm_bb_addr_map

int helper(int);

template <typename T> __attribute__((noinline)) T pick(T a, T b) {
  return a < b ? helper(a) : b;
}

int plain(int x) { return pick(x, 3) + (x > 5 ? 1 : helper(x)); }
