// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that end inside a callee of the traced function: for
 * dcg-trace -D 1 (testsuite/dyncg.user/skip.exp), a thread exit inside
 * a skipped subtree.  Odd workers leave with pthread_exit() (which
 * unwinds), worker 2 with a bare exit system call; the others return.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "fixture.h"

#define NTHREADS 4

static NOINLINE int leaf(int x) { return x * x; }

static NOINLINE void quit(int id, int round)
{
	if (round < 2)
		return;
	if (id & 1)
		pthread_exit((void *)(long)(100 + id));
	if (id == 2)
		syscall(SYS_exit, 0);
}

static NOINLINE int inner(int id, int round)
{
	quit(id, round);
	return leaf(id + round);
}

NOINLINE int work(int id, int round)
{
	return leaf(round) + inner(id, round) + leaf(id);
}

static NOINLINE void *worker(void *arg)
{
	long id = (long)arg, s = 0;
	int i;

	for (i = 0; i < 3; i++)
		s += work(id, i);
	return (void *)s;
}

int main(void)
{
	pthread_t th[NTHREADS];
	long total = 0;
	void *ret;
	int i;

	for (i = 0; i < NTHREADS; i++) {
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
		/*
		 * One at a time.  The kernel wakes the joiner of a bare
		 * exit too (CLONE_CHILD_CLEARTID), but it leaves no return
		 * value.
		 */
		pthread_join(th[i], &ret);
		if (i != 2)
			total += (long)ret;
	}
	printf("skipexit %ld\n", total);
	return 0;
}
