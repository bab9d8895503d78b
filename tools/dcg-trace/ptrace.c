// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace.c - the event loop: every stop of every traced task.
 *
 * Threads outside a trace window run with PTRACE_CONT at full speed.
 * A thread in a window is resumed with PTRACE_SINGLESTEP (step and
 * emulated-block modes) or PTRACE_SINGLEBLOCK (block mode), and every
 * stop of it goes to the engine (window.c).
 *
 * Step-over.  Breakpoints stay inserted.  A thread that must execute
 * the instruction under one of our int3s (it hit the breakpoint, or it
 * is stepping and arrived there, e.g. recursion) does it like this:
 * every other task is stopped (PTRACE_INTERRUPT), the original byte is
 * written back, the thread single-steps one instruction, the int3 goes
 * back in, and the others resume.  No thread can run past the missing
 * breakpoint.  With one thread there is nobody to stop and it costs
 * two extra syscalls.
 *
 * Whose SIGTRAP is it?  A thread that was stepped gets a SIGTRAP per
 * step; asking PTRACE_GETSIGINFO each time would cost a syscall per
 * stop, so it is asked only when the instruction that ran can raise a
 * SIGTRAP itself (int3, int1, syscall: kill/tgkill/raise).  A thread
 * running freely that traps with rip just past one of our int3s hit
 * that breakpoint; any other SIGTRAP is the program's own and is
 * delivered.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "dcg_trace.h"

#ifndef TRAP_TRACE
#define TRAP_TRACE 2
#endif

static void handle_event(struct task *t, int event, int sig);

static enum resume_how window_how(void)
{
	return T.mode == DCG_MODE_BLOCK ? RH_BLOCK : RH_STEP;
}

/* Was @t last resumed stepping (so that a SIGTRAP is likely a step)? */
static bool stepped(struct task *t)
{
	return t->how == RH_STEP || t->how == RH_BLOCK;
}

static pid_t wait_for(pid_t tid, int *status)
{
	pid_t r;

	do {
		r = waitpid(tid, status, __WALL);
	} while (r < 0 && errno == EINTR);
	return r;
}

/*
 * The breakpoint whose int3 stopped free-running @t (regs valid), or
 * NULL.  rip is one past the int3, or on it when put back before the
 * stop was collected (at_bp).
 */
static struct bp *int3_hit(struct task *t)
{
	struct bp *b = bp_find(t->at_bp ? t->regs.rip : t->regs.rip - 1);

	t->at_bp = false;
	return b && b->inserted ? b : NULL;
}

/*
 * @si: a stop that waitid(WNOWAIT) showed and nobody collected yet.
 * If it is a free-running thread's SIGTRAP on one of our int3s, put
 * its rip back on the instruction first.  Why before: collecting a
 * stop clears its exit code (wait_task_stopped()), and if dcg-trace
 * died (SIGKILL) between the collection and the rewind, the kernel's
 * detach would wake the thread with no signal, one byte past our int3:
 * it would run work() without its push %rbp and die of SIGSEGV, or
 * worse, compute garbage (testsuite/repro-kill-tracer, 1 round in
 * 400).  Not collected yet, the stop still carries its SIGTRAP: a
 * death there is the documented one.  Rewound and collected, the
 * thread is on our int3 again, which the guardian can take out.
 * The registers read here are those of the stop collected next: its
 * handle_stop() uses them instead of reading them again (a hop mode
 * hit is such a stop, one in two).
 */
static void rewind_before_collect(const siginfo_t *si)
{
	struct task *t;
	struct bp *b;

	t = task_find(si->si_pid);
	if (t)
		t->regs_early = false;
	if (si->si_code != CLD_TRAPPED || si->si_status != SIGTRAP)
		return;
	if (!t || t->parked || stepped(t) || t->at_bp ||
	    task_getregs(t) < 0)
		return;
	/* the same stop is collected next: handle_stop keeps these regs */
	t->regs_early = true;
	b = bp_find(t->regs.rip - 1);
	if (!b || !b->inserted)
		return;
	/* a hit of hop mode's plan, one byte after an int3 of ours */
	if (t->how == RH_HOP && hop_armed_at(t, t->regs.rip))
		return;
	t->regs.rip = b->addr;
	if (task_setregs(t) == 0)
		t->at_bp = true;
}

