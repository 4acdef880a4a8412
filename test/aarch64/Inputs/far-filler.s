// far-filler.s - 129 MiB of code between the hot and the cold parts of a
// program (far-branches.test): farther than an AArch64 b or bl reaches
// (+-128 MiB), so lld inserts range-extension thunks, and farther than a
// conditional branch reaches (+-1 MiB).
  .section .text.filler,"ax",@progbits
  .globl filler
  .type filler,@function
filler:
  ret
  .space 0x8100000
  .size filler, .-filler
