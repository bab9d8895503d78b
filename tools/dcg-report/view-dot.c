// SPDX-License-Identifier: GPL-2.0
/*
 * view-dot.c - the call graph for Graphviz: one node per function (per
 * address: the same name in two objects is two nodes, and where names
 * collide the label says which object, or which address when both are
 * in one), labelled with its inclusive and self instructions, filled
 * with a heat colour by its self cost (instructions, or time for a
 * version 1 trace) against the costliest function's; one edge per
 * caller/callee pair labelled with its number of calls and their
 * inclusive instructions (a version 1 trace: calls only).  Roots
 * are drawn bold.  --svg pipes the graph through `dot -Tsvg`.  A trace
 * with no events but the tapset's edge table (EDGE records) is drawn
 * from that table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

/* No events, only the tapset's edge table: draw that. */
static void write_edge_table(struct report *rp, FILE *f)
{
	struct edge_recs *er = &rp->edges;
	struct name_buf nb;
	dcg_u32 i;

	for (i = 0; i < er->n; i++) {
		if (!er->e[i].caller)
			continue;
		putc('\t', f);
		dcg_put_dot(f, func_name(rp, er->e[i].caller, &nb));
		fputs(" -> ", f);
		dcg_put_dot(f, func_name(rp, er->e[i].callee, &nb));
		fprintf(f, " [label=\"%llu\"];\n",
			(unsigned long long)er->e[i].count);
	}
}

static const char *func_label(struct report *rp, const struct func_stat *fs,
			      struct name_buf *b)
{
	return fs->async ? node_name(rp, &(struct node){ .func = fs->func,
							 .async = true }, b) :
			   func_name(rp, fs->func, b);
}

/* Which functions share their label with another: a sort of indexes. */
static struct report *cmp_rp;
static const struct func_table *cmp_ft;

static int cmp_label(const void *a, const void *b)
{
	struct name_buf x, y;

	return strcmp(func_label(cmp_rp, &cmp_ft->funcs[*(const dcg_u32 *)a], &x),
		      func_label(cmp_rp, &cmp_ft->funcs[*(const dcg_u32 *)b], &y));
}

static bool *label_collisions(struct report *rp, const struct func_table *ft)
{
	bool *dup = xcalloc(ft->nfuncs + 1, sizeof(*dup));
	dcg_u32 *idx = xcalloc(ft->nfuncs + 1, sizeof(*idx));
	dcg_u32 i;

	for (i = 0; i < ft->nfuncs; i++)
		idx[i] = i;
	cmp_rp = rp;
	cmp_ft = ft;
	qsort(idx, ft->nfuncs, sizeof(*idx), cmp_label);
	for (i = 1; i < ft->nfuncs; i++)
		if (!cmp_label(&idx[i - 1], &idx[i]))
			dup[idx[i - 1]] = dup[idx[i]] = true;
	free(idx);
	return dup;
}

/*
 * Under a colliding name, the object it is in, or its address when
 * another function of that name is in the same object (or unknown).
 */
static void put_where(struct report *rp, FILE *f, const struct func_table *ft,
		      const bool *dup, dcg_u32 i)
{
	const char *obj = rp->sym ? dcg_sym_object(rp->sym, ft->funcs[i].func)
				  : NULL;
	struct name_buf nb, other;
	const char *name = func_label(rp, &ft->funcs[i], &nb);
	char where[1100];
	dcg_u32 j;

	for (j = 0; obj && j < ft->nfuncs; j++) {
		const char *o;

		if (j == i || !dup[j] ||
		    strcmp(func_label(rp, &ft->funcs[j], &other), name))
			continue;
		o = dcg_sym_object(rp->sym, ft->funcs[j].func);
		if (!o || !strcmp(o, obj))
			obj = NULL;
	}
	if (obj)
		snprintf(where, sizeof(where), "(%s)", obj);
	else
		snprintf(where, sizeof(where), "(0x%llx)",
			 (unsigned long long)ft->funcs[i].func);
	fputs("+\"\\n\"+", f);
	dcg_put_dot(f, where);
}

