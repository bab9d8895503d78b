// SPDX-License-Identifier: GPL-2.0
/*
 * dcg-report - turn a dyncg trace into a symbolized call trace, call
 * graph, hot-callee list, or a file for another tool.
 *
 *   dcg-report VIEW [options] FILE
 *   dcg-report --view VIEW [options] FILE
 *   dcg-report diff [options] A B
 *
 * Exit status (the convention of all three tools, doc/dcg-report.1):
 * 0 done, 1 the work failed (writing the output, memory), 2 the command
 * line or the input is wrong (bad usage, a file that cannot be opened
 * or created, an unusable option file, a malformed trace), 3 the trace
 * is incomplete: it has no end record (STATS), so it was cut short; the
 * report is printed all the same, with one line on stderr saying so.  A malformed trace gives one line on stderr,
 * "dcg-report: FILE: offset N: what is wrong".  Aggregating views print
 * nothing then.  Streaming views (trace, csv, jsonl, chrome) validate a
 * regular file completely before printing anything; from a pipe they
 * stream, so the lines before the error have been printed: the exit
 * status says the output is incomplete.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "report.h"

static const struct view *const views[] = {
	&view_trace, &view_graph, &view_hot, &view_dot, &view_folded,
	&view_chrome, &view_callgrind, &view_csv, &view_jsonl, &view_diff,
	&view_flame,
};

static void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vusage_error(dcg_progname, fmt, ap);
	va_end(ap);
	exit(2);
}

static void usage(void)
{
	puts("usage: dcg-report VIEW [options] FILE   (FILE - is stdin)\n"
	     "views:\n"
	     "  trace      indented call/return flow with times\n"
	     "  graph      call tree per path: calls, inclusive and self\n"
	     "             instructions and time\n"
	     "  hot        callees ranked by calls per activation of the root\n"
	     "  dot        Graphviz call graph (--svg: run dot)\n"
	     "  folded     FlameGraph stacks (--speedscope: speedscope JSON)\n"
	     "  chrome     Trace Event JSON for Perfetto/chrome://tracing\n"
	     "  callgrind  callgrind format for callgrind_annotate/KCachegrind\n"
	     "  csv, jsonl one event per line\n"
	     "  diff       diff A B: two traces, per function and edge, by change\n"
	     "  flame      self-contained SVG flame graph (--calls: by calls)\n"
	     "options:\n"
	     "  --view VIEW          the view, instead of the first argument\n"
	     "  -o, --output FILE    write there instead of stdout\n"
	     "  --tid N[,N...]       only these threads\n"
	     "  --include GLOB       only subtrees of matching functions\n"
	     "  --exclude GLOB       hide matching functions and their subtrees\n"
	     "  --depth N            show at most N levels\n"
	     "  --min-duration NS    hide calls shorter than NS\n"
	     "  --from NS, --to NS   calls that start in this window (ns from\n"
	     "                       the trace start)\n"
	     "  --threshold N        hot: flag callees called more than N times\n"
	     "                       per activation (default 100)\n"
	     "  --svg                dot: produce SVG with Graphviz\n"
	     "  --speedscope         folded: speedscope JSON\n"
	     "  --calls              folded, flame: weigh stacks by calls\n"
	     "  --cost insns|time    folded, flame, diff: weigh by instructions\n"
	     "                       (the default) or by time\n"
	     "  --max-size BYTES     chrome: split into numbered files (needs -o)\n"
	     "  --srcline            add file:line\n"
	     "  --inline             show inlined frames at call sites\n"
	     "  --mangled            print C++ names as in the symbol table\n"
	     "  --show-plt           PLT stubs and lazy binding as they ran (by\n"
	     "                       default a PLT call is one call to its target)\n"
	     "  --kallsyms FILE      kernel symbols, /proc/kallsyms format\n"
	     "  --system-map FILE    kernel symbols, System.map format\n"
	     "  --vmlinux FILE       kernel symbols from a vmlinux ELF\n"
	     "  --sysroot DIR        the traced system's files: each mapped object\n"
	     "                       is looked up under DIR first (build-id checked)\n"
	     "  --debug-dir DIRS     .build-id trees (DIR/.build-id/xx/rest[.debug]),\n"
	     "                       ':'-separated, repeatable; /usr/lib/debug is\n"
	     "                       always searched (--debuginfo-path: same)\n"
	     "  --raw                no symbolization: hex addresses\n"
	     "  --args, --no-args    show the arguments of calls, or not (on\n"
	     "                       when the trace has them)\n"
	     "  --retval, --no-retval  show return values, or not (the same)\n"
	     "  --retval PRED        only calls whose return value matches PRED\n"
	     "                       (<N <=N >N >=N ==N !=N; N decimal or 0xhex),\n"
	     "                       with their callers for context\n"
	     "  -h, --help           this text\n"
	     "  -V, --version        the version\n"
	     "exit status: 0 ok, 1 failure (write error, memory), 2 bad usage or\n"
	     "input (a file that cannot be opened, a malformed trace), 3 incomplete\n"
	     "trace (no end record; the report is printed)");
}

static dcg_u64 parse_num(const char *opt, const char *arg)
{
	dcg_u64 v;

	if (!dcg_parse_u64(arg, 0, &v))
		usage_error("%s: not a number: '%s'", opt, arg);
	return v;
}

static void parse_tids(struct options *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->ntids == DCG_ARRAY_SIZE(o->tids))
			usage_error("--tid: at most %zu threads",
				    DCG_ARRAY_SIZE(o->tids));
		o->tids[o->ntids++] = parse_num("--tid", tok);
	}
	free(copy);
}

enum {
	OPT_VIEW = 256, OPT_TID, OPT_INCLUDE, OPT_EXCLUDE, OPT_DEPTH,
	OPT_MINDUR, OPT_FROM, OPT_TO, OPT_THRESHOLD, OPT_SVG,
	OPT_SPEEDSCOPE, OPT_CALLS, OPT_MAXSIZE, OPT_SRCLINE, OPT_INLINE, OPT_MANGLED,
	OPT_KALLSYMS, OPT_SYSMAP, OPT_VMLINUX, OPT_DEBUGINFO, OPT_SYSROOT, OPT_RAW,
	OPT_SHOWPLT, OPT_VERSION, OPT_COST, OPT_ARGS, OPT_NOARGS, OPT_RETVAL,
	OPT_NORETVAL,
};

static const struct option longopts[] = {
	{ "view", required_argument, NULL, OPT_VIEW },
	{ "output", required_argument, NULL, 'o' },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "min-duration", required_argument, NULL, OPT_MINDUR },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "svg", no_argument, NULL, OPT_SVG },
	{ "speedscope", no_argument, NULL, OPT_SPEEDSCOPE },
	{ "calls", no_argument, NULL, OPT_CALLS },
	{ "cost", required_argument, NULL, OPT_COST },
	{ "max-size", required_argument, NULL, OPT_MAXSIZE },
	{ "srcline", no_argument, NULL, OPT_SRCLINE },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "mangled", no_argument, NULL, OPT_MANGLED },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "system-map", required_argument, NULL, OPT_SYSMAP },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "debuginfo-path", required_argument, NULL, OPT_DEBUGINFO },
	{ "debug-dir", required_argument, NULL, OPT_DEBUGINFO },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "args", no_argument, NULL, OPT_ARGS },
	{ "no-args", no_argument, NULL, OPT_NOARGS },
	{ "retval", optional_argument, NULL, OPT_RETVAL },
	{ "no-retval", no_argument, NULL, OPT_NORETVAL },
	{ "show-plt", no_argument, NULL, OPT_SHOWPLT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void add_glob(const char **list, unsigned int *n, const char *opt,
		     const char *arg)
{
	if (*n == MAX_GLOBS)
		usage_error("%s: at most %d patterns", opt, MAX_GLOBS);
	list[(*n)++] = arg;
}

/* --debug-dir (or --debuginfo-path), repeatable: one ':'-list of all. */
static void add_debug_dirs(struct options *o, const char *arg)
{
	const char *old = o->sym.debuginfo_path;
	char *all;

	if (!arg[0])
		usage_error("--debug-dir: empty directory name");
	if (!old) {
		o->sym.debuginfo_path = arg;
		return;
	}
	all = xmalloc(strlen(old) + strlen(arg) + 2);
	sprintf(all, "%s:%s", old, arg);
	o->sym.debuginfo_path = all;	/* lives as long as the process */
}

