// three-functions.c - a program with three functions in its map (main and
// two helpers kept out of line), for the installed tools and the consumer.
__attribute__((noinline)) int square(int X) { return X * X; }
__attribute__((noinline)) int sumSquares(int N) {
  int Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += square(I);
  return Sum;
}
int main(int argc, char **argv) { return sumSquares(argc) == 1 ? 0 : 1; }
