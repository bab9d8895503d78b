// SPDX-License-Identifier: GPL-2.0
/*
 * view-graph.c - the call tree aggregated per path: every distinct
 * chain of callers is one line, with its number of calls, inclusive
 * and self instructions, and inclusive and self time (self: inclusive
 * minus the children shown).  Children
 * appear in the order they were first called.  Past INDENT_LEVELS
 * levels a line says "[depth N]" instead of indenting further.  A trace that carries
 * the tapset's edge table (EDGE records) gets it listed after the tree.
 */
#include "report.h"

static void print_header_line(struct report *rp, const char *what)
{
	const struct dcg_rec_header *h = &rp->rd.header;

	fprintf(rp->out, "# dyncg %s: pid %u (%.16s), mode %s\n", what,
		h->pid, h->comm, dcg_mode_name(h->mode));
	print_cost_note(rp, "# ");
}

static void print_node(struct report *rp, struct node *n, dcg_u32 id,
		       void *arg)
{
	fprintf(rp->out, "%10llu ", (unsigned long long)n->calls);
	put_cost_columns(rp, n->incl_insns, n->self_insns, n->incl_ns,
			 n->self_ns);
	fputs("  ", rp->out);
	indent(rp, n->depth);
	struct name_buf nb;

	fprintf(rp->out, "%s\n", node_name(rp, n, &nb));
}

static int finish(struct report *rp)
{
	print_header_line(rp, "call graph");
	fprintf(rp->out, "%10s %13s %13s %10s %10s  %s\n", "CALLS", "INSNS",
		"SELF-INSNS", "TIME", "SELF-TIME", "FUNCTION");
	tree_walk(rp, print_node, NULL);
	edge_recs_print(rp, "");
	print_footer(rp, "# ");
	return 0;
}

const struct view view_graph = {
	.name = "graph", .aggregate = true, .finish = finish,
};
