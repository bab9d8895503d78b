// SPDX-License-Identifier: GPL-2.0
/*
 * skip.c - skip instead of step: let a subtree run at native speed.
 *
 * The engine marks a call deeper than its max_depth as skipped
 * (DCG_FRAME_SKIPPED, runtime/dcg_core.h); this file marks calls and
 * tail calls into excluded functions the same way, from the emit
 * callback, where the new frame is already on top (as dcg-trace -N
 * does).  The skipped call still gives one CALL (DCG_EVF_SKIPPED) and,
 * when the subtree is left, one RET.  In between the task runs with TF
 * off and two hardware breakpoints of its own watch for the way back:
 *
 *   - an execute breakpoint on the frame's return address: hit with
 *     rsp above the frame's return slot, the skip is over, the engine
 *     gets that stop (a plain RET) and TF goes back on.  Hit with rsp
 *     at or below the slot, it is the same call site reached again from
 *     deeper inside (recursion): the task just goes on (the kernel sets
 *     EFLAGS.RF, so it does not hit again).
 *   - a write watchpoint on the return slot itself.  Nothing in the
 *     subtree writes it; it is written when the frame is already gone
 *     without returning (longjmp, an exception, a thread that unwinds)
 *     and the stack is reused: usually by the next call of the function
 *     that made the skipped call.  The skipped frame is then closed with
 *     a SYNTHETIC return, the call that wrote the slot (if it was one)
 *     is reported, and stepping goes on from there.
 *
 * Both are perf events from the kernel's hw_breakpoint API, bound to
 * the task (register_user_hw_breakpoint()), so other tasks never stop
 * there.  Registering may sleep, so they are registered disabled when a
 * window starts (task work, process context) and kept for the slot's
 * later windows; moving and enabling them (modify_user_hw_breakpoint())
 * may sleep too (perf_event_enable() takes the context mutex), so a
 * skip that starts in the #DB handler is armed by a task work that runs
 * on the same way back to user mode, before the subtree's first
 * instruction.  Disabling is done right in the trap: with interrupts
 * off and the event belonging to current, modify_user_hw_breakpoint()
 * takes perf_event_disable_local(), which sleeps nowhere.  They are
 * unregistered at teardown (dcg_slot_release()) or when the slot moves
 * to another task.
 *
 * A task without breakpoints (none free, or registration failed) keeps
 * stepping through the subtree; the engine ignores those stops, so the
 * trace is the same, only slower ("stepped" in the counters).
 *
 * Signals delivered inside a skipped subtree run unstepped with it.  A
 * task that exits inside one leaves its window to be closed at the end;
 * its events die with it.  Module unload while a task is inside a
 * skipped subtree: the breakpoints are unregistered by the teardown and
 * the task goes on untouched.
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/irqflags.h>

#define DCG_SKIP_MAX_NAMES	16
#define DCG_SKIP_NAME_LEN	64
#define DCG_SKIP_MAX_RANGES	16

enum dcg_skip_state {
	DCG_SKIP_NONE = 0,
	DCG_SKIP_ARMING,	/* TF off, task work about to enable the bps */
	DCG_SKIP_NATIVE,	/* subtree running; bps enabled */
	DCG_SKIP_STEPPED,	/* no bps: stepping on, the engine ignores */
};

struct dcg_skip_slot {
	struct perf_event *ret_bp;	/* execute, at the return address */
	struct perf_event *slot_wp;	/* write, on the return slot */
	struct callback_head work;
	atomic_t work_queued;
	u8 state;			/* enum dcg_skip_state */
	u64 ret_addr;			/* of the frame skipped now */
	u64 frame_sp;
};

struct dcg_skip_range {
	u64 start, end;			/* [start, end) */
};

static struct {
	u32 depth;			/* 0: no depth limit */
	int nnames, nranges;
	char names[DCG_SKIP_MAX_NAMES][DCG_SKIP_NAME_LEN];
	struct dcg_skip_range ranges[DCG_SKIP_MAX_RANGES];
	atomic64_t skips;		/* subtrees skipped */
	atomic64_t native;		/* ... of them run with bps armed */
	atomic64_t stepped;		/* ... stepped (no bps) */
	atomic64_t returns;		/* ended at the return breakpoint */
	atomic64_t reentries;		/* return bp hit from deeper inside */
	atomic64_t nonlocal;		/* ended by the slot watchpoint */
	atomic64_t stray;		/* hits with no skip to end */
	atomic64_t rewrites;		/* slot written, return address kept */
	atomic64_t bp_errors;		/* registration or modify failures */
} dcg_skip_g;

