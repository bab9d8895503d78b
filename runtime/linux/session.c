// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - probe begin and probe end of the whole session: BTF
 * detection and the hooks at begin; at end, every user window closed
 * and the teardown work (hooks, kernel windows, TF of every task, the
 * notifier, the slots).
 */
#include <linux/workqueue.h>
#include <linux/wait.h>

/*
 * Teardown, in process context: system_wq work queued by probe end.
 * The runtime's stp_synchronize_sched() after the end probes flushes
 * system_wq, so this has finished before the module goes away.
 */
static void dcg_teardown_fn(struct work_struct *w)
{
	int i;

	WRITE_ONCE(dcg_g.stopping, 1);
	smp_mb();
	dcg_hooks_unregister();	/* exit and exec hooks queue works */
	dcg_uf_teardown();	/* user_flags.c: the sys_exit probe */
	dcg_kernel_teardown();	/* dyncg kernel mode, before the notifier goes */
	/* works check 'stopping' and do nothing; let the queued ones run */
	wait_event(dcg_works_wq, atomic_read(&dcg_g.works_pending) == 0);
	for (i = 0; i < DCG_MAX_TASKS; i++) {
		struct task_struct *t = READ_ONCE(dcg_slots[i].task);

		if (t && atomic_read(&dcg_slots[i].state) != DCG_SLOT_FREE &&
		    !dcg_uf_keeps_tf(&dcg_slots[i]))	/* the program's TF */
			dcg_tf_disarm_task(t);
	}
	dcg_tf_resync_btf();	/* trap_flag.c: BTF of the CPUs they ran on */
	dcg_notifier_unregister();
	for (i = 0; i < DCG_MAX_TASKS; i++)
		if (dcg_slots[i].task || dcg_slots[i].frames)
			dcg_slot_release(&dcg_slots[i]);
}

static DECLARE_WORK(dcg_teardown_work, dcg_teardown_fn);

static void dcg_begin(void)
{
	dcg_g.start_ns = dcg_now_ns();
	dcg_tf_detect_btf();
	schedule_work(&dcg_hooks_work);	/* exit and exec hooks: may sleep */
}

static void dcg_end(void)
{
	dcg_close_all();
	if (dcg_g.registered && !dcg_g.teardown_queued) {
		dcg_g.teardown_queued = 1;
		schedule_work(&dcg_teardown_work);
	}
}
