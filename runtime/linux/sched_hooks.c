// SPDX-License-Identifier: GPL-2.0
/*
 * sched_hooks.c - TF moves with the traced task across context switches.
 *
 * x86-64 does not save EFLAGS in the context switch (the inactive task
 * frame has no flags), so a TF that is live in the kernel when the task
 * calls schedule() stays live on the CPU: the next task takes one #DB
 * at __switch_to, and the traced task resumes unstepped.  A preempt
 * notifier on the traced task fixes both: at sched_out it takes TF off
 * the CPU if it is live, at sched_in it puts it back.
 *
 * "If it is live": the task may also be switched out from a context
 * whose TF is not live, e.g. a page fault that sleeps inside the window
 * (the exception entry cleared TF and its iret will restore it), or
 * preemption at an interrupt's exit.  Then nothing is taken and nothing
 * is given back; the saved frame still holds TF.
 *
 * The notifier is registered on the task in the kprobe handler that
 * opens the window (preempt_notifier_register() only links a node on
 * current's own list) and unregistered by the guard work, again in the
 * task itself.  preempt_notifier_inc() enables the static key and
 * sleeps, so it runs in a work item queued at probe begin; windows open
 * only once it has run.
 *
 * At teardown a task can still be asleep inside its window with our
 * node on its list.  Its callbacks then unlink the node themselves when
 * they next run (teardown wakes the task for that): the list is only
 * ever walked by the task itself, and the node keeps its ->next, so the
 * walk that is running goes on to the next notifier.
 */
#include <linux/workqueue.h>
#include <linux/list.h>

static __always_inline void dcg_live_tf_clear(void)
{
	asm volatile("pushfq; andq %0, (%%rsp); popfq"
		     : : "i" (~X86_EFLAGS_TF) : "memory", "cc");
}

static __always_inline void dcg_live_tf_set(void)
{
	asm volatile("pushfq; orq %0, (%%rsp); popfq"
		     : : "i" (X86_EFLAGS_TF) : "memory", "cc");
}

static __always_inline int dcg_live_tf(void)
{
	return !!(native_save_fl() & X86_EFLAGS_TF);
}

/* Unlink our node during the task's own walk of its notifier list. */
static void dcg_sched_unlink_self(struct dcg_kwin *kw)
{
	if (!kw->pn_linked)
		return;
	__hlist_del(&kw->pn.link);	/* ->next stays for the running walk */
	kw->pn.link.pprev = NULL;
	kw->pn_linked = 0;
}

static void dcg_sched_out(struct preempt_notifier *pn,
			  struct task_struct *next)
{
	struct dcg_kwin *kw = container_of(pn, struct dcg_kwin, pn);

	if (READ_ONCE(dcg_k.stopping)) {
		if (dcg_live_tf())
			dcg_live_tf_clear();	/* next trap is a tail trap */
		dcg_sched_unlink_self(kw);
		return;
	}
	/*
	 * Any switch, even one taken with TF only in an interrupt's saved
	 * frame: the gap to the next stop holds other tasks' interrupts.
	 */
	kw->irq_base = 0;
	if (atomic_read(&kw->state) != DCG_KW_ARMED || !dcg_live_tf())
		return;
	/* The state goes first: the trap right after the popf is a tail. */
	atomic_set(&kw->state, DCG_KW_PAUSED);
	kw->tf_was_live = 1;
	kw->sw_out_ts = dcg_now_ns();
	kw->sw_out_cpu = raw_smp_processor_id();
	dcg_live_tf_clear();
	kw->irq_base = 0;	/* again: our stops above set it */
	atomic64_inc(&dcg_k.sched_out);
}

static void dcg_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct dcg_kwin *kw = container_of(pn, struct dcg_kwin, pn);

	if (READ_ONCE(dcg_k.stopping)) {
		dcg_sched_unlink_self(kw);
		return;
	}
	if (!kw->tf_was_live ||
	    atomic_cmpxchg(&kw->state, DCG_KW_PAUSED, DCG_KW_ARMED) !=
	    DCG_KW_PAUSED)
		return;
	kw->tf_was_live = 0;
	/* the switch marker goes out at the first stop after this */
	kw->sw_in_ts = dcg_now_ns();
	kw->sw_in_cpu = cpu;
	kw->sw_pending = 1;
	/* Our own stops until this returns: the engine resumes after. */
	kw->in_own = 1;
	atomic64_inc(&dcg_k.sched_in);
	dcg_live_tf_set();
}

static struct preempt_ops dcg_sched_ops = {
	.sched_in = dcg_sched_in,
	.sched_out = dcg_sched_out,
};

/* In the probed task (current), from the kprobe handler. */
static void dcg_sched_attach(struct dcg_kwin *kw)
{
	if (kw->pn_linked)
		return;
	preempt_notifier_init(&kw->pn, &dcg_sched_ops);
	preempt_notifier_register(&kw->pn);
	kw->pn_linked = 1;
}

/* In the task itself, outside its notifier walk (the guard work). */
static void dcg_sched_detach(struct dcg_kwin *kw)
{
	preempt_disable();
	if (kw->pn_linked) {
		preempt_notifier_unregister(&kw->pn);
		kw->pn_linked = 0;
	}
	preempt_enable();
}

static void dcg_sched_key_fn(struct work_struct *w)
{
	/* without their shadow stacks kernel windows stay refused */
	if (dcg_kframes_alloc())
		return;
	preempt_notifier_inc();
	WRITE_ONCE(dcg_k.key_taken, 1);
	smp_wmb();
	WRITE_ONCE(dcg_k.ready, 1);
}

static DECLARE_WORK(dcg_sched_key_work, dcg_sched_key_fn);

/* probe begin (atomic): the static key is enabled from a work item. */
static void dcg_sched_key_get(void)
{
	schedule_work(&dcg_sched_key_work);
}

/* Teardown, sleepable, after every window let go of its notifier. */
static void dcg_sched_key_put(void)
{
	flush_work(&dcg_sched_key_work);
	WRITE_ONCE(dcg_k.ready, 0);
	if (dcg_k.key_taken) {
		dcg_k.key_taken = 0;
		preempt_notifier_dec();
	}
}
