// SPDX-License-Identifier: GPL-2.0
/*
 * skip.c - skip instead of step: let excluded subtrees run unstepped.
 *
 * With -D N the engine itself marks a call that would go deeper than N
 * (DCG_FRAME_SKIPPED, runtime/dcg_core.h); with -N GLOB this file marks
 * calls (and tail calls) into matching functions the same way, from the
 * emit callback, where the new frame is already on top.  Either way the
 * host then stops stepping the thread and arms a breakpoint on the
 * frame's return address:
 *
 *   - a hardware execute breakpoint (a debug register written with
 *     PTRACE_POKEUSER, DR7 local enable, R/W 00, LEN 00), per thread,
 *     so other threads never stop there;
 *   - or, when no debug register is free or POKEUSER fails, an int3
 *     shared by every thread that skips to the same address.
 *
 * The subtree runs at native speed.  The skip ends at a hit with rsp
 * above the frame's return slot; a hit with rsp at or below it is the
 * same call site reached again from deeper inside (recursion) and the
 * thread just goes on.  A hardware hit stops the thread before the
 * instruction, and the kernel sets EFLAGS.RF so that going on does not
 * hit again.
 *
 * Non-local exits.  A longjmp or a C++ exception can leave the skipped
 * subtree without ever reaching the return address, and the thread
 * would run on unstepped in the traced function.  So while skipping is
 * on, the entries of longjmp and the unwinder carry an int3: a skipping
 * thread that gets there is stepped through it (the engine ignores
 * those stops), and if rsp ends up above the skipped frame the engine
 * pops it (SYNTHETIC) and stepping goes on; if it lands inside the
 * subtree (caught there), the thread goes back to running free.
 *
 * Recursion back into a traced function from inside a skipped subtree
 * hits its entry breakpoint with the window still open: that is part of
 * the skipped subtree, no nested window opens.  Signals in the subtree
 * are delivered unchanged and their handlers run unstepped.
 *
 * Breakpoints are removed when the skip ends, and at window end, exit,
 * exec and detach (skip_end from window_close).  An int3 taken out
 * while another thread had already hit it would leave that thread with
 * a SIGTRAP it did not ask for: the last few removed addresses are
 * remembered, and such a trap is rewound instead of delivered.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "dcg_trace.h"

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

#define MAX_EXCLUDED	65536
#define TOMBSTONES	32
#define MAX_INT3	256

/* Where control may leave a skipped subtree without a return. */
static const char *const nonlocal_names[] = {
	"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk",
	"__libc_longjmp", "__libc_siglongjmp",
	"_Unwind_RaiseException", "_Unwind_Resume",
	"_Unwind_Resume_or_Rethrow", "_Unwind_ForcedUnwind",
};

/* int3 return breakpoints in use: threads skipping to one address share it. */
struct int3_ref {
	uint64_t addr;
	int refs;
	bool ours;		/* we inserted it (else another purpose did) */
};

static struct {
	uint64_t *excluded;	/* sorted entry addresses matching -N */
	int nexcluded;
	uint64_t nonlocal[64];
	int nnonlocal;
	struct int3_ref int3s[MAX_INT3];
	uint64_t tomb[TOMBSTONES];
	unsigned int ntomb;
	bool force_int3;	/* DCG_TRACE_SKIP_BP=int3 */
	bool no_hw_warned;
	/* statistics */
	uint64_t skips, hw_arms, int3_arms, unarmed, returns, reentries,
		 unwinds, landed_inside;
} S;

bool skip_enabled(void)
{
	return T.opt.max_depth || T.opt.nexcludes;
}