/* A non-option: the view first, then the trace, then diff's B. */
static void take_operand(struct options *o, const char *arg)
{
	if (!o->view)
		o->view = arg;
	else if (!o->input)
		o->input = arg;
	else if (!o->input2)
		o->input2 = arg;	/* diff's B */
	else
		usage_error("unexpected argument '%s'", arg);
}

static int parse_cost(const char *arg)
{
	if (!strcmp(arg, "insns"))
		return COST_INSNS;
	if (!strcmp(arg, "time"))
		return COST_TIME;
	usage_error("--cost: '%s' is neither insns nor time", arg);
}

/* --retval, --retval PRED: a next word that starts like one is PRED. */
static void take_retval(struct options *o, const char *arg, int argc,
			char **argv)
{
	o->retval = 1;
	if (!arg && optind < argc && argv[optind][0] &&
	    strchr("<>=!", argv[optind][0]))
		arg = argv[optind++];
	if (arg && !retval_parse(o, arg))
		usage_error("--retval: '%s' is not a predicate (<N, <=N, >N, >=N, ==N or !=N)",
			    arg);
}

/* What is shown: threads, functions, depth, time. */
static bool take_filter(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_TID:		parse_tids(o, arg); break;
	case OPT_INCLUDE:
		add_glob(o->include, &o->ninclude, "--include", arg);
		break;
	case OPT_EXCLUDE:
		add_glob(o->exclude, &o->nexclude, "--exclude", arg);
		break;
	case OPT_DEPTH:
		o->max_depth = parse_num("--depth", arg);
		if (!o->max_depth)
			usage_error("--depth: must be at least 1");
		break;
	case OPT_MINDUR:
		o->min_duration = parse_num("--min-duration", arg);
		break;
	case OPT_FROM:
		o->from = parse_num("--from", arg);
		o->have_from = true;
		break;
	case OPT_TO:
		o->to = parse_num("--to", arg);
		o->have_to = true;
		break;
	default:
		return false;
	}
	return true;
}

