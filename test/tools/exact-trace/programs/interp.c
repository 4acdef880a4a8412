/* interp.c - exact-trace self-check program: a bytecode interpreter with
 * computed gotos (indirect branches) and a tail-called helper. */
#include <stdio.h>

enum { PUSH, ADD, DUP, JNZ, DEC, SWAP, POP, HALT };

__attribute__((noinline)) static long step(long x) { return x * 3 + 1; }

static long run(const unsigned char *code) {
  static void *const labels[] = {&&push, &&add, &&dup, &&jnz,
                                 &&dec,  &&swap, &&pop, &&halt};
  long stack[16];
  int sp = 0;
  const unsigned char *pc = code;
#define NEXT goto *labels[*pc++]
  NEXT;
push: stack[sp++] = *pc++; NEXT;
add:  sp--; stack[sp - 1] = step(stack[sp - 1] + stack[sp]) % 1000; NEXT;
dup:  stack[sp] = stack[sp - 1]; sp++; NEXT;
jnz:  if (stack[--sp]) pc = code + *pc; else pc++; NEXT;
dec:  stack[sp - 1]--; NEXT;
swap: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } NEXT;
pop:  sp--; NEXT;
halt: return stack[sp - 1];
}

int main(void) {
  /* acc = 0; n = 500; loop: acc = step(acc + n) % 1000; n--; while n */
  static const unsigned char prog[] = {
      PUSH, 0, PUSH, 250,                 /* acc n */
      DUP, SWAP, POP,                     /* 4: acc n */
      SWAP, DUP, POP, SWAP,               /* 7: acc n (shuffle) */
      DUP, PUSH, 0, ADD, POP,             /* 11: acc n */
      SWAP, PUSH, 7, ADD, SWAP,           /* 16: acc' n */
      DEC, DUP, JNZ, 4,                   /* 21 */
      POP, HALT};
  long r = 0;
  for (int i = 0; i < 20; i++)
    r += run(prog);
  printf("%ld\n", r);
  return 0;
}
