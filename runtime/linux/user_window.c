// SPDX-License-Identifier: GPL-2.0
/*
 * user_window.c - opening and closing a user window of the current thread.
 *
 * A window opens in a uprobe handler (dynamic_call_graph(1)) and closes
 * in another one, usually the .return probe of the same function.  TF
 * cannot be set in the handler itself: uprobes then takes it for a
 * debugger's and sends SIGTRAP after running the probed instruction.
 * So the handler only records where the window starts and queues a task
 * work; task work runs on the way back to user mode after uprobes has
 * finished (TIF_UPROBE is handled before TIF_NOTIFY_RESUME), and sets TF
 * there.  If uprobes still has an out-of-line step to do, the work waits
 * for uprobes' own step trap and is queued once more (die_notifier.c).
 * The same work re-arms after a uprobe hit inside the window.
 *
 * The probed instruction itself runs without our trap, so when TF goes
 * on the engine is told that the last stop was the resume address (and
 * counts that instruction): the next trap then follows exactly one
 * instruction (or block) from there.
 */
#include <linux/uaccess.h>

static void dcg_work_fn(struct callback_head *cb);

static void dcg_queue_work(struct dcg_slot *s)
{
	if (atomic_cmpxchg(&s->work_queued, 0, 1))
		return;
	if (dcg_task_work_queue(&s->work, dcg_work_fn, &dcg_g.works_pending,
				&dcg_works_wq))
		atomic_set(&s->work_queued, 0);
}

static void dcg_window_start(struct dcg_slot *s)
{
	dcg_hooks_wait();	/* exit and exec hooks in place: EXIT, EXEC */
	if (!s->thread_started)	/* once per task, as dcg-trace does */
		dcg_out_thread(s, DCG_THREAD_START);
	s->thread_started = 1;
	dcg_out_maps(s);
	s->regs = s->entry_regs;	/* the ROOT's: those at the probe */
	if (s->at_entry)
		dcg_thread_begin(&s->engine, s->entry_ip, s->entry_sp,
				 s->entry_ret, s->entry_ts, &s->ops);
	else
		dcg_thread_begin_here(&s->engine, s->entry_ip, s->entry_sp,
				      s->entry_ts);
	s->opened = 1;
	dcg_skip_window_start(s);	/* skip.c: may sleep, task work */
	dcg_hop_window_start(s);	/* hop_breakpoints.c: after skip.c */
}

/*
 * TF goes (back) on: the next trap follows the instruction at the
 * resume address.  uretprobes replace a return address on the stack
 * after the entry probe's handlers ran, so the innermost frame's return
 * slot is read again: a ret to the trampoline then matches its frame.
 */
static void dcg_resume(struct dcg_slot *s, struct pt_regs *regs, int from)
{
	struct dcg_thread *t = &s->engine;
	u32 d = t->shadow.depth;
	u64 ra, ran = t->have_prev ? t->prev_ip : regs->ip;

	if (d && d <= t->shadow.cap) {
		struct dcg_frame *f = &t->shadow.frames[d - 1];

		if (dcg_read_user(s, f->sp, &ra, sizeof(ra)) == sizeof(ra))
			f->ret_addr = ra;
	}
	/*
	 * One instruction ran unstepped since the last stop (or the ROOT
	 * call at 0): the probed one, out of line or emulated by uprobes,
	 * or the program's own int3, at the last stop.
	 */
	dcg_thread_count(t, ran, 1, &s->ops);
	t->prev_ip = regs->ip;
	t->prev_sp = regs->sp;
	t->have_prev = 1;
	if (from == DCG_SLOT_OPENING)
		dcg_uf_open(s, regs);	/* user_flags.c: the program's TF */
	dcg_uf_resume(s, regs);		/* user_flags.c: a probed pushf */
	if (atomic_cmpxchg(&s->state, from, DCG_SLOT_ARMED) == from)
		dcg_tf_arm_current(s, regs);
}

/*
 * TF goes back on in a signal handler's frame.  Unlike after a uprobe,
 * control did not get here by the instruction at the last stop: the
 * engine sees this as a stop of its own, reached by no branch, and
 * reports the handler as an async transfer (its frame ends at
 * sigreturn, when the engine resyncs on the restored stack).
 */
