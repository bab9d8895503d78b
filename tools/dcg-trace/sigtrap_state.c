// SPDX-License-Identifier: GPL-2.0
/*
 * sigtrap_state.c - the program's SIGTRAP handler and mask, kept as it
 * set them across our traps.
 *
 * Every trap of ours (a single step, one of our int3s, a debug
 * register hit) is a forced SIGTRAP, and force_sig_info_to_task()
 * (kernel/signal.c) resets a blocked or ignored SIGTRAP's handler to
 * SIG_DFL and unblocks it in the trapping thread before we even see
 * the stop.  A program that blocks SIGTRAP around a traced call would
 * lose its handler, and die of its next SIGTRAP.
 *
 * So dcg-trace keeps a shadow of what the kernel would hold natively:
 * every signal's action (SIGTRAP's to restore it, the others' masks
 * and flags because a handler entry adds sa_mask to the blocked set),
 * and per thread whether SIGTRAP is blocked.  After a trap of ours
 * that the kernel may have applied the reset to (shadow: blocked or
 * ignored), the SIGTRAP bit goes back with PTRACE_SETSIGMASK, and the
 * action with an rt_sigaction injected into the thread: a syscall
 * instruction of the vDSO, run with PTRACE_SYSCALL so that no step
 * trap follows it.
 *
 * The shadow must be exact at the first trap after the program ran
 * freely (the entry int3), when the state can no longer be read.  A
 * freely running thread is therefore resumed with PTRACE_SYSCALL
 * instead of PTRACE_CONT, and its rt_sigaction, rt_sigprocmask,
 * rt_sigreturn and sigsuspend-like calls update the shadow at their
 * exit (PTRACE_GETSIGMASK is exact there: a syscall stop is no signal).
 * Exec resets the actions as the kernel does; a new thread's mask is
 * read at its first stop; with -p the actions of caught signals are
 * queried once.  seccomp SECCOMP_RET_TRACE would stop at those
 * syscalls only, but it fails them with ENOSYS once no tracer is
 * attached (forked children, detach), so it cannot be used.
 * The price: two stops per syscall outside windows (bench/sigstate-bench).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "dcg_trace.h"

#define NSIG_K 64
#define BIT(sig) (1ULL << ((sig) - 1))
#define K_SIG_DFL 0ULL
#define K_SIG_IGN 1ULL
#ifndef SA_NODEFER
#define SA_NODEFER 0x40000000
#endif
#ifndef SA_RESETHAND
#define SA_RESETHAND 0x80000000
#endif
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

/* struct sigaction as the kernel's rt_sigaction takes it (x86-64) */
struct ksigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

static struct ksigaction acts[NSIG_K + 1];
static bool acts_known;

/*
 * The query of the actions (-p) needs a clean stop where a syscall can
 * be injected; under a flood of signals most stops are not such (a
 * signal or a syscall entry comes first, or a signal interrupts the
 * injection), and trying again at every clean stop cost a /proc read
 * and an injection per stop (6,659 tries in 1 s of sigflood once).  After
 * the k-th failure in a row the next try waits 2^k ms, at most
 * QUERY_BACKOFF_MAX_MS: in a flood, at most about 16 tries a second.
 */
#define QUERY_BACKOFF_MAX_MS 64
static struct {
	uint64_t tries;		/* queries started */
	uint64_t failed;	/* of which met another stop, or no chance */
	unsigned int backoff_ms;	/* wait after the next failure */
	uint64_t next_ns;	/* no try before this (now_ns()) */
} Q;
static uint64_t syscall_insn;	/* a syscall instruction in the vDSO */
static bool warned;

static void warn_once(struct task *t, const char *what)
{
	if (warned)
		return;
	warned = true;
	dcg_warn("thread %d: cannot keep the program's SIGTRAP %s as it set it "
	       "(it may differ from an untraced run)", t->tid, what);
}

static bool trap_blocked_now(pid_t tid, bool *blocked)
{
	uint64_t m;

	if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(m), &m) < 0)
		return false;
	*blocked = (m & BIT(SIGTRAP)) != 0;
	return true;
}

/* SigIgn/SigCgt of /proc/PID/status */
static void proc_sigsets(pid_t pid, uint64_t *ign, uint64_t *cgt)
{
	char path[64], line[256];
	unsigned long long v;
	FILE *f;

	*ign = *cgt = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "SigIgn: %llx", &v) == 1)
			*ign = v;
		else if (sscanf(line, "SigCgt: %llx", &v) == 1)
			*cgt = v;
	}
	fclose(f);
}

