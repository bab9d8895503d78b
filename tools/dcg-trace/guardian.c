// SPDX-License-Identifier: GPL-2.0
/*
 * guardian.c - put the program's code back when the tracer dies.
 *
 * The front end (frontend.c) makes a SIGKILL of dcg-trace an orderly
 * detach; this is the second line, for the tracer process itself being
 * killed (or crashing).  A tracer killed leaves its int3 bytes in the
 * program, which the kernel then detaches, and the next call of a
 * traced function kills the program with SIGTRAP.  So at the
 * start of tracing dcg-trace forks a guardian: a small process in a
 * session of its own (a signal to dcg-trace's process group does not
 * reach it) whose only job is to wait for end of file on a pipe whose
 * write end only dcg-trace holds.  The kernel closes that end when
 * dcg-trace exits, however it exits.
 *
 * What the guardian must restore lives in a MAP_SHARED mapping made
 * before the fork: a slot per breakpoint address with its original
 * byte.  dcg-trace fills a slot BEFORE it writes the int3 and empties
 * it AFTER it wrote the original byte back for good, so the table is a
 * superset of the int3s really in memory; writing an original byte
 * that is already there does no harm.  The guardian only writes where
 * it reads 0xcc, and not at all if the program exec'd since the table
 * was filled (the image is told apart by its auxiliary vector, which
 * holds the entry point and the randomized stack addresses).
 *
 * On end of file, unless dcg-trace said it finished cleanly:
 *   - a program dcg-trace started (and was not told to leave running)
 *     is killed, as Ctrl-C would have done;
 *   - otherwise the guardian sends SIGSTOP to the process.  The pipe
 *     closes (exit_files) before the kernel detaches the tracees
 *     (exit_notify), and the guardian runs at real-time priority where
 *     allowed, so the SIGSTOP is queued while they are still traced:
 *     once detached they stop before running any code.  It then
 *     attaches to each thread for a moment: PTRACE_DETACH clears the
 *     trap flag that a single step left set (the detach at tracer exit
 *     does not), and a thread that ran free and executed one of our
 *     int3s, still unrewound, is put back on the original instruction,
 *     and one whose debug registers we wrote gets the program's own
 *     values back (a table in the same mapping, filled before our
 *     first write).  Then it restores the bytes, gives each thread
 *     that was bound to the tracer's CPU for its window (cpu_pin.c) its
 *     own CPU mask back, and sends SIGCONT.
 *
 * What it cannot save (measured on Linux 6.18; testsuite/progs/faults/
 * detachprobe.c shows the kernel's side on any kernel): a thread in a
 * breakpoint or step stop that dcg-trace had not yet collected with
 * waitpid().  That stop still carries its SIGTRAP, and the kernel
 * delivers it when it detaches the thread, before anyone can step in.
 * See doc/reliability.md.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/user.h>
#include "dcg_trace.h"

#define GUARD_SLOTS 65536	/* 1 MiB of address space, touched lazily */
#define GUARD_TIDS 4194304	/* PID_MAX_LIMIT: one byte per thread id */
#define INT3 0xcc
#define GUARD_THREADS 4096	/* threads with debug registers or a CPU of ours */

struct guard_slot {
	uint64_t addr;
	uint8_t orig;
	uint8_t used;
};

/*
 * A thread with state of ours to undo: debug registers we wrote (what
 * the program had), a CPU we bound it to (its own mask).  Each part is
 * filled before its flag goes up, and the flag before our first write.
 */
struct guard_thread {
	int32_t tid;		/* 0: free */
	uint8_t has_dr;		/* ours, prog*: DRi written by us (bit i) */
	uint8_t has_pin;	/* cpu, saved: bound to @cpu for its window */
	uint8_t ours;
	int32_t cpu;
	uint64_t prog[4], prog6, prog7;
	cpu_set_t saved;
};

