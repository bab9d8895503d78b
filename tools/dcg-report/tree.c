// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - the per-path call tree that the aggregating views share, and
 * the function/edge tables derived from it.
 *
 * A node is one (parent node, function) pair, so memory grows with the
 * number of distinct call paths, never with the number of events.
 * Lookups go through an open-addressing hash of node ids.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static dcg_u64 mix(dcg_u64 a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	a ^= a >> 33;
	a *= 0xc4ceb9fe1a85ec53ull;
	a ^= a >> 33;
	return a;
}

static dcg_u64 node_hash(dcg_u32 parent, dcg_u64 func, bool async,
			 dcg_u32 span)
{
	return mix(func ^ mix(((dcg_u64)span << 33) ^
			      (((dcg_u64)parent << 1) | async)));
}

void tree_init(struct tree *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = 1024;
	t->nodes = xcalloc(t->cap, sizeof(*t->nodes));
	t->n = 1;			/* node 0: the virtual root */
	t->hcap = 4096;
	t->hash = xcalloc(t->hcap, sizeof(*t->hash));
}

void tree_free(struct tree *t)
{
	free(t->nodes);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static void rehash(struct tree *t)
{
	dcg_u32 i;

	free(t->hash);
	t->hcap *= 2;
	t->hash = xcalloc(t->hcap, sizeof(*t->hash));
	for (i = 1; i < t->n; i++) {
		struct node *n = &t->nodes[i];
		dcg_u64 h = node_hash(n->parent, n->func, n->async, n->span);

		while (t->hash[h & (t->hcap - 1)])
			h++;
		t->hash[h & (t->hcap - 1)] = i;
	}
}

dcg_u32 tree_child(struct tree *t, dcg_u32 parent, dcg_u64 func, bool async,
		   dcg_u32 span)
{
	dcg_u64 h = node_hash(parent, func, async, span);
	struct node *n;
	dcg_u32 id;

	for (;; h++) {
		id = t->hash[h & (t->hcap - 1)];
		if (!id)
			break;
		n = &t->nodes[id];
		if (n->func == func && n->parent == parent &&
		    n->async == async && n->span == span)
			return id;
	}
	if (t->n == t->cap) {
		t->cap *= 2;
		t->nodes = xrealloc(t->nodes, (size_t)t->cap * sizeof(*t->nodes));
	}
	id = t->n++;
	t->hash[h & (t->hcap - 1)] = id;
	n = &t->nodes[id];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->parent = parent;
	n->async = async;
	n->span = span;
	n->depth = t->nodes[parent].depth + (span ? span : 1);
	if (t->nodes[parent].last_child)
		t->nodes[t->nodes[parent].last_child].next_sibling = id;
	else
		t->nodes[parent].first_child = id;
	t->nodes[parent].last_child = id;
	if (2 * t->n > t->hcap)
		rehash(t);
	return id;
}

/* Depth-first without recursion: call trees of real programs are deep. */
void tree_walk(struct report *rp, tree_visit_fn fn, void *arg)
{
	struct tree *t = &rp->tree;
	dcg_u32 id = t->nodes[0].first_child;

	while (id) {
		struct node *n = &t->nodes[id];

		fn(rp, n, id, arg);
		if (n->first_child) {
			id = n->first_child;
			continue;
		}
		while (id && !t->nodes[id].next_sibling)
			id = t->nodes[id].parent;
		if (id)
			id = t->nodes[id].next_sibling;
	}
}

/* The same walk, keeping the path from the outermost node down. */
void tree_walk_path(struct report *rp, tree_path_fn fn, void *arg)
{
	struct tree *t = &rp->tree;
	dcg_u32 id = t->nodes[0].first_child, n = 0, cap = 64;
	dcg_u32 *path = xmalloc(cap * sizeof(*path));

	while (id) {
		struct node *nd = &t->nodes[id];

		if (n == cap) {
			cap *= 2;
			path = xrealloc(path, (size_t)cap * sizeof(*path));
		}
		path[n++] = id;
		fn(rp, path, n, arg);
		if (nd->first_child) {
			id = nd->first_child;
			continue;
		}
		n--;
		while (id && !t->nodes[id].next_sibling) {
			id = t->nodes[id].parent;
			if (id)
				n--;
		}
		if (id)
			id = t->nodes[id].next_sibling;
	}
	free(path);
}

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
	dcg_u64 h = mix(func ^ async);
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
	dcg_u64 h = mix(((dcg_u64)caller << 32) | callee);
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
	dcg_u32 i;

	if (!er->n)
		return;
	fprintf(rp->out, "%sedge table (counted in the kernel): %u edges\n", p,
		er->n);
	fprintf(rp->out, "%s%10s  %s\n", p, "CALLS", "CALLER -> CALLEE");
	for (i = 0; i < er->n; i++) {
		fprintf(rp->out, "%s%10llu  %s", p,
			(unsigned long long)er->e[i].count,
			er->e[i].caller ? func_name(rp, er->e[i].caller)
					: "(root)");
		fprintf(rp->out, " -> %s\n", func_name(rp, er->e[i].callee));
	}
}
