// SPDX-License-Identifier: GPL-2.0
/*
 * view-hot.c - what the traced root calls far too often.
 *
 * An activation is one call of a root (a frame with no shown caller).
 * Every other function is ranked by its calls per activation; those
 * above --threshold (default 100) are flagged.  Ties keep the order of
 * first appearance.
 */
#include <stdlib.h>

#include "report.h"

struct hot {
	dcg_u32 fi;
	dcg_u64 calls;
};

static int cmp_hot(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->fi < y->fi ? -1 : x->fi > y->fi;
}

static void print_roots(struct report *rp, struct func_table *ft,
			dcg_u64 activations)
{
	struct name_buf nb;
	const struct tree *t = &rp->tree;
	const char *sep = "";
	dcg_u32 id;

	fprintf(rp->out, "# activations: %llu (",
		(unsigned long long)activations);
	for (id = t->nodes[0].first_child; id; id = t->nodes[id].next_sibling) {
		fprintf(rp->out, "%s%s x%llu", sep,
			node_name(rp, &t->nodes[id], &nb),
			(unsigned long long)t->nodes[id].calls);
		sep = ", ";
	}
	fprintf(rp->out, ")\n");
}

/* by[]: .caller holds the index of the callee's first edge, for ties */
static int cmp_callee(const void *a, const void *b)
{
	const struct edge_rec *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

static int cmp_calls(const void *a, const void *b)
{
	const struct edge_rec *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

/*
 * A trace with no events but the tapset's edge table: activations are
 * the calls from the root, callees are ranked by calls into them (ties
 * in the order the table lists them).  Sorts, not scans: the table can
 * be as long as the trace.
 */
static void hot_from_edges(struct report *rp)
{
	struct name_buf nb;
	struct edge_recs *er = &rp->edges;
	struct edge_rec *by = xcalloc(er->n, sizeof(*by));
	dcg_u64 activations = 0;
	dcg_u32 i, j, n = 0, flagged = 0;

	for (i = 0; i < er->n; i++) {
		if (!er->e[i].caller) {
			activations += er->e[i].count;
			continue;
		}
		by[n].callee = er->e[i].callee;
		by[n].count = er->e[i].count;
		by[n++].caller = i;
	}
	qsort(by, n, sizeof(*by), cmp_callee);
	for (i = 0, j = 0; i < n; i++) {
		if (j && by[j - 1].callee == by[i].callee)
			by[j - 1].count += by[i].count;
		else
			by[j++] = by[i];
	}
	n = j;
	qsort(by, n, sizeof(*by), cmp_calls);
	fprintf(rp->out, "# from the edge table; activations: %llu\n",
		(unsigned long long)activations);
	fprintf(rp->out, "%10s %12s  %s\n", "CALLS", "PER-ACT", "FUNCTION");
	for (i = 0; i < n; i++) {
		double per = activations ? (double)by[i].count / activations : 0;

		fprintf(rp->out, "%10llu %12.1f  %s%s\n",
			(unsigned long long)by[i].count, per,
			func_name(rp, by[i].callee, &nb),
			per > rp->o->threshold ? "  [too often]" : "");
		flagged += per > rp->o->threshold;
	}
	fprintf(rp->out, "# called too often: %u function%s\n", flagged,
		flagged == 1 ? "" : "s");
	free(by);
}

static int finish(struct report *rp)
{
	struct name_buf nb;
	const struct tree *t = &rp->tree;
	struct func_table ft;
	struct hot *hot;
	dcg_u64 activations = 0;
	dcg_u32 id, i, n = 0;

	if (t->n == 1 && rp->edges.n) {
		fprintf(rp->out, "# dyncg hot callees: pid %u (%.16s), threshold %llu calls per activation\n",
			rp->rd.header.pid, rp->rd.header.comm,
			(unsigned long long)rp->o->threshold);
		hot_from_edges(rp);
		print_footer(rp, "# ");
		return 0;
	}
	func_table_build(rp, &ft);
	hot = xcalloc(ft.nfuncs, sizeof(*hot));
	for (i = 0; i < ft.nfuncs; i++)
		hot[i].fi = i;
	for (id = 1; id < t->n; id++) {
		if (t->nodes[id].parent)
			hot[ft.node_func[id]].calls += t->nodes[id].calls;
		else
			activations += t->nodes[id].calls;
	}
	qsort(hot, ft.nfuncs, sizeof(*hot), cmp_hot);
	fprintf(rp->out, "# dyncg hot callees: pid %u (%.16s), threshold %llu calls per activation\n",
		rp->rd.header.pid, rp->rd.header.comm,
		(unsigned long long)rp->o->threshold);
	print_cost_note(rp, "# ");
	print_roots(rp, &ft, activations);
	fprintf(rp->out, "%10s %12s %13s %13s %10s %10s  %s\n", "CALLS",
		"PER-ACT", "INSNS", "SELF-INSNS", "TIME", "SELF-TIME",
		"FUNCTION");
	for (i = 0; i < ft.nfuncs && hot[i].calls; i++) {
		const struct func_stat *f = &ft.funcs[hot[i].fi];
		double per = activations ? (double)hot[i].calls / activations : 0;

		fprintf(rp->out, "%10llu %12.1f ",
			(unsigned long long)hot[i].calls, per);
		put_cost_columns(rp, f->incl_insns, f->self_insns,
				 f->incl_ns, f->self_ns);
		fprintf(rp->out, "  %s%s%s\n",
			func_name(rp, f->func, &nb), f->async ? " [async]" : "",
			per > rp->o->threshold ? "  [too often]" : "");
		if (per > rp->o->threshold)
			n++;
	}
	fprintf(rp->out, "# called too often: %u function%s\n", n,
		n == 1 ? "" : "s");
	print_footer(rp, "# ");
	free(hot);
	func_table_free(&ft);
	return 0;
}

const struct view view_hot = {
	.name = "hot", .aggregate = true, .finish = finish,
};
