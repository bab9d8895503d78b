// SPDX-License-Identifier: GPL-2.0
/* Callbacks from libc: qsort and bsearch call back into the program. */
#include <stdio.h>
#include <stdlib.h>
#include "fixture.h"

static NOINLINE int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static NOINLINE int found(const int *p) { return p ? *p : -1; }

NOINLINE int work(int seed)
{
	int v[9], keys[3] = { 7, 100, 3 }, i, sum = 0;

	for (i = 0; i < 9; i++)
		v[i] = (seed * 7 + i * 5) % 11;
	qsort(v, 9, sizeof(v[0]), by_value);
	for (i = 0; i < 3; i++)
		sum += found(bsearch(&keys[i], v, 9, sizeof(v[0]), by_value));
	return sum + v[0] + v[8];
}

int main(void)
{
	printf("qsort %d %d\n", work(1), work(2));
	return 0;
}
