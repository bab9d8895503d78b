// SPDX-License-Identifier: GPL-2.0
/*
 * view-folded.c - stacks for flame graphs.
 *
 * Folded: one line per call path, "root;caller;callee VALUE", as
 * FlameGraph's flamegraph.pl reads it.  VALUE is the self time in ns of
 * that path (--calls: its number of calls); paths whose value is 0 are
 * left out, as they would draw nothing.
 * --speedscope: the same stacks as a speedscope "sampled" profile.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static dcg_u64 value(struct report *rp, const struct node *n)
{
	return rp->o->folded_calls ? n->calls : n->self_ns;
}

/* Frame names never contain ';', the separator. */
static void put_frame(FILE *f, const char *name)
{
	for (; *name; name++)
		putc(*name == ';' ? ':' : *name, f);
}

static void put_path(struct report *rp, dcg_u32 id)
{
	const struct node *nodes = rp->tree.nodes;

	if (nodes[id].parent) {
		put_path(rp, nodes[id].parent);
		putc(';', rp->out);
	}
	put_frame(rp->out, node_name(rp, &nodes[id]));
}

static void folded_line(struct report *rp, struct node *n, dcg_u32 id,
			void *arg)
{
	if (!value(rp, n))
		return;
	put_path(rp, id);
	fprintf(rp->out, " %llu\n", (unsigned long long)value(rp, n));
}

/* speedscope: frames are the functions, samples are node paths. */
struct ss {
	struct func_table ft;
	bool first;
};

static void ss_stack(struct report *rp, struct ss *ss, dcg_u32 id)
{
	if (rp->tree.nodes[id].parent) {
		ss_stack(rp, ss, rp->tree.nodes[id].parent);
		putc(',', rp->out);
	}
	fprintf(rp->out, "%u", ss->ft.node_func[id]);
}

static void ss_sample(struct report *rp, struct node *n, dcg_u32 id,
		      void *arg)
{
	struct ss *ss = arg;

	if (!value(rp, n))
		return;
	fputs(ss->first ? "[" : ",[", rp->out);
	ss->first = false;
	ss_stack(rp, ss, id);
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
	struct ss ss = { .first = true };
	dcg_u64 total = 0;
	dcg_u32 id, i;

	func_table_build(rp, &ss.ft);
	for (id = 1; id < rp->tree.n; id++)
		total += value(rp, &rp->tree.nodes[id]);
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"dcg-report\",\"name\":", rp->out);
	json_string(rp->out, rp->o->input);
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", rp->out);
	for (i = 0; i < ss.ft.nfuncs; i++) {
		struct node fn = { .func = ss.ft.funcs[i].func,
				   .async = ss.ft.funcs[i].async };

		fputs(i ? ",{\"name\":" : "{\"name\":", rp->out);
		json_string(rp->out, node_name(rp, &fn));
		putc('}', rp->out);
	}
	fprintf(rp->out, "]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"pid %u\","
		"\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		rp->rd.header.pid, rp->o->folded_calls ? "none" : "nanoseconds",
		(unsigned long long)total);
	ss.first = true;
	tree_walk(rp, ss_sample, &ss);
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
		tree_walk(rp, folded_line, NULL);
	note_dropped(rp);
	return 0;
}

const struct view view_folded = {
	.name = "folded", .aggregate = true, .finish = finish,
};
