/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what the dcg-report views share.
 *
 * main.c reads the trace with the one reader and feeds every event to
 * the walker (walk.c).  The walker keeps a shadow stack per thread,
 * applies the filters, and calls the view's enter/leave hooks in a
 * properly nested order.  Aggregating views build the per-path call
 * tree (tree.c) from those hooks and print at the end; streaming views
 * print from the hooks.
 */
#ifndef DCG_REPORT_H
#define DCG_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "dcg_event.h"
#include "trace_read.h"
#include "symbolize.h"
#include "names.h"
#include "util.h"

#define MAX_GLOBS 32

struct options {
	const char *view;
	const char *input;
	const char *input2;		/* diff: the second trace (B) */
	const char *output;		/* -o; NULL = stdout */
	dcg_u32 tids[64];
	unsigned int ntids;
	const char *include[MAX_GLOBS];
	unsigned int ninclude;
	const char *exclude[MAX_GLOBS];
	unsigned int nexclude;
	unsigned int max_depth;		/* 0 = no limit */
	dcg_u64 min_duration;		/* ns; 0 = off */
	dcg_u64 from, to;		/* time window, ns from trace start */
	bool have_from, have_to;
	dcg_u64 threshold;		/* hot: calls per activation */
	bool svg;			/* dot */
	bool speedscope;		/* folded */
	bool folded_calls;		/* folded: weights are calls, not ns */
	dcg_u64 max_size;		/* chrome: split output files */
	bool raw;			/* no symbolization */
	bool show_plt;			/* PLT stubs and lazy binding as
					 * they ran, not folded */
	int cost;			/* COST_* */
	int args, retval;		/* --args, --retval: 1 on, 0 off,
					 * -1 as the trace has them */
	bool ret_filter;		/* --retval PRED */
	int ret_op;			/* RET_* */
	long long ret_val;		/* PRED's N, as a signed 64-bit */
	struct dcg_symopts sym;
};

/* --retval PRED's comparison */
enum { RET_LT, RET_LE, RET_GT, RET_GE, RET_EQ, RET_NE };

/* A call's register block, its strings copied (walk.c). */
struct frame_args {
	struct dcg_ev_argv a;		/* a.str[].bytes point into buf */
	char buf[];
};

/* --cost: what views weigh by (folded, flame, dot heat) */
#define COST_AUTO	0	/* instructions when the trace has them */
#define COST_INSNS	1
#define COST_TIME	2

/* One frame of a thread's shadow stack, as the walker sees it. */
struct frame {
	struct dcg_rec_event ev;	/* the event that opened it */
	dcg_u64 seq;			/* the thread's event number */
	dcg_u64 child_ns;		/* time of visible children */
	dcg_u64 child_insns;		/* instructions of visible children */
	dcg_u32 node;			/* call-tree node, when announced */
	dcg_s32 vparent;		/* index of nearest visible ancestor */
	dcg_u32 vdepth;			/* visible depth, 1 = outermost */
	bool visible;			/* passes the filters */
	bool announced;			/* enter hook has run */
	bool excluded;			/* inside an --exclude subtree */
	bool included;			/* inside an --include subtree */
	bool placeholder;		/* made up to fill a depth gap */
	bool tail;			/* entered by a tail call: a child
					 * of the frame that jumped, on the
					 * same recorded level, and ends
					 * with it */
	bool tail_ended;		/* ending because its tail-callee
					 * returned: the RET is the callee's */
	bool plt_pending;		/* a PLT stub whose jump to its
					 * target has not come yet */
	bool plt;			/* called through a PLT stub, now
					 * named by the target */
	bool in_lazy;			/* the dynamic linker's lazy binding
					 * under a PLT stub: folded into one
					 * "[lazy binding]" node */
	dcg_u64 lazy_start, lazy_end;	/* plt_pending: lazy binding seen */
	dcg_u64 lazy_start_ic, lazy_end_ic;	/* and its insns counts */
	struct frame_args *args;	/* the call's registers, or NULL */
	bool has_ret;			/* ret[] holds what it returned */
	dcg_u8 nret;
	dcg_u64 ret[DCG_RETS_MAX];	/* rax, rdx */
	dcg_u32 level;			/* recorded depth of this frame */
	dcg_u32 span;			/* levels it stands for: 1, or a
					 * placeholder's whole gap */
};

