; Xtensa, covered on LLVM 22 only (llc 19 cannot select this code): as in
; cross-targets.ll, the map equals the in-tree map decoded and byte for
; byte, and the code equals a build without a map.
; REQUIRES: llvm-22
;
; RUN: %differential-llc %s -O2 -mtriple=xtensa-unknown-unknown | FileCheck %s
; RUN: %differential-llc %s -O0 -mtriple=xtensa-unknown-unknown | FileCheck %s
; CHECK:      map: identical (2 functions, {{[1-9][0-9]*}} blocks)
; CHECK-NEXT: bytes: identical (1 map sections)
; CHECK-NEXT: text: identical (1 code sections)

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
