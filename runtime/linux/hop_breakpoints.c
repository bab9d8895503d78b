// SPDX-License-Identifier: GPL-2.0
/*
 * hop_breakpoints.c - hop mode for user windows: a trap per control
 * transfer, not per instruction (issue #20, doc/hop-kernel.md part A).
 *
 * Where BTF is ignored a user window is stepped.  In hop mode, at each
 * step stop (after the engine's stop) runtime/hop.c plans the next
 * instructions the engine must see run; this file puts execute
 * breakpoints on them, clears TF and lets the task run natively.  At a
 * hit the engine is told how far the task got (dcg_thread_hop()), and
 * the plan made there says what comes next: a near call, jmp or ret is
 * done in the hit (runtime/near_branch.c; the engine gets the stop
 * after it, which plans again), any other transfer is stepped (TF on,
 * its stop plans again), or the task hops on.
 *
 * The breakpoints are perf's per-task user breakpoints, as skip.c's:
 *   - registered disabled in the window-start task work (registering
 *     sleeps), 3 or what skip.c leaves of the task's 4, kept for
 *     the slot's later windows, unregistered at teardown;
 *   - moved and enabled by a task work queued in the trap
 *     (modify_user_hw_breakpoint() may sleep: perf_event_enable() takes
 *     the context mutex), which runs on the same way back to user mode,
 *     before the next user instruction; only the registers whose
 *     address changes are touched, and when a plan's addresses are all
 *     armed already no work is queued at all;
 *   - left enabled between stops (a hit of an older plan's address is
 *     harmless: the task plans again there), disabled in place at the
 *     window's end (interrupts off, the events current's own: no sleep).
 *
 * A hit reaches dcg_hop_hit(), the events' overflow handler, called by
 * hw_breakpoint's die notifier, which runs before ours and sets RF so
 * the instruction can run.  A step trap whose DR6 also holds B0-3 bits
 * (the CPU reports them for an address still in a disabled register)
 * is claimed as before by die_notifier.c: NOTIFY_STOP unless
 * virtual_dr6 holds a debugger's bit.
 *
 * Stepping goes on, and is counted, when: the task is ptraced or has a
 * debugger's breakpoints at window start (the whole window), none could
 * be registered (the whole window), the program has its own TF on, the
 * plan is a step, the task work cannot be queued or a move fails (that
 * stop), or a signal was delivered before the move (that stop).
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/irqflags.h>
#include <asm/sigframe.h>

#define DCG_HOPM_STEP	0	/* dynamic_call_graph_set_mode("step") */
#define DCG_HOPM_HOP	1	/* "hop" */
#define DCG_HOPM_AUTO	2	/* "auto": hop where BTF is ignored */

/*
 * Of the task's 4 debug registers, hop takes at most 3 (fewer when
 * skip.c holds some): a debugger that seizes the task inside a window
 * gets the one left for its watchpoint (perf counts every registered
 * event of the task, enabled or not, and refuses a fifth with ENOSPC).
 */
#define DCG_HOP_REGS	(DCG_HOP_MAX - 1)

#ifndef DCG_HOP_DEFAULT
#define DCG_HOP_DEFAULT	DCG_HOPM_AUTO
#endif

enum dcg_hop_state {
	DCG_HOP_NONE = 0,	/* stepping (or no window) */
	DCG_HOP_ARMING,		/* TF off, the task work moves registers */
	DCG_HOP_NATIVE,		/* running natively to the plan's hits */
};

struct dcg_hop_slot {
	struct perf_event *bp[DCG_HOP_MAX];
	u64 want[DCG_HOP_MAX];		/* ARMING: address per register, 0 keep */
	u32 last_hit[DCG_HOP_MAX];	/* seq of the register's last hit */
	u32 seq;
	u8 nregs;			/* registered */
	u8 wanted;			/* this window hops (mode at open) */
	u8 off;				/* this window steps after all */
	u8 state;			/* enum dcg_hop_state */
	u64 start;			/* ARMING: the stop the plan is for */
	struct callback_head work;
	atomic_t work_queued;
};

