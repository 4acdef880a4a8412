// Naked functions and inline assembly in AArch64 syntax: the arm64 twin of
// test/plugin/corpus/naked-asm.c, whose assembly is x86's
// (plugin-corpus.test).

__attribute__((naked)) int naked_add(int a, int b) {
  __asm__ volatile("add w0, w0, w1\n\tret");
}

int with_asm(int x) {
  int y;
  __asm__("add %w0, %w1, %w1, lsl #1" : "=r"(y) : "r"(x));
  if (y > 100)
    __asm__ volatile("nop; nop; nop");
  return y;
}
