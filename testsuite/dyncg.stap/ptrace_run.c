// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace_run.c - run a program under ptrace, as a debugger would.
 *
 * Usage: ptrace_run PROG ARGS...  The child asks to be traced and execs
 * PROG; the parent resumes it at every stop, passing its signals on, and
 * exits with its status.  The tapset must refuse to trace it.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int st, sig;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptrace_run PROG ARGS...\n");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	for (;;) {
		if (waitpid(pid, &st, 0) < 0)
			return 1;
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st))
			return 128 + WTERMSIG(st);
		sig = WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st);
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
}
