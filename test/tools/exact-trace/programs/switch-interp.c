/* switch-interp.c - exact-trace program: a stack bytecode interpreter
 * whose dispatch is a `switch` inside a loop (no computed gotos), so clang
 * lowers it to one jump table whose targets jump back to the dispatch
 * block; a second, smaller switch picks the programs to run; and a
 * printf-like formatter, a loop over a format string with two switches
 * (two jump tables in one function, as sqlite3_str_vappendf has); and a
 * switch whose table has an entry for an unreachable case in its middle;
 * and an indirect tail call from a frameless function. */
#include <stdio.h>
#include <stdlib.h>

enum Op {
  OP_HALT,
  OP_PUSH,
  OP_POP,
  OP_DUP,
  OP_SWAP,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_MOD,
  OP_AND,
  OP_XOR,
  OP_SHL,
  OP_LOAD,
  OP_STORE,
  OP_JMP,
  OP_JZ,
  OP_JNZ,
  OP_LT,
  OP_INC,
  OP_PRINT,
};

static long Vars[8];

__attribute__((noinline)) static long run(const int *Code) {
  long Stack[64];
  int Sp = 0;
  int Pc = 0;
  long A, B;
  for (;;) {
    switch (Code[Pc++]) {
    case OP_HALT:
      return Sp ? Stack[Sp - 1] : 0;
    case OP_PUSH:
      Stack[Sp++] = Code[Pc++];
      break;
    case OP_POP:
      --Sp;
      break;
    case OP_DUP:
      Stack[Sp] = Stack[Sp - 1];
      ++Sp;
      break;
    case OP_SWAP:
      A = Stack[Sp - 1];
      Stack[Sp - 1] = Stack[Sp - 2];
      Stack[Sp - 2] = A;
      break;
    case OP_ADD:
      B = Stack[--Sp];
      Stack[Sp - 1] += B;
      break;
    case OP_SUB:
      B = Stack[--Sp];
      Stack[Sp - 1] -= B;
      break;
    case OP_MUL:
      B = Stack[--Sp];
      Stack[Sp - 1] *= B;
      break;
    case OP_MOD:
      B = Stack[--Sp];
      Stack[Sp - 1] = B ? Stack[Sp - 1] % B : 0;
      break;
    case OP_AND:
      B = Stack[--Sp];
      Stack[Sp - 1] &= B;
      break;
    case OP_XOR:
      B = Stack[--Sp];
      Stack[Sp - 1] ^= B;
      break;
    case OP_SHL:
      B = Stack[--Sp];
      Stack[Sp - 1] <<= (B & 15);
      break;
    case OP_LOAD:
      Stack[Sp++] = Vars[Code[Pc++] & 7];
      break;
    case OP_STORE:
      Vars[Code[Pc++] & 7] = Stack[--Sp];
      break;
    case OP_JMP:
      Pc = Code[Pc];
      break;
    case OP_JZ:
      Pc = Stack[--Sp] ? Pc + 1 : Code[Pc];
      break;
    case OP_JNZ:
      Pc = Stack[--Sp] ? Code[Pc] : Pc + 1;
      break;
    case OP_LT:
      B = Stack[--Sp];
      Stack[Sp - 1] = Stack[Sp - 1] < B;
      break;
    case OP_INC:
      ++Vars[Code[Pc++] & 7];
      break;
    case OP_PRINT:
      printf("%ld\n", Stack[--Sp]);
      break;
    default:
      abort();
    }
  }
}

/* v0 = 0; v1 = 0; while (v0 < v2) { v1 = (v1 * 31 + v0) % 10007 ^ (v0 & 5);
 * v0++; } print v1; the comments give each instruction's index. */
/* clang-format off */
static const int Sum[] = {
    OP_PUSH, 0,      /*  0 */
    OP_STORE, 0,     /*  2 */
    OP_PUSH, 0,      /*  4 */
    OP_STORE, 1,     /*  6 */
    OP_LOAD, 0,      /*  8 */
    OP_LOAD, 2,      /* 10 */
    OP_LT,           /* 12 */
    OP_JZ, 43,       /* 13 */
    OP_LOAD, 1,      /* 15 */
    OP_PUSH, 31,     /* 17 */
    OP_MUL,          /* 19 */
    OP_LOAD, 0,      /* 20 */
    OP_ADD,          /* 22 */
    OP_PUSH, 10007,  /* 23 */
    OP_MOD,          /* 25 */
    OP_LOAD, 0,      /* 26 */
    OP_PUSH, 5,      /* 28 */
    OP_AND,          /* 30 */
    OP_XOR,          /* 31 */
    OP_STORE, 1,     /* 32 */
    OP_INC, 0,       /* 34 */
    OP_JMP, 8,       /* 36 */
    OP_HALT, OP_HALT, OP_HALT, OP_HALT, OP_HALT, /* 38 */
    OP_LOAD, 1,      /* 43 */
    OP_DUP,          /* 45 */
    OP_PRINT,        /* 46 */
    OP_HALT};        /* 47 */

/* v3 = v2; do { 7, 1 << (v3 & 3): swapped and popped; } while (--v3);
 * returns v3. */
static const int Shift[] = {
    OP_LOAD, 2,      /*  0 */
    OP_STORE, 3,     /*  2 */
    OP_PUSH, 1,      /*  4 */
    OP_LOAD, 3,      /*  6 */
    OP_PUSH, 3,      /*  8 */
    OP_AND,          /* 10 */
    OP_SHL,          /* 11 */
    OP_PUSH, 7,      /* 12 */
    OP_SWAP,         /* 14 */
    OP_POP,          /* 15 */
    OP_POP,          /* 16 */
    OP_LOAD, 3,      /* 17 */
    OP_PUSH, 1,      /* 19 */
    OP_SUB,          /* 21 */
    OP_DUP,          /* 22 */
    OP_STORE, 3,     /* 23 */
    OP_JNZ, 4,       /* 25 */
    OP_LOAD, 3,      /* 27 */
    OP_HALT};        /* 29 */
