// SPDX-License-Identifier: GPL-2.0
/*
 * For dcg-trace -p: runs for a while calling work(), prints "ready PID"
 * once running, and at the end checks that its own code bytes are as
 * they were at the start (no int3 left behind after a detach) and
 * prints the sum, which the test knows in closed form.  "code-end" is
 * the checksum at the end, to compare with an untraced run when the
 * program was started under dcg-trace (its start already saw the int3).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fixture.h"
#include "../codesum.h"

/*
 * Bytes checked at the start of work() and square(): fewer than either
 * has (18 and 30 at -O0), so that no other function's breakpoint (loop's,
 * when a test traces -f loop) falls in the range: the layout of the
 * functions after them is the compiler's.
 */
#define CODE_BYTES 16

static NOINLINE long square(long x) { return x * x; }

NOINLINE long work(long i)
{
	return square(i) + 1;
}

static long period_us = 10000;

static long loop(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++) {
		sum += work(i);
		usleep(period_us);
	}
	return sum;
}

static void *worker(void *arg)
{
	return (void *)loop((long)arg);
}

/*
 * attach [N [THREADS [PERIOD]]]: THREADS more threads run the same
 * loop; PERIOD is the pause after each work() in microseconds (10000).
 */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300, sum;
	int nthreads = argc > 2 ? atoi(argv[2]) : 0, i, bad = 0;
	unsigned long before, now;
	pthread_t th[16];
	void *ret;

	before = code_checksum((const void *)work, CODE_BYTES) ^
		 code_checksum((const void *)square, CODE_BYTES);
	if (argc > 3)
		period_us = atol(argv[3]);
	if (nthreads > 16)
		nthreads = 16;
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, (void *)n);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sum = loop(n);
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i], &ret);
		bad += (long)ret != sum;
	}
	if (nthreads)
		printf("threads %s\n", bad ? "DIFFER" : "agree");
	now = code_checksum((const void *)work, CODE_BYTES) ^
	      code_checksum((const void *)square, CODE_BYTES);
	printf("sum %ld\n", sum);
	printf("code %s\n", now == before ? "unchanged" : "CHANGED");
	printf("code-end %lx\n", now);
	return now == before ? 0 : 1;
}
