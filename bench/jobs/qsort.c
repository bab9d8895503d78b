// SPDX-License-Identifier: GPL-2.0
/* Job 2: qsort of N integers; the comparison is a callback that libc
 * calls, so every call to it comes from inside libc. */
#include "job.h"

static JOB_FN int ind_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

JOB_FN long work(long n)
{
	int *v = malloc(n * sizeof(*v));
	long i, sum = 0;

	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = (int)((i * 7919) % 10007);
	qsort(v, n, sizeof(*v), ind_cmp);
	for (i = 1; i < n; i++)
		sum += v[i] >= v[i - 1];
	free(v);
	return sum;
}

int main(int argc, char **argv)
{
	long n = job_size(argc, argv, 500);
	long long t0 = job_now_ns();

	job_report("qsort", t0, work(n));
	return 0;
}