static struct {
	int mode;			/* DCG_HOPM_* */
	atomic64_t windows;		/* windows opened in hop mode */
	atomic64_t hits;		/* breakpoint hits: native runs ended */
	atomic64_t moves;		/* register moves (modify calls) */
	atomic64_t runs;		/* stops that went native */
	atomic64_t planned_step;	/* stops planned as a step */
	atomic64_t inexact;		/* runs whose count is a lower bound */
	atomic64_t debugger;		/* windows stepped: ptrace, a debugger's bps */
	atomic64_t no_bps;		/* windows stepped: none registered */
	atomic64_t arm_errors;		/* stops stepped: a move failed */
	atomic64_t moved_away;		/* stops stepped: signal before the move */
	atomic64_t no_work;		/* stops stepped: task work not queued */
	atomic64_t stray;		/* hits with no native run under way */
	atomic64_t transfers;		/* transfers done in the hit, not stepped */
} dcg_hop_g = { .mode = DCG_HOP_DEFAULT };

static struct dcg_hop_slot dcg_hop_slots[DCG_MAX_TASKS];

static struct dcg_hop_slot *dcg_hop_of(struct dcg_slot *s)
{
	return &dcg_hop_slots[s - dcg_slots];
}

/* ---- the mode ---- */

/* Does a user window opened now hop? */
static int dcg_hop_chosen(void)
{
	int m = READ_ONCE(dcg_hop_g.mode);

	return m == DCG_HOPM_HOP || (m == DCG_HOPM_AUTO && !dcg_g.btf_works);
}

/* The engine mode of a user window opening now (dcg_open_setup()). */
static u8 dcg_hop_engine_mode(struct dcg_slot *s)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);

	h->wanted = dcg_hop_chosen();
	h->off = 0;
	h->state = DCG_HOP_NONE;
	if (h->wanted)
		return DCG_MODE_STEP;
	return dcg_g.btf_works ? DCG_MODE_BLOCK : DCG_MODE_STEP;
}

/* "block", "step" or "hop": the mode user windows open in now. */
static const char *dcg_hop_mode_name(void)
{
	if (dcg_hop_chosen())
		return "hop";
	return dcg_g.btf_works ? "block" : "step";
}

/*
 * The trace header's DCG_MODE_*: hop when user windows open in hop
 * mode, so that readers apply its counting rules (a rep string insn
 * run natively is one insn, as in block mode).  Kernel sessions step.
 */
static u8 dcg_hop_trace_mode(void)
{
	if (dcg_hop_chosen() && !dcg_g.kernel)
		return DCG_MODE_HOP;
	return dcg_g.btf_works ? DCG_MODE_BLOCK : DCG_MODE_STEP;
}

/* dynamic_call_graph_set_mode() */
static const char *dcg_hop_set_mode(const char *how)
{
	int m;

	if (!strcmp(how, "step"))
		m = DCG_HOPM_STEP;
	else if (!strcmp(how, "hop"))
		m = DCG_HOPM_HOP;
	else if (!strcmp(how, "auto"))
		m = DCG_HOPM_AUTO;
	else
		return "dynamic_call_graph_set_mode: expected \"step\", \"hop\" or \"auto\"";
	WRITE_ONCE(dcg_hop_g.mode, m);
	return NULL;
}

/* ---- registering (process context) ---- */

static void dcg_hop_hit(struct perf_event *bp, struct perf_sample_data *data,
			struct pt_regs *regs);

static void dcg_hop_unregister(struct dcg_hop_slot *h)
{
	int i;

	for (i = 0; i < DCG_HOP_MAX; i++) {
		if (h->bp[i])
			unregister_hw_breakpoint(h->bp[i]);
		h->bp[i] = NULL;
	}
	h->nregs = 0;
}

/* A debugger holds this task (kcompat.h K12): the window steps. */
static int dcg_hop_debugger(void)
{
	int i;

	if (current->ptrace || current->thread.ptrace_dr7)
		return 1;
	for (i = 0; i < HBP_NUM; i++)
		if (current->thread.ptrace_bps[i])
			return 1;
	return 0;
}

/*
 * The registers skip.c does not hold, registered at @ip, disabled.
 * Registration stops at the first failure (ENOSPC: perf or another
 * tool holds this task's or every CPU's slots).
 */
