// SPDX-License-Identifier: GPL-2.0
/*
 * func_table.c - function-level aggregates of the call tree (dot, hot,
 * callgrind, diff): one entry per function and per caller/callee edge,
 * with outermost-activation totals so that recursion is not counted
 * twice.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct ft_build {
	struct func_table *ft;
	dcg_u32 *fhash;			/* funcs index + 1 */
	dcg_u32 fcap;
	dcg_u32 *ehash;			/* edges index + 1 */
	dcg_u32 ecap;
	dcg_u32 funcs_cap, edges_cap;
};

static dcg_u32 func_index(struct ft_build *b, dcg_u64 func, bool async)
{
	struct func_table *ft = b->ft;
	dcg_u64 h = dcg_hash64(func ^ async);
	dcg_u32 i;

	for (;; h++) {
		dcg_u32 slot = b->fhash[h & (b->fcap - 1)];
		struct func_stat *f;

		if (!slot)
			break;
		f = &ft->funcs[slot - 1];
		if (f->func == func && f->async == async)
			return slot - 1;
	}
	if (ft->nfuncs == b->funcs_cap) {
		b->funcs_cap = b->funcs_cap ? 2 * b->funcs_cap : 256;
		ft->funcs = xrealloc(ft->funcs,
				     b->funcs_cap * sizeof(*ft->funcs));
	}
	i = ft->nfuncs++;
	memset(&ft->funcs[i], 0, sizeof(ft->funcs[i]));
	ft->funcs[i].func = func;
	ft->funcs[i].async = async;
	ft->funcs[i].order = i;
	b->fhash[h & (b->fcap - 1)] = i + 1;
	return i;
}

static struct edge_stat *edge_get(struct ft_build *b, dcg_u32 caller,
				  dcg_u32 callee)
{
	struct func_table *ft = b->ft;
	dcg_u64 h = dcg_hash64(((dcg_u64)caller << 32) | callee);
	struct edge_stat *e;

	for (;; h++) {
		dcg_u32 slot = b->ehash[h & (b->ecap - 1)];

		if (!slot)
			break;
		e = &ft->edges[slot - 1];
		if (e->caller == caller && e->callee == callee)
			return e;
	}
	if (ft->nedges == b->edges_cap) {
		b->edges_cap = b->edges_cap ? 2 * b->edges_cap : 256;
		ft->edges = xrealloc(ft->edges,
				     b->edges_cap * sizeof(*ft->edges));
	}
	e = &ft->edges[ft->nedges++];
	memset(e, 0, sizeof(*e));
	e->caller = caller;
	e->callee = callee;
	b->ehash[h & (b->ecap - 1)] = ft->nedges;
	return e;
}

/*
 * rec[id]: is node @id's function active in a proper ancestor
 * (recursion)?  One depth-first walk that counts, per function, the
 * nodes on the path above: linear in the nodes, whatever the depth.
 */
static bool *recursion_marks(struct report *rp, struct func_table *ft)
{
	const struct node *nodes = rp->tree.nodes;
	dcg_u32 *above = xcalloc(ft->nfuncs, sizeof(*above));
	bool *rec = xcalloc(rp->tree.n, sizeof(*rec));
	dcg_u32 id = nodes[0].first_child;

	while (id) {
		rec[id] = above[ft->node_func[id]] > 0;
		if (nodes[id].first_child) {
			above[ft->node_func[id]]++;
			id = nodes[id].first_child;
			continue;
		}
		while (id && !nodes[id].next_sibling) {
			id = nodes[id].parent;
			if (id)
				above[ft->node_func[id]]--;
		}
		if (id)
			id = nodes[id].next_sibling;
	}
	free(above);
	return rec;
}

/*
 * Inclusive time of a function counts only its outermost activations,
 * so that recursion does not count the same nanoseconds twice.  The
 * same holds for an edge: recursive edge time is counted once.
 */
void func_table_build(struct report *rp, struct func_table *ft)
{
	struct tree *t = &rp->tree;
	struct ft_build b = { .ft = ft };
	bool *rec;
	dcg_u32 id;

	memset(ft, 0, sizeof(*ft));
	for (b.fcap = 256; b.fcap < 2 * t->n; b.fcap *= 2)
		;
	b.ecap = b.fcap;
	b.fhash = xcalloc(b.fcap, sizeof(*b.fhash));
	b.ehash = xcalloc(b.ecap, sizeof(*b.ehash));
	ft->node_func = xcalloc(t->n, sizeof(*ft->node_func));
	ft->node_func[0] = NO_FUNC;
	/* Node ids grow in order of first appearance, parents first. */
	for (id = 1; id < t->n; id++)
		ft->node_func[id] = func_index(&b, t->nodes[id].func,
					       t->nodes[id].async);
	rec = recursion_marks(rp, ft);
	for (id = 1; id < t->n; id++) {
		struct node *n = &t->nodes[id];
		dcg_u32 fi = ft->node_func[id];
		dcg_u32 pi = ft->node_func[n->parent];
		struct func_stat *f = &ft->funcs[fi];
		struct edge_stat *e;

		f->calls += n->calls;
		f->self_ns += n->self_ns;
		f->self_insns += n->self_insns;
		if (!rec[id]) {
			f->incl_ns += n->incl_ns;
			f->incl_insns += n->incl_insns;
		}
		e = edge_get(&b, pi, fi);
		if (!e->site)
			e->site = n->site;
		e->calls += n->calls;
		e->all_insns += n->incl_insns;
		e->all_ns += n->incl_ns;
		if (!rec[id]) {
			e->incl_ns += n->incl_ns;
			e->incl_insns += n->incl_insns;
		}
	}
	free(rec);
	free(b.fhash);
	free(b.ehash);
}

void func_table_free(struct func_table *ft)
{
	free(ft->funcs);
	free(ft->edges);
	free(ft->node_func);
	memset(ft, 0, sizeof(*ft));
}
