// SPDX-License-Identifier: GPL-2.0
/* bench/workload: calls and returns, a few hundred thousand instructions. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20, v[512], i;

	for (i = 0; i < 512; i++)
		v[i] = (i * 7919) % 512;
	qsort(v, 512, sizeof(v[0]), cmp);
	printf("workload %ld %d\n", fib(n), v[511]);
	return 0;
}