struct guard_area {
	pid_t pid;		/* the traced process */
	uint32_t nslots;	/* slots in use or once used */
	uint32_t done;		/* dcg-trace finished: nothing to do */
	uint32_t kill;		/* kill the program rather than restore */
	uint32_t full;		/* breakpoints that found no slot */
	uint64_t image;		/* auxv hash of the image the slots belong to */
	/* a syscall injected (sigtrap_state.c): the thread's own registers */
	int32_t inject_tid;		/* 0: none in progress */
	struct user_regs_struct inject_regs;
	uint32_t threads_full;		/* threads that found no guard_thread */
	uint32_t nthreads;		/* guard_threads in use or once used */
	struct guard_thread threads[GUARD_THREADS];
	struct guard_slot slots[GUARD_SLOTS];
	uint8_t how[GUARD_TIDS];	/* 1 + enum resume_how, 0 = unknown */
	uint64_t from[GUARD_TIDS];	/* rip it was resumed at, 0 = unknown */
};

static struct guard_area *G;
static int guard_fd = -1;	/* write end; only dcg-trace holds it */
static int early_memfd = -1;	/* guardian: /proc/PID/mem opened by dcg-trace */

static void store_u32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* FNV-1a of /proc/PID/auxv: changes with every exec. */
static uint64_t image_id(pid_t pid)
{
	uint64_t h = 14695981039346656037ull;
	unsigned char buf[1024];
	char path[64];
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	close(fd);
	return h;
}

static struct guard_slot *slot_of(uint64_t addr)
{
	uint32_t i;

	for (i = 0; i < G->nslots; i++)
		if (G->slots[i].used && G->slots[i].addr == addr)
			return &G->slots[i];
	return NULL;
}

/* Before an int3 goes in at @addr over @orig. */
void guardian_note(uint64_t addr, uint8_t orig)
{
	struct guard_slot *s;
	uint32_t i;

	if (!G)
		return;
	s = slot_of(addr);
	if (s) {
		s->orig = orig;
		return;
	}
	for (i = 0; i < G->nslots; i++)
		if (!G->slots[i].used)
			break;
	if (i == GUARD_SLOTS) {
		if (!G->full++)
			dcg_warn("guardian: more than %d breakpoints: the rest "
			       "would stay in the program if dcg-trace were "
			       "killed", GUARD_SLOTS);
		return;
	}
	s = &G->slots[i];
	s->addr = addr;
	s->orig = orig;
	__atomic_store_n(&s->used, 1, __ATOMIC_RELEASE);
	if (i == G->nslots)
		store_u32(&G->nslots, i + 1);
}

/*
 * After the original byte at @addr is back for good.  Not while a
 * thread steps over it: a slot stays while its int3 may come back, so
 * that a thread stopped just past it is known to have trapped on it.
 */
void guardian_forget(uint64_t addr)
{
	struct guard_slot *s;

	if (G && (s = slot_of(addr)))
		__atomic_store_n(&s->used, 0, __ATOMIC_RELEASE);
}

/* exec: the old image and its breakpoints are gone. */
void guardian_forget_all(void)
{
	if (!G)
		return;
	store_u32(&G->nslots, 0);
	G->image = image_id(G->pid);
}

/*
 * @tid is being resumed @how at @rip (0: not known): tells a hit int3
 * from a completed step, and from a thread that had not run yet.
 */
void guardian_resumed(pid_t tid, int how, uint64_t rip)
{
	if (G && tid > 0 && tid < GUARD_TIDS) {
		__atomic_store_n(&G->from[tid], rip, __ATOMIC_RELAXED);
		__atomic_store_n(&G->how[tid], 1 + how, __ATOMIC_RELAXED);
	}
}

/*
 * Thread @tid is about to run a syscall we inject, with registers of
 * ours; @regs are the ones it must get back (restart fix-up applied).
 * Killed meanwhile, dcg-trace would leave it running on after the
 * vDSO's syscall insn with our registers: the guardian puts @regs back
 * if it stops the thread in time.  @tid 0: the injection is over.
 */
