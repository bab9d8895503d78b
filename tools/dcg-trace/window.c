// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - trace windows: the glue between the ptrace loop and the
 * engine of runtime/dcg_core.h.
 *
 * A window opens when a thread hits the breakpoint on a traced
 * function's entry, and closes when that activation is gone: at the
 * first stop whose rsp lies above the rsp at entry (which pointed at
 * the return address).  That covers the normal ret, and also a longjmp
 * or an exception that leaves the function by unwinding.
 *
 * In emulated-block mode the thread is single-stepped, but the engine
 * (in block mode) only hears about the stops that BTF would have made:
 * those after a taken branch, i.e. where ip is not the next
 * instruction.  A rep-prefixed string insn that traps per iteration
 * stays at the same ip and is not a branch either.  A syscall is
 * reported although it falls through: Linux sets SYSCALL_EXIT_TRAP for
 * PTRACE_SINGLEBLOCK as for PTRACE_SINGLESTEP, so real block mode
 * stops after every syscall too.
 */
#include <stdlib.h>
#include <string.h>
#include "dcg_trace.h"

static int host_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	return code_read(addr, buf, len);
}

static int host_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start, dcg_u64 *end)
{
	return sym_func_bounds(addr, start, end);
}

/* Strings are data, maybe writable: always read fresh, never cached. */
static int host_read_data(void *ctx, dcg_u64 addr, void *buf,
			  unsigned int len)
{
	return mem_read(addr, buf, len);
}

/*
 * The registers of the stop the engine is handling: every event it
 * emits now explains this stop (dcg_ev_regs_kind() keeps the others
 * out), and in emulated-block mode too the engine only hears of the
 * branch stops, where the registers are those after the branch.
 */
static void stop_regs(const struct task *t, struct dcg_regs *r)
{
	r->ip = t->regs.rip;
	r->arg[0] = t->regs.rdi;
	r->arg[1] = t->regs.rsi;
	r->arg[2] = t->regs.rdx;
	r->arg[3] = t->regs.rcx;
	r->arg[4] = t->regs.r8;
	r->arg[5] = t->regs.r9;
	r->ret[0] = t->regs.rax;
	r->ret[1] = t->regs.rdx;
}

static void host_emit(void *ctx, const struct dcg_rec_event *ev)
{
	struct task *t = ctx;
	union {
		struct dcg_rec_event e;
		dcg_u64 align[DCG_REC_MAX_SIZE / 8];
	} rec;
	struct dcg_regs regs;

	rec.e = *ev;
	rec.e.r.tid = t->tid;
	rec.e.cpu = 0;
	skip_mark_event(t, &rec.e);
	if (T.args.nargs || T.args.nrets) {
		stop_regs(t, &regs);
		dcg_ev_regs_append(&rec.e, sizeof(rec), &T.args, &regs,
				   host_read_data, t);
	}
	dcg_write_event(&T.w, &rec.e);
}

/*
 * The engine's profile table is full, or the window ended: write it.
 * A write error is the writer's (sticky, reported at close).
 */
static int host_profile_flush(void *ctx, const struct dcg_profile *p,
			      unsigned int flags)
{
	struct task *t = ctx;

	if (!(flags & DCG_PROF_LAST))
		T.profile_flushes++;
	dcg_write_profile(&T.w, t->tid, now_ns(), p->slots, p->cap,
			  p->dropped, flags);
	return 0;
}

static void ops_for(struct task *t, struct dcg_host_ops *ops)
{
	ops->read = host_read;
	ops->func_bounds = host_bounds;
	ops->emit = host_emit;
	ops->ctx = t;
	ops->thunks = NULL;	/* user space: no thunk ranges yet */
	ops->profile_flush = T.opt.annotate ? host_profile_flush : NULL;
}

/* For hop.c: the engine's view of @t's memory. */
void window_ops(struct task *t, struct dcg_host_ops *ops)
{
	ops_for(t, ops);
}

/* Hop mode steps every transfer: the engine works as in step mode. */
static unsigned int engine_mode(void)
{
	return T.mode == DCG_MODE_STEP || T.mode == DCG_MODE_HOP ?
	       DCG_MODE_STEP : DCG_MODE_BLOCK;
}

