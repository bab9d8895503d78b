// SPDX-License-Identifier: GPL-2.0
/*
 * pin-work THREADS ITERS EVERY: THREADS threads each make one call of
 * target() (the traced function) at the same time: ITERS rounds of
 * arithmetic, with a call of leaf() every EVERY rounds.  Hop mode runs
 * the arithmetic natively and stops at each call and return, so EVERY
 * sets how much of a window is native run and how much is stops.
 * bench/pin-bench runs it under dcg-trace with and without --no-pin
 * (tools/dcg-trace/cpu_pin.c binds every window's thread to the
 * tracer's CPU: concurrent windows share one CPU).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long iters, every;

__attribute__((noinline)) long leaf(long x)
{
	return x * 3 + 1;
}

/* global, not static: the benchmark names it (dcg-trace -f target) */
long target(long seed);
__attribute__((noinline)) long target(long seed)
{
	long acc = seed, i;

	for (i = 0; i < iters; i++) {
		acc = acc * 6364136223846793005L + i;
		if (i % every == 0)
			acc += leaf(acc);
	}
	return acc;
}

static void *thread_main(void *arg)
{
	return (void *)(target((long)arg) & 1);
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long sum = 0;
	void *r;
	int n, i;

	if (argc != 4 || (n = atoi(argv[1])) < 1 || n > 64 ||
	    (iters = atol(argv[2])) < 0 || (every = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: pin-work THREADS(1-64) ITERS EVERY\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, thread_main, (void *)(long)i)) {
			fprintf(stderr, "pin-work: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], &r);
		sum += (long)r;
	}
	printf("done %ld\n", sum);
	return 0;
}