void guardian_injecting(pid_t tid, const struct user_regs_struct *regs)
{
	if (!G)
		return;
	if (tid) {
		__atomic_store_n(&G->inject_tid, 0, __ATOMIC_RELEASE);
		G->inject_regs = *regs;
	}
	__atomic_store_n(&G->inject_tid, tid, __ATOMIC_RELEASE);
}

/* @tid's slot, or NULL */
static struct guard_thread *thread_of(pid_t tid)
{
	uint32_t i, n = __atomic_load_n(&G->nthreads, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (__atomic_load_n(&G->threads[i].tid, __ATOMIC_ACQUIRE) == tid)
			return &G->threads[i];
	return NULL;
}

/* @tid's slot, made if need be (NULL: the table is full, said once) */
static struct guard_thread *thread_slot(pid_t tid)
{
	struct guard_thread *g = thread_of(tid);
	uint32_t n;

	if (g)
		return g;
	g = thread_of(0);
	if (!g) {
		n = G->nthreads;
		if (n == GUARD_THREADS) {
			if (!G->threads_full++)
				dcg_warn("guardian: more than %d threads with "
					 "debug registers or a CPU of ours",
					 GUARD_THREADS);
			return NULL;
		}
		store_u32(&G->nthreads, n + 1);
		g = &G->threads[n];
	}
	g->has_dr = 0;
	g->has_pin = 0;
	__atomic_store_n(&g->tid, tid, __ATOMIC_RELEASE);
	return g;
}

/* @flag (a part of @g) is down: the slot goes when both are */
static void thread_part_done(struct guard_thread *g, uint8_t *flag)
{
	__atomic_store_n(flag, 0, __ATOMIC_RELEASE);
	if (!g->has_dr && !g->has_pin)
		__atomic_store_n(&g->tid, 0, __ATOMIC_RELEASE);
}

/*
 * The debug registers of thread @tid: @d says which ones we wrote and
 * what the program had there, before the first write of each (NULL:
 * the program's values are back, or the thread is gone).
 */
void guardian_debugreg(pid_t tid, const struct dr_task *d)
{
	struct guard_thread *g;

	if (!G || tid <= 0)
		return;
	if (!d) {
		g = thread_of(tid);
		if (g)
			thread_part_done(g, &g->has_dr);
		return;
	}
	g = thread_slot(tid);
	if (!g)
		return;
	memcpy(g->prog, d->prog, sizeof(g->prog));
	g->prog6 = d->prog6;
	g->prog7 = d->prog7;
	g->ours = d->ours;
	__atomic_store_n(&g->has_dr, 1, __ATOMIC_RELEASE);
}

/*
 * Thread @tid is about to be bound to @cpu for its window; @saved is
 * the mask it had.  @cpu < 0: it has its own mask again, the program
 * took the choice over, or it is gone.  Noted before the bind and
 * forgotten after the mask is back, as the int3 slots are.
 */
void guardian_pinned(pid_t tid, int cpu, const cpu_set_t *saved)
{
	struct guard_thread *g;

	if (!G || tid <= 0)
		return;
	if (cpu < 0) {
		g = thread_of(tid);
		if (g)
			thread_part_done(g, &g->has_pin);
		return;
	}
	g = thread_slot(tid);
	if (!g)
		return;
	g->cpu = cpu;
	g->saved = *saved;
	__atomic_store_n(&g->has_pin, 1, __ATOMIC_RELEASE);
}

/*
 * The threads of @pid still bound to the one CPU we gave them get their
 * own masks back (the kernel keeps an affinity across exec, so whatever
 * the image); returns how many.  A mask that is no longer that one CPU
 * is the program's choice.
 */
static int restore_masks(pid_t pid)
{
	char path[64];
	uint32_t i;
	int n = 0;

	for (i = 0; i < G->nthreads; i++) {
		struct guard_thread *g = &G->threads[i];

		if (!g->tid || !g->has_pin)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, g->tid);
		if (access(path, F_OK) < 0)
			continue;
		if (pin_give_back(g->tid, g->cpu, &g->saved))
			n++;
	}
	return n;
}

