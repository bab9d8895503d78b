// SPDX-License-Identifier: GPL-2.0
/*
 * A program that uses int3 and SIGTRAP itself, inside the traced
 * window and outside it, with a SIGTRAP handler that counts and checks
 * where each int3 trapped: the saved rip must be just past the int3
 * (dcg-trace must neither swallow the program's trap nor rewind it
 * like one of its own breakpoints).  Outside: one int3 and one
 * raise(SIGTRAP) in main, and 100 int3s in a helper thread running
 * while main's windows are traced.  Inside: work() runs an int3 in a
 * callee, an int3 directly before a one-byte instruction, 5 int3s in a
 * loop, and kill(getpid(), SIGTRAP).  Total traps by hand:
 * outside 1 + 1 + 100, inside per work(): 1 + 1 + 5 + 1 = 8, work()
 * called 3 times: 102 + 24 = 126.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <ucontext.h>
#include "../oracle/fixture.h"

static volatile int traps, misplaced;
static __thread volatile unsigned long expect_ip;	/* per thread */

/* An int3 whose trap must report rip == the label just after it. */
#define TRAP_HERE(label)						\
	__asm__ volatile("lea 1f(%%rip), %%rax\n\t"			\
			 "mov %%rax, %0\n\t"				\
			 "int3\n"					\
			 "1:\n\t"					\
			 "nop" : "=m"(expect_ip) : : "rax", "memory")

static NO_HOOK void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];

	traps++;
	if (si->si_code != SI_KERNEL)
		return;	/* kill(): may land on a thread between mov and int3 */
	if (ip != expect_ip)
		misplaced++;
	expect_ip = 0;
}

static NOINLINE int callee(int x)
{
	TRAP_HERE();
	return x + 1;
}

static NOINLINE int leaf(int x) { return x * 2; }

NOINLINE int work(int x)
{
	int i;

	x = callee(x);
	TRAP_HERE();
	for (i = 0; i < 5; i++) {
		TRAP_HERE();
		x = leaf(x);
	}
	kill(getpid(), SIGTRAP);
	return x;
}

static void *thread_traps(void *arg)
{
	int i;

	for (i = 0; i < 100; i++) {
		TRAP_HERE();
		usleep(100);
	}
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	pthread_t th;
	int r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGTRAP, &sa, NULL);
	TRAP_HERE();
	raise(SIGTRAP);
	pthread_create(&th, NULL, thread_traps, NULL);
	r = work(1) + work(2) + work(3);	/* (x+1)*32 each: 64+96+128 */
	pthread_join(th, NULL);
	printf("ownint3 %d traps %d misplaced %d\n", r, (int)traps,
	       (int)misplaced);
	return 0;
}