static uint64_t find_syscall_insn(pid_t pid)
{
	char path[64], line[512];
	unsigned long long lo, hi;
	uint8_t buf[16384];
	uint64_t found = 0;
	unsigned int i, n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%llx-%llx", &lo, &hi) != 2)
			continue;
		n = hi - lo < sizeof(buf) ? hi - lo : sizeof(buf);
		if (mem_read(lo, buf, n) != (int)n)
			break;
		for (i = 0; i + 1 < n; i++) {
			if (buf[i] == 0x0f && buf[i + 1] == 0x05) {
				found = lo + i;
				break;
			}
		}
	}
	fclose(f);
	return found;
}

static bool restart_errno(long e)
{
	return e == ERESTARTSYS || e == ERESTARTNOINTR ||
	       e == ERESTARTNOHAND || e == ERESTART_RESTARTBLOCK;
}

/* Wait for @t's syscall stop @op; else keep the stop pending, false. */
static bool wait_syscall_stop(struct task *t, int op)
{
	struct __ptrace_syscall_info si;
	int status;
	pid_t r;

	do {
		r = waitpid(t->tid, &status, __WALL);
	} while (r < 0 && errno == EINTR);
	if (r != t->tid)
		status = SIGKILL;
	if (WIFSTOPPED(status) && WSTOPSIG(status) == (SIGTRAP | 0x80) &&
	    ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si) > 0 &&
	    si.op == op)
		return true;
	t->has_pending = true;
	t->pending_status = status;
	return false;
}

/*
 * The stop @r comes from may have been a syscall's, to be restarted as
 * the kernel would: after our injection we are past its chance to.
 */
static void restart_as_kernel(struct user_regs_struct *r)
{
	long e = -(long)r->rax;

	if ((long)r->orig_rax < 0 || !restart_errno(e))
		return;
	r->rax = e == ERESTART_RESTARTBLOCK ? SYS_restart_syscall : r->orig_rax;
	r->rip -= 2;
}

/*
 * Run one syscall in stopped thread @t and put its registers back.
 * The syscall is the vDSO's, entered and left with PTRACE_SYSCALL:
 * no step trap, no signal.  Returns its result, or -EIO (with another
 * stop kept pending for the loop) when something came first.
 */
static long inject(struct task *t, long nr, uint64_t a0, uint64_t a1,
		   uint64_t a2, uint64_t a3)
{
	struct __ptrace_syscall_info si;
	struct user_regs_struct saved, back, r;
	long ret = -EIO;

	/* a stop not yet handled: resuming would lose it (and its signal) */
	if (t->has_pending)
		return -EIO;
	if (!syscall_insn)
		syscall_insn = find_syscall_insn(t->tgid);
	if (!syscall_insn || ptrace(PTRACE_GETREGS, t->tid, 0, &saved) < 0)
		return -EIO;
	/*
	 * Not at a syscall-entry stop: our regs (orig_rax -1) would make
	 * the kernel skip the program's syscall, and report its exit
	 * before our syscall runs.  Not at the exit stop of an
	 * interrupted syscall either: restart or EINTR is the kernel's
	 * choice to make (it depends on the handler a signal finds).
	 */
	si.op = PTRACE_SYSCALL_INFO_NONE;
	ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si);
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY ||
	    (si.op == PTRACE_SYSCALL_INFO_EXIT && si.exit.is_error &&
	     restart_errno(-si.exit.rval)))
		return -EAGAIN;
	back = saved;
	restart_as_kernel(&back);
	guardian_injecting(t->tid, &back);
	r = saved;
	r.rip = syscall_insn;
	r.rax = nr;
	r.orig_rax = -1;	/* no syscall restart at this stop */
	r.rdi = a0;
	r.rsi = a1;
	r.rdx = a2;
	r.r10 = a3;
	r.eflags &= ~0x100ULL;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) < 0) {
		guardian_injecting(0, NULL);
		return -EIO;
	}
	if (ptrace(PTRACE_SYSCALL, t->tid, 0, 0) == 0 &&
	    wait_syscall_stop(t, PTRACE_SYSCALL_INFO_ENTRY) &&
	    ptrace(PTRACE_SYSCALL, t->tid, 0, 0) == 0 &&
	    wait_syscall_stop(t, PTRACE_SYSCALL_INFO_EXIT) &&
	    ptrace(PTRACE_GETREGS, t->tid, 0, &r) == 0)
		ret = r.rax;
	ptrace(PTRACE_SETREGS, t->tid, 0, &back);
	guardian_injecting(0, NULL);
	t->regs_valid = false;
	return ret;
}

/* Scratch memory for a struct below @t's stack pointer and red zone. */
static uint64_t scratch(struct task *t)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, t->tid, 0, &r) < 0)
		return 0;
	return (r.rsp - 128 - 512) & ~63ULL;
}