/* clang-format on */

__attribute__((noinline)) static const int *pick(int Which) {
  switch (Which % 6) {
  case 0:
  case 3:
    return Sum;
  case 1:
  case 4:
    return Shift;
  case 2:
    Vars[2] += 3;
    return Sum;
  default:
    Vars[2] -= 1;
    return Shift;
  }
}

enum { F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };

/* Formats Args by Fmt into Out: %d %u %x %o %b %c %s %% after flags
 * (- + space # 0) and a width; returns the length. */
__attribute__((noinline)) static int format(char *Out, const char *Fmt,
                                            const long *Args) {
  static const char Digits[] = "0123456789abcdef";
  char *P = Out;
  for (; *Fmt; ++Fmt) {
    if (*Fmt != '%') {
      *P++ = *Fmt;
      continue;
    }
    unsigned Flags = 0;
    int Width = 0;
    for (;;) {
      switch (*++Fmt) {
      case '-':
        Flags |= F_LEFT;
        continue;
      case '+':
        Flags |= F_PLUS;
        continue;
      case ' ':
        Flags |= F_SPACE;
        continue;
      case '#':
        Flags |= F_ALT;
        continue;
      case '0':
        Flags |= F_ZERO;
        continue;
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9':
        Width = Width * 10 + (*Fmt - '0');
        continue;
      }
      break;
    }
    unsigned long V = 0;
    unsigned Base = 10;
    char Sign = 0;
    char Tmp[72];
    int N = 0;
    switch (*Fmt) {
    case 'd':
      if ((long)*Args < 0) {
        Sign = '-';
        V = -(unsigned long)*Args++;
      } else {
        Sign = Flags & F_PLUS ? '+' : Flags & F_SPACE ? ' ' : 0;
        V = *Args++;
      }
      break;
    case 'u':
      V = *Args++;
      break;
    case 'x':
      V = *Args++;
      Base = 16;
      break;
    case 'o':
      V = *Args++;
      Base = 8;
      break;
    case 'b':
      V = *Args++;
      Base = 2;
      break;
    case 'c':
      *P++ = (char)*Args++;
      continue;
    case 's':
      for (const char *S = (const char *)*Args++; *S; ++S)
        *P++ = *S;
      continue;
    case '%':
      *P++ = '%';
      continue;
    default:
      return -1;
    }
    do {
      Tmp[N++] = Digits[V % Base];
      V /= Base;
    } while (V);
    if (Flags & F_ALT && Base != 10)
      Tmp[N++] = Base == 16 ? 'x' : Base == 8 ? 'o' : 'b';
    if (Sign)
      Tmp[N++] = Sign;
    while (!(Flags & F_LEFT) && N < Width)
      Tmp[N++] = Flags & F_ZERO ? '0' : ' ';
    int Len = N;
    while (N)
      *P++ = Tmp[--N];
    for (; Len < Width; ++Len)
      *P++ = ' ';
  }
  *P = 0;
  return (int)(P - Out);
}

/* Adds opcode Op's weight to W; Op is never OP_MOD (its table entry
 * names the function's end, where __builtin_unreachable() leaves no
 * code). */
__attribute__((noinline)) static long weigh(int Op, long *W) {
  switch (Op) {
  case OP_ADD:
    W[0]++;
    break;
  case OP_SUB:
    W[1] += 3;
    break;
  case OP_MUL:
    W[2] ^= 5;
    break;
  case OP_MOD:
    __builtin_unreachable();
  case OP_AND:
    W[4] -= 2;
    break;
  case OP_XOR:
    W[5] = W[5] * 3 % 1000003;
    break;
  case OP_SHL:
    W[0] += W[1];
    break;
  default:
    __builtin_unreachable();
  }
  return W[Op - OP_ADD];
}

struct Handler {
  long Bias;
  long (*Fn)(long);
};

static long twice(long V) { return 2 * V; }
static long negate(long V) { return -V; }

/* A frameless function ending in an indirect tail call: its block has no
 * pop, so BOLT without relocations does not take the jump for a tail
 * call (and rejects the function). */
__attribute__((noinline)) static long apply(const struct Handler *H, long V) {
  if (!H->Bias)
    return V;
  return H->Fn(V + H->Bias);
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 200;
  long Total = 0;
  for (int I = 0; I < 8; ++I) {
    Vars[2] = N + I;
    Total += run(pick(I));
  }
  printf("%ld\n", Total);
  char Buf[512];
  for (int I = 0; I < N; I += 7) {
    long Args[] = {I - 100, I * 37,       I * 4099,    I,
                   I ^ 5,   'a' + I % 26, (long)"str", I};
    Total += format(Buf, "%+d %4u %#x %-6o|%08b %c %s %% % d|", Args);
  }
  long W[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int I = 0; I < N; ++I) {
    int Op = OP_ADD + I % 7;
    Total += weigh(Op == OP_MOD ? OP_MUL : Op, W);
  }
  static const struct Handler Handlers[] = {
      {0, twice}, {3, twice}, {5, negate}};
  for (int I = 0; I < N; ++I)
    Total += apply(&Handlers[I % 3], I);
  printf("%s\n%ld\n", Buf, Total);
  return 0;
}
