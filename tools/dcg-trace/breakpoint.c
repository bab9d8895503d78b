// SPDX-License-Identifier: GPL-2.0
/*
 * breakpoint.c - int3 breakpoints.
 *
 * The byte under an int3 is saved once, when the breakpoint is first
 * inserted.  Breakpoints stay in memory for as long as tracing lasts;
 * a thread that must execute the displaced instruction is stepped over
 * it with every other thread stopped (see ptrace.c, step-over), so no
 * thread can ever run past a missing breakpoint.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dcg_trace.h"

#define INT3 0xcc

struct bp *bp_find(uint64_t addr)
{
	int i;

	for (i = 0; i < T.nbps; i++)
		if (T.bps[i].addr == addr)
			return &T.bps[i];
	return NULL;
}

int bp_add(uint64_t addr, enum bp_kind kind)
{
	struct bp *b = bp_find(addr);

	if (b) {
		/* A traced function wins over an internal purpose. */
		if (kind == BP_FUNC)
			b->kind = BP_FUNC;
		return 0;
	}
	if (T.nbps == T.capbps) {
		int cap = T.capbps ? 2 * T.capbps : 16;
		struct bp *n = realloc(T.bps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		T.bps = n;
		T.capbps = cap;
	}
	b = &T.bps[T.nbps++];
	memset(b, 0, sizeof(*b));
	b->addr = addr;
	b->kind = kind;
	return bp_set(b, true);
}

/* Insert (@in) or remove one breakpoint in the traced process. */
int bp_set(struct bp *b, bool in)
{
	uint8_t byte;
	int ret;

	if (b->inserted == in)
		return 0;
	if (in) {
		if (mem_read(b->addr, &byte, 1) != 1)
			return -EFAULT;
		b->orig = byte;
		guardian_note(b->addr, byte);	/* before the int3 is in */
		byte = INT3;
	} else {
		byte = b->orig;
	}
	ret = mem_write(T.pid, b->addr, &byte, 1);
	if (ret == 0)
		b->inserted = in;
	/*
	 * Function and link-map breakpoints come out only for a step-over
	 * (and for good in bp_remove_all()): the guardian keeps those.
	 */
	if (ret == 0 && !in && b->kind != BP_FUNC && b->kind != BP_DLDEBUG)
		guardian_forget(b->addr);
	return ret;
}

int bp_insert_all(void)
{
	int i, ret = 0;

	for (i = 0; i < T.nbps; i++)
		if (bp_set(&T.bps[i], true) < 0)
			ret = -EFAULT;
	return ret;
}

/*
 * Write the original bytes back into @pid: the traced process at the
 * end, or a forked child that inherited our int3s before we let it go.
 */
int bp_remove_all(pid_t pid)
{
	int i, ret = 0;

	for (i = 0; i < T.nbps; i++) {
		struct bp *b = &T.bps[i];

		if (!b->inserted)
			continue;
		if (mem_write(pid, b->addr, &b->orig, 1) < 0)
			ret = -EFAULT;
		else if (pid == T.pid) {
			b->inserted = false;
			guardian_forget(b->addr);
		}
	}
	return ret;
}

/* After exec the old address space and its breakpoints are gone. */
void bp_forget_all(void)
{
	T.nbps = 0;
	T.dldebug_addr = 0;
	guardian_forget_all();
}

/* Replace our int3s in a copy of [addr, addr+len) by the original bytes. */
void bp_patch_orig(uint64_t addr, uint8_t *buf, unsigned int len)
{
	int i;

	for (i = 0; i < T.nbps; i++) {
		struct bp *b = &T.bps[i];

		if (b->inserted && b->addr >= addr && b->addr < addr + len)
			buf[b->addr - addr] = b->orig;
	}
}
