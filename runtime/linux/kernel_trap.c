// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_trap.c - the kernel-mode single-step trap of a kernel window.
 *
 * exc_debug_kernel() runs NMI-like (irqentry_nmi_enter, on the #DB IST
 * stack) and offers the trap to the die chain as DIE_DEBUG; whatever
 * DR_STEP is left after the chain makes it WARN "something is wonky"
 * and clear TF.  So: no locks, no allocation, no printk, no sleeping;
 * kernel memory only through copy_from_kernel_nofault(); symbols only
 * through kallsyms_lookup_size_offset() (kernel_syms.c says why that is
 * safe here); events through the same emit path as user windows (stap's
 * print buffer, taken with a trylock).
 *
 * Which traps are ours: a DR_STEP trap of a task that has a kernel
 * window.  While the window is ARMED the trap is a stop for the engine;
 * in any other state (the .return probe closed it, the root returned,
 * the task was switched out, probe end) it is the tail of a TF that is
 * still live, and TF is cleared in the trap frame.  A trap of any other
 * task is not ours (kgdb, a debugger) and is left alone.  Only the
 * DR_STEP bit is consumed: a hardware breakpoint that fired on the same
 * instruction still reaches its handler.
 *
 * Interrupts, NMIs and exceptions taken inside the window run with TF
 * clear (every IDT gate clears it, iret restores it), so they are never
 * stepped and the engine's next stop simply follows the interrupted
 * instruction: they do not touch the shadow stack.  What tells that one
 * ran is the CPU's own interrupt counters (kcompat.h K8), read at every
 * stop: a #DB is an interrupt gate and the single-step trap is served
 * before a pending interrupt, so an interrupt taken in the window lands
 * between two stops and moves the counters in that gap only.
 *
 * Stops in this module's own code (probe handlers of other probes, our
 * preempt notifiers) are not given to the engine: the call into them is
 * dropped, and at the first stop back in other code the engine resumes
 * from there without classifying the jump.
 */
#include <asm/debugreg.h>

/* Consume DR_STEP; NOTIFY_STOP only if nothing else is left in dr6. */
static int dcg_kernel_claim(unsigned long *dr6p)
{
	*dr6p &= ~DR_STEP;
	return *dr6p ? NOTIFY_DONE : NOTIFY_STOP;
}

static void dcg_kernel_tail(struct pt_regs *regs)
{
	regs->flags &= ~X86_EFLAGS_TF;
	atomic64_inc(&dcg_k.tail_traps);
}

/*
 * Instructions from @from up to @to on a straight line: what the probe
 * ran (out of line, or in the ftrace trampoline) before the first stop
 * of the window.  1 when the bytes do not lead there.
 */
static unsigned int dcg_kernel_insns_to(struct dcg_slot *s, u64 from, u64 to)
{
	u8 buf[DCG_INSN_MAX_LEN];
	struct dcg_insn insn;
	unsigned int n = 0;
	int len;

	while (from < to && n < 32) {
		len = s->ops.read(s->ops.ctx, from, buf, sizeof(buf));
		if (len <= 0)
			break;
		len = dcg_insn_decode(buf, len, from, &insn);
		if (len <= 0)
			break;
		from += len;
		n++;
	}
	return from == to && n ? n : 1;
}

/*
 * Still at the probe: the first stops are in the kprobe's return path
 * (the ftrace trampoline, or kprobes' out-of-line slot), then one lands
 * just past the probed instruction with the entry's stack pointer.
 * The window starts there.
 */
static void dcg_kernel_sync(struct dcg_kwin *kw, unsigned long ip,
			    unsigned long sp)
{
	struct dcg_slot *s = &kw->s;
	struct dcg_thread *t = &s->engine;

	if (sp != s->entry_sp || ip <= s->entry_ip || ip > s->entry_ip + 32) {
		kw->sync_stops++;
		return;
	}
	kw->syncing = 0;
	s->regs = s->entry_regs;	/* the ROOT's: those at the kprobe */
	if (s->at_entry)
		dcg_thread_begin(t, s->entry_ip, s->entry_sp, s->entry_ret,
				 s->entry_ts, &s->ops);
	else
		dcg_thread_begin_here(t, s->entry_ip, s->entry_sp,
				      s->entry_ts);
	s->opened = 1;
	/*
	 * The probed insn ran (in the trampoline or a slot): count it, after
	 * the ROOT call (which opens the window at 0), and go on from ip.
	 */
	dcg_thread_count(t, s->entry_ip,
			 dcg_kernel_insns_to(s, s->entry_ip, ip), &s->ops);
	t->prev_ip = ip;
	t->prev_sp = sp;
	t->have_prev = 1;
}

static void dcg_irq_delta(struct dcg_rec_irq *d, const struct dcg_irqc *c,
			  const struct dcg_irqc *l)
{
	d->timer = c->timer - l->timer;
	d->ipi = c->ipi - l->ipi;
	d->device = (u32)(c->device - l->device);
	d->nmi = c->nmi - l->nmi;
	d->other = c->other - l->other;
	d->softirq = c->softirq - l->softirq;
}

