; Every ELF target the plugin covers (plugin/Targets.cpp), through llc
; -mtriple at -O2 and -O0: the map equals the in-tree map decoded (block IDs
; included) and byte for byte, relocations included, and the code equals a
; build without a map (differential.py). Targets with REL relocations,
; which llvm-readobj cannot apply in a .o, are decoded after linking with
; ld.lld (--link). RISC-V also with linker relaxation. Xtensa, which llc 19
; cannot compile this with, is in cross-targets-xtensa.ll.
;
; RUN: for t in x86_64-linux-gnu aarch64-linux-gnu aarch64_be-linux-gnu \
; RUN:     amdgcn-amd-amdhsa hexagon-unknown-linux-musl lanai-unknown-unknown \
; RUN:     loongarch32-unknown-linux-gnu loongarch64-unknown-linux-gnu \
; RUN:     m68k-linux-gnu mips64-linux-gnuabi64 mips64el-linux-gnuabi64 \
; RUN:     powerpc-linux-gnu powerpcle-linux-gnu powerpc64-linux-gnu \
; RUN:     powerpc64le-linux-gnu riscv32-linux-gnu riscv64-linux-gnu \
; RUN:     sparc-linux-gnu sparcel-linux-gnu sparcv9-linux-gnu s390x-linux-gnu \
; RUN:     ve-unknown-linux-gnu; do \
; RUN:   for o in 2 0; do echo "== $t -O$o"; \
; RUN:     %differential-llc %s -O$o -mtriple=$t || exit 1; done; done \
; RUN:   > %t.rela.log
; RUN: FileCheck %s --input-file=%t.rela.log --check-prefix=RELA \
; RUN:   --implicit-check-not=DIFFERENT
; RELA-COUNT-44: map: identical (2 functions, {{[1-9][0-9]*}} blocks)
; RUN: grep -c '^bytes: identical (1 map sections)' %t.rela.log \
; RUN:   | FileCheck %s --check-prefix=N44
; RUN: grep -c '^text: identical' %t.rela.log | FileCheck %s --check-prefix=N44
; N44: {{^44$}}
;
; RUN: for t in i686-linux-gnu arm-linux-gnueabihf armeb-linux-gnueabi \
; RUN:     thumbv7-linux-gnueabihf thumbeb-linux-gnueabi mips-linux-gnu \
; RUN:     mipsel-linux-gnu; do \
; RUN:   for o in 2 0; do echo "== $t -O$o"; \
; RUN:     %differential-llc %s -O$o -mtriple=$t --link || exit 1; done; done \
; RUN:   > %t.rel.log
; RUN: FileCheck %s --input-file=%t.rel.log --check-prefix=REL \
; RUN:   --implicit-check-not=DIFFERENT
; REL-COUNT-14: map: identical (2 functions, {{[1-9][0-9]*}} blocks)
; RUN: grep -c '^bytes: identical (1 map sections)' %t.rel.log \
; RUN:   | FileCheck %s --check-prefix=N14
; RUN: grep -c '^text: identical' %t.rel.log | FileCheck %s --check-prefix=N14
; N14: {{^14$}}
;
; RUN: %differential-llc %s -O2 -mtriple=riscv64-linux-gnu -mattr=+c,+relax \
; RUN:   | FileCheck %s --check-prefix=RELAX
; RELAX: map: identical (2 functions, {{[1-9][0-9]*}} blocks)
; RELAX: bytes: identical (1 map sections)
; RELAX: text: identical
; RUN: llc -O2 -mtriple=i686-linux-gnu -load=%plugin %s -filetype=obj -o %t.o
; RUN: llvm-readelf -h %t.o | FileCheck %s --check-prefix=ELF32
; ELF32: Class: ELF32
;
; Other ELF targets: one warning, and the object a build without the
; plugin writes (no list mode for block IDs either). XCore writes assembly
; only.
; RUN: for t in avr-unknown-unknown bpfel bpfeb msp430-unknown-unknown; do \
; RUN:   llc -O2 -mtriple=$t %s -filetype=obj -o %t.$t.stock.o && \
; RUN:   llc -O2 -mtriple=$t -load=%plugin %s -filetype=obj -o %t.$t.o 2>&1 && \
; RUN:   cmp %t.$t.stock.o %t.$t.o || exit 1; done | FileCheck %s --check-prefix=OTHER
; RUN: llc -O2 -mtriple=xcore-unknown-unknown %s -o %t.xcore.stock.s
; RUN: llc -O2 -mtriple=xcore-unknown-unknown -load=%plugin %s -o %t.xcore.s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=XCORE
; RUN: diff %t.xcore.stock.s %t.xcore.s
; OTHER:      warning: bbmap: the map is not tested on target 'avr-unknown-unknown' (docs/plugin.md lists those it is); no map is emitted
; OTHER-NEXT: warning: bbmap: the map is not tested on target 'bpfel' (docs/plugin.md lists those it is); no map is emitted
; OTHER-NEXT: warning: bbmap: the map is not tested on target 'bpfeb' (docs/plugin.md lists those it is); no map is emitted
; OTHER-NEXT: warning: bbmap: the map is not tested on target 'msp430-unknown-unknown' (docs/plugin.md lists those it is); no map is emitted
; XCORE: warning: bbmap: the map is not tested on target 'xcore-unknown-unknown'

declare void @sink(i32)

define i32 @select_op(i32 %op, i32 %a, i32 %b) {
entry:
  switch i32 %op, label %other [
    i32 0, label %add
    i32 1, label %sub
    i32 2, label %mul
    i32 3, label %shl
  ]
add:
  %r0 = add i32 %a, %b
  br label %done
sub:
  %r1 = sub i32 %a, %b
  br label %done
mul:
  %r2 = mul i32 %a, %b
  br label %done
shl:
  %r3 = shl i32 %a, %b
  br label %done
other:
  call void @sink(i32 %op)
  br label %done
done:
  %r = phi i32 [ %r0, %add ], [ %r1, %sub ], [ %r2, %mul ], [ %r3, %shl ], [ 0, %other ]
  ret i32 %r
}

define void @count(i32 %n) {
entry:
  %z = icmp sle i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @sink(i32 %i)
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
