// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-write FILE|- BYTES - one write() of BYTES bytes (1..65536) to
 * FILE (created or truncated), or with "-" to a fresh pipe that nobody
 * reads (a pipe holds 64 KiB, so the write never blocks): one vfs_write
 * of this task, for the kernel-mode tests.  FILE is unlinked first, so
 * that every run writes a new file.  It sleeps 20 ms (five ticks at
 * HZ=250) between open and write: the coarse clock has then moved past
 * the file's (or pipe's) creation time in every run, so the write always
 * updates its times (file_update_time's subtree), however fast the run.  Prints nothing unless something
 * fails, so that its one vfs_write is the one under test; the exit
 * status is 0 when all BYTES were written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	char *end;
	long n;
	ssize_t w;
	int fd, fds[2];

	if (argc != 3) {
		fprintf(stderr, "usage: kernel-write FILE|- BYTES\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[2], &end, 10);
	if (errno || *end || n < 1 || n > (long)sizeof(buf)) {
		fprintf(stderr, "kernel-write: bad size '%s' (1..65536)\n", argv[2]);
		return 2;
	}
	memset(buf, 'd', n);
	if (!strcmp(argv[1], "-")) {
		if (pipe(fds)) {
			fprintf(stderr, "kernel-write: pipe: %s\n", strerror(errno));
			return 1;
		}
		fd = fds[1];
	} else {
		if (unlink(argv[1]) && errno != ENOENT) {
			fprintf(stderr, "kernel-write: %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "kernel-write: %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
	}
	usleep(20000);
	w = write(fd, buf, n);
	if (w < 0) {
		fprintf(stderr, "kernel-write: write: %s\n", strerror(errno));
		return 1;
	}
	if (w != n) {
		fprintf(stderr, "kernel-write: wrote %zd of %ld bytes\n", w, n);
		return 1;
	}
	return 0;
}