void skip_add_exclude(const char *glob)
{
	if (!*glob)
		dcg_die(2, "empty function pattern for -N");
	if (T.opt.nexcludes == (int)DCG_ARRAY_SIZE(T.opt.excludes))
		dcg_die(2, "too many -N patterns (at most %zu)",
		    DCG_ARRAY_SIZE(T.opt.excludes));
	T.opt.excludes[T.opt.nexcludes++] = glob;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool is_excluded(uint64_t addr)
{
	return S.nexcluded &&
	       bsearch(&addr, S.excluded, S.nexcluded, sizeof(addr), cmp_u64);
}

static void resolve_excludes(void)
{
	int i, n = 0, got;

	if (!S.excluded) {
		S.excluded = calloc(MAX_EXCLUDED, sizeof(*S.excluded));
		if (!S.excluded)
			dcg_die(1, "out of memory");
	}
	for (i = 0; i < T.opt.nexcludes; i++) {
		got = sym_resolve_glob(T.opt.excludes[i], S.excluded + n,
				       MAX_EXCLUDED - n);
		vlog(1, "-N %s: %d functions", T.opt.excludes[i], got);
		n += got;
	}
	if (n == MAX_EXCLUDED)
		dcg_warn("-N patterns match more than %d functions: some are "
		       "not excluded", MAX_EXCLUDED);
	qsort(S.excluded, n, sizeof(*S.excluded), cmp_u64);
	S.nexcluded = n;
}

static void resolve_nonlocal(void)
{
	uint64_t addrs[8];
	size_t i;
	int j, n;

	S.nnonlocal = 0;
	for (i = 0; i < DCG_ARRAY_SIZE(nonlocal_names); i++) {
		n = sym_resolve(nonlocal_names[i], addrs, DCG_ARRAY_SIZE(addrs));
		for (j = 0; j < n; j++) {
			if (S.nnonlocal == (int)DCG_ARRAY_SIZE(S.nonlocal))
				return;
			if (bp_add(addrs[j], BP_NONLOCAL) < 0)
				continue;
			S.nonlocal[S.nnonlocal++] = addrs[j];
		}
	}
}

/*
 * Names to addresses again: at the program's entry, after each change
 * of the link map (dlopen) and at exec.  Called by resolve_and_arm().
 */
void skip_resolve(void)
{
	const char *how = getenv("DCG_TRACE_SKIP_BP");

	if (!skip_enabled())
		return;
	S.force_int3 = how && !strcmp(how, "int3");
	if (T.opt.nexcludes)
		resolve_excludes();
	resolve_nonlocal();
}

/*
 * Emit callback hook: a CALL or TAILCALL into an excluded function
 * makes the new top frame a skipped one.  The root call counts too:
 * excluding the traced function itself leaves one call per window.
 */
void skip_mark_event(struct task *t, struct dcg_rec_event *e)
{
	struct dcg_shadow *s = &t->eng.shadow;
	struct dcg_frame *f;

	if (e->kind != DCG_EV_CALL && e->kind != DCG_EV_TAILCALL)
		return;
	if (!is_excluded(e->to))
		return;
	f = dcg_shadow_top(s);
	if (!f || (e->flags & DCG_EVF_OVERFLOW))
		return;
	f->flags |= DCG_FRAME_SKIPPED;
	e->flags |= DCG_EVF_SKIPPED;
}

bool skip_native(const struct task *t)
{
	return t->sk.state == SK_NATIVE;
}

/* ---- debug registers ---- */

/*
 * A debug register the program does not enable; dr_slot caches the
 * answer.  debugreg.c keeps what the program had.
 */
static int dr_pick(struct task *t)
{
	uint64_t dr7;
	int i;

	if (t->sk.dr_slot)
		return t->sk.dr_slot - 1;
	if (dr_own(t) < 0) {
		t->sk.dr_slot = -1;
		return -1;
	}
	dr7 = t->dr.prog7;
	for (i = 0; i < 4; i++) {
		if (!(dr7 & (3ull << (2 * i)))) {
			t->sk.dr_slot = i + 1;
			return i;
		}
	}
	t->sk.dr_slot = -1;
	return -1;
}

static int hw_arm(struct task *t, uint64_t addr)
{
	int i = dr_pick(t), ret;

	if (i < 0)
		return -EBUSY;
	if (t->sk.dr_addr != addr) {
		ret = dr_set_addr(t, i, addr);
		hop_dr_written(t, i);
		if (ret < 0)
			goto fail;
		t->sk.dr_addr = addr;
	}
	/*
	 * execute breakpoint: R/W = 00, LEN = 00, local enable; only this
	 * slot's bits change (the program's own and hop mode's stay)
	 */
	ret = dr7_update(t, DR7_SLOT(i), 1ull << (2 * i));
	if (ret == 0)
		return 0;
fail:
	if (!S.no_hw_warned)
		vlog(1, "thread %d: no debug register (%s): int3 instead",
		     t->tid, strerror(-ret));
	S.no_hw_warned = true;
	t->sk.dr_slot = -1;
	return ret;
}

static void hw_disarm(struct task *t)
{
	int i = t->sk.dr_slot - 1;

	/* ESRCH: the thread is gone, and its registers with it */
	if (i >= 0)
		dr7_update(t, DR7_SLOT(i), 0);
	t->sk.hw = false;
}

/* ---- int3 return breakpoints ---- */

static struct int3_ref *int3_ref(uint64_t addr)
{
	int i;

	for (i = 0; i < MAX_INT3; i++)
		if (S.int3s[i].refs && S.int3s[i].addr == addr)
			return &S.int3s[i];
	return NULL;
}

/* A free slot of the breakpoint table, or a new one. */
static int bp_new(uint64_t addr)
{
	int i;

	for (i = 0; i < T.nbps; i++) {
		struct bp *b = &T.bps[i];

		if (!b->addr && !b->inserted) {
			b->addr = addr;
			b->kind = BP_SKIPRET;
			if (bp_set(b, true) == 0)
				return 0;
			b->addr = 0;
			return -EFAULT;
		}
	}
	return bp_add(addr, BP_SKIPRET);
}

static int int3_arm(uint64_t addr)
{
	struct int3_ref *r = int3_ref(addr);
	struct bp *b;
	int i;

	if (r) {
		b = bp_find(addr);
		if (b && b->inserted) {
			r->refs++;
			return 0;
		}
		r->refs = 0;	/* stale (exec): start again */
	}
	for (i = 0; i < MAX_INT3 && S.int3s[i].refs; i++)
		;
	if (i == MAX_INT3)
		return -ENOSPC;
	r = &S.int3s[i];
	b = bp_find(addr);
	if (b && b->inserted) {
		r->ours = false;	/* e.g. a traced function's entry */
	} else {
		if (b)
			b->addr = 0;
		if (bp_new(addr) < 0)
			return -EFAULT;
		r->ours = true;
	}
	r->addr = addr;
	r->refs = 1;
	return 0;
}

static void tombstone(uint64_t addr)
{
	S.tomb[S.ntomb++ % TOMBSTONES] = addr;
}

static bool is_tombstone(uint64_t addr)
{
	unsigned int i;

	for (i = 0; i < TOMBSTONES && i < S.ntomb; i++)
		if (S.tomb[i] == addr)
			return true;
	return false;
}

static void int3_disarm(struct task *t)
{
	struct int3_ref *r = int3_ref(t->sk.ret_addr);
	struct bp *b;

	t->sk.int3 = false;
	if (!r || --r->refs > 0 || !r->ours)
		return;
	b = bp_find(r->addr);
	if (b && b->kind == BP_SKIPRET) {
		if (b->inserted)
			tombstone(b->addr);
		bp_set(b, false);
		b->addr = 0;
	}
}

/* ---- arming ---- */

static void arm(struct task *t)
{
	uint64_t addr = t->sk.ret_addr;

	if (!S.force_int3 && t->sk.dr_slot >= 0 && hw_arm(t, addr) == 0) {
		t->sk.hw = true;
		S.hw_arms++;
	} else if (int3_arm(addr) == 0) {
		t->sk.int3 = true;
		S.int3_arms++;
	} else {
		/* the engine ignores the subtree's stops: correct, slow */
		S.unarmed++;
		t->sk.state = SK_STEPPED;
		return;
	}
	t->sk.state = SK_NATIVE;
}

static void disarm(struct task *t)
{
	if (t->sk.hw)
		hw_disarm(t);
	if (t->sk.int3)
		int3_disarm(t);
}

static void skip_begin(struct task *t, const struct dcg_frame *f)
{
	t->sk.ret_addr = f->ret_addr;
	t->sk.frame_sp = f->sp;
	S.skips++;
	vlog(2, "thread %d: skipping %#llx, returns to %#llx sp %#llx",
	     t->tid, (unsigned long long)f->func,
	     (unsigned long long)f->ret_addr, (unsigned long long)f->sp);
	arm(t);
}

/*
 * Did @t just take a branch?  longjmp and the unwinder set rsp first
 * and jump (or ret) to the landing site after: the skip may only go
 * back to native speed at the landing site itself.
 */
static bool after_branch(struct task *t)
{
	return t->how != RH_STEP || window_is_branch_stop(t);
}

/*
 * After every stop the engine saw (and after a window opens): start,
 * keep or end the skip the engine's top frame asks for.
 */
void skip_after_stop(struct task *t)
{
	const struct dcg_frame *f = dcg_thread_skipping(&t->eng);
	struct skip_task *sk = &t->sk;

	if (!f) {
		if (sk->state != SK_NONE) {
			disarm(t);
			sk->state = SK_NONE;
		}
		return;
	}
	if (sk->state != SK_NONE && (f->sp != sk->frame_sp ||
				     f->ret_addr != sk->ret_addr)) {
		disarm(t);	/* not the frame we armed for */
		sk->state = SK_NONE;
	}
	switch (sk->state) {
	case SK_NONE:
		skip_begin(t, f);
		break;
	case SK_UNWIND:
		/*
		 * Landed out of longjmp/the unwinder, still inside the
		 * subtree (rsp above the skipped frame is the engine's to
		 * see, at its next branch stop): run free again.
		 */
		if (t->regs.rsp > sk->unwind_sp && t->regs.rsp <= sk->frame_sp &&
		    after_branch(t)) {
			S.landed_inside++;
			arm(t);
		}
		break;
	default:
		break;
	}
}

/*
 * The return breakpoint of @t's skip was hit (rip is the return
 * address).  Above the frame: the skip is over, and the engine hears
 * about it like any stop.  Does not resume.
 */
static void return_hit(struct task *t)
{
	if (t->regs.rsp <= t->sk.frame_sp) {
		S.reentries++;
		return;
	}
	S.returns++;
	window_stop(t);
}

/* An int3 at @addr was hit (rip rewound onto it); bp_hit resumes. */
void skip_bp_hit(struct task *t, uint64_t addr)
{
	int i;

	if (t->sk.state == SK_NATIVE && t->sk.int3 &&
	    addr == t->sk.ret_addr) {
		return_hit(t);
		return;
	}
	if (t->sk.state != SK_NATIVE)
		return;
	for (i = 0; i < S.nnonlocal; i++) {
		if (S.nonlocal[i] != addr)
			continue;
		disarm(t);
		t->sk.state = SK_UNWIND;
		t->sk.unwind_sp = t->regs.rsp;
		S.unwinds++;
		vlog(2, "thread %d: non-local exit at %#llx while skipping",
		     t->tid, (unsigned long long)addr);
		return;
	}
}

static int trap_code(struct task *t)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) < 0)
		return -1;
	return si.si_code;
}