/* Collect the next stop of @tid, rewinding it first if it is an int3's. */
pid_t collect_stop(pid_t tid, int *status)
{
	siginfo_t si;

	for (;;) {
		si.si_pid = 0;
		if (waitid(P_PID, tid, &si, WEXITED | WSTOPPED | __WALL |
			   WNOWAIT) == 0)
			break;
		if (errno != EINTR)
			return -1;
	}
	rewind_before_collect(&si);
	return wait_for(tid, status);
}

/*
 * Execute the instruction under breakpoint @b in @t alone; then handle
 * the stop that follows as any other.
 */
static void stepover(struct task *t, struct bp *b, int sig)
{
	bool alone = T.ntasks == 1;
	int status;

	T.stepovers++;
	if (!alone)
		stop_world(t);
	bp_set(b, false);
	t->step_from = t->regs.rip;
	tflags_before_step(t);
	t->rewound = false;
	if (task_resume(t, RH_STEP, sig) != 0) {
		/* not stepped: gone, or another stop is pending for the loop */
		t->rewound = true;	/* still on the int3's address */
		bp_set(b, true);
		if (!alone)
			resume_world(t);
		return;
	}
	if (wait_for(t->tid, &status) != t->tid)
		status = SIGKILL;	/* gone: as if killed */
	/* After exec or exit the old address space is gone: nothing to restore. */
	if (WIFSTOPPED(status) && (status >> 16) != PTRACE_EVENT_EXEC)
		bp_set(b, true);
	else
		b->inserted = false;
	if (!alone)
		resume_world(t);
	handle_stop(t, status);
}

/*
 * Resume @t as its state says: stepping inside a window, free outside;
 * stepping over our int3 first when it sits on one.
 */
void resume_task(struct task *t, int sig)
{
	enum resume_how how = t->in_window && !t->skipping &&
			      !skip_native(t) ? window_how() : RH_CONT;
	struct bp *b;

	if ((how != RH_CONT || t->rewound) && !t->regs_valid)
		task_getregs(t);
	if (t->regs_valid && (how != RH_CONT || t->rewound)) {
		b = bp_find(t->regs.rip);
		if (b && b->inserted) {
			stepover(t, b, sig);
			return;
		}
	}
	t->rewound = false;
	if (how == RH_STEP) {
		/* hop mode: native to the next transfers instead (hop.c) */
		if (!sig && hop_resume(t))
			return;
		t->step_from = t->regs.rip;
		tflags_before_step(t);
	}
	task_resume(t, how, sig);
}

static void deliver(struct task *t, int sig)
{
	T.sigs_delivered++;
	vlog(2, "thread %d: delivering signal %d", t->tid, sig);
	resume_task(t, sig);
}

/*
 * The program's own SIGTRAP, to a thread inside a window.  Its handler
 * runs with SIGTRAP blocked, and a trap (a step, an int3) that finds
 * SIGTRAP blocked makes the kernel reset the handler to SIG_DFL: the
 * next SIGTRAP would kill the program.  So the handler runs unstepped,
 * and an internal breakpoint where it returns to (the interrupted ip,
 * with the same rsp) resumes stepping.  The handler does not appear in
 * the trace.
 */
static void deliver_sigtrap(struct task *t)
{
	sigstate_program_trap(t);
	if (!t->in_window || t->skipping) {
		deliver(t, SIGTRAP);
		return;
	}
	if (!t->regs_valid && task_getregs(t) < 0) {
		deliver(t, SIGTRAP);
		return;
	}
	t->skip_ip = t->regs.rip;
	t->skip_sp = t->regs.rsp;
	if (bp_add(t->skip_ip, BP_RESUME) < 0) {
		deliver(t, SIGTRAP);
		return;
	}
	t->skipping = true;
	vlog(2, "thread %d: own SIGTRAP: handler runs unstepped", t->tid);
	T.sigs_delivered++;
	t->rewound = false;
	task_resume(t, RH_CONT, SIGTRAP);
}

/* The thread that skipped its SIGTRAP handler is back where it was. */
static void skip_done(struct task *t, struct bp *b)
{
	t->skipping = false;
	if (b->kind == BP_RESUME) {
		bp_set(b, false);
		b->addr = 0;
		t->rewound = false;
	}
}

