// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - the per-thread engine: classify each stop, check the
 * answer against rsp, keep the shadow stack, emit events.
 * Freestanding.  The rules are in doc/classifier.md.
 */
#include "dcg_core.h"

/*
 * Below the stack pointer of the previous stop by more than the x86-64
 * red zone: only a new stack frame built by someone else (the kernel's
 * signal frame) gets there without a call.
 */
#define RED_ZONE	128

/*
 * No function is bigger: a jump site farther than this from a frame's
 * entry lies in some other function.
 */
#define FUNC_SPAN_MAX	(1u << 20)

/* Everything one stop needs; keeps the helpers' argument lists short. */
struct stop {
	struct dcg_thread *t;
	const struct dcg_host_ops *ops;
	dcg_u64 ip;
	dcg_u64 sp;
	dcg_u64 ts;
	int emitted;
};

static void emit_at(struct stop *st, unsigned int kind, unsigned int flags,
		    dcg_u64 from, dcg_u64 to, dcg_u64 sp)
{
	struct dcg_rec_event ev;

	dcg_rec_event_fill(&ev, 0, kind, flags, st->ts, from, to);
	ev.sp = sp;
	if (st->t->inexact)
		ev.flags |= DCG_EVF_INEXACT;
	st->t->inexact = 0;
	ev.depth = st->t->shadow.depth;
	ev.insns = st->t->insns;
	st->t->stats.events++;
	st->emitted++;
	if (st->ops && st->ops->emit)
		st->ops->emit(st->ops->ctx, &ev);
}

static void emit(struct stop *st, unsigned int kind, unsigned int flags,
		 dcg_u64 from, dcg_u64 to)
{
	emit_at(st, kind, flags, from, to, st->sp);
}

/* Read a stack word; 0 when it cannot be read (counted). */
static int read_u64(struct stop *st, dcg_u64 addr, dcg_u64 *val)
{
	dcg_u8 b[8];
	int i, n = 0;

	if (st->ops && st->ops->read)
		n = st->ops->read(st->ops->ctx, addr, b, sizeof(b));
	if (n != (int)sizeof(b)) {
		st->t->stats.read_errors++;
		return 0;
	}
	*val = 0;
	for (i = 7; i >= 0; i--)
		*val = (*val << 8) | b[i];
	return 1;
}

/* True unless the word at @addr is readable and differs from @expect. */
static int stack_word_may_be(struct stop *st, dcg_u64 addr, dcg_u64 expect)
{
	dcg_u64 v;

	return !read_u64(st, addr, &v) || v == expect;
}

static struct dcg_frame *top_frame(struct stop *st)
{
	return dcg_shadow_top(&st->t->shadow);
}

/* Pop the top frame and say so with a RET event. */
static void pop_frame(struct stop *st, unsigned int flags, dcg_u64 from,
		      dcg_u64 to)
{
	struct dcg_shadow *s = &st->t->shadow;

	if (dcg_shadow_top_overflowed(s))
		flags |= DCG_EVF_OVERFLOW;
	dcg_shadow_pop(s);
	if (flags & DCG_EVF_SYNTHETIC)
		st->t->stats.resyncs++;
	emit(st, DCG_EV_RET, flags, from, to);
}

/*
 * A frame is alive while rsp <= frame.sp.  Pop the dead ones, innermost
 * first.  Frames past the array's end are known dead only once the
 * deepest stored frame is, since they all lie below it.
 */
static void resync(struct stop *st, dcg_u64 from)
{
	struct dcg_shadow *s = &st->t->shadow;
	struct dcg_frame *f;

	while (s->depth > 0) {
		if (dcg_shadow_top_overflowed(s))
			f = s->cap ? &s->frames[s->cap - 1] : NULL;
		else
			f = &s->frames[s->depth - 1];
		if (!f || st->sp <= f->sp)
			break;
		pop_frame(st, DCG_EVF_SYNTHETIC, from, st->ip);
	}
}