/* 0, or -EAGAIN when this stop does not allow it, or another error */
static int query_action(struct task *t, int sig, struct ksigaction *a)
{
	uint64_t buf = scratch(t);
	long r;

	if (!buf)
		return -EIO;
	r = inject(t, SYS_rt_sigaction, sig, 0, buf, 8);
	if (r)
		return r;
	if (mem_read(buf, a, sizeof(*a)) != sizeof(*a))
		return -EIO;
	return 0;
}

/* The actions, at the first clean stop of the process. */
static void init_actions(struct task *t)
{
	uint64_t ign, cgt;
	int sig, r;

	Q.tries++;
	proc_sigsets(t->tgid, &ign, &cgt);
	memset(acts, 0, sizeof(acts));
	for (sig = 1; sig <= NSIG_K; sig++) {
		if (ign & BIT(sig)) {
			acts[sig].handler = K_SIG_IGN;
			continue;
		}
		if (!(cgt & BIT(sig)))
			continue;
		r = query_action(t, sig, &acts[sig]);
		if (!r)
			continue;
		/* not now, or another stop came first: at a later clean stop */
		if (r != -EAGAIN && !t->has_pending)
			warn_once(t, "handler");
		Q.failed++;
		Q.backoff_ms = Q.backoff_ms ? Q.backoff_ms * 2 : 2;
		if (Q.backoff_ms > QUERY_BACKOFF_MAX_MS)
			Q.backoff_ms = QUERY_BACKOFF_MAX_MS;
		Q.next_ns = now_ns() + Q.backoff_ms * 1000000ull;
		vlog(2, "thread %d: signal actions: query deferred (next try "
		     "in %u ms)", t->tid, Q.backoff_ms);
		return;
	}
	acts_known = true;
	vlog(1, "signal actions known (thread %d)", t->tid);
}

/*
 * Syscall stops must say so (SIGTRAP | 0x80): a tracer that dies while
 * a thread sits in a syscall stop reported as plain SIGTRAP leaves it a
 * real SIGTRAP (ptrace_report_syscall()), which would kill the program.
 * These are main.c's options plus PTRACE_O_TRACESYSGOOD.
 */
static void set_options(struct task *t)
{
	long o = DCG_PTRACE_OPTIONS | PTRACE_O_TRACESYSGOOD;

	if (T.started && !T.opt.leave_running)
		o |= PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, t->tid, 0, (void *)o) == 0)
		t->sysgood = true;
}

/*
 * @t is in a clean stop (no trap of ours since it last ran): learn.
 * Not while a signal @sig goes in: the injection would drop it.
 */
static void clean_stop(struct task *t, int sig)
{
	if (!t->sysgood)
		set_options(t);
	if (!acts_known && t->tgid == T.pid && !sig &&
	    (!Q.next_ns || now_ns() >= Q.next_ns))
		init_actions(t);
	if (!t->sig_known) {
		if (trap_blocked_now(t->tid, &t->trap_blocked))
			t->sig_known = true;
	}
}

void sigstate_exec(struct task *t)
{
	int sig;

	for (sig = 1; sig <= NSIG_K; sig++) {
		if (acts[sig].handler != K_SIG_IGN)
			acts[sig].handler = K_SIG_DFL;
		acts[sig].flags = 0;
		acts[sig].mask = 0;
		acts[sig].restorer = 0;
	}
	syscall_insn = 0;
	t->sig_fix = false;
	trap_blocked_now(t->tid, &t->trap_blocked);
}

/*
 * A syscall stop of freely running @t (status SIGTRAP | 0x80): update
 * the shadow at the exit of the syscalls that change it.
 */
void sigstate_syscall_stop(struct task *t)
{
	struct __ptrace_syscall_info si;
	struct ksigaction a;
	long rv;
	int sig;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si) <= 0)
		return;
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
		t->sys_nr = si.entry.nr;
		t->sys_args[0] = si.entry.args[0];
		t->sys_args[1] = si.entry.args[1];
		return;
	}
	if (si.op != PTRACE_SYSCALL_INFO_EXIT)
		return;
	rv = si.exit.rval;
	sig = t->sys_args[0];
	switch (t->sys_nr) {
	case SYS_rt_sigaction:
		if (rv == 0 && t->sys_args[1] && sig >= 1 && sig <= NSIG_K) {
			if (mem_read(t->sys_args[1], &a, sizeof(a)) == sizeof(a))
				acts[sig] = a;
			else
				warn_once(t, "handler");
		}
		break;
	case SYS_rt_sigprocmask:
	case SYS_rt_sigreturn:
		if (!trap_blocked_now(t->tid, &t->trap_blocked))
			warn_once(t, "mask");
		break;
	case SYS_rt_sigsuspend:
	case SYS_pselect6:
	case SYS_ppoll:
	case SYS_epoll_pwait:
	case SYS_epoll_pwait2:
	case SYS_io_pgetevents:
		/* the temporary mask stays only for a handler to run */
		if (rv == -EINTR || rv == -ERESTARTNOHAND || rv == -ERESTARTSYS)
			trap_blocked_now(t->tid, &t->trap_blocked);
		break;
	default:
		break;
	}
	t->sys_nr = -1;
}