/* Is the SIGTRAP that stopped stepped thread @t the program's own? */
static bool own_sigtrap_while_stepping(struct task *t)
{
	uint8_t buf[DCG_INSN_MAX_LEN];
	struct dcg_insn insn;
	siginfo_t si;
	int n, len = -1;

	/*
	 * rip == step_from: no instruction ran, so this is no step trap
	 * but a SIGTRAP that was pending (kill() from this or another
	 * process; one that came during a syscall is reported after the
	 * step trap of that syscall): ask.
	 */
	if (t->how == RH_STEP && t->regs.rip != t->step_from) {
		n = code_read(t->step_from, buf, sizeof(buf));
		if (n > 0)
			len = dcg_insn_decode(buf, n, t->step_from, &insn);
		if (len > 0 && insn.branch != DCG_BR_SYS)
			return false;
	}
	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) < 0)
		return false;
	return si.si_code == SI_KERNEL || si.si_code <= 0;
}

/* Names to breakpoints; @fatal: a name found nowhere is an error. */
int resolve_and_arm(bool fatal)
{
	uint64_t addrs[64];
	int i, j, n, ret = 0;

	if (!T.dldebug_addr && sym_lookup_dldebug(&T.dldebug_addr) == 0)
		bp_add(T.dldebug_addr, BP_DLDEBUG);
	for (i = 0; i < T.opt.nfuncs; i++) {
		n = sym_resolve(T.opt.funcs[i], addrs, DCG_ARRAY_SIZE(addrs));
		if (n == 0 && fatal) {
			fprintf(stderr, PROG ": function '%s' not found in the "
				"program or its libraries\n", T.opt.funcs[i]);
			ret = -1;
		}
		for (j = 0; j < n; j++) {
			if (bp_add(addrs[j], BP_FUNC) < 0)
				dcg_warn("cannot set a breakpoint on %s at %#llx",
				       T.opt.funcs[i],
				       (unsigned long long)addrs[j]);
			vlog(1, "breakpoint on %s at %#llx", T.opt.funcs[i],
			     (unsigned long long)addrs[j]);
		}
	}
	skip_resolve();
	T.names_resolved = true;
	if (ret == 0)
		mode_report();
	return ret;
}

static void link_map_changed(void)
{
	if (maps_scan(true) > 0)
		resolve_and_arm(false);
}

static void bp_hit(struct task *t, struct bp *b)
{
	t->regs.rip = b->addr;
	task_setregs(t);
	t->rewound = true;
	switch (b->kind) {
	case BP_ENTRY:
		/* Everything the program links against is mapped now. */
		bp_set(b, false);
		b->addr = 0;
		t->rewound = false;
		maps_scan(true);
		if (resolve_and_arm(T.opt.attach_pid == 0 && !T.exec_seen) < 0) {
			T.fatal = true;
			stop_requested = 1;
			return;
		}
		break;
	case BP_DLDEBUG:
		link_map_changed();
		break;
	case BP_FUNC:
		if (!t->foreign && !t->in_window) {
			t->rewound = false;
			window_open(t);
		}
		break;
	case BP_RESUME:
	case BP_SKIPRET:
	case BP_NONLOCAL:
		break;
	}
	skip_bp_hit(t, t->regs.rip);	/* b may be stale: bp_add reallocs */
	if (t->skipping && b->addr == t->skip_ip && t->regs.rsp >= t->skip_sp)
		skip_done(t, b);
	resume_task(t, 0);
}

/* A SIGTRAP in a native run of hop mode: its hit, or anything else. */
static void step_trap(struct task *t);

static void hop_trap(struct task *t)
{
	struct bp *b;

	if (hop_sigtrap(t)) {
		/* the transfer done by us is as good as stepped (hop.c) */
		if (hop_emulate(t))
			step_trap(t);
		else
			resume_task(t, 0);
		return;
	}
	b = int3_hit(t);
	if (b) {
		hop_settle(t, b->addr);
		bp_hit(t, b);
		return;
	}
	/* an int3 of ours taken out since: rip goes back onto it */
	if (skip_sigtrap(t, false)) {
		hop_settle(t, t->regs.rip);
		resume_task(t, 0);
		return;
	}
	/* our last step's trap, reported only now: nothing ran */
	if (hop_stale_trap(t)) {
		hop_stale_settle(t);
		resume_task(t, 0);
		return;
	}
	hop_foreign_trap(t);
	hop_settle(t, t->regs.rip);
	deliver_sigtrap(t);
}

