// SPDX-License-Identifier: GPL-2.0
/*
 * view-diff.c - two traces side by side: "dcg-report diff A B".
 *
 * Each trace is read on its own (its own symbolizer: its own maps,
 * load addresses and kernel symbols) and reduced to functions and
 * caller -> callee edges keyed by their printed names, so that runs
 * under ASLR or KASLR, other pids and other threads still line up.
 * Functions (or edges) of one trace that print the same name count as
 * one.  Per row: calls and the inclusive cost (recursion counted once,
 * as in the function table of tree.c) in A and B and the change; rows
 * are sorted by the size of the change in calls, then in cost, then by
 * name.  The cost is instructions when both traces have them (format
 * version 2) and --cost time is not given, else time, printed with its
 * unit.  A tapset trace with only the in-module edge table (no events)
 * gives calls and no costs.
 *
 * Both traces must come from the same kind of tracer (dcg-trace or
 * the tapset) and both user or both kernel: anything else is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct drow {
	char *name;			/* function, or "caller -> callee" */
	dcg_u64 calls[2];
	dcg_u64 ns[2];			/* the cost: insns or time */
	bool seen[2];			/* present in A, in B */
	bool timed[2];			/* has times (events, not edges) */
};

struct dtable {
	struct drow *r;
	size_t n, cap;
};

struct diff {
	struct report b;		/* the second trace */
	struct dtable funcs, edges;
	bool insns;			/* the cost is instructions */
};

static void dt_add(struct dtable *t, const char *name, int side,
		   dcg_u64 calls, dcg_u64 ns, bool timed)
{
	struct drow *r;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->r = xrealloc(t->r, t->cap * sizeof(*t->r));
	}
	r = &t->r[t->n++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->calls[side] = calls;
	r->ns[side] = ns;
	r->seen[side] = true;
	r->timed[side] = timed;
}

static const char *stat_name(struct report *rp, const struct func_stat *f,
			     struct name_buf *b)
{
	struct node n = { .func = f->func, .async = f->async };

	return node_name(rp, &n, b);
}

static void add_edge(struct dtable *t, int side, const char *caller,
		     const char *callee, dcg_u64 calls, dcg_u64 ns, bool timed)
{
	char *name = xmalloc(strlen(caller) + strlen(callee) + 5);

	sprintf(name, "%s -> %s", caller, callee);
	dt_add(t, name, side, calls, ns, timed);
	free(name);
}

/* Rows of one trace from its call tree. */
static void collect_tree(struct report *rp, struct diff *d, int side)
{
	struct func_table ft;
	struct name_buf caller, callee;
	dcg_u32 i;

	func_table_build(rp, &ft);
	for (i = 0; i < ft.nfuncs; i++)
		dt_add(&d->funcs, stat_name(rp, &ft.funcs[i], &callee), side,
		       ft.funcs[i].calls, d->insns ? ft.funcs[i].incl_insns
						   : ft.funcs[i].incl_ns, true);
	for (i = 0; i < ft.nedges; i++) {
		const struct edge_stat *e = &ft.edges[i];

		add_edge(&d->edges, side,
			 e->caller == NO_FUNC ? "(root)"
			 : stat_name(rp, &ft.funcs[e->caller], &caller),
			 stat_name(rp, &ft.funcs[e->callee], &callee), e->calls,
			 d->insns ? e->incl_insns : e->incl_ns, true);
	}
	func_table_free(&ft);
}

/* Rows of a tapset trace that has only the edge table: no times. */
static void collect_edges(struct report *rp, struct diff *d, int side)
{
	const struct edge_recs *er = &rp->edges;
	struct name_buf caller, callee;
	dcg_u32 i;

	for (i = 0; i < er->n; i++) {
		const struct edge_rec *e = &er->e[i];
		const char *name = func_name(rp, e->callee, &callee);

		add_edge(&d->edges, side,
			 e->caller ? func_name(rp, e->caller, &caller) : "(root)",
			 name, e->count, 0, false);
		dt_add(&d->funcs, name, side, e->count, 0, false);
	}
}

static void collect(struct report *rp, struct diff *d, int side)
{
	if (rp->tree.n == 1 && rp->edges.n)
		collect_edges(rp, d, side);
	else
		collect_tree(rp, d, side);
}