static void dcg_hop_register(struct dcg_slot *s, unsigned int room, u64 ip)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	struct perf_event_attr attr;
	struct perf_event *bp;

	while (h->nregs < room) {
		hw_breakpoint_init(&attr);
		attr.bp_addr = ip;
		attr.bp_len = sizeof(long);	/* x86: what execute takes */
		attr.bp_type = HW_BREAKPOINT_X;
		attr.disabled = 1;
		attr.exclude_kernel = 1;
		bp = register_user_hw_breakpoint(&attr, dcg_hop_hit, s,
						 current);
		if (IS_ERR(bp))
			return;
		h->bp[h->nregs++] = bp;
	}
}

/*
 * Window start, in its task work (current is the slot's task, may
 * sleep): decide whether the window hops, and make sure the task has
 * its breakpoints.  After dcg_skip_window_start(): skip.c's go first.
 */
static void dcg_hop_window_start(struct dcg_slot *s)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	struct dcg_skip_slot *k = dcg_skip_of(s);
	unsigned int room = DCG_HOP_REGS - !!k->ret_bp - !!k->slot_wp;

	if (!h->wanted)
		return;
	atomic64_inc(&dcg_hop_g.windows);
	if (dcg_hop_debugger()) {
		h->off = 1;
		atomic64_inc(&dcg_hop_g.debugger);
		return;
	}
	if (h->bp[0] && h->bp[0]->hw.target != current)
		dcg_hop_unregister(h);	/* the slot had another task */
	if (h->nregs > room) {
		dcg_hop_unregister(h);	/* skip.c took some since */
	}
	dcg_hop_register(s, room, task_pt_regs(current)->ip);
	if (!h->nregs) {
		h->off = 1;
		atomic64_inc(&dcg_hop_g.no_bps);
	}
}

/* ---- moving and disabling ---- */

static int dcg_hop_enabled(const struct perf_event *bp)
{
	return bp && !bp->attr.disabled;
}

/* Register @i to @addr, enabled (process context: may sleep). */
static int dcg_hop_move(struct dcg_hop_slot *h, int i, u64 addr)
{
	atomic64_inc(&dcg_hop_g.moves);
	return dcg_skip_enable(h->bp[i], addr);	/* skip.c: move + enable */
}

/*
 * Disable register @i of current's slot without sleeping: interrupts
 * off and the event current's own, so modify_user_hw_breakpoint()
 * takes perf_event_disable_local() (as skip.c's dcg_skip_disable()).
 */
static void dcg_hop_disable_one(struct dcg_slot *s, int i)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	unsigned long flags;

	if (current != s->task || !dcg_hop_enabled(h->bp[i]))
		return;
	local_irq_save(flags);
	if (dcg_user_bp_disable_local(h->bp[i]))	/* skip.c */
		atomic64_inc(&dcg_hop_g.arm_errors);
	local_irq_restore(flags);
}

/* dcg_window_finish(): no breakpoint stays enabled after its window. */
static void dcg_hop_window_end(struct dcg_slot *s)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	int i;

	for (i = 0; i < h->nregs; i++)
		dcg_hop_disable_one(s, i);
	h->state = DCG_HOP_NONE;
}

/* Teardown (process context, notifier gone): let go of the events. */
static void dcg_hop_release(struct dcg_slot *s)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);

	dcg_hop_unregister(h);
	h->state = DCG_HOP_NONE;
}

/* ---- the plan ---- */

/* Register holding @addr enabled, or -1. */
static int dcg_hop_reg_at(const struct dcg_hop_slot *h, u64 addr)
{
	int i;

	for (i = 0; i < h->nregs; i++)
		if (dcg_hop_enabled(h->bp[i]) && h->bp[i]->attr.bp_addr == addr)
			return i;
	return -1;
}

/* The register to move for a new address: disabled first, then LRU. */
static int dcg_hop_victim(const struct dcg_hop_slot *h, const u8 *keep)
{
	int i, best = -1;

	for (i = 0; i < h->nregs; i++) {
		if (keep[i])
			continue;
		if (!dcg_hop_enabled(h->bp[i]))
			return i;
		if (best < 0 || (s32)(h->last_hit[i] - h->last_hit[best]) < 0)
			best = i;
	}
	return best;
}

/*
 * Which register gets which address of @p: those already there stay,
 * the others go to registers no plan address needs.  Fills h->want[]
 * (0: leave as is); returns how many registers move.
 */