static void push_frame(struct stop *st, unsigned int kind,
		       unsigned int evflags, dcg_u64 from, dcg_u64 ret_addr,
		       dcg_u32 frame_flags)
{
	struct dcg_thread *t = st->t;
	struct dcg_frame f;

	if (kind == DCG_EV_CALL && t->max_depth &&
	    t->shadow.depth + 1 > t->max_depth &&
	    t->shadow.depth < t->shadow.cap) {
		frame_flags |= DCG_FRAME_SKIPPED;
		evflags |= DCG_EVF_SKIPPED;
	}
	f.func = st->ip;
	f.ret_addr = ret_addr;
	f.sp = st->sp;
	f.ts = st->ts;
	f.flags = frame_flags;
	f.pad = 0;
	if (!dcg_shadow_push(&t->shadow, &f))
		evflags |= DCG_EVF_OVERFLOW;
	emit(st, kind, evflags, from, st->ip);
}

/* Control arrived where no branch could take it: a new context. */
static void do_async(struct stop *st)
{
	dcg_u64 ret_addr;

	resync(st, st->t->prev_ip);
	/* A signal frame holds the restorer at [sp], as a call would. */
	if (!read_u64(st, st->sp, &ret_addr))
		ret_addr = 0;
	push_frame(st, DCG_EV_ASYNC, 0, st->t->prev_ip, ret_addr,
		   DCG_FRAME_ASYNC);
}

/* A call must have pushed the address after it (and only that). */
static int call_is_real(struct stop *st, const struct dcg_transfer *x)
{
	dcg_u64 push = x->branch == DCG_BR_CALL_FAR ? 16 : 8;

	if (st->t->mode == DCG_MODE_STEP && st->sp != st->t->prev_sp - push)
		return 0;
	return stack_word_may_be(st, st->sp, x->from + x->insn.len);
}

/*
 * A call to a label inside the caller's own function (a retpoline, a
 * local subroutine in hand-written asm) starts no function.  Only the
 * host's function bounds can tell.
 */
static int call_stays_inside(struct stop *st, const struct dcg_transfer *x)
{
	const struct dcg_host_ops *ops = st->ops;
	dcg_u64 start, end;

	if (!ops || !ops->func_bounds ||
	    ops->func_bounds(ops->ctx, x->from, &start, &end) != 0)
		return 0;
	return st->ip > start && st->ip < end;
}

static void do_call(struct stop *st, const struct dcg_transfer *x)
{
	if (!call_is_real(st, x)) {
		do_async(st);
		return;
	}
	resync(st, x->from);
	if (call_stays_inside(st, x))
		return;
	push_frame(st, DCG_EV_CALL, x->flags & DCG_EVF_INDIRECT, x->from,
		   x->from + x->insn.len, 0);
}

static int jump_leaves_function(struct stop *st, const struct dcg_transfer *x,
				const struct dcg_frame *top)
{
	const struct dcg_host_ops *ops = st->ops;
	dcg_u64 start, end;
	int indirect;

	if (ops && ops->func_bounds &&
	    ops->func_bounds(ops->ctx, x->from, &start, &end) == 0)
		return st->ip < start || st->ip >= end || st->ip == start;
	/*
	 * No symbols for the jump site, but for the target: a loop stays in
	 * one function, so a known function around the target that does
	 * not hold the site is another one (ld.so's resolver jumping to the
	 * bound library function, whatever the distance).
	 */
	if (ops && ops->func_bounds &&
	    ops->func_bounds(ops->ctx, st->ip, &start, &end) == 0)
		return x->from < start || x->from >= end;
	/*
	 * No symbols: only what cannot be a jump inside the function.
	 * notrack marks a switch table; a backward jump that stays between
	 * the entry and the jump is a loop; a direct jump forward may be
	 * anything, so it is not a tail call.
	 */
	indirect = x->branch == DCG_BR_JMP_IND || x->branch == DCG_BR_JMP_FAR ||
		   dcg_branch_is_ret(x->branch);
	if (!indirect)
		return st->ip <= top->func;
	if (x->insn.flags & DCG_INSN_NOTRACK)
		return 0;
	/*
	 * Plain jumps (a PLT stub, then ld.so's lazy binding resolver) may
	 * have carried control out of the frame's function: a jump site
	 * that far from its entry is not in it, so this is no loop.
	 */
	if (x->from - top->func > FUNC_SPAN_MAX)
		return 1;
	return !(st->ip >= top->func && st->ip <= x->from);
}

