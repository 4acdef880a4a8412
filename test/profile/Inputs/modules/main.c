/* main.c - calls the two files' functions, so that both helpers run. */
#include <stdio.h>
int fa(int n);
int fb(int n);
int main(void) { printf("%d %d\n", fa(3000), fb(3000)); return 0; }
