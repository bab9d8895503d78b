// SPDX-License-Identifier: GPL-2.0
/*
 * plt_stub.c - naming PLT stubs in the live text of user windows.
 *
 * stap's symbol tables (-d, --ldd) have no symbol for a PLT entry, so
 * _stp_snprint_addr() named every stub after the symbol before .plt
 * (often "_init").  A stub is one instruction that matters: (endbr64)
 * (bnd) jmp *disp32(%rip), a jump through its GOT slot.  Once the
 * dynamic linker has bound the slot it holds the target, which stap
 * can name: the stub prints as "target@plt".  An unbound slot still
 * points back into the PLT (lazy binding, whose work follows under the
 * stub): the stub prints as "[plt, unbound]".
 *
 * Runs in the #DB handler: reads with the no-fault copies only.
 */

/* A bound slot's target is not this close to the stub (the PLT itself). */
#define DCG_PLT_NEAR	(64 * 1024)

#define DCG_PLT_NONE	0	/* not a PLT stub */
#define DCG_PLT_BOUND	1	/* *target is where it jumps */
#define DCG_PLT_UNBOUND	2	/* lazy binding comes first */

/* Is the user code at @addr a PLT stub, and where does it jump? */
static int dcg_plt_stub(u64 addr, u64 *target)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u8 b[16];
	unsigned int i = 0;
	s32 disp;
	u64 slot;

	if (dcg_read_nofault(addr, b, sizeof(b), false) != sizeof(b))
		return DCG_PLT_NONE;
	if (!memcmp(b, endbr64, sizeof(endbr64)))
		i = sizeof(endbr64);
	if (b[i] == 0xf2)		/* bnd */
		i++;
	if (b[i] != 0xff || b[i + 1] != 0x25)
		return DCG_PLT_NONE;
	memcpy(&disp, b + i + 2, sizeof(disp));
	slot = addr + i + 6 + (s64)disp;
	if (dcg_read_nofault(slot, target, sizeof(*target), false) !=
	    sizeof(*target) || !*target)
		return DCG_PLT_NONE;
	if (*target > addr - DCG_PLT_NEAR && *target < addr + DCG_PLT_NEAR)
		return DCG_PLT_UNBOUND;
	return DCG_PLT_BOUND;
}
