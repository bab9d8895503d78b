// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_pin.c - a thread in a window and the tracer share one CPU.
 *
 * Every stop of a stepped thread is a round trip: the thread traps, the
 * kernel wakes the tracer, the tracer's ptrace calls and its resume
 * wake the thread again.  When the two sit on different CPUs each
 * wake-up is an inter-processor interrupt, and in a virtual machine an
 * IPI is an exit to the hypervisor.  On the 2-CPU guest this was
 * measured on, a bare PTRACE_SINGLESTEP loop (bench/ptrace-bare) took
 * 112 us a stop across CPUs and 25 us with both on one CPU; bench job
 * 4 in hop mode went from x15.0 native to x5.19 (uftrace: x7.51).  rr
 * pins its tracees for the same reason.
 *
 * So while a thread is inside a window, it is bound to the CPU the
 * tracer runs on, and the tracer to that CPU too.  Only window threads
 * are bound: the rest of the program runs where it likes, and a thread
 * gets its own mask back when its window closes, unless the program
 * changed it in between (a sched_setaffinity() seen stepped, or a mask
 * that is no longer ours: the program's choice stays); a thread or
 * process it starts inside gets the mask it would have had.  A thread
 * whose mask does not allow the tracer's CPU is left alone, as is
 * everything when the affinity calls fail (a cpuset, seccomp):
 * pinning is only ever a speed-up.  --no-pin turns it off.  If the
 * tracer is killed, the guardian puts the masks back (guardian.c).
 *
 * What the program can see: sched_getaffinity() and /proc inside a
 * window name one CPU (dcg-trace(1), "What the program can observe").
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include "dcg_trace.h"

static struct {
	int cpu;		/* the CPU of the pinned threads, -1: none */
	int threads;		/* threads bound to it now */
	cpu_set_t tracer_mask;	/* the tracer's own, to put back */
	bool failed;		/* the tracer could not be bound: stop trying */
} pin = { .cpu = -1 };

static void one_cpu(cpu_set_t *set, int cpu)
{
	CPU_ZERO(set);
	CPU_SET(cpu, set);
}

/* Bind the tracer to the CPU it is on: the first window to open. */
static bool pin_tracer(void)
{
	cpu_set_t set;
	int cpu;

	if (pin.cpu >= 0)
		return true;
	if (pin.failed)
		return false;
	cpu = sched_getcpu();
	if (cpu < 0 || sched_getaffinity(0, sizeof(pin.tracer_mask),
					 &pin.tracer_mask) < 0) {
		pin.failed = true;
		return false;
	}
	one_cpu(&set, cpu);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		vlog(1, "not pinned: the tracer cannot be bound to CPU %d: %s",
		     cpu, strerror(errno));
		pin.failed = true;
		return false;
	}
	pin.cpu = cpu;
	return true;
}

static void unpin_tracer(void)
{
	if (pin.cpu < 0 || pin.threads)
		return;
	sched_setaffinity(0, sizeof(pin.tracer_mask), &pin.tracer_mask);
	pin.cpu = -1;
}

/* @t's window opens: bind it to the tracer's CPU. */
void pin_window_open(struct task *t)
{
	cpu_set_t set;

	if (T.opt.no_pin || t->pin.pinned || !pin_tracer())
		return;
	t->pin.own = false;
	if (sched_getaffinity(t->tid, sizeof(t->pin.saved), &t->pin.saved) < 0 ||
	    !CPU_ISSET(pin.cpu, &t->pin.saved)) {
		unpin_tracer();
		return;
	}
	one_cpu(&set, pin.cpu);
	guardian_pinned(t->tid, pin.cpu, &t->pin.saved);
	if (sched_setaffinity(t->tid, sizeof(set), &set) < 0) {
		vlog(1, "thread %d not pinned: %s", t->tid, strerror(errno));
		guardian_pinned(t->tid, -1, NULL);
		unpin_tracer();
		return;
	}
	t->pin.pinned = true;
	pin.threads++;
	vlog(2, "thread %d: on CPU %d with the tracer for its window", t->tid,
	     pin.cpu);
}

/*
 * @tid gets @mask back if it still has the one CPU @cpu we gave it: a
 * mask the program set meanwhile is the program's choice.  Also the
 * guardian's, for the threads of a tracer that was killed.
 */
bool pin_give_back(pid_t tid, int cpu, const cpu_set_t *mask)
{
	cpu_set_t now, ours;

	one_cpu(&ours, cpu);
	return sched_getaffinity(tid, sizeof(now), &now) == 0 &&
	       CPU_EQUAL(&now, &ours) &&
	       sched_setaffinity(tid, sizeof(*mask), mask) == 0;
}

/* @t's window is over, or @t is gone (@alive false): its own mask back. */
void pin_window_close(struct task *t, bool alive)
{
	if (!t->pin.pinned)
		return;
	if (alive && !t->pin.own)
		pin_give_back(t->tid, pin.cpu, &t->pin.saved);
	guardian_pinned(t->tid, -1, NULL);
	t->pin.pinned = false;
	pin.threads--;
	unpin_tracer();
}

/*
 * @parent, bound for its window, made @child (clone, fork, vfork): the
 * child inherited the one-CPU mask and gets the parent's own instead
 * (if it opens a window itself, it is bound again then).
 */
void pin_child(const struct task *parent, pid_t child)
{
	if (parent->pin.pinned && !parent->pin.own)
		pin_give_back(child, pin.cpu, &parent->pin.saved);
}

/*
 * @t's stepped syscall returned.  A sched_setaffinity() that succeeded
 * on a bound thread (itself, or another one by tid) is the program's
 * choice, even of the very CPU we gave it: that thread keeps it.
 */
void pin_after_syscall(struct task *t)
{
	struct task *u;

	if (t->regs.orig_rax != SYS_sched_setaffinity || (long)t->regs.rax < 0)
		return;
	u = t->regs.rdi ? task_find((pid_t)t->regs.rdi) : t;
	if (u && u->pin.pinned) {
		u->pin.own = true;
		guardian_pinned(u->tid, -1, NULL);
	}
}
