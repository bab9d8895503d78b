// SPDX-License-Identifier: GPL-2.0
/* Job 4: one call of target() inside a program that runs much longer.
 * Before and after it, busy() makes N (argv[1]) calls through the same
 * kind of code, so a tool that cannot limit itself to target() pays for
 * all of them.  target() dispatches through function pointers and runs
 * a qsort with a callback. */
#include "job.h"

typedef long (*op_fn)(long acc, long i);

static JOB_FN long ind_inc(long acc, long i) { return acc + i; }
static JOB_FN long ind_xor(long acc, long i) { return acc ^ i; }
static op_fn volatile ops[2] = { ind_inc, ind_xor };

static JOB_FN int ind_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static JOB_FN long mix(long x)
{
	return x * 6364136223846793005L + 1442695040888963407L;
}

static JOB_FN long busy(long n)
{
	long acc = 0, i;

	for (i = 0; i < n; i++)
		acc += mix(acc + i);
	return acc;
}

JOB_FN long target(long seed)
{
	long v[64], acc = seed, i;

	for (i = 0; i < 64; i++) {
		acc = ops[i & 1](acc, i);
		v[i] = mix(acc) >> 40;
	}
	qsort(v, 64, sizeof(v[0]), ind_cmp);
	return acc + v[0];
}

int main(int argc, char **argv)
{
	long n = job_size(argc, argv, 1000000);
	long long t0 = job_now_ns();
	long r = busy(n);

	r += target(r);
	r += busy(n);
	job_report("window", t0, r);
	return 0;
}
