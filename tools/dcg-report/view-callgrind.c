// SPDX-License-Identifier: GPL-2.0
/*
 * view-callgrind.c - the callgrind profile format, for callgrind_annotate
 * and KCachegrind.  Two event types: "Ir", instructions executed, as
 * valgrind's callgrind counts them (dyncg.user/insns-callgrind.exp
 * checks that), and "ns", time including tracing overhead; a version 1
 * trace has no counts, and only "ns".  Per function: its self cost; per
 * call edge: calls= and the inclusive cost of those calls, every call
 * counted whole as callgrind does (a recursive call's cost is also in
 * its caller's call).
 *
 * Positions are source lines where DWARF gives them: a function's self
 * cost sits on the line of its entry (fl= its file), a call edge's cost
 * on the line of one of its call sites (fi= when that line is in
 * another file, an inlined body's), calls= names the callee's entry
 * line.  Where there is no DWARF, fl=??? and line 0.
 *
 * A trace with PROFILE records (dcg-trace --annotate) spreads each
 * function's self Ir over the lines its instructions are on: every run
 * is taken apart into its instructions (decoded from the object's
 * file), each instruction's count goes to its function and line.  What
 * the events credit a function beyond that (a PLT stub's jump, folded
 * into the function it jumps to) stays on the entry line.  With the
 * walk's filters (--include, --exclude, --depth, times) the events'
 * functions are not the code's, and the self cost stays on the entry
 * line as without the records.
 */
#include <stdlib.h>
#include <string.h>

#include "dcg_insn.h"
#include "report.h"