/* The stop after a step of ours. */
static void step_trap(struct task *t)
{
	if (skip_stepped_into_int3(t))
		return;
	/*
	 * The program's TF was set over the instruction that ran: this
	 * step trap is its own (tracee_flags.c).
	 */
	if (t->in_window && !tflags_handler_entry(t) &&
	    tflags_after_step(t)) {
		window_stop(t);
		deliver_sigtrap(t);
		return;
	}
	if (own_sigtrap_while_stepping(t)) {
		/* the instruction that raised it did run */
		if (t->in_window)
			window_stop(t);
		deliver_sigtrap(t);
		return;
	}
	if (t->in_window)
		window_stop(t);
	if (t->regs.rip == T.dldebug_addr)
		link_map_changed();
	resume_task(t, 0);
}

static void handle_sigtrap(struct task *t)
{
	struct bp *b;

	if (!t->regs_valid && task_getregs(t) < 0)
		return;
	sigstate_trap(t);	/* a forced SIGTRAP: see sigtrap_state.c */
	if (t->hop.armed) {
		hop_trap(t);
		return;
	}
	if (stepped(t)) {
		step_trap(t);
		return;
	}
	tflags_from_regs(t);	/* ran free: GETREGS shows its own TF */
	b = int3_hit(t);
	if (b) {
		fault_point("int3-hit");
		bp_hit(t, b);
		return;
	}
	if (skip_sigtrap(t, true))
		return;
	/* a trap of ours queued behind the group-stop that we let listen */
	if (hop_stale_trap(t)) {
		hop_stale_settle(t);
		resume_task(t, 0);
		return;
	}
	deliver_sigtrap(t);
}

