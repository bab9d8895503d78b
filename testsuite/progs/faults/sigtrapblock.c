// SPDX-License-Identifier: GPL-2.0
/*
 * A program that owns SIGTRAP and keeps it blocked across the traced
 * window: it installs its own handler, blocks SIGTRAP, calls work(),
 * then raises SIGTRAP while it is still blocked (the signal stays
 * pending), checks that its handler and its mask are still the ones it
 * set, and unblocks, which runs the handler once.
 *
 * Natively: "sigtrapblock r=12 handler kept mask kept ran 1", exit 0.
 * A tracer whose step or breakpoint traps let the kernel reset the
 * blocked SIGTRAP to SIG_DFL and unblock it (force_sig_info_to_task)
 * shows up as "handler LOST"/"mask LOST", or the program dies of
 * SIGTRAP at the unblock (exit 133 from a shell).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "../oracle/fixture.h"

static volatile int ran;

static void on_trap(int sig)
{
	ran++;
}

static NOINLINE int leaf(int x) { return x + 1; }

NOINLINE int work(int x)
{
	int i;

	for (i = 0; i < 3; i++)
		x = leaf(x) * 2;
	return x;
}

int main(void)
{
	struct sigaction sa, cur;
	sigset_t set, now;
	int r, hkept, mkept;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTRAP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	r = work(0) - 2;	/* x: 0 -> 2 -> 6 -> 14; 14 - 2 = 12 */

	sigaction(SIGTRAP, NULL, &cur);
	hkept = cur.sa_handler == on_trap;
	sigprocmask(SIG_BLOCK, NULL, &now);
	mkept = sigismember(&now, SIGTRAP) == 1;
	raise(SIGTRAP);		/* blocked: stays pending */
	sigprocmask(SIG_UNBLOCK, &set, NULL);	/* the handler runs here */

	printf("sigtrapblock r=%d handler %s mask %s ran %d\n", r,
	       hkept ? "kept" : "LOST", mkept ? "kept" : "LOST", (int)ran);
	return hkept && mkept && ran == 1 && r == 12 ? 0 : 1;
}
