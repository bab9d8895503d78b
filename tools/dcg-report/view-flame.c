// SPDX-License-Identifier: GPL-2.0
/*
 * view-flame.c - a self-contained SVG flame graph, no flamegraph.pl.
 *
 * One rectangle per node of the call tree (one call path), the root at
 * the bottom.  Widths follow the folded view exactly: a node's weight
 * is the sum, over its subtree, of what the folded view gives each
 * path (self instructions, self ns with --cost time, or calls with
 * --calls), so the rectangles are the
 * folded stacks and their prefix sums.  A node takes one row whatever
 * levels it stands for (a placeholder for lost levels is one row), so
 * the picture is as tall as the tree is deep in nodes.  Subtrees of
 * weight 0 draw nothing, as folded leaves them out.  Each rectangle is
 * a <g> with a <title> (name, weight, share of the total) and data
 * attributes for the inline script: data-s (start, in weight units),
 * data-v (weight), data-d (row, 1 at the bottom) and data-p (the
 * parent's id).  Clicking a frame zooms to it; clicking the background
 * or "Reset zoom" zooms out.  Colours
 * are a hash of the name, so a function has the same colour in every
 * graph.  Labels are set when writing, so that renderers without
 * scripts (rsvg-convert) show them too.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define FLAME_W		1200	/* px */
#define FRAME_H		16
#define PAD_TOP		40
#define PAD_BOTTOM	24
#define PAD_SIDE	10
#define CHAR_W		6.5	/* px per character at font-size 11 */

struct flame {
	dcg_u64 *tot;			/* subtree weight per node */
	dcg_u64 *start;			/* offset from the left, in weight */
	dcg_u32 *row;			/* 1 for roots: one row per node
					 * on the path, so a placeholder
					 * for lost levels takes one row */
	dcg_u32 max_depth;		/* rows drawn */
	dcg_u64 total;
};

static dcg_u64 weight(struct report *rp, const struct node *n)
{
	return node_weight(rp, n);
}

