// SPDX-License-Identifier: GPL-2.0
/*
 * nofault.c - reading traced code and stacks from the trap handler.
 *
 * The #DB handler runs NMI-like: it must not fault, sleep or take locks.
 * The kernel's *_nofault copies fail instead of faulting, but fail a
 * whole copy when any byte of it is unmapped; the engine wants to know
 * how far the readable part goes (an instruction can end right before
 * an unmapped page), so copy a page at a time and stop at the first
 * page that fails.
 */

/* Returns the bytes copied: 0 to @len, stopping at an unreadable page. */
static int dcg_read_nofault(dcg_u64 addr, void *buf, unsigned int len,
			    bool kernel)
{
	unsigned int done = 0;

	while (done < len) {
		unsigned long a = addr + done;
		unsigned int chunk = PAGE_SIZE - (a & ~PAGE_MASK);
		long rc;

		if (chunk > len - done)
			chunk = len - done;
		if (kernel)
			rc = copy_from_kernel_nofault((char *)buf + done,
						      (const void *)a, chunk);
		else
			rc = copy_from_user_nofault((char *)buf + done,
						    (const void __user *)a,
						    chunk);
		if (rc)
			break;
		done += chunk;
	}
	return done;
}
