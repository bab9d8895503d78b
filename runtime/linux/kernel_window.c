// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_window.c - kernel windows: opened by dynamic_call_graph(1) in
 * a kprobe handler, ended by whichever comes first of
 *   - the root function's return (the trap handler sees the shadow
 *     stack empty and clears TF: the kretprobe trampoline and the
 *     .return handler are never stepped),
 *   - dynamic_call_graph(0) in a later probe of the same task,
 *   - the guard: a task work queued when the window opens, which runs
 *     when the task goes back to user mode (or exits), in the task, in
 *     process context.  It ends a window still open, clears the live
 *     TF, unregisters the preempt notifier and frees the window,
 *   - probe end.
 *
 * The kprobe handler arms the window by setting TF in the probe's saved
 * registers: an ftrace-based kprobe (kprobe.function on 6.1) restores
 * them with popfq on its way back into the function, and from there on
 * every instruction of the task in the kernel traps (kernel_trap.c).
 *
 * Kernel threads are refused: they never go back to user mode, so no
 * guard would ever end their window.
 */
#include <linux/sched/task.h>
#include <linux/wait.h>
#include <linux/delay.h>

static DECLARE_WAIT_QUEUE_HEAD(dcg_kguard_wq);

static struct dcg_kwin *dcg_kwin_find(struct task_struct *t)
{
	int i;

	for (i = 0; i < DCG_MAX_KTASKS; i++) {
		struct dcg_kwin *kw = &dcg_kwins[i];

		if (READ_ONCE(kw->s.task) == t &&
		    atomic_read(&kw->state) != DCG_KW_FREE)
			return kw;
	}
	return NULL;
}

/* A FREE window for current, in state BUSY, or NULL. */
static struct dcg_kwin *dcg_kwin_claim(void)
{
	int i;

	for (i = 0; i < DCG_MAX_KTASKS; i++) {
		struct dcg_kwin *kw = &dcg_kwins[i];

		if (atomic_cmpxchg(&kw->state, DCG_KW_FREE, DCG_KW_BUSY) !=
		    DCG_KW_FREE)
			continue;
		get_task_struct(current);
		WRITE_ONCE(kw->s.task, current);
		return kw;
	}
	return NULL;
}

/* Give a window back; the caller holds it in BUSY. */
static void dcg_kwin_release(struct dcg_kwin *kw)
{
	struct task_struct *t = kw->s.task;

	WRITE_ONCE(kw->s.task, NULL);
	if (t)
		put_task_struct(t);
	atomic_set(&kw->state, DCG_KW_FREE);
}

static void dcg_kguard_fn(struct callback_head *cb);

/*
 * Take a window to BUSY from whatever state it is in; another CPU holds
 * BUSY only for the few stores of probe end, so wait that out.
 */
static int dcg_kwin_take(struct dcg_kwin *kw)
{
	int st;

	for (;;) {
		st = atomic_read(&kw->state);
		if (st == DCG_KW_BUSY || st == DCG_KW_INTRAP) {
			cpu_relax();
			continue;
		}
		if (atomic_cmpxchg(&kw->state, st, DCG_KW_BUSY) == st)
			return st;
	}
}

static int dcg_kguard_queue(struct dcg_kwin *kw)
{
	init_task_work(&kw->guard, dcg_kguard_fn);
	atomic_inc(&dcg_k.guards);
	/*
	 * Not stap's stp_task_work_add(): stap's exit waits for the works
	 * it counts before our teardown can cancel them, and a guard runs
	 * only when its task returns to user mode, so the unload would wait
	 * for a task asleep in its window.  dcg_k.guards counts ours.
	 */
	if (task_work_add(current, &kw->guard, TWA_RESUME)) {
		if (atomic_dec_and_test(&dcg_k.guards))
			wake_up(&dcg_kguard_wq);
		return -ESRCH;
	}
	return 0;
}

/*
 * Does the function at @addr start with ENDBR64, or with one of the NOPs
 * that the kernel seals an unused ENDBR64 into at boot (kcompat.h K7)?
 */
static int dcg_kendbr(unsigned long addr)
{
	static const u8 endbr[][DCG_ENDBR_SIZE] = {
		{ 0xf3, 0x0f, 0x1e, 0xfa },	/* endbr64 */
		{ 0x66, 0x0f, 0x1f, 0x00 },	/* sealed, 6.12 */
		{ 0x0f, 0x1f, 0x40, 0xd6 },	/* sealed, 7.2 */
	};
	u8 insn[DCG_ENDBR_SIZE];
	int i;

	if (dcg_kread(NULL, addr, insn, sizeof(insn)) != sizeof(insn))
		return 0;
	for (i = 0; i < ARRAY_SIZE(endbr); i++)
		if (!memcmp(insn, endbr[i], sizeof(insn)))
			return 1;
	return 0;
}