static struct dcg_skip_slot dcg_skip_slots[DCG_MAX_TASKS];

static struct dcg_skip_slot *dcg_skip_of(struct dcg_slot *s)
{
	return &dcg_skip_slots[s - dcg_slots];
}

static int dcg_skip_enabled(void)
{
	return READ_ONCE(dcg_skip_g.depth) || READ_ONCE(dcg_skip_g.nnames) ||
	       READ_ONCE(dcg_skip_g.nranges);
}

/* ---- what is skipped ---- */

/*
 * The script's exclusions (probe begin).  An entry is written before
 * the count that publishes it: the trap handler reads the count, then
 * the entries, with no lock.
 */
static const char *dcg_skip_exclude_name(const char *name, char *err,
					 size_t len)
{
	int n = READ_ONCE(dcg_skip_g.nnames);

	if (!name[0] || strlen(name) >= DCG_SKIP_NAME_LEN)
		return "dynamic_call_graph_exclude: empty or too long name";
	if (n == DCG_SKIP_MAX_NAMES) {
		snprintf(err, len,
			 "dynamic_call_graph_exclude: too many names (at most %d)",
			 DCG_SKIP_MAX_NAMES);
		return err;
	}
	strlcpy(dcg_skip_g.names[n], name, DCG_SKIP_NAME_LEN);
	smp_wmb();
	WRITE_ONCE(dcg_skip_g.nnames, n + 1);
	return NULL;
}

static const char *dcg_skip_exclude_range(u64 start, u64 end, char *err,
					  size_t len)
{
	int n = READ_ONCE(dcg_skip_g.nranges);

	if (start >= end)
		return "dynamic_call_graph_exclude_range: empty range (start >= end)";
	if (n == DCG_SKIP_MAX_RANGES) {
		snprintf(err, len,
			 "dynamic_call_graph_exclude_range: too many ranges (at most %d)",
			 DCG_SKIP_MAX_RANGES);
		return err;
	}
	dcg_skip_g.ranges[n].start = start;
	dcg_skip_g.ranges[n].end = end;
	smp_wmb();
	WRITE_ONCE(dcg_skip_g.nranges, n + 1);
	return NULL;
}

/* Subtrees skipped so far (dynamic_call_graph_skips()). */
static s64 dcg_skip_count(void)
{
	return atomic64_read(&dcg_skip_g.skips);
}

static int dcg_skip_excluded(u64 addr)
{
	unsigned long size = 0, off = 0;
	const char *mod = NULL, *name;
	int i;

	for (i = 0; i < dcg_skip_g.nranges; i++)
		if (addr >= dcg_skip_g.ranges[i].start &&
		    addr < dcg_skip_g.ranges[i].end)
			return 1;
	if (!dcg_skip_g.nnames)
		return 0;
	name = _stp_kallsyms_lookup(addr, &size, &off, &mod, current);
	if (!name || off)
		return 0;
	for (i = 0; i < dcg_skip_g.nnames; i++)
		if (!strcmp(name, dcg_skip_g.names[i]))
			return 1;
	return 0;
}

/*
 * The slot's emit callback while exclusions are set: a CALL or TAILCALL
 * into an excluded function makes the new top frame a skipped one.  The
 * window's root counts too: excluding the traced function itself leaves
 * one call per window.
 */
static void dcg_skip_emit(void *ctx, const struct dcg_rec_event *ev)
{
	struct dcg_slot *s = ctx;
	struct dcg_rec_event e = *ev;
	struct dcg_frame *f;

	if ((e.kind == DCG_EV_CALL || e.kind == DCG_EV_TAILCALL) &&
	    !(e.flags & (DCG_EVF_OVERFLOW | DCG_EVF_SKIPPED)) &&
	    dcg_skip_excluded(e.to)) {
		f = dcg_shadow_top(&s->engine.shadow);
		if (f) {
			f->flags |= DCG_FRAME_SKIPPED;
			e.flags |= DCG_EVF_SKIPPED;
		}
	}
	dcg_emit(ctx, &e);
}

