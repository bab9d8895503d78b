// SPDX-License-Identifier: GPL-2.0
/*
 * A program that single-steps itself: work() sets TF with popf, the
 * CPU traps after the instruction that follows the popf (the trap
 * reports rip just past that instruction, at label "stepped"), and the
 * SIGTRAP handler (SA_SIGINFO) records the trapping rip and si_code and
 * clears TF in the ucontext, so exactly one trap is taken and TF is
 * clear when work() returns.
 *
 * Printed: the rip's offset from work() (fixed by the compiler; the
 * test compares it with the untraced run), whether it is the label,
 * the si_code (TRAP_TRACE natively), the number of traps and TF read
 * by pushf after work().  Natively: "... at_label=1 ... traps=1
 * tf_after=0", exit 0.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include "../oracle/fixture.h"

#define X86_TF 0x100UL

static volatile int traps, code;
static volatile unsigned long trap_ip;
extern const char owntf_stepped[];

NOINLINE int work(int x);

static void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	traps++;
	if (traps == 1) {
		trap_ip = uc->uc_mcontext.gregs[REG_RIP];
		code = si->si_code;
	}
	uc->uc_mcontext.gregs[REG_EFL] &= ~X86_TF;
}

NOINLINE int work(int x)
{
	__asm__ volatile("pushfq\n\t"
			 "orq $0x100, (%%rsp)\n\t"
			 "popfq\n\t"
			 "addl $1, %0\n"	/* runs, then the trap */
			 ".globl owntf_stepped\n"
			 "owntf_stepped:\n\t"
			 "addl $2, %0\n\t"
			 "addl $4, %0"
			 : "+r"(x) : : "cc", "memory");
	return x;
}

int main(void)
{
	struct sigaction sa;
	unsigned long fl;
	int r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);

	r = work(0);
	__asm__ volatile("pushfq\n\tpop %0" : "=r"(fl) : : "memory");
	printf("owntf r=%d offset=%ld at_label=%d si_code=%d traps=%d tf_after=%d\n",
	       r, (long)(trap_ip - (unsigned long)work),
	       trap_ip == (unsigned long)owntf_stepped, (int)code, (int)traps,
	       (fl & X86_TF) != 0);
	return r == 7 && trap_ip == (unsigned long)owntf_stepped &&
	       code == TRAP_TRACE && traps == 1 && !(fl & X86_TF) ? 0 : 1;
}
