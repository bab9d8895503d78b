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
 *
 * Then owntf_tfret() sets TF and returns: its trap comes after the ret,
 * at the return address in main(), outside the function (trace it too
 * to see the window end with the program's TF set): "at_return=1
 * traps=2 tf_after=0".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include "../oracle/fixture.h"

#define X86_TF 0x100UL

static volatile int traps, code;
static volatile unsigned long trap_ip, trap2_ip;
extern const char owntf_stepped[], owntf_returned[];

/*
 * Sets TF and returns: the trap comes after the ret, at the return
 * address (label owntf_returned), outside this function.
 */
__asm__(".text\n"
	".globl owntf_tfret\n"
	".type owntf_tfret, @function\n"
	"owntf_tfret:\n\t"
	"pushfq\n\t"
	"orq $0x100, (%rsp)\n\t"
	"popfq\n\t"
	"ret\n"
	".size owntf_tfret, .-owntf_tfret\n");

NOINLINE int work(int x);

static void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	traps++;
	if (traps == 1) {
		trap_ip = uc->uc_mcontext.gregs[REG_RIP];
		code = si->si_code;
	} else if (traps == 2) {
		trap2_ip = uc->uc_mcontext.gregs[REG_RIP];
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
	int r, ok;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);

	r = work(0);
	__asm__ volatile("pushfq\n\tpop %0" : "=r"(fl) : : "memory");
	printf("owntf r=%d offset=%ld at_label=%d si_code=%d traps=%d tf_after=%d",
	       r, (long)(trap_ip - (unsigned long)work),
	       trap_ip == (unsigned long)owntf_stepped, (int)code, (int)traps,
	       (fl & X86_TF) != 0);
	ok = r == 7 && trap_ip == (unsigned long)owntf_stepped &&
	     code == TRAP_TRACE && traps == 1 && !(fl & X86_TF);

	__asm__ volatile("call owntf_tfret\n"
			 ".globl owntf_returned\n"
			 "owntf_returned:\n\t"
			 "nop" : : : "cc", "memory");
	__asm__ volatile("pushfq\n\tpop %0" : "=r"(fl) : : "memory");
	printf(" ret_offset=%ld at_return=%d traps=%d tf_after=%d\n",
	       (long)(trap2_ip - (unsigned long)main),
	       trap2_ip == (unsigned long)owntf_returned, (int)traps,
	       (fl & X86_TF) != 0);
	return ok && trap2_ip == (unsigned long)owntf_returned && traps == 2 &&
	       !(fl & X86_TF) ? 0 : 1;
}