/* PROFILE runs, by (start, ninsns): the records' counts summed. */
static dcg_u32 run_hash(dcg_u64 start, dcg_u32 ninsns, dcg_u32 cap)
{
	return (dcg_u32)(((start ^ ((dcg_u64)ninsns << 48)) *
			  0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static void runs_grow(struct prof_runs *pr)
{
	struct prof_run *old = pr->e;
	dcg_u32 i, j, oldcap = pr->cap;

	pr->cap = oldcap ? 2 * oldcap : 1024;
	pr->e = xcalloc(pr->cap, sizeof(*pr->e));
	for (i = 0; i < oldcap; i++) {
		if (!old[i].count)
			continue;
		j = run_hash(old[i].start, old[i].ninsns, pr->cap);
		while (pr->e[j].count)
			j = (j + 1) & (pr->cap - 1);
		pr->e[j] = old[i];
	}
	free(old);
}

static void run_add(struct prof_runs *pr, dcg_u64 start, dcg_u32 ninsns,
		    dcg_u64 count)
{
	struct prof_run *r;
	dcg_u32 j;

	if (2 * (pr->n + 1) > pr->cap)
		runs_grow(pr);
	j = run_hash(start, ninsns, pr->cap);
	for (;; j = (j + 1) & (pr->cap - 1)) {
		r = &pr->e[j];
		if (!r->count)
			break;
		if (r->start == start && r->ninsns == ninsns) {
			r->count += count;
			return;
		}
	}
	r->start = start;
	r->ninsns = ninsns;
	r->count = count;
	pr->n++;
}

void prof_runs_add(struct prof_runs *pr, const struct dcg_rec_profile *p)
{
	const struct dcg_prof_ent *e = dcg_rec_profile_ent(p);
	dcg_u32 i;

	for (i = 0; i < p->nent; i++)
		run_add(pr, e[i].start, e[i].ninsns, e[i].count);
	pr->records++;
	pr->dropped += p->dropped;
}

void prof_runs_free(struct prof_runs *pr)
{
	free(pr->e);
	memset(pr, 0, sizeof(*pr));
}

struct srcpos {
	char file[1024];		/* "???" when unknown */
	unsigned long line;		/* 0 when unknown */
};

/* File and line of @addr, from the symbolizer's "file:line". */
static void srcpos_of(struct report *rp, dcg_u64 addr, struct srcpos *p)
{
	const char *sl = NULL, *colon;
	char *end;

	strcpy(p->file, "???");
	p->line = 0;
	if (rp->sym && addr > LAZY_BINDING_ADDR)
		sl = dcg_sym_lookup(rp->sym, addr)->srcline;
	colon = sl ? strrchr(sl, ':') : NULL;
	if (!colon || colon == sl ||
	    (size_t)(colon - sl) >= sizeof(p->file))
		return;
	p->line = strtoul(colon + 1, &end, 10);
	if (end == colon + 1)
		p->line = 0;
	memcpy(p->file, sl, colon - sl);
	p->file[colon - sl] = '\0';
}

/*
 * The longest run the engine counts: its block walk stops at 4096
 * bytes (DCG_WALK_MAX_BYTES, doc/classifier.md), plus the last insn.
 */
#define RUN_MAX_BYTES	(4096 + DCG_INSN_MAX_LEN)

/* One function's Ir on one line of one file (files interned). */
struct line_ir {
	dcg_u64 func;
	dcg_u32 file;			/* index into per_line.files */
	unsigned long line;
	dcg_u64 ir;
};

/* A function's lines: line_ir[first, end), and who prints them. */
struct line_group {
	dcg_u64 func;
	dcg_u32 first, end;
	dcg_u32 owner;			/* funcs[] index, NO_FUNC: none */
	dcg_u64 sum;			/* Ir of its lines */
	dcg_u64 events;			/* the events' self Ir of the func */
};

struct per_line {
	struct line_ir *lines;
	dcg_u32 nlines;
	struct line_group *groups;
	dcg_u32 ngroups;
	char **files;
	dcg_u32 nfiles;
	dcg_u64 outside;		/* Ir of code no function printed
					 * here holds (folded PLT stubs) */
	dcg_u64 undecoded;		/* Ir put on the last insn of a run
					 * that could not be decoded */
};

static dcg_u32 intern_file(struct per_line *pl, const char *file)
{
	dcg_u32 i;

	for (i = pl->nfiles; i-- > 0;)
		if (!strcmp(pl->files[i], file))
			return i;
	pl->files = xrealloc(pl->files, (pl->nfiles + 1) * sizeof(char *));
	pl->files[pl->nfiles] = xstrdup(file);
	return pl->nfiles++;
}

/*
 * The instructions of a run: one at start, or decoded from the
 * object's file.  A run that cannot be decoded to its end keeps the
 * rest on its last decoded insn (counted in undecoded), never lost.
 */
static void run_insns(struct report *rp, const struct prof_run *r,
		      struct prof_runs *addrs, struct per_line *pl)
{
	dcg_u8 buf[RUN_MAX_BYTES];
	struct dcg_insn insn;
	dcg_u64 addr = r->start;
	dcg_u32 k, pos = 0;
	int got = 0, len;

	if (r->ninsns > 1)
		got = dcg_sym_code(rp->sym, r->start, buf, sizeof(buf));
	for (k = 0; k < r->ninsns; k++) {
		addr = r->start + pos;
		run_add(addrs, addr, 0, r->count);
		if (k + 1 == r->ninsns)
			return;
		len = (int)pos < got ? dcg_insn_decode(buf + pos, got - pos,
						       addr, &insn) : -1;
		if (len <= 0)
			break;
		pos += len;
	}
	run_add(addrs, addr, 0, (r->ninsns - k - 1) * r->count);
	pl->undecoded += (r->ninsns - k - 1) * r->count;
}

static int cmp_line(const void *a, const void *b)
{
	const struct line_ir *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

static struct line_group *group_of(struct per_line *pl, dcg_u64 func)
{
	dcg_u32 lo = 0, hi = pl->ngroups, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pl->groups[mid].func == func)
			return &pl->groups[mid];
		if (pl->groups[mid].func < func)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Every instruction's count to its function and line.  Each address is
 * symbolized once (the symbolizer caches, the table merges): a trace's
 * cost here grows with the code it ran, not with its length.
 */
static void lines_from_addrs(struct report *rp, const struct prof_runs *addrs,
			     struct per_line *pl)
{
	const struct dcg_symbol *sym;
	struct srcpos sp;
	struct line_ir *l;
	dcg_u32 i, j, n = 0;
	dcg_u64 func;

	pl->lines = xcalloc(addrs->n ? addrs->n : 1, sizeof(*pl->lines));
	for (i = 0; i < addrs->cap; i++) {
		if (!addrs->e[i].count)
			continue;
		sym = dcg_sym_lookup(rp->sym, addrs->e[i].start);
		if (!sym->known) {
			pl->outside += addrs->e[i].count;
			continue;
		}
		func = addrs->e[i].start - sym->offset;
		srcpos_of(rp, addrs->e[i].start, &sp);
		l = &pl->lines[n++];
		l->func = func;
		l->file = intern_file(pl, sp.file);
		l->line = sp.line;
		l->ir = addrs->e[i].count;
	}
	qsort(pl->lines, n, sizeof(*pl->lines), cmp_line);
	/* merge equal (func, file, line), then group by func */
	for (i = 0, j = 0; i < n; i++) {
		if (j && !cmp_line(&pl->lines[j - 1], &pl->lines[i]))
			pl->lines[j - 1].ir += pl->lines[i].ir;
		else
			pl->lines[j++] = pl->lines[i];
	}
	pl->nlines = j;
	pl->groups = xcalloc(j ? j : 1, sizeof(*pl->groups));
	for (i = 0; i < pl->nlines; i++) {
		struct line_group *g = &pl->groups[pl->ngroups];

		if (!pl->ngroups || g[-1].func != pl->lines[i].func) {
			g->func = pl->lines[i].func;
			g->first = i;
			g->owner = NO_FUNC;
			pl->ngroups++;
		} else {
			g--;
		}
		g->end = i + 1;
		g->sum += pl->lines[i].ir;
	}
}

/* The walk's filters change which function a cost is credited to. */
static bool filtered(const struct options *o)
{
	return o->ninclude || o->nexclude || o->max_depth ||
	       o->min_duration || o->have_from || o->have_to;
}

/*
 * Build the lines from the PROFILE runs; give each function's lines to
 * one entry of the table (an async entry only when there is no other).
 * False when there are none to use.
 */
static bool per_line_build(struct report *rp, const struct func_table *ft,
			   struct per_line *pl)
{
	struct prof_runs addrs = { 0 };
	struct line_group *g;
	dcg_u32 i, pass;

	memset(pl, 0, sizeof(*pl));
	if (!rp->prof.records || !rp->sym || !have_insns(rp) ||
	    filtered(rp->o))
		return false;
	for (i = 0; i < rp->prof.cap; i++)
		if (rp->prof.e[i].count)
			run_insns(rp, &rp->prof.e[i], &addrs, pl);
	lines_from_addrs(rp, &addrs, pl);
	prof_runs_free(&addrs);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ft->nfuncs; i++) {
			g = group_of(pl, ft->funcs[i].func);
			if (!g)
				continue;
			if (!pass)
				g->events += ft->funcs[i].self_insns;
			if (g->owner == NO_FUNC &&
			    (pass || !ft->funcs[i].async))
				g->owner = i;
		}
	}
	for (i = 0; i < pl->ngroups; i++)
		if (pl->groups[i].owner == NO_FUNC)
			pl->outside += pl->groups[i].sum;
	return true;
}

static void per_line_free(struct per_line *pl)
{
	dcg_u32 i;

	for (i = 0; i < pl->nfiles; i++)
		free(pl->files[i]);
	free(pl->files);
	free(pl->lines);
	free(pl->groups);
}

/*
 * The Ir on a function's entry line: its self Ir, or with lines, what
 * the events credit the function beyond its lines (0 for the entries
 * whose code another entry prints).
 */
static dcg_u64 entry_ir(struct per_line *pl, const struct func_table *ft,
			dcg_u32 i)
{
	struct line_group *g = pl->lines ? group_of(pl, ft->funcs[i].func)
					 : NULL;

	if (!g)
		return ft->funcs[i].self_insns;
	if (g->owner != i)
		return 0;
	return g->events > g->sum ? g->events - g->sum : 0;
}

/* A cost line's values (and its newline). */
static void put_costs(struct report *rp, dcg_u64 insns, dcg_u64 ns)
{
	if (have_insns(rp))
		fprintf(rp->out, "%llu ", (unsigned long long)insns);
	fprintf(rp->out, "%llu\n", (unsigned long long)ns);
}

/*
 * A function's lines (a PROFILE trace): those in its own file, then
 * each other file's under fi=, and fe= back.  No time on them: the
 * time stays on the entry line.
 */
static void put_lines(struct report *rp, const struct per_line *pl,
		      const struct line_group *g, const char *own)
{
	dcg_u32 k, cur = NO_FUNC;
	FILE *f = rp->out;
	bool other;

	for (k = g->first; k < g->end; k++) {
		const struct line_ir *l = &pl->lines[k];

		other = strcmp(pl->files[l->file], own);
		if (l->file != cur && other)
			fprintf(f, "fi=%s\n", pl->files[l->file]);
		else if (l->file != cur && cur != NO_FUNC)
			fprintf(f, "fe=%s\n", own);
		cur = l->file;
		fprintf(f, "%lu ", l->line);
		put_costs(rp, l->ir, 0);
	}
	if (cur != NO_FUNC && strcmp(pl->files[cur], own))
		fprintf(f, "fe=%s\n", own);
}

/*
 * One function: its self cost, then its call edges order[*k .. end).
 * A call site in another file than the function's (an inlined body)
 * is given with fi=, and fe= returns to the function's file.
 */
static void put_function(struct report *rp, const struct func_table *ft,
			 struct per_line *pl, dcg_u32 i, const dcg_u32 *order,
			 dcg_u32 *k, dcg_u32 end)
{
	const struct func_stat *fs = &ft->funcs[i];
	struct node n = { .func = fs->func, .async = fs->async };
	const struct line_group *g;
	struct srcpos fp, cp, sp;
	struct name_buf nb;
	FILE *f = rp->out;

	srcpos_of(rp, fs->func, &fp);
	fprintf(f, "fl=%s\nfn=%s\n%lu ", fp.file, node_name(rp, &n, &nb), fp.line);
	put_costs(rp, entry_ir(pl, ft, i), fs->self_ns);
	g = pl->lines ? group_of(pl, fs->func) : NULL;
	if (g && g->owner == i)
		put_lines(rp, pl, g, fp.file);
	for (; *k < end; (*k)++) {
		const struct edge_stat *e = &ft->edges[order[*k]];
		struct node cn = { .func = ft->funcs[e->callee].func,
				   .async = ft->funcs[e->callee].async };
		bool other;

		srcpos_of(rp, cn.func, &cp);
		srcpos_of(rp, e->site, &sp);
		other = sp.line && strcmp(sp.file, fp.file);
		if (other)
			fprintf(f, "fi=%s\n", sp.file);
		fprintf(f, "cfl=%s\ncfn=%s\ncalls=%llu %lu\n%lu ", cp.file,
			node_name(rp, &cn, &nb), (unsigned long long)e->calls,
			cp.line, sp.line ? sp.line : fp.line);
		put_costs(rp, e->all_insns, e->all_ns);
		if (other)
			fprintf(f, "fe=%s\n", fp.file);
	}
	putc('\n', f);
}

static int finish(struct report *rp)
{
	const struct dcg_rec_header *h = &rp->rd.header;
	struct func_table ft;
	struct per_line pl;
	dcg_u64 total = 0, total_ic = 0;
	dcg_u32 i, j, k, *first, *order;
	FILE *f = rp->out;

	func_table_build(rp, &ft);
	per_line_build(rp, &ft, &pl);
	for (i = 0; i < ft.nfuncs; i++) {
		total += ft.funcs[i].self_ns;
		total_ic += entry_ir(&pl, &ft, i);
	}
	for (i = 0; i < pl.ngroups; i++)
		if (pl.groups[i].owner != NO_FUNC)
			total_ic += pl.groups[i].sum;
	fprintf(f, "# callgrind format\nversion: 1\ncreator: dcg-report\n");
	fprintf(f, "pid: %u\ncmd: %.16s\npart: 1\n\n", h->pid, h->comm);
	fprintf(f, "# dropped: %llu events\n", (unsigned long long)rp->rd.lost);
	fprintf(f, "# ns: times include tracing overhead\n");
	/* and on stderr (note_dropped): Ir must not silently be less */
	if (rp->rd.inexact && have_insns(rp))
		fprintf(f, "# Ir: %s\n", inexact_note(rp));
	if (pl.lines)
		fprintf(f, "# per-line Ir from %llu profile records: %llu Ir dropped by the tracer; %llu Ir in code with no symbol or of no function shown (their functions' Ir stay on entry lines); %llu Ir on the last decodable insn of a run\n",
			(unsigned long long)rp->prof.records,
			(unsigned long long)rp->prof.dropped,
			(unsigned long long)pl.outside,
			(unsigned long long)pl.undecoded);
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
	for (i = 0, k = 0; i < ft.nfuncs; i++)
		put_function(rp, &ft, &pl, i, order, &k, first[i]);
	free(first);
	free(order);
	fputs("totals: ", f);
	put_costs(rp, total_ic, total);
	note_dropped(rp);
	per_line_free(&pl);
	func_table_free(&ft);
	return 0;
}

const struct view view_callgrind = {
	.name = "callgrind", .aggregate = true, .finish = finish,
	.wants_srcline = true, .wants_profile = true,
};
