// A function with an exit (the return) and a loop no path leaves: a
// server's main loop. inference-no-exit.test samples the loop; -DCHANGED
// is the next build of the program, for a stale profile.
__attribute__((noinline)) void spin(volatile int *p, int n) {
  if (n)
    return;
#ifdef CHANGED
  *p = 7;
#endif
  for (;;)
    *p += 1;
}

volatile int x;

int main(int argc, char **argv) {
  spin(&x, argc);
  return 0;
}