static void dcg_resume_in_handler(struct dcg_slot *s, struct pt_regs *regs)
{
	s->signalled = 0;
	dcg_regs_from(&s->regs, regs);
	dcg_thread_stop(&s->engine, regs->ip, regs->sp, dcg_now_ns(), &s->ops);
	if (atomic_cmpxchg(&s->state, DCG_SLOT_PAUSED,
			   DCG_SLOT_ARMED) == DCG_SLOT_PAUSED)
		dcg_tf_arm_current(s, regs);
}

/*
 * The task work: arms or re-arms the window, or, once the window has
 * closed (dynamic_call_graph(0), the root's return, the thread's exit),
 * lets stapio read it before the thread goes on: a program that exits
 * right after a busy window would otherwise end the session while most
 * of the window is unread (transport.c, dcg_out_wait_read()).
 */
static void dcg_work_fn(struct callback_head *cb)
{
	struct dcg_slot *s = container_of(cb, struct dcg_slot, work);
	int st = atomic_read(&s->state);

	dcg_uf_work(s);		/* user_flags.c: a deferred trap, the r11 probe */
	if (current == s->task && !dcg_stopping() && st == DCG_SLOT_CLOSED) {
		dcg_out_wait_read();
	} else if (current == s->task && !dcg_stopping() &&
		   (st == DCG_SLOT_OPENING || st == DCG_SLOT_PAUSED)) {
		if (dcg_in_uprobe_xol()) {
			s->wait_xol = 1;
		} else if (s->signalled && s->opened) {
			dcg_resume_in_handler(s, task_pt_regs(current));
		} else {
			s->wait_xol = 0;
			s->signalled = 0;
			if (!s->opened && dcg_slot_frames(s)) {
				/* no shadow stack: the window ends unopened */
				atomic64_inc(&dcg_g.nomem);
				atomic64_inc(&dcg_g.aborted);
				atomic_cmpxchg(&s->state, st, DCG_SLOT_CLOSED);
				goto out;
			}
			if (!s->opened)
				dcg_window_start(s);
			dcg_resume(s, task_pt_regs(current), st);
			dcg_skip_after_resume(s, task_pt_regs(current));
		}
	}
out:
	atomic_set(&s->work_queued, 0);
	dcg_task_work_done(&dcg_g.works_pending, &dcg_works_wq);
}

/*
 * The engine's stop at @regs (slot INTRAP): after a step's trap, or
 * after a transfer that hop_breakpoints.c did in its hit.  Returns 1
 * when the task goes on unstepped (the window closed, or skip.c or hop
 * mode let it run natively), 0 when its next insn is to be stepped.
 */
static int dcg_window_stop(struct dcg_slot *s, struct pt_regs *regs)
{
	dcg_regs_from(&s->regs, regs);
	dcg_thread_stop(&s->engine, regs->ip, regs->sp, dcg_now_ns(), &s->ops);
	if (s->at_entry && s->opened && !s->engine.shadow.depth) {
		/*
		 * The root frame is gone: returned, or unwound past by
		 * longjmp or an exception, which skips the .return probe
		 * that would close the window.  Close it here.
		 */
		dcg_uf_disarm(s, regs);	/* TF as the program set it */
		s->nest = 0;
		dcg_window_finish(s);
		s->state_after_trap = DCG_SLOT_CLOSED;
		dcg_queue_work(s);	/* the closed window: wait for stapio */
		return 1;
	}
	if (dcg_skip_after_stop(s, regs))
		return 1;			/* skip.c: a subtree runs native */
	if (dcg_hop_after_stop(s, regs))
		return 1;			/* hop_breakpoints.c: runs native */
	if (s->mode == DCG_MODE_BLOCK)
		dcg_tf_arm_current(s, regs);	/* the CPU cleared BTF */
	return 0;
}

static void dcg_trap_step(struct dcg_slot *s, struct pt_regs *regs)
{
	s->stops++;
	atomic64_inc(&dcg_g.stops);
	dcg_window_stop(s, regs);
}

/*
 * A signal is being delivered to the current task: handle_signal() has
 * built the handler's frame and cleared TF in it (so that a SIGTRAP
 * handler does not trap).  Called from a kprobe on signal_setup_done(),
 * on the way back to user mode: the task work that re-arms runs next in
 * the same exit loop, in the handler's frame.  Without the kprobe (no
 * symbol) handlers run unstepped and sigreturn resumes the stepping.
 */
