/* Compiled without the map: its functions are "uncovered" for --verify. */
__attribute__((noinline)) int plain_add(int A, int B) { return A + B; }
int plain_twice(int A) { return plain_add(A, A); }
