// SPDX-License-Identifier: GPL-2.0
/* Several threads enter the traced function at the same time. */
#include <pthread.h>
#include <stdio.h>
#include "fixture.h"

#define NTHREADS 4

static pthread_barrier_t start;

static NOINLINE int leaf(int x) { return x * x; }

static NOINLINE int middle(int x)
{
	int i, s = 0;

	for (i = 0; i < 3; i++)
		s += leaf(x + i);
	return s;
}

NOINLINE int work(int x)
{
	return middle(x) + leaf(x);
}

static NOINLINE void *worker(void *arg)
{
	long id = (long)arg, s = 0;
	int i;

	pthread_barrier_wait(&start);
	for (i = 0; i < 5; i++)
		s += work(id + i);
	return (void *)s;
}

int main(void)
{
	pthread_t th[NTHREADS];
	long total = work(0);
	void *ret;
	int i;

	pthread_barrier_init(&start, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &ret);
		total += (long)ret;
	}
	printf("threads %ld\n", total);
	return 0;
}