/* A jmp with the frame torn down ([sp] = return address) to elsewhere. */
static int is_tail_call(struct stop *st, const struct dcg_transfer *x)
{
	struct dcg_frame *top = top_frame(st);

	if (!top || st->sp != top->sp)
		return 0;
	if (st->ip == x->from + x->insn.len)
		return 0;
	if (!stack_word_may_be(st, st->sp, top->ret_addr))
		return 0;
	return jump_leaves_function(st, x, top);
}

static void do_jump(struct stop *st, const struct dcg_transfer *x)
{
	unsigned int flags = x->flags & DCG_EVF_INDIRECT;
	struct dcg_frame *top;

	resync(st, x->from);
	if (!is_tail_call(st, x))
		return;
	top = top_frame(st);
	if (dcg_branch_is_ret(x->branch))
		flags |= DCG_EVF_INDIRECT;
	/* emitted while the top frame still names the jumper, so that a
	 * host can credit the call to it (the kernel's edge table) */
	emit(st, DCG_EV_TAILCALL, flags, x->from, st->ip);
	top->func = st->ip;
}

/* Innermost stored frame whose return slot is @slot, or -1. */
static int find_slot(const struct dcg_shadow *s, dcg_u64 slot)
{
	int i;

	for (i = (int)dcg_shadow_stored(s) - 1; i >= 0; i--)
		if (s->frames[i].sp == slot)
			return i;
	return -1;
}

/* Innermost stored frame, dead after this ret, that returns to @ip. */
static int find_ret_addr(const struct dcg_shadow *s, dcg_u64 ip, dcg_u64 sp)
{
	int i;

	for (i = (int)dcg_shadow_stored(s) - 1; i >= 0; i--)
		if (s->frames[i].ret_addr == ip && s->frames[i].sp < sp)
			return i;
	return -1;
}

/* Outermost stored frame that is dead at @sp, or -1. */
static int find_outermost_dead(const struct dcg_shadow *s, dcg_u64 sp)
{
	int i, n = dcg_shadow_stored(s);

	for (i = 0; i < n; i++)
		if (s->frames[i].sp < sp)
			return i;
	return -1;
}

/*
 * Which frame did this ret leave?  Returns its index, or -1 when the ret
 * left no frame (it is a jump: push addr; ret).
 */
static int ret_frame(struct stop *st, dcg_u64 slot)
{
	struct dcg_shadow *s = &st->t->shadow;
	int n = dcg_shadow_stored(s);
	int i;

	i = find_slot(s, slot);
	if (i < 0)
		i = find_ret_addr(s, st->ip, st->sp);
	if (i >= 0)
		return i;
	if (n == 0 || st->sp <= s->frames[n - 1].sp)
		return -1;
	/*
	 * The ret popped past the top frame's return slot, but matches no
	 * frame: the return address or rsp was rewritten.  It still ends
	 * the frames it went past; take it as the return of the outermost.
	 */
	return find_outermost_dead(s, st->sp);
}

/* A ret takes its address from the slot it pops. */
static int ret_is_real(struct stop *st, const struct dcg_transfer *x,
		       dcg_u64 *slot)
{
	dcg_u64 pop = (x->branch == DCG_BR_RET_FAR ? 16 : 8) + x->insn.ret_imm;

	*slot = st->sp - pop;
	if (st->t->mode == DCG_MODE_STEP && *slot != st->t->prev_sp)
		return 0;
	return stack_word_may_be(st, *slot, st->ip);
}

static void do_ret(struct stop *st, const struct dcg_transfer *x)
{
	struct dcg_shadow *s = &st->t->shadow;
	dcg_u64 slot;
	int i;

	if (!ret_is_real(st, x, &slot)) {
		do_async(st);
		return;
	}
	if (s->depth == 0) {
		st->t->stats.unmatched++;
		emit(st, DCG_EV_RET, DCG_EVF_UNMATCHED, x->from, st->ip);
		return;
	}
	if (dcg_shadow_top_overflowed(s) &&
	    (s->cap == 0 || st->sp <= s->frames[s->cap - 1].sp)) {
		/* Nothing to check a frame past the array against. */
		pop_frame(st, 0, x->from, st->ip);
		return;
	}
	i = ret_frame(st, slot);
	if (i < 0) {
		do_jump(st, x);
		return;
	}
	while (s->depth > (dcg_u32)i + 1)
		pop_frame(st, DCG_EVF_SYNTHETIC, x->from, st->ip);
	pop_frame(st, 0, x->from, st->ip);
}

