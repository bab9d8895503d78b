// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace-bare - the floor for bench/ptrace-bench: single-step a program
 * from its exec to its exit with nothing but PTRACE_SINGLESTEP and
 * waitpid, the least any ptrace stepper must do.  Prints
 * "stops N ns T" (T = wall time from the exec stop to the exit).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long stops = 0, t0;
	int status, sig = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptrace-bare PROG ARGS...\n");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "ptrace-bare: cannot run %s: %s\n", argv[1],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		fprintf(stderr, "ptrace-bare: %s did not start\n", argv[1]);
		return 1;
	}
	t0 = now_ns();
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, 0, (void *)(long)sig) < 0)
			break;
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			break;
		stops++;
		/* the program's own signals go through, as in dcg-trace */
		sig = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
	}
	printf("stops %llu ns %llu\n", stops, now_ns() - t0);
	return 0;
}
