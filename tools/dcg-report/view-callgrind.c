// SPDX-License-Identifier: GPL-2.0
/*
 * view-callgrind.c - the callgrind profile format, for callgrind_annotate
 * and KCachegrind.  Two event types: "Ir", instructions executed, as
 * valgrind's callgrind counts them (dyncg.user/insns-callgrind.exp
 * checks that), and "ns", time including tracing overhead; a version 1
 * trace has no counts, and only "ns".  Per function: its self cost; per
 * call edge: calls= and the inclusive cost of those calls, every call
 * counted whole as callgrind does (a recursive call's cost is also in
 * its caller's call).
 *
 * Positions are source lines where DWARF gives them: a function's self
 * cost sits on the line of its entry (fl= its file), a call edge's cost
 * on the line of one of its call sites (fi= when that line is in
 * another file, an inlined body's), calls= names the callee's entry
 * line.  Without per-instruction counts a function's self cost is not
 * spread over its lines.  Where there is no DWARF, fl=??? and line 0.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct srcpos {
	char file[1024];		/* "???" when unknown */
	unsigned long line;		/* 0 when unknown */
};

/* File and line of @addr, from the symbolizer's "file:line". */
static void srcpos_of(struct report *rp, dcg_u64 addr, struct srcpos *p)
{
	const char *sl = NULL, *colon;
	char *end;

	strcpy(p->file, "???");
	p->line = 0;
	if (rp->sym && addr > LAZY_BINDING_ADDR)
		sl = dcg_sym_lookup(rp->sym, addr)->srcline;
	colon = sl ? strrchr(sl, ':') : NULL;
	if (!colon || colon == sl ||
	    (size_t)(colon - sl) >= sizeof(p->file))
		return;
	p->line = strtoul(colon + 1, &end, 10);
	if (end == colon + 1)
		p->line = 0;
	memcpy(p->file, sl, colon - sl);
	p->file[colon - sl] = '\0';
}

/* A cost line's values (and its newline). */
static void put_costs(struct report *rp, dcg_u64 insns, dcg_u64 ns)
{
	if (have_insns(rp))
		fprintf(rp->out, "%llu ", (unsigned long long)insns);
	fprintf(rp->out, "%llu\n", (unsigned long long)ns);
}

/*
 * One function: its self cost, then its call edges order[*k .. end).
 * A call site in another file than the function's (an inlined body)
 * is given with fi=, and fe= returns to the function's file.
 */
static void put_function(struct report *rp, const struct func_table *ft,
			 dcg_u32 i, const dcg_u32 *order, dcg_u32 *k,
			 dcg_u32 end)
{
	const struct func_stat *fs = &ft->funcs[i];
	struct node n = { .func = fs->func, .async = fs->async };
	struct srcpos fp, cp, sp;
	FILE *f = rp->out;

	srcpos_of(rp, fs->func, &fp);
	fprintf(f, "fl=%s\nfn=%s\n%lu ", fp.file, node_name(rp, &n), fp.line);
	put_costs(rp, fs->self_insns, fs->self_ns);
	for (; *k < end; (*k)++) {
		const struct edge_stat *e = &ft->edges[order[*k]];
		struct node cn = { .func = ft->funcs[e->callee].func,
				   .async = ft->funcs[e->callee].async };
		bool other;

		srcpos_of(rp, cn.func, &cp);
		srcpos_of(rp, e->site, &sp);
		other = sp.line && strcmp(sp.file, fp.file);
		if (other)
			fprintf(f, "fi=%s\n", sp.file);
		fprintf(f, "cfl=%s\ncfn=%s\ncalls=%llu %lu\n%lu ", cp.file,
			node_name(rp, &cn), (unsigned long long)e->calls,
			cp.line, sp.line ? sp.line : fp.line);
		put_costs(rp, e->all_insns, e->all_ns);
		if (other)
			fprintf(f, "fe=%s\n", fp.file);
	}
	putc('\n', f);
}

static int finish(struct report *rp)
{
	const struct dcg_rec_header *h = &rp->rd.header;
	struct func_table ft;
	dcg_u64 total = 0, total_ic = 0;
	dcg_u32 i, j, k, *first, *order;
	FILE *f = rp->out;

	func_table_build(rp, &ft);
	for (i = 0; i < ft.nfuncs; i++) {
		total += ft.funcs[i].self_ns;
		total_ic += ft.funcs[i].self_insns;
	}
	fprintf(f, "# callgrind format\nversion: 1\ncreator: dcg-report\n");
	fprintf(f, "pid: %u\ncmd: %.16s\npart: 1\n\n", h->pid, h->comm);
	fprintf(f, "# dropped: %llu events\n", (unsigned long long)rp->rd.lost);
	fprintf(f, "# ns: times include tracing overhead\n");
	fprintf(f, "positions: line\nevents: %s\nsummary: ",
		have_insns(rp) ? "Ir ns" : "ns");
	put_costs(rp, total_ic, total);
	putc('\n', f);
	/*
	 * Edges are grouped under their caller, in their order: a counting
	 * sort by caller, so that time stays linear in the table.
	 */
	first = xcalloc(ft.nfuncs + 1, sizeof(*first));
	order = xcalloc(ft.nedges, sizeof(*order));
	for (j = 0; j < ft.nedges; j++)
		if (ft.edges[j].caller != NO_FUNC)
			first[ft.edges[j].caller + 1]++;
	for (i = 0; i < ft.nfuncs; i++)
		first[i + 1] += first[i];
	for (j = 0; j < ft.nedges; j++)
		if (ft.edges[j].caller != NO_FUNC)
			order[first[ft.edges[j].caller]++] = j;
	for (i = 0, k = 0; i < ft.nfuncs; i++)
		put_function(rp, &ft, i, order, &k, first[i]);
	free(first);
	free(order);
	fputs("totals: ", f);
	put_costs(rp, total_ic, total);
	note_dropped(rp);
	func_table_free(&ft);
	return 0;
}

const struct view view_callgrind = {
	.name = "callgrind", .aggregate = true, .finish = finish,
	.wants_srcline = true,
};