/* How the views print: their switches and the names' sources. */
static bool take_format(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_VIEW:		o->view = arg; break;
	case 'o':		o->output = arg; break;
	case OPT_THRESHOLD:	o->threshold = parse_num("--threshold", arg); break;
	case OPT_SVG:		o->svg = true; break;
	case OPT_SPEEDSCOPE:	o->speedscope = true; break;
	case OPT_CALLS:		o->folded_calls = true; break;
	case OPT_COST:		o->cost = parse_cost(arg); break;
	case OPT_MAXSIZE:
		o->max_size = parse_num("--max-size", arg);
		if (o->max_size < 4096)
			usage_error("--max-size: at least 4096 bytes");
		break;
	case OPT_SHOWPLT:	o->show_plt = true; break;
	case OPT_RAW:		o->raw = true; break;
	case OPT_ARGS:		o->args = 1; break;
	case OPT_NOARGS:	o->args = 0; break;
	case OPT_NORETVAL:	o->retval = 0; break;
	default:
		return false;
	}
	return true;
}

static bool take_symbols(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_SRCLINE:	o->sym.srcline = true; break;
	case OPT_INLINE:	o->sym.inlines = true; break;
	case OPT_MANGLED:	o->sym.mangled = true; break;
	case OPT_KALLSYMS:	o->sym.kallsyms = arg; break;
	case OPT_SYSMAP:	o->sym.system_map = arg; break;
	case OPT_VMLINUX:	o->sym.vmlinux = arg; break;
	case OPT_DEBUGINFO:	add_debug_dirs(o, arg); break;
	case OPT_SYSROOT:	o->sym.sysroot = arg; break;
	default:
		return false;
	}
	return true;
}

