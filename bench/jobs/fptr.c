// SPDX-License-Identifier: GPL-2.0
/* Job 1: a dispatch loop that calls one of four operations through a
 * function pointer table, N times. */
#include "job.h"

typedef long (*op_fn)(long acc, long i);

static JOB_FN long ind_add(long acc, long i) { return acc + i; }
static JOB_FN long ind_sub(long acc, long i) { return acc - (i >> 1); }
static JOB_FN long ind_mix(long acc, long i) { return acc ^ (i * 2654435761L); }
static JOB_FN long ind_rot(long acc, long i) { return (acc << 3) | ((unsigned long)acc >> 61); }

/* volatile: keeps the compiler from turning the table into direct calls */
static op_fn volatile ops[4] = { ind_add, ind_sub, ind_mix, ind_rot };

JOB_FN long work(long n)
{
	long acc = 1, i;

	for (i = 0; i < n; i++)
		acc = ops[i & 3](acc, i);
	return acc;
}

int main(int argc, char **argv)
{
	long n = job_size(argc, argv, 1000);
	long long t0 = job_now_ns();

	job_report("fptr", t0, work(n));
	return 0;
}