static void dcg_irq_account(struct dcg_kwin *kw, const struct dcg_rec_irq *d,
			    u32 hard)
{
	if (hard) {
		kw->irqs += hard;
		kw->irq_gaps++;
		atomic64_add(d->timer, &dcg_k.irq_kinds[0]);
		atomic64_add(d->ipi, &dcg_k.irq_kinds[1]);
		atomic64_add(d->device, &dcg_k.irq_kinds[2]);
		atomic64_add(d->nmi, &dcg_k.irq_kinds[3]);
		atomic64_add(d->other, &dcg_k.irq_kinds[4]);
		atomic64_add(d->softirq, &dcg_k.irq_kinds[5]);
	}
	if (d->faults) {
		kw->faults += d->faults;
		kw->fault_gaps++;
	}
}

/*
 * Interrupts and page faults in the gap since the last stop.  The
 * CPU's interrupt counters are compared only if that stop was on this
 * CPU (sched_out forgets the last stop: a switch's gap holds other
 * tasks' interrupts); the window's own fault count (exceptions.c)
 * always is.  Counted
 * always; written as a DCG_REC_IRQ before this stop's event when the
 * last stop was in the traced code (its ip is where the thread was
 * interrupted or faulted; our own code is never shown).  Then this
 * stop becomes the last one, at @ip (0: our own code).
 */
static void dcg_kernel_irqs(struct dcg_kwin *kw, unsigned long ip, u64 now)
{
	struct dcg_irqc c;
	struct dcg_rec_irq d = { };
	unsigned long faults = READ_ONCE(kw->exc_faults);
	u16 cpu = raw_smp_processor_id();
	u32 hard = 0;

	dcg_irq_counts(&c);
	if (kw->irq_base && kw->irq_cpu == cpu) {
		dcg_irq_delta(&d, &c, &kw->irq_last);
		hard = dcg_irq_hard(&d);
	}
	d.faults = (u32)(faults - kw->flt_last);
	if (hard || d.faults) {
		dcg_irq_account(kw, &d, hard);
		if (kw->irq_ip)
			dcg_out_irq(&kw->s, kw->irq_ts, now, kw->irq_ip, cpu,
				    &d);
	}
	kw->irq_last = c;
	kw->irq_cpu = cpu;
	kw->irq_ts = now;
	kw->irq_ip = ip;
	kw->irq_base = 1;
	kw->flt_last = faults;
}

/* One stop of an armed window.  Returns 1 when the window drained. */
static int dcg_kernel_stop(struct dcg_kwin *kw, struct pt_regs *regs)
{
	struct dcg_slot *s = &kw->s;
	struct dcg_thread *t = &s->engine;
	unsigned long ip = regs->ip, sp = regs->sp;
	u64 now = dcg_now_ns();

	s->stops++;
	atomic64_inc(&dcg_g.stops);	/* the STATS record's total */
	if (dcg_kaddr_is_own(ip)) {
		/* a branch into a thunk that led here is dropped */
		if (!kw->in_own)
			dcg_thread_hide(t, now);
		kw->in_own = 1;
		kw->own_stops++;
		if (!kw->syncing)
			dcg_kernel_irqs(kw, 0, now);
		return 0;
	}
	if (kw->syncing) {
		dcg_kernel_sync(kw, ip, sp);
		if (!kw->syncing)	/* the window opened here */
			dcg_kernel_irqs(kw, ip, now);
		return 0;
	}
	if (kw->in_own) {
		/* our code's way out may go through a return thunk */
		if (dcg_thunk_at(&dcg_kthunks, ip) != DCG_THUNK_NONE) {
			kw->own_stops++;
			dcg_kernel_irqs(kw, 0, now);
			return 0;
		}
		/*
		 * Back from our code: after sched_in, in a function that ran
		 * unseen since sched_out (finish_task_switch): the engine
		 * rebuilds its call from the stack.
		 */
		kw->in_own = 0;
		if (kw->sw_pending) {
			kw->sw_pending = 0;
			dcg_out_switch(s, kw->sw_out_ts, kw->sw_out_cpu,
				       kw->sw_in_ts, kw->sw_in_cpu, t->hide_ip);
		}
		dcg_regs_from(&s->regs, regs);
		dcg_kernel_irqs(kw, ip, now);
		dcg_thread_resume(t, ip, sp, now, &s->ops);
		return 0;
	}
	dcg_regs_from(&s->regs, regs);
	dcg_kernel_irqs(kw, ip, now);
	dcg_thread_stop(t, ip, sp, now, &s->ops);
	/*
	 * The root returned: what follows is the kretprobe trampoline and
	 * the .return handler, or the caller.  Stop stepping right here.
	 */
	return s->at_entry && t->shadow.depth == 0;
}

static int dcg_kernel_debug(struct pt_regs *regs, unsigned long *dr6p)
{
	struct dcg_kwin *kw;

	if (!(*dr6p & DR_STEP))
		return NOTIFY_DONE;
	kw = dcg_kwin_find(current);
	if (!kw)
		return NOTIFY_DONE;
	atomic64_inc(&dcg_k.stops);
	if (READ_ONCE(dcg_k.stopping) ||
	    atomic_cmpxchg(&kw->state, DCG_KW_ARMED, DCG_KW_INTRAP) !=
	    DCG_KW_ARMED) {
		dcg_kernel_tail(regs);
		return dcg_kernel_claim(dr6p);
	}
	if (dcg_kernel_stop(kw, regs)) {
		regs->flags &= ~X86_EFLAGS_TF;
		atomic64_inc(&dcg_k.drained);
		atomic_set(&kw->state, DCG_KW_DRAINED);
	} else {
		atomic_set(&kw->state, DCG_KW_ARMED);
	}
	return dcg_kernel_claim(dr6p);
}