/* syscall/int/iret that did not come back to the next insn. */
static void do_system(struct stop *st, const struct dcg_transfer *x)
{
	dcg_u64 prev_sp = st->t->prev_sp;

	if (prev_sp > st->sp && prev_sp - st->sp > RED_ZONE)
		do_async(st);		/* signal delivered on the way out */
	else
		resync(st, x->from);	/* sigreturn and the like */
}

static int is_jump(const struct dcg_transfer *x)
{
	return x->insn.len && (dcg_branch_is_jmp(x->branch) ||
			       x->branch == DCG_BR_JCC);
}

static int ends_elsewhere(const struct dcg_transfer *x, dcg_u64 ip)
{
	return x->insn.len && ip != x->from + x->insn.len &&
	       (x->branch == DCG_BR_SYS || x->branch == DCG_BR_IRET);
}

/*
 * The top frame's subtree runs unstepped (or its stops are ignored);
 * wait for rsp to rise above its return slot.
 */
static void stop_skipped(struct stop *st, const struct dcg_frame *f)
{
	dcg_u64 from = st->t->prev_ip;

	if (st->sp <= f->sp)
		return;
	pop_frame(st, st->ip == f->ret_addr ? 0 : DCG_EVF_SYNTHETIC, from,
		  st->ip);
	resync(st, from);
}

static int thunk_at(struct stop *st, dcg_u64 addr)
{
	return dcg_thunk_at(st->ops ? st->ops->thunks : 0, addr);
}

/*
 * A call or jump from outside into a thunk: nothing happens yet, the
 * thunk's exit says where it went (leave_thunk).
 */
static int enter_thunk(struct stop *st, const struct dcg_transfer *x)
{
	struct dcg_thunk_wait *w = &st->t->thunk;
	int at = thunk_at(st, st->ip);
	unsigned int kind;

	if (at == DCG_THUNK_NONE || !x->insn.len ||
	    thunk_at(st, x->from) != DCG_THUNK_NONE)
		return 0;
	if (x->kind == DCG_EV_CALL && at == DCG_THUNK_CALL &&
	    x->branch != DCG_BR_CALL_FAR)
		kind = DCG_EV_CALL;
	else if (!x->kind && is_jump(x) && x->branch != DCG_BR_JMP_FAR)
		kind = at == DCG_THUNK_CALL ? DCG_EV_TAILCALL : DCG_EV_RET;
	else
		return 0;
	if (kind == DCG_EV_CALL && !call_is_real(st, x))
		return 0;		/* the caller's do_call makes it async */
	resync(st, x->from);
	w->kind = kind;
	w->len = x->insn.len;
	w->jcc = x->branch == DCG_BR_JCC;
	w->from = x->from;
	w->sp = st->sp;
	return 1;
}