/* FNV-1a: the same name gets the same colour in every graph. */
static dcg_u32 name_hash(const char *s)
{
	dcg_u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void frame_colour(const char *name, char *buf, size_t len)
{
	dcg_u32 h = name_hash(name);

	/* warm colours, as flame graphs of CPU use them */
	snprintf(buf, len, "rgb(%u,%u,%u)", 205 + (h & 0xff) % 51,
		 ((h >> 8) & 0xff) % 230, ((h >> 16) & 0xff) % 56);
}

/*
 * Weights come from the trace (instruction counts, times): a hostile or
 * broken one can make their sums wrap, and a frame would then be wider
 * than its parent.  Sums stop at the largest weight instead.
 */
static dcg_u64 add_weights(dcg_u64 a, dcg_u64 b)
{
	return a + b < a ? (dcg_u64)-1 : a + b;
}

/* A pixel position or width inside the image, NaN and infinity too. */
static double in_image(double px)
{
	if (!(px > 0))
		return 0;
	return px < FLAME_W ? px : FLAME_W;
}

static void layout(struct report *rp, struct flame *fl)
{
	const struct tree *t = &rp->tree;
	dcg_u32 id, c;
	dcg_u64 s;

	fl->tot = xcalloc(t->n, sizeof(*fl->tot));
	fl->start = xcalloc(t->n, sizeof(*fl->start));
	fl->row = xcalloc(t->n, sizeof(*fl->row));
	/* children have larger ids than their parents */
	for (id = t->n - 1; id > 0; id--) {
		fl->tot[id] = add_weights(fl->tot[id],
					  weight(rp, &t->nodes[id]));
		fl->tot[t->nodes[id].parent] =
			add_weights(fl->tot[t->nodes[id].parent], fl->tot[id]);
	}
	fl->total = fl->tot[0];
	/* in id order every parent is placed before its children */
	for (id = 0; id < t->n; id++) {
		s = fl->start[id];
		for (c = t->nodes[id].first_child; c; c = t->nodes[c].next_sibling) {
			fl->start[c] = s;
			fl->row[c] = fl->row[id] + 1;
			s = add_weights(s, fl->tot[c]);
		}
		if (id && fl->tot[id] && fl->row[id] > fl->max_depth)
			fl->max_depth = fl->row[id];
	}
}

static void put_frame(struct report *rp, struct node *n, dcg_u32 id,
		      void *arg)
{
	struct flame *fl = arg;
	double scale = (double)(FLAME_W - 2 * PAD_SIDE) / fl->total;
	double x = in_image(PAD_SIDE + fl->start[id] * scale);
	double w = in_image(fl->tot[id] * scale);
	double y = PAD_TOP + (double)(fl->max_depth - fl->row[id]) * FRAME_H;
	struct name_buf nb;
	const char *name = node_name(rp, n, &nb);
	char colour[32];
	size_t fit;

	if (!fl->tot[id])
		return;
	frame_colour(name, colour, sizeof(colour));
	fprintf(rp->out, "<g class=\"f\" id=\"f%u\" data-p=\"f%u\" data-s=\"%llu\" data-v=\"%llu\" data-d=\"%u\"><title>",
		id, n->parent, (unsigned long long)fl->start[id],
		(unsigned long long)fl->tot[id], fl->row[id]);
	dcg_put_xml(rp->out, name, (size_t)-1);
	fprintf(rp->out, " (%llu %s, %.2f%%)</title>",
		(unsigned long long)fl->tot[id], weight_unit(rp),
		100.0 * fl->tot[id] / fl->total);
	fprintf(rp->out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
		x, y, w, FRAME_H - 1, colour);
	fit = w > 3 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
	fprintf(rp->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
	if (fit >= strlen(name)) {
		dcg_put_xml(rp->out, name, fit);
	} else if (fit >= 3) {
		dcg_put_xml(rp->out, name, fit - 2);
		fputs("..", rp->out);
	}
	fputs("</text></g>\n", rp->out);
}

/*
 * The zoom: a frame's data-s and data-v place it on the weight axis;
 * zooming to frame Z maps [s(Z), s(Z)+v(Z)) onto the full width, keeps
 * Z's ancestors full width, and hides frames outside that range.
 */
static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"var W = %d, PAD = %d, CW = %.1f;\n"
"function frames() { return document.querySelectorAll('g.f'); }\n"
"function label(g, w) {\n"
"  var t = g.querySelector('text'), n = g.querySelector('title').textContent;\n"
"  n = n.replace(/ \\([^()]*\\)$/, '');\n"
"  var fit = w > 3 * CW ? Math.floor((w - 6) / CW) : 0;\n"
"  t.textContent = fit >= n.length ? n : fit >= 3 ? n.substr(0, fit - 2) + '..' : '';\n"
"}\n"
"function zoom(z) {\n"
"  var s0 = +z.dataset.s, v0 = +z.dataset.v, d0 = +z.dataset.d;\n"
"  var scale = (W - 2 * PAD) / v0;\n"
"  frames().forEach(function (g) {\n"
"    var s = +g.dataset.s, v = +g.dataset.v, d = +g.dataset.d;\n"
"    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"    var inside = s >= s0 && s + v <= s0 + v0 && d >= d0;\n"
"    var above = d < d0 && s <= s0 && s + v >= s0 + v0;\n"
"    if (!inside && !above) { g.style.display = 'none'; return; }\n"
"    g.style.display = '';\n"
"    var x = above ? PAD : PAD + (s - s0) * scale;\n"
"    var w = above ? W - 2 * PAD : v * scale;\n"
"    r.setAttribute('x', x); r.setAttribute('width', w);\n"
"    t.setAttribute('x', x + 3); label(g, w);\n"
"    g.style.opacity = above ? 0.6 : 1;\n"
"  });\n"
"}\n"
"function reset() {\n"
"  var tot = 0;\n"
"  frames().forEach(function (g) { if (+g.dataset.d == 1) tot += +g.dataset.v; });\n"
"  zoom({ dataset: { s: 0, v: tot, d: 1 } });\n"
"}\n"
"document.addEventListener('click', function (e) {\n"
"  var g = e.target.closest ? e.target.closest('g.f') : null;\n"
"  if (g) zoom(g); else reset();\n"
"});\n"
"]]></script>\n";

static int finish(struct report *rp)
{
	struct flame fl = { 0 };
	const struct dcg_rec_header *h = &rp->rd.header;
	dcg_u64 height;

	layout(rp, &fl);
	height = PAD_TOP + (dcg_u64)fl.max_depth * FRAME_H + PAD_BOTTOM;
	fprintf(rp->out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%llu\" viewBox=\"0 0 %d %llu\">\n",
		FLAME_W, (unsigned long long)height, FLAME_W,
		(unsigned long long)height);
	fprintf(rp->out, "<style>text { font-family: monospace; font-size: 11px; fill: #000; pointer-events: none; } "
		"g.f:hover rect { stroke: #000; stroke-width: 0.5; } g.f { cursor: pointer; }</style>\n");
	fprintf(rp->out, script, FLAME_W, PAD_SIDE, CHAR_W);
	fprintf(rp->out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%llu\" fill=\"#f8f8f0\"/>\n",
		FLAME_W, (unsigned long long)height);
	fprintf(rp->out, "<text x=\"%d\" y=\"20\" style=\"font-size:15px\">dyncg flame graph: pid %u (",
		PAD_SIDE, h->pid);
	dcg_put_xml(rp->out, h->comm, sizeof(h->comm));
	fprintf(rp->out, "), mode %s, width = %s</text>\n", dcg_mode_name(h->mode),
		rp->o->folded_calls ? "calls" :
		cost_insns(rp) ? "self instructions"
			       : "self time in ns (includes tracing overhead)");
	fprintf(rp->out, "<text x=\"%d\" y=\"34\" style=\"pointer-events:auto;cursor:pointer\" onclick=\"reset()\">Reset zoom</text>\n",
		PAD_SIDE);
	fprintf(rp->out, "<text x=\"%d\" y=\"%llu\">total %llu %s; click a frame to zoom</text>\n",
		PAD_SIDE, (unsigned long long)height - 8,
		(unsigned long long)fl.total, weight_unit(rp));
	if (fl.total)
		tree_walk(rp, put_frame, &fl);
	fputs("</svg>\n", rp->out);
	note_dropped(rp);
	free(fl.tot);
	free(fl.start);
	free(fl.row);
	return 0;
}

const struct view view_flame = {
	.name = "flame", .aggregate = true, .finish = finish,
};
