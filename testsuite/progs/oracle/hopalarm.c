// SPDX-License-Identifier: GPL-2.0
/*
 * hopalarm.c - timer signals interrupt a loop without calls, which hop
 * mode runs natively (dyncg.stap/stap-hop.exp): work() arms a timer (a
 * signal every 5 ms of real time, 10 of them) and spins on a counter
 * until they came.  Their handler is not hooked and calls nothing, so
 * the oracle does not see it, and a trace that left its frame open, or
 * lost the interrupted one, shows callers that differ (after() is
 * called from work() once the signals are over).  The signals come
 * while the loop runs: one delivered at the stop right before a call
 * insn (the timer firing during a trap) lost the call, in step mode
 * too (sid, 1 run of 4, with a signal every 2 ms all along).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include "fixture.h"

static volatile sig_atomic_t ticks;

static NOINLINE NO_HOOK void on_alarm(int sig)
{
	static const struct itimerval off;

	(void)sig;
	if (++ticks == 10)
		setitimer(ITIMER_REAL, &off, NULL);
}

static NOINLINE int before(int x) { return x * 2; }
static NOINLINE int after(int x) { return x * 3; }

NOINLINE int work(int x)
{
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } };
	unsigned int n = 0;
	int r = before(x);

	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 10)
		n++;
	return r + after(x) + (n != 0);
}

int main(void)
{
	struct sigaction sa;
	int r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	r = work(1);
	printf("hopalarm %d %d\n", r, (int)ticks);
	return 0;
}