/* The first stop outside the thunks after enter_thunk(). */
static void leave_thunk(struct stop *st)
{
	struct dcg_thunk_wait w = st->t->thunk;
	struct dcg_transfer x;

	st->t->thunk.kind = 0;
	x.kind = 0;
	x.flags = DCG_EVF_INDIRECT;
	x.pad = 0;
	x.from = w.from;
	x.to = st->ip;
	x.insn.len = w.len;
	x.insn.flags = 0;
	x.insn.ret_imm = 0;
	x.insn.modrm_reg = 0xff;
	x.insn.pad = 0;
	x.insn.target = 0;
	switch (w.kind) {
	case DCG_EV_CALL:
		/* The thunk jumped to the target with the call's slot on top. */
		if (st->sp != w.sp ||
		    !stack_word_may_be(st, st->sp, w.from + w.len)) {
			do_async(st);
			return;
		}
		resync(st, w.from);
		push_frame(st, DCG_EV_CALL, DCG_EVF_INDIRECT, w.from,
			   w.from + w.len, 0);
		return;
	case DCG_EV_TAILCALL:
		if (st->sp != w.sp) {
			do_async(st);
			return;
		}
		x.branch = w.jcc ? DCG_BR_JCC : DCG_BR_JMP_IND;
		x.insn.branch = x.branch;
		do_jump(st, &x);
		break;
	default:
		/* A ret of the slot that was on top at the thunk's entry. */
		if (st->sp != w.sp + 8) {
			do_async(st);
			return;
		}
		x.kind = DCG_EV_RET;
		x.flags = 0;
		x.branch = DCG_BR_RET;
		x.insn.branch = DCG_BR_RET;
		st->t->prev_sp = w.sp;	/* the slot, for ret_is_real() */
		do_ret(st, &x);
		break;
	}
	resync(st, w.from);
}

/* The profile table (struct dcg_profile): per-run instruction counts. */
DCG_API int dcg_profile_init(struct dcg_profile *p, struct dcg_prof_ent *slots,
			     dcg_u32 cap)
{
	dcg_u32 i;

	if (cap < 4 || (cap & (cap - 1)))
		return -1;
	p->slots = slots;
	p->cap = cap;
	p->used = 0;
	p->dropped = 0;
	p->flushes = 0;
	for (i = 0; i < cap; i++)
		slots[i].count = 0;
	return 0;
}

static void profile_clear(struct dcg_profile *p)
{
	dcg_u32 i;

	for (i = 0; i < p->cap; i++)
		p->slots[i].count = 0;
	p->used = 0;
	p->dropped = 0;
}

/* Hand the table to the host; clear it when the host wrote it. */
static int profile_flush(struct dcg_profile *p, unsigned int flags,
			 const struct dcg_host_ops *ops)
{
	if (!ops || !ops->profile_flush)
		return -1;
	if (ops->profile_flush(ops->ctx, p, flags) < 0)
		return -1;
	profile_clear(p);
	return 0;
}

/* Fibonacci hashing of the run's start: code addresses differ low. */
static dcg_u32 profile_hash(const struct dcg_profile *p, dcg_u64 start)
{
	return (dcg_u32)((start * 0x9e3779b97f4a7c15ull) >> 32) &
	       (p->cap - 1);
}

/* The slot of the run (@start, @ninsns), or the free slot it would take. */
static struct dcg_prof_ent *profile_slot(struct dcg_profile *p,
					 dcg_u64 start, dcg_u32 ninsns)
{
	struct dcg_prof_ent *e;
	dcg_u32 i;

	/* a quarter of the table stays free: the probe ends */
	for (i = profile_hash(p, start);; i = (i + 1) & (p->cap - 1)) {
		e = &p->slots[i];
		if (!e->count || (e->start == start && e->ninsns == ninsns))
			return e;
	}
}

DCG_API void dcg_profile_add(struct dcg_profile *p, dcg_u64 start,
			     dcg_u32 ninsns, const struct dcg_host_ops *ops)
{
	struct dcg_prof_ent *e;

	if (!ninsns)
		return;
	e = profile_slot(p, start, ninsns);
	if (e->count) {
		e->count++;
		return;
	}
	/* A new run: a table three quarters full goes to the host first. */
	if (p->used + 1 > p->cap - p->cap / 4) {
		if (profile_flush(p, 0, ops) < 0) {
			p->dropped += ninsns;
			return;
		}
		p->flushes++;
		e = profile_slot(p, start, ninsns);
	}
	e->start = start;
	e->ninsns = ninsns;
	e->pad = 0;
	e->count = 1;
	p->used++;
}

/* The engine counted @n insns from @start: the profile counts them too. */
static void count_run(struct stop *st, dcg_u64 start, dcg_u32 n)
{
	st->t->insns += n;
	if (st->t->prof)
		dcg_profile_add(st->t->prof, start, n, st->ops);
}