static void take_option(struct options *o, int c, int argc, char **argv)
{
	if (take_filter(o, c, optarg) || take_format(o, c, optarg) ||
	    take_symbols(o, c, optarg))
		return;
	switch (c) {
	case OPT_RETVAL:	take_retval(o, optarg, argc, argv); break;
	case 'h':		usage(); exit(0);
	case 'V':
	case OPT_VERSION:	puts("dcg-report " PACKAGE_VERSION); exit(0);
	case ':':
		usage_error("option '%s' needs a value", bad_option(argv));
	default:
		usage_error("unknown option '%s'", bad_option(argv));
	}
}

static void parse_args(struct options *o, int argc, char **argv)
{
	int c;

	o->threshold = 100;
	o->args = o->retval = -1;
	opterr = 0;		/* one message, ours */
	while ((c = getopt_long(argc, argv, "+:o:hV", longopts, NULL)) != -1 ||
	       optind < argc) {
		if (c == -1)
			take_operand(o, argv[optind++]);
		else
			take_option(o, c, argc, argv);
	}
	if (!o->view)
		usage_error("no view given");
	if (!o->input)
		usage_error("no trace file given");
	if (o->have_from && o->have_to && o->from > o->to)
		usage_error("--from is after --to");
}

const char *flag_names(unsigned int flags, const char *sep, char *buf,
		       size_t len)
{
	static const char *const names[] = {
		"synthetic", "indirect", "unmatched", "skipped",
		"overflow", "root", "end", "inexact",
	};
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if ((flags & (1u << i)) && n < len)
			n += snprintf(buf + n, len - n, "%s%s", n ? sep : "",
				      names[i]);
	return buf;
}

_Static_assert(sizeof(struct name_buf) >= DCG_NAME_LEN,
	       "a name_buf holds a function's name");

const char *func_name(struct report *rp, dcg_u64 addr, struct name_buf *b)
{
	return dcg_func_name(rp->sym, addr, b->s);
}

const char *func_base_name(struct report *rp, dcg_u64 addr,
			   struct name_buf *b)
{
	return dcg_func_base_name(rp->sym, addr, b->s);
}

bool func_is_plt_stub(struct report *rp, dcg_u64 addr)
{
	return dcg_func_is_plt_stub(rp->sym, addr);
}

const char *node_name(struct report *rp, const struct node *n,
		      struct name_buf *b)
{
	struct name_buf fn;

	if (n->span > 1) {
		snprintf(b->s, sizeof(b->s), "[unknown] [%u frames]", n->span);
		return b->s;
	}
	if (!n->async)
		return func_name(rp, n->func, b);
	snprintf(b->s, sizeof(b->s), "%s [async]", func_name(rp, n->func, &fn));
	return b->s;
}

/*
 * Two columns per level up to INDENT_LEVELS; deeper lines keep that
 * indentation and say their depth, so that a line's length does not
 * grow with the depth of the trace.
 */
void indent(struct report *rp, dcg_u32 depth)
{
	if (depth <= INDENT_LEVELS) {
		fprintf(rp->out, "%*s", 2 * (int)(depth ? depth - 1 : 0), "");
		return;
	}
	fprintf(rp->out, "%*s[depth %u] ", 2 * (INDENT_LEVELS - 1), "", depth);
}

/* The lines every text view ends with: what was dropped or made up. */
void print_footer(struct report *rp, const char *p)
{
	const struct dcg_reader *r = &rp->rd;
	const struct walk_stats *w = &rp->ws;
	fprintf(rp->out, "%sevents: %llu, threads: %u, shown calls: %llu\n", p,
		(unsigned long long)w->events, rp->nthreads,
		(unsigned long long)w->shown);
	fprintf(rp->out,
		"%sdropped: %llu events (budget %llu, buffer %llu, depth %llu)\n",
		p, (unsigned long long)r->lost,
		(unsigned long long)r->lost_by_reason[DCG_LOST_BUDGET],
		(unsigned long long)r->lost_by_reason[DCG_LOST_BUFFER],
		(unsigned long long)r->lost_by_reason[DCG_LOST_DEPTH]);
	if (r->have_stats)
		fprintf(rp->out,
			"%sstats: stops %llu, produced %llu, written %llu, dropped %llu, resyncs %llu, decode errors %llu\n",
			p, (unsigned long long)r->stats.stops,
			(unsigned long long)r->stats.produced,
			(unsigned long long)r->stats.written,
			(unsigned long long)r->stats.dropped,
			(unsigned long long)r->stats.resyncs,
			(unsigned long long)r->stats.decode_errors);
	if (w->unmatched || w->resync || w->unfinished || w->synthetic)
		fprintf(rp->out,
			"%sunmatched returns: %llu, synthetic returns: %llu, depth resyncs: %llu, unfinished calls: %llu\n",
			p, (unsigned long long)w->unmatched,
			(unsigned long long)w->synthetic,
			(unsigned long long)w->resync,
			(unsigned long long)w->unfinished);
	if (w->backwards)
		fprintf(rp->out, "%stimestamps out of order: %llu events\n", p,
			(unsigned long long)w->backwards);
	if (r->unknown)
		fprintf(rp->out, "%sskipped records of unknown type: %llu\n", p,
			(unsigned long long)r->unknown);
	if (r->inexact && have_insns(rp))
		fprintf(rp->out, "%s%s\n", p, inexact_note(rp));
}

