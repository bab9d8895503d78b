// SPDX-License-Identifier: GPL-2.0
/*
 * A program that reads its own EFLAGS inside the traced window, with
 * pushfq in work() (and branches on TF, bit 8), pushfq in a callee and
 * pushfw in another callee; it also reads r11 after a syscall (the
 * flags the syscall saw) and, in a SIGUSR1 handler, the flags saved in
 * the signal frame of a signal raised inside work().  It never sets TF,
 * so natively all read TF=0 and work(1) returns 2: "pushftf tf=0 r=2
 * callee_tf=0 pushfw_tf=0 r11_tf=0 frame_tf=0", exit 0.
 * A single-stepping tracer that lets the pushed word keep its own TF
 * shows "tf=1 r=1002".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <sys/syscall.h>
#include "../oracle/fixture.h"

#define X86_TF 0x100UL

static NOINLINE unsigned long read_flags(void)
{
	unsigned long fl;

	__asm__ volatile("pushf\n\tpop %0" : "=r"(fl) : : "memory");
	return fl;
}

static NOINLINE int read_flags16(void)
{
	unsigned short fw;

	/* the 16-bit form pushes only FLAGS; TF is in it too */
	__asm__ volatile("pushfw\n\tpopw %0" : "=r"(fw) : : "memory");
	return (fw & X86_TF) != 0;
}

/* r11 holds the flags the syscall instruction saw */
static NOINLINE int syscall_r11_tf(void)
{
	unsigned long r11, ret;

	__asm__ volatile("syscall\n\tmov %%r11, %1"
			 : "=a"(ret), "=r"(r11)
			 : "0"((unsigned long)SYS_getppid)
			 : "rcx", "r11", "memory");
	return (r11 & X86_TF) != 0;
}

static volatile int frame_tf = -1;

/* the flags saved in a signal frame are the interrupted code's */
static void on_usr1(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	frame_tf = (uc->uc_mcontext.gregs[REG_EFL] & X86_TF) != 0;
}

/* The pushfq is in work() itself, the other two in its callees. */
NOINLINE int work(int x, int *tf, int *tf2, int *tfw, int *r11)
{
	unsigned long fl;

	__asm__ volatile("pushfq\n\tpop %0" : "=r"(fl) : : "memory");
	*tf = (fl & X86_TF) != 0;
	*tf2 = (read_flags() & X86_TF) != 0;
	*tfw = read_flags16();
	*r11 = syscall_r11_tf();
	raise(SIGUSR1);
	if (*tf)
		return x + 1001;
	return x + 1;
}

int main(void)
{
	struct sigaction sa;
	int tf, tf2, tfw, r11, r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	r = work(1, &tf, &tf2, &tfw, &r11);
	printf("pushftf tf=%d r=%d callee_tf=%d pushfw_tf=%d r11_tf=%d frame_tf=%d\n",
	       tf, r, tf2, tfw, r11, (int)frame_tf);
	return tf == 0 && r == 2 && tf2 == 0 && tfw == 0 && r11 == 0 &&
	       frame_tf == 0 ? 0 : 1;
}
