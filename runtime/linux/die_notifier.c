// SPDX-License-Identifier: GPL-2.0
/*
 * die_notifier.c - the #DB and int3 notifier of the traced tasks.
 *
 * exc_debug_user() offers every user-mode #DB to the die chain as
 * DIE_DEBUG, with args->err a *pointer* to dr6 (since 5.10).  Returning
 * NOTIFY_STOP ends its handling: no SIGTRAP.  We claim only a DR_STEP
 * trap of a task that has a slot, that is not in the middle of uprobes'
 * out-of-line single-step, and that no debugger is stepping.  Everything
 * else -- hardware breakpoints, uprobes, ptrace, a debugger, int1 --
 * gets NOTIFY_DONE and goes on to its owner.
 *
 * Priority INT_MAX puts us before uprobes' notifier (INT_MAX - 1), so
 * we see a uprobe's int3 before uprobes runs the probed instruction.
 * uprobes treats a TF that is set at that point as a debugger's and
 * sends SIGTRAP (arch_uprobe_skip_sstep(), arch_uprobe_post_xol()), so
 * at a uprobe hit inside a window we drop TF and a task work sets it
 * again once uprobes is done (see user_window.c).
 *
 * This runs with interrupts off, possibly on any CPU: no locks, no
 * allocation, no sleeping; user memory only through nofault accessors.
 */
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/uprobes.h>
#include <linux/rcupdate.h>
#include <linux/delay.h>
#include <asm/debugreg.h>

static void dcg_queue_work(struct dcg_slot *s);

/*
 * The runtime sets _stp_exit_flag when the session starts to end (staprun
 * killed, exit()), before it takes the probes down and long before our
 * teardown work: stop stepping right there, so that a thread in a busy
 * window does not flood a transport nobody is reading any more.  (A
 * tentative definition: the runtime's transport.c defines it.)
 */
static int _stp_exit_flag;

static int dcg_stopping(void)
{
	return READ_ONCE(dcg_g.stopping) || READ_ONCE(_stp_exit_flag);
}
static void dcg_trap_step(struct dcg_slot *s, struct pt_regs *regs);

static int dcg_in_uprobe_xol(void)
{
#ifdef CONFIG_UPROBES
	return current->utask && current->utask->active_uprobe;
#else
	return 0;
#endif
}

/* A debugger owns this task's TF: let its traps through. */
static int dcg_debugger_steps(void)
{
	return current->ptrace && test_thread_flag(TIF_SINGLESTEP);
}

/*
 * A trap of a task with no slot.  fork() and clone() copy the parent's
 * pt_regs, TF included, so a child of a traced thread starts stepped.
 * If the creator is traced by us and no debugger is involved, the TF is
 * ours: clear it.  Anything else is somebody else's trap, uprobes'
 * out-of-line step above all: a child (or a sibling thread) of a
 * traced thread hitting another module's uprobe would otherwise run
 * on past its XOL slot into garbage.
 */
static int dcg_trap_inherited(struct pt_regs *regs)
{
	struct task_struct *parent;
	int i, ours = 0;

	if (current->ptrace || test_thread_flag(TIF_SINGLESTEP) ||
	    dcg_in_uprobe_xol())
		return NOTIFY_DONE;
	rcu_read_lock();
	parent = rcu_dereference(current->real_parent);
	for (i = 0; i < DCG_MAX_TASKS && !ours; i++) {
		struct task_struct *t = READ_ONCE(dcg_slots[i].task);

		if (!t || atomic_read(&dcg_slots[i].state) < DCG_SLOT_OPENING)
			continue;
		ours = t == parent || t->tgid == current->tgid;
	}
	rcu_read_unlock();
	if (!ours)
		return NOTIFY_DONE;
	regs->flags &= ~X86_EFLAGS_TF;
	atomic64_inc(&dcg_g.foreign_claimed);
	return NOTIFY_STOP;
}

/* The window cannot go on (exec, debugger): stop it where it stands. */
static void dcg_abort_current(struct dcg_slot *s, struct pt_regs *regs,
			      int clear_tf)
{
	int st = atomic_read(&s->state);

	if (st == DCG_SLOT_CLOSED || st == DCG_SLOT_BUSY)
		return;
	if (atomic_cmpxchg(&s->state, st, DCG_SLOT_CLOSED) != st)
		return;
	if (clear_tf)
		dcg_tf_disarm_current(regs);
	atomic64_inc(&dcg_g.aborted);
}

/*
 * A debugger resumes @t (kprobe on user_disable_single_step(), which
 * ptrace_resume() calls for every resume but a step, and detach too):
 * @t is stopped in ptrace_stop(), so its pt_regs and TIF_BLOCKSTEP are
 * safe to change (arch/x86/kernel/step.c does the same).  A debugger
 * can stop the task where no #DB of ours saw it ptraced (preempted at
 * an interrupt's return, say), and it must not run on with our TF:
 * give the window up here.  Besides, QEMU TCG (the test bed) turns a
 * step whose instruction also hits a data watchpoint into a second #DB
 * at asm_exc_debug's first instruction, whose iret frame points at
 * that instruction: the guest loops in the #DB entry for good, with or
 * without this module (a plain PTRACE_SINGLESTEP onto the store hangs
 * it the same way).
 */
static void dcg_on_ptrace_resume(struct task_struct *t)
{
	struct dcg_slot *s = t ? dcg_slot_find(t) : NULL;
	int st;

	if (!s || !t->ptrace || t == current)
		return;
	st = atomic_read(&s->state);
	if (st != DCG_SLOT_OPENING && st != DCG_SLOT_ARMED &&
	    st != DCG_SLOT_PAUSED)
		return;
	if (atomic_cmpxchg(&s->state, st, DCG_SLOT_CLOSED) != st)
		return;
	if (!dcg_uf_keeps_tf(s))	/* the program's own TF stays */
		task_pt_regs(t)->flags &= ~X86_EFLAGS_TF;
	clear_tsk_thread_flag(t, TIF_BLOCKSTEP);
	atomic64_inc(&dcg_g.aborted);
}