static bool group_stop_sig(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

void first_stop(struct task *t)
{
	t->fresh = false;
	if (t->foreign)
		return;
	dr_own(t);	/* the program's debug registers, put back at detach */
	thread_record(t, DCG_THREAD_START);
	if (T.opt.all && task_getregs(t) == 0)
		window_open_here(t);
}

static void task_exited(struct task *t, int status)
{
	vlog(2, "task %d: exit status %#x", t->tid, status);
	if (t->in_window)
		window_close(t);
	if (t->tid == T.pid) {
		T.exit_status = status;
		T.exited = true;
	}
	task_del(t);
}

void handle_stop(struct task *t, int status)
{
	int sig;

	T.stops++;
	t->state = TS_STOPPED;
	t->regs_valid = t->regs_early;
	t->regs_early = false;
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		task_exited(t, status);
		return;
	}
	t->listening = false;
	sig = WSTOPSIG(status);
	/* a native run (hop mode) ends here unless its own trap says more */
	if (t->hop.armed && (sig != SIGTRAP || (status >> 16)) &&
	    (t->regs_valid || task_getregs(t) == 0))
		hop_settle(t, t->regs.rip);
	if (status >> 16) {
		handle_event(t, status >> 16, sig);
		return;
	}
	if (t->fresh && sig == SIGSTOP) {
		/* initial stop of a task attached the old way */
		first_stop(t);
		resume_task(t, 0);
		return;
	}
	if (sig == SIGTRAP) {
		handle_sigtrap(t);
		return;
	}
	if (sig == (SIGTRAP | 0x80)) {
		/* freely running: PTRACE_SYSCALL (sigtrap_state.c) */
		sigstate_syscall_stop(t);
		resume_task(t, 0);
		return;
	}
	deliver(t, sig);
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* A new task's own stop came before its parent's clone/fork event. */
static void park_unknown(pid_t tid, int status)
{
	struct task *t = task_add(tid, tgid_of(tid));

	t->parked = true;
	t->fresh = true;
	t->pending_status = status;
	vlog(2, "task %d stopped before its parent's event: parked", tid);
}

/*
 * Claim the new task @tid that @parent just reported.  It inherited
 * @parent's CPU mask, which is ours if @parent is in a window: it gets
 * the parent's own (cpu_pin.c).
 */
static struct task *claim_child(const struct task *parent, pid_t tid,
				pid_t tgid, bool *stopped)
{
	struct task *c = task_find(tid);
	int status;

	pin_child(parent, tid);
	*stopped = false;
	if (c && c->parked) {
		c->parked = false;
		c->tgid = tgid;
		*stopped = true;
		return c;
	}
	if (c)
		return c;
	c = task_add(tid, tgid);
	c->fresh = true;
	c->state = TS_RUNNING;
	/* Fork children: wait for their first stop here, to let them go. */
	if (tgid == tid && tgid != T.pid) {
		if (wait_for(tid, &status) == tid && WIFSTOPPED(status))
			*stopped = true;
		c->state = TS_STOPPED;
	}
	return c;
}

static void fork_child(struct task *parent, pid_t child)
{
	bool stopped;
	struct task *c = claim_child(parent, child, child, &stopped);

	/* It inherited our int3s in its copy of memory. */
	bp_remove_all(child);
	if (ptrace(PTRACE_DETACH, child, 0, 0) < 0 && errno != ESRCH)
		dcg_warn("cannot detach forked child %d: %s", child,
		       strerror(errno));
	task_del(c);
}

static void exec_happened(struct task *t)
{
	unsigned long former = 0;
	struct task *u, *next;

	ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &former);
	if (t->tgid != T.pid) {
		/* a vfork child left the shared address space: let it go */
		ptrace(PTRACE_DETACH, t->tid, 0, 0);
		task_del(t);
		return;
	}
	/* Every other thread is gone; the old image's windows end here. */
	for (u = T.tasks; u; u = next) {
		next = u->next;
		if (u->tgid != T.pid)
			continue;
		window_close(u);
		if (u != t)
			task_del(u);
	}
	thread_record(t, DCG_THREAD_EXEC);
	sigstate_exec(t);
	hop_exec(t);
	dr_exec(t);
	bp_forget_all();
	maps_forget();
	mem_open(T.pid);
	sym_init(T.pid);
	maps_scan(true);
	T.names_resolved = false;
	T.exec_seen = true;
	if (T.opt.all) {
		if (task_getregs(t) == 0)
			window_open_here(t);
	} else {
		uint64_t entry = auxv_entry(T.pid);

		if (entry)
			bp_add(entry, BP_ENTRY);
	}
	resume_task(t, 0);
}

static void handle_event(struct task *t, int event, int sig)
{
	unsigned long msg = 0;
	struct task *c;
	bool stopped;

	switch (event) {
	case PTRACE_EVENT_STOP:
		if (group_stop_sig(sig)) {
			/* job control: stay stopped, but keep reporting */
			ptrace(PTRACE_LISTEN, t->tid, 0, 0);
			t->listening = true;
			t->state = TS_RUNNING;
			return;
		}
		t->interrupt_pending = false;
		if (t->fresh)
			first_stop(t);
		resume_task(t, 0);
		return;
	case PTRACE_EVENT_CLONE:
		ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
		c = claim_child(t, msg, t->tgid, &stopped);
		if (stopped) {
			first_stop(c);
			resume_task(c, 0);
		}
		break;
	case PTRACE_EVENT_FORK:
		ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
		fork_child(t, msg);
		break;
	case PTRACE_EVENT_VFORK:
		/* shares our memory and int3s until it execs or exits */
		ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
		c = claim_child(t, msg, t->tgid, &stopped);
		c->tgid = msg;
		c->foreign = true;
		t->in_vfork = true;
		if (stopped) {
			c->fresh = false;
			resume_task(c, 0);
		}
		break;
	case PTRACE_EVENT_VFORK_DONE:
		t->in_vfork = false;
		break;
	case PTRACE_EVENT_EXEC:
		exec_happened(t);
		return;
	case PTRACE_EVENT_EXIT:
		if (!t->foreign) {
			window_close(t);
			thread_record(t, DCG_THREAD_EXIT);
		}
		break;
	default:
		break;
	}
	resume_task(t, 0);
}

static struct task *next_pending(int *status)
{
	struct task *t;

