// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - the same function traced in several threads at once.
 *
 * Four threads each run crunch() twice; crunch() calls mix() and, every
 * other time, fold().  Each thread gets its own window and shadow stack;
 * the events carry the thread id.  Threads the traced ones create would
 * not be traced (none here).
 * Traced with threads.stp, see that file.
 *
 * Build: gcc -O1 -g -pthread -o threads threads.c
 */
#include <pthread.h>
#include <stdio.h>

static __attribute__((noinline)) long mix(long x) { return x * 31 + 7; }
static __attribute__((noinline)) long fold(long x) { return x % 1000; }

__attribute__((noinline)) long crunch(long x)
{
	long y = mix(x);

	return (x & 1) ? fold(y) : y;
}

static void *worker(void *arg)
{
	long id = (long)arg, s = 0;

	for (long i = 0; i < 2; i++)
		s += crunch(id * 2 + i);
	return (void *)s;
}

int main(void)
{
	pthread_t th[4];
	long total = 0;
	void *r;

	for (long i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], &r);
		total += (long)r;
	}
	printf("threads: total %ld\n", total);
	return 0;
}
