// SPDX-License-Identifier: GPL-2.0
/*
 * hoploop.c - most of the window's instructions are in loops without a
 * call (checksums), reached by direct calls and through a function
 * pointer: stepped, a stop per instruction; in hop mode
 * (dyncg.stap/stap-hop.exp) about two per call or return.  A timer
 * signal every 2 ms of real time, 10 times, interrupts wherever the
 * thread is, often a loop run natively; its handler is not hooked and
 * calls nothing, so the oracle does not see it, and a trace that left
 * its frame open, or lost the interrupted one, shows callers that
 * differ.  Only 10: with one every 2 ms for the whole run, step mode
 * lost a call next to a handler (sid, 1 run of 4), apparently one
 * delivered at the stop before the call insn.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include "fixture.h"

static unsigned char buf[512];
static volatile sig_atomic_t ticks;

static NOINLINE unsigned int sum(const unsigned char *p, int n)
{
	unsigned int s = 0;
	int i;

	for (i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

static NOINLINE unsigned int fold(const unsigned char *p, int n)
{
	unsigned int s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (p[i] & 1)
			s ^= p[i] << (i & 7);
		else
			s += p[i];
	}
	return s;
}

static unsigned int (*volatile checksum)(const unsigned char *, int) = fold;

static NOINLINE NO_HOOK void on_alarm(int sig)
{
	static const struct itimerval off;

	(void)sig;
	if (++ticks == 10)
		setitimer(ITIMER_REAL, &off, NULL);
}

NOINLINE unsigned int work(int rounds)
{
	unsigned int s = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		s += sum(buf, sizeof(buf));
		s ^= checksum(buf, 256);
	}
	return s;
}

int main(void)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct sigaction sa;
	unsigned int i, s;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	s = work(20);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("hoploop %u\n", s);
	return 0;
}