static int dcg_hop_assign(struct dcg_hop_slot *h, const struct dcg_hop_plan *p)
{
	u8 keep[DCG_HOP_MAX] = { 0 }, placed[DCG_HOP_MAX] = { 0 };
	int i, r, moves = 0;

	for (i = 0; i < DCG_HOP_MAX; i++)
		h->want[i] = 0;
	for (i = 0; i < p->n; i++) {
		r = dcg_hop_reg_at(h, p->addr[i]);
		if (r >= 0) {
			keep[r] = placed[i] = 1;
		}
	}
	for (i = 0; i < p->n; i++) {
		if (placed[i])
			continue;
		r = dcg_hop_victim(h, keep);
		if (r < 0)
			return -1;	/* cannot happen: p->n <= nregs */
		keep[r] = 1;
		h->want[r] = p->addr[i];
		moves++;
	}
	return moves;
}

/* May the task run natively from this stop? */
static int dcg_hop_usable(struct dcg_slot *s)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);

	return h->wanted && !h->off && h->nregs && s->mode == DCG_MODE_STEP &&
	       !dcg_uf_keeps_tf(s) && !current->ptrace && !dcg_stopping() &&
	       !dcg_skip_native(s);
}

static void dcg_hop_work_fn(struct callback_head *cb);

static int dcg_hop_queue_work(struct dcg_hop_slot *h)
{
	if (atomic_cmpxchg(&h->work_queued, 0, 1))
		return 0;	/* still queued: it reads the newest plan */
	if (dcg_task_work_queue(&h->work, dcg_hop_work_fn,
				&dcg_g.works_pending, &dcg_works_wq)) {
		atomic_set(&h->work_queued, 0);
		return -ESRCH;
	}
	return 0;
}

/*
 * A stop at @regs->ip that the engine has seen (slot INTRAP, interrupts
 * off): plan from here.  Returns 1 when the task is to run natively (TF
 * cleared here), 0 when it is to be stepped (the caller keeps or sets
 * TF).  RF goes on when an enabled register of ours holds this ip, so
 * that the insn about to run does not hit it.
 */
/* dcg_hop_plan() may be inlined here: its frame (dyncg.c) comes along */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-larger-than="
static int dcg_hop_plan_stop(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	unsigned int flags = READ_ONCE(dcg_g.annotate) ? DCG_HOP_STRAIGHT : 0;
	struct dcg_hop_plan p;
	int moves, go = 0;

	h->state = DCG_HOP_NONE;
	if (!dcg_hop_usable(s))
		return 0;
	if (dcg_hop_plan(regs->ip, h->nregs, flags, &s->ops, &p) ==
	    DCG_HOP_STEP) {
		atomic64_inc(&dcg_hop_g.planned_step);
	} else {
		moves = dcg_hop_assign(h, &p);
		if (moves == 0) {
			h->state = DCG_HOP_NATIVE;
			go = 1;
		} else if (moves > 0 && !dcg_hop_queue_work(h)) {
			h->start = regs->ip;
			h->state = DCG_HOP_ARMING;
			go = 1;
		} else {
			atomic64_inc(&dcg_hop_g.no_work);
		}
	}
	if (dcg_hop_reg_at(h, regs->ip) >= 0)
		regs->flags |= X86_EFLAGS_RF;
	if (go) {
		atomic64_inc(&dcg_hop_g.runs);
		dcg_tf_disarm_current(regs);
	}
	return go;
}
#pragma GCC diagnostic pop

/* Hook of dcg_trap_step(), after the engine's stop and skip.c's. */
static int dcg_hop_after_stop(struct dcg_slot *s, struct pt_regs *regs)
{
	if (!dcg_hop_of(s)->wanted)
		return 0;
	return dcg_hop_plan_stop(s, regs);
}

/*
 * The task work of a plan made in the trap: move the registers that
 * change, before the stop's insn runs.  A signal delivered on the same
 * way out (before task works) moved regs->ip: then step instead.
 */
