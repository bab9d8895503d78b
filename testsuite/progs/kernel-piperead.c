// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-piperead [DELAY_MS] - sleep inside vfs_read: the parent reads
 * an empty pipe and blocks in pipe_read until the child, after DELAY_MS
 * (default 300), writes 8 bytes; a second read sees EOF.  Prints
 *     kernel-piperead: first=8 second=0
 * The child never calls read(), so a vfs_read probe filtered on this
 * program's name sees the parent's two reads only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[64];
	long ms = 300;
	ssize_t first, second;
	int fds[2], status;
	pid_t pid;

	if (argc > 2 || (argc == 2 && (ms = atol(argv[1])) <= 0)) {
		fprintf(stderr, "usage: kernel-piperead [DELAY_MS > 0]\n");
		return 2;
	}
	if (pipe(fds)) {
		fprintf(stderr, "kernel-piperead: pipe: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kernel-piperead: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		close(fds[0]);
		nanosleep(&ts, NULL);
		if (write(fds[1], "12345678", 8) != 8)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	first = read(fds[0], buf, sizeof(buf));
	second = read(fds[0], buf, sizeof(buf));
	waitpid(pid, &status, 0);
	printf("kernel-piperead: first=%zd second=%zd\n", first, second);
	return first == 8 && second == 0 ? 0 : 1;
}