static int cmp_name(const void *a, const void *b)
{
	const struct drow *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static dcg_u64 delta(dcg_u64 a, dcg_u64 b)
{
	return a > b ? a - b : b - a;
}

static int cmp_change(const void *a, const void *b)
{
	const struct drow *x = a, *y = b;
	dcg_u64 dx = delta(x->calls[0], x->calls[1]);
	dcg_u64 dy = delta(y->calls[0], y->calls[1]);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = delta(x->ns[0], x->ns[1]);
	dy = delta(y->ns[0], y->ns[1]);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Same names become one row: summed per side. */
static void merge(struct dtable *t)
{
	size_t i, n = 0;
	int s;

	qsort(t->r, t->n, sizeof(*t->r), cmp_name);
	for (i = 0; i < t->n; i++) {
		struct drow *p = n ? &t->r[n - 1] : NULL;

		if (!p || strcmp(p->name, t->r[i].name)) {
			t->r[n++] = t->r[i];
			continue;
		}
		for (s = 0; s < 2; s++) {
			if (!t->r[i].seen[s])
				continue;
			p->calls[s] += t->r[i].calls[s];
			p->ns[s] += t->r[i].ns[s];
			p->timed[s] = p->seen[s] ? p->timed[s] && t->r[i].timed[s]
						 : t->r[i].timed[s];
			p->seen[s] = true;
		}
		free(t->r[i].name);
	}
	t->n = n;
	qsort(t->r, t->n, sizeof(*t->r), cmp_change);
}

static const char *host_kind(const struct dcg_rec_header *h)
{
	if (h->host == DCG_HOST_STAP)
		return h->flags & DCG_HDR_KERNEL ? "a tapset kernel trace"
						 : "a tapset user trace";
	return h->flags & DCG_HDR_KERNEL ? "a dcg-trace kernel trace"
					 : "a dcg-trace trace";
}

static int prepare(struct report *rp)
{
	struct diff *d = xcalloc(1, sizeof(*d));
	const struct dcg_rec_header *ha = &rp->rd.header, *hb;
	int rc;

	rp->view_data = d;
	d->b.o = rp->o;
	d->b.view = rp->view;
	rc = report_load(&d->b, rp->o->input2);
	if (rc)
		return rc;
	hb = &d->b.rd.header;
	if (ha->host != hb->host ||
	    (ha->flags & DCG_HDR_KERNEL) != (hb->flags & DCG_HDR_KERNEL)) {
		dcg_warn(
			"diff: %s is %s, %s is %s: nothing to match",
			rp->rd.name, host_kind(ha), d->b.rd.name,
			host_kind(hb));
		return 2;
	}
	if (rp->o->cost == COST_INSNS && !have_insns(&d->b)) {
		dcg_warn("--cost insns: %s is a version 1 trace, without instruction counts",
			d->b.rd.name);
		return 2;
	}
	d->insns = cost_insns(rp) && cost_insns(&d->b);
	collect(rp, d, 0);
	collect(&d->b, d, 1);
	merge(&d->funcs);
	merge(&d->edges);
	return 0;
}

/* @cost: the cost column (a duration unless @insns), else calls */
static void put_num(struct report *rp, const struct drow *r, int s,
		    bool cost, bool insns)
{
	if (!r->seen[s] || (cost && !r->timed[s]))
		fprintf(rp->out, " %12s", "-");
	else if (cost && !insns)
		put_dur(rp->out, 13, r->ns[s]);
	else
		fprintf(rp->out, " %12llu",
			(unsigned long long)(cost ? r->ns[s] : r->calls[s]));
}

static void put_change(struct report *rp, dcg_u64 a, dcg_u64 b, bool ok,
		       bool dur)
{
	char buf[40], d[32];

	if (!ok)
		snprintf(buf, sizeof(buf), "-");
	else if (a == b)
		snprintf(buf, sizeof(buf), dur ? "0 ns" : "0");
	else if (dur)
		snprintf(buf, sizeof(buf), "%c%s", b > a ? '+' : '-',
			 fmt_dur(delta(a, b), d, sizeof(d)));
	else
		snprintf(buf, sizeof(buf), "%c%llu", b > a ? '+' : '-',
			 (unsigned long long)delta(a, b));
	/* "µ" is two bytes and one column */
	fprintf(rp->out, " %*s", strstr(buf, "µ") ? 13 : 12, buf);
}

static void print_table(struct report *rp, const struct dtable *t,
			const char *what, const char *title, bool insns)
{
	size_t i, changed = 0;

	for (i = 0; i < t->n; i++)
		changed += t->r[i].calls[0] != t->r[i].calls[1];
	fprintf(rp->out, "# %s: %zu, calls changed: %zu\n", what, t->n,
		changed);
	fprintf(rp->out, " %12s %12s %12s %12s %12s %12s  %s\n", "CALLS(A)",
		"CALLS(B)", "CHANGE", insns ? "INSNS(A)" : "TIME(A)",
		insns ? "INSNS(B)" : "TIME(B)", "CHANGE", title);
	for (i = 0; i < t->n; i++) {
		const struct drow *r = &t->r[i];
		bool timed = r->seen[0] && r->seen[1] && r->timed[0] &&
			     r->timed[1];

		put_num(rp, r, 0, false, insns);
		put_num(rp, r, 1, false, insns);
		put_change(rp, r->calls[0], r->calls[1], true, false);
		put_num(rp, r, 0, true, insns);
		put_num(rp, r, 1, true, insns);
		put_change(rp, r->ns[0], r->ns[1], timed, !insns);
		fprintf(rp->out, "  %s%s\n", r->name,
			!r->seen[0] ? " [new]" : !r->seen[1] ? " [gone]" : "");
	}
}

static void print_side(struct report *rp, const char *ab)
{
	const struct dcg_rec_header *h = &rp->rd.header;

	fprintf(rp->out, "# %s = %s: pid %u (%.16s), mode %s\n", ab,
		rp->rd.name, h->pid, h->comm, dcg_mode_name(h->mode));
}

static void free_table(struct dtable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->r[i].name);
	free(t->r);
}

static int finish(struct report *rp)
{
	struct diff *d = rp->view_data;
	int rc = 0;

	d->b.out = rp->out;
	fprintf(rp->out, "# dyncg diff, matched by name; %s\n",
		d->insns ? "cost: inclusive instructions executed"
			 : "cost: inclusive time; times include tracing overhead");
	print_side(rp, "A");
	print_side(&d->b, "B");
	print_table(rp, &d->funcs, "functions", "FUNCTION", d->insns);
	print_table(rp, &d->edges, "edges", "CALLER -> CALLEE", d->insns);
	print_footer(rp, "# A: ");
	print_footer(&d->b, "# B: ");
	if (!d->b.rd.have_stats)
		rc = report_incomplete(&d->b);
	free_table(&d->funcs);
	free_table(&d->edges);
	report_free(&d->b);
	free(d);
	rp->view_data = NULL;
	return rc;
}

const struct view view_diff = {
	.name = "diff", .aggregate = true, .second_input = true,
	.prepare = prepare, .finish = finish,
};