/* dcg_open(): the engine's depth limit and the exclusion filter. */
static void dcg_skip_open(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);

	k->state = DCG_SKIP_NONE;
	s->engine.max_depth = READ_ONCE(dcg_skip_g.depth);
	if (READ_ONCE(dcg_skip_g.nnames) || READ_ONCE(dcg_skip_g.nranges))
		s->ops.emit = dcg_skip_emit;
}

/* ---- the breakpoints ---- */

static void dcg_skip_hit(struct perf_event *bp, struct perf_sample_data *data,
			 struct pt_regs *regs);

/* Process context only: may sleep. */
static struct perf_event *dcg_skip_register(struct dcg_slot *s, int type,
					    u64 addr)
{
	struct perf_event_attr attr;
	struct perf_event *bp;

	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_type = type;
	attr.disabled = 1;
	attr.exclude_kernel = 1;	/* signal frames, copy_to_user */
	bp = register_user_hw_breakpoint(&attr, dcg_skip_hit, s, current);
	if (IS_ERR(bp)) {
		atomic64_inc(&dcg_skip_g.bp_errors);
		return NULL;
	}
	return bp;
}

static void dcg_skip_unregister(struct dcg_skip_slot *k)
{
	if (k->ret_bp)
		unregister_hw_breakpoint(k->ret_bp);
	if (k->slot_wp)
		unregister_hw_breakpoint(k->slot_wp);
	k->ret_bp = k->slot_wp = NULL;
}

/*
 * Window start, in the task work (process context, current is the
 * slot's task): make sure the task has its two breakpoints.  A slot
 * reclaimed from a task that exited still holds that task's: the
 * events keep a reference on their task, so the pointer compare is
 * safe.
 */
static void dcg_skip_window_start(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);
	u64 ip = task_pt_regs(current)->ip;

	if (!dcg_skip_enabled())
		return;
	if (k->ret_bp && k->ret_bp->hw.target != current)
		dcg_skip_unregister(k);
	if (!k->ret_bp)
		k->ret_bp = dcg_skip_register(s, HW_BREAKPOINT_X, ip);
	if (k->ret_bp && !k->slot_wp)
		k->slot_wp = dcg_skip_register(s, HW_BREAKPOINT_W,
					       task_pt_regs(current)->sp & ~7UL);
}

/* Move and enable (process context: may sleep). */
static int dcg_skip_enable(struct perf_event *bp, u64 addr)
{
	struct perf_event_attr attr = bp->attr;

	attr.bp_addr = addr;
	attr.disabled = 0;
	return modify_user_hw_breakpoint(bp, &attr);
}

/*
 * Disable the breakpoints of current's slot without sleeping: with
 * interrupts off and the events current's own, modify_user_hw_breakpoint()
 * disables through perf_event_disable_local().  Another task's (probe
 * end on another CPU) are left enabled: their hits find no skip and are
 * ignored, and teardown unregisters them.
 */
/*
 * Disable @bp, an enabled event of current's, with interrupts off
 * (the caller's): 0 or the error of modify_user_hw_breakpoint().
 * Also hop_breakpoints.c's.
 */
static int dcg_user_bp_disable_local(struct perf_event *bp)
{
	struct perf_event_attr attr = bp->attr;

	attr.disabled = 1;
	return modify_user_hw_breakpoint(bp, &attr);
}

static void dcg_skip_disable(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);
	struct perf_event *bps[2] = { k->ret_bp, k->slot_wp };
	unsigned long flags;
	int i;

	if (current != s->task)
		return;
	local_irq_save(flags);
	for (i = 0; i < 2; i++)
		if (bps[i] && !bps[i]->attr.disabled &&
		    dcg_user_bp_disable_local(bps[i]))
			atomic64_inc(&dcg_skip_g.bp_errors);
	local_irq_restore(flags);
}

/* Stepping goes on through the subtree (no breakpoints). */
static void dcg_skip_fallback(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);

	dcg_skip_disable(s);
	k->state = DCG_SKIP_STEPPED;
	atomic64_inc(&dcg_skip_g.stepped);
	dcg_tf_arm_current(s, regs);
}