/*
 * A SIGTRAP of @t that was not a step and not at an inserted int3:
 * our debug register, or an int3 of ours removed since it was hit.
 * Returns true when it was ours; then @t has been resumed if @resume,
 * else only rewound (detach).
 */
bool skip_sigtrap(struct task *t, bool resume)
{
	if (t->sk.state == SK_NATIVE && t->sk.hw &&
	    t->regs.rip == t->sk.ret_addr && trap_code(t) == TRAP_HWBKPT) {
		if (resume) {
			return_hit(t);
			resume_task(t, 0);
		}
		return true;
	}
	if (is_tombstone(t->regs.rip - 1) && trap_code(t) == SI_KERNEL) {
		t->regs.rip--;
		task_setregs(t);
		if (resume)
			resume_task(t, 0);
		return true;
	}
	return false;
}

/*
 * An int3 inserted while @t was already resumed to step the instruction
 * under it: the step ran the int3 instead (rip one past it, si_code
 * SI_KERNEL, not a step's TRAP_TRACE).  Rewind and step it again (over
 * the int3 if it is still there).
 * Breakpoints inserted during the trace (skip returns, dlopen, a
 * SIGTRAP handler's resume point) can all race with a stepping thread.
 */
bool skip_stepped_into_int3(struct task *t)
{
	uint64_t addr = t->regs.rip - 1;
	struct bp *b = bp_find(addr);

	/* and maybe taken out again since (tombstone) */
	if ((!b || !b->inserted) && !is_tombstone(addr))
		return false;
	if (t->how == RH_STEP && addr != t->step_from)
		return false;
	if (trap_code(t) != SI_KERNEL)
		return false;
	vlog(2, "thread %d: stepped into an int3 at %#llx: rewound", t->tid,
	     (unsigned long long)addr);
	t->regs.rip--;
	task_setregs(t);
	t->rewound = true;
	resume_task(t, 0);
	return true;
}

/* The window of @t ends (return, exit, exec, detach): no breakpoints left. */
void skip_end(struct task *t)
{
	disarm(t);
	t->sk.state = SK_NONE;
	/* exec empties the debug registers: pick and write them afresh */
	t->sk.dr_slot = 0;
	t->sk.dr_addr = 0;
}

void skip_report(void)
{
	if (!skip_enabled())
		return;
	fprintf(stderr, PROG ": skipped %llu subtrees (armed %llu debug "
		"register, %llu int3, %llu stepped), %llu returns, %llu "
		"re-entries, %llu non-local exits (%llu caught inside)\n",
		(unsigned long long)S.skips, (unsigned long long)S.hw_arms,
		(unsigned long long)S.int3_arms, (unsigned long long)S.unarmed,
		(unsigned long long)S.returns, (unsigned long long)S.reentries,
		(unsigned long long)S.unwinds,
		(unsigned long long)S.landed_inside);
}
