// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - the per-path call tree that the aggregating views share
 * (func_table.c derives the function/edge tables from it).
 *
 * A node is one (parent node, function) pair, so memory grows with the
 * number of distinct call paths, never with the number of events.
 * Lookups go through an open-addressing hash of node ids.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static dcg_u64 node_hash(dcg_u32 parent, dcg_u64 func, bool async,
			 dcg_u32 span)
{
	return dcg_hash64(func ^ dcg_hash64(((dcg_u64)span << 33) ^
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