/* Enable both breakpoints for the current skip; 0 or an error. */
static int dcg_skip_arm(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);
	int err;

	err = dcg_skip_enable(k->ret_bp, k->ret_addr);
	/* no watchpoint (unaligned slot...): longjmp out goes unseen */
	if (!err && k->slot_wp && dcg_skip_enable(k->slot_wp, k->frame_sp))
		atomic64_inc(&dcg_skip_g.bp_errors);
	return err;
}

/* The task work of a skip begun in the #DB handler. */
static void dcg_skip_work_fn(struct callback_head *cb)
{
	struct dcg_skip_slot *k = container_of(cb, struct dcg_skip_slot, work);
	struct dcg_slot *s = &dcg_slots[k - dcg_skip_slots];
	struct pt_regs *regs = task_pt_regs(current);

	if (current == s->task && !dcg_stopping() &&
	    k->state == DCG_SKIP_ARMING &&
	    atomic_read(&s->state) == DCG_SLOT_ARMED) {
		if (dcg_skip_arm(s)) {
			atomic64_inc(&dcg_skip_g.bp_errors);
			dcg_skip_fallback(s, regs);
		} else {
			k->state = DCG_SKIP_NATIVE;
			atomic64_inc(&dcg_skip_g.native);
		}
	}
	atomic_set(&k->work_queued, 0);
	dcg_task_work_done(&dcg_g.works_pending, &dcg_works_wq);
}

static int dcg_skip_queue_work(struct dcg_skip_slot *k)
{
	if (atomic_cmpxchg(&k->work_queued, 0, 1))
		return 0;	/* still queued from the last skip: reuse */
	if (dcg_task_work_queue(&k->work, dcg_skip_work_fn,
				&dcg_g.works_pending, &dcg_works_wq)) {
		atomic_set(&k->work_queued, 0);
		return -ESRCH;
	}
	return 0;
}

/*
 * The engine's top frame @f is skipped: stop stepping.  @in_work: we
 * are in task work already (process context) and arm right here;
 * otherwise (the #DB handler) a task work arms on the way out.
 */
static void dcg_skip_begin(struct dcg_slot *s, struct pt_regs *regs,
			   const struct dcg_frame *f, int in_work)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);

	atomic64_inc(&dcg_skip_g.skips);
	k->ret_addr = f->ret_addr;
	k->frame_sp = f->sp;
	if (!k->ret_bp) {
		dcg_skip_fallback(s, regs);
		return;
	}
	if (in_work) {
		if (dcg_skip_arm(s)) {
			atomic64_inc(&dcg_skip_g.bp_errors);
			dcg_skip_fallback(s, regs);
			return;
		}
		dcg_tf_disarm_current(regs);
		k->state = DCG_SKIP_NATIVE;
		atomic64_inc(&dcg_skip_g.native);
		return;
	}
	k->state = DCG_SKIP_ARMING;
	if (dcg_skip_queue_work(k)) {
		dcg_skip_fallback(s, regs);
		return;
	}
	dcg_tf_disarm_current(regs);
}

/*
 * After each stop the engine saw: start, keep or end the skip its top
 * frame asks for.  Returns 1 when TF is to stay off (a skip runs).
 * Ending a native skip turns TF back on.
 */
static int dcg_skip_update(struct dcg_slot *s, struct pt_regs *regs,
			   int in_work)
{
	const struct dcg_frame *f = dcg_thread_skipping(&s->engine);
	struct dcg_skip_slot *k = dcg_skip_of(s);
	int was_off = k->state == DCG_SKIP_NATIVE ||
		      k->state == DCG_SKIP_ARMING;

	if (k->state != DCG_SKIP_NONE &&
	    (!f || f->sp != k->frame_sp || f->ret_addr != k->ret_addr)) {
		if (was_off)
			dcg_skip_disable(s);
		k->state = DCG_SKIP_NONE;
		if (was_off)
			dcg_tf_arm_current(s, regs);
	}
	if (!f)
		return 0;
	if (k->state == DCG_SKIP_NONE)
		dcg_skip_begin(s, regs, f, in_work);
	return k->state == DCG_SKIP_NATIVE || k->state == DCG_SKIP_ARMING;
}