/*
 * Is @off (regs->ip's offset in its function) a kprobe on the function's
 * name?  The probe sits at +0, or past the ENDBR64 at +4; the handler
 * sees regs->ip at the probe or one past it (kcompat.h K7).
 */
static int dcg_kat_entry(unsigned long ip, unsigned long off)
{
	if (off <= 1)
		return 1;
	return (off == DCG_ENDBR_SIZE || off == DCG_ENDBR_SIZE + 1) &&
	       dcg_kendbr(ip - off);
}

/*
 * Where the window starts.  A kprobe handler sees regs->ip at the probe
 * address or one past it; at a function's first byte [sp] is the
 * return address.
 */
static void dcg_kwin_entry(struct dcg_kwin *kw, struct pt_regs *regs,
			   int at_entry)
{
	struct dcg_slot *s = &kw->s;
	unsigned long size = 0, off = ~0UL, ip = regs->ip;
	u64 ret = 0;

	if (dcg_ksize_offset && dcg_ksize_offset(ip, &size, &off) &&
	    dcg_kat_entry(ip, off))
		ip -= off, off = 0;	/* at the entry (kcompat.h K7) */
	else if (off != 0)
		ip = regs->ip - 1;	/* kprobe at ip - 1, mid-function */
	s->entry_ip = ip;
	s->entry_sp = regs->sp;
	s->at_entry = at_entry && off == 0 &&
		      dcg_kread(s, regs->sp, &ret, 8) == 8 &&
		      ret >= TASK_SIZE_MAX;
	s->entry_ret = s->at_entry ? ret : 0;
	s->entry_ts = dcg_now_ns();
	dcg_regs_from(&s->entry_regs, regs);
	s->entry_regs.ip = ip;
}

static void dcg_kwin_setup(struct dcg_kwin *kw, struct pt_regs *regs,
			   int at_entry)
{
	struct dcg_slot *s = &kw->s;

	/*
	 * Stepped, but classified with the block walk: under QEMU TCG an
	 * interrupt that becomes pending at an IRQ-enabling popf is taken
	 * before the step trap of that popf, and that stop is lost.  The
	 * walk covers the straight-line insns between two stops, so a lost
	 * stop costs nothing; with every stop present it gives the same
	 * answer as step classification.
	 */
	s->mode = DCG_MODE_STEP;
	dcg_thread_init(&s->engine, DCG_MODE_EMU_BLOCK, s->frames, s->cap);
	s->ops.read = dcg_kread;
	s->ops.func_bounds = dcg_kfunc_bounds;
	s->ops.emit = dcg_emit;
	s->ops.ctx = s;
	s->ops.thunks = &dcg_kthunks;
	dcg_slot_profile(s);	/* task_slots.c: annotate */
	s->budget = READ_ONCE(dcg_g.budget);
	s->produced = s->dropped = s->lost_buffer = s->stops = 0;
	s->tid = current->pid;
	s->pid = current->tgid;
	s->mm = current->mm;		/* the guard tells an exec by it */
	s->opened = 0;
	dcg_kwin_entry(kw, regs, at_entry);
	kw->syncing = 1;
	kw->in_own = 0;
	kw->sw_pending = 0;
	kw->irq_base = 0;
	kw->irq_ip = 0;
	kw->irqs = kw->irq_gaps = 0;
	kw->exc_faults = kw->flt_last = 0;
	kw->faults = kw->fault_gaps = 0;
	if (!dcg_exc_counting())
		atomic64_inc(&dcg_k.fault_blind);
	kw->own_stops = kw->sync_stops = 0;
	dcg_ksym_note(s->entry_ip);
	dcg_ksym_note(s->entry_ret);
}

/* A window's count into a total: the most in one window is kept too. */
static void dcg_kwin_max(atomic64_t *max_seen, u64 n)
{
	s64 max = atomic64_read(max_seen);

	while ((s64)n > max) {
		s64 was = atomic64_cmpxchg(max_seen, max, n);

		if (was == max)
			break;
		max = was;
	}
}

