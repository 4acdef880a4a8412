// Assembly output (-S) assembles to the same map as direct object output,
// for the native encoding and the legacy V0 type.
//
// RUN: clang -O2 -S %s -o %t.s -fpass-plugin=%plugin
// RUN: clang -c %t.s -o %t.from-asm.o
// RUN: clang -O2 -c %s -o %t.direct.o -fpass-plugin=%plugin
// RUN: llvm-readobj --bb-addr-map %t.direct.o | tail -n +3 > %t.direct.txt
// RUN: llvm-readobj --bb-addr-map %t.from-asm.o | tail -n +3 > %t.from-asm.txt
// RUN: diff %t.direct.txt %t.from-asm.txt
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: FileCheck %s --check-prefix=MAP < %t.direct.txt
//
// RUN: env BBMAP_OPTIONS=-bbmap-version=v0-type clang -O2 -S %s -o %t.v0.s -fpass-plugin=%plugin
// RUN: clang -c %t.v0.s -o %t.v0.from-asm.o
// RUN: env BBMAP_OPTIONS=-bbmap-version=v0-type clang -O2 -c %s -o %t.v0.direct.o -fpass-plugin=%plugin
// RUN: llvm-readelf -x .llvm_bb_addr_map %t.v0.direct.o | tail -n +3 > %t.v0.direct.hex
// RUN: llvm-readelf -x .llvm_bb_addr_map %t.v0.from-asm.o | tail -n +3 > %t.v0.from-asm.hex
// RUN: diff %t.v0.direct.hex %t.v0.from-asm.hex
// RUN: FileCheck %s --check-prefix=ASMV0 < %t.v0.s
//
// ASM:   .section .llvm_bb_addr_map,"o",@llvm_bb_addr_map,.text
// ASM:   # version
// ASM:   # feature
// ASMV0: {{\.section|\.pushsection}} .llvm_bb_addr_map,"o",@0x6fff4c08,.text
// MAP:   Name: step
// MAP:   Name: loop

int step(int x) { return x & 1 ? 3 * x + 1 : x / 2; }

int loop(int x) {
  int n = 0;
  while (x > 1 && n < 500) {
    x = step(x);
    ++n;
  }
  return n;
}
