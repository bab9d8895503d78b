// SPDX-License-Identifier: GPL-2.0
/*
 * bench/skip-work: the workload of bench/skip-bench.  work() makes a
 * few cheap calls at each level and one call of heavy(), which is
 * where nearly all instructions are: what -D and -N are meant to skip.
 *
 *   skip-work [ROUNDS [HEAVY]]
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE long leaf(long x) { return x * 3 + 1; }

static NOINLINE long mix(long x) { return leaf(x) ^ leaf(x >> 3); }

/* the expensive callee: a loop of small calls */
static NOINLINE long heavy(long x, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += mix(x + i);
	return s;
}

static NOINLINE long level2(long x, int n)
{
	return mix(x) + heavy(x, n);
}

/* global, not static: the benchmark names it (dcg-trace -f work) */
long work(long x, int n);
NOINLINE long work(long x, int n)
{
	return leaf(x) + level2(x, n) + mix(x);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int n = argc > 2 ? atoi(argv[2]) : 2000;
	long s = 0;
	int i;

	for (i = 0; i < rounds; i++)
		s += work(i, n);
	printf("skip-work %ld\n", s);
	return 0;
}