/* The window's interrupts and faults into the summary's totals. */
static void dcg_kwin_irqs_total(struct dcg_kwin *kw)
{
	if (kw->irqs) {
		atomic64_add(kw->irqs, &dcg_k.irqs);
		atomic64_add(kw->irq_gaps, &dcg_k.irq_gaps);
		atomic64_inc(&dcg_k.irq_windows);
		dcg_kwin_max(&dcg_k.irq_max, kw->irqs);
	}
	if (kw->faults) {
		atomic64_add(kw->faults, &dcg_k.faults);
		atomic64_add(kw->fault_gaps, &dcg_k.fault_gaps);
		atomic64_inc(&dcg_k.fault_windows);
		dcg_kwin_max(&dcg_k.fault_max, kw->faults);
	}
	kw->irqs = kw->irq_gaps = 0;
	kw->faults = kw->fault_gaps = 0;
}

/*
 * Emit a window's END events and what it lost, and fold its counters
 * into the totals.  Not window.c's dcg_window_finish(): that one also
 * ends user-mode skipping (skip.c), whose state exists only for the
 * slots of dcg_slots[]; the rest is the same dcg_slot_end_window().
 */
static void dcg_kwin_finish(struct dcg_kwin *kw)
{
	atomic64_add(kw->own_stops, &dcg_k.own_stops);
	atomic64_add(kw->sync_stops, &dcg_k.sync_stops);
	kw->own_stops = kw->sync_stops = 0;
	dcg_kwin_irqs_total(kw);
	dcg_slot_end_window(&kw->s);
}

/*
 * dynamic_call_graph(1) in a kprobe handler.  @regs are the probe's
 * saved kernel registers.  Returns NULL or a message for error().
 */
static const char *dcg_kopen(struct pt_regs *regs, int at_entry)
{
	struct dcg_kwin *kw;
	int st, fresh = 0;

	if (!regs || user_mode(regs))
		return "dynamic_call_graph: no kernel registers in this probe";
	if (!in_task() || (current->flags & PF_KTHREAD) ||
	    !READ_ONCE(dcg_k.ready) || READ_ONCE(dcg_k.stopping) ||
	    !dcg_g.registered) {
		atomic64_inc(&dcg_k.refused);
		return NULL;
	}
	kw = dcg_kwin_find(current);
	if (kw) {
		/* the same task again before it went back to user mode */
		st = atomic_read(&kw->state);
		if ((st != DCG_KW_DRAINED && st != DCG_KW_CLOSED) ||
		    atomic_cmpxchg(&kw->state, st, DCG_KW_BUSY) != st) {
			atomic64_inc(&dcg_k.nested);
			return NULL;
		}
		if (st == DCG_KW_DRAINED)
			dcg_kwin_finish(kw);
	} else {
		kw = dcg_kwin_claim();
		if (!kw) {
			atomic64_inc(&dcg_k.refused);
			return NULL;
		}
		fresh = 1;
	}
	if (dcg_kslot_frames(&kw->s, kw - dcg_kwins) ||
	    (fresh && dcg_kguard_queue(kw))) {
		atomic64_inc(&dcg_k.refused);
		if (fresh)
			dcg_kwin_release(kw);
		else
			atomic_set(&kw->state, DCG_KW_CLOSED);
		return NULL;
	}
	dcg_kwin_setup(kw, regs, at_entry);
	dcg_sched_attach(kw);
	dcg_g.kernel = 1;
	dcg_out_header(current);
	dcg_out_thread(&kw->s, DCG_THREAD_START);
	atomic64_inc(&dcg_k.windows);
	atomic_set(&kw->state, DCG_KW_ARMED);
	regs->flags |= X86_EFLAGS_TF;
	return NULL;
}

/* dynamic_call_graph(0) in a kprobe (usually kretprobe) handler. */
static void dcg_kclose(struct pt_regs *regs)
{
	struct dcg_kwin *kw = dcg_kwin_find(current);
	int st;

	if (!kw)
		return;
	st = atomic_read(&kw->state);
	if ((st != DCG_KW_ARMED && st != DCG_KW_DRAINED) ||
	    atomic_cmpxchg(&kw->state, st, DCG_KW_BUSY) != st)
		return;
	/* A live TF makes the next insn trap: a tail trap clears it. */
	if (regs && !user_mode(regs))
		regs->flags &= ~X86_EFLAGS_TF;
	dcg_kwin_finish(kw);
	atomic_set(&kw->state, DCG_KW_CLOSED);
}

/*
 * A task that exited or exec'd in its kernel window (the guard runs in
 * exit_task_work(), or on the return to the new image) gets the THREAD
 * record dcg-trace writes; unless it has a user-mode slot too, whose
 * hooks in window.c write it already.
 */
