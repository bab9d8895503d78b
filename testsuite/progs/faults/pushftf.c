// SPDX-License-Identifier: GPL-2.0
/*
 * A program that reads its own EFLAGS inside the traced window, with
 * pushfq in work() (and branches on TF, bit 8), pushfq in a callee and
 * pushfw in another callee.  It never sets TF, so natively
 * pushf reads TF=0 and work(1) returns 2: "pushftf tf=0 r=2 callee_tf=0
 * pushfw_tf=0", exit 0.
 * A single-stepping tracer that lets the pushed word keep its own TF
 * shows "tf=1 r=1002".
 */
#include <stdio.h>
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

/* The pushfq is in work() itself, the other two in its callees. */
NOINLINE int work(int x, int *tf, int *tf2, int *tfw)
{
	unsigned long fl;

	__asm__ volatile("pushfq\n\tpop %0" : "=r"(fl) : : "memory");
	*tf = (fl & X86_TF) != 0;
	*tf2 = (read_flags() & X86_TF) != 0;
	*tfw = read_flags16();
	if (*tf)
		return x + 1001;
	return x + 1;
}

int main(void)
{
	int tf, tf2, tfw, r;

	r = work(1, &tf, &tf2, &tfw);
	printf("pushftf tf=%d r=%d callee_tf=%d pushfw_tf=%d\n", tf, r, tf2,
	       tfw);
	return tf == 0 && r == 2 && tf2 == 0 && tfw == 0 ? 0 : 1;
}
