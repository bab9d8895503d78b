// SPDX-License-Identifier: GPL-2.0
/*
 * Spends its life inside work(): a traced thread that is killed is
 * killed in the middle of being stepped.  "spin N" calls work(N),
 * which makes N calls of leaf(), and prints the sum 0+1+...+N-1;
 * "spin 0" calls work(1000) for ever.  It prints "ready PID" first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile long total;

static NOINLINE void leaf(long i) { total += i; }

NOINLINE long work(long n)
{
	long i;

	for (i = 0; i < n; i++)
		leaf(i);
	return total;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (n == 0)
		work(1000);
	printf("spin %ld\n", work(n));
	return 0;
}
