// SPDX-License-Identifier: GPL-2.0
/*
 * task_work.c - counted task works, queued on the current task.
 *
 * Windows do their sleeping work (arming TF, enabling breakpoints,
 * waiting for stapio, a kernel window's guard) in task works that run
 * on the task's way back to user mode.  Each kind is counted, so that
 * teardown can wait until the last one has run before the module's
 * code goes away: user windows and skips in dcg_g.works_pending (woken
 * on dcg_works_wq), kernel windows' guards in dcg_k.guards.
 */
#include <linux/task_work.h>
#include <linux/wait.h>

/* dcg_g.works_pending dropped to 0: teardown waits on this. */
static DECLARE_WAIT_QUEUE_HEAD(dcg_works_wq);

/* A counted work has run (or will not): the count drops, 0 wakes @wq. */
static void dcg_task_work_done(atomic_t *pending, wait_queue_head_t *wq)
{
	if (atomic_dec_and_test(pending))
		wake_up(wq);
}

/*
 * Queue @fn in @work on current, counted in @pending.  Returns 0, or
 * -ESRCH when the task takes no more works (it is exiting): then the
 * count is undone and @fn will not run.
 */
static int dcg_task_work_queue(struct callback_head *work,
			       task_work_func_t fn, atomic_t *pending,
			       wait_queue_head_t *wq)
{
	atomic_inc(pending);
	init_task_work(work, fn);
	if (!task_work_add(current, work, TWA_RESUME))
		return 0;
	dcg_task_work_done(pending, wq);
	return -ESRCH;
}
