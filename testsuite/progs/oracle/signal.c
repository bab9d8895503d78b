// SPDX-License-Identifier: GPL-2.0
/*
 * Signal handlers that run inside the traced window: raise(SIGUSR1),
 * and the program's own SIGTRAPs (raise(SIGTRAP), an int3 instruction),
 * which dcg-trace must deliver although it traps with SIGTRAP itself.
 * The same SIGTRAPs outside the window, in main().
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "fixture.h"

static volatile sig_atomic_t handled, traps;

static NOINLINE int in_handler(int x) { return x + 1; }

static NOINLINE void on_usr1(int sig)
{
	handled += in_handler(sig);
}

/*
 * Not hooked: dcg-trace runs the program's own SIGTRAP handlers
 * unstepped (see dcg-trace(1)), so they are not in its trace.
 */
static NOINLINE NO_HOOK void on_trap(int sig)
{
	traps += 1;
}

static NOINLINE int before(int x) { return x * 2; }
static NOINLINE int after(int x) { return x * 3; }

NOINLINE int work(int x)
{
	int r = before(x);

	raise(SIGUSR1);
	raise(SIGTRAP);
	__asm__ volatile("int3");
	return r + after(x);
}

int main(void)
{
	struct sigaction sa;
	int r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	raise(SIGTRAP);
	__asm__ volatile("int3");
	r = work(1) + work(2);
	printf("signal %d %d %d\n", r, (int)handled, (int)traps);
	return 0;
}