/* Restore every noted byte in @pid's memory; returns how many. */
static int restore(pid_t pid, int *seen)
{
	char path[64];
	uint32_t i;
	int fd, n = 0;

	*seen = 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	/*
	 * Not an ancestor of a -p target, the guardian may not open it
	 * (Yama ptrace_scope 1); the descriptor dcg-trace opened for it
	 * still works, for the same image.
	 */
	if (fd < 0 && pid == G->pid && early_memfd >= 0)
		fd = dup(early_memfd);
	if (fd < 0)
		return -errno;
	for (i = 0; i < G->nslots; i++) {
		struct guard_slot *s = &G->slots[i];
		uint8_t byte;

		if (!s->used)
			continue;
		(*seen)++;
		if (pread(fd, &byte, 1, (off_t)s->addr) != 1 || byte != INT3)
			continue;
		if (pwrite(fd, &s->orig, 1, (off_t)s->addr) == 1)
			n++;
	}
	close(fd);
	return n;
}

/* Does @pid hold any of our int3s (a fork child's copy of them)? */
static bool holds_int3(pid_t pid)
{
	char path[64];
	uint32_t i;
	bool found = false;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (i = 0; i < G->nslots && !found; i++) {
		struct guard_slot *s = &G->slots[i];
		uint8_t byte;

		found = s->used && pread(fd, &byte, 1, (off_t)s->addr) == 1 &&
			byte == INT3;
	}
	close(fd);
	return found;
}

/* Has the tracer's detach happened, and has every thread stopped? */
static bool all_stopped(pid_t pid)
{
	char path[300], buf[512], *p;
	struct dirent *d;
	bool ok = true;
	DIR *dir;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return true;	/* gone */
	while (ok && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid,
			 d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		p = strrchr(buf, ')');
		/* 'T': group-stopped; 't' is still a tracing stop */
		if (p && p[1] == ' ' && p[2] != 'T' && p[2] != 'Z' &&
		    p[2] != 'X')
			ok = false;
	}
	closedir(dir);
	return ok;
}

static void wait_stopped(pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 2000 && !all_stopped(pid); i++)
		nanosleep(&ms, NULL);
}

/*
 * Did a thread that ran free and stopped at @rip trap on our int3
 * (fix_thread() knows it ran since it was resumed)?
 * The byte may be the original again already (another thread's
 * step-over put it back while this one waited).
 */
static bool trapped_on_ours(uint64_t rip)
{
	return slot_of(rip - 1) != NULL;
}

/*
 * A thread whose debug registers dcg-trace wrote (a native run of hop
 * mode, a skipped subtree's return breakpoint): the detach at tracer
 * exit does not clear them, and the next hit would kill the program
 * with SIGTRAP.  The program's own values go back, DR7 first, DR6 too
 * (single steps set its BS bit).  A
 * SIGTRAP of a hit of ours still pending (DR6 names one of our slots)
 * is dropped.
 */
static int restore_debugregs(pid_t tid, int *sig)
{
	struct guard_thread *g = thread_of(tid);
	struct user_regs_struct regs;
	uint64_t dr6 = 0, addr;
	int i, ok;

	if (!g || !g->has_dr)
		return 0;
	/* DR6 is sticky: the hit is ours if rip is on the slot it names */
	if (*sig == SIGTRAP && dr_peek(tid, 6, &dr6) == 0 &&
	    ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0)
		for (i = 0; i < 4; i++)
			if ((dr6 & g->ours & (1u << i)) &&
			    dr_peek(tid, i, &addr) == 0 && addr == regs.rip)
				*sig = 0;
	ok = dr_poke(tid, 7, g->prog7) == 0;
	for (i = 0; i < 4; i++)
		if (g->ours & (1u << i))
			dr_poke(tid, i, g->prog[i]);
	dr_poke(tid, 6, g->prog6);	/* steps set BS, hits B0-B3 */
	return ok;
}