/* Hook of dcg_trap_step(), after the engine's stop (slot INTRAP). */
static int dcg_skip_after_stop(struct dcg_slot *s, struct pt_regs *regs)
{
	if (!dcg_skip_enabled() && dcg_skip_of(s)->state == DCG_SKIP_NONE)
		return 0;
	return dcg_skip_update(s, regs, 0);
}

/*
 * Hook of the task work that (re-)arms TF (dcg_work_fn(), slot ARMED):
 * the window's root itself may be excluded.
 */
static void dcg_skip_after_resume(struct dcg_slot *s, struct pt_regs *regs)
{
	if (!dcg_skip_enabled() || atomic_read(&s->state) != DCG_SLOT_ARMED)
		return;
	dcg_skip_update(s, regs, 1);
}

/* dcg_on_signal(): a handler inside a skipped subtree runs unstepped. */
static int dcg_skip_native(struct dcg_slot *s)
{
	u8 st = dcg_skip_of(s)->state;

	return st == DCG_SKIP_NATIVE || st == DCG_SKIP_ARMING;
}

/* dcg_window_finish(): no skip outlives its window. */
static void dcg_skip_window_end(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);

	if (k->state == DCG_SKIP_NATIVE || k->state == DCG_SKIP_ARMING)
		dcg_skip_disable(s);
	k->state = DCG_SKIP_NONE;
}

/* Teardown (process context, notifier gone): let go of the events. */
static void dcg_skip_release(struct dcg_slot *s)
{
	struct dcg_skip_slot *k = dcg_skip_of(s);

	dcg_skip_unregister(k);
	k->state = DCG_SKIP_NONE;
}

/* ---- the hits (#DB context, through hw_breakpoint's notifier) ---- */

/*
 * The call that just wrote the return slot, or 0: [sp] returns right
 * after a call insn that ends there (a direct one must target @ip).
 */
static u64 dcg_skip_call_before(struct dcg_slot *s, u64 ip, u64 sp)
{
	struct dcg_insn insn;
	u8 b[DCG_CALL_BEFORE_LEN];
	unsigned int n;
	u64 ret;

	if (dcg_read_user(s, sp, &ret, 8) != 8 || ret < 16 ||
	    dcg_read_user(s, ret - sizeof(b), b, sizeof(b)) != sizeof(b))
		return 0;
	n = dcg_insn_call_ending(b, ret, &insn);
	if (!n || (insn.branch == DCG_BR_CALL && insn.target != ip))
		return 0;
	return ret - n;
}

/*
 * Return slot of the outermost frame that is gone: its slot no longer
 * holds its return address.  The skipped frame's own slot was just
 * written, so it is the answer unless the jump went further out (a
 * longjmp out of the window's root, whose stack the caller reuses).
 */
static u64 dcg_skip_dead_slot(struct dcg_slot *s)
{
	struct dcg_shadow *sh = &s->engine.shadow;
	u32 i, n = dcg_shadow_stored(sh);
	u64 v;

	for (i = 0; i + 1 < n; i++) {
		struct dcg_frame *f = &sh->frames[i];

		if (dcg_read_user(s, f->sp, &v, 8) == 8 && v != f->ret_addr)
			return f->sp;
	}
	return dcg_skip_of(s)->frame_sp;
}

/*
 * The return slot was written with rsp at or below it: the skipped
 * frame is gone (longjmp out of the subtree, the stack reused).  Close
 * it, and any outer frame found gone with it, as a return would have
 * left the stack (rsp one slot up); then let the engine see the
 * instruction that wrote the slot if it was a call, else take up
 * stepping from here.
 */
static void dcg_skip_frame_gone(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_thread *t = &s->engine;
	u64 call = 0;

	dcg_regs_from(&s->regs, regs);
	dcg_thread_stop(t, regs->ip, dcg_skip_dead_slot(s) + 8, dcg_now_ns(),
			&s->ops);
	if (t->shadow.depth)	/* else the window is over: no more events */
		call = dcg_skip_call_before(s, regs->ip, regs->sp);
	if (call) {
		t->prev_ip = call;
		t->prev_sp = regs->sp + 8;
	} else {
		t->prev_ip = regs->ip;
		t->prev_sp = regs->sp;
	}
}

