; Other ELF targets through llc -mtriple: 32-bit addresses on i686 (whose
; REL relocations llvm-readobj cannot apply in a .o, hence --link), AArch64
; and RISC-V 64 (with and without linker relaxation).
;
; RUN: %differential-llc %s -O2 -mtriple=i686-linux-gnu --link | FileCheck %s
; RUN: %differential-llc %s -O2 -mtriple=aarch64-linux-gnu | FileCheck %s
; RUN: %differential-llc %s -O2 -mtriple=riscv64-linux-gnu | FileCheck %s
; RUN: %differential-llc %s -O2 -mtriple=riscv64-linux-gnu -mattr=+c,+relax | FileCheck %s
; RUN: %differential-llc %s -O0 -mtriple=aarch64-linux-gnu | FileCheck %s
; RUN: %differential-llc %s -O0 -mtriple=riscv64-linux-gnu | FileCheck %s
; RUN: %differential-llc %s -O0 -mtriple=i686-linux-gnu --link | FileCheck %s
; RUN: llc -O2 -mtriple=i686-linux-gnu -load=%plugin %s -filetype=obj -o %t.o
; RUN: llvm-readelf -h %t.o | FileCheck %s --check-prefix=ELF32
;
; CHECK: map: identical (2 functions, {{[0-9]+}} blocks)
; CHECK: text: identical
; ELF32: Class: ELF32

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