struct thread {
	dcg_u32 tid;
	dcg_u64 seq;			/* events seen for this thread */
	dcg_u64 last_ts;
	char comm[16];			/* from its THREAD records, NUL-padded */
	bool named;			/* comm is set */
	dcg_u64 last_insns;		/* the last event's instruction count */
	struct frame *stack;
	dcg_u32 depth, cap;		/* frames in stack[], not levels:
					 * one placeholder fills a gap */
};

struct report;

/*
 * A view.  enter() runs when a visible frame is shown, leave() when it
 * ends: @ret is the RET or TAILCALL event that ended it, or NULL when
 * the trace ended or lost sync first.  orphan() gets RETs that match no
 * frame.  finish() prints aggregate output and footers.
 */
struct view {
	const char *name;
	bool aggregate;			/* builds the call tree */
	int (*start)(struct report *rp);
	void (*enter)(struct report *rp, struct thread *t, struct frame *f);
	void (*leave)(struct report *rp, struct thread *t, struct frame *f,
		      const struct dcg_rec_event *ret, dcg_u64 end_ts,
		      dcg_u64 insns);	/* the frame's inclusive count */
	void (*orphan)(struct report *rp, struct thread *t,
		       const struct dcg_rec_event *ev);
	/* a context switch of @t (kernel traces), may be NULL */
	void (*on_switch)(struct report *rp, struct thread *t,
			  const struct dcg_rec_switch *sw);
	/* interrupts between two stops of @t (kernel traces), may be NULL */
	void (*on_irq)(struct report *rp, struct thread *t,
		       const struct dcg_rec_irq *q);
	/*
	 * After the trace is read, before -o FILE is created: reads what
	 * else the view needs (diff: the second trace), so that bad input
	 * leaves no output file.  0, or the exit status.
	 */
	int (*prepare)(struct report *rp);
	int (*finish)(struct report *rp);
	bool second_input;		/* takes two trace files */
	bool raw_events;		/* one line per event: PLT stubs and
					 * lazy binding are not folded */
	bool wants_srcline;		/* symbolize with file:line */
	bool wants_profile;		/* PROFILE records into rp->prof */
};

/* The per-path call tree: node 0 is the virtual root above all roots. */
struct node {
	dcg_u64 func;
	dcg_u32 parent;
	dcg_u32 first_child, last_child, next_sibling;
	dcg_u8 kind;			/* DCG_EV_CALL/ASYNC/TAILCALL of first */
	bool async;
	dcg_u32 span;			/* 0, or levels of a placeholder */
	dcg_u64 site;			/* first call's call site (from) */
	dcg_u32 depth;
	dcg_u64 calls;
	dcg_u64 incl_ns;
	dcg_u64 self_ns;
	dcg_u64 min_ns, max_ns;
	dcg_u64 incl_insns;		/* instructions, as the times */
	dcg_u64 self_insns;
};

struct tree {
	struct node *nodes;
	dcg_u32 n, cap;
	dcg_u32 *hash;			/* node ids, 0 = empty */
	dcg_u32 hcap;
};

/* Totals over the walk, for footers. */
struct walk_stats {
	dcg_u64 events;			/* event records read */
	dcg_u64 shown;			/* frames announced */
	dcg_u64 unmatched;		/* RETs with no frame */
	dcg_u64 resync;			/* frames popped/pushed to match depth */
	dcg_u64 unfinished;		/* frames still open at the end */
	dcg_u64 synthetic;		/* synthetic RETs */
	dcg_u64 filtered_tid;		/* events of other threads */
	dcg_u64 backwards;		/* events earlier than the thread's
					 * previous one (durations of 0) */
};

/* EDGE records: the tapset's in-module (caller, callee) -> count table. */
struct edge_rec {
	dcg_u64 caller;			/* function entry, 0 = root */
	dcg_u64 callee;
	dcg_u64 count;
};

struct edge_recs {
	struct edge_rec *e;
	dcg_u32 n, cap;
};

/*
 * PROFILE records (dcg-trace --annotate): how often each straight-line
 * run (start, ninsns) ran, summed over the trace's windows.
 */
struct prof_run {
	dcg_u64 start;
	dcg_u32 ninsns;
	dcg_u64 count;
};

