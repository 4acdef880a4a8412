; A function with profile data whose cold path -split-machine-functions
; moves to `foo.cold`, giving a two-range map record.
define i32 @foo(i32 %x) !prof !0 {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %cold, label %hot, !prof !1
hot:
  %r = add i32 %x, 1
  ret i32 %r
cold:
  %q = call i32 @bar(i32 %x)
  ret i32 %q
}
declare i32 @bar(i32)

!llvm.module.flags = !{!2}
!0 = !{!"function_entry_count", i64 1000}
!1 = !{!"branch_weights", i32 0, i32 1000}
!2 = !{i32 1, !"ProfileSummary", !3}
!3 = !{!4, !5, !6, !7, !8, !9, !10, !11}
!4 = !{!"ProfileFormat", !"InstrProf"}
!5 = !{!"TotalCount", i64 10000}
!6 = !{!"MaxCount", i64 1000}
!7 = !{!"MaxInternalCount", i64 1}
!8 = !{!"MaxFunctionCount", i64 1000}
!9 = !{!"NumCounts", i64 3}
!10 = !{!"NumFunctions", i64 1}
!11 = !{!"DetailedSummary", !12}
!12 = !{!13, !14}
!13 = !{i32 10000, i64 1000, i32 1}
!14 = !{i32 999999, i64 1, i32 2}
