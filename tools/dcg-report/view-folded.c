// SPDX-License-Identifier: GPL-2.0
/*
 * view-folded.c - stacks for flame graphs.
 *
 * Folded: one line per call path, "root;caller;callee VALUE", as
 * FlameGraph's flamegraph.pl reads it.  VALUE is the instructions that
 * path executed itself (--cost time: its self time in ns, which
 * includes tracing overhead; --calls: its number of calls); paths whose
 * value is 0 are left out, as they would draw nothing.
 * --speedscope: the same stacks as a speedscope "sampled" profile.
 * A path deeper than FOLD_OUTER + FOLD_INNER + 1 frames keeps its
 * outermost and innermost ones and shows the rest as one frame,
 * "[N frames]" (speedscope: "[elided]"), so that output stays linear in
 * the trace however deep it is.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static dcg_u64 value(struct report *rp, const struct node *n)
{
	return node_weight(rp, n);
}

/* Frame names never contain ';', the separator. */
static void put_frame(FILE *f, const char *name)
{
	for (; *name; name++)
		putc(*name == ';' ? ':' : *name, f);
}

/*
 * Frames of a path of @n nodes left out at index FOLD_OUTER, where one
 * stand-in frame takes their place; 0 when the path is short enough.
 */
static dcg_u32 fold_elided(dcg_u32 n)
{
	return n > FOLD_OUTER + FOLD_INNER + 1 ? n - FOLD_OUTER - FOLD_INNER
					       : 0;
}

static void folded_line(struct report *rp, const dcg_u32 *path, dcg_u32 n,
			void *arg)
{
	struct name_buf nb;
	const struct node *nodes = rp->tree.nodes;
	dcg_u64 v = value(rp, &nodes[path[n - 1]]);
	dcg_u32 i, elided = fold_elided(n);

	if (!v)
		return;
	for (i = 0; i < n; i++) {
		if (i)
			putc(';', rp->out);
		if (i == FOLD_OUTER && elided) {
			fprintf(rp->out, "[%u frames]", elided);
			i += elided - 1;
			continue;
		}
		put_frame(rp->out, node_name(rp, &nodes[path[i]], &nb));
	}
	fprintf(rp->out, " %llu\n", (unsigned long long)v);
}

/* speedscope: frames are the functions, samples are node paths. */
struct ss {
	struct func_table ft;
	bool first;
	dcg_u32 longest;	/* nodes in the longest path */
};

static void ss_longest(struct report *rp, const dcg_u32 *path, dcg_u32 n,
		       void *arg)
{
	struct ss *ss = arg;

	if (n > ss->longest)
		ss->longest = n;
}

static void ss_sample(struct report *rp, const dcg_u32 *path, dcg_u32 n,
		      void *arg)
{
	struct ss *ss = arg;
	dcg_u32 i, elided = fold_elided(n);

	if (!value(rp, &rp->tree.nodes[path[n - 1]]))
		return;
	fputs(ss->first ? "[" : ",[", rp->out);
	ss->first = false;
	for (i = 0; i < n; i++) {
		if (i == FOLD_OUTER && elided) {
			/* the frame after the functions: "[elided]" */
			fprintf(rp->out, ",%u", ss->ft.nfuncs);
			i += elided - 1;
			continue;
		}
		fprintf(rp->out, "%s%u", i ? "," : "",
			ss->ft.node_func[path[i]]);
	}
	putc(']', rp->out);
}

static void ss_weight(struct report *rp, struct node *n, dcg_u32 id,
		      void *arg)
{
	struct ss *ss = arg;

	if (!value(rp, n))
		return;
	fprintf(rp->out, "%s%llu", ss->first ? "" : ",",
		(unsigned long long)value(rp, n));
	ss->first = false;
}

static void speedscope(struct report *rp)
{
	struct name_buf nb;
	struct ss ss = { .first = true };
	dcg_u64 total = 0;
	dcg_u32 id, i;

	func_table_build(rp, &ss.ft);
	for (id = 1; id < rp->tree.n; id++)
		total += value(rp, &rp->tree.nodes[id]);
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"dcg-report\",\"name\":", rp->out);
	dcg_put_json(rp->out, rp->o->input);
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", rp->out);
	for (i = 0; i < ss.ft.nfuncs; i++) {
		struct node fn = { .func = ss.ft.funcs[i].func,
				   .async = ss.ft.funcs[i].async };

		fputs(i ? ",{\"name\":" : "{\"name\":", rp->out);
		dcg_put_json(rp->out, node_name(rp, &fn, &nb));
		putc('}', rp->out);
	}
	/* stands in for the middle of paths too deep to list whole */
	tree_walk_path(rp, ss_longest, &ss);
	if (fold_elided(ss.longest))
		fputs(ss.ft.nfuncs ? ",{\"name\":\"[elided]\"}"
				   : "{\"name\":\"[elided]\"}", rp->out);
	fprintf(rp->out, "]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"pid %u\","
		"\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		rp->rd.header.pid,
		strcmp(weight_unit(rp), "ns") ? "none" : "nanoseconds",
		(unsigned long long)total);
	ss.first = true;
	tree_walk_path(rp, ss_sample, &ss);
	fputs("],\"weights\":[", rp->out);
	ss.first = true;
	tree_walk(rp, ss_weight, &ss);
	fputs("]}]}\n", rp->out);
	func_table_free(&ss.ft);
}

static int finish(struct report *rp)
{
	if (rp->o->speedscope)
		speedscope(rp);
	else
		tree_walk_path(rp, folded_line, NULL);
	note_dropped(rp);
	return 0;
}

const struct view view_folded = {
	.name = "folded", .aggregate = true, .finish = finish,
};
