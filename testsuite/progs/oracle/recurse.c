// SPDX-License-Identifier: GPL-2.0
/* Recursion, mutual recursion, and the traced function recursing. */
#include <stdio.h>
#include "fixture.h"

static int is_odd(int n);

static NOINLINE int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static NOINLINE int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static NOINLINE int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

NOINLINE int work(int n)
{
	if (n <= 0)
		return fib(5);
	return is_even(n) + work(n - 1);
}

int main(void)
{
	printf("recurse %d\n", work(4));
	return 0;
}
