// SPDX-License-Identifier: GPL-2.0
/*
 * Taken jumps whose target is the next instruction, each followed by a
 * call: a jump-table dispatch that lands on the fall-through address
 * (jmp *%rax, as Lua's luaD_rawrunprotected has), and a jmp rel8 0.
 * Stepped, such a jump ends where an untaken one would; emulated-block
 * mode must still end the block there (the hardware's BTF would trap on
 * it), else the walk from the block's start stops at the jump and the
 * call after it is lost.  The dispatchers are assembly (no hooks): in
 * the oracle, and in the trace, the parent of leaf_a and leaf_b is
 * work().
 */
#include <stdio.h>
#include "fixture.h"

OPAQUE int leaf_a(int x) { return x * 3 + 1; }
OPAQUE int leaf_b(int x) { return x * 5 + 2; }

int via_table(int x);
int via_rel0(int x);

/* The call sites keep %rsp 16-byte aligned (entry is 8 off). */
__asm__(
	".text\n"
	".globl via_table\n"
	".type via_table, @function\n"
	"via_table:\n"
	"	sub $8, %rsp\n"
	"	lea 1f(%rip), %rax\n"
	"	jmp *%rax\n"
	"1:	call leaf_a@PLT\n"
	"	add $8, %rsp\n"
	"	ret\n"
	".size via_table, .-via_table\n"
	".globl via_rel0\n"
	".type via_rel0, @function\n"
	"via_rel0:\n"
	"	sub $8, %rsp\n"
	"	.byte 0xeb, 0x00\n"		/* jmp .+2 */
	"	call leaf_b@PLT\n"
	"	add $8, %rsp\n"
	"	ret\n"
	".size via_rel0, .-via_rel0\n");

OPAQUE int work(int x)
{
	int s = via_table(x);

	s += via_rel0(s & 7);
	return s + leaf_a(x);
}

int main(void)
{
	printf("jumpnext %d %d\n", work(1), work(4));
	return 0;
}