	for (t = T.tasks; t; t = t->next) {
		if (t->has_pending) {
			t->has_pending = false;
			*status = t->pending_status;
			return t;
		}
	}
	return NULL;
}

/*
 * Ctrl-C while waiting.  The handler sets stop_requested; a signal that
 * lands between the check of the flag and the start of waitpid() would
 * not interrupt it, and a program that runs freely may not stop again
 * for a long time.  So from just before the check until waitpid()
 * returns, the handler jumps straight back here; unless the kernel
 * has written the status of a stop it collected (@wait_status), which
 * would be lost: then the loop sees the flag after handling that stop.
 */
static sigjmp_buf wait_env;
static volatile sig_atomic_t in_wait;
static volatile int wait_status = -1;	/* -1: nothing collected yet */

void trace_loop_interrupt(void)
{
	if (in_wait && wait_status == -1) {
		in_wait = 0;
		siglongjmp(wait_env, 1);
	}
}

/*
 * Is every task that runs now stepped?  Then no stop to come can be an
 * int3's that rewind_before_collect() must rewind first.
 */
static bool all_running_stepped(void)
{
	struct task *t;

	for (t = T.tasks; t; t = t->next)
		if (t->state == TS_RUNNING && !stepped(t))
			return false;
	return true;
}

/*
 * One waitpid() for the stop of a stepped thread (most stops of a
 * window), instead of a look and a collection.
 */
static pid_t collect_any(int *status)
{
	pid_t tid = waitpid(-1, (int *)&wait_status, __WALL);

	in_wait = 0;
	*status = wait_status;
	return tid;
}

static pid_t wait_any(int *status)
{
	siginfo_t si;
	pid_t tid;

	if (sigsetjmp(wait_env, 0))
		return -2;
	wait_status = -1;
	in_wait = 1;
	if (stop_requested) {
		in_wait = 0;
		return -2;
	}
	if (all_running_stepped())
		return collect_any(status);
	/*
	 * Only look (WNOWAIT), collect after: a Ctrl-C that jumps out
	 * just after a waitpid() had collected a stop would lose it, and
	 * stop_world() would then wait for that thread for ever.
	 */
	si.si_pid = 0;
	if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | __WALL | WNOWAIT) < 0) {
		in_wait = 0;
		return -1;
	}
	in_wait = 0;
	rewind_before_collect(&si);
	do {
		tid = waitpid(si.si_pid, status, __WALL);
	} while (tid < 0 && errno == EINTR);
	return tid;
}

int trace_loop(void)
{
	struct task *t;
	int status;
	pid_t tid;

	/* a trace that cannot be written stops the tracing (main.c) */
	while (T.ntasks > 0 && !stop_requested && !T.w.error) {
		t = next_pending(&status);
		if (!t) {
			tid = wait_any(&status);
			if (tid == -2)
				break;
			if (tid < 0) {
				if (errno == EINTR)
					continue;
				if (errno == ECHILD) {
					vlog(1, "no traced task left (%d known)",
					     T.ntasks);
					break;
				}
				dcg_die(1, "waitpid: %s", strerror(errno));
			}
			t = task_find(tid);
			if (!t) {
				park_unknown(tid, status);
				continue;
			}
			if (t->parked)
				continue;
		}
		handle_stop(t, status);
	}
	return 0;
}

/* Is a SIGTRAP queued for thread @tid (its own pending set)? */
static bool sigtrap_queued(pid_t tgid, pid_t tid)
{
	char path[64], line[256];
	unsigned long long pend = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", tgid, tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigPnd: %llx", &pend) == 1)
			break;
	fclose(f);
	return pend & (1ull << (SIGTRAP - 1));
}

/* A group-stop or interrupt report: resuming from it loses nothing. */
static bool event_stop_pending(const struct task *t)
{
	return t->has_pending && WIFSTOPPED(t->pending_status) &&
	       (t->pending_status >> 16) == PTRACE_EVENT_STOP;
}

