// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-readsize FILE SIZE... - one read() of FILE per SIZE, in order,
 * for the argument capture test (dyncg.stap/stap-args.exp): each read()
 * is one vfs_read of this task, whose count (rdx) is SIZE.  Prints, per
 * read, what it asked for and what read() returned:
 *     read count=SIZE ret=N
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	unsigned long size;
	char *end;
	ssize_t n;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: kernel-readsize FILE SIZE...\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "kernel-readsize: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 2; i < argc; i++) {
		errno = 0;
		size = strtoul(argv[i], &end, 10);
		if (errno || *end || size > sizeof(buf)) {
			fprintf(stderr, "kernel-readsize: bad size '%s' (0 to %zu)\n",
				argv[i], sizeof(buf));
			return 2;
		}
		n = read(fd, buf, size);
		printf("read count=%lu ret=%zd\n", size, n);
	}
	return 0;
}
