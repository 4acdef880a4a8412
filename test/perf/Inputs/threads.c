// threads.c - a program for the perf recordings of test/perf: three
// threads and a child that execs this program again (with a third
// argument) or runs the loop itself.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
static volatile long sink;
static long work(long n){long s=0;for(long i=0;i<n;i++)s+=i*i%7;return s;}
static void *thr(void *a){sink+=work((long)a);return 0;}
int main(int c,char**v){long n=c>1?atol(v[1]):3000000;
 pthread_t t[3]; for(int i=0;i<3;i++)pthread_create(&t[i],0,thr,(void*)n);
 pid_t p=fork(); if(p==0){ if(c>2) execl(v[0],v[0],"100000",(char*)0); sink+=work(n); _exit(0);} 
 sink+=work(n); for(int i=0;i<3;i++)pthread_join(t[i],0); waitpid(p,0,0); printf("%ld\n",sink); return 0;}