/*
 * Return for a single step we took.  A debugger's hardware breakpoint
 * that hit on the same instruction (a data watchpoint traps after the
 * instruction, as the step does: one #DB for both) is not ours:
 * ptrace_triggered(), called by the hw_breakpoint notifier that runs
 * before this one, put its bit in virtual_dr6, which exc_debug_user()
 * started from dr6's DR_STEP alone.  Then our DR_STEP leaves both and
 * the chain goes on, so the debugger gets its SIGTRAP as a breakpoint
 * hit.  B0-3 bits left in dr6 prove nothing: the CPU sets them for an
 * address still in a disabled register, which perf leaves there.
 */
static int dcg_claim_user_step(unsigned long *dr6p)
{
	if (!(current->thread.virtual_dr6 & DR_TRAP_BITS))
		return NOTIFY_STOP;
	*dr6p &= ~DR_STEP;
	current->thread.virtual_dr6 &= ~DR_STEP;
	return NOTIFY_DONE;
}

static int dcg_on_debug(struct pt_regs *regs, unsigned long *dr6p)
{
	struct dcg_slot *s = dcg_slot_find(current);
	int own;

	if (!(*dr6p & DR_STEP))
		return NOTIFY_DONE;
	if (!s)
		return dcg_trap_inherited(regs);
	if (dcg_in_uprobe_xol()) {
		/* uprobes' own step; re-arm once it has finished */
		if (s->wait_xol && !dcg_stopping())
			dcg_queue_work(s);
		return NOTIFY_DONE;
	}
	if (dcg_debugger_steps()) {
		dcg_abort_current(s, regs, 0);
		return NOTIFY_DONE;
	}
	if (current->mm != s->mm || current->ptrace) {
		/* exec'd (TF is gone with the old image) or being debugged */
		dcg_abort_current(s, regs, current->mm == s->mm);
		return current->mm == s->mm ? dcg_claim_user_step(dr6p) :
					      NOTIFY_DONE;
	}
	if (dcg_stopping() ||
	    atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_INTRAP) != DCG_SLOT_ARMED) {
		/* the program's own TF (user_flags.c): its trap */
		if (dcg_uf_own_trap(s, atomic_read(&s->state)))
			return NOTIFY_DONE;
		/* TF left over after the window closed or the module is
		 * going away: ours, so clear it rather than SIGTRAP. */
		dcg_tf_disarm_current(regs);
		atomic64_inc(&dcg_g.tail_traps);
		return dcg_claim_user_step(dr6p);
	}
	s->state_after_trap = DCG_SLOT_ARMED;
	own = dcg_uf_stop(s, regs);	/* user_flags.c: pushf, popf, ... */
	dcg_trap_step(s, regs);
	atomic_set(&s->state, s->state_after_trap);
	/* the CPU would have trapped here for the program too: its SIGTRAP */
	return own ? NOTIFY_DONE : dcg_claim_user_step(dr6p);
}

/*
 * An int3 in a stepped task: a uprobe (entry, statement, or the
 * uretprobe trampoline) inside the window, or the program's own.  Drop
 * TF before uprobes looks at it; the task work re-arms afterwards.
 */
static int dcg_on_int3(struct pt_regs *regs)
{
	struct dcg_slot *s = dcg_slot_find(current);

	if (s)
		dcg_uf_int3(s);	/* user_flags.c: a trap for after the int3 */
	if (!s || !(regs->flags & X86_EFLAGS_TF))
		return NOTIFY_DONE;
	if (atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_PAUSED) != DCG_SLOT_ARMED)
		return NOTIFY_DONE;
	dcg_tf_disarm_current(regs);
	dcg_uf_probe_at(s, regs->ip - 1);	/* user_flags.c */
	if (!dcg_stopping())
		dcg_queue_work(s);
	return NOTIFY_DONE;
}

static int dcg_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;

	/* dyncg kernel mode (kernel_trap.c): kernel-mode single-steps */
	if (val == DIE_DEBUG && args->regs && !user_mode(args->regs))
		return dcg_kernel_debug(args->regs, (unsigned long *)args->err);
	if (!args->regs || !user_mode(args->regs))
		return NOTIFY_DONE;
	if (val == DIE_DEBUG)
		return dcg_on_debug(args->regs, (unsigned long *)args->err);
	if (val == DIE_INT3)
		return dcg_on_int3(args->regs);
	return NOTIFY_DONE;
}

static struct notifier_block dcg_die_nb = {
	.notifier_call = dcg_die,
	.priority = INT_MAX,
};

/* From probe begin: atomic context is fine for registering. */
static int dcg_notifier_register(void)
{
	int rc;

	if (dcg_g.registered)
		return 0;
	rc = register_die_notifier(&dcg_die_nb);
	if (rc == 0)
		dcg_g.registered = 1;
	return rc;
}

/*
 * Sleeps (synchronize_rcu inside).  Callers have set dcg_g.stopping and
 * cleared TF of every traced task that is in the kernel; a task that is
 * in user mode right now still has TF in its live EFLAGS and traps
 * within one instruction: the grace period lets the notifier clear it
 * there (the tail-trap path above) before it goes away.
 */
static void dcg_notifier_unregister(void)
{
	if (!dcg_g.registered)
		return;
	msleep(50);
	unregister_die_notifier(&dcg_die_nb);
	dcg_g.registered = 0;
}
