// SPDX-License-Identifier: GPL-2.0
/*
 * debugreg.c - the debug registers of a traced thread: ours and the
 * program's.
 *
 * Two users of dcg-trace write them: hop.c (execute breakpoints on the
 * next transfers) and skip.c (a return breakpoint of a skipped
 * subtree).  The program may own some too: a debugger that detached
 * leaves its hardware breakpoints and watchpoints in place (Linux
 * clears them at exec and exit only).  So every write goes through
 * here:
 *   - at a thread's first stop the program's own DR0-3, DR6 and DR7 are
 *     read and kept (and noted with the guardian, which puts them back
 *     if dcg-trace is killed).  DR6 changes even if nobody writes it:
 *     the kernel sets its BS bit at each single step, B0-B3 at hits;
 *   - DR7 is changed read-modify-write, only in the bits of the slots
 *     the caller names, so that one user never wipes another's slot or
 *     the program's;
 *   - at detach (dr_restore) every register we wrote gets the
 *     program's value back.  Exit needs nothing (the registers go with
 *     the thread), exec empties them (dr_exec).
 */
#include <errno.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "dcg_trace.h"

static long dr_offset(int i)
{
	return offsetof(struct user, u_debugreg) + i * sizeof(long);
}

int dr_peek(pid_t tid, int i, uint64_t *val)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, tid, (void *)dr_offset(i), NULL);
	if (errno)
		return -errno;
	*val = (uint64_t)v;
	return 0;
}

int dr_poke(pid_t tid, int i, uint64_t val)
{
	if (ptrace(PTRACE_POKEUSER, tid, (void *)dr_offset(i),
		   (void *)(uintptr_t)val) < 0)
		return -errno;
	return 0;
}

/* The program's own registers of @t, read once; <0 if unreadable. */
int dr_own(struct task *t)
{
	struct dr_task *d = &t->dr;
	int i, r;

	if (d->known)
		return 0;
	for (i = 0; i < 4; i++) {
		r = dr_peek(t->tid, i, &d->prog[i]);
		if (r < 0)
			return r;
	}
	r = dr_peek(t->tid, 6, &d->prog6);
	if (r == 0)
		r = dr_peek(t->tid, 7, &d->prog7);
	if (r < 0)
		return r;
	d->dr7 = d->prog7;
	d->known = true;
	guardian_debugreg(t->tid, d);
	return 0;
}

/* Does the program have a debug register of its own enabled in @t? */
bool dr_program_uses(struct task *t, uint64_t *dr7)
{
	if (dr_own(t) < 0)
		return false;
	*dr7 = t->dr.prog7;
	return (t->dr.prog7 & DR7_ENABLES) != 0;
}

/* DR@i of @t := @addr (a slot the program does not enable). */
int dr_set_addr(struct task *t, int i, uint64_t addr)
{
	int r = dr_own(t);

	if (r < 0)
		return r;
	if (!(t->dr.ours & (1u << i))) {
		/* the guardian must know before the first write */
		t->dr.ours |= 1u << i;
		guardian_debugreg(t->tid, &t->dr);
	}
	return dr_poke(t->tid, i, addr);
}

/*
 * DR7 of @t := its bits outside @mask kept, @set inside.  Written only
 * when it changes.
 */
int dr7_update(struct task *t, uint64_t mask, uint64_t set)
{
	uint64_t v;
	int r = dr_own(t);

	if (r < 0)
		return r;
	v = (t->dr.dr7 & ~mask) | (set & mask);
	if (v == t->dr.dr7)
		return 0;
	if (!t->dr.ours_dr7) {
		t->dr.ours_dr7 = true;
		guardian_debugreg(t->tid, &t->dr);
	}
	r = dr_poke(t->tid, 7, v);
	if (r == 0)
		t->dr.dr7 = v;
	return r;
}

/* DR6 of @t := 0 (hop.c, after a hit; dr_restore puts the program's back). */
int dr6_clear(struct task *t)
{
	int r = dr_own(t);

	if (r < 0)
		return r;
	return dr_poke(t->tid, 6, 0);
}

/*
 * Detach: the program's own values back in every register we wrote,
 * DR7 first, so that no breakpoint of ours is enabled while the
 * addresses change.
 */
void dr_restore(struct task *t)
{
	struct dr_task *d = &t->dr;
	int i;

	if (!d->known)
		return;
	if (d->dr7 != d->prog7 || d->ours_dr7)
		dr_poke(t->tid, 7, d->prog7);
	for (i = 0; i < 4; i++)
		if (d->ours & (1u << i))
			dr_poke(t->tid, i, d->prog[i]);
	/* every single step sets DR6.BS, hits set B0-B3: always ours */
	dr_poke(t->tid, 6, d->prog6);
	d->dr7 = d->prog7;
	d->ours = 0;
	d->ours_dr7 = false;
	d->known = false;
	guardian_debugreg(t->tid, NULL);
}

/* exec emptied the registers: the program's are what is there now. */
void dr_exec(struct task *t)
{
	struct dr_task *d = &t->dr;

	d->known = false;
	d->ours = 0;
	d->ours_dr7 = false;
	guardian_debugreg(t->tid, NULL);
	dr_own(t);
}
