/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_plt.h - what a PLT entry's jump through the GOT looks like, the
 * one place for it: dcg-report's symbolizer reads it from the ELF file
 * (tools/lib/symbolize.c), the kernel host from the traced process's
 * memory (runtime/linux/plt_stub.c).  Freestanding, header-only: no
 * library to link.
 */
#ifndef DCG_PLT_H
#define DCG_PLT_H

#include "dcg_compat.h"

/*
 * The GOT slot a PLT stub jumps through, from its first bytes @b (@n of
 * them) at address @at: (endbr64) (bnd) jmp *disp32(%rip), that is
 * f3 0f 1e fa, f2, ff 25 and a displacement from the end of the jump.
 * Returns 0 and leaves *@slot alone for anything else (an IBT .plt
 * entry pushes and jumps to PLT0 instead).
 */
static inline int dcg_plt_slot(const dcg_u8 *b, unsigned int n, dcg_u64 at,
			       dcg_u64 *slot)
{
	unsigned int i = 0;
	dcg_u32 disp;

	if (n >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e &&
	    b[3] == 0xfa)
		i = 4;				/* endbr64 */
	if (i < n && b[i] == 0xf2)		/* bnd */
		i++;
	if (i + 6 > n || b[i] != 0xff || b[i + 1] != 0x25)
		return 0;
	disp = (dcg_u32)b[i + 2] | (dcg_u32)b[i + 3] << 8 |
	       (dcg_u32)b[i + 4] << 16 | (dcg_u32)b[i + 5] << 24;
	*slot = at + i + 6 + (dcg_u64)(dcg_s64)(dcg_s32)disp;
	return 1;
}

#endif /* DCG_PLT_H */
