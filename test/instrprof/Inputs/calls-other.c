// calls-other.c - functions of calls.c's names (mul, main) with other
// control flow: merged with calls.c's profile, each name has two records
// with different CFG hashes.
int mul(int a, int b) {
  if (a > b)
    return a * b;
  return b - a;
}

int main(int argc, char **argv) {
  int acc = 0;
  for (int i = 0; i < 30 + argc; ++i)
    acc += i % 4 ? mul(acc, i) : mul(i, acc);
  return acc & 1;
}