/*
 * Hop mode ran loops natively without knowing their paths: every
 * instruction count from the first such event on (and a frame's, when
 * one is inside it) is a lower bound.  Said wherever counts are shown.
 */
const char *inexact_note(struct report *rp)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "instruction counts are lower bounds: "
		 "%llu events follow native runs of hop mode whose path is "
		 "not known (dcg-trace --mode step or DCG_TRACE_HOP=straight, "
		 "and the tapset's dynamic_call_graph_set_mode(\"step\"), "
		 "count exactly)", (unsigned long long)rp->rd.inexact);
	return buf;
}

bool have_insns(const struct report *rp)
{
	return dcg_reader_has_insns(&rp->rd);
}

bool cost_insns(const struct report *rp)
{
	if (rp->o->cost == COST_AUTO)
		return have_insns(rp);
	return rp->o->cost == COST_INSNS;
}

dcg_u64 node_weight(const struct report *rp, const struct node *n)
{
	if (rp->o->folded_calls)
		return n->calls;
	return cost_insns(rp) ? n->self_insns : n->self_ns;
}

const char *weight_unit(const struct report *rp)
{
	if (rp->o->folded_calls)
		return "calls";
	return cost_insns(rp) ? "insns" : "ns";
}

const char *fmt_dur(dcg_u64 ns, char *buf, size_t len)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e3, "µs" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	double v;
	int i;

	if (ns < 1000) {
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
		return buf;
	}
	for (i = 0; i < 2 && ns >= u[i + 1].div; i++)
		;
	v = ns / u[i].div;
	snprintf(buf, len, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" :
		 "%.0f %s", v, u[i].unit);
	return buf;
}

void put_dur(FILE *f, int width, dcg_u64 ns)
{
	char buf[32];

	fmt_dur(ns, buf, sizeof(buf));
	/* "µ" is two bytes and one column */
	fprintf(f, "%*s", width + (strstr(buf, "µ") ? 1 : 0), buf);
}

void put_cost_columns(struct report *rp, dcg_u64 incl_insns,
		      dcg_u64 self_insns, dcg_u64 incl_ns, dcg_u64 self_ns)
{
	put_insns(rp, 13, incl_insns);
	putc(' ', rp->out);
	put_insns(rp, 13, self_insns);
	putc(' ', rp->out);
	put_dur(rp->out, 10, incl_ns);
	putc(' ', rp->out);
	put_dur(rp->out, 10, self_ns);
}

void put_insns(struct report *rp, int width, dcg_u64 insns)
{
	if (have_insns(rp))
		fprintf(rp->out, "%*llu", width, (unsigned long long)insns);
	else
		fprintf(rp->out, "%*s", width, "-");
}

/*
 * Instructions are exact (doc/dcg-report.1 says how they count); the
 * times are wall time of a stepped program, mostly the tracer's.
 */
void print_cost_note(struct report *rp, const char *p)
{
	fprintf(rp->out, "%s%s; times include tracing overhead\n", p,
		have_insns(rp) ? "INSNS: instructions executed"
			       : "no instruction counts (version 1 trace)");
}

