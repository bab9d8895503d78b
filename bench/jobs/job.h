/* SPDX-License-Identifier: GPL-2.0 */
/*
 * job.h - what every benchmark job shares: its size from argv[1], and
 * the time of its work phase on stderr.
 *
 * The host benchmark times whole commands; inside the QEMU test bed the
 * module load would swamp a small job, so there the work phase's own
 * clock is what gets compared ("work_ns" on stderr).
 *
 * Naming rule the checks rely on: a function whose name starts with
 * "ind_" is only ever called through a function pointer.  bench/lib/edges
 * picks the indirect targets out of every tool's output by that prefix.
 */
#ifndef BENCH_JOB_H
#define BENCH_JOB_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define JOB_FN __attribute__((noinline))

static long job_size(int argc, char **argv, long dflt)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : dflt;

	if (n <= 0) {
		fprintf(stderr, "%s: size must be a positive number\n", argv[0]);
		exit(2);
	}
	return n;
}

static long long job_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void job_report(const char *name, long long t0, long result)
{
	fprintf(stderr, "%s: work_ns %lld\n", name, job_now_ns() - t0);
	printf("%s %ld\n", name, result);
}

#endif /* BENCH_JOB_H */
