// SPDX-License-Identifier: GPL-2.0
/*
 * view-csv.c - one event per line, as CSV or JSON lines.
 *
 * Columns: tid, seq (the thread's event number, from 1), type (call,
 * ret, tailcall, async), depth (as recorded), from, to, caller, callee,
 * flags ('|'-separated), ts (ns from the trace start), and for a
 * version 2 trace insns (the thread's instruction counter at the event:
 * a call's inclusive count is its RET's minus its own).  For a RET the
 * caller is the function returned to and the callee the one that
 * returned, so a call and its return carry the same pair.
 * A version 3 trace adds args (a call's "name=value, ..." as the trace
 * view shows them) and retval (a ret's value) unless --no-args or
 * --no-retval; in jsonl, "args" is a list of {"name","value"} objects
 * (value as text, as the trace view shows it; "more":true when some
 * were not recorded) and "retval" a string, each only where there is
 * one.
 * A frame still open at the end of the trace has no ret line.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct line {
	dcg_u32 tid;
	dcg_u64 seq;
	const struct dcg_rec_event *ev;
	const char *caller, *callee;
	const struct frame *call;	/* a call's frame: its arguments */
	const struct frame *ret;	/* a ret's frame: its value */
};

/* The call's "a=1, b=2" for csv, without the parentheses. */
static void csv_args(struct report *rp, const struct line *l)
{
	char *a, *inner;
	size_t n;

	putc(',', rp->out);
	if (!l->call || !l->call->args)
		return;
	a = args_paren(rp, l->call);
	n = strlen(a);
	inner = a;
	if (n >= 2) {
		a[n - 1] = '\0';
		inner = a + 1;
	}
	dcg_put_csv(rp->out, inner);
	free(a);
}

static void csv_retval(struct report *rp, const struct line *l)
{
	char rv[8192];

	putc(',', rp->out);
	if (l->ret && retval_text(rp, l->ret, rv, sizeof(rv)))
		dcg_put_csv(rp->out, rv);
}

static void jsonl_args(struct report *rp, const struct line *l)
{
	struct arg_text *a;
	unsigned int n, i;
	bool more;
	char rv[8192];

	if (show_args(rp) && l->call && l->call->args) {
		n = args_get(rp, l->call, &a, &more);
		fputs(",\"args\":[", rp->out);
		for (i = 0; i < n; i++) {
			fputs(i ? ",{\"name\":" : "{\"name\":", rp->out);
			dcg_put_json(rp->out, a[i].name);
			fputs(",\"value\":", rp->out);
			dcg_put_json(rp->out, a[i].value);
			putc('}', rp->out);
		}
		putc(']', rp->out);
		if (more)
			fputs(",\"more\":true", rp->out);
		args_free(a, n);
	}
	if (l->ret && retval_text(rp, l->ret, rv, sizeof(rv))) {
		fputs(",\"retval\":", rp->out);
		dcg_put_json(rp->out, rv);
	}
}

static void csv_line(struct report *rp, const struct line *l)
{
	FILE *f = rp->out;
	char flags[128];

	fprintf(f, "%u,%llu,%s,%u,0x%llx,0x%llx,", l->tid,
		(unsigned long long)l->seq, dcg_ev_kind_name(l->ev->kind),
		l->ev->depth, (unsigned long long)l->ev->from,
		(unsigned long long)l->ev->to);
	dcg_put_csv(f, l->caller);
	putc(',', f);
	dcg_put_csv(f, l->callee);
	fprintf(f, ",%s,%llu", flag_names(l->ev->flags, "|", flags,
					  sizeof(flags)),
		(unsigned long long)rel_ts(rp, l->ev->ts));
	if (have_insns(rp))
		fprintf(f, ",%llu", (unsigned long long)l->ev->insns);
	if (show_args(rp))
		csv_args(rp, l);
	if (show_retval(rp))
		csv_retval(rp, l);
	putc('\n', f);
}

static void jsonl_line(struct report *rp, const struct line *l)
{
	FILE *f = rp->out;
	char flags[128];

	fprintf(f, "{\"tid\":%u,\"seq\":%llu,\"type\":\"%s\",\"depth\":%u,"
		"\"from\":\"0x%llx\",\"to\":\"0x%llx\",\"caller\":", l->tid,
		(unsigned long long)l->seq, dcg_ev_kind_name(l->ev->kind),
		l->ev->depth, (unsigned long long)l->ev->from,
		(unsigned long long)l->ev->to);
	dcg_put_json(f, l->caller);
	fputs(",\"callee\":", f);
	dcg_put_json(f, l->callee);
	fputs(",\"flags\":", f);
	dcg_put_json(f, flag_names(l->ev->flags, "|", flags, sizeof(flags)));
	fprintf(f, ",\"ts\":%llu", (unsigned long long)rel_ts(rp, l->ev->ts));
	if (have_insns(rp))
		fprintf(f, ",\"insns\":%llu", (unsigned long long)l->ev->insns);
	jsonl_args(rp, l);
	fputs("}\n", f);
}

static void emit(struct report *rp, const struct line *l)
{
	if (rp->view == &view_csv)
		csv_line(rp, l);
	else
		jsonl_line(rp, l);
}

static int start(struct report *rp)
{
	if (rp->view == &view_csv)
		fprintf(rp->out, "%s%s%s%s\n",
			"tid,seq,type,depth,from,to,caller,callee,flags,ts",
			have_insns(rp) ? ",insns" : "",
			show_args(rp) ? ",args" : "",
			show_retval(rp) ? ",retval" : "");
	return 0;
}

static void enter(struct report *rp, struct thread *t, struct frame *f)
{
	struct line l = { t->tid, f->seq, &f->ev, NULL, NULL, f, NULL };
	struct name_buf caller, callee;

	if (f->placeholder)
		return;
	l.caller = func_base_name(rp, f->ev.from, &caller);
	l.callee = func_name(rp, f->ev.to, &callee);
	emit(rp, &l);
}

static void leave(struct report *rp, struct thread *t, struct frame *f,
		  const struct dcg_rec_event *ret, dcg_u64 end_ts,
		  dcg_u64 insns)
{
	struct line l = { t->tid, t->seq, ret, NULL, NULL, NULL, f };
	struct name_buf caller, callee;

	/* one line per RET: the tail-callee's, not its jumper's too */
	if (!ret || ret->kind != DCG_EV_RET || f->tail_ended)
		return;
	l.caller = func_base_name(rp, ret->to, &caller);
	l.callee = f->placeholder ? func_base_name(rp, ret->from, &callee)
				  : func_name(rp, f->ev.to, &callee);
	emit(rp, &l);
}

static void orphan(struct report *rp, struct thread *t,
		   const struct dcg_rec_event *ev)
{
	struct line l = { t->tid, t->seq, ev, NULL, NULL, NULL, NULL };
	struct name_buf caller, callee;

	l.caller = func_base_name(rp, ev->to, &caller);
	l.callee = func_base_name(rp, ev->from, &callee);
	emit(rp, &l);
}

static int finish(struct report *rp)
{
	note_dropped(rp);
	return 0;
}

const struct view view_csv = {
	.name = "csv", .start = start, .enter = enter, .leave = leave,
	.orphan = orphan, .finish = finish, .raw_events = true,
};

const struct view view_jsonl = {
	.name = "jsonl", .start = start, .enter = enter, .leave = leave,
	.orphan = orphan, .finish = finish, .raw_events = true,
};