/* Machine formats keep stdout clean: what was dropped goes to stderr. */
void note_dropped(struct report *rp)
{
	const struct dcg_reader *r = &rp->rd;
	dcg_u64 n = r->lost;

	if (r->have_stats && r->stats.dropped > n)
		n = r->stats.dropped;
	if (n)
		dcg_warn("%s: dropped: %llu events",
			r->name, (unsigned long long)n);
	if (r->unknown)
		dcg_warn(
			"%s: skipped %llu records of unknown type",
			r->name, (unsigned long long)r->unknown);
	if (r->inexact && have_insns(rp))
		dcg_warn("%s: %s", r->name, inexact_note(rp));
	if (rp->ws.backwards)
		dcg_warn(
			"%s: timestamps out of order: %llu events",
			r->name, (unsigned long long)rp->ws.backwards);
	if (rp->ws.unmatched || rp->ws.resync || rp->ws.unfinished)
		dcg_warn(
			"%s: unmatched returns: %llu, depth resyncs: %llu, unfinished calls: %llu",
			r->name, (unsigned long long)rp->ws.unmatched,
			(unsigned long long)rp->ws.resync,
			(unsigned long long)rp->ws.unfinished);
}

static int bad_trace(struct report *rp)
{
	if (rp->out)
		fflush(rp->out);
	dcg_warn("%s", dcg_reader_error(&rp->rd));
	return 2;
}

/*
 * First pass over a regular file: validate every record and learn the
 * maps and kernel symbols, so that streaming views print nothing for a
 * bad file and symbolize events that come before late MAP records.
 */
static int prescan(struct report *rp)
{
	const struct dcg_rec *rec;
	int rc;

	while ((rc = dcg_reader_next(&rp->rd, &rec)) > 0)
		if (rp->sym && (rec->type == DCG_REC_MAP ||
				rec->type == DCG_REC_KSYM))
			dcg_sym_add_record(rp->sym, rec);
	if (rc < 0)
		return -1;
	return dcg_reader_rewind(&rp->rd);
}

static int replay(struct report *rp, bool scanned)
{
	const struct dcg_rec *rec;
	int rc;

	while ((rc = dcg_reader_next(&rp->rd, &rec)) > 0) {
		switch (rec->type) {
		case DCG_REC_EVENT:
			walk_event(rp, (const void *)rec);
			break;
		case DCG_REC_MAP:
		case DCG_REC_KSYM:
			if (rp->sym && !scanned)
				dcg_sym_add_record(rp->sym, rec);
			break;
		case DCG_REC_EDGE:
			edge_recs_add(&rp->edges, (const void *)rec);
			break;
		case DCG_REC_THREAD:
			walk_thread_rec(rp, (const void *)rec);
			break;
		case DCG_REC_SWITCH:
			walk_switch(rp, (const void *)rec);
			break;
		case DCG_REC_PROFILE:
			walk_profile(rp, (const void *)rec);
			break;
		case DCG_REC_IRQ:
			walk_irq(rp, (const void *)rec);
			break;
		}
	}
	return rc;
}

static int open_output(struct report *rp)
{
	static char obuf[1 << 16];

	rp->out = stdout;
	if (rp->o->output && !(rp->o->max_size && !strcmp(rp->view->name,
							    "chrome"))) {
		rp->out = fopen(rp->o->output, "w");
		if (!rp->out) {
			dcg_warn("%s: %s", rp->o->output,
				strerror(errno));
			return -1;
		}
	}
	setvbuf(rp->out, obuf, _IOFBF, sizeof(obuf));
	return 0;
}

/*
 * Read the trace at @path into @rp: symbols, the walk, the call tree.
 * Streaming views print as it goes.  0, or the exit status after one
 * line on stderr.  The diff view reads its second trace through this.
 */
