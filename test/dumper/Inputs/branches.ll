; Target-independent functions with branches, a loop, a switch, calls and a
; cold path, compiled by llc for several targets in the dumper tests.
declare i32 @ext(i32)

define i32 @loop(i32 %n) !prof !0 {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %body, label %exit, !prof !1
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %v = call i32 @ext(i32 %i)
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body, !prof !2
exit:
  %r = phi i32 [ 0, %entry ], [ %s.next, %body ]
  ret i32 %r
}

define i32 @pick(i32 %x) !prof !0 {
entry:
  switch i32 %x, label %def [
    i32 0, label %a
    i32 1, label %b
    i32 7, label %c
  ]
a:
  %ra = call i32 @ext(i32 1)
  ret i32 %ra
b:
  ret i32 5
c:
  %rc = tail call i32 @ext(i32 %x)
  ret i32 %rc
def:
  ret i32 -1
}

define void @leaf() {
  ret void
}

!0 = !{!"function_entry_count", i64 1000}
!1 = !{!"branch_weights", i32 90, i32 10}
!2 = !{!"branch_weights", i32 1, i32 99}
