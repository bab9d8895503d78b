// SPDX-License-Identifier: GPL-2.0
/*
 * Return addresses moved down the stack, then "ret $8" (issue #16):
 *   moved_dup:  call leaf_a; push (%rsp); ret $8
 *   moved_pop:  pop %rcx; push %rax; push %rcx; call leaf_a; ret $8
 * Both return to their caller with rsp as a plain ret would leave it.
 * moved_pop's "pop %rcx" lifts rsp above its own return slot for two
 * instructions: that is no return.  By the source, every mode must
 * show work -> moved_dup -> leaf_a, work -> moved_pop -> leaf_a,
 * work -> leaf_a, with no synthetic return.
 */
#include <stdio.h>
#include "fixture.h"

OPAQUE int leaf_a(int x) { return x * 3 + 1; }

int moved_dup(int x);
int moved_pop(int x);

/* The call sites keep %rsp 16-byte aligned (entry is 8 off). */
__asm__(
	".text\n"
	".globl moved_dup\n"
	".type moved_dup, @function\n"
	"moved_dup:\n"
	"	sub $8, %rsp\n"
	"	call leaf_a@PLT\n"
	"	add $8, %rsp\n"
	"	push (%rsp)\n"
	"	ret $8\n"
	".size moved_dup, .-moved_dup\n"
	".globl moved_pop\n"
	".type moved_pop, @function\n"
	"moved_pop:\n"
	"	pop %rcx\n"
	"	push %rax\n"
	"	push %rcx\n"
	"	sub $8, %rsp\n"
	"	call leaf_a@PLT\n"
	"	add $8, %rsp\n"
	"	ret $8\n"
	".size moved_pop, .-moved_pop\n");

OPAQUE int work(int x)
{
	int s = moved_dup(x);

	s += moved_pop(s);
	return s + leaf_a(x);
}

int main(void)
{
	printf("retmoved %d\n", work(1));
	return 0;
}