int report_load(struct report *rp, const char *path)
{
	const struct dcg_rec *rec;
	char err[1024];
	bool scanned = false;
	int rc;

	if (!rp->o->raw) {
		rp->sym = dcg_sym_new(&rp->o->sym, err, sizeof(err));
		if (!rp->sym) {
			dcg_warn("%s", err);
			return dcg_sym_out_of_memory() ? 1 : 2;
		}
	}
	if (dcg_reader_open(&rp->rd, path) < 0) {
		dcg_warn("%s", dcg_reader_error(&rp->rd));
		return 2;
	}
	if (!rp->view->aggregate && dcg_reader_seekable(&rp->rd)) {
		if (prescan(rp) < 0)
			return bad_trace(rp);
		scanned = true;
	}
	/* the header first, so that views can print what it says */
	if (dcg_reader_next(&rp->rd, &rec) <= 0)
		return bad_trace(rp);
	rp->start_ns = rp->rd.header.start_ns;
	/* a filter that could only ever show nothing is a mistake */
	if (rp->o->ret_filter && !dcg_reader_has_args(&rp->rd)) {
		dcg_warn("%s: --retval PRED: the trace has no return values (format version %u)",
			rp->rd.name, rp->rd.header.version);
		return 2;
	}
	if (rp->view->aggregate)
		tree_init(&rp->tree);
	/* aggregating views create -o FILE only once the trace is good */
	if (!rp->view->aggregate && open_output(rp) < 0)
		return 2;	/* -o FILE cannot be created */
	if (rp->view->start && rp->view->start(rp) < 0)
		return 1;
	rc = replay(rp, scanned);
	if (rc < 0)
		return bad_trace(rp);
	walk_finish(rp);
	edge_recs_finish(&rp->edges);
	return 0;
}

/* Every producer ends a trace with STATS: without it, it was cut. */
int report_incomplete(struct report *rp)
{
	dcg_warn(
		"%s: trace is incomplete: no end record (%llu events read)",
		rp->rd.name, (unsigned long long)rp->rd.count[DCG_REC_EVENT]);
	return 3;
}

void report_free(struct report *rp)
{
	walk_free(rp);
	free(rp->edges.e);
	prof_runs_free(&rp->prof);
	if (rp->view->aggregate)
		tree_free(&rp->tree);
	dcg_sym_free(rp->sym);
	dcg_reader_close(&rp->rd);
}

/* The view the command line names, and what it asks of the options. */
static const struct view *pick_view(struct options *o)
{
	const struct view *v = NULL;
	size_t i;

	for (i = 0; i < DCG_ARRAY_SIZE(views); i++)
		if (!strcmp(views[i]->name, o->view))
			v = views[i];
	if (!v)
		usage_error("unknown view '%s'", o->view);
	if (v->wants_srcline && !o->sym.srcline) {
		o->sym.srcline = true;
		o->sym.srcline_implied = true;
	}
	if (o->input2 && !v->second_input)
		usage_error("unexpected argument '%s'", o->input2);
	if (!o->input2 && v->second_input)
		usage_error("%s: two trace files are needed", o->view);
	if (o->input2 && !strcmp(o->input, "-") && !strcmp(o->input2, "-"))
		usage_error("%s: standard input can be only one of the traces",
			    o->view);
	return v;
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct report rp;
	int rc;

	dcg_progname = "dcg-report";
	parse_args(&o, argc, argv);
	rp.o = &o;
	rp.view = pick_view(&o);
	rc = report_load(&rp, o.input);
	if (rc)
		return rc;
	if (o.cost == COST_INSNS && !have_insns(&rp)) {
		dcg_warn("--cost insns: %s is a version 1 trace, without instruction counts",
			o.input);
		return 2;
	}
	if (rp.view->prepare && (rc = rp.view->prepare(&rp)) != 0)
		return rc;
	if (rp.view->aggregate && open_output(&rp) < 0)
		return 2;	/* -o FILE cannot be created */
	rc = rp.view->finish ? rp.view->finish(&rp) : 0;
	if (fflush(rp.out) || ferror(rp.out)) {
		dcg_warn("write error: %s", strerror(errno));
		rc = 1;
	}
	if ((!rc || rc == 3) && !rp.rd.have_stats)
		rc = report_incomplete(&rp);
	if (dcg_sym_out_of_memory()) {
		dcg_warn("out of memory: names that could not be kept read [out of memory]");
		rc = 1;
	}
	if (rp.out != stdout)
		fclose(rp.out);
	report_free(&rp);
	return rc;
}
