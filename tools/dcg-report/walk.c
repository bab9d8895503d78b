// SPDX-License-Identifier: GPL-2.0
/*
 * walk.c - replay the events of each thread on a shadow stack, apply
 * the filters, and drive the view's enter/leave hooks.
 *
 * The event's depth field is trusted over our own stack: when they
 * disagree (lost events, a window opened mid-function) the stack is cut
 * or padded with placeholder frames to the recorded depth and the
 * difference is counted, so one lost event cannot skew the rest.
 *
 * --min-duration needs to know a frame's duration before showing its
 * call, and --retval PRED its return value, so then visible frames are
 * announced lazily: a frame is announced when it or a descendant ends
 * having lasted long enough and returned a matching value (args.c),
 * outermost first.  Memory stays proportional to the depth, not the
 * trace.  A call's argument registers are copied into its frame (for
 * the views that print them), and a RET's values into the frame it
 * ends, before the view's leave hook runs.
 *
 * PLT calls are folded (not with --show-plt, nor in the per-event csv
 * and jsonl): a call to a stub waits, unannounced, for the stub's jump
 * to its target and is then named by the target, flagged "plt".  What
 * runs under the stub before that jump is the dynamic linker's lazy
 * binding (_dl_runtime_resolve calling _dl_fixup): hidden, and shown as
 * one "[lazy binding]" child of the target.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

dcg_u64 rel_ts(const struct report *rp, dcg_u64 ts)
{
	return ts >= rp->start_ns ? ts - rp->start_ns : ts;
}

/* tid -> thread through an open-addressing index (slot = index + 1). */
static void thread_index_rebuild(struct report *rp)
{
	dcg_u32 i;

	free(rp->thread_slots);
	rp->thread_slots = xcalloc(rp->slots_cap, sizeof(*rp->thread_slots));
	for (i = 0; i < rp->nthreads; i++) {
		dcg_u32 h = rp->threads[i].tid * 0x9e3779b1u;

		while (rp->thread_slots[h & (rp->slots_cap - 1)])
			h++;
		rp->thread_slots[h & (rp->slots_cap - 1)] = i + 1;
	}
}

static struct thread *find_thread(struct report *rp, dcg_u32 tid)
{
	struct thread *t;
	dcg_u32 h = tid * 0x9e3779b1u, slot;

	if (rp->last_thread && rp->last_thread->tid == tid)
		return rp->last_thread;
	for (; rp->slots_cap; h++) {
		slot = rp->thread_slots[h & (rp->slots_cap - 1)];
		if (!slot)
			break;
		if (rp->threads[slot - 1].tid == tid)
			return rp->last_thread = &rp->threads[slot - 1];
	}
	if (rp->nthreads == rp->threads_cap) {
		rp->threads_cap = rp->threads_cap ? 2 * rp->threads_cap : 8;
		rp->threads = xrealloc(rp->threads,
				       rp->threads_cap * sizeof(*t));
	}
	t = &rp->threads[rp->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	if (2 * rp->nthreads > rp->slots_cap) {
		rp->slots_cap = rp->slots_cap ? 2 * rp->slots_cap : 64;
		thread_index_rebuild(rp);
	} else {
		for (h = tid * 0x9e3779b1u;
		     rp->thread_slots[h & (rp->slots_cap - 1)]; h++)
			;
		rp->thread_slots[h & (rp->slots_cap - 1)] = rp->nthreads;
	}
	return rp->last_thread = t;
}

static bool tid_wanted(const struct options *o, dcg_u32 tid)
{
	unsigned int i;

	if (!o->ntids)
		return true;
	for (i = 0; i < o->ntids; i++)
		if (o->tids[i] == tid)
			return true;
	return false;
}

/* A PROFILE record of a thread the report shows (--tid). */
void walk_profile(struct report *rp, const struct dcg_rec_profile *p)
{
	if (rp->view->wants_profile && tid_wanted(rp->o, p->r.tid))
		prof_runs_add(&rp->prof, p);
}

static bool glob_any(const char *const *globs, unsigned int n,
		     const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return true;
	return false;
}

/*
 * Does a glob match the function at @addr?  An async frame starts
 * inside a function and is named "handler+0x10": "handler" must match
 * it, and so must a glob written for the offset form.
 */
static bool glob_func(struct report *rp, const char *const *globs,
		      unsigned int n, dcg_u64 addr)
{
	struct name_buf nb;

	return glob_any(globs, n, func_base_name(rp, addr, &nb)) ||
	       glob_any(globs, n, func_name(rp, addr, &nb));
}

/* Calls are shown when they end (--min-duration, --retval PRED). */
static bool lazy(const struct report *rp)
{
	return rp->o->min_duration || rp->o->ret_filter;
}

/* A copy of the current event's argument registers and strings. */
static struct frame_args *copy_args(const struct dcg_ev_argv *a)
{
	struct frame_args *fa;
	size_t len = 0, pos = 0;
	unsigned int i;

