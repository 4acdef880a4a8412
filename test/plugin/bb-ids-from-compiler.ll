; With a basic-block-sections profile the compiler assigns its own block IDs
; (MachineBasicBlock::getBBID); the plugin must use them, so the decoded maps
; are equal without renumbering.
;
; RUN: llc -O2 -mtriple=x86_64 -basic-block-sections=%inputs/clusters.txt \
; RUN:   -basic-block-address-map %s -filetype=obj -o %t.intree.o
; RUN: llc -O2 -mtriple=x86_64 -basic-block-sections=%inputs/clusters.txt \
; RUN:   -load=%plugin %s -filetype=obj -o %t.plugin.o
; RUN: llvm-readobj --bb-addr-map %t.intree.o | tail -n +3 > %t.intree.txt
; RUN: llvm-readobj --bb-addr-map %t.plugin.o | tail -n +3 > %t.plugin.txt
; RUN: diff %t.intree.txt %t.plugin.txt
; RUN: FileCheck %s < %t.plugin.txt
;
; CHECK:      Name: listed
; CHECK:      BB Ranges [
; CHECK:          ID: 0
; CHECK:          ID: 2
; CHECK:        Base Address:
; CHECK:          ID: 1

define i32 @listed(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 10
  br i1 %c, label %big, label %small
small:
  %a = add i32 %x, 1
  br label %join
big:
  %b = mul i32 %x, 3
  br label %join
join:
  %r = phi i32 [ %a, %small ], [ %b, %big ]
  ret i32 %r
}