static void dcg_hop_work_fn(struct callback_head *cb)
{
	struct dcg_hop_slot *h = container_of(cb, struct dcg_hop_slot, work);
	struct dcg_slot *s = &dcg_slots[h - dcg_hop_slots];
	struct pt_regs *regs = task_pt_regs(current);
	int i, err = 0;

	atomic_set(&h->work_queued, 0);
	if (current == s->task && !dcg_stopping() &&
	    h->state == DCG_HOP_ARMING &&
	    atomic_read(&s->state) == DCG_SLOT_ARMED) {
		if (regs->ip != h->start) {
			atomic64_inc(&dcg_hop_g.moved_away);
			err = 1;
		}
		for (i = 0; i < h->nregs && !err; i++)
			if (h->want[i])
				err = dcg_hop_move(h, i, h->want[i]);
		if (err < 0)
			atomic64_inc(&dcg_hop_g.arm_errors);
		h->state = err ? DCG_HOP_NONE : DCG_HOP_NATIVE;
		if (err)
			dcg_tf_arm_current(s, regs);
	}
	dcg_task_work_done(&dcg_g.works_pending, &dcg_works_wq);
}

/* ---- the hits (#DB context, through hw_breakpoint's notifier) ---- */

static int dcg_hop_reg_of(const struct dcg_hop_slot *h,
			  const struct perf_event *bp)
{
	int i;

	for (i = 0; i < h->nregs; i++)
		if (h->bp[i] == bp)
			return i;
	return -1;
}

/*
 * The hit is on a transfer the engine must see run.  Stepping it costs
 * a second trap; a near call, jmp or ret is done here instead
 * (runtime/near_branch.c: the new rip and rsp, a call's return address
 * stored without faulting), and the engine gets the stop after it as
 * from the step.  Returns 0 when the insn is to be stepped after all:
 * any other insn, memory that is not there without a fault, a shadow
 * stack (the CPU keeps it: a call done here would leave it behind).
 * RF, which hw_breakpoint sets after this, keeps the new rip from
 * hitting a register: the plan made there never needs one at its own
 * address.
 */
static int dcg_hop_transfer(struct dcg_slot *s, struct pt_regs *regs)
{
	const u64 gpr[16] = {
		regs->ax, regs->cx, regs->dx, regs->bx, regs->sp, regs->bp,
		regs->si, regs->di, regs->r8, regs->r9, regs->r10, regs->r11,
		regs->r12, regs->r13, regs->r14, regs->r15,
	};
	u8 buf[DCG_INSN_MAX_LEN];
	struct dcg_near_branch nb;
	int n;

	if (!user_64bit_mode(regs) || dcg_current_has_shstk())
		return 0;
	n = dcg_read_nofault(regs->ip, buf, sizeof(buf), false);
	if (n <= 0 || !dcg_near_branch(buf, n, regs->ip, regs->sp, gpr,
				       s->ops.read, s->ops.ctx, &nb))
		return 0;
	if (nb.pushed && copy_to_user_nofault((void __user *)nb.sp, &nb.push,
					      sizeof(nb.push)))
		return 0;
	regs->ip = nb.ip;
	regs->sp = nb.sp;
	atomic64_inc(&dcg_hop_g.transfers);
	dcg_uf_stop(s, regs);	/* the program's TF is not kept: hop_usable */
	if (!dcg_window_stop(s, regs))
		dcg_tf_arm_current(s, regs);
	return 1;
}

/*
 * The task got to @regs->ip natively: the engine counts the run, then
 * the plan made there says whether the insn is a transfer, done here
 * or stepped, or the task hops on (a jump target of the frontier, an
 * older plan's address).
 */
static void dcg_hop_arrived(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);

	s->stops++;
	atomic64_inc(&dcg_g.stops);
	atomic64_inc(&dcg_hop_g.hits);
	if (!dcg_thread_hop(&s->engine, regs->ip, regs->sp, &s->ops))
		atomic64_inc(&dcg_hop_g.inexact);
	if (uf)
		dcg_uf_before(s, uf, regs);	/* a syscall's r11, as stepped */
	if (!dcg_hop_plan_stop(s, regs) && !dcg_hop_transfer(s, regs))
		dcg_tf_arm_current(s, regs);	/* step the transfer */
}

