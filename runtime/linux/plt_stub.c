// SPDX-License-Identifier: GPL-2.0
/*
 * plt_stub.c - naming PLT stubs in the live text of user windows.
 *
 * stap's symbol tables (-d, --ldd) have no symbol for a PLT entry, so
 * _stp_snprint_addr() named every stub after the symbol before .plt
 * (often "_init").  A stub is one instruction that matters: its jump
 * through its GOT slot (runtime/dcg_plt.h).  Once the
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
	u8 b[16];
	u64 slot;

	if (dcg_read_nofault(addr, b, sizeof(b), false) != sizeof(b) ||
	    !dcg_plt_slot(b, sizeof(b), addr, &slot))	/* dcg_plt.h */
		return DCG_PLT_NONE;
	if (dcg_read_nofault(slot, target, sizeof(*target), false) !=
	    sizeof(*target) || !*target)
		return DCG_PLT_NONE;
	if (*target > addr - DCG_PLT_NEAR && *target < addr + DCG_PLT_NEAR)
		return DCG_PLT_UNBOUND;
	return DCG_PLT_BOUND;
}
