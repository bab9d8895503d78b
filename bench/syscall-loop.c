// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-loop N [M]: one call of work() (the traced function), then N
 * getppid() syscalls and M rounds of arithmetic, each timed apart, all
 * outside the window.  Prints "syscall_ns X compute_ns Y" (per syscall,
 * per round).  bench/sigstate-bench runs it untraced and under
 * dcg-trace, which resumes freely running threads with PTRACE_SYSCALL
 * (tools/dcg-trace/sigtrap_state.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* vDSO: no syscall */
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* global, not static: the benchmark names it (dcg-trace -f work) */
int work(int x);
__attribute__((noinline)) int work(int x)
{
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	long m = argc > 2 ? atol(argv[2]) : 10000000;
	volatile unsigned long acc = work(1);
	double t0, t1, t2;
	long i;

	t0 = now();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	t1 = now();
	for (i = 0; i < m; i++)
		acc = acc * 2654435761u + i;
	t2 = now();
	printf("syscall_ns %.1f compute_ns %.2f\n", (t1 - t0) / n,
	       (t2 - t1) / m);
	return 0;
}
