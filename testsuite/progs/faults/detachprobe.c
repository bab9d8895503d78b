// SPDX-License-Identifier: GPL-2.0
/*
 * What does the kernel do to a tracee when its tracer dies?  This is
 * the fact the guardian (tools/dcg-trace/guardian.c) is built on.
 * A tracer single-steps a looping child ten times, then leaves it
 *   0: in the step stop it collected with waitpid()
 *   1: running, resumed with PTRACE_SINGLESTEP (TF set)
 *   2: running, resumed with PTRACE_CONT
 * and SIGKILLs itself.  Prints, per case, whether the child survived
 * or which signal killed it.  Linux 6.18 (measured): 0 and 1 die of
 * SIGTRAP (the detach at tracer exit does not clear TF), 2 survives.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static volatile unsigned long counter;

static void tracer(pid_t child, int how)
{
	int st, i;

	if (ptrace(PTRACE_SEIZE, child, 0, 0) < 0)
		_exit(1);
	ptrace(PTRACE_INTERRUPT, child, 0, 0);
	waitpid(child, &st, 0);
	for (i = 0; i < 10; i++) {
		ptrace(PTRACE_SINGLESTEP, child, 0, 0);
		waitpid(child, &st, 0);
	}
	if (how == 1)
		ptrace(PTRACE_SINGLESTEP, child, 0, 0);
	else if (how == 2)
		ptrace(PTRACE_CONT, child, 0, 0);
	kill(getpid(), SIGKILL);
}

static void probe(int how)
{
	static const char *const what[] = {
		"in a collected step stop", "stepping (TF set)", "running (PTRACE_CONT)",
	};
	pid_t child, tr;
	int st;

	child = fork();
	if (child == 0)
		for (;;)
			counter++;
	tr = fork();
	if (tr == 0)
		tracer(child, how);
	waitpid(tr, &st, 0);
	usleep(200000);
	if (waitpid(child, &st, WNOHANG) == 0) {
		printf("%s: survives\n", what[how]);
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
	} else if (WIFSIGNALED(st)) {
		printf("%s: killed by %s\n", what[how], strsignal(WTERMSIG(st)));
	} else {
		printf("%s: exited %d\n", what[how], WEXITSTATUS(st));
	}
}

int main(void)
{
	int how;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (how = 0; how < 3; how++)
		probe(how);
	return 0;
}
