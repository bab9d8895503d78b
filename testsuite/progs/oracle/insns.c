// SPDX-License-Identifier: GPL-2.0
/*
 * insns.c - the fixture of dyncg.user/insns-callgrind.exp: a subtree
 * whose instruction counts dcg-trace and valgrind's callgrind must
 * agree on.  Everything under work() is this file's own code (no libc,
 * whose ifunc choices differ under valgrind's synthetic CPU): plain
 * calls, a loop, recursion, mutual recursion, calls through a function
 * pointer, and rep string insns whose iteration counts the program
 * prints ("rep N N ..."), so that the test can apply the rep rule.
 */
#include <stdio.h>
#include "fixture.h"

static char src[256], dst[256];
static const unsigned long rep_counts[] = { 0, 1, 7, 100 };

static OPAQUE int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int is_odd(int n);
static OPAQUE int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static OPAQUE int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

static OPAQUE int square(int x) { return x * x; }
static OPAQUE int twice(int x) { return 2 * x; }

/* One rep movsb and one rep stosb of @n bytes each. */
static OPAQUE void copy_rep(unsigned long n)
{
	void *d = dst, *s = src;
	unsigned long c = n;

	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(c) : : "memory");
	d = dst;
	c = n;
	asm volatile("rep stosb" : "+D"(d), "+c"(c) : "a"(0) : "memory");
}

static OPAQUE int sum_loop(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += i & 3 ? i : -i;
	return s;
}

NOINLINE int work(int n)
{
	int (*ops[2])(int) = { square, twice };
	unsigned int i;
	int r = 0;

	for (i = 0; i < 6; i++)
		r += ops[i & 1](i);
	for (i = 0; i < sizeof(rep_counts) / sizeof(rep_counts[0]); i++)
		copy_rep(rep_counts[i]);
	r += fib(n) + is_even(n) + sum_loop(20 * n);
	return r;
}

int main(void)
{
	unsigned int i;

	printf("insns %d\nrep", work(7));
	for (i = 0; i < sizeof(rep_counts) / sizeof(rep_counts[0]); i++)
		printf(" %lu %lu", rep_counts[i], rep_counts[i]);
	printf("\n");
	return 0;
}