static void dcg_on_signal(void)
{
	struct dcg_slot *s = dcg_slot_find(current);

	if (!s || dcg_stopping() || !user_mode(task_pt_regs(current)))
		return;
	if (dcg_skip_native(s))
		return;		/* skip.c: the handler runs native with its subtree */
	if (atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_PAUSED) != DCG_SLOT_ARMED)
		return;
	dcg_hop_signal(s, task_pt_regs(current));	/* a native run ends */
	dcg_uf_signal(s, task_pt_regs(current));	/* the frame's TF */
	s->signalled = 1;
	dcg_queue_work(s);
}

/* Why dynamic_call_graph(1) cannot trace here, or NULL. */
static const char *dcg_open_refused(struct pt_regs *regs)
{
	if (!current->mm || (current->flags & PF_KTHREAD) || !regs ||
	    !user_mode(regs))
		return "dynamic_call_graph: called from a context without a user task (use it in a process(...) probe)";
	if (current->ptrace)
		return "dynamic_call_graph: refusing to trace a ptraced task";
	if (!dcg_g.registered)
		return "dynamic_call_graph: trap handler not registered";
	return NULL;
}

/*
 * A (1) in a thread whose slot @s is not closed.  A window of the image
 * the task exec'd away from ends here: returns 0, the slot CLOSED, for
 * a new window.  Otherwise returns 1 with *why NULL for a nested (1)
 * (recursion into the probed function, from a frame below the one that
 * opened the window: one window, closed by the (0) that matches the
 * outermost (1)), or the error of one from that frame or above it (the
 * script turning tracing on twice).
 */
static int dcg_open_again(struct dcg_slot *s, struct pt_regs *regs, int st,
			  const char **why)
{
	*why = NULL;
	if (s->mm != current->mm &&
	    atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) == st) {
		atomic64_inc(&dcg_g.aborted);
		dcg_window_finish(s);
		atomic_set(&s->state, DCG_SLOT_CLOSED);
		return 0;
	}
	if (regs->sp >= s->open_sp) {
		*why = "dynamic_call_graph(1): tracing is already on for this thread (turned on twice; only recursion, from a deeper frame, may nest)";
		return 1;
	}
	s->nest++;
	atomic64_inc(&dcg_g.nested);
	return 1;
}

/* A claimed slot (BUSY) set up for a new window opening at @regs. */
static void dcg_open_setup(struct dcg_slot *s, struct pt_regs *regs,
			   u64 entry_ip, int at_entry)
{
	s->open_sp = regs->sp;
	s->closed_by_user = 0;
	s->mode = dcg_hop_engine_mode(s);	/* hop_breakpoints.c */
	dcg_thread_init(&s->engine, s->mode, s->frames, s->cap);
	s->ops.read = dcg_read_user;
	s->ops.func_bounds = dcg_func_bounds;
	s->ops.emit = dcg_emit;
	s->ops.thunks = NULL;
	s->ops.ctx = s;
	dcg_slot_profile(s);	/* task_slots.c: annotate */
	dcg_skip_open(s);	/* skip.c: depth limit, exclusions */
	s->budget = READ_ONCE(dcg_g.budget);
	s->produced = s->dropped = s->lost_buffer = s->stops = 0;
	s->wait_xol = 0;
	s->opened = 0;
	s->entry_ret = 0;
	s->at_entry = at_entry && dcg_find_root(s, regs, entry_ip);
	if (!s->at_entry) {
		s->entry_ip = regs->ip;
		s->entry_sp = regs->sp;
	}
	s->entry_ts = dcg_now_ns();
	dcg_regs_from(&s->entry_regs, regs);
	s->entry_regs.ip = s->entry_ip;
	dcg_uf_probe_at(s, entry_ip);	/* user_flags.c: the probed insn */
}

/*
 * dynamic_call_graph(1).  @regs are the probed user registers; @at_entry
 * says the probe sits on the first instruction of function @entry_ip,
 * so [sp] is the return address.  Returns NULL or a message for error().
 */