	for (i = 0; i < a->nstr; i++)
		len += a->str[i].len;
	fa = xmalloc(sizeof(*fa) + len + 1);
	fa->a = *a;
	for (i = 0; i < a->nstr; i++) {
		memcpy(fa->buf + pos, a->str[i].bytes, a->str[i].len);
		fa->a.str[i].bytes = fa->buf + pos;
		pos += a->str[i].len;
	}
	return fa;
}

static bool fold_plt(const struct report *rp)
{
	return !rp->o->show_plt && !rp->view->raw_events;
}

static void announce_one(struct report *rp, struct thread *t, dcg_u32 idx)
{
	struct frame *f = &t->stack[idx];

	if (rp->view->aggregate) {
		dcg_u32 pnode = f->vparent >= 0 ? t->stack[f->vparent].node : 0;

		f->node = tree_child(&rp->tree, pnode, f->ev.to,
				     f->ev.kind == DCG_EV_ASYNC,
				     f->placeholder ? f->span : 0);
		if (!rp->tree.nodes[f->node].site)
			rp->tree.nodes[f->node].site = f->ev.from;
	}
	f->announced = true;
	rp->ws.shown++;
	if (rp->view->enter)
		rp->view->enter(rp, t, f);
}

/*
 * Show a frame and, first, its visible ancestors not yet shown.  A loop
 * and a list rather than recursion: the chain can be as deep as the
 * trace.
 */
static void announce(struct report *rp, struct thread *t, dcg_u32 idx)
{
	dcg_u32 n = 0;
	dcg_s32 i;

	for (i = idx; i >= 0 && !t->stack[i].announced;
	     i = t->stack[i].vparent) {
		if (n == rp->chain_cap) {
			rp->chain_cap = rp->chain_cap ? 2 * rp->chain_cap : 64;
			rp->chain = xrealloc(rp->chain, rp->chain_cap *
					     sizeof(*rp->chain));
		}
		rp->chain[n++] = i;
	}
	while (n--)
		announce_one(rp, t, rp->chain[n]);
}

/* Recorded depth of the innermost frame, 0 for an empty stack. */
static dcg_u32 top_level(const struct thread *t)
{
	return t->depth ? t->stack[t->depth - 1].level : 0;
}

/* --exclude, --include, --depth, --from and --to, by f->ev.to's name. */
static void apply_filters(struct report *rp, struct frame *f,
			  const struct frame *up)
{
	const struct options *o = rp->o;
	dcg_u64 ts = rel_ts(rp, f->ev.ts);

	f->excluded = up && up->excluded;
	f->included = up ? up->included : !o->ninclude;
	if (!f->placeholder && o->nexclude &&
	    glob_func(rp, o->exclude, o->nexclude, f->ev.to))
		f->excluded = true;
	if (!f->placeholder && o->ninclude &&
	    glob_func(rp, o->include, o->ninclude, f->ev.to))
		f->included = true;
	/* a placeholder shows if its outermost level does */
	f->visible = !f->excluded && f->included && !f->in_lazy &&
		     (!o->max_depth || f->vdepth - f->span < o->max_depth) &&
		     (!o->have_from || ts >= o->from) &&
		     (!o->have_to || ts <= o->to);
}

/* @span: 0 for the event's own frame, else a placeholder's levels. */
static void push(struct report *rp, struct thread *t,
		 const struct dcg_rec_event *ev, dcg_u32 span)
{
	bool placeholder = span != 0;
	struct frame *f, *up;

	if (t->depth == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->stack = xrealloc(t->stack, (size_t)t->cap * sizeof(*f));
	}
	up = t->depth ? &t->stack[t->depth - 1] : NULL;
	f = &t->stack[t->depth++];
	memset(f, 0, sizeof(*f));
	f->ev = *ev;
	f->ev.r.size = sizeof(f->ev);	/* the copy has no block after it */
	if (ev == rp->cur_ev && rp->cur_args.present && !placeholder &&
	    !rp->view->aggregate)
		f->args = copy_args(&rp->cur_args);
	f->seq = t->seq;
	f->placeholder = placeholder;
	f->span = placeholder ? span : 1;
	/* a tail call replaced the jumper's level: it nests, as in
	 * ftrace and uftrace, without a level of its own */
	f->tail = !placeholder && ev->kind == DCG_EV_TAILCALL && up;
	f->level = (up ? up->level : 0) + (f->tail ? 0 : f->span);
	f->vparent = up ? (up->visible ? (dcg_s32)(t->depth - 2) : up->vparent)
			: -1;
	f->vdepth = (f->vparent >= 0 ? t->stack[f->vparent].vdepth : 0) +
		    f->span;
	/* below a stub that has not jumped yet: lazy binding */
	f->in_lazy = up && (up->in_lazy ||
			    (up->plt_pending && ev->kind != DCG_EV_TAILCALL));
	f->plt_pending = !placeholder && !f->in_lazy && fold_plt(rp) &&
			 ev->kind != DCG_EV_ASYNC && func_is_plt_stub(rp, ev->to);
	apply_filters(rp, f, up);
	if (f->visible && !lazy(rp) && !f->plt_pending)
		announce(rp, t, t->depth - 1);
}

/*
 * End the innermost frame at @end (its ts and insns): a RET, a tail
 * call, the event that cut the stack, or the thread's last event.
 */
static void pop(struct report *rp, struct thread *t,
		const struct dcg_rec_event *ret, const struct dcg_rec_event *end)
{
	struct frame *f = &t->stack[t->depth - 1];
	struct frame *up = t->depth > 1 ? f - 1 : NULL;
	dcg_u64 end_ts = end ? end->ts : t->last_ts;
	dcg_u64 end_ic = end ? end->insns : t->last_insns;
	dcg_u64 dur = end_ts >= f->ev.ts ? end_ts - f->ev.ts : 0;
	/* a damaged trace's counter may go back: count nothing then */
	dcg_u64 ic = end_ic >= f->ev.insns ? end_ic - f->ev.insns : 0;

	if (up && up->plt_pending && f->in_lazy) {
		if (!up->lazy_end) {
			up->lazy_start = f->ev.ts;
			up->lazy_start_ic = f->ev.insns;
		}
		up->lazy_end = end_ts > f->ev.ts ? end_ts : f->ev.ts + 1;
		up->lazy_end_ic = end_ic;
	}

	/* what it returned: the RET's rax (and rdx), a tail-caller's too */
	if (ret && ret == rp->cur_ev && rp->cur_args.present &&
	    ret->kind == DCG_EV_RET) {
		f->has_ret = true;
		f->nret = rp->cur_args.nregs;
		memcpy(f->ret, rp->cur_args.regs, f->nret * sizeof(f->ret[0]));
	}
	if (f->visible && !f->announced && dur >= rp->o->min_duration &&
	    (!rp->o->ret_filter || retval_matches(rp, f)))
		announce(rp, t, t->depth - 1);
	if (f->announced) {
		if (rp->view->aggregate) {
			struct node *n = &rp->tree.nodes[f->node];
			dcg_u64 self = dur >= f->child_ns ? dur - f->child_ns : 0;

			if (!n->calls || dur < n->min_ns)
				n->min_ns = dur;
			if (dur > n->max_ns)
				n->max_ns = dur;
			n->calls++;
			n->incl_ns += dur;
			n->self_ns += self;
			n->incl_insns += ic;
			n->self_insns += ic >= f->child_insns ?
					 ic - f->child_insns : 0;
		}
		if (f->vparent >= 0) {
			t->stack[f->vparent].child_ns += dur;
			t->stack[f->vparent].child_insns += ic;
		}
		if (rp->view->leave)
			rp->view->leave(rp, t, f, ret, end_ts, ic);
	}
	free(f->args);
	f->args = NULL;
	t->depth--;
}

/*
 * Cut or pad the stack to @want levels, counting each level as one
 * resync.  A gap becomes one placeholder frame however many levels it
 * spans, so that a depth from a damaged or lossy trace costs one frame,
 * not one per level.
 */
static void sync_depth(struct report *rp, struct thread *t, dcg_u32 want,
		       const struct dcg_rec_event *ev)
{
	struct dcg_rec_event ph;
	dcg_u32 have;

	while (t->depth && top_level(t) > want) {
		struct frame *f = &t->stack[t->depth - 1];

		if (f->level - f->span < want) {
			/* @want lies inside a placeholder: cut it there */
			rp->ws.resync += f->level - want;
			pop(rp, t, NULL, ev);
			have = top_level(t);
			goto pad;
		}
		rp->ws.resync += f->tail ? 0 : f->span;
		pop(rp, t, NULL, ev);
	}
	have = top_level(t);
	if (have >= want)
		return;
	rp->ws.resync += want - have;
pad:
	ph = *ev;
	ph.kind = DCG_EV_CALL;
	ph.from = ph.to = 0;
	ph.flags = 0;
	ph.depth = want;
	push(rp, t, &ph, want - have);
}

/*
 * A RET or tail call ends the innermost level only: a placeholder that
 * spans more becomes one for the rest and one for that level.
 */
static void split_top(struct report *rp, struct thread *t,
		      const struct dcg_rec_event *ev)
{
	struct dcg_rec_event ph;
	dcg_u32 span;

	if (!t->depth || t->stack[t->depth - 1].span < 2)
		return;
	span = t->stack[t->depth - 1].span;
	pop(rp, t, NULL, ev);
	ph = *ev;
	ph.kind = DCG_EV_CALL;
	ph.from = ph.to = 0;
	ph.flags = 0;
	ph.depth = top_level(t) + span - 1;
	push(rp, t, &ph, span - 1);
	ph.depth++;
	push(rp, t, &ph, 1);
}

/*
 * The pending PLT stub on top jumps to its target: the frame becomes the
 * target's, checked against the filters by that name, and is shown; the
 * lazy binding that ran under the stub follows as one child node.
 */
static void plt_resolved(struct report *rp, struct thread *t,
			 const struct dcg_rec_event *ev)
{
	dcg_u32 idx = t->depth - 1;
	struct frame *f = &t->stack[idx];
	struct dcg_rec_event lz;

	f->plt_pending = false;
	f->plt = true;
	f->ev.to = ev->to;
	apply_filters(rp, f, idx ? f - 1 : NULL);
	if (f->visible && !lazy(rp))
		announce(rp, t, idx);
	if (!f->lazy_end)
		return;
	lz = *ev;
	lz.kind = DCG_EV_CALL;
	lz.flags = 0;
	lz.from = ev->from;
	lz.to = LAZY_BINDING_ADDR;
	lz.ts = f->lazy_start;
	lz.insns = f->lazy_start_ic;
	lz.depth = f->level + 1;
	push(rp, t, &lz, 0);
	lz.kind = DCG_EV_RET;
	lz.ts = f->lazy_end;
	lz.insns = f->lazy_end_ic;
	pop(rp, t, &lz, &lz);
}

/* End the top frame and the frames it tail-called from: one level. */
static void pop_level(struct report *rp, struct thread *t,
		      const struct dcg_rec_event *ev)
{
	bool tail;

	for (;;) {
		tail = t->stack[t->depth - 1].tail;
		pop(rp, t, ev, ev);
		if (!tail || !t->depth)
			break;
		t->stack[t->depth - 1].tail_ended = true;
	}
}

/*
 * A RET carries the depth left behind, one less than its frame's
 * (doc/trace-format.md); an unmatched one carries 0 and its flag.
 */
static void walk_ret(struct report *rp, struct thread *t,
		     const struct dcg_rec_event *ev)
{
	if (!(ev->flags & DCG_EVF_UNMATCHED) && t->depth) {
		sync_depth(rp, t, ev->depth + 1, ev);
		split_top(rp, t, ev);
		pop_level(rp, t, ev);
		return;
	}
	rp->ws.unmatched++;
	if (rp->view->orphan)
		rp->view->orphan(rp, t, ev);
}

void walk_event(struct report *rp, const struct dcg_rec_event *ev)
{
	struct thread *t;

	rp->ws.events++;
	if (!tid_wanted(rp->o, ev->r.tid)) {
		rp->ws.filtered_tid++;
		return;
	}
	t = find_thread(rp, ev->r.tid);
	if (t->seq && ev->ts < t->last_ts)
		rp->ws.backwards++;
	t->seq++;
	t->last_ts = ev->ts;
	t->last_insns = ev->insns;
	rp->cur_ev = ev;
	/* aggregate views show no values: only --retval PRED needs them */
	if (!rp->view->aggregate || rp->o->ret_filter)
		dcg_ev_argv_get(&rp->rd, ev, &rp->cur_args);
	else
		rp->cur_args.present = false;
	if (ev->flags & DCG_EVF_SYNTHETIC)
		rp->ws.synthetic++;
	switch (ev->kind) {
	case DCG_EV_CALL:
	case DCG_EV_ASYNC:
		sync_depth(rp, t, ev->depth ? ev->depth - 1 : top_level(t),
			   ev);
		push(rp, t, ev, 0);
		break;
	case DCG_EV_TAILCALL:
		/* the jumper stays open: the callee nests under it */
		sync_depth(rp, t, ev->depth ? ev->depth : top_level(t), ev);
		split_top(rp, t, ev);
		if (t->depth && t->stack[t->depth - 1].plt_pending)
			plt_resolved(rp, t, ev);
		else
			push(rp, t, ev, 0);
		break;
	case DCG_EV_RET:
		walk_ret(rp, t, ev);
		break;
	}
	rp->cur_ev = NULL;
}

/* A THREAD record names its thread (the chrome view's metadata). */
void walk_thread_rec(struct report *rp, const struct dcg_rec_thread *tr)
{
	struct thread *t;

	if (!tid_wanted(rp->o, tr->r.tid))
		return;
	t = find_thread(rp, tr->r.tid);
	memcpy(t->comm, tr->comm, sizeof(t->comm));
	t->named = true;
}

/*
 * A marker (switch, interrupt) inside @t's open frames: the frames it
 * happened in are shown first (lazy announcing).
 */
static void announce_open(struct report *rp, struct thread *t)
{
	dcg_s32 i;

	if (!t->depth)
		return;
	i = t->depth - 1;
	if (!t->stack[i].visible)
		i = t->stack[i].vparent;
	if (i >= 0)
		announce(rp, t, i);
}

/*
 * The thread a switch or interrupt marker of @tid is shown in, its
 * open frames announced; NULL when it is not shown: another thread, a
 * view without such markers (!@hook), or, with --min-duration, a gap
 * shorter than that (shown only if its frames will be).
 */
static struct thread *marker_thread(struct report *rp, dcg_u32 tid,
				    bool hook, dcg_u64 gap)
{
	struct thread *t;

	if (!tid_wanted(rp->o, tid) || !hook)
		return NULL;
	if (rp->o->min_duration && gap < rp->o->min_duration)
		return NULL;
	t = find_thread(rp, tid);
	announce_open(rp, t);
	return t;
}

/* A context switch record: only views that show the flow care. */
void walk_switch(struct report *rp, const struct dcg_rec_switch *sw)
{
	struct thread *t;

	/* --retval PRED shows failing calls, not the scheduler's doings */
	if (rp->o->ret_filter)
		return;
	t = marker_thread(rp, sw->r.tid, rp->view->on_switch,
			  sw->in_ts - sw->out_ts);
	if (t)
		rp->view->on_switch(rp, t, sw);
}

/*
 * An interrupt record: like a switch, only for views that show the
 * flow; it is never a frame, so no view counts it as a call.
 */
void walk_irq(struct report *rp, const struct dcg_rec_irq *q)
{
	struct thread *t;

	/* as for a switch; and its frame is no context for --retval */
	if (rp->o->ret_filter)
		return;
	t = marker_thread(rp, q->r.tid, rp->view->on_irq,
			  q->end_ts - q->start_ts);
	if (t)
		rp->view->on_irq(rp, t, q);
}

/* Frames still open when the trace ends close at the thread's last time. */
void walk_finish(struct report *rp)
{
	dcg_u32 i;

	for (i = 0; i < rp->nthreads; i++) {
		struct thread *t = &rp->threads[i];

		while (t->depth) {
			pop(rp, t, NULL, NULL);
			rp->ws.unfinished++;
		}
	}
}

void walk_free(struct report *rp)
{
	dcg_u32 i;

	for (i = 0; i < rp->nthreads; i++)
		free(rp->threads[i].stack);
	free(rp->threads);
	free(rp->thread_slots);
	free(rp->chain);
	rp->chain = NULL;
	rp->chain_cap = 0;
	rp->thread_slots = NULL;
	rp->slots_cap = 0;
	rp->threads = NULL;
	rp->nthreads = 0;
	rp->last_thread = NULL;
}
