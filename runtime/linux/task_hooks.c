// SPDX-License-Identifier: GPL-2.0
/*
 * task_hooks.c - thread exit and exec, seen by the sched_process_exit
 * and sched_process_exec tracepoints: they end a user window still
 * open and write the THREAD records.
 */
#include <linux/workqueue.h>
#include <linux/tracepoint.h>

/*
 * Thread exit and exec: one THREAD record each, for every task that has
 * had a window (its slot keeps the task until the module goes), like
 * dcg-trace's.  A window still open ends first, with the END returns of
 * its open frames: the thread leaves it without a .return probe
 * (exit_group or a fatal signal while it is inside, or an exec, whose
 * new image has none of the old frames).  Tasks with no window are
 * unknown to us and get no record.
 *
 * The hooks are the kernel's sched_process_exit and sched_process_exec
 * tracepoints, called in the task itself, in process context with
 * preemption off, after the point of no return: exit before exit_mm()
 * and exit_task_work(), exec with the new image installed, its comm
 * set and, for a thread that exec'd, the thread group leader's pid
 * taken over.  So the task is in the kernel, none of its traps can be
 * running, and a task work queued here still runs (exit_task_work()
 * on exit, the return to user mode after exec).  Registering takes a
 * mutex, so it runs in a work queued at probe begin; every window
 * start waits for it.
 */
static int dcg_slot_take_own(struct dcg_slot *s)
{
	/* BUSY: probe end, on another CPU */
	return dcg_state_take(&s->state, DCG_SLOT_BUSY,
			      DCG_STATE(DCG_SLOT_BUSY),
			      DCG_STATE(DCG_SLOT_OPENING) |
			      DCG_STATE(DCG_SLOT_ARMED) |
			      DCG_STATE(DCG_SLOT_PAUSED) |
			      DCG_STATE(DCG_SLOT_CLOSED) |
			      DCG_STATE(DCG_SLOT_INTRAP));
}

/* End the window of the current task if it is open; s is BUSY. */
static void dcg_window_abort_own(struct dcg_slot *s, int st)
{
	if (st == DCG_SLOT_CLOSED)
		return;
	dcg_tf_disarm_current(task_pt_regs(current));
	s->nest = 0;
	atomic64_inc(&dcg_g.aborted);
	dcg_window_finish(s);
}

/* The current task's slot, BUSY, its window ended; NULL if it has none. */
static struct dcg_slot *dcg_hook_take_own(void)
{
	struct dcg_slot *s;
	int st;

	if (dcg_stopping())
		return NULL;
	s = dcg_slot_find(current);
	if (!s || (st = dcg_slot_take_own(s)) < 0)
		return NULL;
	dcg_window_abort_own(s, st);
	return s;
}

static void dcg_on_task_exit(void *data, struct task_struct *p)
{
	struct dcg_slot *s;

	if (p != current || !(s = dcg_hook_take_own()))
		return;
	if (s->thread_started)	/* not if no window ever armed */
		dcg_out_thread(s, DCG_THREAD_EXIT);
	dcg_out_flush(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
	dcg_queue_work(s);	/* exit_task_work() waits for stapio */
}

static void dcg_on_task_exec(void *data, struct task_struct *p,
			     pid_t old_pid, struct linux_binprm *bprm)
{
	struct dcg_slot *s;

	if (p != current || !(s = dcg_hook_take_own()))
		return;
	s->tid = current->pid;		/* a thread that exec'd is the leader now */
	s->pid = current->tgid;
	s->mm = current->mm;
	if (s->thread_started)
		dcg_out_thread(s, DCG_THREAD_EXEC);
	dcg_out_flush(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
}

static struct dcg_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	int registered;
} dcg_hooks[] = {
	{ "sched_process_exit", dcg_on_task_exit },
	{ "sched_process_exec", dcg_on_task_exec },
	{ NULL }
};

static void dcg_hook_find(struct tracepoint *tp, void *priv)
{
	struct dcg_hook *h;

	for (h = priv; h->name; h++)
		if (!strcmp(tp->name, h->name))
			h->tp = tp;
}

static void dcg_hooks_register_fn(struct work_struct *w)
{
	struct dcg_hook *h;

	if (READ_ONCE(dcg_g.stopping))
		return;
	for_each_kernel_tracepoint(dcg_hook_find, dcg_hooks);
	for (h = dcg_hooks; h->name; h++) {
		if (h->registered)
			continue;
		if (!h->tp || tracepoint_probe_register(h->tp, h->probe, NULL))
			pr_warn("dyncg: no %s tracepoint: no THREAD records for it\n",
				h->name);
		else
			h->registered = 1;
	}
	WRITE_ONCE(dcg_thread_hooks, dcg_hooks[0].registered);
}

static DECLARE_WORK(dcg_hooks_work, dcg_hooks_register_fn);

/* From task work: a window starts only once the hooks are in place. */
static void dcg_hooks_wait(void)
{
	if (!READ_ONCE(dcg_thread_hooks))
		flush_work(&dcg_hooks_work);
}

/* Teardown, before works are waited for: no new ones from the hooks. */
static void dcg_hooks_unregister(void)
{
	struct dcg_hook *h;
	int any = 0;

	flush_work(&dcg_hooks_work);
	for (h = dcg_hooks; h->name; h++) {
		if (!h->registered)
			continue;
		tracepoint_probe_unregister(h->tp, h->probe, NULL);
		h->registered = 0;
		any = 1;
	}
	WRITE_ONCE(dcg_thread_hooks, 0);
	if (any)
		tracepoint_synchronize_unregister();
}
