// SPDX-License-Identifier: GPL-2.0
/*
 * setjmp/longjmp out of deep frames: inside the traced function, and
 * out of it (the window then ends by the stack moving above it).
 */
#include <setjmp.h>
#include <stdio.h>
#include "fixture.h"

static jmp_buf inner, outer;

static NOINLINE int note(int x) { return x + 1; }

static NOINLINE void deep(int n, jmp_buf env)
{
	volatile char pad[64];

	pad[0] = n;
	if (n == 0)
		longjmp(env, 1 + pad[0]);
	note(n);
	deep(n - 1, env);
}

NOINLINE int work(int n, int escape)
{
	int sum = 0;

	if (setjmp(inner) == 0)
		deep(n, inner);
	sum += note(1);		/* called after the longjmp */
	if (setjmp(inner) == 0)
		deep(2, inner);
	sum += note(2);
	if (escape)
		deep(3, outer);	/* leaves work() itself */
	return sum;
}

int main(void)
{
	int sum = work(4, 0);

	if (setjmp(outer) == 0)
		sum += work(3, 1);
	sum += note(10);
	printf("longjmp %d\n", sum);
	return 0;
}
