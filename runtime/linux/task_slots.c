// SPDX-License-Identifier: GPL-2.0
/*
 * task_slots.c - per-task tracing state.
 *
 * A fixed array of slots, found by task pointer.  The #DB handler looks
 * its task up here on every trap, so the lookup takes no lock: a slot's
 * task pointer is published after the slot is set up, and only its own
 * task (or teardown, after the notifier is gone) ever frees it.
 *
 * Shadow-stack frames are allocated when tracing is switched on (from a
 * probe handler, so atomically) and reused by the next window of the
 * same slot if big enough; never inside the trap handler.
 *
 * Exit and exec are seen by window.c's hooks (the sched_process_exit
 * and sched_process_exec tracepoints): they end a window still open and
 * write the THREAD EXIT or EXEC record.  A slot keeps its task until the
 * module goes, so the hooks know every task that has had a window.  The
 * slot of a task that has exited is reclaimed by the next claim that
 * finds the slots full, once the task is past those hooks (exit_state
 * set, in exit_notify()) and its task work has run.  Without the hooks
 * (no tracepoint) an exec is still noticed: the notifier sees a
 * different mm, and the next window of the new image ends the old one.
 */
#include <linux/slab.h>
#include <linux/sched/task.h>

static struct dcg_slot *dcg_slot_find(struct task_struct *t)
{
	int i;

	for (i = 0; i < DCG_MAX_TASKS; i++) {
		struct dcg_slot *s = &dcg_slots[i];

		if (READ_ONCE(s->task) == t &&
		    atomic_read(&s->state) >= DCG_SLOT_OPENING)
			return s;
	}
	return NULL;
}

/* window.c's exit and exec hooks are registered */
static int dcg_thread_hooks;

static int dcg_slot_dead(struct dcg_slot *s)
{
	struct task_struct *t = READ_ONCE(s->task);

	return t && (READ_ONCE(t->flags) & PF_EXITING) &&
	       (!READ_ONCE(dcg_thread_hooks) || READ_ONCE(t->exit_state)) &&
	       !atomic_read(&s->work_queued);
}

/* Drop the task reference of a slot already taken to BUSY. */
static void dcg_slot_put_task(struct dcg_slot *s)
{
	struct task_struct *t = s->task;

	WRITE_ONCE(s->task, NULL);
	s->mm = NULL;
	if (t)
		put_task_struct(t);
}

/*
 * The shadow stack and the slot's output buffer, in one allocation (so
 * kfree(s->frames) frees both).
 */
static int dcg_slot_frames(struct dcg_slot *s)
{
	u32 want = READ_ONCE(dcg_g.max_depth);

	s->obuf_len = 0;
	s->obuf_events = 0;
	if (s->frames && s->cap == want)
		return 0;
	kfree(s->frames);
	s->frames = kzalloc(want * sizeof(*s->frames) + DCG_OBUF_SIZE,
			    GFP_ATOMIC | __GFP_NOWARN);
	s->cap = s->frames ? want : 0;
	s->obuf = s->frames ? (char *)(s->frames + want) : NULL;
	return s->frames ? 0 : -ENOMEM;
}

/*
 * Claim a slot for @t (current), or reuse its closed one.  Returns the
 * slot in state BUSY, or NULL with a reason in *why.
 */
static struct dcg_slot *dcg_slot_claim(struct task_struct *t, const char **why)
{
	struct dcg_slot *s = NULL;
	int i, fresh = 1;

	for (i = 0; i < DCG_MAX_TASKS && !s; i++) {
		struct dcg_slot *c = &dcg_slots[i];

		if (READ_ONCE(c->task) == t &&
		    atomic_cmpxchg(&c->state, DCG_SLOT_CLOSED,
				   DCG_SLOT_BUSY) == DCG_SLOT_CLOSED)
			s = c;
	}
	if (s)
		fresh = 0;	/* the task's earlier window: START is out */
	for (i = 0; i < DCG_MAX_TASKS && !s; i++) {
		struct dcg_slot *c = &dcg_slots[i];

		if (atomic_cmpxchg(&c->state, DCG_SLOT_FREE,
				   DCG_SLOT_BUSY) == DCG_SLOT_FREE) {
			get_task_struct(t);
			WRITE_ONCE(c->task, t);
			s = c;
		}
	}
	/* Full: reclaim the slot of a task that exited while traced. */
	for (i = 0; i < DCG_MAX_TASKS && !s; i++) {
		struct dcg_slot *c = &dcg_slots[i];
		int st = atomic_read(&c->state);

		if (st < DCG_SLOT_OPENING || !dcg_slot_dead(c))
			continue;
		if (atomic_cmpxchg(&c->state, st, DCG_SLOT_BUSY) != st)
			continue;
		atomic64_inc(&dcg_g.aborted);
		dcg_slot_put_task(c);
		get_task_struct(t);
		WRITE_ONCE(c->task, t);
		s = c;
	}
	if (!s) {
		atomic64_inc(&dcg_g.slot_full);
		*why = "too many traced threads (raise -DDCG_MAX_TASKS)";
		return NULL;
	}
	if (dcg_slot_frames(s)) {
		atomic_set(&s->state, DCG_SLOT_CLOSED);
		*why = "out of memory for the shadow stack";
		return NULL;
	}
	s->mm = t->mm;
	s->tid = t->pid;
	s->pid = t->tgid;
	if (fresh)
		s->thread_started = 0;
	return s;
}

/* Module exit: every task is disarmed and the notifier is gone. */
static void dcg_slot_release(struct dcg_slot *s)
{
	atomic_set(&s->state, DCG_SLOT_BUSY);
	dcg_skip_release(s);	/* skip.c: unregister its breakpoints */
	kfree(s->frames);
	s->frames = NULL;
	s->obuf = NULL;
	s->cap = 0;
	dcg_slot_put_task(s);
	atomic_set(&s->state, DCG_SLOT_FREE);
}
