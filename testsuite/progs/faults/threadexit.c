// SPDX-License-Identifier: GPL-2.0
/*
 * pthread_exit() from inside the traced function: NTHREADS threads
 * call work(i), which calls quit(), which ends the thread; the window
 * ends with the thread.  Then main calls work(-1), which returns
 * normally.  Threads return i*i through pthread_exit; main prints the
 * sum of 0..NTHREADS-1 squared: 0+1+4+...+49 = 140 for 8 threads.
 */
#include <pthread.h>
#include <stdio.h>
#include "../oracle/fixture.h"

#define NTHREADS 8

static NOINLINE long square(long x) { return x * x; }

static NOINLINE void quit(long v)
{
	pthread_exit((void *)v);
}

NOINLINE long work(long i)
{
	long v;

	if (i < 0)
		return square(-i);
	v = square(i);
	quit(v);
	return -1;	/* not reached */
}

static void *run(void *arg)
{
	return (void *)work((long)arg);
}

int main(void)
{
	pthread_t th[NTHREADS];
	long sum = 0;
	void *ret;
	int i;

	for (i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, run, (void *)(long)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &ret);
		sum += (long)ret;
	}
	printf("threadexit %ld %ld\n", sum, work(-3));
	return 0;
}