/*
 * Thread @tid is in a group-stop and nobody traces it.  Attach for a
 * moment: PTRACE_DETACH clears the TF the dead tracer set for a single
 * step (the kernel's detach at tracer exit leaves it set, and the next
 * instruction would raise a fatal SIGTRAP), and a thread that ran free
 * and executed one of our int3s gets its rip put back on the original
 * instruction (else it would run on from the middle of it).
 */
static int fix_thread(pid_t tid)
{
	struct user_regs_struct regs;
	int status, sig = 0, fixed = 0;

	if (ptrace(PTRACE_SEIZE, tid, 0, 0) < 0)
		return 0;
	ptrace(PTRACE_INTERRUPT, tid, 0, 0);
	while (waitpid(tid, &status, __WALL) < 0)
		if (errno != EINTR)
			return 0;
	if (!WIFSTOPPED(status))
		return 0;	/* it exited */
	if ((status >> 16) == 0 && WSTOPSIG(status) != SIGSTOP)
		sig = WSTOPSIG(status);	/* a signal for it: pass it on */
	if (__atomic_load_n(&G->inject_tid, __ATOMIC_ACQUIRE) == tid) {
		/* killed in the middle of an injected syscall */
		if (ptrace(PTRACE_SETREGS, tid, 0, &G->inject_regs) == 0)
			fixed = 1;
	} else if (ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0 &&
	    tid < GUARD_TIDS && (G->how[tid] == 1 + RH_CONT ||
				 G->how[tid] == 1 + RH_HOP) &&
	    G->from[tid] != regs.rip && trapped_on_ours(regs.rip)) {
		/*
		 * Not when it is still where it was resumed: stepped over
		 * our int3 (rip one past it) and resumed, it had not run
		 * when dcg-trace died; put back, it would run the
		 * instruction twice (push %rbp: work() returned to its
		 * saved rbp, SIGSEGV; testsuite/soak-dcg-trace in hop mode,
		 * 2 rounds in 200).
		 */
		regs.rip--;
		if (ptrace(PTRACE_SETREGS, tid, 0, &regs) == 0)
			fixed = 1;
	}
	fixed |= restore_debugregs(tid, &sig);
	ptrace(PTRACE_DETACH, tid, 0, (void *)(long)sig);
	return fixed;
}

static int fix_threads(pid_t pid)
{
	char path[300];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n += fix_thread(atoi(d->d_name));
	closedir(dir);
	return n;
}

static void guard_one(pid_t pid, const char *what)
{
	uint64_t image;
	int n, seen, masks;

	kill(pid, SIGSTOP);
	wait_stopped(pid);
	image = image_id(pid);
	masks = restore_masks(pid);
	if (masks)
		fprintf(stderr, PROG ": guardian: dcg-trace died; gave %d "
			"thread(s) of %s %d their own CPU mask back\n", masks,
			what, pid);
	if (!image) {
		fprintf(stderr, PROG ": guardian: %s %d is gone (a thread "
			"in a stop dcg-trace had not collected dies of its "
			"SIGTRAP)\n", what, pid);
		return;
	}
	if (G->image && image != G->image) {
		fprintf(stderr, PROG ": guardian: %s %d exec'd since: its "
			"new image has none of our breakpoints\n", what, pid);
	} else {
		int rewound = fix_threads(pid);

		n = restore(pid, &seen);
		if (n < 0)
			fprintf(stderr, PROG ": guardian: cannot restore "
				"%d bytes in %s %d: %s\n", seen, what, pid,
				strerror(-n));
		else
			fprintf(stderr, PROG ": guardian: dcg-trace died; "
				"restored %d of %d breakpoint bytes in %s %d, "
				"%d thread(s) rewound%s\n",
				n, seen, what, pid, rewound, G->full ?
				" (some were never noted: table full)" : "");
	}
	kill(pid, SIGCONT);
}