/*
 * PTRACE_INTERRUPT and group-stop are reported before a signal already
 * queued: a stepped thread may have the trap of its last step queued,
 * a free one the trap of our int3 (with rip past it).  Detached,
 * either would die of that SIGTRAP.  Let it take the signal while
 * still traced (the signal-delivery-stop comes before it runs any
 * instruction) and judge it as any pending stop.  A group-stop report
 * that stop_world() collected is such a case: a SIGSTOP whose group
 * stop began while a stepped thread ran (the debug trap is taken
 * before the interrupt that brings the stop, so the step's SIGTRAP is
 * queued first), or a stepped syscall that the stop interrupted.
 */
static void drain_sigtrap(struct task *t)
{
	int status, tries;

	for (tries = 0; tries < 4; tries++) {
		if ((t->has_pending && !event_stop_pending(t)) ||
		    !sigtrap_queued(t->tgid, t->tid))
			return;
		if (ptrace(PTRACE_CONT, t->tid, 0, 0) < 0)
			return;
		if (collect_stop(t->tid, &status) != t->tid)
			return;
		t->has_pending = true;
		t->pending_status = status;
	}
	dcg_warn("thread %d: a SIGTRAP stays queued at the detach", t->tid);
}

/*
 * A thread in group-stop that we let listen (PTRACE_LISTEN) cannot be
 * detached: the kernel refuses PTRACE_DETACH (and PTRACE_CONT) while it
 * listens.  Left attached, it is let go at our exit still carrying the
 * TF of the step it was resumed with (a SIGSTOP delivered inside a
 * window) and dies of SIGTRAP at the SIGCONT.  PTRACE_INTERRUPT works
 * on it: it traps again, and can then be detached, which clears TF.
 */
static void stop_listening(struct task *t)
{
	int status;

	if (!t->listening || ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) < 0)
		return;
	if (wait_for(t->tid, &status) != t->tid)
		return;
	t->listening = false;
	t->state = TS_STOPPED;
	if (!WIFSTOPPED(status) || (status >> 16) != PTRACE_EVENT_STOP) {
		t->has_pending = true;
		t->pending_status = status;
	}
}

/* Is the SIGTRAP that stopped @t (regs valid) one of ours? */
static bool our_trap(struct task *t)
{
	struct bp *b;

	if (stepped(t) || hop_is_hit(t) || hop_stale_trap(t))
		return true;
	b = int3_hit(t);
	if (b) {
		/* rip back on the instruction the int3 stands in for */
		t->regs.rip = b->addr;
		task_setregs(t);
		return true;
	}
	return skip_sigtrap(t, false);
}

/*
 * The signal to detach stopped @t with: the one its pending stop
 * carries, unless that is our trap (or a syscall stop, or the SIGSTOP
 * of job control).  Putting back what our trap did to the program's
 * SIGTRAP state may meet another stop first: judge that one too.
 */
static int detach_signal(struct task *t)
{
	int st, sig;

	while (t->has_pending) {
		st = t->pending_status;
		t->has_pending = false;
		sig = WIFSTOPPED(st) && !(st >> 16) ? WSTOPSIG(st) : 0;
		if (sig == (SIGTRAP | 0x80) || sig == SIGSTOP)
			return 0;
		if (sig != SIGTRAP || task_getregs(t) < 0 || !our_trap(t))
			return sig;
		sigstate_trap(t);
		if (!sigstate_restore(t, 0))
			return 0;
	}
	return 0;
}

/*
 * Ctrl-C: take every breakpoint out, close the windows, and detach so
 * that the program carries on as if never traced.
 */
void cleanup_detach(void)
{
	struct task *t, *next;

	stop_world(NULL);
	for (t = T.tasks; t; t = t->next)
		stop_listening(t);
	for (t = T.tasks; t; t = t->next)
		drain_sigtrap(t);
	for (t = T.tasks; t; t = t->next) {
		int sig = detach_signal(t);

		t->has_pending = true;
		t->pending_status = sig;
	}
	bp_remove_all(T.pid);
	for (t = T.tasks; t; t = next) {
		next = t->next;
		window_close(t);
		dr_restore(t);	/* the program's own debug registers */
		if (t->state == TS_STOPPED || t->world_stopped ||
		    t->has_pending || t->listening)
			ptrace(PTRACE_DETACH, t->tid, 0,
			       (void *)(long)(t->has_pending ? t->pending_status : 0));
		task_del(t);
	}
}