/* Signal @sig goes to a handler of @t: its mask grows as the kernel's. */
void sigstate_signal_delivered(struct task *t, int sig)
{
	struct ksigaction *a;

	if (sig < 1 || sig > NSIG_K)
		return;
	a = &acts[sig];
	if (a->handler == K_SIG_DFL || a->handler == K_SIG_IGN)
		return;
	if ((a->mask & BIT(SIGTRAP)) ||
	    (sig == SIGTRAP && !(a->flags & SA_NODEFER)))
		t->trap_blocked = true;
	if (a->flags & SA_RESETHAND)
		a->handler = K_SIG_DFL;
}

/*
 * A forced SIGTRAP stopped @t: the kernel may have reset the state.
 * With --native-syscalls the shadow is not kept: nothing to put back.
 */
void sigstate_trap(struct task *t)
{
	t->sig_fix = !T.opt.native_syscalls;
}

/*
 * The SIGTRAP that stopped @t is the program's own and goes to it.  A
 * forced one (its int3, its TF) got the reset natively too: keep it.
 */
void sigstate_program_trap(struct task *t)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) == 0 && si.si_code > 0) {
		if (t->trap_blocked || acts[SIGTRAP].handler == K_SIG_IGN)
			acts[SIGTRAP].handler = K_SIG_DFL;
		t->trap_blocked = false;
		t->sig_fix = false;
	}
}

/*
 * Before stopped @t runs again (with signal @sig): undo what a trap of
 * ours did to the program's SIGTRAP state, when it could have done
 * anything (blocked or ignored in the shadow); no syscall otherwise.
 * Returns true when @t took another stop meanwhile (kept pending for
 * the loop): it must not be resumed now.
 */
bool sigstate_restore(struct task *t, int sig)
{
	struct ksigaction *a = &acts[SIGTRAP];
	uint64_t m, buf;
	long r;

	if (!t->sig_fix) {
		clean_stop(t, sig);
		/*
		 * The query's injection met another stop first (a signal,
		 * a group-stop): that stop is now the thread's, and
		 * resuming would consume it unseen, e.g. the SIGTRAP of
		 * our int3 with rip left past it.
		 */
		if (t->has_pending) {
			t->state = TS_STOPPED;
			return true;
		}
		return false;
	}
	t->sig_fix = false;
	if (!t->sig_known || !acts_known) {
		warn_once(t, "state (not known before a trap)");
		return false;
	}
	if (!t->trap_blocked && a->handler != K_SIG_IGN)
		return false;
	if (t->trap_blocked) {
		if (ptrace(PTRACE_GETSIGMASK, t->tid, (void *)sizeof(m), &m) < 0)
			goto mask_fail;
		if (!(m & BIT(SIGTRAP))) {
			m |= BIT(SIGTRAP);
			if (ptrace(PTRACE_SETSIGMASK, t->tid, (void *)sizeof(m),
				   &m) < 0)
				goto mask_fail;
		}
	}
	/* a signal going in now would be dropped by the injection */
	if (a->handler == K_SIG_DFL || sig)
		return false;
	buf = scratch(t);
	if (!buf || mem_write(T.pid, buf, a, sizeof(*a)) < 0) {
		warn_once(t, "handler");
		return false;
	}
	r = inject(t, SYS_rt_sigaction, SIGTRAP, buf, 0, 8);
	if (r != 0 && t->has_pending) {
		t->sig_fix = true;	/* again when it next runs */
		t->state = TS_STOPPED;
		return true;
	}
	if (r != 0)
		warn_once(t, "handler");
	return false;
mask_fail:
	warn_once(t, "mask");
	return false;
}

/* -v: how the query of the signal actions went (a flood defers it). */
void sigstate_report(void)
{
	if (!Q.tries)
		return;
	vlog(1, "signal-action query: %llu tries, %llu deferred, actions %s",
	     (unsigned long long)Q.tries, (unsigned long long)Q.failed,
	     acts_known ? "known" : "never known");
}
