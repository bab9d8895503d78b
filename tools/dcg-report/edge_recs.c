// SPDX-License-Identifier: GPL-2.0
/*
 * edge_recs.c - the EDGE records of a trace: the tapset's in-module
 * (caller, callee) -> count table, merged and ordered for printing.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

void edge_recs_add(struct edge_recs *er, const struct dcg_rec_edge *r)
{
	if (er->n == er->cap) {
		er->cap = er->cap ? 2 * er->cap : 256;
		er->e = xrealloc(er->e, er->cap * sizeof(*er->e));
	}
	er->e[er->n].caller = r->caller;
	er->e[er->n].callee = r->callee;
	er->e[er->n].count = r->count;
	er->n++;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct edge_rec *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct edge_rec *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_pair(a, b);
}

void edge_recs_finish(struct edge_recs *er)
{
	dcg_u32 i, n = 0;

	if (!er->n)
		return;
	qsort(er->e, er->n, sizeof(*er->e), cmp_pair);
	for (i = 0; i < er->n; i++) {
		if (n && !cmp_pair(&er->e[n - 1], &er->e[i]))
			er->e[n - 1].count += er->e[i].count;
		else
			er->e[n++] = er->e[i];
	}
	er->n = n;
	qsort(er->e, er->n, sizeof(*er->e), cmp_count);
}

/* The edge table as text lines, for the graph and hot views. */
void edge_recs_print(struct report *rp, const char *p)
{
	struct edge_recs *er = &rp->edges;
	struct name_buf nb;
	dcg_u32 i;

	if (!er->n)
		return;
	fprintf(rp->out, "%sedge table (counted in the kernel): %u edges\n", p,
		er->n);
	fprintf(rp->out, "%s%10s  %s\n", p, "CALLS", "CALLER -> CALLEE");
	for (i = 0; i < er->n; i++) {
		fprintf(rp->out, "%s%10llu  %s", p,
			(unsigned long long)er->e[i].count,
			er->e[i].caller ? func_name(rp, er->e[i].caller, &nb)
					: "(root)");
		fprintf(rp->out, " -> %s\n", func_name(rp, er->e[i].callee, &nb));
	}
}