struct prof_runs {
	struct prof_run *e;		/* open addressing, count 0 = free */
	dcg_u32 n, cap;
	dcg_u64 records;		/* PROFILE records taken */
	dcg_u64 dropped;		/* their dropped insns */
};

void prof_runs_add(struct prof_runs *pr, const struct dcg_rec_profile *p);
void prof_runs_free(struct prof_runs *pr);

struct report {
	struct options *o;
	const struct view *view;
	struct dcg_reader rd;
	struct dcg_symbolizer *sym;
	FILE *out;

	struct thread *threads;
	dcg_u32 nthreads, threads_cap;
	struct thread *last_thread;
	dcg_u32 *thread_slots;		/* tid hash, thread index + 1 */
	dcg_u32 slots_cap;

	struct tree tree;
	struct edge_recs edges;
	struct prof_runs prof;		/* views with wants_profile */
	struct walk_stats ws;
	dcg_u32 *chain;			/* announce(): frames to show */
	dcg_u32 chain_cap;
	dcg_u64 start_ns;
	void *view_data;
	/* the event being walked and its register block (walk.c) */
	const struct dcg_rec_event *cur_ev;
	struct dcg_ev_argv cur_args;
};

/* walk.c */
void walk_event(struct report *rp, const struct dcg_rec_event *ev);
void walk_thread_rec(struct report *rp, const struct dcg_rec_thread *tr);
void walk_finish(struct report *rp);
void walk_free(struct report *rp);
dcg_u64 rel_ts(const struct report *rp, dcg_u64 ts);
void walk_switch(struct report *rp, const struct dcg_rec_switch *sw);
void walk_irq(struct report *rp, const struct dcg_rec_irq *q);
void walk_profile(struct report *rp, const struct dcg_rec_profile *p);

/* args.c: arguments and return values as the source would show them */
bool show_args(const struct report *rp);	/* --args, v3 trace */
bool show_retval(const struct report *rp);	/* --retval, v3 trace */
/* one argument: "name" and its value text ("-3", "\"abc\"", "{...}") */
struct arg_text {
	char name[64];
	char *value;			/* in one block: args_free() */
};
/*
 * The frame's arguments in order, typed by the callee's DWARF, else
 * arg1.. in hex; *@more when some were not captured.  Free with
 * args_free().  0 when the call carries none.
 */
unsigned int args_get(struct report *rp, const struct frame *f,
		      struct arg_text **out, bool *more);
void args_free(struct arg_text *a, unsigned int n);
/* "(a=1, b=\"x\")" into a malloc'd string, "" when none */
char *args_paren(struct report *rp, const struct frame *f);
/* the return value's text into @buf, false when there is none */
bool retval_text(struct report *rp, const struct frame *f, char *buf,
		 size_t len);
/* does the frame's return match --retval PRED? */
bool retval_matches(struct report *rp, const struct frame *f);
/* parse PRED into @o; false if it is not one */
bool retval_parse(struct options *o, const char *pred);

/* tree.c */
void tree_init(struct tree *t);
void tree_free(struct tree *t);
/* @span: 0 for a function, the levels of a placeholder (func 0) */
dcg_u32 tree_child(struct tree *t, dcg_u32 parent, dcg_u64 func, bool async,
		   dcg_u32 span);
/* visit nodes depth-first, children in order of first appearance */
typedef void (*tree_visit_fn)(struct report *rp, struct node *n,
			      dcg_u32 id, void *arg);
void tree_walk(struct report *rp, tree_visit_fn fn, void *arg);
/* the same, with the node ids from the outermost down to @id */
typedef void (*tree_path_fn)(struct report *rp, const dcg_u32 *path,
			     dcg_u32 npath, void *arg);
void tree_walk_path(struct report *rp, tree_path_fn fn, void *arg);

/*
 * Deep traces: text views indent at most INDENT_LEVELS levels and print
 * "[depth N]" past that; folded stacks keep the FOLD_OUTER outermost
 * and FOLD_INNER innermost frames of a longer path, with one
 * "[N frames]" frame for the rest.  Output stays linear in the input.
 */
#define INDENT_LEVELS	40
#define FOLD_OUTER	64
#define FOLD_INNER	63
void indent(struct report *rp, dcg_u32 depth);