DCG_API void dcg_thread_count(struct dcg_thread *t, dcg_u64 start, dcg_u32 n,
			      const struct dcg_host_ops *ops)
{
	struct stop st = { .t = t, .ops = ops };

	count_run(&st, start, n);
}

static void classify_stop(struct stop *st)
{
	struct dcg_thread *t = st->t;
	unsigned int mode = t->mode == DCG_MODE_STEP ? DCG_MODE_STEP
						     : DCG_MODE_BLOCK;
	struct dcg_transfer x;
	int r;

	r = dcg_classify(mode, t->prev_ip, st->ip, st->ops, &x);
	/*
	 * Count before the events go out: a CALL's count includes the call
	 * insn, a RET's the ret.  Code that cannot be read or decoded ran
	 * at least one insn.
	 */
	count_run(st, t->prev_ip, r < 0 ? 1 : x.ninsns);
	if (r < 0) {
		t->stats.decode_errors++;
		if (r == DCG_CLASSIFY_EREAD)
			t->stats.read_errors++;
		resync(st, t->prev_ip);
		return;
	}
	if (enter_thunk(st, &x))
		return;
	switch (x.kind) {
	case DCG_EV_CALL:
		do_call(st, &x);
		break;
	case DCG_EV_RET:
		do_ret(st, &x);
		break;
	case DCG_EV_ASYNC:
		do_async(st);
		break;
	default:
		if (is_jump(&x))
			do_jump(st, &x);
		else if (ends_elsewhere(&x, st->ip))
			do_system(st, &x);
		break;
	}
	/*
	 * Frames end when rsp rises above them through a control transfer
	 * (a ret past them, longjmp's jmp, a sigreturn).  A straight-line
	 * insn may lift rsp for a moment only: "pop %rcx; push %rax;
	 * push %rcx; ... ret $8" moves the return address down, and the
	 * function still returns to its caller.  Block mode never stops
	 * there; step mode must not judge there either.
	 */
	if (x.kind || x.branch != DCG_BR_OTHER)
		resync(st, x.from);
}

/*
 * Block mode, back at the same ip and sp: a loop of one block went
 * round (no event, but its insns ran).  Only count them.
 */
static void count_loop(struct stop *st)
{
	struct dcg_transfer x;

	if (dcg_classify(DCG_MODE_BLOCK, st->t->prev_ip, st->ip, st->ops,
			 &x) < 0)
		x.ninsns = 1;
	count_run(st, st->t->prev_ip, x.ninsns);
}

DCG_API int dcg_thread_stop(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			    dcg_u64 ts, const struct dcg_host_ops *ops)
{
	struct stop st = { .t = t, .ops = ops, .ip = ip, .sp = sp, .ts = ts };
	const struct dcg_frame *skip;

	t->stats.stops++;
	if (!t->have_prev)
		goto out;
	if (t->thunk.kind) {
		/* inside the thunk, or out of it: see enter_thunk() */
		if (thunk_at(&st, ip) == DCG_THUNK_NONE)
			leave_thunk(&st);
		goto out;
	}
	skip = dcg_thread_skipping(t);
	if (skip)
		stop_skipped(&st, skip);	/* unstepped: nothing counted */
	else if (ip != t->prev_ip || sp != t->prev_sp)
		classify_stop(&st);
	else if (t->mode == DCG_MODE_STEP)
		count_run(&st, ip, 1);	/* one iteration of a rep insn */
	else
		count_loop(&st);
out:
	t->have_prev = 1;
	t->prev_ip = ip;
	t->prev_sp = sp;
	return st.emitted;
}

DCG_API void dcg_thread_init(struct dcg_thread *t, unsigned int mode,
			     struct dcg_frame *frames, dcg_u32 cap)
{
	dcg_shadow_init(&t->shadow, frames, cap);
	t->stats.stops = 0;
	t->stats.events = 0;
	t->stats.resyncs = 0;
	t->stats.unmatched = 0;
	t->stats.decode_errors = 0;
	t->stats.read_errors = 0;
	t->mode = mode;
	t->have_prev = 0;
	t->pad = 0;
	t->max_depth = 0;
	t->prev_ip = 0;
	t->prev_sp = 0;
	t->insns = 0;
	t->inexact = 0;
	t->thunk.kind = 0;
	t->hide_ts = 0;
	t->hide_ip = 0;
	t->prof = NULL;
}