static const char *dcg_open(struct pt_regs *regs, u64 entry_ip, int at_entry)
{
	const char *why = dcg_open_refused(regs);
	struct dcg_slot *s;
	int st;

	if (why || dcg_stopping())
		return why;
	s = dcg_slot_find(current);
	st = s ? atomic_read(&s->state) : DCG_SLOT_FREE;
	if (s && st != DCG_SLOT_CLOSED && dcg_open_again(s, regs, st, &why))
		return why;
	s = dcg_slot_claim(current, &why);
	if (!s)
		return why;
	dcg_open_setup(s, regs, entry_ip, at_entry);
	atomic64_inc(&dcg_g.windows);
	dcg_out_header(current);
	atomic_set(&s->state, DCG_SLOT_OPENING);
	dcg_queue_work(s);
	return NULL;
}

static void dcg_window_finish(struct dcg_slot *s)
{
	dcg_skip_window_end(s);		/* skip.c: breakpoints off */
	dcg_hop_window_end(s);		/* hop_breakpoints.c: the same */
	dcg_slot_end_window(s);
}

/*
 * dynamic_call_graph(0) in a probe of the traced thread.  Returns NULL
 * or a message for error(): no user task here, or off again after the
 * (0) that closed its window.  A window that ended by itself (its root
 * returned before the .return probe ran, exec, a debugger) takes one
 * (0) quietly: the script could not know.
 *
 * A (0) in a thread that never had a window is counted, not an error:
 * a .return probe fires for a call whose entry probe did not, when the
 * thread was already in the function as the session's uprobes went in
 * (staprun attaching to a running program registers the return and the
 * entry consumer one after the other).  The script cannot tell that
 * case from its own mistake, so dcg_window_warn() says both at the end.
 */
static const char *dcg_close(struct pt_regs *regs)
{
	struct dcg_slot *s;
	int st;

	if (!current->mm || (current->flags & PF_KTHREAD) || !regs ||
	    !user_mode(regs))
		return "dynamic_call_graph(0): called from a context without a user task (use it in a process(...) probe)";
	if (dcg_stopping())	/* its (1) may have come too late to open */
		return NULL;
	s = dcg_slot_find(current);
	if (!s) {
		atomic64_inc(&dcg_g.off_unopened);
		return NULL;
	}
	st = atomic_read(&s->state);
	if (st == DCG_SLOT_CLOSED) {
		if (s->closed_by_user)
			return "dynamic_call_graph(0): tracing is already off for this thread (one (0) per (1))";
		/* ended by itself, e.g. at the root's ret: this (0) is its own */
		s->closed_by_user = 1;
		return NULL;
	}
	if (st == DCG_SLOT_INTRAP)
		return NULL;
	if (s->nest) {
		s->nest--;
		return NULL;
	}
	if (atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) != st)
		return NULL;
	s->closed_by_user = 1;
	dcg_uf_disarm(s, regs);		/* TF as the program set it */
	dcg_uf_disarm(s, task_pt_regs(current));
	dcg_window_finish(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
	if (!dcg_stopping())
		dcg_queue_work(s);	/* wait for stapio on the way out */
	return NULL;
}

/* probe end: the (0) calls that found no window (dcg_close()). */
static void dcg_window_warn(void)
{
	long long n = atomic64_read(&dcg_g.off_unopened);

	if (n)
		_stp_warn("dynamic_call_graph(0): %lld call(s) in threads that were never turned on, ignored (a .return probe whose entry probe did not fire, as when the thread was already inside the function when the session started; or a (0) without its (1))",
			  n);
}

/*
 * probe end: close every window still open (threads still inside the
 * traced function, or exited in it) so the trace is complete.  Their
 * TF goes in the teardown work; until then the notifier clears it at
 * their next trap.  A slot in INTRAP belongs to a #DB handler running
 * on another CPU right now, for a few microseconds.
 */
static void dcg_close_all(void)
{
	int i;

	for (i = 0; i < DCG_MAX_TASKS; i++) {
		struct dcg_slot *s = &dcg_slots[i];

		if (dcg_state_take(&s->state, DCG_SLOT_BUSY,
				   DCG_STATE(DCG_SLOT_INTRAP),
				   DCG_STATE(DCG_SLOT_OPENING) |
				   DCG_STATE(DCG_SLOT_ARMED) |
				   DCG_STATE(DCG_SLOT_PAUSED)) < 0)
			continue;
		atomic64_inc(&dcg_g.aborted);
		dcg_window_finish(s);
		atomic_set(&s->state, DCG_SLOT_CLOSED);
	}
}
