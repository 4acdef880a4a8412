; Machine function splitting moves cold blocks to a .cold section, giving
; multi-range (MultiBBRange) records whose ranges all live in the entry
; function's map section.
;
; RUN: %differential-llc %s -O2 -mtriple=x86_64 -split-machine-functions \
; RUN:   | FileCheck %s
; RUN: %differential-llc %s -O2 -mtriple=x86_64 -split-machine-functions \
; RUN:   -function-sections | FileCheck %s
; RUN: llc -O2 -mtriple=x86_64 -split-machine-functions -load=%plugin %s \
; RUN:   -filetype=obj -o %t.o
; RUN: llvm-readobj --bb-addr-map %t.o | FileCheck %s --check-prefix=RANGES
; RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTIONS
;
; CHECK: map: identical (1 functions, {{[0-9]+}} blocks)
; CHECK: text: identical
; RANGES:      Name: split
; RANGES:      BB Ranges [
; RANGES-COUNT-2: Base Address: 0x0
; RANGES-NOT:  Base Address
; SECTIONS-COUNT-1: .llvm_bb_addr_map

declare void @work(i32)
declare void @rare(i32)

define void @split(i32 %x) !prof !14 !section_prefix !15 {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %cold, label %hot, !prof !17
hot:
  call void @work(i32 %x)
  ret void
cold:
  call void @rare(i32 %x)
  call void @rare(i32 1)
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 10000}
!4 = !{!"MaxCount", i64 10}
!5 = !{!"MaxInternalCount", i64 1}
!6 = !{!"MaxFunctionCount", i64 1000}
!7 = !{!"NumCounts", i64 3}
!8 = !{!"NumFunctions", i64 5}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12, !13}
!11 = !{i32 10000, i64 100, i32 1}
!12 = !{i32 999900, i64 100, i32 1}
!13 = !{i32 999999, i64 1, i32 2}
!14 = !{!"function_entry_count", i64 7000}
!15 = !{!"function_section_prefix", !"hot"}
!17 = !{!"branch_weights", i32 0, i32 7000}
