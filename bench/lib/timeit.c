// SPDX-License-Identifier: GPL-2.0
/*
 * timeit - run a command and print its wall time: "timeit: wall_ns N".
 *
 * Used inside the QEMU test bed, where busybox has no clock with
 * sub-second resolution, so that the stap-traced and the native run of
 * a job are timed the same way in the same boot.  Exits with the
 * command's status (128+signal if it was killed).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0;
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: timeit PROG ARGS...\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0) {
		perror("timeit: waitpid");
		return 2;
	}
	fprintf(stderr, "timeit: wall_ns %lld\n", now_ns() - t0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
