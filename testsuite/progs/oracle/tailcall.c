// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls at -O2.  An instrumented function can not tail-call (its
 * exit hook runs after the callee returns), so the functions that jump
 * are built without hooks; the functions they jump to have hooks.  In
 * the oracle the jumped-to function's parent is the hooked caller of
 * the jumping one; dcg-trace must see a TAILCALL that replaces the
 * jumping frame, giving the same parent.
 */
#include <stdio.h>
#include "fixture.h"

OPAQUE int leaf_a(int x) { return x * 3 + 1; }
OPAQUE int leaf_b(int x) { return x * 5 + 2; }

/* jmp leaf_a */
OPAQUE NO_HOOK int tail_direct(int x) { return leaf_a(x + 1); }
/* jmp tail_direct: two tail calls in a row */
OPAQUE NO_HOOK int tail_chain(int x) { return tail_direct(x * 2); }

int (*volatile through)(int) = leaf_b;
/* jmp *through */
OPAQUE NO_HOOK int tail_indirect(int x) { return through(x - 1); }

OPAQUE int work(int x)
{
	int s = tail_direct(x);

	s += tail_chain(s & 7);
	s += tail_indirect(x);
	return s + leaf_b(x);
}

int main(void)
{
	printf("tailcall %d %d\n", work(1), work(4));
	return 0;
}