static void dcg_kwin_thread_end(struct dcg_kwin *kw)
{
	struct dcg_slot *s = &kw->s;
	u32 what;

	if (current->flags & PF_EXITING)
		what = DCG_THREAD_EXIT;
	else if (s->mm && current->mm != s->mm)
		what = DCG_THREAD_EXEC;
	else
		return;
	if (READ_ONCE(dcg_thread_hooks) && dcg_slot_find(current))
		return;
	s->tid = current->pid;		/* an exec'ing thread became leader */
	s->pid = current->tgid;
	dcg_out_thread(s, what);
	dcg_out_flush(s);
}

/*
 * The task is on its way back to user mode, or exiting: in process
 * context, in the task itself.  Whatever is still open ends here.
 */
static void dcg_kguard_fn(struct callback_head *cb)
{
	struct dcg_kwin *kw = container_of(cb, struct dcg_kwin, guard);
	int st = dcg_kwin_take(kw);

	if (st == DCG_KW_ARMED) {
		dcg_live_tf_clear();	/* the next trap is a tail trap */
		atomic64_inc(&dcg_k.by_guard);
	}
	if (st == DCG_KW_ARMED || st == DCG_KW_DRAINED)
		dcg_kwin_finish(kw);
	if (!READ_ONCE(dcg_k.stopping))
		dcg_kwin_thread_end(kw);
	dcg_sched_detach(kw);
	dcg_kwin_release(kw);
	/*
	 * Before the program goes on (and maybe exits, ending the session),
	 * let stapio read the window: transport.c says why.  Still counted
	 * in dcg_k.guards, so teardown cannot free this code under us.
	 */
	if (!READ_ONCE(dcg_k.stopping))
		dcg_out_wait_read();
	if (atomic_dec_and_test(&dcg_k.guards))
		wake_up(&dcg_kguard_wq);
}

/* probe begin (atomic context). */
static void dcg_kernel_begin(void)
{
	dcg_ksyms_init();
	dcg_sched_key_get();
	dcg_exc_begin();	/* exceptions.c: may sleep, in a work */
}

static void dcg_kernel_summary(void)
{
	if (dcg_g.output == DCG_OUT_BINARY || !atomic64_read(&dcg_k.windows))
		return;
	_stp_printf("dynamic call graph (kernel): %lld windows, %lld traps (%lld in the probe's return path, %lld in this module), %lld tail traps, %lld drained at the root's return, %lld ended at return to user, %lld aborted, switches %lld out / %lld in, %lld nested, %lld refused, func bounds %s\n",
		    (long long)atomic64_read(&dcg_k.windows),
		    (long long)atomic64_read(&dcg_k.stops),
		    (long long)atomic64_read(&dcg_k.sync_stops),
		    (long long)atomic64_read(&dcg_k.own_stops),
		    (long long)atomic64_read(&dcg_k.tail_traps),
		    (long long)atomic64_read(&dcg_k.drained),
		    (long long)atomic64_read(&dcg_k.by_guard),
		    (long long)atomic64_read(&dcg_k.aborted),
		    (long long)atomic64_read(&dcg_k.sched_out),
		    (long long)atomic64_read(&dcg_k.sched_in),
		    (long long)atomic64_read(&dcg_k.nested),
		    (long long)atomic64_read(&dcg_k.refused),
		    dcg_ksize_offset ? "kallsyms" : "none");
	_stp_printf("dynamic call graph (kernel): interrupts inside windows: %lld in %lld gaps between stops (timer %lld, ipi %lld, device %lld, nmi %lld, other %lld; softirqs %lld), in %lld of %lld windows, at most %lld in one window\n",
		    (long long)atomic64_read(&dcg_k.irqs),
		    (long long)atomic64_read(&dcg_k.irq_gaps),
		    (long long)atomic64_read(&dcg_k.irq_kinds[0]),
		    (long long)atomic64_read(&dcg_k.irq_kinds[1]),
		    (long long)atomic64_read(&dcg_k.irq_kinds[2]),
		    (long long)atomic64_read(&dcg_k.irq_kinds[3]),
		    (long long)atomic64_read(&dcg_k.irq_kinds[4]),
		    (long long)atomic64_read(&dcg_k.irq_kinds[5]),
		    (long long)atomic64_read(&dcg_k.irq_windows),
		    (long long)atomic64_read(&dcg_k.windows),
		    (long long)atomic64_read(&dcg_k.irq_max));
	_stp_printf("dynamic call graph (kernel): exceptions inside windows: %lld page faults in %lld gaps between stops, in %lld of %lld windows, at most %lld in one window; %lld windows not counted (opened before the page_fault_kernel probe was in place)\n",
		    (long long)atomic64_read(&dcg_k.faults),
		    (long long)atomic64_read(&dcg_k.fault_gaps),
		    (long long)atomic64_read(&dcg_k.fault_windows),
		    (long long)atomic64_read(&dcg_k.windows),
		    (long long)atomic64_read(&dcg_k.fault_max),
		    (long long)atomic64_read(&dcg_k.fault_blind));
	/*
	 * No flush here: the end probe's epilogue sends this together with
	 * the rest of the end-of-run text, as one message.  Stapio 4.8,
	 * once told to exit, reads only the message in hand.
	 */
}

