// SPDX-License-Identifier: GPL-2.0
/*
 * view-callgrind.c - the callgrind profile format, for callgrind_annotate
 * and KCachegrind.  One event type, "ns".  Per function: its self time;
 * per call edge: calls= and the inclusive time of those calls.  There
 * are no source positions, so every cost line is at position 0.
 * Recursion counts inclusive time of the outermost activation only.
 */
#include <stdlib.h>

#include "report.h"

static int finish(struct report *rp)
{
	const struct dcg_rec_header *h = &rp->rd.header;
	struct func_table ft;
	dcg_u64 total = 0;
	dcg_u32 i, j, k, *first, *order;
	FILE *f = rp->out;

	func_table_build(rp, &ft);
	for (i = 0; i < ft.nfuncs; i++)
		total += ft.funcs[i].self_ns;
	fprintf(f, "# callgrind format\nversion: 1\ncreator: dcg-report\n");
	fprintf(f, "pid: %u\ncmd: %.16s\npart: 1\n\n", h->pid, h->comm);
	fprintf(f, "# dropped: %llu events\n", (unsigned long long)rp->rd.lost);
	fprintf(f, "positions: line\nevents: ns\nsummary: %llu\n\n",
		(unsigned long long)total);
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

		fprintf(f, "fl=???\nfn=%s\n0 %llu\n", node_name(rp, &n),
			(unsigned long long)fs->self_ns);
		/* first[i] now ends caller i's run in order[] */
		for (; k < first[i]; k++) {
			const struct edge_stat *e = &ft.edges[order[k]];
			struct node cn = { .func = ft.funcs[e->callee].func,
					   .async = ft.funcs[e->callee].async };

			fprintf(f, "cfl=???\ncfn=%s\ncalls=%llu 0\n0 %llu\n",
				node_name(rp, &cn),
				(unsigned long long)e->calls,
				(unsigned long long)e->incl_ns);
		}
		putc('\n', f);
	}
	free(first);
	free(order);
	fprintf(f, "totals: %llu\n", (unsigned long long)total);
	note_dropped(rp);
	func_table_free(&ft);
	return 0;
}

const struct view view_callgrind = {
	.name = "callgrind", .aggregate = true, .finish = finish,
};