DCG_API void dcg_thread_begin(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			      dcg_u64 ret_addr, dcg_u64 ts,
			      const struct dcg_host_ops *ops)
{
	struct stop st = { .t = t, .ops = ops, .ip = ip, .sp = sp, .ts = ts };
	struct dcg_frame f;

	t->shadow.depth = 0;
	t->insns = 0;
	t->inexact = 0;
	t->thunk.kind = 0;
	f.func = ip;
	f.ret_addr = ret_addr;
	f.sp = sp;
	f.ts = ts;
	f.flags = 0;
	f.pad = 0;
	if (dcg_shadow_push(&t->shadow, &f))
		emit(&st, DCG_EV_CALL, DCG_EVF_ROOT, ret_addr, ip);
	else
		emit(&st, DCG_EV_CALL, DCG_EVF_ROOT | DCG_EVF_OVERFLOW,
		     ret_addr, ip);
	t->have_prev = 1;
	t->prev_ip = ip;
	t->prev_sp = sp;
}

DCG_API void dcg_thread_begin_here(struct dcg_thread *t, dcg_u64 ip,
				   dcg_u64 sp, dcg_u64 ts)
{
	t->shadow.depth = 0;
	t->insns = 0;
	t->inexact = 0;
	t->thunk.kind = 0;
	t->have_prev = 1;
	t->prev_ip = ip;
	t->prev_sp = sp;
}

DCG_API void dcg_thread_end(struct dcg_thread *t, dcg_u64 ts,
			    const struct dcg_host_ops *ops)
{
	struct stop st = { .t = t, .ops = ops, .ip = t->prev_ip,
			   .sp = t->prev_sp, .ts = ts };
	const struct dcg_frame *f;

	while (t->shadow.depth > 0) {
		f = dcg_shadow_top(&t->shadow);
		pop_frame(&st, DCG_EVF_END, t->prev_ip, f ? f->ret_addr : 0);
	}
	/* the window's counts go out after its END events */
	if (t->prof && profile_flush(t->prof, DCG_PROF_LAST, ops) < 0)
		profile_clear(t->prof);	/* the host counts what it lost */
	t->have_prev = 0;
	t->thunk.kind = 0;
}

DCG_API void dcg_thread_hide(struct dcg_thread *t, dcg_u64 ts)
{
	t->hide_ip = t->thunk.kind ? t->thunk.from : t->prev_ip;
	t->thunk.kind = 0;
	t->hide_ts = ts;
}

/* Rebuilding the calls made while hidden code ran: dcg_thread_resume(). */
/*
 * Few levels, small entries: the kernel host runs this on the #DB stack
 * (and some releases build modules with -Wframe-larger-than=512).
 */
#define REBUILD_LEVELS	4	/* calls between the top frame and ip */
#define REBUILD_WORDS	1024	/* stack words searched */

struct rebuilt {
	dcg_u64 ret;		/* return address of the call insn */
	dcg_u64 slot;		/* where that is on the stack */
	dcg_u64 func;		/* the callee's entry */
	dcg_u8  len;		/* length of the call insn */
	dcg_u8  indirect;
};

/*
 * Is @ret a return address, that is, does a call insn end there?  Sets
 * the call site and the direct target (0 for an indirect call, or a
 * call into a thunk).
 */
static int call_ends_at(struct stop *st, dcg_u64 ret, struct rebuilt *r)
{
	dcg_u8 b[DCG_CALL_BEFORE_LEN];
	struct dcg_insn in;
	unsigned int l;

	if (!st->ops || !st->ops->read ||
	    st->ops->read(st->ops->ctx, ret - sizeof(b), b, sizeof(b)) !=
	    sizeof(b))
		return 0;
	l = dcg_insn_call_ending(b, ret, &in);
	if (!l)
		return 0;
	r->len = l;
	r->ret = ret;
	r->func = 0;
	r->indirect = in.branch == DCG_BR_CALL_IND;
	if (in.branch == DCG_BR_CALL && (in.flags & DCG_INSN_HAS_TARGET) &&
	    thunk_at(st, in.target) == DCG_THUNK_NONE)
		r->func = in.target;
	else
		r->indirect = 1;
	return 1;
}

