// SPDX-License-Identifier: GPL-2.0
/*
 * frontend.c - the dcg-trace the user signals is not the tracer.
 *
 * A ptrace tracer killed with SIGKILL cannot clean up, and the kernel's
 * own detach at its exit (exit_ptrace) resumes every thread that was in
 * a signal-delivery stop it had not yet collected with its SIGTRAP
 * still pending: a program traced in several threads dies of it nearly
 * every time (doc/reliability.md has the figures).  No process can
 * repair that after the fact; the only cure is a tracer that does not
 * die.
 *
 * So dcg-trace forks at start.  The parent, whose pid the user sees,
 * is the front end: it forwards SIGINT, SIGTERM and SIGHUP to the
 * tracer, waits for it and exits as it did.  The child is the tracer
 * and does everything else.  When the front end dies, however it dies,
 * the kernel sends the tracer SIGHUP (PR_SET_PDEATHSIG), which is the
 * same request as Ctrl-C: stop every thread, collect every stop, take
 * the int3s out, clear the trap flag, detach with no signal (and kill a
 * program it started, unless --leave-running).
 *
 * The tracer is named dcg-ptrace and has a process group of its own,
 * so that "killall dcg-trace", "pkill dcg-trace", "kill -9 %1" and
 * "timeout -s KILL" reach the front end only.  A program dcg-trace
 * starts goes back into the caller's group and keeps the terminal as
 * before.  The guardian (guardian.c) still covers the tracer itself
 * being killed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "dcg_trace.h"

#define TRACER_COMM "dcg-ptrace"

static volatile pid_t tracer_pid;
static pid_t frontend_pid;
static pid_t frontend_pgid;

static void forward(int sig)
{
	if (tracer_pid > 0)
		kill(tracer_pid, sig);
}

/* The front end's life: wait for the tracer and end as it ended. */
static void __attribute__((noreturn)) frontend_wait(sigset_t *old)
{
	static const int fwd[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	int status;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < DCG_ARRAY_SIZE(fwd); i++)
		sigaction(fwd[i], &sa, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
	while (waitpid(tracer_pid, &status, 0) < 0)
		if (errno != EINTR)
			dcg_die(1, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	/* the tracer was killed: so is the front end, as a shell would show */
	signal(WTERMSIG(status), SIG_DFL);
	raise(WTERMSIG(status));
	exit(128 + WTERMSIG(status));
}

/*
 * Split into front end and tracer; returns in the tracer only.  If the
 * fork fails, tracing goes on in this one process, as it did before
 * the split existed, and says so.
 */
void frontend_split(void)
{
	sigset_t all, old;
	pid_t pid;

	frontend_pid = getpid();
	frontend_pgid = getpgrp();
	/* no forward may reach pid 0 (our own group) before tracer_pid is set */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid < 0) {
		install_signals();
		sigprocmask(SIG_SETMASK, &old, NULL);
		frontend_pid = 0;
		dcg_warn("fork: %s: running without a front end: a SIGKILL of "
		       "dcg-trace may kill a multi-threaded program",
		       strerror(errno));
		return;
	}
	if (pid > 0) {
		tracer_pid = pid;
		frontend_wait(&old);
	}
	prctl(PR_SET_PDEATHSIG, SIGHUP);
	/*
	 * A name that "pkill dcg-trace" and "killall dcg-trace" do not
	 * match: they then kill only the front end, the safe way.
	 */
	prctl(PR_SET_NAME, TRACER_COMM, 0, 0, 0);
	/*
	 * A process group of its own, so that a SIGKILL sent to the
	 * caller's group (kill -9 %1 in a shell, timeout -s KILL) reaches
	 * only the front end.  Not being in the terminal's foreground
	 * group, it must not be stopped for writing to it (TOSTOP).
	 */
	setpgid(0, 0);
	signal(SIGTTOU, SIG_IGN);
	install_signals();	/* before the unblock: a forwarded Ctrl-C waits */
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* the front end may have died before the prctl: nothing is traced yet */
	if (getppid() != frontend_pid)
		_exit(1);
}

/*
 * In the child that becomes the program dcg-trace starts: back into the
 * caller's process group, which keeps the terminal (Ctrl-C, Ctrl-Z,
 * reading it) exactly as without dcg-trace.
 */
void frontend_program_setup(void)
{
	signal(SIGTTOU, SIG_DFL);
	if (frontend_pgid)
		setpgid(0, frontend_pgid);
}

/* The front end is gone: the stop request came from its death. */
bool frontend_gone(void)
{
	return frontend_pid && getppid() != frontend_pid;
}