/*
 * The watchpoint fired but the slot still holds the frame's return
 * address: the frame is live, the skip goes on.  Seen in the test bed
 * (QEMU TCG) every time inside glibc's memcpy under qsort, with nothing
 * that writes the slot.  A longjmp out followed by a new call from the
 * same call site writes the same value too; that skip then lasts until
 * the new call returns, and the caller's code in between runs unstepped.
 */
static int dcg_skip_slot_kept(struct dcg_skip_slot *k)
{
	u64 v;

	return dcg_read_nofault(k->frame_sp, &v, sizeof(v), false) ==
	       sizeof(v) && v == k->ret_addr;
}

static void dcg_skip_hit(struct perf_event *bp, struct perf_sample_data *data,
			 struct pt_regs *regs)
{
	struct dcg_slot *s = bp->overflow_handler_context;
	struct dcg_skip_slot *k = dcg_skip_of(s);
	int watch = bp == k->slot_wp;

	if (!regs || !user_mode(regs) || current != READ_ONCE(s->task) ||
	    current->mm != s->mm || dcg_stopping() ||
	    k->state != DCG_SKIP_NATIVE) {
		/* e.g. exec'd inside the subtree: not to hit again */
		atomic64_inc(&dcg_skip_g.stray);
		dcg_skip_disable(s);
		return;
	}
	if (!watch && (regs->ip != k->ret_addr || regs->sp <= k->frame_sp)) {
		atomic64_inc(&dcg_skip_g.reentries);
		return;
	}
	if (watch && dcg_skip_slot_kept(k)) {
		atomic64_inc(&dcg_skip_g.rewrites);
		return;
	}
	if (atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_INTRAP) != DCG_SLOT_ARMED) {
		atomic64_inc(&dcg_skip_g.stray);
		return;
	}
	if (watch) {
		atomic64_inc(&dcg_skip_g.nonlocal);
		if (regs->sp <= k->frame_sp)
			dcg_skip_frame_gone(s, regs);
	} else {
		atomic64_inc(&dcg_skip_g.returns);
	}
	s->state_after_trap = DCG_SLOT_ARMED;
	dcg_trap_step(s, regs);
	/* the root went with it: dcg_window_finish() reset the skip */
	if (k->state == DCG_SKIP_NATIVE) {
		dcg_skip_disable(s);
		k->state = DCG_SKIP_NONE;
		if (s->state_after_trap == DCG_SLOT_ARMED)
			dcg_tf_arm_current(s, regs);
	}
	atomic_set(&s->state, s->state_after_trap);
}

/* The skip counters: probe end's line and dynamic_call_graph_skip_stats(). */
static const struct dcg_counter dcg_skip_counters[] = {
	{ "skips", " %lld subtrees skipped", &dcg_skip_g.skips },
	{ "native", " (%lld native", &dcg_skip_g.native },
	{ "stepped", ", %lld stepped)", &dcg_skip_g.stepped },
	{ "returns", ", %lld returns", &dcg_skip_g.returns },
	{ "reentries", ", %lld re-entries", &dcg_skip_g.reentries },
	{ "nonlocal", ", %lld non-local exits", &dcg_skip_g.nonlocal },
	{ "stray", ", %lld stray hits", &dcg_skip_g.stray },
	{ "errors", ", %lld breakpoint errors", &dcg_skip_g.bp_errors },
	{ "rewrites", ", %lld slot rewrites", &dcg_skip_g.rewrites },
};

/* The summary line of probe end (text output). */
static void dcg_skip_print(void)
{
	if (!dcg_skip_enabled())
		return;
	_stp_printf("dynamic call graph skip:");
	dcg_counters_print(dcg_skip_counters, ARRAY_SIZE(dcg_skip_counters));
	_stp_printf("\n");
}

/* "skips=N native=N ..." for dynamic_call_graph_skip_stats(). */
static void dcg_skip_stats(char *buf, size_t len)
{
	dcg_counters_format(buf, len, dcg_skip_counters,
			    ARRAY_SIZE(dcg_skip_counters));
}
