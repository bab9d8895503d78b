// SPDX-License-Identifier: GPL-2.0
/* Job 3: deep recursion.  Two functions recurse into each other through
 * a pointer table down to depth D (argv[1]), with a direct recursive
 * helper at each level; repeated 10 times. */
#include "job.h"

typedef long (*step_fn)(long depth);

static long ind_even(long depth);
static long ind_odd(long depth);
static step_fn volatile next[2] = { ind_even, ind_odd };

static JOB_FN long leaf(long depth)
{
	return depth & 7;
}

static JOB_FN long descend(long depth)
{
	if (depth == 0)
		return 0;
	return leaf(depth) + next[depth & 1](depth - 1);
}

static JOB_FN long ind_even(long depth) { return 1 + descend(depth); }
static JOB_FN long ind_odd(long depth) { return 2 + descend(depth); }

JOB_FN long work(long depth)
{
	long sum = 0;
	int round;

	for (round = 0; round < 10; round++)
		sum += descend(depth);
	return sum;
}

int main(int argc, char **argv)
{
	long n = job_size(argc, argv, 1000);
	long long t0 = job_now_ns();

	job_report("recurse", t0, work(n));
	return 0;
}
