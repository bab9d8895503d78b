// SPDX-License-Identifier: GPL-2.0
/*
 * hopalarm.c - timer signals interrupt a loop without calls, which hop
 * mode runs natively (dyncg.stap/stap-hop.exp): work() arms a one-shot
 * timer of 20 ms of real time and spins on a counter until 10 signals
 * came; the handler arms the next one: one at a time, so that none is
 * pending when a handler returns (back to back, the next handler's
 * entry was not seen as one: sid and bullseye, with a periodic timer of
 * 5 ms), and exactly 10.  Their handler is not hooked and calls nothing, so
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

static const struct itimerval next = { { 0, 0 }, { 0, 20000 } };

static NOINLINE NO_HOOK void on_alarm(int sig)
{
	(void)sig;
	if (++ticks < 10)
		setitimer(ITIMER_REAL, &next, NULL);
}

static NOINLINE int before(int x) { return x * 2; }
static NOINLINE int after(int x) { return x * 3; }

NOINLINE int work(int x)
{
	unsigned int n = 0;
	int r = before(x);

	setitimer(ITIMER_REAL, &next, NULL);
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
