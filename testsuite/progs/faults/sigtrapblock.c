// SPDX-License-Identifier: GPL-2.0
/*
 * A program that owns SIGTRAP and keeps it blocked across the traced
 * window: it installs its own handler, blocks SIGTRAP, calls work(),
 * then raises SIGTRAP while it is still blocked (the signal stays
 * pending), checks that its handler and its mask are still the ones it
 * set, and unblocks, which runs the handler once; the handler calls
 * work() with SIGTRAP blocked (a window inside the handler), and the
 * handler must still be installed after it ("after kept").
 *
 * Natively: "sigtrapblock r=12 handler kept mask kept ran 1 after
 * kept", exit 0.
 * A tracer whose step or breakpoint traps let the kernel reset the
 * blocked SIGTRAP to SIG_DFL and unblock it (force_sig_info_to_task)
 * shows up as "handler LOST"/"mask LOST", or the program dies of
 * SIGTRAP at the unblock (exit 133 from a shell).
 *
 * "sigtrapblock N" (for dcg-trace -p): prints "ready" once SIGTRAP is
 * blocked, then calls work() N times, 10 ms apart, before the checks;
 * r is then the sum, 12 * N.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../oracle/fixture.h"

static volatile int ran;

NOINLINE int work(int x);

/* Runs with SIGTRAP blocked, and calls the traced function too. */
static void on_trap(int sig)
{
	ran += work(0) == 14;
}

static NOINLINE int leaf(int x) { return x + 1; }

NOINLINE int work(int x)
{
	int i;

	for (i = 0; i < 3; i++)
		x = leaf(x) * 2;
	return x;
}

int main(int argc, char **argv)
{
	struct sigaction sa, cur;
	sigset_t set, now;
	int r = 0, hkept, mkept, hkept2, i, n = argc > 1 ? atoi(argv[1]) : 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTRAP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	if (n > 0) {
		printf("ready\n");
		fflush(stdout);
		for (i = 0; i < n; i++) {
			r += work(0) - 2;
			usleep(10000);
		}
	} else {
		r = work(0) - 2;	/* x: 0 -> 2 -> 6 -> 14; 14 - 2 = 12 */
	}

	sigaction(SIGTRAP, NULL, &cur);
	hkept = cur.sa_handler == on_trap;
	sigprocmask(SIG_BLOCK, NULL, &now);
	mkept = sigismember(&now, SIGTRAP) == 1;
	raise(SIGTRAP);		/* blocked: stays pending */
	sigprocmask(SIG_UNBLOCK, &set, NULL);	/* the handler runs here */
	sigaction(SIGTRAP, NULL, &cur);
	hkept2 = cur.sa_handler == on_trap;

	printf("sigtrapblock r=%d handler %s mask %s ran %d after %s\n", r,
	       hkept ? "kept" : "LOST", mkept ? "kept" : "LOST", (int)ran,
	       hkept2 ? "kept" : "LOST");
	return hkept && mkept && ran == 1 && hkept2 &&
	       r == 12 * (n > 0 ? n : 1) ? 0 : 1;
}