void edge_recs_add(struct edge_recs *er, const struct dcg_rec_edge *r);
/* merge duplicates; order by count, largest first */
void edge_recs_finish(struct edge_recs *er);
void edge_recs_print(struct report *rp, const char *prefix);

/* Function-level aggregates derived from the tree (dot, hot, callgrind). */
struct func_stat {
	dcg_u64 func;
	bool async;
	dcg_u64 calls;
	dcg_u64 incl_ns;		/* outermost activations only */
	dcg_u64 self_ns;
	dcg_u64 incl_insns;		/* outermost activations only */
	dcg_u64 self_insns;
	dcg_u32 order;			/* first appearance */
};

struct edge_stat {
	dcg_u32 caller, callee;		/* indexes into funcs[]; caller may
					 * be NO_FUNC for roots */
	dcg_u64 calls;
	dcg_u64 incl_ns;		/* outermost activations only */
	dcg_u64 incl_insns;		/* outermost activations only */
	dcg_u64 all_insns;		/* every call's inclusive count, as
					 * callgrind's call costs */
	dcg_u64 all_ns;			/* the same for time */
	dcg_u64 site;			/* a call site of the edge, 0 if none */
};

#define NO_FUNC 0xffffffffu

struct func_table {
	struct func_stat *funcs;
	dcg_u32 nfuncs;
	struct edge_stat *edges;
	dcg_u32 nedges;
	dcg_u32 *node_func;		/* node id -> funcs[] index */
};

void func_table_build(struct report *rp, struct func_table *ft);
void func_table_free(struct func_table *ft);

/*
 * main.c: names and output helpers shared by the views.  A name is
 * written into the caller's struct name_buf (a function's name cut at
 * DCG_NAME_LEN, a node's with its " [async]" or frames suffix), so
 * that any number of them can be live at once.
 */
struct name_buf {
	char s[1100];
};
/* with +0xOFF when @addr is not the function's entry */
const char *func_name(struct report *rp, dcg_u64 addr, struct name_buf *b);
/* without the offset */
const char *func_base_name(struct report *rp, dcg_u64 addr,
			   struct name_buf *b);
bool func_is_plt_stub(struct report *rp, dcg_u64 addr);

/* The lazy binding node of folded PLT calls (walk.c): names.h. */
#define LAZY_BINDING_ADDR	DCG_LAZY_BINDING_ADDR
const char *node_name(struct report *rp, const struct node *n,
		      struct name_buf *b);
void print_footer(struct report *rp, const char *prefix);
/* the cost views weigh by: true for instructions, false for time */
bool cost_insns(const struct report *rp);
bool have_insns(const struct report *rp);	/* trace version >= 2 */
/* "12 ns", "1.50 µs", "760 ms", "2.18 s": 3 significant digits */
const char *fmt_dur(dcg_u64 ns, char *buf, size_t len);
/* right-aligned in @width columns (µs counts as one) */
void put_dur(FILE *f, int width, dcg_u64 ns);
/* the insns count, or "-" when the trace has none */
void put_insns(struct report *rp, int width, dcg_u64 insns);
/* graph and hot: INSNS SELF-INSNS TIME SELF-TIME, space-separated */
void put_cost_columns(struct report *rp, dcg_u64 incl_insns,
		      dcg_u64 self_insns, dcg_u64 incl_ns, dcg_u64 self_ns);
/* folded, flame: a path's own weight (--calls, --cost) and its unit */
dcg_u64 node_weight(const struct report *rp, const struct node *n);
const char *weight_unit(const struct report *rp);
/* the line under every text view's header */
void print_cost_note(struct report *rp, const char *prefix);
void note_dropped(struct report *rp);	/* stderr, for machine formats */
const char *inexact_note(struct report *rp);	/* counts: lower bounds */
/* read a trace into @rp (o and view set): 0 or the exit status */
int report_load(struct report *rp, const char *path);
int report_incomplete(struct report *rp);	/* the line; returns 3 */
void report_free(struct report *rp);
const char *flag_names(unsigned int flags, const char *sep, char *buf,
		       size_t len);

extern const struct view view_trace, view_graph, view_hot, view_dot,
	view_folded, view_chrome, view_callgrind, view_csv, view_jsonl,
	view_diff, view_flame;

#endif /* DCG_REPORT_H */
