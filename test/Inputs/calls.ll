; Two calls in one block: x86-64 code is push, call, call, pop, ret.
declare void @g()
define void @two_calls() {
  call void @g()
  call void @g()
  ret void
}