/*
 * probe end (atomic context): no new windows; finish the windows of
 * tasks that are switched out or drained.  A window that is running on
 * a CPU right now loses TF at its next trap and is finished by its
 * guard.
 */
static void dcg_kernel_end(void)
{
	int i;

	WRITE_ONCE(dcg_k.stopping, 1);
	smp_mb();
	for (i = 0; i < DCG_MAX_KTASKS; i++) {
		struct dcg_kwin *kw = &dcg_kwins[i];
		int st = atomic_read(&kw->state);

		if ((st != DCG_KW_PAUSED && st != DCG_KW_DRAINED) ||
		    atomic_cmpxchg(&kw->state, st, DCG_KW_BUSY) != st)
			continue;
		if (st == DCG_KW_PAUSED)
			atomic64_inc(&dcg_k.aborted);
		dcg_kwin_finish(kw);
		atomic_set(&kw->state, DCG_KW_CLOSED);
	}
	dcg_kernel_summary();
	dcg_ksyms_write();
}

/*
 * Cancel @t's guard if it has not run.  stap's stp_task_work_cancel() is
 * the one binding of the kernel's cancel-by-function that each stap
 * version gets right (kcompat.h K6); it drops one from stap's count of
 * pending works, which the guard never joined, so it takes one first.
 */
static bool dcg_kguard_cancel(struct task_struct *t)
{
	stp_task_work_get();
	if (stp_task_work_cancel(t, dcg_kguard_fn))
		return true;
	stp_task_work_put();
	return false;
}

/* All windows FREE? Wakes sleepers and cancels guards on the way. */
static int dcg_kernel_drain_once(void)
{
	int i, st, busy = 0;

	for (i = 0; i < DCG_MAX_KTASKS; i++) {
		struct dcg_kwin *kw = &dcg_kwins[i];
		struct task_struct *t = READ_ONCE(kw->s.task);

		if (atomic_read(&kw->state) == DCG_KW_FREE || !t)
			continue;
		busy++;
		if (READ_ONCE(kw->pn_linked)) {
			/* asleep in the window: its sched_in unlinks */
			if (!task_is_running(t))
				wake_up_process(t);
			continue;
		}
		/*
		 * An ARMED window may have TF in a saved frame (a page fault
		 * that slept): only its guard, at return to user, may let go.
		 */
		st = atomic_read(&kw->state);
		if ((st != DCG_KW_PAUSED && st != DCG_KW_DRAINED &&
		     st != DCG_KW_CLOSED) ||
		    !dcg_kguard_cancel(t))
			continue;
		st = dcg_kwin_take(kw);
		if (st == DCG_KW_PAUSED || st == DCG_KW_DRAINED)
			dcg_kwin_finish(kw);
		dcg_kwin_release(kw);
		if (atomic_dec_and_test(&dcg_k.guards))
			wake_up(&dcg_kguard_wq);
	}
	return busy;
}

/*
 * Teardown, sleepable, before the die notifier goes: every window must
 * have let go of its task (notifier unlinked, guard run or cancelled),
 * since both point into this module.
 */
static void dcg_kernel_teardown(void)
{
	int i, waited = 0;

	WRITE_ONCE(dcg_k.stopping, 1);
	smp_mb();
	while (dcg_kernel_drain_once()) {
		msleep(10);
		waited += 10;
		if (waited % 5000 == 0)
			pr_warn("dyncg: waiting for %d traced task(s) to leave their kernel window\n",
				atomic_read(&dcg_k.guards));
	}
	wait_event(dcg_kguard_wq, atomic_read(&dcg_k.guards) == 0);
	dcg_exc_teardown();
	dcg_sched_key_put();
	for (i = 0; i < DCG_MAX_KTASKS; i++) {
		dcg_kwins[i].s.frames = NULL;
		dcg_kwins[i].s.cap = 0;
	}
	dcg_kframes_free();	/* task_slots.c: the windows' pool */
}
