// SPDX-License-Identifier: GPL-2.0
/*
 * view-callgrind.c - the callgrind profile format, for callgrind_annotate
 * and KCachegrind.  Two event types: "Ir", instructions executed, as
 * valgrind's callgrind counts them (dyncg.user/insns-callgrind.exp
 * checks that), and "ns", time including tracing overhead; a version 1
 * trace has no counts, and only "ns".  Per function: its self cost; per
 * call edge: calls= and the inclusive cost of those calls, every call
 * counted whole as callgrind does (a recursive call's cost is also in
 * its caller's call).  There are no source positions, so every cost
 * line is at position 0.
 */
#include <stdlib.h>

#include "report.h"

/* A cost line's values (and its newline). */
static void put_costs(struct report *rp, dcg_u64 insns, dcg_u64 ns)
{
	if (have_insns(rp))
		fprintf(rp->out, "%llu ", (unsigned long long)insns);
	fprintf(rp->out, "%llu\n", (unsigned long long)ns);
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
	for (i = 0, k = 0; i < ft.nfuncs; i++) {
		const struct func_stat *fs = &ft.funcs[i];
		struct node n = { .func = fs->func, .async = fs->async };

		fprintf(f, "fl=???\nfn=%s\n0 ", node_name(rp, &n));
		put_costs(rp, fs->self_insns, fs->self_ns);
		/* first[i] now ends caller i's run in order[] */
		for (; k < first[i]; k++) {
			const struct edge_stat *e = &ft.edges[order[k]];
			struct node cn = { .func = ft.funcs[e->callee].func,
					   .async = ft.funcs[e->callee].async };

			fprintf(f, "cfl=???\ncfn=%s\ncalls=%llu 0\n0 ",
				node_name(rp, &cn),
				(unsigned long long)e->calls);
			put_costs(rp, e->all_insns, e->all_ns);
		}
		putc('\n', f);
	}
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
};
