// SPDX-License-Identifier: GPL-2.0
/*
 * task_slots.c - per-task tracing state.
 *
 * A fixed array of slots, found by task pointer.  The #DB handler looks
 * its task up here on every trap, so the lookup takes no lock: a slot's
 * task pointer is published after the slot is set up, and only its own
 * task (or teardown, after the notifier is gone) ever frees it.
 *
 * Nothing here allocates in a probe handler or the trap handler.  A
 * user window's shadow stack (up to DCG_SCRIPT_DEPTH_LIMIT frames of 40
 * bytes, 2.5 MiB) is allocated by the window's first task work, which runs in
 * the task before it returns to user mode and may sleep, with
 * kvcalloc(): the count is overflow-checked, and a large stack comes in
 * single pages when no contiguous block is free (an order-10 GFP_ATOMIC
 * block from the probe handler failed under fragmentation, see
 * stap-alloc.exp).  It is reused by the slot's next window of the same
 * depth.  Kernel windows cannot wait for a task work (their TF goes on
 * in the kprobe), so they take fixed shares of one pool allocated where
 * sleeping is allowed, before kernel windows are enabled: a kernel call
 * chain is bounded by the task's kernel stack (each frame holds at least
 * its return address there), so DCG_KDEPTH frames always suffice.  The
 * output buffer is part of the slot itself.
 *
 * Exit and exec are seen by task_hooks.c's hooks (the sched_process_exit
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
#include <linux/mm.h>
#include <linux/overflow.h>
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

/*
 * Spins dcg_state_take() waits at most: a state it waits out is held
 * for a few stores (probe end) or one #DB handler (microseconds).
 */
#define DCG_STATE_TAKE_SPINS	1000000

#define DCG_STATE(st)	(1u << (st))

/*
 * Take a slot's or a kernel window's @state to @busy, from one of the
 * states in @take (a mask of DCG_STATE() bits), after waiting while it
 * is in one of @wait.  Returns the state it was taken from, or -1 when
 * it is in none of @take, or still in @wait after DCG_STATE_TAKE_SPINS.
 */
static int dcg_state_take(atomic_t *state, int busy, unsigned int wait,
			  unsigned int take)
{
	int st, spins;

	for (spins = 0; spins < DCG_STATE_TAKE_SPINS; spins++) {
		st = atomic_read(state);
		if (wait & DCG_STATE(st)) {
			cpu_relax();
			continue;
		}
		if (!(take & DCG_STATE(st)))
			return -1;
		if (atomic_cmpxchg(state, st, busy) == st)
			return st;
	}
	return -1;
}

/* task_hooks.c's exit and exec hooks are registered */
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
 * A user window's shadow stack, in its task work (process context, may
 * sleep), before the window starts.  Returns 0 with s->frames holding
 * dcg_g.max_depth frames, or -ENOMEM.
 */
static int dcg_slot_frames(struct dcg_slot *s)
{
	u32 want = READ_ONCE(dcg_g.max_depth);

	might_sleep();
	if (!s->frames || s->cap != want) {
		kvfree(s->frames);
		s->frames = kvcalloc(want, sizeof(*s->frames),
				     GFP_KERNEL | __GFP_NOWARN);
		s->cap = s->frames ? want : 0;
	}
	/* the engine was set up at open, before its stack existed */
	dcg_shadow_init(&s->engine.shadow, s->frames, s->cap);
	return s->frames ? 0 : -ENOMEM;
}

/*
 * Kernel windows' shadow stacks: one pool, DCG_KDEPTH frames per window,
 * allocated by sched_hooks.c's work before kernel windows are enabled
 * and freed at teardown after the last one is gone.
 */
#define DCG_KDEPTH	(THREAD_SIZE / sizeof(unsigned long))
static struct dcg_frame *dcg_kframes;

static int dcg_kframes_alloc(void)
{
	might_sleep();
	if (!dcg_kframes)
		dcg_kframes = kvcalloc(array_size(DCG_MAX_KTASKS, DCG_KDEPTH),
				       sizeof(*dcg_kframes),
				       GFP_KERNEL | __GFP_NOWARN);
	return dcg_kframes ? 0 : -ENOMEM;
}

static void dcg_kframes_free(void)
{
	kvfree(dcg_kframes);
	dcg_kframes = NULL;
}

/* Window @idx's share of the pool (kprobe handler: takes, never allocates). */
static int dcg_kslot_frames(struct dcg_slot *s, int idx)
{
	s->obuf = s->obuf_mem;
	s->obuf_len = 0;
	s->obuf_events = 0;
	s->obuf_prof_insns = 0;
	s->prof_carry = 0;
	if (!READ_ONCE(dcg_kframes))
		return -ENOMEM;
	s->frames = dcg_kframes + (size_t)idx * DCG_KDEPTH;
	s->cap = DCG_KDEPTH;
	return 0;
}

/*
 * dynamic_call_graph_annotate(): the engine counts runs in the slot's
 * own table (no allocation), after dcg_thread_init() (which turns it
 * off).  Binary output only: the counts are records.
 */
static void dcg_slot_profile(struct dcg_slot *s)
{
	s->ops.profile_flush = NULL;
	if (!READ_ONCE(dcg_g.annotate) || dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_profile_init(&s->prof, s->prof_slots, DCG_PROF_SLOTS);
	s->engine.prof = &s->prof;
	s->ops.profile_flush = dcg_out_profile;
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
	s->obuf = s->obuf_mem;
	s->obuf_len = 0;
	s->obuf_events = 0;
	s->obuf_prof_insns = 0;
	s->prof_carry = 0;
	s->mm = t->mm;
	s->tid = t->pid;
	s->pid = t->tgid;
	if (fresh)
		s->thread_started = 0;
	return s;
}

/* At the end: windows that could not open for want of memory. */
static void dcg_slots_warn(void)
{
	long long n = atomic64_read(&dcg_g.nomem);

	if (n)
		_stp_warn("dynamic call graph: %lld window(s) not opened: no memory for a shadow stack of %u frames",
			  n, READ_ONCE(dcg_g.max_depth));
}

/* Module exit: every task is disarmed and the notifier is gone. */
static void dcg_slot_release(struct dcg_slot *s)
{
	atomic_set(&s->state, DCG_SLOT_BUSY);
	dcg_skip_release(s);	/* skip.c: unregister its breakpoints */
	dcg_hop_release(s);	/* hop_breakpoints.c: the same */
	kvfree(s->frames);
	s->frames = NULL;
	s->obuf = NULL;
	s->cap = 0;
	dcg_slot_put_task(s);
	atomic_set(&s->state, DCG_SLOT_FREE);
}

/*
 * The end of any window, user or kernel (kernel_window.c): the engine's
 * END returns, LOST records for what the window dropped, one flush, and
 * its counters folded into the totals.
 */
static void dcg_slot_end_window(struct dcg_slot *s)
{
	struct dcg_stats *st = &s->engine.stats;

	if (s->opened)
		dcg_thread_end(&s->engine, dcg_now_ns(), &s->ops);
	s->opened = 0;
	atomic64_add(st->resyncs, &dcg_g.resyncs);
	atomic64_add(st->decode_errors + st->read_errors,
		     &dcg_g.decode_errors);
	st->resyncs = st->decode_errors = st->read_errors = 0;
	if (s->dropped)
		dcg_out_lost(s, s->dropped, DCG_LOST_BUDGET);
	if (s->lost_buffer)
		dcg_out_lost(s, s->lost_buffer, DCG_LOST_BUFFER);
	dcg_out_flush(s);
	s->dropped = s->lost_buffer = 0;
}
