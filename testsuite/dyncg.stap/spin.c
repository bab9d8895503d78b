// SPDX-License-Identifier: GPL-2.0
/*
 * spin.c - a traced window that keeps running in user mode.
 *
 * work() calls tick() in a loop for SECONDS seconds of wall time (argv[1],
 * default 6), so that a test can unload the tapset module while the
 * traced thread is being single-stepped in user mode.  Prints
 * "spin: done" and exits 0; a trap left armed would kill it with SIGTRAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long ticks;

static __attribute__((noinline)) void tick(void) { ticks++; }

__attribute__((noinline)) int work(int seconds)
{
	time_t end = time(NULL) + seconds;

	while (time(NULL) < end)
		tick();
	return ticks > 0;
}

int main(int argc, char **argv)
{
	int ok = work(argc > 1 ? atoi(argv[1]) : 6);

	printf("spin: done %s\n", ok ? "ok" : "no ticks");
	return 0;
}
