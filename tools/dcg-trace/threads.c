// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - the table of traced tasks, resuming them, and stopping
 * all of them ("the world") around a breakpoint step-over.
 *
 * Tasks are attached with PTRACE_SEIZE (directly, or automatically
 * through PTRACE_O_TRACECLONE), so PTRACE_INTERRUPT can stop one
 * without sending it a signal.  A task interrupted this way may report
 * something else first (a breakpoint, a signal, its exit): that status
 * is kept as "pending" and handled by the event loop later, and the
 * interrupt, which stays queued, is reported as a PTRACE_EVENT_STOP
 * when it next runs; the loop resumes it as if nothing happened.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "dcg_trace.h"

#ifndef PTRACE_SINGLEBLOCK
#define PTRACE_SINGLEBLOCK 33
#endif

struct task *task_find(pid_t tid)
{
	struct task *t;

	for (t = T.tasks; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

struct task *task_add(pid_t tid, pid_t tgid)
{
	struct task *t = calloc(1, sizeof(*t));

	if (!t)
		dcg_die(1, "out of memory");
	t->tid = tid;
	t->tgid = tgid;
	t->state = TS_STOPPED;
	t->how = RH_CONT;
	t->sys_nr = -1;
	t->next = T.tasks;
	T.tasks = t;
	T.ntasks++;
	return t;
}

void task_del(struct task *t)
{
	struct task **pp;

	for (pp = &T.tasks; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			T.ntasks--;
			if (t->dr.known)
				guardian_debugreg(t->tid, NULL);
			pin_window_close(t, false);
			free(t->frames);
			free(t->prof_slots);
			free(t);
			return;
		}
	}
}

int task_getregs(struct task *t)
{
	if (ptrace(PTRACE_GETREGS, t->tid, 0, &t->regs) < 0) {
		t->regs_valid = false;
		return -errno;
	}
	t->regs_valid = true;
	return 0;
}

int task_setregs(struct task *t)
{
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &t->regs) < 0)
		return -errno;
	return 0;
}

/*
 * A thread running freely is resumed with PTRACE_SYSCALL, not
 * PTRACE_CONT: sigtrap_state.c follows its signal mask and actions.
 * --native-syscalls trades that for syscalls at full speed.
 */
static int ptrace_resume(pid_t tid, enum resume_how how, int sig)
{
	long cont = T.opt.native_syscalls ? PTRACE_CONT : PTRACE_SYSCALL;
	long req = how == RH_STEP ? PTRACE_SINGLESTEP :
		   how == RH_BLOCK ? PTRACE_SINGLEBLOCK :
		   how == RH_HOP ? PTRACE_CONT : cont;

	return ptrace(req, tid, 0, (void *)(long)sig);
}

/*
 * Resume one task; @how is also what its next SIGTRAP will mean.
 * Returns 0 when resumed, 1 when another stop came first (still
 * stopped, the stop kept pending for the loop), -errno on failure.
 */
int task_resume(struct task *t, enum resume_how how, int sig)
{
	if (sigstate_restore(t, sig))
		return 1;
	if (sig)
		sigstate_signal_delivered(t, sig);
	hop_before_resume(t, how);
	guardian_resumed(t->tid, how, t->regs_valid ? t->regs.rip : 0);
	t->how = how;
	t->regs_valid = false;
	t->regs_early = false;
	t->at_bp = false;
	if (how != RH_CONT && sig)
		tflags_signal_sent(t);
	if (ptrace_resume(t->tid, how, sig) < 0) {
		/* ESRCH: it died under us (SIGKILL); waitpid will say so. */
		if (errno != ESRCH)
			dcg_warn("cannot resume thread %d: %s", t->tid,
			       strerror(errno));
		return -errno;
	}
	t->state = TS_RUNNING;
	return 0;
}

static bool is_interrupt_stop(int status)
{
	return WIFSTOPPED(status) && (status >> 16) == PTRACE_EVENT_STOP &&
	       WSTOPSIG(status) == SIGTRAP;
}

/*
 * Stop every running task but @except, so that a breakpoint byte can
 * be restored for one instruction.  Tasks blocked in vfork() or in a
 * group-stop cannot execute code and are left alone.
 */
int stop_world(struct task *except)
{
	struct task *t;
	int status, n = 0;

	for (t = T.tasks; t; t = t->next) {
		if (t == except || t->state != TS_RUNNING || t->in_vfork ||
		    t->listening)
			continue;
		if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) < 0)
			continue;
		/* gone: report it to the loop as killed */
		if (collect_stop(t->tid, &status) != t->tid)
			status = SIGKILL;
		t->state = TS_STOPPED;
		t->regs_valid = false;
		if (is_interrupt_stop(status)) {
			t->world_stopped = true;
		} else {
			t->has_pending = true;
			t->pending_status = status;
			t->interrupt_pending = true;
		}
		n++;
	}
	return n;
}

void resume_world(struct task *except)
{
	struct task *t;

	for (t = T.tasks; t; t = t->next) {
		if (t == except || !t->world_stopped)
			continue;
		t->world_stopped = false;
		/*
		 * A new thread's first stop and our interrupt can be one
		 * and the same stop: it is new only now.
		 */
		if (t->fresh) {
			first_stop(t);
			resume_task(t, 0);
			continue;
		}
		/* as before: a stepped thread keeps its step_from */
		task_resume(t, t->how, 0);
	}
}

/* A thread's name; the leader's (tid == pid) is the process's. */
void task_read_comm(pid_t pid, pid_t tid, char *comm, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	memset(comm, 0, size);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, size - 1);
	close(fd);
	if (n > 0 && comm[n - 1] == '\n')
		comm[n - 1] = 0;
}

void thread_record(struct task *t, unsigned int what)
{
	char comm[16];

	task_read_comm(t->tgid, t->tid, comm, sizeof(comm));
	dcg_write_thread(&T.w, t->tid, now_ns(), what, t->tgid, comm);
}