/*
 * The outermost slot in [lo, hi) holding a return address into
 * [start, end) behind a call insn.  Outermost: the callee's frame lies
 * below the slot and may hold stale return addresses of its own.
 */
static int find_call_slot(struct stop *st, dcg_u64 lo, dcg_u64 hi,
			  dcg_u64 start, dcg_u64 end, struct rebuilt *r)
{
	dcg_u64 a, w;
	int n = 0;

	if (hi < lo + 8)
		return 0;
	for (a = (hi - 8) & ~(dcg_u64)7; a >= lo && n < REBUILD_WORDS;
	     a -= 8, n++) {
		if (read_u64(st, a, &w) && w > start && w <= end &&
		    call_ends_at(st, w, r)) {
			r->slot = a;
			return 1;
		}
	}
	return 0;
}

/* The calls from the top frame's function down to st->ip's. */
static int rebuild_chain(struct stop *st, struct rebuilt *chain)
{
	const struct dcg_host_ops *ops = st->ops;
	struct dcg_frame *top = top_frame(st);
	dcg_u64 cs, ce, hi, start, end;
	int n = 0;

	if (!top || !ops || !ops->func_bounds ||
	    ops->func_bounds(ops->ctx, top->func, &cs, &ce) != 0)
		return 0;
	hi = top->sp;
	while (st->ip < cs || st->ip >= ce) {
		if (n == REBUILD_LEVELS ||
		    !find_call_slot(st, st->sp, hi, cs, ce, &chain[n]))
			return 0;
		if (!chain[n].func) {
			/* indirect: only the last call, into ip's function */
			if (ops->func_bounds(ops->ctx, st->ip, &start, &end))
				return 0;
			chain[n].func = start;
		}
		if (ops->func_bounds(ops->ctx, chain[n].func, &cs, &ce) != 0 ||
		    cs != chain[n].func)
			return 0;
		hi = chain[n].slot;
		n++;
	}
	return n;
}

/* Frames that returned while hidden: their slot was reused since. */
static void end_returned(struct stop *st)
{
	struct dcg_shadow *s = &st->t->shadow;
	struct dcg_frame *f;
	dcg_u64 w, now = st->ts;

	st->ts = st->t->hide_ts ? st->t->hide_ts : now;
	while ((f = top_frame(st)) && s->depth > 1 &&
	       read_u64(st, f->sp, &w) && w != f->ret_addr)
		pop_frame(st, DCG_EVF_SYNTHETIC, st->t->prev_ip, f->ret_addr);
	st->ts = now;
}

DCG_API int dcg_thread_resume(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			      dcg_u64 ts, const struct dcg_host_ops *ops)
{
	struct stop st = { .t = t, .ops = ops, .ip = ip, .sp = sp, .ts = ts };
	struct rebuilt chain[REBUILD_LEVELS];
	const struct dcg_frame *skip;
	struct dcg_frame f;
	int i, n;

	t->stats.stops++;
	t->thunk.kind = 0;
	if (!t->have_prev)
		goto out;
	skip = dcg_thread_skipping(t);
	if (skip) {
		stop_skipped(&st, skip);
		goto out;
	}
	resync(&st, t->prev_ip);
	end_returned(&st);
	n = rebuild_chain(&st, chain);
	for (i = 0; i < n; i++) {
		f.func = chain[i].func;
		f.ret_addr = chain[i].ret;
		f.sp = chain[i].slot;
		f.ts = ts;
		f.flags = 0;
		f.pad = 0;
		emit_at(&st, DCG_EV_CALL,
			(chain[i].indirect ? DCG_EVF_INDIRECT : 0) |
			(dcg_shadow_push(&t->shadow, &f) ? 0 : DCG_EVF_OVERFLOW),
			chain[i].ret - chain[i].len, chain[i].func,
			chain[i].slot);
	}
out:
	t->hide_ts = 0;
	t->have_prev = 1;
	t->prev_ip = ip;
	t->prev_sp = sp;
	return st.emitted;
}
