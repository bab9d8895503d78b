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
 * A frame still open at the end of the trace has no ret line.
 */
#include "report.h"

struct line {
	dcg_u32 tid;
	dcg_u64 seq;
	const struct dcg_rec_event *ev;
	const char *caller, *callee;
};

static void csv_line(struct report *rp, const struct line *l)
{
	FILE *f = rp->out;
	char flags[128];

	fprintf(f, "%u,%llu,%s,%u,0x%llx,0x%llx,", l->tid,
		(unsigned long long)l->seq, dcg_ev_kind_name(l->ev->kind),
		l->ev->depth, (unsigned long long)l->ev->from,
		(unsigned long long)l->ev->to);
	csv_field(f, l->caller);
	putc(',', f);
	csv_field(f, l->callee);
	fprintf(f, ",%s,%llu", flag_names(l->ev->flags, "|", flags,
					  sizeof(flags)),
		(unsigned long long)rel_ts(rp, l->ev->ts));
	if (have_insns(rp))
		fprintf(f, ",%llu", (unsigned long long)l->ev->insns);
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
	json_string(f, l->caller);
	fputs(",\"callee\":", f);
	json_string(f, l->callee);
	fputs(",\"flags\":", f);
	json_string(f, flag_names(l->ev->flags, "|", flags, sizeof(flags)));
	fprintf(f, ",\"ts\":%llu", (unsigned long long)rel_ts(rp, l->ev->ts));
	if (have_insns(rp))
		fprintf(f, ",\"insns\":%llu", (unsigned long long)l->ev->insns);
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
		fputs(have_insns(rp) ?
		      "tid,seq,type,depth,from,to,caller,callee,flags,ts,insns\n" :
		      "tid,seq,type,depth,from,to,caller,callee,flags,ts\n",
		      rp->out);
	return 0;
}

static void enter(struct report *rp, struct thread *t, struct frame *f)
{
	struct line l = { t->tid, f->seq, &f->ev, NULL, NULL };

	if (f->placeholder)
		return;
	l.caller = func_base_name(rp, f->ev.from);
	l.callee = func_name(rp, f->ev.to);
	emit(rp, &l);
}

static void leave(struct report *rp, struct thread *t, struct frame *f,
		  const struct dcg_rec_event *ret, dcg_u64 end_ts,
		  dcg_u64 insns)
{
	struct line l = { t->tid, t->seq, ret, NULL, NULL };

	/* one line per RET: the tail-callee's, not its jumper's too */
	if (!ret || ret->kind != DCG_EV_RET || f->tail_ended)
		return;
	l.caller = func_base_name(rp, ret->to);
	l.callee = f->placeholder ? func_base_name(rp, ret->from)
				  : func_name(rp, f->ev.to);
	emit(rp, &l);
}

static void orphan(struct report *rp, struct thread *t,
		   const struct dcg_rec_event *ev)
{
	struct line l = { t->tid, t->seq, ev, NULL, NULL };

	l.caller = func_base_name(rp, ev->to);
	l.callee = func_base_name(rp, ev->from);
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