/*
 * A child forked while we traced has a copy of our int3s; dcg-trace
 * restores it at the fork event, but may have died before.  Same image
 * (a fork copies the auxv), 0xcc where we noted a breakpoint: ours.
 */
static void guard_children(pid_t pid)
{
	char path[300];
	struct dirent *d;
	DIR *dir;
	FILE *f;
	int child;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children", pid,
			 d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &child) == 1)
			if (image_id(child) == G->image && holds_int3(child))
				guard_one(child, "fork child");
		fclose(f);
	}
	closedir(dir);
}

static void __attribute__((noreturn)) guardian_main(int rfd)
{
	char c;

	while (read(rfd, &c, 1) < 0 && errno == EINTR)
		;
	if (__atomic_load_n(&G->done, __ATOMIC_ACQUIRE))
		_exit(0);
	if (G->kill) {
		guard_children(G->pid);	/* they outlive it */
		kill(G->pid, SIGKILL);
		fprintf(stderr, PROG ": guardian: dcg-trace died; killed "
			"the program %d it started\n", G->pid);
		_exit(0);
	}
	guard_one(G->pid, "process");
	guard_children(G->pid);
	_exit(0);
}

/* Everything but the pipe and stderr goes: no trace file, no tty. */
static void guardian_detach_fds(int rfd)
{
	int fd = open("/dev/null", O_RDWR);
	int i;

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2)
			close(fd);
	}
	for (i = 3; i < 1024; i++)
		if (i != rfd && i != early_memfd)
			close(i);
}

static void guardian_signals(void)
{
	static const int ignore[] = { SIGINT, SIGQUIT, SIGHUP, SIGTERM,
				      SIGPIPE, SIGTSTP, SIGTTOU, SIGTTIN };
	unsigned int i;

	for (i = 0; i < DCG_ARRAY_SIZE(ignore); i++)
		signal(ignore[i], SIG_IGN);
}

/*
 * The race with the kernel's detach is won by running at once: a
 * real-time guardian preempts whatever runs on its CPU when the pipe
 * closes.  Without the privilege it just runs at normal priority.
 */
static void guardian_priority(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp);
}

/*
 * Fork the guardian of process @pid.  @kill_program: it was started by
 * us and is to be killed, not restored, if we die.  The guardian is a
 * grandchild, so that our waitpid(-1) never sees it.
 */
int guardian_start(pid_t pid, bool kill_program)
{
	char path[64];
	int p[2], status;
	pid_t mid;

	/* for measuring what the guardian is worth (doc/reliability.md) */
	if (getenv("DCG_TRACE_NO_GUARDIAN"))
		return 0;
	G = mmap(NULL, sizeof(*G), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (G == MAP_FAILED) {
		G = NULL;
		return -errno;
	}
	G->pid = pid;
	G->kill = kill_program;
	G->image = image_id(pid);
	if (pipe2(p, O_CLOEXEC) < 0)
		goto fail;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	early_memfd = open(path, O_RDWR | O_CLOEXEC);
	mid = fork();
	if (mid < 0) {
		status = -errno;
		close(p[0]);
		close(p[1]);
		if (early_memfd >= 0)
			close(early_memfd);
		early_memfd = -1;
		goto out;
	}
	if (mid == 0) {
		if (fork() != 0)
			_exit(0);
		setsid();
		prctl(PR_SET_NAME, "dcg-guardian", 0, 0, 0);
		guardian_signals();
		guardian_priority();
		close(p[1]);
		guardian_detach_fds(p[0]);
		guardian_main(p[0]);
	}
	close(p[0]);
	if (early_memfd >= 0)
		close(early_memfd);
	early_memfd = -1;
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR)
		;
	guard_fd = p[1];
	return 0;
fail:
	status = -errno;
out:
	munmap(G, sizeof(*G));
	G = NULL;
	return status;
}

/* dcg-trace cleaned up itself: the guardian can go. */
void guardian_done(void)
{
	if (!G)
		return;
	store_u32(&G->done, 1);
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}