static void dcg_hop_hit(struct perf_event *bp, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	struct dcg_slot *s = bp->overflow_handler_context;
	struct dcg_hop_slot *h = dcg_hop_of(s);
	int i = dcg_hop_reg_of(h, bp);

	if (i < 0 || !regs || !user_mode(regs))
		return;
	if (current != READ_ONCE(s->task) || current->mm != s->mm ||
	    dcg_stopping() || atomic_read(&s->state) != DCG_SLOT_ARMED ||
	    dcg_skip_native(s)) {
		/* the window ended (elsewhere, exec) or a subtree is skipped */
		atomic64_inc(&dcg_hop_g.stray);
		dcg_hop_disable_one(s, i);
		return;
	}
	if (h->state != DCG_HOP_NATIVE) {
		/*
		 * A step trap whose next insn is at one of our addresses:
		 * DR6 names the register too, and hw_breakpoint calls us
		 * first.  The step is die_notifier.c's; RF is set.
		 */
		atomic64_inc(&dcg_hop_g.stray);
		return;
	}
	if (atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_INTRAP) != DCG_SLOT_ARMED) {
		atomic64_inc(&dcg_hop_g.stray);
		return;
	}
	h->last_hit[i] = ++h->seq;
	s->state_after_trap = DCG_SLOT_ARMED;
	dcg_hop_arrived(s, regs);	/* a transfer done may end the window */
	atomic_set(&s->state, s->state_after_trap);
}

/*
 * dcg_on_signal(), slot PAUSED: a signal interrupts a native run (the
 * engine is told where, from the frame's saved ip, as a step would
 * have left it), or comes before the task work moved the registers
 * (the frame's ip is the stop's: nothing ran).  The handler is stepped.
 */
static void dcg_hop_signal(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_hop_slot *h = dcg_hop_of(s);
	struct rt_sigframe __user *f = (void __user *)regs->sp;
	u64 ip, sp;

	if (h->state == DCG_HOP_NATIVE && user_64bit_mode(regs) &&
	    !copy_from_user_nofault(&ip, &f->uc.uc_mcontext.ip, sizeof(ip)) &&
	    !copy_from_user_nofault(&sp, &f->uc.uc_mcontext.sp, sizeof(sp)) &&
	    !dcg_thread_hop(&s->engine, ip, sp, &s->ops))
		atomic64_inc(&dcg_hop_g.inexact);
	h->state = DCG_HOP_NONE;
}

/* ---- the summary ---- */

static const struct dcg_counter dcg_hop_counters[] = {
	{ "windows", " %lld windows", &dcg_hop_g.windows },
	{ "hits", ", %lld hits", &dcg_hop_g.hits },
	{ "runs", ", %lld native runs", &dcg_hop_g.runs },
	{ "moves", ", %lld register moves", &dcg_hop_g.moves },
	{ "planned_step", ", %lld stops planned as step", &dcg_hop_g.planned_step },
	{ "inexact", ", %lld inexact counts", &dcg_hop_g.inexact },
	{ "transfers", ", %lld transfers done in the hit", &dcg_hop_g.transfers },
	{ "stray", ", %lld stray hits", &dcg_hop_g.stray },
	{ "debugger", "; stepped: %lld windows of a debugged task", &dcg_hop_g.debugger },
	{ "no_bps", ", %lld windows without breakpoints", &dcg_hop_g.no_bps },
	{ "arm_errors", ", %lld stops after a move failed", &dcg_hop_g.arm_errors },
	{ "moved_away", ", %lld stops after a signal", &dcg_hop_g.moved_away },
	{ "no_work", ", %lld stops without task work", &dcg_hop_g.no_work },
};

/* probe end (text output): the hop line, and kernel windows stepped. */
static void dcg_hop_print(void)
{
	if (dcg_g.kernel && READ_ONCE(dcg_hop_g.mode) == DCG_HOPM_HOP)
		_stp_printf("dynamic call graph: kernel windows are %s, not hopped: a kernel #DB cannot move debug registers (doc/hop-kernel.md, part B)\n",
			    dcg_g.btf_works ? "block-stepped" : "stepped");
	if (!atomic64_read(&dcg_hop_g.windows))
		return;
	_stp_printf("dynamic call graph hop:");
	dcg_counters_print(dcg_hop_counters, ARRAY_SIZE(dcg_hop_counters));
	_stp_printf("\n");
}

/* "windows=N hits=N ..." for dynamic_call_graph_hop_stats(). */
static void dcg_hop_stats(char *buf, size_t len)
{
	dcg_counters_format(buf, len, dcg_hop_counters,
			    ARRAY_SIZE(dcg_hop_counters));
}
