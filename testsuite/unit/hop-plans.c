// SPDX-License-Identifier: GPL-2.0
/*
 * hop-plans - dcg_hop_plan() at the entry of every function of a code
 * image, for testsuite/unit/hop-objdump (the planner against objdump).
 *
 * usage: hop-plans CODE VMA < FUNCS
 *
 * CODE holds the bytes of one section (objcopy -O binary), loaded at
 * VMA (hex).  FUNCS has one line "START END" (hex) per function; those
 * are the function bounds the planner gets.  For each line, prints
 * "START KIND ADDR...": KIND is step, next or set, with 4 registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcg_hop.h"

static unsigned char *code;
static unsigned long long vma, size;
static unsigned long long (*funcs)[2];
static size_t nfuncs;

static int rd(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	if (addr < vma || addr >= vma + size)
		return 0;
	if (addr + len > vma + size)
		len = vma + size - addr;
	memcpy(buf, code + (addr - vma), len);
	return len;
}

static int cmp(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The innermost listed function holding @addr: the last start <= addr. */
static int bounds(void *ctx, dcg_u64 addr, dcg_u64 *s, dcg_u64 *e)
{
	size_t lo = 0, hi = nfuncs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (funcs[mid][0] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= funcs[lo - 1][1])
		return -1;
	*s = funcs[lo - 1][0];
	*e = funcs[lo - 1][1];
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "step", "next", "set" };
	struct dcg_host_ops ops = { .read = rd, .func_bounds = bounds };
	unsigned long long a, b;
	struct dcg_hop_plan p;
	size_t cap = 0, i;
	FILE *f;
	int j;

	if (argc != 3) {
		fprintf(stderr, "usage: hop-plans CODE VMA < FUNCS\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "hop-plans: cannot open %s\n", argv[1]);
		return 2;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	code = malloc(size ? size : 1);
	if (!code || fread(code, 1, size, f) != size) {
		fprintf(stderr, "hop-plans: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	vma = strtoull(argv[2], NULL, 16);
	while (scanf("%llx %llx", &a, &b) == 2) {
		if (nfuncs == cap) {
			cap = cap ? 2 * cap : 1024;
			funcs = realloc(funcs, cap * sizeof(*funcs));
			if (!funcs)
				return 2;
		}
		funcs[nfuncs][0] = a;
		funcs[nfuncs][1] = b;
		nfuncs++;
	}
	qsort(funcs, nfuncs, sizeof(*funcs), cmp);
	for (i = 0; i < nfuncs; i++) {
		dcg_hop_plan(funcs[i][0], DCG_HOP_MAX, 0, &ops, &p);
		printf("%llx %s", funcs[i][0], kinds[p.kind]);
		for (j = 0; j < p.n; j++)
			printf(" %llx", (unsigned long long)p.addr[j]);
		printf("\n");
	}
	return 0;
}
