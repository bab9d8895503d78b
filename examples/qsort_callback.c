// SPDX-License-Identifier: GPL-2.0
/*
 * qsort_callback.c - a comparison callback called back from libc.
 *
 * sort_scores() hands by_score() to qsort(3); libc calls it back.  A
 * probe on by_score alone would count the calls but not say who made
 * them; the trace shows qsort's own functions between the two.
 * Traced with qsort_callback.stp, see that file.
 *
 * Build: gcc -O1 -g -o qsort_callback qsort_callback.c
 */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) int by_score(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) int sort_scores(int *v, int n)
{
	qsort(v, n, sizeof(*v), by_score);
	return v[0];
}

int main(void)
{
	int v[6] = { 42, 7, 19, 3, 88, 23 };

	printf("qsort_callback: lowest %d\n", sort_scores(v, 6));
	return 0;
}