static void window_init(struct task *t)
{
	if (!t->frames) {
		t->frames = calloc(SHADOW_CAP, sizeof(*t->frames));
		if (!t->frames)
			dcg_die(1, "out of memory");
	}
	dcg_thread_init(&t->eng, engine_mode(), t->frames, SHADOW_CAP);
	t->eng.max_depth = T.opt.max_depth;
	if (T.opt.annotate) {
		if (!t->prof_slots) {
			t->prof_slots = calloc(PROFILE_SLOTS,
					       sizeof(*t->prof_slots));
			if (!t->prof_slots)
				dcg_die(1, "out of memory");
		}
		dcg_profile_init(&t->prof, t->prof_slots, PROFILE_SLOTS);
		t->eng.prof = &t->prof;
	}
	t->in_window = true;
	T.windows++;
	pin_window_open(t);
	/*
	 * New executable mappings get their MAP record before events, and
	 * the named functions are looked for in them.
	 */
	if (maps_scan(true) > 0 && T.names_resolved)
		resolve_and_arm(false);
}

/* @t stopped at the entry of a traced function (rip already rewound). */
void window_open(struct task *t)
{
	struct dcg_host_ops ops;
	uint64_t ret = 0;

	window_init(t);
	mem_read(t->regs.rsp, &ret, sizeof(ret));
	t->window_sp = t->regs.rsp;
	ops_for(t, &ops);
	dcg_thread_begin(&t->eng, t->regs.rip, t->regs.rsp, ret, now_ns(),
			 &ops);
	skip_after_stop(t);
	vlog(2, "thread %d: window opens at %#llx sp %#llx", t->tid,
	     (unsigned long long)t->regs.rip, (unsigned long long)t->regs.rsp);
}

/* --all: the window is the whole life of the thread. */
void window_open_here(struct task *t)
{
	window_init(t);
	tflags_from_regs(t);
	t->window_sp = UINT64_MAX;
	dcg_thread_begin_here(&t->eng, t->regs.rip, t->regs.rsp, now_ns());
}

void window_close(struct task *t)
{
	struct dcg_host_ops ops;

	if (!t->in_window)
		return;
	skip_end(t);
	hop_end(t);
	ops_for(t, &ops);
	dcg_thread_end(&t->eng, now_ns(), &ops);
	T.resyncs += t->eng.stats.resyncs;
	T.decode_errors += t->eng.stats.decode_errors;
	t->in_window = false;
	pin_window_close(t, true);
	vlog(2, "thread %d: window closes", t->tid);
}

/*
 * Could the conditional branch @insn have been taken when it ended at
 * its own fall-through address @fall?  Only if it jumps there.
 */
static bool cond_taken_to_fall(const struct dcg_insn *insn, uint64_t fall)
{
	return (insn->flags & DCG_INSN_HAS_TARGET) && insn->target == fall;
}

/*
 * Was the single step that just ended at t->regs.rip a taken branch?
 * Only asked about stops that followed a single step.  A jump, call
 * or return is always taken, even to the next instruction (a jump
 * table's fall-through case, jmp .+2, the get-pc call): the hardware's
 * BTF traps on it, and the block walk (runtime/classify.c) would stop
 * at it and lose what the next block does.
 */
bool window_is_branch_stop(struct task *t)
{
	uint8_t buf[DCG_INSN_MAX_LEN];
	struct dcg_insn insn;
	int n, len;

	n = code_read(t->step_from, buf, sizeof(buf));
	len = n > 0 ? dcg_insn_decode(buf, n, t->step_from, &insn) : -1;
	if (len <= 0)
		return true;	/* let the engine judge what we cannot */
	if (insn.branch == DCG_BR_SYS)
		return true;
	if (t->regs.rip == t->step_from + len) {
		if (insn.branch == DCG_BR_JCC || insn.branch == DCG_BR_LOOP)
			return cond_taken_to_fall(&insn, t->regs.rip);
		return insn.branch != DCG_BR_OTHER;
	}
	if (t->regs.rip == t->step_from && (insn.flags & DCG_INSN_REP))
		return false;
	return true;
}

/* A stop of a thread inside a window, after it was stepped. */
void window_stop(struct task *t)
{
	struct dcg_host_ops ops;
	bool report = true;

	T.window_stops++;
	if (T.mode != DCG_MODE_STEP && T.mode != DCG_MODE_HOP &&
	    t->how == RH_STEP)
		report = window_is_branch_stop(t);
	if (report) {
		ops_for(t, &ops);
		dcg_thread_stop(&t->eng, t->regs.rip, t->regs.rsp, now_ns(),
				&ops);
	}
	skip_after_stop(t);
	/* the root frame is gone (ret, longjmp out): the window is over */
	if (t->window_sp != UINT64_MAX && t->eng.shadow.depth == 0)
		window_close(t);
}
