; PGO analyses (function entry count, block frequencies, branch
; probabilities), block hashes and OmitBBEntries, compared with the in-tree
; emission of the same llc invocation.
;
; RUN: %differential-llc %s -O2 -mtriple=x86_64 \
; RUN:   --plugin-flag=-bbmap-pgo-analysis=func-entry-count,bb-freq,br-prob \
; RUN:   --intree-flag=-pgo-analysis-map=func-entry-count,bb-freq,br-prob \
; RUN:   | FileCheck %s
; RUN: %differential-llc %s -O2 -mtriple=x86_64 \
; RUN:   --plugin-flag=-bbmap-pgo-analysis=bb-freq \
; RUN:   --intree-flag=-pgo-analysis-map=bb-freq | FileCheck %s
; RUN: %if llvm-22 %{ %differential-llc %s -O2 -mtriple=x86_64 \
; RUN:   --plugin-flag=-bbmap-pgo-analysis=all --plugin-flag=-bbmap-bb-hash \
; RUN:   --intree-flag=-pgo-analysis-map=all --intree-flag=-emit-bb-hash \
; RUN:   --mask-instr-hash | FileCheck %s %}
; RUN: %if llvm-22 %{ %differential-llc %s -O2 -mtriple=x86_64 \
; RUN:   --plugin-flag=-bbmap-pgo-analysis=func-entry-count \
; RUN:   --plugin-flag=-bbmap-skip-bb-entries \
; RUN:   --intree-flag=-pgo-analysis-map=func-entry-count \
; RUN:   --intree-flag=-basic-block-address-map-skip-bb-entries \
; RUN:   | FileCheck %s %}
;
; The PGO data really is there:
; RUN: llc -O2 -mtriple=x86_64 -load=%plugin %s -filetype=obj -o %t.o \
; RUN:   -bbmap-pgo-analysis=func-entry-count,bb-freq,br-prob
; RUN: llvm-readobj --bb-addr-map %t.o | FileCheck %s --check-prefix=PGO
;
; CHECK: map: identical (3 functions, {{[0-9]+}} blocks)
; CHECK: text: identical
; PGO:      Name: hot
; PGO:      PGO analyses {
; PGO-NEXT:   FuncEntryCount: 1500
; PGO-NEXT:   PGO BB entries [
; PGO:          Successors [
; PGO-NEXT:       {
; PGO-NEXT:         ID: {{[0-9]+}}
; PGO-NEXT:         Probability: 0x{{[0-9A-F]+}}

declare void @ext(i32)
declare void @stop() noreturn

define i32 @hot(i32 %x) !prof !0 {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %loop, label %cold, !prof !1
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  call void @ext(i32 %i)
  %n = add i32 %i, 1
  %d = icmp slt i32 %n, %x
  br i1 %d, label %loop, label %done, !prof !2
done:
  ret i32 %n
cold:
  call void @stop()
  unreachable
}

define void @tail_only(i32 %x) !prof !3 {
  tail call void @ext(i32 %x)
  ret void
}

define i32 @no_profile(i32 %x) {
  %y = mul i32 %x, 7
  ret i32 %y
}

!0 = !{!"function_entry_count", i64 1500}
!1 = !{!"branch_weights", i32 90, i32 10}
!2 = !{!"branch_weights", i32 300, i32 1}
!3 = !{!"function_entry_count", i64 7}
