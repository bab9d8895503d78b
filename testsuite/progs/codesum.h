/* SPDX-License-Identifier: GPL-2.0 */
/*
 * codesum.h - a checksum of a function's first bytes, for fixtures that
 * check their own code is unchanged after dcg-trace has detached (no
 * int3 left behind).  Kept out of -finstrument-functions oracles.
 */
#ifndef CODESUM_H
#define CODESUM_H

#include <stddef.h>

static inline __attribute__((no_instrument_function))
unsigned long code_checksum(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long h = 5381;

	while (n--)
		h = h * 33 + *b++;
	return h;
}

#endif
