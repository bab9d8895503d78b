// SPDX-License-Identifier: GPL-2.0
/*
 * hoploop.c - most of the window's instructions are in loops without a
 * call (checksums), reached by direct calls and through a function
 * pointer: stepped, a stop per instruction; in hop mode
 * (dyncg.stap/stap-hop.exp) about two per call or return.
 */
#include <stdio.h>
#include "fixture.h"

static unsigned char buf[512];

static NOINLINE unsigned int sum(const unsigned char *p, int n)
{
	unsigned int s = 0;
	int i;

	for (i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

static NOINLINE unsigned int fold(const unsigned char *p, int n)
{
	unsigned int s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (p[i] & 1)
			s ^= p[i] << (i & 7);
		else
			s += p[i];
	}
	return s;
}

static unsigned int (*volatile checksum)(const unsigned char *, int) = fold;

NOINLINE unsigned int work(int rounds)
{
	unsigned int s = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		s += sum(buf, sizeof(buf));
		s ^= checksum(buf, 256);
	}
	return s;
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	printf("hoploop %u\n", work(20));
	return 0;
}
