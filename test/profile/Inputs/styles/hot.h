/* hot.h - the functions the three parts of the build-style test program
 * (main.c, hot.c, util.c) call in each other. */
#ifndef HOT_H
#define HOT_H
unsigned hot_run(int rounds);
unsigned util_hash(const char *s, unsigned seed);
int util_classify(int c);
#endif
