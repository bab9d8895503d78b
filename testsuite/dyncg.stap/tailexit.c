// SPDX-License-Identifier: GPL-2.0
/*
 * tailexit.c - a busy window, and the process ends right after it.
 *
 * work(N) calls leaf() N times (argv[1], default 20000); main() calls
 * work() once and then _exit(0)s at once: no stdio, no atexit handlers,
 * nothing between the window's end and the end of the process, so a
 * tracer whose output is still in flight when the traced program ends
 * loses the trace's tail.  A window from work()'s entry to its return
 * holds exactly 2 * N + 2 events: the root call of work, N calls of
 * leaf and their N returns, and work's return.
 */
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void leaf(unsigned long i)
{
	sink += i;
}

__attribute__((noinline)) void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		leaf(i);
}

int main(int argc, char **argv)
{
	work(argc > 1 ? strtoul(argv[1], NULL, 0) : 20000);
	_exit(0);
}