/* Self cost against the costliest function's: 0 (white) .. 1 (red). */
static double heat(const struct report *rp, const struct func_stat *fs,
		   dcg_u64 max)
{
	dcg_u64 c = have_insns(rp) ? fs->self_insns : fs->self_ns;

	return max ? (double)c / (double)max : 0;
}

static dcg_u64 max_self(const struct report *rp, const struct func_table *ft)
{
	dcg_u64 m = 0, c;
	dcg_u32 i;

	for (i = 0; i < ft->nfuncs; i++) {
		c = have_insns(rp) ? ft->funcs[i].self_insns
				   : ft->funcs[i].self_ns;
		if (c > m)
			m = c;
	}
	return m;
}

static void write_dot(struct report *rp, FILE *f)
{
	const struct tree *t = &rp->tree;
	struct func_table ft;
	struct name_buf nb;
	dcg_u32 i, id;
	dcg_u64 max;
	bool *root, *dup;

	func_table_build(rp, &ft);
	max = max_self(rp, &ft);
	dup = label_collisions(rp, &ft);
	root = xcalloc(ft.nfuncs + 1, sizeof(*root));
	for (id = t->nodes[0].first_child; id; id = t->nodes[id].next_sibling)
		root[ft.node_func[id]] = true;
	fprintf(f, "digraph dyncg {\n");
	fprintf(f, "\t// pid %u (%.16s); dropped: %llu events\n",
		rp->rd.header.pid, rp->rd.header.comm,
		(unsigned long long)rp->rd.lost);
	fprintf(f, "\tnode [shape=box, fontname=\"monospace\", style=filled];\n");
	if (t->n == 1)
		write_edge_table(rp, f);
	for (i = 0; i < ft.nfuncs; i++) {
		const struct func_stat *fs = &ft.funcs[i];

		fprintf(f, "\tf%u [label=", i);
		dcg_put_dot(f, func_label(rp, fs, &nb));
		if (dup[i])
			put_where(rp, f, &ft, dup, i);
		/* a second line: inclusive and self instructions */
		if (have_insns(rp))
			fprintf(f, "+\"\\n%llu insns (self %llu)\"",
				(unsigned long long)fs->incl_insns,
				(unsigned long long)fs->self_insns);
		/* HSV: red, saturated by the heat */
		fprintf(f, ", fillcolor=\"0.000 %.3f 1.000\"%s];\n",
			heat(rp, fs, max),
			root[i] ? ", style=\"filled,bold\"" : "");
	}
	for (i = 0; i < ft.nedges; i++) {
		const struct edge_stat *e = &ft.edges[i];

		if (e->caller == NO_FUNC)
			continue;
		fprintf(f, "\tf%u -> f%u [label=\"%llu", e->caller,
			e->callee, (unsigned long long)e->calls);
		if (have_insns(rp))
			fprintf(f, "\\n%llu insns",
				(unsigned long long)e->incl_insns);
		fputs("\"];\n", f);
	}
	fprintf(f, "}\n");
	free(root);
	free(dup);
	func_table_free(&ft);
}

/* Feed @len bytes to `dot -Tsvg` writing to @outfd; no shell involved. */
static int run_dot(const char *data, size_t len, int outfd)
{
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[1]);
		dup2(fds[0], 0);
		dup2(outfd, 1);
		execlp("dot", "dot", "-Tsvg", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	while (len) {
		ssize_t n = write(fds[1], data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		data += n;
		len -= n;
	}
	close(fds[1]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int finish(struct report *rp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (!rp->o->svg) {
		write_dot(rp, rp->out);
		note_dropped(rp);
		return 0;
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		return 1;
	write_dot(rp, mem);
	fclose(mem);
	fflush(rp->out);
	rc = run_dot(buf, len, fileno(rp->out));
	free(buf);
	if (rc == 127) {
		dcg_warn("--svg: cannot run dot (install the Debian package graphviz)");
		return 1;
	}
	if (rc) {
		dcg_warn("--svg: dot failed (status %d)", rc);
		return 1;
	}
	note_dropped(rp);
	return 0;
}

const struct view view_dot = {
	.name = "dot", .aggregate = true, .finish = finish,
};
