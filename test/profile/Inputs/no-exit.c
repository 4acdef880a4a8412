// A function with an exit (the return) and a loop no path leaves: a
// server's main loop. inference-no-exit.test samples the loop.
__attribute__((noinline)) void spin(volatile int *p, int n) {
  if (n)
    return;
  for (;;)
    *p += 1;
}

volatile int x;

int main(int argc, char **argv) {
  spin(&x, argc);
  return 0;
}
